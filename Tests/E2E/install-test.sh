#!/usr/bin/env bash
# scripts/install and scripts/uninstall staged into a throw-away directory (--destdir), on the
# host, with no effect outside it.
#
#   Tests/E2E/install-test.sh [--binary FILE]
#
# FILE is installed as flickd (default: the debug build, .build/debug/flickd, else a stand-in
# script). Checks that every file lands where expected with its mode and content, that the
# unit's ExecStart follows --prefix, that the staged unit passes `systemd-analyze verify` and
# keeps its `systemd-analyze security` exposure, that staging never calls sudo, systemctl,
# modprobe, udevadm, usermod, runuser or apt-get (stand-ins on PATH record any call), that
# uninstall leaves the directory empty and keeps files that are not flickd's, whose desktop
# the two set flickd up for when run as root (scripts/lib/desktop-user.sh), that run as root
# they find the sbin tools on a PATH without them (scripts/lib/root-tools.sh, as after `su -c`),
# that prefixes systemd's ExecStart= cannot hold and / are refused, that the paths
# (scripts/lib/paths.sh) are those flickd's own messages name, and what scripts/install-deps
# does without apt-get and with packages missing from stale package lists (stand-ins again).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
binary=""
case "${1:-}" in
    --binary) binary=${2:?--binary needs a file} ;;
    "") [ -x "$repo/.build/debug/flickd" ] && binary=$repo/.build/debug/flickd ;;
    *) echo "usage: $0 [--binary FILE]" >&2; exit 2 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/flickd-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -z "$binary" ]; then
    binary=$work/flickd-stand-in
    printf '#!/bin/sh\necho "flickd stand-in $*"\n' >"$binary"
    chmod 755 "$binary"
fi

# Stand-ins for every command that would touch the system: each records its call and fails.
mkdir -p "$work/fake-bin"
for command in sudo systemctl modprobe udevadm usermod runuser apt-get; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$command" "$work/system-calls" \
        >"$work/fake-bin/$command"
    chmod 755 "$work/fake-bin/$command"
done
fake_path=$work/fake-bin:$PATH

# shellcheck source=checks.sh
. "$here/checks.sh"
# Every file and link under DIR, as "MODE PATH" relative to DIR, sorted.
tree() { (cd "$1" && find . -mindepth 1 \( -type f -o -type l \) -printf '%m %P\n' | LC_ALL=C sort); }

run_install() {  # DESTDIR ARGS...
    local dest=$1; shift
    PATH=$fake_path "$repo/scripts/install" --destdir "$dest" --binary "$binary" --no-deps "$@" \
        >"$work/install.log" 2>&1
}
run_uninstall() {  # DESTDIR ARGS...
    local dest=$1; shift
    PATH=$fake_path "$repo/scripts/uninstall" --destdir "$dest" "$@" >"$work/uninstall.log" 2>&1
}

# ---------------------------------------------------------------------- the default prefix ---
root=$work/root
if run_install "$root"; then pass "install --destdir exits 0"; else fail "install --destdir exits 0"; cat "$work/install.log"; fi
expected="644 etc/modules-load.d/flickd-uinput.conf
644 etc/udev/rules.d/70-flickd-uinput.rules
644 usr/local/lib/systemd/user/flickd.service
644 usr/local/share/doc/flickd/flickd.toml
755 usr/local/bin/flickd"
actual=$(tree "$root")
if [ "$actual" = "$expected" ]; then
    pass "the staged files and modes"
else
    fail "the staged files and modes"
    diff <(echo "$expected") <(echo "$actual") | sed 's/^/    /' || true
fi
# The same paths as scripts/lib/paths.sh gives, which uninstall and package use too.
from_lib=$(bash -c '. "$1" && flickd_paths /usr/local && printf "%s\n" "$bin_path" "$unit_path" "$doc_path" "$rules_path" "$modules_path"' \
    _ "$repo/scripts/lib/paths.sh" | sed 's|^/||' | LC_ALL=C sort) || from_lib="(scripts/lib/paths.sh failed)"
check "the staged files are those of scripts/lib/paths.sh" test "$(echo "$actual" | cut -d' ' -f2 | LC_ALL=C sort)" = "$from_lib"
# What flickd doctor tells a user to write by hand names the same files.
swift_paths() {
    local uinput_device=$repo/Sources/FlickLinux/UinputDevice.swift
    . "$repo/scripts/lib/paths.sh" && flickd_paths /usr/local \
        && grep -qF "udevRuleFile = \"$rules_path\"" "$uinput_device" && grep -qF "tee $modules_path " "$uinput_device"
}
check "Sources/FlickLinux/UinputDevice.swift names the udev rule and modules-load paths of scripts/lib/paths.sh" \
    bash -c "$(declare -f swift_paths); repo='$repo'; swift_paths"
check "the binary is the one given" cmp -s "$binary" "$root/usr/local/bin/flickd"
check "the unit is systemd/flickd.service as shipped" cmp -s "$repo/systemd/flickd.service" "$root/usr/local/lib/systemd/user/flickd.service"
check "the udev rule as shipped" cmp -s "$repo/systemd/70-flickd-uinput.rules" "$root/etc/udev/rules.d/70-flickd-uinput.rules"
check "the modules-load file as shipped, loading uinput" \
    bash -c "cmp -s '$repo/systemd/flickd-uinput.conf' '$root/etc/modules-load.d/flickd-uinput.conf' && grep -qx uinput '$root/etc/modules-load.d/flickd-uinput.conf'"
check "the configuration reference as shipped" cmp -s "$repo/config/flickd.toml" "$root/usr/local/share/doc/flickd/flickd.toml"
check "the staged binary runs from its new place" bash -c "'$root/usr/local/bin/flickd' --help >/dev/null"
if [ -s "$work/system-calls" ]; then
    fail "staging touched nothing outside DESTDIR; calls made:"
    sed 's/^/    /' "$work/system-calls"
else
    pass "staging touched nothing outside DESTDIR (no sudo, systemctl, modprobe, udevadm, usermod, runuser, apt-get)"
fi

if command -v systemd-analyze >/dev/null; then
    # verify wants ExecStart's program to exist: point it at the staged binary.
    sed "s|^ExecStart=/usr/local/bin/flickd|ExecStart=$root/usr/local/bin/flickd|" \
        "$root/usr/local/lib/systemd/user/flickd.service" >"$work/flickd.service"
    if XDG_RUNTIME_DIR=$work systemd-analyze --user verify "$work/flickd.service" >"$work/verify.log" 2>&1 \
            && [ ! -s "$work/verify.log" ]; then
        pass "systemd-analyze --user verify: no complaints"
    else
        fail "systemd-analyze --user verify"; sed 's/^/    /' "$work/verify.log"
    fi
    # 5.9 as written (a user unit can use only seccomp and process-flag sandboxing); a higher
    # score means an option was dropped.
    if systemd-analyze security --help 2>/dev/null | grep -q -- --threshold; then
        if systemd-analyze security --offline=yes --threshold=59 "$work/flickd.service" >"$work/security.log" 2>&1; then
            pass "systemd-analyze security: $(grep -o 'exposure level.*' "$work/security.log")"
        else
            fail "systemd-analyze security --threshold=59"; tail -3 "$work/security.log" | sed 's/^/    /'
        fi
    fi
else
    echo "skip systemd-analyze (not installed)"
fi

echo "extra" >"$root/etc/udev/rules.d/50-not-flickd.rules"
if run_uninstall "$root"; then pass "uninstall --destdir exits 0"; else fail "uninstall --destdir exits 0"; cat "$work/uninstall.log"; fi
check "uninstall keeps files that are not flickd's" test -f "$root/etc/udev/rules.d/50-not-flickd.rules"
rm "$root/etc/udev/rules.d/50-not-flickd.rules"
run_uninstall "$root"
left=$(cd "$root" && find . -mindepth 1)
if [ -z "$left" ]; then pass "uninstall leaves DESTDIR empty"; else fail "uninstall leaves DESTDIR empty; left:"; echo "$left" | sed 's/^/    /'; fi
check "uninstall twice is harmless" run_uninstall "$root"
check "uninstall touched nothing outside DESTDIR" test ! -s "$work/system-calls"

# ------------------------------------------------------------------------- another prefix ---
root=$work/root-usr
check "install --prefix /usr --destdir exits 0" run_install "$root" --prefix /usr
check "--prefix /usr: the binary in usr/bin" test -x "$root/usr/bin/flickd"
check "--prefix /usr: the unit in usr/lib/systemd/user, ExecStart=/usr/bin/flickd run" \
    grep -qx 'ExecStart=/usr/bin/flickd run' "$root/usr/lib/systemd/user/flickd.service"
check "--prefix /usr: the unit differs from the shipped one only in ExecStart and the directory its comment names" \
    bash -c "diff '$repo/systemd/flickd.service' '$root/usr/lib/systemd/user/flickd.service' | grep '^[<>]' | grep -v '^[<>] ExecStart=' | grep -v '^[<>] # Installed by scripts/install to ' | wc -l | grep -qx 0"
check "--prefix /usr: the unit's comment names the directory it is in" \
    grep -qx '# Installed by scripts/install to /usr/lib/systemd/user/ and enabled per user with' "$root/usr/lib/systemd/user/flickd.service"
# scripts/package rewrites that line as it finds it in the unit of --prefix /usr.
check "scripts/package rewrites the comment line scripts/install --prefix /usr writes" \
    grep -qF '"# Installed by scripts/install to ${unit_path%/*}/ and enabled per user with"' "$repo/scripts/package"
check "--prefix /usr: the udev rule and modules file stay in /etc" \
    test -f "$root/etc/udev/rules.d/70-flickd-uinput.rules" -a -f "$root/etc/modules-load.d/flickd-uinput.conf"
run_uninstall "$root" --prefix /usr
check "--prefix /usr: uninstall leaves DESTDIR empty" test -z "$(cd "$root" && find . -mindepth 1)"

# Through a symbolic link to the script (in a bin directory on PATH, say): the source tree is
# found all the same.
ln -s "$repo/scripts/install" "$work/install-link"
root=$work/root-link
check "install run through a symbolic link to it exits 0" \
    bash -c "PATH='$fake_path' '$work/install-link' --destdir '$root' --binary '$binary' --no-deps >'$work/install.log' 2>&1"
check "through the link: the binary staged" test -x "$root/usr/local/bin/flickd"
rm -rf "$root"

# Characters systemd's ExecStart= and install's sed take as they are: staged, and removed.
root=$work/root-tilde
check "install --prefix '/opt/flickd~2:é' --destdir exits 0" run_install "$root" --prefix '/opt/flickd~2:é'
check "--prefix '/opt/flickd~2:é': ExecStart='/opt/flickd~2:é/bin/flickd run'" \
    grep -qx 'ExecStart=/opt/flickd~2:é/bin/flickd run' "$root/etc/systemd/user/flickd.service"
run_uninstall "$root" --prefix '/opt/flickd~2:é'
check "--prefix '/opt/flickd~2:é': uninstall leaves DESTDIR empty" test -z "$(cd "$root" && find . -mindepth 1)"
rm -rf "$root"

# Trailing slashes are dropped: ExecStart= names the binary's usual path.
root=$work/root-slash
check "install --prefix /opt/flickd// --destdir exits 0" run_install "$root" --prefix /opt/flickd//
check "--prefix /opt/flickd//: ExecStart=/opt/flickd/bin/flickd run" \
    grep -qx 'ExecStart=/opt/flickd/bin/flickd run' "$root/etc/systemd/user/flickd.service"
run_uninstall "$root" --prefix /opt/flickd/
check "--prefix /opt/flickd/: uninstall leaves DESTDIR empty" test -z "$(cd "$root" && find . -mindepth 1)"
rm -rf "$root"

# A prefix systemd does not search for user units: the unit goes to /etc/systemd/user.
root=$work/root-opt
check "install --prefix /opt/flickd --destdir exits 0" run_install "$root" --prefix /opt/flickd
check "--prefix /opt/flickd: the unit in etc/systemd/user (on systemd's search path), ExecStart=/opt/flickd/bin/flickd run" \
    grep -qx 'ExecStart=/opt/flickd/bin/flickd run' "$root/etc/systemd/user/flickd.service"
check "--prefix /opt/flickd: no unit under the prefix" test ! -e "$root/opt/flickd/lib/systemd"
check "--prefix /opt/flickd: the unit names no /usr/local path, its comment names etc/systemd/user" \
    bash -c '! grep -n /usr/local "$1" && grep -qx "# Installed by scripts/install to /etc/systemd/user/ and enabled per user with" "$1"' \
    _ "$root/etc/systemd/user/flickd.service"
run_uninstall "$root" --prefix /opt/flickd
check "--prefix /opt/flickd: uninstall leaves DESTDIR empty" test -z "$(cd "$root" && find . -mindepth 1)"
# An administrator's override in /etc/systemd/user (another ExecStart) is not uninstall's.
mkdir -p "$root/etc/systemd/user"
printf '[Service]\nExecStart=/usr/bin/flickd run\n' >"$root/etc/systemd/user/flickd.service"
run_uninstall "$root" --prefix /opt/flickd
check "--prefix /opt/flickd: uninstall keeps a unit in etc/systemd/user that runs another binary" \
    test -f "$root/etc/systemd/user/flickd.service"
rm -rf "$root"

# ------------------------------------------------- two installs, one rule and modules file ---
# Every prefix's install writes the same udev rule and modules-load file in /etc: uninstalling
# one install keeps them while another remains (found by its binary, or by the unit in
# /etc/systemd/user that runs it), and says which; the last uninstall removes them.
root=$work/root-two
rules=$root/etc/udev/rules.d/70-flickd-uinput.rules
modules=$root/etc/modules-load.d/flickd-uinput.conf
two_installs() { run_install "$root" && run_install "$root" --prefix /opt/flickd; }
check "install, then install --prefix /opt/flickd, into one DESTDIR" two_installs
run_uninstall "$root" --prefix /opt/flickd
check "two installs: uninstall --prefix /opt/flickd removes its binary and unit" \
    test ! -e "$root/opt/flickd" -a ! -e "$root/etc/systemd/user/flickd.service"
check "two installs: it keeps the udev rule and modules-load file, which /usr/local's needs" test -f "$rules" -a -f "$modules"
check "two installs: it says so, naming the install in /usr/local" \
    grep -q "kept /etc/udev/rules.d/70-flickd-uinput.rules and /etc/modules-load.d/flickd-uinput.conf: .*the install in /usr/local (/usr/local/bin/flickd)" "$work/uninstall.log"
if ! grep -q "kept" "$work/uninstall.log"; then sed 's/^/    /' "$work/uninstall.log"; fi
run_uninstall "$root"
check "two installs: uninstalling the other then leaves DESTDIR empty" test -z "$(cd "$root" && find . -mindepth 1)"
# The other way round: /opt/flickd's install is found by its unit in /etc/systemd/user.
two_installs
run_uninstall "$root"
check "two installs: uninstall of /usr/local keeps the two files, naming the install in /opt/flickd" \
    bash -c 'test -f "$1" -a -f "$2" -a ! -e "$3" && grep -q "kept .*the install in /opt/flickd (/opt/flickd/bin/flickd), which .scripts/uninstall --prefix /opt/flickd. removes" "$4"' \
    _ "$rules" "$modules" "$root/usr/local/bin/flickd" "$work/uninstall.log"
run_uninstall "$root" --prefix /opt/flickd
check "two installs: then uninstall --prefix /opt/flickd leaves DESTDIR empty" test -z "$(cd "$root" && find . -mindepth 1)"
# The flickd package beside an install: its own rule and modules-load file under /usr/lib (which
# those in /etc override) serve it, so the /etc copies go with the install.
run_install "$root"
mkdir -p "$root/usr/bin" "$root/usr/lib/udev/rules.d" "$root/usr/lib/modules-load.d" "$root/usr/lib/systemd/user"
cp "$binary" "$root/usr/bin/flickd"
cp "$repo/systemd/70-flickd-uinput.rules" "$root/usr/lib/udev/rules.d/"
cp "$repo/systemd/flickd-uinput.conf" "$root/usr/lib/modules-load.d/"
sed 's|^ExecStart=.*|ExecStart=/usr/bin/flickd run|' "$repo/systemd/flickd.service" >"$root/usr/lib/systemd/user/flickd.service"
run_uninstall "$root"
check "beside the package: uninstall removes the /etc copies, the package's under /usr/lib serve it" \
    bash -c 'test ! -e "$1" -a ! -e "$2" && ! grep -q kept "$3"' _ "$rules" "$modules" "$work/uninstall.log"
rm -rf "$root"

# --------------------------------------- uninstall with nothing installed, not as root ---
# For real (no --destdir), as a user other than root (nobody, through setpriv, when this runs as
# root), on a prefix with nothing in it: there is nothing to remove, so sudo is not asked for
# (nor udevadm run), and it says that nothing was removed. Stand-ins record the calls. Skipped
# where this machine has flickd's files in /etc, which uninstall would rightly remove.
as_user=()
nothing_skip=""
if [ -e /etc/udev/rules.d/70-flickd-uinput.rules ] || [ -e /etc/modules-load.d/flickd-uinput.conf ]; then
    nothing_skip="this machine has flickd's udev rule or modules-load file in /etc"
elif [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv >/dev/null && nobody_uid=$(id -u nobody 2>/dev/null); then
        as_user=(setpriv --reuid="$nobody_uid" --regid="$(id -g nobody)" --clear-groups)
        "${as_user[@]}" test -r "$repo/scripts/uninstall" || nothing_skip="nobody cannot read $repo/scripts/uninstall"
    else
        nothing_skip="run as root, without setpriv or a user 'nobody'"
    fi
fi
if [ -n "$nothing_skip" ]; then
    echo "skip the uninstall with nothing installed, not as root ($nothing_skip)"
else
    nr=$work/non-root
    mkdir -p "$nr/bin"
    chmod 711 "$work"
    chmod 755 "$nr" "$nr/bin"
    : >"$nr/calls"
    chmod 666 "$nr/calls"
    for command in sudo systemctl udevadm runuser; do
        printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$command" "$nr/calls" >"$nr/bin/$command"
        chmod 755 "$nr/bin/$command"
    done
    status=0
    ${as_user[@]+"${as_user[@]}"} env PATH="$nr/bin:$PATH" "$repo/scripts/uninstall" --prefix "$nr/nothing" \
        >"$nr/log" 2>&1 || status=$?
    check "uninstall with nothing installed, not as root, exits 0, was $status" test "$status" = 0
    if grep -q '^\(sudo\|udevadm\) ' "$nr/calls"; then
        fail "uninstall with nothing installed asks sudo for nothing and runs no udevadm; calls made:"
        sed 's/^/    /' "$nr/calls"
    else
        pass "uninstall with nothing installed asks sudo for nothing and runs no udevadm"
    fi
    check "uninstall with nothing installed says nothing was removed, not that /dev/uinput keeps its rights" \
        bash -c 'grep -q "done: nothing was removed" "$1" && ! grep -q "keeps its access rights" "$1"' _ "$nr/log"
    if ! grep -q "nothing was removed" "$nr/log"; then sed 's/^/    /' "$nr/log"; fi
fi

# ------------------------------------------------------------- whose desktop, run as root ---
# scripts/lib/desktop-user.sh, which both scripts source to find the user they set flickd up
# for, with an `id -u` that answers 0 and a stand-in logname that names $LOGNAME_IS (none when
# empty, as a root login's). Prints "target_user|target_how".
mkdir -p "$work/as-root-bin"
printf '#!/bin/sh\nif [ "$*" = -u ]; then echo 0; else exec %q "$@"; fi\n' "$(command -v id)" \
    >"$work/as-root-bin/id"
printf '#!/bin/sh\n[ -n "$LOGNAME_IS" ] && echo "$LOGNAME_IS"\n' >"$work/as-root-bin/logname"
chmod 755 "$work/as-root-bin/id" "$work/as-root-bin/logname"
desktop_user() {  # NAME=VALUE...
    env -u SUDO_USER -u PKEXEC_UID LOGNAME_IS= PATH="$work/as-root-bin:$PATH" "$@" bash -c \
        'set -euo pipefail; . "$1"; find_target_user; echo "$target_user|$target_how"' \
        desktop-user "$repo/scripts/lib/desktop-user.sh"
}
if nobody_uid=$(id -u nobody 2>/dev/null); then
    check "the desktop user through sudo: \$SUDO_USER" test "$(desktop_user SUDO_USER=nobody)" = "nobody|"
    check "the desktop user through pkexec: \$PKEXEC_UID's name" \
        test "$(desktop_user PKEXEC_UID="$nobody_uid")" = "nobody|who ran pkexec"
    check "the desktop user through su: logname's" \
        test "$(desktop_user LOGNAME_IS=nobody)" = "nobody|who logged in before su (logname)"
    check "the desktop user through su after sudo from root: logname's" \
        test "$(desktop_user SUDO_USER=root LOGNAME_IS=nobody)" = "nobody|who logged in before su (logname)"
    check "the desktop user in a root login: none" test "$(desktop_user)" = "|who logged in before su (logname)"
    check "the desktop user named by a sudo for a user that does not exist: none" \
        test "$(desktop_user SUDO_USER=flickd-no-such-user)" = "|"
else
    echo "skip the desktop user checks (no user 'nobody' here)"
fi

# ------------------------------------------------- the service, for uninstall, not as root ---
# scripts/lib/desktop-user.sh's stop_user_service, for an uninstall of /usr/local (whose unit is
# /usr/local/lib/systemd/user/flickd.service), then its reload_user_units, with `id -u`
# answering 1000 (as-user-bin, which the sbin tools' checks below use too) and a stand-in
# systemctl whose answers $SYSTEMCTL_IS picks: "unreachable" (every call fails, as without a
# user manager), "gone" (the unit file removed by an uninstall before: LoadState not-found,
# disable refused), "stuck" (this install's unit, loaded and running, disable refused),
# "packaged" (the .deb's unit in /usr/lib/systemd/user, loaded and running: another install's)
# or "shadowing" (this install's unit, before the .deb's on the search path: the .deb's loads
# after the daemon-reload).
# Prints what it said, then the systemctl calls.
mkdir -p "$work/as-user-bin" "$work/systemctl-bin"
printf '#!/bin/sh\nif [ "$*" = -u ]; then echo 1000; else exec %q "$@"; fi\n' "$(command -v id)" \
    >"$work/as-user-bin/id"
cat >"$work/systemctl-bin/systemctl" <<EOF
#!/bin/sh
echo "systemctl \$*" >>"$work/systemctl-calls"
[ "\$*" != "--user daemon-reload" ] || touch "$work/systemctl-reloaded"
case "\$SYSTEMCTL_IS \$*" in
    unreachable*) echo "Failed to connect to bus: No medium found" >&2; exit 1 ;;
    "gone --user show -P LoadState flickd.service") echo not-found ;;
    "stuck --user show -P LoadState flickd.service"|"packaged --user show -P LoadState flickd.service"|\\
            "shadowing --user show -P LoadState flickd.service") echo loaded ;;
    "stuck --user show -P FragmentPath flickd.service") echo /usr/local/lib/systemd/user/flickd.service ;;
    "packaged --user show -P FragmentPath flickd.service") echo /usr/lib/systemd/user/flickd.service ;;
    "shadowing --user show -P FragmentPath flickd.service")
        if [ -e "$work/systemctl-reloaded" ]; then echo /usr/lib/systemd/user/flickd.service
        else echo /usr/local/lib/systemd/user/flickd.service; fi ;;
    "packaged --user disable --now flickd"|"shadowing --user disable --now flickd") exit 0 ;;
    *" --user disable --now flickd") echo "Failed to disable unit: Unit file flickd.service does not exist." >&2; exit 1 ;;
    "gone --user is-active --quiet flickd") exit 3 ;;
    "stuck --user is-active --quiet flickd"|"packaged --user is-active --quiet flickd") exit 0 ;;
    "stuck --user stop flickd") exit 0 ;;
    *" --user daemon-reload") exit 0 ;;
    *) exit 1 ;;
esac
EOF
chmod 755 "$work/as-user-bin/id" "$work/systemctl-bin/systemctl"
stop_service() {  # unreachable|gone|stuck|packaged|shadowing
    rm -f "$work/systemctl-calls" "$work/systemctl-reloaded"
    env SYSTEMCTL_IS="$1" PATH="$work/as-user-bin:$work/systemctl-bin:$PATH" bash -c \
        'set -euo pipefail; say() { echo "$*"; }; . "$1"; target_user=$(id -un); bin_path=/usr/local/bin/flickd
         stop_user_service /usr/local/lib/systemd/user/flickd.service; reload_user_units' \
        stop-service "$repo/scripts/lib/desktop-user.sh" 2>&1
    cat "$work/systemctl-calls" 2>/dev/null || true
}
said=$(stop_service unreachable)
check "uninstall without a reachable user manager says so" grep -q "could not reach your systemd user manager" <<<"$said"
said=$(stop_service gone)
check "uninstall run again (the unit file gone) says it is not installed, not that the manager is unreachable" \
    bash -c 'grep -q "flickd.service is not installed for" <<<"$1" && ! grep -q "could not reach" <<<"$1"' _ "$said"
said=$(stop_service stuck)
check "uninstall stops a running flickd whose disable fails, saying why" \
    bash -c 'grep -qx "systemctl --user stop flickd" <<<"$1" && grep -q "could not disable it (Failed to disable unit" <<<"$1"' _ "$said"
said=$(stop_service packaged)
check "uninstall leaves another install's flickd.service (the .deb's) running and enabled, saying so" \
    bash -c '! grep -q "^systemctl --user \(disable\|stop\)" <<<"$1" &&
             grep -q "left flickd.service for .* alone: its unit file is /usr/lib/systemd/user/flickd.service" <<<"$1" &&
             ! grep -q "stopped" <<<"$1"' _ "$said"
if ! grep -q "left flickd.service" <<<"$said"; then sed 's/^/    /' <<<"$said"; fi
said=$(stop_service shadowing)
check "uninstall stops this install's flickd.service, then names the .deb's that loads now and how to start it" \
    bash -c 'grep -qx "systemctl --user disable --now flickd" <<<"$1" &&
             grep -q "another flickd.service is installed (/usr/lib/systemd/user/flickd.service) and is stopped now" <<<"$1" &&
             grep -q "systemctl --user enable --now flickd" <<<"$1"' _ "$said"

# ------------------------------------ the user manager's groups, for install, not as root ---
# scripts/lib/desktop-user.sh's process_lacks_group, on a process whose groups are known: the
# user manager's, by which install tells whether flickd.service gets the group through which
# this shell opens /dev/uinput.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    setpriv --regid=4241 --groups=4242,4243 sleep 60 &
    grouped=$!
    for _ in $(seq 50); do [ "$(cat "/proc/$grouped/comm" 2>/dev/null)" = sleep ] && break; sleep 0.1; done
    lacks() { bash -c '. "$1"; process_lacks_group "$2" "$3"' lacks "$repo/scripts/lib/desktop-user.sh" "$@"; }
    has() { ! lacks "$@"; }
    check "a process lacks a group it was not given" lacks "$grouped" 4244
    check "a process has its supplementary groups" has "$grouped" 4243
    check "a process has its own gid" has "$grouped" 4241
    check "a process that is not there lacks nothing (cannot tell)" has 999999999 4244
    kill "$grouped" 2>/dev/null || true
    wait "$grouped" 2>/dev/null || true
else
    echo "skip the user manager's group checks (not root, or no setpriv)"
fi

# ------------------------------------------------------------- the sbin tools, run as root ---
# scripts/lib/root-tools.sh, with an `id -u` that answers 0 (as-root-bin) or 1000: prints the
# PATH add_sbin_to_path leaves.
mkdir -p "$work/bash-only"
ln -s "$(command -v bash)" "$work/bash-only/bash"
path_after() {  # ID_DIR PATH
    env PATH="$1:$2" bash -c 'set -euo pipefail; . "$1"; add_sbin_to_path; echo "$PATH"' \
        path-after "$repo/scripts/lib/root-tools.sh"
}
check "as root with su's PATH (no sbin), /usr/local/sbin, /usr/sbin and /sbin are added" \
    test "$(path_after "$work/as-root-bin" /usr/local/bin:/usr/bin:/bin)" = "$work/as-root-bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
check "as root with them on PATH, PATH is left as it is" \
    test "$(path_after "$work/as-root-bin" /sbin:/usr/bin:/usr/sbin:/bin:/usr/local/sbin)" = "$work/as-root-bin:/sbin:/usr/bin:/usr/sbin:/bin:/usr/local/sbin"
check "not as root, PATH is left as it is" \
    test "$(path_after "$work/as-user-bin" /usr/local/bin:/usr/bin:/bin)" = "$work/as-user-bin:/usr/local/bin:/usr/bin:/bin"
missing=$(env PATH="$work/bash-only" bash -c '. "$1"; missing_tools runuser modprobe usermod flickd-no-such-tool; echo "status $?"' \
    missing-tools "$repo/scripts/lib/root-tools.sh" 2>&1 || true)
check "tools not found are named with their Debian package: $(echo $missing)" \
    test "$missing" = "$(printf 'runuser (util-linux)\nmodprobe (kmod)\nusermod (passwd)\nflickd-no-such-tool\nstatus 1')"
if [ -x /usr/sbin/runuser ] || [ -x /sbin/runuser ]; then
    check "as root with su's PATH, runuser is found after add_sbin_to_path" \
        env PATH="$work/as-root-bin:/usr/local/bin:/usr/bin:/bin" bash -c '. "$1"; add_sbin_to_path; missing_tools runuser' \
        found "$repo/scripts/lib/root-tools.sh"
fi

# ---------------------------------------------------------------------- scripts/install-deps ---
# A system without dpkg-query and apt-get: bash and a few common tools on PATH, no more.
mkdir -p "$work/no-apt-bin"
for tool in bash cat dirname grep id sed tr; do ln -s "$(command -v "$tool")" "$work/no-apt-bin/$tool"; done
status=0
env PATH="$work/no-apt-bin" "$repo/scripts/install-deps" >"$work/deps.log" 2>&1 || status=$?
check "install-deps without apt-get exits 1, was $status" test "$status" = 1
check "install-deps without apt-get says so, lists the packages and names --no-deps" \
    bash -c 'grep -q "not a Debian-based system" "$1" && grep -q "libevdev-dev.*pkg-config" "$1" && grep -q -- "--no-deps" "$1"' _ "$work/deps.log"
sed 's/^/    /' "$work/deps.log"
# Stand-ins for dpkg-query (every package installed but bolt-16), apt-cache (a package is known
# only after apt-get update, as with empty package lists, and bolt-16 only when $APT_HAS_BOLT
# is 1), apt-get (records its calls) and sudo (runs the command).
mkdir -p "$work/apt-bin"
cat >"$work/apt-bin/dpkg-query" <<'EOF'
#!/bin/sh
for last; do :; done
[ "$last" = bolt-16 ] && exit 1
printf 'install ok installed'
EOF
cat >"$work/apt-bin/apt-cache" <<EOF
#!/bin/sh
if [ "\$1" = pkgnames ]; then
    [ ! -e "$work/apt-lists" ] || echo libevdev-dev
    exit 0
fi
[ -e "$work/apt-lists" ] || exit 100
[ "\$2" != bolt-16 ] || [ "\$APT_HAS_BOLT" = 1 ] || exit 100
echo "Package: \$2"
EOF
cat >"$work/apt-bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$work/apt-calls"
[ "\$1" != update ] || touch "$work/apt-lists"
EOF
printf '#!/bin/sh\n[ "$1" != -v ] || exit 0\nexec "$@"\n' >"$work/apt-bin/sudo"
chmod 755 "$work/apt-bin/"*
deps_with_bolt() {  # APT_HAS_BOLT [lists]: with "lists", the package lists are there already
    rm -f "$work/apt-lists" "$work/apt-calls"
    touch "$work/apt-calls"
    [ "${2:-}" != lists ] || touch "$work/apt-lists"
    env PATH="$work/apt-bin:$PATH" FLICKD_BOLT=1 APT_HAS_BOLT="$1" "$repo/scripts/install-deps" --test >"$work/deps.log" 2>&1
}
check "install-deps --test with FLICKD_BOLT=1 and empty package lists exits 0" deps_with_bolt 1
check "it updates the package lists, then installs bolt-16: $(tr '\n' ';' <"$work/apt-calls")" \
    bash -c 'test "$(cut -d" " -f2 "$1" | tr "\n" " ")" = "update install " && grep -q "^apt-get install .* bolt-16$" "$1"' _ "$work/apt-calls"
check "where bolt-16 is not packaged, install-deps --test with FLICKD_BOLT=1 exits 0" deps_with_bolt 0
check "and says it goes on without it, installing nothing" \
    bash -c 'grep -q "bolt-16 is not packaged here" "$1" && ! grep -q "apt-get install" "$2"' _ "$work/deps.log" "$work/apt-calls"
check "with package lists that do not name bolt-16, install-deps --test with FLICKD_BOLT=1 exits 0" deps_with_bolt 0 lists
check "and says so without apt-get at all (no sudo needed): $(tr '\n' ';' <"$work/apt-calls")" \
    bash -c 'grep -q "bolt-16 is not packaged here" "$1" && test ! -s "$2"' _ "$work/deps.log" "$work/apt-calls"
bolt_from_lists() { deps_with_bolt 1 lists && grep -q "^apt-get install .* bolt-16$" "$work/apt-calls"; }
check "with package lists that name bolt-16, it updates them and installs it" bolt_from_lists
# An apt-get install that fails once (another apt holding the lock past the wait, a mirror
# caught mid-sync) is tried again after the lists are updated; one that keeps failing fails
# install-deps after three tries.
cat >"$work/apt-bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$work/apt-calls"
[ "\$1" != update ] || touch "$work/apt-lists"
if [ "\$1" = install ] && [ "\$(grep -c '^apt-get install' "$work/apt-calls")" -le "\${APT_FAILING_INSTALLS:-0}" ]; then exit 100; fi
exit 0
EOF
printf '#!/bin/sh\nexit 0\n' >"$work/apt-bin/sleep"  # the retries' waits, not waited
chmod 755 "$work/apt-bin/sleep"
install_retried() {
    APT_FAILING_INSTALLS=1 deps_with_bolt 1 lists &&
        test "$(cut -d" " -f2 "$work/apt-calls" | tr "\n" " ")" = "update install update install " &&
        grep -q "apt-get install failed; trying again" "$work/deps.log"
}
check "an apt-get install that fails once is tried again, after an update" install_retried
install_fails() {
    ! APT_FAILING_INSTALLS=3 deps_with_bolt 1 lists && test "$(grep -c '^apt-get install' "$work/apt-calls")" = 3 &&
        grep -q "apt-get install failed three times" "$work/deps.log"
}
check "one that fails three times fails install-deps" install_fails
# A user sudo refuses (not in the sudoers file), not as root (`id -u` answering 1000): sudo is
# asked once, before apt-get, and what is said names sudo and the way out, not apt-get.
mkdir -p "$work/refusing-sudo-bin"
cat >"$work/refusing-sudo-bin/sudo" <<EOF
#!/bin/sh
echo "sudo \$*" >>"$work/sudo-calls"
echo "flickd-tester is not in the sudoers file." >&2
exit 1
EOF
chmod 755 "$work/refusing-sudo-bin/sudo"
sudo_refuses() {
    rm -f "$work/sudo-calls" "$work/apt-lists" "$work/apt-calls"
    touch "$work/sudo-calls" "$work/apt-calls"
    ! env PATH="$work/as-user-bin:$work/refusing-sudo-bin:$work/apt-bin:$PATH" FLICKD_BOLT=1 APT_HAS_BOLT=1 \
        "$repo/scripts/install-deps" --test >"$work/deps.log" 2>&1 &&
        test "$(wc -l <"$work/sudo-calls")" = 1 && test ! -s "$work/apt-calls" &&
        ! grep -q "trying again\|failed three times" "$work/deps.log" &&
        grep -q "needs root, and sudo refused .* run this as root (su -c" "$work/deps.log"
}
if sudo_refuses; then
    pass "a user sudo refuses is asked once, told that installing needs root and sudo refused them, and pointed to su -c"
else
    fail "a user sudo refuses is asked once, told that installing needs root and sudo refused them, and pointed to su -c"
    sed 's/^/    /' "$work/sudo-calls" "$work/apt-calls" "$work/deps.log"
fi
# sudo's refusal at apt-get (its credentials expired since `sudo -v`, a wrong password then) is
# not tried again as apt-get's own failure would be.
printf '#!/bin/sh\n[ "$1" != -v ] || exit 0\necho "sudo $*" >>"%s"\necho "Sorry, try again." >&2\nexit 1\n' \
    "$work/sudo-calls" >"$work/refusing-sudo-bin/sudo"
sudo_refuses_apt() {
    rm -f "$work/sudo-calls" "$work/apt-lists" "$work/apt-calls"
    touch "$work/sudo-calls" "$work/apt-calls"
    ! env PATH="$work/as-user-bin:$work/refusing-sudo-bin:$work/apt-bin:$PATH" FLICKD_BOLT=1 APT_HAS_BOLT=1 \
        "$repo/scripts/install-deps" --test >"$work/deps.log" 2>&1 &&
        test "$(wc -l <"$work/sudo-calls")" = 1 && ! grep -q "trying again" "$work/deps.log" &&
        grep -q "sudo apt-get update failed: sudo refused" "$work/deps.log"
}
check "sudo refusing apt-get itself is not tried again" sudo_refuses_apt

# ------------------------------------------------------------ scripts/package's Depends ---
# Each program the unit runs besides flickd (ExecReload=/bin/kill) comes from an Essential
# package, or from one that scripts/package adds to the .deb's Depends (a `depends="$depends,
# ..."` line): asked of dpkg here, so only on a Debian-based system with the program installed.
unit_programs=$(sed -n 's/^Exec[A-Za-z]*=[-@:+!]*\(\/[^ ]*\).*/\1/p' "$repo/systemd/flickd.service" | grep -v '/flickd$' | sort -u)
added=$(sed -n 's/^depends="\$depends, \(.*\)"$/\1/p' "$repo/scripts/package" | tr ',' '\n' | sed 's/^ *//; s/ .*//')
for program in $unit_programs; do
    if ! command -v dpkg >/dev/null || ! owner=$(dpkg -S "$program" 2>/dev/null | cut -d: -f1 | head -n 1) || [ -z "$owner" ]; then
        echo "skip the .deb's dependency for the unit's $program (no dpkg, or no package here owns it)"
        continue
    fi
    if [ "$(dpkg-query -W -f='${Essential}' "$owner" 2>/dev/null)" = yes ]; then
        pass "the unit's $program is from $owner, which is Essential"
    else
        check "the unit's $program is from $owner, which is not Essential: scripts/package adds it to Depends (added: $(echo $added))" \
            grep -qx "$owner" <<<"$added"
    fi
done

# Under pipefail, `COMMAND | grep -q` fails when grep, having found its line, exits before
# COMMAND has written everything (SIGPIPE): scripts/package reads such output whole first.
check "scripts/package pipes nothing into grep -q (readelf's section headers are read whole first)" \
    bash -c '! grep -n "|[[:space:]]*grep -q" "$1"' _ "$repo/scripts/package"

# -------------------------------------------------------------- scripts/release-flags.sh ---
# Where lld is found, for scripts/install run as root: a stand-in swift like swiftly's proxy in
# a user's home, which names its toolchain (in -print-target-info) only when run as that user
# (through the stand-in prefix as-owner, as release_as runs it; as root the proxy finds no
# configuration), with ld.lld in the toolchain and not beside the proxy. A copy of the script,
# so that the .build/static-libstdc++ it makes is under $work.
if [ "$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')" -ge 36 ] 2>/dev/null; then
    mkdir -p "$work/rf/scripts" "$work/swiftly/bin" "$work/toolchain/usr/bin" "$work/toolchain/usr/lib/swift"
    cp "$repo/scripts/release-flags.sh" "$work/rf/scripts/"
    cat >"$work/swiftly/bin/swift" <<EOF
#!/bin/sh
[ "\$AS_OWNER" = 1 ] || { echo "swiftly: no configuration found" >&2; exit 1; }
echo '  "runtimeResourcePath": "$work/toolchain/usr/lib/swift",'
EOF
    printf '#!/bin/sh\nexit 0\n' >"$work/toolchain/usr/bin/ld.lld"
    printf '#!/bin/sh\nexec env AS_OWNER=1 "$@"\n' >"$work/as-owner"
    chmod 755 "$work/swiftly/bin/swift" "$work/toolchain/usr/bin/ld.lld" "$work/as-owner"
    flags_for() {  # RELEASE_AS...: prints release_flags, then what it said
        bash -c 'set -euo pipefail; . "$1"; shift 2; [ $# -eq 0 ] || release_as=("$@"); release_flags "$swift"
                 printf "%s\n" "${release_flags[@]}"' \
            flags "$work/rf/scripts/release-flags.sh" _ "$@" 2>&1
    }
    export swift=$work/swiftly/bin/swift
    said=$(flags_for "$work/as-owner") || true
    check "run as root, release_flags asks the swift of the checkout's owner (release_as) for its toolchain, and links with its lld" \
        grep -qx -- -use-ld=lld <<<"$said"
    if ! grep -qx -- -use-ld=lld <<<"$said"; then sed 's/^/    /' <<<"$said"; fi
    said=$(flags_for) || true  # (a release_flags that fails ends its caller, under errexit)
    check "a swift that names no toolchain: no lld flags, and a note that says so" \
        bash -c '! grep -qx -- -use-ld=lld <<<"$1" && grep -q "note: no ld.lld beside .*did not say where its toolchain is" <<<"$1"' _ "$said"
    unset swift
else
    echo "skip the release flags' lld checks (glibc before 2.36: no lld flags to add)"
fi

# ------------------------------------------------------------------------- mistakes caught ---
# A prefix refused by install, saying why (MESSAGE), with nothing staged; by uninstall too, but
# with "installable" (uninstall removes what an earlier version installed there, whatever its
# characters).
refused_prefix() {  # PREFIX MESSAGE [installable]
    local dest=$work/refused
    rm -rf "$dest"
    if PATH=$fake_path "$repo/scripts/install" --destdir "$dest" --prefix "$1" --binary "$binary" \
            >"$work/err.log" 2>&1; then
        return 1
    fi
    grep -qF -- "$2" "$work/err.log" && test -z "$(find "$dest" -mindepth 1 2>/dev/null)" || return 1
    mkdir -p "$dest"
    if [ "${3:-}" = installable ]; then
        mkdir -p "$dest$1/bin" && cp "$binary" "$dest$1/bin/flickd"
        PATH=$fake_path "$repo/scripts/uninstall" --destdir "$dest" --prefix "$1" >"$work/err.log" 2>&1 &&
            test ! -e "$dest$1/bin/flickd"
        return
    fi
    if PATH=$fake_path "$repo/scripts/uninstall" --destdir "$dest" --prefix "$1" >"$work/err.log" 2>&1; then
        return 1
    fi
    grep -qF -- "$2" "$work/err.log"
}
# systemd splits ExecStart= at blanks and expands %, $, quotes and backslashes; sed reads & | \.
for odd in '/opt/my apps' "/opt/tab$(printf '\t')bed" '/opt/a&b' '/opt/a|b' '/opt/a\b' '/opt/%h' '/opt/$HOME' "/opt/it's"; do
    check "--prefix '$odd' is refused by install, saying why; uninstall removes a binary an earlier version put there" \
        refused_prefix "$odd" "that the unit's ExecStart= line cannot hold" installable
done
check "--prefix / is refused, pointing to /usr and /usr/local" refused_prefix / "use --prefix /usr"
check "--prefix // is refused too" refused_prefix // "use --prefix /usr"
check "--prefix /opt/../usr is refused" refused_prefix /opt/../usr "has a . or .. in it"
if PATH=$fake_path "$repo/scripts/install" --destdir "$work/x" --prefix relative --binary "$binary" >"$work/err.log" 2>&1; then
    fail "a relative --prefix is refused"
else
    check "a relative --prefix is refused, saying so" grep -q "must be an absolute path" "$work/err.log"
fi
if PATH=$fake_path "$repo/scripts/install" --bogus >"$work/err.log" 2>&1; then
    fail "an unknown option is refused"
else
    check "an unknown option is refused, with the usage" grep -q "unknown option '--bogus'" "$work/err.log"
fi
if PATH=$fake_path "$repo/scripts/install" --destdir "$work/y" --binary "$work/missing" >"$work/err.log" 2>&1; then
    fail "a missing --binary is refused"
else
    check "a missing --binary is refused, saying so" grep -q "is not an executable file" "$work/err.log"
fi
check "install --help prints the usage" bash -c "'$repo/scripts/install' --help | grep -q -- '--destdir DIR'"
check "install --help names what scripts/lib/paths.sh refuses in --prefix" \
    bash -c "'$repo/scripts/install' --help | grep -qF -- \"control characters, \\\\ ' \\\" % \\\$ & |\""
check "install --help allows no fewer characters than scripts/lib/paths.sh does" \
    bash -c "! '$repo/scripts/install' --help | grep -q 'only letters'"
check "uninstall --help prints the usage" bash -c "'$repo/scripts/uninstall' --help | grep -q -- '--destdir DIR'"

if [ "$failures" -ne 0 ]; then
    echo "install-test: $failures check(s) failed"
    exit 1
fi
echo "install-test: all checks passed"
