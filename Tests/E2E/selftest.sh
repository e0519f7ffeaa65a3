#!/bin/bash
# Self-test of the e2e harness, without flickd. Runs INSIDE the guest:
#   Tests/E2E/guest run [--results DIR] -- Tests/E2E/selftest.sh
# (a) virtual touch devices made from the repository's fixtures (Tests/Fixtures/devices; E2E_DEVICES
#     names another folder of .device or .json descriptions): udev tags them, and
#     libinput reads their gestures (two-finger scroll -> POINTER_SCROLL_FINGER, three-finger
#     swipe, touchscreen drag -> TOUCH_*);
# (b) a uinput wheel device: udev's tags for several capability sets, and exactly what
#     `libinput debug-events` prints for hi-res wheel input (written to wheel-facts.txt).
# Logs go to $E2E_RESULTS/selftest/ when the guest has a results directory, else $E2E_TMP.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
devices=${E2E_DEVICES:-$here/../Fixtures/devices}
py=/usr/bin/python3
out=${E2E_RESULTS:-${E2E_TMP:-/tmp}}/selftest
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.txt "$out"/*.json 2>/dev/null || true

[ "${E2E_GUEST:-}" = 1 ] || echo "selftest: warning: not in the e2e guest (E2E_GUEST unset)" >&2
[ -e /dev/uinput ] || { echo "selftest: FAIL: no /dev/uinput" >&2; exit 1; }

failures=0
checks=0
t_start=$(date +%s.%N)
pass() { checks=$((checks + 1)); echo "  ok   $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "  FAIL $*"; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
json_field() { sed -n "s/.*\"$1\": \"\\{0,1\\}\\([^\",}]*\\)\"\\{0,1\\}[,}].*/\\1/p" <<<"$2"; }
elapsed() { echo "$(date +%s.%N) $t_start" | awk '{ printf "%.1f", $1 - $2 }'; }

# wait_for PATTERN FILE SECONDS: until the file has a line matching the ERE.
wait_for() {
    local i n=$(( $3 * 10 ))
    for ((i = 0; i < n; i++)); do
        grep -Eq -- "$1" "$2" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# libinput debug-events on one device, line-buffered, into $1; pid in $li_pid.
start_libinput() {
    local log=$1 dev=$2
    stdbuf -oL libinput debug-events --verbose --device "$dev" >"$log" 2>&1 &
    li_pid=$!
    wait_for 'DEVICE_ADDED' "$log" 20 || { echo "libinput did not add $dev:"; cat "$log"; return 1; }
}
stop_libinput() { kill "$li_pid" 2>/dev/null || true; wait "$li_pid" 2>/dev/null || true; }

# A vdev.py server as a coprocess: start_vdev ARGS... ; then vdev STEP... (one JSON line each
# into $reply); stop_vdev.
start_vdev() {
    coproc VDEV { exec "$py" "$here/vdev.py" "$@" 2>"$out/vdev.err"; }
    vdev_pid=$VDEV_PID
    vdev_in=${VDEV[1]}
    vdev_out=${VDEV[0]}
    if ! read -r -t 30 ready <&"$vdev_out"; then
        echo "vdev.py did not become ready:"; cat "$out/vdev.err"; return 1
    fi
}
vdev() {  # replies in ${replies[@]}, the first one also in $reply
    local s r
    replies=()
    echo "$*" >&"$vdev_in"
    for s in "$@"; do
        read -r -t 60 r <&"$vdev_out" || { echo "vdev.py: no reply to $s"; cat "$out/vdev.err"; return 1; }
        replies+=("$r")
        echo "$r" >>"$out/steps.json"
        case "$r" in *'"error"'*) echo "vdev.py: $r"; return 1 ;; esac
    done
    reply=${replies[0]}
}
stop_vdev() {
    echo quit >&"$vdev_in" 2>/dev/null || true
    local i
    for ((i = 0; i < 50; i++)); do kill -0 "$vdev_pid" 2>/dev/null || break; sleep 0.1; done
    kill "$vdev_pid" 2>/dev/null || true
    wait "$vdev_pid" 2>/dev/null || true
}

# The description NAME in $devices: NAME.device, else NAME.json.
device() { if [ -e "$devices/$1.device" ]; then echo "$devices/$1.device"; else echo "$devices/$1.json"; fi; }

# Lines of $1 after line $2 matching $3.
since() { tail -n +"$(( $2 + 1 ))" "$1" | grep -E -- "$3" || true; }
sign_of_vert() { awk '{ for (i = 1; i <= NF; i++) if ($i == "vert") { v = $(i+1); sub(/\/.*/, "", v); sub(/\*$/, "", v); v += 0; if (v > 0) p++; else if (v < 0) n++ } } END { if (p && !n) print "+"; else if (n && !p) print "-"; else if (p && n) print "mixed"; else print "none" }'; }
sign_of_horiz() { awk '{ for (i = 1; i <= NF; i++) if ($i == "horiz") { v = $(i+1); sub(/\/.*/, "", v); sub(/\*$/, "", v); v += 0; if (v > 0) p++; else if (v < 0) n++ } } END { if (p && !n) print "+"; else if (n && !p) print "-"; else if (p && n) print "mixed"; else print "none" }'; }

# ------------------------------------------------------------------------- touchpads ---

test_touchpad() {
    local json=$1 label=$2 log n0 lines sdown sup
    echo "== touchpad $label ($(basename "$json"))  [$(elapsed) s]"
    start_vdev serve "$json" || { fail "$label: vdev.py serve"; return; }
    local node
    node=$(json_field devnode "$ready")
    echo "     $node: $(json_field protocol "$ready"), $(json_field slots "$ready") slots"
    udevadm info --query=property --name="$node" >"$out/$label.udev.txt"
    check "$label: udev ID_INPUT_TOUCHPAD=1" grep -qx 'ID_INPUT_TOUCHPAD=1' "$out/$label.udev.txt"
    log=$out/$label.libinput.log
    if ! start_libinput "$log" "$node"; then fail "$label: libinput DEVICE_ADDED"; stop_vdev; return; fi
    pass "$label: libinput added it ($(grep -o 'cap:[^ ]*.*' "$log" | head -1 | tr -s ' '))"

    n0=$(wc -l <"$log")
    vdev scroll:down,speed=40,duration=300ms wait:200ms || true
    lines=$(since "$log" "$n0" 'POINTER_SCROLL_FINGER')
    check "$label: two-finger scroll down -> POINTER_SCROLL_FINGER ($(grep -c . <<<"$lines") events)" \
        test -n "$lines"
    sdown=$(grep -v 'vert 0.00/0.0\*\? *horiz 0.00' <<<"$lines" | sign_of_vert)
    echo "$lines" | head -3 | sed 's/^/       /'

    n0=$(wc -l <"$log")
    vdev scroll:up,speed=40,duration=300ms wait:200ms || true
    lines=$(since "$log" "$n0" 'POINTER_SCROLL_FINGER')
    sup=$(grep -v 'vert 0.00/0.0\*\? *horiz 0.00' <<<"$lines" | sign_of_vert)
    check "$label: scroll up/down give opposite vertical signs (down: $sdown, up: $sup)" \
        test "$sdown" != "$sup" -a "$sdown" != none -a "$sup" != none -a "$sdown" != mixed -a "$sup" != mixed

    n0=$(wc -l <"$log")
    vdev scroll:right,speed=40,duration=300ms wait:200ms || true
    lines=$(since "$log" "$n0" 'POINTER_SCROLL_FINGER')
    check "$label: two-finger scroll right -> horizontal POINTER_SCROLL_FINGER (sign $(sign_of_horiz <<<"$lines"))" \
        test "$(sign_of_horiz <<<"$lines")" != none

    n0=$(wc -l <"$log")
    vdev flick:down,speed=250,duration=150ms,stagger=20ms wait:300ms || true
    check "$label: fast flick with staggered lift -> POINTER_SCROLL_FINGER" \
        test -n "$(since "$log" "$n0" 'POINTER_SCROLL_FINGER')"
    # Each kernel stamp lies within its frame's write (1 ms of slack) and the first lift comes
    # first. The 20 ms stagger is checked where the two frames were written 10-40 ms apart: the
    # writer keeps to its schedule, so a first lift held back by the guest goes out just before
    # the release (an emulated guest sometimes stalls for 20 ms).
    local k t t0 kf tf tf0 late
    k=$(json_field k_release "$reply"); t=$(json_field t_release "$reply")
    t0=$(json_field t0_release "$reply"); kf=$(json_field k_first_lift "$reply")
    tf=$(json_field t_first_lift "$reply"); tf0=$(json_field t0_first_lift "$reply")
    late=$(json_field max_late_ms "$reply")
    check "$label: kernel timestamps read back (release: written $t0..$t, kernel $k; first lift: written $tf0..$tf, kernel ${kf}; latest frame ${late} ms late)" \
        awk -v k="$k" -v t="$t" -v t0="$t0" -v f="$kf" -v tf="$tf" -v tf0="$tf0" -v late="$late" 'BEGIN {
            if (k == "" || k == "null" || f == "" || f == "null" || late == "" || late == "null") exit 1
            if (k < t0 - 0.001 || k > t + 0.001 || f < tf0 - 0.001 || f > tf + 0.001 || k <= f) exit 1
            if (t0 - tf < 0.010 || t0 - tf > 0.040) exit 0
            exit !(k - f > 0.009 && k - f < 0.041) }'

    n0=$(wc -l <"$log")
    vdev flick:down,fingers=3,speed=60,duration=400ms wait:300ms || true
    lines=$(since "$log" "$n0" 'GESTURE_SWIPE_BEGIN')
    check "$label: three fingers -> GESTURE_SWIPE_BEGIN with 3 fingers" grep -Eq '[[:space:]]3$' <<<"$lines"

    stop_libinput
    stop_vdev
}

# ----------------------------------------------------------------------- touchscreen ---

test_touchscreen() {
    local json=$1 label=$2 log n0
    echo "== touchscreen $label ($(basename "$json"))  [$(elapsed) s]"
    start_vdev serve "$json" || { fail "$label: vdev.py serve"; return; }
    local node
    node=$(json_field devnode "$ready")
    udevadm info --query=property --name="$node" >"$out/$label.udev.txt"
    check "$label: udev ID_INPUT_TOUCHSCREEN=1" grep -qx 'ID_INPUT_TOUCHSCREEN=1' "$out/$label.udev.txt"
    log=$out/$label.libinput.log
    if ! start_libinput "$log" "$node"; then fail "$label: libinput DEVICE_ADDED"; stop_vdev; return; fi
    pass "$label: libinput added it ($(grep -o 'cap:[^ ]*' "$log" | head -1))"
    n0=$(wc -l <"$log")
    vdev drag:down,speed=100,duration=300ms wait:300ms || true
    check "$label: one-finger drag -> TOUCH_DOWN, TOUCH_MOTION, TOUCH_UP" \
        bash -c "tail -n +$((n0 + 1)) '$log' | grep -q TOUCH_DOWN && tail -n +$((n0 + 1)) '$log' | grep -q TOUCH_MOTION && tail -n +$((n0 + 1)) '$log' | grep -q TOUCH_UP"
    n0=$(wc -l <"$log")
    vdev drag:right,fingers=2,speed=100,duration=200ms wait:300ms || true
    check "$label: two-finger drag -> two TOUCH_DOWN" \
        test "$(since "$log" "$n0" 'TOUCH_DOWN' | grep -c .)" -eq 2
    stop_libinput
    stop_vdev
}

# ----------------------------------------------------------------------------- wheel ---

facts=$out/wheel-facts.txt
wheel_group() {  # wheel_group STEP... : send, wait past libinput's 500 ms scroll timeout
    local n0 i line got=""
    mapfile -t wl <"$wlog"
    n0=${#wl[@]}
    vdev "$@" || true
    sleep 0.6
    mapfile -t wl <"$wlog"
    for ((i = n0; i < ${#wl[@]}; i++)); do
        line=${wl[i]}
        case $line in *POINTER_SCROLL_WHEEL* | *POINTER_AXIS*) ;; *) continue ;; esac
        [[ $line =~ (vert [^ ]+ horiz [^ ]+) ]] && got+="${got:+; }${BASH_REMATCH[1]}"
    done
    printf '%-58s -> %s\n' "$*" "$got" >>"$facts"
    wheel_last=$got
}

test_wheel() {
    echo "== uinput wheel device  [$(elapsed) s]"
    local caps node
    {
        echo "# What libinput $(libinput --version) prints for a uinput hi-res wheel device."
        echo "# Kernel $(uname -r). Values: libinput's 'vert|horiz DEGREES/V120'; * = has v120."
        echo "# Sent: v:N = REL_WHEEL_HI_RES N, h:N = REL_HWHEEL_HI_RES N (+ legacy REL_WHEEL/HWHEEL"
        echo "# per whole 120), lv:N = legacy REL_WHEEL only; groups are >= 0.6 s apart (libinput's"
        echo "# wheel scroll timeout is 500 ms), and a group's held-back remainder shows in a later one."
    } >"$facts"
    for caps in wheel wheel+buttons full; do
        start_vdev wheel --caps "$caps" --settle 0 --serve || { fail "wheel $caps: vdev.py wheel"; continue; }
        node=$(json_field devnode "$ready")
        udevadm info --query=property --name="$node" >"$out/wheel-$caps.udev.txt"
        echo "caps=$caps: udev $(grep '^ID_INPUT' "$out/wheel-$caps.udev.txt" | paste -sd ' ' -)" >>"$facts"
        wlog=$out/wheel-$caps.libinput.log
        if start_libinput "$wlog" "$node"; then
            echo "caps=$caps: libinput $(grep -o 'DEVICE_ADDED.*' "$wlog" | head -1 | tr -s ' ')" >>"$facts"
        else
            echo "caps=$caps: libinput did not add the device" >>"$facts"
        fi
        case $caps in
            full)
                check "wheel full (REL_X/Y, BTN_LEFT/RIGHT/MIDDLE, wheels): udev ID_INPUT_MOUSE=1" \
                    grep -qx 'ID_INPUT_MOUSE=1' "$out/wheel-$caps.udev.txt"
                wheel_group v:120
                check "REL_WHEEL_HI_RES +120 -> POINTER_SCROLL_WHEEL vert -120 (v120)" \
                    grep -q 'vert -15.00/-120.0\*' <<<"$wheel_last"
                wheel_group v:-120
                check "REL_WHEEL_HI_RES -120 -> POINTER_SCROLL_WHEEL vert +120 (v120)" \
                    grep -q 'vert 15.00/120.0\*' <<<"$wheel_last"
                wheel_group h:120
                check "REL_HWHEEL_HI_RES +120 -> POINTER_SCROLL_WHEEL horiz +120 (v120)" \
                    grep -q 'horiz 15.00/120.0\*' <<<"$wheel_last"
                wheel_group h:-120
                wheel_group v:30 wait:10ms v:30 wait:10ms v:30 wait:10ms v:30
                check "four REL_WHEEL_HI_RES +30 after a pause -> vert v120 $(grep -o -- '/-[0-9.]*\*' <<<"$wheel_last" | tr -d '/*' | paste -sd ' ' -) (sum -120)" \
                    test "$(grep -o -- '/-[0-9.]*\*' <<<"$wheel_last" | tr -d '/*' | awk '{ t += $1 } END { print t }')" = -120
                wheel_group v:8 wait:10ms v:8 wait:10ms v:8 wait:10ms v:8 wait:10ms v:8 wait:10ms v:8 wait:10ms v:8 wait:10ms v:8 wait:10ms v:8
                wheel_group v:59
                wheel_group v:1
                wheel_group v:60 wait:450ms v:30
                wheel_group v:60 wait:550ms v:30
                wheel_group v:30
                wheel_group v:30 wait:10ms v:30 wait:10ms v:30 wait:10ms v:-30 wait:10ms v:-30 wait:10ms v:-30
                wheel_group lv:1
                ;;
            *)
                wheel_group v:120
                ;;
        esac
        [ "$caps" = wheel+buttons ] && check "wheel+buttons (no REL_X/REL_Y): udev ID_INPUT_MOUSE=1" \
            grep -qx 'ID_INPUT_MOUSE=1' "$out/wheel-$caps.udev.txt"
        [ "$caps" = wheel ] && echo "     wheel only: $(grep '^ID_INPUT' "$out/wheel-$caps.udev.txt" | paste -sd ' ' -)"
        stop_libinput
        stop_vdev
    done
    echo "-- wheel facts ($facts):"
    sed 's/^/   /' "$facts"
}

# --------------------------------------------------------------------- swift runtime ---

test_swift_runtime() {
    echo "== Swift runtime  [$(elapsed) s]"
    local bin
    for bin in .build/debug/flickd .build/release/flickd; do
        [ -x "$bin" ] || continue
        local o rc=0
        o=$(timeout 30 "$bin" --help 2>&1) || rc=$?
        check "$bin --help runs in the guest (Swift runtime from /opt/swift reachable; rc $rc)" \
            bash -c "[ $rc -eq 0 ] && ! grep -q 'error while loading shared libraries' <<<\"\$1\"" _ "$o"
        return
    done
    echo "     (no .build/*/flickd yet; skipped)"
}

: >"$out/steps.json"
test_touchpad "$(device synaptics-t440)" t440
test_touchpad "$(device synaptics-rmi4)" rmi4
test_touchscreen "$(device touch-screen)" touchscreen
test_wheel
test_swift_runtime

echo "== selftest: $((checks - failures))/$checks checks passed in $(elapsed) s (logs: $out)"
[ "$failures" -eq 0 ]
