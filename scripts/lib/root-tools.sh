# The administration tools scripts/install and scripts/uninstall run as root (runuser,
# modprobe, usermod: /usr/sbin on Debian), found when the PATH they were given has no sbin
# directory: sourced by both.
#
#   add_sbin_to_path        run as root, appends /usr/local/sbin, /usr/sbin and /sbin to PATH
#                           where it lacks them
#   missing_tools TOOL...   prints each TOOL that is not on PATH, with the Debian package that
#                           has it ("runuser (util-linux)"), one a line; status 1 when any is

# Why: `su -c scripts/install` (util-linux's su without --login, Debian's since 10) keeps the
# caller's PATH, which for a user has no sbin directory; sudo's secure_path has them.
add_sbin_to_path() {
    [ "$(id -u)" -eq 0 ] || return 0
    local dir
    for dir in /usr/local/sbin /usr/sbin /sbin; do
        case ":$PATH:" in *":$dir:"*) ;; *) PATH=${PATH:+$PATH:}$dir ;; esac
    done
    export PATH
}

missing_tools() {  # TOOL...
    local tool status=0
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 && continue
        case "$tool" in
            runuser) echo "runuser (util-linux)" ;;
            modprobe) echo "modprobe (kmod)" ;;
            usermod) echo "usermod (passwd)" ;;
            *) echo "$tool" ;;
        esac
        status=1
    done
    return "$status"
}
