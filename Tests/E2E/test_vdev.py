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


class GeometryPad(FakePad):
    """A 100 x 60 mm pad that keeps what each frame wrote (the first finger's y, write time),
    with TouchDevice's own gesture code."""
    width_mm, height_mm = 100.0, 60.0
    abs = {}
    LATE_CARRY_S = vdev.TouchDevice.LATE_CARRY_S
    flick = vdev.TouchDevice.flick
    play = vdev.TouchDevice.play
    _finger_offsets = vdev.TouchDevice._finger_offsets
    _check_fits = vdev.TouchDevice._check_fits
    _room_ahead = vdev.TouchDevice._room_ahead

    def __init__(self, clock):
        FakePad.__init__(self, clock)
        self.written = []

    def frame(self, points):
        if points:
            self.written.append((self.clock.t, points[0][1]))
        return FakePad.frame(self, points)


class LateFrameCarriesOn(unittest.TestCase):
    """flick(at_write_time=True): a motion frame written after the motion's scheduled end
    carries the fingers on at the flick's speed (within LATE_CARRY_S and the pad), so a
    player that fell behind does not show fingers that stopped before the lift."""

    def flick(self, overshoot, **kw):
        clock = Clock(overshoot)
        pad = GeometryPad(clock)
        args = dict(direction="down", speed=60.0, duration=0.2, interval=0.010, at_write_time=True)
        args.update(kw)
        with mock.patch.object(vdev, "now", clock.now), mock.patch.object(vdev.time, "sleep", clock.sleep):
            result = pad.flick(**args)
        start = pad.written[0][1]
        return result, [(t, y - start) for t, y in pad.written]

    def test_on_time_the_motion_ends_where_it_was_scheduled(self):
        result, ys = self.flick([])
        self.assertAlmostEqual(ys[-1][1], result["travel_mm"], delta=0.1)

    def test_a_late_last_frame_keeps_the_speed(self):
        # The sleep before the last motion frame overshoots by 25 ms (21 sleeps: landing, 20 motion).
        result, ys = self.flick([0.0] * 20 + [0.025])
        (t1, y1), (t2, y2) = ys[-2], ys[-1]
        self.assertGreater(y2, result["travel_mm"] + 1.0)
        self.assertAlmostEqual((y2 - y1) / (t2 - t1), 60.0, delta=6.0)

    def test_the_carry_stops_after_its_limit(self):
        result, ys = self.flick([0.0] * 20 + [0.300])
        self.assertAlmostEqual(ys[-1][1] - result["travel_mm"], 60.0 * vdev.TouchDevice.LATE_CARRY_S, delta=0.01)

    def test_the_carry_stays_on_the_pad(self):
        # Fingers end 3 mm from the bottom edge (2 mm margin): 1 mm of room.
        travel = 60.0 * 0.2
        result, ys = self.flick([0.0] * 20 + [0.300], y=60.0 - 3.0 - travel / 2)
        self.assertAlmostEqual(ys[-1][1] - result["travel_mm"], 1.0, delta=0.01)

    def test_a_flick_that_slows_down_is_not_carried_on(self):
        result, ys = self.flick([0.0] * 30 + [0.040], decel=0.1)
        self.assertAlmostEqual(ys[-1][1], result["travel_mm"], delta=0.01)


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
