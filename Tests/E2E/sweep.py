#!/usr/bin/python3
"""Plays a gesture on a virtual copy of every device description and checks libinput's reading.

Runs in the e2e guest:  Tests/E2E/guest run -- /usr/bin/python3 Tests/E2E/sweep.py [JSON...]
(default: every fixture of the repository, Tests/Fixtures/devices/*.device, and every shared sample,
$FLICKD_SHARED/devices/*.json or ../shared/devices/*.json beside the clone, when present). For each description: create the device (udev must
tag it ID_INPUT_TOUCHPAD / ID_INPUT_TOUCHSCREEN), then a two-finger scroll down on touchpads
(expects POINTER_SCROLL_FINGER with a positive vertical value) or a one-finger drag on
touchscreens (expects TOUCH_DOWN/TOUCH_MOTION/TOUCH_UP). Semi-MT pads get a two-finger scroll
too (libinput scrolls on their bounding box). One libinput debug-events (udev seat) watches
all devices. Exit status 1 if any device fails.
"""

import glob
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vdev  # noqa: E402


def line_count(log):
    with open(log, errors="replace") as f:
        return len(f.readlines())


def wait_for(log, pattern, timeout, after=0):
    """The first line after line `after` matching `pattern`, waiting up to `timeout` s."""
    deadline = time.monotonic() + timeout
    rx = re.compile(pattern)
    while time.monotonic() < deadline:
        for line in lines_since(log, after):
            if rx.search(line):
                return line
        time.sleep(0.1)
    return None


def lines_since(log, n0):
    with open(log, errors="replace") as f:
        return f.readlines()[n0:]


def main():
    files = sys.argv[1:]
    if not files:
        files = sorted(glob.glob(os.path.join(vdev.FIXTURES, "*.device")))
        shared = os.path.join(vdev.shared_dir(), "devices")
        samples = sorted(glob.glob(os.path.join(shared, "*.json")))
        if samples:
            files += samples
        else:
            print("skipped: the shared device samples (no %s; set FLICKD_SHARED)" % shared, flush=True)
    tmp = os.environ.get("E2E_RESULTS") or os.environ.get("E2E_TMP", "/tmp")
    log = os.path.join(tmp, "sweep.libinput.log")
    li = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events"],
                          stdout=open(log, "w"), stderr=subprocess.STDOUT)
    failures = 0
    try:
        time.sleep(1.0)
        for path in files:
            desc = vdev.load(path)
            geo = vdev.geometry_of(desc)
            label = "%-30s %-11s %-12s" % (os.path.basename(path), desc["kind"], geo["protocol"])
            try:
                # Event node numbers are reused: only look at what libinput printed after this.
                n_created = line_count(log)
                with vdev.TouchDevice(desc) as dev:
                    ev = os.path.basename(dev.devnode)
                    if not wait_for(log, r"^[-\s]?%s\s+DEVICE_ADDED" % ev, 15, n_created):
                        raise vdev.VdevError("libinput did not add %s" % ev)
                    n0 = line_count(log)
                    if desc["kind"] == "touchpad":
                        r = dev.scroll("down", speed=30, duration=0.3)
                        time.sleep(0.3)
                        got = [ln for ln in lines_since(log, n0)
                               if re.match(r"^\s*%s\s+POINTER_SCROLL_FINGER" % ev, ln)]
                        vals = [float(m.group(1)) for ln in got
                                for m in [re.search(r"vert (-?[0-9.]+)", ln)] if m]
                        ok = any(v > 0 for v in vals) and not any(v < 0 for v in vals)
                        what = "%d POINTER_SCROLL_FINGER, vert sum %+.1f" % (len(got), sum(vals))
                    else:
                        r = dev.drag("down", speed=60, duration=0.3)
                        time.sleep(0.3)
                        kinds = [m.group(1) for ln in lines_since(log, n0)
                                 for m in [re.match(r"^\s*%s\s+(TOUCH_\w+)" % ev, ln)] if m]
                        ok = {"TOUCH_DOWN", "TOUCH_MOTION", "TOUCH_UP"} <= set(kinds)
                        what = "%d TOUCH_* events" % len(kinds)
                    what += ", %d frames, release k-t %.2f ms" % (
                        r["frames"], 1000 * (r["k_release"] - r["t0_release"]) if r["k_release"] else float("nan"))
            except (vdev.VdevError, OSError, vdev.evdev.UInputError) as e:
                ok, what = False, "error: %s" % e
            print("  %s %s %s" % ("ok  " if ok else "FAIL", label, what), flush=True)
            failures += not ok
            time.sleep(0.2)
    finally:
        li.terminate()
        li.wait(5)
    print("sweep: %d/%d devices ok" % (len(files) - failures, len(files)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
