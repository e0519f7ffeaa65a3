#!/usr/bin/python3
"""app.py: a real toolkit app that logs what the user sees of scrolling, for flickd's app harness.

    /usr/bin/python3 Tests/E2E/apps/app.py --toolkit gtk4|gtk3|qt6 --log FILE

A window of 800 x 600 px whose content is much larger than the window in both directions
(GTK: a ScrolledWindow around a large DrawingArea; Qt: a QScrollArea around a large widget
that paints a grid), so that it scrolls vertically and horizontally. Every line of the log starts with
CLOCK_MONOTONIC seconds (time.monotonic(), the clock of the kernel's evdev timestamps):

    T v VALUE MS     the vertical offset changed (px); written on every change; MS is the
                     timestamp (ms, the server's clock: CLOCK_MONOTONIC) of the input event
                     being handled when it changed, or -1 if none (a glide's own frame, a
                     "center")
    T h VALUE MS     the horizontal offset changed (px)
    T paint          the window was painted (a frame; GTK: the frame clock's after-paint,
                     Qt: a paint event of the viewport)
    T decel VX VY    GTK began its own kinetic glide (GTK4: an EventControllerScroll's
                     "decelerate" with the same scroll events as the ScrolledWindow's own, px/s;
                     GTK3: a scroll-stop event, "decel 0 0")
    T own            the last v/h change was made by GTK's own glide (no input event since
                     its "decelerate"); written right after that change's v/h line. A glide
                     that outlives the next scroll event (GTK 4.8 ignores the first event of a
                     scroll sequence) goes on with changes stamped -1 and no "own" line:
                     harness.py counts those as the glide's too (own_glide_changes)
    T center V H     the harness asked for the middle (stdin line "center"); offsets set to V, H
    T ready W H      the content's scrollable size (px), once known

Lines on stdin: "center" (scroll to the middle; the changes it causes are logged as usual
but after the "center" line), "quit".

E2E_APPS_QT_COMPRESS=0 in the environment turns off the Qt app's compression of high-frequency
events (Qt::AA_CompressHighFrequencyEvents, which Qt turns on in every app on X11): its xcb
plugin then no longer merges the X11 scroll events queued while the app was busy, so each moves
the content by its own step (docs/APPS.md, "Which part of Qt merges X11 scroll events"). For
diagnosis only: the harness measures what a real Qt app does.
"""

import argparse
import os
import sys
import time

# px (GTK), by version and for GTK3 by backend. GTK4 moves ~3500 px/s for a 150 mm/s finger,
# GTK3 two (X11) to three (Wayland) times that: at 400 mm/s GTK3's glide travels ~10000 px
# under Xorg and ~15000 on sway: content this large keeps most glides off its ends (a glide
# at an end measures nothing). Under X11 it stays under the 32767 px a window can have.
CONTENT_BY_VERSION = {4: (20000, 20000), 3: (30000, 30000)}
CONTENT_GTK3_WAYLAND = (60000, 60000)
QT_SIZE = (60000, 60000)   # px: Qt scales touchpad motion ~2.5x GTK4's; at 30000 wide its 400 mm/s horizontal glides on sway reached the end


class StdinLines:
    """The whole lines on stdin, read from its descriptor, not through Python's buffer. The main
    loop wakes when the descriptor is readable; a line read ahead into a buffer leaves the
    descriptor empty and waits there for the next write. The harness's wake-ups that piled up
    before the main loop ran once left every later request one write behind (a "center" the
    harness waited for went unanswered)."""

    def __init__(self, fd=None):
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.pending = b""

    def read(self):
        """The lines completed by what can be read now, stripped; None at the end of input."""
        data = os.read(self.fd, 4096)
        if not data:
            return None
        self.pending += data
        *lines, self.pending = self.pending.split(b"\n")
        return [line.decode(errors="replace").strip() for line in lines]


class Log:
    def __init__(self, path):
        self.f = open(path, "w", buffering=1)

    def write(self, *parts):
        self.f.write("%.6f %s\n" % (time.monotonic(), " ".join(str(p) for p in parts)))


def run_gtk(version, log):
    import gi
    gi.require_version("Gtk", "%d.0" % version)
    from gi.repository import GLib, Gtk

    state = {"coasting": False, "ready": False, "clock": None, "evtime": -1}

    if version == 4:
        win = Gtk.Window(title="flickd app gtk4")
    else:
        win = Gtk.Window(title="flickd app gtk3")
    win.set_default_size(800, 600)
    sw = Gtk.ScrolledWindow()
    # A large DrawingArea (GTK wraps it in a Viewport): cheap to lay out and to paint under
    # emulation, unlike a TextView of long lines (GTK4 took ~90 s to paint one first).
    area = Gtk.DrawingArea()
    content = CONTENT_BY_VERSION[version]
    if version == 3 and os.environ.get("GDK_BACKEND") == "wayland":  # harness.py sets it for every server
        content = CONTENT_GTK3_WAYLAND

    def draw(_area, cr, *_size):
        # A few stripes (GTK4 records the whole area once; GTK3 clips to what is exposed).
        cr.set_source_rgb(0.85, 0.88, 1.0)
        cr.paint()
        cr.set_source_rgb(0.4, 0.5, 0.8)
        for y in range(0, content[1], 200):
            cr.rectangle(0, y, content[0], 3)
        for x in range(0, content[0], 200):
            cr.rectangle(x, 0, 3, content[1])
        cr.fill()
        return False

    if version == 4:
        area.set_content_width(content[0])
        area.set_content_height(content[1])
        area.set_draw_func(draw)
        sw.set_child(area)
        win.set_child(sw)
    else:
        area.set_size_request(*content)
        area.connect("draw", draw)
        sw.add(area)
        win.add(sw)
    vadj, hadj = sw.get_vadjustment(), sw.get_hadjustment()

    def on_value(adj, _pspec, axis):
        log.write(axis, "%.3f" % adj.get_value(), state["evtime"])
        if state["coasting"]:
            log.write("own")

    vadj.connect("notify::value", on_value, "v")
    hadj.connect("notify::value", on_value, "h")

    def on_changed(_adj):
        upper_v = vadj.get_upper() - vadj.get_page_size()
        upper_h = hadj.get_upper() - hadj.get_page_size()
        if not state["ready"] and upper_v > 2000 and upper_h > 500:
            state["ready"] = True
            log.write("ready", "%.0f" % upper_h, "%.0f" % upper_v)

    vadj.connect("changed", on_changed)
    hadj.connect("changed", on_changed)

    # A second scroll controller on the ScrolledWindow, in the capture phase (so it sees each
    # scroll event before the ScrolledWindow handles it) and never consuming: its "decelerate"
    # fires on the same scroll-end as the ScrolledWindow's own glide, and any later scroll
    # event (which cancels that glide in GTK) ends the "coasting" state.
    def clear_evtime():
        state["evtime"] = -1
        return False

    def saw_event(evtime):
        state["coasting"] = False
        # The ScrolledWindow handles this event right after us, in the same dispatch: its
        # offset change carries this event's time; an idle callback ends that dispatch.
        state["evtime"] = evtime
        GLib.idle_add(clear_evtime, priority=GLib.PRIORITY_HIGH)

    if version == 4:
        # A second scroll controller on the ScrolledWindow, in the capture phase (it sees each
        # scroll event before the ScrolledWindow does) and never consuming: its "decelerate"
        # fires on the same scroll-end as the ScrolledWindow's own glide, and any later scroll
        # event (which cancels that glide in GTK) ends the "coasting" state.
        flags = Gtk.EventControllerScrollFlags.BOTH_AXES | Gtk.EventControllerScrollFlags.KINETIC
        ctl = Gtk.EventControllerScroll.new(flags)
        sw.add_controller(ctl)
        ctl.set_propagation_phase(Gtk.PropagationPhase.CAPTURE)

        def on_scroll(*_args):
            saw_event(ctl.get_current_event_time())
            return False

        def on_decelerate(_ctl, vx, vy):
            log.write("decel", "%.1f" % vx, "%.1f" % vy)
            state["coasting"] = True

        ctl.connect("scroll-begin", on_scroll)
        ctl.connect("scroll", on_scroll)
        ctl.connect("decelerate", on_decelerate)

        # Every scroll event as GTK delivers it (after its per-frame compression), seen on the
        # window before the ScrolledWindow: "ev dx dy time", and where GTK's scroll sequences
        # begin and end. Diagnostics only: the harness reads the offsets.
        probe = Gtk.EventControllerScroll.new(Gtk.EventControllerScrollFlags.BOTH_AXES)
        probe.set_propagation_phase(Gtk.PropagationPhase.CAPTURE)
        win.add_controller(probe)
        probe.connect("scroll-begin", lambda c: log.write("begin", c.get_current_event_time()))
        probe.connect("scroll-end", lambda c: log.write("end", c.get_current_event_time()))

        def on_probe_scroll(c, dx, dy):
            log.write("ev", "%.3f" % dx, "%.3f" % dy, c.get_current_event_time())
            return False

        probe.connect("scroll", on_probe_scroll)
    else:
        # GTK3: "scroll-event" handlers connected here run before the ScrolledWindow's own
        # (RUN_LAST); a scroll-stop event is where GTK3 starts its glide (if the fingers moved).
        def on_scroll_event(_widget, event):
            saw_event(event.get_time())
            if event.is_scroll_stop_event():
                log.write("decel", "0", "0")
                state["coasting"] = True
            return False

        sw.connect("scroll-event", on_scroll_event)

    def on_paint(_clock):
        state["painted"] = True
        log.write("paint")

    # Under Xorg with no window manager, GTK (3 and 4) in the guest sat idle before its first
    # frame until something else woke its main loop (a line on stdin did): wake it and ask for a
    # frame every 100 ms until the first paint.
    def nudge():
        if state.get("painted"):
            return False
        area.queue_draw()
        return True

    GLib.timeout_add(100, nudge)

    def on_realize(widget):
        clock = widget.get_frame_clock()
        if clock is not None and state["clock"] is None:
            state["clock"] = clock
            clock.connect("after-paint", on_paint)

    if version == 4:
        win.connect("realize", lambda w: GLib.idle_add(lambda: on_realize(w) and False))
    else:
        win.connect("realize", lambda w: GLib.idle_add(lambda: on_realize(w) and False))

    stdin = StdinLines()

    def on_stdin(_fd, _cond):
        lines = stdin.read()
        if lines is None or "quit" in lines:
            loop_quit()
            return False
        for line in lines:  # empty ones are the harness's wake-ups
            if line == "center":
                state["coasting"] = False
                # End GTK's own glide first. While one runs, GTK takes no value set from
                # outside as its own: its next frame sets the glide's value again, and its next
                # scroll event starts from the glide's. Under Xorg a GTK3 glide at the content's
                # end did not end, so every later "center" was undone a frame after it and no
                # scroll moved the content off the end, for the rest of the run (docs/APPS.md).
                # Turning kinetic scrolling off cancels the glide (GTK 3 and 4).
                sw.set_kinetic_scrolling(False)
                sw.set_kinetic_scrolling(True)
                v = (vadj.get_upper() - vadj.get_page_size()) / 2
                h = (hadj.get_upper() - hadj.get_page_size()) / 2
                log.write("center", "%.3f" % v, "%.3f" % h)
                vadj.set_value(v)
                hadj.set_value(h)
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_stdin)

    if version == 4:
        loop = GLib.MainLoop()
        win.connect("close-request", lambda *_: loop.quit() or False)
        win.present()

        def loop_quit():
            loop.quit()
        loop.run()
    else:
        win.connect("destroy", lambda *_: Gtk.main_quit())
        win.show_all()

        def loop_quit():
            Gtk.main_quit()
        Gtk.main()


def run_qt(log):
    from PyQt6.QtCore import QEvent, QObject, QSocketNotifier, Qt, QTimer
    from PyQt6.QtGui import QColor, QPainter
    from PyQt6.QtWidgets import QApplication, QScrollArea, QWidget

    app = QApplication([sys.argv[0]])
    if os.environ.get("E2E_APPS_QT_COMPRESS") == "0":
        # After the QApplication: Qt's xcb platform turns the attribute on as it starts.
        app.setAttribute(Qt.ApplicationAttribute.AA_CompressHighFrequencyEvents, False)

    class Content(QWidget):
        def paintEvent(self, ev):
            # Only the exposed rectangle: a grid of 50 px cells with a changing shade.
            p = QPainter(self)
            r = ev.rect()
            x0, y0 = r.left() // 50 * 50, r.top() // 50 * 50
            for y in range(y0, r.bottom() + 1, 50):
                for x in range(x0, r.right() + 1, 50):
                    shade = 200 + ((x // 50 * 7 + y // 50 * 13) % 50)
                    p.fillRect(x, y, 49, 49, QColor(shade, shade, 255))
            p.end()

    evtime = {"ms": -1}

    def clear_evtime():
        evtime["ms"] = -1

    class PaintSpy(QObject):
        def eventFilter(self, obj, ev):
            if ev.type() == QEvent.Type.Paint:
                log.write("paint")
            elif ev.type() == QEvent.Type.Wheel:
                # The scroll bars move while this event is handled, right after this filter.
                evtime["ms"] = ev.timestamp()
                QTimer.singleShot(0, clear_evtime)
            return False

    area = QScrollArea()
    area.setWindowTitle("flickd app qt6")
    content = Content()
    content.setFixedSize(*QT_SIZE)
    area.setWidget(content)
    area.resize(800, 600)
    spy = PaintSpy()
    content.installEventFilter(spy)
    wheel_spy = PaintSpy()
    area.viewport().installEventFilter(wheel_spy)
    vbar, hbar = area.verticalScrollBar(), area.horizontalScrollBar()
    vbar.valueChanged.connect(lambda v: log.write("v", v, evtime["ms"]))
    hbar.valueChanged.connect(lambda v: log.write("h", v, evtime["ms"]))
    shown = {"ready": False}

    def on_range(*_):
        if not shown["ready"] and vbar.maximum() > 2000 and hbar.maximum() > 500:
            shown["ready"] = True
            log.write("ready", hbar.maximum(), vbar.maximum())

    vbar.rangeChanged.connect(on_range)
    hbar.rangeChanged.connect(on_range)

    stdin = StdinLines()

    def on_stdin():
        lines = stdin.read()
        if lines is None or "quit" in lines:
            note.setEnabled(False)
            app.quit()
            return
        for line in lines:
            if line == "center":
                v, h = vbar.maximum() // 2, hbar.maximum() // 2
                log.write("center", v, h)
                vbar.setValue(v)
                hbar.setValue(h)

    note = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    note.activated.connect(on_stdin)
    area.show()
    on_range()
    app.exec()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--toolkit", required=True, choices=["gtk4", "gtk3", "qt6"])
    p.add_argument("--log", required=True)
    args = p.parse_args()
    log = Log(args.log)
    log.write("start", args.toolkit, os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY", "?"))
    if args.toolkit == "qt6":
        run_qt(log)
    else:
        run_gtk(int(args.toolkit[-1]), log)


if __name__ == "__main__":
    main()
