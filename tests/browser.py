#!/usr/bin/env python3
"""Open a page in headless Chromium as a user would, and report on it.

    browser.py PAGE [--size WxH] [--hash FRAGMENT]
               [--screenshot PNG [--full | --clip SELECTOR]]
               [--eval NAME=EXPRESSION]... [--timeout SECONDS]

PAGE is opened from the file system (file://). The browser is driven over
the DevTools protocol on a pipe (--remote-debugging-pipe: no port, no
network). Prints, one per line:
    load_ms=N                  navigation to the load event
    console_errors=N           console errors and uncaught exceptions
    error=TEXT                 each of them
    NAME=VALUE                 each --eval, JSON-encoded
Exits 1 when the browser cannot be started or the page does not load.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
    "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
    "--remote-debugging-pipe",
]


class Browser:
    def __init__(self, binary, timeout):
        self.profile = tempfile.mkdtemp(prefix="mmtop-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # The protocol's pipe: the browser reads fd 3 and writes fd 4.
        self.proc = subprocess.Popen(
            [binary] + FLAGS + ["--user-data-dir=" + self.profile, "about:blank"],
            pass_fds=(3, 4, to_browser_r, from_browser_w),
            preexec_fn=lambda: (os.dup2(to_browser_r, 3), os.dup2(from_browser_w, 4)),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + timeout

    def close(self):
        try:
            self.send("Browser.close")
        except (OSError, TimeoutError, RuntimeError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def read_message(self):
        while b"\0" not in self.buf:
            if time.monotonic() > self.deadline:
                raise TimeoutError("no answer from the browser in time")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_browser, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self.read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self.read_message())


def errors_of(events):
    out = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            out.append(d.get("exception", {}).get("description") or d.get("text"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append(" ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            out.append(p["entry"].get("text"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--hash", default="")
    ap.add_argument("--screenshot")
    ap.add_argument("--full", action="store_true", help="screenshot the whole page")
    ap.add_argument("--clip", help="screenshot only the element matching this CSS selector")
    ap.add_argument("--eval", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--browser", default=shutil.which("chromium") or "/usr/bin/chromium")
    a = ap.parse_args()
    width, height = (int(x) for x in a.size.split("x"))
    url = "file://" + os.path.abspath(a.page) + ("#" + a.hash if a.hash else "")

    b = Browser(a.browser, a.timeout)
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            b.send(domain + ".enable", session=s)
        b.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1,
            "mobile": width < 600}, session=s)
        start = time.monotonic()
        b.send("Page.navigate", {"url": url}, session=s)
        b.wait_event("Page.loadEventFired")
        print("load_ms=%d" % ((time.monotonic() - start) * 1000))
        results = []
        for item in a.eval:
            name, expr = item.split("=", 1)
            r = b.send("Runtime.evaluate", {"expression": expr, "returnByValue": True},
                       session=s)
            if "exceptionDetails" in r:
                results.append((name, "exception: " + r["exceptionDetails"].get("text", "")))
            else:
                results.append((name, json.dumps(r["result"].get("value"))))
        if a.screenshot:
            params = {"format": "png"}
            if a.clip:
                box = b.send("Runtime.evaluate", {"expression": (
                    "(r => [r.x + scrollX, r.y + scrollY, r.width, r.height])"
                    "(document.querySelector(%s).getBoundingClientRect())" % json.dumps(a.clip)),
                    "returnByValue": True}, session=s)["result"]["value"]
                params.update(captureBeyondViewport=True, clip={
                    "x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1})
            elif a.full:
                size = b.send("Page.getLayoutMetrics", session=s)["cssContentSize"]
                params.update(captureBeyondViewport=True, clip={
                    "x": 0, "y": 0, "width": size["width"], "height": size["height"],
                    "scale": 1})
            shot = b.send("Page.captureScreenshot", params, session=s)
            with open(a.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        errors = errors_of(b.events)
        print("console_errors=%d" % len(errors))
        for e in errors:
            print("error=" + " ".join(str(e).split()))
        for name, value in results:
            print("%s=%s" % (name, value))
    except (TimeoutError, RuntimeError, OSError) as e:
        print("browser: %s" % e, file=sys.stderr)
        return 1
    finally:
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
