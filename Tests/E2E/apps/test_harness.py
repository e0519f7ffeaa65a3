#!/usr/bin/python3
"""Offline tests of the app harness's measurements (no guest, no display server): the figures
docs/APPS.md reports come from these functions.

    /usr/bin/python3 Tests/E2E/apps/test_harness.py
"""

import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def argparse_namespace(**kw):
    import argparse
    return argparse.Namespace(**kw)


def log(*entries):
    """App log lines as the harness reads them: (app time s, kind, [fields])."""
    return [(t, kind, [str(f) for f in fields]) for t, kind, *fields in entries]


class FirstEventDropped(unittest.TestCase):
    # A GTK4 scroll sequence beginning at input time 1000 ms: the first delivered event (40
    # units) changes nothing, the second (20 units) moves the offset by 50 px (2.5 px a unit).
    DROPPED = log((1.00, "v", 100.0, 990), (1.01, "begin", 1000), (1.02, "ev", 0, 40, 1000),
                  (1.05, "ev", 0, 20, 1030), (1.051, "v", 150.0, 1030), (1.08, "ev", 0, 10, 1060),
                  (1.081, "v", 175.0, 1060))

    def test_the_ignored_event_is_measured_at_the_next_events_scale(self):
        self.assertAlmostEqual(harness.first_event_dropped(self.DROPPED, "v", 1.0), 100.0)

    def test_an_applied_first_event_counts_zero(self):
        applied = log((1.00, "v", 100.0, 990), (1.01, "begin", 1000), (1.02, "ev", 0, 40, 1000),
                      (1.021, "v", 200.0, 1000), (1.05, "ev", 0, 20, 1030), (1.051, "v", 250.0, 1030))
        self.assertEqual(harness.first_event_dropped(applied, "v", 1.0), 0.0)

    def test_horizontal_reads_dx(self):
        horizontal = [(t, "h" if kind == "v" else kind, list(reversed(f[:2])) + f[2:] if kind == "ev" else f)
                      for t, kind, f in self.DROPPED]
        self.assertAlmostEqual(harness.first_event_dropped(horizontal, "h", 1.0), 100.0)

    def test_no_sequence_near_the_time_is_none(self):
        self.assertIsNone(harness.first_event_dropped(self.DROPPED, "v", 2.0), "the sequence began 1 s before")
        self.assertIsNone(harness.first_event_dropped(self.DROPPED, "v", 0.5), "it begins more than 300 ms after")
        self.assertIsNone(harness.first_event_dropped(log((1.0, "v", 1.0, 990)), "v", 1.0), "GTK3 and Qt log no sequences")


class OwnGlideFrom(unittest.TestCase):
    # Xorg + GTK4 (seen): the real pad's stop, stamped 15762 ms by Xorg, ends the finger's
    # sequence and starts GTK's own glide (two "own" changes); flickd's first frame was written
    # at 15760 ms; the glide's sequence begins at 15809 ms.
    LINES = log((15.7263, "v", 10269.2, 15713), (15.7670, "ev", 0, 0.835, 15762), (15.7677, "end", 15762),
                (15.7688, "decel", 0, 45.8), (15.7696, "v", 10328.7, 15762), (15.7699, "own"),
                (15.7742, "v", 10351.0, 15762), (15.7745, "own"), (15.8154, "begin", 15809),
                (15.8159, "ev", 0, 2.314, 15809), (15.8218, "v", 10378.4, 15817))
    CHANGES = harness.changes(LINES, "v", 0.0)

    def test_gtk4_counts_from_the_glides_sequence(self):
        own_from = harness.own_glide_from(self.LINES, self.CHANGES, 15.760, 15.7263)
        self.assertEqual(own_from, 15.8154)
        self.assertEqual(sum(1 for t, kind, _ in self.LINES if kind == "own" and t > own_from), 0)

    def test_without_sequences_the_first_change_stamped_after_flickds_first_event(self):
        lines = [line for line in self.LINES if line[1] not in ("begin", "end", "ev")]
        own_from = harness.own_glide_from(lines, harness.changes(lines, "v", 0.0), 15.760, 15.7263)
        self.assertEqual(own_from, 15.7696, "the stop's change: Xorg's stamp is later than flickd's frame")
        self.assertEqual(sum(1 for t, kind, _ in lines if kind == "own" and t > own_from), 2)

    def test_without_flickd_the_end_of_the_finger_phase(self):
        self.assertEqual(harness.own_glide_from(self.LINES, self.CHANGES, None, 15.7263), 15.7263)

    def test_a_flick_flickd_did_not_coast_has_no_figure(self):
        # The finger phase from 15.60 s to the release at 15.765 s; GTK's own glide follows.
        flick = {"t_touch": 15.60, "t_release": 15.765, "k_release": 15.765}
        counts = [harness.measure(self.LINES, flick, "v", first, 15.5, flickd_ran=ran)["own_after_flickd"]
                  for ran, first in ((False, None), (True, None), (True, 15.760))]
        self.assertEqual(counts, [1, None, 0], "without flickd: from the finger's end; flickd wrote nothing: no "
                                               "figure; flickd's first frame at 15760 ms: from its glide's sequence")


class UnmarkedOwnGlide(unittest.TestCase):
    """GTK 4.8 ignores the first event of a scroll sequence: its own glide can outlive flickd's
    first event, whose handling ended app.py's "coasting", so the glide's later ticks are
    logged with no input time and no "own" line."""
    # OwnGlideFrom's flick: flickd's glide's sequence begins at 15809 ms (app 15.8154 s) and
    # its first applied change is stamped 15817; then GTK's glide ticks on at 15.830 and
    # 15.846 s, unmarked; the harness's "center" jumps to 10000 px (no input time either).
    LINES = OwnGlideFrom.LINES + log((15.830, "v", 10400.0, -1), (15.846, "v", 10420.0, -1),
                                     (15.860, "v", 10440.0, 15850), (15.9, "center", 10000.0, 5000.0),
                                     (15.9, "v", 10000.0, -1), (15.9, "h", 5000.0, -1))
    FLICK = {"t_touch": 15.60, "t_release": 15.765, "k_release": 15.765}

    def test_gtks_changes_with_no_input_time_after_flickds_first_event_count(self):
        res = harness.measure(self.LINES, self.FLICK, "v", 15.760, 15.5, flickd_ran=True, unmarked_own=True)
        self.assertEqual((res["own_after_flickd"], res["own_unmarked"]), (2, 2), "the two ticks; not the center's jumps")

    def test_not_for_an_app_without_a_glide_of_its_own(self):
        res = harness.measure(self.LINES, self.FLICK, "v", 15.760, 15.5, flickd_ran=True)
        self.assertEqual((res["own_after_flickd"], res["own_unmarked"]), (0, 0))

    def test_a_marked_change_counts_once_and_changes_before_the_glides_sequence_not_at_all(self):
        # Without flickd (from the finger's end, 15.7263 s): the two marked changes (their
        # "own" lines) and the two unmarked ticks; the changes stamped 15762 were marked.
        self.assertEqual(harness.own_glide_changes(self.LINES, 15.7263, True), (2, 2))
        self.assertEqual(harness.own_glide_changes(self.LINES, 15.8154, True), (0, 2))
        self.assertEqual(harness.own_glide_changes(self.LINES, 15.8154), (0, 0))

    def test_a_change_after_a_center_to_another_offset_is_no_jump(self):
        lines = log((1.0, "center", 100.0, 50.0), (1.0, "v", 100.0, -1), (1.1, "h", 60.0, -1))
        self.assertEqual(harness.own_glide_changes(lines, 0.5, True), (0, 1))


class CheckScenario(unittest.TestCase):
    # Xorg + GTK4 at 60 mm/s (seen in a full matrix): flickd read a flick at 48 mm/s, under
    # coast.min_speed, and wrote nothing after its release; GTK's own glide ran (46 changes).
    ROW = {"server": "xorg", "toolkit": "gtk4", "speed_mm_s": 60.0, "direction": "horizontal", "flicks": 5,
           "discarded": 0, "discarded_late": 0, "turned": 0, "ratio": 2.47, "ratios": [2.47] * 5, "gap_frames": None,
           "gap_ms": 176.0, "frame_ms": None, "step_ratio": 0.96, "coast_step_px": 464.9, "finger_step_px": 508.9,
           "distance_px": 1743.9, "distance_fraction": 1.04, "flickd_hold_gestures": 0,
           "own_after_flickd_max": 0, "flickd_output_flicks": 5}

    class Daemon:
        @staticmethod
        def bad_lines():
            return []

    def judge(self, own, bad=0, speed=60.0, dropped=0, behind=False, limited=False):
        checks = harness.Checks()
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                harness.check_scenario(checks, dict(self.ROW, own_after_flickd=own, flickd_bad_events=bad,
                                                    speed_mm_s=speed, libinput_dropped=dropped,
                                                    libinput_behind=behind, libinput_limited=limited),
                                      "default", self.Daemon())
            finally:
                sys.stdout = stdout
        return checks

    def test_bad_events_from_flickds_devices_fail(self):
        self.assertEqual(self.judge(0, bad=1).failures,
                         ["xorg/gtk4/default 60 mm/s horizontal: no button/tap/motion/swipe/pinch gesture from flickd's devices"])

    def test_devices_not_read_with_libinput_are_not_measured(self):
        # E2E_APPS_LIBINPUT_WATCH=0: no count, and no pass either.
        checks = self.judge(0, bad=None)
        self.assertEqual((checks.failed, checks.passed, checks.unmeasurable, checks.goals_unmeasurable), (0, 4, 1, 1),
                         "the bad-event check; the gap goal (no paint period)")

    def test_events_libinput_lost_or_not_yet_read_leave_the_check_unmeasured(self):
        for kw in ({"dropped": 1}, {"behind": True}, {"limited": True}):
            checks = self.judge(0, **kw)
            self.assertEqual((checks.failed, checks.passed, checks.unmeasurable, checks.goals_unmeasurable),
                             (0, 4, 1, 1), kw)
        # A bad event libinput did report still fails.
        self.assertEqual(self.judge(0, bad=2, dropped=1).failed, 1)

    def test_the_own_glide_check_needs_a_flick_flickd_coasted(self):
        checks = self.judge(None)
        self.assertEqual((checks.failed, checks.passed), (0, 4), "seen, bad events, keeps moving, not turned")
        self.assertEqual((checks.unmeasurable, checks.goals_unmeasurable), (1, 1), "the own glide's check; the gap goal")

    def test_fast_flicks_flickd_coasted_none_of_fail(self):
        self.assertEqual(self.judge(None, speed=150.0).failures, ["xorg/gtk4/default 150 mm/s horizontal: no change from the app's own glide "
                                           "after flickd's first event (median over flicks)"])

    def test_the_own_glide_check_fails_on_the_apps_glide_after_flickds(self):
        checks = self.judge(23)
        self.assertEqual(checks.failures, ["xorg/gtk4/default 60 mm/s horizontal: no change from the app's own glide "
                                           "after flickd's first event (median over flicks)"])

    def run_check(self, mode="default", **row):
        import io
        checks = harness.Checks()
        out = io.StringIO()
        stdout, sys.stdout = sys.stdout, out
        try:
            harness.check_scenario(checks, dict(dict(self.ROW, own_after_flickd=0, flickd_bad_events=0), **row), mode,
                                   self.Daemon())
        finally:
            sys.stdout = stdout
        return checks, out.getvalue()

    # Qt6 under sway without flickd, as in the reduced set: five flicks whose content stopped
    # dead at the release (distance 0.0 x the model).
    STOP_DEAD = dict(server="sway", toolkit="qt6", speed_mm_s=150.0, direction="vertical", distance_fraction=0.0,
                     distance_px=0.0, ratios=[0.0] * 5)

    def test_the_negative_control_passes_when_the_content_stops_dead_without_flickd(self):
        checks, out = self.run_check("none", **self.STOP_DEAD)
        self.assertEqual((checks.passed, checks.failed, checks.unmeasurable), (1, 0, 0), out)
        self.assertIn("negative control: without flickd the content stops dead", out)

    def test_a_keeps_moving_check_that_would_pass_without_flickd_fails_the_run(self):
        checks, out = self.run_check("none", **dict(self.STOP_DEAD, distance_fraction=1.02, distance_px=1700.0))
        self.assertEqual(checks.failed, 1, out)
        self.assertIn("the check cannot fail", out)

    def test_a_negative_control_with_no_flick_measured_is_not_measurable(self):
        checks, out = self.run_check("none", **dict(self.STOP_DEAD, flicks=0, distance_fraction=None))
        self.assertEqual((checks.passed, checks.failed, checks.unmeasurable), (0, 0, 1), out)

    def test_apps_that_glide_by_themselves_without_flickd_are_a_reference_only(self):
        for row in (dict(self.STOP_DEAD, toolkit="gtk3", distance_fraction=0.8),
                    dict(self.STOP_DEAD, server="xorg-synaptics", distance_fraction=0.9)):
            checks, out = self.run_check("none", **row)
            self.assertEqual((checks.passed, checks.failed, checks.unmeasurable), (0, 0, 0), row)
            self.assertIn("reference (mode none, not counted)", out)

    def test_an_app_with_no_glide_of_its_own_has_no_own_glide_check(self):
        # app.py writes "own" lines for GTK alone: for Qt6 the check could only pass.
        what = "no change from the app's own glide"
        checks, out = self.run_check(**dict(self.STOP_DEAD, distance_fraction=1.0))
        self.assertNotIn(what, out)
        self.assertEqual((checks.failed, checks.unmeasurable), (0, 0), out)
        checks, out = self.run_check(**dict(self.STOP_DEAD, toolkit="gtk3", distance_fraction=1.0))
        self.assertIn("ok   sway/gtk3/default 150 mm/s vertical: " + what, out)

    def test_bad_events_fail_the_synaptics_rows_too(self):
        for server in ("xorg-synaptics", "xorg-synaptics-nocoast"):
            checks, out = self.run_check(server=server, flickd_bad_events=1, flickd_output_flicks=0, turn_judged=5)
            self.assertIn("%s/gtk4/default 60 mm/s horizontal: no button/tap/motion/swipe/pinch gesture from "
                          "flickd's devices" % server, checks.failures, out)
            checks, out = self.run_check(server=server, flickd_output_flicks=0, turn_judged=5, turned=1)
            self.assertIn("%s/gtk4/default 60 mm/s horizontal: no glide against the finger (content back by > 0.5 x "
                          "the finger's travel)" % server, checks.failures, out)

    def test_a_glide_that_did_not_end_fails(self):
        checks, out = self.run_check(glide_not_ended="flickd's devices still wrote 10 s after the app was still")
        self.assertIn("xorg/gtk4/default 60 mm/s horizontal: " + harness.GLIDE_ENDED, checks.failures)


class GoalJudging(unittest.TestCase):
    """Goals on the medians of the scenario's flicks: unrounded, and of enough flicks."""

    @staticmethod
    def row(per, needed=5, speed=150.0, **kw):
        row = {"server": "sway", "toolkit": "gtk3", "mode": "default", "speed_mm_s": speed, "direction": "vertical",
               "flicks": len(per), "discarded": 0, "discarded_late": 0, "turned": 0, "turn_judged": len(per),
               "flickd_bad_events": 0, "flickd_hold_gestures": 0, "libinput_dropped": 0, "libinput_behind": False,
               "libinput_limited": False, "own_after_flickd_max": 0, "frame_pooled_flicks": 0,
               "ratios": [harness.fmt(p.get("ratio")) for p in per],
               "flickd_output_flicks": sum(1 for p in per if p.get("flickd_first_ms") is not None)}
        harness.add_medians(row, per, needed)
        row.update(kw)
        return row

    @staticmethod
    def judge(row, checks=None):
        checks = checks or harness.Checks()
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                harness.check_scenario(checks, row, row["mode"], CheckScenario.Daemon())
            finally:
                sys.stdout = stdout
        return checks

    FLICK = {"ratio": 0.95, "gap_frames": 1.0, "step_ratio": 1.2, "gap_ms": 30.0, "frame_ms": 30.0, "coast_step_px": 120.0,
             "finger_step_px": 100.0, "own_after_flickd": 0, "distance_px": 900.0, "distance_fraction": 1.0,
             "flickd_first_ms": 10.0}

    def test_a_ratio_just_under_the_bound_is_not_met_though_it_rounds_onto_it(self):
        row = self.row([dict(self.FLICK, ratio=0.8496)] * 5)
        self.assertEqual(row["ratio"], 0.85, "printed rounded")
        checks = self.judge(row)
        self.assertEqual((checks.goals_met, checks.goals_not_met), (2, 1))
        (s,) = harness.summarize([row])
        self.assertEqual(s["ratio_met"], (0, 1), "the table judges alike")

    def test_a_goal_of_fewer_flicks_than_needed_is_not_measurable(self):
        # Five flicks measured, two without a paint period: the gap's median is of three.
        per = [dict(self.FLICK) for _ in range(3)] + [dict(self.FLICK, gap_frames=None, frame_ms=None) for _ in range(2)]
        row = self.row(per)
        self.assertEqual(row["goal_flicks"], {"ratio": 5, "gap_frames": 3, "step_ratio": 5})
        checks = self.judge(row)
        self.assertEqual((checks.goals_met, checks.goals_not_met, checks.goals_unmeasurable), (2, 0, 1))
        self.assertEqual(harness.goal_figure(row, "gap_frames"),
                         (None, 3, "the median of 3 flicks, fewer than the 5 a goal needs"))
        self.assertEqual(harness.goal_figure(row, "ratio"), (0.95, 5, None))
        # Three flicks measured in all (GTK4 in a CI run: 12 of 15 written late): no goal judged.
        checks = self.judge(self.row([dict(self.FLICK)] * 3))
        self.assertEqual((checks.goals_met, checks.goals_unmeasurable), (0, 3))
        # A run asking for more flicks needs them all.
        self.assertEqual(harness.goal_figure(self.row([dict(self.FLICK)] * 5, needed=7), "ratio")[0], None)
        (s,) = harness.summarize([self.row(per)])
        self.assertEqual((s["ratio_met"], s["gap_met"]), ((1, 1), (0, 0)))

    def test_keeps_moving_is_judged_on_the_unrounded_distance(self):
        # 0.1996 prints as 0.2 and passed ">= 0.2"; without flickd the negative control failed.
        row = self.row([dict(self.FLICK, distance_fraction=0.1996)] * 5, toolkit="qt6")
        self.assertEqual(row["distance_fraction"], 0.2, "printed rounded")
        self.assertIn("sway/qt6/default 150 mm/s vertical: content keeps moving after the release: "
                      "distance >= 0.20 x the model's v0/k", self.judge(row).failures)
        checks = self.judge(dict(row, mode="none"))
        self.assertEqual((checks.passed, checks.failed), (1, 0), "the negative control: it would fail")

    def test_the_goal_line_says_of_how_many_flicks(self):
        with open(os.devnull, "w") as quiet:
            import io
            out = io.StringIO()
            stdout, sys.stdout = sys.stdout, out
            try:
                harness.check_scenario(harness.Checks(), self.row([dict(self.FLICK)] * 5), "default", CheckScenario.Daemon())
            finally:
                sys.stdout = stdout
        self.assertIn("speed ratio after/before in 0.85..1.15 (0.95 (median of 5 flicks)", out.getvalue())



class LibinputReading(unittest.TestCase):
    """What the harness makes of `libinput debug-events` on flickd's devices."""

    TEXT = """-event9   DEVICE_ADDED     flickd virtual touchpad           seat0 default group1  cap:pg
libinput error: event9  - flickd virtual touchpad: client bug: event processing lagging behind by 73ms, your system is too slow
libinput error: event9  - flickd virtual touchpad: WARNING: log rate limit exceeded (5 msgs per 60min). Discarding future messages.
 event9   POINTER_SCROLL_FINGER  +1.234s	vert 3.20/0.0* horiz 0.00/0.0 (finger)
 event9   GESTURE_HOLD_BEGIN     +2.000s	2
 event9   GESTURE_HOLD_END       +2.210s	2
event9  - flickd virtual touchpad: kernel bug: Touch jump detected and discarded.
 event9   POINTER_BUTTON         +3.000s	BTN_RIGHT (273) pressed, seat count: 1
event9  - flickd virtual touchpad: SYN_DROPPED event - some input events have been lost.
event9  - flickd virtual touchpad: WARNING: log rate limit exceeded (5 msgs per 30s). Discarding future messages.
 event9   GESTURE_SWIPE_BEGIN    +4.000s	3
"""

    def test_scan_counts_each_kind(self):
        found = harness.scan_debug_events(self.TEXT)
        self.assertEqual(len(found["bad"]), 2)
        self.assertTrue(found["bad"][0].startswith("event9   POINTER_BUTTON"))
        # The rate limit of the lag warning (a reader in the idle class lags) is not the loss's.
        self.assertEqual((found["holds"], found["jumps"], found["dropped"], found["limited"]), (2, 1, 1, 1))
        self.assertEqual(harness.scan_debug_events(""), {"bad": [], "holds": 0, "jumps": 0, "dropped": 0, "limited": 0})

    def test_the_reader_turns_tapping_on(self):
        # flickd's virtual touchpad declares BTN_LEFT and BTN_RIGHT, so libinput's default for
        # it is tapping off: a two-finger tap would show as nothing.
        command = harness.LibinputWatch.command("/dev/input/event9")
        self.assertIn("--enable-tap", command)
        self.assertEqual(command[-2:], ["--device", "/dev/input/event9"])

    def caught_up(self, states, timeout=1.0):
        """caught_up against a reader whose /proc state runs through `states` (one per look),
        on a virtual clock that only its sleeps move; (result, looks taken)."""
        watch = harness.LibinputWatch.__new__(harness.LibinputWatch)
        clock = [0.0]
        seq = iter(states)
        looks = []

        def state():
            looks.append(clock[0])
            return next(seq)
        result = watch.caught_up(timeout, state=state, clock=lambda: clock[0],
                                 sleep=lambda d: clock.__setitem__(0, clock[0] + d))
        return result, len(looks)

    def test_a_reader_found_asleep_twice_running_has_caught_up(self):
        self.assertEqual(self.caught_up(["R", "R", "S", "R", "S", "S"]), (True, 6))

    def test_a_reader_that_exited_has_nothing_left(self):
        self.assertEqual(self.caught_up(["R", None]), (True, 2))
        self.assertEqual(self.caught_up(["Z"]), (True, 1))

    def test_a_reader_kept_from_the_cpus_is_behind_after_the_timeout(self):
        result, looks = self.caught_up(["R"] * 1000, timeout=0.5)
        self.assertFalse(result)
        self.assertLess(looks, 100)

    def test_verdict(self):
        seen = dict(harness.NOTHING_SEEN)
        self.assertEqual(harness.bad_event_verdict(seen), (True, ""))
        self.assertEqual(harness.bad_event_verdict(dict(seen, bad=1, dropped=3))[0], False)
        ok, note = harness.bad_event_verdict(dict(seen, dropped=1))
        self.assertIsNone(ok)
        self.assertIn("SYN_DROPPED", note)
        ok, note = harness.bad_event_verdict(dict(seen, limited=True))
        self.assertIsNone(ok)
        self.assertIn("rate limit", note)
        self.assertEqual(harness.bad_event_verdict(dict(seen, bad=1, limited=True))[0], False)
        ok, note = harness.bad_event_verdict(dict(seen, behind=True))
        self.assertIsNone(ok)
        self.assertIn("caught up", note)
        ok, note = harness.bad_event_verdict(None)
        self.assertIsNone(ok)
        self.assertIn("E2E_APPS_LIBINPUT_WATCH=0", note)

    def test_since_takes_differences(self):
        class Daemon:
            now = {"bad": 3, "holds": 4, "jumps": 1, "dropped": 2, "limited": 1, "behind": True}

            def libinput_counts(self):
                return self.now
        before = {"bad": 1, "holds": 2, "jumps": 1, "dropped": 0, "limited": 1, "behind": False}
        # The rate limit hit before this scenario still counts: libinput may log no loss in it.
        self.assertEqual(harness.libinput_since(Daemon(), before),
                         {"bad": 2, "holds": 2, "jumps": 0, "dropped": 2, "limited": True, "behind": True})
        self.assertIsNone(harness.libinput_since(Daemon(), None))
        Daemon.now = None
        self.assertIsNone(harness.libinput_since(Daemon(), before))


class StopsUnderTheBadEventCheck(unittest.TestCase):
    """The touch stops and the stop-and-scroll tries are read for bad events too."""

    class Pad:
        desc, height_mm, width_mm = {}, 67.0, 97.0

        def flick(self, *a, **kw):
            return {"k_touch": 1.0, "k_release": 1.25, "max_late_ms": 100.0}

        def touch(self, **kw):
            return {"k_touch": 1.4, "max_late_ms": 0}

        def scroll(self, *a, **kw):
            return {"k_touch": 1.4, "k_release": 2.2, "max_late_ms": 100.0}

    class App:
        toolkit, input_clock_slack_s = "gtk3", 0.0

        def recenter(self):
            return 0.0

        def wait_still(self, **kw):
            return True

        def lines(self):
            return []

    class Daemon:
        def __init__(self):
            self.counts = iter([dict(harness.NOTHING_SEEN, limited=0), dict(harness.NOTHING_SEEN, bad=1, limited=0)])

        def libinput_counts(self):
            return next(self.counts)

        def text(self):
            return ""

        def wait_quiet(self):
            return True  # flickd's glide ended

        def first_event_after(self, t):
            return None

        def last_motion_after(self, t):
            return None, None

        def bad_lines(self):
            return ["event9 POINTER_BUTTON +1.0s BTN_RIGHT (273) pressed"]

    def run_quietly(self, run):
        import argparse
        checks = harness.Checks()
        args = argparse.Namespace(flicks=1, verbose=False)
        sleep, harness.time.sleep = harness.time.sleep, lambda s: None
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                run(args, harness.Sway.__new__(harness.Sway), self.App(), self.Pad(), self.Daemon(), "default", checks)
            finally:
                sys.stdout = stdout
                harness.time.sleep = sleep
        return checks

    def test_a_tap_during_the_touch_stops_fails(self):
        self.assertEqual(self.run_quietly(harness.run_touch_stop).failures,
                         ["sway/gtk3/default touch on the real pad mid-coast: no button, tap, motion or gesture from "
                          "flickd during the touch stops"])

    def test_a_tap_during_the_stop_and_scroll_tries_fails(self):
        self.assertEqual(self.run_quietly(harness.run_stop_scroll).failures,
                         ["sway/gtk3/default scroll on by hand after a stop: no button, tap, motion or gesture from "
                          "flickd during the stops and hand scrolls"])


class Handover(unittest.TestCase):
    # Qt under Xorg (input stamps in ms): finger events every 10 ms up to 2000 ms, the release
    # at 2010 ms, paints 30 ms late; the app's first coast change handled an event stamped
    # 2033 ms; a paint-only line and an own-glide change (no stamp) come before it.
    LINES = log(*[(1.95 + 0.01 * i + 0.03, "v", 100.0 + 20 * i, 1950 + 10 * i) for i in range(6)],
                (2.035, "v", 240.0), (2.063, "v", 260.0, 2033), (2.072, "v", 280.0, 2041))
    FLICK = {"t_touch": 1.94, "t_release": 2.010, "k_release": 2.010}

    def test_from_the_fingers_last_event_to_the_first_event_after_the_release(self):
        res = harness.measure(self.LINES, self.FLICK, "v", 2.012, 1.80)
        self.assertAlmostEqual(res["handover_ms"], 33.0, places=6)
        self.assertAlmostEqual(res["lag_ms"], 30.0, places=6)

    def test_none_without_an_event_after_the_release(self):
        lines = [line for line in self.LINES if line[0] < 2.06]
        self.assertIsNone(harness.measure(lines, self.FLICK, "v", None, 1.80)["handover_ms"])


class Speeds(unittest.TestCase):
    # A finger phase of 60 px every 10 ms up to input time 2000 ms, the release at 2010 ms,
    # then the glide's changes every 8 ms (40 px each) from `first_ms` on; the app paints 20 ms
    # after each event.
    FLICK = {"t_touch": 1.70, "t_release": 2.010, "k_release": 2.010}

    @staticmethod
    def flick_log(first_ms):
        finger = [(1.72 + 0.01 * i, "v", 1000.0 + 60 * i, 1700 + 10 * i) for i in range(31)]
        glide = [((first_ms + 8 * i) / 1000 + 0.02, "v", 2800.0 + 40 * (i + 1), first_ms + 8 * i) for i in range(40)]
        return log(*(finger + glide))

    def test_the_finger_speed_ends_at_its_last_event(self):
        res = harness.measure(self.flick_log(2030), self.FLICK, "v", 2.015, 1.5)
        self.assertAlmostEqual(res["speed_before_px_s"], 6000.0, places=6)
        # From 2800, where the content stood at the release, to the glide's line 100 ms later.
        x_2110 = 2800.0 + 40 * (1 + (2110 - 2030) / 8)
        self.assertAlmostEqual(res["speed_after_px_s"], (x_2110 - 2800.0) / 0.1, places=6)

    def test_a_longer_hole_gives_a_lower_ratio(self):
        short = harness.measure(self.flick_log(2020), self.FLICK, "v", 2.015, 1.5)
        long = harness.measure(self.flick_log(2060), self.FLICK, "v", 2.015, 1.5)
        self.assertEqual(short["speed_before_px_s"], long["speed_before_px_s"], "the hole is not the finger's")
        self.assertLess(long["ratio"], short["ratio"])

    def test_the_finger_phases_own_largest_gap(self):
        res = harness.measure(self.flick_log(2030), self.FLICK, "v", 2.015, 1.5)
        self.assertAlmostEqual(res["finger_gap_ms"], 10.0, places=6)
        # The app stalls after its change at 1.84 s and applies the finger's next events in
        # one burst at 1.97 s.
        stalled = [(1.97 if 1.845 < t < 1.97 else t, kind, fields) for t, kind, fields in self.flick_log(2030)]
        res = harness.measure(stalled, self.FLICK, "v", 2.015, 1.5)
        self.assertAlmostEqual(res["finger_gap_ms"], 130.0, places=6)
        self.assertAlmostEqual(res["speed_before_px_s"], 6000.0, places=6, msg="speeds are on the input's clock")

    def test_a_glide_against_the_finger_turned_and_leaves_no_ratio(self):
        finger = [(1.72 + 0.01 * i, "v", 1000.0 + 60 * i, 1700 + 10 * i) for i in range(31)]
        back = [(2.05 + 0.008 * i, "v", 2800.0 - 60 * (i + 1), 2030 + 8 * i) for i in range(40)]
        res = harness.measure(log(*(finger + back)), self.FLICK, "v", 2.015, 1.5)
        self.assertTrue(res["turned"])
        self.assertAlmostEqual(res["back_px"], 2400.0)
        self.assertIsNone(res["ratio"], "the content's travel runs the other way: no speed to compare")
        detail = res["turned_detail"]
        self.assertEqual((detail["travel_px"], detail["finger_end_px"], detail["back_px"]), (1800.0, 2800.0, 2400.0))
        self.assertAlmostEqual(detail["back_after_ms"], 1000 * (2.05 + 0.008 * 39 - 2.02), places=1)
        row = {"turned": 1, "flicks": 4, "discarded": 1, "turned_flicks": [dict(detail, flick=2)]}
        self.assertIn('"back_px": 2400.0', harness.turned_detail(row))
        self.assertTrue(harness.turned_detail(row).startswith("1 of 5 flicks played: "))
        self.assertEqual(harness.turned_detail({"turned": 0, "flicks": 5, "discarded": 0}), "0 of 5 flicks played")

    def test_a_glide_back_short_of_a_turn_is_no_distance(self):
        # The content goes back 720 px after the release: less than half the finger's 1800.
        finger = [(1.72 + 0.01 * i, "v", 1000.0 + 60 * i, 1700 + 10 * i) for i in range(31)]
        back = [(2.05 + 0.008 * i, "v", 2800.0 - 40 * (i + 1), 2030 + 8 * i) for i in range(18)]
        res = harness.measure(log(*(finger + back)), self.FLICK, "v", 2.015, 1.5)
        self.assertFalse(res["turned"])
        self.assertEqual(res["distance_px"], 0.0, "backwards is no distance the way the user flicked")

    def test_content_that_stops_dead_has_an_endless_gap_and_no_coast_step(self):
        # The app paints every 100 ms in the finger phase (1.72-2.02 s) and after it; its content
        # never moves after the finger's last change. Capped at the 300 ms window the gap was
        # 3 frames here, and 1.5 (met) for an app painting every 200 ms: a gap that never ends
        # meets no goal, whatever the app's frame period.
        finger = [(1.72 + 0.01 * i, "v", 1000.0 + 60 * i, 1700 + 10 * i) for i in range(31)]
        paints = [(1.72 + 0.1 * i, "paint") for i in range(8)]
        res = harness.measure(log(*sorted(finger + paints)), self.FLICK, "v", 2.015, 1.5)
        self.assertEqual(res["gap_ms"], math.inf)
        self.assertAlmostEqual(res["frame_ms"], 100.0, places=6)
        self.assertEqual(res["gap_frames"], math.inf)
        self.assertFalse(harness.GOAL_MET["gap_frames"](res["gap_frames"]))
        self.assertIsNone(res["step_ratio"], "no coast step to judge")
        self.assertEqual(res["distance_px"], 0.0)
        # One change after the finger's, then none: the stall from it to the window's end.
        moved = log(*sorted(finger + paints + [(2.12, "v", 2810.0, 2100)]))
        self.assertAlmostEqual(harness.measure(moved, self.FLICK, "v", 2.015, 1.5)["gap_ms"], 200.0, places=6)

    def test_a_stall_at_the_windows_end_counts_when_the_content_never_moves_again(self):
        # The glide's last change 100 ms after the finger's (app time 2.02 s), then nothing: the
        # content stood still the last 200 ms of the 300 ms window.
        finger = [(1.72 + 0.01 * i, "v", 1000.0 + 60 * i, 1700 + 10 * i) for i in range(31)]
        glide = [(2.04 + 0.02 * i, "v", 2800.0 + 40 * (i + 1), 2020 + 20 * i) for i in range(5)]
        res = harness.measure(log(*(finger + glide)), self.FLICK, "v", 2.015, 1.5)
        self.assertAlmostEqual(res["gap_ms"], 200.0, places=6)

    def test_a_glide_with_the_finger_did_not_turn(self):
        res = harness.measure(self.flick_log(2030), self.FLICK, "v", 2.015, 1.5)
        self.assertFalse(res["turned"])
        self.assertEqual(res["back_px"], 0.0)
        stale = self.flick_log(2030)
        stale.insert(31, (2.025, "v", ["2733.0", "2025"]))  # one step back of 67 px, then on
        self.assertFalse(harness.measure(stale, self.FLICK, "v", 2.015, 1.5)["turned"])

    def test_content_at_is_a_step(self):
        series = [(1.0, 10.0), (2.0, 20.0)]
        self.assertEqual(harness.content_at(series, 0.5), 10.0)
        self.assertEqual(harness.content_at(series, 1.99), 10.0)
        self.assertEqual(harness.content_at(series, 2.0), 20.0)


class Formulas(unittest.TestCase):
    """measure()'s figures from one log worked by hand: each formula's mutation changes one.

    The finger lands at 1.000 s (kernel) and lifts at 1.100 s; its events are stamped every
    10 ms from 1000 to 1090 ms and the app shows each 20 ms later. From 1000 px (a change before
    the touch) the finger moves the content to 1010, 1020, ... 1060 (steps of 10), 1080, 1100,
    1120 (20) and 1160 (40). flickd's first event comes at 1.105 s; its glide's changes, stamped
    with flickd's events, show 20 ms late (app s, px, input ms): 1.130 1260 1110, 1.150 1290 1130,
    1.250 1360 1230, 1.290 1380 1270, then a stall to 1.480 1390 1460, 1.500 1395 1480 and,
    after a longer one outside the first 300 ms, 2.000 1396 1980. The
    app paints at 1.020, 1.040, 1.060 and 1.100 s in the finger phase, and at 1.200-1.240 every
    10 ms after it."""
    FLICK = {"k_touch": 1.000, "k_release": 1.100}
    FINGER = [1010.0, 1020.0, 1030.0, 1040.0, 1050.0, 1060.0, 1080.0, 1100.0, 1120.0, 1160.0]
    COAST = [(1.130, 1260.0, 1110), (1.150, 1290.0, 1130), (1.250, 1360.0, 1230), (1.290, 1380.0, 1270),
             (1.480, 1390.0, 1460), (1.500, 1395.0, 1480), (2.000, 1396.0, 1980)]
    PAINTS = [1.020, 1.040, 1.060, 1.100, 1.200, 1.210, 1.220, 1.230, 1.240]

    def lines(self, axis="v", way=1.0):
        """The log on `axis`; way -1: the content moves the other way (natural scrolling: the
        same distances from 3000 px, downwards)."""
        def px(x):
            return x if way > 0 else 3000.0 - x
        entries = [(0.95, axis, px(1000.0), 940)]
        entries += [(1.020 + 0.01 * i, axis, px(x), 1000 + 10 * i) for i, x in enumerate(self.FINGER)]
        entries += [(t, axis, px(x), ms) for t, x, ms in self.COAST]
        entries += [(t, "paint") for t in self.PAINTS]
        return log(*sorted(entries))

    def measure(self, **kw):
        return harness.measure(self.lines(**kw), self.FLICK, kw.get("axis", "v"), 1.105, 0.5, flickd_ran=True)

    def check_figures(self, res):
        # The finger's speed: the last 50 ms up to its last event (1090 ms, 1160 px) from 1040 ms
        # (1050 px): 110 px / 0.05 s.
        self.assertAlmostEqual(res["speed_before_px_s"], 2200.0, places=6)
        # The glide's: from 1160 px, where the content stood at the release (its last point at or
        # before 1100 ms is the finger's 1090), to 1200 ms, between 1130 (1290) and 1230 (1360):
        # 1290 + 70 x 0.7 = 1339; 179 px / 0.1 s.
        self.assertAlmostEqual(res["speed_after_px_s"], 1790.0, places=6)
        self.assertAlmostEqual(res["ratio"], 1790.0 / 2200.0, places=9)
        # App clock: the finger's last change at 1.110 s; in the window to 1.410 s the changes at
        # 1.130, 1.150, 1.250, 1.290 (gaps 20, 20, 100, 40 ms); the next at 1.480 begins in the
        # window and counts whole: 190 ms. (The 500 ms before 2.000 s begin after the window.)
        self.assertAlmostEqual(res["gap_ms"], 190.0, places=6)
        # The paints from the finger's first change (1.020) to its last (1.110): 20, 20, 40 ms;
        # their median. (Over 1 s more each side the later ones make it 15.)
        self.assertAlmostEqual(res["frame_ms"], 20.0, places=6)
        self.assertAlmostEqual(res["gap_frames"], 190.0 / 20.0, places=9)
        # The finger's steps: five of 10, three of 20, one of 40; the median.
        self.assertEqual(res["finger_step_px"], 10.0)
        # From the finger's last change (1160): 100, 30, 70, 20, 10, 5, 1; the largest.
        self.assertEqual(res["coast_step_px"], 100.0)
        self.assertEqual(res["step_ratio"], 10.0)
        # From 1160 at the release to 1396 at rest, against v0/k = 2200 / 2.002 px (k = -1000 ln
        # 0.998 per s): 236 x 2.002 / 2200.
        self.assertAlmostEqual(res["distance_px"], 236.0, places=6)
        self.assertAlmostEqual(res["distance_fraction"], 236.0 * harness.MODEL_K_PER_S / 2200.0, places=9)
        self.assertAlmostEqual(res["distance_fraction"], 0.21476, places=5)
        self.assertAlmostEqual(res["finger_gap_ms"], 10.0, places=6)
        self.assertAlmostEqual(res["handover_ms"], 20.0, places=6)
        self.assertAlmostEqual(res["lag_ms"], 20.0, places=6)
        self.assertFalse(res["turned"])
        self.assertEqual(res["own_after_flickd"], 0)

    def test_down(self):
        self.check_figures(self.measure())

    def test_up_natural_scrolling_gives_the_same_figures(self):
        self.check_figures(self.measure(way=-1.0))

    def test_horizontal(self):
        self.check_figures(self.measure(axis="h"))
        self.check_figures(self.measure(axis="h", way=-1.0))


class ScenarioRun(unittest.TestCase):
    """run_scenario on stubs: the app's log grows as the harness centres and flicks. Each flick
    lands 1 s after the "center", its finger events stamped every 10 ms for 240 ms (60 px each)
    and shown 20 ms late; the release 5 ms after the last. The app paints at the finger phase's
    first and last change only (240 ms apart) and its content stops dead at the release."""

    class Log:
        def __init__(self):
            self.now, self.lines = 10.0, []

    class App:
        input_clock_slack_s, center_late_s = 0.0, 0.0

        def __init__(self, app_log, toolkit="qt6"):
            self.log, self.toolkit = app_log, toolkit

        def recenter(self):
            t = self.log.now
            self.log.lines += log((t, "center", 5000, 0), (t, "v", 5000, -1))
            self.log.now += 1.0
            return t

        def wait_still(self, **kw):
            return True

        def lines(self):
            return list(self.log.lines)

    class Pad:
        desc, height_mm, width_mm = {}, 67.0, 97.0

        def __init__(self, app_log, unmarked_tick=False):
            self.log, self.unmarked_tick = app_log, unmarked_tick

        def flick(self, direction, **kw):
            t0 = self.log.now
            for i in range(25):
                self.log.lines += log((t0 + 0.02 + 0.01 * i, "v", 5000.0 + 60 * (i + 1), round(1000 * t0) + 10 * i))
            self.log.lines += log((t0 + 0.02, "paint"), (t0 + 0.26, "paint"))
            if self.unmarked_tick:  # a change with no input time 100 ms after the finger's last
                self.log.lines += log((t0 + 0.36, "v", 6600.0, -1))
            self.log.now += 1.0
            return {"k_touch": t0, "k_release": t0 + 0.245, "max_late_ms": 0}

    class Daemon:
        def text(self):
            return ""

        def libinput_counts(self):
            return dict(harness.NOTHING_SEEN, limited=0)

        def wait_quiet(self):
            return True  # flickd's glide ended

        def first_event_after(self, t):
            return t + 0.015  # flickd wrote after each release

        def timer_opening_after(self, mark):
            return None

        def bad_lines(self):
            return []

    def run_scenario(self, flicks, toolkit="qt6", unmarked_tick=False, mode="default", server=None):
        import argparse
        import io
        app_log = self.Log()
        checks = harness.Checks()
        args = argparse.Namespace(flicks=flicks, verbose=False, check=True)
        out = io.StringIO()
        sleep, harness.time.sleep = harness.time.sleep, lambda s: None
        stdout, sys.stdout = sys.stdout, out
        try:
            row = harness.run_scenario(args, server or harness.Server(), self.App(app_log, toolkit), self.Pad(app_log, unmarked_tick),
                                       self.Daemon(), mode, 150.0, "vertical", checks)
        finally:
            sys.stdout = stdout
            harness.time.sleep = sleep
        return row, checks, out.getvalue()

    def test_content_that_stops_dead_does_not_meet_the_gap_goal_on_the_pooled_frame_period(self):
        row, checks, out = self.run_scenario(5)
        # Each finger phase has one paint interval (240 ms): none has a period of its own, the
        # five pooled give 240 ms. Capped at the 300 ms window the gap was 1.25 frames: met.
        self.assertEqual((row["flicks"], row["frame_pooled_flicks"], row["frame_ms"]), (5, 5, 240.0))
        self.assertEqual((row["gap_ms"], row["gap_frames"]), (math.inf, math.inf))
        self.assertEqual(harness.goal_figure(row, "gap_frames"), (math.inf, 5, None))
        self.assertIn("goal NOT met: ?/qt6/default 150 mm/s vertical: largest gap in the first 300 ms", out)
        self.assertIn("the content did not move at all after the finger's last change", out)

    def test_a_gtk_apps_changes_with_no_input_time_after_flickds_first_event_are_its_glides(self):
        row, checks, out = self.run_scenario(5, "gtk4", unmarked_tick=True)
        self.assertEqual((row["own_after_flickd"], row["own_after_flickd_max"], row["own_unmarked_max"]), (1, 1, 1))
        self.assertIn("no change from the app's own glide after flickd's first event", "\n".join(checks.failures))
        row, checks, out = self.run_scenario(5, "qt6", unmarked_tick=True)
        self.assertEqual((row["own_after_flickd"], row["own_unmarked_max"]), (0, 0), "Qt widgets have no glide")
        row, checks, out = self.run_scenario(5, "gtk3", unmarked_tick=True, mode="wheel")
        self.assertEqual(row["own_after_flickd"], 0, "GTK3 animates a wheel step of flickd's: no input time either")

    def test_a_glide_that_never_ends_is_a_failure_not_a_measurement(self):
        import io
        checks = harness.Checks()
        app_log = self.Log()
        daemon = type("Writing", (self.Daemon,), {"wait_quiet": lambda self: False})()
        sleep, harness.time.sleep = harness.time.sleep, lambda s: None
        stdout, sys.stdout = sys.stdout, io.StringIO()
        try:
            row = harness.run_scenario(argparse_namespace(flicks=5, verbose=False, check=True), harness.Server(),
                                       self.App(app_log), self.Pad(app_log), daemon, "default", 150.0, "vertical", checks)
        finally:
            sys.stdout = stdout
            harness.time.sleep = sleep
        self.assertEqual(row["flicks"], 0, "the flick was not measured")
        self.assertIn("?/qt6/default 150 mm/s vertical: " + harness.GLIDE_ENDED, checks.failures)

    def test_a_goal_needs_five_flicks_when_the_run_asks_for_fewer(self):
        row, checks, out = self.run_scenario(3)
        self.assertEqual((row["flicks"], row["goal_flicks_needed"]), (3, harness.GOAL_MIN_FLICKS))
        self.assertEqual((checks.goals_met, checks.goals_not_met, checks.goals_unmeasurable), (0, 0, 3))

    class Traced(harness.Server):
        """Xorg under --x-trace: the real pad's (slave 7) scroll stop 5 ms after each kernel
        release but those in `missing` (flicks counted from 0); none when the tracer `failed`."""
        name, input_clock_slack_s, NO_INPUT_CLOCK = "xorg", 0.15, harness.Xorg.NO_INPUT_CLOCK
        x_trace_path = "/nonexistent/xi2-trace-xorg.log"

        def __init__(self, releases, missing=(), failed=None):
            self.releases, self.missing, self.x_trace_failed = releases, missing, failed

        def trace(self, path):
            if self.x_trace_failed:
                return [], set()  # the tracer wrote nothing
            return ([(7, round(1000 * r) + 5, "v", 0.0) for i, r in enumerate(self.releases) if i not in self.missing],
                    {8})

    class Tracer:
        """The tracer's process: it exits (status 1) once `flicks` flicks have been played."""
        def __init__(self, releases, flicks):
            self.releases, self.flicks, self.returncode = releases, flicks, None

        def poll(self):
            if len(self.releases) > self.flicks:
                self.returncode = 1
            return self.returncode

    def run_traced(self, missing=(), failed=None, seen=True, tracer_dies_after=None):
        """run_scenario of 5 flicks under Xorg --x-trace; (row, checks, printed). Unless `seen`,
        the app shows no change for any flick (a server that lost the real pad)."""
        releases = []

        class Pad(ScenarioRun.Pad):
            def flick(self, direction, **kw):
                if seen:
                    r = ScenarioRun.Pad.flick(self, direction, **kw)
                else:
                    t0 = self.log.now
                    self.log.now += 1.0
                    r = {"k_touch": t0, "k_release": t0 + 0.245, "max_late_ms": 0}
                releases.append(r["k_release"])
                return r
        server = self.Traced(releases, missing, failed)
        if tracer_dies_after is not None:
            server.x_trace_proc = self.Tracer(releases, tracer_dies_after)
        pad, sources = self.Pad, harness.read_x_trace_sources
        self.Pad, harness.read_x_trace_sources = Pad, server.trace
        try:
            return self.run_scenario(5, server=server)
        finally:
            self.Pad, harness.read_x_trace_sources = pad, sources

    def test_an_xorg_flick_whose_trace_has_no_scroll_stop_is_played_again(self):
        # The server read the first lift over 300 ms late: the finger's last motion, read in the
        # same batch, would count as glide. Not a measurement: a sixth flick is played.
        row, checks, out = self.run_traced(missing={0})
        self.assertEqual((row["flicks"], row["discarded"], row["discarded_late"], row.get("discarded_no_stop")),
                         (5, 1, 0, 1))
        self.assertNotIn("no_input_clock", row, "every flick measured had the server's release")
        self.assertEqual(row["x_releases_ms"], [5.0] * 5)

    def test_a_flick_with_neither_scroll_stop_nor_finger_phase_is_unseen_not_a_missing_stop(self):
        # flickd broke the X server's view of the real pad: no scroll stop in the trace and no
        # finger-driven change in the app. Unseen flicks: given up after GIVE_UP_AFTER, and "the
        # app saw the flicks" fails rather than being not measurable.
        row, checks, out = self.run_traced(missing=set(range(15)), seen=False)
        self.assertEqual((row["flicks"], row["discarded"], row.get("discarded_no_stop")), (0, harness.GIVE_UP_AFTER, None))
        self.assertIs(harness.seen_verdict(checks, row)[0], False)

    def test_a_driver_that_posts_no_scroll_stop_is_measured_without_the_clock_not_played_again(self):
        # The synaptics X driver never posts one: replaying its flicks would discard them all.
        traced = self.Traced
        self.Traced = type("SynapticsTraced", (traced,), {"name": "xorg-synaptics", "POSTS_SCROLL_STOP": False})
        try:
            row, checks, out = self.run_traced(missing=set(range(15)))
        finally:
            self.Traced = traced
        self.assertEqual((row["flicks"], row["discarded"], row.get("discarded_no_stop")), (5, 0, None))
        self.assertEqual(row["no_input_clock"]["flicks"], 5)

    def test_a_tracer_that_stops_mid_run_leaves_the_later_flicks_without_the_clock_not_played_again(self):
        # The tracer died after the second flick: the later flicks' trace has no scroll stop,
        # as if the server had read each lift late; replaying them would discard them all.
        row, checks, out = self.run_traced(missing=set(range(2, 15)), tracer_dies_after=2)
        self.assertEqual((row["flicks"], row["discarded"], row.get("discarded_no_stop")), (5, 0, None))
        self.assertEqual(row["no_input_clock"], {"flicks": 3, "reasons": [
            "--x-trace: the X tracer stopped during the run (exit status 1)"]})

    def test_a_trace_that_never_started_is_said_so(self):
        row, checks, out = self.run_traced(failed="ModuleNotFoundError: No module named 'Xlib'")
        self.assertEqual(row["flicks"], 5, "no flick played again: the tracer will not start on a replay")
        self.assertEqual(row["no_input_clock"], {"flicks": 5, "reasons": [
            "--x-trace: the X tracer did not start (ModuleNotFoundError: No module named 'Xlib')"]})
        self.assertNotIn("scroll stop", out)


class XInputClock(unittest.TestCase):
    # xorg/qt6 in a CI run: the kernel stamped the lift at 26253.3 ms, the X server read it at
    # 26261 (its scroll stop: zero valuators from the real pad, 7) and flickd's first frame at
    # 26307; Qt applied the finger's last 584 px as one change stamped 26261 (app time 26.3039 s).
    TRACE = [(7, 26241, "v", 130.3), (7, 26251, "v", 132.3), (7, 26261, "v", 132.3), (7, 26261, "h", 0.0),
             (7, 26261, "v", 0.0), (8, 26307, "v", 0.841), (8, 26315, "v", 71.5)]
    FLICK = {"k_touch": 26.000, "k_release": 26.2533}

    def flick_log(self):
        finger = [(26.031 + 0.01 * i, "v", 1000.0 + 60 * i, 26011 + 10 * i) for i in range(25)]
        last = [(26.3039, "v", 1000.0 + 60 * 24 + 584, 26261)]
        glide = [(26.33 + 0.008 * i, "v", 3024.0 + 40 * (i + 1), 26307 + 8 * i) for i in range(40)]
        return log(*(finger + last + glide))

    def test_the_release_and_flickds_first_event_on_the_servers_clock(self):
        self.assertEqual(harness.x_input_clock(self.TRACE, {8}, 26.2533, "v", 26.269),
                         {"release": 26.261, "first_flickd": 26.307})
        self.assertEqual(harness.x_input_clock(self.TRACE, {8}, 26.2533, "v", None), {"release": 26.261},
                         "no first event without flickd's")
        self.assertEqual(harness.x_input_clock(self.TRACE, {8}, 26.2533, "h", 26.269)["release"], 26.261)
        self.assertEqual(harness.x_input_clock(self.TRACE, {8}, 26.262, "v", 26.269), {}, "no stop read before the release")
        self.assertEqual(harness.x_input_clock(self.TRACE[:3], {8}, 26.2533, "v", 26.269), {}, "no stop in the trace")

    def test_the_fingers_last_change_read_after_the_kernels_release_is_the_fingers(self):
        clock = harness.x_input_clock(self.TRACE, {8}, 26.2533, "v", 26.269)
        res = harness.measure(self.flick_log(), self.FLICK, "v", 26.269, 25.0, flickd_ran=True, input_clock=clock)
        # The finger: from 26211 (2200 px) to 26261 (3024 px after the 584 px change) over 50 ms.
        self.assertAlmostEqual(res["speed_before_px_s"], (3024.0 - 2200.0) / 0.05, places=6)
        # The glide: from 3024 px at the release (26261) to 26361 ms, 40 px every 8 ms from 26307.
        x_26361 = 3024.0 + 40 * (1 + (26361 - 26307) / 8)
        self.assertAlmostEqual(res["speed_after_px_s"], (x_26361 - 3024.0) / 0.1, places=6)
        # On the kernel's clock the 584 px were the glide's (a ratio of 3.9 in the CI run).
        old = harness.measure(self.flick_log(), self.FLICK, "v", 26.269, 25.0, flickd_ran=True)
        self.assertGreater(old["speed_after_px_s"], res["speed_after_px_s"] + 5000)
        self.assertEqual(res["flickd_first_ms"], old["flickd_first_ms"], "flickd's delay stays on the kernel's clock")

    # An app that stops dead under Xwayland, which has no release on its clock: the finger's
    # last four pad frames merged into one change, stamped 8 ms after the kernel's release.
    def stop_dead_log(self):
        finger = [(26.031 + 0.01 * i, "v", 1000.0 + 60 * i, 26011 + 10 * i) for i in range(25)]
        return log(*(finger + [(26.2941, "v", 1000.0 + 60 * 24 + 240, 26261)]))

    def test_without_the_release_on_the_servers_clock_the_split_figures_are_not_measured(self):
        why = harness.SwayXwayland.NO_INPUT_CLOCK
        res = harness.measure(self.stop_dead_log(), self.FLICK, "v", 26.269, 25.0, flickd_ran=True, no_input_clock=why)
        self.assertEqual(res["no_input_clock"], why)
        self.assertEqual([res[k] for k in ("ratio", "gap_ms", "gap_frames", "step_ratio", "coast_step_px")], [None] * 5)
        self.assertTrue(harness.finger_seen(res), "still a measured flick: its distance is judged")
        # Split at the kernel's release, the 240 px backlog read as a glide: a ratio of 0.4,
        # a gap of 0 and a coast step 4x the finger's, from an app that stopped dead.
        self.assertAlmostEqual(res["unsplit"]["ratio"], 0.4, places=6)
        self.assertAlmostEqual(res["unsplit"]["step_ratio"], 4.0, places=6)
        for server, clock in ((harness.Xorg, None), (harness.SwayXwayland, None), (harness.KWinXwayland, None),
                              (harness.MutterXwayland, None), (harness.Sway, "kernel"), (harness.KWin, "kernel")):
            self.assertEqual(server.NO_INPUT_CLOCK is None, clock == "kernel", server.name)

    # A slow flick under Xwayland: 24 px every 10 ms (2400 px/s) up to the pad frame at 26151 ms;
    # the finger's last ten frames Xwayland stamped in one burst 8 ms after the kernel's release
    # (26253.3), and Qt applied them as one 240 px change. The model's distance for 2400 px/s is
    # v0/k = 1199 px: counted from the kernel's release, the backlog alone was 0.2 of it.
    SLOW_FINGER = [(26.031 + 0.01 * i, "v", 1000.0 + 24 * i, 26011 + 10 * i) for i in range(15)]
    SLOW_BACKLOG = [(26.2941, "v", 1336.0 + 240, 26261)]

    def slow_stop_dead_log(self):
        return log(*(self.SLOW_FINGER + self.SLOW_BACKLOG))

    def slow_glide_log(self):
        """The same finger and backlog, then flickd's glide at the model's rate from the kernel's
        release on (2400 px/s, k of flickd's default), every 8 ms, stamped 10 ms late by Xwayland
        and applied 40 ms after the frame."""
        v0, k, r = 2400.0, harness.MODEL_K_PER_S, self.FLICK["k_release"]
        glide = [(r + 0.008 * i + 0.04, "v", round(1576.0 + v0 / k * (1 - math.exp(-k * 0.008 * i)), 1),
                  round(1000 * (r + 0.008 * i) + 10, 1)) for i in range(1, 400)]
        return log(*(self.SLOW_FINGER + self.SLOW_BACKLOG + glide))

    def measure_xwayland(self, lines):
        return harness.measure(lines, self.FLICK, "v", 26.269, 25.0, flickd_ran=True,
                               no_input_clock=harness.SwayXwayland.NO_INPUT_CLOCK,
                               slack=harness.SwayXwayland.input_clock_slack_s)

    def test_without_the_input_clock_the_fingers_backlog_is_no_distance(self):
        res = self.measure_xwayland(self.slow_stop_dead_log())
        self.assertAlmostEqual(res["speed_before_px_s"], 2400.0, places=6, msg="the finger's, up to the kernel's release")
        # Counted from the kernel's release the 240 px backlog read 0.2002 of the model's
        # distance: "keeps moving" passed for an app that stopped dead.
        self.assertAlmostEqual(res["unsplit"]["distance_fraction"], 240.0 / (2400.0 / harness.MODEL_K_PER_S), places=6)
        self.assertGreaterEqual(res["unsplit"]["distance_fraction"], harness.ASSERT_DISTANCE_FRACTION)
        # From the kernel's release + Xwayland's 150 ms slack: nothing.
        self.assertEqual(res["distance_cut_ms"], 150.0)
        self.assertEqual(res["distance_px"], 0.0)
        self.assertLess(res["distance_fraction"], harness.ASSERT_DISTANCE_FRACTION)

    def test_without_the_input_clock_a_real_glide_still_keeps_moving(self):
        # From the cut on, against what the model has left then (e^(-k * 0.15) = 0.74 of v0/k):
        # a glide at the model's rate reads about 1, as from the release with the clock.
        res = self.measure_xwayland(self.slow_glide_log())
        self.assertGreaterEqual(res["distance_fraction"], harness.ASSERT_DISTANCE_FRACTION)
        self.assertAlmostEqual(res["distance_fraction"], 1.0, delta=0.05)
        # Without that clock's allowance (against the model's whole v0/k) it would read 0.74 + its
        # stamps' 10 ms: still over the floor.
        self.assertAlmostEqual(res["distance_px"] / (2400.0 / harness.MODEL_K_PER_S),
                               math.exp(-harness.MODEL_K_PER_S * 0.14), delta=0.02)

    def test_the_negative_control_under_xwayland_fails_on_the_backlog_no_more(self):
        rows = {}
        for name, lines in (("stop dead", self.slow_stop_dead_log()), ("glide", self.slow_glide_log())):
            per = [self.measure_xwayland(lines) for _ in range(5)]
            rows[name] = GoalJudging.row(per, server="sway-xwayland", toolkit="qt6", mode="none",
                                         no_input_clock={"flicks": 5, "reasons": [per[0]["no_input_clock"]]})
        self.assertEqual(rows["stop dead"]["distance_from"], "the kernel's release + 150 ms (no input clock), against "
                                                            "the model's distance from then on")
        import io
        for name, want in (("stop dead", (1, 0)), ("glide", (0, 1))):
            checks, out = harness.Checks(), io.StringIO()
            stdout, sys.stdout = sys.stdout, out
            try:
                harness.check_scenario(checks, rows[name], "none", CheckScenario.Daemon())
            finally:
                sys.stdout = stdout
            self.assertEqual((checks.passed, checks.failed), want, out.getvalue())
            self.assertIn("negative control: without flickd the content stops dead", out.getvalue())
            self.assertIn("px from the kernel's release + 150 ms (no input clock)", out.getvalue())
        # With flickd, an app that stops dead fails "keeps moving".
        self.assertIn("sway-xwayland/qt6/default 150 mm/s vertical: content keeps moving after the release: "
                      "distance >= 0.20 x the model's v0/k",
                      GoalJudging.judge(dict(rows["stop dead"], mode="default")).failures)
        self.assertEqual(GoalJudging.judge(dict(rows["glide"], mode="default")).failures, [])

    def test_where_the_distance_counts_from_with_some_flicks_cut(self):
        cut, whole = {"distance_cut_ms": 150.0}, {}
        self.assertEqual(harness.distance_from([whole] * 5), "the release")
        self.assertEqual(harness.distance_from([cut, cut, whole, whole, whole]),
                         "the kernel's release + 150 ms (no input clock), against the model's distance from then on "
                         "for 2 of 5 flicks; the others from the release")

    def test_goals_of_flicks_without_the_input_clock_are_not_measurable(self):
        # Xwayland: no flick has the release on its clock.
        class Xwayland(harness.Server):
            NO_INPUT_CLOCK = "Xwayland stamps the app's input events when it handles them"
        run = ScenarioRun()
        row, checks, out = run.run_scenario(5, server=Xwayland())
        self.assertEqual((checks.goals_met, checks.goals_not_met, checks.goals_unmeasurable), (0, 0, 3), out)
        self.assertEqual((row["flicks"], row["no_input_clock"]["flicks"]), (5, 5))
        # The distance from the kernel's release + the server's slack (the stub's 2 ms).
        self.assertTrue(row["distance_from"].startswith("the kernel's release + 2 ms (no input clock)"), row["distance_from"])
        self.assertIn("speed ratio after/before in 0.85..1.15 (no input clock (Xwayland stamps", out)
        # Xorg with a trace with no stop for two of five flicks: those are left out, and the goal
        # judged on three is not measurable, with the note.
        per = [dict(GoalJudging.FLICK) for _ in range(3)] + [
            dict(GoalJudging.FLICK, ratio=None, gap_frames=None, step_ratio=None, no_input_clock="no stop") for _ in range(2)]
        row = GoalJudging.row(per, no_input_clock={"flicks": 2, "reasons": ["no stop"]})
        import io
        checks, out = harness.Checks(), io.StringIO()
        stdout, sys.stdout = sys.stdout, out
        try:
            harness.check_scenario(checks, row, "default", CheckScenario.Daemon())
        finally:
            sys.stdout = stdout
        self.assertEqual(checks.goals_unmeasurable, 3)
        self.assertIn("the median of 3 flicks, fewer than the 5 a goal needs; 2 of 5 flicks left out: no input clock (no stop)",
                      out.getvalue())

    def test_quick_flicks_split_at_the_release_on_the_servers_clock(self):
        # A finger change read 8 ms after the kernel's release, then the glide's from 40 ms on:
        # at the kernel's release + Xorg's 150 ms the glide's first changes counted as the finger's.
        flicks = [{"k_touch": 1.00, "k_release": 1.25}]
        lines = log((1.00, "v", 0.0, 990), (1.10, "v", 100.0, 1100), (1.27, "v", 200.0, 1258),
                    (1.30, "v", 300.0, 1290), (1.34, "v", 400.0, 1330), (1.45, "v", 450.0, 1440))
        (old,), _ = harness.measure_quick_flicks(lines, flicks, 0.15, last_window=0.3)
        (new,), _ = harness.measure_quick_flicks(lines, flicks, 0.15, last_window=0.3, releases=[1.258])
        self.assertEqual((old["finger_px"], old["glide_px"]), (400.0, 50.0))
        self.assertEqual((new["finger_px"], new["glide_px"]), (200.0, 250.0))
        (unknown,), _ = harness.measure_quick_flicks(lines, flicks, 0.15, last_window=0.3, releases=[None])
        self.assertEqual(unknown["finger_px"], 400.0, "no stop in the trace: the slack as before")


class ValueAt(unittest.TestCase):
    def test_piecewise_linear_and_flat_outside(self):
        series = [(0.0, 0.0), (1.0, 10.0), (2.0, 10.0)]
        self.assertEqual(harness.value_at(series, -1.0), 0.0)
        self.assertAlmostEqual(harness.value_at(series, 0.25), 2.5)
        self.assertEqual(harness.value_at(series, 1.5), 10.0)
        self.assertEqual(harness.value_at(series, 5.0), 10.0)



class SplitSettle(unittest.TestCase):
    def test_the_motions_after_the_last_rest_are_the_settle_frames(self):
        coast = [1.000, 1.008, 1.016, 1.024]
        self.assertEqual(harness.split_settle(coast + [1.274, 1.324, 1.374]), (1.024, 1.274))
        self.assertEqual(harness.split_settle(coast + [1.274]), (1.024, 1.274))

    def test_a_stall_mid_glide_is_no_settle(self):
        coast = [1.000, 1.008, 1.016, 1.024]
        later = [1.300, 1.308, 1.316, 1.324]
        self.assertEqual(harness.split_settle(coast + later), (1.324, None), "four motions after the rest")
        self.assertEqual(harness.split_settle(coast + later + [1.574, 1.624, 1.674]), (1.324, 1.574))

    def test_no_rest_or_no_motion(self):
        self.assertEqual(harness.split_settle([1.0, 1.008]), (1.008, None))
        self.assertEqual(harness.split_settle([1.0]), (1.0, None))
        self.assertEqual(harness.split_settle([]), (None, None))


class TouchStop(unittest.TestCase):
    # A flick down, finger events stamped 1000-1090 ms; flickd's coast moves the content until
    # its last motion at 1.200 s, the touch at 1.195 s; its settle frames at 1.450, 1.500 and
    # 1.550 s (the app showed the first and the last), the lift at 1.750 s.
    FLICK = {"k_touch": 0.99, "k_release": 1.10}
    TOUCH = {"k_touch": 1.195}
    LINES = log((1.00, "v", 0.0, 1000), (1.03, "v", 30.0, 1030), (1.06, "v", 60.0, 1060),
                (1.09, "v", 90.0, 1090), (1.15, "v", 140.0, 1140), (1.20, "v", 180.0, 1200),
                (1.46, "v", 180.5, 1450), (1.56, "v", 181.0, 1550))

    def measure(self, settle, lines=LINES, slack=0.002):
        return harness.measure_touch_stop(lines, self.FLICK, self.TOUCH, 1.200, 0.9, slack, settle)

    def test_the_settle_frames_change_is_its_own_not_stray(self):
        m = self.measure(1.450)
        self.assertEqual((m["stray_px"], m["own_px"], m["reverse_px"]), (0.0, 0.0, 0.0))
        self.assertAlmostEqual(m["settle_px"], 1.0)
        self.assertAlmostEqual(m["settle_ms"], 250.0)
        self.assertAlmostEqual(m["stop_ms"], 5.0)

    def test_without_a_settle_frame_a_later_input_change_is_stray(self):
        m = self.measure(None)
        self.assertAlmostEqual(m["stray_px"], 1.0)
        self.assertEqual((m["settle_px"], m["settle_ms"]), (0.0, None))

    def test_a_fling_at_the_lift_after_the_settle_frame_is_stray(self):
        lines = self.LINES + log((1.77, "v", 401.0, 1755))
        m = self.measure(1.450, lines)
        self.assertAlmostEqual(m["settle_px"], 1.0)
        self.assertAlmostEqual(m["stray_px"], 220.0)

    def test_a_change_between_the_stop_and_the_settle_frame_is_stray(self):
        lines = self.LINES[:-2] + log((1.30, "v", 183.0, 1300), (1.46, "v", 183.5, 1450), (1.56, "v", 184.0, 1550))
        m = self.measure(1.450, lines)
        self.assertAlmostEqual(m["stray_px"], 3.0)
        self.assertAlmostEqual(m["settle_px"], 1.0)

    def test_a_late_stamped_coast_frame_is_flickds_within_the_apps_slack_and_a_fling_is_not(self):
        # chromium stamps input when it reads it: the coast's last frame, 18 ms after flickd's
        # last motion, painted at 1.26 s; then its fling at the lift.
        lines = self.LINES[:-2] + log((1.26, "v", 1500.0, 1218), (1.46, "v", 1500.5, 1450),
                                      (1.56, "v", 1501.0, 1550), (1.77, "v", 2900.0, 1755))
        sway = self.measure(1.450, lines)
        self.assertAlmostEqual(sway["stray_px"], 1320.0 + 1399.0)
        chromium = self.measure(1.450, lines, slack=harness.CHROMIUM_INPUT_SLACK_S)
        self.assertAlmostEqual(chromium["stray_px"], 1399.0, msg="the fling at the lift stays stray")
        self.assertAlmostEqual(chromium["coast_px"], 1410.0)

class QuickFlicks(unittest.TestCase):
    # Two flicks: touch at 1.00 s, release at 1.25; the next touch at 1.55, release at 1.80.
    FLICKS = [{"k_touch": 1.00, "k_release": 1.25}, {"k_touch": 1.55, "k_release": 1.80}]

    def measure(self, lines, slack=0.002):
        return harness.measure_quick_flicks(lines, self.FLICKS, slack, last_window=0.3)[0]

    def test_finger_and_glide_of_each_flick_by_input_time(self):
        lines = log((1.00, "v", 0.0, 990), (1.10, "v", 100.0, 1100), (1.25, "v", 200.0, 1250),
                    (1.30, "v", 260.0, 1300), (1.50, "v", 320.0, 1500),
                    (1.60, "v", 400.0, 1600), (1.80, "v", 500.0, 1800), (1.95, "v", 540.0, 1950))
        first, second = self.measure(lines)
        self.assertEqual((first["finger_px"], first["glide_px"]), (200.0, 120.0))
        self.assertEqual((second["finger_px"], second["glide_px"]), (180.0, 40.0))
        self.assertAlmostEqual(first["ratio"], 0.6)

    def test_a_center_jump_counts_nowhere_whatever_its_input_time(self):
        # The app answers "center" mid-glide; its jump carries the wheel event's stale time (Qt
        # clears it only on its next loop turn). The step after the jump counts from the middle.
        lines = log((1.00, "v", 0.0, 990), (1.25, "v", 200.0, 1250), (1.30, "v", 260.0, 1300),
                    (1.31, "center", 30000.0, 0.0), (1.311, "v", 30000.0, 1300),
                    (1.40, "v", 30050.0, 1400))
        first = self.measure(lines)[0]
        self.assertEqual(first["glide_px"], 110.0)

    def test_a_toolkits_own_change_and_a_step_back_count_as_they_are(self):
        # A change with no input event (a toolkit's glide) is no step of the flick's but counts
        # as the toolkit's own; a step back counts against the flick.
        lines = log((1.00, "v", 0.0, 990), (1.25, "v", 200.0, 1250), (1.30, "v", 900.0, -1),
                    (1.35, "v", 880.0, 1350))
        first = self.measure(lines)[0]
        self.assertEqual(first["glide_px"], -20.0)
        self.assertEqual(harness.measure_quick_flicks(lines, self.FLICKS, 0.002)[1], 700.0)

    def test_a_center_jump_is_no_toolkit_glide(self):
        lines = log((1.00, "v", 0.0, 990), (1.25, "v", 200.0, 1250), (1.31, "center", 30000.0, 0.0),
                    (1.311, "v", 30000.0, -1), (1.40, "v", 30050.0, 1400))
        self.assertEqual(harness.measure_quick_flicks(lines, self.FLICKS, 0.002)[1], 0.0)

    def test_natural_scrolling_moves_the_content_up_and_counts_that_way(self):
        lines = log((1.00, "v", 0.0, 990), (1.25, "v", -200.0, 1250), (1.30, "v", -260.0, 1300),
                    (1.40, "v", -250.0, 1400))
        first = self.measure(lines)[0]
        self.assertEqual((first["finger_px"], first["glide_px"]), (200.0, 50.0))

    def test_a_flick_that_reaches_an_end_of_the_content_is_marked(self):
        # GTK3 under Xorg: 29400 px is the largest offset; the second flick's glide runs into it.
        lines = log((0.5, "ready", 30000, 29400), (1.00, "v", 29000.0, 990), (1.25, "v", 29200.0, 1250),
                    (1.30, "v", 29260.0, 1300), (1.60, "v", 29350.0, 1600), (1.85, "v", 29400.0, 1850))
        first, second = self.measure(lines)
        self.assertEqual((first["edge"], second["edge"]), (False, True))

    def test_a_flick_without_finger_motion_has_no_ratio(self):
        lines = log((1.30, "v", 10.0, 1300), (1.40, "v", 20.0, 1400))
        self.assertIsNone(self.measure(lines)[0]["ratio"])

    def test_the_last_flicks_glide_counts_up_to_a_second_after_its_release(self):
        # sway + Qt6 lagging in a CI run: the first 480 ms of the last glide came as one change
        # of a page (584 px), stamped 500 ms after the release; then the glide's later events.
        lines = log((1.55, "v", 0.0, 1550), (1.80, "v", 2281.0, 1800), (2.30, "v", 2865.0, 2300),
                    (2.55, "v", 2915.0, 2550), (2.85, "v", 2940.0, 2850))
        last = harness.measure_quick_flicks(lines, self.FLICKS, 0.002)[0][1]
        self.assertEqual(last["glide_px"], 634.0, "584 + 50; the change 1.05 s after the release is not the glide's")
        self.assertEqual(self.measure(lines)[1]["glide_px"], 0.0, "within 0.3 s: none")

    def test_the_intervals_between_input_driven_changes_of_each_flick(self):
        # A "center" jump and a toolkit's own change are no input-driven changes; the interval
        # from the first flick's last change to the second's first counts nowhere.
        lines = log((0.50, "v", -10.0, 500), (1.00, "v", 0.0, 1000), (1.10, "v", 100.0, 1100), (1.12, "v", 120.0, -1),
                    (1.30, "v", 260.0, 1300), (1.56, "center", 5000.0, 0.0), (1.561, "v", 5000.0, 1300),
                    (1.60, "v", 5040.0, 1600), (1.65, "v", 5090.0, 1650))
        first, second = self.measure(lines)
        self.assertEqual([round(i, 3) for i in first["intervals"]], [0.1, 0.2])
        self.assertEqual([round(i, 3) for i in second["intervals"]], [0.05])
        self.assertAlmostEqual(harness.quick_input_interval([first, second]), 0.1)

    def test_an_app_that_applies_its_input_too_seldom_is_not_judged(self):
        # GTK4 under Xorg in the guest: one merged change every ~210 ms, a glide's start and the
        # next flick's finger motion in one; GTK4 on sway every ~90 ms, GTK3 every ~10 ms.
        self.assertIsNotNone(harness.quick_input_too_coarse(0.212))
        self.assertIsNotNone(harness.quick_input_too_coarse(None))
        self.assertIsNone(harness.quick_input_too_coarse(0.088))
        self.assertIsNone(harness.quick_input_too_coarse(0.010))


class MeasureScroll(unittest.TestCase):
    # A hand scroll: fingers land at 2.00 s, rest 0.5 s, move from 2.50 s, lift at 3.00 s.
    SCROLL = {"k_touch": 2.00, "k_release": 3.00}

    def measure(self, lines, slack=0.002):
        return harness.measure_scroll(lines, self.SCROLL, 0.5, 1.0, slack)

    def test_the_motion_from_the_last_change_before_it_forward_and_back(self):
        # A change before the motion (a settle frame's at 2.30 s) is where its first step starts.
        lines = log((1.90, "v", 100.0, 1900), (2.31, "v", 101.0, 2300), (2.60, "v", 131.0, 2600),
                    (2.70, "v", 121.0, 2700), (2.99, "v", 181.0, 2990))
        m = self.measure(lines)
        self.assertEqual((m["forward_px"], m["backward_px"], m["changes"]), (90.0, 10.0, 3))

    def test_natural_scrolling_counts_up_as_forward(self):
        lines = log((2.60, "v", -30.0, 2600), (2.80, "v", -90.0, 2800))
        m = self.measure(lines)
        self.assertEqual((m["forward_px"], m["backward_px"]), (60.0, 0.0))

    def test_a_toolkits_own_change_and_a_change_stamped_after_the_lift_are_not_the_scrolls(self):
        lines = log((2.60, "v", 30.0, 2600), (2.70, "v", 230.0, -1), (2.80, "v", 240.0, 2800),
                    (2.90, "v", 250.0, 2900), (3.02, "v", 255.0, 3001), (3.10, "v", 500.0, 3050))
        m = self.measure(lines)
        # The first change has none before it: its step is unknown. Then +10 from where the
        # toolkit's 200 px left the content, +10, +5; the change stamped 50 ms after the lift is not counted.
        self.assertEqual((m["forward_px"], m["backward_px"], m["changes"]), (25.0, 0.0, 4))
        self.assertEqual(self.measure(lines, slack=0.0)["changes"], 3)

    def test_fewer_than_two_changes_are_no_figure(self):
        self.assertIsNone(self.measure(log((2.60, "v", 30.0, 2600))))

    def test_a_scroll_the_wrong_way_counts_back_against_the_flicks_way(self):
        # The flick (1.20-1.40 s) moved the content down; the hand scroll moved it up.
        lines = log((1.25, "v", 100.0, 1250), (1.35, "v", 160.0, 1350),
                    (2.60, "v", 100.0, 2600), (2.70, "v", 40.0, 2700), (2.80, "v", -20.0, 2800))
        sign = harness.input_sign(lines, 1.20, 1.40, 1.0)
        self.assertEqual(sign, 1.0)
        m = harness.measure_scroll(lines, self.SCROLL, 0.5, 1.0, 0.002, sign)
        self.assertEqual((m["forward_px"], m["backward_px"]), (0.0, 180.0))
        self.assertEqual(self.measure(lines)["forward_px"], 180.0, "without a sign: the content's own way")
        self.assertIsNone(harness.input_sign(lines, 1.50, 2.00, 1.0), "nothing moved then")


class JudgeQuickFlicks(unittest.TestCase):
    @staticmethod
    def series(fingers, glides, late=(), edge=()):
        return [{"finger_px": f, "glide_px": g, "late": i in late, "edge": i in edge}
                for i, (f, g) in enumerate(zip(fingers, glides))]

    def judge(self, fingers, glides):
        """(flicks judged, whether each of them glided)."""
        judged, _ = harness.judge_quick_flicks(self.series(fingers, glides))
        return len(judged), harness.quick_flicks_glide(judged)

    def test_a_glide_that_moved_nothing_after_a_seen_finger_phase_fails(self):
        # sway + Qt6 before the landing again: the ninth flick's glide moved nothing.
        self.assertEqual(self.judge([2197, 2062, 2215, 2256, 2264, 2269, 2288, 2276, 2269, 2265],
                                    [2389, 3092, 3449, 3928, 4280, 4395, 4518, 4249, 0, 2179]), (10, False))

    def test_flicks_the_app_did_not_see_are_not_judged(self):
        # Xorg + Qt6 lagging: the last three finger phases moved a quarter of the others or less.
        self.assertEqual(self.judge([2057, 2170, 2083, 1983, 2185, 1684, 2343, 584, 65, 586],
                                    [668, 1035, 1368, 1706, 1220, 1189, 1168, 0, 462, 0]), (7, True))

    def test_late_and_edge_flicks_are_not_judged(self):
        per = self.series([2000] * 4, [1000, 0, 0, 900], late={1}, edge={2})
        judged, _ = harness.judge_quick_flicks(per)
        self.assertEqual([m["glide_px"] for m in judged], [1000, 900])


class PaintPeriod(unittest.TestCase):
    # GTK under Xorg in the guest: paints every 66 ms (two in one flick's 250 ms finger phase,
    # three in the next's), and Qt's double paint (viewport and content) 1 ms apart.
    LINES = log((1.000, "paint"), (1.066, "paint"), (1.300, "v", 5.0, 1290),
                (2.000, "paint"), (2.001, "paint"), (2.066, "paint"), (2.132, "paint"))

    def test_one_flick_needs_three_paints_close_ones_counting_once(self):
        self.assertIsNone(harness.paint_period_ms(self.LINES, 0.95, 1.25), "two paints: one interval")
        self.assertAlmostEqual(harness.paint_period_ms(self.LINES, 1.95, 2.25), 66.0)

    def test_pooled_over_the_scenarios_finger_phases(self):
        self.assertAlmostEqual(harness.pooled_paint_period_ms(self.LINES, [(0.95, 1.25), (1.95, 2.25)]), 66.0)
        self.assertAlmostEqual(harness.pooled_paint_period_ms(self.LINES, [(0.95, 1.25), (1.95, 2.07)]), 66.0,
                               msg="one interval from each flick is enough")

    def test_pooled_needs_two_intervals_and_counts_only_the_finger_phases(self):
        self.assertIsNone(harness.pooled_paint_period_ms(self.LINES, [(0.95, 1.25)]))
        self.assertIsNone(harness.pooled_paint_period_ms(self.LINES, [(0.95, 1.01), (1.95, 2.01)]),
                          "paints outside the finger phases do not count")


class XSwitch(unittest.TestCase):
    # From a Qt6 flick under Xorg in the guest: the real pad (7) scrolls, its scroll stops (0),
    # and flickd's pad (8) sends the baseline (0.841 units) and its glide; Qt applied the events
    # stamped 22672 and later, GTK3 the one after the baseline.
    TRACE = """device 4 Virtual core XTEST pointer
device 7 SynPS/2 Synaptics TouchPad
device 8 flickd virtual touchpad
scroll 7 22600 v 136.316
scroll 7 22606 v 0.000
scroll 7 22606 h 0.000
scroll 8 22638 v 0.841
scroll 8 22638 v 55.527
scroll 8 22638 v 158.169
scroll 8 22644 v 124.516
scroll 8 22653 v 125.357
scroll 8 22663 v 119.468
scroll 8 22672 v 118.627
scroll 8 22681 v 117.000
"""

    def trace(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(self.TRACE + "device 9 half a line\nscroll 8 226")  # cut off mid-write
        self.addCleanup(os.unlink, f.name)
        return harness.read_x_trace(f.name)

    def test_reads_devices_and_scroll_events_and_skips_a_cut_line(self):
        names, events = self.trace()
        self.assertEqual(names[8], "flickd virtual touchpad")
        self.assertEqual(names[9], "half a line")
        self.assertEqual(len(events), 11)
        self.assertEqual(events[3], (8, 22638, "v", 0.841))
        self.assertEqual(harness.read_x_trace("/nonexistent/trace"), ({}, []))

    def test_a_trace_read_after_each_flick_is_read_on_and_a_line_being_written_waits(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(self.TRACE + "scroll 8 22690 v 11")  # the tracer mid-write of 116.250
        self.addCleanup(os.unlink, f.name)
        names, events = harness.read_x_trace(f.name)
        self.assertEqual((len(events), events[-1]), (11, (8, 22681, "v", 117.0)), "not a value of 11")
        with open(f.name, "a") as g:
            g.write("6.250\ndevice 10 another\nscroll 10 22700 h 1.5\n")
        names, events = harness.read_x_trace(f.name)
        self.assertEqual(events[11:], [(8, 22690, "v", 116.25), (10, 22700, "h", 1.5)])
        self.assertEqual((len(events), names[10], names[8]), (13, "another", "flickd virtual touchpad"))
        # Another server's trace at the path (a new file): read from its start.
        os.unlink(f.name)
        with open(f.name, "w") as g:
            g.write("device 3 pad\nscroll 3 5 v 0.000\n")
        self.assertEqual(harness.read_x_trace(f.name), ({3: "pad"}, [(3, 5, "v", 0.0)]))

    def test_events_the_server_handled_before_the_first_applied_are_lost(self):
        _, events = self.trace()
        qt = harness.x_switch(events, {8}, 22601, 22906, {22600, 22606, 22672, 22681}, "v")
        self.assertEqual(qt, {"x_switch_lost": 5, "x_switch_ms": 34, "x_backlog_ms": 0},
                         "the two events stamped with the baseline's time count too")

    def test_an_app_that_applies_the_event_after_the_baseline_loses_none(self):
        _, events = self.trace()
        gtk = harness.x_switch(events, {8}, 22601, 22906, {22606, 22638, 22644}, "v")
        self.assertEqual(gtk, {"x_switch_lost": 0, "x_switch_ms": 0, "x_backlog_ms": 0})

    def test_the_finger_motion_an_app_applies_only_after_the_switch_is_its_backlog(self):
        # GTK4 under Xorg merges a frame's events: its last change before the switch carried
        # the finger's event of 22540; those of 22580 and 22600 came with the glide's first change.
        _, events = self.trace()
        events = [(7, 22540, "v", 126.0), (7, 22580, "v", 126.0)] + events
        gtk4 = harness.x_switch(events, {8}, 22601, 22906, {22540, 22653}, "v")
        self.assertEqual(gtk4["x_backlog_ms"], 60, "22600, the finger's last motion, less 22540")
        self.assertEqual(gtk4["x_switch_lost"], 3, "merged, not lost: the caveat in x_switch")
        no_change_before = harness.x_switch(events, {8}, 22601, 22906, {22653}, "v")
        self.assertNotIn("x_backlog_ms", no_change_before)

    def test_nothing_applied_or_other_axis_or_device_gives_nothing(self):
        _, events = self.trace()
        self.assertEqual(harness.x_switch(events, {8}, 22601, 22906, {22606}, "v"), {})
        self.assertEqual(harness.x_switch(events, {8}, 22601, 22906, {22672}, "h"), {})
        self.assertEqual(harness.x_switch(events, {7}, 22601, 22906, {22606}, "v"), {},
                         "the real pad's scroll stop (0) is no event of a glide")


class XFingerLost(unittest.TestCase):
    # A finger's scroll under Xorg after a glide from flickd's pad (8): the real pad's (7)
    # first event switches the master pointer back to it.
    EVENTS = [(8, 19700, "v", 3.0), (7, 19934, "v", 126.3), (7, 19944, "v", 126.3),
              (7, 19959, "v", 170.4), (7, 19964, "h", 2.0), (7, 19974, "v", 0.0), (7, 19980, "v", 116.3)]

    def test_the_finger_events_before_the_first_applied_are_lost(self):
        self.assertEqual(harness.x_finger_lost(self.EVENTS, {8}, 19929, 19990, {19944, 19959, 19980}, "v"),
                         {"x_finger_lost": 1})
        self.assertEqual(harness.x_finger_lost(self.EVENTS, {8}, 19929, 19990, {19959}, "v"),
                         {"x_finger_lost": 2})

    def test_an_app_that_applies_the_first_loses_none(self):
        self.assertEqual(harness.x_finger_lost(self.EVENTS, {8}, 19929, 19990, {19934, 19944}, "v"),
                         {"x_finger_lost": 0})

    def test_flickd_events_zero_values_other_axes_and_the_window_are_left_out(self):
        self.assertEqual(harness.x_finger_lost(self.EVENTS, {8}, 19600, 19990, {19700, 19944}, "v"),
                         {"x_finger_lost": 1}, "flickd's own event (8) is no finger event")
        self.assertEqual(harness.x_finger_lost(self.EVENTS, {8}, 19929, 19990, {19964}, "h"),
                         {"x_finger_lost": 0})
        self.assertEqual(harness.x_finger_lost(self.EVENTS, {8}, 19929, 19970, {19980}, "v"), {},
                         "the change after the window carries no finger event of it")
        self.assertEqual(harness.x_finger_lost(self.EVENTS, {8}, 19929, 19990, {19974}, "v"), {},
                         "a scroll stop (0) is no finger motion")


class TimerOpening(unittest.TestCase):
    """flickd's log line on how punctually its timer drove a coast (CoastPunctuality), read
    per flick from a mark in the log."""

    LOG = ("debug: device 3: coast at t=1000.0ms: (0, 150) mm/s for 1.2s, 75 mm on the virtual touchpad\n"
           "debug: coast ended at t=2200.0ms: finished\n"
           "debug: the coast's timer woke 391 times: the first 3.44, 1.31 and 4.77 ms after their deadlines, "
           "at most 9.02 ms after; each frame written at most 5.51 ms after the wake-up\n"
           "debug: coast ended at t=5000.0ms: touch\n"
           "debug: the coast's timer woke once: 0.29 ms after its deadline; each frame written at most 0.10 ms "
           "after the wake-up\n")

    def daemon(self, text):
        import tempfile
        f = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        d = harness.Flickd.__new__(harness.Flickd)
        d.log_path = f.name
        return d

    def test_the_largest_of_the_first_three_delays_not_the_coasts_largest(self):
        self.assertEqual(self.daemon(self.LOG).timer_opening_after(0), 4.77)

    def test_from_the_mark_on_and_a_single_wake_up(self):
        mark = self.LOG.index("debug: coast ended at t=5000")
        self.assertEqual(self.daemon(self.LOG).timer_opening_after(mark), 0.29)

    def test_none_without_the_line(self):
        self.assertIsNone(self.daemon(self.LOG).timer_opening_after(len(self.LOG)))
        self.assertIsNone(self.daemon("debug: coast ended at t=1.0ms: touch\n").timer_opening_after(0))


class XwaylandDisplay(unittest.TestCase):
    """wait_for_xwayland: the display is the socket the compositor made after note_x_sockets."""

    class Compositor(harness.XwaylandApps):
        name = "test"
        log_path = os.devnull
        XWAYLAND_WAIT_S = 1

        class Running:
            def poll(self):
                return None

        def __init__(self, directory):
            self.X11_UNIX = directory
            self.procs = [self.Running()]

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.server = self.Compositor(self.dir)

    def make(self, name, old=False):
        path = os.path.join(self.dir, name)
        with open(path, "w"):
            pass
        if old:
            os.utime(path, ns=(0, 0))   # made long before, as by a server run earlier

    def test_a_new_socket_beside_an_old_one(self):
        self.make("X1", old=True)
        self.server.note_x_sockets()
        self.make("X2")
        self.server.wait_for_xwayland()
        self.assertEqual(self.server.display, ":2")

    def test_a_socket_left_behind_and_made_anew(self):
        self.make("X0", old=True)
        self.make("X1", old=True)
        self.server.note_x_sockets()
        os.unlink(os.path.join(self.dir, "X0"))
        self.make("X0")
        self.server.wait_for_xwayland()
        self.assertEqual(self.server.display, ":0")

    def test_a_compositor_that_ended_started_none(self):
        self.make("X0", old=True)
        self.server.note_x_sockets()
        self.server.procs = [type("Ended", (), {"poll": lambda self: 1})()]
        with self.assertRaisesRegex(RuntimeError, "started no Xwayland"):
            self.server.wait_for_xwayland()

    def test_the_apps_get_the_newest_xauthority_file_of_the_compositors_pattern(self):
        self.server.runtime, self.server.display = self.dir, ":1"
        self.assertNotIn("XAUTHORITY", self.server.app_env())
        self.server.XAUTHORITY = "xauth_*"
        self.assertNotIn("XAUTHORITY", self.server.app_env())
        self.make("xauth_old", old=True)
        self.make("xauth_new")
        self.make("other")
        env = self.server.app_env()
        self.assertEqual(env["XAUTHORITY"], os.path.join(self.dir, "xauth_new"))
        self.assertEqual((env["DISPLAY"], env["GDK_BACKEND"], env["QT_QPA_PLATFORM"]), (":1", "x11", "xcb"))

    def test_no_new_socket_in_time(self):
        self.make("X0", old=True)
        self.server.note_x_sockets()
        with self.assertRaisesRegex(RuntimeError, "started no Xwayland"):
            self.server.wait_for_xwayland()


class FlickPlan(unittest.TestCase):
    """flick_plan: the flick fits the pad, below a top-button strip."""

    class Pad:
        def __init__(self, width, height, props=()):
            self.width_mm, self.height_mm, self.desc = width, height, {"props": list(props)}

    def test_a_large_pad_gets_the_full_flick(self):
        duration, y = harness.flick_plan(self.Pad(110.7, 78.7), "down", 150.0)
        self.assertAlmostEqual(duration, 0.25)
        self.assertAlmostEqual(y, 78.7 / 2)
        duration, _ = harness.flick_plan(self.Pad(110.7, 78.7), "down", 400.0)
        self.assertAlmostEqual(duration * 400.0, harness.MAX_TRAVEL_MM)

    def test_below_the_top_buttons(self):
        pad = self.Pad(97.3, 66.9, ["INPUT_PROP_POINTER", "INPUT_PROP_BUTTONPAD", "INPUT_PROP_TOPBUTTONPAD"])
        duration, y = harness.flick_plan(pad, "down", 150.0)
        self.assertAlmostEqual(duration, 0.25)
        self.assertGreaterEqual(y - 37.5 / 2, harness.TOP_BUTTONS_MM)
        self.assertLessEqual(y + 37.5 / 2, 66.9 - harness.EDGE_MARGIN_MM)

    def test_a_short_pad_gets_a_shorter_flick_along_it_only(self):
        pad = self.Pad(53.3, 23.6)
        duration, y = harness.flick_plan(pad, "down", 150.0)
        self.assertAlmostEqual(duration * 150.0, 23.6 - 2 * harness.EDGE_MARGIN_MM)
        self.assertAlmostEqual(y, 11.8)
        duration, _ = harness.flick_plan(pad, "right", 150.0)
        self.assertAlmostEqual(duration, 0.25)


class Recenter(unittest.TestCase):
    """App.recenter on a virtual clock: the flick waits for the app's answer, not for a time."""

    class LateApp:
        """An app whose main loop reads "center" `late_s` after the harness wrote it and then
        logs the line and the jump to the middle, as app.py does, at its own time."""

        def __init__(self, path, clock, late_s):
            self.path, self.clock, self.late_s, self.asked = path, clock, late_s, None

        def write(self, line):
            if line == "center\n":
                self.asked = self.clock.now

        def flush(self):
            pass

        def answer_if_due(self):
            if self.asked is not None and self.clock.now - self.asked >= self.late_s:
                with open(self.path, "a") as f:
                    f.write("%.6f center 14700.000 14600.000\n%.6f v 14700.000 -1\n" % (self.clock.now, self.clock.now))
                self.asked = None

    class Clock:
        def __init__(self, app=None):
            self.now, self.app = 100.0, app

        def __call__(self):
            return self.now

        def sleep(self, s):
            self.now += s
            if self.app:
                self.app.answer_if_due()

    def app(self, late_s):
        work = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, work)
        path = os.path.join(work, "app.log")
        with open(path, "w") as f:
            # The previous flick: its centering, then its glide ending at 23000 px.
            f.write("90.000000 center 14700.000 14600.000\n90.000000 v 14700.000 -1\n95.000000 v 23000.000 -1\n")
        clock = self.Clock()
        late = self.LateApp(path, clock, late_s)
        clock.app = late
        app = harness.App.__new__(harness.App)
        app.toolkit, app.path = "gtk3", path
        app.proc = type("Proc", (), {"stdin": late})()
        return app, clock

    def test_an_app_that_answers_late_is_waited_for(self):
        app, clock = self.app(late_s=0.8)
        center_t = app.recenter(clock=clock, sleep=clock.sleep)
        self.assertGreaterEqual(center_t, 100.8 - 1e-9, "the new center line, not the previous flick's")
        self.assertAlmostEqual(app.center_late_s, center_t - 100.0)
        self.assertLess(app.center_late_s, 0.85 + 1e-9)
        self.assertGreaterEqual(clock.now - center_t, 0.5 - 1e-9, "still for 0.5 s after the jump to the middle")

    def test_an_app_that_answers_at_once(self):
        app, clock = self.app(late_s=0.0)
        center_t = app.recenter(clock=clock, sleep=clock.sleep)
        self.assertLess(center_t - 100.0, 0.1)
        self.assertGreaterEqual(clock.now - center_t, 0.5 - 1e-9)

    def test_an_app_that_never_answers_is_an_error(self):
        app, clock = self.app(late_s=float("inf"))
        with self.assertRaisesRegex(RuntimeError, 'gtk3 did not answer "center" within 10 s'):
            app.recenter(clock=clock, sleep=clock.sleep)


class StdinLines(unittest.TestCase):
    """app.py reads its requests from the descriptor the main loop watches: none is left behind
    in a buffer when several come at once."""

    def test_lines_that_come_together_are_all_read(self):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import app
        r, w = os.pipe()
        self.addCleanup(os.close, r)
        lines = app.StdinLines(r)
        os.write(w, b"\n\ncenter\n")
        self.assertEqual(lines.read(), ["", "", "center"])
        os.write(w, b"cen")
        self.assertEqual(lines.read(), [])
        os.write(w, b"ter\nqu")
        self.assertEqual(lines.read(), ["center"])
        os.close(w)
        self.assertIsNone(lines.read())


class KWinDevice(unittest.TestCase):
    """gdbus_boolean and KWin.wait_for_device, on a virtual clock."""

    def test_boolean_reply(self):
        self.assertEqual(harness.gdbus_boolean("(<true>,)\n"), (True, None))
        self.assertEqual(harness.gdbus_boolean("(<false>,)"), (False, None))
        value, failed = harness.gdbus_boolean("(<1>,)")
        self.assertIsNone(value)
        self.assertIn("not a boolean", failed)

    class Answers(harness.KWin):
        def __init__(self, answers):
            self.answers = list(answers)
            self.asked = 0

        def natural_scroll(self, devnode):
            self.asked += 1
            return self.answers.pop(0) if self.answers else (None, "ServiceUnknown")

    def setUp(self):
        self.now = 0.0
        self.saved = harness.mono, harness.time.sleep
        harness.mono = lambda: self.now
        harness.time.sleep = self.advance

    def tearDown(self):
        harness.mono, harness.time.sleep = self.saved

    def advance(self, seconds):
        self.now += seconds

    def test_waits_for_the_bus_name(self):
        kwin = self.Answers([(None, "ServiceUnknown"), (None, "ServiceUnknown"), (False, None)])
        self.assertEqual(kwin.wait_for_device("/dev/input/event1"), (False, None))
        self.assertEqual(kwin.asked, 3)

    def test_gives_up_with_the_reason(self):
        kwin = self.Answers([])
        value, failed = kwin.wait_for_device("/dev/input/event1", seconds=10)
        self.assertIsNone(value)
        self.assertEqual(failed, "ServiceUnknown")
        self.assertGreater(self.now, 10)
        self.assertLess(self.now, 11)


class Summary(unittest.TestCase):
    @staticmethod
    def row(mode, ratio, gap, step, flicks=5, direction="vertical"):
        return {"server": "sway", "toolkit": "qt6", "mode": mode, "speed_mm_s": 150, "direction": direction,
                "flicks": flicks, "ratio": ratio, "gap_frames": gap, "step_ratio": step}

    def test_goals_counted_over_the_measured_scenarios_per_mode(self):
        rows = [self.row("touchpad", 0.95, 1.2, 1.3), self.row("touchpad", 1.20, 1.6, 2.5, direction="horizontal"),
                self.row("wheel", 0.70, None, 1.0), self.row("wheel", None, None, None, flicks=0)]
        touchpad, wheel = harness.summarize(rows)
        self.assertEqual((touchpad["mode"], touchpad["scenarios"], touchpad["ratio_range"]), ("touchpad", 2, (0.95, 1.20)))
        self.assertEqual((touchpad["ratio_met"], touchpad["gap_met"], touchpad["step_met"]), ((1, 2), (1, 2), (1, 2)))
        self.assertEqual((wheel["scenarios"], wheel["ratio_range"]), (2, (0.70, 0.70)))
        self.assertEqual((wheel["ratio_met"], wheel["gap_met"], wheel["step_met"]), ((0, 1), (0, 0), (1, 1)),
                         "an unmeasured scenario or figure counts in neither")

    def test_the_synaptics_drivers_glide_is_not_counted(self):
        rows = [dict(self.row("default", 0.95, 1.0, 1.0), server="xorg-synaptics"),
                dict(self.row("none", 0.95, 1.0, 1.0), server="xorg-synaptics"),
                dict(self.row("default", 0.95, 1.0, 1.0), server="xorg-synaptics-nocoast"),
                dict(self.row("wheel", 0.95, 1.0, 1.0), server="xorg-synaptics-nocoast")]
        glide, none, nocoast, wheel = harness.summarize(rows)
        self.assertEqual((glide["ratio_met"], glide["gap_met"], glide["step_met"]), ((0, 0), (0, 0), (0, 0)))
        self.assertEqual(glide["not_counted"], "the synaptics driver's glide")
        self.assertEqual((nocoast["ratio_met"], nocoast["not_counted"] is not None), ((0, 0), True))
        self.assertEqual((none["ratio_met"], wheel["ratio_met"], wheel["not_counted"]), ((1, 1), (1, 1), None),
                         "without flickd a comparison as for any server; flickd's wheel output is flickd's glide")
        import tempfile
        with tempfile.NamedTemporaryFile("r", suffix=".md") as f:
            harness.write_table([dict(r, gap_ms=30, frame_ms=25, own_after_flickd=0, distance_px=100, distance_fraction=1.0,
                                      flickd_bad_events=0, flickd_hold_gestures=0, edge_hits=0) for r in rows[:1]], f.name)
            self.assertIn("| xorg-synaptics | qt6 | default | 1 | 0.95 | not counted (the synaptics driver's glide) |", f.read())

    def test_the_goals_edges_are_met(self):
        (s,) = harness.summarize([self.row("default", 0.85, 1.5, 2.0), self.row("default", 1.15, 0.5, 0.5)])
        self.assertEqual((s["ratio_met"], s["gap_met"], s["step_met"]), ((2, 2), (2, 2), (2, 2)))

    def test_a_figure_of_a_flickless_scenario_is_not_counted(self):
        (s,) = harness.summarize([self.row("none", 0.9, 1.0, 1.0, flicks=0)])
        self.assertEqual((s["ratio_range"], s["ratio_met"]), (None, (0, 0)))

    def test_the_table_holds_one_line_per_group(self):
        import tempfile
        with tempfile.NamedTemporaryFile("r", suffix=".md") as f:
            rows = [dict(self.row("touchpad", 0.95, 1.2, 1.3), gap_ms=30, frame_ms=25, step_ratio=1.3,
                         own_after_flickd=0, distance_px=100, distance_fraction=1.0, flickd_bad_events=0,
                         flickd_hold_gestures=0, edge_hits=0)]
            harness.write_table(rows, f.name)
            text = f.read()
        self.assertIn("| sway | qt6 | touchpad | 1 | 0.95 | 1 of 1 | 1 of 1 | 1 of 1 |", text)

    def test_a_group_without_its_input_clock_says_why_its_goals_are_not_measured(self):
        import tempfile
        why = "Xwayland stamps the app's input events when it handles them"
        rows = [dict(self.row("default", None, None, None), server="xwayland", gap_ms=None, frame_ms=25,
                     own_after_flickd=0, distance_px=100, distance_fraction=1.0, flickd_bad_events=0,
                     flickd_hold_gestures=0, edge_hits=0, no_input_clock={"flicks": 5, "reasons": [why]})]
        (s,) = harness.summarize(rows)
        self.assertEqual((s["ratio_met"], s["no_input_clock"]), ((0, 0), {"scenarios": 1, "reasons": [why]}))
        with tempfile.NamedTemporaryFile("r", suffix=".md") as f:
            harness.write_table(rows, f.name)
            text = f.read()
        self.assertIn("| xwayland | qt6 | default | 1 | — | 0 of 0 (1 scenario not measurable: no input clock, %s) |"
                      % why, text)

    def test_the_ratios_range_as_text(self):
        self.assertEqual(harness.ratio_range_text((0.921, 0.968)), "0.92–0.97")
        self.assertEqual(harness.ratio_range_text((-0.0, -0.001)), "0.00", "no negative zero, one figure")
        self.assertEqual(harness.ratio_range_text(None), "—")

    def test_rows_are_read_back_from_a_runs_log(self):
        import json
        import tempfile
        row = self.row("touchpad", 0.95, 1.2, 1.3)
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write("guest: ready\n  goal met: sway/qt6/touchpad ...\n%s\n{\"server\": \"sway\", \"toolk\n"
                    "{\"other\": 1}\n{\"server\": \"sway\", \"toolkit\": \"qt6\", \"mode\": \"default\", "
                    "\"scenario\": \"touch-stop\", \"tries\": 3}\n" % json.dumps(row))
            f.flush()
            self.assertEqual(harness.rows_from(f.name), [row], "a cut line, an object without a server and a touch-stop's line are skipped")


class CommandLine(unittest.TestCase):
    def test_also_pairs_run_their_own_modes(self):
        args = harness.parse_args(["--flickd", "f", "--servers", "xorg", "--toolkits", "qt6", "--also", "kwin:gtk3",
                                   "--modes", "none,default", "--also-modes", "default"])
        self.assertEqual((args.modes, args.also_modes), (["none", "default"], ["default"]))
        self.assertEqual((args.servers, args.also_only), (["xorg", "kwin"], {"kwin"}))

    def test_also_modes_default_to_the_modes_and_take_variants(self):
        args = harness.parse_args(["--flickd", "f", "--modes", "none,default", "--variant", "old=/x/flickd"])
        self.assertEqual((args.modes, args.also_modes), (["none", "default", "old"], ["none", "default", "old"]))
        args = harness.parse_args(["--flickd", "f", "--modes", "default", "--also-modes", "none", "--variant", "old=/x/f"])
        self.assertEqual((args.modes, args.also_modes), (["default", "old"], ["none", "old"]))

    def test_an_unknown_mode_is_an_error(self):
        for argv in (["--modes", "none,defualt"], ["--also-modes", "wheels"]):
            with self.assertRaises(SystemExit) as e:
                harness.parse_args(["--flickd", "f"] + argv)
            self.assertIn("--modes and --also-modes take names of none,wheel,touchpad,default", str(e.exception.code))

    def test_fewer_than_one_flick_is_an_error(self):
        self.assertEqual(harness.parse_args(["--flickd", "f", "--flicks", "1"]).flicks, 1)
        for n in ("0", "-3", "x"):
            with open(os.devnull, "w") as quiet:
                stderr, sys.stderr = sys.stderr, quiet
                try:
                    with self.assertRaises(SystemExit) as e:
                        harness.parse_args(["--flickd", "f", "--flicks", n])
                finally:
                    sys.stderr = stderr
            self.assertEqual(e.exception.code, 2, n)

    def test_an_unknown_direction_is_an_error(self):
        self.assertEqual(harness.parse_args(["--flickd", "f", "--directions", "horizontal,vertical"]).directions,
                         ["horizontal", "vertical"])
        with self.assertRaises(SystemExit) as e:
            harness.parse_args(["--flickd", "f", "--directions", "up"])
        self.assertIn("--directions takes names of vertical,horizontal, not up", str(e.exception.code))


class Verdicts(unittest.TestCase):
    def test_all_of_fails_on_any_failure_and_is_unmeasured_on_any_unknown(self):
        self.assertIs(harness.all_of(False, None), False, "a failed glide is not hidden by an unread libinput")
        self.assertIs(harness.all_of(None, False), False)
        self.assertIsNone(harness.all_of(True, None))
        self.assertIs(harness.all_of(True, True), True)

    def test_no_flick_judged_for_a_turn_is_not_measured(self):
        self.assertIsNone(harness.turned_verdict({"turned": 0, "turn_judged": 0, "flicks": 0, "discarded": 4}))
        self.assertIs(harness.turned_verdict({"turned": 0, "turn_judged": 3, "flicks": 2}), True)
        self.assertIs(harness.turned_verdict({"turned": 1, "turn_judged": 3, "flicks": 2}), False)
        self.assertIs(harness.turned_verdict({"turned": 0, "flicks": 5}), True, "an older log's row")


class FlickdScenarioChecks(unittest.TestCase):
    """Asserted on each scenario with flickd: a flickd that coasts only some flicks, or that left
    the app seeing none, fails."""
    row, judge, FLICK = staticmethod(GoalJudging.row), staticmethod(GoalJudging.judge), GoalJudging.FLICK

    def test_a_flickd_that_coasts_only_some_fast_flicks_fails(self):
        per = [dict(self.FLICK)] * 3 + [dict(self.FLICK, flickd_first_ms=None, own_after_flickd=None)] * 2
        checks = self.judge(self.row(per))
        self.assertEqual(checks.failures, ["sway/gtk3/default 150 mm/s vertical: flickd coasted every measured flick (at >= 100 mm/s)"])
        self.assertEqual(self.judge(self.row([dict(self.FLICK)] * 5)).failed, 0)
        # At 60 mm/s a release can read under coast.min_speed: not asserted.
        self.assertEqual(self.judge(self.row(per, speed=60.0)).failed, 0)

    def test_a_flickd_scenario_whose_app_saw_no_flick_fails(self):
        # flickd broke the server's view of the real pad: 4 flicks written on time, none seen.
        unseen = self.row([], discarded=4, discarded_late=0)
        checks = self.judge(unseen)
        self.assertEqual(checks.failures, ["sway/gtk3/default 150 mm/s vertical: the app saw the flicks with flickd running"])
        # The same pair measured without flickd in the same boot: fails even where documented.
        checks = harness.Checks()
        self.judge(dict(self.row([dict(self.FLICK)] * 5), mode="none", server="mutter-xwayland"), checks)
        self.judge(dict(unseen, server="mutter-xwayland"), checks)
        self.assertEqual(checks.failed, 1)

    def test_flicks_all_written_late_or_a_documented_pair_are_not_measurable(self):
        late = self.row([], discarded=15, discarded_late=15)
        checks = self.judge(late)
        self.assertEqual((checks.failed, checks.unmeasurable >= 1), (0, True))
        for server, toolkit in (("sway", "chromium"), ("mutter-xwayland", "gtk3")):
            checks = self.judge(self.row([], discarded=4, server=server, toolkit=toolkit))
            self.assertEqual(checks.failed, 0, (server, toolkit))
        self.assertEqual(self.judge(self.row([dict(self.FLICK)] * 5)).failed, 0)


class FlickdEnds(unittest.TestCase):
    """A flickd that crashes, fails or hangs mid-run is seen: after each scenario and extra
    check (check_running) and when it is stopped (Flickd.stop, stop_flickd)."""

    def flickd(self, argv, ready=False):
        """A Flickd around the process `argv` (no devices); with `ready`, once it printed a line."""
        d = harness.Flickd.__new__(harness.Flickd)
        d.mode, d.watches, d.taps = "default", [], []
        fd, d.log_path = tempfile.mkstemp(suffix=".log")
        os.close(fd)
        self.addCleanup(os.unlink, d.log_path)
        d.proc = subprocess.Popen(argv, stdout=subprocess.PIPE if ready else subprocess.DEVNULL)
        self.addCleanup(lambda: d.proc.poll() is not None or (d.proc.kill(), d.proc.wait()))
        if ready:
            d.proc.stdout.readline()
            self.addCleanup(d.proc.stdout.close)
        return d

    def stop(self, d):
        sleep, harness.time.sleep = harness.time.sleep, lambda s: None
        try:
            return d.stop()
        finally:
            harness.time.sleep = sleep

    PYTHON_EXIT_ON_TERM = ("import signal, sys, time\n"
                           "signal.signal(signal.SIGTERM, lambda *a: sys.exit(%d))\n"
                           "print('ready', flush=True)\n"
                           "time.sleep(30)\n")

    def test_status_zero_on_sigterm_is_a_clean_stop(self):
        d = self.flickd([sys.executable, "-c", self.PYTHON_EXIT_ON_TERM % 0], ready=True)
        self.assertEqual(d.ended(), "")
        self.assertIsNone(self.stop(d))

    def test_another_status_on_sigterm_a_crash_before_it_and_a_hang_are_not(self):
        d = self.flickd([sys.executable, "-c", self.PYTHON_EXIT_ON_TERM % 1], ready=True)
        self.assertEqual(self.stop(d), "it exited with status 1 on SIGTERM")
        d = self.flickd(["sh", "-c", "exit 3"])
        d.proc.wait()
        self.assertTrue(d.ended().startswith("flickd (default) exited with status 3"), d.ended())
        self.assertEqual(self.stop(d), "it had exited with status 3 before it was stopped")
        d = self.flickd([sys.executable, "-c", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                                             "print('ready', flush=True)\ntime.sleep(30)\n"], ready=True)
        d.STOP_TIMEOUT_S = 0.3
        self.assertEqual(self.stop(d), "it had not exited 0.3 s after SIGTERM (hung: killed)")

    def test_a_device_that_went_away_while_flickd_runs(self):
        d = self.flickd(["sleep", "30"])
        tap = harness.DevTap.__new__(harness.DevTap)
        tap.devnode, tap.removed = "/dev/input/event9", False
        d.taps = [tap]
        self.assertEqual(d.ended(), "")
        tap.gone()  # the tap's read failed
        self.assertTrue(d.ended().startswith("flickd (default) runs, but its device /dev/input/event9 went away"))

    class Daemon:
        """A Flickd for run_mode: ends after `ends_after` scenarios; stop() says `stopped`."""
        ends_after, stopped, made = None, None, []

        def __init__(self, binary, mode, work, devnode):
            self.ran, self.mode = 0, mode
            FlickdEnds.Daemon.made.append(self)

        def ended(self):
            return "flickd (default) exited with status -11 (SIGSEGV)" if self.ends_after is not None and \
                self.ran >= self.ends_after else ""

        def stop(self):
            self.stop_called = True
            return self.stopped if self.ended() == "" else "it had exited with status -11 (SIGSEGV) before it was stopped"

        def text(self):
            return "the log"

    class App:
        toolkit, status = "gtk3", ""

        def ended(self):
            return self.status

    class Server(harness.Server):
        name = "sway"

    def run_mode(self, ends_after=None, stopped=None, app_status=""):
        import argparse
        FlickdEnds.Daemon.made = []
        daemon_class = type("Daemon", (self.Daemon,), {"ends_after": ends_after, "stopped": stopped})
        played = []

        def scenario(args, server, app, pad, daemon, mode, speed, direction, checks):
            played.append(direction)
            daemon.ran += 1
            return {"direction": direction}
        args = argparse.Namespace(variants={}, flickd="flickd", directions=["vertical", "horizontal"], speeds=[150.0],
                                  touch_stop=False, quick_flicks=False, stop_scroll=False, check=True)
        saved = harness.Flickd, harness.run_scenario
        harness.Flickd, harness.run_scenario = daemon_class, scenario
        checks = harness.Checks()
        app = self.App()
        app.status = app_status
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                rows = harness.run_mode(args, self.Server(), app, type("Pad", (), {"devnode": "/dev/input/event5"})(),
                                        "default", "/nonexistent", checks)
            finally:
                sys.stdout = stdout
                harness.Flickd, harness.run_scenario = saved
        return rows, played, checks

    def test_a_flickd_that_crashed_in_a_scenario_fails_and_ends_the_mode(self):
        rows, played, checks = self.run_mode(ends_after=1)
        self.assertEqual(played, ["vertical"], "the horizontal scenario would have measured no flickd")
        self.assertEqual(checks.failures, ["sway/gtk3/default: flickd, the app and the display server still run after "
                                           "the 150 mm/s vertical scenario"], "reported once, not again at the stop")
        self.assertEqual(checks.errors, 1)
        self.assertTrue(FlickdEnds.Daemon.made[0].stop_called)

    def test_a_flickd_that_runs_to_the_end_and_exits_zero_passes(self):
        rows, played, checks = self.run_mode()
        self.assertEqual((played, checks.failures, checks.passed), (["vertical", "horizontal"], [], 1))

    def test_a_flickd_that_does_not_exit_zero_on_sigterm_fails(self):
        rows, played, checks = self.run_mode(stopped="it had not exited 10 s after SIGTERM (hung: killed)")
        self.assertEqual(checks.failures, ["sway/gtk3/default: flickd ran until stopped and exited with status 0 on SIGTERM"])

    def test_an_app_that_ended_fails(self):
        rows, played, checks = self.run_mode(app_status="the gtk3 app exited with status -6 (SIGABRT)")
        self.assertEqual(played, ["vertical"])
        self.assertEqual(checks.failures[0], "sway/gtk3/default: flickd, the app and the display server still run after "
                                             "the 150 mm/s vertical scenario")

    def test_a_server_whose_process_ended(self):
        server = self.Server()
        self.assertEqual(server.ended(), "")
        server.display_proc = subprocess.Popen(["sh", "-c", "exit 2"])
        server.display_proc.wait()
        self.assertEqual(server.ended(), "sway exited with status 2")
        self.assertEqual(harness.exit_text(-9), "-9 (SIGKILL)")


class TouchStopTries(unittest.TestCase):
    """A touch-stop check judges TOUCH_STOP_TRIES measured tries: a flickd that wrote nothing
    after the later releases passed on the first one."""

    class Pad(StopsUnderTheBadEventCheck.Pad):
        def flick(self, *a, **kw):
            return {"k_touch": 1.0, "k_release": 1.25, "max_late_ms": 0}

    class App(StopsUnderTheBadEventCheck.App):
        # The finger's events stamped 1000-1240 ms, flickd's coast 1260-1390 ms, each shown 10 ms
        # later; the touch at 1.4 s.
        def lines(self):
            return log(*[(0.01 + i / 1000, "v", 100.0 + i, i) for i in range(1000, 1400, 10)])

    class Daemon(StopsUnderTheBadEventCheck.Daemon):
        """flickd coasting the first `coasts` flicks; after them ended (`crash`) or silent."""
        coasts, crash = 1, False

        def __init__(self):
            self.calls = 0

        def libinput_counts(self):
            return dict(harness.NOTHING_SEEN, limited=0)

        def first_event_after(self, t):
            self.calls += 1
            return 1.26 if self.calls <= self.coasts else None

        def last_motion_after(self, t):
            return (1.39, None) if self.calls <= self.coasts else (None, None)

        def ended(self):
            return "flickd (default) exited with status -11 (SIGSEGV)" if self.crash and self.calls > self.coasts else ""

        def text(self):
            # Each flick's coast logged when `logged` (flickd read the release and the touch
            # together: the touch stopped the coast before its first write).
            return "device 5: coast at 1.25: (0, 150) mm/s for 1.2 s, 90 mm on the virtual touchpad\n" * (
                self.calls if getattr(self, "logged", False) else 0)

    def run_touch_stop(self, flicks=3, **daemon):
        import argparse
        checks = harness.Checks()
        args = argparse.Namespace(flicks=flicks, verbose=False)
        sleep, harness.time.sleep = harness.time.sleep, lambda s: None
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                row = harness.run_touch_stop(args, harness.Sway.__new__(harness.Sway), self.App(), self.Pad(),
                                             type("D", (self.Daemon,), daemon)(), "default", checks)
            finally:
                sys.stdout = stdout
                harness.time.sleep = sleep
        return row, checks

    def test_three_tries_clean_pass(self):
        row, checks = self.run_touch_stop(coasts=10)
        self.assertEqual((row["tries"], checks.failures, checks.passed, checks.goals_met), (3, [], 2, 1))

    def test_a_flickd_that_ended_after_the_first_try_fails(self):
        row, checks = self.run_touch_stop(coasts=1, crash=True)
        self.assertEqual(checks.failures, ["sway/gtk3/default touch on the real pad mid-coast: flickd coasts every flick "
                                           "written on time until the touch"])
        self.assertEqual(row["not_tries"], {"flickd ended": 1})

    def test_one_flick_asked_still_plays_three_tries(self):
        row, checks = self.run_touch_stop(flicks=1, coasts=10)
        self.assertEqual((row["tries"], checks.failures, checks.goals_met), (3, [], 1),
                         "--flicks 1 played 2 tries, never enough to judge")

    def test_a_running_flickd_that_coasts_no_later_flick_fails(self):
        # Alive, but nothing written after the later 150 mm/s releases, all written on time:
        # run_scenario fails this ("flickd coasted every measured flick"), so must the touch stop.
        row, checks = self.run_touch_stop(coasts=1)
        self.assertEqual((row["tries"], row["not_tries"]), (1, {"no coast": 5}))
        self.assertEqual(checks.failures, ["sway/gtk3/default touch on the real pad mid-coast: flickd coasts every flick "
                                           "written on time until the touch"])

    def test_a_coast_flickd_logged_and_the_touch_stopped_before_its_first_write_is_no_try(self):
        # flickd stalled past the touch (emulation): it planned the coast, the touch ended it.
        row, checks = self.run_touch_stop(coasts=1, logged=True)
        self.assertEqual((row["tries"], row["not_tries"]), (1, {"stopped before its first write": 5}))
        self.assertEqual((checks.failed, checks.unmeasurable), (0, 1))

    def test_tries_written_late_are_not_measurable(self):
        class LatePad(self.Pad):
            flicks = 0

            def flick(self, *a, **kw):
                LatePad.flicks += 1
                return dict(TouchStopTries.Pad.flick(self), max_late_ms=0 if LatePad.flicks == 1 else 40.0)
        saved, self.Pad = self.Pad, LatePad
        try:
            row, checks = self.run_touch_stop(coasts=10)
        finally:
            self.Pad = saved
        self.assertEqual((row["tries"], row["not_tries"]), (1, {"late": 5}))
        self.assertEqual((checks.failed, checks.passed, checks.unmeasurable, checks.goals_met), (0, 1, 1, 0),
                         "the bad events' check; the stop's not measurable; no goal")

    def test_a_glide_the_touch_did_not_end_fails(self):
        row, checks = self.run_touch_stop(coasts=10, wait_quiet=lambda self: False)
        self.assertEqual(checks.failures, ["sway/gtk3/default touch on the real pad mid-coast: " + harness.GLIDE_ENDED])


class OutputTableProbe(unittest.TestCase):
    """supports_output_table: only flickd's own "unknown section [output]" means a build from
    before the table; any other refusal fails the run, not a mode run under another's name."""

    def probe(self, script):
        with tempfile.TemporaryDirectory() as work:
            binary = os.path.join(work, "flickd")
            with open(binary, "w") as f:
                f.write("#!/bin/sh\n" + script + "\n")
            os.chmod(binary, 0o755)
            return harness.supports_output_table(binary, work, "touchpad")

    def test_a_build_that_accepts_the_table(self):
        self.assertTrue(self.probe("exit 0"))

    def test_a_build_from_before_the_table(self):
        # What flickd check-config says of a section it does not know.
        self.assertFalse(self.probe('echo "$2:1: unknown section [output]; the sections are [scroll], [coast], '
                                    '[velocity], [touchpad], [touchscreen] and [[device]]" >&2; exit 1'))

    def test_any_other_refusal_is_an_error(self):
        for script in ('echo "$2:2: output.mode = \\"touchpad\\" is not one of \\"wheel\\"" >&2; exit 1',
                       "kill -SEGV $$", "echo no such file >&2; exit 2"):
            with self.assertRaises(RuntimeError, msg=script):
                self.probe(script)


class RuntimeChange(unittest.TestCase):
    """The scenario after `swaymsg input ... natural_scroll disabled` asserts that sway took the
    change and flickd followed it."""

    class Server:
        name = "sway-natural"

        def __init__(self, returncode):
            self.returncode = returncode

        def swaymsg(self, *words):
            return subprocess.CompletedProcess(["swaymsg"] + list(words), self.returncode if "disabled" in words else 0,
                                               "", "Error: no such input" if self.returncode else "")

    class Daemon:
        def __init__(self, follows):
            self.follows = follows

        def text(self):
            return "/dev/input/event5 (pad): natural scrolling %s\n" % ("false" if self.follows else "true")

    def run_change(self, returncode=0, follows=True):
        checks = harness.Checks()
        saved = harness.run_scenario, harness.wait_direction
        harness.run_scenario = lambda *a, **kw: None
        harness.wait_direction = lambda daemon, devnode, value, seconds=20: harness.pad_directions(daemon, devnode)[-1:] == [value]
        stdout, sys.stdout = sys.stdout, open(os.devnull, "w")
        try:
            harness.run_after_runtime_change(None, self.Server(returncode), type("App", (), {"toolkit": "qt6"})(),
                                             type("Pad", (), {"devnode": "/dev/input/event5"})(), self.Daemon(follows),
                                             "default", checks)
        finally:
            sys.stdout.close()
            sys.stdout = stdout
            harness.run_scenario, harness.wait_direction = saved
        return checks

    def test_followed(self):
        self.assertEqual((self.run_change().passed, self.run_change().failed), (1, 0))

    def test_a_swaymsg_that_failed_or_a_flickd_that_did_not_follow_fails(self):
        self.assertEqual(self.run_change(returncode=1).failed, 1)
        self.assertEqual(self.run_change(follows=False).failed, 1)


class XTraceFlush(unittest.TestCase):
    """xi2_trace.py writes what the server sent before the harness reads the file: the server
    sends each raw event twice (the slave's copy, then the master's), and the release's scroll
    stop is the last of its batch when flickd is not running."""

    def test_a_batch_ending_with_the_masters_copy_is_flushed(self):
        import struct
        from types import SimpleNamespace
        import xi2_trace
        from Xlib.ext import ge, xinput

        class End(Exception):
            pass

        # Valuator 3 (the pad's vertical scroll) set: 0.0, a scroll stop.
        rest = bytes([1 << 3, 0, 0, 0]) + struct.pack("=iI", 0, 0) * 2

        def raw(deviceid):
            return SimpleNamespace(type=ge.GenericEventCode, evtype=xinput.RawMotion,
                                   data=SimpleNamespace(deviceid=deviceid, sourceid=7, vlen=1, rest=rest, time=26261))

        class Display:
            queue = [raw(7), raw(2)]  # the slave's copy, then the master's

            def next_event(self):
                if not self.queue:
                    raise End()
                return self.queue.pop(0)

            def pending_events(self):
                return len(self.queue)

        with tempfile.NamedTemporaryFile("r", suffix=".log") as trace:
            with open(trace.name, "w") as out:
                with self.assertRaises(End):
                    xi2_trace.follow(Display(), out, {7: {3: "v"}}, lambda: None)
                self.assertEqual(trace.read(), "scroll 7 26261 v 0.000\n", "read while the tracer still runs")


class HarnessBreakage(unittest.TestCase):
    def quietly(self, run):
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                return run()
            finally:
                sys.stdout = stdout

    def test_a_scenario_that_raises_is_a_failure_and_the_next_runs(self):
        checks = harness.Checks()
        def broken():
            raise RuntimeError("no answer to recenter")
        self.assertIsNone(self.quietly(lambda: checks.guarded("sway/qt6/default", "scenario ran", broken)))
        self.assertEqual(self.quietly(lambda: checks.guarded("sway/qt6/default", "scenario ran", lambda a: a + 1, 1)), 2)
        self.assertEqual((checks.errors, checks.failed), (1, 1))
        self.assertEqual(checks.failures, ["sway/qt6/default: scenario ran"])

    def test_a_server_that_fails_to_start_is_stopped(self):
        stopped = []
        class Broken(harness.Server):
            def __init__(self, work):
                self.procs = [subprocess.Popen(["sleep", "30"])]
                raise RuntimeError("no socket")
            def stop(self):
                stopped.append(True)
                harness.Server.stop(self)
        with self.assertRaises(RuntimeError):
            harness.start_server(Broken, "/nonexistent")
        self.assertEqual(stopped, [True])

    def test_a_half_started_server_whose_stop_fails_has_its_processes_ended(self):
        procs = []
        class Broken(harness.Server):
            def __init__(self, work):
                self.procs = [subprocess.Popen(["sleep", "30"])]
                procs.extend(self.procs)
                raise RuntimeError("no socket")
            def stop(self):
                raise AttributeError("no pointer yet")
        with self.assertRaises(RuntimeError):
            harness.start_server(Broken, "/nonexistent")
        self.assertIsNotNone(procs[0].poll(), "the process was ended")


if __name__ == "__main__":
    unittest.main(verbosity=1)
