#!/usr/bin/python3
"""Offline checks of faults.py's own judgement (no guest): /usr/bin/python3 Tests/E2E/test_faults.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faults  # noqa: E402

REL_WHEEL_HI_RES = 0x0b


def wheel(*events):
    return [(t, REL_WHEEL_HI_RES, v) for t, v in events]


class StepUnderWayAtTheStop(unittest.TestCase):
    T_CONT = 10.0

    def split(self, after):
        return faults.split_under_way(after, self.T_CONT, 0.05, bound=2400)

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

    def test_nothing_written(self):
        self.assertEqual(self.split([]), ([], []))


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


if __name__ == "__main__":
    unittest.main(verbosity=1)
