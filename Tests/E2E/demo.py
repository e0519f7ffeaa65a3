#!/usr/bin/python3
"""See flickd work without a touchpad: runs INSIDE the e2e guest (scripts/demo starts it).

Creates a virtual touchpad (a ThinkPad T440's, from Tests/Fixtures/devices), starts flickd, plays a
two-finger flick down into the touchpad with real timing, and prints what libinput read from
flickd's virtual wheel: the POINTER_SCROLL_WHEEL events an app would have scrolled by.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenarios  # noqa: E402  (Flickd, Libinput, open_pad, coast_plan, coast_end)
import vdev  # noqa: E402


def main():
    flickd = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/flickd")
    out = os.environ.get("E2E_TMP", "/tmp")
    daemon = scenarios.Flickd(flickd, out, name="demo")
    # flickd creates its virtual wheel when it opens the touchpad below.
    li = daemon.later(lambda node: scenarios.Libinput(node, os.path.join(out, "demo-libinput.log")))
    try:
        with scenarios.open_pad(scenarios.TWO_SLOTS, daemon) as pad:
            print("virtual touchpad: %s (%s, %.0f x %.0f mm)" % (pad.devnode, pad.name, pad.width_mm, pad.height_mm))
            print("flickd is running; its virtual wheel is %s" % daemon.wheel)
            time.sleep(0.5)
            print("\nflick: two fingers move down 40 mm in 0.2 s (200 mm/s) and lift...")
            mark = daemon.mark()
            first = li.mark()
            pad.flick("down", speed=200, duration=0.2)
            plan = scenarios.coast_plan(daemon, mark)
            end = scenarios.coast_end(daemon, mark)
            time.sleep(0.5)
            print("\nflickd's log:")
            for line in daemon.text()[mark:].splitlines():
                print("  " + line)
            lines = [l.rstrip() for l in li.lines[first:] if "POINTER_SCROLL_WHEEL" in l]
            print("\nlibinput debug-events on flickd's wheel (%d events; libinput's 'vert' > 0 scrolls down):" % len(lines))
            for l in lines[:12]:
                print("  " + l.strip())
            if len(lines) > 24:
                print("  ... %d more ..." % (len(lines) - 24))
            for l in lines[max(12, len(lines) - 12):]:
                print("  " + l.strip())
            total = sum(s[1] for s in li.scrolls if s[1] == s[1])
            print("\nlibinput received %d wheel events, %.0f v120 (%.1f detents) in all; flickd planned %s v120 "
                  "(the kernel's sign: < 0 scrolls down)." % (len(lines), total, total / 120, plan[0] if plan else "no"))
            if end:
                print("the coast ended: %s" % end[0])
    finally:
        li.close()
        daemon.stop()


if __name__ == "__main__":
    main()
