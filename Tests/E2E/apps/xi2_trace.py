#!/usr/bin/python3
"""The X server's scroll events as X clients get them: XI2 raw motion on the root window.

Run in the guest beside Xorg by harness.py --x-trace (docs/APPS.md, "What Qt does at the
device switch"); writes to OUT, one line each, flushed whenever no event is queued (after each
batch of events):

    device ID NAME              a slave pointer (at start, and again when the hierarchy changes)
    scroll ID MS AXIS VALUE     a scroll valuator of a raw motion event from slave ID: the
                                server's event time MS (CLOCK_MONOTONIC ms), AXIS v or h, VALUE
                                the valuator's delta in the driver's units (120 per detent)

Usage: DISPLAY=:1 xi2_trace.py OUT
Needs python3-xlib (scripts/install-deps --apps).
"""
import struct
import sys

from Xlib import display
from Xlib.ext import ge, xinput
from Xlib.protocol import rq

# xXIRawEvent after the generic event header; then the valuator mask (vlen 4-byte words), one
# FP3232 value per set bit, and as many raw (unaccelerated) values.
RAW = rq.Struct(xinput.DEVICEID("deviceid"), rq.Card32("time"), rq.Card32("detail"),
                xinput.DEVICEID("sourceid"), rq.Card16("vlen"), rq.Card32("flags"), rq.Pad(4),
                rq.Binary("rest"))
SCROLL_LABELS = {"Rel Vert Scroll": "v", "Rel Horiz Scroll": "h"}


def raw_values(vlen, rest):
    """{valuator number: value} of a raw event's mask and FP3232 values."""
    mask = rest[:vlen * 4]
    values, offset = {}, vlen * 4
    for bit in range(vlen * 32):
        if mask[bit // 8] >> (bit % 8) & 1:
            integral, fraction = struct.unpack_from("=iI", rest, offset)
            values[bit] = integral + fraction / 2 ** 32
            offset += 8
    return values


def follow(d, out, scroll_axes, list_devices):
    """Writes the scroll valuators of each raw motion event `d` (an Xlib display) delivers to
    `out`, for the slaves and axes of `scroll_axes` (list_devices() fills it again when the
    hierarchy changes), until next_event() raises. Flushed whenever no event is queued, whatever
    the last one was: the server sends each raw event twice (the slave's copy, which is written,
    and the master's right after it), so a flush only after a slave's copy with nothing queued
    seldom came, and a batch's last lines (the release's scroll stop among them: nothing follows
    it without flickd) stayed in the buffer when the harness read the file."""
    while True:
        e = d.next_event()
        if e.type == ge.GenericEventCode:
            if e.evtype == xinput.HierarchyChanged:
                list_devices()
            elif e.evtype == xinput.RawMotion and e.data.deviceid == e.data.sourceid:  # the slave's copy
                values = raw_values(e.data.vlen, e.data.rest)
                for number, axis in scroll_axes.get(e.data.sourceid, {}).items():
                    if number in values:
                        out.write("scroll %d %d %s %.3f\n" % (e.data.sourceid, e.data.time, axis, values[number]))
        if not d.pending_events():  # one write per batch the server sent
            out.flush()


def main():
    out = open(sys.argv[1], "w")
    d = display.Display()
    opcode = d.query_extension("XInputExtension").major_opcode
    d.ge_add_event_data(opcode, xinput.RawMotion, RAW)
    scroll_axes = {}  # slave id -> {valuator number: "v" or "h"}

    def list_devices():
        for info in d.xinput_query_device(xinput.AllDevices).devices:
            if info.use != xinput.SlavePointer:
                continue
            axes = {}
            for c in info.classes:
                if c.type == xinput.ValuatorClass:
                    axis = SCROLL_LABELS.get(d.get_atom_name(c.label))
                    if axis:
                        axes[c.number] = axis
            scroll_axes[info.deviceid] = axes
            out.write("device %d %s\n" % (info.deviceid, info.name.decode(errors="replace")
                                          if isinstance(info.name, bytes) else info.name))
        out.flush()

    list_devices()
    d.screen().root.xinput_select_events([(xinput.AllDevices, xinput.RawMotionMask | xinput.HierarchyChangedMask)])
    follow(d, out, scroll_axes, list_devices)


if __name__ == "__main__":
    main()
