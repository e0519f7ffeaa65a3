#!/usr/bin/env bash
# `Tests/E2E/guest run`'s own handling of a guest that fails, offline on the host: a stand-in
# qemu-system-x86_64 on PATH plays a boot that panics, a command that finishes, a panic after
# the command began, an initramfs that fails; a throw-away cache holds a stand-in kernel.
#
#   Tests/E2E/test_guest.sh
#
# Checks that a kernel panic before the command begins is booted again (three boots at most),
# that the command's output and exit status come through from the boot that worked, and that
# nothing is booted again once the command has begun or when the failure is not a panic; and
# that the paths of a clone, a cache and a results directory with a space, quotes, $, * ? [ ], a
# backslash and a comma reach the guest whole.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flickd-guest-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=checks.sh
. "$here/checks.sh"

# stand_in_cache GUEST CACHE: a cache for the guest script GUEST with a stand-in kernel and
# initramfs (their content is never read: qemu is a stand-in).
stand_in_cache() {
    local guest=$1 cache=$2 kver=0.0.0-stand-in initramfs
    mkdir -p "$cache/kernel/$kver/boot"
    echo "$kver" >"$cache/current-kernel"
    : >"$cache/kernel/$kver/.complete"
    : >"$cache/kernel/$kver/boot/vmlinuz-$kver"
    initramfs=$(FLICKD_E2E_CACHE=$cache "$guest" info | sed -n 's/^initramfs: *//p')
    [ -n "$initramfs" ] || { echo "test_guest: 'guest info' named no initramfs" >&2; exit 1; }
    : >"$initramfs"
}
guest=$here/guest cache=$work/cache results=""
stand_in_cache "$guest" "$cache"

# The stand-in QEMU: each boot takes the next word of $work/plan and appends it to $work/boots.
#   panic       the kernel panics before the command begins
#   ok          the command begins, prints a line and exits with status 7
#   late-panic  the command begins and prints a line, then the kernel panics
#   init-fail   the initramfs reports a failure; no panic
# Every boot first reads e2e.stage2= and e2e.job= from the kernel command line as initramfs-init
# and stage2 do (split as the shell splits, %XX back to its byte), and the results directory
# from -virtfs as QEMU does (",," is a comma); a path that names nothing fails as the real init
# would.
mkdir -p "$work/bin"
{ echo '#!/usr/bin/env bash'; printf 'work=%q\n' "$work"; } >"$work/bin/qemu-system-x86_64"
cat >>"$work/bin/qemu-system-x86_64" <<'EOF'
console="" job="" stage2="" results=""
while [ $# -gt 0 ]; do
    case "$1" in
        -serial) case "$2" in file:*) console=${2#file:} ;; esac; shift 2 ;;
        -append)
            for word in $2; do
                case "$word" in
                    e2e.job=*) job=${word#e2e.job=} ;;
                    e2e.stage2=*) stage2=${word#e2e.stage2=} ;;
                esac
            done
            shift 2 ;;
        -virtfs)
            case "$2" in
                *,mount_tag=results,*)
                    results=${2//,,/$'\n'}; results=${results#*,path=}
                    results=${results%%,*}; results=${results//$'\n'/,} ;;
            esac
            shift 2 ;;
        *) shift ;;
    esac
done
printf -v stage2 '%b' "${stage2//%/\\x}"
printf -v job '%b' "${job//%/\\x}"
init_failed() { echo "@@E2E-INIT-FAILED@@ $*"; exit 0; }
[ -x "$stage2" ] || init_failed "stage 2 '$stage2' not found or not executable in the host tree"
[ -f "$job/env" ] || init_failed "no job (e2e.job=$job)"
[ -z "$results" ] || [ -d "$results" ] || init_failed "mount results: no directory '$results'"
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
    PATH=$work/bin:$PATH FLICKD_E2E_CACHE=$cache "$guest" run --timeout 60 ${results:+--results "$results"} \
        -- true >"$work/out" 2>"$work/err" || status=$?
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

# A clone (the guest script's directory names stage 2), a cache (it holds the job) and a results
# directory whose paths the kernel command line, the shell or QEMU's options would cut or expand.
odd="$work/a b \"c\" 'd' \$e *?[f],g \\n"  # ends in \ and n: awk -v reads that as a newline
mkdir -p "$odd/clone/Tests/E2E"
cp "$here/guest" "$here/initramfs-init" "$here/stage2" "$odd/clone/Tests/E2E/"
guest=$odd/clone/Tests/E2E/guest cache=$odd/cache results=$odd/results,1
stand_in_cache "$guest" "$cache"
run "ok"
check "paths with a space, quotes, \$, * ? [ ], a comma and a backslash: the command's status (7)" \
    test "$status" = 7
check "paths with a space, quotes, \$, * ? [ ], a comma and a backslash: no init failure" \
    test "$err" = ""
check "paths with a space, quotes, \$, * ? [ ], a comma and a backslash: the job removed after it" \
    test -z "$(ls -A "$cache/jobs" 2>/dev/null)"

if [ "$failures" -ne 0 ]; then
    echo "test_guest: $failures check(s) failed"
    exit 1
fi
echo "test_guest: all checks passed"
