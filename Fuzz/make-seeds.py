#!/usr/bin/env python3
# Writes the recording fuzz target's seeds into a directory outside git (scripts/fuzz passes
# Fuzz/.build/seeds/recording): the repository's own recordings (Tests/Golden/*.events, each
# with its description embedded) and libinput record YAML made from them; and, when the shared
# samples are present ($FLICKD_SHARED, else `shared` beside the clone), their evemu recordings
# cut to their first lines, with their .desc after a NUL byte where it is separate, and the .desc
# files alone. Nothing of the shared samples is kept in the repository.
# Usage: python3 Fuzz/make-seeds.py [--out DIR]
import os, re, sys

root = os.path.dirname(os.path.abspath(__file__))
golden = os.path.join(root, "..", "Tests", "Golden")
shared = os.path.join(os.environ.get("FLICKD_SHARED") or os.path.normpath(os.path.join(root, "..", "..", "shared")),
                      "recordings")
out = os.path.join(root, ".build", "seeds", "recording")
if len(sys.argv) == 3 and sys.argv[1] == "--out":
    out = sys.argv[2]
elif len(sys.argv) != 1:
    sys.exit("usage: make-seeds.py [--out DIR]")
os.makedirs(out, exist_ok=True)
MAX_EVENT_LINES = 120

def cut(text, lines=MAX_EVENT_LINES):
    kept, events = [], 0
    for line in text.splitlines(keepends=True):
        if line.startswith("E:"):
            events += 1
            if events > lines:
                break
        kept.append(line)
    return "".join(kept)

def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)

if os.path.isdir(shared):
    for name in sorted(os.listdir(shared)):
        path = os.path.join(shared, name)
        stem = name.split(".")[0]
        if name.endswith(".desc"):
            write("desc-" + stem + ".evemu", open(path).read())
        elif name.endswith(".events"):
            text = cut(open(path).read())
            desc = os.path.join(shared, stem + ".desc")
            if os.path.exists(desc) and not re.search(r"^N:", text, re.M):
                write("events-" + name[:-7] + ".evemu-desc", text + "\0" + open(desc).read())
            else:
                write("events-" + name[:-7] + ".evemu", text)

def evemu_to_yaml(desc, events, names=False):
    """libinput record YAML (version 1) for an evemu description and its events."""
    name = re.search(r"^N: (.*)$", desc, re.M).group(1)
    bus, vendor, product, version = (int(x, 16) for x in re.search(r"^I: (.*)$", desc, re.M).group(1).split())
    codes = {}
    for m in re.finditer(r"^B: (\w\w) (.*)$", desc, re.M):
        t = int(m.group(1), 16)
        offset = codes.setdefault(t, [0, []])
        for i, byte in enumerate(m.group(2).split()):
            for bit in range(8):
                if int(byte, 16) >> bit & 1:
                    offset[1].append((offset[0] + i) * 8 + bit)
        offset[0] += len(m.group(2).split())
    props = []
    for m in re.finditer(r"^P: (.*)$", desc, re.M):
        for i, byte in enumerate(m.group(1).split()):
            props += [i * 8 + bit for bit in range(8) if int(byte, 16) >> bit & 1]
    axes = [l.split()[1:] for l in desc.splitlines() if l.startswith("A:")]
    y = ["# libinput record", "version: 1", "ndevices: 1", "libinput:", '  version: "1.25.0"',
         "system:", '  kernel: "6.8.0"', "devices:", "- node: /dev/input/event5", "  evdev:",
         '    name: "%s"' % name.replace("\\", "\\\\").replace('"', '\\"'),
         "    id: [%d, %d, %d, %d]" % (bus, vendor, product, version), "    codes:"]
    for t, (_, cs) in sorted(codes.items()):
        if names and t == 1:
            y.append("      EV_KEY: {%s}" % ", ".join("%d: 1" % c for c in cs))
        else:
            y.append("      %d: [%s] # type %d" % (t, ", ".join(map(str, cs)), t))
    y.append("    absinfo:")
    for a in axes:
        y.append("      %d: [%s]" % (int(a[0], 16), ", ".join(a[1:] + ["0"] * (6 - len(a)))))
    y.append("    properties: [%s]" % ", ".join(map(str, props)))
    y.append("  events:")
    frame = []
    t0 = None
    for line in events.splitlines():
        if not line.startswith("E:"):
            continue
        f = line.split()
        sec, usec = f[1].split(".")
        t = int(sec) * 1000000 + int(usec)
        t0 = t if t0 is None else t0
        t -= t0
        frame.append("    - [%3d, %6d, %3d, %3d, %6s]" % (t // 1000000, t % 1000000, int(f[2], 16), int(f[3], 16), f[4]))
        if f[2] == "0000" and f[3] == "0000":
            y.append("  - evdev:")
            y += frame
            frame = []
    return "\n".join(y) + "\n"

for name in sorted(os.listdir(golden)):
    if not name.endswith(".events"):
        continue
    text = open(os.path.join(golden, name)).read()
    stem = name[:-len(".events")]
    write("golden-" + stem + ".evemu", text)
    desc = "".join(l + "\n" for l in text.splitlines() if re.match(r"^[NIPBA]:", l))
    write("golden-" + stem + ".yml", evemu_to_yaml(desc, cut(text, 80), names=stem.startswith("two-finger")))

print("wrote", len(os.listdir(out)), "recording seeds to", os.path.relpath(out))
