# Where flickd's files are installed: sourced by scripts/install (which puts them there),
# scripts/uninstall (which removes them) and scripts/package (which stages them with --prefix
# /usr), so that the three cannot drift apart. Sources/FlickLinux/UinputDevice.swift names the
# udev rule's and the modules-load file's paths too, in the fixes `flickd doctor` prints;
# Tests/E2E/install-test.sh checks that it names these.
#
#   flickd_paths PREFIX   checks PREFIX and sets the variables below; returns 1, with the
#                         reason in paths_error, when PREFIX cannot be used
#
# Sets (paths without any --destdir):
#   prefix            PREFIX without trailing slashes
#   bin_path          PREFIX/bin/flickd, the daemon
#   unit_path         the user unit: PREFIX/lib/systemd/user/flickd.service for /usr and
#                     /usr/local, else /etc/systemd/user/flickd.service (systemd looks for user
#                     units under /usr/lib, /usr/local/lib and /etc, nowhere else)
#   prefix_unit_path  PREFIX/lib/systemd/user/flickd.service, where versions before that put
#                     the unit for any PREFIX (scripts/uninstall removes it there too)
#   doc_dir, doc_path PREFIX/share/doc/flickd and the documented configuration in it
#   rules_path        /etc/udev/rules.d/70-flickd-uinput.rules, /dev/uinput for the user at
#                     the seat
#   modules_path      /etc/modules-load.d/flickd-uinput.conf, uinput loaded at boot
#   package_rules_path, package_modules_path
#                     where the .deb puts these two instead (scripts/package): under /usr/lib,
#                     where a package's defaults live; a file of the same name in /etc
#                     overrides it
#   created_dirs      the directories `install -D` may have created for these files that
#                     nothing else needs, deepest first, for scripts/uninstall to remove when
#                     empty: flickd's doc directory; under /usr/local the systemd user unit
#                     directory (/usr/local/bin, share and lib are the system's even when
#                     empty; /usr/lib/systemd/user is systemd's); under a prefix of flickd's
#                     own (its last part names flickd, as /opt/flickd) the tree and the prefix.
#                     Another prefix's directories may have been there before (an empty
#                     ~/.local/bin): they stay. In /etc every directory is the system's (udev's
#                     rules.d, systemd's user, modules-load.d).

flickd_paths() {  # PREFIX [any]: with "any", a prefix of any characters (uninstall: what an
                  # earlier version installed)
    local p=$1 odd
    paths_error=""
    case "$p" in
        "") paths_error="--prefix needs a directory"; return 1 ;;
        /*) ;;
        *) paths_error="--prefix must be an absolute path, not '$p'"; return 1 ;;
    esac
    while [ "$p" != / ] && [ "${p%/}" != "$p" ]; do p=${p%/}; done
    if [ "$p" = / ]; then
        # Every path would hang off the root: /bin/flickd, /share/doc/flickd.
        paths_error="--prefix / would put flickd in /bin and its documentation in /share/doc: use --prefix /usr (where the distribution's programs go) or leave out --prefix (/usr/local, for programs you install yourself)"
        return 1
    fi
    # The unit's ExecStart= line names PREFIX/bin/flickd: systemd splits it at blanks, and
    # expands % (specifiers), $ (variables), quotes and backslashes in it; install writes it
    # with sed, to which & and | are special. Other characters (~ : , é) are taken as they are.
    odd=$(printf '%s' "$p" | LC_ALL=C tr -dc "[:space:][:cntrl:]\\\\'\"%\$&|")
    if [ -n "$odd" ] && [ "${2:-}" != any ]; then
        paths_error="--prefix '$p' has characters that the unit's ExecStart= line cannot hold as they are (blanks, control characters, or one of \\ ' \" % \$ & |): use another directory (a symbolic link to this one will do)"
        return 1
    fi
    case "$p/" in
        */./*|*/../*) paths_error="--prefix '$p' has a . or .. in it: give the directory itself"; return 1 ;;
    esac
    prefix=$p
    bin_path=$prefix/bin/flickd
    prefix_unit_path=$prefix/lib/systemd/user/flickd.service
    case "$prefix" in
        /usr|/usr/local) unit_path=$prefix_unit_path ;;
        *) unit_path=/etc/systemd/user/flickd.service ;;
    esac
    doc_dir=$prefix/share/doc/flickd
    doc_path=$doc_dir/flickd.toml
    rules_path=/etc/udev/rules.d/70-flickd-uinput.rules
    modules_path=/etc/modules-load.d/flickd-uinput.conf
    package_rules_path=/usr/lib/udev/rules.d/${rules_path##*/}
    package_modules_path=/usr/lib/modules-load.d/${modules_path##*/}
    case "$prefix" in
        /usr/local) created_dirs=("$doc_dir" "$prefix/lib/systemd/user" "$prefix/lib/systemd") ;;
        */*flickd*)
            created_dirs=("$prefix/bin" "$doc_dir" "$prefix/share/doc" "$prefix/share")
            case "${prefix##*/}" in *flickd*) created_dirs+=("$prefix") ;; esac ;;
        *) created_dirs=("$doc_dir") ;;
    esac
}
