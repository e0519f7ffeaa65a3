#!/usr/bin/python3
"""What real apps show: flicks on a virtual touchpad, read by real display servers and toolkits.

Runs INSIDE the e2e guest (as root; see Tests/E2E/README.md), with --mem 2048:
    Tests/E2E/guest run --mem 2048 --timeout 1800 --results DIR -- /usr/bin/python3 \
        Tests/E2E/apps/harness.py --flickd .build/debug/flickd [--servers xorg,sway,kwin,mutter]
        [--toolkits gtk4,gtk3,qt6,chromium] [--also SERVER:TOOLKIT ...] [--modes none,wheel,touchpad]
        [--also-modes MODES]
        [--speeds 60,150,400] [--directions vertical,horizontal] [--flicks 5] [--check] [--out DIR]
        [--table FILE] [--variant NAME=BINARY ...] [--x-trace]

Per server (Xorg with the dummy video driver and the libinput input driver; sway headless with
its libinput backend, run by an unprivileged user through seatd; KWin 5.27 with its DRM backend
on the guest's --gpu display device, through fake_logind.py: the guest must be booted with
--gpu for it; "kwin-natural": the same with the real pad natural in KWin's kcminputrc and flickd
told so; mutter 43 (GNOME's compositor, without GNOME Shell) with its native backend, the same
way and with GNOME's default touchpad settings (natural scrolling on for every touchpad);
Weston 10 (the reference compositor, libweston) with its DRM backend and kiosk-shell, the same
way; "weston-natural": the same with natural scrolling on in weston.ini, which flickd does not
read; "sway-natural": sway with an `input <identifier>` rule making the real pad natural, and
flickd given SWAYSOCK; "xorg-natural": Xorg with Xfce's settings daemon and the real pad made
natural by `xinput set-prop` on it alone, and flickd given the session's variables;
"xorg-synaptics": Xorg with the synaptics X driver (Debian's, unpacked under .cache by
scripts/install-deps --apps) taking the touchpads, which glides by itself and which flickd
must leave to that glide;
"sway-xwayland", "kwin-xwayland", "mutter-xwayland": the apps as X11 clients of that
compositor's Xwayland) and per toolkit app
(Tests/E2E/apps/app.py: GTK4, GTK3, Qt6 widgets), one app is started and reused: for each
flickd output mode ("none" = flickd not running; "wheel", "touchpad" = flickd run with
`[output] mode = ...`; "default" = flickd with no [output] table), speed (mm/s) and direction,
--flicks two-finger flicks are played on a virtual Synaptics T440 touchpad (vdev.py), the
content is scrolled back to the middle between flicks, and ONE JSON line is printed per
scenario with the medians over the flicks:

  travel_mm           how far the fingers move (flick_plan: less on a pad too short for it)
  speed_before_px_s   the finger's content speed: over the last 50 ms of the finger phase, up
                      to the finger's last event the app applied (a pad frame before the
                      release, the kernel's time of the lift frame), from the app's offset
                      log (piecewise linear, on the input's clock)
  speed_after_px_s    content speed over the first 100 ms after the release, from where the
                      content stood at the release
  ratio               speed_after / speed_before, per flick
  gap_ms              the largest gap between offset changes in the first 300 ms after the
                      release (counted from the last change before it); infinite (JSON
                      Infinity) when the content never moved after the finger's last change
  frame_ms            the app's frame period: median interval between its paints in the finger
                      phase; a flick with fewer than three paints there gets the intervals pooled
                      over the scenario's finger phases (frame_pooled_flicks counts them)
  gap_frames          gap_ms / frame_ms, per flick
  finger_gap_ms       the largest gap between offset changes in the finger phase (its first
                      change to its last, on the app's clock): the app's own stalls while only
                      the real pad drives it, the yardstick for gap_ms where an app applies its
                      input in bursts
  coast_step_px       the largest single offset step after the release (None: no change after
                      it; gap_ms is then infinite)
  finger_step_px      the median offset step of the finger phase
  step_ratio          coast_step_px / finger_step_px, per flick
  own_after_flickd    offset changes made by the app's own kinetic glide (GTK's, detected in
                      the app, and GTK's changes with no input event: own_glide_changes) after
                      flickd's first output event (mode none: after the release); a flick
                      flickd did not coast (it wrote nothing) has no figure
  distance_px         content travel after the release until it rests, the finger's way (0
                      for a glide that ends behind where it started); without the release on
                      the app's input clock, after the kernel's release + the server's input
                      slack (distance_cut_ms; the row's distance_from says which)
  distance_fraction   distance_px / (speed_before_px_s / k), k of flickd's default model; after
                      a cut, against the model's distance from the cut on, e^(-k*cut) of that
  gtk_dropped_px      GTK 4 only: the offset the first delivered scroll event of the glide's
                      scroll sequence would have moved; GTK 4.8's ScrolledWindow ignores it
                      (0: applied); ratio_with_dropped: the ratio had it been applied
  x_switch_lost       --x-trace, Xorg only: of flickd's scroll events after the first (the one
  x_switch_ms         that makes the server switch the master pointer to flickd's device), how
                      many the server handled before the first one the app applied, and the
                      server time from the switch to that one (x_switches_lost, _ms: per flick;
                      read_x_trace, x_switch)
  x_backlog_ms        --x-trace, Xorg only: the finger's motion the app had not applied when the
                      switch came (x_switch)
  x_finger_lost       --x-trace, Xorg only, every mode: of the finger's scroll events, how many the
                      server handled before the first one the app applied (after a glide from
                      flickd's device, the first switches back to the real pad; x_fingers_lost:
                      per flick; x_finger_lost)
and, over all flicks of the scenario: turned (flicks played, measured or not, whose content went
back after the finger's last change by more than TURN_FRACTION of the finger phase's travel: a
glide against the finger), flickd_bad_events (POINTER_BUTTON, tap, POINTER_MOTION or
GESTURE_* other than hold events `libinput debug-events` reports for flickd's own virtual
devices), flickd_hold_gestures (GESTURE_HOLD_*, counted apart), libinput_touch_jumps,
libinput_dropped (times libinput logged that it lost events of flickd's devices: SYN_DROPPED),
libinput_limited (libinput had stopped logging such losses: its rate limit) and libinput_behind
(its reader had not caught up when counted; LibinputWatch), edge_hits
(flicks whose glide reached the end of the content: their distance is cut short),
discarded_no_stop (Xorg under --x-trace, only when some: flicks played again because the
trace had no scroll stop within 300 ms of the kernel's release, as flicks written late are),
and no_input_clock ({"flicks": how many, "reasons": [...]}; only when some had none): the flicks
whose app input times are a server's own (Xwayland's; Xorg's without --x-trace or whose X
tracer did not start or stopped) with no release known on that clock, which give no ratio, gap_ms,
gap_frames, coast_step_px, step_ratio or handover_ms (SPLIT_FIGURES; their goals are "not
measurable: ... no input clock (why)" when no flick had the clock) and whose distance counts from
the kernel's release + the slack (distance_from: where the row's distances count from).

Files in --out, beside the apps' logs: per flickd run, its log (flickd-MODE-MS.log) and per
device of its own, what `libinput debug-events` printed (.libinput-N) and every event the
device wrote with the kernel's time (.frames-N: seconds of CLOCK_MONOTONIC, type, code, value;
EV_SYN left out); with --x-trace, per Xorg-type server xi2-trace-SERVER.log.

With --check (see Checks and check_scenario; docs/APPS.md): ASSERTED checks on every scenario
with flickd ("ok"/"FAIL"; no bad event, no own glide after flickd's first event for an app
that glides by itself, distance after the release >= 0.2 of the model's, flickd's glide ended
after each flick), the negative control (Qt6 without flickd stops dead: the distance check must
fail there) and issue 11's GOALS ("goal met:"/"goal NOT met:", never
failing), "not measurable:" where no flick could be measured; the last lines are
"apps goals: N met, M not met, K not measurable" (goals only), "apps checks not measurable: K"
and "apps: N passed, M failed". After each scenario and extra check flickd, the app and the
display server must still run, and each flickd must exit with status 0 on SIGTERM at its stop.
The exit status is non-zero when an asserted check fails or, with or without --check, when the
harness breaks (a server, app or scenario raised) or flickd, the app or the server ended mid-run.
"""

import argparse
import glob
import grp
import json
import math
import os
import pwd
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
E2E = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(E2E))
sys.path.insert(0, E2E)
import vdev  # noqa: E402
import evdev  # noqa: E402
from evdev import ecodes as E  # noqa: E402

# The repository's own description of a Synaptics T440 (Tests/Fixtures/devices/synaptics-t440.device,
# found by vdev's bare-name resolution): the harness needs nothing beside the repository.
PAD = os.environ.get("E2E_APPS_PAD") or "synaptics-t440"
USER = "flickapp"
PYTHON = "/usr/bin/python3"
MAX_TRAVEL_MM = 40.0
# A pad with INPUT_PROP_TOPBUTTONPAD (the Lenovo *40 series) has software buttons along its top
# edge: flicks keep this far below it. And this far from every edge (vdev refuses 2 mm).
TOP_BUTTONS_MM = 10.0
EDGE_MARGIN_MM = 3.0

# Goals of issue 11, point 3.
GOAL_RATIO = (0.85, 1.15)
GOAL_GAP_FRAMES = 1.5
GOAL_STEP_RATIO = 2.0
# Each goal's test of a row's figure, by the row's key: the goal lines and the table's summary
# judge alike.
GOAL_MET = {
    "ratio": lambda v: GOAL_RATIO[0] <= v <= GOAL_RATIO[1],
    "gap_frames": lambda v: v <= GOAL_GAP_FRAMES,
    "step_ratio": lambda v: v <= GOAL_STEP_RATIO,
}
# Issue 11 judges each goal on the median of at least this many flicks (emulation is noisy): a
# figure fewer flicks gave (--flicks, when more, sets the number) is not measurable.
GOAL_MIN_FLICKS = 5
# Server and toolkit pairs whose apps docs/APPS.md says cannot be measured in the guest, with or
# without flickd: chromium (the emulator writes its flicks late) and mutter's Xwayland (the apps
# applied their input about once a second). A flickd scenario with no flick measured fails
# elsewhere when the app saw none of the flicks written on time (check_scenario).
UNMEASURABLE_PAIRS = (("*", "chromium"), ("mutter-xwayland", "*"))
# Asserted: with flickd the content keeps moving after the release: its travel after the release
# is at least this fraction of what flickd's model predicts (v0/k, v0 the content speed before the
# release). Without flickd Qt widgets stop dead (0); the fractions measured with flickd's default
# output are in docs/APPS.md (Rationale there).
ASSERT_DISTANCE_FRACTION = 0.2
# Asserted: with flickd no glide runs against the finger. A flick "turned" when the content,
# after the finger's last change, went back by more than this fraction of the finger phase's
# travel (a glide the wrong way runs back by more than the whole finger phase; a stale
# valuator step seen once under Xorg + Qt6 was 67 px of ~1500).
TURN_FRACTION = 0.5
# flickd's default deceleration: d = 0.998 per ms, k = -1000 ln d (1/s).
MODEL_K_PER_S = -1000.0 * math.log(0.998)
# flickd's default coast.min_speed (mm/s): slower releases do not coast. A scenario at twice that
# or more in which flickd coasted none of the flicks measured fails (asserted); at 60 mm/s the
# emulator's late last frames can make every release read under it (docs/APPS.md).
FLICKD_MIN_SPEED_MM_S = 50.0
# Evdev codes of a finger's or the wheel's position (DevTap: a motion of flickd's devices).
POSITION_CODES = (E.ABS_X, E.ABS_Y, E.ABS_MT_POSITION_X, E.ABS_MT_POSITION_Y)
# The touch-stop check (--touch-stop): a finger lands on the real pad this long after the
# release, while flickd's virtual fingers carry the coast, and rests this long (no tap).
TOUCH_STOP_AFTER_S = 0.15
TOUCH_STOP_HOLD_S = 0.3
# flickd stops its virtual fingers within this long of the touch's kernel stamp (its reaction
# time under emulation; the kernel clock on both sides).
TOUCH_STOP_WITHIN_S = 0.05
# Measured tries the touch-stop check judges (fewer: not measurable; a flickd that ended after
# the first try once passed on that one).
TOUCH_STOP_TRIES = 3
# The quick-flicks check (--quick-flicks): this many flicks down, each next one landing this long
# after the last release (the 8th or 9th glide of such a series was cut at the virtual pad's
# margin and the later ones moved the content 0-2 px, before flickd landed its fingers again);
# each must glide on in the app by at least this fraction of its finger phase's motion. Measured
# with the fix: 0.25-0.68 under Xorg + GTK3 (its changes stamped with the next flick's events
# carry part of the glide), 0.26-1.22 under Xorg + Qt6 (besides glides it lost whole at its
# switches of device: run_quick_flicks), 1.0-2.3 on sway (boost).
QUICK_FLICKS = 10
QUICK_FLICK_GAP_S = 0.3
QUICK_GLIDE_FRACTION = 0.1
# The longest an app's input-driven changes may come apart (median over a quick series, by their
# input times) for its glides to be told from the next flick's finger phase: half the time from
# a release to the next landing. GTK4 under Xorg in the guest applied its input every ~210 ms,
# one merged event carrying a glide's start and the next flick's finger motion; GTK4 on sway
# every ~90 ms, GTK3 every ~10 ms.
QUICK_COARSEST_INPUT_S = QUICK_FLICK_GAP_S / 2
# How long after the last flick's release its glide is counted (no landing ends it; the next
# check starts seconds later). A sway + Qt6 lagging 1.7 s behind its input in a CI run applied
# the first 480 ms of that glide as one change of a page (Qt's limit per wheel event), stamped
# 500 ms after the release: a window of QUICK_FLICK_GAP_S saw no glide at all.
QUICK_LAST_GLIDE_S = 1.0
# The stop-and-scroll check (--stop-scroll): STOP_SCROLL_AFTER_S after a flick's release two
# fingers land on the real pad and scroll on by hand, down at STOP_SCROLL_SPEED mm/s for
# STOP_SCROLL_S, as a user who stops a glide and scrolls on; the stopped virtual fingers' settle
# frames and lift would come during that scroll. The same scroll after the fingers rested
# STOP_SCROLL_REST_S first is the yardstick (the virtual fingers lifted meanwhile: a hand's two
# fingers hold their settle frames back up to 1 s, then they settle for 100 ms and rest 200 ms),
# STOP_SCROLL_TRIES of each; the scroll's motion in the app must reach STOP_SCROLL_FRACTION of
# the yardstick's.
STOP_SCROLL_AFTER_S = 0.15
STOP_SCROLL_SPEED = 30.0
STOP_SCROLL_S = 0.8
STOP_SCROLL_REST_S = 1.5
STOP_SCROLL_TRIES = 3
STOP_SCROLL_FRACTION = 0.85
# Virtual fingers stopped while moving rest 250 ms, move one device unit three times 50 ms apart
# (the settle frames: a browser then starts no fling of its own at the lift; docs/DESIGN.md) and
# rest 200 ms again before the lift. A motion this long after the one before it is the first of
# them, not the coast's; at most SETTLE_FRAMES motions follow it.
SETTLE_GAP_S = 0.2
SETTLE_FRAMES = 3
# Input-driven changes stamped this long from the first settle frame on are the settle frames'
# own (the last comes 100 ms after the first, the lift 300 ms after it).
SETTLE_OWN_S = 0.25
# The toolkits whose apps glide by themselves and, with a touchpad's input, make no other offset
# change outside an input event's handling: such a change counts as their glide's
# (own_glide_changes).
GLIDING_TOOLKITS = ("gtk3", "gtk4")
# The toolkits whose apps have no glide of their own: without flickd (mode none) their content
# stops dead at the release, unless the X driver glides (XorgSynaptics.DRIVER_GLIDES). That run
# is the negative control of the "keeps moving" check: it must fail there (check_scenario).
STOP_DEAD_TOOLKITS = ("qt6",)
# How late chromium's own input times may be (App.input_clock_slack_s).
CHROMIUM_INPUT_SLACK_S = 0.05
# A scenario is not measurable when this many flicks written on time gave no figures and none did
# (the app saw fewer than two finger-driven changes, e.g. GTK4 under Xorg painting every ~170 ms).
GIVE_UP_AFTER = 4


def mono():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def log(msg):
    print("# " + msg, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------ display servers ---

class Server:
    name = "?"
    # How much later than the kernel's stamp an input event's time in the app can be: sway passes
    # libinput's kernel timestamps on; Xorg stamps events with its own clock when it reads them,
    # which under emulation was seen up to ~35 ms after the kernel's stamp. (Under Xorg the
    # touch-stop check rests on flickd's devices, read with kernel stamps, and on the toolkit's
    # own glide; the app's input times only catch changes far later than flickd's last motion.)
    input_clock_slack_s = 0.002
    # Why the apps' input times under this server are on a clock whose release the harness does
    # not know, or None when they are the kernel's (libinput's stamps, passed on by the Wayland
    # compositors). A server that stamps the events itself (Xorg when it reads them, Xwayland
    # when it handles the compositor's) places the finger's last events after the kernel's
    # release: split there, a finger change stamped a few ms after it counts as glide, and the
    # speed ratio, the gap and the step goals measure the finger's backlog (measure()). Under
    # Xorg --x-trace gives the release on the server's clock (x_input_clock).
    NO_INPUT_CLOCK = None

    def app_env(self):
        raise NotImplementedError

    def app_user(self):
        return None

    def place_pointer(self):
        pass

    def set_flickd_env(self, **values):
        """Environment for flickd, which inherits the harness's (class Flickd); restore_env()
        puts the harness's back when the server stops."""
        self.saved_env = {k: os.environ.get(k) for k in values}
        os.environ.update(values)

    def restore_env(self):
        for k, v in getattr(self, "saved_env", {}).items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        self.saved_env = {}

    def stop(self):
        for p in reversed(self.procs):
            end_process(p, 5)

    # The display server's own process (Xorg, sway, the DRM compositors' dbus-run-session,
    # which ends with the compositor); its helpers (seatd, fake_logind, xi2_trace.py, ...) are
    # not asked about.
    display_proc = None

    def ended(self):
        """Why the display server no longer runs, or "" while it runs."""
        proc = self.display_proc
        if proc is None or proc.poll() is None:
            return ""
        return "%s exited with status %s" % (self.name, exit_text(proc.returncode))


def exit_text(status):
    """A Popen returncode as a person reads it: "1", "-11 (SIGSEGV)"."""
    if status is not None and status < 0:
        try:
            return "%d (%s)" % (status, signal.Signals(-status).name)
        except ValueError:
            pass
    return str(status)


def end_process(proc, timeout):
    """SIGTERM to `proc` if it runs, SIGKILL after `timeout` s; waits for its end."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Xorg(Server):
    """Xorg with the dummy video driver; the stock libinput config picks up devices via udev."""
    name = "xorg"
    input_clock_slack_s = 0.15
    NO_INPUT_CLOCK = "Xorg stamps the app's input events when it reads them; without --x-trace its time of the release is not known"
    # Whether the touchpad's driver posts a scroll stop at the lift (xf86-input-libinput does:
    # zero valuators), which the trace finds as the release: a flick whose trace lacks it was
    # read too late and is played again (run_scenario).
    POSTS_SCROLL_STOP = True
    CONF = """
Section "Device"
    Identifier "dummy"
    Driver "dummy"
    VideoRam 16384
EndSection
Section "Monitor"
    Identifier "monitor"
    HorizSync 5.0 - 1000.0
    VertRefresh 5.0 - 200.0
    Modeline "800x600" 40.0 800 840 968 1056 600 601 605 628
EndSection
Section "Screen"
    Identifier "screen"
    Device "dummy"
    Monitor "monitor"
    DefaultDepth 24
    SubSection "Display"
        Depth 24
        Modes "800x600"
        Virtual 800 600
    EndSubSection
EndSection
Section "ServerFlags"
    Option "AutoAddGPU" "false"
EndSection
"""

    def __init__(self, work, conf_extra="", arguments=()):
        self.procs = []
        conf = os.path.join(work, "xorg.conf")
        with open(conf, "w") as f:
            f.write(self.CONF + conf_extra)
        self.log_path = os.path.join(work, "xorg.log")
        holder = x_display_holder(1)
        if holder:
            raise RuntimeError("display :1 is held by process %d (a server left running): its socket would "
                               "answer for this one" % holder)
        out = open(os.path.join(work, "xorg.out"), "w")
        self.procs.append(subprocess.Popen(
            ["Xorg", ":1", "-config", conf, "-logfile", self.log_path, "-nolisten", "tcp", "-noreset",
             "-novtswitch", "-sharevts"] + list(arguments) + ["vt1"], stdout=out, stderr=subprocess.STDOUT))
        self.display_proc = self.procs[0]
        deadline = mono() + 180
        while not os.path.exists("/tmp/.X11-unix/X1"):
            if mono() > deadline or self.procs[0].poll() is not None:
                raise RuntimeError("Xorg did not start:\n" + open(os.path.join(work, "xorg.out")).read()[-2000:])
            time.sleep(0.1)

    def app_env(self):
        return {"DISPLAY": ":1", "GDK_BACKEND": "x11", "QT_QPA_PLATFORM": "xcb"}

    def start_x_trace(self, keep_as):
        """Records the server's scroll events, with their event times (xi2_trace.py), in the
        guest's own /tmp (the results directory is a 9p mount: a write per event there would load
        the emulator); stop() keeps a copy at `keep_as`."""
        path = os.path.join(tempfile.mkdtemp(prefix="flickd-x-trace-"), os.path.basename(keep_as))
        self.x_trace_path, self.x_trace_keep = path, keep_as
        self.procs.append(subprocess.Popen(
            [sys.executable, os.path.join(HERE, "xi2_trace.py"), path], env=dict(os.environ, DISPLAY=":1"),
            stdout=open(path + ".out", "w"), stderr=subprocess.STDOUT))
        # run_scenario checks it is still running before each flick's trace is read.
        self.x_trace_proc = self.procs[-1]
        # Why the tracer is not running (run_scenario says so on each flick), or None; and
        # whether it stopped after it started (x_tracer_gone).
        self.x_trace_failed, self.x_trace_stopped = None, False
        deadline = mono() + 10
        while not read_x_trace(path)[0]:
            if mono() > deadline or self.procs[-1].poll() is not None:
                with open(path + ".out", errors="replace") as out:
                    self.x_trace_failed = out.read().strip()[-500:] or "it wrote nothing in 10 s"
                log("--x-trace: no trace (%s)" % self.x_trace_failed)
                break
            time.sleep(0.1)

    def stop(self):
        Server.stop(self)
        if getattr(self, "x_trace_path", None):
            for suffix in ("", ".out"):
                if os.path.exists(self.x_trace_path + suffix):
                    shutil.copyfile(self.x_trace_path + suffix, self.x_trace_keep + suffix)

    def input_devices(self):
        try:
            text = open(self.log_path, errors="replace").read()
        except OSError:
            return ""
        return "\n".join(l for l in text.splitlines() if "libinput" in l and "Adding" in l or "Using input driver" in l)


def x_tracer_gone(server):
    """Marks the X tracer failed (x_trace_failed, x_trace_stopped) when it has exited since it
    started: its trace ends there, and every later flick, with no scroll stop in it, would be
    played again as one whose lift the server read late. Its flicks are measured without the
    clock instead, as when the tracer did not start."""
    proc = getattr(server, "x_trace_proc", None)
    if proc is None or getattr(server, "x_trace_failed", None) or proc.poll() is None:
        return
    try:
        with open(server.x_trace_path + ".out", errors="replace") as out:
            output = out.read().strip()[-500:]
    except OSError:
        output = ""
    server.x_trace_failed = "exit status %s%s" % (exit_text(proc.returncode), ": " + output if output else "")
    server.x_trace_stopped = True
    log("--x-trace: the tracer stopped (%s)" % server.x_trace_failed)


def x_display_holder(number):
    """The process that holds X display `number` (its lock file names a running one), or None."""
    pid = None
    try:
        with open("/tmp/.X%d-lock" % number) as lock:
            pid = int(lock.read().strip())
        os.kill(pid, 0)
        return pid
    except PermissionError:  # running, as another user (or a lock file not readable: None)
        return pid
    except (OSError, ValueError):
        return None


class XwaylandApps:
    """The apps as X11 clients of the compositor's Xwayland (GDK_BACKEND=x11,
    QT_QPA_PLATFORM=xcb): what X11-only apps get on a Wayland desktop. The compositor reads the
    pads through libinput and passes scrolling to Xwayland as Wayland axis events; Xwayland has
    one X pointer device for all of it (xwayland-pointer), not one per pad as Xorg has.
    --x-trace does not apply: Xwayland sends raw events only to the client with the pointer's
    focus. Call note_x_sockets() before the compositor starts and wait_for_xwayland() after."""
    # Xwayland stamps the X events with its own clock when it handles the compositor's (as Xorg
    # does when it reads the device), and under emulation it handles them in bursts.
    input_clock_slack_s = Xorg.input_clock_slack_s
    # Nor can --x-trace give one: besides the raw events, Xwayland posts nothing at the
    # compositor's axis_stop (no zero valuator as xf86-input-libinput's) and has one pointer
    # device for the pad's scrolls and flickd's.
    NO_INPUT_CLOCK = ("Xwayland stamps the app's input events when it handles them, and its time of the release is "
                      "not known: it posts no scroll stop, and sends raw events only to the focused client")
    # The compositor puts the X11 sockets there: the directory an X server running as root
    # would have made.
    X11_UNIX = "/tmp/.X11-unix"
    XWAYLAND_WAIT_S = 120
    # The Xauthority file the compositor writes in the user's runtime directory for its Xwayland,
    # a glob pattern (None: Xwayland asks for none).
    XAUTHORITY = None

    def note_x_sockets(self):
        os.makedirs(self.X11_UNIX, exist_ok=True)
        os.chmod(self.X11_UNIX, 0o1777)
        self.x_before = self.x_sockets()

    def x_sockets(self):
        """Each X11 socket's name and identity: a server of the boot run before may have left a
        socket of that name behind, which the compositor then makes anew."""
        found = {}
        for name in os.listdir(self.X11_UNIX):
            try:
                st = os.stat(os.path.join(self.X11_UNIX, name))
            except OSError:
                continue
            found[name] = (st.st_ino, st.st_mtime_ns)
        return found

    def wait_for_xwayland(self):
        """Sets self.display to the display the compositor took (its new socket)."""
        deadline = mono() + self.XWAYLAND_WAIT_S
        self.display = None
        while mono() < deadline and self.procs[-1].poll() is None:
            new = sorted(n for n, identity in self.x_sockets().items()
                         if n.startswith("X") and self.x_before.get(n) != identity)
            if new:
                self.display = ":" + new[0][1:]
                return
            time.sleep(0.1)
        raise RuntimeError("%s started no Xwayland:\n%s" % (self.name, open(self.log_path, errors="replace").read()[-3000:]))

    def app_env(self):
        env = {"XDG_RUNTIME_DIR": self.runtime, "DISPLAY": self.display, "GDK_BACKEND": "x11",
               "QT_QPA_PLATFORM": "xcb", "HOME": "/tmp"}
        if self.XAUTHORITY:
            cookies = sorted(glob.glob(os.path.join(self.runtime, self.XAUTHORITY)), key=os.path.getmtime)
            if cookies:
                env["XAUTHORITY"] = cookies[-1]
        return env


class WaylandServer(Server):
    """A Wayland compositor and its apps, run as an unprivileged user (sway, KWin, mutter)."""

    def setup_user(self):
        """The unprivileged user a Wayland compositor and its apps run as (sway and KWin refuse
        root or need a session of their own), and its XDG_RUNTIME_DIR."""
        if subprocess.run(["id", USER], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "-M", "-G", "video,input", USER], check=True)
        pw = pwd.getpwnam(USER)
        self.uid, self.gid = pw.pw_uid, pw.pw_gid
        self.video_gid = int(subprocess.run(["getent", "group", "video"], capture_output=True, text=True,
                                            check=True).stdout.split(":")[2])
        self.runtime = "/run/user/%d" % self.uid
        os.makedirs(self.runtime, exist_ok=True)
        os.chown(self.runtime, self.uid, self.gid)
        os.chmod(self.runtime, 0o700)

    def setpriv(self, input_group=False):
        """The command prefix that runs a program as the user; `input_group`: also in the
        input group (flickd reads the touchpads through it)."""
        groups = [self.video_gid] + ([grp.getgrnam("input").gr_gid] if input_group else [])
        return ["setpriv", "--reuid=%d" % self.uid, "--regid=%d" % self.gid,
                "--groups=%s" % ",".join(map(str, groups)), "--"]

    def app_user(self):
        return self.setpriv()

    def app_env(self):
        return {"XDG_RUNTIME_DIR": self.runtime, "WAYLAND_DISPLAY": self.wayland, "GDK_BACKEND": "wayland",
                "QT_QPA_PLATFORM": "wayland", "HOME": "/tmp"}


class Sway(WaylandServer):
    """sway headless with the libinput backend, run as an unprivileged user through seatd."""
    name = "sway"

    def __init__(self, work):
        self.procs = []
        self.setup_user()
        if not os.path.exists("/run/seatd.sock"):
            self.procs.append(subprocess.Popen(["seatd", "-g", "video"], stdout=open(os.path.join(work, "seatd.log"), "w"),
                                               stderr=subprocess.STDOUT))
            deadline = mono() + 20
            while not os.path.exists("/run/seatd.sock"):
                if mono() > deadline:
                    raise RuntimeError("seatd did not start")
                time.sleep(0.05)
        self.work = work
        self.launch()

    def launch(self):
        """Starts sway and waits for its IPC and Wayland sockets."""
        work = self.work
        conf = os.path.join(work, "sway.conf")
        with open(conf, "w") as f:
            f.write("output HEADLESS-1 resolution 800x600 position 0 0\n"
                    "xwayland %s\n" % self.XWAYLAND +
                    "default_border none\n"
                    "focus_follows_mouse no\n" + self.extra_config())
        os.chmod(conf, 0o644)
        env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, WLR_BACKENDS="headless,libinput",
                   WLR_RENDERER="pixman", LIBSEAT_BACKEND="seatd", HOME=work)
        env.pop("WLR_LIBINPUT_NO_DEVICES", None)
        self.log_path = os.path.join(work, "sway.log")
        self.procs.append(subprocess.Popen(
            self.setpriv() + ["sway", "-c", conf, "-d"], env=env,
            stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT))
        self.display_proc = self.procs[-1]
        deadline = mono() + 180
        self.sock = None
        while mono() < deadline and self.procs[-1].poll() is None:
            socks = glob.glob(self.runtime + "/sway-ipc.*.sock")
            waylands = [w for w in glob.glob(self.runtime + "/wayland-*") if not w.endswith(".lock")]
            if socks and waylands:
                self.sock, self.wayland = socks[0], os.path.basename(waylands[0])
                break
            time.sleep(0.1)
        if not self.sock:
            raise RuntimeError("sway did not start:\n" + open(self.log_path, errors="replace").read()[-3000:])

    def restart(self, between):
        """Stops sway (it removes its sockets), runs `between()` while none runs, and starts it
        again: a new process, whose IPC socket has the old name when it inherits the harness's
        SWAYSOCK (sway binds at SWAYSOCK's path when nothing is there), as after a first start
        by SwayNatural."""
        end_process(self.procs.pop(), 10)
        for left in glob.glob(self.runtime + "/sway-ipc.*.sock"):
            os.unlink(left)
        between()
        self.launch()

    # `xwayland` in the configuration: no X server for sway's apps (SwayXwayland starts one).
    XWAYLAND = "disable"

    def extra_config(self):
        return ""

    def swaymsg(self, *args):
        return subprocess.run(["swaymsg", "-s", self.sock] + list(args), capture_output=True, text=True, timeout=20)

    def place_pointer(self):
        # Away and back: a surface that appeared under a resting cursor may not have had
        # pointer focus (no wl_pointer.enter), and then gets no scroll events.
        self.swaymsg("seat", "seat0", "cursor", "set", "700", "500")
        r = self.swaymsg("seat", "seat0", "cursor", "set", "400", "300")
        if r.returncode != 0:
            log("swaymsg cursor set failed: %s %s" % (r.stdout, r.stderr))

    def input_devices(self):
        r = self.swaymsg("-t", "get_inputs", "-r")
        try:
            return ", ".join("%s (%s)" % (d["name"], d["type"]) for d in json.loads(r.stdout))
        except ValueError:
            return r.stdout + r.stderr


class DrmServer(WaylandServer):
    """A Wayland compositor with a DRM backend reading libinput: it needs a KMS device (the
    guest's --gpu: QEMU's bochs-display, dumb buffers, no acceleration) and a session that opens
    devices for it (logind), which the guest does not run: fake_logind.py answers logind's D-Bus
    calls on a private system bus and writes the session files sd-login reads (docs/APPS.md,
    "KWin and mutter"). An absolute pointer of the harness's moves the cursor: neither KWin nor
    mutter has a command for it (sway's "seat cursor set")."""

    POINTER_MAX = 65535

    def start_session(self, work):
        """The KMS device, the user, fake_logind with a session of that user, and the pointer."""
        if not glob.glob("/dev/dri/card*"):
            # The guest's udev does not load the bochs driver for the display device by itself.
            subprocess.run(["modprobe", "bochs"], capture_output=True)
            subprocess.run(["udevadm", "settle", "--timeout=30"], capture_output=True)
        if not glob.glob("/dev/dri/card*"):
            raise RuntimeError("no /dev/dri/card*: %s's DRM backend needs the guest's --gpu option" % self.name)
        self.setup_user()
        bus_sock = "/run/flickd-fake-logind/system_bus_socket"
        self.bus_address = "unix:path=" + bus_sock
        logind = subprocess.Popen([PYTHON, os.path.join(HERE, "fake_logind.py"), bus_sock, str(self.uid)],
                                  stdout=subprocess.PIPE, stderr=open(os.path.join(work, "fake_logind.log"), "w"),
                                  text=True)
        self.procs.append(logind)
        ready, _, _ = select.select([logind.stdout], [], [], 60)
        if not ready or logind.stdout.readline().strip() != "ready":
            raise RuntimeError("fake_logind did not start:\n" + open(os.path.join(work, "fake_logind.log")).read())
        # Like QEMU's USB tablet: libinput maps its range onto the screen.
        span = evdev.AbsInfo(value=0, min=0, max=self.POINTER_MAX, fuzz=0, flat=0, resolution=0)
        self.pointer = evdev.UInput({E.EV_ABS: [(E.ABS_X, span), (E.ABS_Y, span)],
                                     E.EV_KEY: [E.BTN_LEFT, E.BTN_RIGHT, E.BTN_MIDDLE]},
                                    name="flickd harness pointer")
        subprocess.run(["udevadm", "settle", "--timeout=30"], capture_output=True)

    def start_compositor(self, command, env, cwd):
        """Runs `command` (the compositor under dbus-run-session) as the user, in a process group
        of its own, and waits for its Wayland socket `self.wayland`."""
        for name in ("WAYLAND_DISPLAY", "DISPLAY"):
            env.pop(name, None)
        # dbus-run-session: both register names on a session bus and warn without one.
        self.procs.append(subprocess.Popen(
            self.setpriv() + ["dbus-run-session", "--"] + command,
            env=env, cwd=cwd, stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT,
            # Its own process group: stop() ends dbus-run-session, its bus and the compositor
            # together (one left behind would hold the socket name of the next server in the boot).
            start_new_session=True))
        self.display_proc = self.procs[-1]
        deadline = mono() + 180
        sock = os.path.join(self.runtime, self.wayland)
        while not os.path.exists(sock):
            if mono() > deadline or self.procs[-1].poll() is not None:
                raise RuntimeError("%s did not start:\n%s" % (
                    command[0], open(self.log_path, errors="replace").read()[-3000:]))
            time.sleep(0.1)

    def move_pointer(self, x_fraction, y_fraction):
        self.pointer.write(E.EV_ABS, E.ABS_X, int(x_fraction * self.POINTER_MAX))
        self.pointer.write(E.EV_ABS, E.ABS_Y, int(y_fraction * self.POINTER_MAX))
        self.pointer.syn()

    def place_pointer(self):
        # Away and back to the screen's centre, which the 800 x 600 window covers wherever the
        # compositor places it on the 1280 x 800 output: a surface that appeared under a resting
        # cursor may not have pointer focus (as in sway).
        self.move_pointer(0.95, 0.95)
        time.sleep(0.3)
        self.move_pointer(0.5, 0.5)
        time.sleep(0.3)

    def stop(self):
        # The whole group, even when dbus-run-session itself has ended: the compositor may outlive it.
        session = self.procs[-1]
        try:
            os.killpg(session.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        deadline = mono() + 10
        while mono() < deadline and subprocess.run(["pgrep", "-g", str(session.pid)],
                                                   capture_output=True).returncode == 0:
            time.sleep(0.2)
        try:
            os.killpg(session.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        Server.stop(self)
        self.pointer.close()
        self.restore_env()

    def log_lines(self, keep):
        """The lines of the compositor's log for which `keep(line)` is true, joined."""
        try:
            text = open(self.log_path, errors="replace").read()
        except OSError:
            return ""
        return "\n".join(l for l in text.splitlines() if keep(l))


class KWin(DrmServer):
    """KWin 5.27 (kwin_wayland) with its DRM backend and libinput, run as an unprivileged user.

    KWin 5.27 creates its libinput backend only in its DRM backend (--drm); --virtual reads no
    input device at all (see DrmServer for what the DRM backend needs in the guest).
    """
    name = "kwin"
    # No Xwayland (KWinXwayland has one).
    X11_OPTIONS = []

    def __init__(self, work, home=None):
        self.procs = []
        self.start_session(work)
        # HOME and XDG_CONFIG_HOME of KWin's user: kcminputrc (touchpad settings) lives there.
        self.home = home or os.path.join(work, "kwin-home")
        self.config = os.path.join(self.home, ".config")
        os.makedirs(self.config, exist_ok=True)
        # KWin's user owns its settings, as on a desktop: KConfig writes no file it may not write
        # (a root-owned kcminputrc would stay as it is when a setting changes).
        for d in [self.home, self.config] + [os.path.join(self.config, n) for n in os.listdir(self.config)]:
            os.chown(d, self.uid, self.gid)
        self.wayland = "wayland-kwin"
        env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, HOME=self.home, XDG_CONFIG_HOME=self.config,
                   XDG_CURRENT_DESKTOP="KDE", DBUS_SYSTEM_BUS_ADDRESS=self.bus_address,
                   # No GPU: QPainter compositing, no GL anywhere.
                   KWIN_COMPOSE="Q", QT_QUICK_BACKEND="software", LIBGL_ALWAYS_SOFTWARE="1",
                   QT_LOGGING_RULES="kwin_libinput.debug=true;kwin_core.debug=true;kwin_wayland_drm.debug=true")
        self.log_path = os.path.join(work, "kwin.log")
        self.start_compositor(["kwin_wayland", "--drm", "--no-lockscreen", "--no-global-shortcuts",
                               "--no-kactivities", "--socket", self.wayland] + self.X11_OPTIONS, env, self.home)

    def input_devices(self):
        return self.log_lines(lambda l: "libinput" in l.lower())

    def gdbus(self, devnode, method, *arguments):
        """Calls `method` of org.freedesktop.DBus.Properties on KWin's D-Bus object for the input
        device at `devnode` (org.kde.KWin.InputDevice at /org/kde/KWin/InputDevice/eventN), on
        KWin's session bus (dbus-run-session's, read from KWin's environment), as KWin's user.
        Returns (gdbus's output, None) or (None, what went wrong)."""
        found = subprocess.run(["pgrep", "-g", str(self.procs[-1].pid), "-x", "kwin_wayland"],
                               capture_output=True, text=True).stdout.split()
        if not found:
            return None, "no kwin_wayland process"
        with open("/proc/%s/environ" % found[0], "rb") as f:
            environ = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
        address = environ.get(b"DBUS_SESSION_BUS_ADDRESS", b"").decode()
        if not address:
            return None, "KWin has no DBUS_SESSION_BUS_ADDRESS"
        r = subprocess.run(self.setpriv() + [
            "gdbus", "call", "--session", "--dest", "org.kde.KWin",
            "--object-path", "/org/kde/KWin/InputDevice/" + os.path.basename(devnode),
            "--method", "org.freedesktop.DBus.Properties." + method, "org.kde.KWin.InputDevice"] + list(arguments),
            env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address), capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            return None, r.stderr.strip() or "gdbus exit %d" % r.returncode
        return r.stdout.strip(), None

    def set_natural_scroll(self, devnode, natural):
        """What KDE's System Settings does: sets `naturalScroll` on KWin's D-Bus object for the
        device. KWin applies it and writes kcminputrc itself. Returns what went wrong, or None."""
        return self.gdbus(devnode, "Set", "naturalScroll", "<%s>" % ("true" if natural else "false"))[1]

    def natural_scroll(self, devnode):
        """What KWin has applied to the device: (True or False, None), or (None, why not known)."""
        out, failed = self.gdbus(devnode, "Get", "naturalScroll")
        return (None, failed) if failed else gdbus_boolean(out)

    def wait_for_device(self, devnode, seconds=120):
        """Waits until KWin's D-Bus object for the device answers: KWin has then added the device
        and applied the settings it read from kcminputrc. KWin makes its Wayland socket, which
        start_compositor waits for, seconds before it takes its bus name (about 5 s in the guest),
        and it reads kcminputrc once, when it starts: a file written before that is what it
        applies, and KWin never looks at the file again. Returns natural_scroll's answer."""
        deadline = mono() + seconds
        while True:
            value, failed = self.natural_scroll(devnode)
            if value is not None or mono() > deadline:
                return value, failed
            time.sleep(0.5)


def gdbus_boolean(text):
    """gdbus's printing of a D-Bus reply holding one boolean variant, "(<true>,)":
    (True or False, None), or (None, what it was instead)."""
    found = re.fullmatch(r"\(<(true|false)>,\)", text.strip())
    return (found.group(1) == "true", None) if found else (None, "not a boolean reply: %r" % text)


class KWinNatural(KWin):
    """KWin as above with the real pad set to natural scrolling in KWin's own settings file
    ($XDG_CONFIG_HOME/kcminputrc, group [Libinput][VENDOR][PRODUCT][NAME], decimal ids), and
    flickd's virtual pad left at libinput's default: the case flickd's KDE reader exists for.
    flickd (started after the server, with the harness's environment) gets
    XDG_CURRENT_DESKTOP=KDE and KWin's XDG_CONFIG_HOME, so it moves its virtual fingers against
    the real ones and the glide continues the content's motion (ratio > 0)."""
    name = "kwin-natural"

    def __init__(self, work):
        desc = vdev.load(PAD)
        work = os.path.join(work, "kwin-natural")
        os.makedirs(work, exist_ok=True)
        # On the guest's own file system, not the results directory: inotify sees no change on
        # that 9p mount (cache=none makes a new inode per lookup), and run_kde_file_change
        # checks that flickd follows a change to kcminputrc as it happens.
        home = tempfile.mkdtemp(prefix="kwin-natural-home-")
        config = os.path.join(home, ".config")
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "kcminputrc"), "w") as f:
            f.write("[Libinput][%d][%d][%s]\nNaturalScroll=true\n" % (
                desc["id"]["vendor"], desc["id"]["product"], desc["name"]))
        KWin.__init__(self, work, home)
        self.set_flickd_env(XDG_CURRENT_DESKTOP="KDE", XDG_SESSION_TYPE="wayland", XDG_CONFIG_HOME=self.config)


class KWinXwayland(XwaylandApps, KWin):
    """KWin as above with Xwayland (--xwayland: KWin makes the X11 sockets and an Xauthority
    file in the user's runtime directory, as Plasma's session does through kwin_wayland_wrapper),
    the apps its X11 clients (XwaylandApps)."""
    name = "kwin-xwayland"
    X11_OPTIONS = ["--xwayland"]
    XAUTHORITY = "xauth_*"

    def __init__(self, work):
        work = os.path.join(work, "kwin-xwayland")
        os.makedirs(work, exist_ok=True)
        self.note_x_sockets()
        KWin.__init__(self, work)
        self.wait_for_xwayland()


class Mutter(DrmServer):
    """mutter 43 (GNOME's compositor, here without GNOME Shell) as a Wayland display server on
    its native backend: KMS and libinput through the session (DrmServer), painting through
    Mesa's software renderer on the dumb-buffer device. Its touchpad settings are GNOME's
    (gsettings org.gnome.desktop.peripherals.touchpad: one setting for every touchpad), left at
    the schema's defaults as on a fresh GNOME desktop: natural scrolling on, for the real pad and
    flickd's alike. flickd gets XDG_CURRENT_DESKTOP=GNOME and reads the same setting, so it
    must not turn its fingers' motion around."""
    name = "mutter"
    # No Xwayland (MutterXwayland has one).
    X11_OPTIONS = ["--no-x11"]

    def __init__(self, work):
        self.procs = []
        self.start_session(work)
        self.home = os.path.join(work, "mutter-home")
        os.makedirs(self.home, exist_ok=True)
        os.chown(self.home, self.uid, self.gid)
        self.wayland = "wayland-mutter"
        env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, HOME=self.home, XDG_CURRENT_DESKTOP="GNOME",
                   XDG_SESSION_TYPE="wayland", DBUS_SYSTEM_BUS_ADDRESS=self.bus_address,
                   MUTTER_DEBUG="backend")
        self.log_path = os.path.join(work, "mutter.log")
        self.start_compositor(["mutter", "--wayland", "--display-server"] + self.X11_OPTIONS
                              + ["--wayland-display", self.wayland], env, self.home)
        self.set_flickd_env(XDG_CURRENT_DESKTOP="GNOME", XDG_SESSION_TYPE="wayland")

    def input_devices(self):
        return self.log_lines(lambda l: "/dev/input/" in l)


class MutterXwayland(XwaylandApps, Mutter):
    """mutter as above with Xwayland (as GNOME runs it), the apps its X11 clients
    (XwaylandApps). mutter's Xwayland asks for the cookie mutter writes in the user's runtime
    directory (XAUTHORITY in the session GNOME would start)."""
    name = "mutter-xwayland"
    X11_OPTIONS = []
    XAUTHORITY = ".mutter-Xwaylandauth.*"

    def __init__(self, work):
        self.note_x_sockets()
        Mutter.__init__(self, work)
        self.wait_for_xwayland()


class Weston(DrmServer):
    """Weston 10 (libweston: the reference compositor, a third family beside wlroots and the
    KDE and GNOME ones) with its DRM backend, pixman rendering and libinput, through the same
    session (DrmServer), run as the unprivileged user. kiosk-shell shows each app fullscreen, so
    the pointer at the screen's centre is on it. Touchpad settings are libinput's defaults
    (weston.ini has no [libinput] section: natural scrolling off, for the real pad and flickd's
    alike); flickd gets XDG_CURRENT_DESKTOP=weston, a desktop whose settings it does not read."""
    name = "weston"
    natural = False

    def __init__(self, work):
        self.procs = []
        self.start_session(work)
        self.home = os.path.join(work, self.name + "-home")
        os.makedirs(self.home, exist_ok=True)
        os.chown(self.home, self.uid, self.gid)
        conf = os.path.join(self.home, "weston.ini")
        with open(conf, "w") as f:
            f.write("[core]\nshell=kiosk-shell.so\nidle-time=0\nrequire-input=false\n")
            if self.natural:
                f.write("[libinput]\nnatural-scroll=true\n")
        os.chmod(conf, 0o644)
        self.wayland = "wayland-weston"
        env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, HOME=self.home, XDG_CURRENT_DESKTOP="weston",
                   XDG_SESSION_TYPE="wayland", DBUS_SYSTEM_BUS_ADDRESS=self.bus_address)
        self.log_path = os.path.join(work, self.name + ".log")
        self.start_compositor(["weston", "--backend=drm-backend.so", "--use-pixman", "--config=" + conf,
                               "--socket=" + self.wayland], env, self.home)
        self.set_flickd_env(XDG_CURRENT_DESKTOP="weston", XDG_SESSION_TYPE="wayland")

    def input_devices(self):
        # libinput's own log lines, which Weston passes on: "event1  - NAME: device is a touchpad".
        return self.log_lines(lambda l: re.search(r"event\d+ +- .*: device (is|removed)", l))


class WestonNatural(Weston):
    """Weston as above with `natural-scroll=true` in weston.ini's [libinput] section, which
    Weston applies to every touchpad, flickd's included, and which flickd cannot read: it keeps
    "auto" at libinput's default (off) and moves its virtual fingers as the real ones moved, so
    the compositor turns both the same way and the glide keeps the finger's direction."""
    name = "weston-natural"
    natural = True


class SwayNatural(Sway):
    """sway as above with an `input <identifier>` rule that makes the real pad natural and
    leaves flickd's virtual pad at libinput's default: the case flickd's sway reader exists for.
    flickd (started after the server, with the harness's environment) gets the server's SWAYSOCK,
    as a user service does from sway's systemd import, and asks sway for each pad's setting."""
    name = "sway-natural"

    def __init__(self, work):
        work = os.path.join(work, "sway-natural")
        os.makedirs(work, exist_ok=True)
        Sway.__init__(self, work)
        self.set_flickd_env(SWAYSOCK=self.sock, XDG_CURRENT_DESKTOP="sway")

    def launch(self):
        Sway.launch(self)
        if getattr(self, "saved_env", None):
            os.environ["SWAYSOCK"] = self.sock  # a restarted sway: the flickds after it use its socket

    # A second touchpad, plugged in while flickd runs (run_sway_hotplug), left traditional.
    HOTPLUG_PAD = "synaptics-rmi4"

    @staticmethod
    def identifier(desc):
        return "%d:%d:%s" % (desc["id"]["vendor"], desc["id"]["product"], desc["name"].replace(" ", "_"))

    def extra_config(self):
        return ('input "%s" natural_scroll enabled\n' % self.identifier(vdev.load(PAD))
                + 'input "%s" natural_scroll disabled\n' % self.identifier(vdev.load(self.HOTPLUG_PAD)))

    def stop(self):
        Sway.stop(self)
        self.restore_env()


class XorgNatural(Xorg):
    """Xorg as above, as an Xfce session keeps it: Xfce's settings daemon (xfsettingsd, on a
    session bus of its own) and the real pad made natural on the X server alone (`xinput
    set-prop`, as a window manager's start-up script does, and as Xfce's per-device settings
    do), leaving flickd's virtual pad at libinput's default. flickd, started with the session's
    DISPLAY, XDG_SESSION_TYPE=x11 and XDG_CURRENT_DESKTOP=XFCE, must read both pads' settings
    from the X server's device properties and move its virtual fingers against the real ones,
    or every glide runs backwards; and follow a change made in Xfce's settings
    (run_xfce_change) or by `xinput set-prop` alone (run_xinput_change)."""
    name = "xorg-natural"
    PROPERTY = "libinput Natural Scrolling Enabled"
    # The libinput driver's per-device scroll distance: its scrolling speed (15 by default,
    # more is slower), which flickd matches the glide to (run_xinput_change).
    DISTANCE = "libinput Scrolling Pixel Distance"

    def __init__(self, work):
        work = os.path.join(work, "xorg-natural")
        os.makedirs(work, exist_ok=True)
        Xorg.__init__(self, work)
        self.config = tempfile.mkdtemp(prefix="flickd-xfce-config-")
        # A user's first Xfce session: no xfce4/xfconf/xfce-perchannel-xml yet. xfconf's store
        # makes it when it first starts (started by the bus for xfsettingsd), three levels below
        # the directory flickd finds; in the guest that came seconds after flickd had started
        # watching, so flickd must wait for it level by level.
        self.env = dict(os.environ, DISPLAY=":1", XDG_CONFIG_HOME=self.config)
        # xfconf's store is started by the bus, with the bus's environment: it saves there.
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                               stdout=subprocess.PIPE, text=True, env=self.env)
        self.procs.append(bus)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        self.procs.append(subprocess.Popen(["xfsettingsd", "--no-daemon", "--replace"], env=self.env,
                                           stdout=open(os.path.join(work, "xfsettingsd.log"), "w"),
                                           stderr=subprocess.STDOUT))
        self.pad_name = vdev.load(PAD)["name"]
        deadline = mono() + 60
        while True:
            r = self.xinput("set-prop", self.pad_name, self.PROPERTY, "1")
            if r.returncode == 0 or mono() > deadline:
                break
            time.sleep(0.5)   # the server adds the pad a moment after it starts
        if r.returncode != 0:
            raise RuntimeError("xinput set-prop on %r: %s" % (self.pad_name, (r.stderr or r.stdout).strip()))
        self.set_flickd_env(DISPLAY=":1", XDG_SESSION_TYPE="x11", XDG_CURRENT_DESKTOP="XFCE",
                            XDG_CONFIG_HOME=self.config, DBUS_SESSION_BUS_ADDRESS=self.env["DBUS_SESSION_BUS_ADDRESS"])

    def xinput(self, *arguments):
        return subprocess.run(["xinput"] + list(arguments), env=self.env, capture_output=True, text=True, timeout=30)

    def natural(self, name):
        """The X server's natural scrolling for the device `name`: "1", "0", or None."""
        r = self.xinput("list-props", name)
        m = re.search(r"^\s*%s \(\d+\):\s*(\d)" % re.escape(self.PROPERTY), r.stdout, re.M)
        return m.group(1) if m else None

    def distance(self, name):
        """The X server's scroll distance for the device `name` (a string), or None."""
        r = self.xinput("list-props", name)
        m = re.search(r"^\s*%s \(\d+\):\s*(\d+)" % re.escape(self.DISTANCE), r.stdout, re.M)
        return m.group(1) if m else None

    def xfconf_set(self, value):
        """Sets the real pad's natural scrolling in Xfce's `pointers` channel, as Xfce's mouse
        settings do (the device's name with spaces as underscores and other signs dropped)."""
        device = re.sub(r"[^A-Za-z0-9_-]", "", self.pad_name.replace(" ", "_"))
        return subprocess.run(["xfconf-query", "-c", "pointers", "-p", "/%s/Properties/%s" % (device, self.PROPERTY.replace(" ", "_")),
                               "-n", "-t", "int", "-s", value], env=self.env, capture_output=True, text=True, timeout=30)

    def stop(self):
        Xorg.stop(self)
        self.restore_env()
        shutil.rmtree(self.config, ignore_errors=True)


def follow_two_changes(daemon, pad, change, seconds, note=lambda: None):
    """Makes the real pad traditional, then natural again, with `change(setting)` ("0", then
    "1"; a CompletedProcess), and waits up to `seconds` each for flickd's log to follow: (all
    followed, one step per change with how long it took). What `note()` says is added to each
    step."""
    followed = wait_direction(daemon, pad.devnode, "true")
    steps = []
    for value, setting in (("false", "0"), ("true", "1")):
        before = len(pad_directions(daemon, pad.devnode))
        t = mono()
        r = change(setting)
        ok = (r.returncode == 0 and wait_direction(daemon, pad.devnode, value, seconds=seconds)
              and len(pad_directions(daemon, pad.devnode)) > before)
        step = "%s -> %s" % (setting, "followed in %.1f s" % (mono() - t) if ok
                             else "NOT followed (%s)" % ((r.stderr or "").strip() or "no new line"))
        extra = note()
        steps.append(step + (" (%s)" % extra if extra else ""))
        followed = followed and ok
    return followed, steps


def run_xfce_change(args, server, pad, work, checks):
    """A change made in Xfce's mouse settings while flickd runs: xfsettingsd applies it to the
    X server at once (flickd's XServerWatch hears it) and xfconf saves the `pointers` channel
    seconds later, which flickd watches too. The real pad is made traditional, then natural
    again; flickd's log must follow both without a reload."""
    name = "%s Xfce settings change" % server.name
    daemon = Flickd(args.flickd, "default", work, pad.devnode)
    try:
        followed, steps = follow_two_changes(daemon, pad, server.xfconf_set, 40,
                                             lambda: "X server: %s" % server.natural(server.pad_name))
        checks.check(name, "flickd follows a change made in Xfce's settings without a reload", followed,
                     "%s natural scrolling true, then false, then true" % pad.devnode, "; ".join(steps))
    finally:
        server.xfconf_set("1")
        stop_flickd(checks, name, daemon)


def run_xinput_change(args, server, pad, work, checks):
    """A change made on the X server alone while flickd runs, as a window manager's start-up
    script or a user at a terminal makes it: `xinput set-prop` on the real pad, no settings
    file written anywhere. Only the X server's own property events tell of it (flickd's
    XServerWatch); the real pad is made traditional, then natural again, and flickd's log must
    follow both without a reload, each within 10 s."""
    name = "%s xinput set-prop" % server.name
    daemon = Flickd(args.flickd, "default", work, pad.devnode)
    try:
        followed, steps = follow_two_changes(
            daemon, pad, lambda setting: server.xinput("set-prop", server.pad_name, server.PROPERTY, setting), 10)
        checks.check(name, "flickd follows an xinput set-prop on the real pad without a reload", followed,
                     "%s natural scrolling true, then false, then true, each within 10 s" % pad.devnode, "; ".join(steps))
        followed, steps = follow_distance_change(daemon, pad, server)
        checks.check(name, "flickd matches the glide to the real pad's scroll distance set by xinput set-prop",
                     followed, "%s: distance 30 -> %s; back to 15 -> no speed clause; each within 10 s"
                     % (pad.devnode, SPEED_AT_DISTANCE_30), "; ".join(steps))
    finally:
        server.xinput("set-prop", server.pad_name, server.PROPERTY, "1")
        server.xinput("set-prop", server.pad_name, server.DISTANCE, "15")
        stop_flickd(checks, name, daemon)


# flickd's clause for the real pad with the X server's scroll distance 30 against the virtual
# pad's 15 (the driver's default): the pad scrolls half as fast, so the fingers move half as
# fast (XInputDevices.scrollFactor: 15 / distance).
SPEED_AT_DISTANCE_30 = ("the desktop scrolls it at 0.5\u00d7, flickd virtual touchpad at 1.0\u00d7: "
                        "the virtual fingers move 0.5\u00d7 as fast, so that the glide keeps your speed")


def pad_lines(daemon, devnode):
    """flickd's natural-scrolling lines for the touchpad at `devnode`, in order."""
    return re.findall(r"^.*" + re.escape(devnode) + r" \([^)]*\): natural scrolling .*$", daemon.text(), re.M)


def follow_distance_change(daemon, pad, server):
    """Sets the real pad's scroll distance to 30 with `xinput set-prop`, then back to 15, and
    waits up to 10 s each for a new line of flickd's for the pad with the speed clause, then
    without: (both followed, one step per change)."""
    steps = []
    followed = True
    for distance, wanted in (("30", True), ("15", False)):
        before = len(pad_lines(daemon, pad.devnode))
        t = mono()
        r = server.xinput("set-prop", server.pad_name, server.DISTANCE, distance)
        last = None
        deadline = mono() + 10
        while r.returncode == 0 and mono() < deadline:
            lines = pad_lines(daemon, pad.devnode)
            if len(lines) > before and (SPEED_AT_DISTANCE_30 in lines[-1]) == wanted \
                    and (wanted or "as fast" not in lines[-1]):
                last = lines[-1]
                break
            time.sleep(0.2)
        ok = last is not None
        x = "X server: real %s, virtual %s" % (server.distance(server.pad_name), server.distance("flickd virtual touchpad"))
        steps.append("%s -> %s (%s)" % (distance, "followed in %.1f s" % (mono() - t) if ok else "NOT followed (%s)" % (
            (r.stderr or "").strip() or (pad_lines(daemon, pad.devnode) or ["no line"])[-1]), x))
        followed = followed and ok
    return followed, steps


def check_x_per_device(server, pad, daemon, checks):
    """On xorg-natural: flickd read both pads' settings from the X server, the real pad's on
    and its own virtual pad's off, as the server says, and turns its fingers against the real
    ones (the glides themselves are checked by `turned`)."""
    name = "%s per device" % server.name
    line = wait_line(daemon, r"natural scrolling: the desktop keeps it per device \(X server :1 \(XInput device properties\)\); "
                             r"flickd virtual touchpad: (true|false)", 30)
    real, virtual = server.natural(vdev.load(PAD)["name"]), server.natural("flickd virtual touchpad")
    ok = (line is not None and line.endswith("false") and real == "1" and virtual == "0"
          and wait_direction(daemon, pad.devnode, "true"))
    checks.check(name, "flickd reads each pad's natural scrolling from the X server", ok,
                 "real pad true, flickd virtual touchpad false (X server: 1 and 0)",
                 "%s; %s natural scrolling %s; X server: real %s, virtual %s" % (
                     line or "no per-device line", pad.devnode, (pad_directions(daemon, pad.devnode) or ["?"])[-1], real, virtual))
    # flickd doctor, run in the same session, says so too.
    doctor = subprocess.run([daemon.binary, "doctor", "--config", daemon.config_path], capture_output=True, text=True, timeout=120)
    said = [l.strip() for l in doctor.stdout.splitlines() if "virtual fingers move" in l]
    checks.check(name, "flickd doctor names the X server's settings and which way the fingers move",
                 any("X server :1" in l and "move against yours" in l for l in said),
                 "the desktop keeps natural scrolling per device (X server :1 ...) ... move against yours",
                 "; ".join(said) or doctor.stdout[-400:])


# Debian's xserver-xorg-input-synaptics, unpacked (not installed: its InputClass would take
# every Xorg scenario's touchpads) by scripts/install-deps --apps.
SYNAPTICS_ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), ".cache", "synaptics", "root")


class XorgSynaptics(Xorg):
    """Xorg as above with the synaptics X input driver (xf86-input-synaptics) taking the
    touchpads, as where Debian's xserver-xorg-input-synaptics is installed: the driver scrolls
    with two fingers and glides by itself (its CoastingSpeed, 20 scrolls/s by default)."""
    name = "xorg-synaptics"
    # The driver's options for the touchpads, and whether it then glides by itself.
    OPTIONS = ""
    DRIVER_GLIDES = True
    # The synaptics driver posts no scroll stop: its trace never has one, so its flicks are
    # measured without the input clock (from the kernel's release + the slack), not played again.
    POSTS_SCROLL_STOP = False

    def __init__(self, work):
        work = os.path.join(work, self.name)
        os.makedirs(work, exist_ok=True)
        modules = os.path.join(SYNAPTICS_ROOT, "usr", "lib", "xorg", "modules")
        if not os.path.exists(os.path.join(modules, "input", "synaptics_drv.so")):
            raise RuntimeError("no synaptics driver under %s: run scripts/install-deps --apps" % SYNAPTICS_ROOT)
        # After the stock 40-libinput.conf, as Debian's 70-synaptics.conf.
        configdir = os.path.join(work, "xorg.conf.d")
        os.makedirs(configdir, exist_ok=True)
        with open(os.path.join(configdir, "70-synaptics.conf"), "w") as f:
            f.write('Section "InputClass"\n    Identifier "touchpad catchall"\n    Driver "synaptics"\n'
                    '    MatchIsTouchpad "on"\n    MatchDevicePath "/dev/input/event*"\n%sEndSection\n' % self.OPTIONS)
        Xorg.__init__(self, work, conf_extra='Section "Files"\n    ModulePath "/usr/lib/xorg/modules"\n'
                      '    ModulePath "%s"\nEndSection\n' % modules, arguments=["-configdir", configdir])
        # flickd asks this X server for its touchpads' drivers, as on an X11 session.
        self.set_flickd_env(DISPLAY=":1", XDG_SESSION_TYPE="x11")

    def stop(self):
        Xorg.stop(self)
        self.restore_env()


class XorgSynapticsNoCoast(XorgSynaptics):
    """xorg-synaptics with the driver's glide turned off (CoastingSpeed 0): flickd coasts the
    pad's flicks, through an output the same driver may drive (its virtual touchpad)."""
    name = "xorg-synaptics-nocoast"
    OPTIONS = '    Option "CoastingSpeed" "0"\n'
    DRIVER_GLIDES = False


class SwayXwayland(XwaylandApps, Sway):
    """sway as above with Xwayland, the apps its X11 clients (XwaylandApps)."""
    name = "sway-xwayland"
    XWAYLAND = "force"   # started with sway, not at the first X client

    def __init__(self, work):
        work = os.path.join(work, "sway-xwayland")
        os.makedirs(work, exist_ok=True)
        self.note_x_sockets()
        Sway.__init__(self, work)

    def launch(self):
        Sway.launch(self)
        self.wait_for_xwayland()


SERVERS = {"xorg": Xorg, "xorg-natural": XorgNatural, "xorg-synaptics": XorgSynaptics,
           "xorg-synaptics-nocoast": XorgSynapticsNoCoast, "sway": Sway, "sway-natural": SwayNatural, "sway-xwayland": SwayXwayland,
           "kwin": KWin, "kwin-natural": KWinNatural, "kwin-xwayland": KWinXwayland,
           "mutter": Mutter, "mutter-xwayland": MutterXwayland,
           "weston": Weston, "weston-natural": WestonNatural}


# ------------------------------------------------------------------------------------ app ---

class App:
    """app.py under a server; its log parsed into offset changes, paints and glide marks."""

    def __init__(self, server, toolkit, work):
        self.toolkit = toolkit
        # How much later than the server's time an input time in the app's log can be, on top of
        # Server.input_clock_slack_s. chromium on Wayland stamps a wheel event with its own time
        # of reading or resampling it (browser_app.py), seen 5-27 ms after flickd's motion that
        # caused it (docs/APPS.md); 50 ms keeps its late-stamped coast frames flickd's, while a
        # fling of chromium's own at the lift (300 ms after the touch) still counts as stray.
        self.input_clock_slack_s = CHROMIUM_INPUT_SLACK_S if toolkit == "chromium" else 0.0
        self.path = os.path.join(work, "app-%s-%s.log" % (server.name, toolkit))
        self.center_late_s = None  # how late the app answered the last "center" (recenter)
        open(self.path, "w").close()
        os.chmod(self.path, 0o666)
        env = dict(os.environ, **server.app_env())
        env["NO_AT_BRIDGE"] = "1"
        env["GTK_A11Y"] = "none"
        # GTK4's GL renderer runs on llvmpipe here (no GPU), far too slow under emulation; the
        # cairo renderer is what GTK3 uses anyway.
        env["GSK_RENDERER"] = "cairo"
        # chromium: a launcher with app.py's log format and stdin lines (browser_app.py).
        script = "browser_app.py" if toolkit == "chromium" else "app.py"
        cmd = (server.app_user() or []) + [PYTHON, os.path.join(HERE, script), "--toolkit", toolkit,
                                           "--log", self.path]
        self.out_path = self.path + ".out"
        self.proc = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, text=True,
                                     stdout=open(self.out_path, "w"), stderr=subprocess.STDOUT, cwd="/tmp")
        deadline = mono() + 300
        nudged = 0.0
        while mono() < deadline:
            lines = self.lines()
            if mono() - nudged > 2:
                # A line on stdin woke GTK's idle main loop before its first frame under Xorg.
                nudged = mono()
                try:
                    self.proc.stdin.write("\n")
                    self.proc.stdin.flush()
                except OSError:
                    pass
            if any(l[1] == "paint" for l in lines) and any(l[1] == "ready" for l in lines):
                break
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        else:
            pass
        lines = self.lines()
        if not (any(l[1] == "paint" for l in lines) and any(l[1] == "ready" for l in lines)):
            raise RuntimeError("%s did not paint within 300 s:\n%s" % (toolkit, open(self.out_path).read()[-2000:]))
        self.started_s = lines[-1][0] - lines[0][0]

    def lines(self):
        out = []
        with open(self.path) as f:
            for raw in f:
                parts = raw.split()
                if len(parts) >= 2:
                    try:
                        out.append((float(parts[0]), parts[1], parts[2:]))
                    except ValueError:
                        pass
        return out

    def center(self):
        self.proc.stdin.write("center\n")
        self.proc.stdin.flush()

    def last_center(self):
        """The app time of the last "center" line, or None."""
        centers = [t for t, kind, _ in self.lines() if kind == "center"]
        return centers[-1] if centers else None

    def recenter(self, answer_within=10.0, clock=mono, sleep=time.sleep):
        """Scroll to the middle and return the app time of the app's "center" line, once the app
        has answered and its content has been still for 0.5 s.

        The app answers when its main loop reads the line: under emulation that is sometimes
        several 100 ms later (lags of ~400 ms were seen on KWin's Xwayland). A flick played
        before the answer would have the centering's jump back land in the middle of it: that
        reads as a glide against the finger. So the wait is for the answer itself, not for a
        time; an app that gives none within `answer_within` s is an error."""
        before = self.last_center()
        asked = clock()
        self.center()
        deadline = asked + answer_within
        while True:
            answered = self.last_center()
            if answered is not None and answered != before:
                # How late the app answered (its log's clock is the harness's: CLOCK_MONOTONIC).
                self.center_late_s = answered - asked
                break
            if clock() >= deadline:
                raise RuntimeError("%s did not answer \"center\" within %g s" % (self.toolkit, answer_within))
            sleep(0.05)
        sleep(0.3)
        self.wait_still(quiet=0.5, timeout=5, clock=clock, sleep=sleep)
        return answered

    def last_change(self):
        for t, kind, _ in reversed(self.lines()):
            if kind in ("v", "h"):
                return t
        return 0.0

    def wait_still(self, quiet=0.7, timeout=10.0, clock=mono, sleep=time.sleep):
        end = clock() + timeout
        while clock() < end:
            if clock() - self.last_change() >= quiet:
                return True
            sleep(0.1)
        return False

    def ended(self):
        """Why the app no longer runs, or "" while it runs."""
        if self.proc.poll() is None:
            return ""
        return "the %s app exited with status %s" % (self.toolkit, exit_text(self.proc.returncode))

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


# -------------------------------------------------------------------------------- flickd ---

class DevTap(vdev.EventTap):
    """Reads one of flickd's virtual devices through evdev (never grabbed), kernel times."""

    def __init__(self, devnode):
        self.devnode = devnode
        self.events = []  # (kernel time, type, code, value) of every event but EV_SYN
        self.motion = []  # kernel times of position events (a virtual finger moved)
        self.removed = False  # the device went away (flickd removed it, or flickd ended)
        vdev.EventTap.__init__(self, devnode)

    def gone(self):
        self.removed = True

    def handle(self, ev):
        if ev.type != E.EV_SYN:
            t = ev.sec + ev.usec / 1e6
            with self.lock:
                self.events.append((t, ev.type, ev.code, ev.value))
                if ev.type == E.EV_REL or (ev.type == E.EV_ABS and ev.code in POSITION_CODES):
                    self.motion.append(t)

    def last(self):
        with self.lock:
            return self.events[-1][0] if self.events else 0.0

    def first_after(self, t0):
        with self.lock:
            return next((e[0] for e in self.events if e[0] >= t0), None)

    def last_motion_after(self, t0):
        """split_settle of the kernel times of the motions after t0."""
        with self.lock:
            return split_settle(sorted(set(t for t in self.motion if t >= t0)))


def split_settle(times):
    """(the last of the sorted motion times `times` that is no settle frame, the first settle
    frame or None); (None, None) when there is no motion. The settle frames are the motions
    after the last rest of SETTLE_GAP_S or more, when at most SETTLE_FRAMES follow it."""
    if not times:
        return None, None
    rests = [i for i in range(1, len(times)) if times[i] - times[i - 1] >= SETTLE_GAP_S]
    if rests and len(times) - rests[-1] <= SETTLE_FRAMES:
        return times[rests[-1] - 1], times[rests[-1]]
    return times[-1], None


def scan_debug_events(text):
    """What `libinput debug-events` printed (`text`) that counts here: "bad" (lines of events
    that must never come from flickd's devices), "holds", "jumps" (libinput discarded a touch
    jump: a visible step), "dropped" (libinput lost events: SYN_DROPPED), "limited" (libinput
    hit its rate limit on that message, 5 per 30 s per device, and logs no loss for the rest of
    the 30 s: from there on a loss can go unlogged)."""
    found = {"bad": [], "holds": 0, "jumps": 0, "dropped": 0, "limited": 0}
    after_dropped = False  # libinput prints its rate-limit line right after the message it limits
    for line in text.splitlines():
        limits_dropped, after_dropped = after_dropped, False
        if LibinputWatch.HOLD.search(line):
            found["holds"] += 1
        elif LibinputWatch.BAD.search(line):
            found["bad"].append(line.strip())
        elif LibinputWatch.JUMP.search(line):
            found["jumps"] += 1
        elif LibinputWatch.DROPPED.search(line):
            found["dropped"] += 1
            after_dropped = True
        elif limits_dropped and LibinputWatch.LIMITED.search(line):
            # Not the limit of another message (its "lagging behind" warnings, 5 an hour).
            found["limited"] += 1
    return found


def process_state(pid):
    """The state letter of /proc/PID/stat ("S": asleep, "R": running or runnable); None when
    the process is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


class LibinputWatch:
    """`libinput debug-events` on one of flickd's devices; counts what must never come from it.

    It runs in the idle scheduling class (SCHED_IDLE), its output going straight to a file of
    the guest's own (read when counted, copied beside flickd's log at the end): at the normal
    class, and read by a thread of the harness, it was one more process handling each of the
    glide's frames on the guest's two emulated CPUs and lowered the apps' figures (docs/APPS.md,
    "What the harness's own libinput reader costs"). Lagging does not change what libinput
    makes of the events: its timers run on the events' own times (it flushes expired timers
    before each event it handles). Events lost to a full kernel buffer are logged (SYN_DROPPED)
    and make the check not measurable (bad_event_verdict); so does every count after libinput
    stopped logging them (its rate limit), since a loss could then go unlogged."""
    # The event-type column of debug-events (a tap shows as POINTER_BUTTON). Hold gestures
    # (GESTURE_HOLD_BEGIN/END) are counted apart: libinput reports one for fingers resting on
    # a pad, and flickd's virtual fingers rest >= 150 ms before they lift (so that GTK starts
    # no glide of its own); a hold makes no pointer motion, click or gesture action, it only
    # stops kinetic scrolling, which at that point has ended.
    HOLD = re.compile(r"^\s*-?event\d+\s+GESTURE_HOLD_\w+")
    BAD = re.compile(r"^\s*-?event\d+\s+(POINTER_BUTTON|POINTER_MOTION\w*|GESTURE_\w+|TOUCH_\w+)")
    JUMP = re.compile(r"Touch jump detected")
    DROPPED = re.compile(r"SYN_DROPPED")
    # What libinput logs once it stops logging a kind of message for a while (its rate limit),
    # right after the last one it logs.
    LIMITED = re.compile(r"log rate limit exceeded")
    # How long a count waits for the reader to catch up (it runs only when the CPUs are idle).
    CATCH_UP_S = 10.0

    @staticmethod
    def command(devnode):
        """The reader's command line. Tapping on (--enable-tap): libinput turns it off by default
        on a pad with physical buttons, and flickd's virtual touchpad declares BTN_LEFT and
        BTN_RIGHT, so without it a two-finger tap (BTN_RIGHT, which a desktop with tapping on
        gets) would never show here."""
        return ["chrt", "--idle", "0", "stdbuf", "-oL", "libinput", "debug-events", "--enable-tap", "--device", devnode]

    def __init__(self, devnode, path):
        self.path = path
        fd, self.local = tempfile.mkstemp(prefix="flickd-libinput-", suffix=".log")
        with os.fdopen(fd, "w") as out:
            self.proc = subprocess.Popen(self.command(devnode), stdout=out, stderr=subprocess.STDOUT)

    def caught_up(self, timeout=None, state=None, clock=None, sleep=None):
        """Whether the reader has handled every event written so far: it is found asleep (waiting
        for input) twice in a row, 20 ms apart, within `timeout`. A reader that exited has
        nothing more to handle."""
        state = state or (lambda: process_state(self.proc.pid))
        clock, sleep = clock or mono, sleep or time.sleep
        end = clock() + (self.CATCH_UP_S if timeout is None else timeout)
        asleep = 0
        while True:
            st = state()
            if st is None or st == "Z":
                return True
            asleep = asleep + 1 if st == "S" else 0
            if asleep >= 2:
                return True
            if clock() >= end:
                return False
            sleep(0.02)

    def counts(self):
        """scan_debug_events of what the reader printed so far, once it caught up, with "behind":
        True when it had not within CATCH_UP_S."""
        behind = not self.caught_up()
        try:
            with open(self.local, errors="replace") as f:
                found = scan_debug_events(f.read())
        except OSError:
            found = scan_debug_events("")
        found["behind"] = behind
        return found

    def close(self):
        end_process(self.proc, 5)
        try:
            shutil.copyfile(self.local, self.path)
            os.unlink(self.local)
        except OSError:
            pass


def flickd_devnodes():
    """(devnode, name) of every input device whose name starts with "flickd"."""
    found = []
    for d in glob.glob("/sys/class/input/event*"):
        try:
            name = open(d + "/device/name").read().strip()
        except OSError:
            continue
        if name.lower().startswith("flickd"):
            found.append(("/dev/input/" + os.path.basename(d), name))
    return sorted(found)


# What `flickd check-config` of a build from before the [output] table says of one (the table
# and output.mode = "touchpad" came in the same commit, 104c995).
UNKNOWN_OUTPUT_TABLE = re.compile(r":1: unknown (?:section|table) \[output\]")


def supports_output_table(binary, work, mode="wheel"):
    """Whether this flickd accepts `[output] mode = "<mode>"`: True when `check-config` accepts
    it, False when it says the [output] table is unknown (an older build). Any other answer (an
    error of another kind, a crash) raises RuntimeError: taken for an older build, mode wheel
    would run the default output under the name wheel, and mode touchpad would be left out."""
    path = os.path.join(work, "probe-output-%s.toml" % mode)
    with open(path, "w") as f:
        f.write('[output]\nmode = "%s"\n' % mode)
    r = subprocess.run([binary, "check-config", path], capture_output=True, text=True)
    if r.returncode == 0:
        return True
    said = (r.stdout + r.stderr).strip()
    if r.returncode > 0 and UNKNOWN_OUTPUT_TABLE.search(said):
        return False
    raise RuntimeError("%s check-config of [output] mode = \"%s\" exited with status %s, not for an unknown "
                       "[output] table: %s" % (binary, mode, exit_text(r.returncode), said[-600:] or "no output"))


class Flickd:
    def __init__(self, binary, mode, work, pad_devnode, prefix=(), env=None):
        """flickd `binary` with the output `mode` (a config file of its own), run with the
        command prefix `prefix` (setpriv: as another user) in `env` (default: the harness's)."""
        self.mode = mode
        self.binary = binary
        config = ""
        if mode in ("wheel", "touchpad"):
            config = '[output]\nmode = "%s"\n' % mode
        if mode == "wheel" and not supports_output_table(binary, work):
            config = ""  # a flickd from before the [output] table: the wheel is its only output
        tag = "flickd-%s-%d" % (mode, int(mono() * 1000))
        self.config_path = os.path.join(work, tag + ".toml")
        with open(self.config_path, "w") as f:
            f.write(config)
        self.log_path = os.path.join(work, tag + ".log")
        before = set(flickd_devnodes())
        self.proc = subprocess.Popen(list(prefix) + [binary, "run", "--verbose", "--config", self.config_path],
                                     stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT, env=env)
        deadline = mono() + 60
        self.devices = []
        while mono() < deadline and self.proc.poll() is None:
            now_devs = [d for d in flickd_devnodes() if d not in before]
            if now_devs and re.search(re.escape(pad_devnode) + r" \([^)]*\): touchpad", self.text()):
                time.sleep(0.5)  # all of its devices
                self.devices = [d for d in flickd_devnodes() if d not in before]
                break
            time.sleep(0.1)
        if not self.devices:
            raise RuntimeError("flickd (%s) did not start:\n%s" % (mode, self.text()[-2000:]))
        subprocess.run(["udevadm", "settle", "--timeout=10"], check=False)
        self.taps = [DevTap(d) for d, _ in self.devices]
        # E2E_APPS_LIBINPUT_WATCH=0 (diagnosis only): flickd's devices are not read with
        # libinput, and every check of what libinput made of them is not measurable. The reader
        # is one more process handling each of the glide's frames on the guest's two emulated
        # CPUs (docs/APPS.md, "What the harness's own libinput reader costs").
        self.watched = os.environ.get("E2E_APPS_LIBINPUT_WATCH", "1") != "0"
        self.watches = [LibinputWatch(d, self.log_path + ".libinput-%d" % i)
                        for i, (d, _) in enumerate(self.devices)] if self.watched else []
        self.last_bad = []
        time.sleep(1.0)  # the display server adds the new devices (hot-plug)

    def text(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def first_event_after(self, t0):
        ts = [t for t in (tap.first_after(t0) for tap in self.taps) if t is not None]
        return min(ts) if ts else None

    def last_motion_after(self, t0):
        """(kernel time of the last motion any of flickd's devices wrote after t0 that is no
        settle frame, of the first settle frame after it or None; split_settle); (None, None)
        when none moved."""
        found = [m for m in (tap.last_motion_after(t0) for tap in self.taps) if m[0] is not None]
        return max(found, key=lambda m: m[0]) if found else (None, None)

    TIMER = re.compile(r"the coast's timer woke (?:\d+ times|once): (?:the first )?([\d., and]+) ms after")

    def timer_opening_after(self, mark):
        """The largest of the first three delays of flickd's timer after its deadlines in the
        first coast logged past character `mark` of its log (CoastPunctuality), in ms; None
        when it logged none (a flickd from before that line, or no timed frame)."""
        m = self.TIMER.search(self.text(), mark)
        return max(float(v) for v in re.findall(r"[\d.]+", m.group(1))) if m else None

    def libinput_counts(self):
        """LibinputWatch.counts summed over flickd's devices ("bad" as a number, "behind" if
        any reader was); None when they are not read (E2E_APPS_LIBINPUT_WATCH=0)."""
        if not self.watched:
            return None
        total = {"bad": 0, "holds": 0, "jumps": 0, "dropped": 0, "limited": 0, "behind": False}
        self.last_bad = []
        for w in self.watches:
            c = w.counts()
            self.last_bad += c["bad"]
            total["bad"] += len(c["bad"])
            total["behind"] = total["behind"] or c["behind"]
            for key in ("holds", "jumps", "dropped", "limited"):
                total[key] += c[key]
        return total

    def wait_quiet(self, quiet=0.5, timeout=10.0):
        """Until none of flickd's devices wrote anything for `quiet` s (a coast has ended): True
        then, False when they still wrote at `timeout`."""
        end = mono() + timeout
        while mono() < end:
            if mono() - max(tap.last() for tap in self.taps) >= quiet:
                return True
            time.sleep(0.1)
        return False

    def bad_lines(self):
        """The bad events' lines of the last libinput_counts()."""
        return list(self.last_bad)

    def ended(self):
        """Why flickd no longer runs or writes, or "" while it runs with all its devices: it
        exited (crashed, or failed), or a device of its went away while it ran (the harness
        never reloads its configuration, the only thing that replaces its device)."""
        if self.proc.poll() is not None:
            return "flickd (%s) exited with status %s; its log ends: %s" % (
                self.mode, exit_text(self.proc.returncode), self.text()[-600:].strip())
        removed = [t.devnode for t in self.taps if t.removed]
        if removed:
            return "flickd (%s) runs, but its device %s went away; its log ends: %s" % (
                self.mode, ", ".join(removed), self.text()[-600:].strip())
        return ""

    # How long flickd may take to exit after SIGTERM: it lets resting virtual fingers lift
    # first (RunCommand: "SIGTERM and SIGINT stop any coast, remove the virtual device and exit
    # with status 0").
    STOP_TIMEOUT_S = 10.0

    def stop(self):
        """Stops flickd (SIGTERM; SIGKILL after STOP_TIMEOUT_S) and its readers. Returns what
        went wrong, or None when it was still running and exited with status 0 on SIGTERM, as
        `flickd run` promises; a flickd that crashed, failed or hung mid-run says so here."""
        for w in self.watches:
            w.close()
        for i, t in enumerate(self.taps):
            t.close()
            with open(self.log_path + ".frames-%d" % i, "w") as f:
                f.writelines("%.6f %d %d %d\n" % e for e in t.events)
        problem = None
        if self.proc.poll() is not None:
            problem = "it had exited with status %s before it was stopped" % exit_text(self.proc.returncode)
        else:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(self.STOP_TIMEOUT_S)
                if self.proc.returncode != 0:
                    problem = "it exited with status %s on SIGTERM" % exit_text(self.proc.returncode)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                problem = "it had not exited %g s after SIGTERM (hung: killed)" % self.STOP_TIMEOUT_S
        time.sleep(0.5)
        return problem


def stop_flickd(checks, name, daemon):
    """Stops `daemon` and asserts that it ran until then and exited with status 0 on SIGTERM.
    Not asserted again when check_running already reported its end."""
    problem = daemon.stop()
    if getattr(daemon, "end_reported", False):
        return
    checks.check(name, "flickd ran until stopped and exited with status 0 on SIGTERM", problem is None,
                 "exit status 0 after SIGTERM", "exit status 0" if problem is None else
                 "%s; its log ends: %s" % (problem, daemon.text()[-600:].strip()))


def check_running(checks, name, after, server, app, daemon):
    """After a scenario or an extra check: asserts that flickd (when it runs), the app and the
    display server still run, reported only when one does not (a failure, with or without
    --check: what ran after it measured nothing). A flickd that crashed would otherwise go
    unseen by every check that needs no output of its; returns whether all run."""
    gone = [why for why in (daemon.ended() if daemon else "", app.ended(), server.ended()) if why]
    if daemon and daemon.ended():
        daemon.end_reported = True
    if gone:
        checks.lost(name, "flickd, the app and the display server still run after %s" % after, "all running",
                    "; ".join(gone))
    return not gone


# ------------------------------------------------------------------------------- metrics ---

def changes(lines, axis, t0):
    """[(app time, offset, input time or None)] of the offset changes on `axis` after t0; the
    input time (s) is the timestamp of the input event the change handled (ms in the log)."""
    out = []
    for t, kind, a in lines:
        if kind == axis and t >= t0:
            ms = float(a[1]) if len(a) > 1 else -1
            out.append((t, float(a[0]), ms / 1000.0 if ms >= 0 else None))
    return out


# read_x_trace's lines read so far, per file: {path: (file identity, bytes read, names, events)}.
# The trace of a server's whole run is read after each flick: read anew each time, a full
# matrix's (~70,000 lines by its end, 0.3 s each on the host) took minutes of the guest's time.
_X_TRACE_READ = {}


def read_x_trace(path):
    """xi2_trace.py's file: ({slave id: name}, [(slave id, server ms, axis, value)]). Reads on
    from where the last call for `path` stopped (the file only grows while the tracer runs; a
    new file at the path is read from its start), up to the last whole line: a line the tracer
    is still writing is read whole next time."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            identity = (st.st_dev, st.st_ino)
            known = _X_TRACE_READ.get(path)
            if known is None or known[0] != identity or known[1] > st.st_size:
                known = (identity, 0, {}, [])
            _, offset, names, events = known
            f.seek(offset)
            data = f.read()
    except OSError:
        return {}, []
    whole = data[:data.rfind(b"\n") + 1]
    for line in whole.decode(errors="replace").splitlines():
        p = line.split(" ", 2)
        if p[0] == "device" and len(p) == 3:
            names[int(p[1])] = p[2]
        elif p[0] == "scroll":
            q = line.split()
            if len(q) == 5:
                events.append((int(q[1]), int(q[2]), q[3], float(q[4])))
    _X_TRACE_READ[path] = (identity, offset + len(whole), names, events)
    return dict(names), list(events)


def read_x_trace_sources(path):
    """read_x_trace's events, and the slave ids of flickd's devices among its names."""
    names, events = read_x_trace(path)
    return events, {i for i, n in names.items() if n.startswith("flickd")}


def x_switch(events, sources, ms_from, ms_to, applied_ms, axis):
    """How an X11 app took a glide's first scroll events, which come from a slave device other
    than the finger's: the X server tells clients of the switch (a DeviceChanged event), and
    a client that reads the new slave's valuator only when it handles that event (Qt asks the
    server for it) counts as its starting point every event the server handled before.

    `events` from read_x_trace, `sources` the slave ids of flickd's devices, `applied_ms` the
    server times (ms) of the input events the app's offset changes carry. Of the sources'
    scroll events on `axis` from ms_from to ms_to: the first is the switch (flickd's baseline
    frame); x_switch_lost counts those after it with a server time before the first one the app
    applied, x_switch_ms is the server time from the switch to that one. {} when none was
    applied. An app that merges a frame's events into one change (GTK4) carries only the last
    one's time, so for it the count includes events merged, not lost.

    x_backlog_ms: how much of the finger's motion the app had not applied when the switch came:
    from the event time of the last change before the switch to the finger's last scroll event
    before it (0 for an app that applies each event as it comes). An app that applies that
    backlog after the release moves its content faster there than the glide does."""
    own = [e for e in events if e[0] in sources and e[2] == axis and e[3] != 0 and ms_from <= e[1] <= ms_to]
    if not own:
        return {}
    first = next((e for e in own[1:] if e[1] in applied_ms), None)
    if first is None:
        return {}
    switch = own[0][1]
    res = {"x_switch_lost": sum(1 for e in own[1:] if e[1] < first[1]), "x_switch_ms": first[1] - switch}
    finger = [e[1] for e in events if e[0] not in sources and e[2] == axis and e[3] != 0
              and switch - 1000 <= e[1] < switch]
    applied_before = [t for t in applied_ms if switch - 1000 <= t < switch]
    if finger and applied_before:
        res["x_backlog_ms"] = max(0, max(finger) - max(applied_before))
    return res


def x_finger_lost(events, sources, ms_from, ms_to, applied_ms, axis):
    """How an X11 app took the first scroll events of a finger's scroll: {"x_finger_lost": how
    many of the finger's scroll events on `axis` from ms_from to ms_to (those of the slave
    devices not in `sources`, flickd's) the server handled before the first one the app applied}.
    After a glide from flickd's device the finger's first event switches the master pointer
    back to the real pad, and the app takes a starting point there as at the switch to flickd's
    device (x_switch): GTK the new slave's first event, Qt whatever the server had handled when
    Qt got to the switch; without flickd there is no switch. {} when the app applied none. The
    caveat of x_switch applies: an app that merges a frame's events into one change counts them
    here."""
    finger = [e for e in events if e[0] not in sources and e[2] == axis and e[3] != 0 and ms_from <= e[1] <= ms_to]
    first = next((e for e in finger if e[1] in applied_ms), None)
    if first is None:
        return {}
    return {"x_finger_lost": sum(1 for e in finger if e[1] < first[1])}


def x_input_clock(events, sources, r, axis, first_flickd=None, within_s=0.3):
    """A release at kernel time `r` (s) and flickd's first event after it on the X server's
    clock, which stamps each event when it reads it: {"release": the server time (s) of the real
    pad's scroll stop (xf86-input-libinput posts a zero-valued scroll valuator when libinput ends
    the finger's scroll at the lift), "first_flickd": that of the first scroll event from flickd's
    devices (`sources`) from then on}. `events` from read_x_trace; the stop is the first zero on
    `axis` from another slave within `within_s` after r (the server reads after the kernel
    stamps: never before r's millisecond). {} without a stop in the trace (no "first_flickd"
    without flickd's event, or when `first_flickd`, its kernel time, is None)."""
    lo, hi = math.floor(r * 1000), r * 1000 + within_s * 1000
    stop = next((e[1] for e in events if e[0] not in sources and e[2] == axis and e[3] == 0 and lo <= e[1] <= hi), None)
    if stop is None:
        return {}
    res = {"release": stop / 1000.0}
    if first_flickd is not None:
        own = next((e[1] for e in events if e[0] in sources and e[3] != 0 and stop <= e[1] <= stop + 2000), None)
        if own is not None:
            res["first_flickd"] = own / 1000.0
    return res


def value_at(series, t):
    """Piecewise-linear offset at t from (time, offset) points (flat outside them)."""
    if not series:
        return None
    if t <= series[0][0]:
        return series[0][1]
    for (ta, xa), (tb, xb) in zip(series, series[1:]):
        if ta <= t <= tb:
            return xa if tb == ta else xa + (xb - xa) * (t - ta) / (tb - ta)
    return series[-1][1]


def content_at(series, t):
    """The offset at t from (time, offset) points as the content shows it: that of the last
    point at or before t (the content moves only at changes; the first point's before it)."""
    if not series:
        return None
    current = series[0][1]
    for ta, xa in series:
        if ta > t:
            break
        current = xa
    return current


def paint_intervals(lines, t_from, t_to):
    """The intervals (s) between the app's paints in [t_from, t_to] (app clock), paints closer
    than 3 ms counted as one frame (Qt logs the paints of the viewport and of the content)."""
    frames = []
    for t, kind, _ in lines:
        if kind == "paint" and t_from <= t <= t_to and (not frames or t - frames[-1] >= 0.003):
            frames.append(t)
    return [b - a for a, b in zip(frames, frames[1:])]


def paint_period_ms(lines, t_from, t_to):
    """Median interval (ms) between the app's paints in [t_from, t_to]; None with fewer than
    three frames."""
    intervals = paint_intervals(lines, t_from, t_to)
    return 1000 * statistics.median(intervals) if len(intervals) >= 2 else None


def pooled_paint_period_ms(lines, spans):
    """Median interval (ms) between the app's paints within each (t_from, t_to) of `spans`
    (the finger phases of a scenario's flicks), pooled; None with fewer than two intervals in
    all. An app that paints every 60-120 ms under emulation paints only two or three times in
    a 250 ms finger phase: one flick then has no period of its own, while its neighbours' paints
    in the same scenario still say how often the app paints while a finger moves."""
    intervals = [i for t_from, t_to in spans for i in paint_intervals(lines, t_from, t_to)]
    return 1000 * statistics.median(intervals) if len(intervals) >= 2 else None


# The figures of measure() that hang on where the finger phase ends on the input's clock (the
# release there): without that clock (Server.NO_INPUT_CLOCK) they are not measured.

# Why an Xorg flick under --x-trace has no release on the server's clock (x_input_clock).
NO_SCROLL_STOP = "the X trace has no scroll stop of the real pad within 300 ms of the kernel's release"
SPLIT_FIGURES = ("ratio", "ratio_with_dropped", "speed_after_px_s", "handover_ms", "gap_ms", "gap_frames",
                 "coast_step_px", "step_ratio")


def measure(lines, flick, axis, first_flickd, center_t, flickd_ran=False, input_clock=None, unmarked_own=False,
            no_input_clock=None, slack=Xorg.input_clock_slack_s):
    """Figures of one flick from the app's log; times are CLOCK_MONOTONIC seconds.
    `first_flickd`: the kernel time of the first event flickd's devices wrote after the release,
    None when they wrote none; `flickd_ran`: whether flickd ran (False: mode none).
    `input_clock`: the release ("release") and flickd's first event ("first_flickd") on the
    clock of the app's input times where that is not the kernel's (x_input_clock: under Xorg
    the server's read times); the kernel's times where it has none. `unmarked_own`: the app's
    offset changes with no input event count as its own glide's too (own_glide_changes; GTK).
    `no_input_clock`: why the app's input times are on a clock whose release is not known
    (Server.NO_INPUT_CLOCK, or an Xorg trace with no scroll stop), or None: with a reason the
    SPLIT_FIGURES are None (kept under "unsplit" for the log) and "no_input_clock" says why,
    and the distance counts from the kernel's release + `slack` (how much later than the
    kernel's stamp the app's input times can be: Server.input_clock_slack_s, or the app's when
    larger) against the model's distance from then on ("distance_cut_ms" says so).

    The guest is emulated and shared: the app sees input 20 ms to several 100 ms late, and the
    lag varies. So speeds are measured on the INPUT's clock: each offset change is placed at
    the timestamp of the input event it handled (kernel time of the finger's or flickd's
    event, through libinput and the server); a change made by the app's own glide (no input
    event) is placed at its app time minus the lag of the last input-driven change. Gaps and
    steps are measured on the app's clock: that is what is painted."""
    t_touch = flick.get("k_touch") or flick["t_touch"]
    r_kernel = flick.get("k_release") or flick["t_release"]
    # The release and flickd's first event on the input times' clock: the finger/glide split.
    # Under Xorg the finger's last events are stamped when the server read them, after the
    # kernel's release (7.7 ms in a CI run, whose Qt applied the finger's last 584 px as one
    # change stamped there): split at the kernel's release, they counted as glide.
    clock = input_clock or {}
    r = clock.get("release") or r_kernel
    first_input = clock.get("first_flickd", first_flickd) if first_flickd is not None else None
    ch = changes(lines, axis, center_t + 0.05)
    base = [c for c in ch if c[0] < t_touch]
    ch = [c for c in ch if c[0] >= t_touch]
    res = {"changes": len(ch)}
    finger = [c for c in ch if c[2] is not None and t_touch - 0.01 <= c[2] <= r + 0.001]
    if len(finger) < 2:
        return res
    start = base[-1][1] if base else finger[0][1]
    # A glide against the finger (the content going back by more than TURN_FRACTION of the
    # finger phase's travel), measured before anything that assumes one direction.
    travel = finger[-1][1] - start
    back, back_t = max([(0.0, None)] + [(-(1 if travel >= 0 else -1) * (c[1] - finger[-1][1]), c[0])
                                       for c in ch if c[0] > finger[-1][0]], key=lambda b: b[0])
    res["turned"] = abs(travel) > 0 and back > TURN_FRACTION * abs(travel)
    res["back_px"] = back
    if res["turned"]:
        # What says why, in a CI log that keeps only the summary: how far, when (app clock,
        # after the finger's last change) and from where.
        res["turned_detail"] = {"travel_px": fmt(travel), "back_px": fmt(back),
                                "back_after_ms": fmt(1000 * (back_t - finger[-1][0])),
                                "start_px": fmt(start), "finger_end_px": fmt(finger[-1][1])}
    # Input-time series.
    aligned = [(t_touch - 0.01, start)]
    lag = 0.0
    for t, x, ti in ch:
        if ti is not None:
            lag = t - ti
            aligned.append((ti, x))
        else:
            aligned.append((t - lag, x))
    aligned.sort()
    sign = 1.0 if ch[-1][1] >= start else -1.0
    # The finger's speed: the last 50 ms of the finger phase, up to the finger's last event the
    # app applied. The release comes a pad frame after that event, and the content does not
    # move in between: interpolating up to the release would draw the line across the
    # handover's hole to the glide's first change, and the hole would lower the finger's
    # speed (by 10-20 % in the apps, which raised every ratio as much).
    t_last = finger[-1][2]
    before, last = value_at(aligned, t_last - 0.05), value_at(aligned, t_last)
    # The glide's speed: from where the content stands at the release (the finger's last
    # position; no change comes between that event and the release) to 100 ms after it.
    at = content_at(aligned, r)
    after = value_at(aligned, r + 0.1)
    res["speed_before_px_s"] = sign * (last - before) / 0.05
    res["speed_after_px_s"] = sign * (after - at) / 0.1
    res["ratio"] = res["speed_after_px_s"] / res["speed_before_px_s"] if res["speed_before_px_s"] > 0 else None
    res["lag_ms"] = 1000 * (finger[-1][0] - finger[-1][2])
    # The handover on the input's clock (what the app's paint lag does not blur): from the
    # finger's last event the app applied to the first event after the release that moved
    # the content (flickd's, in a flick with flickd).
    after_release = [ti for _, _, ti in ch if ti is not None and ti > r + 0.0005]
    res["handover_ms"] = 1000 * (after_release[0] - finger[-1][2]) if after_release else None
    # App clock: the finger phase ends (for the user) at the last finger-driven change.
    t_end = finger[-1][0]
    # The app's frame period: the median interval between its own paints in the finger phase
    # (not between offset changes: GTK3 and Qt apply every input event at once, so those come
    # at the pad's event rate). Paints less than 3 ms apart are one frame (Qt logs the paint
    # events of the viewport and of the content).
    res["finger_span"] = (finger[0][0], t_end)
    res["frame_ms"] = paint_period_ms(lines, finger[0][0], t_end)
    after_ch = [c for c in ch if c[0] > t_end]
    window = [t_end] + [c[0] for c in after_ch if c[0] <= t_end + 0.3]
    gaps = [b - a for a, b in zip(window, window[1:])]
    nxt = next((c[0] for c in after_ch if c[0] > t_end + 0.3), None)
    if not after_ch:
        # The content stopped dead at the finger's end: a gap that never ends. Capped at the
        # window, it met the goal in an app painting every 200 ms or more.
        gaps.append(math.inf)
    elif nxt is not None:
        gaps.append(nxt - window[-1])  # a gap that begins in the window counts whole
    else:
        # The content never moved again: from its last change to the window's end is a stall too.
        gaps.append(t_end + 0.3 - window[-1])
    res["gap_ms"] = 1000 * max(gaps)
    finger_times = sorted({c[0] for c in finger})
    res["finger_gap_ms"] = 1000 * max(b - a for a, b in zip(finger_times, finger_times[1:])) if len(finger_times) >= 2 else None
    res["gap_frames"] = res["gap_ms"] / res["frame_ms"] if res["gap_ms"] and res["frame_ms"] else None
    fsteps = [abs(b[1] - a[1]) for a, b in zip(finger, finger[1:]) if b[1] != a[1]]
    seq = [finger[-1]] + after_ch
    csteps = [abs(b[1] - a[1]) for a, b in zip(seq, seq[1:]) if b[1] != a[1]]
    res["finger_step_px"] = statistics.median(fsteps) if fsteps else None
    # No change after the finger's: no coast step to judge (the ratio and distance say it stopped).
    res["coast_step_px"] = max(csteps) if csteps else None
    res["step_ratio"] = (res["coast_step_px"] / res["finger_step_px"]
                         if res["finger_step_px"] and res["coast_step_px"] is not None else None)
    # Forward only, the finger's way: a glide that went back a little (less than `turned` asks)
    # moved the content nowhere the user flicked it.
    way = 1.0 if travel >= 0 else -1.0
    res["distance_px"] = max(0.0, way * (ch[-1][1] - at))
    res["end_px"] = ch[-1][1]  # where the content came to rest (an end of its range: an edge hit)
    # What flickd's model predicts for this release speed: v0/k (flickd's default rate).
    if res["speed_before_px_s"] > 0:
        res["distance_fraction"] = res["distance_px"] / (res["speed_before_px_s"] / MODEL_K_PER_S)
    if no_input_clock:
        # The finger's last events the server stamped after the kernel's release are not the
        # glide's: counted from there, an app that stops dead glided by its finger's backlog (a
        # slow flick's, 240 px at 2400 px/s, read 0.2 of the model's distance: "keeps moving"
        # passed, and its negative control said the check could not fail). So the distance counts
        # from the kernel's release + `slack`, the latest the server stamps the finger's events,
        # against what the model has left from then on, v0/k·e^(−k·slack): a glide at the model's
        # rate reads the same as from the release, a stop-dead app 0 however late its backlog's
        # stamps (up to the slack). Against the whole v0/k a model glide would read 0.74, and the
        # synaptics driver's (whose trace has no scroll stop), which spends more of its travel
        # early, 0.195-0.31, on the floor (five flicks of a CI run's log, release estimated:
        # 0.29-0.34 from the release; 0.26-0.42 against what the model has left).
        # The speed before stays: it ends at the finger's last change stamped by the kernel's
        # release, which the backlog only moves earlier.
        res["unsplit"] = {key: res[key] for key in ("distance_px", "distance_fraction") if key in res}
        res["distance_cut_ms"] = 1000 * slack
        res["distance_px"] = max(0.0, way * (ch[-1][1] - content_at(aligned, r_kernel + slack)))
        if res["speed_before_px_s"] > 0:
            left = res["speed_before_px_s"] / MODEL_K_PER_S * math.exp(-MODEL_K_PER_S * slack)
            res["distance_fraction"] = res["distance_px"] / left
    # The app's own glide after flickd's first event reached it (app clock).
    # A flickd that wrote nothing after this release did not coast it (a 60 mm/s flick it read
    # under coast.min_speed, seen): the app's own glide then came after no event of flickd's,
    # and is left to it, so the flick has no figure here (None), rather than a count from the
    # finger's end, which is the figure without flickd.
    if flickd_ran and first_flickd is None:
        res["own_after_flickd"] = None
    else:
        own_from = own_glide_from(lines, ch, first_input, t_end)
        marked, unmarked = own_glide_changes(lines, own_from, unmarked_own)
        res["own_after_flickd"] = marked + unmarked
        res["own_unmarked"] = unmarked
    res["own_total"] = sum(1 for t, kind, _ in lines if kind == "own" and t >= t_touch)
    res["decel"] = any(kind == "decel" and t >= t_touch for t, kind, _ in lines)
    res["flickd_first_ms"] = 1000 * (first_flickd - r_kernel) if first_flickd is not None else None
    dropped = first_event_dropped(lines, axis, first_input if first_input is not None else r)
    if dropped is not None:
        res["gtk_dropped_px"] = dropped
        # The ratio had the toolkit applied that event (it falls in the first 100 ms).
        if res["speed_before_px_s"] > 0:
            res["ratio_with_dropped"] = (res["speed_after_px_s"] + dropped / 0.1) / res["speed_before_px_s"]
    if no_input_clock:
        # The server stamped the finger's last events after the kernel's release (Xwayland 12 ms
        # late: an app that stopped dead read a ratio of 0.40 from its finger's backlog).
        res["unsplit"].update({key: res[key] for key in SPLIT_FIGURES if key in res})
        res.update({key: None for key in SPLIT_FIGURES if key in res})
        res["no_input_clock"] = no_input_clock
    return res


def finger_seen(m):
    """Whether measure() found the flick's finger phase in the app (two finger-driven changes,
    forward): a flick without it is not a measurement."""
    return (m.get("speed_before_px_s") or 0) > 0


def own_glide_from(lines, ch, first_flickd, t_end):
    """The app time from which a change made by the app's own glide counts as coming after
    flickd's first event reached the app (`first_flickd` on the app's input clock: measure's
    `input_clock`). GTK 4 logs where its scroll sequences begin: there,
    the beginning of the glide's sequence (the first "begin" stamped at or after flickd's first
    event, after the finger phase). Elsewhere the first offset change whose input event is
    stamped at or after flickd's first event. (Xorg stamps an event when it reads it, so the
    real pad's scroll stop can carry a later stamp than flickd's first frame: under Xorg the
    GTK 4 glide's own first ticks, which the stop starts, would otherwise count.) Without
    flickd: the end of the finger phase, `t_end`."""
    if first_flickd is None:
        return t_end
    begin = next((t for t, kind, a in lines
                  if kind == "begin" and a and t >= t_end and float(a[0]) / 1000.0 >= first_flickd - 0.002), None)
    if begin is not None:
        return begin
    return next((c[0] for c in ch if c[2] is not None and c[2] >= first_flickd - 0.002), t_end)


def own_glide_changes(lines, own_from, unmarked=False):
    """(the "own" lines after app time `own_from`: changes the app marked as its own glide's;
    with `unmarked`, the offset changes after it with no input event and no "own" line, on
    either axis, but for the jump that follows a "center" line).

    app.py marks a GTK change as the glide's only while it believes a glide runs: from GTK's
    "decelerate" (GTK3: its scroll-stop) to the next scroll event, which cancels GTK's glide.
    GTK 4.8's ScrolledWindow ignores the first event of a scroll sequence, so a glide can
    outlive flickd's first events: its later ticks come with no input event and no mark.
    app.py stamps every change made while GTK handles an input event with that event's time,
    and GTK applies a touchpad's smooth scroll events (the real pad's and flickd's virtual
    touchpad's) at once: what changes the offset outside that is GTK's glide, or the snap back
    from an overshoot at an end of the content, which a glide causes. In the reduced set's app
    logs of two CI runs (every GTK pair, flickd's default output) the only unstamped changes
    without an "own" line were the "center" jumps. The caller asks for this only for GTK and
    not with flickd's wheel output (GLIDING_TOOLKITS, run_scenario): GTK3 animates a discrete
    wheel step, whose ticks have no input event either. Not for Qt: its widgets have no glide
    of their own and apply each wheel event while handling it; nor for chromium, whose page
    sees its fling only in part (browser_app.py)."""
    marked = sum(1 for t, kind, _ in lines if kind == "own" and t > own_from)
    if not unmarked:
        return marked, 0
    count = 0
    jump = {}  # per axis, the offset a "center" set and no change has shown yet: the jump to it
    for i, (t, kind, a) in enumerate(lines):
        if kind == "center" and len(a) >= 2:
            jump = {"v": float(a[0]), "h": float(a[1])}
        elif kind in ("v", "h"):
            if jump.pop(kind, None) == float(a[0]):
                continue
            own_line = i + 1 < len(lines) and lines[i + 1][1] == "own"
            no_input = not (len(a) > 1 and float(a[1]) >= 0)
            if t > own_from and no_input and not own_line:
                count += 1
    return marked, count


def first_event_dropped(lines, axis, t_from):
    """GTK 4 (the app logs "begin" and each delivered scroll event as "ev dx dy time"): the
    offset the first scroll event of a scroll sequence beginning within 300 ms of `t_from`
    (input clock, s)
    would have moved had the ScrolledWindow applied it; 0 when it was applied; None when the log
    has no such sequence. GTK 4.8's ScrolledWindow ignores the first event of each sequence,
    which GDK has made of every event of that frame (per-frame compression). Its size in px is
    the event's delta times the px per delta unit of the next event, which it applies."""
    index = {"v": 1, "h": 0}[axis]
    events = [(t, kind, a) for t, kind, a in lines if kind in ("begin", "ev", axis)]
    start = next((i for i, (t, kind, a) in enumerate(events)
                  if kind == "begin" and a and 0.3 >= float(a[0]) / 1000.0 - t_from >= -0.002), None)
    if start is None:
        return None
    evs = [i for i in range(start + 1, len(events)) if events[i][1] == "ev"][:3]
    if len(evs) < 2:
        return None

    def change_after(i, j):
        """The offset change made between event line i and line j (None: no change)."""
        offsets = [float(events[k][2][0]) for k in range(i + 1, j) if events[k][1] == axis]
        before = [float(events[k][2][0]) for k in range(0, i) if events[k][1] == axis]
        if not offsets or not before:
            return None
        return abs(offsets[-1] - before[-1])

    first, second = evs[0], evs[1]
    if change_after(first, second) is not None:
        return 0.0
    third = evs[2] if len(evs) > 2 else len(events)
    applied = change_after(second, third)
    units = abs(float(events[second][2][index]))
    if applied is None or units == 0:
        return None
    return abs(float(events[first][2][index])) * applied / units


def measure_touch_stop(lines, flick, touch, last_motion, center_t, slack, settle=None):
    """Figures of one touch-stop try: what moved after flickd's last motion, and against the
    flick's direction. `slack`: how much later than the kernel's stamp the app's input times can
    be (Server.input_clock_slack_s, or the app's App.input_clock_slack_s when larger). `settle`: kernel time of flickd's first settle frame
    (one device unit, SETTLE_GAP_S or more after its last motion; split_settle), or None: input-driven changes
    stamped from it to SETTLE_OWN_S later are the settle frames' own (`settle_px`), not stray. None when the app did not see the
    flick (fewer than two finger-driven changes)."""
    t_touch = flick.get("k_touch") or flick["t_touch"]
    r = flick.get("k_release") or flick["t_release"]
    ch = [c for c in changes(lines, "v", center_t + 0.05) if c[0] >= t_touch]
    finger = [c for c in ch if c[2] is not None and t_touch - 0.01 <= c[2] <= r + 0.001]
    if len(finger) < 2 or not ch:
        return None
    sign = 1.0 if finger[-1][1] >= finger[0][1] else -1.0
    # Against the flick: any step back, finger phase and coast alike.
    reverse = sum(max(0.0, -sign * (b[1] - a[1])) for a, b in zip(ch, ch[1:]))
    # After flickd stopped: the offset when the app handled the last change stamped no later than
    # flickd's last motion, against where the content rests. Changes with no input event (a
    # toolkit's own glide) and changes stamped later count as stray.
    upto = [c for c in ch if c[2] is not None and c[2] <= last_motion + slack]
    stopped_at = upto[-1] if upto else finger[-1]
    later = [c for c in ch if c[0] > stopped_at[0]]
    steps = [(b, abs(b[1] - a[1])) for a, b in zip([stopped_at] + later, later)]
    k_touch = touch.get("k_touch") or touch["t_touch"]

    def settled(c):
        # The settle frames' own changes: stamped from the first to well before the lift 300 ms
        # later (a browser's fling at the lift is stray).
        return settle is not None and settle - 0.001 <= c[2] < settle + SETTLE_OWN_S
    return {"stop_ms": 1000 * (last_motion - k_touch),
            "settle_ms": None if settle is None else 1000 * (settle - last_motion),
            "own_px": sum(px for c, px in steps if c[2] is None),
            "stray_px": sum(px for c, px in steps if c[2] is not None and not settled(c)),
            "settle_px": sum(px for c, px in steps if c[2] is not None and settled(c)),
            "reverse_px": reverse, "coast_px": abs(stopped_at[1] - finger[-1][1]),
            # For the log: each change after the stop, (app ms, px, input ms or None) after the touch.
            "after_stop": [(round(1000 * (c[0] - k_touch)), round(px, 1),
                            None if c[2] is None else round(1000 * (c[2] - k_touch))) for c, px in steps]}


GLIDE_ENDED = "flickd's glide ended (its devices quiet for 0.5 s within 10 s of the app's settle)"


def wait_settled(app, daemon):
    """After a flick: waits until the app is still and flickd's devices are quiet. "" when they
    settled, else what was still moving: flickd still writing when its wait ran out is a glide
    that never ends, which must fail (GLIDE_ENDED), not be measured as one that ended."""
    still = app.wait_still(quiet=0.8, timeout=12)
    if daemon is None or daemon.wait_quiet():
        return ""
    return "flickd's devices still wrote 10 s after the app %s" % (
        "was still" if still else "had not been still for 0.8 s within 12 s")


def run_touch_stop(args, server, app, pad, daemon, mode, checks):
    """Issue 11: a touch on the real pad while flickd's virtual fingers carry a coast stops it,
    with no stray scroll in either direction. A 150 mm/s flick down; TOUCH_STOP_AFTER_S after the
    release one finger lands on the real pad and rests TOUCH_STOP_HOLD_S (no tap).

    Asserted (robust under emulation), over TOUCH_STOP_TRIES measured tries (fewer: not
    measurable): flickd's last motion within TOUCH_STOP_WITHIN_S of the touch (its devices and
    the pad on the kernel clock) and no offset change from the toolkit's own glide after it; a
    flick written on time after which flickd wrote nothing fails (it had ended, or it runs and
    did not coast a 150 mm/s flick, which run_scenario fails too; a coast it logged and the
    touch stopped before its first write is a stall of flickd's, not a try), and so does a glide
    that had not ended 10 s after the app was still (wait_settled). Reported
    as goals (the app's input clock is noisy here, and a rare backward step at the start of a
    coast was seen under Xorg + Qt6): no input-driven change after flickd's last motion, none
    against the flick."""
    name = "%s/%s/%s touch on the real pad mid-coast" % (server.name, app.toolkit, mode)
    tries = []
    # Tries not measured, by why: written late, flickd wrote nothing after the release (it ended,
    # or it runs and logged no coast: both a failure; it logged one the touch stopped before its
    # first write: flickd stalled past the touch under emulation), its coast began after the
    # touch, the app did not see the flick.
    skipped = {"late": 0, "flickd ended": 0, "no coast": 0, "stopped before its first write": 0,
               "coast after the touch": 0, "unseen": 0}
    ended = unsettled = ""
    before = daemon.libinput_counts()
    # Twice the tries needed, or the flicks asked for: --flicks 1 still plays enough.
    for i in range(max(args.flicks, TOUCH_STOP_TRIES) * 2):
        if len(tries) >= TOUCH_STOP_TRIES:
            break
        center_t = app.recenter()
        duration, y = flick_plan(pad, "down", 150.0)
        log_mark = len(daemon.text())
        flick = pad.flick("down", speed=150.0, duration=duration, interval=0.010, spacing=18.0, y=y,
                          at_write_time=True)
        r = flick.get("k_release") or flick["t_release"]
        time.sleep(TOUCH_STOP_AFTER_S)
        touch = pad.touch(hold=TOUCH_STOP_HOLD_S, y=y - pad.height_mm / 4)
        time.sleep(0.5)
        unsettled = wait_settled(app, daemon)
        if unsettled:
            break  # judged below: the touch did not end the glide
        k_touch = touch.get("k_touch") or touch["t_touch"]
        first = daemon.first_event_after(r - 0.005)
        last_motion, settle = daemon.last_motion_after(r - 0.005)
        late = max(flick.get("max_late_ms") or 0, touch.get("max_late_ms") or 0) > 25
        if late:
            skipped["late"] += 1
            continue
        if first is None or last_motion is None:
            ended = daemon.ended()
            if ended:
                skipped["flickd ended"] += 1
                break  # no later try can coast
            planned = re.search(r"device \d+: coast at ", daemon.text()[log_mark:])
            skipped["stopped before its first write" if planned else "no coast"] += 1
            continue
        if first >= k_touch:
            skipped["coast after the touch"] += 1
            continue  # the coast had not begun when the finger landed (emulator stall): not a try
        slack = max(server.input_clock_slack_s, app.input_clock_slack_s)
        m = measure_touch_stop(app.lines(), flick, touch, last_motion, center_t, slack, settle)
        if m is None:
            skipped["unseen"] += 1
            continue
        tries.append(m)
        if args.verbose:
            log("%s #%d: %s" % (name, i, json.dumps({k: fmt(v) if isinstance(v, (int, float)) else v for k, v in m.items()})))
    seen = libinput_since(daemon, before)
    row = {"server": server.name, "toolkit": app.toolkit, "mode": mode, "scenario": "touch-stop",
           "tries": len(tries), "bad_events": seen and seen["bad"], "libinput_touch_jumps": seen and seen["jumps"],
           "not_tries": {k: v for k, v in skipped.items() if v}}
    for key in ("stop_ms", "settle_ms", "own_px", "stray_px", "settle_px", "reverse_px", "coast_px"):
        row[key] = [fmt(m[key], 1) for m in tries]
    print(json.dumps(row), flush=True)
    # Every try played (measured or not): the stopped fingers freeze, settle and lift after a
    # rest, where a tap or a motion would come.
    check_bad_events(checks, name, "during the touch stops", seen, daemon)
    not_tries = "; not tries: %s" % ", ".join("%d %s" % (n, why) for why, n in row["not_tries"].items()) if row["not_tries"] else ""
    if unsettled:
        checks.check(name, GLIDE_ENDED, False, "flickd's devices quiet after the touch", unsettled)
        return row
    if ended or skipped["no coast"]:
        checks.check(name, "flickd coasts every flick written on time until the touch", False,
                     "output from flickd after each release",
                     ("%d of %d tries measured before it ended: %s" % (len(tries), TOUCH_STOP_TRIES, ended)) if ended
                     else "flickd runs but wrote nothing after the release of %d of the 150 mm/s flicks written on time "
                     "(%d tries measured%s)" % (skipped["no coast"], len(tries), not_tries))
        return row
    if len(tries) < TOUCH_STOP_TRIES:
        checks.check(name, "the coast stops with no stray scroll", None, "",
                     "%d of the %d tries needed measured%s" % (len(tries), TOUCH_STOP_TRIES, not_tries))
        return row
    within = TOUCH_STOP_WITHIN_S * 1000
    figures = ("%d tries: last motion %s ms after the touch, own glide %s px, coast %s px; settle frame %s ms"
               " after the last motion, %s px in the app%s"
               % (len(tries), row["stop_ms"], row["own_px"], row["coast_px"], row["settle_ms"], row["settle_px"], not_tries))
    if app.toolkit == "chromium":
        # The page sees chromium's fling only in part (changes without a DOM wheel event; its
        # momentum wheel events look like input), so for chromium flickd's stop is asserted and
        # the browser's own glide after it is a goal, reported with its figures (docs/APPS.md).
        checks.check(name, "flickd's last motion within %d ms of the touch" % within,
                     max(m["stop_ms"] for m in tries) <= within,
                     "last motion <= %d ms after the touch" % within, figures)
        checks.goal(name, "no glide of chromium's own after the touch", max(m["own_px"] for m in tries) == 0, figures)
    else:
        checks.check(name, "flickd's last motion within %d ms of the touch, no toolkit glide after it" % within,
                     max(m["stop_ms"] for m in tries) <= within and max(m["own_px"] for m in tries) == 0,
                     "last motion <= %d ms after the touch, 0 px of own glide" % within, figures)
    clean = [m for m in tries if m["stray_px"] == 0 and m["reverse_px"] == 0]
    checks.goal(name, "no input-driven offset change after flickd's last motion, none against the flick",
                len(clean) == len(tries),
                "%d of %d tries clean; stray %s px, reverse %s px%s" % (
                    len(clean), len(tries), row["stray_px"], row["reverse_px"],
                    "".join("; after the stop (app ms, px, input ms): %s" % m["after_stop"]
                            for m in tries if m["stray_px"] or m["reverse_px"])))
    return row


def measure_quick_flicks(lines, flicks, slack, last_window=QUICK_LAST_GLIDE_S, releases=None):
    """Per flick of a quick series (`flicks`: vdev's results, in order, all one way), the
    content's motion the way the finger phases moved it (down, or up where the desktop scrolls
    naturally) during the finger phase (input stamped from the landing to the release) and after
    the release (stamped from it to the next flick's landing; `last_window` s for the last
    flick), in px, and their ratio; and "intervals", the times (s) between the input times of
    consecutive input-driven changes from its landing to the next. Only steps into an
    input-driven change count: not a "center" jump (the change after a "center" line, whatever
    input time the app gave it), nor a toolkit's own glide (no input event). `slack`: how much
    later than the kernel's stamp the app's input times can be; `releases`: per flick, its
    release on the clock of the app's input times (x_input_clock's "release"; under Xorg the
    server's read time of the lift) or None: the finger phase ends there, and only where it is
    not known at the kernel's release + `slack` (under Xorg 150 ms: the first 150 ms of each
    glide counted as the finger's). Returns (the flicks' figures,
    the px the content moved by changes with no input event from the first landing on: the
    toolkit's own glide, not the jumps)."""
    steps = []
    own = 0.0
    before = None
    jump = False
    # The largest offset ("ready W H"): a flick during which the content reached an end of its
    # range is not judged (a lagging app applies a backlog on top of the "center" jump).
    vmax = max([float(a[1]) for _t, kind, a in lines if kind == "ready" and len(a) > 1] or [0.0])
    for t, kind, a in lines:
        if kind == "center":
            jump = True  # the app logs "center", then sets the offset: its next change is the jump
        elif kind == "v":
            offset, ms = float(a[0]), (float(a[1]) if len(a) > 1 else -1)
            if before is not None and not jump:
                if ms >= 0:
                    steps.append((ms / 1000.0, offset - before, offset))
                elif flicks and t >= (flicks[0].get("k_touch") or flicks[0]["t_touch"]):
                    own += abs(offset - before)  # no input event: the toolkit's own glide
            jump = False
            before = offset
    windows = []
    for i, f in enumerate(flicks):
        t_touch = f.get("k_touch") or f["t_touch"]
        r = f.get("k_release") or f["t_release"]
        if i + 1 < len(flicks):
            end = flicks[i + 1].get("k_touch") or flicks[i + 1]["t_touch"]
        else:
            end = r + last_window
        times = [t for t, _, _ in steps if t_touch - 0.001 <= t < end]
        released = releases[i] if releases and releases[i] is not None else None
        cut = released + 0.0005 if released is not None else r + slack
        windows.append((sum(px for t, px, _ in steps if t_touch - 0.001 <= t <= cut),
                        sum(px for t, px, _ in steps if cut < t < end),
                        (f.get("max_late_ms") or 0) > 25,
                        vmax > 0 and any(v <= 5 or v >= vmax - 5 for t, _, v in steps if t_touch - 0.001 <= t < end),
                        [b - a for a, b in zip(times, times[1:])]))
    # The content's way: that of the finger phases together.
    sign = -1.0 if sum(w[0] for w in windows) < 0 else 1.0
    out = []
    for finger, glide, late, edge, intervals in windows:
        finger, glide = sign * finger, sign * glide
        out.append({"finger_px": finger, "glide_px": glide,
                    "ratio": glide / finger if finger > 0 else None, "late": late, "edge": edge,
                    "intervals": intervals})
    return out, own


def quick_input_interval(per):
    """The median time (s) between an app's consecutive input-driven changes over a quick series
    (measure_quick_flicks's figures); None without two changes in one flick."""
    return median([i for m in per for i in m.get("intervals", ())])


def quick_input_too_coarse(interval):
    """Why a quick series whose app applied its input every `interval` s (quick_input_interval)
    cannot be judged, or None when it can."""
    if interval is None:
        return "the app applied no two input-driven changes within one flick"
    if interval > QUICK_COARSEST_INPUT_S:
        return ("the app applied its input every %.0f ms (median), more than %g ms: a glide's events and"
                " the next flick's can come as one change" % (interval * 1000, QUICK_COARSEST_INPUT_S * 1000))
    return None


def judge_quick_flicks(per):
    """The flicks of a quick series (measure_quick_flicks's figures) that are judged, and the
    series' median finger phase (px): written on time, not at an end of the content, and seen
    by the app, its finger phase moving at least half that median. Under Xorg a lagging Qt drops
    what the server handled before it got to each switch of device, the finger's events too
    (docs/APPS.md, "What Qt does at the device switch"): 65-586 px against about 2100 px in one
    run, and the glides after them 0-462 px."""
    typical = median([m["finger_px"] for m in per]) or 0.0
    return [m for m in per if not m["late"] and not m["edge"] and m["finger_px"] > 0
            and m["finger_px"] >= 0.5 * typical], typical


def quick_flicks_glide(judged):
    """Whether every judged flick glided on by QUICK_GLIDE_FRACTION of its finger phase."""
    return all(m["glide_px"] >= QUICK_GLIDE_FRACTION * m["finger_px"] for m in judged)


def run_quick_flicks(args, server, app, pad, daemon, mode, checks):
    """Quick flicks one way, as a user paging through a long document does: QUICK_FLICKS flicks
    down at --quick-speed (150 mm/s unless told), each next one landing QUICK_FLICK_GAP_S after
    the last release (its touch stops that glide, and the virtual fingers, still resting, carry
    the next). Every flick must
    glide on in the app after its release (docs/DESIGN.md, "A new release while the fingers are
    down"): before, the virtual fingers walked to the surface's margin and from about the eighth
    flick on the glides moved nothing. The app is asked for the middle before each flick, so its
    content seldom reaches an end; the jumps are no input-driven change and do not count.

    Asserted: every flick written on time, seen by the app (its finger phase moved at least
    half the series' median) and not ending at an end of the content (a lagging app applies its
    backlog on top of the "center" jump) glided at least
    QUICK_GLIDE_FRACTION of its finger phase's motion, the right way; no button, tap, pointer
    motion or gesture from flickd's devices. Not measurable: an app that applies its input
    too seldom to tell a glide from the next flick (quick_input_too_coarse)."""
    name = "%s/%s/%s quick flicks" % (server.name, app.toolkit, mode)
    speed = args.quick_speed
    app.recenter()
    before = daemon.libinput_counts()
    duration, y = flick_plan(pad, "down", speed)
    flicks = []
    for _ in range(QUICK_FLICKS):
        app.center()
        flicks.append(pad.flick("down", speed=speed, duration=duration, interval=0.010, spacing=18.0, y=y,
                                at_write_time=True))
        time.sleep(QUICK_FLICK_GAP_S)
    time.sleep(0.5)
    unsettled = wait_settled(app, daemon)
    if unsettled:
        checks.check(name, GLIDE_ENDED, False, "flickd's devices quiet after the last flick's glide", unsettled)
        return None
    seen = libinput_since(daemon, before)
    bad = seen and seen["bad"]
    bad_ok, bad_note = bad_event_verdict(seen)
    slack = max(server.input_clock_slack_s, app.input_clock_slack_s)
    releases = None
    if getattr(server, "x_trace_path", None):
        # Under Xorg each flick's finger phase ends at its release on the server's clock.
        events, sources = read_x_trace_sources(server.x_trace_path)
        releases = [x_input_clock(events, sources, f.get("k_release") or f["t_release"], "v").get("release")
                    for f in flicks]
    per, own = measure_quick_flicks(app.lines(), flicks, slack, releases=releases)
    judged, typical = judge_quick_flicks(per)
    row = {"server": server.name, "toolkit": app.toolkit, "mode": mode, "scenario": "quick-flicks", "speed": speed,
           "flicks": len(per), "judged": len(judged), "late": sum(1 for m in per if m["late"]),
           "edge_hits": sum(1 for m in per if m["edge"]), "bad_events": bad, "own_px": fmt(own, 1),
           "finger_px": [fmt(m["finger_px"], 0) for m in per], "glide_px": [fmt(m["glide_px"], 0) for m in per],
           "ratio": [fmt(m["ratio"], 2) if m["ratio"] is not None else None for m in per],
           # libinput discarding a touch jump of the virtual touchpad: a glide continuing resting
           # fingers at a high speed is where one would come (docs/DESIGN.md, "A new release
           # while the fingers are down"). Reported, as in the other scenarios.
           "libinput_touch_jumps": seen and seen["jumps"]}
    interval = quick_input_interval(per)
    row["input_interval_ms"] = fmt(interval * 1000, 1) if interval is not None else None
    print(json.dumps(row), flush=True)
    figures = ("glide/finger per flick at %g mm/s %s (%d of %d judged; %d written late, %d reached an end of the content,"
               " the rest judged where the finger phase moved >= half the median, %s px), %s bad events, %s touch jumps"
               " discarded by libinput; %s px of the toolkit's own glide (not asserted)" % (
                   speed, row["ratio"], len(judged), len(per), row["late"], row["edge_hits"], fmt(typical, 0), bad,
                   row["libinput_touch_jumps"], row["own_px"]))
    coarse = quick_input_too_coarse(interval)
    if coarse:
        figures = coarse + "; " + figures
    glided = quick_flicks_glide(judged) if len(judged) >= QUICK_FLICKS // 2 and not coarse else None
    what = "every quick flick glides on (after its release >= %g x its finger phase, the right way)" % QUICK_GLIDE_FRACTION
    # Qt under Xorg drops every event the X server handled before Qt handled a switch of device,
    # and each flick here makes two: a Qt lagging by about a glide's 300 ms loses all of it.
    # Seen in 2 of 4 runs (one flick each), and with the build before the landing again too,
    # before its fingers reached the margin (docs/APPS.md, "Quick flicks one way"): there the
    # glides are a goal.
    if glided is None or (isinstance(server, Xorg) and app.toolkit == "qt6"):
        if glided is None:
            checks.check(name, what, None, "", ("" if coarse else "too few flicks judged: ") + figures)
        else:
            checks.goal(name, what, glided, figures)
        checks.check(name, "no button, tap, motion or gesture from flickd during the quick flicks",
                     bad_ok, "0 bad events", figures + bad_note)
        return row
    checks.check(name, what + ", no button, tap, motion or gesture from flickd",
                 all_of(glided, bad_ok),
                 "each >= %g; 0 bad events" % QUICK_GLIDE_FRACTION, figures + bad_note)
    return row


def input_sign(lines, t_from, t_to, center_t, axis="v"):
    """Which way (+1.0 or -1.0) the input stamped from `t_from` to `t_to` moved the content, net
    (after the "center" at `center_t`); None when it moved it nowhere."""
    ch = changes(lines, axis, center_t + 0.05)
    net = sum(ch[i][1] - ch[i - 1][1] for i, c in enumerate(ch)
              if i > 0 and c[2] is not None and t_from - 0.001 <= c[2] <= t_to)
    return None if net == 0 else (1.0 if net > 0 else -1.0)


def measure_scroll(lines, scroll, hold, center_t, slack, sign=None):
    """The content's motion (px, along the scroll: forward, backward) from the input events of a
    hand scroll whose fingers landed, rested `hold` s and moved until the release: each offset
    change stamped from the motion's start to the release (Server.input_clock_slack_s late at
    most) counts from the change before it, whatever moved that one (a toolkit's own glide
    counts nowhere); and how many there were. None when the app saw fewer than two. `sign`:
    which way the scroll moves the content (input_sign of a motion the same way); without it,
    the way the content went, net."""
    t0 = (scroll.get("k_touch") or scroll["t_touch"]) + hold
    r = scroll.get("k_release") or scroll["t_release"]
    ch = changes(lines, "v", center_t + 0.05)
    during = [i for i, c in enumerate(ch) if c[2] is not None and t0 - 0.001 <= c[2] <= r + slack]
    if len(during) < 2:
        return None
    steps = [ch[i][1] - ch[i - 1][1] for i in during if i > 0]
    if sign is None:
        sign = 1.0 if sum(steps) >= 0 else -1.0
    return {"forward_px": sum(max(0.0, sign * d) for d in steps),
            "backward_px": sum(max(0.0, -sign * d) for d in steps), "changes": len(during)}


def run_stop_scroll(args, server, app, pad, daemon, mode, checks):
    """A user who stops a glide with two fingers and scrolls on by hand: the hand scroll must reach
    the app as a scroll the same fingers make after a rest. The virtual fingers, frozen at the
    touch, settle and lift during it (docs/DESIGN.md); under X11 each of their scroll events is a
    switch of device, at which toolkits drop the other device's next events.

    Reported (a goal): per try the scroll's forward and backward motion in the app, and the
    median of the tries against the yardstick's (the same scroll after a STOP_SCROLL_REST_S rest)."""
    name = "%s/%s/%s scroll on by hand after a stop" % (server.name, app.toolkit, mode)
    duration, y = flick_plan(pad, "down", 150.0)
    slack = max(server.input_clock_slack_s, app.input_clock_slack_s)
    runs = {"at once": [], "after a rest": []}
    before = daemon.libinput_counts()
    for i in range(STOP_SCROLL_TRIES * 2):
        for kind, hold in (("at once", 0.0), ("after a rest", STOP_SCROLL_REST_S)):
            center_t = app.recenter()
            flick = pad.flick("down", speed=150.0, duration=duration, interval=0.010, spacing=18.0, y=y,
                              at_write_time=True)
            time.sleep(STOP_SCROLL_AFTER_S)
            scroll = pad.scroll("down", speed=STOP_SCROLL_SPEED, duration=STOP_SCROLL_S, hold=hold, interval=0.010,
                                spacing=18.0, at_write_time=True)
            time.sleep(0.5)
            unsettled = wait_settled(app, daemon)
            if unsettled:
                checks.check(name, GLIDE_ENDED, False, "flickd's devices quiet after the hand scroll", unsettled)
                return None
            late = max(flick.get("max_late_ms") or 0, scroll.get("max_late_ms") or 0) > 25
            # Forward is the way the flick's finger moved the content: a scroll the content
            # showed the other way must not count as forward.
            lines = app.lines()
            sign = input_sign(lines, flick.get("k_touch") or flick["t_touch"], flick.get("k_release") or flick["t_release"],
                              center_t)
            m = None if late else measure_scroll(lines, scroll, hold, center_t, slack, sign)
            if m is not None and len(runs[kind]) < STOP_SCROLL_TRIES:
                runs[kind].append(m)
            if args.verbose:
                log("%s #%d %s: %s" % (name, i, kind, "late" if late else json.dumps(m)))
        if all(len(v) >= STOP_SCROLL_TRIES for v in runs.values()):
            break
    row = {"server": server.name, "toolkit": app.toolkit, "mode": mode, "scenario": "stop-scroll"}
    for kind, key in (("at once", "at_once"), ("after a rest", "after_rest")):
        row[key + "_px"] = [fmt(m["forward_px"], 0) for m in runs[kind]]
        row[key + "_back_px"] = [fmt(m["backward_px"], 0) for m in runs[kind]]
        row[key + "_changes"] = [m["changes"] for m in runs[kind]]
    at_once = median([m["forward_px"] for m in runs["at once"]])
    rested = median([m["forward_px"] for m in runs["after a rest"]])
    row["ratio"] = fmt(at_once / rested, 2) if at_once is not None and rested else None
    seen = libinput_since(daemon, before)
    row["bad_events"], row["libinput_touch_jumps"] = seen and seen["bad"], seen and seen["jumps"]
    print(json.dumps(row), flush=True)
    # Asserted, though the scroll is a goal: the fingers stopped by the hand's freeze, settle
    # and lift while it scrolls.
    check_bad_events(checks, name, "during the stops and hand scrolls", seen, daemon)
    figures = ("scrolled at once %s px (back %s, %s changes) against after a rest %s px (back %s, %s changes): %s" % (
        row["at_once_px"], row["at_once_back_px"], row["at_once_changes"], row["after_rest_px"],
        row["after_rest_back_px"], row["after_rest_changes"], row["ratio"]))
    what = ("a hand scroll right after a stop moves the content >= %g x the same scroll after a rest, none of it back"
            % STOP_SCROLL_FRACTION)
    if row["ratio"] is None:
        checks.goal(name, what, None, "too few tries measured: " + figures)
    else:
        back = sum(m["backward_px"] for m in runs["at once"])
        checks.goal(name, what, at_once >= STOP_SCROLL_FRACTION * rested and back == 0, figures)
    return row


def run_sway_hotplug(args, server, pad, work, checks):
    """sway lists only the devices it has, so a touchpad plugged in after flickd asked it has no
    setting in that answer: flickd must ask again and give the new pad its own direction. The
    real pad is natural (SwayNatural's rule), the one plugged in traditional by a rule of its
    own; flickd's log must end with the first pad natural (sway was read) and the new pad
    traditional (its own setting, not the first pad's)."""
    name = "%s hot-plugged touchpad" % server.name
    daemon = Flickd(args.flickd, "default", work, pad.devnode)
    second = None
    try:
        second = vdev.TouchDevice(vdev.load(SwayNatural.HOTPLUG_PAD), udev_timeout=90.0)
        def settings(devnode):
            return pad_directions(daemon, devnode)
        deadline = mono() + 20
        while mono() < deadline:
            first, new = settings(pad.devnode), settings(second.devnode)
            # The answer to the new ask comes after the line logged at the open, if one was.
            if first and first[-1] == "true" and new and new[-1] == "false":
                break
            time.sleep(0.2)
        lines = [l for l in daemon.text().splitlines() if "natural scrolling" in l]
        checks.check(name, "flickd reads each touchpad's own setting from sway, the one plugged in too",
                     (first[-1:], new[-1:]) == (["true"], ["false"]),
                     "%s natural scrolling true, %s false" % (pad.devnode, second.devnode),
                     "; ".join(lines[-4:]) or "no natural-scrolling line")
    finally:
        if second:
            second.close()
        stop_flickd(checks, name, daemon)


def pad_directions(daemon, devnode):
    """The natural-scrolling values flickd logged for the touchpad at `devnode`, in order."""
    return re.findall(re.escape(devnode) + r" \([^)]*\): natural scrolling (true|false)", daemon.text())


def wait_direction(daemon, devnode, value, seconds=20):
    """Whether flickd's last logged natural scrolling for `devnode` becomes `value` in time."""
    deadline = mono() + seconds
    while mono() < deadline:
        found = pad_directions(daemon, devnode)
        if found and found[-1] == value:
            return True
        time.sleep(0.2)
    return False


def run_sway_started_later(args, server, pad, work, checks):
    """flickd started before sway, as a user service started with the user manager is: run as
    sway's user with only XDG_RUNTIME_DIR (no SWAYSOCK, no XDG_CURRENT_DESKTOP), it starts
    while sway is stopped and finds no desktop setting; when sway starts it must ask sway
    without a reload, and give the real pad SwayNatural's natural scrolling. The guest has no
    logind to give the seat's user /dev/uinput (the udev rule's uaccess tag), so the node is
    opened to all for the check."""
    name = "%s started after flickd" % server.name
    daemon = None
    home = tempfile.mkdtemp(prefix="flickd-user-home-")
    os.chmod(home, 0o777)
    uinput_mode = os.stat("/dev/uinput").st_mode & 0o777
    env = {k: v for k, v in os.environ.items() if k not in ("SWAYSOCK", "XDG_CURRENT_DESKTOP", "WAYLAND_DISPLAY")}
    env.update(XDG_RUNTIME_DIR=server.runtime, HOME=home)
    before = []

    def start_flickd():
        nonlocal daemon, before
        daemon = Flickd(args.flickd, "default", work, pad.devnode, prefix=server.setpriv(input_group=True), env=env)
        before = pad_directions(daemon, pad.devnode)

    try:
        os.chmod("/dev/uinput", 0o666)
        server.restart(between=start_flickd)
        followed = wait_direction(daemon, pad.devnode, "true", seconds=30)
        lines = [l for l in daemon.text().splitlines() if "natural scrolling" in l]
        checks.check(name, "flickd asks a sway that starts after it, without a reload",
                     followed and before[-1:] == ["false"],
                     "%s natural scrolling false (no sway), then true" % pad.devnode,
                     "before sway: %s; after: %s | %s" % (before[-1:] or "no line", pad_directions(daemon, pad.devnode)[-1:],
                                                           "; ".join(lines[-3:]) or "no natural-scrolling line"))
    finally:
        if daemon:
            stop_flickd(checks, name, daemon)
        os.chmod("/dev/uinput", uinput_mode)
        shutil.rmtree(home, ignore_errors=True)


def run_sway_runtime_change(args, server, pad, work, checks):
    """A setting changed while flickd runs (`swaymsg input <identifier> natural_scroll ...`, as
    a user does by hand or sway's reload does for edited rules): sway says so on its IPC and
    flickd must ask again without a reload. The real pad (natural by SwayNatural's rule) is made
    traditional, then natural again; flickd's log must follow both, and sway's answer to the
    check is what get_inputs says."""
    name = "%s runtime change" % server.name
    daemon = Flickd(args.flickd, "default", work, pad.devnode)
    identifier = SwayNatural.identifier(vdev.load(PAD))
    try:
        followed = wait_direction(daemon, pad.devnode, "true")
        steps = []
        for value, setting in (("false", "disabled"), ("true", "enabled")):
            before = len(pad_directions(daemon, pad.devnode))
            r = server.swaymsg("input", identifier, "natural_scroll", setting)
            ok = (r.returncode == 0 and wait_direction(daemon, pad.devnode, value)
                  and len(pad_directions(daemon, pad.devnode)) > before)
            steps.append("%s -> %s" % (setting, "followed" if ok else "NOT followed (%s)" % (r.stderr.strip() or "no new line")))
            followed = followed and ok
        lines = [l for l in daemon.text().splitlines() if "natural scrolling" in l or "sway" in l]
        checks.check(name, "flickd follows a `swaymsg input` change without a reload", followed,
                     "%s natural scrolling true, then false, then true" % pad.devnode,
                     "; ".join(steps) + " | " + "; ".join(lines[-4:]))
    finally:
        server.swaymsg("input", identifier, "natural_scroll", "enabled")
        stop_flickd(checks, name, daemon)


# --------------------------------------------------------------------------------- runner ---

class Checks:
    """Two kinds of checks. ASSERTED ones are behaviour that must hold (they count towards
    "apps: N passed, M failed" and fail the run); GOALS are issue 11's targets, printed as
    "goal met:" / "goal NOT met:" and summarised in "apps goals: N met, M not met", never
    failing the run. What cannot be measured is printed as "not measurable:" with the reason
    and counts as neither."""

    def __init__(self):
        self.passed = self.failed = 0
        self.failures = []
        self.goals_met = self.goals_not_met = self.goals_unmeasurable = self.unmeasurable = 0
        # (server, toolkit, speed, direction) of the scenarios without flickd: how many flicks
        # each measured (check_scenario compares a flickd scenario that measured none).
        self.without_flickd = {}
        # The harness's own breakage (a server or app that did not run, a scenario that raised):
        # a failure with or without --check.
        self.errors = 0

    def check(self, name, what, ok, expected, actual):
        """An asserted check; ok None = not measurable (actual says why)."""
        if ok is None:
            self.unmeasurable += 1
            print("  not measurable: %s: %s (%s)" % (name, what, actual), flush=True)
        elif ok:
            self.passed += 1
            print("  ok   %s: %s (%s)" % (name, what, actual), flush=True)
        else:
            self.failed += 1
            self.failures.append("%s: %s" % (name, what))
            print("  FAIL %s: %s\n         expected: %s\n         actual:   %s" % (name, what, expected, actual),
                  flush=True)

    def lost(self, name, what, expected, actual):
        """flickd, the app or the server ended mid-run (check_running): a failed check, with or
        without --check."""
        self.errors += 1
        self.check(name, what, False, expected, actual)

    def broke(self, name, what, error):
        """The harness broke at `what` (an exception): a failed check, with or without --check."""
        self.errors += 1
        self.check(name, what, False, "no exception", "%s: %s" % (type(error).__name__, error))

    def guarded(self, name, what, run, *arguments):
        """run(*arguments), or None when it raised (reported by broke): one scenario that breaks
        must not skip the others of its app."""
        try:
            return run(*arguments)
        except Exception as e:
            self.broke(name, what, e)
            return None

    def goal(self, name, what, met, figures):
        """A goal; met None = not measurable (figures says why)."""
        if met is None:
            self.goals_unmeasurable += 1
            print("  not measurable: %s: %s (%s)" % (name, what, figures), flush=True)
        elif met:
            self.goals_met += 1
            print("  goal met: %s: %s (%s)" % (name, what, figures), flush=True)
        else:
            self.goals_not_met += 1
            print("  goal NOT met: %s: %s (%s)" % (name, what, figures), flush=True)


def start_server(cls, work):
    """cls(work), stopping what it had started when it raises: a server left running would hold
    its display, seat or VT against the next one (an Xorg at :1 answers for the next Xorg)."""
    server = cls.__new__(cls)
    try:
        server.__init__(work)
    except BaseException:
        try:
            server.stop()
        except Exception:  # stop() of a server half started: end its processes at least
            for proc in reversed(getattr(server, "procs", [])):
                end_process(proc, 5)
        raise
    return server


def fmt(v, nd=2):
    return None if v is None else round(v, nd)


def run(args):
    work = args.out
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    checks = Checks()
    rows = []
    desc = vdev.load(PAD)
    for server_name in args.servers:
        pad = vdev.TouchDevice(desc, udev_timeout=90.0)
        log("pad %s at %s" % (pad.name, pad.devnode))
        server = None
        try:
            t = mono()
            server = start_server(SERVERS[server_name], work)
            log("%s started in %.1f s" % (server_name, mono() - t))
            if args.x_trace and isinstance(server, Xorg):
                # One file per server: each Xorg-type server of the run has a trace of its own.
                server.start_x_trace(os.path.join(work, "xi2-trace-%s.log" % server.name))
            toolkits = [] if server_name in args.also_only else list(args.toolkits)
            if isinstance(server, SwayNatural) and args.check:
                run_sway_started_later(args, server, pad, work, checks)
                run_sway_hotplug(args, server, pad, work, checks)
                run_sway_runtime_change(args, server, pad, work, checks)
            if isinstance(server, XorgNatural) and args.check:
                run_xfce_change(args, server, pad, work, checks)
                run_xinput_change(args, server, pad, work, checks)
            if isinstance(server, KWinNatural):
                check_kde_applied(server, pad, checks)
                if args.check:
                    run_kde_file_change(args, server, pad, work, checks)
            for toolkit in toolkits + [t for s, t in args.also if s == server_name and t not in toolkits]:
                modes = args.modes if toolkit in toolkits else args.also_modes
                app = None
                try:
                    t = mono()
                    app = App(server, toolkit, work)
                    log("%s/%s painted after %.1f s" % (server_name, toolkit, mono() - t))
                    server.place_pointer()
                    for mode in modes:
                        rows += run_mode(args, server, app, pad, mode, work, checks)
                        if app.ended() or server.ended():
                            break  # reported by check_running: the app's other modes would measure nothing
                except Exception as e:  # one broken app must not hide the others' figures
                    checks.broke("%s/%s" % (server_name, toolkit), "app ran", e)
                finally:
                    if app:
                        app.stop()
                if server.ended():
                    break  # reported: its other apps would not start
        except Exception as e:
            checks.broke(server_name, "server ran", e)
        finally:
            if server:
                server.stop()
            pad.close()
            time.sleep(1)
    if args.table:
        write_table(rows, args.table)
    if args.check:
        if checks.failures:
            print("failed checks:\n  " + "\n  ".join(checks.failures))
        print("apps goals: %d met, %d not met, %d not measurable" % (
            checks.goals_met, checks.goals_not_met, checks.goals_unmeasurable), flush=True)
        print("apps checks not measurable: %d" % checks.unmeasurable, flush=True)
        print("apps: %d passed, %d failed" % (checks.passed, checks.failed), flush=True)
        return 1 if checks.failed else 0
    if checks.errors:
        print("apps: the harness broke %d times (the FAIL lines above)" % checks.errors, flush=True)
        return 1
    return 0


def run_mode(args, server, app, pad, mode, work, checks):
    rows = []
    # A variant (--variant NAME=BINARY) is another build of flickd with its defaults: two builds
    # compared in one boot, on the same apps.
    binary = args.variants.get(mode, args.flickd)
    daemon = Flickd(binary, mode, work, pad.devnode) if mode != "none" else None
    try:
        if isinstance(server, XorgSynaptics) and server.DRIVER_GLIDES and daemon:
            # The X server's answer comes a moment after flickd opens the pad; flicks before it
            # would still coast (the daemon's log says when it stands aside).
            stood = wait_synaptics_aside(daemon, pad.devnode)
            if args.check:
                checks.check("%s/%s/%s" % (server.name, app.toolkit, mode), "flickd reads that the synaptics driver glides by itself",
                             stood is not None, "%s: touchpad, a touch or a press of its buttons stops a coast (the synaptics X driver glides by itself ...)" % pad.devnode,
                             stood or daemon.text()[-600:])
        if isinstance(server, XorgSynapticsNoCoast) and daemon and mode in ("touchpad", "default") and args.check:
            warned = wait_line(daemon, r"the synaptics X driver drives flickd virtual touchpad[^\n]*", 30)
            checks.check("%s/%s/%s" % (server.name, app.toolkit, mode),
                         "flickd warns that the synaptics driver drives its virtual touchpad", warned is not None,
                         "the synaptics X driver drives flickd virtual touchpad ... output.mode = \"wheel\"", warned or daemon.text()[-600:])
        server.place_pointer()
        name = "%s/%s/%s" % (server.name, app.toolkit, mode)
        # Each scenario guarded: one that raises is a failure, and the app's others still run.
        # After each scenario and extra check flickd, the app and the server must still run;
        # when one does not, the rest of the mode is left out (it would measure nothing).
        for direction in args.directions:
            for speed in args.speeds:
                row = checks.guarded("%s %g mm/s %s" % (name, speed, direction), "scenario ran", run_scenario,
                                     args, server, app, pad, daemon, mode, speed, direction, checks)
                if row is not None:
                    rows.append(row)
                if not check_running(checks, name, "the %g mm/s %s scenario" % (speed, direction), server, app, daemon):
                    return rows
        extra = [
            # Under xorg-synaptics flickd coasts nothing for the pad: no coast for a touch to stop.
            (args.touch_stop and daemon and mode != "wheel" and not (isinstance(server, XorgSynaptics) and server.DRIVER_GLIDES),
             "the touch-stop", lambda: checks.guarded(name, "touch-stop ran", run_touch_stop, args, server, app, pad,
                                                      daemon, mode, checks)),
            (args.quick_flicks and daemon and mode != "wheel" and app.toolkit != "chromium" and not isinstance(server, XorgSynaptics),
             "the quick flicks", lambda: checks.guarded(name, "quick flicks ran", run_quick_flicks, args, server, app, pad,
                                                        daemon, mode, checks)),
            (args.stop_scroll and daemon and mode != "wheel" and app.toolkit != "chromium" and not isinstance(server, XorgSynaptics),
             "the stop-scroll", lambda: checks.guarded(name, "stop-scroll ran", run_stop_scroll, args, server, app, pad,
                                                       daemon, mode, checks)),
            # The wheel output has no virtual touchpad to compare.
            (isinstance(server, XorgNatural) and args.check and daemon and mode != "wheel",
             "the per-device check", lambda: check_x_per_device(server, pad, daemon, checks)),
            (isinstance(server, XorgSynaptics) and server.DRIVER_GLIDES and args.check and daemon,
             "flickd doctor", lambda: check_synaptics_doctor(server, pad, daemon, checks)),
            (isinstance(server, SwayNatural) and args.check and daemon,
             "the scenario after swaymsg", lambda: run_after_runtime_change(args, server, app, pad, daemon, mode, checks)),
            (isinstance(server, KWinNatural) and args.check and daemon,
             "the scenario after KWin's change", lambda: run_after_kde_change(args, server, app, pad, daemon, mode, checks)),
        ]
        for wanted, what, run_extra in extra:
            if wanted:
                run_extra()
                if not check_running(checks, name, what, server, app, daemon):
                    return rows
    finally:
        if daemon:
            stop_flickd(checks, "%s/%s/%s" % (server.name, app.toolkit, mode), daemon)
    return rows


def wait_line(daemon, pattern, seconds):
    """The first match of `pattern` in flickd's log within `seconds`; None when none came."""
    deadline = mono() + seconds
    while mono() < deadline:
        m = re.search(pattern, daemon.text())
        if m:
            return m.group(0)
        time.sleep(0.3)
    return None


def wait_synaptics_aside(daemon, devnode, seconds=30):
    """flickd's line saying the pad at `devnode` only stops coasts, as its synaptics driver
    glides by itself; None when it did not come in time."""
    return wait_line(daemon, re.escape(devnode) + r" \([^)]*\): touchpad, a touch (?:or a press of its buttons )?stops a coast "
                     r"\(the synaptics X driver glides by itself[^\n]*", seconds)


def check_synaptics_doctor(server, pad, daemon, checks):
    """flickd doctor, in the same session, names the pad the synaptics driver glides for."""
    doctor = subprocess.run([daemon.binary, "doctor", "--config", daemon.config_path], capture_output=True, text=True, timeout=120)
    said = [l.strip() for l in doctor.stdout.splitlines() if "touchpad driver" in l]
    checks.check(server.name, "flickd doctor names the pad whose synaptics driver glides by itself",
                 any(pad.devnode in l and "synaptics X driver glides by itself" in l for l in said),
                 "touchpad driver: %s ... the synaptics X driver glides by itself" % pad.devnode,
                 "; ".join(said) or doctor.stdout[-400:])


def check_kde_applied(server, pad, checks):
    """Before any change to kcminputrc: KWin has applied the NaturalScroll=true written there
    for the real pad (KWinNatural). The harness's own writes to the file (run_kde_file_change)
    wait for this: a KWin still starting reads whatever the file says then, and keeps it."""
    value, failed = server.wait_for_device(pad.devnode)
    checks.check(server.name, "KWin applied the real pad's NaturalScroll=true from kcminputrc", value is True,
                 "%s naturalScroll true on KWin's D-Bus" % pad.devnode,
                 "naturalScroll %s" % ("unknown: " + failed if value is None else str(value).lower()))


def run_kde_file_change(args, server, pad, work, checks):
    """KDE's System Settings writes kcminputrc when a touchpad setting changes (a new file
    renamed over the old). With flickd running, the real pad's group is rewritten that way with
    NaturalScroll=false, then true again; flickd's log must follow both without a reload."""
    name = "%s settings file change" % server.name
    desc = vdev.load(PAD)
    path = os.path.join(server.config, "kcminputrc")
    group = "[Libinput][%d][%d][%s]\n" % (desc["id"]["vendor"], desc["id"]["product"], desc["name"])
    daemon = Flickd(args.flickd, "default", work, pad.devnode)

    def save(natural):
        temporary = path + ".new"
        with open(temporary, "w") as f:
            f.write(group + "NaturalScroll=%s\n" % ("true" if natural else "false"))
        os.chown(temporary, server.uid, server.gid)
        os.rename(temporary, path)

    try:
        followed = wait_direction(daemon, pad.devnode, "true")
        steps = []
        for natural in (False, True):
            before = len(pad_directions(daemon, pad.devnode))
            save(natural)
            value = "true" if natural else "false"
            ok = wait_direction(daemon, pad.devnode, value) and len(pad_directions(daemon, pad.devnode)) > before
            steps.append("NaturalScroll=%s -> %s" % (value, "followed" if ok else "NOT followed"))
            followed = followed and ok
        lines = [l for l in daemon.text().splitlines() if "natural scrolling" in l]
        checks.check(name, "flickd follows a kcminputrc change without a reload", followed,
                     "%s natural scrolling true, then false, then true" % pad.devnode,
                     "; ".join(steps) + " | " + "; ".join(lines[-4:]))
    finally:
        save(True)
        stop_flickd(checks, name, daemon)


def run_after_kde_change(args, server, app, pad, daemon, mode, checks):
    """What the app shows after the real pad's natural scrolling is turned off as KDE's System
    Settings does it, while this flickd runs: over KWin's D-Bus (`set_natural_scroll`), after
    which KWin applies it and writes kcminputrc, which flickd watches. The real pad becomes
    traditional, which the virtual pad already is, so flickd must stop moving its fingers
    against the real ones: the asserted "no glide against the finger" of the flicks after it
    fails for a flickd that kept its first answer. Turned on again after."""
    try:
        failed = server.set_natural_scroll(pad.devnode, False)
        followed = failed is None and wait_direction(daemon, pad.devnode, "false")
        rc = os.path.join(server.config, "kcminputrc")
        written = open(rc, errors="replace").read().strip().replace("\n", " ") if os.path.exists(rc) else "none"
        checks.check("%s/%s/%s" % (server.name, app.toolkit, mode),
                     "KWin applies naturalScroll set over D-Bus (System Settings' way) and flickd follows",
                     followed, "%s natural scrolling false" % pad.devnode,
                     "%s; kcminputrc now: %s" % (failed or ("flickd followed" if followed else "flickd did not follow"),
                                                 written))
        run_scenario(args, server, app, pad, daemon, mode, 150, "vertical", checks,
                     label="after KWin's naturalScroll set false over D-Bus")
    finally:
        server.set_natural_scroll(pad.devnode, True)
        wait_direction(daemon, pad.devnode, "true", seconds=5)


def run_after_runtime_change(args, server, app, pad, daemon, mode, checks):
    """What the app shows after a `swaymsg input` change made while this flickd runs: the real
    pad is made traditional, which the virtual pad already is, so flickd must stop moving its
    fingers against the real ones. A flickd that kept its first answer glides every flick back
    (`turned`, asserted 0 by check_scenario). The pad is made natural again after."""
    identifier = SwayNatural.identifier(vdev.load(PAD))
    try:
        r = server.swaymsg("input", identifier, "natural_scroll", "disabled")
        followed = r.returncode == 0 and wait_direction(daemon, pad.devnode, "false")
        checks.check("%s/%s/%s" % (server.name, app.toolkit, mode),
                     "sway applies `swaymsg input ... natural_scroll disabled` and flickd follows", followed,
                     "swaymsg exits 0; %s natural scrolling false" % pad.devnode,
                     ("flickd followed" if followed else "flickd did not follow") if r.returncode == 0 else
                     "swaymsg exited with status %s: %s" % (exit_text(r.returncode), (r.stdout + r.stderr).strip()[-300:]))
        run_scenario(args, server, app, pad, daemon, mode, 150, "vertical", checks,
                     label="after swaymsg input natural_scroll disabled")
    finally:
        server.swaymsg("input", identifier, "natural_scroll", "enabled")
        wait_direction(daemon, pad.devnode, "true", seconds=5)


def flick_plan(pad, direction, speed):
    """How a flick at `speed` mm/s in `direction` ("down", "right", ...) is played on `pad`:
    flick()'s duration and y. It travels 0.25 s, at most MAX_TRAVEL_MM, and less on a pad too
    short for that (the x220's 23.6 mm height takes 17.6 mm), centred on the surface below any
    top-button strip; two fingers 18 mm apart fit across any touchpad of ../shared/devices."""
    top = TOP_BUTTONS_MM if "INPUT_PROP_TOPBUTTONPAD" in pad.desc.get("props", []) else 0.0
    length = pad.height_mm - top if direction in ("down", "up") else pad.width_mm
    travel = min(MAX_TRAVEL_MM, 0.25 * speed, length - 2 * EDGE_MARGIN_MM)
    return travel / speed, (top + pad.height_mm) / 2


def run_scenario(args, server, app, pad, daemon, mode, speed, direction, checks, label=None):
    axis = "v" if direction == "vertical" else "h"
    finger_dir = "down" if direction == "vertical" else "right"
    duration, y = flick_plan(pad, finger_dir, speed)
    per = []
    discarded = late = no_stop = turned = judged_turn = 0
    turned_flicks = []
    unsettled = ""
    before = daemon.libinput_counts() if daemon else None
    scenario_t0 = mono()
    for i in range(args.flicks * 3):
        if len(per) >= args.flicks:
            break
        center_t = app.recenter()
        center_late_ms = fmt(1000 * app.center_late_s)
        # Frames hold the fingers' position at the write: a flick the emulator writes late keeps
        # its speed (vdev.flick). At 60 mm/s, 20 % above flickd's min speed, scheduled positions
        # written a little late at every frame made flicks flickd rightly did not coast.
        kw = dict(speed=speed, duration=duration, interval=0.010, spacing=18.0, y=y, at_write_time=True)
        log_mark = len(daemon.text()) if daemon else 0
        flick = pad.flick(finger_dir, **kw)
        r = flick.get("k_release") or flick["t_release"]
        time.sleep(0.5)
        unsettled = wait_settled(app, daemon)
        if unsettled:
            break  # not measured: check_scenario fails the scenario (GLIDE_ENDED)
        first = daemon.first_event_after(r - 0.005) if daemon else None
        input_clock = None
        no_clock = getattr(server, "NO_INPUT_CLOCK", None)
        # A flick whose X trace has no scroll stop: the server read the lift over 300 ms late,
        # and the finger's last motion, read in the same batch, is stamped after the 150 ms cut
        # (it would count as glide). Played again, as a late flick is.
        missed_stop = False
        x_tracer_gone(server)
        if getattr(server, "x_trace_failed", None):
            no_clock = "--x-trace: the X tracer %s (%s)" % (
                "stopped during the run" if getattr(server, "x_trace_stopped", False) else "did not start",
                server.x_trace_failed)
        elif getattr(server, "x_trace_path", None):
            events, sources = read_x_trace_sources(server.x_trace_path)
            # The app's input times are the server's read times: the release there.
            input_clock = x_input_clock(events, sources, r, axis, first)
            missed_stop = not input_clock.get("release") and getattr(server, "POSTS_SCROLL_STOP", True)
            no_clock = None if input_clock.get("release") else NO_SCROLL_STOP
        m = measure(app.lines(), flick, axis, first, center_t, flickd_ran=daemon is not None, input_clock=input_clock,
                    unmarked_own=app.toolkit in GLIDING_TOOLKITS and mode != "wheel", no_input_clock=no_clock,
                    slack=max(server.input_clock_slack_s, app.input_clock_slack_s))
        m["max_late_ms"] = flick.get("max_late_ms")
        m["center_late_ms"] = center_late_ms
        if input_clock is not None:
            # How late the server read the lift (ms; None: no scroll stop in the trace).
            m["x_release_ms"] = fmt(1000 * (input_clock["release"] - r), 1) if input_clock.get("release") else None
        if daemon:
            m["timer_opening_ms"] = daemon.timer_opening_after(log_mark)
        if input_clock is not None:
            t_touch = flick.get("k_touch") or flick["t_touch"]
            applied = {int(round(c[2] * 1000)) for c in changes(app.lines(), axis, t_touch) if c[2] is not None}
            m.update(x_finger_lost(events, sources, t_touch * 1000 - 5, r * 1000, applied, axis))
            if daemon:
                m.update(x_switch(events, sources, r * 1000 - 5, r * 1000 + 300, applied, axis))
        turned += bool(m.get("turned"))
        judged_turn += "turned" in m
        if m.get("turned"):
            turned_flicks.append(dict(m["turned_detail"], flick=i, center_late_ms=center_late_ms,
                                      center_before_touch_ms=fmt(1000 * ((flick.get("k_touch") or flick["t_touch"]) - center_t))))
        # A flick whose frames were written late (the emulator stalled), whose lift the X server
        # read too late for its trace (no scroll stop), or that the app never saw as a finger
        # scroll is not a measurement: played again, counted as discarded. A missing stop counts
        # as such only when the app saw the finger: a flick with neither (a flickd that broke the
        # server's view of the real pad) is unseen, so GIVE_UP_AFTER and seen_verdict catch it.
        written_late = (m["max_late_ms"] or 0) > 25
        if written_late or missed_stop or not finger_seen(m):
            discarded += 1
            late += written_late
            no_stop += missed_stop and not written_late and finger_seen(m)
            if m.get("changes", 0) == 0:
                server.place_pointer()
        else:
            per.append(m)
        if not per and discarded - late - no_stop >= GIVE_UP_AFTER:
            break  # the app does not see the flicks; flicks the emulator wrote late are retried
        if args.verbose:
            log("%s/%s/%s %s %s #%d: %s" % (server.name, app.toolkit, mode, speed, direction, i,
                                           json.dumps({k: fmt(v) if isinstance(v, float) else v for k, v in m.items()})))
    # Without flickd there is no device of its to read: zeros (reference rows).
    seen = libinput_since(daemon, before) if daemon else dict(NOTHING_SEEN)
    lines = app.lines()
    # A flick whose finger phase had too few paints for a period of its own is measured against
    # the period pooled over the scenario's finger phases.
    pooled = pooled_paint_period_ms(lines, [p["finger_span"] for p in per if p.get("finger_span")])
    pooled_flicks = 0
    for p in per:
        if p.get("frame_ms") is None and p.get("gap_ms") is not None and pooled:
            p["frame_ms"], p["gap_frames"] = pooled, p["gap_ms"] / pooled
            pooled_flicks += 1
    vmax = max([float(a[1] if axis == "v" else a[0]) for t, kind, a in lines if kind == "ready"] or [0])
    row = {"server": server.name, "toolkit": app.toolkit, "mode": mode, "speed_mm_s": speed,
           "direction": direction, "travel_mm": round(duration * speed, 1), "flicks": len(per), "discarded": discarded,
           "discarded_late": late, "turned": turned, "turn_judged": judged_turn}
    if no_stop:
        # Discarded flicks whose X trace had no scroll stop (played again, as late ones are).
        row["discarded_no_stop"] = no_stop
    if unsettled:
        row["glide_not_ended"] = unsettled
    if turned_flicks:
        row["turned_flicks"] = turned_flicks
    if label:
        row["scenario"] = label
    add_medians(row, per, max(args.flicks, GOAL_MIN_FLICKS))
    # The flicks with no release on their input times' clock: left out of the goals that hang
    # on it (SPLIT_FIGURES), and said so on their lines (clock_note).
    reasons = sorted({p["no_input_clock"] for p in per if p.get("no_input_clock")})
    if reasons:
        row["no_input_clock"] = {"flicks": sum(1 for p in per if p.get("no_input_clock")), "reasons": reasons}
    # How many measured flicks flickd's devices wrote to at all (xorg-synaptics: none).
    row["flickd_output_flicks"] = sum(1 for p in per if p.get("flickd_first_ms") is not None)
    # --x-trace only: the median, and the figure per flick.
    for key, per_flick in (("x_switch_lost", "x_switches_lost"), ("x_switch_ms", "x_switches_ms"),
                           ("x_backlog_ms", "x_backlogs_ms"), ("x_finger_lost", "x_fingers_lost")):
        if any(key in p for p in per):
            row[key] = fmt(median([p.get(key) for p in per]), 1)
            row[per_flick] = [p.get(key) for p in per]
    if any(p.get("x_release_ms") is not None for p in per):
        # --x-trace: how late after the kernel's release the server read the lift, per flick.
        row["x_releases_ms"] = [p.get("x_release_ms") for p in per]
    row["own_after_flickd_max"] = max([p.get("own_after_flickd") or 0 for p in per] or [0])
    # Of those, the changes with no input event that app.py had not marked (own_glide_changes).
    row["own_unmarked_max"] = max([p.get("own_unmarked") or 0 for p in per] or [0])
    row["gtk_glides"] = sum(1 for p in per if p.get("decel"))
    row["flickd_bad_events"] = seen and seen["bad"]
    row["flickd_hold_gestures"] = seen and seen["holds"]
    # libinput discarding a "touch jump" of flickd's virtual touchpad (a visible step).
    row["libinput_touch_jumps"] = seen and seen["jumps"]
    # libinput losing events of flickd's devices (its reader fell a kernel buffer behind), or its
    # reader not caught up when counted: the bad-event check is then not measurable.
    row["libinput_dropped"] = seen and seen["dropped"]
    row["libinput_behind"] = seen and seen["behind"]
    # libinput had stopped logging losses (its rate limit) at some point up to now: one in this
    # scenario could have gone unlogged, so the check is not measurable either.
    row["libinput_limited"] = seen and seen["limited"]
    row["edge_hits"] = sum(1 for p in per if vmax and p.get("end_px") is not None
                           and (p["end_px"] <= 5 or p["end_px"] >= vmax - 5))
    row["ratios"] = [fmt(p.get("ratio"), 2) for p in per]
    if any(p.get("timer_opening_ms") is not None for p in per):
        # How late flickd's own timer woke in each glide's opening (the first flick after its
        # start is the one to watch: docs/PERFORMANCE.md, "The first coast's timer").
        row["timer_openings_ms"] = [p.get("timer_opening_ms") for p in per]
    row["frame_pooled_flicks"] = pooled_flicks
    row["gtk_own_total"] = sum(p.get("own_total") or 0 for p in per)
    # Why nothing could be measured: the app's paint period over the scenario.
    if not per:
        row["paint_ms"] = fmt(paint_period_ms(lines, scenario_t0, mono()), 1)
    print(json.dumps(row), flush=True)
    if args.check:
        check_scenario(checks, row, mode, daemon)
    return row


def add_medians(row, per, needed):
    """The scenario's figures in `row`: each the median over the flicks `per` that have it,
    rounded for the log and the table; for the goals' figures also the unrounded median
    ("goal_exact"), how many flicks gave it ("goal_flicks"; median() leaves out a flick without
    it) and how many a goal needs ("goal_flicks_needed"): a goal is judged on the unrounded
    figure, and only when enough flicks gave it (goal_figure)."""
    for key in ("speed_before_px_s", "speed_after_px_s", "ratio", "gap_ms", "frame_ms", "gap_frames", "finger_gap_ms",
                "coast_step_px", "finger_step_px", "step_ratio", "own_after_flickd", "distance_px",
                "flickd_first_ms", "handover_ms", "lag_ms", "distance_fraction", "gtk_dropped_px", "ratio_with_dropped"):
        row[key] = fmt(median([p.get(key) for p in per]),
                       3 if key in ("ratio", "gap_frames", "step_ratio", "distance_fraction", "ratio_with_dropped") else 1)
    row["goal_exact"] = {key: median([p.get(key) for p in per]) for key in GOAL_MET}
    # The asserted "keeps moving" check judges the unrounded median too (a rounded 0.1996 passed
    # ">= 0.2", and its negative control failed).
    row["distance_fraction_exact"] = median([p.get("distance_fraction") for p in per])
    row["distance_from"] = distance_from(per)
    row["goal_flicks"] = {key: sum(1 for p in per if p.get(key) is not None) for key in GOAL_MET}
    row["goal_flicks_needed"] = needed


def distance_from(per):
    """Where the distance of the flicks `per` counts from, for the row and the keeps-moving line:
    "the release", or the cut measure() used for the flicks with no input clock (the finger's
    backlog stamped after the kernel's release is not the glide's)."""
    cuts = sorted({p["distance_cut_ms"] for p in per if p.get("distance_cut_ms") is not None})
    if not cuts:
        return "the release"
    text = "the kernel's release + %s ms (no input clock), against the model's distance from then on" % " or ".join(
        "%g" % c for c in cuts)
    cut = sum(1 for p in per if p.get("distance_cut_ms") is not None)
    return text if cut == len(per) else "%s for %d of %d flicks; the others from the release" % (text, cut, len(per))


def goal_figure(row, key):
    """(the figure a goal judges, how many flicks gave it, why it cannot be judged or None): the
    unrounded median (the rounded one of an older log's row, --rows-from), None when too few
    flicks gave it (GOAL_MIN_FLICKS, or the run's --flicks when more) or none did."""
    value = row.get("goal_exact", {}).get(key, row.get(key))
    n = row.get("goal_flicks", {}).get(key, row.get("flicks", 0) if value is not None else 0)
    needed = row.get("goal_flicks_needed", GOAL_MIN_FLICKS)
    if value is None:
        return None, n, None
    if n < needed:
        return None, n, "the median of %d flick%s, fewer than the %d a goal needs" % (n, "" if n == 1 else "s", needed)
    return value, n, None


def pair_unmeasurable(server, toolkit):
    """Whether docs/APPS.md says the pair's app cannot be measured in the guest (UNMEASURABLE_PAIRS)."""
    return any(s in ("*", server) and t in ("*", toolkit) for s, t in UNMEASURABLE_PAIRS)


def check_scenario(checks, row, mode, daemon):
    name = "%s/%s/%s %d mm/s %s" % (row["server"], row["toolkit"], mode, row["speed_mm_s"], row["direction"])
    if row.get("scenario"):
        name += " (%s)" % row["scenario"]
    unmeasured = None
    if not row["flicks"]:
        unmeasured = ("no flick measured: of %d played, %d written > 25 ms late by the emulator, %d glided against "
                      "the finger, %sthe others seen by the app as fewer than two finger-driven offset changes (paint "
                      "period %s ms)" % (row["discarded"], row["discarded_late"], row["turned"], no_stop_text(row),
                                         row.get("paint_ms")))
    # Judged unrounded (an older log's row, --rows-from, has only the rounded figure); printed rounded.
    frac = row.get("distance_fraction_exact", row["distance_fraction"])
    moving = "content keeps moving after the release: distance >= %.2f x the model's v0/k" % ASSERT_DISTANCE_FRACTION
    cut = row.get("distance_from", "the release")
    figures = "%s x (distance %s px%s, per-flick ratio after/before %s)" % (
        row["distance_fraction"], row["distance_px"], "" if cut == "the release" else " from " + cut, row["ratios"])
    # Before the synaptics rows return: a glide that never ends fails there too.
    if row.get("glide_not_ended"):
        checks.check(name, GLIDE_ENDED, False, "flickd's devices quiet after each flick's glide",
                     "after flick %d: %s" % (row["flicks"] + row["discarded"] + 1, row["glide_not_ended"]))
    not_counted = goals_not_counted(row["server"], mode)
    if row["server"] == XorgSynaptics.name and not_counted:
        check_synaptics_scenario(checks, name, row, moving, frac, figures, unmeasured)
        check_row_bad_events(checks, name, row, daemon)
        return
    if row["server"] == XorgSynapticsNoCoast.name and not_counted:
        # The driver scrolls flickd's virtual touchpad by next to nothing: a known limit, which
        # flickd warns of (run_mode), not a glide to measure. Its events must still be clean.
        print("  known limit (not counted): %s: %s: %s" % (name, moving, figures), flush=True)
        check_row_bad_events(checks, name, row, daemon)
        checks.check(name, "no glide against the finger (content back by > %.1f x the finger's travel)" % TURN_FRACTION,
                     turned_verdict(row), 0, turned_detail(row))
        return
    if mode == "none":
        checks.without_flickd[(row["server"], row["toolkit"], row["speed_mm_s"], row["direction"])] = row["flicks"]
        would = None if unmeasured or frac is None else frac >= ASSERT_DISTANCE_FRACTION
        if row["toolkit"] in STOP_DEAD_TOOLKITS and not getattr(SERVERS.get(row["server"]), "DRIVER_GLIDES", False):
            # The negative control: an app with no glide of its own stops dead without flickd, so
            # the asserted check must fail here; if it would pass, it cannot fail anywhere.
            checks.check(name, "negative control: without flickd the content stops dead, so \"%s\" fails" % moving,
                         None if would is None else not would, "< %.2f (would FAIL)" % ASSERT_DISTANCE_FRACTION,
                         unmeasured or "would %s: %s" % ("pass: the check cannot fail" if would else "FAIL", figures))
        elif would is not None:
            # Reference only: an app gliding by itself (or the X driver for it) keeps moving.
            print("  reference (mode none, not counted): %s: %s would %s (%s)" % (
                name, moving, "pass" if would else "FAIL", figures), flush=True)
        return
    # Asserted.
    seen_ok, seen_note = seen_verdict(checks, row)
    checks.check(name, "the app saw the flicks with flickd running", seen_ok,
                 "the finger phases of the flicks written on time seen (>= 2 finger-driven changes)", seen_note)
    check_row_bad_events(checks, name, row, daemon)
    # chromium's page cannot tell its own fling's wheel events from the input's (browser_app.py
    # writes no "own" lines), so a zero there would say nothing. An app with no glide of its own
    # (Qt widgets: app.py writes "own" lines for GTK only) has no such check: it could not fail,
    # and a fast flick flickd did not coast fails "flickd coasted every measured flick" below.
    own_unknown = unmeasured or ("chromium's own glide is not visible to the page" if row["toolkit"] == "chromium" else None)
    own_ok = None if own_unknown else row["own_after_flickd"] == 0
    if not own_unknown and row["own_after_flickd"] is None:
        # No flick had an event of flickd's after its release: fast flicks that flickd did not
        # coast are a fault; slow ones may have been read under coast.min_speed.
        own_unknown = "flickd wrote nothing after the release of any of the %d flicks measured: it coasted none" % row["flicks"]
        own_ok = False if row["speed_mm_s"] >= 2 * FLICKD_MIN_SPEED_MM_S else None
    if row["toolkit"] not in STOP_DEAD_TOOLKITS:
        checks.check(name, "no change from the app's own glide after flickd's first event (median over flicks)", own_ok, 0,
                     own_unknown or "median %s, max %s over the flicks%s" % (
                         row["own_after_flickd"], row["own_after_flickd_max"],
                         " (changes with no input event that the app had not marked as its glide's: up to %s)"
                         % row["own_unmarked_max"] if row.get("own_unmarked_max") else ""))
    # A flickd that coasts only some flicks: at twice coast.min_speed or more every measured
    # flick must have output from flickd after its release (at 60 mm/s the emulator's late last
    # frames can make a release read under it: docs/APPS.md).
    if row["speed_mm_s"] >= 2 * FLICKD_MIN_SPEED_MM_S:
        out = row.get("flickd_output_flicks")
        checks.check(name, "flickd coasted every measured flick (at >= %g mm/s)" % (2 * FLICKD_MIN_SPEED_MM_S),
                     None if unmeasured or out is None else out == row["flicks"], "%d of %d" % (row["flicks"], row["flicks"]),
                     unmeasured or "%s of %d measured flicks had output from flickd after the release" % (out, row["flicks"]))
    checks.check(name, moving, None if unmeasured or frac is None else frac >= ASSERT_DISTANCE_FRACTION,
                 ">= %.2f" % ASSERT_DISTANCE_FRACTION, unmeasured or figures)
    # Over every flick played, measured or not (a glide the wrong way leaves the flick unmeasured).
    checks.check(name, "no glide against the finger (content back by > %.1f x the finger's travel)" % TURN_FRACTION,
                 turned_verdict(row), 0, turned_detail(row))
    # Goals (issue 11 point 3), never failing the run: judged on the unrounded medians, and only
    # those of enough flicks (goal_figure); printed rounded, with how many flicks gave each.
    # Flicks with no release on their input times' clock (Xwayland; Xorg without a trace or
    # with no stop in it) gave none of these goals' figures: said so, as the reason or a note.
    unclocked = clock_unmeasured(row)
    ratio, n, few = goal_figure(row, "ratio")
    checks.goal(name, "speed ratio after/before in %.2f..%.2f" % GOAL_RATIO,
                None if unmeasured or ratio is None else GOAL_MET["ratio"](ratio),
                unmeasured or unclocked(ratio, few) or "%s (median of %d flicks), per flick %s%s%s%s" % (
                    row["ratio"], n, row["ratios"], dropped_note(row), backlog_note(row), clock_note(row)))
    gf, n, few = goal_figure(row, "gap_frames")
    checks.goal(name, "largest gap in the first 300 ms <= %.1f frame periods" % GOAL_GAP_FRAMES,
                None if unmeasured or gf is None else GOAL_MET["gap_frames"](gf),
                unmeasured or unclocked(gf, few) or ("%s frames (median of %d flicks): gap %s ms, paint period %s ms%s" % (
                    row["gap_frames"], n, row["gap_ms"], row["frame_ms"],
                    ", pooled over the scenario's finger phases for the %d of %d flicks with fewer than 3 paints "
                    "of their own" % (row["frame_pooled_flicks"], row["flicks"]) if row.get("frame_pooled_flicks") else "")
                               + stopped_note(row) + finger_gap_note(row) + switch_note(row) + clock_note(row)
                               if row["gap_frames"] is not None else "no paint period: fewer than 3 paints in the finger phases"))
    sr, n, few = goal_figure(row, "step_ratio")
    checks.goal(name, "largest coast step <= %.0fx the finger's median step" % GOAL_STEP_RATIO,
                None if unmeasured or sr is None else GOAL_MET["step_ratio"](sr),
                unmeasured or unclocked(sr, few) or ("no flick's content changed after its finger phase" if row["coast_step_px"] is None
                                                     else "%s (median of %d flicks): coast %s px, finger %s px%s" % (
                                                         row["step_ratio"], n, row["coast_step_px"], row["finger_step_px"],
                                                         clock_note(row))))
    if row.get("x_finger_lost") is not None:
        log("%s: of the finger's scroll events the app did not apply the first %s (median; per flick %s; "
            "X server times)" % (name, row["x_finger_lost"], row["x_fingers_lost"]))


# What libinput_since reports for a run without flickd.
NOTHING_SEEN = {"bad": 0, "holds": 0, "jumps": 0, "dropped": 0, "limited": False, "behind": False}


def libinput_since(daemon, before):
    """What flickd's libinput readers reported since `before` (a Flickd.libinput_counts()):
    the counts' differences; "behind" as it is now, and "limited" whether libinput has hit its
    rate limit on lost-event messages since its reader started (a loss since then could be
    unlogged: the limit's 30 s window has no time in the log to check against); None when they
    are not read (E2E_APPS_LIBINPUT_WATCH=0)."""
    now = daemon.libinput_counts()
    if now is None or before is None:
        return None
    seen = {key: now[key] - before[key] for key in ("bad", "holds", "jumps", "dropped")}
    seen["behind"] = now["behind"]
    seen["limited"] = now["limited"] > 0
    return seen


def bad_event_verdict(seen):
    """(outcome, note) of "no bad event from flickd's devices" for a libinput_since(): False
    when libinput reported one; None (not measurable) when the devices were not read, when
    libinput lost events of them (SYN_DROPPED), had stopped logging such losses (its rate
    limit) or its reader had not caught up, and reported none: what it did not see cannot be
    called clean; else True. The note goes after a check's figures."""
    if seen is None:
        return None, "; flickd's devices not read with libinput (E2E_APPS_LIBINPUT_WATCH=0)"
    if seen["bad"]:
        return False, ""
    if seen["dropped"]:
        return None, "; libinput lost events of flickd's devices (SYN_DROPPED, logged %d times)" % seen["dropped"]
    if seen["limited"]:
        return None, ("; libinput had stopped logging lost events of flickd's devices (its rate limit), "
                      "so a loss could have gone unlogged")
    if seen["behind"]:
        return None, "; libinput's reader of flickd's devices had not caught up in %g s" % LibinputWatch.CATCH_UP_S
    return True, ""


def check_bad_events(checks, name, during, seen, daemon):
    """The asserted "no bad event from flickd's devices" of a scenario with a libinput_since()."""
    ok, note = bad_event_verdict(seen)
    checks.check(name, "no button, tap, motion or gesture from flickd %s" % during, ok, "0 bad events",
                 ("%s bad events %s; hold gestures (not counted): %s%s" % (seen["bad"], daemon.bad_lines()[-3:], seen["holds"], note)
                  if seen is not None else note.lstrip("; ")))


def all_of(*verdicts):
    """The verdict of checks judged as one: False when any failed (a failure is not hidden by a
    part that could not be measured), else None when any was not measurable, else True."""
    if any(v is False for v in verdicts):
        return False
    return None if any(v is None for v in verdicts) else True


def turned_verdict(row):
    """The `turned` check: None (not measurable) when the app applied no flick's finger phase
    (no flick had a direction to turn against), else whether none turned. A row of an older log
    (--rows-from) has no turn_judged: its measured flicks were judged."""
    if not row.get("turn_judged", row.get("flicks")):
        return None
    return row["turned"] == 0


def turned_detail(row):
    """The `turned` check's actual value: how many, and for each turned flick what says why."""
    text = "%d of %d flicks played" % (row["turned"], row["flicks"] + row["discarded"])
    return text + (": %s" % json.dumps(row["turned_flicks"]) if row.get("turned_flicks") else "")


def goals_not_counted(server, mode):
    """Why a scenario's goals are not counted (check_scenario prints no goal line for it, and
    the table's summary leaves it out), or None: under xorg-synaptics with flickd the glide is
    the driver's; under xorg-synaptics-nocoast flickd's touchpad output moves next to nothing."""
    if server == XorgSynaptics.name and mode != "none":
        return "the synaptics driver's glide"
    if server == XorgSynapticsNoCoast.name and mode in ("touchpad", "default"):
        return "the synaptics driver scrolls flickd's virtual touchpad by next to nothing"
    return None


def check_row_bad_events(checks, name, row, daemon):
    """The asserted "no bad event from flickd's devices" of a flick scenario's row."""
    bad = row["flickd_bad_events"]
    bad_ok, bad_note = bad_event_verdict(None if bad is None else {
        "bad": bad, "dropped": row.get("libinput_dropped") or 0, "behind": bool(row.get("libinput_behind")),
        "limited": bool(row.get("libinput_limited"))})
    checks.check(name, "no button/tap/motion/swipe/pinch gesture from flickd's devices", bad_ok,
                 0, bad_note.lstrip("; ") if bad is None else "%d %s; hold gestures (not counted): %d%s" % (
                     bad, daemon.bad_lines()[-3:], row["flickd_hold_gestures"], bad_note))


def check_synaptics_scenario(checks, name, row, moving, frac, figures, unmeasured):
    """xorg-synaptics with flickd: the synaptics driver glides by itself, and flickd leaves the
    pad's flicks to it. Asserted: flickd wrote nothing to its devices, and the content still
    glides after the release (the driver's glide, which a glide of flickd's on top stopped
    dead before flickd stood aside). The issue's goals measure flickd's glide: not counted."""
    checks.check(name, "flickd leaves the synaptics driver's pad to the driver's own glide (nothing written)",
                 None if unmeasured else row["flickd_output_flicks"] == 0, 0,
                 unmeasured or "%d of %d measured flicks had output from flickd" % (row["flickd_output_flicks"], row["flicks"]))
    checks.check(name, moving + " (the driver's glide)", None if unmeasured or frac is None else frac >= ASSERT_DISTANCE_FRACTION,
                 ">= %.2f" % ASSERT_DISTANCE_FRACTION, unmeasured or figures)
    checks.check(name, "no glide against the finger (content back by > %.1f x the finger's travel)" % TURN_FRACTION,
                 turned_verdict(row), 0, turned_detail(row))
    print("  not counted as goals: %s: the glide is the synaptics driver's (ratio %s, gap %s frames%s)" % (
        name, row["ratio"], row["gap_frames"], clock_note(row)), flush=True)


def seen_verdict(checks, row):
    """(outcome, figures) of "the app saw the flicks with flickd running": a flickd that broke
    the display server's view of the real pad leaves every scenario with no flick measured, and
    "not measurable" alone would hide that. False when no flick was measured and some of the
    flicks written on time were not seen by the app (fewer than two finger-driven changes),
    unless docs/APPS.md says the pair cannot be measured (UNMEASURABLE_PAIRS) and its run
    without flickd in this boot, if any, measured none either; None (not measurable) when every
    flick played was written late by the emulator, turned (that check fails it) or seen by the
    app with no scroll stop in the X trace; else True."""
    played = row["flicks"] + row["discarded"]
    if row["flicks"]:
        return True, "%d of %d played measured" % (row["flicks"], played)
    unseen = row["discarded"] - row["discarded_late"] - row.get("turned", 0) - row.get("discarded_no_stop", 0)
    without = checks.without_flickd.get((row["server"], row["toolkit"], row["speed_mm_s"], row["direction"]))
    figures = ("no flick measured: of %d played, %d written > 25 ms late by the emulator, %d glided against the finger, "
               "%s%d seen by the app as fewer than two finger-driven changes; without flickd %s" % (
                   played, row["discarded_late"], row.get("turned", 0), no_stop_text(row), unseen,
                   "not run" if without is None else "%d measured" % without))
    if unseen <= 0:
        return None, figures
    if pair_unmeasurable(row["server"], row["toolkit"]) and not without:
        return None, figures + " (a pair docs/APPS.md says cannot be measured in the guest)"
    return False, figures


def no_stop_text(row):
    """The discarded flicks whose X trace had no scroll stop, as a clause ending in ", "; "" for none."""
    n = row.get("discarded_no_stop")
    return "%d with no scroll stop in the X trace (the server read the lift over 300 ms late), " % n if n else ""


def clock_note(row):
    """The flicks left out of the goals for want of their input times' clock (run_scenario)."""
    nc = row.get("no_input_clock")
    if not nc:
        return ""
    return "; %d of %d flicks left out: no input clock (%s)" % (nc["flicks"], row["flicks"], "; ".join(nc["reasons"]))


def clock_unmeasured(row):
    """f(figure, few): why a goal of the SPLIT_FIGURES is not measurable for want of the input
    times' clock, or `few` (goal_figure's reason), or None. When no flick had the clock: "no
    input clock (why)"; when some had it but too few: `few` with clock_note."""
    nc = row.get("no_input_clock")

    def why(value, few):
        if not nc or value is not None:
            return few
        if nc["flicks"] >= row["flicks"]:
            return "no input clock (%s)" % "; ".join(nc["reasons"])
        return few + clock_note(row) if few else few
    return why


def stopped_note(row):
    """Where the gap is infinite: the content did not move after the finger's last change."""
    if row.get("gap_ms") != math.inf:
        return ""
    return "; the content did not move at all after the finger's last change (an endless gap) in half the flicks or more"


def finger_gap_note(row):
    """The app's own largest gap while the real pad drove it, beside a gap over the goal: an
    app that applies its input in bursts (Qt6 and GTK3 under mutter in the guest) shows such
    gaps with no glide at all."""
    if row.get("finger_gap_ms") is None or row.get("gap_frames") is None or GOAL_MET["gap_frames"](row["gap_frames"]):
        return ""
    return "; the finger phase's own largest gap %s ms (median)" % row["finger_gap_ms"]


def switch_note(row):
    """Under Xorg with --x-trace: what the app made of flickd's first events after the switch to
    flickd's device (x_switch)."""
    if row.get("x_switch_lost") is None:
        return ""
    return ("; at the switch to flickd's device the app did not apply %s of the X server's next events "
            "(median; per flick %s) and applied the first one %s ms after the switch (server time, median)"
            % (row["x_switch_lost"], row["x_switches_lost"], row["x_switch_ms"]))


def backlog_note(row):
    """Under Xorg with --x-trace: the finger's motion the app applied only after the release."""
    if not row.get("x_backlog_ms"):
        return ""
    return ("; when flickd's glide began, the app had not yet applied the finger's last %s ms of motion "
            "(median; per flick %s), and applied it after the release" % (row["x_backlog_ms"], row["x_backlogs_ms"]))


def dropped_note(row):
    """For GTK 4: what its ScrolledWindow ignored at the glide's start, and the ratio had it not."""
    if not row.get("gtk_dropped_px"):
        return ""
    return ("; the toolkit ignored the first event of the glide's scroll sequence (%s px, median): "
            "%s had it applied it" % (row["gtk_dropped_px"], row["ratio_with_dropped"]))


def write_table(rows, path):
    head = ("| server | toolkit | mode | mm/s | direction | ratio | gap/frame | gap ms | frame ms | finger's gap ms | "
            "step ratio | own glide | distance px | distance / model | flickd bad (holds) | edge |")
    out = [head, "|" + "---|" * 16]
    for r in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s |" % (
            r["server"], r["toolkit"], r["mode"], r["speed_mm_s"], r["direction"], r["ratio"],
            r["gap_frames"], r["gap_ms"], r["frame_ms"], r.get("finger_gap_ms"), r["step_ratio"], r["own_after_flickd"],
            r["distance_px"], r["distance_fraction"], r["flickd_bad_events"], r["flickd_hold_gestures"],
            r["edge_hits"]))
    out += ["", "Per server, toolkit and mode, over its scenarios: the speed ratios' range, and in how many of the "
            "measured scenarios each goal was met (mode none: for comparison, no goal applies).", ""]
    out += ["| server | toolkit | mode | scenarios | ratio | ratio goal met | gap goal met | step goal met |",
            "|" + "---|" * 8]
    for s in summarize(rows):
        nc = s.get("no_input_clock")
        unclocked = (" (%d scenario%s not measurable: no input clock, %s)" % (
            nc["scenarios"], "" if nc["scenarios"] == 1 else "s", "; ".join(nc["reasons"])) if nc else "")
        met = (["not counted (%s)" % s["not_counted"]] * 3 if s.get("not_counted")
               else ["%d of %d%s" % (s[key] + (unclocked,)) for key in ("ratio_met", "gap_met", "step_met")])
        out.append("| %s | %s | %s | %d | %s | %s | %s | %s |" % (
            s["server"], s["toolkit"], s["mode"], s["scenarios"], ratio_range_text(s["ratio_range"]), *met))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def ratio_range_text(span):
    """"0.92–0.97", one figure when both ends round alike, "—" for none; never "-0.00"."""
    if not span:
        return "—"
    low, high = ("%.2f" % (round(v, 2) + 0.0) for v in span)
    return low if low == high else "%s–%s" % (low, high)


def rows_from(path):
    """The scenario rows in a run's log: its lines that are JSON objects of a flick scenario
    (a server and a speed; not the touch-stop's and other checks' lines, which name a "scenario")."""
    rows = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                row = json.loads(line)
            except ValueError:  # a line cut short, e.g. by the guest's timeout
                continue
            if isinstance(row, dict) and "server" in row and "speed_mm_s" in row and "scenario" not in row:
                rows.append(row)
    return rows


def summarize(rows):
    """Rows grouped by server, toolkit and mode, in the order they came: the ratio's range and,
    per goal, (met, measured) over the group's scenarios, as the goal lines judge them."""
    groups = {}
    for r in rows:
        groups.setdefault((r["server"], r["toolkit"], r["mode"]), []).append(r)

    def met(group, key):
        values = [goal_figure(r, key)[0] for r in group if r["flicks"]]
        values = [v for v in values if v is not None]
        return sum(1 for v in values if GOAL_MET[key](v)), len(values)

    summary = []
    for (server, toolkit, mode), group in groups.items():
        ratios = [r["ratio"] for r in group if r["flicks"] and r.get("ratio") is not None]
        # A group whose goals check_scenario does not count: none met or measured here either.
        not_counted = goals_not_counted(server, mode)
        # Scenarios none of whose measured flicks had their input times' clock (Xwayland, Xorg
        # without --x-trace): their goals are not measurable, and the table says why.
        unclocked = [r["no_input_clock"] for r in group
                     if r["flicks"] and r.get("no_input_clock") and r["no_input_clock"]["flicks"] >= r["flicks"]]
        summary.append({
            "server": server, "toolkit": toolkit, "mode": mode, "scenarios": len(group),
            "ratio_range": (min(ratios), max(ratios)) if ratios else None,
            "ratio_met": (0, 0) if not_counted else met(group, "ratio"),
            "gap_met": (0, 0) if not_counted else met(group, "gap_frames"),
            "step_met": (0, 0) if not_counted else met(group, "step_ratio"),
            "not_counted": not_counted,
            "no_input_clock": {"scenarios": len(unclocked),
                               "reasons": sorted({why for nc in unclocked for why in nc["reasons"]})} if unclocked else None,
        })
    return summary


# The --modes a flickd build runs with ("none": flickd not running); --variant adds names.
OUTPUT_MODES = ("none", "wheel", "touchpad", "default")


DIRECTIONS = ("vertical", "horizontal")


def at_least_one(text):
    """--flicks: a count of 1 or more (0 measured nothing and passed)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a whole number: %r" % text)
    if n < 1:
        raise argparse.ArgumentTypeError("%d: the run measures nothing with fewer than 1 flick" % n)
    return n


def parse_args(argv):
    """The command line, its lists split and checked; exits with a message on a bad one."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--flickd", help="the flickd binary to run (required unless --rows-from is given)")
    p.add_argument("--servers", default="xorg,sway", help="comma-separated, of: " + ",".join(SERVERS))
    p.add_argument("--toolkits", default="gtk4,gtk3,qt6")
    p.add_argument("--modes", default="none,wheel")
    p.add_argument("--speeds", default="150")
    p.add_argument("--directions", default="vertical", help="comma-separated, of: vertical,horizontal")
    p.add_argument("--flicks", type=at_least_one, default=5, help="flicks measured per scenario (1 or more)")
    p.add_argument("--check", action="store_true",
                   help="assert the checks on the scenarios with flickd (a failure fails the run) and judge issue 11's "
                        "goals (printed and counted, never failing the run)")
    p.add_argument("--out", default=None, help="logs (default: $E2E_RESULTS/apps or /tmp/apps)")
    p.add_argument("--table", default=None, help="write a Markdown table of the rows here")
    p.add_argument("--touch-stop", action="store_true",
                   help="also touch the real pad mid-coast (virtual touchpad output): the coast stops, no stray scroll")
    p.add_argument("--quick-flicks", action="store_true",
                   help="also flick %d times down, each next flick %g s after the last release (virtual touchpad output): "
                        "every one glides on" % (QUICK_FLICKS, QUICK_FLICK_GAP_S))
    p.add_argument("--quick-speed", type=float, default=150.0, metavar="MM_S",
                   help="the speed of --quick-flicks' flicks, in mm/s (default 150; above 300 mm/s each glide after "
                        "the first continues resting fingers at a speed libinput's touch-jump rule judges)")
    p.add_argument("--stop-scroll", action="store_true",
                   help="also stop a glide with two fingers and scroll on by hand at once, against the same scroll after "
                        "a rest (virtual touchpad output): the hand scroll reaches the app whole (a goal)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=BINARY",
                   help="also run the flickd build BINARY with its defaults as mode NAME (compare builds in one boot)")
    p.add_argument("--also", action="append", default=[], metavar="SERVER:TOOLKIT",
                   help="also run TOOLKIT under SERVER (one pair beyond --servers x --toolkits; e.g. sway:chromium; "
                        "a SERVER not in --servers runs only its --also toolkits, after the others)")
    p.add_argument("--also-modes", default=None, metavar="MODES",
                   help="the modes the --also pairs run (default: --modes); e.g. default, to leave out their "
                        "reference without flickd")
    p.add_argument("--x-trace", action="store_true",
                   help="under Xorg, record the server's scroll events (xi2_trace.py, python3-xlib): the release on "
                        "the clock of the app's input times, which the ratio, gap and step goals need there (without "
                        "it they are not measurable); and report per scenario how many of flickd's first events after the device switch the app did not apply "
                        "(x_switch_lost, x_switch_ms) and how much of the finger's motion it had not applied then "
                        "(x_backlog_ms; docs/APPS.md)")
    p.add_argument("--rows-from", metavar="LOG",
                   help="run nothing: read the JSON lines a run printed (its log, other lines skipped) and write "
                        "--table from them (no guest needed)")
    p.add_argument("--verbose", "-v", action="store_true")
    args = p.parse_args(argv)
    if args.rows_from:
        return args
    if not args.flickd:
        sys.exit("apps: --flickd BINARY is required (unless --rows-from LOG is given)")
    args.flickd = os.path.abspath(args.flickd)
    args.servers = args.servers.split(",")
    unknown = [name for name in args.servers if name not in SERVERS]
    if unknown:
        sys.exit("apps: --servers takes names of %s, not %s" % (",".join(SERVERS), ",".join(unknown)))
    args.also = [tuple(pair.split(":", 1)) for pair in args.also]
    args.also_only = set()
    for pair in args.also:
        if len(pair) != 2 or pair[0] not in SERVERS:
            sys.exit("apps: --also takes SERVER:TOOLKIT with a SERVER of %s: %r" % (",".join(SERVERS), ":".join(pair)))
        if pair[0] not in args.servers:
            args.servers.append(pair[0])
            args.also_only.add(pair[0])
    args.toolkits = args.toolkits.split(",")
    args.modes = args.modes.split(",")
    args.also_modes = args.modes[:] if args.also_modes is None else args.also_modes.split(",")
    args.variants = {}
    for v in args.variant:
        name, sep, binary = v.partition("=")
        if not sep or not name or not binary or name in OUTPUT_MODES:
            sys.exit("apps: --variant takes NAME=BINARY with a NAME other than none/wheel/touchpad/default: %r" % v)
        args.variants[name] = os.path.abspath(binary)
        for modes in (args.modes, args.also_modes):
            if name not in modes:
                modes.append(name)
    known = OUTPUT_MODES + tuple(args.variants)
    unknown = [m for m in args.modes + args.also_modes if m not in known]
    if unknown:
        sys.exit("apps: --modes and --also-modes take names of %s, not %s" % (",".join(known), ",".join(unknown)))
    args.speeds = [float(s) for s in args.speeds.split(",")]
    if args.quick_speed <= 0:
        sys.exit("apps: --quick-speed takes a speed in mm/s above 0, not %g" % args.quick_speed)
    args.directions = args.directions.split(",")
    unknown = [d for d in args.directions if d not in DIRECTIONS]
    if unknown:
        sys.exit("apps: --directions takes names of %s, not %s" % (",".join(DIRECTIONS), ",".join(unknown)))
    return args


def main():
    args = parse_args(sys.argv[1:])
    if args.rows_from:
        if not args.table:
            sys.exit("apps: --rows-from writes --table FILE; give one")
        try:
            rows = rows_from(args.rows_from)
        except OSError as e:
            sys.exit("apps: --rows-from: cannot read %s: %s" % (args.rows_from, e.strerror or e))
        if not rows:
            sys.exit("apps: --rows-from: %s holds no scenario line (the JSON lines a run prints)" % args.rows_from)
        write_table(rows, args.table)
        return 0
    if args.out is None:
        # Not under $E2E_TMP: sway's unprivileged user must read its config there.
        args.out = os.path.join(os.environ.get("E2E_RESULTS") or "/tmp", "apps")
    try:
        vdev.resolve(PAD)
    except vdev.VdevError as e:  # the harness itself is broken: the fixture is part of the repository
        sys.exit("apps: %s" % e)
    if not os.environ.get("E2E_GUEST"):
        sys.exit("apps: run me in the e2e guest (Tests/E2E/guest run --mem 2048 -- ...)")
    os.makedirs(args.out, exist_ok=True)
    try:
        touchpad = "touchpad" not in args.modes + args.also_modes or supports_output_table(args.flickd, args.out, "touchpad")
    except RuntimeError as e:
        sys.exit("apps: %s" % e)
    if not touchpad:
        print("apps: SKIPPED mode touchpad: %s does not accept [output] mode = \"touchpad\"" % args.flickd, flush=True)
        args.modes = [m for m in args.modes if m != "touchpad"]
        args.also_modes = [m for m in args.also_modes if m != "touchpad"]
    install_udev_rule()
    return run(args)


UDEV_RULE = "/etc/udev/rules.d/70-flickd-uinput.rules"


def install_udev_rule():
    """flickd's devices as a real install has them: the repository's udev rule, as scripts/install
    puts it, for the devices made after it. It tags flickd's virtual touchpad external, so libinput
    pairs it with no keyboard, trackpoint or switch (docs/DESIGN.md, "The virtual touchpad is an
    external one to libinput"). The guest's root is a tmpfs overlay: nothing reaches the host."""
    shutil.copyfile(os.path.join(REPO, "systemd", "70-flickd-uinput.rules"), UDEV_RULE)
    subprocess.run(["udevadm", "control", "--reload"], check=True)
    print("apps: installed %s from the repository (the virtual touchpad tagged external)" % UDEV_RULE, flush=True)


if __name__ == "__main__":
    sys.exit(main())
