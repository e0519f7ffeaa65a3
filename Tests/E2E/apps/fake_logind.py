#!/usr/bin/python3
"""A stand-in for systemd-logind, enough for the DRM backends of KWin, mutter and Weston in the e2e guest.

KWin 5.27 reads input devices (libinput) only with its DRM backend (`kwin_wayland --drm`), and
mutter only with its native backend (`mutter --wayland --display-server`); both open the GPU and
every input device through a session: logind (or, for KWin, ConsoleKit); KWin's "noop" session
opens nothing (openRestricted returns -1). The guest has neither (its PID 1 is
Tests/E2E/stage2, not systemd). This process, run as root on a private system bus, answers the
calls their logind sessions make, and opens the devices itself:

  Manager  /org/freedesktop/login1               GetSession(s) -> o (any id: the one session)
  Session  /org/freedesktop/login1/session/c1    Activate, TakeControl(b), ReleaseControl,
           TakeDevice(uu) -> (h fd, b inactive), ReleaseDevice(uu), PauseDeviceComplete(uu);
           properties Active (true), Seat ("seat0", its path), VTNr (0)
  Seat     /org/freedesktop/login1/seat/seat0    SwitchTo(u) (ignored: there is one session)

mutter finds its session through sd-login (libsystemd), which reads logind's state files rather
than asking over D-Bus: with UID given, this writes the ones it reads, for session "c1" of that
user, active on seat0 (/run/systemd/sessions/c1, /run/systemd/users/UID, /run/systemd/seats/seat0).

Usage (in the guest, as root): fake_logind.py BUS-SOCKET-PATH [UID]. It starts its own dbus-daemon
listening on BUS-SOCKET-PATH with an allow-all policy, owns org.freedesktop.login1 there and
prints "ready" on stdout. Clients find the bus through DBUS_SYSTEM_BUS_ADDRESS=unix:path=...
It never pauses a device (no VT switching in the guest).
"""

import os
import signal
import subprocess
import sys

from gi.repository import Gio, GLib

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

INTROSPECTION = """<node>
  <interface name="org.freedesktop.login1.Manager">
    <method name="GetSession"><arg type="s" direction="in"/><arg type="o" direction="out"/></method>
    <method name="GetSessionByPID"><arg type="u" direction="in"/><arg type="o" direction="out"/></method>
    <signal name="PrepareForSleep"><arg type="b"/></signal>
  </interface>
  <interface name="org.freedesktop.login1.Session">
    <method name="Activate"/>
    <method name="TakeControl"><arg type="b" direction="in"/></method>
    <method name="ReleaseControl"/>
    <method name="TakeDevice"><arg type="u" direction="in"/><arg type="u" direction="in"/>
      <arg type="h" direction="out"/><arg type="b" direction="out"/></method>
    <method name="ReleaseDevice"><arg type="u" direction="in"/><arg type="u" direction="in"/></method>
    <method name="PauseDeviceComplete"><arg type="u" direction="in"/><arg type="u" direction="in"/></method>
    <signal name="PauseDevice"><arg type="u"/><arg type="u"/><arg type="s"/></signal>
    <signal name="ResumeDevice"><arg type="u"/><arg type="u"/><arg type="h"/></signal>
    <property name="Active" type="b" access="read"/>
    <property name="Seat" type="(so)" access="read"/>
    <property name="VTNr" type="u" access="read"/>
  </interface>
  <interface name="org.freedesktop.login1.Seat">
    <method name="SwitchTo"><arg type="u" direction="in"/></method>
  </interface>
</node>"""

MANAGER_PATH = "/org/freedesktop/login1"
SESSION_ID = "c1"
SESSION_PATH = "/org/freedesktop/login1/session/" + SESSION_ID
SEAT_PATH = "/org/freedesktop/login1/seat/seat0"


def log(msg):
    print("fake_logind: " + msg, file=sys.stderr, flush=True)


def device_path(major, minor):
    # udev's /dev/char/MAJOR:MINOR links name every character device it knows.
    link = "/dev/char/%d:%d" % (major, minor)
    if os.path.exists(link):
        return link
    for directory in ("/dev/dri", "/dev/input", "/dev"):
        for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
            path = os.path.join(directory, name)
            try:
                rdev = os.stat(path).st_rdev
            except OSError:
                continue
            if os.major(rdev) == major and os.minor(rdev) == minor:
                return path
    return None


def write_session_files(uid, root="/run/systemd"):
    """logind's state files under `root` for one active graphical session of `uid` on seat0, in
    the format sd-login parses (KEY=VALUE lines): what sd_uid_get_display, sd_session_is_active,
    sd_session_get_type/state/seat, sd_seat_get_active and sd_seat_can_tty read (no VT in the
    guest; Weston's launcher gives up without the answer). Returns {path: {key: value}}."""
    files = {
        root + "/sessions/" + SESSION_ID: {"UID": uid, "ACTIVE": 1, "IS_DISPLAY": 1, "STATE": "active",
                                                "TYPE": "wayland", "CLASS": "user", "SEAT": "seat0", "VTNR": 1},
        root + "/users/%d" % uid: {"STATE": "active", "DISPLAY": SESSION_ID, "SESSIONS": SESSION_ID,
                                        "ACTIVE_SESSIONS": SESSION_ID, "ONLINE_SESSIONS": SESSION_ID},
        root + "/seats/seat0": {"ACTIVE": SESSION_ID, "ACTIVE_UID": uid, "SESSIONS": SESSION_ID,
                                     "CAN_GRAPHICAL": 1, "CAN_TTY": 0},
    }
    for path, values in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("".join("%s=%s\n" % kv for kv in values.items()))
    return files


def on_call(conn, sender, path, iface, method, params, invocation):
    if method in ("GetSession", "GetSessionByPID"):
        invocation.return_value(GLib.Variant("(o)", (SESSION_PATH,)))
    elif method == "TakeDevice":
        major, minor = params.unpack()
        path = device_path(major, minor)
        if path is None:
            log("TakeDevice %d:%d: no such device" % (major, minor))
            invocation.return_dbus_error("org.freedesktop.login1.NoSuchDevice", "no device %d:%d" % (major, minor))
            return
        try:
            fd = os.open(path, os.O_RDWR | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError as e:
            log("TakeDevice %s: %s" % (path, e))
            invocation.return_dbus_error("org.freedesktop.DBus.Error.Failed", str(e))
            return
        log("TakeDevice %d:%d -> %s" % (major, minor, path))
        # The fd list takes the descriptor over; D-Bus passes a duplicate to the caller.
        fds = Gio.UnixFDList.new_from_array([fd])
        invocation.return_value_with_unix_fd_list(GLib.Variant("(hb)", (0, False)), fds)
    else:
        # Activate, TakeControl, ReleaseControl, ReleaseDevice, PauseDeviceComplete, SwitchTo:
        # one session on one seat, always active; nothing to do.
        if method != "ReleaseDevice":
            log(method)
        invocation.return_value(None)


def on_get_property(conn, sender, path, iface, prop):
    if prop == "Active":
        return GLib.Variant("b", True)
    if prop == "Seat":
        return GLib.Variant("(so)", ("seat0", SEAT_PATH))
    if prop == "VTNr":
        return GLib.Variant("u", 0)
    return None


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: fake_logind.py BUS-SOCKET-PATH [UID]")
    sock = sys.argv[1]
    if len(sys.argv) == 3:
        write_session_files(int(sys.argv[2]))
    os.makedirs(os.path.dirname(sock), exist_ok=True)
    if os.path.exists(sock):
        os.unlink(sock)  # left by an earlier run in the same boot
    conf = sock + ".conf"
    with open(conf, "w") as f:
        f.write(BUS_CONFIG % sock)
    bus = subprocess.Popen(["dbus-daemon", "--config-file=" + conf, "--nofork", "--nopidfile"])
    address = "unix:path=" + sock
    for _ in range(200):
        if os.path.exists(sock):
            break
        GLib.usleep(50000)
    conn = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)
    for path, name in ((MANAGER_PATH, "org.freedesktop.login1.Manager"),
                       (SESSION_PATH, "org.freedesktop.login1.Session"),
                       (SEAT_PATH, "org.freedesktop.login1.Seat")):
        conn.register_object(path, node.lookup_interface(name), on_call, on_get_property, None)
    reply = conn.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                           GLib.Variant("(su)", ("org.freedesktop.login1", 4)), GLib.VariantType("(u)"),
                           Gio.DBusCallFlags.NONE, -1, None)
    if reply.unpack()[0] != 1:  # DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
        bus.terminate()
        sys.exit("fake_logind: could not own org.freedesktop.login1")
    print("ready", flush=True)
    loop = GLib.MainLoop()
    # SIGTERM (the harness's stop) ends the loop, so that the bus goes with this process.
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    try:
        loop.run()
    finally:
        bus.terminate()
        bus.wait()
        if os.path.exists(sock):
            os.unlink(sock)


if __name__ == "__main__":
    main()
