#!/usr/bin/env bash
# The Debian package for real, in the QEMU guest (Tests/E2E/guest), with a real systemd user
# manager running flickd.service from /usr/bin.
#
#   Tests/E2E/package-guest-test.sh [--deb FILE]
#
# On the host it builds the package (scripts/package into .cache/package-test), unless --deb
# names one, and a next version of it for the upgrade: the same binary packaged with the next
# Debian revision (scripts/package --binary --revision into .cache/package-test-next; so a
# --deb FILE must hold a binary of this tree's version); then it boots the guest and runs
# itself there. In the guest (root, writable overlay root whose lower layer is the host's /,
# udevd running, no systemd as PID 1) it
#   - starts journald and a systemd user manager for a new user "tester" who is in the input
#     group (as the README asks of a user installing the package), as logind would at login;
#   - runs the package's postinst with modprobe and udevadm stood in for: in a container
#     (/run/.containerenv, /.dockerenv, or /run/systemd/container, which systemd-detect-virt
#     reads) it runs neither and says nothing; outside one it runs both. (The guest is no
#     container, but its root is the host's, which may be a Docker container's: the test
#     removes /.dockerenv from the guest's overlay, not from the host);
#   - unloads uinput, then runs `apt-get install /path/to/flickd_*.deb` offline: the guest has
#     no network, and apt is pointed at an empty package-list directory, so the dependencies
#     must be among the installed packages (`--no-download` is no help: apt 2.6 then refuses
#     a local .deb with "Pathname to install is not absolute");
#   - checks the files (the udev rule's comment: its source's, with where it is installed
#     said anew), that postinst loaded uinput and applied the udev rule (uaccess tag), said
#     nothing of an upgrade, that the unit passes `systemd-analyze verify`, that nothing was
#     enabled or started;
#   - as tester: `systemctl --user enable --now flickd` (what the README says), the service is
#     active from /usr/bin/flickd with its default output, the virtual touchpad, and a
#     two-finger flick on a virtual T440 coasts: libinput reads finger scrolling from flickd's
#     virtual touchpad after the real pad's release, the way the fingers went, ending in a
#     scroll stop, and no button or pointer motion from it;
#   - the upgrade: `apt-get install` of the next version while tester's service runs; postinst
#     says that running services keep their old version until their user restarts them, and
#     how; the service runs on from the old, deleted binary (the package restarts nothing);
#     the command postinst gives, run as tester, moves it to the new /usr/bin/flickd;
#     `dpkg-reconfigure flickd` (no version changed) says nothing of a change;
#   - `man flickd`, `man flickd-run` and `man -l` render; the completions load in bash;
#   - `apt-get remove` leaves tester's running service and ~/.config alone, and after the
#     user stops it, `apt-get purge` leaves no file of the package behind: none of the files
#     dpkg listed, no path named *flickd* where packages put files, and the udev,
#     modules-load and systemd directories as before the install.
# Do not install Debian packages on the host while this runs: the guest sees the host's /
# live, and a half-done host dpkg run makes the guest's apt refuse to work.
# The flick uses the repository's own description of a Synaptics T440 pad
# (Tests/Fixtures/devices). Without logind nothing applies uaccess ACLs in the
# guest, so the test grants tester /dev/uinput itself (as logind would for the active session).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
pad_description=synaptics-t440.device

if [ "${1:-}" != --in-guest ]; then
    deb=""
    case "${1:-}" in
        --deb) deb=${2:?--deb needs a file} ;;
        "") ;;
        *) echo "usage: $0 [--deb FILE]" >&2; exit 2 ;;
    esac
    next_args=()
    if [ -z "$deb" ]; then
        out=$repo/.cache/package-test
        rm -rf "$out"
        deb=$("$repo/scripts/package" --output "$out")
        next_args+=(--no-deps)  # the build just installed them
    fi
    deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
    # The next version: the package's own binary under the next Debian revision (N+1 after a
    # numeric revision N, else N with "+1" appended, which dpkg sorts after N too).
    version=$(dpkg-deb -f "$deb" Version)
    revision=${version##*-}
    case "$revision" in
        *[!0-9]*) next=$revision+1 ;;
        *) next=$((revision + 1)) ;;
    esac
    next_out=$repo/.cache/package-test-next
    rm -rf "$next_out"
    mkdir -p "$next_out/binary"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$next_out/binary" ./usr/bin/flickd
    upgrade=$("$repo/scripts/package" "${next_args[@]}" --binary "$next_out/binary/usr/bin/flickd" \
        --revision "$next" --output "$next_out")
    devices=$repo/Tests/Fixtures/devices
    "$here/guest" setup
    exec "$here/guest" run --timeout 900 -- "$here/package-guest-test.sh" --in-guest "$deb" "$devices" "$upgrade"
fi

# ------------------------------------------------------------------------------- in the guest ---
deb=$2
devices=${3:-}
upgrade=${4:-}
[ "${E2E_GUEST:-}" = 1 ] || { echo "--in-guest is for the e2e guest" >&2; exit 2; }
# shellcheck source=checks.sh
. "$here/checks.sh"
export DEBIAN_FRONTEND=noninteractive

# The guest's root is the host's live / under an overlay, and the host may install packages of
# its own while this runs, so "no file left behind" is judged on what could be flickd's: every
# path whose name contains "flickd" where packages and maintainer scripts put things (the
# whole of /usr takes minutes to walk over 9p under emulation), and every file in the udev,
# modules-load and systemd directories. Prints them sorted.
snapshot() {
    {
        find /usr/bin /usr/sbin /usr/lib/systemd /usr/lib/udev /usr/lib/modules-load.d /usr/local \
            /usr/share/doc /usr/share/man /usr/share/bash-completion /usr/share/zsh /usr/share/fish \
            /etc /var/lib/dpkg/info /var/lib/systemd /var/cache/debconf -xdev -iname '*flickd*' 2>/dev/null
        find /usr/lib/systemd/user /usr/lib/udev/rules.d /usr/lib/modules-load.d /etc/udev \
            /etc/modules-load.d /etc/systemd /var/lib/systemd -xdev \( -type f -o -type l \) 2>/dev/null
    } | LC_ALL=C sort -u
}

# apt reads no package lists here: it resolves the .deb's dependencies against what is
# installed, so it cannot reach for the network (the guest has none), and it skips parsing
# the host's lists, which takes minutes over 9p under emulation.
mkdir -p "$E2E_TMP/apt-lists/partial"
apt_offline() {
    apt-get -o Dir::State::Lists="$E2E_TMP/apt-lists" -o Dir::Cache::pkgcache= \
        -o Dir::Cache::srcpkgcache= "$@"
}

# A user manager for "tester", in its own delegated cgroup, as user@.service would start it,
# and journald. tester joined the input group before logging in, as the README says.
start_user_manager input
# tester's own configuration, which removing the package must leave alone.
as_tester mkdir -p /home/tester/.config/flickd
printf '[scroll]\nspeed = 30\n' | as_tester tee /home/tester/.config/flickd/config.toml >/dev/null

before=$(snapshot)
echo "  (snapshot of $(echo "$before" | wc -l) files taken at $SECONDS s)"

# postinst is to load uinput: take it away first (stage2 loaded it), when nothing holds it.
uinput_unloaded=0
if rmmod uinput 2>/dev/null; then uinput_unloaded=1; fi

# The package's postinst in a container and out of one, with modprobe and udevadm stood in for
# (each logs its arguments and fails, as modprobe does in a container): nothing real is loaded
# or reloaded. The guest is no container, but its root is the host's, which may carry Docker's
# mark; the guest's overlay drops it (the host keeps its own).
rm -f /.dockerenv /run/.containerenv /run/systemd/container
mkdir -p "$E2E_TMP/control" "$E2E_TMP/stubs"
dpkg-deb -e "$deb" "$E2E_TMP/control"
for tool in modprobe udevadm; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$tool" "$E2E_TMP/stub-calls" >"$E2E_TMP/stubs/$tool"
    chmod 0755 "$E2E_TMP/stubs/$tool"
done
postinst_in() {  # MARK CONTENT: postinst configure (a first install) with MARK present ("" none)
    local mark=$1
    if [ -n "$mark" ]; then mkdir -p "$(dirname "$mark")" && printf '%s' "$2" >"$mark"; fi
    : >"$E2E_TMP/stub-calls"
    PATH="$E2E_TMP/stubs:$PATH" sh "$E2E_TMP/control/postinst" configure "" >"$E2E_TMP/postinst.out" 2>&1
    local status=$?
    if [ -n "$mark" ]; then rm -f "$mark"; fi
    return "$status"
}
echo "== postinst in a container and out of one ($SECONDS s)"
for mark in /run/.containerenv /.dockerenv /run/systemd/container; do
    content=""; [ "$mark" = /run/systemd/container ] && content=lxc
    check "postinst exits 0 with $mark" postinst_in "$mark" "$content"
    check "in a container ($mark) postinst runs neither modprobe nor udevadm$(tr '\n' ';' <"$E2E_TMP/stub-calls" | sed 's/^./, ran: &/')" \
        test ! -s "$E2E_TMP/stub-calls"
    check "in a container ($mark) postinst says nothing$(tr '\n' ';' <"$E2E_TMP/postinst.out" | sed 's/^./, said: &/')" \
        test ! -s "$E2E_TMP/postinst.out"
done
check "postinst exits 0 outside a container" postinst_in "" ""
check "outside a container postinst reloads the udev rules and applies them to /dev/uinput" \
    bash -c 'grep -qx "udevadm control --reload" "$0" && grep -q "^udevadm trigger .*--sysname-match=uinput" "$0"' "$E2E_TMP/stub-calls"
if [ "$uinput_unloaded" = 1 ]; then
    check "outside a container postinst loads uinput, and says so when it cannot" \
        bash -c 'grep -qx "modprobe -q uinput" "$0" && grep -q "could not load the uinput module now" "$1"' \
        "$E2E_TMP/stub-calls" "$E2E_TMP/postinst.out"
fi

# man-db's dpkg trigger runs `mandb -pq`, which stats all ~20,000 man pages: 7 minutes over 9p
# under emulation. The test turns the trigger off (the debconf answer man-db/auto-update=false
# does the same) and indexes the package's own pages itself, below.
rm -f /var/lib/man-db/auto-update

echo "== apt-get install $deb ($SECONDS s)"
if apt_offline install -y "$deb" >"$E2E_TMP/apt-install.log" 2>&1; then
    pass "apt-get install ./$(basename "$deb") exits 0, offline"
else
    fail "apt-get install ./$(basename "$deb") exits 0, offline"
fi
sed 's/^/  | /' "$E2E_TMP/apt-install.log"
check "dpkg: flickd is installed" bash -c "dpkg-query -W -f='\${Status}' flickd | grep -qx 'install ok installed'"
check "a first install says nothing of an upgrade" bash -c '! grep -q "upgraded from" "$0"' "$E2E_TMP/apt-install.log"

mode_is() { [ "$(stat -c '%a %U' "$1" 2>/dev/null)" = "$2" ]; }
check "/usr/bin/flickd 755 root" mode_is /usr/bin/flickd "755 root"
for f in /usr/lib/systemd/user/flickd.service /usr/lib/udev/rules.d/70-flickd-uinput.rules \
        /usr/lib/modules-load.d/flickd-uinput.conf /usr/share/doc/flickd/flickd.toml \
        /usr/share/doc/flickd/copyright /usr/share/doc/flickd/changelog.Debian.gz \
        /usr/share/man/man1/flickd.1.gz /usr/share/man/man1/flickd-run.1.gz \
        /usr/share/bash-completion/completions/flickd /usr/share/zsh/vendor-completions/_flickd \
        /usr/share/fish/vendor_completions.d/flickd.fish; do
    check "$f 644 root" mode_is "$f" "644 root"
done
dpkg -L flickd | while read -r f; do [ -d "$f" ] || echo "$f"; done >"$E2E_TMP/flickd-files"
# The rule's comment is its source's, but for the sentence on where it is installed: no
# sentence cut in half (the words of the comment lines, on one line).
comment_words() { sed -n 's/^#//p' "$1" | tr -s ' \n' '  '; }
rule_source=$(comment_words "$repo/systemd/70-flickd-uinput.rules")
rule_expected=${rule_source/"Installed by scripts/install to /etc/udev/rules.d/."/"Installed by the flickd package to /usr/lib/udev/rules.d/; a file of the same name in /etc/udev/rules.d/ overrides it."}
rule_installed=$(comment_words /usr/lib/udev/rules.d/70-flickd-uinput.rules)
check "the udev rule's comment is its source's, saying where the package installs it" \
    test "$rule_installed" = "$rule_expected"
[ "$rule_installed" = "$rule_expected" ] || diff <(fold -s -w 90 <<<"$rule_expected") <(fold -s -w 90 <<<"$rule_installed") | sed 's/^/    /' || true
check "the modules-load file says where the package installs it" \
    grep -qx '# Installed by the flickd package to /usr/lib/modules-load.d/.' /usr/lib/modules-load.d/flickd-uinput.conf
check "the unit says where the package installs it" \
    grep -q '^# Installed by the flickd package to /usr/lib/systemd/user/ ' /usr/lib/systemd/user/flickd.service
check "nothing installed in /etc (the package's defaults live under /usr/lib)" \
    bash -c '! dpkg -L flickd | grep -q "^/etc/"'
check "the unit runs /usr/bin/flickd" grep -qx 'ExecStart=/usr/bin/flickd run' /usr/lib/systemd/user/flickd.service
check "the binary needs no Swift toolchain library" \
    bash -c 'readelf -d /usr/bin/flickd >"$0" && ! grep -q "NEEDED.*libswift\|NEEDED.*libFoundation" "$0"' "$E2E_TMP/readelf"
check "flickd --version names the package's upstream version" \
    test "$(/usr/bin/flickd --version)" = "flickd $(dpkg-query -W -f='${Version}' flickd | sed 's/-[^-]*$//')"
if [ "$uinput_unloaded" = 1 ]; then
    check "postinst loaded uinput" test -d /sys/module/uinput
else
    echo "skip postinst loading uinput (rmmod uinput failed: in use)"
fi
check "postinst applied the udev rule: /dev/uinput tagged uaccess" \
    bash -c 'udevadm info --query=property --name=/dev/uinput | grep -q "^TAGS=.*:uaccess:"'
check "systemd-analyze --user verify of the installed unit" \
    as_tester systemd-analyze --user verify /usr/lib/systemd/user/flickd.service
check "the package enabled nothing" test ! -e /home/tester/.config/systemd/user/graphical-session.target.wants/flickd.service
check "the package started nothing (no virtual touchpad or wheel yet)" \
    bash -c '! grep -q "Name=\"flickd virtual \(touchpad\|wheel\)\"" /proc/bus/input/devices'

# What logind's uaccess would do for tester's active session.
chgrp tester /dev/uinput && chmod 0660 /dev/uinput

echo "== as tester: systemctl --user enable --now flickd ($SECONDS s)"
check "systemctl --user enable --now flickd" as_tester systemctl --user enable --now flickd
state=$(as_tester systemctl --user is-active flickd || true)
check "flickd.service is active (READY=1 received), was: $state" test "$state" = active
pid=$(as_tester systemctl --user show -P MainPID flickd)
check "runs /usr/bin/flickd" test "$(readlink /proc/"${pid:-0}"/exe 2>/dev/null)" = /usr/bin/flickd
check "no virtual touchpad or wheel while there is no touchpad (flickd creates its device with the first)" \
    bash -c '! grep -q "Name=\"flickd virtual \(touchpad\|wheel\)\"" /proc/bus/input/devices'
virtual_touchpad() {
    awk '/^N: Name="flickd virtual touchpad"/ { found = 1 } found && /^H: Handlers=/ { match($0, /event[0-9]+/); print "/dev/input/" substr($0, RSTART, RLENGTH); exit }' /proc/bus/input/devices
}
touchpad=""

# A flick on a virtual T440, and what libinput reads from it and from flickd's virtual
# touchpad: one libinput context for both, so that their event times share one clock.
if [ -z "$devices" ]; then
    fail "a flick coasts (no $pad_description in Tests/Fixtures/devices)"
else
    coproc PAD { exec /usr/bin/python3 "$here/vdev.py" serve "$devices/$pad_description"; }
    ready=""
    read -r -t 30 ready <&"${PAD[0]}" || true
    pad=$(sed -n 's/.*"devnode": *"\([^"]*\)".*/\1/p' <<<"$ready")
    check "the virtual T440 is ready: ${pad:-none}" test -n "$pad"
    status=""
    for _ in $(seq 100); do
        status=$(as_tester systemctl --user show -P StatusText flickd)
        case "$status" in "reading 1 touch device"*) break ;; esac
        sleep 0.1
    done
    check "flickd opened the touchpad: '$status'" grep -q "^reading 1 touch device" <<<"$status"
    for _ in $(seq 50); do touchpad=$(virtual_touchpad); [ -n "$touchpad" ] && break; sleep 0.1; done
    check "with it, the virtual touchpad exists (the default output): ${touchpad:-none}" test -n "$touchpad"
    check "no virtual wheel (output.mode defaults to touchpad)" bash -c '! grep -q "Name=\"flickd virtual wheel\"" /proc/bus/input/devices'
fi
if [ -n "$devices" ] && [ -z "$touchpad" ]; then
    echo quit >&"${PAD[1]}" 2>/dev/null || true
    wait "$PAD_PID" 2>/dev/null || true
    fail "a flick coasts (no virtual touchpad)"
elif [ -n "$devices" ]; then
    stdbuf -oL libinput debug-events --device "${pad:-/dev/null}" --device "$touchpad" >"$E2E_TMP/libinput.log" 2>&1 &
    libinput=$!
    for _ in $(seq 100); do [ "$(grep -c DEVICE_ADDED "$E2E_TMP/libinput.log")" -ge 2 ] && break; sleep 0.1; done
    sleep 0.5
    echo "flick:down,speed=200,duration=200ms,stagger=20ms" >&"${PAD[1]}"
    result=""
    read -r -t 30 result <&"${PAD[0]}" || true
    # The coast (a 200 mm/s release comes within 0.05 mm of rest after ~3.8 s), 200 ms still,
    # then the lift; the guest runs events late, so allow twice that.
    sleep 8
    kill "$libinput" 2>/dev/null || true
    wait "$libinput" 2>/dev/null || true
    echo quit >&"${PAD[1]}" 2>/dev/null || true
    wait "$PAD_PID" 2>/dev/null || true
    echo "  flick: $result"
    # "event5  POINTER_SCROLL_FINGER  +1.234s  vert 3.21* horiz 0.00": one "SOURCE KIND TIME
    # VERT HORIZ" line per event, SOURCE "pad" or "virtual" (or "other").
    awk -v pad="$(basename "${pad:-none}")" -v virtual="$(basename "$touchpad")" '
        $2 ~ /^[A-Z_]+$/ && $3 ~ /^\+[0-9.]+s$/ {
            node = $1; sub(/^-/, "", node)
            source = node == pad ? "pad" : node == virtual ? "virtual" : "other"
            v = 0; h = 0
            for (i = 4; i < NF; i++) {
                if ($i == "vert") { split($(i + 1), a, "/"); v = a[1] + 0 }
                if ($i == "horiz") { split($(i + 1), a, "/"); h = a[1] + 0 }
            }
            print source, $2, substr($3, 2, length($3) - 2), v, h
        }' "$E2E_TMP/libinput.log" >"$E2E_TMP/events"
    # The real pad's release: its last finger scroll event (libinput's scroll stop).
    release=$(awk '$1 == "pad" && $2 == "POINTER_SCROLL_FINGER" { t = $3 } END { print t }' "$E2E_TMP/events")
    pad_moving=$(awk '$1 == "pad" && $2 == "POINTER_SCROLL_FINGER" && ($4 != 0 || $5 != 0)' "$E2E_TMP/events" | wc -l)
    grep '^virtual POINTER_SCROLL_FINGER' "$E2E_TMP/events" >"$E2E_TMP/coast" || true
    moving=$(awk '$4 != 0 || $5 != 0' "$E2E_TMP/coast" | wc -l)
    total=$(awk '{ s += $4 < 0 ? -$4 : $4 } END { printf "%.1f", s + 0 }' "$E2E_TMP/coast")
    first=$(awk '$4 != 0 || $5 != 0 { print $3; exit }' "$E2E_TMP/coast")
    echo "  libinput read $pad_moving finger scroll events from the T440 (released at ${release:-?} s)," \
        "then $moving from flickd's virtual touchpad (from ${first:-?} s), |vert| $total in all"
    check "libinput reads the T440's two-finger scroll, was $pad_moving events" test "$pad_moving" -ge 5
    check "the flick coasts: libinput reads >= 5 finger scroll events from flickd virtual touchpad, was $moving" \
        test "$moving" -ge 5
    check "the coast starts after the T440's release (${release:-?} s), first at ${first:-none} s" \
        awk -v r="$release" -v f="$first" 'BEGIN { exit !(r != "" && f != "" && f + 0 >= r + 0) }'
    check "the coast scrolls down, the way the fingers went, vertically only" \
        awk '$4 < 0 || $5 != 0 { bad = 1 } END { exit bad + 0 }' "$E2E_TMP/coast"
    # 15 units is one wheel detent's worth in libinput's scroll units.
    check "the coast scrolls at least 15 units, was $total" awk -v t="$total" 'BEGIN { exit !(t >= 15) }'
    check "the virtual fingers lift: the coast's last event is libinput's scroll stop (0/0)" \
        bash -c 'tail -n 1 "$0" | awk "{ exit !(\$4 == 0 && \$5 == 0) }"' "$E2E_TMP/coast"
    others=$(awk '$1 == "virtual" && $2 ~ /^(POINTER_BUTTON|POINTER_MOTION|TOUCH_|GESTURE_SWIPE|GESTURE_PINCH)/ { print $2 }' "$E2E_TMP/events" | sort | uniq -c | tr -s ' \n' ' ')
    check "no button, pointer motion, touch, swipe or pinch from flickd virtual touchpad${others:+, was:$others}" test -z "$others"
    check "libinput discarded no touch jump of flickd virtual touchpad" \
        bash -c '! grep -qi "flickd virtual touchpad.*jump" "$0"' "$E2E_TMP/libinput.log"
fi

# The upgrade, while tester's service runs: dpkg replaces /usr/bin/flickd under it.
echo "== apt-get install of the next version, tester's service running ($SECONDS s)"
if [ -z "$upgrade" ]; then
    fail "the upgrade (no next version given)"
else
    from=$(dpkg-query -W -f='${Version}' flickd)
    to=$(dpkg-deb -f "$upgrade" Version)
    old_pid=$(as_tester systemctl --user show -P MainPID flickd)
    if apt_offline install -y "$upgrade" >"$E2E_TMP/apt-upgrade.log" 2>&1; then
        pass "apt-get install ./$(basename "$upgrade") over $from exits 0, offline"
    else
        fail "apt-get install ./$(basename "$upgrade") over $from exits 0, offline"
    fi
    sed 's/^/  | /' "$E2E_TMP/apt-upgrade.log"
    check "dpkg: flickd $to is installed, was: $(dpkg-query -W -f='${Version}' flickd)" \
        test "$(dpkg-query -W -f='${Version}' flickd)" = "$to"
    check "postinst says that running services keep their old version, upgraded from $from" \
        grep -qF "flickd: upgraded from $from. Running flickd services keep their old version, reloads included" "$E2E_TMP/apt-upgrade.log"
    # (apt gives dpkg a terminal: its lines end in CR LF.)
    restart=$(tr -d '\r' <"$E2E_TMP/apt-upgrade.log" | sed -n 's/^ *their user runs "\(.*\)", or their systemd user manager restarts (after a full logout)\.$/\1/p')
    check "and how each user moves to the new one: '$restart'" \
        test "$restart" = "systemctl --user daemon-reload && systemctl --user restart flickd"
    pid=$(as_tester systemctl --user show -P MainPID flickd)
    check "the package restarted nothing: the service runs on as pid $old_pid, was: $pid" test "$pid" = "$old_pid"
    exe=$(readlink /proc/"${pid:-0}"/exe 2>/dev/null || true)
    check "from the old binary, which dpkg replaced: '$exe'" test "$exe" = "/usr/bin/flickd (deleted)"
    check "tester runs what postinst says: $restart" as_tester sh -c "${restart:-false}"
    state=$(as_tester systemctl --user is-active flickd || true)
    check "flickd.service is active again, was: $state" test "$state" = active
    pid=$(as_tester systemctl --user show -P MainPID flickd)
    exe=$(readlink /proc/"${pid:-0}"/exe 2>/dev/null || true)
    check "a new process ($old_pid -> $pid) runs the new /usr/bin/flickd: '$exe'" \
        test "$pid" != "$old_pid" -a "$exe" = /usr/bin/flickd
    # dpkg-reconfigure runs postinst configure with the installed version: nothing changed.
    DEBIAN_FRONTEND=noninteractive dpkg-reconfigure flickd >"$E2E_TMP/reconfigure.log" 2>&1 \
        || fail "dpkg-reconfigure flickd exits 0: $(tr '\n' ' ' <"$E2E_TMP/reconfigure.log")"
    check "dpkg-reconfigure flickd (no version changed) says nothing of a change: $(tr '\n' ' ' <"$E2E_TMP/reconfigure.log")" \
        bash -c '! grep -q "changed from\|upgraded from" "$0"' "$E2E_TMP/reconfigure.log"
fi

echo "== man pages and completions ($SECONDS s)"
check "man flickd renders" bash -c 'MANWIDTH=80 man -P cat flickd 2>/dev/null | grep -q "^SYNOPSIS"'
check "man flickd-run renders the run subcommand" bash -c 'MANWIDTH=80 man -P cat flickd-run 2>/dev/null | grep -q "flickd run"'
check "man -l renders every page without a warning" bash -c '
    for page in $(dpkg -L flickd | grep "^/usr/share/man/man1/.*\.1\.gz$"); do
        out=$(MANWIDTH=80 man --warnings -P cat -l "$page" 2>&1 >/dev/null) || exit 1
        [ -z "$out" ] || { echo "$page: $out"; exit 1; }
        MANWIDTH=80 man -P cat -l "$page" | grep -q "^NAME" || exit 1
    done'
check "mandb indexes the pages" bash -c 'for page in /usr/share/man/man1/flickd*.1.gz; do mandb -q -f "$page" || exit 1; done'
check "apropos finds them (their NAME sections parse)" bash -c 'apropos flickd 2>/dev/null | grep -q "^flickd-run "'
check "the bash completion loads" bash -c '. /usr/share/bash-completion/completions/flickd && complete -p flickd'

echo "== apt-get remove flickd ($SECONDS s)"
if apt_offline remove -y flickd >"$E2E_TMP/apt-remove.log" 2>&1; then
    pass "apt-get remove flickd exits 0"
else
    fail "apt-get remove flickd exits 0"
fi
sed 's/^/  | /' "$E2E_TMP/apt-remove.log"
check "/usr/bin/flickd is gone" test ! -e /usr/bin/flickd
state=$(as_tester systemctl --user is-active flickd || true)
check "tester's running service was left alone (the package did not start it), was: $state" test "$state" = active
check "tester's ~/.config/flickd/config.toml is left alone" grep -qx 'speed = 30' /home/tester/.config/flickd/config.toml
echo "== as tester: systemctl --user disable --now flickd ($SECONDS s)"
check "systemctl --user disable --now flickd" as_tester systemctl --user disable --now flickd
check "the virtual touchpad is gone" bash -c '! grep -q "Name=\"flickd virtual touchpad\"" /proc/bus/input/devices'

echo "== apt-get purge flickd ($SECONDS s)"
if apt_offline purge -y flickd >"$E2E_TMP/apt-purge.log" 2>&1; then
    pass "apt-get purge flickd exits 0"
else
    fail "apt-get purge flickd exits 0"
fi
sed 's/^/  | /' "$E2E_TMP/apt-purge.log"
check "dpkg knows flickd no more" bash -c '! dpkg-query -W -f="\${Status}" flickd 2>/dev/null | grep -q "installed\|config-files"'
left=$(while read -r f; do if [ -e "$f" ]; then echo "$f"; fi; done <"$E2E_TMP/flickd-files")
check "every one of the package's $(wc -l <"$E2E_TMP/flickd-files") files is gone${left:+; left: $left}" test -z "$left"
check "dpkg keeps no record of flickd in /var/lib/dpkg/info" bash -c '! ls /var/lib/dpkg/info/flickd.* 2>/dev/null'
after=$(snapshot)
left=$(comm -13 <(echo "$before") <(echo "$after"))
gone=$(comm -23 <(echo "$before") <(echo "$after"))
if [ -z "$left" ] && [ -z "$gone" ]; then
    pass "after purge no *flickd* path is left and the udev, modules-load and systemd directories are as before ($(echo "$before" | wc -l) files)"
else
    fail "after purge no *flickd* path is left and the udev, modules-load and systemd directories are as before"
    echo "$left" | sed '/^$/d; s/^/    left behind: /'
    echo "$gone" | sed '/^$/d; s/^/    gone: /'
fi

if [ "$failures" -ne 0 ]; then
    echo "--- user manager log"; tail -30 "$E2E_TMP/user-manager.log"
    echo "--- journal"; journalctl --no-pager -n 40 2>/dev/null || true
    echo "package-guest-test: $failures check(s) failed"
    exit 1
fi
echo "package-guest-test: all checks passed"
