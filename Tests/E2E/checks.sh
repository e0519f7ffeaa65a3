# Check helpers for the shell tests (install-test.sh, install-guest-test.sh, package-guest-test.sh,
# test_guest.sh): source it, then
# `check DESCRIPTION COMMAND...`, or `pass`/`fail DESCRIPTION`; $failures counts the failures.
# scripts/test counts the lines that start "ok ".
failures=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
check() {  # DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

# In the guest: journald, and a systemd user manager for a new user `tester` (in the groups
# given, e.g. `input`), started the way a login would; sets $uid and $runtime and defines
# as_tester. Checks that the manager reaches "running".
start_user_manager() {  # [GROUPS]
    mount -t cgroup2 none /sys/fs/cgroup
    mkdir -p /run/systemd/journal /run/log/journal /run/systemd/system
    /lib/systemd/systemd-journald &
    for _ in $(seq 50); do [ -S /run/systemd/journal/stdout ] && break; sleep 0.1; done
    useradd -m ${1:+-G "$1"} tester
    uid=$(id -u tester)
    runtime=/run/user/$uid
    local cgroup=/sys/fs/cgroup/user.slice/user-$uid.slice/user@$uid.service
    mkdir -p "$cgroup" "$runtime"
    chown -R tester:tester "$cgroup" "$runtime"
    chmod 700 "$runtime"
    (
        echo "$BASHPID" >"$cgroup/cgroup.procs"
        exec setpriv --reuid=tester --regid=tester --init-groups env -i HOME=/home/tester USER=tester \
            LOGNAME=tester XDG_RUNTIME_DIR="$runtime" PATH=/usr/local/bin:/usr/bin:/bin /lib/systemd/systemd --user
    ) >"$E2E_TMP/user-manager.log" 2>&1 &
    for _ in $(seq 100); do [ -S "$runtime/systemd/private" ] && break; sleep 0.1; done
    local manager_state=""
    for _ in $(seq 50); do
        manager_state=$(as_tester systemctl --user is-system-running 2>/dev/null || true)
        case "$manager_state" in running|degraded) break ;; esac
        sleep 0.2
    done
    check "the user manager runs: $manager_state" test "$manager_state" = running
}
as_tester() { runuser -u tester -- env XDG_RUNTIME_DIR="$runtime" "$@"; }
