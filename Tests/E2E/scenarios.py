#!/usr/bin/python3
"""flickd end to end, in a real kernel: evdev in, uinput out, read back by libinput.

Runs INSIDE the e2e guest (as root, with /dev/uinput and udevd):
    Tests/E2E/guest run --results DIR -- /usr/bin/python3 Tests/E2E/scenarios.py \
        --flickd .build/debug/flickd [--out DIR] [--only NAME,...] [--flicks 20]

Virtual touch devices are made from ../shared/devices descriptions (vdev.py) and gestures are
played into them with real timing. flickd runs as a real process; its virtual wheel is read
twice: by `libinput debug-events` (what apps get) and directly through evdev with
CLOCK_MONOTONIC timestamps (for timing against the kernel's stamps of the touch frames).

Scenarios (each asserted; a failed check prints expected and actual):
  flick-down      two-finger flick down on a many-slot MT-B pad, on a 2-slot DOUBLETAP pad,
                  and a one-finger drag on a touchscreen: POINTER_SCROLL_WHEEL on the vertical
                  axis only, in the documented direction, starting right after the release,
                  summing (v120) to the coast flickd predicted within 1 %; the planned velocity
                  0.6-1.4 of the finger's (when the gesture player played it on time)
  no-coast        a slow release, and a pause before the lift: no wheel events
  touch-stops     a touch during the coast: no wheel event later than one tick after it
  horizontal      a flick right: horizontal wheel events only, scrolling right, planned as
                  flick-down's
  hotplug         a pad created after flickd started is used; one removed mid-coast ends the
                  coast, flickd keeps running and serves the other pad; udev's "change" of an
                  open pad keeps it (handled before a keyboard plugged in after it), unless its
                  axes changed (resolution doubled): read again, once
  keys            a key press (Ctrl) or a mouse click during a coast stops it; with [stop]
                  key = false a key does not (wheel events > 200 ms after it); no key code or
                  name ever appears in the log
  sigterm         SIGTERM during a coast: exit status 0, the virtual wheel is gone
  tp-flick        output.mode = "touchpad" (the scenarios above use "wheel"): a flick on a
                  2-slot and a many-slot pad (150 mm/s, and 600 mm/s) lands two fingers on "flickd virtual touchpad" at
                  the release; libinput reports POINTER_SCROLL_FINGER the way the fingers went,
                  at 0.6-1.6 of the finger phase's units/s (first 100 ms), frames steady (8 ms
                  nominal; the median is printed and must stay under 40 ms under emulation),
                  no pointer motion, button, touch, swipe, pinch or touch jump; 200 ms still,
                  then the lift and libinput's scroll stop
  tp-stops        a touch, a key, a button and the pad's removal each freeze the fingers: no
                  motion frame after the stop, the lift after 200 ms still, no scroll but the
                  final stop; a pad plugged in later coasts
  tp-typing       systemd/70-flickd-uinput.rules installed: a laptop's own (i8042) keyboard
                  typing a letter during a glide stops flickd's fingers (rest, settle, rest, lift)
                  and libinput stops the scroll only at that lift, never at the key (its
                  disable-while-typing pairs a keyboard only with a touchpad it calls internal)
  tp-tablet-mode  the rule installed: with a tablet-mode switch on (SW_TABLET_MODE), which
                  suspends the touchpads libinput calls internal, a glide still reaches libinput
  tp-kde          KDE's per-device natural scrolling (kcminputrc): the virtual fingers move
                  against the real ones while only the real pad is natural; and its per-device
                  scrolling speed: with the real pad's ScrollFactor at 2 the log says "2.0× as
                  fast" and the same flick carries the virtual fingers 1.6-2.4 times as far
                  (per mm/s of release) as with none, in the same run
  tp-gnome        GNOME's natural-scroll (real dconf and gsettings on a private session bus),
                  changed with `gsettings set` while flickd runs: flickd follows, and a
                  touchscreen drag's virtual fingers turn with it; a gsettings that takes 2 s
                  is still read; one that never answers is killed at 5 s, and the log says so
  sizes           every touchpad description of the repository (Tests/Fixtures/devices): the
                  size flickd logs is `libinput list-devices`' (both in whole mm), pads without a
                  resolution included (libinput's quirks: Elantech 41 x 23 mm, not 69 x 50)
Figures (printed, not asserted): release -> first wheel event latency p50/p99 over --flicks
flicks (kernel timestamps), tick interval against the nominal period, wake-ups over 10 idle
seconds. A check that cannot be judged in this run (the gesture player ran late) prints a
"skip SCENARIO: WHAT (why)" line. The last line is "e2e: N passed, M failed, K skipped".
"""

import argparse
import copy
import json
import math
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import vdev  # noqa: E402
import evdev  # noqa: E402
from evdev import ecodes as E  # noqa: E402

DEVICES = os.environ.get("E2E_DEVICES", vdev.FIXTURES)   # vdev.load() finds a .device for a .json name
MANY_SLOTS = "generic-usb-touchpad.json"   # MT-B, 15 slots
TWO_SLOTS = "synaptics-t440.json"          # MT-B, 2 slots + BTN_TOOL_DOUBLETAP...QUINTTAP
TOUCHSCREEN = "touch-screen.json"          # direct, 10 slots
TICK_RATE = 120.0

CONFIG = """
[coast]
tick_rate = %d
[touchscreen]
enabled = true
[output]
mode = "wheel"
""" % TICK_RATE

# The default output: two fingers on "flickd virtual touchpad" carry the coast.
TOUCHPAD_CONFIG = CONFIG.replace('mode = "wheel"', 'mode = "touchpad"')


def mono():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


class Checks:
    """Collects pass/fail/skip results; a failure prints expected and actual, a skip why the
    check could not be judged (a "skip " line, counted by scripts/test)."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []

    def check(self, scenario, what, ok, expected="", actual=""):
        if ok:
            self.passed += 1
            print("  ok   %s: %s" % (scenario, what), flush=True)
        else:
            self.failed += 1
            self.failures.append("%s: %s" % (scenario, what))
            print("  FAIL %s: %s\n         expected: %s\n         actual:   %s" % (scenario, what, expected, actual),
                  flush=True)
        return ok

    def skip(self, scenario, what, why):
        """A check not judged in this run (`why`): neither passed nor failed, but counted, so a
        run that judged nothing does not read as a pass of everything."""
        self.skipped += 1
        print("skip %s: %s (%s)" % (scenario, what, why), flush=True)

    def run_each(self, parts, only, kind):
        """Runs each (name, function) of `parts` named in `only` (all when empty), timing it; one
        that raises is a failed check ("<kind> ran"), and the rest still run."""
        for name, run in parts:
            if only and name not in only:
                continue
            print("== %s" % name, flush=True)
            started = mono()
            try:
                run()
            except Exception as e:
                self.check(name, kind + " ran", False, "no exception", "%s: %s" % (type(e).__name__, e))
            print("   (%.1f s)" % (mono() - started), flush=True)

    def exit(self, label):
        """Lists the failures, prints "<label>: N passed, M failed, K skipped" and exits 1 on a
        failure."""
        if self.failures:
            print("failed checks:\n  " + "\n  ".join(self.failures))
        print("%s: %d passed, %d failed, %d skipped" % (label, self.passed, self.failed, self.skipped))
        sys.exit(1 if self.failed else 0)


CREATED = r"created flickd virtual (wheel|touchpad) at (/dev/input/event\d+)"


class Flickd:
    """flickd run --verbose as a child process, its log in a file. flickd creates its output
    device (virtual touchpad or wheel) when it opens the first touchpad or touchscreen whose
    flicks coast: at once when one is plugged in, else when `open_pad` plugs one in. `output`
    and `wheel` (its kind and node) wait for it; `later` makes a reader of it as soon as it
    exists."""

    def __init__(self, binary, workdir, config=CONFIG, name="flickd", env=None):
        self.config_path = os.path.join(workdir, name + ".toml")
        with open(self.config_path, "w") as f:
            f.write(config)
        self.log_path = os.path.join(workdir, name + ".log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([binary, "run", "--verbose", "--config", self.config_path],
                                     stdout=self.log, stderr=subprocess.STDOUT,
                                     env=dict(os.environ, **env) if env else None)
        self._output = None       # (kind, node) of the output device once flickd created it
        self._waiting = []        # `later` readers to make when it does
        # Logged (--verbose) right after READY=1, when the devices present are open and the
        # output device, if one of them coasts, exists.
        if not self.wait_log(r"rehearsed the first coast|could not rehearse a coast", 60):
            # No caller gets this object to stop: kill it here and close its log.
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.log.close()
            raise RuntimeError("flickd did not start (status %s):\n%s" % (self.proc.returncode, self.text()))
        m = re.search(CREATED, self.text())
        if m:
            self._output = (m.group(1), m.group(2))

    def wait_output(self, timeout=20):
        """(kind, node) of flickd's output device, waiting up to `timeout` s for flickd to
        create it; makes the `later` readers waiting for it."""
        if self._output is None:
            m = self.wait_log(CREATED, timeout)
            if not m:
                raise RuntimeError("flickd did not create its virtual device:\n" + self.text()[-3000:])
            self._output = (m.group(1), m.group(2))
        waiting, self._waiting = self._waiting, []
        for reader in waiting:
            reader.make(self._output[1])
        return self._output

    @property
    def output(self):
        """"wheel" or "touchpad": the output device's kind."""
        return self.wait_output()[0]

    @property
    def wheel(self):
        """The output device's node (wheel or touchpad)."""
        return self.wait_output()[1]

    def later(self, make):
        """`make(node)` on the output device's node as soon as flickd has created it (now if it
        has): a stand-in that forwards to what `make` returned (and waits for it on first use)."""
        reader = Later(self, make)
        if self._output:
            reader.make(self._output[1])
        else:
            self._waiting.append(reader)
        return reader

    def text(self):
        with open(self.log_path) as f:
            return f.read()

    def wait_log(self, pattern, timeout, after=0):
        """The first match of `pattern` in the log past character `after`, waiting `timeout` s."""
        rx = re.compile(pattern)
        end = mono() + timeout
        while True:
            m = rx.search(self.text(), after)
            if m or mono() > end or self.proc.poll() is not None:
                return m
            time.sleep(0.02)

    def mark(self):
        return len(self.text())

    def alive(self):
        return self.proc.poll() is None

    def context_switches(self):
        total = 0
        for task in os.listdir("/proc/%d/task" % self.proc.pid):
            with open("/proc/%d/task/%s/status" % (self.proc.pid, task)) as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        return total

    def rss_kib(self):
        """Resident memory in KiB: Rss of /proc/PID/smaps_rollup, exact (the page tables
        walked); VmRSS of /proc/PID/status only when that cannot be read, since VmRSS lags on
        kernels before 6.2 (per-thread cached counters, up to 63 pages each)."""
        try:
            with open("/proc/%d/smaps_rollup" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("Rss:"):
                        return int(line.split()[1])
        except OSError:
            pass
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def stop(self, sig=signal.SIGTERM, timeout=15):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode


class Later:
    """A reader of flickd's output device made when the device exists (`Flickd.later`)."""

    def __init__(self, daemon, make):
        self._daemon = daemon
        self._make = make
        self._made = None

    def make(self, node):
        if self._made is None:
            self._made = self._make(node)

    def close(self):
        """Closes the reader; nothing to close when the device never came."""
        if self._made is not None:
            self._made.close()

    def __getattr__(self, name):
        if self._made is None:
            self._daemon.wait_output()
        return getattr(self._made, name)


class WheelTap(vdev.EventTap):
    """Reads flickd's wheel through evdev with CLOCK_MONOTONIC timestamps."""

    def __init__(self, devnode):
        self.events = []          # (kernel time, code, value)
        vdev.EventTap.__init__(self, devnode)

    def handle(self, ev):
        if ev.type == E.EV_REL:
            with self.lock:
                self.events.append((ev.sec + ev.usec / 1e6, ev.code, ev.value))

    def between(self, t0, t1=float("inf"), code=None):
        with self.lock:
            return [e for e in self.events if t0 <= e[0] < t1 and (code is None or e[1] == code)]

    def quiet_since(self, seconds):
        """True when no event arrived in the last `seconds`."""
        with self.lock:
            return not self.events or mono() - self.events[-1][0] >= seconds

    def wait_quiet(self, seconds=0.5, timeout=12):
        end = mono() + timeout
        while mono() < end and not self.quiet_since(seconds):
            time.sleep(0.05)

    def settle(self, seconds=0.5, timeout=10):
        """Waits until the reader has what flickd wrote so far: until the node holds nothing
        unread, then `seconds` for the reader thread to handle what it read last. wait_quiet
        alone can return with events unread: a reader the emulator starves reads nothing, which
        looks quiet."""
        end = mono() + timeout
        while mono() < end and select.select([self.dev.fd], [], [], 0)[0]:
            time.sleep(0.02)
        time.sleep(seconds)


class Libinput(vdev.LibinputReader):
    """`libinput debug-events` on flickd's wheel: what the desktop and apps receive."""

    LINE = re.compile(r"POINTER_SCROLL_WHEEL\s+\+?([\d.]+)s\s+vert\s+(-?[\d.]+)/(-?[\d.]+)\*?\s+"
                      r"horiz\s+(-?[\d.]+)/(-?[\d.]+)")

    def __init__(self, devnode, log_path):
        self.lines = []
        self.scrolls = []         # (host receive time, vert v120, horiz v120)
        vdev.LibinputReader.__init__(self, devnode, log_path)
        if not self.added.wait(30):
            raise RuntimeError("libinput did not add the wheel:\n" + "".join(self.lines))

    def line(self, text):
        with self.lock:
            self.lines.append(text)
            m = self.LINE.search(text)
            if m:
                self.scrolls.append((mono(), float(m.group(3)), float(m.group(5))))
            elif "POINTER_SCROLL" in text or "POINTER_AXIS" in text:
                self.scrolls.append((mono(), float("nan"), float("nan")))

    def since(self, t0):
        with self.lock:
            return [s for s in self.scrolls if s[0] >= t0]

    def other_events_since(self, index):
        with self.lock:
            return [l for l in self.lines[index:] if "POINTER_SCROLL_WHEEL" not in l and l.strip()]

    def mark(self):
        with self.lock:
            return len(self.lines)


class TouchTap(vdev.EventTap):
    """Reads flickd's virtual touchpad through evdev with CLOCK_MONOTONIC timestamps: every
    frame as (kernel time, {(type, code): value, ...} in order)."""

    def __init__(self, devnode):
        self.frames = []
        self.removed = False
        self.pending = []         # the events of the frame being read
        vdev.EventTap.__init__(self, devnode)

    def handle(self, ev):
        if ev.type == E.EV_SYN and ev.code == E.SYN_REPORT:
            with self.lock:
                self.frames.append((ev.sec + ev.usec / 1e6, self.pending))
            self.pending = []
        elif ev.type in (E.EV_ABS, E.EV_KEY):
            self.pending.append((ev.type, ev.code, ev.value))

    def gone(self):
        self.removed = True

    def motion(self, t0=0.0, t1=float("inf")):
        """The frames between t0 and t1 that libinput's touch-jump rule would call a jump (per
        slot: a step over 20 mm, or more than 7 mm longer than the step before, both scaled to a
        12 ms interval; steps more than 30 ms apart are not judged), each as (ms after t0, slot,
        ms since the slot's previous point, step mm, scaled mm, previous scaled mm); printed when
        libinput reported a touch jump."""
        out = []
        units_per_mm = self.dev.absinfo(E.ABS_MT_POSITION_X).resolution or 1
        with self.lock:
            frames = [f for f in self.frames if f[0] < t1]
        # `at`: each slot's position as the kernel holds it (`follow`); `last`: the slot's
        # previous point in this touch, for the rule.
        slot, at, last = 0, {}, {}
        for t, events in frames:
            slot, moved, lifted = self.follow(events, slot, at, set())
            for sl in lifted:
                last.pop(sl, None)
            if t < t0:
                continue
            for sl in moved:
                prev = last.get(sl)
                x, y = at[sl]
                scaled = 0.0
                if prev is not None and 0 < t - prev[0] <= 0.030:
                    step = math.hypot(x - prev[1], y - prev[2]) / units_per_mm
                    scaled = step * 0.012 / (t - prev[0])
                    if scaled > 20 or scaled - prev[3] > 7:
                        out.append((round(1000 * (t - t0), 1), sl, round(1000 * (t - prev[0]), 1), round(step, 2),
                                    round(scaled, 2), round(prev[3], 2)))
                last[sl] = (t, x, y, scaled)
        return out

    def positions(self, t0=0.0):
        """[(kernel time, {slot: (x, y)} of the fingers down after the frame)] from t0 on."""
        out, slot, at, down = [], 0, {}, set()
        with self.lock:
            frames = list(self.frames)
        for t, events in frames:
            slot = self.follow(events, slot, at, down)[0]
            if t >= t0:
                out.append((t, {sl: at.get(sl, (0, 0)) for sl in sorted(down)}))
        return out

    @staticmethod
    def follow(events, slot, at, down):
        """One frame's events followed into `at`, {slot: (x, y)} as the kernel holds them, and
        `down`, the set of slots with a finger. A slot keeps its values across touches and the
        kernel drops an event that repeats one, so a finger that lands again at the X (or Y)
        where the last one lifted sends no X (Y). Returns (the slot selected after the frame,
        the slots it moved, the slots it lifted)."""
        moved, lifted = [], []
        for ty, c, v in events:
            if ty != E.EV_ABS:
                continue
            if c == E.ABS_MT_SLOT:
                slot = v
            elif c == E.ABS_MT_TRACKING_ID:
                if v < 0:
                    down.discard(slot)
                    lifted.append(slot)
                else:
                    down.add(slot)
            elif c in (E.ABS_MT_POSITION_X, E.ABS_MT_POSITION_Y):
                x, y = at.get(slot, (0, 0))
                at[slot] = (v, y) if c == E.ABS_MT_POSITION_X else (x, v)
                if slot not in moved:
                    moved.append(slot)
        return slot, moved, lifted

    def kinds(self, t0=0.0, t1=float("inf")):
        """[(kernel time, "land" | "move" | "lift")] between t0 and t1."""
        out = []
        with self.lock:
            frames = [f for f in self.frames if t0 <= f[0] < t1]
        for t, events in frames:
            ids = [v for (ty, c, v) in events if ty == E.EV_ABS and c == E.ABS_MT_TRACKING_ID]
            if ids and all(v >= 0 for v in ids):
                out.append((t, "land"))
            elif ids:
                out.append((t, "lift"))
            elif any(ty == E.EV_ABS for (ty, c, v) in events):
                out.append((t, "move"))
        return out


# libinput debug-events prints an event's time as its 32-bit millisecond stamp less the run's
# start time, unsigned: an event stamped a few ms before that start (the first of a run, now
# and then) reads about 4294967 s.
LIBINPUT_TIME_WRAP = 2 ** 32 / 1000


def printed_seconds(text):
    """The time libinput debug-events printed (`0.010` of `+0.010s`), a wrapped one made the
    small negative time it is."""
    seconds = float(text)
    return seconds - LIBINPUT_TIME_WRAP if seconds >= LIBINPUT_TIME_WRAP / 2 else seconds


class DebugEvents(vdev.LibinputReader):
    """`libinput debug-events --device NODE`: every event line with libinput's printed time
    (seconds, relative within one run) and the host time it was read."""

    LINE = re.compile(r"^[-\s]?(event\d+)\s+([A-Z_]+)\s+(?:\+([\d.]+)s)?\s*(.*)$")
    VALUES = re.compile(r"vert\s+(-?[\d.]+)[^\s]*\s+horiz\s+(-?[\d.]+)")

    def __init__(self, devnode, log_path, also=()):
        self.events = []          # (host time, type, printed time, vert, horiz, text)
        self.errors = []
        # Tapping on: flickd's virtual touchpad declares BTN_LEFT/BTN_RIGHT, so libinput would
        # leave it off, and a two-finger tap would never show.
        vdev.LibinputReader.__init__(self, devnode, log_path, tapping=True, also=also)
        if not self.added.wait(30):
            raise RuntimeError("libinput did not add %s" % devnode)

    def line(self, text):
        m = self.LINE.match(text.rstrip("\n"))
        with self.lock:
            if "libinput error" in text:
                self.errors.append((mono(), text.strip()))
            if not m:
                return
            v = self.VALUES.search(m.group(4))
            self.events.append((mono(), m.group(2), printed_seconds(m.group(3)) if m.group(3) else None,
                                float(v.group(1)) if v else 0.0, float(v.group(2)) if v else 0.0, text.strip()))

    def since(self, t0, kind=None):
        with self.lock:
            return [e for e in self.events if e[0] >= t0 and (kind is None or e[1] == kind)]


def load(name):
    return vdev.load(os.path.join(DEVICES, name))


def virtual_devices():
    """The names of flickd's virtual devices in /proc/bus/input/devices."""
    with open("/proc/bus/input/devices") as f:
        return re.findall(r'^N: Name="(flickd virtual [a-z]+)"$', f.read(), re.M)


def open_pad(name, daemon, timeout=20):
    """A virtual device from the description `name`, once flickd has opened it and, when its
    flicks coast, flickd's output device exists and its readers (`Flickd.later`) are made."""
    mark = daemon.mark()
    pad = vdev.TouchDevice(load(name))
    m = daemon.wait_log(re.escape(pad.devnode) + r" \([^)]*\): (touchpad|touchscreen)([^\n]*)", timeout, mark)
    if not m:
        pad.close()
        raise RuntimeError("flickd did not open %s (%s):\n%s" % (pad.devnode, name, daemon.text()[mark:]))
    if "flicks coast" in m.group(2):
        try:
            daemon.wait_output(timeout)
        except Exception:
            pad.close()
            raise
    return pad


def coast_plan(daemon, after, timeout=5):
    """(v120, h120) flickd predicted for the next coast logged after `after`, or None. A coast
    on the virtual touchpad (logged in mm) plans no wheel units: (0, 0)."""
    m = daemon.wait_log(r"coast at [^\n]*(?:to (-?\d+) v120, (-?\d+) h120|\d+ mm on the virtual touchpad)",
                        timeout, after)
    return (int(m.group(1) or 0), int(m.group(2) or 0)) if m else None


# A coast flickd plans on the wheel: "coast at t=...: (vx, vy) mm/s for ..., to V v120, H h120".
PLAN = re.compile(r"coast at [^\n]*?: \((-?\d+), (-?\d+)\) mm/s[^\n]* to (-?\d+) v120, (-?\d+) h120")


def plan_with_velocity(daemon, after, timeout=5):
    """((vx, vy) mm/s, (v120, h120)) of the next coast flickd plans after `after`, or None."""
    m = daemon.wait_log(PLAN.pattern, timeout, after)
    return ((int(m.group(1)), int(m.group(2))), (int(m.group(3)), int(m.group(4)))) if m else None


def coast_end(daemon, after, timeout=12):
    """(reason, v120, h120) of the next coast end logged after `after`, or None (a coast on the
    virtual touchpad wrote no wheel units: 0, 0)."""
    m = daemon.wait_log(r"coast ended at [^\n]*: ([a-z-]+)(?:, (-?\d+) v120, (-?\d+) h120)?", timeout, after)
    return (m.group(1), int(m.group(2) or 0), int(m.group(3) or 0)) if m else None


# The line flickd logs at the end of a coast the timer drove (CoastPunctuality), at --verbose.
TIMER_LINE = r"the coast's timer woke [^\n]*"


def latest_wake_up_ms(line):
    """The largest delay after a deadline in a coast's timer line, ms: its "at most X ms after",
    or the one delay of "woke once: X ms after its deadline"; that of the wake-up that stalled a
    glide included (recorded after the tick that stopped it). None without a line."""
    m = line and re.search(r"at most ([\d.]+) ms after;|woke once: ([\d.]+) ms after", line)
    return float(m.group(1) or m.group(2)) if m else None


class Scenarios:
    def __init__(self, args):
        self.args = args
        self.out = args.out
        self.checks = Checks()
        self.figures = {}
        self.period = 1.0 / TICK_RATE

    # -- helpers ------------------------------------------------------------------------------

    def start(self, name="flickd", config=CONFIG):
        daemon = Flickd(self.args.flickd, self.out, config, name)
        tap = daemon.later(WheelTap)
        li = daemon.later(lambda node: Libinput(node, os.path.join(self.out, name + "-libinput.log")))
        return daemon, tap, li

    LATE_MS = 20.0

    def flick(self, daemon, pad, direction, retry=True, **kw):
        """A flick meant to coast: (vdev result, plan, log mark, host start time).

        The guest is emulated (TCG): now and then the gesture player itself runs late, and a
        frame written 20+ ms after its schedule is a finger that paused — a correct engine does
        not coast on it. Such a flick is played again (at most twice more) and the retry is
        printed; a flick played on time that does not coast is never retried. With retry=False
        it is played once: a flick whose meaning depends on what ran before it (tp-turn's second
        flick lands on a running glide) would, played again alone, test something else."""
        attempts = 3 if retry else 1
        for attempt in range(attempts):
            mark = daemon.mark()
            host_start = mono()
            r = pad.flick(direction, **kw)
            plan = coast_plan(daemon, mark)
            if plan is not None or r.get("max_late_ms", 0) <= self.LATE_MS or attempt + 1 == attempts:
                # The last attempt returns at once: tp-turn's second flick must land while the
                # first one's glide runs, not after a wait for a flick not played again.
                return r, plan, mark, host_start
            print("     (the player ran %.0f ms late; flick played again)" % r["max_late_ms"], flush=True)
            coast_end(daemon, mark, 1)
            time.sleep(0.3)
        return r, plan, mark, host_start

    def flick_and_measure(self, scenario, daemon, tap, li, pad, direction, label, **kw):
        """Plays a flick, waits for the coast to end, returns what was predicted and seen."""
        r, plan, mark, host_start = self.flick(daemon, pad, direction, **kw)
        planned = plan_with_velocity(daemon, mark, 1) if plan is not None else None
        velocity = planned[0] if planned else None
        end = coast_end(daemon, mark)
        tap.wait_quiet(0.3)
        time.sleep(0.2)  # libinput's reader thread catches up
        k_release = r.get("k_release") or r["t_release"]
        kernel = tap.between(k_release - 0.5)
        seen = li.since(host_start)
        return {"plan": plan, "velocity": velocity, "end": end, "release": k_release, "kernel": kernel,
                "libinput": seen, "vdev": r}

    # Wide: the release velocity is a fit over the last frames, which reach the kernel a little
    # late under emulation. Measured: 0.97-1.03 of the played 200 mm/s in three guest runs of
    # flick-down and horizontal (11 flicks judged; one played 21 ms late was not), 0.99-1.01 in
    # a CI run's logs.
    PLAN_SPEED = (0.6, 1.4)

    def check_plan_speed(self, scenario, label, m, direction):
        """The coast's planned velocity against the speed the gesture player played, along the
        flick's direction: within PLAN_SPEED of it. Not judged when the player ran late (a frame
        20+ ms late is a finger that paused: flickd coasts on what the kernel saw), as tp-flick
        does not judge the glide's speed then."""
        r, velocity = m["vdev"], m["velocity"]
        if velocity is None:
            self.checks.check(scenario, label + ": the plan's velocity is logged", False,
                              "a 'coast at ...: (vx, vy) mm/s' line", m["plan"])
            return
        ux, uy = vdev.DIRECTIONS[direction]
        played = r["speed_mm_s"]
        ratio = (velocity[0] * ux + velocity[1] * uy) / played
        print("     %s: planned (%d, %d) mm/s for %.0f mm/s played %s: %.2f of it" % (
            label, velocity[0], velocity[1], played, direction, ratio), flush=True)
        low, high = self.PLAN_SPEED
        what = label + ": the planned velocity is the finger's, its way (%.1f .. %.1f of the %.0f mm/s played)" % (
            low, high, played)
        if r.get("max_late_ms", 0) > self.LATE_MS:
            self.checks.skip(scenario, what, "the player ran %.0f ms late; planned %.2f of it" % (r["max_late_ms"], ratio))
            return
        self.checks.check(scenario, what, low <= ratio <= high, "%.1f .. %.1f" % (low, high),
                          "%.2f: (%d, %d) mm/s" % (ratio, velocity[0], velocity[1]))

    # -- touchpad output (output.mode = "touchpad", the default) ------------------------------

    def start_touchpad(self, name, env=None, also=()):
        """flickd with output.mode = "touchpad"; its virtual touchpad read by a TouchTap and by
        `libinput debug-events` (with the nodes `also`, in the same libinput context)."""
        daemon = Flickd(self.args.flickd, self.out, TOUCHPAD_CONFIG, name, env)

        def touch_tap(node):
            if daemon.output != "touchpad":
                raise RuntimeError("flickd created a %s, not its touchpad" % daemon.output)
            return TouchTap(node)
        tap = daemon.later(touch_tap)
        li = daemon.later(lambda node: DebugEvents(node, os.path.join(self.out, name + "-libinput.log"), also))
        return daemon, tap, li

    # Events libinput must never report on the virtual touchpad: pointer motion, buttons (a
    # two-finger tap is a right click), touch events, and gestures but the hold gesture.
    FORBIDDEN = ("POINTER_MOTION", "POINTER_BUTTON", "TOUCH_", "GESTURE_SWIPE", "GESTURE_PINCH", "POINTER_SCROLL_WHEEL")

    def check_clean(self, s, label, li, t0, tap=None, k0=None):
        seen = [e[5] for e in li.since(t0) if e[1].startswith(self.FORBIDDEN)]
        self.checks.check(s, label + ": libinput reports no pointer motion, button, touch, swipe or pinch from it",
                          not seen, [], seen[:5])
        holds = [e[5] for e in li.since(t0) if e[1].startswith("GESTURE_HOLD")]
        if holds:
            print("     (hold gesture reported: %s)" % holds[:2], flush=True)
        jumps = [e[1] for e in li.errors if "jump" in e[1] and e[0] >= t0]
        if not self.checks.check(s, label + ": libinput discarded no touch jump", not jumps, [], jumps[:2]) and tap:
            print("     frames libinput's rule calls jumps: %s" % (tap.motion(k0)[:10] or "none"), flush=True)
            path = os.path.join(self.out, "%s-frames.txt" % re.sub(r"[^a-z0-9.-]+", "-", label.lower()))
            with tap.lock, open(path, "w") as f:
                for t, events in tap.frames:
                    if t >= k0:
                        f.write("%.6f %s\n" % (t, " ".join("%d:%d:%d" % e for e in events)))
            print("     (the virtual pad's frames: %s)" % path, flush=True)

    def check_rest_then_lift(self, s, label, tap, t0):
        kinds = tap.kinds(t0)
        lifts = [t for t, k in kinds if k == "lift"]
        moves = [t for t, k in kinds if k == "move"]
        if not self.checks.check(s, label + ": the fingers lift once", len(lifts) == 1, 1, kinds[-3:]):
            return
        before = [t for t in moves if t < lifts[0]]
        after = [t for t in moves if t > lifts[0]]
        rest = lifts[0] - (before[-1] if before else lifts[0])
        self.checks.check(s, label + ": still >= 200 ms before the lift", rest >= 0.199, ">= 200 ms", "%.1f ms" % (rest * 1000))
        self.checks.check(s, label + ": no motion after the lift", not after, [], after[:3])
        return rest

    # Engine.stallLimit: a glide whose timer woke this much after a frame's deadline stops
    # ("stall"; a suspend, to flickd).
    STALL_LIMIT_MS = 500.0

    def check_glide_end(self, s, what, end, timer_line):
        """Checks that a glide (`what`: "... the glide") ended at rest: `end`, the match of its
        "coast ended at ...: (reason)" line, says "finished". "stall" passes only when its timer
        line (`timer_line`, CoastPunctuality's; None when absent) shows a wake-up at least
        STALL_LIMIT_MS after a deadline: the emulated guest can hold flickd up that long, and
        faults.py `stall` tests the stop itself. Returns whether it stalled so."""
        latest = latest_wake_up_ms(timer_line)
        reason = end.group(1) if end else None
        # Printed to 0.01 ms, so 500.00 may be a delay just over 500 ms.
        stalled = reason == "stall" and latest is not None and latest >= self.STALL_LIMIT_MS
        self.checks.check(s, what + " ended at rest (or stopped on a timer wake-up > 500 ms late)",
                          reason == "finished" or stalled,
                          "finished (stall only with the timer's latest wake-up >= 500 ms late)",
                          "%s; the timer's latest wake-up: %s ms late" % (end and end.group(0), latest))
        if stalled:
            print("     (the guest held flickd up %.0f ms during this glide: stopped, stall)" % latest, flush=True)
        return stalled

    def tp_flick(self):
        """A flick on a real-like pad: the virtual touchpad's fingers carry the coast."""
        s = "tp-flick"
        daemon, tap, li = self.start_touchpad("tp-flick")
        c = self.checks
        # The daemon shed its binary's read-only pages at start (ExecutablePages): every flick
        # below then runs on code read back a page at a time.
        shed = re.search(r"resident code: (\d+) KiB of the binary's read-only pages unmapped", daemon.text())
        c.check(s, "flickd shed its binary's read-only pages at start", shed is not None and int(shed.group(1)) > 0,
                "a 'resident code: N KiB ... unmapped' line", daemon.text()[:600])
        # After READY=1 it played a flick of each kind its configuration coasts into /dev/null
        # (Rehearsal), so that the first coast below runs warm.
        rehearsed = daemon.wait_log(r"rehearsed the first coast \(a touchpad flick: coasted, (\d+) frames; "
                                    r"a touchscreen drag: coasted, (\d+) frames\)", 10)
        c.check(s, "flickd rehearsed a touchpad flick and a touchscreen drag at start, each coasting into /dev/null",
                rehearsed is not None and min(int(rehearsed.group(1)), int(rehearsed.group(2))) > 0,
                "a 'rehearsed the first coast (a touchpad flick: coasted, N frames; a touchscreen drag: coasted, N frames)' line",
                daemon.text()[:1200])
        try:
            for name, direction, kw in [(TWO_SLOTS, "down", {"stagger": 0.02}), (MANY_SLOTS, "up", {}),
                                        (MANY_SLOTS, "down", {"speed": 600, "duration": 0.07})]:
                with open_pad(name, daemon) as pad:
                    real = DebugEvents(pad.devnode, os.path.join(self.out, "tp-flick-real-%s.log" % name))
                    try:
                        label = "%s flick %s" % (name, direction)
                        time.sleep(0.5)
                        kw = dict({"speed": 150, "duration": 0.25}, **kw)
                        label += " at %d mm/s" % kw["speed"]
                        r, _, mark, host_start = self.flick(daemon, pad, direction, **kw)
                        planned = daemon.wait_log(r"device \d+: coast at [^\n]*", 5, mark)
                        end = daemon.wait_log(r"coast ended at [^\n]*: ([a-z-]+)", 8, mark)
                        time.sleep(0.8)   # the rest and the lift, and libinput's reader
                        if not c.check(s, label + ": flickd planned a coast", planned is not None, "a 'coast at' line",
                                       daemon.text()[mark:][-600:]):
                            continue
                        # At the end, how punctually the timer drove the coast (CoastPunctuality):
                        # the system's delay after each deadline against flickd's own work.
                        timer = daemon.wait_log(r"the coast's timer woke (\d+) times: the first ([\d., and]+) ms after "
                                                r"their deadlines, at most ([\d.]+) ms after; each frame written at most "
                                                r"([\d.]+) ms after the wake-up", 3, mark)
                        c.check(s, label + ": flickd logs how punctually its timer drove the coast (> 10 wake-ups)",
                                timer is not None and int(timer.group(1)) > 10, "a 'the coast's timer woke N times' line",
                                timer.group(0) if timer else daemon.text()[mark:][-400:])
                        self.check_glide_end(s, label + ": the glide", end, timer and timer.group(0))
                        if timer:
                            print("     %s" % timer.group(0), flush=True)
                            opening = [float(v) for v in re.findall(r"[\d.]+", timer.group(2))]
                            self.figures.setdefault("timer_opening_delay_ms", []).append(max(opening))
                            self.figures.setdefault("timer_work_max_ms", []).append(float(timer.group(4)))
                        k_release = r.get("k_release") or r["t_release"]
                        kinds = tap.kinds(k_release - 0.05)
                        # flickd writes the landing when it reads the release: 50 ms covers the
                        # guest's 20-40 ms late delivery. The guest holds flickd's wake-ups up
                        # around the release too; the coast's first timer wake-ups, a few ms
                        # later, measure by how much (up to 20 ms is allowed for).
                        held = min(max(float(v) for v in re.findall(r"[\d.]+", timer.group(2))), 20.0) if timer else 0.0
                        bound = 50.0 + held
                        c.check(s, label + ": two fingers land at the release (< 50 ms, + the guest's delay of the coast's first wake-ups)",
                                kinds and kinds[0][1] == "land" and (kinds[0][0] - k_release) * 1000 < bound,
                                "land within %.1f ms (50 + %.1f)" % (bound, held),
                                kinds[:1] and ("%s %.1f ms" % (kinds[0][1], (kinds[0][0] - k_release) * 1000)))
                        if kinds and kinds[0][1] == "land":
                            self.figures.setdefault("landing_delay_ms", []).append(round((kinds[0][0] - k_release) * 1000, 1))
                        self.check_rest_then_lift(s, label, tap, k_release - 0.05)
                        scrolls = [e for e in li.since(host_start, "POINTER_SCROLL_FINGER")]
                        moving = [e for e in scrolls if e[3] or e[4]]
                        sign = 1 if direction == "down" else -1
                        c.check(s, label + ": POINTER_SCROLL_FINGER from flickd virtual touchpad", len(moving) > 10,
                                "> 10 events", len(moving))
                        # The make-up frame is long enough for libinput to start the scroll on
                        # it (and drop it): the first scroll event is then the baseline frame's
                        # one device unit (about 0.1 of libinput's units), the event X11 clients
                        # take as their starting point. Had the make-up been under libinput's
                        # ~1.5 mm start, the first event would be the model's first frame.
                        c.check(s, label + ": libinput's first scroll event of the glide is the baseline frame (one device unit)",
                                moving and abs(moving[0][3]) + abs(moving[0][4]) <= 1.1, "<= 1.1 units (0.1 mm)",
                                moving[:1] and (moving[0][3], moving[0][4]))
                        c.check(s, label + ": the glide goes the way the fingers went, vertically only",
                                all(e[3] * sign >= 0 and e[4] == 0 for e in moving), "vert sign %d, horiz 0" % sign,
                                [(e[3], e[4]) for e in moving if e[3] * sign < 0 or e[4]][:5])
                        c.check(s, label + ": the last scroll event is libinput's scroll stop (0/0)",
                                scrolls and scrolls[-1][3] == 0 and scrolls[-1][4] == 0, "0/0", scrolls[-1:])
                        self.check_clean(s, label, li, host_start, tap, k_release - 0.05)
                        # Speed: the finger phase's units/s (last 100 ms of the real pad's scroll)
                        # against the glide's first 100 ms, both in libinput's finger-scroll units.
                        finger = [e for e in real.since(host_start, "POINTER_SCROLL_FINGER") if e[3] and e[2] is not None]
                        glide = [e for e in moving if e[2] is not None]
                        if finger and glide:
                            t_end = finger[-1][2]
                            window = [e for e in finger if t_end - 0.1 <= e[2] <= t_end]
                            span = window[-1][2] - window[0][2]
                            before = abs(sum(e[3] for e in window[1:])) / span if span > 0 else float("nan")
                            t0 = glide[0][2]
                            after_window = [e for e in glide if e[2] - t0 <= 0.1]
                            after_span = max(0.1, after_window[-1][2] - t0)
                            after = abs(sum(e[3] for e in after_window)) / after_span
                            ratio = after / before if before else float("nan")
                            intervals = [b[2] - a[2] for a, b in zip(glide, glide[1:]) if b[2] - t0 <= 0.3]
                            p50 = percentile(intervals, 50) * 1000
                            p90 = percentile(intervals, 90) * 1000
                            print("     %s: finger %.0f units/s, glide's first 100 ms %.0f units/s, ratio %.2f; "
                                  "glide intervals p50 %.1f ms, p90 %.1f ms" % (label, before, after, ratio, p50, p90), flush=True)
                            self.figures.setdefault("touchpad_speed_ratio", []).append(round(ratio, 3))
                            self.figures.setdefault("touchpad_interval_p50_ms", []).append(round(p50, 1))
                            # Wide bounds: under emulation the first frames come late, in lumps.
                            # The glide's first 100 ms from its first event include the lead's
                            # catch-up (VirtualFingers.lead): about 1.15 of the finger's speed when
                            # nothing is late; the finger's own figure varies by ±20 % here.
                            # A flick the player wrote late (frames in lumps, then a pause before
                            # the lift) is not the flick it was meant to be: the engine coasts on
                            # what the kernel saw (once 69 mm/s for a 150 mm/s flick, with 22 ms
                            # of rest before the lift), and the finger's figure is off too.
                            what = label + ": the glide starts near the finger's speed (0.6 .. 1.6 of it)"
                            if r.get("max_late_ms", 0) > self.LATE_MS:
                                c.skip(s, what, "the player ran %.0f ms late; ratio %.2f" % (r["max_late_ms"], ratio))
                            else:
                                c.check(s, what, 0.6 <= ratio <= 1.6, "0.6 .. 1.6", "%.2f" % ratio)
                            c.check(s, label + ": frames come steadily (median interval <= 40 ms under emulation; 8 ms nominal)",
                                    p50 <= 40, "<= 40 ms", "%.1f ms" % p50)
                        else:
                            c.check(s, label + ": libinput saw both the finger phase and the glide", False, "both",
                                    "%d finger, %d glide events" % (len(finger), len(glide)))
                    finally:
                        real.close()
                    time.sleep(0.3)
        finally:
            li.close(); tap.close()
            c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)

    # A coast on the virtual touchpad: "device N: coast at t=...: (vx, vy) mm/s for ..., M mm on
    # the virtual touchpad"; (vx, vy) is the real pad's velocity, before any scaling.
    TP_PLAN = r"device \d+: coast at [^\n]*?: \((-?\d+), (-?\d+)\) mm/s[^\n]*on the virtual touchpad"

    def glide_travel(self, tap, t0):
        """How far flickd's virtual fingers went, mm, from their first frame down at or after
        `t0` (the landing) to their last before the lift (vertical; the mean over the fingers
        down at both); None when no glide was seen."""
        frames = tap.positions(t0)
        down = [i for i, (t, fingers) in enumerate(frames) if fingers]
        if not down:
            return None
        first = down[0]
        last = first
        while last + 1 < len(frames) and frames[last + 1][1]:
            last += 1
        a, b = frames[first][1], frames[last][1]
        slots = [sl for sl in a if sl in b]
        if not slots:
            return None
        per_mm = tap.dev.absinfo(E.ABS_MT_POSITION_Y).resolution or 1
        return sum(b[sl][1] - a[sl][1] for sl in slots) / len(slots) / per_mm

    def tp_kde(self):
        """KDE Plasma on Wayland keeps natural scrolling per device (kcminputrc): with the real
        pad natural and the virtual pad at libinput's default, the virtual fingers move against
        the real ones; once the virtual pad is natural too, with them. It keeps the scrolling
        speed per device too (ScrollFactor): with the real pad's at 2 and the virtual pad's at
        KWin's default (1), the same flick carries the virtual fingers twice as far."""
        s = "tp-kde"
        home = os.path.join(self.out, "tp-kde-config")
        os.makedirs(home, exist_ok=True)
        rc = os.path.join(home, "kcminputrc")
        ident = load(TWO_SLOTS)["id"]
        pad_group = "[Libinput][%d][%d][%s]\nNaturalScroll=true\nTapToClick=true\n" % (
            ident["vendor"], ident["product"], load(TWO_SLOTS)["name"])
        virtual_group = "[Libinput][0][0][flickd virtual touchpad]\nNaturalScroll=true\n"
        with open(rc, "w") as f:
            f.write(pad_group)
        env = {"XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_TYPE": "wayland", "XDG_CONFIG_HOME": home}
        daemon, tap, li = self.start_touchpad("tp-kde", env)
        c = self.checks
        # (label, kcminputrc, the virtual pad's natural scrolling, the real pad's ScrollFactor).
        # The second part differs from the first by the real pad's ScrollFactor only (the
        # virtual pad still has no group: KWin's default, 1), so its glide is judged against the
        # first's, within this run: the emulated guest's speeds vary from run to run.
        parts = [("virtual pad without a group", pad_group, False, None),
                 ("real pad at ScrollFactor=2", pad_group + "ScrollFactor=2\n", False, 2.0),
                 ("virtual pad natural too", pad_group + virtual_group, True, None)]
        travel = {}
        try:
            with open_pad(TWO_SLOTS, daemon) as pad:
                for i, (label, text, virtual_natural, factor) in enumerate(parts):
                    if i:
                        # Whole or not at all (a rename): the file watcher reads no half-written file.
                        with open(rc + ".new", "w") as f:
                            f.write(text)
                        os.replace(rc + ".new", rc)
                        mark = daemon.mark()
                        daemon.proc.send_signal(signal.SIGHUP)
                    else:
                        mark = 0
                    said = daemon.wait_log(r"the desktop keeps it per device \([^)]*\); flickd virtual touchpad: (true|false)", 10, mark)
                    c.check(s, label + ": flickd read the virtual pad's own setting", said is not None and said.group(1) == str(virtual_natural).lower(),
                            str(virtual_natural).lower(), said and said.group(0))
                    if factor is not None:
                        # The pad's debug line after the reload (Daemon.naturalScrollingLine, GlideSpeedText).
                        pace = daemon.wait_log(re.escape(pad.devnode) + r" \([^)]*\): [^\n]*the virtual fingers move ([^\n]*)", 5, mark)
                        want = "%.1f× as fast" % factor
                        c.check(s, label + ": flickd logs that the virtual fingers move %s" % want,
                                pace is not None and pace.group(1).startswith(want), want,
                                pace.group(0) if pace else daemon.text()[mark:][-600:])
                    time.sleep(0.5)
                    r, plan, mark, host_start = self.flick(daemon, pad, "down", speed=150, duration=0.25)
                    planned = daemon.wait_log(self.TP_PLAN, 5, mark)
                    end = daemon.wait_log(r"coast ended at [^\n]*: ([a-z-]+)", 8, mark)
                    time.sleep(0.8)
                    moving = [e for e in li.since(host_start, "POINTER_SCROLL_FINGER") if e[3] or e[4]]
                    # libinput here applies no desktop settings: the virtual pad's events show
                    # which way its fingers moved (down: positive).
                    want = 1 if virtual_natural else -1
                    c.check(s, label + ": the virtual fingers move %s the real ones" % ("with" if virtual_natural else "against"),
                            len(moving) > 10 and all(e[3] * want >= 0 for e in moving),
                            "> 10 events, vertical sign %d" % want, [(e[3], e[4]) for e in moving][:6])
                    k_release = r.get("k_release") or r["t_release"]
                    self.check_clean(s, label, li, host_start, tap, k_release - 0.05)
                    # How far the virtual fingers went, per mm/s of the real pad's release
                    # velocity (the plan's): the gesture player's speed varies under emulation.
                    mm = self.glide_travel(tap, k_release - 0.05)
                    speed = math.hypot(int(planned.group(1)), int(planned.group(2))) if planned else None
                    if mm is not None and speed:
                        travel[i] = (abs(mm), speed, end.group(1) if end else None)
                        print("     %s: the virtual fingers went %.1f mm for a %.0f mm/s release (%.3f s), glide ended: %s"
                              % (label, abs(mm), speed, abs(mm) / speed, travel[i][2]), flush=True)
                    if factor is not None:
                        # 1.6 .. 2.4: the make-up and the rest distance do not scale exactly, and
                        # the landing's timing varies under emulation. Flicks at 150 mm/s: the
                        # doubled glide (about 150 mm) stays far from the 1000 mm pad's margin.
                        low, high = 0.8 * factor, 1.2 * factor
                        if 0 in travel and i in travel:
                            base, scaled = travel[0], travel[i]
                            ratio = (scaled[0] / scaled[1]) / (base[0] / base[1])
                            raw = scaled[0] / base[0]
                            print("     %s: %.2f times the travel per mm/s of ScrollFactor 1's (%.2f times its travel)"
                                  % (label, ratio, raw), flush=True)
                            c.check(s, label + ": the same flick carries the virtual fingers %.0f× as far (%.1f .. %.1f, per mm/s of release)"
                                    % (factor, low, high), low <= ratio <= high, "%.1f .. %.1f" % (low, high),
                                    "%.2f: %.1f mm at %.0f mm/s (ended: %s) against %.1f mm at %.0f mm/s (ended: %s)"
                                    % (ratio, scaled[0], scaled[1], scaled[2], base[0], base[1], base[2]))
                        else:
                            c.check(s, label + ": the virtual fingers' travel and the release velocity are seen in both flicks",
                                    False, "both", "%s; %s" % (travel, planned and planned.group(0)))
                    time.sleep(0.5)
        finally:
            li.close(); tap.close()
            c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)

    def tp_gnome(self):
        """GNOME keeps one touchpad setting, applied by the desktop to the virtual pad too, so a
        touchpad's glide does not depend on it; a touchscreen's does: with natural scrolling the
        virtual fingers move the way the finger did, without it the other way. Here GNOME's
        setting lives where a session keeps it (dconf's service on a private session bus, the
        database in XDG_CONFIG_HOME/dconf on the guest's own disk: inotify sees nothing on the
        9p results directory), and it is changed with `gsettings set` while flickd runs: flickd
        must follow without a reload, and the next drag glide the other way."""
        s = "tp-gnome"
        c = self.checks
        home = tempfile.mkdtemp(prefix="tp-gnome-config-")
        # dconf's service, started by the bus, writes the database under its own XDG_CONFIG_HOME.
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                               stdout=subprocess.PIPE, stderr=open(os.path.join(self.out, "tp-gnome-dbus.log"), "w"),
                               text=True, env=dict(os.environ, XDG_CONFIG_HOME=home))
        daemon = tap = li = None
        try:
            address = bus.stdout.readline().strip()
            env = {"XDG_CURRENT_DESKTOP": "GNOME", "XDG_CONFIG_HOME": home, "DBUS_SESSION_BUS_ADDRESS": address,
                   "GSETTINGS_BACKEND": "dconf"}

            def gsettings_set(value):
                r = subprocess.run(["gsettings", "set", "org.gnome.desktop.peripherals.touchpad", "natural-scroll", value],
                                   env=dict(os.environ, **env), capture_output=True, text=True, timeout=30)
                if r.returncode != 0:
                    raise RuntimeError("gsettings set failed: %s" % r.stderr.strip())

            # Off first: GNOME's default is on, so reading "false" shows the database was read.
            gsettings_set("false")
            daemon, tap, li = self.start_touchpad("tp-gnome", env)
            mark = 0
            with open_pad(TOUCHSCREEN, daemon) as screen:
                for natural in (False, True):
                    word = str(natural).lower()
                    if natural:
                        mark = daemon.mark()
                        gsettings_set(word)
                    said = daemon.wait_log(r"natural scrolling: auto → (true|false) \(GNOME gsettings[^)]*\)", 15, mark)
                    c.check(s, "natural-scroll %s: flickd %s GNOME's setting" % (word, "followed the change to" if natural else "read"),
                            said is not None and said.group(1) == word, word, said and said.group(0))
                    time.sleep(0.5)
                    label = "natural-scroll %s: touchscreen drag up" % word
                    r, plan, fmark, host_start = self.flick(daemon, screen, "up", speed=200, duration=0.2, fingers=1, spacing=0)
                    daemon.wait_log(r"coast ended at [^\n]*", 8, fmark)
                    time.sleep(0.8)
                    moving = [e for e in li.since(host_start, "POINTER_SCROLL_FINGER") if e[3] or e[4]]
                    # libinput here applies no desktop setting: its sign is the fingers' (down:
                    # positive). Natural: the fingers move up, as the finger did.
                    want = -1 if natural else 1
                    c.check(s, label + ": the virtual fingers move %s" % ("up, as the finger did" if natural else "down, against the finger"),
                            len(moving) > 10 and all(e[3] * want >= 0 for e in moving),
                            "> 10 events, vertical sign %d" % want, [(e[3], e[4]) for e in moving][:6])
            # A gsettings as slow as at a login on a busy machine (2 s; the loaded guest once
            # took over 1 s): a second flickd, started with it, still reads GNOME's setting.
            slow_bin = os.path.join(home, "slow-bin")
            os.mkdir(slow_bin)
            with open(os.path.join(slow_bin, "gsettings"), "w") as f:
                f.write('#!/bin/sh\nsleep 2\nexec %s "$@"\n' % shutil.which("gsettings"))
            os.chmod(os.path.join(slow_bin, "gsettings"), 0o755)
            gsettings_set("false")
            slow = Flickd(self.args.flickd, self.out, TOUCHPAD_CONFIG, "tp-gnome-slow",
                          dict(env, PATH=slow_bin + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")))
            try:
                said = slow.wait_log(r"natural scrolling: auto → (true|false) \(([^)]*)\)", 15)
                c.check(s, "a gsettings that takes 2 s: flickd still read GNOME's setting",
                        said is not None and said.group(1) == "false" and said.group(2).startswith("GNOME gsettings"),
                        "false (GNOME gsettings ...)", said and said.group(0))
            finally:
                c.check(s, "a gsettings that takes 2 s: flickd exits 0 on SIGTERM", slow.stop() == 0, 0, slow.proc.returncode)
            # A gsettings that never answers: killed at its 5 s deadline, and the log says so
            # rather than that GNOME has no setting.
            hung_bin = os.path.join(home, "hung-bin")
            os.mkdir(hung_bin)
            with open(os.path.join(hung_bin, "gsettings"), "w") as f:
                f.write('#!/bin/sh\nexec sleep 60\n')
            os.chmod(os.path.join(hung_bin, "gsettings"), 0o755)
            hung = Flickd(self.args.flickd, self.out, TOUCHPAD_CONFIG, "tp-gnome-hung",
                          dict(env, PATH=hung_bin + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")))
            try:
                said = hung.wait_log(r"natural scrolling: auto → false \(no desktop setting found: ([^\n]*)\); set scroll", 20)
                c.check(s, "a gsettings that never answers: the log says it was killed at its deadline",
                        said is not None and said.group(1) == "XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed)",
                        "no desktop setting found: XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed)",
                        said and said.group(0))
            finally:
                c.check(s, "a gsettings that never answers: flickd exits 0 on SIGTERM", hung.stop() == 0, 0, hung.proc.returncode)
        finally:
            if li:
                li.close()
            if tap:
                tap.close()
            if daemon:
                c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)
            bus.terminate()
            bus.wait()
            shutil.rmtree(home, ignore_errors=True)

    def tp_stops(self):
        """A touch, a key, a button and a removed pad each freeze the glide: no motion after but
        the three settle frames (one device unit each, the first >= 250 ms later, then 50 ms
        apart, which libinput makes one small scroll each of), a lift only after 200 ms still, no
        other scroll from libinput but its final stop."""
        s = "tp-stops"
        daemon, tap, li = self.start_touchpad("tp-stops")
        c = self.checks
        caps = {E.EV_KEY: list(range(E.KEY_ESC, E.KEY_MICMUTE + 1))}
        mouse_caps = {E.EV_KEY: [E.BTN_LEFT, E.BTN_RIGHT], E.EV_REL: [E.REL_X, E.REL_Y]}
        keyboard = evdev.UInput(caps, name="e2e keyboard", bustype=E.BUS_USB, vendor=0x1234, product=0x5678)
        mouse = evdev.UInput(mouse_caps, name="e2e mouse", bustype=E.BUS_USB, vendor=0x1234, product=0x5679)

        def press(dev, code):
            dev.write(E.EV_KEY, code, 1)
            dev.syn()
            dev.write(E.EV_KEY, code, 0)
            dev.syn()

        try:
            daemon.wait_log(r"\(e2e mouse\): mouse", 10)
            pad = open_pad(MANY_SLOTS, daemon)
            try:
                for how in ("touch", "key", "button", "device-removed"):
                    label = "stop by " + how
                    r, plan, mark, host_start = self.flick(daemon, pad, "down", speed=250, duration=0.12)
                    if plan is None and not daemon.wait_log(r"device \d+: coast at", 1, mark):
                        c.check(s, label + ": flickd planned a coast", False, "a plan", daemon.text()[mark:][-400:])
                        continue
                    time.sleep(0.3)
                    t_stop = mono()
                    if how == "touch":
                        t = pad.tap(hold=0.05)
                        t_stop = t.get("k_touch") or t["t_touch"]
                    elif how == "key":
                        press(keyboard, E.KEY_LEFTCTRL)
                    elif how == "button":
                        press(mouse, E.BTN_LEFT)
                    else:
                        pad.close()
                    end = daemon.wait_log(r"coast ended at [^\n]*: ([a-z-]+)", 3, mark)
                    time.sleep(1.0)  # the rest, the settle frames and the rest before the lift: 550 ms
                    c.check(s, label + ": flickd says so", end is not None and end.group(1) == how, how, end and end.group(0))
                    k_release = r.get("k_release") or r["t_release"]
                    moving = [t for t, k in tap.kinds(k_release) if k == "move"]
                    c.check(s, label + ": the fingers were moving before the stop",
                            len([t for t in moving if t < t_stop]) > 5, "> 5 frames", len(moving))
                    # flickd learns of a removal from udev or ENODEV, some ms later under emulation.
                    allowed = 0.25 if how == "device-removed" else 0.012
                    # Fingers frozen while moving settle: after a rest, three frames of one device
                    # unit each (a browser then starts no fling of its own at the lift), then the lift.
                    rests = [i for i in range(1, len(moving)) if moving[i] - moving[i - 1] >= 0.2]
                    rest = rests[-1] if rests else None
                    settles = moving[rest:] if rest is not None else []
                    coast = moving[:rest] if rest is not None else moving
                    steps = []
                    frames = tap.positions(settles[0] - 0.5) if settles else []
                    for t in settles:
                        at = dict(frames)[t]
                        before = [p for u, p in frames if u < t]
                        steps.append(sorted((abs(at[sl][0] - xy[0]), abs(at[sl][1] - xy[1]))
                                            for sl, xy in before[-1].items() if sl in at) if before else [])
                    gaps = [round((b - a) * 1000, 1) for a, b in zip(settles, settles[1:])]
                    # flickd steps them 50 ms apart (exactly so in the unit tests, on virtual
                    # time); the kernel stamps a frame when it is written, which in the guest can
                    # be several ms after the wake-up (a CI run: 55.2 then 48.2 ms). So each gap
                    # 35-150 ms, and the two together at least 90 ms: spread out, never bunched.
                    c.check(s, label + ": then three settle frames, the first >= 250 ms after the last motion, "
                            "then 50 ms apart, one unit each",
                            len(settles) == 3 and bool(coast) and settles[0] - coast[-1] >= 0.249
                            and all(35 <= g < 150 for g in gaps) and sum(gaps) >= 90
                            and all(len(st) == 2 and all(sorted(f) == [0, 1] for f in st) for st in steps),
                            "3 frames, >= 250 ms later, 50 ms apart (each gap 35-150 ms, both >= 90 ms), "
                            "each finger one unit on one axis",
                            "%d frames, %s ms after the last motion, then %s ms; %s" % (
                                len(settles), settles and coast and round((settles[0] - coast[-1]) * 1000, 1),
                                gaps, steps))
                    late = [round((t - t_stop) * 1000, 1) for t in coast if t > t_stop + allowed]
                    c.check(s, label + ": no motion frame after the stop (%.0f ms allowed to notice it)" % (allowed * 1000),
                            not late, [], late[:5])
                    self.check_rest_then_lift(s, label, tap, k_release - 0.05)
                    # libinput's scrolls of the coast's frames are read within 150 ms of them.
                    quiet_from = (coast[-1] if coast else t_stop) + 0.15
                    after = [e for e in li.since(quiet_from, "POINTER_SCROLL_FINGER") if e[3] or e[4]]
                    small = [e for e in after if abs(e[3]) < 1.5 and abs(e[4]) < 1.5]
                    c.check(s, label + ": libinput: no scroll after the stop but the settle frames' (< 1.5 units each) and the final 0/0",
                            len(after) == len(settles) and len(small) == len(after), "%d small scrolls" % len(settles),
                            [e[5] for e in after[:5]])
                    self.check_clean(s, label, li, host_start)
                    if how == "device-removed":
                        c.check(s, "flickd is still running after the removal", daemon.alive(), "alive", daemon.proc.returncode)
                        pad = open_pad(TWO_SLOTS, daemon)
                        m, plan, mark, _ = self.flick(daemon, pad, "down", speed=200, duration=0.2, stagger=0.02)
                        time.sleep(0.5)
                        k = m.get("k_release") or m["t_release"]
                        c.check(s, "a pad plugged in later coasts on the touchpad",
                                any(kind == "move" for _, kind in tap.kinds(k)), "motion frames", tap.kinds(k)[:3])
                        pad.tap(hold=0.05)
                        time.sleep(0.5)
            finally:
                pad.close()
        finally:
            keyboard.close(); mouse.close()
            li.close(); tap.close()
            c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)

    # -- libinput's integration of the virtual touchpad ---------------------------------------

    RULES = "/etc/udev/rules.d/70-flickd-uinput.rules"

    class InstalledRule:
        """The repository's udev rule (systemd/70-flickd-uinput.rules) installed in the guest as
        scripts/install does, for the devices made after it; at the end the file there before
        (none, in a plain guest run) is put back (the guest's root is a tmpfs overlay: nothing
        reaches the host)."""

        def __enter__(self):
            try:
                with open(Scenarios.RULES, "rb") as f:
                    self.before = f.read()
            except FileNotFoundError:
                self.before = None
            shutil.copyfile(os.path.join(REPO, "systemd", "70-flickd-uinput.rules"), Scenarios.RULES)
            try:
                subprocess.run(["udevadm", "control", "--reload"], check=True)
            except BaseException:
                # Not left installed for the scenarios after this one, which run without it.
                self.__exit__(None, None, None)
                raise
            return self

        def __exit__(self, *exc):
            if self.before is None:
                try:
                    os.remove(Scenarios.RULES)
                except FileNotFoundError:
                    pass
            else:
                with open(Scenarios.RULES, "wb") as f:
                    f.write(self.before)
            subprocess.run(["udevadm", "control", "--reload"], check=False)

    @staticmethod
    def integration(devnode):
        """udev's ID_INPUT_TOUCHPAD_INTEGRATION of `devnode`, None when unset."""
        info = subprocess.run(["udevadm", "info", "--query=property", devnode], capture_output=True, text=True).stdout
        m = re.search(r"^ID_INPUT_TOUCHPAD_INTEGRATION=(\S+)$", info, re.M)
        return m and m.group(1)

    def tp_typing(self):
        """A laptop's own keyboard (a PS/2 one, bus i8042, which libinput's quirks call internal)
        typing during a glide: flickd stops it, and libinput does not stop the scroll before
        flickd's fingers lift (libinput pairs disable-while-typing with internal touchpads only;
        the installed udev rule tags flickd's external). A stop from libinput at the key, with
        the virtual fingers still moving, reads to the app as a lift while moving: GTK and
        chromium start a fling of their own."""
        s = "tp-typing"
        c = self.checks
        caps = {E.EV_KEY: list(range(E.KEY_ESC, E.KEY_MICMUTE + 1))}
        with self.InstalledRule():
            keyboard = evdev.UInput(caps, name="e2e laptop keyboard", bustype=E.BUS_I8042, vendor=0x0001, product=0x0001)
            try:
                daemon, tap, li = self.start_touchpad(s, also=[keyboard.device.path])
                try:
                    c.check(s, "flickd watches the keyboard", daemon.wait_log(r"\(e2e laptop keyboard\): keyboard", 10) is not None,
                            "an 'e2e laptop keyboard: keyboard' line", daemon.text()[-400:])
                    with open_pad(MANY_SLOTS, daemon) as pad:
                        node = daemon.wheel
                        print("     (the virtual touchpad's ID_INPUT_TOUCHPAD_INTEGRATION: %s)" % self.integration(node), flush=True)
                        r, plan, mark, host_start = self.flick(daemon, pad, "down", speed=250, duration=0.12)
                        time.sleep(0.3)
                        t_key = mono()
                        keyboard.write(E.EV_KEY, E.KEY_A, 1)
                        keyboard.syn()
                        keyboard.write(E.EV_KEY, E.KEY_A, 0)
                        keyboard.syn()
                        end = daemon.wait_log(r"coast ended at [^\n]*: ([a-z-]+)", 3, mark)
                        time.sleep(1.2)   # rest, settle frames, rest, lift: 550 ms; libinput catches up
                        c.check(s, "a typewriter key stops flickd's glide", end is not None and end.group(1) == "key",
                                "key", end and end.group(0))
                        k_release = r.get("k_release") or r["t_release"]
                        kinds = tap.kinds(k_release)
                        moving = [t for t, k in kinds if k == "move" and t < t_key]
                        lifts = [t for t, k in kinds if k == "lift"]
                        c.check(s, "the fingers were moving at the key", len(moving) > 5, "> 5 motion frames", len(moving))
                        c.check(s, "the fingers lift once, >= 400 ms after the key (rest, settle, rest)",
                                len(lifts) == 1 and lifts[0] - t_key >= 0.4, ">= 400 ms",
                                ["%.0f ms" % ((t - t_key) * 1000) for t in lifts])
                        # libinput's printed times are the kernel's stamps: the key's and the stop's
                        # compare with the lift's kernel time less the key's.
                        keys = [e for e in li.since(host_start, "KEYBOARD_KEY") if e[2] is not None]
                        stops = [e for e in li.since(host_start, "POINTER_SCROLL_FINGER")
                                 if not e[3] and not e[4] and e[2] is not None]
                        if not c.check(s, "libinput read the key", bool(keys), "a KEYBOARD_KEY line", li.since(host_start)[-3:]):
                            return
                        at = [round((e[2] - keys[0][2]) * 1000) for e in stops if e[2] >= keys[0][2] - 0.001]
                        lift_ms = round((lifts[-1] - t_key) * 1000) if lifts else None
                        print("     (libinput's 0/0 scroll stops: %s ms after the key; the lift: %s ms after it)" % (at, lift_ms),
                              flush=True)
                        c.check(s, "libinput stops the scroll only at the lift, not at the key (disable-while-typing)",
                                len(at) == 1 and lift_ms is not None and at[0] >= lift_ms - 20 and at[0] >= 150,
                                "one 0/0 scroll stop, at the lift (%s ms after the key)" % lift_ms,
                                "0/0 stops at %s ms after the key" % at)
                        pad.tap(hold=0.03)
                        time.sleep(0.3)
                finally:
                    li.close(); tap.close()
                    c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)
            finally:
                keyboard.close()

    def tp_tablet_mode(self):
        """A 2-in-1 in tablet mode (a switch with SW_TABLET_MODE on): libinput suspends the
        touchpads it calls internal, so glides on flickd's would vanish; tagged external, they
        still reach the desktop."""
        s = "tp-tablet-mode"
        c = self.checks
        with self.InstalledRule():
            switch = evdev.UInput({E.EV_SW: [E.SW_TABLET_MODE]}, name="e2e tablet mode switch", bustype=E.BUS_HOST)
            switch.write(E.EV_SW, E.SW_TABLET_MODE, 1)
            switch.syn()
            try:
                daemon, tap, li = self.start_touchpad(s, also=[switch.device.path])
                try:
                    with open_pad(MANY_SLOTS, daemon) as pad:
                        r, plan, mark, host_start = self.flick(daemon, pad, "down", speed=250, duration=0.12)
                        end = coast_end(daemon, mark)
                        time.sleep(0.5)
                        k_release = r.get("k_release") or r["t_release"]
                        moves = [t for t, k in tap.kinds(k_release) if k == "move"]
                        c.check(s, "flickd glides", plan is not None and len(moves) > 5, "a plan, > 5 motion frames",
                                "%s, %d frames" % (plan, len(moves)))
                        switches = [e[5] for e in li.since(0, "SWITCH_TOGGLE")] + [
                            l for l in open(li.log_path).read().splitlines() if "tablet mode switch" in l][:1]
                        print("     (libinput read the switch: %s)" % switches[:2], flush=True)
                        # What makes the scroll check mean something: libinput has the switch (so
                        # it would suspend an internal pad), and the pad is tagged external.
                        added = [l for l in open(li.log_path).read().splitlines()
                                 if "DEVICE_ADDED" in l and "tablet mode switch" in l]
                        c.check(s, "libinput added the tablet-mode switch", bool(added), "a DEVICE_ADDED line",
                                switches[:2])
                        tag = self.integration(daemon.wheel)
                        c.check(s, "the virtual touchpad is tagged external (the installed rule)", tag == "external",
                                "external", tag)
                        scrolls = [e for e in li.since(host_start, "POINTER_SCROLL_FINGER") if e[3] or e[4]]
                        c.check(s, "in tablet mode the glide still reaches libinput (POINTER_SCROLL_FINGER)",
                                len(scrolls) > 5, "> 5 scroll events", len(scrolls))
                        pad.tap(hold=0.03)
                        time.sleep(0.3)
                finally:
                    li.close(); tap.close()
                    c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)
            finally:
                switch.close()

    # -- scenarios ----------------------------------------------------------------------------

    def flick_down(self):
        s = "flick-down"
        daemon, tap, li = self.start("flick-down")
        try:
            for name, direction, kw in [(MANY_SLOTS, "down", {}), (TWO_SLOTS, "down", {"stagger": 0.02}),
                                        (TOUCHSCREEN, "up", {"fingers": 1, "spacing": 0})]:
                with open_pad(name, daemon) as pad:
                    label = "%s %s" % (name, "drag up" if name == TOUCHSCREEN else "flick down")
                    m = self.flick_and_measure(s, daemon, tap, li, pad, direction, label,
                                               speed=200, duration=0.2, **kw)
                    c = self.checks
                    if not c.check(s, label + ": flickd planned a coast", m["plan"] is not None,
                                   "a 'coast at ...' log line", daemon.text()[-800:]):
                        continue
                    v_plan, h_plan = m["plan"]
                    c.check(s, label + ": the coast scrolls down (REL_WHEEL < 0)", v_plan < 0, "< 0", v_plan)
                    c.check(s, label + ": vertical only (predicted)", h_plan == 0, 0, h_plan)
                    self.check_plan_speed(s, label, m, direction)
                    hi = [e for e in m["kernel"] if e[1] == E.REL_WHEEL_HI_RES]
                    hh = [e for e in m["kernel"] if e[1] == E.REL_HWHEEL_HI_RES]
                    total = sum(e[2] for e in hi)
                    c.check(s, label + ": kernel-side REL_WHEEL_HI_RES total equals the plan", total == v_plan,
                            v_plan, total)
                    c.check(s, label + ": no REL_HWHEEL_HI_RES", not hh, [], hh[:5])
                    legacy = sum(e[2] for e in m["kernel"] if e[1] == E.REL_WHEEL)
                    # What earlier coasts the same way left under a detent (under 120) counts
                    # towards this one's (DESIGN.md, "Legacy detents carry across coasts").
                    whole = int(total / 120)
                    step = 1 if total > 0 else -1
                    c.check(s, label + ": legacy REL_WHEEL, one per 120 (with up to one carried from earlier coasts)",
                            legacy in (whole, whole + step), "%d or %d" % (whole, whole + step), legacy)
                    if hi:
                        latency = hi[0][0] - m["release"]
                        c.check(s, label + ": first wheel event right after the release (< 50 ms)",
                                -0.001 <= latency < 0.05, "0..50 ms", "%.2f ms" % (latency * 1000))
                    lv = [x[1] for x in m["libinput"]]
                    lh = [x[2] for x in m["libinput"]]
                    c.check(s, label + ": libinput reports POINTER_SCROLL_WHEEL", len(lv) > 0, "> 0 events", len(lv))
                    # libinput's vertical sign is the opposite of the kernel's (DESIGN_NOTES §4).
                    c.check(s, label + ": libinput: vertical, downwards (vert > 0)",
                            all(v >= 0 for v in lv) and sum(lv) > 0, "all vert >= 0", lv[:8])
                    c.check(s, label + ": libinput: no horizontal", all(h == 0 for h in lh), "all 0", [h for h in lh if h][:5])
                    c.check(s, label + ": libinput's v120 sum within 1 % of the plan",
                            abs(sum(lv) + v_plan) <= max(1.0, 0.01 * abs(v_plan)), -v_plan, sum(lv))
        finally:
            li.close(); tap.close(); daemon.stop()

    def no_coast(self):
        s = "no-coast"
        daemon, tap, li = self.start("no-coast")
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                for label, play in [("slow release", lambda: pad.slow_release("down", speed=60, duration=0.3, decel=0.3)),
                                    ("pause then lift", lambda: pad.move_pause_lift("down", speed=200, duration=0.2, pause=0.3))]:
                    mark = daemon.mark()
                    t0 = mono()
                    r = play()
                    time.sleep(1.5)
                    k_release = r.get("k_release") or r["t_release"]
                    after = tap.between(k_release - 0.05)
                    self.checks.check(s, label + ": no wheel events", not after, [], after[:5])
                    self.checks.check(s, label + ": libinput saw no scrolling", not li.since(t0), [], li.since(t0)[:5])
                    why = daemon.wait_log(r"no coast at [^\n]*", 2, mark)
                    self.checks.check(s, label + ": flickd logged why", why is not None, "a 'no coast' line",
                                      daemon.text()[mark:][-400:])
        finally:
            li.close(); tap.close(); daemon.stop()

    def touch_stops(self):
        s = "touch-stops"
        daemon, tap, li = self.start("touch-stops")
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                r, plan, mark, _ = self.flick(daemon, pad, "down", speed=250, duration=0.12)
                time.sleep(0.3)
                t = pad.tap(hold=0.05)
                end = coast_end(daemon, mark)
                time.sleep(0.5)
                k_touch = t.get("k_touch") or t["t_touch"]
                running = tap.between((r.get("k_release") or r["t_release"]), k_touch)
                late = tap.between(k_touch + self.period + 0.002)
                self.checks.check(s, "the coast was running before the touch", len(running) > 0, "> 0 events", len(running))
                self.checks.check(s, "no wheel event later than one tick after the touch", not late, [],
                                  ["%.1f ms after" % ((e[0] - k_touch) * 1000) for e in late[:5]])
                self.checks.check(s, "flickd says the touch stopped it", end is not None and end[0] == "touch",
                                  "touch", end)
        finally:
            li.close(); tap.close(); daemon.stop()

    def tp_turn(self):
        """A flick down, then, while its glide runs, a flick to the right: the second flick's
        fingers stop the first glide (the virtual fingers freeze, still down), and its release
        starts a sideways glide. libinput locked the virtual fingers' scroll to the vertical
        axis during the first glide, and keeps that lock until they lift: a glide continued
        with the same fingers lost its first ~100 ms sideways (libinput zeroed it), so flickd
        lifts and lands them again. Judged on libinput's own scroll: its units per device unit
        of the virtual fingers' travel, sideways in the second glide against vertically in the
        first (the virtual pad has one resolution on both axes)."""
        s = "tp-turn"
        daemon, tap, li = self.start_touchpad("tp-turn")
        c = self.checks
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                time.sleep(0.5)
                for attempt in range(3):
                    # Each flick played once (retry=False): a "right" played again on its own
                    # would land on no glide (the late one's landing already ended it), coast as
                    # an ordinary sideways flick and pass without testing the turn. The pair is
                    # played again instead, below.
                    r1, plan1, mark, host_start = self.flick(daemon, pad, "down", retry=False, speed=250,
                                                             duration=0.12)
                    time.sleep(0.25)
                    r2, plan2, mark2, _ = self.flick(daemon, pad, "right", retry=False, speed=250, duration=0.12)
                    # The second flick's landing ends the first glide ("touch"); the sideways
                    # glide's own end, and then its timer line, come after its "coast at" line.
                    second = daemon.wait_log(r"device \d+: coast at [^\n]*", 5, mark2)
                    end = daemon.wait_log(r"coast ended at [^\n]*: ([a-z-]+)", 8, second.end()) if second else None
                    timer = daemon.wait_log(TIMER_LINE, 3, end.end()) if end else None
                    time.sleep(1.2)   # the rest, the settle frames, the lift; libinput's reader
                    # As Scenarios.flick: a flick that did not coast is played again (the pair,
                    # at most twice more, after the glides ended) only when the player ran late;
                    # one played on time that does not coast is a failure.
                    missed = [r for r, plan in ((r1, plan1), (r2, plan2)) if plan is None]
                    if not missed or any(r.get("max_late_ms", 0) <= self.LATE_MS for r in missed):
                        break
                    print("     (the player ran %.0f ms late and a flick did not coast; both played again)"
                          % max(r["max_late_ms"] for r in missed), flush=True)
                c.check(s, "both flicks coast", plan1 is not None and plan2 is not None, "two 'coast at' lines",
                        "%s; the player at most %.0f and %.0f ms late" % (daemon.text()[mark:][-600:],
                                                                       r1.get("max_late_ms", 0), r2.get("max_late_ms", 0)))
                if plan1 is None or plan2 is None:
                    return
                k_release = r2.get("k_release") or r2["t_release"]
                kinds = [(round((t - k_release) * 1000, 1), k) for t, k in tap.kinds(k_release - 0.05, k_release + 0.2)
                         if k != "move"]
                print("     virtual fingers at the second release (ms after it): %s" % kinds, flush=True)
                dx = dy = 0.0
                frames = tap.positions((r1.get("k_release") or r1["t_release"]) - 0.05)
                for (_, a), (_, b) in zip(frames, frames[1:]):
                    if 0 in a and 0 in b:
                        dx += abs(b[0][0] - a[0][0])
                        dy += abs(b[0][1] - a[0][1])
                scrolls = li.since(host_start, "POINTER_SCROLL_FINGER")
                vert = sum(abs(e[3]) for e in scrolls)
                horiz = sum(abs(e[4]) for e in scrolls)
                down = vert / dy if dy else float("nan")
                right = horiz / dx if dx else float("nan")
                ratio = right / down if down else float("nan")
                print("     libinput: %.1f units vertically for %d device units, %.1f sideways for %d: "
                      "%.3f and %.3f per unit, sideways/vertical %.2f" % (vert, dy, horiz, dx, down, right, ratio),
                      flush=True)
                c.check(s, "the sideways glide after a vertical one reaches libinput whole: its units per device unit "
                        "within 0.9-1.1 of the vertical glide's", 0.9 <= ratio <= 1.1, "0.9-1.1", round(ratio, 3))
                self.check_clean(s, "flick down, then right", li, host_start)
                self.check_glide_end(s, "the sideways glide", end, timer and timer.group(0))
        finally:
            li.close(); tap.close()
            c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)

    def horizontal(self):
        s = "horizontal"
        daemon, tap, li = self.start("horizontal")
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                m = self.flick_and_measure(s, daemon, tap, li, pad, "right", "flick right", speed=200, duration=0.2)
                c = self.checks
                plan = m["plan"]
                if c.check(s, "flickd planned a coast", plan is not None, "a plan", daemon.text()[-600:]):
                    c.check(s, "the coast scrolls right (REL_HWHEEL > 0), not vertically", plan[1] > 0 and plan[0] == 0,
                            "(0, > 0)", plan)
                    self.check_plan_speed(s, "flick right", m, "right")
                kv = [e for e in m["kernel"] if e[1] in (E.REL_WHEEL, E.REL_WHEEL_HI_RES)]
                kh = sum(e[2] for e in m["kernel"] if e[1] == E.REL_HWHEEL_HI_RES)
                c.check(s, "kernel side: no vertical events", not kv, [], kv[:5])
                c.check(s, "kernel side: horizontal total equals the plan", plan is not None and kh == plan[1],
                        plan and plan[1], kh)
                lv = [x[1] for x in m["libinput"]]
                lh = [x[2] for x in m["libinput"]]
                c.check(s, "libinput: horizontal, to the right (horiz > 0)", lh and all(h >= 0 for h in lh) and sum(lh) > 0,
                        "horiz > 0", lh[:8])
                c.check(s, "libinput: no vertical", all(v == 0 for v in lv), "all 0", [v for v in lv if v][:5])
        finally:
            li.close(); tap.close(); daemon.stop()

    def hotplug(self):
        s = "hotplug"
        daemon, tap, li = self.start("hotplug")
        c = self.checks
        try:
            time.sleep(0.5)
            c.check(s, "started with no touchpad: no virtual device yet", not virtual_devices(),
                    "none in /proc/bus/input/devices", virtual_devices())
            with open_pad(TWO_SLOTS, daemon) as first:
                first_node = first.devnode
                c.check(s, "the first pad opened: the virtual wheel is created with it",
                        virtual_devices() == ["flickd virtual wheel"], ["flickd virtual wheel"], virtual_devices())
                # Plugged in after flickd started: picked up and used.
                mark = daemon.mark()
                second = open_pad(MANY_SLOTS, daemon)
                opened = daemon.wait_log(re.escape(second.devnode) + r" \([^)]*\): touchpad, [^\n]*; flicks coast", 5, mark)
                c.check(s, "a pad plugged in later is opened, as a touchpad whose flicks coast", opened is not None,
                        "'%s (...): touchpad, ...; flicks coast'" % second.devnode, daemon.text()[mark:][-400:])
                m = self.flick_and_measure(s, daemon, tap, li, second, "down", "late pad", speed=200, duration=0.2)
                c.check(s, "a flick on the late pad coasts", m["plan"] is not None and sum(e[2] for e in m["kernel"]
                        if e[1] == E.REL_WHEEL_HI_RES) == m["plan"][0], m["plan"], sum(e[2] for e in m["kernel"]
                        if e[1] == E.REL_WHEEL_HI_RES))
                # Removed mid-coast: the coast ends, flickd goes on.
                _, plan, mark, _ = self.flick(daemon, second, "down", speed=250, duration=0.12)
                time.sleep(0.3)
                second.close()
                t_removed = mono()
                end = coast_end(daemon, mark)
                time.sleep(0.8)
                late = tap.between(t_removed + 0.1)
                c.check(s, "removing the pad mid-coast ends the coast", end is not None and end[0] == "device-removed",
                        "device-removed", end)
                c.check(s, "no wheel events after the removal", not late, [], late[:5])
                c.check(s, "flickd is still running", daemon.alive(), "alive", daemon.proc.returncode)
                m = self.flick_and_measure(s, daemon, tap, li, first, "down", "first pad", speed=200, duration=0.2,
                                           stagger=0.02)
                got = sum(e[2] for e in m["kernel"] if e[1] == E.REL_WHEEL_HI_RES)
                c.check(s, "the other pad still coasts", m["plan"] is not None and got == m["plan"][0] and got != 0,
                        m["plan"], got)
                self.udev_change(s, daemon, first)
            closed = daemon.wait_log(re.escape(first_node) + r" \([^)]*\): removed", 10)
            c.check(s, "every pad removed: the virtual wheel stays (until flickd exits)",
                    closed is not None and virtual_devices() == ["flickd virtual wheel"], ["flickd virtual wheel"], virtual_devices())
        finally:
            li.close(); tap.close()
            c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)

    def udev_change(self, s, daemon, pad):
        """udev's "change" of an open pad (`udevadm trigger`): with nothing changed it stays as it
        is; after its resolution was doubled under the open descriptor (EVIOCSABS, as udev does
        when a hwdb entry sets one), flickd reads it again, at half the size."""
        c = self.checks
        label = re.escape(pad.devnode) + r" \([^)]*\): "

        def trigger():
            subprocess.run(["udevadm", "trigger", "--action=change", pad.devnode], check=False)
            subprocess.run(["udevadm", "settle", "--timeout=5"], check=False)

        mark = daemon.mark()
        trigger()
        # flickd logs nothing for a change that changed nothing. A keyboard plugged in once udev
        # has settled is the proof it handled it: udev sent the change to flickd's monitor
        # before the queue emptied, the keyboard's "add" after it, and flickd handles its
        # monitor's events in order; once it logs the keyboard, the change was handled (and
        # cannot be read late, after the resolution changes below).
        barrier = evdev.UInput({E.EV_KEY: list(range(E.KEY_ESC, E.KEY_MICMUTE + 1))}, name="e2e barrier keyboard",
                               bustype=E.BUS_USB, vendor=0x1234, product=0x567a)
        try:
            handled = daemon.wait_log(r"\(e2e barrier keyboard\): keyboard", 10, mark)
        finally:
            barrier.close()
        kept = daemon.text()[mark:]
        c.check(s, "a udev change that changed nothing leaves the pad as it is (handled before a keyboard plugged in after it)",
                handled is not None and "reading it again" not in kept,
                "no 'reading it again' before the 'e2e barrier keyboard' line", kept[-400:])
        sized = re.findall(label + r"touchpad, (\d+) × (\d+) mm", daemon.text())
        node = evdev.InputDevice(pad.devnode)
        try:
            for code in (E.ABS_X, E.ABS_Y, E.ABS_MT_POSITION_X, E.ABS_MT_POSITION_Y):
                node.set_absinfo(code, resolution=node.absinfo(code).resolution * 2)
        finally:
            node.close()
        mark = daemon.mark()
        trigger()
        again = daemon.wait_log(label + r"changed \(its axes or name changed\): reading it again", 10, mark)
        size = daemon.wait_log(label + r"touchpad, (\d+) × (\d+) mm", 10, mark)
        before = tuple(int(v) for v in sized[-1]) if sized else None
        after = (int(size.group(1)), int(size.group(2))) if size else None
        rereads = len(re.findall(label + r"changed \(", daemon.text()[mark:]))
        c.check(s, "its resolution doubled and udev's change: flickd reads it again, once, at half the size",
                again is not None and rereads == 1 and before is not None and after is not None
                and all(abs(a * 2 - b) <= 1 for a, b in zip(after, before)),
                "reading it again once, half of %s mm" % (before,), (again and again.group(0), rereads, after))

    def keys(self):
        """A key press or a mouse click during a coast stops it; with [stop] key = false a key
        does not. Key codes never appear in flickd's output, even with --verbose."""
        s = "keys"
        c = self.checks
        # udev calls a device a keyboard (ID_INPUT_KEYBOARD) only when it has the usual keys.
        caps = {E.EV_KEY: list(range(E.KEY_ESC, E.KEY_MICMUTE + 1))}
        mouse_caps = {E.EV_KEY: [E.BTN_LEFT, E.BTN_RIGHT], E.EV_REL: [E.REL_X, E.REL_Y]}
        for config, label, stops in [(CONFIG, "default", True), (CONFIG + "[stop]\nkey = false\n", "stop.key = false", False)]:
            daemon, tap, li = self.start("keys-" + ("on" if stops else "off"), config)
            keyboard = evdev.UInput(caps, name="e2e keyboard", bustype=E.BUS_USB, vendor=0x1234, product=0x5678)
            mouse = evdev.UInput(mouse_caps, name="e2e mouse", bustype=E.BUS_USB, vendor=0x1234, product=0x5679)
            try:
                if stops:
                    c.check(s, label + ": flickd watches the keyboard", daemon.wait_log(r"\(e2e keyboard\): keyboard", 10) is not None,
                            "an 'e2e keyboard: keyboard' line", daemon.text()[-400:])
                else:
                    time.sleep(1)
                with open_pad(MANY_SLOTS, daemon) as pad:
                    self.flick(daemon, pad, "down", speed=250, duration=0.12)
                    mark = daemon.mark()   # after the plan: the next "coast ended" is this coast's
                    time.sleep(0.3)
                    t_key = mono()
                    for key in (E.KEY_LEFTCTRL, E.KEY_Q, E.KEY_A):   # Ctrl held during a coast: the case that matters
                        keyboard.write(E.EV_KEY, key, 1)
                        keyboard.syn()
                        keyboard.write(E.EV_KEY, key, 0)
                        keyboard.syn()
                    end = coast_end(daemon, mark, 1.5 if stops else 0.6)
                    if stops:
                        # The log can say so before the tap's reader thread has read the last
                        # wheel events: let it catch up before looking for one after the key.
                        tap.settle()
                        late = tap.between(t_key + self.period + 0.005)
                        c.check(s, label + ": a key press stops the coast", end is not None and end[0] == "key", "key", end)
                        c.check(s, label + ": no wheel event a tick after the key", not late, [], late[:3])
                        # And a mouse click stops the next one.
                        self.flick(daemon, pad, "down", speed=250, duration=0.12)
                        mark = daemon.mark()
                        time.sleep(0.3)
                        mouse.write(E.EV_KEY, E.BTN_LEFT, 1)
                        mouse.syn()
                        mouse.write(E.EV_KEY, E.BTN_LEFT, 0)
                        mouse.syn()
                        end = coast_end(daemon, mark, 1.5)
                        c.check(s, label + ": a button press stops the coast", end is not None and end[0] == "button", "button", end)
                        # Ctrl held since before the flick (pressed while no coast ran, so
                        # unread): the release does not coast, and no wheel event is written.
                        time.sleep(0.3)
                        keyboard.write(E.EV_KEY, E.KEY_LEFTCTRL, 1)
                        keyboard.syn()
                        time.sleep(0.1)
                        t_flick = mono()
                        mark = daemon.mark()
                        self.flick(daemon, pad, "down", speed=250, duration=0.12)
                        end = coast_end(daemon, mark, 1.5)
                        keyboard.write(E.EV_KEY, E.KEY_LEFTCTRL, 0)
                        keyboard.syn()
                        tap.settle()
                        written = tap.between(t_flick)
                        c.check(s, label + ": Ctrl held at the release: the coast is stopped at once", end is not None and end[0] == "key",
                                "key", end)
                        c.check(s, label + ": Ctrl held at the release: no wheel event", not written, [], written[:3])
                    else:
                        # The coast goes on well past the key: wheel events more than 200 ms
                        # after it (a stop lets at most the tick under way through).
                        going = tap.between(t_key + 0.2)
                        wait_until = mono() + 3
                        while not going and mono() < wait_until:
                            time.sleep(0.05)
                            going = tap.between(t_key + 0.2)
                        c.check(s, label + ": a key press does not stop the coast (wheel events > 200 ms after it)",
                                end is None and len(going) > 0, "no 'coast ended', events > 200 ms after the key",
                                "%s, %d events > 200 ms after the key" % (end, len(going)))
                    pad.tap(hold=0.03)
                    time.sleep(0.3)
            finally:
                keyboard.close()
                mouse.close()
                li.close(); tap.close(); daemon.stop()
            log = daemon.text()
            leaked = [w for w in ("KEY_", "LEFTCTRL", "code 29", "code 16", "code 30", "key 29", "key 16", "key 30") if w in log]
            c.check(s, label + ": no key code or name in flickd's --verbose output", not leaked, [], leaked)

    def sizes(self):
        """Every touch device of the repository's descriptions (Tests/Fixtures/devices) is
        measured as libinput measures it: the size flickd logs for a touchpad whose flicks coast
        equals the one `libinput list-devices` prints (both in whole mm), also for the pads that
        report no resolution and get one from libinput's quirks (an Elantech PS/2 pad: 41 x 23
        mm, not 69 x 50), and for one that no quirk matches (libinput's guess).
        flickd moves its virtual fingers at the real pad's speed in millimetres; a size that
        differs from libinput's makes the glide faster or slower than the finger."""
        s = "sizes"
        daemon, tap, li = self.start("sizes")
        c = self.checks
        try:
            names = sorted(n[:-len(".device")] + ".json" for n in os.listdir(vdev.FIXTURES) if n.endswith(".device"))
            pads = [(name, load(name)) for name in names]
            # The Elantech pad's axes under a name and ids no libinput quirk matches: the guess
            # for a pad without resolution or quirk (the range over 69 x 50 mm, in whole units
            # per mm), which no fixture has.
            unquirked = copy.deepcopy(load("elantech-touchpad"))
            unquirked["name"] = "flickd e2e touchpad without resolution or quirk"
            unquirked["id"] = {"bustype": 0x03, "vendor": 0xf1cd, "product": 0x0e2e, "version": 1}
            pads.append(("elantech-touchpad axes, no quirk", unquirked))
            # Every touchpad coasts here (touchpad.enabled and no X synaptics driver): each must
            # be compared, so a log line the pattern below misses fails rather than skips.
            expected = [name for name, desc in pads if desc["kind"] == "touchpad"]
            compared = []
            for name, desc in pads:
                mark = daemon.mark()
                pad = vdev.TouchDevice(desc)
                try:
                    opened = daemon.wait_log(re.escape(pad.devnode) + r" \([^)]*\): (touchpad|touchscreen)[^\n]*", 20, mark)
                    c.check(s, "%s: flickd opens it" % name, opened is not None, "a line for %s" % pad.devnode,
                            daemon.text()[mark:][-300:])
                    # A touchscreen's size does not scale its glide (the content follows the
                    # finger on the screen), and only a device whose flicks coast is measured.
                    m = opened and re.search(r"(touchpad), (\d+) × (\d+) mm(.*); flicks coast$", opened.group(0))
                    if not m:
                        continue
                    listed = subprocess.run(["libinput", "list-devices"], capture_output=True, text=True, timeout=60).stdout
                    block = next((b for b in listed.split("\n\n") if re.search(r"^Kernel:\s+%s$" % re.escape(pad.devnode), b, re.M)), "")
                    size = re.search(r"^Size:\s+([\d.]+)x([\d.]+)mm", block, re.M)
                    ours = (int(m.group(2)), int(m.group(3)))
                    theirs = (float(size.group(1)), float(size.group(2))) if size else None
                    # Both print whole millimetres, rounded from the same quotient (flickd
                    # truncates the guessed units per millimetre as libinput does): equal.
                    c.check(s, "%s: flickd's size is libinput's, in whole mm" % name,
                            theirs is not None and all(abs(a - b) < 0.5 for a, b in zip(ours, theirs)),
                            "libinput: %s mm" % (theirs,), "flickd: %d x %d mm%s" % (ours + (m.group(4),)))
                    compared.append(name)
                finally:
                    pad.close()
            c.check(s, "every touchpad description's size was compared (%d)" % len(expected),
                    bool(expected) and compared == expected, expected,
                    "%d compared; not: %s" % (len(compared), [n for n in expected if n not in compared]))
        finally:
            li.close(); tap.close()
            c.check(s, "flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)

    def sigterm(self):
        s = "sigterm"
        daemon, tap, li = self.start("sigterm")
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                _, plan, mark, _ = self.flick(daemon, pad, "down", speed=250, duration=0.12)
                time.sleep(0.3)
                self.checks.check(s, "a coast is running", plan is not None and tap.between(0), "events", len(tap.between(0)))
                li.close()
                tap.close()
                status = daemon.stop(signal.SIGTERM)
                self.checks.check(s, "exit status 0", status == 0, 0, status)
                gone = False
                for _ in range(50):
                    if not os.path.exists(daemon.wheel) or not self._is_flickd_wheel(daemon.wheel):
                        gone = True
                        break
                    time.sleep(0.1)
                self.checks.check(s, "the virtual wheel is gone", gone, "no %s" % daemon.wheel, "still there")
        finally:
            if daemon.alive():
                daemon.stop(signal.SIGKILL)

    @staticmethod
    def _is_flickd_wheel(devnode):
        name = "/sys/class/input/%s/device/name" % os.path.basename(devnode)
        try:
            with open(name) as f:
                return f.read().strip() == "flickd virtual wheel"
        except OSError:
            return False

    def measure(self):
        """Figures, not assertions: latency, tick intervals, idle wake-ups, memory."""
        daemon, tap, li = self.start("figures")
        try:
            rss_start = daemon.rss_kib()
            latencies = []
            intervals = []
            with open_pad(MANY_SLOTS, daemon) as pad:
                for i in range(self.args.flicks):
                    mark = daemon.mark()
                    r = pad.flick("down" if i % 2 == 0 else "up", speed=200, duration=0.15)
                    k_release = r.get("k_release") or r["t_release"]
                    coast_plan(daemon, mark, 3)
                    time.sleep(0.6)
                    events = [e for e in tap.between(k_release - 0.001) if e[1] == E.REL_WHEEL_HI_RES]
                    if events:
                        latencies.append(events[0][0] - k_release)
                        # Ticks in the first 300 ms, where every tick has output to write.
                        early = [e[0] for e in events if e[0] - events[0][0] < 0.3]
                        intervals += [b - a for a, b in zip(early, early[1:])]
                    pad.tap(hold=0.03)   # stop the coast before the next flick
                    time.sleep(0.2)
                time.sleep(1.0)
                before = daemon.context_switches()
                time.sleep(10)
                after = daemon.context_switches()
            rss_end = daemon.rss_kib()
            ms = lambda v: round(v * 1000, 3)
            jitter = [abs(x - self.period) for x in intervals]
            # update: tp-flick has put its own figures here already (timer_opening_delay_ms, ...).
            self.figures.update({
                "flicks": self.args.flicks,
                "release_to_first_wheel_ms": {"p50": ms(percentile(latencies, 50)), "p99": ms(percentile(latencies, 99)),
                                              "max": ms(max(latencies)) if latencies else None, "n": len(latencies)},
                "tick_interval_ms": {"nominal": ms(self.period), "p50": ms(percentile(intervals, 50)),
                                     "p99": ms(percentile(intervals, 99)), "n": len(intervals)},
                "tick_jitter_ms": {"p50": ms(percentile(jitter, 50)), "p99": ms(percentile(jitter, 99))},
                "idle_wakeups_10s": after - before,
                "rss_kib": {"start": rss_start, "after_flicks": rss_end},
            })
            print("figures: " + json.dumps(self.figures), flush=True)
            with open(os.path.join(self.out, "e2e-figures.json"), "w") as f:
                json.dump(self.figures, f, indent=2)
        finally:
            li.close(); tap.close(); daemon.stop()


def only_names(parser, text, names):
    """The names of `--only` (`text`, comma-separated; none: run everything). A name not in
    `names` is an error (`parser` exits with status 2): it would run nothing and pass."""
    only = {n.strip() for n in text.split(",") if n.strip()}
    unknown = sorted(only - set(names))
    if unknown:
        parser.error("--only: unknown name%s %s (the names: %s)"
                     % ("s" if len(unknown) > 1 else "", ", ".join(unknown), ", ".join(names)))
    return only


# The scenarios in the order they run, each the Scenarios method of its name with "-" as "_"
# but "figures" (`measure`, left out by --no-figures).
SCENARIOS = ("flick-down", "no-coast", "touch-stops", "horizontal", "hotplug", "keys", "sigterm", "tp-flick",
             "tp-stops", "tp-typing", "tp-tablet-mode", "tp-turn", "tp-kde", "tp-gnome", "sizes", "figures")


def scenario_method(runner, name):
    return runner.measure if name == "figures" else getattr(runner, name.replace("-", "_"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--flickd", required=True, help="the flickd binary")
    p.add_argument("--out", default=os.environ.get("E2E_RESULTS") or os.environ.get("E2E_TMP", "/tmp"))
    p.add_argument("--only", default="", help="comma-separated scenario names: " + ", ".join(SCENARIOS))
    p.add_argument("--flicks", type=int, default=20)
    p.add_argument("--no-figures", action="store_true")
    args = p.parse_args()
    only = only_names(p, args.only, SCENARIOS)
    if args.no_figures and "figures" in only:
        p.error("--only figures with --no-figures runs nothing")
    args.flickd = os.path.abspath(args.flickd)
    os.makedirs(args.out, exist_ok=True)
    runner = Scenarios(args)
    scenarios = [(name, scenario_method(runner, name)) for name in SCENARIOS
                 if not (name == "figures" and args.no_figures)]
    runner.checks.run_each(scenarios, only, "scenario")
    runner.checks.exit("e2e")


if __name__ == "__main__":
    main()
