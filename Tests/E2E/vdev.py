#!/usr/bin/python3
"""vdev.py: virtual touch devices (uinput) that behave like real ones, for flickd's e2e tests.

Run with Debian's /usr/bin/python3 (python3-evdev), as root, where /dev/uinput exists (in the
e2e guest: Tests/E2E/guest run -- ...).

DEVICES
  A device is described by a fixture of the repository, Tests/Fixtures/devices/NAME.device
  (the format is in that folder's README.md: name, kind, id, properties, keys, axis lines),
  or by a JSON sample of the shared folder ($FLICKD_SHARED/devices/*.json, default
  <repo>/../shared/devices: name, id {bustype, vendor, product}, codes [[EV_TYPE, CODE]...],
  props [INPUT_PROP_*], absinfo [{code, min, max, fuzz, flat, resolution}], kind). A bare
  name (synaptics-t440, synaptics-t440.json or .device) is looked up in the repository's
  fixtures first, then in the shared samples. The virtual device gets the same
  name, ids, codes, props and absinfo (with resolution), so udev and libinput treat it like
  the real device (quirks that match on name/ids apply too). Where an axis has resolution 0,
  millimetres are mapped as libinput and flickd map them: by the AttrResolutionHint or
  AttrSizeHint libinput's quirks give the device (`libinput quirks list`, once it exists),
  else a touchpad's range divided by 69 x 50 mm in whole units per mm (libinput's guess), a
  touchscreen as a 294 x 165 mm panel.

  The events follow the device's protocol the way its kernel driver would send them:
  multitouch protocol B (ABS_MT_SLOT + ABS_MT_TRACKING_ID, only changed values are written),
  more fingers than slots (the extra fingers only show in BTN_TOOL_DOUBLETAP..QUINTTAP),
  semi-MT (INPUT_PROP_SEMI_MT: the two slots carry the bounding box), protocol A
  (SYN_MT_REPORT) and single-touch (ABS_X/ABS_Y only). BTN_TOUCH, BTN_TOOL_FINGER..QUINTTAP,
  the ABS_X/ABS_Y pointer emulation (oldest contact), ABS_PRESSURE / ABS_MT_PRESSURE, touch
  size, ABS_MT_TOOL_TYPE and ABS_MT_DISTANCE are written when the device has them.

GESTURES (a "step")
  Coordinates are millimetres from the surface's top-left corner; the default position is
  the centre. Directions are the direction the FINGERS move: down = towards the user (+y),
  right = +x. Times in the CLI need a unit (20ms, 0.25s); in the Python API they are seconds.
  Frames are written in real time (an absolute schedule, so sleeps do not drift).

    flick:DIR     fingers=2 speed=150 (mm/s) duration=0.2s interval=10ms spacing=18 (mm,
                  between fingers) x= y= (centre of the motion) hold=0s (still contact before
                  moving) ramp=0s (speed-up time) stagger=0s (one finger lifts this long before
                  the last) lift_frames=0 (frames before the lift where the fingers stay put and
                  pressure falls: a lift in progress)
    drag:DIR      flick with fingers=1 (one-finger drag, e.g. on a touchscreen)
    scroll:DIR    flick with speed=40 duration=0.5s (a calm two-finger scroll)
    slow_release:DIR  flick, then the speed falls linearly to 0 over decel=0.2s before lift
    move_pause_lift:DIR  flick motion, then the fingers rest pause=0.3s (pressure jitter
                  frames every interval when the device has pressure, jitter=1; 0 = silence)
                  and lift
    tap           fingers=1 x= y= hold=40ms: touch and lift (stops a coast)
    touch         like tap with hold=0.5s
    wait:DURATION sleep, e.g. wait:1.5s
    settle        udevadm settle

  Each gesture returns/prints a JSON object: step, device, frames, timing (CLOCK_MONOTONIC
  seconds): t_touch (first contact frame), t_last_motion (last frame that moved), t_first_lift
  (first frame in which a finger lifted), t_release (frame in which the last finger lifted):
  t_* is our clock after the frame's write, t0_* before it; k_* is the kernel's own timestamp
  of the same frame (t0_* <= k_* <= t_*), read back from the device's event node with
  EVIOCSCLOCKID(CLOCK_MONOTONIC): what flickd sees through libevdev. Use k_release for
  release-to-first-wheel-event latency. Also travel_mm, speed_mm_s, direction, max_late_ms
  (how late the worst frame reached the kernel against its schedule, a sleep that overshot
  included), syn_dropped.

CLI
  DEVICE is a path or a bare fixture name (see DEVICES).
  vdev.py create DEVICE.json [--hold S]
      create, wait for udev, print {"event":"ready","devnode":...,"udev":{...}} and keep the
      device for S seconds (default: until SIGTERM or SIGINT).
  vdev.py play DEVICE.json [--settle S] [--linger S] STEP...
      create, wait for udev and S more seconds (default 0.5; lets readers open the device),
      play the steps, print one JSON line per step, keep the device --linger S, destroy it.
  vdev.py serve DEVICE.json
      create, print the ready line, then read steps from stdin (one or more per line, blank
      line = nothing, "quit" or EOF = destroy and exit); one JSON line per step on stdout.
      For shell scenarios: coproc VDEV { /usr/bin/python3 vdev.py serve dev.json; }
  vdev.py wheel [--caps full|wheel+buttons|wheel] [--no-legacy] [--settle S] [--linger S]
                [--name N] [--serve] STEP...
      a wheel device (REL_WHEEL, REL_HWHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES; with
      --caps full also REL_X, REL_Y, BTN_LEFT/RIGHT/MIDDLE) and steps v:N / h:N (hi-res units,
      120 = one detent; the legacy REL_WHEEL/REL_HWHEEL is added for each whole 120 unless
      --no-legacy), lv:N / lh:N (legacy only), wait:DURATION. Prints JSON lines. --serve: then
      read more steps from stdin, like serve.
  vdev.py info DEVICE.json
      print the device's geometry (size in mm, units/mm, slots, protocol) without creating it.
  Common options: --name NAME (override the device name), --no-check (do not require udev's
  ID_INPUT_TOUCHPAD/ID_INPUT_TOUCHSCREEN), --no-kernel-times.

PYTHON API
  import sys; sys.path.insert(0, "Tests/E2E"); import vdev
  with vdev.TouchDevice(vdev.load("synaptics-t440.json")) as pad:   # creates, checks udev
      print(pad.devnode, pad.udev["ID_INPUT_TOUCHPAD"])
      r = pad.flick("down", speed=200, duration=0.25, stagger=0.02)
      print(r["k_release"])                      # kernel time of the release frame
      pad.tap()
  Lower level: pad.frame({0: (x_mm, y_mm), 1: (x_mm, y_mm, pressure_fraction)}) writes one
  frame holding exactly those fingers (ids are yours; absent ids lift) and returns its times.
  vdev.WheelDevice(caps="full").scroll(v120=30) writes hi-res wheel events.
"""

import argparse
import fcntl
import json
import math
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time

# python-evdev imports asyncio only for its optional async API and falls back to its plain
# EventIO when that import fails; blocking it saves ~0.5 s per start in the TCG guest.
if "asyncio" not in sys.modules:
    sys.modules["asyncio"] = None
try:
    import evdev
    from evdev import AbsInfo, UInput
    from evdev import ecodes as E
except ImportError:  # pragma: no cover
    sys.exit("vdev.py: python3-evdev is missing (apt-get install python3-evdev; run with /usr/bin/python3)")

DEFAULT_SIZE_MM = {"touchpad": (69.0, 50.0), "touchscreen": (294.0, 165.0)}


def parse_quirk_hint(text):
    """The resolution hint in `libinput quirks list DEVNODE` output (one KEY=VALUE a line):
    ("AttrResolutionHint", (x, y)) in units per mm, else ("AttrSizeHint", (w, h)) in mm, as
    libinput prefers them; None without either."""
    found = {}
    for line in text.splitlines():
        key, _, value = line.strip().partition("=")
        parts = value.split("x")
        if key in ("AttrResolutionHint", "AttrSizeHint") and len(parts) == 2 and all(p.isdigit() and int(p) > 0 for p in parts):
            found[key] = (int(parts[0]), int(parts[1]))
    for key in ("AttrResolutionHint", "AttrSizeHint"):
        if key in found:
            return key, found[key]
    return None


def hinted_resolution(span_x, span_y, hint):
    """Units per mm on x and y that libinput gives an axis pair without resolution from `hint`
    (parse_quirk_hint's): a resolution as it is, a size divided into the ranges in whole units."""
    key, (a, b) = hint
    if key == "AttrResolutionHint":
        return a, b
    return max(1, span_x // a), max(1, span_y // b)


def libinput_quirk_hint(devnode, timeout=10):
    """The hint libinput's quirks give the device at `devnode` (`libinput quirks list`, from
    libinput-tools); None when there is none or the tool is missing or fails."""
    try:
        r = subprocess.run(["libinput", "quirks", "list", devnode], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_quirk_hint(r.stdout) if r.returncode == 0 else None


def assumed_resolution(span, kind, axis):
    """Units per mm of an axis reporting resolution 0, as flickd assumes them: a touchpad gets
    libinput's whole units for a 69 x 50 mm surface (the range divided and truncated, at least
    1), a touchscreen the 294 x 165 mm panel's exact scale. axis: 0 for x, 1 for y."""
    length = DEFAULT_SIZE_MM.get(kind, DEFAULT_SIZE_MM["touchpad"])[axis]
    if kind == "touchscreen":
        return span / length
    return max(1, int(span / length))
TOOL_KEYS = ["BTN_TOOL_FINGER", "BTN_TOOL_DOUBLETAP", "BTN_TOOL_TRIPLETAP",
             "BTN_TOOL_QUADTAP", "BTN_TOOL_QUINTTAP"]
DIRECTIONS = {"down": (0.0, 1.0), "up": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}


def now():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def _ioc(direction, typ, nr, size):
    return (direction << 30) | (size << 16) | (ord(typ) << 8) | nr


EVIOCSCLOCKID = _ioc(1, "E", 0xA0, 4)          # _IOW('E', 0xa0, int)


def UI_GET_SYSNAME(length):                      # _IOC(_IOC_READ, 'U', 44, len)
    return _ioc(2, "U", 44, length)


INPUT_EVENT = struct.Struct("llHHi")             # struct input_event on 64-bit Linux


class VdevError(Exception):
    pass


def code(name):
    value = getattr(E, name, None)
    if not isinstance(value, int):
        raise VdevError("unknown event code name %r" % name)
    return value


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "Tests", "Fixtures", "devices")


def shared_dir():
    """The shared samples folder: $FLICKD_SHARED if set, else the folder `shared` beside the
    repository. It may not exist (a fresh clone): callers report what needs it as skipped."""
    return os.environ.get("FLICKD_SHARED") or os.path.join(os.path.dirname(REPO), "shared")


def fixture_names():
    """Names of the repository's device fixtures (synaptics-t440, ...), sorted."""
    return sorted(f[:-len(".device")] for f in os.listdir(FIXTURES) if f.endswith(".device"))


def parse_fixture(text, path="<fixture>"):
    """A Tests/Fixtures/devices/*.device text as the dict load() returns."""
    desc = {"id": {}, "codes": [], "props": [], "absinfo": []}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        field, _, rest = line.partition(" ")
        rest = rest.strip()
        words = rest.split()
        where = "%s:%d" % (path, number)
        if field == "name":
            desc["name"] = rest
        elif field == "kind":
            desc["kind"] = rest
        elif field == "id":
            for word in words:
                key, _, value = word.partition("=")
                desc["id"][{"bus": "bustype"}.get(key, key)] = int(value, 0)
        elif field == "properties":
            desc["props"] += words
        elif field == "keys":
            desc["codes"] += [["EV_KEY", w] for w in words]
        elif field == "axis":
            if len(words) < 3:
                raise VdevError("%s: axis needs CODE MIN MAX" % where)
            axis = {"code": words[0], "min": int(words[1]), "max": int(words[2]),
                    "fuzz": 0, "flat": 0, "resolution": 0}
            for word in words[3:]:
                key, _, value = word.partition("=")
                if key not in ("fuzz", "flat", "resolution"):
                    raise VdevError("%s: unknown axis field %r" % (where, key))
                axis[key] = int(value, 0)
            desc["absinfo"].append(axis)
        else:
            raise VdevError("%s: unknown field %r" % (where, field))
    return desc


def resolve(path):
    """The file a device argument names: an existing path as it is; else a bare name (with or
    without .json/.device, and whatever folder it was joined to) found in the repository's
    fixtures, then in the shared samples."""
    if os.path.exists(path):
        return path
    stem = os.path.basename(path)
    for ext in (".json", ".device"):
        if stem.endswith(ext):
            stem = stem[:-len(ext)]
    for candidate in (os.path.join(FIXTURES, stem + ".device"),
                      os.path.join(shared_dir(), "devices", stem + ".json")):
        if os.path.exists(candidate):
            return candidate
    raise VdevError("no device %r: not a file, not in %s, not in %s"
                    % (path, FIXTURES, os.path.join(shared_dir(), "devices")))


def load(path):
    """Loads a device description (a .device fixture or a shared .json sample) into a dict;
    `path` may be a bare name (see resolve())."""
    path = resolve(path)
    with open(path) as f:
        desc = parse_fixture(f.read(), path) if path.endswith(".device") else json.load(f)
    for key in ("name", "id", "codes", "absinfo"):
        if key not in desc:
            raise VdevError("%s: no %r in the device description" % (path, key))
    desc.setdefault("props", [])
    desc.setdefault("kind", "touchscreen" if "INPUT_PROP_DIRECT" in desc["props"] else "touchpad")
    desc["_path"] = path
    return desc


# ------------------------------------------------------------------------------ helpers ----

def _sysfs_for(ui):
    """Sysfs input dir and /dev/input/eventN of a just-created uinput device (exact, by
    UI_GET_SYSNAME; python-evdev's own lookup goes by name, which real-named devices share)."""
    buf = bytearray(64)
    fcntl.ioctl(ui.fd, UI_GET_SYSNAME(len(buf)), buf, True)
    sysname = bytes(buf).split(b"\0", 1)[0].decode()
    sysdir = "/sys/devices/virtual/input/" + sysname
    deadline = now() + 5
    while now() < deadline:
        try:
            events = [n for n in os.listdir(sysdir) if n.startswith("event")]
        except FileNotFoundError:
            events = []
        if events and os.path.exists("/dev/input/" + events[0]):
            return sysname, "/dev/input/" + events[0]
        time.sleep(0.01)
    raise VdevError("no event node for %s (is the evdev module loaded?)" % sysdir)


def udev_properties(devnode, want=(), timeout=10.0):
    """udev's properties of devnode, after `udevadm settle`; waits (up to timeout) until the
    device is initialised and, if given, one of the properties in `want` is "1"."""
    deadline = now() + timeout
    props = {}
    while True:
        subprocess.run(["udevadm", "settle", "--timeout=%d" % max(1, int(timeout))],
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = subprocess.run(["udevadm", "info", "--query=property", "--name=" + devnode],
                             check=False, capture_output=True, text=True).stdout
        props = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
        ready = "ID_INPUT" in props and (not want or any(props.get(w) == "1" for w in want))
        if ready or now() >= deadline:
            return props
        time.sleep(0.05)


class EventTap:
    """Reads an event node through python3-evdev (never grabbed) in a thread, with
    CLOCK_MONOTONIC timestamps: the clock of the kernel's stamps that flickd and libinput see.
    A subclass sets up what it keeps, then calls this __init__, and handles each event in
    `handle(ev)` (under no lock: take `self.lock` for what other threads read); a read error
    (the device went away) calls `gone()` and ends the thread."""

    def __init__(self, devnode):
        import evdev  # python3-evdev: only the guest's readers need it
        self.dev = evdev.InputDevice(devnode)
        fcntl.ioctl(self.dev.fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            r, _, _ = select.select([self.dev.fd], [], [], 0.1)
            if not r:
                continue
            try:
                for ev in self.dev.read():
                    self.handle(ev)
            except OSError:
                self.gone()
                return

    def handle(self, ev):
        raise NotImplementedError

    def gone(self):
        """The device went away (a read failed)."""

    def close(self):
        self.running = False
        self.thread.join(1)
        try:
            self.dev.close()
        except OSError:
            pass


class LibinputReader:
    """`libinput debug-events --device NODE` (line-buffered through stdbuf) read in a thread:
    each line goes to `log_path` and to `line(text)`, which a subclass overrides (under no lock:
    take `self.lock` for what other threads read); `self.added` is set at libinput's
    DEVICE_ADDED. A subclass sets up what it keeps, then calls this __init__. `tapping`: read
    with tapping on (`--enable-tap`), which libinput turns off by default on a pad with physical
    buttons, so that a two-finger tap (BTN_RIGHT, as a desktop with tapping on gets it) shows.
    `also`: more nodes read in the same libinput context, which pairs them with `devnode` as a
    desktop does (a keyboard's disable-while-typing, a tablet-mode switch)."""

    def __init__(self, devnode, log_path, tapping=False, also=()):
        self.lock = threading.Lock()
        self.added = threading.Event()
        self.log_path = log_path
        self.proc = subprocess.Popen(["stdbuf", "-oL", "libinput", "debug-events"] + (["--enable-tap"] if tapping else [])
                                     + [a for node in [devnode, *also] for a in ("--device", node)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        with open(self.log_path, "w") as log:
            for text in self.proc.stdout:
                log.write(text)
                log.flush()
                if "DEVICE_ADDED" in text:
                    self.added.set()
                self.line(text)

    def line(self, text):
        raise NotImplementedError

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class KernelClock:
    """Reads the device's event node (never grabbed) in a thread, with CLOCK_MONOTONIC
    timestamps, and keeps the time of every SYN_REPORT: the times readers like flickd see."""

    def __init__(self, devnode):
        self.fd = os.open(devnode, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        fcntl.ioctl(self.fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.times = []
        self.dropped = 0
        self.cond = threading.Condition()
        self.rpipe, self.wpipe = os.pipe()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        size = INPUT_EVENT.size
        while True:
            r, _, _ = select.select([self.fd, self.rpipe], [], [])
            if self.rpipe in r:
                return
            try:
                data = os.read(self.fd, size * 256)
            except BlockingIOError:
                continue
            except OSError:
                return
            with self.cond:
                for i in range(0, len(data) - size + 1, size):
                    sec, usec, typ, cod, _ = INPUT_EVENT.unpack_from(data, i)
                    if typ == E.EV_SYN and cod == E.SYN_REPORT:
                        self.times.append(sec + usec / 1e6)
                    elif typ == E.EV_SYN and cod == E.SYN_DROPPED:
                        self.dropped += 1
                self.cond.notify_all()

    def time_between(self, t0, t1, timeout=1.0):
        """The kernel timestamp of the frame written between t0 and t1 (our clock), or None."""
        deadline = now() + timeout
        slack = 0.0005  # evdev stamps with microsecond precision
        with self.cond:
            while True:
                for t in reversed(self.times):
                    if t0 - slack <= t <= t1 + slack:
                        return t
                    if t < t0 - slack:
                        break
                if now() >= deadline:
                    return None
                self.cond.wait(max(0.0, deadline - now()))

    def close(self):
        os.write(self.wpipe, b"x")
        self.thread.join(1)
        for fd in (self.fd, self.rpipe, self.wpipe):
            os.close(fd)


# ------------------------------------------------------------------------ touch device ----

class TouchDevice:
    """A uinput touchpad/touchscreen made from a description (see load())."""
    # At most how long a frame written after a motion's end carries it on (flick(at_write_time)):
    # longer than the guest's usual lateness (20-40 ms), short of a visible overshoot.
    LATE_CARRY_S = 0.05

    def __init__(self, desc, name=None, check=True, kernel_times=True, udev_timeout=30.0):
        self.desc = desc
        self.kind = desc["kind"]
        self.name = name or desc["name"]
        self.abs = {}
        for a in desc["absinfo"]:
            self.abs[code(a["code"])] = AbsInfo(0, a["min"], a["max"], a.get("fuzz", 0),
                                                a.get("flat", 0), a.get("resolution", 0))
        caps = {}
        for typ, name_ in desc["codes"]:
            if typ == "EV_SYN":
                continue
            caps.setdefault(code(typ), set()).add(code(name_))
        caps.pop(E.EV_ABS, None)
        events = {t: sorted(c) for t, c in caps.items()}
        if self.abs:
            events[E.EV_ABS] = [(c, info) for c, info in sorted(self.abs.items())]
        self.keys = caps.get(E.EV_KEY, set())
        props = [code(p) for p in desc.get("props", [])]
        self.semi_mt = E.INPUT_PROP_SEMI_MT in props
        self.has_slots = E.ABS_MT_SLOT in self.abs
        self.protocol_a = not self.has_slots and E.ABS_MT_POSITION_X in self.abs
        self.nslots = (self.abs[E.ABS_MT_SLOT].max + 1) if self.has_slots else 0
        if E.ABS_X not in self.abs and E.ABS_MT_POSITION_X not in self.abs:
            raise VdevError("%s has neither ABS_X nor ABS_MT_POSITION_X" % self.name)
        self._geometry()

        ident = desc["id"]
        self.ui = UInput(events=events, name=self.name, vendor=ident.get("vendor", 0),
                         product=ident.get("product", 0), version=ident.get("version", 1),
                         bustype=ident.get("bustype", E.BUS_VIRTUAL), input_props=props,
                         phys="vdev/" + os.path.basename(desc.get("_path", "device")))
        self.closed = False
        try:
            self.sysname, self.devnode = _sysfs_for(self.ui)
            want = ("ID_INPUT_TOUCHSCREEN",) if self.kind == "touchscreen" else ("ID_INPUT_TOUCHPAD",)
            self.udev = udev_properties(self.devnode, want, udev_timeout)
            if check and not any(self.udev.get(w) == "1" for w in want):
                raise VdevError("udev did not tag %s (%s) %s=1; properties: %s"
                                % (self.devnode, self.name, want[0], self.udev))
            self.kclock = KernelClock(self.devnode) if kernel_times else None
            # A device without a resolution is measured as libinput measures it: by its
            # quirk, where one matches (flickd reads the same files).
            self.quirk_hint = None
            if not (self.xinfo().resolution and self.yinfo().resolution):
                self.quirk_hint = libinput_quirk_hint(self.devnode)
                self._geometry()
        except BaseException:
            self.ui.close()
            raise
        # What the kernel holds (mirrored so that only changes are written, as drivers do).
        self.state = {}                   # (code) -> value, non-MT axes and keys
        self.slot_state = [dict() for _ in range(self.nslots)]
        for s in self.slot_state:
            s[E.ABS_MT_TRACKING_ID] = -1
        self.cur_slot = 0
        self.contacts = {}                # finger id -> {"slot", "tid", "x", "y", "p", "order"}
        self.next_tid = 0
        self.order = 0
        self.frames = 0

    # -- geometry
    def xinfo(self):
        return self.abs.get(E.ABS_MT_POSITION_X) or self.abs[E.ABS_X]

    def yinfo(self):
        return self.abs.get(E.ABS_MT_POSITION_Y) or self.abs[E.ABS_Y]

    def _geometry(self):
        xinfo, yinfo = self.xinfo(), self.yinfo()
        self.res_x, self.res_y = axis_resolutions(xinfo.max - xinfo.min, yinfo.max - yinfo.min,
                                                  xinfo.resolution, yinfo.resolution, self.kind,
                                                  getattr(self, "quirk_hint", None))
        self.width_mm = (xinfo.max - xinfo.min) / self.res_x
        self.height_mm = (yinfo.max - yinfo.min) / self.res_y

    def units(self, x_mm, y_mm, mt=True):
        xi = self.abs.get(E.ABS_MT_POSITION_X if mt else E.ABS_X) or self.abs.get(E.ABS_X) or self.abs[E.ABS_MT_POSITION_X]
        yi = self.abs.get(E.ABS_MT_POSITION_Y if mt else E.ABS_Y) or self.abs.get(E.ABS_Y) or self.abs[E.ABS_MT_POSITION_Y]
        x = xi.min + round(x_mm * self.res_x)
        y = yi.min + round(y_mm * self.res_y)
        return min(max(x, xi.min), xi.max), min(max(y, yi.min), yi.max)

    def geometry(self):
        return geometry_of(self.desc, self.quirk_hint)

    # -- low level
    def _value(self, c, frac, floor=1):
        info = self.abs[c]
        span = info.max - info.min
        return min(info.max, max(info.min + floor, round(info.min + frac * span)))

    def _size_value(self, c):
        info = self.abs[c]
        if info.max > 255:  # in position units (e.g. Wacom): an 8 mm wide contact
            return min(info.max, round(8 * self.res_x))
        return self._value(c, 0.25)

    def _slot_values(self, contact):
        x, y = self.units(contact["x"], contact["y"])
        vals = {E.ABS_MT_POSITION_X: x, E.ABS_MT_POSITION_Y: y}
        if E.ABS_MT_PRESSURE in self.abs:
            vals[E.ABS_MT_PRESSURE] = self._value(E.ABS_MT_PRESSURE, contact["p"])
        for c in (E.ABS_MT_TOUCH_MAJOR, E.ABS_MT_WIDTH_MAJOR):
            if c in self.abs:
                vals[c] = self._size_value(c)
        for c, major in ((E.ABS_MT_TOUCH_MINOR, E.ABS_MT_TOUCH_MAJOR), (E.ABS_MT_WIDTH_MINOR, E.ABS_MT_WIDTH_MAJOR)):
            if c in self.abs:
                vals[c] = min(self.abs[c].max, max(self.abs[c].min, round(0.8 * (vals.get(major) or self._size_value(c)))))
        if E.ABS_MT_TOOL_TYPE in self.abs:
            vals[E.ABS_MT_TOOL_TYPE] = 0  # MT_TOOL_FINGER
        if E.ABS_MT_DISTANCE in self.abs:
            vals[E.ABS_MT_DISTANCE] = self.abs[E.ABS_MT_DISTANCE].min
        return vals

    def _emit(self, typ, c, value, out):
        out.append((typ, c, value))

    def frame(self, points):
        """Writes one frame in which exactly the fingers in `points` touch: {finger_id: (x_mm,
        y_mm[, pressure 0..1])}. Returns {"t0", "t1", "k"} (our clock before the first and
        after the last write; the kernel's timestamp, or None) or None if nothing changed."""
        out = []
        lifted = [self.contacts.pop(f) for f in list(self.contacts) if f not in points]
        used = {c["slot"] for c in self.contacts.values()}
        just_freed = {c["slot"] for c in lifted}
        # Lowest free slot first; a slot freed in this very frame only if nothing else is free.
        free = sorted((s for s in range(self.nslots) if s not in used), key=lambda s: (s in just_freed, s))
        for f, pt in points.items():
            p = pt[2] if len(pt) > 2 else 0.3
            c = self.contacts.get(f)
            if c is None:
                c = {"slot": None, "tid": self.next_tid, "order": self.order}
                self.order += 1
                self.next_tid = (self.next_tid + 1) % 65536
                if self.has_slots and not self.semi_mt and free:
                    c["slot"] = free.pop(0)
                self.contacts[f] = c
            c.update(x=pt[0], y=pt[1], p=p)
        active = sorted(self.contacts.values(), key=lambda c: c["order"])
        if self.has_slots and not self.semi_mt:
            # A pad tracking fewer fingers than touch: when a tracked finger leaves, the oldest
            # untracked one takes the free slot (with a new tracking id), as such pads do.
            for c in active:
                if c["slot"] is None and free:
                    c["slot"] = free.pop(0)
                    c["tid"] = self.next_tid
                    self.next_tid = (self.next_tid + 1) % 65536

        if self.has_slots:
            wanted = [None] * self.nslots
            if self.semi_mt:
                if len(active) == 1:
                    wanted[0] = dict(active[0], tid=None)
                elif len(active) >= 2:
                    xs = [c["x"] for c in active]
                    ys = [c["y"] for c in active]
                    wanted[0] = dict(active[0], x=min(xs), y=min(ys), tid=None)
                    wanted[1] = dict(active[0], x=max(xs), y=max(ys), tid=None)
            else:
                for c in active:
                    if c["slot"] is not None:
                        wanted[c["slot"]] = c
            for s in range(self.nslots):
                cur = self.slot_state[s]
                want = wanted[s]
                changes = []
                if want is None:
                    if cur[E.ABS_MT_TRACKING_ID] != -1:
                        changes.append((E.ABS_MT_TRACKING_ID, -1))
                else:
                    tid = want["tid"]
                    if tid is None:  # semi-MT: a slot keeps its id while it stays in use
                        tid = cur[E.ABS_MT_TRACKING_ID]
                        if tid == -1:
                            tid = self.next_tid
                            self.next_tid = (self.next_tid + 1) % 65536
                    if cur[E.ABS_MT_TRACKING_ID] != tid:
                        changes.append((E.ABS_MT_TRACKING_ID, tid))
                    for c, v in self._slot_values(want).items():
                        if cur.get(c, 0) != v:
                            changes.append((c, v))
                if changes:
                    if self.cur_slot != s:
                        self._emit(E.EV_ABS, E.ABS_MT_SLOT, s, out)
                        self.cur_slot = s
                    for c, v in changes:
                        self._emit(E.EV_ABS, c, v, out)
                        cur[c] = v
        elif self.protocol_a:
            if active or self.state.get("_mt_a", 0):
                for c in active:
                    if E.ABS_MT_TRACKING_ID in self.abs:
                        self._emit(E.EV_ABS, E.ABS_MT_TRACKING_ID, c["tid"], out)
                    for cc, v in self._slot_values(c).items():
                        self._emit(E.EV_ABS, cc, v, out)
                    self._emit(E.EV_SYN, E.SYN_MT_REPORT, 0, out)
                if not active:
                    self._emit(E.EV_SYN, E.SYN_MT_REPORT, 0, out)
                self.state["_mt_a"] = len(active)

        # Keys: BTN_TOUCH and the finger count.
        n = len(active)
        keyvals = []
        if E.BTN_TOUCH in self.keys:
            keyvals.append((E.BTN_TOUCH, int(n > 0)))
        for i, k in enumerate(TOOL_KEYS):
            kc = code(k)
            if kc in self.keys:
                keyvals.append((kc, int(n == i + 1)))
        # Release the old tool key before pressing the new one, as drivers do.
        keyvals.sort(key=lambda kv: kv[1])
        for kc, v in keyvals:
            if self.state.get(("key", kc), 0) != v:
                self._emit(E.EV_KEY, kc, v, out)
                self.state[("key", kc)] = v
        # Single-touch emulation from the oldest contact.
        if E.ABS_X in self.abs and active:
            x, y = self.units(active[0]["x"], active[0]["y"], mt=False)
            for c, v in ((E.ABS_X, x), (E.ABS_Y, y)):
                if c in self.abs and self.state.get(c, 0) != v:
                    self._emit(E.EV_ABS, c, v, out)
                    self.state[c] = v
        if E.ABS_PRESSURE in self.abs:
            v = self._value(E.ABS_PRESSURE, active[0]["p"]) if active else self.abs[E.ABS_PRESSURE].min
            if self.state.get(E.ABS_PRESSURE, 0) != v:
                self._emit(E.EV_ABS, E.ABS_PRESSURE, v, out)
                self.state[E.ABS_PRESSURE] = v
        if E.ABS_TOOL_WIDTH in self.abs:
            v = self._value(E.ABS_TOOL_WIDTH, 0.3) if active else self.abs[E.ABS_TOOL_WIDTH].min
            if self.state.get(E.ABS_TOOL_WIDTH, 0) != v:
                self._emit(E.EV_ABS, E.ABS_TOOL_WIDTH, v, out)
                self.state[E.ABS_TOOL_WIDTH] = v

        if not out:
            return None
        t0 = now()
        for typ, c, v in out:
            self.ui.write(typ, c, v)
        self.ui.syn()
        t1 = now()
        self.frames += 1
        return {"t0": t0, "t1": t1, "n": n}

    def kernel_time(self, fr, timeout=1.0):
        if fr is None or self.kclock is None:
            return None
        return self.kclock.time_between(fr["t0"], fr["t1"], timeout)

    # -- scheduling
    def play(self, schedule, step="frames", extra=None):
        """Plays [(t_offset_s, points, label or None), ...] in real time; returns the result
        dict with t_<label> (our clock) and k_<label> (kernel clock) for every label. `points`
        may be a function of the time since the first frame was written, called at the write
        (a landing written late delays the motion after it, as a finger's would be)."""
        start = now() + 0.002
        first_written = None
        marks = {}
        nframes = 0
        late = 0.0
        for t, points, label in schedule:
            target = start + t
            d = target - now()
            if d > 0:
                time.sleep(d)
            if callable(points):
                points = points(now() - (start if first_written is None else first_written))
            fr = self.frame(points)
            # How late the frame reached the kernel (whose stamp falls before t1): a sleep that
            # overshot counts as well as a wake-up that came late (an emulated guest does both;
            # a lift held back that way reads as fingers that stopped before lifting).
            late = max(late, (fr["t1"] if fr is not None else now()) - target)
            if first_written is None:
                first_written = fr["t0"] if fr is not None else start
            if fr is not None:
                nframes += 1
            if label:
                for lab in label.split("+"):
                    if fr is not None or lab not in marks:
                        marks[lab] = fr
        result = {"step": step, "device": self.name, "devnode": self.devnode, "frames": nframes,
                  "max_late_ms": round(late * 1000, 3)}
        if extra:
            result.update(extra)
        for lab, fr in marks.items():
            result["t_" + lab] = round(fr["t1"], 6) if fr else None
            result["t0_" + lab] = round(fr["t0"], 6) if fr else None
            k = self.kernel_time(fr)
            result["k_" + lab] = round(k, 6) if k is not None else None
        if self.kclock is not None:
            result["syn_dropped"] = self.kclock.dropped
        return result

    def _finger_offsets(self, fingers, spacing, direction):
        ux, uy = DIRECTIONS[direction]
        px, py = -uy, ux          # perpendicular to the motion
        offs = [(i - (fingers - 1) / 2.0) * spacing for i in range(fingers)]
        return [(o * px, o * py) for o in offs]

    def _check_fits(self, cx, cy, offsets, ux, uy, travel, margin=2.0):
        xs, ys = [], []
        for ox, oy in offsets:
            for s in (-travel / 2.0, travel / 2.0):
                xs.append(cx + ox + ux * s)
                ys.append(cy + oy + uy * s)
        if min(xs) < margin or max(xs) > self.width_mm - margin or \
                min(ys) < margin or max(ys) > self.height_mm - margin:
            raise VdevError(
                "gesture does not fit on %s (%.1f x %.1f mm): travel %.1f mm around (%.1f, %.1f) "
                "reaches x %.1f..%.1f, y %.1f..%.1f; lower speed/duration or move x=/y="
                % (self.name, self.width_mm, self.height_mm, travel, cx, cy, min(xs), max(xs), min(ys), max(ys)))

    def _room_ahead(self, cx, cy, offsets, ux, uy, travel, margin=2.0):
        """How far (mm) every finger can go on past the end of a motion of `travel` mm
        centred on (cx, cy) in direction (ux, uy) before reaching the pad's margin."""
        room = float("inf")
        for ox, oy in offsets:
            ex, ey = cx + ox + ux * travel / 2.0, cy + oy + uy * travel / 2.0
            for pos, u, size in ((ex, ux, self.width_mm), (ey, uy, self.height_mm)):
                if u > 0:
                    room = min(room, (size - margin - pos) / u)
                elif u < 0:
                    room = min(room, (pos - margin) / -u)
        return max(0.0, room)

    # -- gestures
    def flick(self, direction="down", speed=150.0, duration=0.2, interval=0.010, fingers=2,
              spacing=18.0, x=None, y=None, hold=0.0, ramp=0.0, stagger=0.0, lift_frames=0,
              decel=0.0, pause=0.0, jitter=1, step="flick", at_write_time=False):
        """Fingers land, (rest `hold`), move in `direction` at `speed` mm/s for `duration` s
        (reaching the speed over `ramp` s), then optionally slow to 0 over `decel` s, rest
        `pause` s, show a lift in progress over `lift_frames` frames, and lift (one finger
        `stagger` s before the others).

        A motion frame written late (the emulator stalled) holds its scheduled position, so a
        writer that falls a little behind at every frame writes a slower flick than asked for
        (a 60 mm/s flick was read at 43-48 mm/s on the kernel clock in a slow guest). With
        `at_write_time` each motion frame holds where the fingers are at the moment it is
        written, as a real pad's late frame does: the motion keeps its speed on the kernel
        clock, and a late frame is a longer one, not a bunch of short ones. A frame written
        after the motion's scheduled end (the player fell behind) carries the motion on at its
        last speed, up to LATE_CARRY_S and as far as the pad's margin lets it, as a finger
        that lifts while moving does: held at the end, the last frames would show fingers that
        stopped before the lift, and a slow flick would be read under its speed."""
        if direction not in DIRECTIONS:
            raise VdevError("direction must be one of %s" % ", ".join(DIRECTIONS))
        if interval <= 0 or duration < 0 or speed < 0 or fingers < 1:
            raise VdevError("bad flick parameters")
        if at_write_time and (stagger > 0 or pause > 0 or lift_frames > 0):
            # Those frames hold the scheduled end of the motion, which a late landing never reaches.
            raise VdevError("at_write_time does not combine with a staggered lift, a pause or lift frames")
        ux, uy = DIRECTIONS[direction]

        def dist(t):  # distance travelled after t seconds of motion (t in [0, duration+decel])
            r = min(ramp, duration)
            if t <= r:
                return speed * t * t / (2 * r) if r > 0 else speed * t
            d = speed * r / 2 + speed * (min(t, duration) - r)
            if t > duration and decel > 0:
                u = min(t - duration, decel)
                d += speed * u - speed * u * u / (2 * decel)
            return d

        travel = dist(duration + decel)
        cx = self.width_mm / 2 if x is None else x
        cy = self.height_mm / 2 if y is None else y
        offsets = self._finger_offsets(fingers, spacing, direction)
        self._check_fits(cx, cy, offsets, ux, uy, travel)
        sx, sy = cx - ux * travel / 2, cy - uy * travel / 2
        end = duration + decel
        # How far a late frame may carry the motion past its end (at_write_time): the speed
        # the motion ends at (none after a slow-down), for at most LATE_CARRY_S, on the pad.
        end_speed = 0.0 if decel > 0 or duration <= 0 else speed
        carry = min(end_speed * self.LATE_CARRY_S,
                    self._room_ahead(cx, cy, offsets, ux, uy, travel)) if at_write_time else 0.0

        def dist_written(since):  # distance at a motion frame written `since` s after landing
            t = max(0.0, since - hold)
            return dist(t) if t <= end else travel + min(carry, end_speed * (t - end))

        def pts_at(s, p=0.3):
            return {i: (sx + offsets[i][0] + ux * s, sy + offsets[i][1] + uy * s, p)
                    for i in range(fingers)}

        sched = [(0.0, pts_at(0), "touch")]
        t = hold
        n_motion = int(round((duration + decel) / interval))
        for k in range(1, n_motion + 1):
            t += interval
            if at_write_time:  # play() passes the time since the landing was written
                sched.append((t, lambda since: pts_at(dist_written(since)), None))
            else:
                sched.append((t, pts_at(dist(k * interval)), None))
        last_motion = len(sched) - 1
        if n_motion:
            sched[last_motion] = sched[last_motion][:2] + ("last_motion",)
        # Resting fingers (move_pause_lift): pressure jitter frames, or silence.
        n_pause = int(round(pause / interval))
        for k in range(1, n_pause + 1):
            t += interval
            if jitter and (E.ABS_MT_PRESSURE in self.abs or E.ABS_PRESSURE in self.abs):
                sched.append((t, pts_at(travel, 0.3 + (0.02 if k % 2 else 0.0)), None))
        # A lift in progress: the fingers stay put, pressure falls.
        for k in range(1, lift_frames + 1):
            t += interval
            sched.append((t, pts_at(travel, 0.3 * (1 - k / (lift_frames + 1.0))), None))
        t += interval
        t_release = t
        sched.append((t_release, {}, "release"))
        # Staggered lift: the last finger leaves `stagger` before the release frame (on the
        # frame grid), the others go on moving.
        first_lift_done = False
        if stagger > 0 and fingers > 1:
            t_first = t_release - max(interval, round(stagger / interval) * interval)
            t_first = max(t_first, sched[1][0] if len(sched) > 2 else interval)
            if not any(abs(tk - t_first) < 1e-9 for tk, _, _ in sched):
                before = [e for e in sched if e[0] < t_first]
                sched.insert(len(before), (t_first, dict(before[-1][1]), None))
            for idx, (tk, pts, label) in enumerate(sched):
                if tk >= t_first - 1e-9 and pts:
                    pts = dict(pts)
                    pts.pop(fingers - 1, None)
                    if not first_lift_done:
                        label = (label + "+first_lift") if label else "first_lift"
                        first_lift_done = True
                    sched[idx] = (tk, pts, label)
        if not first_lift_done:
            sched[-1] = (t_release, {}, "release+first_lift")
        extra = {"direction": direction, "fingers": fingers, "speed_mm_s": speed,
                 "travel_mm": round(travel, 3), "duration_s": duration, "interval_s": interval,
                 "stagger_s": stagger, "decel_s": decel, "pause_s": pause,
                 "lift_frames": lift_frames}
        return self.play(sched, step, extra)

    def drag(self, direction="down", **kw):
        kw.setdefault("fingers", 1)
        kw.setdefault("step", "drag")
        return self.flick(direction, **kw)

    def scroll(self, direction="down", **kw):
        kw.setdefault("speed", 40.0)
        kw.setdefault("duration", 0.5)
        kw.setdefault("step", "scroll")
        return self.flick(direction, **kw)

    def slow_release(self, direction="down", decel=0.2, **kw):
        kw.setdefault("step", "slow_release")
        return self.flick(direction, decel=decel, **kw)

    def move_pause_lift(self, direction="down", pause=0.3, **kw):
        kw.setdefault("step", "move_pause_lift")
        return self.flick(direction, pause=pause, **kw)

    def tap(self, x=None, y=None, hold=0.04, fingers=1, spacing=18.0, step="tap"):
        cx = self.width_mm / 2 if x is None else x
        cy = self.height_mm / 2 if y is None else y
        offs = self._finger_offsets(fingers, spacing, "down")
        pts = {i: (cx + ox, cy + oy, 0.3) for i, (ox, oy) in enumerate(offs)}
        sched = [(0.0, pts, "touch"), (hold, {}, "release")]
        return self.play(sched, step, {"fingers": fingers, "hold_s": hold})

    def touch(self, hold=0.5, **kw):
        kw.setdefault("step", "touch")
        return self.tap(hold=hold, **kw)

    # -- lifetime
    def close(self):
        if self.closed:
            return
        self.closed = True
        if self.contacts:
            try:
                self.frame({})
            except OSError:
                pass
        if self.kclock:
            self.kclock.close()
        self.ui.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def ready_info(self):
        g = geometry_of(self.desc, self.quirk_hint)
        return {"event": "ready", "device": self.name, "devnode": self.devnode,
                "sysname": self.sysname, "kind": self.kind, "geometry": g,
                "udev": {k: v for k, v in self.udev.items() if k.startswith("ID_INPUT") or k in ("LIBINPUT_DEVICE_GROUP",)}}


def axis_resolutions(span_x, span_y, res_x, res_y, kind, hint=None):
    """Units per mm on x and y: the device's, else a quirk's hint (only when both axes report
    0, as libinput applies it), else flickd's and libinput's guess (assumed_resolution)."""
    if res_x and res_y:
        return res_x, res_y
    if not res_x and not res_y and hint:
        return hinted_resolution(span_x, span_y, hint)
    return (res_x or assumed_resolution(span_x, kind, 0), res_y or assumed_resolution(span_y, kind, 1))


def geometry_of(desc, hint=None):
    """The description's size and scale; `hint`: the libinput quirk's (parse_quirk_hint), known
    once the device exists."""
    absd = {a["code"]: a for a in desc["absinfo"]}
    xa = absd.get("ABS_MT_POSITION_X") or absd.get("ABS_X")
    ya = absd.get("ABS_MT_POSITION_Y") or absd.get("ABS_Y")
    kind = desc.get("kind", "touchpad")
    rx, ry = axis_resolutions(xa["max"] - xa["min"], ya["max"] - ya["min"], xa["resolution"], ya["resolution"], kind, hint)
    props = desc.get("props", [])
    if "ABS_MT_SLOT" in absd:
        proto = "semi-mt" if "INPUT_PROP_SEMI_MT" in props else "mt-b"
    elif "ABS_MT_POSITION_X" in absd:
        proto = "mt-a"
    else:
        proto = "single-touch"
    return {"width_mm": round((xa["max"] - xa["min"]) / rx, 2),
            "height_mm": round((ya["max"] - ya["min"]) / ry, 2),
            "units_per_mm": [round(rx, 3), round(ry, 3)],
            "resolution_assumed": not (xa["resolution"] and ya["resolution"]) and not hint,
            "quirk": "%s=%dx%d" % (hint[0], hint[1][0], hint[1][1]) if hint else None,
            "slots": absd["ABS_MT_SLOT"]["max"] + 1 if "ABS_MT_SLOT" in absd else 0,
            "protocol": proto, "kind": kind}


# ------------------------------------------------------------------------ wheel device ----

class WheelDevice:
    """A uinput wheel: REL_WHEEL, REL_HWHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES; with
    caps="full" also REL_X, REL_Y and BTN_LEFT/RIGHT/MIDDLE (what udev needs to tag a mouse)."""

    def __init__(self, name="vdev wheel", caps="full", legacy=True, bustype=E.BUS_VIRTUAL,
                 vendor=0x1234, product=0x5678, kernel_times=True):
        rel = [E.REL_WHEEL, E.REL_HWHEEL, E.REL_WHEEL_HI_RES, E.REL_HWHEEL_HI_RES]
        events = {E.EV_REL: rel}
        if caps == "full":
            events[E.EV_REL] = [E.REL_X, E.REL_Y] + rel
            events[E.EV_KEY] = [E.BTN_LEFT, E.BTN_RIGHT, E.BTN_MIDDLE]
        elif caps == "wheel+buttons":
            events[E.EV_KEY] = [E.BTN_LEFT, E.BTN_RIGHT, E.BTN_MIDDLE]
        elif caps != "wheel":
            raise VdevError("caps must be full, wheel+buttons or wheel")
        self.name, self.caps, self.legacy = name, caps, legacy
        self.ui = UInput(events=events, name=name, vendor=vendor, product=product,
                         bustype=bustype, phys="vdev/wheel")
        self.closed = False
        try:
            self.sysname, self.devnode = _sysfs_for(self.ui)
            self.udev = udev_properties(self.devnode, ("ID_INPUT_MOUSE",), 10.0)
            self.kclock = KernelClock(self.devnode) if kernel_times else None
        except BaseException:
            self.ui.close()
            raise
        self.acc = {E.REL_WHEEL: 0, E.REL_HWHEEL: 0}

    def scroll(self, v120=0, h120=0, legacy=None, legacy_only=False):
        """Writes one frame: hi-res values (120 = one detent) plus, if `legacy`, REL_WHEEL /
        REL_HWHEEL for each whole detent accumulated (as the kernel's hid drivers do).
        legacy_only writes v120/h120 as plain REL_WHEEL/REL_HWHEEL clicks instead."""
        legacy = self.legacy if legacy is None else legacy
        out = []
        for value, hi, lo in ((v120, E.REL_WHEEL_HI_RES, E.REL_WHEEL), (h120, E.REL_HWHEEL_HI_RES, E.REL_HWHEEL)):
            if not value:
                continue
            if legacy_only:
                out.append((lo, value))
                continue
            out.append((hi, value))
            if legacy:
                self.acc[lo] += value
                clicks = int(self.acc[lo] / 120)
                if clicks:
                    self.acc[lo] -= clicks * 120
                    out.append((lo, clicks))
        if not out:
            return None
        t0 = now()
        for c, v in out:
            self.ui.write(E.EV_REL, c, v)
        self.ui.syn()
        t1 = now()
        k = self.kclock.time_between(t0, t1) if self.kclock else None
        return {"step": "wheel", "events": [[E.REL[c] if not isinstance(E.REL[c], list) else E.REL[c][0], v] for c, v in out],
                "t": round(t1, 6), "k": round(k, 6) if k is not None else None}

    def close(self):
        if not self.closed:
            self.closed = True
            if self.kclock:
                self.kclock.close()
            self.ui.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# -------------------------------------------------------------------------------- CLI ----

TIME_KEYS = {"duration", "interval", "hold", "ramp", "stagger", "decel", "pause"}
FLOAT_KEYS = {"speed", "spacing", "x", "y"}
INT_KEYS = {"fingers", "lift_frames", "jitter"}


def parse_time(text):
    t = text.strip()
    if t.endswith("ms"):
        return float(t[:-2]) / 1000.0
    if t.endswith("s"):
        return float(t[:-1])
    raise VdevError("time %r needs a unit: ms or s (e.g. 20ms, 0.25s)" % text)


def parse_step(text):
    """'flick:down,speed=200,duration=250ms' -> ("flick", {"direction": "down", ...})"""
    name, _, rest = text.partition(":")
    args = {}
    if rest:
        for part in rest.split(","):
            if not part:
                continue
            key, eq, val = part.partition("=")
            if not eq:
                if name == "wait":
                    args["seconds"] = parse_time(key)
                elif key in DIRECTIONS:
                    args["direction"] = key
                else:
                    raise VdevError("step %r: bare value %r (expected a direction: %s)"
                                    % (text, key, ", ".join(DIRECTIONS)))
                continue
            key = key.strip()
            try:
                if key in TIME_KEYS:
                    args[key] = parse_time(val)
                elif key in FLOAT_KEYS:
                    args[key] = float(val)
                elif key in INT_KEYS:
                    args[key] = int(val)
                elif key == "direction":
                    args[key] = val
                else:
                    raise VdevError("step %r: unknown parameter %r" % (text, key))
            except ValueError:
                raise VdevError("step %r: bad value for %s: %r" % (text, key, val))
    return name, args


def run_step(dev, text):
    name, args = parse_step(text)
    if name == "wait":
        secs = args.get("seconds", 0.0)
        time.sleep(secs)
        return {"step": "wait", "seconds": secs, "t": round(now(), 6)}
    if name == "settle":
        subprocess.run(["udevadm", "settle"], check=False)
        return {"step": "settle", "t": round(now(), 6)}
    gestures = {"flick": dev.flick, "drag": dev.drag, "scroll": dev.scroll,
                "slow_release": dev.slow_release, "move_pause_lift": dev.move_pause_lift,
                "tap": dev.tap, "touch": dev.touch}
    if name not in gestures:
        raise VdevError("unknown step %r (known: %s, wait, settle)" % (name, ", ".join(gestures)))
    if name in ("tap", "touch"):
        args.pop("direction", None)
    return gestures[name](**args)


def emit(obj):
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")
    sys.stdout.flush()


def make_touch(args):
    return TouchDevice(load(args.device), name=args.name, check=not args.no_check,
                       kernel_times=not args.no_kernel_times)


def cmd_create(args):
    with make_touch(args) as dev:
        emit(dev.ready_info())
        if args.hold is not None:
            time.sleep(args.hold)
        else:
            while True:
                signal.pause()   # until SIGTERM/SIGINT


def cmd_play(args):
    steps = [parse_step(s) and s for s in args.steps]   # validate before creating
    with make_touch(args) as dev:
        emit(dev.ready_info())
        time.sleep(args.settle)
        for s in steps:
            emit(run_step(dev, s))
        time.sleep(args.linger)


def cmd_serve(args):
    with make_touch(args) as dev:
        emit(dev.ready_info())
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["quit"]:
                break
            for w in words:
                try:
                    emit(run_step(dev, w))
                except VdevError as e:
                    emit({"step": w, "error": str(e)})


def cmd_wheel(args):
    with WheelDevice(name=args.name or "vdev wheel", caps=args.caps, legacy=not args.no_legacy,
                     kernel_times=not args.no_kernel_times) as w:
        emit({"event": "ready", "device": w.name, "devnode": w.devnode, "caps": w.caps,
              "udev": {k: v for k, v in w.udev.items() if k.startswith("ID_INPUT")}})
        time.sleep(args.settle)
        for s in args.steps:
            emit(run_wheel_step(w, s))
        if args.serve:
            for line in sys.stdin:
                words = line.split()
                if words[:1] == ["quit"]:
                    break
                for s in words:
                    try:
                        emit(run_wheel_step(w, s))
                    except VdevError as e:
                        emit({"step": s, "error": str(e)})
        time.sleep(args.linger)


def run_wheel_step(w, s):
    kind, _, val = s.partition(":")
    if kind == "wait":
        secs = parse_time(val)
        time.sleep(secs)
        return {"step": "wait", "seconds": secs, "t": round(now(), 6)}
    try:
        n = int(val)
    except ValueError:
        n = None
    if n is None or kind not in ("v", "h", "lv", "lh"):
        raise VdevError("wheel step %r: want v:N, h:N, lv:N, lh:N or wait:T" % s)
    r = w.scroll(v120=n if kind in ("v", "lv") else 0, h120=n if kind in ("h", "lh") else 0,
                 legacy_only=kind.startswith("l"))
    r["input"] = s
    return r


def cmd_info(args):
    desc = load(args.device)
    emit(dict(geometry_of(desc), name=desc["name"], id=desc["id"], props=desc.get("props", [])))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="vdev.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p, device=True):
        if device:
            p.add_argument("device", help="device description JSON")
        p.add_argument("--name", help="device name (default: the description's)")
        p.add_argument("--no-check", action="store_true", help="do not require udev's touchpad/touchscreen tag")
        p.add_argument("--no-kernel-times", action="store_true", help="do not read back kernel timestamps")

    p = sub.add_parser("create", help="create a device and hold it")
    common(p)
    p.add_argument("--hold", type=float, help="seconds (default: until SIGTERM or SIGINT)")
    p.set_defaults(func=cmd_create)
    p = sub.add_parser("play", help="create a device and play steps")
    common(p)
    p.add_argument("--settle", type=float, default=0.5, help="seconds between creation and the first step")
    p.add_argument("--linger", type=float, default=0.2, help="seconds to keep the device after the last step")
    p.add_argument("steps", nargs="+")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("serve", help="create a device and play steps read from stdin")
    common(p)
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("wheel", help="create a wheel device and write wheel events")
    common(p, device=False)
    p.add_argument("--caps", default="full", choices=["full", "wheel+buttons", "wheel"])
    p.add_argument("--no-legacy", action="store_true", help="hi-res events only, no REL_WHEEL/REL_HWHEEL")
    p.add_argument("--settle", type=float, default=0.5)
    p.add_argument("--linger", type=float, default=0.2)
    p.add_argument("--serve", action="store_true", help="after the steps, read more from stdin")
    p.add_argument("steps", nargs="*")
    p.set_defaults(func=cmd_wheel)
    p = sub.add_parser("info", help="print a description's geometry")
    p.add_argument("device")
    p.set_defaults(func=cmd_info)

    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        args.func(args)
    except (VdevError, OSError, evdev.UInputError) as e:
        print("vdev.py: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
