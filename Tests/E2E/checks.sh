# Check helpers for the shell tests (install-test.sh, install-guest-test.sh): source it, then
# `check DESCRIPTION COMMAND...`, or `pass`/`fail DESCRIPTION`; $failures counts the failures.
# scripts/test counts the lines that start "ok ".
failures=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
check() {  # DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
