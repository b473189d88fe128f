#!/usr/bin/env python3
"""A webhook receiver for the test suite: verifies every message with the PyPI `standardwebhooks` package
(not PushTally's code) and records it as one JSON line.

Usage: receiver.py SECRET_FILE LOG_FILE PORT_FILE [--fail N] [--status CODE] [--listen ADDRESS] [--tls CERT KEY]
  SECRET_FILE  read on each request (the secret is known only after the webhook is created)
  LOG_FILE     one line per request: {"verified", "id", "timestamp", "type", "body", "content_length", "chunked"}
  PORT_FILE    the port it listens on (127.0.0.1, any free port) is written here once listening
  --listen A   listen on address A instead of 127.0.0.1 (0.0.0.0: reachable from a container)
  --tls C K    HTTPS with the PEM certificate chain C and key K
  --fail N     answer 500 to the first N requests, then 200
  --status C   answer C to every request (410 to test disabling)
  --hang S     hold the first request S seconds before answering (a delivery in flight when the collector dies)
  --delay S    wait S seconds before reading each request (it is logged only then): a slow receiver, so
               deliveries are still in flight when a test kills the collector
"""
import json
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

secret_file, log_file, port_file = sys.argv[1:4]
options = sys.argv[4:]
fail_first = int(options[options.index("--fail") + 1]) if "--fail" in options else 0
fixed_status = int(options[options.index("--status") + 1]) if "--status" in options else None
hang_first = float(options[options.index("--hang") + 1]) if "--hang" in options else 0
delay = float(options[options.index("--delay") + 1]) if "--delay" in options else 0
lock = threading.Lock()
seen = {"requests": 0}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        if delay:
            time.sleep(delay)
        length = self.headers.get("content-length")
        body = self.rfile.read(int(length)) if length is not None else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            with open(secret_file) as f:
                secret = f.read().strip()
            Webhook(secret).verify(body, headers)
            verified = True
        except (WebhookVerificationError, OSError, ValueError) as error:
            verified = False
            sys.stderr.write(f"verification failed: {error}\n")
        with lock:
            seen["requests"] += 1
            number = seen["requests"]
            try:
                payload = json.loads(body)
            except ValueError:
                payload = None
            record = {
                "verified": verified,
                "id": headers.get("webhook-id"),
                "timestamp": headers.get("webhook-timestamp"),
                "type": payload.get("type") if isinstance(payload, dict) else None,
                "body": payload,
                "content_length": length is not None,
                "chunked": "chunked" in headers.get("transfer-encoding", ""),
            }
            with open(log_file, "a") as f:
                f.write(json.dumps(record) + "\n")
        if number == 1 and hang_first:
            time.sleep(hang_first)
        if fixed_status is not None:
            status = fixed_status
        elif number <= fail_first:
            status = 500
        else:
            status = 200 if verified else 401
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


listen = options[options.index("--listen") + 1] if "--listen" in options else "127.0.0.1"
server = ThreadingHTTPServer((listen, 0), Handler)
if "--tls" in options:
    certificate, key = options[options.index("--tls") + 1 : options.index("--tls") + 3]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os

os.replace(port_file + ".tmp", port_file)
server.serve_forever()
