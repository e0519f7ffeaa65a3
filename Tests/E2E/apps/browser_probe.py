#!/usr/bin/python3
"""Does a browser run acceptably in the e2e guest? Not part of the measured matrix (docs/APPS.md).

    Tests/E2E/guest run --mem 3072 --timeout 900 -- /usr/bin/python3 Tests/E2E/apps/browser_probe.py \
        [--browser chromium|firefox] [--server sway|xorg] [--flicks 3]

chromium (Tests/E2E/apps/browser_app.py, the harness's launcher): starts the server as harness.py
does, with a virtual Synaptics T440 pad, then chromium on its tall and wide page, and reports how
long until the page's first frame and scrollable size reached the log and until the server
shows the window; then plays --flicks two-finger flicks (150 mm/s down) and reports, per flick,
how often the page painted and its offset changed while the content moved, and where the DOM
wheel events' timestamps lie against the kernel's stamps of the finger's frames.
firefox (sway only): firefox-esr on a tall local page; how long until sway shows its window.
Each prints one JSON line.
"""

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def cpu_ticks():
    """{command name: CPU time (clock ticks, user + system)} summed over the guest's processes."""
    out = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = open(stat).read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        out[name] = out.get(name, 0) + int(fields[11]) + int(fields[12])
    return out


def cpu_share(before, after, seconds):
    """The busiest command names between two cpu_ticks() and the guest's idle share, as
    fractions of one CPU over `seconds`."""
    hz = os.sysconf("SC_CLK_TCK")
    used = {k: (after.get(k, 0) - before.get(k, 0)) / hz / seconds for k in after}
    top = sorted(((k, round(v, 2)) for k, v in used.items() if v >= 0.02), key=lambda kv: -kv[1])[:8]
    return {"of_one_cpu": dict(top), "total": round(sum(used.values()), 2), "cpus": os.cpu_count()}


def window_shown(server):
    """Whether the server shows chromium's window (sway: its tree; Xorg: the root's children)."""
    if isinstance(server, harness.Sway):
        tree = server.swaymsg("-t", "get_tree").stdout
        return '"app_id": "chromium' in tree or "flickd app chromium" in tree
    try:
        r = subprocess.run(["xwininfo", "-display", ":1", "-root", "-tree"], capture_output=True, text=True, timeout=20)
    except FileNotFoundError:  # x11-utils not installed: the page's first frame is what counts
        return True
    return "flickd app chromium" in r.stdout


def probe_chromium(args):
    # Readable by the unprivileged sway user ($E2E_TMP is not); kept with --results.
    work = os.path.join(os.environ.get("E2E_RESULTS") or "/tmp", "flickd-browser-%s" % args.server)
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    pad = harness.vdev.TouchDevice(harness.vdev.load(harness.PAD), udev_timeout=90.0)
    server = app = None
    result = {"browser": "chromium", "server": args.server}
    try:
        t = harness.mono()
        server = harness.SERVERS[args.server](work)
        result["server_started_s"] = round(harness.mono() - t, 1)
        t0 = harness.mono()
        try:
            app = harness.App(server, "chromium", work)
        except RuntimeError as e:
            result["error"] = str(e)[-1500:]
            return result
        lines = app.lines()
        start = lines[0][0]
        first_paint = next(tl for tl, kind, _ in lines if kind == "paint")
        ready = next(tl for tl, kind, _ in lines if kind == "ready")
        result["first_paint_s"] = round(first_paint - start, 1)
        result["ready_s"] = round(ready - start, 1)
        clock = [a for _, kind, a in lines if kind == "clock"]
        result["clock_err_ms"] = clock[0] if clock else None
        shown = None
        while harness.mono() - t0 < 120:
            if window_shown(server):
                shown = harness.mono() - t0
                break
            time.sleep(1)
        result["window_listed_after_launch_s"] = round(shown, 1) if shown else None
        result["guest_load"] = open("/proc/loadavg").read().split()[:3]
        server.place_pointer()
        flicks = []
        cpu_before, cpu_t0 = cpu_ticks(), harness.mono()
        for _ in range(args.flicks):
            app.center()
            time.sleep(0.5)
            app.wait_still(quiet=0.8, timeout=10)
            mark = harness.mono()
            f = pad.flick("down", speed=150.0, duration=0.25, interval=0.010, spacing=18.0, y=38.0)
            time.sleep(1.0)
            app.wait_still(quiet=1.0, timeout=15)
            k_touch, k_release = f.get("k_touch") or f["t_touch"], f.get("k_release") or f["t_release"]
            lines = [ln for ln in app.lines() if ln[0] >= mark]
            v = [(tl, float(a[0]), float(a[1])) for tl, kind, a in lines if kind == "v"]
            paints = [tl for tl, kind, _ in lines if kind == "paint"]
            wheels = [(tl, float(a[3])) for tl, kind, a in lines if kind == "wheel" and len(a) == 4]
            moving = [p for p in paints if v and v[0][0] - 0.001 <= p <= v[-1][0] + 0.001]
            one = {"v_changes": len(v), "with_wheel_ms": sum(1 for c in v if c[2] >= 0),
                   "wheel_events": len(wheels), "paints_while_moving": len(moving),
                   "paint_ms": round(1000 * statistics.median(b - a for a, b in zip(moving, moving[1:])), 1)
                   if len(moving) > 2 else None,
                   "travel_px": round(v[-1][1] - v[0][1], 1) if v else 0,
                   # Travel after the release: from the last change an input event stamped
                   # before the release made (the app logs its offset later than that).
                   "after_release_px": round(v[-1][1] - next((c[1] for c in reversed(v)
                                                              if 0 <= c[2] <= 1000 * k_release + 1), v[0][1]), 1)
                   if v else 0,
                   "moved_for_s": round(v[-1][0] - v[0][0], 2) if v else 0}
            if wheels:
                # event.timeStamp against the kernel's stamps of the finger's frames, and against
                # when the page saw the event (the page's clock at dispatch).
                one["first_wheel_stamp_minus_touch_ms"] = round(wheels[0][1] - 1000 * k_touch, 1)
                one["last_wheel_stamp_minus_release_ms"] = round(wheels[-1][1] - 1000 * k_release, 1)
                one["dispatch_minus_stamp_ms"] = round(statistics.median(1000 * tl - ms for tl, ms in wheels), 1)
            one["max_late_ms"] = f.get("max_late_ms")
            flicks.append(one)
        result["flicks"] = flicks
        # Where the guest's CPU went while the flicks played (chromium's processes, the server,
        # vdev in this python3): a busy guest writes the finger's frames late.
        result["cpu_during_flicks"] = cpu_share(cpu_before, cpu_ticks(), harness.mono() - cpu_t0)
        result["stamps"] = stamp_check(app, pad)
        return result
    finally:
        if app:
            app.stop()
        if server:
            server.stop()
        pad.close()


def stamp_check(app, pad):
    """What chromium's event.timeStamp is based on: a slow two-finger scroll that rests 400 ms
    before the lift (no fling), and its DOM wheel events' stamps against the kernel's stamps of
    the pad's first and last motion frames. Stamps of the input's time lie inside that window;
    stamps taken when chromium read the event lie later by its input lag."""
    app.center()
    time.sleep(0.5)
    app.wait_still(quiet=0.8, timeout=10)
    mark = harness.mono()
    f = pad.move_pause_lift("down", speed=40.0, duration=0.5, pause=0.4, interval=0.010, spacing=18.0, y=38.0)
    time.sleep(1.0)
    app.wait_still(quiet=1.0, timeout=15)
    k_touch = f.get("k_touch") or f["t_touch"]
    k_last = f.get("k_last_motion") or f["t_last_motion"]
    wheels = [(tl, float(a[3])) for tl, kind, a in app.lines() if kind == "wheel" and len(a) == 4 and tl >= mark]
    if not wheels:
        return {"wheel_events": 0}
    return {"wheel_events": len(wheels),
            "first_stamp_minus_touch_ms": round(wheels[0][1] - 1000 * k_touch, 1),
            "last_stamp_minus_last_motion_ms": round(wheels[-1][1] - 1000 * k_last, 1),
            "stamps_after_last_motion": sum(1 for _, ms in wheels if ms > 1000 * k_last + 2),
            "dispatch_minus_stamp_ms": round(statistics.median(1000 * tl - ms for tl, ms in wheels), 1),
            "stamp_fractions_ms": sorted({round(ms % 1, 1) for _, ms in wheels}),
            "max_late_ms": f.get("max_late_ms")}


def probe_firefox():
    browser = shutil.which("firefox-esr") or shutil.which("firefox")
    if not browser:
        return {"browser": None, "result": "no firefox-esr or firefox installed"}
    work = "/tmp/flickd-browser"  # readable by the unprivileged sway user ($E2E_TMP is not)
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    page = os.path.join(work, "page.html")
    with open(page, "w") as f:
        f.write("<!doctype html><body style='margin:0'><div style='width:6000px;height:20000px;"
                "background:repeating-linear-gradient(#ccd,#ccd 100px,#88a 100px,#88a 103px)'></div>")
    os.chmod(page, 0o644)
    server = harness.Sway(work)
    env = dict(os.environ, **server.app_env())
    env.update(MOZ_ENABLE_WAYLAND="1", HOME=work)
    profile = os.path.join(work, "profile")
    os.makedirs(profile, exist_ok=True)
    subprocess.run(["chown", "-R", "%d:%d" % (server.uid, server.gid), work], check=False)
    t0 = time.monotonic()
    out = open(os.path.join(work, "browser.out"), "w")
    proc = subprocess.Popen(server.app_user() + [browser, "--new-instance", "--profile", profile, "file://" + page],
                            env=env, stdout=out, stderr=subprocess.STDOUT)
    shown = None
    while time.monotonic() - t0 < 240 and proc.poll() is None:
        tree = server.swaymsg("-t", "get_tree").stdout
        if '"app_id": "firefox' in tree or "Mozilla" in tree or '"name": "page.html' in tree:
            shown = time.monotonic() - t0
            break
        time.sleep(2)
    load = open("/proc/loadavg").read().split()[:3]
    result = {"browser": browser, "window_after_s": round(shown, 1) if shown else None,
              "exited": proc.poll(), "guest_load": load}
    time.sleep(10 if shown else 0)
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    out.close()
    result["log_tail"] = open(os.path.join(work, "browser.out"), errors="replace").read()[-600:]
    server.stop()
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--browser", choices=["chromium", "firefox"], default="chromium")
    p.add_argument("--server", choices=["sway", "xorg"], default="sway")
    p.add_argument("--flicks", type=int, default=3)
    args = p.parse_args()
    if args.browser == "firefox":
        print(json.dumps(probe_firefox()), flush=True)
        return 0
    if not os.path.exists(os.environ.get("FLICKD_CHROMIUM") or "/usr/lib/chromium/chromium"):
        print(json.dumps({"browser": None, "result": "chromium not installed (apt-get install chromium)"}))
        return 0
    result = probe_chromium(args)
    print(json.dumps(result), flush=True)
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    sys.exit(main())
