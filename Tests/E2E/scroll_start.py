#!/usr/bin/python3
"""Where libinput starts a two-finger scroll, on a pad with the axes of flickd's virtual
touchpad when this was measured (1000 x 1000 mm, 20 units/mm; 100 units/mm now). Run in
the e2e guest:

    Tests/E2E/guest run -- /usr/bin/python3 Tests/E2E/scroll_start.py [MAKEUP_MM ...]

For each first-frame length (default 1.2 to 2.4 mm) two fingers 18 mm apart land, move by
that length 5.4 ms later, by one device unit (0.05 mm) 2 ms after that, then 0.6 mm and
1.2 mm frames every 8 ms: flickd's opening. It prints, per length, libinput's first
POINTER_SCROLL_FINGER value and what it shows (0.53 = the one-unit frame: the scroll started
on the first frame and dropped it; `libinput debug-events --verbose` also shows the gesture
state going from UNKNOWN to SCROLL).
docs/DESIGN.md, "Make-up", has what it showed. Nothing is asserted here; the e2e `tp-flick`
check asserts the consequence on flickd's own pad.
"""

import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vdev  # noqa: E402

PAD = """
name        scroll-start probe touchpad
kind        touchpad
id          bus=0x06 vendor=0x0000 product=0x0000
properties  INPUT_PROP_POINTER
keys        BTN_LEFT BTN_RIGHT BTN_TOUCH BTN_TOOL_FINGER BTN_TOOL_DOUBLETAP BTN_TOOL_TRIPLETAP
axis        ABS_X               0  20000  resolution=20
axis        ABS_Y               0  20000  resolution=20
axis        ABS_MT_SLOT         0      1
axis        ABS_MT_POSITION_X   0  20000  resolution=20
axis        ABS_MT_POSITION_Y   0  20000  resolution=20
axis        ABS_MT_TRACKING_ID  0  65535
"""


def main():
    lengths = [float(a) for a in sys.argv[1:]] or [1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2.0, 2.4]
    desc = vdev.parse_fixture(PAD, "scroll_start.py")
    desc.setdefault("kind", "touchpad")
    lines = []
    lock = threading.Lock()
    with vdev.TouchDevice(desc, check=False, kernel_times=False) as pad:
        proc = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events", "--verbose", "--device", pad.devnode],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        def read():
            for line in proc.stdout:
                with lock:
                    lines.append(line.rstrip())
        threading.Thread(target=read, daemon=True).start()
        time.sleep(2.5)  # libinput opens the device

        def mark(text):
            with lock:
                lines.append("@@ " + text)

        for length in lengths:
            mark("first frame %.1f mm" % length)
            x1, x2, y = 400.0, 418.0, 400.0
            pad.frame({1: (x1, y), 2: (x2, y)})
            time.sleep(0.0054)
            for name, step, pause in [("first", length, 0.002), ("one-unit", 0.05, 0.003),
                                      ("model 0", 0.6, 0.008), ("model 1", 1.2, 0.008), ("model 2", 1.2, 0.008)]:
                y += step
                pad.frame({1: (x1, y), 2: (x2, y)})
                mark("wrote " + name)
                time.sleep(pause)
            time.sleep(0.25)
            pad.frame({})
            time.sleep(0.8)
        time.sleep(0.5)
        proc.terminate()

    with lock:
        captured = list(lines)
    # Which frame started the scroll, from the first scroll event's size (libinput prints the
    # state change as it handles a frame, but its output reaches us late under emulation):
    # one device unit (0.53 of libinput's units) means the first frame started the scroll and
    # was dropped; the model's 0.6 mm (6.3) means the one-unit frame was dropped with it.
    length, first_scroll, results = None, None, []
    for line in captured + ["@@ first frame end"]:
        if line.startswith("@@ first frame"):
            if length is not None:
                results.append((length, first_scroll))
            length, first_scroll = line.split()[3], None
        elif "POINTER_SCROLL_FINGER" in line and "vert" in line and first_scroll is None and length is not None:
            first_scroll = float(line.split("vert")[1].split("/")[0])
    for length, first_scroll in results:
        if first_scroll is None:
            verdict = "no scroll"
        elif first_scroll <= 1.1:
            verdict = "the first frame started the scroll (dropped); the one-unit frame passed"
        else:
            verdict = "a later frame started the scroll: the one-unit frame was dropped too"
        print("first frame %s mm: first scroll event %s: %s" % (length, first_scroll, verdict), flush=True)

if __name__ == "__main__":
    main()
