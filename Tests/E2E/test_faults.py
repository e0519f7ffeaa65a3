#!/usr/bin/python3
"""Offline checks of faults.py's own judgement (no guest): /usr/bin/python3 Tests/E2E/test_faults.py"""
import os
import re
import sys
import types
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faults  # noqa: E402

REL_WHEEL_HI_RES = 0x0b
TICK = 1 / 120.0   # scenarios.CONFIG's tick rate


def wheel(*events):
    return [(t, REL_WHEEL_HI_RES, v) for t, v in events]


class StepUnderWayAtTheStop(unittest.TestCase):
    """The stall fault: flickd stopped mid-coast writes, once continued, at most the one step it
    was writing when stopped, and that one no larger than a normal tick's step at the stop."""
    T_CONT = 10.0

    # The coast's steps before the stop, kernel-stamped: 100 units a tick at 120 Hz for 0.3 s
    # (12,000 units/s), one tick the guest held up 30 ms (360 units).
    BEFORE = wheel(*[(7.0 + i * TICK, -100) for i in range(20)] + [(7.0 + 19 * TICK + 0.030, -360)]
                   + [(7.0 + 19 * TICK + 0.030 + i * TICK, -100) for i in range(1, 16)])
    PUNCTUAL = wheel(*[(7.0 + i * TICK, -100) for i in range(36)])

    def bound(self):
        return faults.normal_step_bound(self.BEFORE)

    def split(self, after):
        return faults.split_under_way(after, self.T_CONT, 0.05, bound=self.bound())

    def test_the_bound_is_the_speed_at_the_stop_over_twice_the_longest_interval(self):
        # 12,000 units/s × 2 × 30 ms: 720, where the old one (the release speed of 250 mm/s at
        # 90 units/mm over one period plus 100 ms) allowed 2,437.
        self.assertAlmostEqual(self.bound(), 720, delta=1)

    def test_or_over_50_ms_when_the_ticks_came_on_time(self):
        self.assertAlmostEqual(faults.normal_step_bound(self.PUNCTUAL), 600, delta=1)

    def test_one_normal_step_just_after_sigcont_was_under_way(self):
        under_way, later = self.split(wheel((10.002, -95)))
        self.assertEqual(under_way, wheel((10.002, -95)))
        self.assertEqual(later, [])

    def test_a_second_write_is_not(self):
        under_way, later = self.split(wheel((10.002, -95), (10.010, -90)))
        self.assertEqual(later, wheel((10.010, -90)))

    def test_a_late_or_large_one_is_not(self):
        self.assertEqual(self.split(wheel((10.2, -95)))[1], wheel((10.2, -95)), "200 ms after SIGCONT")
        self.assertEqual(self.split(wheel((10.002, -5000)))[1], wheel((10.002, -5000)), "a catch-up jump")

    def test_a_step_that_caught_up_100_ms_is_not(self):
        caught_up = -round(12000 * (0.100 + TICK))
        self.assertEqual(self.split(wheel((10.002, caught_up)))[1], wheel((10.002, caught_up)))
        self.assertEqual(faults.split_under_way(wheel((10.002, caught_up)), self.T_CONT, 0.05,
                                                faults.normal_step_bound(self.PUNCTUAL))[1], wheel((10.002, caught_up)))

    def test_a_step_of_a_tick_held_up_40_ms_was_under_way(self):
        held = -round(12000 * (0.040 + TICK))
        self.assertEqual(faults.split_under_way(wheel((10.002, held)), self.T_CONT, 0.05,
                                                faults.normal_step_bound(self.PUNCTUAL))[0], wheel((10.002, held)))

    def test_nothing_written(self):
        self.assertEqual(self.split([]), ([], []))

    def test_too_few_writes_before_the_stop_allow_none(self):
        self.assertEqual(faults.normal_step_bound(wheel((7.0, -100))), 0.0)

    # As BEFORE, but the guest held one tick up 252 ms (an interval of 260 ms, 3,120 units).
    HELD_UP = wheel(*[(7.0 + i * TICK, -100) for i in range(20)] + [(7.0 + 19 * TICK + 0.260, -3120)]
                    + [(7.0 + 19 * TICK + 0.260 + i * TICK, -100) for i in range(1, 16)])
    # What catching up would have jumped at 12,000 units/s after a 2 s stall, ~0.49 s of way.
    JUMP = 5885

    def test_a_run_whose_guest_held_a_tick_up_260_ms_is_not_judged(self):
        bound = faults.normal_step_bound(self.HELD_UP)
        self.assertAlmostEqual(bound, 6240, delta=1)
        why = faults.stall_step_unjudged(self.HELD_UP, bound, self.JUMP)
        self.assertIsNotNone(why, "a correct flickd would fail: %.0f is not below %d" % (bound, self.JUMP))
        self.assertIn("the guest held a tick up 252 ms before the stop", why)

    def test_nor_one_held_up_over_100_ms_even_below_the_jump(self):
        held = wheel(*[(7.0 + i * TICK, -100) for i in range(20)] + [(7.0 + 19 * TICK + 0.120, -1440)]
                     + [(7.0 + 19 * TICK + 0.120 + i * TICK, -100) for i in range(1, 16)])
        bound = faults.normal_step_bound(held)
        self.assertLess(bound, self.JUMP)
        self.assertIn("held a tick up 112 ms", faults.stall_step_unjudged(held, bound, self.JUMP))

    def test_in_a_run_not_judged_a_catch_up_just_after_sigcont_is_not_under_way(self):
        # HELD_UP's bound (6,240) is above the jump (5,885): the whole catch-up, written 2 ms
        # after SIGCONT, would pass as the step under way. Unjudged, at most half the jump is.
        bound = faults.normal_step_bound(self.HELD_UP)
        limit = faults.under_way_bound(bound, self.JUMP, faults.stall_step_unjudged(self.HELD_UP, bound, self.JUMP))
        catch_up = wheel((10.002, -self.JUMP))
        self.assertEqual(faults.split_under_way(catch_up, self.T_CONT, 0.05, limit), ([], catch_up))
        held = wheel((10.002, -2000))  # a tick held up ~160 ms, under way at the stop
        self.assertEqual(faults.split_under_way(held, self.T_CONT, 0.05, limit), (held, []))
        self.assertEqual(faults.under_way_bound(self.bound(), self.JUMP, None), self.bound(), "judged: the bound")

    def test_one_held_up_30_ms_is_judged(self):
        self.assertIsNone(faults.stall_step_unjudged(self.BEFORE, self.bound(), self.JUMP))
        self.assertIsNone(faults.stall_step_unjudged(self.PUNCTUAL, faults.normal_step_bound(self.PUNCTUAL), self.JUMP))


class TypedWordsInTheLog(unittest.TestCase):
    PHRASE = faults.Faults.PHRASE

    def test_times_and_values_are_not_the_typed_number(self):
        log = "coast at t=198412.3ms: (0, 250) mm/s\ncoast ended at t=1984.0ms: key, -1984 v120, 0 h120\n"
        self.assertEqual(faults.typed_words_in(self.PHRASE, log), [])

    def test_the_typed_words_are_found(self):
        self.assertEqual(faults.typed_words_in(self.PHRASE, "typed: 1984"), ["1984"])
        self.assertEqual(faults.typed_words_in(self.PHRASE, "correcthorse (1984)"), ["correct", "horse", "1984"])


class FlickdThatDoesNotStart(unittest.TestCase):
    """scenarios.Flickd gives up on a flickd that never logs its start: the process is killed
    and reaped and its log closed before the error."""

    def test_killed_reaped_and_log_closed(self):
        import scenarios
        import tempfile
        started = []

        class Never(scenarios.Flickd):
            def wait_log(self, pattern, timeout, after=0):
                started.append(self)
                return None

        with tempfile.TemporaryDirectory() as work:
            binary = os.path.join(work, "flickd")
            with open(binary, "w") as f:
                f.write("#!/bin/sh\nexec sleep 60\n")
            os.chmod(binary, 0o755)
            with self.assertRaisesRegex(RuntimeError, "flickd did not start"):
                Never(binary, work)
            daemon = started[0]
            self.assertIsNotNone(daemon.proc.returncode, "reaped")
            self.assertTrue(daemon.log.closed)


class OnlyNames(unittest.TestCase):
    """--only of faults.py and scenarios.py: every real name runs its method, an unknown name
    is an error (status 2) before anything runs."""

    HERE = os.path.dirname(os.path.abspath(__file__))

    def test_every_fault_name_is_a_method(self):
        self.assertIn("seat", faults.FAULTS)
        self.assertIn("tp-sigkill", faults.FAULTS)
        for name in faults.FAULTS:
            self.assertTrue(callable(getattr(faults.Faults, name.replace("-", "_"), None)), name)

    def test_every_scenario_name_is_a_method(self):
        import scenarios
        for name in scenarios.SCENARIOS:
            method = "measure" if name == "figures" else name.replace("-", "_")
            self.assertTrue(callable(getattr(scenarios.Scenarios, method, None)), name)

    def test_known_names_are_accepted(self):
        import argparse
        import scenarios
        p = argparse.ArgumentParser()
        self.assertEqual(scenarios.only_names(p, "seat,tp-sigkill", faults.FAULTS), {"seat", "tp-sigkill"})
        self.assertEqual(scenarios.only_names(p, ",".join(faults.FAULTS), faults.FAULTS), set(faults.FAULTS))
        self.assertEqual(scenarios.only_names(p, "", faults.FAULTS), set())
        self.assertEqual(scenarios.only_names(p, "tp-flick, sizes", scenarios.SCENARIOS), {"tp-flick", "sizes"})

    def run_script(self, script, only):
        import subprocess
        import tempfile
        with tempfile.TemporaryDirectory() as work:
            out = os.path.join(work, "results")
            r = subprocess.run([sys.executable, os.path.join(self.HERE, script), "--flickd", "/nonexistent/flickd",
                                "--out", out, "--only", only], capture_output=True, text=True, timeout=120)
            return r, os.path.exists(out)

    def test_an_unknown_name_beside_known_ones_is_an_error(self):
        import argparse
        import contextlib
        import io
        import scenarios
        with self.assertRaises(SystemExit) as exit, contextlib.redirect_stderr(io.StringIO()) as err:
            scenarios.only_names(argparse.ArgumentParser(), "seat,stal", faults.FAULTS)
        self.assertEqual(exit.exception.code, 2)
        self.assertIn("unknown name stal", err.getvalue())

    def test_an_unknown_name_is_an_error_before_anything_runs(self):
        # Only unknown names: were the check gone, the script would still run nothing on this host.
        for script, only in (("faults.py", "stal"), ("scenarios.py", "tpflick,sizez")):
            r, made = self.run_script(script, only)
            self.assertEqual(r.returncode, 2, (script, r.stdout, r.stderr))
            self.assertIn("unknown name", r.stderr, script)
            for name in only.split(","):
                self.assertIn(name, r.stderr, script)
            self.assertFalse(made, script + ": nothing written")


class SkippedChecks(unittest.TestCase):
    """A check scenarios.py cannot judge in a run (the gesture player ran late) is a skip: a
    "skip " line, counted in the last line "e2e: N passed, M failed, K skipped", which
    scripts/test adds to its own passed and skipped (for faults.py's line too)."""

    HERE = os.path.dirname(os.path.abspath(__file__))

    def plan_speed(self, late_ms):
        import argparse
        import contextlib
        import io
        import scenarios
        runner = scenarios.Scenarios(argparse.Namespace(out="/nonexistent", flickd="flickd", flicks=0))
        m = {"vdev": {"speed_mm_s": 200.0, "max_late_ms": late_ms}, "velocity": (0, 190), "plan": ""}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            runner.check_plan_speed("flick-down", "MT-B pad", m, "down")
            with self.assertRaises(SystemExit):
                runner.checks.exit("e2e")
        return runner.checks, out.getvalue().splitlines()

    def test_a_flick_played_late_is_a_skip_with_why(self):
        checks, lines = self.plan_speed(late_ms=35.0)
        self.assertEqual((checks.passed, checks.failed, checks.skipped), (0, 0, 1))
        self.assertTrue(any(l.startswith("skip flick-down: MT-B pad: the planned velocity") and "35 ms late" in l
                            for l in lines), lines)
        self.assertEqual(lines[-1], "e2e: 0 passed, 0 failed, 1 skipped")

    def test_a_flick_played_on_time_is_judged(self):
        checks, lines = self.plan_speed(late_ms=3.0)
        self.assertEqual((checks.passed, checks.failed, checks.skipped), (1, 0, 0))
        self.assertEqual(lines[-1], "e2e: 1 passed, 0 failed, 0 skipped")

    def test_scripts_test_counts_the_passed_and_the_skipped(self):
        import re
        import subprocess
        import tempfile
        with open(os.path.join(self.HERE, "..", "..", "scripts", "test")) as f:
            function = re.search(r"^add_summary_counts\(\) \{.*?^\}$", f.read(), re.M | re.S).group(0)
        with tempfile.NamedTemporaryFile("w", suffix=".log") as log:
            log.write("skip tp-flick: ...\ne2e: 5 passed, 0 failed, 2 skipped\nfaults: 7 passed, 0 failed, 1 skipped\n")
            log.flush()
            r = subprocess.run(["bash", "-c", "set -euo pipefail; passed=10 skipped=1\n%s\n"
                                "add_summary_counts e2e %s; add_summary_counts faults %s; echo $passed $skipped"
                                % (function, log.name, log.name)], capture_output=True, text=True)
        self.assertEqual(r.stdout.strip(), "22 4", r.stderr)


class FakeFlickd:
    """What tp-turn reads of a flickd run: its log (given whole), its exit status."""

    def __init__(self, log):
        self.log = log
        self.proc = types.SimpleNamespace(returncode=0)

    def text(self):
        return self.log

    def mark(self):
        return len(self.log)

    def wait_log(self, pattern, timeout, after=0):
        return re.compile(pattern).search(self.log, after)

    def stop(self):
        return 0


class FakeTouchTap:
    """flickd's virtual touchpad as tp-turn reads it: slot 0 going 100 units down, then 100
    units right."""

    def kinds(self, t0=0.0, t1=float("inf")):
        return []

    def positions(self, t0=0.0):
        return [(1.0, {0: (0, 0)}), (1.1, {0: (0, 100)}), (1.5, {0: (100, 100)})]

    def close(self):
        pass


class FakeDebugEvents:
    """libinput on the virtual touchpad: 100 units of scroll down, then 100 to the right (as
    many per device unit both ways)."""
    errors = []

    def since(self, t0, kind=None):
        events = [(1.0, "POINTER_SCROLL_FINGER", 0.0, 100.0, 0.0, ""), (1.5, "POINTER_SCROLL_FINGER", 0.5, 0.0, 100.0, "")]
        return [e for e in events if kind is None or e[1] == kind]

    def close(self):
        pass


class TpTurn(unittest.TestCase):
    """scenarios.py tp-turn judged on a scripted run: two flicks, each played once unless the
    player ran late, and the sideways glide's end."""

    DOWN = "device 3: coast at t=1000.0ms: (0, 250) mm/s for 1.2s, 60 mm on the virtual touchpad\n"
    TOUCH = "coast ended at t=1250.0ms: touch\n"
    RIGHT = "device 3: coast at t=1400.0ms: (250, 0) mm/s for 1.2s, 60 mm on the virtual touchpad\n"
    ON_TIME = {"max_late_ms": 3.0, "k_release": 1.0}

    def run_tp_turn(self, log, plans, lateness=()):
        """tp_turn on `log` with flicks whose plans are `plans` in turn (then coasting ones),
        played `lateness` ms late in turn (then on time); (checks, failures, flicks played).
        Scenarios.flick itself runs: the gesture player and flickd's log read are scripted."""
        import argparse
        import contextlib
        import io
        import scenarios
        daemon = FakeFlickd(log)
        runner = scenarios.Scenarios(argparse.Namespace(out="/nonexistent", flickd="flickd", flicks=0))
        runner.start_touchpad = lambda name, env=None: (daemon, FakeTouchTap(), FakeDebugEvents())
        plans, lateness = list(plans), list(lateness)
        played = []
        # Each flick's log mark: the first at the start, the second after the first coast's lines.
        daemon.mark = lambda: 0 if len(played) % 2 == 0 else len(self.DOWN + self.TOUCH)

        def pad_flick(direction, **kw):
            played.append(direction)
            return dict(self.ON_TIME, max_late_ms=lateness.pop(0) if lateness else self.ON_TIME["max_late_ms"])

        pad = types.SimpleNamespace(flick=pad_flick)
        # What tp_turn printed, and its waits (s) in turn: a coast_end's timeout, a sleep's time.
        self.printed, self.waits = io.StringIO(), []

        def coast_end(d, after, timeout=8):
            self.waits.append(("coast_end", timeout))

        with mock.patch.object(scenarios, "open_pad", lambda name, d: contextlib.nullcontext(pad)), \
                mock.patch.object(scenarios, "coast_plan", lambda d, after, timeout=5: plans.pop(0) if plans else (0, 0)), \
                mock.patch.object(scenarios, "coast_end", coast_end), \
                mock.patch.object(scenarios.time, "sleep", lambda s: self.waits.append(("sleep", s))), \
                contextlib.redirect_stdout(self.printed):
            runner.tp_turn()
        return runner.checks, runner.checks.failures, played

    def test_a_late_second_flick_that_did_not_coast_is_played_again_with_the_first(self):
        # Down coasts; right ran 35 ms late and planned nothing: its landing already ended the
        # vertical glide, so a "right" played again alone would be an ordinary sideways flick.
        # The pair is played again.
        log = self.DOWN + self.TOUCH + self.RIGHT + "coast ended at t=2600.0ms: finished\n"
        checks, failures, played = self.run_tp_turn(log, [(0, 0), None], lateness=[3.0, 35.0])
        self.assertEqual(played, ["down", "right", "down", "right"])
        self.assertEqual(failures, [])

    def test_a_late_first_flick_is_followed_at_once_by_the_second_not_after_a_retry_wait(self):
        # Down ran 35 ms late and planned nothing: played once (retry=False), so no "flick played
        # again" and no wait for its coast's end before "right" lands 0.25 s after it.
        log = self.DOWN + self.TOUCH + self.RIGHT + "coast ended at t=2600.0ms: finished\n"
        checks, failures, played = self.run_tp_turn(log, [None, (0, 0)], lateness=[35.0, 3.0])
        self.assertEqual(played, ["down", "right", "down", "right"])
        self.assertNotIn("flick played again", self.printed.getvalue())
        self.assertIn("both played again", self.printed.getvalue())
        self.assertEqual(self.waits[:3], [("sleep", 0.5), ("sleep", 0.25), ("sleep", 1.2)],
                         "the pad settles, down, 0.25 s, right, the glide's rest")
        self.assertEqual(failures, [])

    def test_a_flick_played_on_time_that_does_not_coast_fails_and_is_not_played_again(self):
        checks, failures, played = self.run_tp_turn("", [(0, 0), None])
        self.assertEqual(played, ["down", "right"])
        self.assertEqual(failures, ["tp-turn: both flicks coast"])

    def test_a_sideways_glide_that_stalled_without_a_late_timer_fails(self):
        log = self.DOWN + self.TOUCH + self.RIGHT + "coast ended at t=2600.0ms: stall\n"
        checks, failures, played = self.run_tp_turn(log, [])
        self.assertEqual(played, ["down", "right"])
        self.assertEqual(len(failures), 1, failures)
        self.assertTrue(failures[0].startswith("tp-turn: the sideways glide ended at rest"), failures)

    def test_one_that_stalled_on_a_wake_up_500_ms_late_passes(self):
        log = (self.DOWN + self.TOUCH + self.RIGHT + "coast ended at t=2600.0ms: stall\n"
               "the coast's timer woke 40 times: the first 0.41, 0.30 and 0.22 ms after their deadlines, at most "
               "612.50 ms after; each frame written at most 0.35 ms after the wake-up\n")
        self.assertEqual(self.run_tp_turn(log, [])[1], [])

    def test_one_that_finished_passes(self):
        log = self.DOWN + self.TOUCH + self.RIGHT + "coast ended at t=2600.0ms: finished\n"
        checks, failures, _ = self.run_tp_turn(log, [])
        self.assertEqual(failures, [])
        self.assertGreater(checks.passed, 3)


class VirtualFingersRead(unittest.TestCase):
    """TouchTap follows the virtual touchpad's slots as the kernel holds them: a finger that
    lands again at the X where the last one lifted sends no X (the kernel drops a repeated
    value), and is still there."""

    def tap(self):
        import scenarios
        import threading
        from evdev import ecodes as E
        abs_ = lambda code, value: (E.EV_ABS, code, value)  # noqa: E731
        tap = scenarios.TouchTap.__new__(scenarios.TouchTap)
        tap.lock = threading.Lock()
        tap.dev = types.SimpleNamespace(absinfo=lambda code: types.SimpleNamespace(resolution=10))
        tap.frames = [
            (1.000, [abs_(E.ABS_MT_SLOT, 0), abs_(E.ABS_MT_TRACKING_ID, 1), abs_(E.ABS_MT_POSITION_X, 500),
                     abs_(E.ABS_MT_POSITION_Y, 300)]),
            (1.008, [abs_(E.ABS_MT_POSITION_Y, 310)]),
            (1.016, [abs_(E.ABS_MT_TRACKING_ID, -1)]),
            # Lands again 84 ms later at X 500: only the new tracking ID and Y reach the reader.
            (1.100, [abs_(E.ABS_MT_TRACKING_ID, 2), abs_(E.ABS_MT_POSITION_Y, 200)]),
            (1.108, [abs_(E.ABS_MT_POSITION_X, 502)]),
        ]
        return tap

    def test_a_finger_landing_again_at_the_same_x_is_at_that_x(self):
        frames = self.tap().positions(1.1)
        self.assertEqual(frames, [(1.100, {0: (500, 200)}), (1.108, {0: (502, 200)})])

    def test_and_moving_on_from_there_is_no_jump(self):
        # From (500, 200) to (502, 200) in 8 ms: 0.2 mm, not the 50 mm from X 0.
        self.assertEqual(self.tap().motion(1.05), [])
        self.assertEqual(self.tap().motion(), [])


if __name__ == "__main__":
    unittest.main(verbosity=1)
