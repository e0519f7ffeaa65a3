#!/usr/bin/python3
"""See flickd work without a touchpad: runs INSIDE the e2e guest (scripts/demo starts it).

Creates a virtual touchpad (a ThinkPad T440's, from Tests/Fixtures/devices), starts flickd with
its default output, plays a two-finger flick down into the touchpad with real timing, and prints
what libinput read from "flickd virtual touchpad": the two-finger scroll (POINTER_SCROLL_FINGER)
its fingers carry on after the release, which the apps scroll by as they did under the real
fingers.
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenarios  # noqa: E402  (Flickd, Libinput, open_pad, coast_end)

FINGER = re.compile(r"POINTER_SCROLL_FINGER\s+\+?[\d.]+s\s+vert\s+(-?[\d.]+)")


def main():
    flickd = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/flickd")
    out = os.environ.get("E2E_TMP", "/tmp")
    daemon = scenarios.Flickd(flickd, out, config=scenarios.TOUCHPAD_CONFIG, name="demo")
    # flickd creates its virtual touchpad when it opens the touchpad below.
    li = daemon.later(lambda node: scenarios.Libinput(node, os.path.join(out, "demo-libinput.log")))
    try:
        with scenarios.open_pad(scenarios.TWO_SLOTS, daemon) as pad:
            print("virtual touchpad: %s (%s, %.0f x %.0f mm)" % (pad.devnode, pad.name, pad.width_mm, pad.height_mm))
            print("flickd is running; its %s is %s" % (daemon.output, daemon.wheel))
            time.sleep(0.5)
            print("\nflick: two fingers move down 40 mm in 0.2 s (200 mm/s) and lift...")
            mark = daemon.mark()
            first = li.mark()
            pad.flick("down", speed=200, duration=0.2)
            end = scenarios.coast_end(daemon, mark)
            time.sleep(0.8)  # the fingers rest 200 ms before they lift
            print("\nflickd's log:")
            for line in daemon.text()[mark:].splitlines():
                print("  " + line)
            lines = [l.rstrip() for l in li.lines[first:] if "POINTER_SCROLL_FINGER" in l]
            print("\nlibinput debug-events on flickd's virtual touchpad (%d scroll events; 'vert' > 0 scrolls down):" % len(lines))
            for l in lines[:12]:
                print("  " + l.strip())
            if len(lines) > 24:
                print("  ... %d more ..." % (len(lines) - 24))
            for l in lines[max(12, len(lines) - 12):]:
                print("  " + l.strip())
            total = sum(float(m.group(1)) for m in map(FINGER.search, lines) if m)
            others = [l for l in li.lines[first:] if l.strip() and "POINTER_SCROLL_FINGER" not in l
                      and "DEVICE_" not in l and "GESTURE_HOLD" not in l]
            print("\nlibinput scrolled %.0f of its scroll units (about pixels) down from the release on, by the fingers' glide;"
                  " other events from flickd's touchpad: %d." % (total, len(others)))
            if end:
                print("the coast ended: %s" % end[0])
            print("(output.mode = \"wheel\" writes the glide as hi-res wheel events instead: see README.)")
    finally:
        li.close()
        daemon.stop()


if __name__ == "__main__":
    main()
