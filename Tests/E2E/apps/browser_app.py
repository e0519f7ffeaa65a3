#!/usr/bin/python3
"""browser_app.py: chromium as an app of flickd's app harness, with app.py's log format.

    /usr/bin/python3 Tests/E2E/apps/browser_app.py --toolkit chromium --log FILE

Starts Debian's chromium (the binary itself, /usr/lib/chromium/chromium, without the wrapper's
extra flags) in app mode (no tab strip or toolbar: the page fills the 800 x 600 window) on a
local page whose content is 100000 x 100000 px, with software rendering only, on Wayland when
WAYLAND_DISPLAY is set (`--ozone-platform=wayland`), else on X11. The page reports to this
launcher through the DevTools protocol over a pipe (`--remote-debugging-pipe`, fds 3 and 4;
no network): a binding `flickLog(line)` the page calls, and `Runtime.evaluate` for the stdin
line "center". Every line of the log starts with CLOCK_MONOTONIC seconds, as app.py's:

    T v VALUE MS     window.scrollY changed (px), seen in a "scroll" event; MS is the timestamp
                     (ms, CLOCK_MONOTONIC) of the last DOM "wheel" event dispatched since the
                     previous offset change, or -1 if none (chromium's own animation frames
                     without one, a "center"). Measured: under Xorg event.timeStamp is the X
                     server's event time; under sway it is chromium's own time of reading
                     (or resampling) the event, later than the kernel's stamp. Chromium's
                     own fling on Wayland comes with wheel events of its own: its frames are
                     not told apart ("own" is never written; docs/APPS.md, "Browser").
    T h VALUE MS     window.scrollX changed (px)
    T paint          a requestAnimationFrame callback (one frame; requested while the content
                     moves and for 1.5 s after, so an idle page costs the guest nothing)
    T ready W H      the scrollable size (px), once known
    T center V H     the harness asked for the middle; offsets set to V, H
    T wheel DX DY MODE MS   a DOM wheel event (diagnostics; the harness ignores it)
    T clock ERR_MS RTT_MS   the page's clock converted against this process's (diagnostics)

Times: the page knows `performance.timeOrigin + performance.now()` and `timeOrigin +
event.timeStamp`, milliseconds since the Unix epoch. Chromium derives both from its monotonic
TimeTicks (CLOCK_MONOTONIC on Linux) and one process-wide offset to the wall clock, so
T = page ms / 1000 - (CLOCK_REALTIME - CLOCK_MONOTONIC), the difference measured here at
start. The "clock" line checks it: the page's converted time read through the pipe against this
process's CLOCK_MONOTONIC before and after the round trip (ERR_MS: its distance from their
midpoint).

Lines on stdin: "center", "quit" (or end of input).
"""

import argparse
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

CHROMIUM = "/usr/lib/chromium/chromium"
PR_SET_PDEATHSIG = 1  # prctl(2)
# px: chromium moves the content ~4x as far per mm of finger as GTK (a 150 mm/s flick: ~15000
# px/s, ~7500 px of coast at flickd's default model); at 20000 px the glides reached the edge.
CONTENT = (100000, 100000)

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>flickd app chromium</title>
<style>
html, body { margin: 0; }
#c { width: %(w)dpx; height: %(h)dpx;
     background: repeating-linear-gradient(#99b 0 3px, transparent 3px 200px),
                 repeating-linear-gradient(90deg, #99b 0 3px, #dde 3px 200px); }
</style></head>
<body><div id="c"></div>
<script>
"use strict";
const origin = performance.timeOrigin;
const pending = [];
function now() { return (origin + performance.now()).toFixed(3); }
// flickLog is a DevTools binding the launcher adds after the page may have started: lines
// written before it exists wait here.
function send(line) {
  pending.push(line);
  if (typeof window.flickLog === "function") { window.flickFlush(); }
}
window.flickFlush = function () { while (pending.length) window.flickLog(pending.shift()); };
let x = window.scrollX, y = window.scrollY, wheelMs = -1, wheelFresh = false;
let activeUntil = 0, looping = false, ready = false;
function frame() {
  send(now() + " paint");
  checkReady();
  if (performance.now() < activeUntil) { requestAnimationFrame(frame); } else { looping = false; }
}
// Frames are requested only while something moves: a rAF loop on an idle page would make
// chromium produce a frame every vsync and load the emulated guest.
function kick() {
  activeUntil = performance.now() + 1500;
  if (!looping) { looping = true; requestAnimationFrame(frame); }
}
function checkReady() {
  const w = document.documentElement.scrollWidth - window.innerWidth;
  const h = document.documentElement.scrollHeight - window.innerHeight;
  if (!ready && h > 2000 && w > 500) { ready = true; send(now() + " ready " + w + " " + h); }
}
addEventListener("wheel", (e) => {
  wheelMs = origin + e.timeStamp;
  wheelFresh = true;
  send(now() + " wheel " + e.deltaX + " " + e.deltaY + " " + e.deltaMode + " " + wheelMs.toFixed(3));
  kick();
}, { passive: true });
addEventListener("scroll", () => {
  const t = now();
  // The wheel event that moved the content is dispatched before the frame's scroll event;
  // a change with no wheel event since the last one is chromium's own (a smooth-scrolling
  // animation frame, a fling frame whose wheel event comes later) or a "center".
  const ms = wheelFresh ? wheelMs.toFixed(3) : "-1";
  wheelFresh = false;
  if (window.scrollY !== y) { y = window.scrollY; send(t + " v " + y + " " + ms); }
  if (window.scrollX !== x) { x = window.scrollX; send(t + " h " + x + " " + ms); }
  kick();
}, { passive: true });
window.flickCenter = function () {
  const v = Math.round((document.documentElement.scrollHeight - window.innerHeight) / 2);
  const h = Math.round((document.documentElement.scrollWidth - window.innerWidth) / 2);
  send(now() + " center " + v + " " + h);
  wheelFresh = false;
  window.scrollTo({ left: h, top: v, behavior: "instant" });
  kick();
};
addEventListener("load", kick);
kick();
</script></body></html>
"""


def mono():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def realtime_minus_monotonic():
    """CLOCK_REALTIME - CLOCK_MONOTONIC (s): the tightest of a few samples."""
    best = None
    for _ in range(9):
        a = mono()
        r = time.clock_gettime(time.CLOCK_REALTIME)
        b = mono()
        if best is None or b - a < best[0]:
            best = (b - a, r - (a + b) / 2)
    return best[1]


class DevTools:
    """The DevTools protocol over chromium's --remote-debugging-pipe: JSON messages ending in NUL."""

    def __init__(self, to_browser, from_browser, on_event):
        self.to_browser = to_browser
        self.from_browser = from_browser
        self.on_event = on_event
        self.next_id = 0
        self.replies = {}
        self.cond = threading.Condition()
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self.from_browser, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self.cond:
                    self.closed = True
                    self.cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self.cond:
                        self.replies[msg["id"]] = msg
                        self.cond.notify_all()
                else:
                    self.on_event(msg)

    def call(self, method, params=None, session=None, timeout=120.0):
        with self.cond:
            self.next_id += 1
            mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        with self.cond:
            os.write(self.to_browser, data)
            end = mono() + timeout
            while mid not in self.replies:
                if self.closed or mono() > end:
                    raise RuntimeError("%s: no reply from chromium (%s)" % (method, "pipe closed" if self.closed else "timeout"))
                self.cond.wait(end - mono())
            reply = self.replies.pop(mid)
        if "error" in reply:
            raise RuntimeError("%s: %s" % (method, reply["error"]))
        return reply.get("result", {})


def log_line(payload, offset_s):
    """The log line (app.py's format, CLOCK_MONOTONIC) of one line the page sent: "PAGE_MS kind
    fields...", PAGE_MS and the wheel times in ms since the Unix epoch on chromium's clock;
    offset_s = CLOCK_REALTIME - CLOCK_MONOTONIC (s). None for a malformed line."""
    parts = payload.split()
    try:
        t = float(parts[0]) / 1000.0 - offset_s
        kind, rest = parts[1], parts[2:]
        if kind in ("v", "h"):
            value, ms = rest
            ms = float(ms)
            rest = [value, "%.3f" % (ms - 1000.0 * offset_s) if ms >= 0 else "-1"]
        elif kind == "wheel":
            dx, dy, mode, ms = rest
            rest = [dx, dy, mode, "%.3f" % (float(ms) - 1000.0 * offset_s)]
    except (IndexError, ValueError):
        return None
    return "%.6f %s" % (t, " ".join([kind] + rest))


def chromium_command(binary, work, url, args):
    wayland = bool(os.environ.get("WAYLAND_DISPLAY"))
    cmd = [binary,
           # The guest runs it as root under Xorg, where chromium refuses its sandbox; the
           # sandbox does not change input or painting.
           "--no-sandbox",
           # Software rendering only: the guest has no GPU.
           "--disable-gpu",
           "--ozone-platform=%s" % ("wayland" if wayland else "x11"),
           "--user-data-dir=%s" % os.path.join(work, "profile"),
           "--no-first-run", "--no-default-browser-check", "--disable-default-apps", "--disable-extensions",
           "--disable-sync", "--disable-background-networking", "--disable-component-update",
           "--no-pings", "--password-store=basic", "--force-device-scale-factor=1",
           "--window-size=800,600", "--window-position=0,0",
           # Under Xorg with no window manager chromium must not think its window hidden.
           "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows",
           "--disable-features=Translate,MediaRouter,OptimizationHints,CalculateNativeWinOcclusion",
           "--remote-debugging-pipe", "--enable-logging=stderr", "--v=0"]
    if not args.smooth_scrolling:
        cmd.append("--disable-smooth-scrolling")
    if args.headless:
        cmd.append("--headless=new")
    cmd.append("--app=" + url)
    return cmd


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--toolkit", default="chromium", choices=["chromium"])
    p.add_argument("--log", required=True)
    p.add_argument("--browser", default=os.environ.get("FLICKD_CHROMIUM") or CHROMIUM)
    p.add_argument("--no-smooth-scrolling", dest="smooth_scrolling", action="store_false",
                   help="pass --disable-smooth-scrolling (chromium animates wheel scrolling by default)")
    p.add_argument("--headless", action="store_true", help="no display (a check of the launcher on the host)")
    args = p.parse_args()
    if not os.access(args.browser, os.X_OK):
        sys.exit("browser_app.py: no chromium at %s (Debian's chromium: scripts/install-deps --browser; "
                 "another build: FLICKD_CHROMIUM or --browser)" % args.browser)
    log_file = open(args.log, "w", buffering=1)
    lock = threading.Lock()

    def write(t, *parts):
        with lock:
            log_file.write("%.6f %s\n" % (t, " ".join(str(x) for x in parts)))

    write(mono(), "start", args.toolkit, os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY", "?"))
    offset_s = realtime_minus_monotonic()
    work = tempfile.mkdtemp(prefix="flickd-chromium-")
    page = os.path.join(work, "page.html")
    with open(page, "w") as f:
        f.write(PAGE % {"w": CONTENT[0], "h": CONTENT[1]})

    def to_mono_ms(page_ms):
        return page_ms - offset_s * 1000.0

    def on_event(msg):
        if msg.get("method") != "Runtime.bindingCalled":
            return
        line = log_line(msg["params"].get("payload", ""), offset_s)
        if line:
            with lock:
                log_file.write(line + "\n")

    to_r, to_w = os.pipe()      # launcher -> chromium (its fd 3)
    from_r, from_w = os.pipe()  # chromium -> launcher (its fd 4)

    def child_fds():
        a, b = os.dup(to_r), os.dup(from_w)  # out of the way of 3 and 4 first
        os.dup2(a, 3)
        os.dup2(b, 4)
        # The harness kills this launcher when it does not quit within 5 s: chromium must not
        # outlive it (and load the guest during the next server's scenarios).
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    out = open(args.log + ".chromium", "w")
    cmd = chromium_command(args.browser, work, "file://" + page, args)
    proc = subprocess.Popen(cmd, preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL,
                            stdout=out, stderr=subprocess.STDOUT)
    os.close(to_r)
    os.close(from_w)
    cdp = DevTools(to_w, from_r, on_event)
    status = 0
    try:
        session = None
        deadline = mono() + 300
        while session is None:
            targets = cdp.call("Target.getTargets")["targetInfos"]
            page_t = next((t for t in targets if t["type"] == "page" and t["url"].endswith("page.html")), None)
            if page_t:
                session = cdp.call("Target.attachToTarget", {"targetId": page_t["targetId"], "flatten": True})["sessionId"]
            elif mono() > deadline:
                raise RuntimeError("no page target within 300 s: %s" % targets)
            else:
                time.sleep(0.5)
        # bindingCalled notifications are sent only with the Runtime domain enabled.
        cdp.call("Runtime.enable", {}, session)
        cdp.call("Runtime.addBinding", {"name": "flickLog"}, session)
        cdp.call("Runtime.evaluate", {"expression": "flickFlush()"}, session)
        a = mono()
        r = cdp.call("Runtime.evaluate", {"expression": "performance.timeOrigin + performance.now()",
                                          "returnByValue": True}, session)
        b = mono()
        err_ms = to_mono_ms(r["result"]["value"]) - 1000 * (a + b) / 2
        write(b, "clock", "%.3f" % err_ms, "%.3f" % (1000 * (b - a)))
        for line in sys.stdin:
            cmd_line = line.strip()
            if cmd_line == "quit":
                break
            if cmd_line == "center":
                cdp.call("Runtime.evaluate", {"expression": "flickCenter()"}, session)
    except (RuntimeError, OSError) as e:
        print("browser_app: %s" % e, file=sys.stderr, flush=True)
        status = 1
    finally:
        try:
            cdp.call("Browser.close", timeout=3)
        except (RuntimeError, OSError):
            pass
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(3)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
