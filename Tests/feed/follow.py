"""Follows PushTally's event feed the way a pipeline would, with nothing but Python's standard library.

    python3 follow.py URL TOKEN MODE [ARGS...]

MODE `events`: opens `GET /v1/events?follow=true&heartbeat=1` (gzip when ARGS[0] is `gzip`, inflated as it
arrives), waits for a heartbeat, posts the receipts ARGS[1:] with urllib and urlencode as an extension would,
then reads until each of them has come. MODE `shutdown`: opens the stream, creates the file ARGS[0] once a
heartbeat came, then reads to the end. MODE `heartbeats`: opens the stream with `heartbeat=ARGS[1]` and reads
until ARGS[0] heartbeats came. MODE `count`: reads until ARGS[0] events came, creating the file ARGS[1] once the
stream is open (its first line read). Prints one JSON object: the lines read and how the answer ended.
"""

import http.client
import json
import os
import sys
import urllib.parse
import urllib.request
import zlib

base, token, mode, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
gzip = mode == "events" and args[0] == "gzip"
headers = {"Authorization": "Bearer " + token}
if gzip:
    headers["Accept-Encoding"] = "gzip"
beat = args[1] if mode == "heartbeats" else "1"
request = urllib.request.Request(base + "/v1/events?follow=true&heartbeat=" + beat, headers=headers)
# Generous, so a loaded machine never trips it: it only ends a test whose stream went silent for good.
response = urllib.request.urlopen(request, timeout=120)
inflater = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
pending = b""
lines = []
ended = "whole"


def next_lines():
    """The lines that arrived, as they arrive: a chunk at a time, never waiting for more than is there."""
    global pending
    chunk = response.read1(65536)
    if not chunk:
        return None
    pending += inflater.decompress(chunk) if inflater else chunk
    *complete, pending = pending.split(b"\n")
    return [json.loads(line) for line in complete if line]


posted = False
wanted = set(args[1:]) if mode == "events" else set()
try:
    while True:
        batch = next_lines()
        if batch is None:
            break
        lines += batch
        heartbeats = [line for line in lines if "heartbeat" in line]
        if mode == "events":
            if heartbeats and not posted:
                for receipt in args[1:]:
                    body = urllib.parse.urlencode({"push_id": "p-follow", "receipt_id": receipt}).encode()
                    post = urllib.request.Request(base + "/v1/receipts", data=body, method="POST")
                    post.add_header("Content-Type", "application/x-www-form-urlencoded")
                    urllib.request.urlopen(post, timeout=120).read()
                posted = True
            if wanted <= {line.get("receipt_id") for line in lines}:
                ended = "read"
                break
        elif mode == "count":
            if lines and not os.path.exists(args[1]):
                open(args[1], "w").close()
            if sum(1 for line in lines if "event_id" in line) >= int(args[0]):
                ended = "read"
                break
        elif mode == "heartbeats":
            if len(heartbeats) >= int(args[0]):
                ended = "read"
                break
        elif heartbeats and not os.path.exists(args[0]):
            open(args[0], "w").close()
except http.client.IncompleteRead:
    ended = "cut"
print(json.dumps({"lines": lines, "ended": ended, "encoding": response.headers.get("Content-Encoding")}))
