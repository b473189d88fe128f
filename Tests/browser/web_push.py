"""Web pushes through a real service worker in headless Chromium, driven over the DevTools protocol.

Usage: web_push.py SITE_PORT COLLECTOR_URL [--bounds]

Serves web_push_site/ and clients/web/pushtally-sw.js on http://127.0.0.1:SITE_PORT (the site, which the
collector lists with --cors-origin) and the same files on http://localhost:SITE_PORT (another origin, not
listed). Pushes reach the site's worker through ServiceWorker.deliverPushMessage; clicks and closes go to the
handlers PushTally installed (web_push_site/test-sw.js); part of it runs with the worker offline (network
emulation on its target). With --bounds it also fills the outbox past its bounds (the client's own logic,
the same whatever the collector; it takes a while). Prints one JSON line of what it saw; the Swift test checks it and the stored events.
"""
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import websocket  # websocket-client, which selenium installs

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.join(HERE, "..", "..", "clients", "web", "pushtally-sw.js")


class Site(http.server.SimpleHTTPRequestHandler):
    """web_push_site/ plus the client library at /pushtally-sw.js, as a site deploys it."""

    def translate_path(self, path):
        if path.split("?")[0] == "/pushtally-sw.js":
            return CLIENT
        return super().translate_path(path)

    def log_message(self, *args):
        pass


class DevTools:
    """One browser-level DevTools connection; sessions of attached targets share it (flat mode)."""

    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def event(self, method, check=lambda params: True, session=None):
        """The first event `method` (of target `session`, when given) whose params pass `check`, read from the
        connection until it comes."""
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and session in (None, event.get("sessionId")) and check(event.get("params", {})):
                    return self.events.pop(index)["params"]
            self.events.append(json.loads(self.socket.recv()))

    def evaluate(self, session, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


def launch_chromium(profile):
    process = subprocess.Popen(
        ["/usr/bin/chromium", "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "--no-first-run", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + 60
    while not os.path.exists(port_file) or len(open(port_file).read().split("\n")) < 2:
        if time.time() > deadline or process.poll() is not None:
            raise RuntimeError("Chromium did not start")
        time.sleep(0.1)
    port, path = open(port_file).read().split("\n")[:2]
    return process, f"ws://127.0.0.1:{port}{path}"


def main():
    site_port, collector = int(sys.argv[1]), sys.argv[2].rstrip("/")
    site = f"http://127.0.0.1:{site_port}"
    foreign = f"http://localhost:{site_port}"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", site_port), functools.partial(Site, directory=os.path.join(HERE, "web_push_site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix="pushtally-chromium-")
    chromium, url = launch_chromium(profile)
    try:
        print(json.dumps(run(DevTools(url), site, foreign, collector, bounds="--bounds" in sys.argv[3:])))
    finally:
        chromium.kill()
        chromium.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)


def run(tools, site, foreign, collector, bounds):
    out = {}
    page_target = tools.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    page = tools.send("Target.attachToTarget", {"targetId": page_target, "flatten": True})["sessionId"]
    tools.send("Browser.grantPermissions", {"origin": site, "permissions": ["notifications"]})
    tools.send("ServiceWorker.enable", {}, page)
    tools.send("Page.enable", {}, page)
    tools.send("Page.navigate", {"url": f"{site}/index.html"}, page)
    tools.event("Page.loadEventFired", session=page)
    worker_url = f"{site}/test-sw.js?collector={collector}"
    tools.evaluate(page, f"navigator.serviceWorker.register({json.dumps(worker_url)}).then(() => navigator.serviceWorker.ready).then(() => true)")
    registration = tools.event(
        "ServiceWorker.workerVersionUpdated",
        lambda params: any(v["scriptURL"] == worker_url and v["status"] == "activated" for v in params["versions"]))
    registration_id = next(v["registrationId"] for v in registration["versions"] if v["scriptURL"] == worker_url)
    worker_target = next(
        t["targetId"] for t in tools.send("Target.getTargets")["targetInfos"] if t["type"] == "service_worker" and t["url"] == worker_url)
    worker = tools.send("Target.attachToTarget", {"targetId": worker_target, "flatten": True})["sessionId"]
    tools.send("Network.enable", {}, worker)

    counts = {"push": 0, "sync": 0}

    def push(payload):
        counts["push"] += 1
        tools.send("ServiceWorker.deliverPushMessage", {"origin": site, "registrationId": registration_id, "data": json.dumps(payload)}, page)

    def message(body):
        """Posts `body` to the worker from the page, with the counts of events it is to have seen first, and
        returns its answer."""
        body = dict(body, counts=counts)
        answer = tools.evaluate(page, f"""
            navigator.serviceWorker.ready.then((registration) => new Promise((resolve) => {{
                const channel = new MessageChannel();
                channel.port1.onmessage = (event) => resolve(event.data);
                registration.active.postMessage({json.dumps(body)}, [channel.port2]);
            }}))""")
        if not answer["ok"]:
            raise RuntimeError(f"the worker answered {body} with {answer['error']}")
        return answer["value"]

    def settle():
        return message({"type": "settle"})

    def offline(flag):
        tools.send("Network.emulateNetworkConditions",
                   {"offline": flag, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, worker)

    # Online: the shape PushTally documents, FCM's web push shape (push_id under data), and a push without an id.
    push({"push_id": "3001", "title": "Spring sale", "body": "Up to 40% off", "url": "/sale",
          "actions": [{"action": "later", "title": "Later"}]})
    push({"notification": {"title": "New article", "body": "Read it now"}, "data": {"push_id": 3002}})
    push({"title": "Untracked", "body": "no push_id"})
    first = settle()
    out["notifications"] = first["notifications"]
    out["stats_online"] = first["stats"]
    # The click on 3001 may not open its page (no real click granted it): the tap is kept all the same.
    message({"type": "click", "push_id": "3001", "action": "later"})
    message({"type": "click", "push_id": "3002"})
    # A push_id the collector refuses (over 128 bytes): dropped and counted, never retried.
    push({"push_id": "3" * 200, "title": "Refused"})
    out["stats_refused"] = settle()["stats"]

    # Offline: shown and queued, nothing reaches the collector.
    offline(True)
    push({"push_id": "3003", "title": "Offline one"})
    push({"push_id": "3004", "title": "Offline two"})
    message({"type": "click", "push_id": "3003"})
    message({"type": "close", "push_id": "3004"})
    out["stats_offline"] = settle()["stats"]

    # Back online: Background Sync (dispatched as the browser would) sends the queue.
    offline(False)
    counts["sync"] += 1
    tools.send("ServiceWorker.dispatchSyncEvent",
               {"origin": site, "registrationId": registration_id, "tag": "pushtally-flush", "lastChance": False}, page)
    out["stats_after_sync"] = settle()["stats"]
    push({"push_id": "3005", "title": "Online again"})
    message({"type": "close", "push_id": "3005"})
    out["stats_final"] = settle()["stats"]
    out["device_id"] = message({"type": "deviceID"})

    if bounds:
        # Offline: an event older than 7 days is dropped, then the oldest past 1,000 events.
        offline(True)
        out["stats_aged"] = message({"type": "record", "first": 4000, "count": 1, "daysAgo": 8})
        out["stats_full"] = message({"type": "record", "first": 400000, "count": 1002})
        offline(False)
        out["stats_drained"] = message({"type": "record", "first": 0, "count": 0})

    # The site's own page posts a session and a conversion across origins (JSON: a preflight each).
    out["page_posts"] = tools.evaluate(page, f"""
        Promise.all([
            ["/v1/sessions", {{"device_id": "web-page", "session_id": "s-1", "ts": Date.now() / 1000, "app": "site"}}],
            ["/v1/conversions", {{"device_id": "web-page", "event": "signup", "conversion_id": "c-1"}}],
        ].map(([path, body]) => fetch({json.dumps(collector)} + path, {{
            method: "POST", headers: {{"Content-Type": "application/json"}}, body: JSON.stringify(body)}})
            .then((response) => response.status)))""")

    # A page on an origin that is not listed: a plain form POST (no preflight) is refused, and so is a JSON one.
    tools.send("Network.enable", {}, page)
    tools.send("Page.navigate", {"url": f"{foreign}/index.html"}, page)
    tools.event("Page.loadEventFired", session=page)
    out["foreign_form_fetch"] = tools.evaluate(page, f"""
        fetch({json.dumps(collector + "/v1/receipts")}, {{method: "POST", mode: "no-cors",
            headers: {{"Content-Type": "application/x-www-form-urlencoded"}},
            body: "push_id=3999&device_id=foreign&receipt_id=foreign-1&platform=web"}})
            .then((response) => response.type, (error) => "failed: " + error)""")
    refused = tools.event(
        "Network.responseReceived", lambda params: params["response"]["url"] == collector + "/v1/receipts", session=page)
    out["foreign_status"] = refused["response"]["status"]
    out["foreign_headers"] = sorted(name.lower() for name in refused["response"]["headers"])
    out["foreign_json_fetch"] = tools.evaluate(page, f"""
        fetch({json.dumps(collector + "/v1/receipts")}, {{method: "POST", headers: {{"Content-Type": "application/json"}},
            body: JSON.stringify({{"push_id": "3998", "device_id": "foreign", "receipt_id": "foreign-2"}})}})
            .then((response) => "status " + response.status, (error) => "failed")""")
    return out


if __name__ == "__main__":
    main()
