#!/usr/bin/python3
"""Does a browser run acceptably in the e2e guest? Starts sway (as harness.py does) and
firefox-esr on a tall local page, and reports how long until sway shows its window and how
busy the guest is then. Not part of the measured matrix (see docs/APPS.md).

    Tests/E2E/guest run --mem 2048 --timeout 900 -- /usr/bin/python3 Tests/E2E/apps/browser_probe.py
"""

import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def main():
    browser = shutil.which("firefox-esr") or shutil.which("firefox") or shutil.which("chromium")
    if not browser:
        print(json.dumps({"browser": None, "result": "no firefox-esr, firefox or chromium installed"}))
        return 0
    work = "/tmp/flickd-browser"  # readable by the unprivileged sway user ($E2E_TMP is not)
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o777)
    page = os.path.join(work, "page.html")
    with open(page, "w") as f:
        f.write("<!doctype html><body style='margin:0'><div style='width:6000px;height:20000px;"
                "background:repeating-linear-gradient(#ccd,#ccd 100px,#88a 100px,#88a 103px)'></div>")
    os.chmod(page, 0o644)
    server = harness.Sway(work)
    env = dict(os.environ, **server.app_env())
    env.update(MOZ_ENABLE_WAYLAND="1", HOME=work)
    profile = os.path.join(work, "profile")
    os.makedirs(profile, exist_ok=True)
    subprocess.run(["chown", "-R", "%d:%d" % (server.uid, server.gid), work], check=False)
    t0 = time.monotonic()
    out = open(os.path.join(work, "browser.out"), "w")
    proc = subprocess.Popen(server.app_user() + [browser, "--new-instance", "--profile", profile, "file://" + page],
                            env=env, stdout=out, stderr=subprocess.STDOUT)
    shown = None
    while time.monotonic() - t0 < 240 and proc.poll() is None:
        tree = server.swaymsg("-t", "get_tree").stdout
        if '"app_id": "firefox' in tree or "Mozilla" in tree or '"name": "page.html' in tree:
            shown = time.monotonic() - t0
            break
        time.sleep(2)
    load = open("/proc/loadavg").read().split()[:3]
    result = {"browser": browser, "window_after_s": round(shown, 1) if shown else None,
              "exited": proc.poll(), "guest_load": load}
    time.sleep(10 if shown else 0)
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    out.close()
    result["log_tail"] = open(os.path.join(work, "browser.out"), errors="replace").read()[-600:]
    print(json.dumps(result))
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
