# The user whose desktop session runs flickd, and their systemd user manager: sourced by
# scripts/install and scripts/uninstall, so that the two find the same user.
#
#   find_target_user    sets target_user and target_how (below)
#   user_systemctl ARG...   systemctl --user ARG... for $target_user
#   user_can_open_uinput    whether $target_user can open /dev/uinput now
#   process_lacks_group PID GID   whether process PID (a user manager) lacks group GID
#   stop_user_service UNIT...   stops and disables flickd.service for $target_user when the
#                           unit file their manager loads is one of UNIT... (this install's),
#                           saying what it did (with the caller's `say`); leaves another
#                           install's alone
#   reload_user_units       after the unit files went: daemon-reload for $target_user, and says
#                           how to start another install's flickd.service that now loads

# Sets target_user to the user whose session runs flickd: you; run as root, the user who ran
# sudo ($SUDO_USER) or pkexec ($PKEXEC_UID), else the user who logged in before su (logname:
# the login's audit user, which su keeps). Empty for a root login, or when none of these names
# an existing user other than root. Sets target_how to how a root run found that user, for a
# message ("who ran pkexec"), empty when it goes without saying (you, or sudo's user).
find_target_user() {
    target_user=""
    target_how=""
    if [ "$(id -u)" -ne 0 ]; then
        target_user=$(id -un)
    elif [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
        target_user=$SUDO_USER
    elif [ -n "${PKEXEC_UID:-}" ] && [ "$PKEXEC_UID" != 0 ]; then
        target_user=$(getent passwd "$PKEXEC_UID" | cut -d: -f1) || target_user=""
        target_how="who ran pkexec"
    else
        target_user=$(logname 2>/dev/null) || target_user=""
        target_how="who logged in before su (logname)"
    fi
    # Only an existing user other than root.
    if [ -n "$target_user" ] && [ "$(id -u "$target_user" 2>/dev/null || echo 0)" = 0 ]; then
        target_user=""
    fi
}

# Runs systemctl --user for $target_user; fails when their service manager is not reachable.
user_systemctl() {
    if [ "$(id -u)" -ne 0 ]; then
        systemctl --user "$@"
    else
        local uid runtime
        uid=$(id -u "$target_user")
        runtime=/run/user/$uid
        [ -S "$runtime/systemd/private" ] || [ -S "$runtime/bus" ] || return 1
        runuser -u "$target_user" -- env XDG_RUNTIME_DIR="$runtime" \
            DBUS_SESSION_BUS_ADDRESS="unix:path=$runtime/bus" systemctl --user "$@"
    fi
}

# Whether $target_user's service can open /dev/uinput for reading and writing now, as flickd
# does when it starts (it tries once, and fails when it cannot). What usually lets them is the
# ACL that logind puts on the node, through the udev rule's uaccess tag, for the user of the
# active local session: someone installing over SSH, with nobody or someone else at the seat,
# has none. Tried as that user with the groups their user manager has, which its services get
# (a group /etc/group gave them since their login, as usermod above, is not among them); with
# no manager running, with their groups as /etc/group has them (runuser). Not as root, tried in
# this shell, whose groups may be more than the manager's (a login since `usermod -aG`, newgrp):
# where this shell has /dev/uinput's group and the manager lacks it, sets
# uinput_group_missing to that group and fails.
user_can_open_uinput() {
    local uid gid pid groups
    uinput_group_missing=""
    if [ "$(id -u)" -ne 0 ]; then
        (: <>/dev/uinput) 2>/dev/null || return 1
        gid=$(stat -c %g /dev/uinput 2>/dev/null) || return 0
        pid=$(systemctl show -P MainPID "user@$(id -u).service" 2>/dev/null) || return 0
        if [ "${pid:-0}" -gt 0 ] && id -G | tr ' ' '\n' | grep -x "$gid" >/dev/null && process_lacks_group "$pid" "$gid"; then
            uinput_group_missing=$(getent group "$gid" | cut -d: -f1) || uinput_group_missing=""
            uinput_group_missing=${uinput_group_missing:-$gid}
            return 1
        fi
        return 0
    fi
    uid=$(id -u "$target_user") && gid=$(id -g "$target_user") || return 1
    pid=$(systemctl show -P MainPID "user@$uid.service" 2>/dev/null) || pid=0
    if [ "${pid:-0}" -gt 0 ] && command -v setpriv >/dev/null &&
        groups=$(sed -n 's/^Groups:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null); then
        groups=$(printf '%s' "$groups" | tr -s ' \t' ',' | sed 's/^,//; s/,$//')
        if [ -n "$groups" ]; then
            setpriv --reuid="$uid" --regid="$gid" --groups="$groups" sh -c ': <>/dev/uinput' 2>/dev/null
        else
            setpriv --reuid="$uid" --regid="$gid" --clear-groups sh -c ': <>/dev/uinput' 2>/dev/null
        fi
        return
    fi
    runuser -u "$target_user" -- sh -c ': <>/dev/uinput' 2>/dev/null
}

# Whether the process PID lacks the group GID, as its /proc/PID/status says (its effective gid
# and supplementary groups); false when that cannot be read.
process_lacks_group() {  # PID GID
    local status
    status=$(cat "/proc/$1/status" 2>/dev/null) && [ -n "$status" ] || return 1
    ! printf '%s\n' "$status" \
        | sed -n 's/^Gid:[[:space:]]*[0-9]*[[:space:]]*\([0-9]*\).*/\1/p; s/^Groups:[[:space:]]*//p' \
        | tr -s ' \t' '\n\n' | grep -x "$2" >/dev/null
}

# Whether the unit file PATH is one of our_units: by the file itself, as systemd may name it
# through a linked directory (Debian's /etc/xdg/systemd/user is a link to /etc/systemd/user).
# The file need not exist any more (a link left to a removed unit).
is_our_unit() {  # PATH
    local path want
    [ -n "$1" ] || return 1
    path=$(readlink -f "$(dirname "$1")" 2>/dev/null)/$(basename "$1")
    for want in ${our_units[@]+"${our_units[@]}"}; do
        [ "$path" = "$(readlink -f "$(dirname "$want")" 2>/dev/null)/$(basename "$want")" ] && return 0
    done
    return 1
}

# Stops and disables flickd.service for $target_user (scripts/uninstall), when the unit file
# their manager loads is one of UNIT... (this install's). Another install's (the .deb's in
# /usr/lib/systemd/user, another --prefix's, the user's own copy) is left as it is, and said
# so: disabling it would stop a flickd this uninstall removes nothing of. Tells a user manager
# that cannot be reached from one without the unit (an uninstall run before: `disable` then
# fails with "Unit file flickd.service does not exist"), and stops a running flickd even where
# disabling it fails. Sets user_service_stopped to 1 when it stopped or disabled this install's.
stop_user_service() {  # UNIT...
    local load out home link fragment runs
    our_units=("$@")
    user_service_stopped=0
    home=$(getent passwd "$target_user" | cut -d: -f6) || home=""
    link=$home/.config/systemd/user/graphical-session.target.wants/flickd.service
    # "loaded", "not-found" (no unit file, as systemd last read its directories), "masked"...;
    # nothing when the manager cannot be reached.
    load=$(user_systemctl show -P LoadState flickd.service 2>/dev/null) || load=""
    if [ -z "$load" ]; then
        if [ "$(id -u)" -eq 0 ]; then
            # Without a running manager, the enablement is only a symlink in their home: this
            # install's when it names this install's unit file.
            if [ -L "$link" ]; then
                if is_our_unit "$(readlink "$link")"; then
                    rm -f "$link" && say "removed $link"
                else
                    say "left $link alone: it enables $(readlink "$link"), not this install's flickd.service"
                fi
            fi
        else
            say "note: could not reach your systemd user manager; if flickd is enabled, run: systemctl --user disable --now flickd"
        fi
        return 0
    fi
    if [ "$load" = not-found ]; then
        # A flickd started before its unit file went keeps running until stopped; an enablement
        # left behind names a unit that is not there.
        if user_systemctl is-active --quiet flickd 2>/dev/null && user_systemctl stop flickd 2>/dev/null; then
            say "stopped flickd.service for $target_user (its unit file was removed already)"
            user_service_stopped=1
        else
            say "flickd.service is not installed for $target_user: nothing to stop or disable"
        fi
        if [ -L "$link" ]; then rm -f "$link" && say "removed $link"; fi
        return 0
    fi
    # The unit file that runs (scripts/install compares it the same way). Empty when systemd
    # names none (a unit generated or transient): then it is taken to be this install's.
    fragment=$(user_systemctl show -P FragmentPath flickd.service 2>/dev/null) || fragment=""
    if [ -n "$fragment" ] && ! is_our_unit "$fragment"; then
        say "left flickd.service for $target_user alone: its unit file is $fragment, from another install, not this one"
        runs=$(sed -n 's/^ExecStart=//p' "$fragment" 2>/dev/null | tail -n 1) || runs=""
        if [ -n "${bin_path:-}" ] && [ "$runs" = "$bin_path run" ]; then
            say "  note: it runs $bin_path, which this removes: remove $fragment too, or it fails when it starts next"
        fi
        return 0
    fi
    if out=$(user_systemctl disable --now flickd 2>&1); then
        say "stopped and disabled flickd.service for $target_user"
        user_service_stopped=1
        return 0
    fi
    out=$(printf '%s' "$out" | tail -n 1)
    if user_systemctl is-active --quiet flickd 2>/dev/null; then
        if user_systemctl stop flickd 2>/dev/null; then
            say "stopped flickd.service for $target_user, but could not disable it ($out)"
            user_service_stopped=1
        else
            say "warning: could not stop or disable flickd.service for $target_user ($out)"
        fi
    else
        say "note: could not disable flickd.service for $target_user ($out); it is not running"
    fi
}

# After this install's unit files went (scripts/uninstall): systemctl --user daemon-reload for
# $target_user. When stop_user_service stopped this install's flickd and another install's
# flickd.service loads now (the .deb's in /usr/lib/systemd/user, which this one's in
# /usr/local came before), says how to enable and start that one: the `disable` above took
# the enablement, which is by name, from it too.
reload_user_units() {
    local load fragment
    user_systemctl daemon-reload 2>/dev/null || return 0
    [ "${user_service_stopped:-0}" = 1 ] || return 0
    load=$(user_systemctl show -P LoadState flickd.service 2>/dev/null) || load=""
    [ "$load" = loaded ] || return 0
    fragment=$(user_systemctl show -P FragmentPath flickd.service 2>/dev/null) || fragment=""
    if [ -n "$fragment" ] && ! is_our_unit "$fragment"; then
        if [ "$(id -u)" -eq 0 ]; then
            say "another flickd.service is installed ($fragment) and is stopped now; to use it, $target_user runs: systemctl --user enable --now flickd"
        else
            say "another flickd.service is installed ($fragment) and is stopped now; to use it, run: systemctl --user enable --now flickd"
        fi
    fi
}
