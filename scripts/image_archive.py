#!/usr/bin/env python3
"""Writes a root filesystem as a one-layer container image in the Docker archive format (`docker save`'s), which
`docker load` and `podman load` take. The layer inside is gzip-compressed (both loaders inflate it); the archive
itself is not, as podman 4 loads no compressed archive. Every entry is owned by root except /data (the image's
user), and carries the given creation time, so the same inputs give the same bytes.

Usage: image_archive.py ROOTFS ARCHIVE --tag NAME:TAG [--tag ...] --version V --revision COMMIT --created RFC3339
"""
import argparse
import datetime
import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile

UID = GID = 10001
PORT = 8080


def image_config(diff_id, version, revision, created):
    """The image's settings: what `docker inspect` shows and `docker run` starts with."""
    return {
        "architecture": "amd64",
        "os": "linux",
        "created": created,
        "config": {
            "User": f"{UID}:{GID}",
            "Env": [
                "PATH=/usr/bin",
                # Inside a container the collector faces the container's network; publishing the port decides who reaches it.
                "PUSHTALLY_HOST=0.0.0.0",
                f"PUSHTALLY_PORT={PORT}",
                "PUSHTALLY_DATABASE=/data/pushtally.sqlite",
            ],
            "Entrypoint": ["/usr/bin/pushtally"],
            "Cmd": ["serve"],
            # The PostgreSQL device secret's default (./pushtally.secret) lands in the volume too.
            "WorkingDir": "/data",
            "Volumes": {"/data": {}},
            "ExposedPorts": {f"{PORT}/tcp": {}},
            "StopSignal": "SIGTERM",
            "Healthcheck": {
                "Test": ["CMD", "/usr/bin/pushtally", "healthcheck"],
                "Interval": 30_000_000_000,
                "Timeout": 10_000_000_000,
                "StartPeriod": 10_000_000_000,
                "Retries": 3,
            },
            "Labels": {
                "org.opencontainers.image.title": "PushTally",
                "org.opencontainers.image.description": "Self-hosted push delivery analytics collector",
                "org.opencontainers.image.version": version,
                "org.opencontainers.image.revision": revision,
                "org.opencontainers.image.created": created,
            },
        },
        "rootfs": {"type": "layers", "diff_ids": [diff_id]},
        "history": [{"created": created, "created_by": "scripts/build-image"}],
    }


class Digesting:
    """A file to write that passes bytes on and hashes them: the layer's diff id is the digest of the plain tar."""

    def __init__(self, target):
        self.target = target
        self.digest = hashlib.sha256()

    def write(self, data):
        self.digest.update(data)
        return self.target.write(data)


def write_layer(rootfs, path, mtime):
    """Writes the gzip-compressed layer to `path` and returns the plain tar's digest."""
    def owned(info):
        info.mtime = mtime
        data = info.name == "data" or info.name.startswith("data/")
        info.uid, info.gid = (UID, GID) if data else (0, 0)
        info.uname, info.gname = ("pushtally", "pushtally") if data else ("root", "root")
        return info

    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=6) as zipped:
        plain = Digesting(zipped)
        with tarfile.open(fileobj=plain, mode="w|", format=tarfile.PAX_FORMAT) as layer:
            for name in sorted(os.listdir(rootfs)):
                layer.add(os.path.join(rootfs, name), arcname=name, filter=owned)
    return plain.digest.hexdigest()


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def add_bytes(archive, name, data, mtime):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = mtime
    archive.addfile(info, io.BytesIO(data))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rootfs")
    parser.add_argument("archive")
    parser.add_argument("--tag", action="append", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--revision", required=True)
    parser.add_argument("--created", required=True)
    options = parser.parse_args()
    mtime = int(datetime.datetime.fromisoformat(options.created.replace("Z", "+00:00")).timestamp())

    with tempfile.TemporaryDirectory() as work:
        layer_path = os.path.join(work, "layer.tar.gz")
        diff_id = write_layer(options.rootfs, layer_path, mtime)
        layer_name = f"{sha256(layer_path)}/layer.tar.gz"
        config = json.dumps(
            image_config(f"sha256:{diff_id}", options.version, options.revision, options.created),
            sort_keys=True, separators=(",", ":")).encode()
        config_name = hashlib.sha256(config).hexdigest() + ".json"
        manifest = json.dumps([{"Config": config_name, "RepoTags": options.tag, "Layers": [layer_name]}]).encode()

        partial = options.archive + ".tmp"
        with tarfile.open(partial, mode="w", format=tarfile.PAX_FORMAT) as archive:
            add_bytes(archive, config_name, config, mtime)
            info = archive.gettarinfo(layer_path, arcname=layer_name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = mtime, 0, 0, "root", "root"
            with open(layer_path, "rb") as layer:
                archive.addfile(info, layer)
            add_bytes(archive, "manifest.json", manifest, mtime)
        shutil.move(partial, options.archive)


main()
