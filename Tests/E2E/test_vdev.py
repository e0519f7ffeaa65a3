#!/usr/bin/python3
"""Offline checks of vdev.py's gesture player (no guest, no uinput; virtual time):
/usr/bin/python3 Tests/E2E/test_vdev.py"""
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vdev  # noqa: E402


class Clock:
    """A monotonic clock that only sleep() moves: each sleep overshoots by `overshoot[i]` s."""

    def __init__(self, overshoot):
        self.t = 100.0
        self.overshoot = list(overshoot)

    def now(self):
        return self.t

    def sleep(self, d):
        self.t += d + (self.overshoot.pop(0) if self.overshoot else 0.0)


class FakePad:
    """What TouchDevice.play needs of a device: frame() writes at once (1 ms per frame)."""
    name = "test pad"
    devnode = "/dev/input/event99"
    kclock = None

    def __init__(self, clock):
        self.clock = clock

    def frame(self, points):
        t0 = self.clock.t
        self.clock.t += 0.001
        return {"t0": t0, "t1": self.clock.t, "n": 1}

    def kernel_time(self, fr, timeout=1.0):
        return None


class MaxLate(unittest.TestCase):
    SCHEDULE = [(0.0, {0: (1, 1, 0.3)}, "touch"), (0.010, {0: (1, 2, 0.3)}, None),
                (0.020, {0: (1, 3, 0.3)}, "last_motion"), (0.030, {}, "release")]

    def play(self, overshoot):
        clock = Clock(overshoot)
        with mock.patch.object(vdev, "now", clock.now), mock.patch.object(vdev.time, "sleep", clock.sleep):
            return vdev.TouchDevice.play(FakePad(clock), self.SCHEDULE)

    def test_on_time_frames_are_late_by_their_write_only(self):
        self.assertLessEqual(self.play([0, 0, 0, 0])["max_late_ms"], 1.0)

    def test_a_sleep_that_overshot_before_the_lift_counts(self):
        # The player woke 30 ms after the lift's time: the lift reached the kernel that late,
        # and the fingers looked still before it.
        r = self.play([0, 0, 0, 0.030])
        self.assertGreaterEqual(r["max_late_ms"], 30.0)
        self.assertLess(r["max_late_ms"], 32.0)

    def test_a_wake_up_already_late_counts(self):
        # The landing's sleep overshoots by 25 ms: it and the frames after it are written late.
        self.assertGreaterEqual(self.play([0.025, 0, 0, 0])["max_late_ms"], 15.0)


if __name__ == "__main__":
    unittest.main()
