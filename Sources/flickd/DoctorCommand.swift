import FlickLinux

struct DoctorCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "doctor",
        abstract: "Check everything flickd needs on this machine, and print the fix for what is missing.",
        discussion: """
            Each check is one line: ✓ fine, ! worth knowing (flickd works), ✗ stops flickd \
            from working. Under each ✗ (and some !) is the command that fixes it. The checks:
            - user: a warning when run as root, which may open every device, so the
              answers are not those of the user whose session flickd serves.
            - uinput module: loaded (/sys/module/uinput), built into the kernel (its
              modules.builtin lists uinput.ko), or loaded when /dev/uinput is first
              opened (a static node, made at boot before the module loads). Where
              flickd's modules-load file is installed (/etc/modules-load.d, or the
              package's /usr/lib/modules-load.d), the fix loads it now and does not
              write the file again.
            - /dev/uinput writable: it opens read-write, as flickd opens it to create
              the virtual device. Where flickd's udev rule is installed
              (/etc/udev/rules.d, or the package's /usr/lib/udev/rules.d), the fix
              applies it to /dev/uinput and does not write it again to /etc, and the
              check names the likelier cause: a session that is not the active local
              one on the seat.
            - touch devices: each touchpad and touchscreen udev knows, opened read-only.
              One that cannot be read is a failure only where flickd can read no
              device it coasts on (touchpad.enabled, touchscreen.enabled, and a
              [[device]] section's enabled, per device as flickd resolves them): a
              readable touchscreen that does not coast (the default) is no help. A
              failure too where flickd coasts on none of them (a touchscreen alone,
              with touchscreen.enabled false by default; touchpad.enabled = false):
              the fix names the setting and the configuration file.
            - input group: this user is in it, and so is this login session (a user
              added with usermod lacks the group until the next login, and so does
              the systemd user manager until it stops: the fix waits for that); a
              failure only where that keeps flickd from every device it coasts on.
            - flickd service: `systemctl --user is-enabled flickd` and `is-active`.
              Not installed, masked, disabled or stopped: the fix enables and starts
              it, or, in a session that does not start graphical-session.target
              (which starts flickd's unit), has the session's startup start it.
              Failed, or activating between Restart= tries: the fix reads the journal
              first (`journalctl --user -u flickd -e`). A warning while it is
              starting, reloading or stopping (look again), when it runs but is not
              enabled, and when there is no systemctl or no user manager.
            - session: where systemd-logind records seat0's active session, whether it
              is this user's; a warning when another user's is (flickd pauses then,
              with no device open), and when none is while this user has one on the
              seat (a text console with no login in front: /dev/uinput is no one's).
            - service groups: whether the running service (where it does not run, the
              systemd user manager that starts it) has the groups through which this
              session reads the touch devices and opens /dev/uinput (its
              /proc/PID/status): the user manager keeps the groups it started with, and
              outlives a quick logout (10 s) or, with lingering, every logout.
            - service desktop: whether the running service has this session's
              XDG_CURRENT_DESKTOP, by which natural scrolling "auto" picks where to read
              the desktop's setting (its /proc/PID/environ), in Plasma's own session
              its KDE_FULL_SESSION, and in a sway session named KDE or GNOME (for Qt,
              for the portals) its SWAYSOCK and WAYLAND_DISPLAY, by which flickd
              reads sway's settings rather than the named desktop's.
            - service display: on an X11 session (not GNOME's), whether the running
              service has this session's DISPLAY and XAUTHORITY, which it needs to ask
              the X server for each touchpad's settings; a user manager started before
              the X session lacks them unless the session imports them.
            - configuration: --config FILE, else the file the running service reads
              (its own --config, else found with its XDG_CONFIG_HOME and HOME), else
              the one `flickd run` would read here; checked as `flickd check-config`
              checks it.
            - natural scrolling: scroll.natural against the desktop's own touchpad
              setting (GNOME, KDE, sway; on X11 the X server's), and where
              that was read; a mismatch is a
              warning, and so is "auto" with no setting found, unless only touchpads
              coast on the virtual touchpad (its fingers move as the real ones did).
            - touchpad driver: on X11, each touchpad the synaptics X driver drives and
              glides for by itself (its coasting speed above 0, the default); flickd
              starts no coast of its own on it, and the fix names the way to its glide.
            - touchpad disabled: each touchpad the desktop disabled (sway's `events
              disabled`, Plasma's "Device enabled" off), where flickd asks the desktop;
              flickd starts no coast from its flicks, and its touches still stop one.
            - X server changes: on an X11 session (not GNOME's), whether a watch on the
              X server's device properties opens (XInput 2, through libX11 and libXi),
              as flickd keeps one to follow a setting changed with `xinput set-prop` or
              in the desktop's settings at once; without it a change waits for a reload.
            - output: output.mode in use (the virtual touchpad or the virtual wheel).
              In touchpad mode on KDE Plasma under Wayland, on sway and on X11 (read
              from the X server, with libX11 and libXi), the virtual touchpad's own natural
              scrolling against each touchpad's, and which way the virtual fingers move;
              a warning where the desktop keeps touchpad settings per device and flickd
              cannot read them (on X11 without libX11 and libXi; KDE Plasma's
              kcminputrc, where the virtual touchpad has a setting of its own), and
              where the synaptics X driver drives the virtual touchpad (it scrolls it
              by next to nothing, so glides do not show), with the fix; a failure where
              the desktop disabled the virtual touchpad (sway's `input type:touchpad
              events disabled`), whose glides then reach no app.
            - virtual touchpad tag: with the touchpad output, whether flickd's udev
              rule in force tags the virtual touchpad external; a warning where the
              rule predates that line or none is installed (libinput then pairs it
              with the laptop's keyboard, and a key ends its scroll mid-glide), with
              the fix that writes the rule and restarts flickd (an old copy in /etc
              over the package's current rule: removing it; the package's own older
              rule: installing the package of this flickd's version).
            - device sections: a warning for each [[device]] section that never
              applies, because an earlier section matches every device it matches (the
              first matching section is used).
            - glide length: with the touchpad output, a warning where coasts can glide
              farther than the virtual touchpad holds (about 0.87 m along an axis) and
              stop at its edge, with the settings that do it.
            - libinput quirks: a warning for each quirks file libinput cannot parse
              (/usr/share/libinput, /etc/libinput/local-overrides.quirks), with its line:
              libinput then uses none of its quirks, and nor does flickd.

            Run it as the user whose desktop session flickd serves, not with sudo: the answers \
            are about the user who runs it. Every fix runs from any directory.

            Exit status: 0 when nothing stops flickd from working (warnings allowed); 1 when a \
            check failed; 64 when the command line cannot be run (an unknown option, a missing \
            value).
            """,
        options: [
            CommandOption(name: "config", valueName: "FILE", help: "Check this configuration file instead of the one the running service reads (or, with none running, the one `flickd run` would read)."),
        ]
    )

    var config: String?

    init(_ arguments: ParsedArguments) {
        config = arguments.value("config")
    }

    func run() throws {
        // The programs doctor asks (systemctl, gsettings, ...) are waited for: a SIGCHLD ignored
        // by whoever started it would have the kernel reap them first (ECHILD, status lost).
        ChildSignal.setDefault()
        let checks = Doctor(configurationPath: config).run()
        for check in checks { print(check.text) }
        let failures = checks.filter { $0.status == .failure }.count
        let warnings = checks.filter { $0.status == .warning }.count
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        if Doctor.blocks(checks) {
            print("\(count(failures, "problem")) \(failures == 1 ? "stops" : "stop") flickd from working; \(count(warnings, "warning")).")
            throw ExitCode.failure
        }
        print(warnings == 0 ? "Everything flickd needs is in place." : "flickd can work; \(count(warnings, "warning")).")
    }
}
