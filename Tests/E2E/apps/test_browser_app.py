#!/usr/bin/python3
"""Offline tests of the chromium launcher (browser_app.py): no browser, no guest. The page's
lines become app.py's log format on CLOCK_MONOTONIC, which the harness reads; the DevTools pipe
matches replies to calls and hands events on.

    /usr/bin/python3 Tests/E2E/apps/test_browser_app.py
"""

import json
import os
import sys
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_app  # noqa: E402
import harness  # noqa: E402

# CLOCK_REALTIME - CLOCK_MONOTONIC (s): the wall clock is 1.7e9 s ahead of a guest up 100 s.
OFFSET_S = 1_700_000_000.0


def as_harness_reads(text_lines):
    """(time, kind, fields) as harness.App.lines() parses the log file."""
    out = []
    for raw in text_lines:
        parts = raw.split()
        out.append((float(parts[0]), parts[1], parts[2:]))
    return out


class LogLine(unittest.TestCase):
    def page_ms(self, mono_s):
        return "%.3f" % ((mono_s + OFFSET_S) * 1000.0)

    def test_an_offset_change_carries_its_wheel_events_time_on_the_monotonic_clock(self):
        line = browser_app.log_line("%s v 1234 %s" % (self.page_ms(100.250), self.page_ms(100.204)), OFFSET_S)
        t, kind, fields = as_harness_reads([line])[0]
        self.assertAlmostEqual(t, 100.250, places=5)
        self.assertEqual((kind, fields[0]), ("v", "1234"))
        self.assertAlmostEqual(float(fields[1]), 100204.0, places=2)

    def test_a_change_with_no_wheel_event_keeps_minus_one(self):
        line = browser_app.log_line("%s h 50.5 -1" % self.page_ms(7.0), OFFSET_S)
        self.assertEqual(line.split()[1:], ["h", "50.5", "-1"])

    def test_the_harness_reads_input_times_in_seconds(self):
        lines = as_harness_reads([
            browser_app.log_line("%s center 9728 9600" % self.page_ms(10.0), OFFSET_S),
            browser_app.log_line("%s v 9728 -1" % self.page_ms(10.01), OFFSET_S),
            browser_app.log_line("%s wheel 0 186.4 0 %s" % (self.page_ms(11.0), self.page_ms(10.96)), OFFSET_S),
            browser_app.log_line("%s v 9914 %s" % (self.page_ms(11.02), self.page_ms(10.96)), OFFSET_S),
            browser_app.log_line("%s paint" % self.page_ms(11.03), OFFSET_S),
        ])
        got = harness.changes(lines, "v", 10.005)
        self.assertEqual(len(got), 2)
        self.assertIsNone(got[0][2])
        self.assertAlmostEqual(got[1][0], 11.02, places=5)
        self.assertEqual(got[1][1], 9914.0)
        self.assertAlmostEqual(got[1][2], 10.96, places=5)
        wheel = [f for _, kind, f in lines if kind == "wheel"][0]
        self.assertAlmostEqual(float(wheel[3]), 10960.0, places=2)

    def test_malformed_lines_are_dropped(self):
        for payload in ("", "abc paint", "%s v 12" % self.page_ms(1.0), "%s wheel 0 1" % self.page_ms(1.0)):
            self.assertIsNone(browser_app.log_line(payload, OFFSET_S), payload)


class FakeBrowser:
    """The browser's end of --remote-debugging-pipe: NUL-terminated JSON each way."""

    def __init__(self):
        self.to_r, self.to_w = os.pipe()      # launcher -> browser
        self.from_r, self.from_w = os.pipe()  # browser -> launcher

    def send(self, msg):
        os.write(self.from_w, json.dumps(msg).encode() + b"\0")

    def read_call(self):
        buf = b""
        while not buf.endswith(b"\0"):
            buf += os.read(self.to_r, 1)
        return json.loads(buf[:-1])


class DevToolsPipe(unittest.TestCase):
    def setUp(self):
        self.browser = FakeBrowser()
        self.events = []
        self.cdp = browser_app.DevTools(self.browser.to_w, self.browser.from_r, self.events.append)

    def tearDown(self):
        for fd in (self.browser.to_r, self.browser.to_w, self.browser.from_r):
            os.close(fd)
        try:
            os.close(self.browser.from_w)
        except OSError:
            pass

    def answer(self, reply):
        """Serves one call in a thread: an event and a reply to some other id first, then `reply`."""
        def serve():
            call = self.browser.read_call()
            self.calls.append(call)
            self.browser.send({"method": "Runtime.bindingCalled", "params": {"payload": "1 paint"}})
            self.browser.send({"id": call["id"] + 100, "result": {"value": "not yours"}})
            self.browser.send(dict(reply, id=call["id"]))
        self.calls = []
        thread = threading.Thread(target=serve)
        thread.start()
        return thread

    def test_a_call_gets_its_own_reply_and_events_go_to_the_handler(self):
        thread = self.answer({"result": {"sessionId": "S1"}})
        result = self.cdp.call("Target.attachToTarget", {"targetId": "T"}, session="S0", timeout=10)
        thread.join()
        self.assertEqual(result, {"sessionId": "S1"})
        self.assertEqual(self.calls[0]["method"], "Target.attachToTarget")
        self.assertEqual(self.calls[0]["params"], {"targetId": "T"})
        self.assertEqual(self.calls[0]["sessionId"], "S0")
        self.assertEqual([e["params"]["payload"] for e in self.events], ["1 paint"])

    def test_an_error_reply_raises(self):
        thread = self.answer({"error": {"code": -32601, "message": "no such method"}})
        with self.assertRaises(RuntimeError):
            self.cdp.call("Nope.nope", timeout=10)
        thread.join()

    def test_a_closed_pipe_raises_instead_of_waiting(self):
        os.close(self.browser.from_w)
        with self.assertRaises(RuntimeError):
            self.cdp.call("Runtime.evaluate", {"expression": "1"}, timeout=10)


if __name__ == "__main__":
    unittest.main()
