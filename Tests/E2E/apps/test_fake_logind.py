#!/usr/bin/python3
"""Offline tests of fake_logind.py (the logind stand-in the DRM backends of KWin and mutter use
in the guest): on the host, with its own private bus, no guest, no compositor. They make the
calls KWin's and mutter's logind sessions make and check the answers, that a device taken
through it is really open, and the session files it writes for sd-login (mutter's way to find
its session), written to a temporary directory here.

    /usr/bin/python3 Tests/E2E/apps/test_fake_logind.py
Skipped (with the reason) where dbus-daemon or python3-gi is missing.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    from gi.repository import Gio, GLib
except ImportError:  # python3-gi missing: the class below reports itself skipped
    Gio = GLib = None

SESSION = "org.freedesktop.login1.Session"


@unittest.skipIf(Gio is None or shutil.which("dbus-daemon") is None, "needs python3-gi and dbus-daemon")
class FakeLogindTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="fake-logind-")
        cls.sock = os.path.join(cls.tmp, "bus")
        cls.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fake_logind.py"), cls.sock],
                                    stdout=subprocess.PIPE, text=True)
        line = cls.proc.stdout.readline().strip()
        if line != "ready":
            cls.proc.kill()
            raise RuntimeError("fake_logind.py did not start: %r" % line)
        cls.conn = Gio.DBusConnection.new_for_address_sync(
            "unix:path=" + cls.sock,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)

    @classmethod
    def tearDownClass(cls):
        cls.conn.close_sync(None)
        cls.proc.terminate()
        cls.proc.wait(10)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def call(self, path, iface, method, args, reply_type):
        return self.conn.call_sync("org.freedesktop.login1", path, iface, method, args,
                                   GLib.VariantType(reply_type), Gio.DBusCallFlags.NONE, 5000, None)

    def session_path(self):
        return self.call("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "GetSession",
                         GLib.Variant("(s)", ("auto",)), "(o)").unpack()[0]

    def prop(self, name):
        return self.call(self.session_path(), "org.freedesktop.DBus.Properties", "Get",
                         GLib.Variant("(ss)", (SESSION, name)), "(v)").unpack()[0]

    def test_a_session_that_is_active_on_seat0(self):
        self.assertTrue(self.session_path().startswith("/org/freedesktop/login1/session/"))
        self.assertIs(self.prop("Active"), True)
        self.assertEqual(self.prop("Seat"), ("seat0", "/org/freedesktop/login1/seat/seat0"))
        self.assertEqual(self.prop("VTNr"), 0)
        self.call(self.session_path(), SESSION, "Activate", None, "()")
        self.call(self.session_path(), SESSION, "TakeControl", GLib.Variant("(b)", (False,)), "()")

    def test_take_device_passes_an_open_descriptor_of_that_device(self):
        st = os.stat("/dev/null")
        reply, fds = self.conn.call_with_unix_fd_list_sync(
            "org.freedesktop.login1", self.session_path(), SESSION, "TakeDevice",
            GLib.Variant("(uu)", (os.major(st.st_rdev), os.minor(st.st_rdev))), GLib.VariantType("(hb)"),
            Gio.DBusCallFlags.NONE, 5000, None, None)
        index, inactive = reply.unpack()
        self.assertIs(inactive, False)
        fd = fds.get(index)
        try:
            self.assertEqual(os.fstat(fd).st_rdev, st.st_rdev)
            self.assertEqual(os.write(fd, b"x"), 1)  # opened for writing, as KWin needs
        finally:
            os.close(fd)

    def test_take_device_of_a_missing_device_is_an_error(self):
        with self.assertRaises(GLib.Error):
            self.call(self.session_path(), SESSION, "TakeDevice", GLib.Variant("(uu)", (4095, 1048575)), "(hb)")


@unittest.skipIf(Gio is None, "needs python3-gi (fake_logind.py imports it)")
class SessionFilesTests(unittest.TestCase):
    """The state files sd-login reads, in a temporary directory instead of /run/systemd."""

    def test_one_active_wayland_session_of_the_user_on_seat0(self):
        sys.path.insert(0, HERE)
        import fake_logind
        root = tempfile.mkdtemp(prefix="fake-logind-run-")
        try:
            fake_logind.write_session_files(1234, root)

            def parse(path):
                with open(os.path.join(root, path)) as f:
                    return dict(line.rstrip("\n").split("=", 1) for line in f)

            session = parse("sessions/" + fake_logind.SESSION_ID)
            self.assertEqual((session["UID"], session["ACTIVE"], session["STATE"], session["TYPE"], session["SEAT"]),
                             ("1234", "1", "active", "wayland", "seat0"))
            # sd_uid_get_display: the user's graphical session is that one.
            user = parse("users/1234")
            self.assertEqual((user["DISPLAY"], user["SESSIONS"]), (fake_logind.SESSION_ID, fake_logind.SESSION_ID))
            seat = parse("seats/seat0")
            self.assertEqual(seat["ACTIVE"], fake_logind.SESSION_ID)
            # sd_seat_can_tty: answered (no VTs), or Weston's logind launcher gives up.
            self.assertEqual(seat["CAN_TTY"], "0")
            # The object path mutter builds from the id is the one registered.
            self.assertEqual(fake_logind.SESSION_PATH, "/org/freedesktop/login1/session/" + fake_logind.SESSION_ID)
        finally:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=1)
