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


class QuirkHint(unittest.TestCase):
    """A pad without resolution is measured as libinput measures it: by its quirk's hint."""

    LISTED = "ModelTouchpadVisibleMarker=1\nAttrSizeHint=104x75\nAttrPressureRange=10:8\n"

    def test_a_resolution_hint_wins_over_a_size_hint(self):
        self.assertEqual(vdev.parse_quirk_hint(self.LISTED), ("AttrSizeHint", (104, 75)))
        self.assertEqual(vdev.parse_quirk_hint(self.LISTED + "AttrResolutionHint=31x31\n"),
                         ("AttrResolutionHint", (31, 31)))
        self.assertIsNone(vdev.parse_quirk_hint("AttrResolutionHint=0x31\nAttrSizeHint=wide\n"))
        self.assertIsNone(vdev.parse_quirk_hint(""))

    def test_the_geometry_follows_the_hint_only_without_a_resolution(self):
        desc = {"kind": "touchpad", "absinfo": [
            {"code": "ABS_MT_POSITION_X", "min": 0, "max": 1280, "resolution": 0},
            {"code": "ABS_MT_POSITION_Y", "min": 0, "max": 704, "resolution": 0}]}
        guess = vdev.geometry_of(desc)
        self.assertEqual(guess["units_per_mm"], [18, 14])
        self.assertTrue(guess["resolution_assumed"])
        hinted = vdev.geometry_of(desc, ("AttrResolutionHint", (31, 31)))
        self.assertEqual(hinted["units_per_mm"], [31, 31])
        self.assertEqual(hinted["quirk"], "AttrResolutionHint=31x31")
        self.assertFalse(hinted["resolution_assumed"])
        self.assertEqual(vdev.geometry_of(desc, ("AttrSizeHint", (100, 55)))["units_per_mm"], [12, 12])
        for a in desc["absinfo"]:
            a["resolution"] = 20
        self.assertEqual(vdev.geometry_of(desc, ("AttrResolutionHint", (31, 31)))["units_per_mm"], [20, 20])


if __name__ == "__main__":
    unittest.main()
