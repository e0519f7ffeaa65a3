#!/usr/bin/python3
"""flickd's daemon benchmark: memory, idle wake-ups, CPU time, latency and tick timing.

Runs INSIDE the e2e guest (as root, with /dev/uinput and udevd); `scripts/bench-daemon` builds
flickd, boots the guest and runs it:
    Tests/E2E/guest run --results DIR -- /usr/bin/python3 Tests/E2E/bench.py run \
        --flickd .build-perf/release/flickd --label release --out DIR

Subcommands
  run     One flickd (default settings, coast.tick_rate 120) and one virtual touchpad
          (generic-usb-touchpad.json, MT-B) for the whole run, in this order:
            1. memory after start: Rss and PSS (/proc/PID/smaps_rollup: exact), VmRSS, VmHWM,
               RssAnon/RssFile (/proc/PID/status: VmRSS lags on kernels before 6.2) and RSS by
               mapping (/proc/PID/smaps), 2 s after the pad was opened;
            2. idle wake-ups: context switches of every flickd thread (/proc/PID/task/*/status)
               over 10 idle seconds;
            3. release -> first output event latency and tick intervals over --timing-flicks
               flicks (200 mm/s for 150 ms, down and up in turn), each coast left to run
               400 ms, then stopped by a one-finger tap. The output's frames: the wheel's
               REL_WHEEL_HI_RES frames, or the virtual touchpad's frames that move its fingers
               (ABS_MT_POSITION_Y; each frame counted once, though it moves both fingers).
               On the virtual touchpad the next flick waits until the stopped glide's fingers
               have lifted (VirtualFingers.stillBeforeLift, about 550 ms after the stop), so
               that its first frame is a landing, what a flick after a pause gets: a release
               while they still rest continues them, and that first frame is due a frame
               period (8 ms) after the release whatever flickd's own latency. Each flick says
               whether its first frame landed (ABS_MT_TRACKING_ID >= 0 in it); the latency is
               given over all flicks and for each kind apart.
               Latency: the kernel's timestamp of the first frame minus that of the frame that
               lifted the last finger (both CLOCK_MONOTONIC, read back through evdev). Tick
               intervals: between consecutive frames in the first 300 ms of each coast (where
               every tick has output; flickd skips ticks that would emit nothing at the slow
               end), against the nominal period: 1/coast.tick_rate for the wheel, from the
               first timer tick on (the first event is written with the release frame itself,
               not by the timer); a fixed 8 ms for the virtual touchpad, from the glide's model
               frames on (after a landing, the make-up and baseline frames come at intervals of
               their own; the first tick's lateness is then not measured);
            4. CPU time of one coast: a flick of 200 mm/s for 150 ms, left to coast to its
               end (about 4.2 s with the default deceleration); utime+stime (/proc/PID/stat,
               10 ms units) and the scheduler's exact run time (/proc/PID/task/*/schedstat),
               over the first 3 s after the release and over the whole coast;
            5. --flicks short flicks (250 mm/s for 50 ms, down and up in turn), each coast
               stopped by a tap (20 ms) as soon as flickd logged its plan; memory sampled
               every 100 flicks;
            6. memory after those flicks, and idle wake-ups again;
            7. the guest's own timer jitter (the `timer` subcommand, in a child process).
          Prints a summary and writes DIR/bench-LABEL.json.
  rss     The RSS study: for each LABEL=PATH, start that flickd, open one touchpad, wait 2 s,
          record Rss, VmRSS, PSS and RSS by mapping and, for every file-backed mapping, which
          ELF section each resident page belongs to (/proc/PID/pagemap; the ICU data blob,
          icudt*_dat, counted on its own); then --flicks short flicks and Rss again. The page
          cache is dropped before each program starts.
          `--fault-around off|default|both`: /sys/kernel/debug/fault_around_bytes = 4096
          (off) maps only the pages a fault touches; by default the kernel maps up to 64 KiB
          of already-cached neighbours around each file fault, which is RSS too. Entries
          `floor:LABEL=PATH` are plain programs (no flickd arguments, no touchpad), e.g. a
          Swift program that only calls pause(). `--working-set`: then page out everything
          flickd maps (process_madvise MADV_PAGEOUT from outside), play the flicks again, wait
          10 s and read RSS: the pages flickd touches in use, without startup's. Writes
          DIR/rss-study.json (--json NAME: DIR/NAME).
          run also takes --floor PATH (the floor program, Benchmarks/Floor: measured first,
          page cache dropped, same touchpad, memory after start and after --floor-flicks
          flicks), --reloads N (configuration reloads after the flicks, SIGHUP and a rewritten
          file in turn; memory after 10 and after N) and --fault-around off (the profile for
          order-file). flickd runs with $NOTIFY_SOCKET set; start-up = exec -> READY=1.
  startup LABEL=PATH...  [--runs N] [--cold]
          Start-up time (exec -> READY=1) of each flickd, N starts each in turn, warm page
          cache (and with --cold also dropped before each start). Writes DIR/startup.json.
  anatomy BENCH.json [--floor]
          On the host: resident pages after start by mapping, by ELF section kind, and the
          binary's by section and symbol owner (Swift module, stdlib, its Unicode tables,
          runtime, toml++, C++, C).
  order-file BENCH.json
          On the host, from a `run --fault-around off` result: the binary's symbols in the
          pages flickd touched, in address order (lld --symbol-ordering-file).
  timer   The timer jitter of wherever it runs (guest or host): a loop that sleeps with
          clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to one period (1/--rate) after its
          previous wake-up, as flickd's timerfd does, timer slack 1 ns; lateness = wake-up
          time - deadline. Also a fixed CPU-bound Python loop's run time (compare guest and
          host: the TCG slowdown). Prints JSON.
  table DIR [--rss]
          On the host: the figures in DIR (bench-*.json, host.json; with --rss
          rss-study.json) as a table.
  code-pages RSS.json LABEL [--fault-around BYTES]
          On the host: the resident code pages of each object in an `rss` run, by the owner
          of the symbols in each page (a Swift module, the Swift runtime, CoreFoundation, ICU,
          C++, C): what ran at startup (with fault-around, and what sat next to it).

Reuses Tests/E2E/scenarios.py (Flickd, WheelTap, open_pad, coast_plan, coast_end) and vdev.py.
"""

import argparse
import bisect
import codecs
import ctypes
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

PAGE = os.sysconf("SC_PAGE_SIZE")
CLK_TCK = os.sysconf("SC_CLK_TCK")


def mono():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def percentile(values, p):
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summary_ms(values_s, nominal_s=None):
    """p50/p99/min/max (ms, 3 decimals) of a list of seconds."""
    r = lambda v: None if v is None else round(v * 1000, 3)
    out = {"n": len(values_s), "p50": r(percentile(values_s, 50)), "p99": r(percentile(values_s, 99)),
           "min": r(min(values_s)) if values_s else None, "max": r(max(values_s)) if values_s else None}
    if nominal_s is not None:
        out["nominal"] = r(nominal_s)
    return out


# -- /proc readers ---------------------------------------------------------------------------

def proc_status(pid):
    want = ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads")
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in want:
                out[k] = int(v.split()[0])
    return out


def smaps_rollup(pid):
    out = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                out[parts[0][:-1]] = int(parts[1])
    return out


MAP_LINE = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) ([0-9a-f]+) \S+ (\d+)\s*(.*)$")


def smaps(pid):
    """[(start, end, perms, offset, path, {field: kB})] from /proc/PID/smaps."""
    maps = []
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            m = MAP_LINE.match(line)
            if m:
                maps.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3), int(m.group(4), 16),
                             m.group(6).strip(), {}))
                continue
            parts = line.split()
            if maps and len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                maps[-1][5][parts[0][:-1]] = int(parts[1])
    return maps


def mapping_name(path):
    if not path:
        return "[anon]"
    if path.startswith("["):
        return path
    return os.path.basename(path.replace(" (deleted)", ""))


def rss_by_mapping(pid, exe, exe_name="flickd (binary)"):
    """RSS/PSS/Private_Dirty/Anonymous (kB) per mapped object, largest RSS first. The program's
    own file is called `exe_name`; an anonymous mapping that starts where a file's mapping
    ends (its .bss) is counted as "<file> (.bss)"."""
    groups = {}
    prev_name, prev_end = None, None
    for start, end, perms, off, path, f in smaps(pid):
        name = mapping_name(path)
        if path and not path.startswith("["):
            if os.path.realpath(path.replace(" (deleted)", "")) == os.path.realpath(exe):
                name = exe_name
        elif not path and prev_name and prev_end == start:
            name = prev_name + " (.bss)"
        g = groups.setdefault(name, {"rss_kib": 0, "pss_kib": 0, "private_dirty_kib": 0, "anon_kib": 0,
                                     "size_kib": 0, "by_perms": {}})
        g["rss_kib"] += f.get("Rss", 0)
        g["pss_kib"] += f.get("Pss", 0)
        g["private_dirty_kib"] += f.get("Private_Dirty", 0)
        g["anon_kib"] += f.get("Anonymous", 0)
        g["size_kib"] += f.get("Size", 0)
        g["by_perms"][perms] = g["by_perms"].get(perms, 0) + f.get("Rss", 0)
        is_file = bool(path) and not path.startswith("[")
        prev_name, prev_end = (name, end) if is_file else (None, None)
    return dict(sorted(groups.items(), key=lambda kv: -kv[1]["rss_kib"]))


def memory(pid, exe, detail=True, exe_name="flickd (binary)"):
    m = {"status_kib": proc_status(pid)}
    roll = smaps_rollup(pid)
    # VmRSS (status) can lag by up to 63 pages per counter on kernels before 6.2 (per-thread
    # cached counters); smaps_rollup's Rss walks the page tables and is exact.
    m["rss_kib"] = roll.get("Rss")
    m["pss_kib"] = roll.get("Pss")
    # smaps_rollup has no Rss split on 6.1; "Anonymous" is the anonymous part of Rss (heap,
    # stacks, pages copied on write), the rest is file pages.
    m["rss_anon_kib"] = roll.get("Anonymous")
    m["rss_file_kib"] = None if m["rss_kib"] is None or m["rss_anon_kib"] is None else m["rss_kib"] - m["rss_anon_kib"]
    m["pss_anon_kib"] = roll.get("Pss_Anon")
    m["pss_file_kib"] = roll.get("Pss_File")
    m["private_dirty_kib"] = roll.get("Private_Dirty")
    if detail:
        m["by_mapping"] = rss_by_mapping(pid, exe, exe_name)
    return m


def context_switches(pid):
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/status" % (pid, task)) as f:
            for line in f:
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
    return total


def cpu_times(pid):
    """(utime+stime in ms from /proc/PID/stat, run time in ns summed over the threads'
    /proc/PID/task/TID/schedstat)."""
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])       # utime, stime (fields 14 and 15)
    run_ns = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, task)) as f:
                run_ns += int(f.read().split()[0])
        except OSError:
            pass
    return ticks * 1000.0 / CLK_TCK, run_ns


def guest_info():
    info = {"nproc": os.cpu_count(), "kernel": os.uname().release}
    try:
        with open("/proc/cpuinfo") as f:
            models = [l.split(":", 1)[1].strip() for l in f if l.startswith("model name")]
        info["cpu_model"] = models[0] if models else None
    except OSError:
        pass
    try:
        with open("/proc/loadavg") as f:
            info["loadavg"] = f.read().split()[:3]
    except OSError:
        pass
    info["in_guest"] = os.environ.get("E2E_GUEST") == "1"
    return info


# -- pagemap: which ELF sections are resident ------------------------------------------------

SHF_ALLOC = 0x2
SHT_NOBITS = 8
SHT_SYMTAB = 2
SHT_DYNSYM = 11


def elf_layout(path):
    """(sections [(name, file offset, size)] of the allocated sections with file contents,
    ICU data symbols [(name, file offset, size)]), or ([], []) for a non-ELF file."""
    try:
        f = open(path, "rb")
    except OSError:
        return [], []
    with f:
        hdr = f.read(64)
        if hdr[:4] != b"\x7fELF" or hdr[4] != 2:
            return [], []
        shoff, = struct.unpack_from("<Q", hdr, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", hdr, 0x3A)
        f.seek(shoff)
        raw = f.read(shentsize * shnum)
        secs = [struct.unpack_from("<IIQQQQIIQQ", raw, i * shentsize) for i in range(shnum)]

        def read(off, size):
            f.seek(off)
            return f.read(size)

        names = read(secs[shstrndx][4], secs[shstrndx][5]) if shstrndx < shnum else b""
        name = lambda i: names[i:names.index(b"\0", i)].decode()
        out = []
        for s in secs:
            sname, typ, flags, addr, off, size = s[:6]
            if flags & SHF_ALLOC and typ != SHT_NOBITS and size:
                out.append((name(sname), off, size, addr))
        # icudt*_dat: find it in .symtab (or .dynsym); translate its address to a file offset.
        icu = []
        for s in secs:
            if s[1] not in (SHT_SYMTAB, SHT_DYNSYM):
                continue
            strtab = secs[s[6]]
            strings = read(strtab[4], strtab[5])
            if b"icudt" not in strings:
                continue
            syms = read(s[4], s[5])
            for k in range(0, len(syms), 24):
                st_name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", syms, k)
                if strings[st_name:st_name + 5] == b"icudt" and size:
                    nm = strings[st_name:strings.index(b"\0", st_name)].decode()
                    for sn, off, ssize, addr in out:
                        if addr <= value < addr + ssize:
                            icu.append((nm, off + value - addr, size))
            if icu:
                break
        return [(n, o, s) for n, o, s, _ in out], icu


def elf_section(path, wanted):
    """(file offset, size, address) of the section called `wanted`, or None."""
    try:
        with open(path, "rb") as f:
            hdr = f.read(64)
            if hdr[:4] != b"\x7fELF" or hdr[4] != 2:
                return None
            shoff, = struct.unpack_from("<Q", hdr, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from("<HHH", hdr, 0x3A)
            f.seek(shoff)
            raw = f.read(shentsize * shnum)
            secs = [struct.unpack_from("<IIQQQQ", raw, i * shentsize) for i in range(shnum)]
            f.seek(secs[shstrndx][4])
            names = f.read(secs[shstrndx][5])
    except OSError:
        return None
    for name, typ, flags, addr, off, size in secs:
        if names[name:names.index(b"\0", name)].decode() == wanted:
            return off, size, addr
    return None


def resident_sections(pid, exe, exe_name="flickd (binary)", pages_out=None):
    """For each file-backed object: resident pages (kB) per ELF section (a page goes to the
    section with most bytes in it), ICU data pages apart. `pages_out`, when given, receives
    {object: {"path": file, "ranges": [[file offset, pages], ...]}} (for `code-pages`)."""
    result = {}
    layouts = {}
    with open("/proc/%d/pagemap" % pid, "rb") as pm:
        for start, end, perms, off, path, f in smaps(pid):
            if not path or path.startswith("[") or f.get("Rss", 0) == 0:
                continue
            real = path.replace(" (deleted)", "")
            if real not in layouts:
                layouts[real] = elf_layout(real)
            sections, icu = layouts[real]
            npages = (end - start) // PAGE
            pm.seek(start // PAGE * 8)
            entries = struct.unpack("<%dQ" % npages, pm.read(npages * 8))
            name = exe_name if os.path.realpath(real) == os.path.realpath(exe) else os.path.basename(real)
            obj = result.setdefault(name, {})
            ranges = pages_out.setdefault(name, {"path": real, "ranges": []})["ranges"] if pages_out is not None else None
            for i, e in enumerate(entries):
                if not e >> 63 & 1:
                    continue
                page_off = off + i * PAGE
                if ranges is not None:
                    if ranges and ranges[-1][0] + ranges[-1][1] * PAGE == page_off:
                        ranges[-1][1] += 1
                    else:
                        ranges.append([page_off, 1])
                sect = _section_of(page_off, sections, icu)
                key = "%s %s" % (sect, perms)
                obj[key] = obj.get(key, 0) + PAGE // 1024
    for name, obj in result.items():
        result[name] = dict(sorted(obj.items(), key=lambda kv: -kv[1]))
    return result


SECTION_KINDS = [
    ("code", (".text", ".plt", ".plt.got", ".plt.sec", ".init", ".fini")),
    ("symbol tables", (".dynsym", ".dynstr", ".gnu.hash", ".hash", ".gnu.version", ".gnu.version_r",
                       ".gnu.version_d")),
    ("relocation tables", (".rela.dyn", ".rela.plt", ".relr.dyn")),
    ("relocated data", (".data.rel.ro", ".got", ".got.plt", ".data", ".init_array", ".fini_array", ".dynamic",
                        ".tm_clone_table", "__libc_IO_vtables")),
    ("read-only data", (".rodata", ".cfstr.data", ".swift_modhash", ".lldbsummaries")),
    ("unwind tables", (".eh_frame", ".eh_frame_hdr", ".gcc_except_table")),
]


def section_kind(name):
    """What a resident page is for: code, symbol tables (read by the dynamic loader to bind
    symbols), relocation tables, relocated data, read-only data, Swift metadata (swift5_*),
    unwind tables, ICU data."""
    if name.startswith("ICU data"):
        return "ICU data"
    if name.startswith("swift5_"):
        return "Swift metadata"
    # BOLT's output (scripts/release-flags.sh): the linked sections it replaced keep their
    # place as .bolt.org.NAME, and what it moved out of the ordered code is NAME.cold.
    if name.startswith(".bolt.org."):
        name = name[len(".bolt.org"):]
    if name.endswith(".cold"):
        name = name[:-len(".cold")]
    for kind, names in SECTION_KINDS:
        if name in names:
            return kind
    return "other"


def sections_by_kind(sections):
    """{kind: kB} over every object, and {object: {kind: kB}}, from resident_sections()."""
    total, per_object = {}, {}
    for obj, secs in sections.items():
        kinds = per_object.setdefault(obj, {})
        for key, kib in secs.items():
            kind = section_kind(key.rsplit(" ", 1)[0])
            kinds[kind] = kinds.get(kind, 0) + kib
            total[kind] = total.get(kind, 0) + kib
    return (dict(sorted(total.items(), key=lambda kv: -kv[1])),
            {o: dict(sorted(k.items(), key=lambda kv: -kv[1])) for o, k in per_object.items()})


def _section_of(page_off, sections, icu):
    for nm, o, s in icu:
        if o <= page_off and page_off + PAGE <= o + s:
            return "ICU data (%s)" % nm
    best, best_bytes = "(no section: headers/padding)", 0
    for nm, o, s in sections:
        lo, hi = max(o, page_off), min(o + s, page_off + PAGE)
        if hi - lo > best_bytes:
            best, best_bytes = nm, hi - lo
    return best


class ReadyListener:
    """A datagram socket named by $NOTIFY_SOCKET for the programs started inside the `with`
    block: `wait_ms(t0)` is the time from t0 to the first READY=1 (flickd's start-up, exec to
    ready: its virtual device exists and the devices present are open)."""

    def __enter__(self):
        self.path = "/tmp/bench-notify-%d" % os.getpid()
        if os.path.exists(self.path):
            os.unlink(self.path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.t_ready = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.old = os.environ.get("NOTIFY_SOCKET")
        os.environ["NOTIFY_SOCKET"] = self.path
        return self

    def _run(self):
        while True:     # every datagram is read (the later ones: reloads, stopping)
            try:
                data = self.sock.recv(4096)
            except OSError:
                return
            if self.t_ready is None and b"READY=1" in data.split(b"\n"):
                self.t_ready = mono()

    def wait_ms(self, t0, timeout):
        end = mono() + timeout
        while self.t_ready is None and mono() < end:
            time.sleep(0.01)
        return None if self.t_ready is None else round((self.t_ready - t0) * 1000, 2)

    def __exit__(self, *exc):
        if self.old is None:
            os.environ.pop("NOTIFY_SOCKET", None)
        else:
            os.environ["NOTIFY_SOCKET"] = self.old
        self.sock.close()
        os.unlink(self.path)


class LineReader:
    """The lines a child writes to a pipe, each with the time it arrived (a thread reads)."""

    def __init__(self, pipe):
        self.lines, self.times, self.cond = [], [], threading.Condition()
        threading.Thread(target=self._run, args=(pipe,), daemon=True).start()

    def _run(self, pipe):
        for raw in pipe:
            with self.cond:
                self.lines.append(raw.decode(errors="replace").rstrip("\n"))
                self.times.append(mono())
                self.cond.notify_all()

    def wait(self, match, timeout):
        """The arrival time of the first line `match` accepts, or None after `timeout` s."""
        end = mono() + timeout
        with self.cond:
            while True:
                for line, t in zip(self.lines, self.times):
                    if match(line):
                        return t
                left = end - mono()
                if left <= 0:
                    return None
                self.cond.wait(left)


# -- the daemon ------------------------------------------------------------------------------

def load_scenarios():
    import scenarios  # noqa: E402  (imports vdev and python-evdev)
    return scenarios


# The default settings (config/flickd.toml writes out the defaults), with the tick rate the
# figures assume spelled out. Not config/flickd.toml itself: a binary under study may be older
# than the work tree's file and not know a section added since.
CONFIG = """[coast]
tick_rate = 120
"""


# flickd's virtual touchpad writes its motion frames 8 ms apart whatever coast.tick_rate says
# (VirtualFingers.framePeriod: 125 Hz, as touchpads report).
TOUCHPAD_FRAME_PERIOD = 0.008


def frame_times(events):
    """The kernel times of the frames that output events (kernel time, code, value) belong to,
    each once: the kernel stamps every event of a frame alike, and a virtual touchpad's motion
    frame holds an ABS_MT_POSITION_Y for each of its two fingers."""
    return sorted({e[0] for e in events})


def output_tap_class(S):
    class OutputTap(S.WheelTap):
        """scenarios.WheelTap that also records EV_ABS events (the virtual touchpad's output)
        as (kernel time, code, value); ABS and REL codes of interest do not overlap."""

        def handle(self, ev):
            if ev.type in (S.E.EV_REL, S.E.EV_ABS):
                with self.lock:
                    self.events.append((ev.sec + ev.usec / 1e6, ev.code, ev.value))

    return OutputTap


def bench_flickd_class(S):
    class BenchFlickd(S.Flickd):
        """scenarios.Flickd reading its log incrementally: a thousand flicks make a log that
        re-reading whole at every poll would cost the guest real CPU time."""

        def text(self):
            if getattr(self, "_buf_path", None) != self.log_path:
                self._buf_path, self._buf, self._pos = self.log_path, "", 0
                self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            with open(self.log_path, "rb") as f:
                f.seek(self._pos)
                new = f.read()
            if new:
                self._pos += len(new)
                self._buf += self._decoder.decode(new)
            return self._buf

    return BenchFlickd


COAST_DURATION = re.compile(r"coast at [^\n]* for ([\d.]+)ms")


class Bench:
    def __init__(self, args):
        self.args = args
        self.S = load_scenarios()
        self.E = self.S.E
        self.out = {"label": args.label, "binary": args.flickd, "binary_bytes": os.path.getsize(args.flickd),
                    "guest": guest_info(), "config": CONFIG}
        self.period = 1.0 / 120.0   # CONFIG's coast.tick_rate (the wheel's); run() sets the output's
        self.player_late = []

    def note(self, text):
        print(text, flush=True)

    def run(self):
        S = self.S
        t_start = mono()
        if self.args.floor:
            self.out["floor"] = self.floor_run(self.args.floor)
        # --fault-around off: every file page flickd maps is one it touched (the profile that
        # `bench.py order-file` reads); the memory figures are then not the usual ones.
        default_fa = set_fault_around(4096) if self.args.fault_around == "off" else None
        self.out["fault_around"] = self.args.fault_around
        # flickd runs as under systemd (Type=notify): $NOTIFY_SOCKET set for the whole run.
        ready = ReadyListener().__enter__()
        drop_caches()
        t_exec = mono()
        daemon = bench_flickd_class(S)(self.args.flickd, self.args.out, CONFIG, "bench-" + self.args.label)
        self.out["startup_ms"] = ready.wait_ms(t_exec, 30)
        self.note("start-up (exec -> READY=1): %s" % ("%s ms" % self.out["startup_ms"] if self.out["startup_ms"] is not None
                                                       else "no READY=1 within 30 s"))
        # flickd creates its output device when it opens the pad (open_pad waits for it).
        tap = daemon.later(output_tap_class(S))
        pid = daemon.proc.pid
        try:
            with S.open_pad(S.MANY_SLOTS, daemon) as pad:
                # The output's motion events: hi-res wheel, or the virtual touchpad's fingers moving
                # (the flicks are vertical: ABS_MT_POSITION_Y changes in every frame that moves).
                self.motion_code = self.E.REL_WHEEL_HI_RES if daemon.output == "wheel" else self.E.ABS_MT_POSITION_Y
                self.out["output"] = daemon.output
                self.period = 1.0 / 120.0 if daemon.output == "wheel" else TOUCHPAD_FRAME_PERIOD
                time.sleep(2.0)
                self.out["memory_start"] = memory(pid, self.args.flickd)
                self.out["resident_pages_start"] = {}
                self.out["sections_start"] = resident_sections(pid, self.args.flickd,
                                                               pages_out=self.out["resident_pages_start"])
                self.note("memory after start: %s" % self._mem_line(self.out["memory_start"]))
                self.out["idle_start"] = self.idle(pid)
                self.timing(daemon, tap, pad)
                self.coast_cpu(daemon, tap, pad)
                self.many_flicks(daemon, pad, pid)
                time.sleep(1.0)
                self.out["memory_after_flicks"] = memory(pid, self.args.flickd)
                self.note("memory after %d flicks: %s" % (self.args.flicks, self._mem_line(self.out["memory_after_flicks"])))
                self.out["idle_after_flicks"] = self.idle(pid)
                self.reloads(daemon, pid, self.args.reloads)
                self.out["resident_pages_end"] = {}
                resident_sections(pid, self.args.flickd, pages_out=self.out["resident_pages_end"])
            self.out["player_max_late_ms"] = summary_ms([x / 1000 for x in self.player_late])
            self.out["player_max_late_ms"]["over_5ms"] = sum(1 for x in self.player_late if x > 5)
            self.out["player_max_late_ms"]["over_20ms"] = sum(1 for x in self.player_late if x > 20)
        finally:
            tap.close()
            status = daemon.stop()
            self.out["exit_status"] = status
            self.note("flickd's exit status at the stop (SIGTERM): %s" % status)
            ready.__exit__(None, None, None)
            if default_fa is not None:
                set_fault_around(default_fa)
        self.out["timer"] = json.loads(subprocess.run([sys.executable, os.path.abspath(__file__), "timer"],
                                                      check=True, capture_output=True, text=True).stdout)
        self.note("guest timer: lateness p50 %.3f p99 %.3f max %.3f ms" % (
            self.out["timer"]["lateness_ms"]["p50"], self.out["timer"]["lateness_ms"]["p99"],
            self.out["timer"]["lateness_ms"]["max"]))
        self.out["guest_seconds"] = round(mono() - t_start, 1)
        self.out["guest"]["loadavg_end"] = guest_info().get("loadavg")
        path = os.path.join(self.args.out, "bench-%s.json" % self.args.label)
        with open(path, "w") as f:
            json.dump(self.out, f, indent=2)
        self.note("wrote %s (%.0f s in the guest)" % (path, self.out["guest_seconds"]))
        # Figures of a flickd that crashed, or that SIGTERM did not stop, are not flickd's.
        if self.out["exit_status"] != 0:
            sys.exit("bench.py run: flickd exited with status %s at the stop (0 expected)" % self.out["exit_status"])

    @staticmethod
    def _mem_line(m):
        s = m["status_kib"]
        return "smaps Rss %d kB (anon %d, file %d), PSS %d kB (anon %d, file %d), VmRSS %d kB, VmHWM %d kB, %d thread(s)" % (
            m["rss_kib"], m["rss_anon_kib"], m["rss_file_kib"], m["pss_kib"], m["pss_anon_kib"], m["pss_file_kib"],
            s["VmRSS"], s["VmHWM"], s["Threads"])

    def floor_run(self, path):
        """The floor program (Benchmarks/Floor) with the same touchpad: start-up, memory 2 s after
        the pad was opened, --floor-flicks flicks played (it only reads and drops them), memory
        again. Then it is stopped and the pad removed, before flickd starts."""
        S = self.S
        path = os.path.abspath(path)
        out = {"binary": path, "binary_bytes": os.path.getsize(path)}
        drop_caches()   # every program starts from the same (empty) page cache
        t_exec = mono()
        proc = subprocess.Popen([path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lines = LineReader(proc.stdout)
        try:
            t_ready = lines.wait(lambda l: l == "ready", 30)
            if t_ready is None:
                raise RuntimeError("the floor program did not start: %r" % lines.lines)
            out["startup_ms"] = round((t_ready - t_exec) * 1000, 2)
            pad = S.vdev.TouchDevice(S.load(S.MANY_SLOTS))
            try:
                if lines.wait(lambda l: l == "opened " + pad.devnode, 20) is None:
                    raise RuntimeError("the floor program did not open %s: %r" % (pad.devnode, lines.lines))
                time.sleep(2.0)
                out["memory_start"] = memory(proc.pid, path, exe_name="floor (binary)")
                out["resident_pages_start"] = {}
                out["sections_start"] = resident_sections(proc.pid, path, exe_name="floor (binary)",
                                                          pages_out=out["resident_pages_start"])
                self.note("floor: start-up %.1f ms; memory after start: %s" % (
                    out["startup_ms"], self._mem_line(out["memory_start"])))
                for i in range(self.args.floor_flicks):
                    pad.flick("down" if i % 2 == 0 else "up", speed=250, duration=0.05)
                    pad.tap(hold=0.02)
                time.sleep(1.0)
                out["memory_after_flicks"] = memory(proc.pid, path, exe_name="floor (binary)")
                out["flicks"] = self.args.floor_flicks
                self.note("floor: memory after %d flicks: %s" % (self.args.floor_flicks,
                                                                 self._mem_line(out["memory_after_flicks"])))
            finally:
                pad.close()
        finally:
            proc.terminate()
            proc.wait(10)
        return out

    def reloads(self, daemon, pid, n):
        """n configuration reloads, in turn SIGHUP and a rewrite of the file (replaced by rename,
        as editors save; a comment changes, so the settings do not: the file is read and parsed,
        nothing is applied); each waits for flickd's log line. Memory after the first 10 and
        after all of them."""
        path = daemon.config_path
        with open(path) as f:
            original = f.read()
        done, t0, samples = 0, mono(), {}
        for i in range(n):
            mark = daemon.mark()
            if i % 2 == 0:
                os.kill(pid, signal.SIGHUP)
            else:
                with open(path + ".tmp", "w") as f:
                    f.write(original + "# reload %d\n" % i)
                os.replace(path + ".tmp", path)
            if daemon.wait_log(r"(configuration reloaded|the settings are unchanged)", 10, mark):
                done += 1
            if i + 1 in (10, n):
                time.sleep(0.5)
                samples[i + 1] = memory(pid, self.args.flickd, detail=(i + 1 == n))
        with open(path, "w") as f:
            f.write(original)
        self.out["reloads"] = {"count": n, "done": done, "seconds": round(mono() - t0, 1),
                               "how": "SIGHUP and a rewritten file (a changed comment) in turn"}
        if 10 in samples:
            self.out["memory_after_10_reloads"] = samples[10]
        if n in samples:
            self.out["memory_after_reloads"] = samples[n]
            self.note("memory after %d reloads (%d logged): %s" % (n, done, self._mem_line(samples[n])))

    def idle(self, pid, seconds=10.0):
        time.sleep(1.0)
        before = context_switches(pid)
        cpu0 = cpu_times(pid)
        t0 = mono()
        time.sleep(seconds)
        after = context_switches(pid)
        cpu1 = cpu_times(pid)
        elapsed = mono() - t0
        r = {"seconds": round(elapsed, 2), "context_switches": after - before,
             "per_second": round((after - before) / elapsed, 3),
             "cpu_ms": round(cpu1[0] - cpu0[0], 1), "run_ns": cpu1[1] - cpu0[1]}
        self.note("idle %.1f s: %d context switches (%.2f/s), %d ns on CPU" % (
            elapsed, r["context_switches"], r["per_second"], r["run_ns"]))
        return r

    def _flick(self, daemon, pad, direction, **kw):
        mark = daemon.mark()
        r = pad.flick(direction, **kw)
        self.player_late.append(r.get("max_late_ms", 0.0))
        return r, mark

    def _wait_lift(self, tap, since, timeout):
        """The kernel time of the virtual touchpad's first lift (ABS_MT_TRACKING_ID -1) after
        `since`, waiting for it up to `timeout` seconds; None when none came."""
        end = mono() + timeout
        while True:
            lifts = [e[0] for e in tap.between(since, code=self.E.ABS_MT_TRACKING_ID) if e[2] < 0]
            if lifts:
                return lifts[0]
            if mono() >= end:
                return None
            time.sleep(0.02)

    def timing(self, daemon, tap, pad):
        S, E = self.S, self.E
        latencies, intervals, first_tick, lost, per_flick = [], [], [], 0, []
        landing, continuing, no_lift = [], [], 0
        long_gaps = 0
        touchpad = self.out["output"] != "wheel"
        for i in range(self.args.timing_flicks):
            r, mark = self._flick(daemon, pad, "down" if i % 2 == 0 else "up", speed=200, duration=0.15)
            plan = S.coast_plan(daemon, mark, 3)
            if plan is None:
                lost += 1
                self.note("  flick %d: no coast (player %.1f ms late)" % (i, r.get("max_late_ms", 0)))
                continue
            time.sleep(0.4)
            t_stop = mono()
            pad.tap(hold=0.02)
            S.coast_end(daemon, mark, 3)
            if touchpad:
                # The stopped glide's fingers rest, settle and lift about 550 ms after the stop
                # (VirtualFingers.stillBeforeLift): the next flick starts from lifted fingers, so
                # its first frame is a landing, as after any pause (see the docstring).
                if self._wait_lift(tap, t_stop, 2.0) is None:
                    no_lift += 1
                    self.note("  flick %d: the virtual fingers did not lift within 2 s of the stop" % i)
            k_release = r.get("k_release") or r["t_release"]
            events = frame_times(tap.between(k_release - 0.0005, k_release + 1.0, self.motion_code))
            if not events:
                lost += 1
                continue
            latency = events[0] - k_release
            latencies.append(latency)
            landed = None
            if touchpad:
                landed = any(e[2] >= 0 for e in tap.between(events[0], events[0] + 1e-6, E.ABS_MT_TRACKING_ID))
                (landing if landed else continuing).append(latency)
            per_flick.append({"latency_ms": round(latency * 1000, 3), "landed": landed,
                              "release_after_last_motion_ms": round((k_release - r["k_last_motion"]) * 1000, 3)
                              if r.get("k_last_motion") else None,
                              "player_max_late_ms": r.get("max_late_ms")})
            early = [t for t in events if t - events[0] < 0.3]
            if not touchpad:
                if len(early) > 1:
                    first_tick.append(early[1] - k_release - self.period)
                ticks = early[1:]
            else:
                # Fingers that land open the glide with frames at intervals of their own (the
                # make-up 2-8 ms after the landing, the baseline 1 ms later, the model's first
                # 2 ms after that: VirtualFingers.makeUpInterval, baselineInterval,
                # openingInterval); fingers still down continue a frame period after the release.
                ticks = early[3:] if landed else early
            gaps = [b - a for a, b in zip(ticks, ticks[1:])]
            long_gaps += sum(1 for g in gaps if g > 1.5 * self.period)
            intervals += gaps
            time.sleep(0.1)
        jitter = [abs(x - self.period) for x in intervals]
        self.out["latency_ms"] = summary_ms(latencies)
        self.out["latency_ms"]["flicks_without_coast"] = lost
        self.out["latency_ms"]["per_flick"] = per_flick
        if touchpad:
            # What the figure is: first frames that landed fingers (flickd's own path: the
            # release read, the coast planned, the landing written) and first frames of fingers
            # still down (due a frame period after the release, by design).
            self.out["latency_landing_ms"] = summary_ms(landing)
            self.out["latency_continuing_ms"] = summary_ms(continuing)
            self.out["latency_ms"]["lift_not_seen"] = no_lift
        self.out["tick_interval_ms"] = summary_ms(intervals, self.period)
        self.out["tick_interval_ms"]["over_1.5_periods"] = long_gaps
        self.out["tick_jitter_ms"] = summary_ms(jitter)
        self.out["first_tick_lateness_ms"] = summary_ms(first_tick)
        li, ti, tj = self.out["latency_ms"], self.out["tick_interval_ms"], self.out["tick_jitter_ms"]
        if li["n"] and ti["n"]:
            self.note("release -> first output event over %d flicks: p50 %.3f ms, p99 %.3f ms, max %.3f ms" % (
                li["n"], li["p50"], li["p99"], li["max"]))
            for key, what in (("latency_landing_ms", "with a landing"), ("latency_continuing_ms", "fingers still down")):
                k = self.out.get(key)
                if k and k["n"]:
                    self.note("  %s: %d flicks, p50 %.3f ms, p99 %.3f ms, min %.3f, max %.3f ms" % (
                        what, k["n"], k["p50"], k["p99"], k["min"], k["max"]))
            if lost:
                self.note("  %d of %d timing flicks had no coast (or no output)" % (lost, self.args.timing_flicks))
            self.note("tick interval over %d intervals: p50 %.3f ms, p99 %.3f ms (nominal %.3f); |jitter| p50 %.3f p99 %.3f ms" % (
                ti["n"], ti["p50"], ti["p99"], ti["nominal"], tj["p50"], tj["p99"]))
        else:
            self.note("no output events seen: no latency or tick figures")

    def coast_cpu(self, daemon, tap, pad):
        S, E = self.S, self.E
        best = None
        for attempt in range(3):
            c0 = cpu_times(daemon.proc.pid)
            r, mark = self._flick(daemon, pad, "down", speed=200, duration=0.15)
            c_release = cpu_times(daemon.proc.pid)
            k_release = r.get("k_release") or r["t_release"]
            plan = S.coast_plan(daemon, mark, 3)
            if plan is None:
                self.note("  coast CPU: no coast (player %.1f ms late); again" % r.get("max_late_ms", 0))
                time.sleep(0.5)
                continue
            # Read the counters 3 s after the release, then at the coast's end.
            delay = k_release + 3.0 - mono()
            if delay > 0:
                time.sleep(delay)
            c3 = cpu_times(daemon.proc.pid)
            end = S.coast_end(daemon, mark, 10)
            c_end = cpu_times(daemon.proc.pid)
            m = COAST_DURATION.search(daemon.text(), mark)
            events = frame_times(tap.between(k_release - 0.0005, k_release + 10.0, self.motion_code))
            in3 = [t for t in events if t < k_release + 3.0]
            best = {
                "flick": "200 mm/s for 150 ms, 2 fingers",
                "planned_duration_ms": float(m.group(1)) if m else None,
                "planned_v120": plan[0],
                "end": end[0] if end else None,
                "gesture_cpu_ms": round(c_release[0] - c0[0], 1),
                "gesture_run_ms": round((c_release[1] - c0[1]) / 1e6, 3),
                "first_3s": {"cpu_ms": round(c3[0] - c_release[0], 1), "run_ms": round((c3[1] - c_release[1]) / 1e6, 3),
                             "wheel_frames": len(in3)},
                "whole_coast": {"cpu_ms": round(c_end[0] - c_release[0], 1),
                                "run_ms": round((c_end[1] - c_release[1]) / 1e6, 3),
                                "wheel_frames": len(events),
                                "seconds": round(events[-1] - k_release, 3) if events else None},
            }
            wc = best["whole_coast"]
            if wc["wheel_frames"]:
                wc["run_us_per_frame"] = round(wc["run_ms"] * 1000 / wc["wheel_frames"], 1)
            break
        self.out["coast_cpu"] = best
        if best:
            self.note("coast CPU: first 3 s %.0f ms utime+stime (%.2f ms run time, %d wheel frames); whole %.2f s coast "
                      "%.0f ms (%.2f ms run, %d frames)" % (
                          best["first_3s"]["cpu_ms"], best["first_3s"]["run_ms"], best["first_3s"]["wheel_frames"],
                          best["whole_coast"]["seconds"] or 0, best["whole_coast"]["cpu_ms"], best["whole_coast"]["run_ms"],
                          best["whole_coast"]["wheel_frames"]))
        time.sleep(0.5)

    def many_flicks(self, daemon, pad, pid):
        S = self.S
        n = self.args.flicks
        coasted = stopped_by_touch = 0
        samples = []
        t0 = mono()
        for i in range(n):
            r, mark = self._flick(daemon, pad, "down" if i % 2 == 0 else "up", speed=250, duration=0.05)
            plan = S.coast_plan(daemon, mark, 2)
            pad.tap(hold=0.02)
            if plan is not None:
                coasted += 1
                end = S.coast_end(daemon, mark, 2)
                if end and end[0] == "touch":
                    stopped_by_touch += 1
            if (i + 1) % 100 == 0:
                s = proc_status(pid)
                roll = smaps_rollup(pid)
                samples.append({"flicks": i + 1, "VmRSS_kib": s["VmRSS"], "RssAnon_kib": s["RssAnon"],
                                "rss_kib": roll.get("Rss"), "pss_kib": roll.get("Pss")})
                self.note("  %4d flicks (%.0f s): VmRSS %d kB, RssAnon %d kB, coasted %d, stopped by the tap %d" % (
                    i + 1, mono() - t0, s["VmRSS"], s["RssAnon"], coasted, stopped_by_touch))
        self.out["flicks"] = {"count": n, "played": "250 mm/s for 50 ms (2 fingers, 10 ms frames), down and up in turn; "
                              "each coast stopped by a 20 ms one-finger tap as soon as flickd logged its plan",
                              "coasted": coasted, "stopped_by_touch": stopped_by_touch,
                              "seconds": round(mono() - t0, 1), "samples": samples}


# -- the RSS study ---------------------------------------------------------------------------

def set_fault_around(nbytes):
    """Sets the kernel's fault-around size (None: leaves it); returns the previous size."""
    path = "/sys/kernel/debug/fault_around_bytes"
    if not os.path.exists(path):
        subprocess.run(["mount", "-t", "debugfs", "none", "/sys/kernel/debug"], check=False)
    with open(path) as f:
        old = int(f.read())
    if nbytes is not None:
        with open(path, "w") as f:
            f.write(str(nbytes))
    return old


def drop_caches():
    # Each binary's file pages start cold, whatever the one before it touched.
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3")


def rss_study(args):
    S = None
    results = {"guest": guest_info(), "config": CONFIG, "runs": []}
    modes = {"default": [None], "off": [4096], "both": [None, 4096]}[args.fault_around]
    default_fa = set_fault_around(None)
    for spec in args.binaries:
        floor = spec.startswith("floor:")
        label, _, path = spec[6 if floor else 0:].partition("=")
        path = os.path.abspath(path)
        for fa in modes:
            if fa:
                set_fault_around(fa)
            drop_caches()
            run = {"label": label, "binary": path, "binary_bytes": os.path.getsize(path), "floor": floor,
                   "fault_around_bytes": fa or default_fa}
            try:
                if floor:
                    proc = subprocess.Popen([path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    time.sleep(2.0)
                    run["memory"] = memory(proc.pid, path, exe_name="program (binary)")
                    run["resident_pages"] = {}
                    run["sections"] = resident_sections(proc.pid, path, exe_name="program (binary)",
                                                        pages_out=run["resident_pages"])
                    proc.send_signal(signal.SIGTERM)
                    proc.wait(10)
                else:
                    S = S or load_scenarios()
                    run.update(_rss_one(S, path, label, args))
            except Exception as e:  # one variant failing does not stop the study
                run["error"] = "%s: %s" % (type(e).__name__, e)
            finally:
                if fa:
                    set_fault_around(default_fa)
            if "sections" in run:
                run["file_pages_by_kind_kib"], run["file_pages_by_object_kind_kib"] = sections_by_kind(run["sections"])
            s = run.get("memory", {}).get("status_kib", {})
            print("%-34s fault_around %-7s Rss %6s kB  VmRSS %6s kB  PSS %6s kB  anon %5s kB%s" % (
                label, run["fault_around_bytes"], run.get("memory", {}).get("rss_kib"), s.get("VmRSS"),
                run.get("memory", {}).get("pss_kib"),
                s.get("RssAnon"), ("  after %d flicks: VmRSS %s kB" % (args.flicks, run["after_flicks"]["VmRSS"])
                                   if "after_flicks" in run else "")
                + ("  working set: Rss %s kB" % run["working_set"]["after_flicks_and_idle"]["rss_kib"]
                   if "after_flicks_and_idle" in run.get("working_set", {}) else "")
                + ("  ERROR " + run["error"] if "error" in run else "")),
                  flush=True)
            results["runs"].append(run)
    results["default_fault_around_bytes"] = default_fa
    path = os.path.join(args.out, args.json)
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    print("wrote " + path)


def _rss_one(S, path, label, args):
    out = {}
    daemon = bench_flickd_class(S)(path, args.out, CONFIG, "rss-" + re.sub(r"[^\w.-]", "_", label))
    try:
        with S.open_pad(S.MANY_SLOTS, daemon) as pad:
            time.sleep(2.0)
            out["memory"] = memory(daemon.proc.pid, path)
            out["resident_pages"] = {}
            out["sections"] = resident_sections(daemon.proc.pid, path, pages_out=out["resident_pages"])
            coasted = 0
            for i in range(args.flicks):
                mark = daemon.mark()
                pad.flick("down" if i % 2 == 0 else "up", speed=250, duration=0.05)
                plan = S.coast_plan(daemon, mark, 2)
                pad.tap(hold=0.02)
                if plan is not None:
                    coasted += 1
                    S.coast_end(daemon, mark, 2)
            time.sleep(0.5)
            out["after_flicks"] = proc_status(daemon.proc.pid)
            roll = smaps_rollup(daemon.proc.pid)
            out["after_flicks"]["rss_kib"] = roll.get("Rss")
            out["after_flicks"]["pss_kib"] = roll.get("Pss")
            out["after_flicks"]["coasted"] = coasted
            if args.working_set:
                out["working_set"] = _working_set(S, daemon, pad, args.flicks)
    finally:
        out["exit_status"] = daemon.stop()
    return out


def _working_set(S, daemon, pad, flicks):
    """RSS once startup's pages are gone: process_madvise(MADV_PAGEOUT) on every mapping of
    flickd (the kernel reclaims the file pages only flickd maps; anonymous pages stay, the
    guest has no swap), then `flicks` flicks and 10 idle seconds: what flickd touches again."""
    pid = daemon.proc.pid
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    SYS_pidfd_open, SYS_process_madvise, MADV_PAGEOUT = 434, 440, 21

    class Iovec(ctypes.Structure):
        _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

    spans = [(a, b - a) for a, b, perms, off, path, f in smaps(pid)
             if path not in ("[vvar]", "[vdso]", "[vsyscall]")]
    before = proc_status(pid)
    pidfd = libc.syscall(SYS_pidfd_open, pid, 0)
    if pidfd < 0:
        return {"error": "pidfd_open: errno %d" % ctypes.get_errno()}
    advised, errors = 0, []
    try:
        for a, n in spans:          # one span at a time: a mapping the kernel refuses is skipped
            iov = Iovec(a, n)
            r = libc.syscall(SYS_process_madvise, pidfd, ctypes.byref(iov), 1, MADV_PAGEOUT, 0)
            if r < 0:
                errors.append(ctypes.get_errno())
            else:
                advised += r
    finally:
        os.close(pidfd)
    paged_out = proc_status(pid)
    for i in range(flicks):
        mark = daemon.mark()
        pad.flick("down" if i % 2 == 0 else "up", speed=250, duration=0.05)
        plan = S.coast_plan(daemon, mark, 2)
        pad.tap(hold=0.02)
        if plan is not None:
            S.coast_end(daemon, mark, 2)
    time.sleep(10)
    after = memory(pid, daemon.proc.args[0])
    return {"before_kib": before, "paged_out_kib": paged_out, "advised_bytes": advised,
            "refused_mappings": len(errors), "after_flicks_and_idle": after}


# -- timer jitter ----------------------------------------------------------------------------

class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def timer_jitter(seconds, rate):
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_TIMERSLACK, CLOCK_MONOTONIC, TIMER_ABSTIME = 29, 1, 1
    libc.prctl(PR_SET_TIMERSLACK, ctypes.c_ulong(1), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
    period = int(1e9 / rate)
    clock = time.clock_gettime_ns
    # The cost of reading the clock from Python, to set against the lateness.
    reads = []
    for _ in range(1000):
        a = clock(CLOCK_MONOTONIC)
        b = clock(CLOCK_MONOTONIC)
        reads.append(b - a)
    late, intervals = [], []
    last = clock(CLOCK_MONOTONIC)
    deadline = last + period
    ts = Timespec()
    for _ in range(int(seconds * rate)):
        ts.tv_sec, ts.tv_nsec = divmod(deadline, 1_000_000_000)
        libc.clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, ctypes.byref(ts), None)
        t = clock(CLOCK_MONOTONIC)
        late.append((t - deadline) / 1e9)
        intervals.append((t - last) / 1e9)
        last = t
        deadline = t + period      # like flickd: one period after the tick that ran
    # A fixed CPU-bound loop: its time here against the host's is the emulation's slowdown.
    t0 = time.perf_counter()
    x = 0
    for i in range(300_000):
        x += i * i % 7
    cpu_loop = time.perf_counter() - t0
    return {"where": "guest" if os.environ.get("E2E_GUEST") == "1" else "host", "rate": rate,
            "samples": len(late), "lateness_ms": summary_ms(late), "interval_ms": summary_ms(intervals, period / 1e9),
            "clock_read_us_p50": round(percentile(reads, 50) / 1000, 3),
            "cpu_loop_ms": round(cpu_loop * 1000, 1), "nproc": os.cpu_count(), "loadavg": guest_info().get("loadavg")}


# -- tables (on the host) --------------------------------------------------------------------

def _load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _fmt(v, unit="", nd=2):
    if v is None:
        return "-"
    if isinstance(v, float):
        v = ("%%.%df" % nd) % v
    return "%s%s" % (v, unit)


def _mb(kib):
    return "-" if kib is None else "%.1f MiB" % (kib / 1024.0)


def table(args):
    d = args.dir
    host = _load(os.path.join(d, "host-rss-study.json" if args.rss else "host.json")) or {}
    print("machine: %s CPUs, %s, kernel %s; %s; load %s -> %s" % (
        host.get("nproc"), host.get("cpu_model"), host.get("kernel"), host.get("qemu"),
        " ".join(host.get("loadavg_start", [])), " ".join(host.get("loadavg_end", []))))
    print("date %s, commit %s" % (host.get("date"), host.get("commit")))
    if args.rss:
        rss_table(d)
        return
    labels = args.labels.split(",") if args.labels else ("baseline", "release", "dynamic", "debug")
    benches = [b for b in (_load(os.path.join(d, "bench-%s.json" % l)) for l in labels) if b]
    if not benches:
        sys.exit("no bench-*.json in " + d)
    g = benches[0]["guest"]
    print("guest: %s vCPUs (%s), kernel %s, QEMU TCG" % (g.get("nproc"), g.get("cpu_model"), g.get("kernel")))
    rows = []

    def mem(m):
        if not m:
            return "-"
        if m.get("rss_anon_kib") is None:   # results of an older bench.py
            return "%s VmRSS (Rss %s), %s PSS" % (_mb(m["status_kib"]["VmRSS"]), _mb(m.get("rss_kib")), _mb(m["pss_kib"]))
        return "Rss %s (anon %d kB, file %d kB), PSS %s (anon %d, file %d)" % (
            _mb(m["rss_kib"]), m["rss_anon_kib"], m["rss_file_kib"], _mb(m["pss_kib"]), m["pss_anon_kib"],
            m["pss_file_kib"])

    def diff(a, b):
        if not a or not b or a.get("rss_anon_kib") is None or b.get("rss_anon_kib") is None:
            return "-"
        return "Rss %+d kB (anon %+d, file %+d), PSS %+d kB (anon %+d, file %+d)" % (
            a["rss_kib"] - b["rss_kib"], a["rss_anon_kib"] - b["rss_anon_kib"], a["rss_file_kib"] - b["rss_file_kib"],
            a["pss_kib"] - b["pss_kib"], a["pss_anon_kib"] - b["pss_anon_kib"], a["pss_file_kib"] - b["pss_file_kib"])

    rows.append(("Start-up (exec -> READY=1)", ["%s ms" % _fmt(b["startup_ms"]) if b.get("startup_ms") is not None
                                                else "no READY=1 within 30 s" for b in benches]))
    rows.append(("flickd's exit status at the stop (SIGTERM)", ["%s" % b.get("exit_status", "-") for b in benches]))
    rows.append(("RSS after start (1 touchpad open)", [mem(b["memory_start"]) for b in benches]))
    if any(b.get("floor") for b in benches):
        rows.append(("Floor program after start (same boot)", [mem(b.get("floor", {}).get("memory_start")) for b in benches]))
        rows.append(("  flickd - floor, after start", [diff(b["memory_start"], b.get("floor", {}).get("memory_start"))
                                                       for b in benches]))
        rows.append(("Floor program after its flicks", ["%s after %s flicks" % (
            mem(b.get("floor", {}).get("memory_after_flicks")), b.get("floor", {}).get("flicks")) for b in benches]))
        rows.append(("Floor program start-up (exec -> ready)", ["%s ms" % _fmt(b.get("floor", {}).get("startup_ms"))
                                                                for b in benches]))
    rows.append(("RSS after %d flicks" % benches[0]["flicks"]["count"],
                 ["%s (Rss %s kB; %d of %d coasted, %d stopped by the tap)" % (
                     mem(b["memory_after_flicks"]),
                     "%+d" % (b["memory_after_flicks"]["rss_kib"] - b["memory_start"]["rss_kib"])
                     if b["memory_after_flicks"].get("rss_kib") is not None and b["memory_start"].get("rss_kib") is not None
                     else "?",
                     b["flicks"]["coasted"], b["flicks"]["count"], b["flicks"]["stopped_by_touch"]) for b in benches]))
    rows.append(("  Rss after - after start", [diff(b["memory_after_flicks"], b["memory_start"]) for b in benches]))
    if any(b.get("memory_after_reloads") for b in benches):
        rows.append(("RSS after %s configuration reloads" % benches[-1].get("reloads", {}).get("count"), [
            "%s (%s logged)" % (mem(b.get("memory_after_reloads")), b.get("reloads", {}).get("done")) for b in benches]))
        rows.append(("  Rss after reloads - after 10 reloads", [diff(b.get("memory_after_reloads"), b.get("memory_after_10_reloads"))
                                                               for b in benches]))
        rows.append(("  Rss after reloads - after the flicks", [diff(b.get("memory_after_reloads"), b["memory_after_flicks"])
                                                               for b in benches]))
    rows.append(("Idle wake-ups (10 s)", ["%s/s after start, %s/s after the flicks" % (
        b["idle_start"]["per_second"], b["idle_after_flicks"]["per_second"]) for b in benches]))
    rows.append(("CPU, first 3 s of a coast", ["%s ms utime+stime (%s ms run time, %d wheel frames)" % (
        _fmt(b["coast_cpu"]["first_3s"]["cpu_ms"], nd=0), _fmt(b["coast_cpu"]["first_3s"]["run_ms"], nd=1),
        b["coast_cpu"]["first_3s"]["wheel_frames"]) if b.get("coast_cpu") else "-" for b in benches]))
    rows.append(("CPU, whole coast", ["%s ms (%s ms run; %s s, %d frames, %s us/frame)" % (
        _fmt(b["coast_cpu"]["whole_coast"]["cpu_ms"], nd=0), _fmt(b["coast_cpu"]["whole_coast"]["run_ms"], nd=1),
        _fmt(b["coast_cpu"]["whole_coast"]["seconds"]), b["coast_cpu"]["whole_coast"]["wheel_frames"],
        _fmt(b["coast_cpu"]["whole_coast"].get("run_us_per_frame"), nd=0)) if b.get("coast_cpu") else "-"
        for b in benches]))
    def latency(l):
        return "p50 %s, p99 %s, min %s, max %s ms (n=%d)" % (
            _fmt(l["p50"]), _fmt(l["p99"]), _fmt(l["min"]), _fmt(l["max"]), l["n"]) if l else "-"

    rows.append(("Release -> first output event, all flicks", ["%s; %s of %s timing flicks without a coast" % (
        latency(b["latency_ms"]), b["latency_ms"].get("flicks_without_coast", "?"),
        b["latency_ms"]["n"] + b["latency_ms"].get("flicks_without_coast", 0)) for b in benches]))
    if any(b.get("latency_landing_ms") for b in benches):
        # The virtual touchpad: a first frame that lands fingers is flickd's own latency; one
        # that continues fingers still down is due a frame period (8 ms) after the release.
        rows.append(("  first frame a landing (fingers were up)", [latency(b.get("latency_landing_ms")) for b in benches]))
        rows.append(("  first frame continuing resting fingers", ["%s%s" % (
            latency(b.get("latency_continuing_ms")),
            "; %d stop(s) whose lift was not seen within 2 s" % b["latency_ms"]["lift_not_seen"]
            if b["latency_ms"].get("lift_not_seen")
            else "") for b in benches]))
    rows.append(("Tick interval (first 300 ms)", ["p50 %s, p99 %s ms vs %s; |dev| p50 %s, p99 %s (n=%d)" % (
        _fmt(b["tick_interval_ms"]["p50"]), _fmt(b["tick_interval_ms"]["p99"]), _fmt(b["tick_interval_ms"]["nominal"]),
        _fmt(b["tick_jitter_ms"]["p50"]), _fmt(b["tick_jitter_ms"]["p99"]), b["tick_interval_ms"]["n"]) for b in benches]))
    rows.append(("vdev player lateness (max per gesture)", ["p50 %s, p99 %s, max %s ms" % (
        _fmt(b["player_max_late_ms"]["p50"]), _fmt(b["player_max_late_ms"]["p99"]), _fmt(b["player_max_late_ms"]["max"]))
        for b in benches]))
    rows.append(("Guest timer lateness (clock_nanosleep)", ["p50 %s, p99 %s, max %s ms" % (
        _fmt(b["timer"]["lateness_ms"]["p50"]), _fmt(b["timer"]["lateness_ms"]["p99"]), _fmt(b["timer"]["lateness_ms"]["max"]))
        for b in benches]))
    ht = host.get("host_timer")
    if ht:
        rows.append(("Host timer lateness (same loop)", ["p50 %s, p99 %s, max %s ms; CPU loop %s ms here vs %s ms in the guest" % (
            _fmt(ht["lateness_ms"]["p50"]), _fmt(ht["lateness_ms"]["p99"]), _fmt(ht["lateness_ms"]["max"]),
            ht["cpu_loop_ms"], b["timer"]["cpu_loop_ms"]) for b in benches]))
    rows.append(("Guest time", ["%s s" % b["guest_seconds"] for b in benches]))
    width = max(len(r[0]) for r in rows)
    print("%-*s | %s" % (width, "", " | ".join("%s (%.1f MB binary)" % (b["label"], b["binary_bytes"] / 1e6)
                                               for b in benches)))
    for name, cells in rows:
        print("%-*s | %s" % (width, name, " | ".join(cells)))
    print("JSON: " + ", ".join(os.path.join(d, "bench-%s.json" % b["label"]) for b in benches))


def rss_table(d):
    study = _load(os.path.join(d, "rss-study.json"))
    if not study:
        sys.exit("no rss-study.json in " + d)
    default_fa = study.get("default_fault_around_bytes")
    by = {}
    for r in study["runs"]:
        by.setdefault(r["label"], {})[r["fault_around_bytes"]] = r
    print("MiB (1024 kB). Rss: smaps_rollup; no fault-around: fault_around_bytes 4096; working set: Rss after "
          "MADV_PAGEOUT, flicks and 10 idle s")
    print("%-36s %9s %8s %8s %8s %8s %9s %8s  %s" % ("variant", "binary", "Rss", "VmRSS", "PSS", "anon",
                                                   "no f-a", "working", "largest (fault-around on)"))
    for label, runs in by.items():
        on, off = runs.get(default_fa), runs.get(4096)
        r = on or off
        if "error" in r:
            print("%-36s ERROR %s" % (label, r["error"][:100]))
            continue
        m = r["memory"]
        top = sorted(m["by_mapping"].items(), key=lambda kv: -kv[1]["rss_kib"])[:4]
        ws = (on or {}).get("working_set", {}).get("after_flicks_and_idle")
        size = r["binary_bytes"]
        print("%-36s %9s %8s %8s %8s %8s %9s %8s  %s" % (
            label, "%.1f MB" % (size / 1e6) if size >= 1e6 else "%d kB" % (size / 1000),
            _mb(m.get("rss_kib")), _mb(m["status_kib"]["VmRSS"]), _mb(m["pss_kib"]),
            _mb(m["status_kib"]["RssAnon"]), _mb(off["memory"].get("rss_kib")) if off and "memory" in off else "-",
            _mb(ws.get("rss_kib")) if ws else "-",
            ", ".join("%s %.1f" % (k, v["rss_kib"] / 1024.0) for k, v in top)))
    kinds = ["code", "symbol tables", "relocation tables", "relocated data", "read-only data", "Swift metadata",
             "unwind tables", "ICU data", "other"]
    for fa, title in ((default_fa, "fault-around on (%s bytes)" % default_fa), (4096, "fault-around off")):
        print("\nresident pages of file mappings by ELF section kind (MB; relocated pages count here and, once "
              "copied on write, in anon too), %s" % title)
        short = {"symbol tables": "symtabs", "relocation tables": "relocs", "relocated data": "reloc'd",
                 "read-only data": "rodata", "Swift metadata": "swift md", "unwind tables": "unwind"}
        print("%-36s %s %7s" % ("variant", " ".join("%9s" % short.get(k, k) for k in kinds), "anon"))
        for label, runs in by.items():
            r = runs.get(fa)
            if not r or "sections" not in r:
                continue
            k = r.get("file_pages_by_kind_kib") or sections_by_kind(r["sections"])[0]
            print("%-36s %s %7.1f" % (label, " ".join("%9.1f" % (k.get(x, 0) / 1024.0) for x in kinds),
                                      r["memory"]["status_kib"]["RssAnon"] / 1024.0))
    print("JSON: " + os.path.join(d, "rss-study.json"))


def _code_owner(name):
    """Who a code symbol belongs to: a Swift module (from the mangled name), the Swift runtime,
    CoreFoundation, ICU, C++ or C."""
    m = re.match(r"\$s(\d+)", name)
    if m:
        n = int(m.group(1))
        return "Swift " + name[len(m.group(0)):len(m.group(0)) + n]
    if name.startswith("$ss") or name.startswith("$s"):
        return "Swift stdlib"
    if name.startswith(("swift_", "_swift", "swift::")) or "swift" in name[:12]:
        return "Swift runtime"
    if name.startswith(("CF", "_CF", "__CF")):
        return "CoreFoundation"
    if "icu_" in name or name.startswith(("u_", "ucal_", "ures_", "uloc_", "ucol_", "udat_")):
        return "ICU"
    if name.startswith("_Z"):
        return "C++"
    return "C"


def code_pages(args):
    """Resident code pages (kB) of each object by the owner of the symbols in them: what ran
    (or sat within fault-around of what ran) at startup. Uses `nm` and `readelf` on the host."""
    study = _load(args.json)
    if not study:
        sys.exit("cannot read " + args.json)
    runs = [r for r in study["runs"] if r["label"] == args.label and "resident_pages" in r
            and (args.fault_around is None or r["fault_around_bytes"] == args.fault_around)]
    if not runs:
        sys.exit("no run %s with resident pages in %s" % (args.label, args.json))
    run = runs[-1]
    print("%s, fault_around_bytes %s: resident code pages (.text) by the owner of the symbols in each page"
          % (args.label, run["fault_around_bytes"]))
    for obj, info in sorted(run["resident_pages"].items(), key=lambda kv: -sum(n for _, n in kv[1]["ranges"])):
        path = info["path"]
        text = elf_section(path, ".text")
        try:
            nm = subprocess.run(["nm", "-n", "--defined-only", path], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        if not text:
            continue
        t_off, t_size, t_addr = text
        syms = []
        for line in nm.splitlines():
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[1] in "tTwW":
                syms.append((int(parts[0], 16), parts[2]))
        addrs = [a for a, _ in syms]
        owners = {}
        for off, n in info["ranges"]:
            for k in range(n):
                page = off + k * PAGE
                if not (t_off - PAGE < page < t_off + t_size):
                    continue
                va = t_addr + page - t_off
                lo = max(0, bisect.bisect_right(addrs, va) - 1)
                hi = bisect.bisect_left(addrs, va + PAGE)
                counts = {}
                for j in range(lo, max(hi, lo + 1)):
                    if j < len(syms):
                        who = _code_owner(syms[j][1])
                        counts[who] = counts.get(who, 0) + 1
                if counts:
                    who = max(counts, key=counts.get)
                    owners[who] = owners.get(who, 0) + PAGE // 1024
        if owners:
            print("  %-36s %6d kB: %s" % (obj, sum(owners.values()), ", ".join(
                "%s %d" % kv for kv in sorted(owners.items(), key=lambda kv: -kv[1]))))


def _owner(name):
    """Who a symbol belongs to, for the anatomy: a Swift module (Swift-mangled names carry it),
    the standard library (its Unicode data tables apart), the Swift runtime, toml++ and its
    bridge (the configuration parser), json-c (sway's answers), other C++, or C."""
    if name.startswith("_swift_stdlib_") or name.startswith("__swift_stdlib_"):
        return "stdlib Unicode data"
    m = re.match(r"_?\$s(\d+)", name)
    if m:
        module = name[len(m.group(0)):len(m.group(0)) + int(m.group(1))]
        return "Swift stdlib" if module == "s" else "Swift " + module
    if name.startswith(("$s", "_$s")):
        return "Swift stdlib"
    if name.startswith(("_ZN4toml", "ctoml")) or "toml" in name[:16]:
        return "toml++ and its bridge (configuration)"
    if name.startswith(("json_", "_json_", "lh_", "printbuf_", "array_list_")):
        return "json-c (sway's answers)"
    if name.startswith(("swift_", "_swift", "_ZN5swift", "_ZNK5swift", "__swift")) or "swift" in name[:12]:
        return "Swift runtime"
    if name.startswith("_Z"):
        return "C++ (other)"
    return "C"


def anatomy(args):
    """flickd's (or the floor's) resident pages after start, from a bench-LABEL.json: by mapping,
    each file mapping by ELF section kind, and the binary's own pages by section and by the
    owner of the symbols in each page (`nm -n` on the host; a page goes to whoever has most
    symbols starting in it, or the symbol it lies inside)."""
    d = _load(args.json)
    if not d:
        sys.exit("cannot read " + args.json)
    if args.floor:
        d = d.get("floor") or sys.exit("no floor run in " + args.json)
    m, sections, pages = d.get("memory_start"), d.get("sections_start"), d.get("resident_pages_start")
    if not m or sections is None or pages is None:
        sys.exit("%s has no memory_start/sections_start (run bench.py run from this commit on)" % args.json)
    print("Rss %d kB (anon %s, file %s), PSS %d kB" % (m["rss_kib"], m.get("rss_anon_kib"), m.get("rss_file_kib"), m["pss_kib"]))
    print("\nby mapping (kB)            Rss    PSS   anon  what")
    for name, g in m["by_mapping"].items():
        kinds = sections_by_kind({name: sections[name]})[0] if name in sections else {}
        print("  %-24s %6d %6d %6d  %s" % (name[:24], g["rss_kib"], g["pss_kib"], g["anon_kib"],
                                           ", ".join("%s %d" % kv for kv in kinds.items())))
    exe = [o for o in pages if o.endswith("(binary)")]
    if not exe:
        return
    obj = exe[0]
    path = pages[obj]["path"]
    layout, _ = elf_layout(path)
    nm = subprocess.run(["nm", "-n", "-S", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    syms = []
    for line in nm.splitlines():
        parts = line.split()
        try:
            if len(parts) == 4:
                syms.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
            elif len(parts) == 3:
                syms.append((int(parts[0], 16), 0, parts[2]))
        except ValueError:
            # A linked-with---emit-relocs binary keeps the assembler's local string labels,
            # whose names hold the strings, newlines included: not a symbol line.
            continue
    syms.sort()
    addrs = [a for a, _, _ in syms]
    # File offset -> address, per section (elf_layout gives offsets; elf_section the address).
    addr_of = {}
    for name, off, size in layout:
        sec = elf_section(path, name)
        if sec:
            addr_of[name] = sec[2] - sec[0]
    table = {}
    for off, n in pages[obj]["ranges"]:
        for k in range(n):
            page = off + k * PAGE
            sect = _section_of(page, layout, [])
            kind = section_kind(sect)
            if sect.startswith("swift5_"):
                who = "Swift metadata records (%s)" % sect
            elif sect in addr_of and kind in ("code", "read-only data", "relocated data", "other"):
                va = page + addr_of[sect]
                lo = bisect.bisect_right(addrs, va) - 1
                hi = bisect.bisect_left(addrs, va + PAGE)
                counts = {}
                for j in range(max(lo, 0), max(hi, lo + 1)):
                    if 0 <= j < len(syms):
                        a, size, nmx = syms[j]
                        if a < va and a + size <= va and j == lo and hi > lo + 1:
                            continue   # ends before this page, and others start in it
                        w = _owner(nmx)
                        counts[w] = counts.get(w, 0) + 1
                who = max(counts, key=counts.get) if counts else "(no symbol)"
            else:
                who = "(%s)" % sect
            key = (kind, who)
            table[key] = table.get(key, 0) + PAGE // 1024
    print("\n%s (%s): resident pages by section kind and owner (kB)" % (obj, os.path.basename(path)))
    by_kind = {}
    for (kind, who), kib in table.items():
        by_kind.setdefault(kind, []).append((kib, who))
    for kind, items in sorted(by_kind.items(), key=lambda kv: -sum(k for k, _ in kv[1])):
        print("  %-18s %6d: %s" % (kind, sum(k for k, _ in items), ", ".join(
            "%s %d" % (w, k) for k, w in sorted(items, reverse=True))))
    owners = {}
    for (kind, who), kib in table.items():
        owners[who] = owners.get(who, 0) + kib
    print("  by owner: " + ", ".join("%s %d" % (w, k) for w, k in sorted(owners.items(), key=lambda kv: -kv[1])))


def order_file(args):
    """The symbols of flickd's binary that lie in pages it touched (a `run --fault-around off`
    JSON: the pages resident at start and after the flicks and reloads), in address order: an
    lld --symbol-ordering-file that packs what flickd uses at start and in use together, so
    that the pages around each fault (the kernel maps up to 64 KiB of them) are useful ones."""
    d = _load(args.json)
    if not d or d.get("fault_around") != "off":
        sys.exit("%s is not a `bench.py run --fault-around off` result" % args.json)
    ranges = []
    path = None
    for key in ("resident_pages_start", "resident_pages_end"):
        for obj, info in (d.get(key) or {}).items():
            if obj.endswith("(binary)"):
                path = info["path"]
                ranges += info["ranges"]
    if not path:
        sys.exit("no resident pages of the binary in " + args.json)
    touched = set()
    for off, n in ranges:
        for k in range(n):
            touched.add(off + k * PAGE)
    layout, _ = elf_layout(path)
    addr_of = {}
    for name, off, size in layout:
        sec = elf_section(path, name)
        if sec:
            addr_of[name] = (sec[0], sec[1], sec[2])
    nm = subprocess.run(["nm", "-n", "-S", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    out, seen = [], set()
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[2] not in "tTrRdDbB":
            continue
        addr, size, name = int(parts[0], 16), int(parts[1], 16), parts[3]
        for sname, (off, ssize, saddr) in addr_of.items():
            if saddr <= addr < saddr + ssize:
                first = (off + addr - saddr) // PAGE * PAGE
                last = (off + addr - saddr + max(size, 1) - 1) // PAGE * PAGE
                if any(p in touched for p in range(first, last + PAGE, PAGE)) and name not in seen:
                    seen.add(name)
                    out.append(name)
                break
    sys.stdout.write("".join(n + "\n" for n in out))
    print("%d symbols in %d touched pages of %s" % (len(out), len(touched), path), file=sys.stderr)


def startup(args):
    """Start-up time (exec -> READY=1) of each LABEL=PATH, --runs times each, in turn (A, B, A,
    B, ...), with a warm page cache (the binary read once before) and, with --cold, also after
    dropping it. Each flickd runs with the bench's configuration and is stopped by SIGTERM."""
    progs = [spec.partition("=")[::2] for spec in args.binaries]
    out = {"runs": args.runs, "results": {}}
    config = os.path.join(args.out, "startup.toml")
    with open(config, "w") as f:
        f.write(CONFIG)
    for cold in ([False, True] if args.cold else [False]):
        for label, path in progs:   # one start each first: warm cache for every binary
            subprocess.run(["cat", path], stdout=subprocess.DEVNULL)
        for i in range(args.runs):
            for label, path in progs:
                if cold:
                    drop_caches()
                with ReadyListener() as ready:
                    t0 = mono()
                    proc = subprocess.Popen([path, "run", "--config", config],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    ms = ready.wait_ms(t0, 30)
                    proc.send_signal(signal.SIGTERM)
                    proc.wait(15)
                out["results"].setdefault("%s %s" % (label, "cold" if cold else "warm"), []).append(ms)
                time.sleep(0.3)
    for key, values in out["results"].items():
        ok = sorted(v for v in values if v is not None)
        print("%-24s exec -> READY=1: median %.1f ms, min %.1f, max %.1f (n=%d)" % (
            key, percentile(ok, 50), ok[0], ok[-1], len(ok)), flush=True)
    with open(os.path.join(args.out, "startup.json"), "w") as f:
        json.dump(out, f, indent=1)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="the daemon benchmark")
    r.add_argument("--flickd", required=True)
    r.add_argument("--label", default="release")
    r.add_argument("--out", default=os.environ.get("E2E_RESULTS") or os.environ.get("E2E_TMP", "/tmp"))
    r.add_argument("--flicks", type=int, default=1000)
    r.add_argument("--timing-flicks", type=int, default=40)
    r.add_argument("--reloads", type=int, default=100, help="configuration reloads after the flicks")
    r.add_argument("--floor", help="the floor program (Benchmarks/Floor), measured first in the same boot")
    r.add_argument("--floor-flicks", type=int, default=100)
    r.add_argument("--fault-around", choices=["default", "off"], default="default",
                   help="off: the kernel maps only the file pages flickd touches (for order-file)")
    s = sub.add_parser("rss", help="the RSS study")
    s.add_argument("binaries", nargs="+", metavar="[floor:]LABEL=PATH")
    s.add_argument("--out", default=os.environ.get("E2E_RESULTS") or os.environ.get("E2E_TMP", "/tmp"))
    s.add_argument("--flicks", type=int, default=20)
    s.add_argument("--fault-around", choices=["default", "off", "both"], default="default")
    s.add_argument("--json", default="rss-study.json", help="the file written in --out")
    s.add_argument("--working-set", action="store_true",
                   help="then page flickd's mappings out (process_madvise MADV_PAGEOUT), play the flicks again "
                        "and wait 10 s: the pages it touches in use")
    tb = sub.add_parser("table", help="print the results in DIR as a table (on the host)")
    tb.add_argument("dir")
    tb.add_argument("--rss", action="store_true", help="the RSS study's table")
    tb.add_argument("--labels", help="the runs to show, comma-separated (default: baseline,release,dynamic,debug)")
    cp = sub.add_parser("code-pages", help="resident code pages by symbol owner, from an rss JSON (on the host)")
    cp.add_argument("json")
    cp.add_argument("label")
    cp.add_argument("--fault-around", type=int, default=None, help="fault_around_bytes of the run (4096 or 65536)")
    an = sub.add_parser("anatomy", help="resident pages by mapping, section and owner, from a bench JSON (on the host)")
    an.add_argument("json")
    an.add_argument("--floor", action="store_true", help="the floor program's pages, not flickd's")
    of = sub.add_parser("order-file", help="lld symbol ordering from a `run --fault-around off` JSON (on the host)")
    of.add_argument("json")
    su = sub.add_parser("startup", help="start-up time (exec -> READY=1) of each binary, in turn")
    su.add_argument("binaries", nargs="+", metavar="LABEL=PATH")
    su.add_argument("--runs", type=int, default=10)
    su.add_argument("--cold", action="store_true", help="also with the page cache dropped before each start")
    su.add_argument("--out", default=os.environ.get("E2E_RESULTS") or os.environ.get("E2E_TMP", "/tmp"))
    t = sub.add_parser("timer", help="timer jitter and CPU speed where this runs")
    t.add_argument("--seconds", type=float, default=5.0)
    t.add_argument("--rate", type=float, default=120.0)
    args = p.parse_args()
    if args.cmd == "run":
        args.flickd = os.path.abspath(args.flickd)
        os.makedirs(args.out, exist_ok=True)
        Bench(args).run()
    elif args.cmd == "rss":
        os.makedirs(args.out, exist_ok=True)
        rss_study(args)
    elif args.cmd == "table":
        table(args)
    elif args.cmd == "code-pages":
        code_pages(args)
    elif args.cmd == "anatomy":
        anatomy(args)
    elif args.cmd == "order-file":
        order_file(args)
    elif args.cmd == "startup":
        os.makedirs(args.out, exist_ok=True)
        startup(args)
    else:
        print(json.dumps(timer_jitter(args.seconds, args.rate)))


if __name__ == "__main__":
    main()
