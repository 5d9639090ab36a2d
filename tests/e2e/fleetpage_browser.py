#!/usr/bin/env python3
"""fleetpage_browser.py CHROMIUM PAGE.html EXPLAIN.json OUTDIR

Opens the fleet page in headless Chromium over the DevTools protocol (a
pipe: --remote-debugging-pipe, no port, no extra library) at a desktop and
a phone width.  Fails on any console error, uncaught exception or log
error, on any request but the page's own file, when the page is wider than
the screen, or when a figure the page shows differs from explain --format
json (each priced cost shows its unit price; a line says what made the
page).  Keeps a screenshot per width in OUTDIR (desktop.png, phone.png).
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

WIDTHS = (("desktop", 1280, 900, False), ("phone", 390, 844, True))


class Browser:
    def __init__(self, chromium, profile):
        r3, w3 = os.pipe()  # commands: we write, chromium reads fd 3
        r4, w4 = os.pipe()  # answers: chromium writes fd 4, we read

        def child():
            os.dup2(r3, 3)
            os.dup2(w4, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-default-apps",
             "--user-data-dir=" + profile, "about:blank"],
            pass_fds=(3, 4, r3, w4), preexec_fn=child,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r3)
        os.close(w4)
        self.w, self.r = os.fdopen(w3, "wb"), os.fdopen(r4, "rb")
        self.next_id, self.events, self.pending = 0, [], b""

    def read(self):
        while b"\0" not in self.pending:
            chunk = os.read(self.r.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.pending += chunk
        msg, self.pending = self.pending.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.w.write(json.dumps(msg).encode() + b"\0")
        self.w.flush()
        while True:
            m = self.read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait(self, method, seconds=20):
        end = time.time() + seconds
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self.read())
        raise RuntimeError("no %s within %ds" % (method, seconds))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        self.proc.wait(timeout=20)


FIGURES = r"""
(() => {
  const rows = sel => [...document.querySelectorAll(sel)];
  const text = td => td.textContent.trim();
  return {
    totals: document.getElementById('totals').textContent,
    made: (document.getElementById('made') || {textContent: ''}).textContent,
    recovery: rows('#recovery tbody tr').map(tr => ({
      site: tr.querySelector('th').textContent,
      total: text(tr.cells[6]), target: text(tr.cells[7])})),
    sets: rows('#whatif tbody tr').map(tr => ({
      sites: tr.querySelector('th').textContent,
      lost: text(tr.cells[1]), launchable: text(tr.cells[2]),
      shortfall: text(tr.cells[3]), cost: text(tr.cells[5])})),
    charts: rows('svg[role=img]').length,
    titled: rows('svg[role=img] > title').length,
    wide: document.documentElement.scrollWidth > window.innerWidth,
  };
})()
"""


def duration(s):
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return ("%dh" % h if h else "") + ("%dm" % m if h or m else "") + "%ds" % sec


def check_figures(fig, d, width, errors):
    sites = {s["name"]: s for s in d["sites"]}
    gpus = sum(c["onPremGpus"] for c in d["clusters"])
    if ("%d on-prem GPUs" % gpus) not in fig["totals"]:
        errors.append("%s: totals %r, explain %d GPUs" % (width, fig["totals"], gpus))
    if len(fig["recovery"]) != len(d["sites"]):
        errors.append("%s: %d recovery rows, %d sites" % (width, len(fig["recovery"]), len(d["sites"])))
    for r in fig["recovery"]:
        rec = sites[r["site"]]["recovery"]
        if r["total"] != duration(rec["totalSeconds"]):
            errors.append("%s: %s total %r, explain %ds" % (width, r["site"], r["total"], rec["totalSeconds"]))
    sets = {" + ".join(w["sites"]): w for w in d["whatIf"]["sets"]}
    if len(fig["sets"]) != len(sets):
        errors.append("%s: %d what-if rows, explain %d" % (width, len(fig["sets"]), len(sets)))
    for r in fig["sets"]:
        w = sets.get(r["sites"])
        if not w:
            errors.append("%s: set %r not in explain" % (width, r["sites"]))
            continue
        got = (r["lost"], r["launchable"], r["shortfall"].split()[0])
        want = (str(w["lostGpus"]), str(w["launchableGpus"]), str(w["shortfallGpus"]))
        if got != want:
            errors.append("%s: set %r %r, explain %r" % (width, r["sites"], got, want))
        if w["costPerHour"] is not None and not r["cost"].startswith("$%.2f/h" % w["costPerHour"]):
            errors.append("%s: set %r cost %r, explain %s" % (width, r["sites"], r["cost"], w["costPerHour"]))
        if w["costPerHour"] is not None and " at $" not in r["cost"]:
            errors.append("%s: set %r cost %r names no unit price" % (width, r["sites"], r["cost"]))
    if not fig["made"].startswith("Made by gpusite "):
        errors.append("%s: no line says what made the page: %r" % (width, fig["made"]))
    if fig["charts"] != len(d["sites"]) or fig["titled"] != fig["charts"]:
        errors.append("%s: %d charts (%d titled) for %d sites" % (width, fig["charts"], fig["titled"], len(d["sites"])))
    if fig["wide"]:
        errors.append("%s: the page is wider than the screen" % width)


def visit(b, url, d, outdir, name, w, h, mobile, errors):
    target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        b.call(domain + ".enable", session=s)
    b.call("Emulation.setDeviceMetricsOverride",
           {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile}, session=s)
    b.call("Page.navigate", {"url": url}, session=s)
    b.wait("Page.loadEventFired")
    fig = b.call("Runtime.evaluate", {"expression": FIGURES, "returnByValue": True},
                 session=s)["result"]["value"]
    check_figures(fig, d, name, errors)
    shot = b.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                  session=s)
    with open(os.path.join(outdir, name + ".png"), "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    for e in b.events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Network.requestWillBeSent" and p["request"]["url"] != url:
            errors.append("%s: a request for %s" % (name, p["request"]["url"]))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
            errors.append("%s: console %s" % (name, p.get("type")))
        elif m == "Runtime.exceptionThrown":
            errors.append("%s: an exception" % name)
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            errors.append("%s: log error %s" % (name, p["entry"].get("text")))
    b.events.clear()
    b.call("Target.closeTarget", {"targetId": target})


def main():
    chromium, page, explain, outdir = sys.argv[1:5]
    d = json.load(open(explain))
    os.makedirs(outdir, exist_ok=True)
    url = "file://" + os.path.abspath(page)
    errors = []
    with tempfile.TemporaryDirectory() as profile:
        b = Browser(chromium, profile)
        try:
            for name, w, h, mobile in WIDTHS:
                visit(b, url, d, outdir, name, w, h, mobile, errors)
        finally:
            b.close()
    for e in errors:
        print("fleetpage_browser: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
