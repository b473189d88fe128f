#!/usr/bin/env python3
"""Pages a commit in a SQLite write-ahead log, by the table or index that owns each page.

Usage: wal_pages.py DATABASE WAL
DATABASE and WAL are a copy taken while the writer was idle. Frames are read from the log's start while their
salts match the header's and their running checksums hold (a frame of an earlier log generation, or a torn one,
ends the walk), grouped into commits at each commit frame. Each page is named by the owner `dbstat` gives it in
the database as the log leaves it (page 1, the database header, by itself). Prints the commits, frames and distinct
pages a commit, then the distinct pages a commit by owner (those at 0.01 or more).
"""
import collections
import shutil
import sqlite3
import struct
import sys
import tempfile


def checksum(data, s0, s1, big_endian):
    words = struct.unpack((">" if big_endian else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def commits(log):
    magic, _, page_size, _, salt1, salt2, c0, c1 = struct.unpack(">8I", log[:32])
    if magic not in (0x377F0682, 0x377F0683):
        raise SystemExit("not a write-ahead log")
    big_endian = magic & 1
    s0, s1 = checksum(log[:24], 0, 0, big_endian)
    if (s0, s1) != (c0, c1):
        raise SystemExit("the log's header checksum does not hold")
    found, pending, offset = [], [], 32
    while offset + 24 + page_size <= len(log):
        page, size_after, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", log[offset:offset + 24])
        if (f_salt1, f_salt2) != (salt1, salt2):
            break
        s0, s1 = checksum(log[offset:offset + 8], s0, s1, big_endian)
        s0, s1 = checksum(log[offset + 24:offset + 24 + page_size], s0, s1, big_endian)
        if (s0, s1) != (f0, f1):
            break
        pending.append(page)
        if size_after:
            found.append(pending)
            pending = []
        offset += 24 + page_size
    return found


def owners(database, wal):
    folder = tempfile.mkdtemp()
    shutil.copy(database, folder + "/copy.db")
    shutil.copy(wal, folder + "/copy.db-wal")
    connection = sqlite3.connect(folder + "/copy.db")
    try:
        named = {page: name for name, page in connection.execute("SELECT name, pageno FROM dbstat")}
    finally:
        connection.close()
        shutil.rmtree(folder)
    named[1] = "(page 1: database header)"
    return named


def main():
    database, wal = sys.argv[1], sys.argv[2]
    with open(wal, "rb") as file:
        found = commits(file.read())
    if not found:
        raise SystemExit("no commit in the log")
    named = owners(database, wal)
    by_owner = collections.Counter()
    for pages in found:
        for page in set(pages):
            by_owner[named.get(page, "(free page)")] += 1
    count = len(found)
    frames = sum(map(len, found)) / count
    pages = sum(len(set(pages)) for pages in found) / count
    print(f"{count} commits in the log, {pages:.2f} pages a commit ({frames:.2f} frames)")
    for name, n in by_owner.most_common():
        if n / count >= 0.01:
            print(f"  {name:36s} {n / count:5.2f}")


if __name__ == "__main__":
    main()
