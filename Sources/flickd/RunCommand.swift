import FlickCore
import FlickLinux

struct RunCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "run",
        abstract: "Run the daemon: touchpad and touchscreen flicks keep scrolling (the default).",
        discussion: """
            flickd reads every touchpad and touchscreen passively (it never grabs them: the \
            desktop goes on seeing them as before) and watches the scrolls made on them. When \
            the fingers lift from a fast scroll, flickd keeps it going, slowing down like a \
            thrown sheet of paper, through one virtual device: by default "flickd virtual \
            touchpad", whose two fingers keep moving so that libinput and every app scroll on \
            exactly as they did under the real fingers; with output.mode = "wheel", "flickd \
            virtual wheel", hi-res wheel events read like any mouse wheel. flickd creates it \
            when it opens the first touchpad or touchscreen whose flicks coast (at start on \
            most machines), and keeps it until it exits: a machine with none shows no virtual \
            device.

            A coast stops when a finger touches a touch device, a mouse button is pressed or \
            a key goes down (so that Ctrl held after a flick does not zoom). Key presses are \
            only used to stop a coast; they are never recorded. While another user's session \
            is the active one on the seat (fast user switching, as systemd-logind records it \
            in /run/systemd/seats/seat0), flickd closes every input device and opens them \
            again when this user's session is back; run as root, it does not follow sessions.

            flickd needs write access to /dev/uinput and read access to /dev/input/event*. \
            /dev/uinput: the uinput module must be loaded (`sudo modprobe uinput`; \
            flickd-uinput.conf in /usr/lib/modules-load.d/ from the package, or in \
            /etc/modules-load.d/ from scripts/install, loads it at boot), and the udev rule \
            70-flickd-uinput.rules (in /usr/lib/udev/rules.d/ from the package, or in \
            /etc/udev/rules.d/ from scripts/install) gives the user of the active local \
            session access to it; the rule takes effect at the next boot, or at once after \
            `sudo udevadm control --reload && sudo udevadm trigger /dev/uinput`. The input \
            group does not give access to /dev/uinput (root's alone on most systems). \
            /dev/input/event*: the input group (`sudo usermod -aG input $USER`, then log out \
            and back in). `flickd devices` shows which devices it can read and which it will \
            use.

            The configuration file is read again when it is saved, created or replaced, and \
            on SIGHUP: a file with errors, an empty file or a deleted one is reported and the \
            running configuration kept. With scroll.natural = "auto" the desktop's touchpad \
            setting (GNOME, KDE, sway; on another X11 desktop the X server's) is \
            read at start, on each reload, whenever the desktop's settings change (on X11 \
            when Xfce or Plasma saves them) and when a sway starts; what it changes is logged.

            Signals: SIGHUP reloads the configuration file, except the hang-up of the \
            terminal flickd was started in (its standard input, output or error), sent by the \
            kernel or the shell leading that terminal's session once it has closed; flickd \
            also watches that terminal, and when it closes (its window closed), with or \
            without a signal, flickd stops as after SIGTERM rather than run on unseen (run \
            it with nohup or setsid, or as the service, to outlive the terminal); \
            SIGTERM and SIGINT stop any coast, remove the virtual device and exit with status \
            0; SIGTSTP (Ctrl-Z) stops any coast, lets the virtual fingers settle and lift, and \
            stops flickd until SIGCONT.

            Exit status: 0 after SIGTERM, SIGINT or the closing of the terminal (a signal \
            that came while flickd was still starting is acted on once it has started, or \
            the start's own failure decides); 1 when /dev/uinput cannot be \
            opened at start (the virtual device could not be created; not while another \
            user's session is active on the seat, whose user the udev rule gives /dev/uinput \
            to: flickd then starts paused, and creates the device once this user's session is \
            back; nor while no session is in front and this user has one on the seat, as at \
            a text console with no login: flickd runs, and creates the device once this \
            user's session is in front), the configuration cannot be \
            read, or the event loop fails (its timer or signals cannot be read: the virtual \
            fingers lift first); 64 when the command line cannot be run (an unknown \
            option, a missing value).

            As the systemd user service flickd.service (Type=notify) flickd tells systemd \
            when it is ready (the devices present are open, and the virtual device with them), \
            reloading and stopping, through $NOTIFY_SOCKET. Logs go to stderr: with a \
            timestamp on a terminal; under systemd without one, and with the priority prefix \
            journald reads, so `journalctl --user -u flickd -p warning` shows the problems.
            """,
        options: [
            CommandOption(
                name: "config", valueName: "FILE",
                help: "Read settings from FILE (TOML; every key is documented in \(documentedConfiguration)). Default: $XDG_CONFIG_HOME/flickd/config.toml (~/.config/flickd/config.toml), else /etc/flickd/config.toml, else the built-in defaults."),
            CommandOption(name: "verbose", help: "Log every device, gesture and coast decision, and at each coast's end how punctually its timer woke (debug level)."),
        ]
    )

    var config: String?
    var verbose = false

    init(_ arguments: ParsedArguments) {
        config = arguments.value("config")
        verbose = arguments.flag("verbose")
    }

    func run() throws {
        // First: a SIGHUP or SIGTERM during the start (configuration, /dev/uinput, devices)
        // waits for the daemon's signalfd rather than end flickd by its default action.
        StartupChecks.holdDaemonSignals()
        // A SIGCHLD ignored by whoever started flickd would have the kernel reap the desktop
        // probe's gsettings before flickd can wait for it.
        ChildSignal.setDefault()
        // A log line to a pipe whose reader has gone (`2>&1 | grep coast` ended by the same
        // Ctrl-C) must not end flickd before its shutdown lifts the virtual fingers.
        StandardError.ignoreBrokenPipe()
        let level: Logger.Level = verbose ? .debug : .info
        let style = LogStyle.detect()
        LoggingSystem.bootstrap { _ in JournalLogHandler(style: style, logLevel: level) }
        let logger = Logger(label: "flickd")
        do {
            let bytes = try ExecutablePages.shed()
            logger.debug("resident code: \(bytes / 1024) KiB of the binary's read-only pages unmapped and dropped from the page cache; only pages that run are read back")
        } catch {
            logger.debug("resident code: could not shed the binary's pages (\(error)); it keeps them")
        }
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: config))

        let live: LiveConfiguration
        do {
            live = try LiveConfiguration(source: source, logger: logger)
            logger.info("configuration: \(source.path ?? "the built-in defaults (no file at \(source.location.searched))")")
            for warning in live.current.deviceRuleWarnings() + live.current.touchpadGlideWarnings() {
                logger.warning("\(warning)")
            }
        } catch {
            logger.error("\(ConfigurationError.lead(for: error)); nothing was started:\n\(error)")
            throw ExitCode.failure
        }

        do {
            let configuration = live.current
            let seat = SeatWatch.forThisUser(logger: logger)
            // The device itself is created when a touchpad or touchscreen whose flicks coast is
            // open (at once on most machines); a uinput flickd cannot use fails the start now,
            // unless the seat's session is another user's (the daemon starts paused) or no
            // session is in front (it runs, and makes the device when this user's is).
            let access = try StartupChecks.checkOutputAccess(seat: seat?.current()) { () throws(VirtualWheelError) in
                try OutputDevice.checkAccess(for: configuration.output.mode)
            }
            if case .awaitingSession = access { logger.notice("\(access)") }
            let engine = Engine(configuration: configuration)
            let daemon = try Daemon(
                engine: engine,
                output: nil,
                makeOutput: { mode in try Self.makeOutput(mode, logger: logger) },
                monitor: try DeviceMonitor(),
                logger: logger,
                notifier: ServiceNotifier.fromEnvironment(logger: logger),
                configuration: live,
                // Asked off the event loop (gsettings may be slow); the answer is applied when it comes.
                desktop: try DesktopQuery(),
                seat: seat)
            try daemon.run()
        } catch {
            logger.error("\(error)")
            throw ExitCode.failure
        }
    }

    /// Creates the virtual device for `mode` and logs it.
    private static func makeOutput(_ mode: OutputMode, logger: Logger) throws -> OutputDevice {
        switch mode {
        case .touchpad:
            let touchpad = try VirtualTouchpad()
            logger.info("created \(VirtualTouchpad.name) at \(touchpad.devnode ?? "an unknown node"): coasts move its two fingers")
            return .touchpad(touchpad)
        case .wheel:
            let wheel = try VirtualWheel()
            logger.info("created \(VirtualWheel.name) at \(wheel.devnode ?? "an unknown node"): coasts are hi-res wheel events")
            return .wheel(wheel)
        }
    }

}

/// Where the installed example configuration documents every key: the package's path, and
/// scripts/install's under its default prefix.
let documentedConfiguration = "/usr/share/doc/flickd/flickd.toml (/usr/local/share/doc/flickd/flickd.toml when installed by scripts/install)"

/// The configuration in the TOML file at `path`, or the built-in defaults without one.
/// Throws `ConfigurationError` listing every problem in the file (`file:line: ...`).
func loadConfiguration(path: String?) throws -> Configuration {
    guard let path else { return .defaults }
    return try ConfigurationLoader.load(path: path)
}

/// Prints `message` (already a full explanation) on stderr and exits with status 1.
func fail(_ message: String) -> Never {
    StandardError.write("flickd: \(message)\n")
    Flickd.exitWithFailure()
}
