#!/usr/bin/env bash
# `Tests/E2E/guest run`'s own handling of a guest that fails, offline on the host: a stand-in
# qemu-system-x86_64 on PATH plays a boot that panics, a command that finishes, a panic after
# the command began, an initramfs that fails; a throw-away cache holds a stand-in kernel.
#
#   Tests/E2E/test_guest.sh
#
# Checks that a kernel panic before the command begins is booted again (three boots at most),
# that the command's output and exit status come through from the boot that worked, and that
# nothing is booted again once the command has begun or when the failure is not a panic.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flickd-guest-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=checks.sh
. "$here/checks.sh"

# A cache with a stand-in kernel and initramfs (their content is never read: qemu is a stand-in).
cache=$work/cache
kver=0.0.0-stand-in
mkdir -p "$cache/kernel/$kver/boot"
echo "$kver" >"$cache/current-kernel"
: >"$cache/kernel/$kver/.complete"
: >"$cache/kernel/$kver/boot/vmlinuz-$kver"
initramfs=$(FLICKD_E2E_CACHE=$cache "$here/guest" info | sed -n 's/^initramfs: *//p')
[ -n "$initramfs" ] || { echo "test_guest: 'guest info' named no initramfs" >&2; exit 1; }
: >"$initramfs"

# The stand-in QEMU: each boot takes the next word of $work/plan and appends it to $work/boots.
#   panic       the kernel panics before the command begins
#   ok          the command begins, prints a line and exits with status 7
#   late-panic  the command begins and prints a line, then the kernel panics
#   init-fail   the initramfs reports a failure; no panic
mkdir -p "$work/bin"
cat >"$work/bin/qemu-system-x86_64" <<EOF
#!/usr/bin/env bash
work='$work'
EOF
cat >>"$work/bin/qemu-system-x86_64" <<'EOF'
console="" job=""
while [ $# -gt 0 ]; do
    case "$1" in
        -serial) case "$2" in file:*) console=${2#file:} ;; esac; shift 2 ;;
        -append) for word in $2; do case "$word" in e2e.job=*) job=${word#e2e.job=} ;; esac; done; shift 2 ;;
        *) shift ;;
    esac
done
# shellcheck source=/dev/null
. "$job/env"
boot=$(($(wc -l <"$work/boots" 2>/dev/null || echo 0) + 1))
what=$(tr ' ' '\n' <"$work/plan" | sed -n "${boot}p")
echo "$what" >>"$work/boots"
echo "[    0.000000] Linux version $E2E_KVER (a stand-in)" >"$console"
case "$what" in
    panic)
        echo "[    2.716227] Kernel panic - not syncing: Fatal exception in interrupt" >>"$console" ;;
    ok)
        echo "@@E2E-BEGIN:$E2E_NONCE@@"
        echo "the command's output"
        echo "@@E2E-EXIT:$E2E_NONCE:7@@" ;;
    late-panic)
        echo "@@E2E-BEGIN:$E2E_NONCE@@"
        echo "the command's output"
        echo "[   30.000000] Kernel panic - not syncing: Fatal exception" >>"$console" ;;
    init-fail)
        echo "@@E2E-INIT-FAILED@@ e2e-init: cannot mount the host's root" ;;
esac
exit 0
EOF
chmod 755 "$work/bin/qemu-system-x86_64"

# run PLAN: boots the stand-in guest with that plan; sets $status, $boots, $out, $err.
run() {
    echo "$1" >"$work/plan"
    rm -f "$work/boots"
    status=0
    PATH=$work/bin:$PATH FLICKD_E2E_CACHE=$cache "$here/guest" run --timeout 60 -- true \
        >"$work/out" 2>"$work/err" || status=$?
    boots=$(paste -sd ' ' "$work/boots" 2>/dev/null || true)
    out=$(<"$work/out")
    err=$(<"$work/err")
}
says() { grep -qF -- "$1" <<<"$2"; }

run "ok"
check "a boot that works: the command's status (7)" test "$status" = 7
check "a boot that works: the command's output on stdout" test "$out" = "the command's output"
check "a boot that works: booted once" test "$boots" = "ok"

run "panic ok"
check "a panic while booting, then a boot that works: the command's status (7)" test "$status" = 7
check "a panic while booting: booted again, once" test "$boots" = "panic ok"
check "a panic while booting: the command's output once, from the second boot" test "$out" = "the command's output"
check "a panic while booting: stderr says it boots again" says "booting again (attempt 2 of 3)" "$err"
check "a panic while booting: stderr shows the panicked kernel's console" says "Kernel panic - not syncing" "$err"

run "panic panic panic panic"
check "a kernel that always panics: status 125" test "$status" = 125
check "a kernel that always panics: three boots, no more" test "$boots" = "panic panic panic"
check "a kernel that always panics: stderr says the guest failed" \
    says "the guest stopped without reporting an exit status" "$err"

run "late-panic ok"
check "a panic after the command began: status 125" test "$status" = 125
check "a panic after the command began: never booted again" test "$boots" = "late-panic"
check "a panic after the command began: the command's output so far on stdout" \
    test "$out" = "the command's output"

run "init-fail ok"
check "an initramfs failure (no panic): status 125" test "$status" = 125
check "an initramfs failure (no panic): not booted again" test "$boots" = "init-fail"
check "an initramfs failure: its message on stderr" says "cannot mount the host's root" "$err"

if [ "$failures" -ne 0 ]; then
    echo "test_guest: $failures check(s) failed"
    exit 1
fi
echo "test_guest: all checks passed"
