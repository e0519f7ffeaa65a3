#!/usr/bin/python3
"""flickd under faults, and what it lets out, end to end in a real kernel.

Runs INSIDE the e2e guest (as root, with /dev/uinput and udevd), like scenarios.py:
    Tests/E2E/guest run --results DIR -- /usr/bin/python3 Tests/E2E/faults.py \
        --flickd .build/debug/flickd [--out DIR] [--only NAME,...] [--cycles 100]

flickd runs as a real process (`run --verbose`); its virtual wheel is read through evdev with
kernel timestamps (scenarios.WheelTap). Each fault is asserted; a failed check prints expected
and actual. Faults:
  uinput     /dev/uinput missing (rmmod uinput; reloaded after) and not writable (flickd as
             `nobody`): exit status 1, one error line naming the fix, no crash or stack trace;
             usable at start but taken away before the first pad: one error, no device, and
             the device created with the next pad once it is usable again
  hotplug    --cycles hot-plug cycles of a touchpad, alternately unplugged mid-coast (the coast
             ends "device-removed") and with two fingers scrolling on it (no coast: the input
             core releasing its keys is no lift); flickd alive, open descriptors and resident
             memory back to where they were after the warm-up cycles; then a pad replaced by
             another on the same node while flickd was stopped: the new one is used
  overrun    flickd stopped (SIGSTOP) while thousands of frames of a two-finger gesture go into
             the pad at once, far more than the evdev client buffer holds, then a real-time
             flick with the same fingers (played before SIGCONT, or after it with the fingers
             still down): the kernel reports SYN_DROPPED, flickd logs the resync, does not
             coast on the torn gesture, and the next flick coasts; then events lost while
             nothing changes (thousands of button clicks with no finger down): the flick after
             that resync coasts too
  stall      flickd stopped for 2 s mid-coast: the late tick ends the coast ("stall") instead of
             jumping; no wheel event after the stop but one step under way, no larger than a
             normal tick's step at the stop (the speed then over twice the longest interval
             between two writes before it, or over 50 ms); not judged (a skip) when the guest
             held a tick up so long before the stop (an interval over 100 ms) that this bound
             is not below the jump a catch-up would write
  sigkill    SIGKILL mid-coast: the kernel removes the virtual wheel; the next start coasts
  tp-sigkill SIGKILL while the virtual touchpad's fingers move (output.mode = "touchpad"): the
             kernel removes the device, libinput reports DEVICE_REMOVED and lists no flickd
             touchpad any more, no button, motion or touch event came from it
  udev       udev's events lost: flickd (as nobody, so its receive queue is as small as
             net.core.rmem_max, lowered for the test) is stopped while 13 touchpads are plugged
             in (12 two-slot, then a 15-slot one); the kernel drops what overflows its queue.
             flickd says so, looks at every device again, opens every pad once, the last
             (whose event was lost) included, and a flick on it coasts
  config     the configuration file emptied, written half-way, deleted while flickd runs: each
             time flickd says why and keeps the running settings (the deceleration rate read
             back from the planned coasts); a good file written after them is applied
  seat       fast user switching: flickd as `nobody` with logind's seat0 file saying nobody's
             session is active coasts; the file rewritten (renamed over, as logind does) to say
             another user's is active: flickd closes the pad and a keyboard (no descriptor on
             either) and a flick on the pad coasts nothing; nobody's again: both are opened again
             and a flick coasts
  security   typing on a keyboard while flickd runs --verbose: idle typing neither wakes flickd
             nor adds a byte to its log, typing during a coast only ends it (reason "key"), no
             key code, name or typed word in the log (scenarios.py `keys` checks the stop
             behaviour itself); the user unit's `systemd-analyze security` exposure; flickd as
             `nobody` with the access the install gives (an ACL on /dev/uinput, the input group)
             still coasts, with no capabilities
Figures (printed, and written to DIR/faults-figures.json): descriptor and memory readings over
the cycles, the overrun's size, the stall's largest step against the jump it avoided, the
exposure score. The last line is "faults: N passed, M failed, K skipped"; exit status 1 on a failure.
"""

import argparse
import json
import math
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from scenarios import (CONFIG, MANY_SLOTS, TOUCHPAD_CONFIG, TWO_SLOTS, Checks, DebugEvents, Flickd, Libinput, Scenarios,  # noqa: E402
                       TouchTap, WheelTap, coast_end, load, mono, only_names, open_pad, plan_with_velocity, vdev)
from evdev import UInput  # noqa: E402
from evdev import ecodes as E  # noqa: E402

TICK_RATE = 120.0           # CONFIG's coast.tick_rate
UNITS_PER_MM = 90.0         # scroll.speed's default: hi-res wheel units per millimetre
NOBODY = 65534
INPUT_EVENT = struct.Struct("qqHHi")   # struct input_event on x86_64: timeval, type, code, value

# What a crash of a Swift program (or the C library) prints; none of it may reach the user.
CRASH_MARKERS = ("Fatal error", "stack trace", "Stack dump", "Program crashed", "Backtrace", "backtrace",
                 "Segmentation fault", "Illegal instruction", "Aborted", "Thread 0 crashed")

def implied_rate(velocity, total):
    """The deceleration rate (per ms) a planned coast was computed with.

    A coast that settles travels X = v0/k (Deceleration.swift) with v0 = |vy| * scroll.speed in
    hi-res units/s and k = -1000 ln d, so d = exp(-|vy| * speed / |X| / 1000)."""
    if not total or not velocity[1]:
        return None
    k = abs(velocity[1]) * UNITS_PER_MM / abs(total)
    return math.exp(-k / 1000)


def process_state(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def stop_process(pid):
    """SIGSTOP, and wait until the kernel has stopped it."""
    os.kill(pid, signal.SIGSTOP)
    end = mono() + 5
    while process_state(pid) not in ("T", "t") and mono() < end:
        time.sleep(0.005)


def open_descriptors(pid):
    """{fd: target} of /proc/PID/fd."""
    fds = {}
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            fds[int(fd)] = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            pass
    return fds


def proc_status(pid):
    with open("/proc/%d/status" % pid) as f:
        return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)


TOUCHPAD_NAME = "flickd virtual touchpad"


def release_as_nobody(pads, tap):
    """The end of a fault run as nobody: /dev/uinput's ACL removed, its pads and its tap (None:
    never made) closed."""
    remove_acl("/dev/uinput")
    for pad in pads:
        pad.close()
    if tap:
        tap.close()


def devices_named(name):
    """sysfs names of input devices called `name`."""
    found = []
    for entry in os.listdir("/sys/class/input"):
        try:
            with open("/sys/class/input/%s/name" % entry) as f:
                if f.read().strip() == name:
                    found.append(entry)
        except OSError:
            pass
    return found


def wheels_in_sysfs():
    """sysfs names of input devices called "flickd virtual wheel"."""
    found = []
    for entry in os.listdir("/sys/class/input"):
        try:
            with open("/sys/class/input/%s/name" % entry) as f:
                if f.read().strip() == "flickd virtual wheel":
                    found.append(entry)
        except OSError:
            pass
    return found


def set_user_acl(path, uid):
    """What `setfacl -m u:UID:rw PATH` does (and logind's uaccess for the seat's user): a POSIX
    ACL giving `uid` read and write, written directly as the system.posix_acl_access xattr (the
    guest has no acl package). Entries: tag, permissions, id; version 2, little-endian."""
    mode = os.stat(path).st_mode
    undefined = 0xFFFFFFFF
    entries = [(0x01, (mode >> 6) & 7, undefined),   # ACL_USER_OBJ
               (0x02, 6, uid),                       # ACL_USER: rw-
               (0x04, (mode >> 3) & 7, undefined),   # ACL_GROUP_OBJ
               (0x10, 6, undefined),                 # ACL_MASK: rw-
               (0x20, mode & 7, undefined)]          # ACL_OTHER
    os.setxattr(path, "system.posix_acl_access",
                struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries))


def remove_acl(path):
    try:
        os.removexattr(path, "system.posix_acl_access")
    except OSError:
        pass


class Batch:
    """Stands in for a vdev pad's UInput while frames are composed: keeps their events."""

    def __init__(self):
        self.events = []

    def write(self, typ, code, value):
        self.events.append((typ, code, value))

    def syn(self):
        self.events.append((E.EV_SYN, E.SYN_REPORT, 0))

    def frame(self, pad, points):
        """The bytes of the frame `pad` would write for `points` (its state follows)."""
        real, pad.ui = pad.ui, self
        self.events = []
        try:
            pad.frame(points)
        finally:
            pad.ui = real
        return b"".join(INPUT_EVENT.pack(0, 0, *e) for e in self.events), len(self.events)


def typed_words_in(phrase, log):
    """The words of `phrase` longer than 3 characters that `log` holds. A number counts only as
    a number of its own: "1984" is also in times such as t=198412.3ms."""
    return [w for w in phrase.split() if len(w) > 3 and
            (re.search(r"(?<![\w.-])%s(?![\w.])" % w, log) if w.isdigit() else w in log)]


def normal_step_bound(before, margin=2.0, least_s=0.05, window_s=0.1):
    """The largest step a normal tick writes at the stop, hi-res units, from the wheel events
    (kernel time, code, value) written before it: the coast's speed then (the units written in
    its last `window_s` over that time) over `margin` × the longest interval between two of
    those writes, or over `least_s` if longer. A tick writes the way gone since the one before,
    so a tick the guest held up writes more: the longest interval is the lateness this guest
    showed in the same run, and `least_s` (50 ms, an interval of 50 ms: a tick held up 42 ms
    at 120 Hz) allows the guest's usual 20-40 ms late events in a run whose ticks were
    punctual. A tick that catches up 100 ms at the stop (a step of 100 ms + one 8.3 ms period)
    writes more than this unless the guest held a tick up 46 ms before it (an interval of
    54 ms between writes: 2 × 54 ms ≥ 108 ms); stall_step_unjudged says when the bound no
    longer tells the two apart. 0 when fewer than two writes came before the stop."""
    times = sorted({e[0] for e in before})
    if len(times) < 2:
        return 0.0
    longest = longest_interval(before)
    recent = [t for t in times if t >= times[-1] - window_s]
    if len(recent) < 2:
        recent = times[-2:]
    # The first write of the window ends the way before it: what came after it took recent's span.
    units = sum(abs(e[2]) for e in before if recent[0] < e[0] <= recent[-1])
    return units / (recent[-1] - recent[0]) * max(margin * longest, least_s)


def longest_interval(before):
    """The longest interval between two writes of the wheel events (kernel time, code, value)
    `before`, s; 0 with fewer than two."""
    times = sorted({e[0] for e in before})
    return max([0.0] + [b - a for a, b in zip(times, times[1:])])


# The longest interval between writes before the stop the stall's step check still judges on:
# beyond it the guest held a tick up so long that a normal step there is no normal tick's.
LONGEST_INTERVAL_CAP_S = 0.1


def stall_step_unjudged(before, bound, jump, cap_s=LONGEST_INTERVAL_CAP_S):
    """Why the stall's "no step larger than a normal tick's" cannot be judged in this run, or
    None: when the guest held a tick up so long before the stop that the normal step bound
    (`bound`, normal_step_bound) is not below the `jump` a catch-up would write, or when the
    longest interval between writes before the stop exceeds `cap_s`. A correct flickd could
    then fail and a catching-up one pass: the run is inconclusive, neither a pass nor a fail."""
    longest = longest_interval(before)
    if bound < jump and longest <= cap_s:
        return None
    return ("the guest held a tick up %.0f ms before the stop (an interval of %.0f ms between writes): "
            "a normal tick's step there (%.0f) is %s" % (
                max(0.0, longest - 1 / TICK_RATE) * 1000, longest * 1000, bound,
                "not below the jump avoided (%.0f)" % jump if bound >= jump
                else "no normal tick's (the longest interval judged is %.0f ms)" % (cap_s * 1000)))


def under_way_bound(bound, jump, unjudged):
    """The largest step split_under_way accepts as under way when flickd was stopped: the normal
    step bound, or, in a run whose step is not judged (`unjudged`, stall_step_unjudged: the bound
    may reach the jump), at most half the `jump` a catch-up would write, so a catch-up written
    just after SIGCONT still fails "no wheel event after the stall"."""
    return min(bound, jump / 2) if unjudged else bound


def split_under_way(after, t_cont, in_flight_s, bound):
    """Wheel events (kernel time, code, value) written after flickd was stopped: (the frame
    that was under way when it stopped, or []; every other one). The first frame counts as
    under way when it is stamped within `in_flight_s` of SIGCONT and no step in it is larger
    than `bound`."""
    first = after[0][0] if after else None
    under_way = [e for e in after if e[0] == first and first <= t_cont + in_flight_s and abs(e[2]) <= bound]
    if len(under_way) != sum(1 for e in after if e[0] == first):
        under_way = []  # the frame is whole or not at all
    return under_way, [e for e in after if e not in under_way]


class Faults:
    def __init__(self, args):
        self.args = args
        self.out = args.out
        self.checks = Checks()
        self.figures = {}
        # scenarios.py's flick player (replays a flick only when the player itself ran late).
        self.player = Scenarios(argparse.Namespace(out=args.out, flickd=args.flickd, flicks=0))
        # A directory `nobody` can read (the results and scratch directories may not be).
        self.public = tempfile.mkdtemp(prefix="flickd-faults-")
        os.chmod(self.public, 0o755)

    def check(self, fault, what, ok, expected="", actual=""):
        return self.checks.check(fault, what, ok, expected, actual)

    def start(self, name, config=CONFIG, binary=None, workdir=None):
        daemon = Flickd(binary or self.args.flickd, workdir or self.out, config, name)
        return daemon, daemon.later(WheelTap)

    def flick(self, daemon, pad, **kw):
        """A flick meant to coast: (vdev result, plan (v120, h120) or None, log mark)."""
        kw.setdefault("speed", 250)
        kw.setdefault("duration", 0.12)
        r, plan, mark, _ = self.player.flick(daemon, pad, "down", **kw)
        return r, plan, mark

    def coasted_total(self, daemon, tap, r, mark, plan):
        """REL_WHEEL_HI_RES written from just before the release, once the coast flickd planned
        after log mark `mark` has ended (and the tap has read its last event: it reaches the
        plan, or 2 s pass)."""
        coast_end(daemon, mark)
        k_release = r.get("k_release") or r["t_release"]
        end = mono() + 2
        while True:
            total = sum(e[2] for e in tap.between(k_release - 0.5, code=E.REL_WHEEL_HI_RES))
            if plan is None or total == plan[0] or mono() > end:
                return total
            time.sleep(0.05)

    # -- 3: /dev/uinput missing or not writable -------------------------------------------------

    def run_failing(self, argv):
        """Runs flickd expecting it to give up: (status, output)."""
        try:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        except subprocess.TimeoutExpired as e:
            return None, (e.stdout or "") + "\n(still running after 60 s)"
        return p.returncode, p.stdout

    def check_one_clear_error(self, f, label, status, output, fix_words):
        errors = [l for l in output.splitlines() if re.search(r"\berror:", l)]
        crash = [m for m in CRASH_MARKERS if m in output]
        self.check(f, label + ": exit status non-zero (1)", status == 1, 1, status)
        self.check(f, label + ": exactly one error line", len(errors) == 1, 1, errors or output[-600:])
        missing = [w for w in fix_words if not any(w in l for l in errors)]
        self.check(f, label + ": the error names the fix (%s)" % ", ".join(fix_words), not missing,
                   fix_words, "missing %s in %s" % (missing, errors))
        self.check(f, label + ": no crash or stack trace", not crash and (status or 0) >= 0, "none", crash or status)
        print("     %s: %s" % (label, errors[0] if errors else output.strip()[-300:]), flush=True)

    def uinput(self):
        f = "uinput"
        config = os.path.join(self.public, "uinput.toml")
        with open(config, "w") as fh:
            fh.write(CONFIG)
        rmmod = subprocess.run(["rmmod", "uinput"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            gone = self.check(f, "rmmod uinput removes /dev/uinput", rmmod.returncode == 0 and not os.path.exists("/dev/uinput"),
                              "status 0, no /dev/uinput", "status %d, %s %s" % (rmmod.returncode, rmmod.stdout.strip(),
                                                                              os.path.exists("/dev/uinput")))
            if gone:
                status, output = self.run_failing([self.args.flickd, "run", "--verbose", "--config", config])
                self.check_one_clear_error(f, "uinput missing", status, output, ["/dev/uinput is missing", "modprobe uinput"])
        finally:
            subprocess.run(["modprobe", "uinput"], check=False)
            for _ in range(100):
                if os.path.exists("/dev/uinput"):
                    break
                time.sleep(0.05)
        self.check(f, "modprobe uinput brings /dev/uinput back", os.path.exists("/dev/uinput"), "/dev/uinput", "missing")
        # /dev/uinput is root's (crw-------): nobody, without the install's ACL, may not write it.
        status, output = self.run_failing(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                           self.args.flickd, "run", "--verbose", "--config", config])
        self.check_one_clear_error(f, "uinput not writable (flickd as nobody)", status, output,
                                   ["no permission to write /dev/uinput", "70-flickd-uinput.rules", "input group"])
        self.uinput_lost_after_start(f)

    def uinput_lost_after_start(self, f):
        """flickd creates its device with the first touchpad: /dev/uinput, usable at start (the
        check passes), is taken away before a pad comes. The pad's flicks cannot coast; flickd
        says why once (not again for a second pad), stays up, and creates the device with the
        next pad once /dev/uinput is usable again; a flick on that pad coasts."""
        label = "uinput taken away after start"
        set_user_acl("/dev/uinput", NOBODY)
        daemon = tap = None
        pads = []
        try:
            daemon, tap = self.start("uinput-later", binary=self.nobody_wrapper(), workdir=self.public)
            remove_acl("/dev/uinput")
            mark = daemon.mark()
            for name in (MANY_SLOTS, TWO_SLOTS):
                pads.append(vdev.TouchDevice(load(name)))
                daemon.wait_log(re.escape(pads[-1].devnode) + r" \([^)]*\): touchpad", 20, mark)
            time.sleep(0.5)
            log = daemon.text()[mark:]
            errors = re.findall(r"cannot create the virtual wheel: no permission to write /dev/uinput", log)
            self.check(f, label + ": two pads opened, flickd says once that it cannot create its device",
                       len(re.findall(r"\): touchpad", log)) == 2 and len(errors) == 1 and "flicks do not coast" in log,
                       "2 pads, 1 error naming the fix", log[-800:])
            self.check(f, label + ": no virtual device, flickd alive", daemon.alive() and not devices_named("flickd virtual wheel"),
                       "alive, none", (daemon.alive(), devices_named("flickd virtual wheel")))
            set_user_acl("/dev/uinput", NOBODY)
            pad = open_pad(MANY_SLOTS, daemon)   # waits for the device it creates now
            pads.append(pad)
            r, plan, fmark = self.flick(daemon, pad)
            total = self.coasted_total(daemon, tap, r, fmark, plan)
            self.check(f, label + ": usable again, the next pad creates the device and a flick coasts",
                       len(devices_named("flickd virtual wheel")) == 1 and plan is not None and total == plan[0] != 0,
                       "1 wheel, %s" % (plan and plan[0]), "%d wheels, %d" % (len(devices_named("flickd virtual wheel")), total))
        finally:
            release_as_nobody(pads, tap)
            if daemon:
                self.check(f, label + ": flickd exits 0 on SIGTERM", daemon.stop() == 0, 0, daemon.proc.returncode)
                # Its log is in self.public (for the user nobody), which main() removes at the end.
                shutil.copy(daemon.log_path, os.path.join(self.out, "uinput-later.log"))

    # -- 1: hot-plug cycles ---------------------------------------------------------------------

    # Descriptors and resident memory are read after WARMUP cycles (the first pads grow RSS
    # by ~1.4 MiB: Swift metadata, libudev's and libevdev's first allocations) and at the end.
    # Resident memory is smaps_rollup's Rss (Flickd.rss_kib): VmRSS, read before, lags on the
    # guest's 6.1 kernel and could hide a small growth. Descriptors must match exactly. VmRSS
    # drifted by 0 KiB over 100 cycles in every run measured; RSS_SLACK_KIB over the 96
    # compared cycles catches a leak of 1.4 KiB a cycle, less than one libevdev handle (6 KiB
    # for MANY_SLOTS, 8.6 KiB for TWO_SLOTS, measured).
    WARMUP = 4
    RSS_SLACK_KIB = 128

    def hotplug(self):
        f = "hotplug"
        cycles = self.args.cycles
        daemon, tap = self.start("hotplug-cycles")
        pid = daemon.proc.pid
        samples = []              # (cycles done, fds, RSS KiB)
        mid_coast = removed_mid_coast = 0
        wrong_ends = []
        spurious = []             # (cycle, plan, hi-res units written) of unplugs with fingers down
        started = mono()
        try:
            time.sleep(0.5)
            samples.append((0, len(open_descriptors(pid)), daemon.rss_kib()))   # before any pad: not compared
            for i in range(cycles):
                coast = i % 2 == 1
                pad = open_pad(MANY_SLOTS if coast else TWO_SLOTS, daemon)
                removal = daemon.mark()
                try:
                    if coast:
                        _, plan, mark = self.flick(daemon, pad)
                        if plan is not None:
                            mid_coast += 1
                    else:
                        # Two fingers scrolling fast when the pad goes: the input core releases
                        # its keys (BTN_TOUCH, BTN_TOOL_DOUBLETAP) in a last frame, the slots
                        # still holding the contacts. That is no lift to coast on.
                        x, y = pad.width_mm / 2, 10.0
                        pad.play([(k * 0.01, {0: (x - 9, y + 2.5 * k), 1: (x + 9, y + 2.5 * k)}, None) for k in range(13)])
                        t_unplug = mono()
                        pad.contacts.clear()   # vdev's close() would lift the fingers first
                finally:
                    devnode = pad.devnode
                    pad.close()
                if not daemon.wait_log(re.escape(devnode) + r" \([^)]*\): removed", 20, removal):
                    raise RuntimeError("cycle %d: flickd did not log the removal of %s:\n%s"
                                       % (i + 1, devnode, daemon.text()[removal:][-600:]))
                if coast and plan is not None:
                    end = coast_end(daemon, mark, 5)
                    if end is not None and end[0] == "device-removed":
                        removed_mid_coast += 1
                    else:
                        wrong_ends.append((i + 1, end))
                elif not coast:
                    planned = re.search(r"device \d+: coast at [^\n]*", daemon.text()[removal:])
                    wheel = tap.between(t_unplug - 0.05)
                    if planned or wheel:
                        spurious.append((i + 1, planned and planned.group(0)[-40:], sum(e[2] for e in wheel
                                                                                       if e[1] == E.REL_WHEEL_HI_RES)))
                done = i + 1
                if done >= self.WARMUP and (done == self.WARMUP or done % 8 == 0 or done == cycles):
                    time.sleep(0.2)   # the removal's last log line written, the loop idle
                    samples.append((done, len(open_descriptors(pid)), daemon.rss_kib()))
            elapsed = mono() - started
            c = self.check
            c(f, "flickd is alive after %d hot-plug cycles" % cycles, daemon.alive(), "alive", daemon.proc.returncode)
            c(f, "%d of them unplugged mid-coast" % (cycles // 2), mid_coast == cycles // 2, cycles // 2, mid_coast)
            c(f, "every coast ended when its pad was unplugged (device-removed)",
              removed_mid_coast == mid_coast and not wrong_ends, mid_coast, "%d, others: %s" % (removed_mid_coast, wrong_ends[:5]))
            c(f, "no coast when a pad is unplugged with two fingers scrolling on it (%d times)" % (cycles - cycles // 2),
              not spurious, [], "%d: %s" % (len(spurious), spurious[:4]))
            (n0, fd0, rss0), (n1, fd1, rss1) = samples[1], samples[-1]
            if not c(f, "open descriptors after %d cycles = after %d (%d)" % (n1, n0, fd0), fd1 == fd0, fd0, fd1):
                print("     descriptors now: %s" % sorted(open_descriptors(pid).items()), flush=True)
            c(f, "resident memory after %d cycles within %d KiB of after %d (%d KiB)" % (n1, self.RSS_SLACK_KIB, n0, rss0),
              abs(rss1 - rss0) <= self.RSS_SLACK_KIB, "%d ± %d KiB" % (rss0, self.RSS_SLACK_KIB), "%d KiB" % rss1)
            # Replaced while flickd was stopped (as over a suspend, or a dock unplugged and
            # plugged back): the pad it has open goes and another one takes its node.
            old = open_pad(TWO_SLOTS, daemon)
            stop_process(pid)
            try:
                old.close()
                pad = vdev.TouchDevice(load(MANY_SLOTS))
            finally:
                mark = daemon.mark()
                os.kill(pid, signal.SIGCONT)
            with pad:
                opened = daemon.wait_log(re.escape(pad.devnode) + r" \(%s\): touchpad" % re.escape(pad.name), 20, mark)
                r, plan, mark = self.flick(daemon, pad)
                total = self.coasted_total(daemon, tap, r, mark, plan)
                # The case under test is the new pad at the old one's node: the kernel gives a new
                # evdev node the lowest free minor, and the old pad's was freed when it was
                # destroyed, so it is the same node unless something else took it meanwhile.
                c(f, "a pad replaced by another on the same node while flickd was stopped (%s, then %s): the new "
                  "one coasts" % (old.devnode, pad.devnode),
                  old.devnode == pad.devnode and opened is not None and plan is not None and total == plan[0] != 0,
                  "%s again, opened, %s" % (old.devnode, plan and plan[0]),
                  "%s%s, %s, %d" % (pad.devnode, "" if old.devnode == pad.devnode else " (another node: not the case under test)",
                                    "opened" if opened else "not opened", total))
            self.figures["hotplug"] = {
                "cycles": cycles, "unplugged_mid_coast": mid_coast, "unplugged_mid_scroll": cycles - cycles // 2,
                "coasts_on_unplug_mid_scroll": len(spurious), "seconds": round(elapsed, 1),
                "fds": {"after_warmup": fd0, "end": fd1}, "rss_kib": {"after_warmup": rss0, "end": rss1},
                "samples": [{"cycles": n, "fds": d, "rss_kib": m} for n, d, m in samples]}
            print("     %d cycles in %.0f s; fds %d -> %d; Rss %d -> %d KiB; series (cycles, fds, KiB): %s"
                  % (cycles, elapsed, fd0, fd1, rss0, rss1, samples), flush=True)
        finally:
            tap.close()
            daemon.stop()

    # -- 2: evdev buffer overrun ----------------------------------------------------------------

    OVERRUN_FRAMES = 4000

    def overrun(self):
        f = "overrun"
        daemon, tap = self.start("overrun")
        pid = daemon.proc.pid
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                for label, lifted in [("lifted before flickd read it", True), ("fingers still down after the resync", False)]:
                    self.torn_gesture(f, label, daemon, tap, pad, lifted)
                self.idle_overrun(f, daemon, tap, pad)
                r, plan, mark = self.flick(daemon, pad, speed=200, duration=0.2)
                total = self.coasted_total(daemon, tap, r, mark, plan)
                self.check(f, "then a flick coasts (kernel total = plan)", plan is not None and total == plan[0] != 0,
                           plan and plan[0], total)
        finally:
            if daemon.alive():
                os.kill(pid, signal.SIGCONT)
            tap.close()
            daemon.stop()

    def torn_gesture(self, f, label, daemon, tap, pad, lifted):
        """flickd stopped while two fingers land and move for OVERRUN_FRAMES frames, written at
        once: far more than the evdev client buffer holds, so the kernel drops events and tells
        flickd's reader with SYN_DROPPED. Then the same fingers flick down in real time and lift,
        a gesture that would coast had its start not been lost: still while flickd is stopped
        (`lifted`: libevdev's resync finds the fingers up), or after SIGCONT (the resync finds
        them down, and the rest of the gesture arrives as it is played)."""
        pid = daemon.proc.pid
        x, y = pad.width_mm / 2, pad.height_mm / 2
        at = lambda dy: {0: (x - 9, y + dy), 1: (x + 9, y + dy)}  # noqa: E731
        batch = Batch()
        landing, n_landing = batch.frame(pad, at(0))
        up, n_up = batch.frame(pad, at(-6))
        down, n_down = batch.frame(pad, at(0))
        pairs = self.OVERRUN_FRAMES // 2
        stream = landing + (up + down) * pairs
        events = n_landing + (n_up + n_down) * pairs
        mark = daemon.mark()
        t0 = mono()
        stop_process(pid)
        try:
            view = memoryview(stream)
            while view:
                view = view[os.write(pad.ui.fd, view[:INPUT_EVENT.size * 4096]):]
            burst_ms = (mono() - t0) * 1000
            if lifted:
                tail = pad.flick("down", speed=250, duration=0.12)
        finally:
            os.kill(pid, signal.SIGCONT)
        t_cont = mono()
        resync = daemon.wait_log(r"the kernel dropped events; resynchronised", 10, mark)
        if not lifted:
            tail = pad.flick("down", speed=250, duration=0.12)
        time.sleep(1.5)
        after = daemon.text()[mark:]
        wheel = tap.between(t0)
        c = self.check
        c(f, label + ": flickd logged the resync (SYN_DROPPED)", resync is not None,
          "'the kernel dropped events; resynchronised'", after[-600:])
        planned = re.search(r"device \d+: coast at [^\n]*", after)
        c(f, label + ": no coast planned from the torn gesture", planned is None, "no 'coast at'", planned and planned.group(0))
        if not lifted:
            # The resync found the fingers down: the gesture is ignored until they lift.
            abandoned = re.search(r"no coast at [^\n]*: gesture abandoned", after)
            c(f, label + ": its lift is logged as 'gesture abandoned'", abandoned is not None,
              "'no coast ...: gesture abandoned'", [l for l in after.splitlines() if "coast" in l][:3])
        c(f, label + ": no wheel events from it", not wheel, [], wheel[:5])
        c(f, label + ": flickd is alive", daemon.alive(), "alive", daemon.proc.returncode)
        self.figures.setdefault("overrun", {})[label] = {
            "frames_at_once": 1 + 2 * pairs, "events_at_once": events, "burst_ms": round(burst_ms, 1),
            "then_flick_frames": tail["frames"], "stopped_s": round(t_cont - t0, 2)}
        print("     %s: wrote %d frames (%d events) in %.0f ms while flickd was stopped, then a %d-frame flick %s"
              % (label, 1 + 2 * pairs, events, burst_ms, tail["frames"],
                 "before SIGCONT" if lifted else "after it"), flush=True)

    def idle_overrun(self, f, daemon, tap, pad):
        """Events lost while nothing changes: a finger touches and lifts (leaving the kernel's
        current slot at 0, as pointer motion between scrolls does), then flickd is stopped while
        the pad's button is clicked OVERRUN_FRAMES / 2 times, far more than the client buffer
        holds. The kernel reports SYN_DROPPED, yet the pad ends as libevdev last knew it, so its
        resynchronisation has nothing to report, not even a SYN_REPORT. The next flick must
        coast: flickd ends the resynchronisation with a frame of its own, and the flag for the
        frame after SYN_DROPPED does not fall on the flick's landing."""
        label = "nothing changed while events were lost"
        pid = daemon.proc.pid
        pad.frame({0: (pad.width_mm / 2, pad.height_mm / 2)})
        time.sleep(0.05)
        pad.frame({})
        time.sleep(0.3)
        click = [(E.EV_KEY, E.BTN_LEFT, 1), (E.EV_SYN, E.SYN_REPORT, 0), (E.EV_KEY, E.BTN_LEFT, 0), (E.EV_SYN, E.SYN_REPORT, 0)]
        stream = b"".join(INPUT_EVENT.pack(0, 0, *e) for e in click) * (self.OVERRUN_FRAMES // 2)
        mark = daemon.mark()
        stop_process(pid)
        try:
            view = memoryview(stream)
            while view:
                view = view[os.write(pad.ui.fd, view[:INPUT_EVENT.size * 4096]):]
        finally:
            os.kill(pid, signal.SIGCONT)
        resync = daemon.wait_log(r"the kernel dropped events; resynchronised", 10, mark)
        time.sleep(0.3)
        r, plan, fmark = self.flick(daemon, pad, speed=200, duration=0.2)
        total = self.coasted_total(daemon, tap, r, fmark, plan)
        after = daemon.text()[mark:]
        c = self.check
        c(f, label + ": flickd logged the resync (SYN_DROPPED)", resync is not None,
          "'the kernel dropped events; resynchronised'", after[-600:])
        abandoned = re.search(r"no coast at [^\n]*: gesture abandoned", after)
        c(f, label + ": no gesture reported abandoned", abandoned is None, "none", abandoned and abandoned.group(0))
        c(f, label + ": the next flick coasts (kernel total = plan)", plan is not None and total == plan[0] != 0,
          plan and plan[0], total)
        # Out of the next check's window (it counts from half a second before its release).
        time.sleep(0.8)

    # -- 5: a stall mid-coast -------------------------------------------------------------------

    STALL_S = 2.0
    # How soon after SIGCONT a write that was under way when flickd was stopped lands (the
    # emulated guest resumed it 2 ms after SIGCONT in the run that showed it).
    IN_FLIGHT_S = 0.05

    def stall(self):
        f = "stall"
        daemon, tap = self.start("stall")
        pid = daemon.proc.pid
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                r, plan, mark = self.flick(daemon, pad)
                planned = plan_with_velocity(daemon, mark)
                time.sleep(0.3)
                k_release = r.get("k_release") or r["t_release"]
                running = tap.between(k_release - 0.5, code=E.REL_WHEEL_HI_RES)
                t_stop = mono()
                stop_process(pid)
                t_stopped = mono()          # from here on flickd writes nothing until SIGCONT
                time.sleep(self.STALL_S)
                os.kill(pid, signal.SIGCONT)
                t_cont = mono()
                end = coast_end(daemon, mark, 5)
                time.sleep(0.5)
                steps = tap.between(k_release - 0.5, code=E.REL_WHEEL_HI_RES)
                after = tap.between(t_stopped, code=E.REL_WHEEL_HI_RES)
                c = self.check
                c(f, "a coast was running when flickd stopped", planned is not None and running, "wheel events",
                  len(running))
                if planned is None:
                    return
                (_, vy), (total, _) = planned
                # A normal tick's step at the stop, measured in this run (normal_step_bound):
                # the speed just before the stop over twice the longest interval between two
                # writes, or over 50 ms if longer. flickd anchors a coast to the kernel's time of the release, so a tick
                # that runs late (TCG scheduling) writes the way gone since the tick before, up
                # to Engine.stallLimit (500 ms) late by design; on hardware ticks are < 1 ms late.
                before = tap.between(k_release - 0.5, t_stopped, code=E.REL_WHEEL_HI_RES)
                bound = normal_step_bound(before)
                speed = abs(vy) * UNITS_PER_MM
                # What the first tick after the stall would have written, had it caught up.
                k = -1000 * math.log(Faults.DEFAULT_RATE)
                x = lambda t: abs(total) * (1 - math.exp(-k * t))  # noqa: E731
                jump = x(t_cont - k_release) - x(t_stop - k_release)
                biggest = max((abs(e[2]) for e in steps), default=0)
                biggest_after = max((abs(e[2]) for e in after), default=0)
                c(f, "the coast ended with reason stall", end is not None and end[0] == "stall", "stall", end)
                # A write under way when SIGSTOP came: flickd reads the clock, computes the
                # tick's step and writes it; stopped in between, it writes that one step when
                # it continues (stamped then), and only its next tick sees the stall. No process
                # can read the clock and write in one step, so one frame of a normal size within
                # IN_FLIGHT_S of SIGCONT is allowed; any other write after the stop fails.
                # A guest that held a tick up ~240 ms before the stop makes the bound as large as
                # the jump avoided: the run cannot tell a normal step from a catch-up. The size
                # check below is skipped then, and the step under way is held to half the jump.
                unjudged = stall_step_unjudged(before, bound, jump)
                in_flight, later = split_under_way(after, t_cont, self.IN_FLIGHT_S,
                                                   under_way_bound(bound, jump, unjudged))
                c(f, "no wheel event after the stall (but one normal step under way when flickd was stopped)",
                  not later, [],
                  ["%+d at %.0f ms after SIGCONT" % (e[2], (e[0] - t_cont) * 1000) for e in later[:5]])
                if in_flight:
                    print("     a step under way when flickd was stopped was written %.0f ms after SIGCONT: %+d"
                          % ((in_flight[0][0] - t_cont) * 1000, in_flight[0][2]), flush=True)
                what = "no wheel event after the stop larger than a normal tick's step at the stop"
                if unjudged:
                    self.checks.skip(f, what, unjudged)
                else:
                    c(f, what + " (%.0f, measured before it; the jump avoided: %.0f)" % (bound, jump),
                      biggest_after <= bound < jump, "<= %.0f (and %.0f < %.0f)" % (bound, bound, jump), biggest_after)
                longest = longest_interval(before)
                self.figures["stall"] = {"stopped_s": round(t_cont - t_stopped, 2), "largest_step": biggest,
                                         "largest_step_before_stop": max((abs(e[2]) for e in before), default=0),
                                         "longest_interval_before_stop_ms": round(longest * 1000, 1),
                                         "step_under_way_at_stop": in_flight[0][2] if in_flight else None,
                                         "one_period_at_release_speed": round(speed / TICK_RATE, 1),
                                         "normal_step_bound": round(bound), "jump_avoided": round(jump)}
                print("     stopped %.2f s mid-coast; largest step %d (one period at release speed: %.0f); before the "
                      "stop: longest interval %.1f ms, normal step bound %.0f; catching up would have jumped %.0f units"
                      % (t_cont - t_stopped, biggest, speed / TICK_RATE, longest * 1000, bound, jump), flush=True)
        finally:
            if daemon.alive():
                os.kill(pid, signal.SIGCONT)
            tap.close()
            daemon.stop()

    # -- 6: SIGKILL mid-coast -------------------------------------------------------------------

    def sigkill(self):
        f = "sigkill"
        daemon, tap = self.start("sigkill")
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                _, plan, _ = self.flick(daemon, pad)
                time.sleep(0.2)
                sysname = os.path.basename(daemon.wheel)
                before = wheels_in_sysfs()
                self.check(f, "a coast is running, the wheel is in /sys/class/input", plan is not None and
                           os.path.exists("/sys/class/input/" + sysname) and before, "coast and wheel", (plan, before))
                t_kill = mono()
                daemon.proc.send_signal(signal.SIGKILL)
                status = daemon.stop(timeout=10)   # reaps it
                gone = None
                while mono() - t_kill < 5:
                    if not os.path.exists("/sys/class/input/" + sysname) and not wheels_in_sysfs():
                        gone = mono() - t_kill
                        break
                    time.sleep(0.01)
                self.check(f, "killed (status -9)", status == -signal.SIGKILL, -9, status)
                self.check(f, "the kernel removed the virtual wheel (/sys/class/input/%s and its input device)" % sysname,
                           gone is not None, "gone", wheels_in_sysfs())
                if gone is not None:
                    self.figures["sigkill_wheel_gone_ms"] = round(gone * 1000)
                    print("     the wheel was gone from /sys/class/input %.0f ms after SIGKILL (process reaped)"
                          % (gone * 1000), flush=True)
                tap.close()
                daemon2, tap = self.start("sigkill-restart")
                try:
                    opened = daemon2.wait_log(re.escape(pad.devnode) + r" \([^)]*\): touchpad", 20)
                    r, plan, mark = self.flick(daemon2, pad)
                    total = self.coasted_total(daemon2, tap, r, mark, plan)
                    self.check(f, "the next start works: one wheel, a flick coasts (kernel total = plan)",
                               opened is not None and len(wheels_in_sysfs()) == 1 and plan is not None and total == plan[0] != 0,
                               "1 wheel, %s" % (plan and plan[0]), "%d wheels, %d" % (len(wheels_in_sysfs()), total))
                finally:
                    tap.close()
                    self.check(f, "the restarted flickd exits 0 on SIGTERM", daemon2.stop() == 0, 0, daemon2.proc.returncode)
        finally:
            tap.close()
            if daemon.alive():
                daemon.stop(signal.SIGKILL)

    # -- 6b: SIGKILL mid-glide with the touchpad output ------------------------------------------

    def tp_sigkill(self):
        """flickd killed while its virtual fingers move: the kernel destroys the virtual touchpad,
        libinput removes it, and no finger is left down anywhere."""
        f = "tp-sigkill"
        daemon = Flickd(self.args.flickd, self.out, TOUCHPAD_CONFIG, "tp-sigkill")
        tap = daemon.later(TouchTap)
        li = daemon.later(lambda node: DebugEvents(node, os.path.join(self.out, "tp-sigkill-libinput.log")))
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                self.check(f, "flickd created its virtual touchpad", daemon.output == "touchpad", "touchpad", daemon.output)
                r, plan, _ = self.flick(daemon, pad)
                time.sleep(0.25)
                k_release = r.get("k_release") or r["t_release"]
                kinds = [k for _, k in tap.kinds(k_release - 0.05)]
                self.check(f, "the fingers landed and are moving, not lifted", plan is not None and kinds[:1] == ["land"]
                           and "move" in kinds and "lift" not in kinds, "land, move...", kinds[:4] + kinds[-2:])
                sysname = os.path.basename(daemon.wheel)
                t_kill = mono()
                daemon.proc.send_signal(signal.SIGKILL)
                status = daemon.stop(timeout=10)
                gone = None
                while mono() - t_kill < 5:
                    if not os.path.exists("/sys/class/input/" + sysname) and not devices_named(TOUCHPAD_NAME):
                        gone = mono() - t_kill
                        break
                    time.sleep(0.01)
                self.check(f, "killed (status -9)", status == -signal.SIGKILL, -9, status)
                self.check(f, "the kernel removed the virtual touchpad", gone is not None, "gone", devices_named(TOUCHPAD_NAME))
                removed = None
                while mono() - t_kill < 10 and removed is None:
                    removed = next((e for e in li.since(t_kill) if e[1] == "DEVICE_REMOVED"), None)
                    time.sleep(0.05)
                self.check(f, "libinput removed it (DEVICE_REMOVED)", removed is not None, "DEVICE_REMOVED",
                           [e[5] for e in li.since(t_kill)][-3:])
                bad = [e[5] for e in li.since(0) if e[1].startswith(("POINTER_BUTTON", "POINTER_MOTION", "TOUCH_"))]
                self.check(f, "no button (tap), pointer motion or touch event from it", not bad, [], bad[:3])
                listed = subprocess.run(["libinput", "list-devices"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, timeout=60).stdout
                self.check(f, "no flickd touchpad left for libinput (list-devices): no finger can stay down on it",
                           TOUCHPAD_NAME not in listed, "absent", "listed")
                if gone is not None:
                    self.figures["tp_sigkill_touchpad_gone_ms"] = round(gone * 1000)
        finally:
            li.close()
            tap.close()
            if daemon.alive():
                daemon.stop(signal.SIGKILL)

    # -- 4: the configuration file broken while running -----------------------------------------

    GOOD_RATE = 0.990
    NEW_RATE = 0.994
    DEFAULT_RATE = 0.998

    @staticmethod
    def rate_config(rate):
        return "[coast]\ntick_rate = %d\ndeceleration_rate = %s\n[output]\nmode = \"wheel\"\n" % (TICK_RATE, rate)

    def config(self):
        f = "config"
        daemon, tap = self.start("config", self.rate_config(self.GOOD_RATE))
        path = daemon.config_path
        rates = {}
        try:
            with open_pad(MANY_SLOTS, daemon) as pad:
                def measured_rate(label):
                    _, _, mark = self.flick(daemon, pad)
                    planned = plan_with_velocity(daemon, mark)
                    coast_end(daemon, mark, 5)
                    rate = planned and implied_rate(*[planned[0], planned[1][0]])
                    rates[label] = rate and round(rate, 5)
                    return rate

                def check_rate(label, want):
                    rate = measured_rate(label)
                    self.check(f, "%s: planned coasts use deceleration_rate %.3f" % (label, want),
                               rate is not None and abs(rate - want) < 0.0005, want, rate and round(rate, 5))

                check_rate("at start", self.GOOD_RATE)
                good = self.rate_config(self.GOOD_RATE)
                half = good[:good.index("deceleration_rate") + len("deceler")]

                def write(text):
                    with open(path, "w") as fh:
                        fh.write(text)

                for label, damage, why in [
                        ("emptied", lambda: write(""), r"the file is empty"),
                        ("written half-way", lambda: write(half), re.escape(path) + r":3"),
                        ("deleted", lambda: os.remove(path), r"the file is gone")]:
                    mark = daemon.mark()
                    damage()
                    said = daemon.wait_log(r"keeping the running configuration: [^\n]*" + why + r"[^\n]*", 5, mark)
                    self.check(f, "%s: flickd keeps the running configuration and says why" % label, said is not None,
                               "'keeping the running configuration: ... %s'" % why, daemon.text()[mark:][-400:])
                    if said:
                        print("     %s: %s" % (label, said.group(0)), flush=True)
                    check_rate(label, self.GOOD_RATE)
                mark = daemon.mark()
                write(self.rate_config(self.NEW_RATE))
                applied = daemon.wait_log(r"configuration reloaded", 5, mark)
                self.check(f, "a good file written afterwards is applied", applied is not None, "'configuration reloaded'",
                           daemon.text()[mark:][-400:])
                check_rate("rewritten", self.NEW_RATE)
                self.check(f, "flickd is alive", daemon.alive(), "alive", daemon.proc.returncode)
            self.figures["config_rates"] = rates
        finally:
            tap.close()
            daemon.stop()

    # -- 8: udev's queue overflowing -----------------------------------------------------------

    FILLERS = 12

    def udev(self):
        """libudev asks for a 128 MiB receive queue; the kernel caps an unprivileged process at
        net.core.rmem_max. With that lowered to 4 KiB for flickd's start, a dozen devices plugged
        in while it is stopped overflow its queue: the kernel keeps what fits and drops the rest,
        and flickd's next read fails with ENOBUFS."""
        f = "udev"
        rmem = "/proc/sys/net/core/rmem_max"
        with open(rmem) as fh:
            saved = fh.read().strip()
        set_user_acl("/dev/uinput", NOBODY)
        daemon = tap = None
        pads = []
        try:
            with open(rmem, "w") as fh:
                fh.write("4096")
            try:
                daemon, tap = self.start("udev-overflow", binary=self.nobody_wrapper(), workdir=self.public)
                # The hot-plug socket exists once flickd has looked for devices (there are none).
                ready = daemon.wait_log(r"waiting for one to be plugged in", 20)
            finally:
                with open(rmem, "w") as fh:
                    fh.write(saved)
            if not ready:
                raise RuntimeError("flickd did not start watching for devices:\n" + daemon.text()[-600:])
            mark = daemon.mark()
            stop_process(daemon.proc.pid)
            try:
                for _ in range(self.FILLERS):
                    pads.append(vdev.TouchDevice(load(TWO_SLOTS)))
                last = vdev.TouchDevice(load(MANY_SLOTS))
                pads.append(last)
            finally:
                os.kill(daemon.proc.pid, signal.SIGCONT)
            lost = daemon.wait_log(r"hot-plug events were lost", 20, mark)
            opened = daemon.wait_log(re.escape(last.devnode) + r" \([^)]*\): touchpad", 20, mark)
            if opened:
                daemon.wait_output()  # created with the first pad it opened: the tap reads it from now
            time.sleep(0.5)
            log = daemon.text()[mark:]
            nodes = {p.devnode for p in pads}
            seen = {n for n in nodes if re.search(re.escape(n) + r" \([^)]*\): touchpad", log)}
            c = self.check
            c(f, "flickd says the hot-plug events were lost", lost is not None, "a warning", log[-600:])
            c(f, "the last pad, whose event overflowed, is opened", opened is not None, last.devnode, log[-600:])
            c(f, "every pad plugged in while it was stopped is open, each once",
              seen == nodes and all(len(re.findall(re.escape(n) + r" \([^)]*\): touchpad", log)) == 1 for n in nodes),
              len(nodes), "%d: %s" % (len(seen), sorted(nodes - seen)))
            r, plan, fmark = self.flick(daemon, last)
            total = self.coasted_total(daemon, tap, r, fmark, plan)
            c(f, "a flick on it coasts (kernel total = plan)", plan is not None and total == plan[0] != 0,
              plan and plan[0], total)
            removal = daemon.mark()
            for p in pads:
                p.close()
            pads = []
            end = mono() + 20
            while daemon.text()[removal:].count(": removed") < len(nodes) and daemon.alive() and mono() < end:
                time.sleep(0.05)
            removed = daemon.text()[removal:].count(": removed")
            c(f, "flickd is alive, and closed all %d pads when they were removed" % len(nodes),
              daemon.alive() and removed == len(nodes), "alive, %d removed" % len(nodes),
              "%s, %d removed" % ("alive" if daemon.alive() else "exited", removed))
            before, _, after = log.partition("hot-plug events were lost")
            opened_rx = r"\): touchpad"
            self.figures["udev"] = {"pads": len(nodes), "opened_from_queued_events": len(re.findall(opened_rx, before)),
                                    "opened_by_the_rescan": len(re.findall(opened_rx, after))}
            print("     %(pads)d pads plugged in while stopped; %(opened_from_queued_events)d opened from the events that"
                  " fit before the overflow, %(opened_by_the_rescan)d after it" % self.figures["udev"], flush=True)
        finally:
            release_as_nobody(pads, tap)
            if daemon:
                daemon.stop()
                shutil.copy(daemon.log_path, os.path.join(self.out, "udev-overflow.log"))

    # -- 7: another user's session (fast user switching) ------------------------------------------

    SEATS = "/run/systemd/seats"

    def write_seat(self, uid):
        """logind's record of seat0, written as logind writes it: a new file renamed over the old."""
        os.makedirs(self.SEATS, exist_ok=True)
        tmp = os.path.join(self.SEATS, ".#seat0-flickd")
        with open(tmp, "w") as fh:
            fh.write("# This is private data. Do not parse.\nIS_SEAT0=1\nCAN_MULTI_SESSION=1\n"
                     "ACTIVE=c%d\nACTIVE_UID=%d\nSESSIONS=c%d\nUIDS=%d\n" % (uid, uid, uid, uid))
        os.chmod(tmp, 0o644)
        os.rename(tmp, os.path.join(self.SEATS, "seat0"))

    def seat(self):
        f = "seat"
        if os.path.exists(os.path.join(self.SEATS, "seat0")):
            raise RuntimeError("a seat0 file exists already: this guest runs a logind")
        set_user_acl("/dev/uinput", NOBODY)
        daemon = tap = keyboard = None
        pads = []
        try:
            self.write_seat(NOBODY)
            daemon, tap = self.start("seat", binary=self.nobody_wrapper(), workdir=self.public)
            pad = vdev.TouchDevice(load(MANY_SLOTS))
            pads.append(pad)
            # A keyboard, which flickd keeps open to stop coasts: the pause closes it too.
            keyboard = UInput({E.EV_KEY: list(range(E.KEY_ESC, E.KEY_MICMUTE + 1))}, name="e2e seat keyboard",
                              bustype=E.BUS_USB, vendor=0x1234, product=0x567b)
            c = self.check
            opened = daemon.wait_log(re.escape(pad.devnode) + r" \([^)]*\): touchpad", 20)
            c(f, "with nobody's session active, the pad is opened", opened is not None, pad.devnode, daemon.text()[-600:])
            typing = daemon.wait_log(r"(/dev/input/event\d+) \(e2e seat keyboard\): keyboard", 20)
            keys = typing.group(1) if typing else None
            c(f, "and the keyboard (a descriptor on it)", keys is not None and keys in open_descriptors(daemon.proc.pid).values(),
              "an 'e2e seat keyboard: keyboard' line and a descriptor", daemon.text()[-600:])
            daemon.wait_output()
            r, plan, mark = self.flick(daemon, pad)
            total = self.coasted_total(daemon, tap, r, mark, plan)
            c(f, "and a flick coasts (kernel total = plan)", plan is not None and total == plan[0] != 0, plan and plan[0], total)

            mark = daemon.mark()
            self.write_seat(4321)
            paused = daemon.wait_log(r"another user's session is active on the seat \(uid 4321\): flickd pauses", 10, mark)
            closed = daemon.wait_log(re.escape(pad.devnode) + r" \([^)]*\): closed: another user's session is active", 10, mark)
            # flickd closes its devices one by one, the keyboard plugged in last after the pad,
            # each descriptor as the line saying so is written.
            daemon.wait_log(r"\(e2e seat keyboard\): closed: another user's session is active", 10, mark)
            c(f, "another user's session active: flickd says it pauses and closes the pad",
              paused is not None and closed is not None, "both lines", daemon.text()[mark:][-600:])
            give_up = mono() + 2
            fds = open_descriptors(daemon.proc.pid)
            while any(t in (pad.devnode, keys) for t in fds.values()) and mono() < give_up:
                time.sleep(0.05)
                fds = open_descriptors(daemon.proc.pid)
            c(f, "no descriptor on the pad or the keyboard", not any(t in (pad.devnode, keys) for t in fds.values()), "none",
              sorted(set(fds.values())))
            host_start = mono()
            r2, plan2, mark2 = self.flick(daemon, pad)
            time.sleep(1.0)
            # From the flick on: the first coast's last events came just before the pause.
            written = [e for e in tap.between(host_start) if e[1] in (E.REL_WHEEL_HI_RES, E.REL_WHEEL)]
            c(f, "a flick while paused plans no coast and writes nothing", plan2 is None and not written,
              "no plan, no event", "%s, %d events" % (plan2, len(written)))

            mark = daemon.mark()
            self.write_seat(NOBODY)
            back = daemon.wait_log(r"this user's session is active on the seat again", 10, mark)
            reopened = daemon.wait_log(re.escape(pad.devnode) + r" \([^)]*\): touchpad", 10, mark)
            retyping = daemon.wait_log(r"\(e2e seat keyboard\): keyboard", 10, mark)
            c(f, "nobody's session active again: flickd says so and opens the pad and the keyboard",
              back is not None and reopened is not None and retyping is not None, "the three lines",
              daemon.text()[mark:][-600:])
            r3, plan3, mark3 = self.flick(daemon, pad)
            total3 = self.coasted_total(daemon, tap, r3, mark3, plan3)
            c(f, "and a flick coasts again (kernel total = plan)", plan3 is not None and total3 == plan3[0] != 0,
              plan3 and plan3[0], total3)
            c(f, "flickd is alive", daemon.alive(), "alive", "exited")
        finally:
            if keyboard:
                keyboard.close()
            release_as_nobody(pads, tap)
            shutil.rmtree(self.SEATS, ignore_errors=True)
            if daemon:
                daemon.stop()
                shutil.copy(daemon.log_path, os.path.join(self.out, "seat.log"))

    # -- 8: security ----------------------------------------------------------------------------

    PHRASE = "correct horse battery staple 1984"

    def type_phrase(self, keyboard):
        codes = []
        for ch in self.PHRASE:
            code = E.KEY_SPACE if ch == " " else E.ecodes["KEY_" + ch.upper()]
            codes.append(code)
            keyboard.write(E.EV_KEY, code, 1)
            keyboard.syn()
            keyboard.write(E.EV_KEY, code, 0)
            keyboard.syn()
            time.sleep(0.01)
        return codes

    def security(self):
        self.keyboard_privacy()
        self.sandbox_score()
        self.unprivileged()

    def keyboard_privacy(self):
        f = "security"
        daemon, tap = self.start("keyboard")
        caps = {E.EV_KEY: list(range(E.KEY_ESC, E.KEY_MICMUTE + 1))}
        keyboard = UInput(caps, name="e2e keyboard", bustype=E.BUS_USB, vendor=0x1234, product=0x5678)
        codes = []
        try:
            watched = daemon.wait_log(r"\(e2e keyboard\): keyboard", 10)
            self.check(f, "flickd opened the keyboard (to stop coasts)", watched is not None, "an 'e2e keyboard' line",
                       daemon.text()[-300:])
            time.sleep(0.5)
            mark = daemon.mark()
            switches = daemon.context_switches()
            codes += self.type_phrase(keyboard)
            time.sleep(0.3)
            woken = daemon.context_switches() - switches
            self.check(f, "typing while idle: flickd's log unchanged", daemon.mark() == mark, "no new output",
                       daemon.text()[mark:][:300])
            self.check(f, "typing while idle does not wake flickd (keyboards are watched only during a coast)",
                       woken <= 1, "<= 1 context switch", woken)
            self.figures["idle_typing_context_switches"] = woken
            with open_pad(MANY_SLOTS, daemon) as pad:
                _, plan, flick_mark = self.flick(daemon, pad)
                mark = daemon.mark()
                time.sleep(0.2)
                codes += self.type_phrase(keyboard)
                end = coast_end(daemon, flick_mark, 2)
                time.sleep(0.3)
                lines = [l for l in daemon.text()[mark:].splitlines() if l.strip()]
                # The coast's end and, after it, how punctually its timer drove it (timings only).
                told = [l for l in lines if "the coast's timer woke" not in l]
                self.check(f, "typing during a coast only ends it: one log line, reason key (and the coast's timer line)",
                           plan is not None and len(told) == 1 and len(lines) <= 2 and end is not None and end[0] == "key",
                           ["coast ended ...: key", "the coast's timer woke ..."], lines[:4])
        finally:
            keyboard.close()
            tap.close()
            daemon.stop()
        log = daemon.text()
        names = set()
        for code in set(codes):
            name = E.KEY[code]
            for n in (name if isinstance(name, list) else [name]):
                names.add(n)
                if len(n) > 6:
                    names.add(n[4:])          # SPACE, ... (bare letters are everywhere)
        leaks = [n for n in sorted(names) if n in log]
        leaks += [p for p in ("EV_KEY", "KEY_") if p in log]
        leaks += ["%s %d" % (w, code) for code in set(codes) for w in ("code", "key", "keycode")
                  if re.search(r"\b%s[ =:]+%d\b" % (w, code), log)]
        leaks += typed_words_in(self.PHRASE, log)
        self.check(f, "no key code, key name or typed word in flickd's --verbose output (%d keys typed)" % (2 * len(self.PHRASE)),
                   not leaks, [], leaks)

    def sandbox_score(self):
        f = "security"
        unit = os.path.join(REPO, "systemd", "flickd.service")
        command = ["systemd-analyze", "security", "--offline=yes", unit]
        p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO)
        line = next((l.strip() for l in p.stdout.splitlines() if "Overall exposure level" in l), None)
        m = line and re.search(r"level for \S+: (\d+\.\d) (\w+)", line)
        score = float(m.group(1)) if m else None
        print("     $ systemd-analyze security --offline=yes systemd/flickd.service\n     %s" % line, flush=True)
        # 5.9 MEDIUM was measured when the unit's sandboxing was written; weakening it fails here.
        self.check(f, "the user unit's exposure (systemd-analyze security --offline=yes) is at most 5.9",
                   score is not None and score <= 5.9, "<= 5.9", line or p.stdout[-400:])
        self.figures["systemd_analyze_security"] = line

    def nobody_wrapper(self):
        """A script that runs flickd as nobody:nogroup with the input group: the caller gives
        nobody /dev/uinput (set_user_acl) as logind's uaccess gives the seat's user."""
        wrapper = os.path.join(self.public, "flickd-as-nobody")
        with open(wrapper, "w") as fh:
            fh.write('#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --groups=input %s "$@"\n' % self.args.flickd)
        os.chmod(wrapper, 0o755)
        return wrapper

    def unprivileged(self):
        """flickd as nobody, given access as the install does it: the uinput ACL that logind's
        uaccess gives the seat's user, and the input group for the touchpads."""
        f = "security"
        wrapper = self.nobody_wrapper()
        set_user_acl("/dev/uinput", NOBODY)
        daemon = li = tap = None
        try:
            daemon, tap = self.start("nobody", binary=wrapper, workdir=self.public)
            status = proc_status(daemon.proc.pid)
            ids = status.get("Uid", "").split() + status.get("Gid", "").split()
            self.check(f, "flickd runs as nobody:nogroup (+ input), no capabilities",
                       ids == ["65534"] * 4 + ["65534"] * 4 and int(status.get("CapEff", "1"), 16) == 0
                       and int(status.get("CapPrm", "1"), 16) == 0,
                       "uid/gid 65534, CapEff 0", {k: status.get(k) for k in ("Uid", "Gid", "Groups", "CapEff")})
            li = daemon.later(lambda node: Libinput(node, os.path.join(self.out, "nobody-libinput.log")))
            with open_pad(MANY_SLOTS, daemon) as pad:
                host_start = mono()
                r, plan, mark = self.flick(daemon, pad)
                total = self.coasted_total(daemon, tap, r, mark, plan)
                time.sleep(0.3)
                seen = sum(s[1] for s in li.since(host_start))
                self.check(f, "as nobody a flick still coasts (kernel total = plan, libinput scrolls)",
                           plan is not None and total == plan[0] != 0 and abs(seen + total) <= max(1, 0.01 * abs(total)), "%s, libinput %s" % (
                               plan and plan[0], plan and -plan[0]), "%d, libinput %s" % (total, seen))
        finally:
            remove_acl("/dev/uinput")
            for x in (li, tap):
                if x:
                    x.close()
            if daemon:
                daemon.stop()
                shutil.copy(daemon.log_path, os.path.join(self.out, "nobody.log"))


# The faults in the order they run, each the Faults method of its name with "-" as "_".
# uinput first: rmmod needs no uinput device to exist.
FAULTS = ("uinput", "hotplug", "overrun", "stall", "sigkill", "tp-sigkill", "config", "udev", "seat", "security")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--flickd", required=True, help="the flickd binary")
    p.add_argument("--out", default=os.environ.get("E2E_RESULTS") or os.environ.get("E2E_TMP", "/tmp"))
    p.add_argument("--only", default="", help="comma-separated fault names: " + ", ".join(FAULTS))
    p.add_argument("--cycles", type=int, default=100, help="hot-plug cycles (default 100)")
    args = p.parse_args()
    only = only_names(p, args.only, FAULTS)
    args.flickd = os.path.abspath(args.flickd)
    args.out = os.path.join(os.path.abspath(args.out), "faults")
    os.makedirs(args.out, exist_ok=True)
    runner = Faults(args)
    faults = [(name, getattr(runner, name.replace("-", "_"))) for name in FAULTS]
    began = mono()
    runner.checks.run_each(faults, only, "fault")
    runner.figures["seconds"] = round(mono() - began, 1)
    print("figures: " + json.dumps(runner.figures), flush=True)
    with open(os.path.join(args.out, "faults-figures.json"), "w") as fh:
        json.dump(runner.figures, fh, indent=2)
    shutil.rmtree(runner.public, ignore_errors=True)
    runner.checks.exit("faults")


if __name__ == "__main__":
    main()
