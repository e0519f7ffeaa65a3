import CShim
import FlickCore
import Glibc

/// The virtual device that carries coasts (`output.mode`).
public enum OutputDevice {
    /// Hi-res wheel events (`output.mode = "wheel"`).
    case wheel(any WheelSink)
    /// Two fingers on a virtual touchpad (`output.mode = "touchpad"`).
    case touchpad(any TouchSink)

    /// The mode this device serves.
    public var mode: OutputMode {
        switch self {
        case .wheel: return .wheel
        case .touchpad: return .touchpad
        }
    }

    /// The sysfs path of the device, to skip it when enumerating input devices.
    var syspath: String? {
        switch self {
        case .wheel(let wheel): return wheel.syspath
        case .touchpad(let touchpad): return touchpad.syspath
        }
    }

    /// The device's event node, to skip it when udev tells of another device at that node.
    var devnode: String? {
        switch self {
        case .wheel(let wheel): return wheel.devnode
        case .touchpad(let touchpad): return touchpad.devnode
        }
    }

    /// The name of the device of `mode` ("flickd virtual touchpad").
    public static func name(of mode: OutputMode) -> String {
        switch mode {
        case .touchpad: return VirtualTouchpad.name
        case .wheel: return VirtualWheel.name
        }
    }

    /// Whether the device of `mode` could be created now (`/dev/uinput` opens for writing);
    /// throws the error creating it would. The daemon creates it only when a device whose
    /// flicks coast is opened: this tells at start what would fail then.
    public static func checkAccess(for mode: OutputMode) throws(VirtualWheelError) {
        try UinputDevice.checkAccess(name: name(of: mode))
    }

    /// Destroys the device.
    func close() {
        switch self {
        case .wheel(let wheel): wheel.close()
        case .touchpad(let touchpad): touchpad.close()
        }
    }
}

/// The event loop: devices in, engine, wheel out, on one thread.
///
/// One `epoll_wait` with no timeout is the only place it blocks. It watches the touchpads and
/// touchscreens, udev's hot-plug socket, a timerfd armed with the engine's absolute
/// `nextDeadline` (disarmed while the engine is idle) and a signalfd for SIGTERM, SIGINT, SIGHUP
/// and SIGTSTP. Mice and keyboards are open but watched only while a coast runs, so typing and
/// mouse motion never wake an idle daemon. This is the one place that reads the clock.
public final class Daemon {
    /// How a device the daemon has open is used.
    private enum Role: Equatable {
        /// A touchpad or touchscreen in the engine: every event goes to it (it reads the
        /// flicks, or only stops a coast on a touch when its kind is disabled).
        case touch
        /// A mouse: a button press stops a coast.
        case pointer
        /// A keyboard: a key press stops a coast.
        case keyboard
        /// A mouse whose node has keyboard keys too (`InputNode.hasKeys`): a button press stops
        /// a coast under stop.button, a key press under stop.key, and a modifier held on it
        /// keeps a release from coasting, as on a keyboard.
        case pointerWithKeys
    }

    private struct OpenDevice {
        let device: any InputDevice
        let node: InputNode
        let role: Role
        /// What `[[device]]` sections match it by (touch devices only).
        var identity: DeviceIdentity?
        /// What it was read as when opened (touch devices only), for udev's "change".
        var description: DeviceDescription?
        /// A touch device with pointer buttons of its own (a touchpad's physical buttons).
        var hasButtons = false
    }

    /// epoll tokens: small constants for the loop's own descriptors; devices carry their id in
    /// the low 32 bits with bit 32 set.
    private enum Token {
        static let signals: UInt64 = 1
        static let timer: UInt64 = 2
        static let hotplug: UInt64 = 3
        static let configurationFile: UInt64 = 4
        static let reloadDelay: UInt64 = 5
        static let desktop: UInt64 = 6
        static let desktopChanges: UInt64 = 7
        static let serverChanges: UInt64 = 8
        static let seat: UInt64 = 9
        static let serverStart: UInt64 = 10
        static let terminal: UInt64 = 11
        static let deviceFlag: UInt64 = 1 << 32

        static func device(_ id: DeviceID) -> UInt64 { deviceFlag | UInt64(UInt32(bitPattern: id)) }
        static func deviceID(_ token: UInt64) -> DeviceID? {
            token & deviceFlag != 0 ? DeviceID(bitPattern: UInt32(truncatingIfNeeded: token)) : nil
        }
    }

    private let engine: Engine
    /// The device coasts are written to; replaced when a reload changes `output.mode`. Nil
    /// until a touchpad or touchscreen whose flicks coast is open (`makeOutput` creates it
    /// then), so that a machine with none shows no virtual device; once created it stays.
    private var output: OutputDevice?
    /// Creates the device for a mode: when the first device whose flicks coast is opened, and
    /// on a reload that changes `output.mode`; nil: the device given at start stays (tests).
    private let makeOutput: ((OutputMode) throws -> OutputDevice)?
    /// The mode whose device could not be created last time, so that its error is logged
    /// once, not at every device plugged in after it.
    private var failedOutput: OutputMode?
    /// Lists, reports and opens the devices (nil: none, for tests of the loop alone).
    private let monitor: (any DeviceSource)?
    /// What stops a coast besides a touch on its own device: the engine's `[stop]` settings,
    /// read where they are needed so that a reload applies them with the rest.
    private var stopSources: Configuration.Stop { engine.configuration.stop }
    private let logger: Logger
    private let notifier: ServiceNotifier?
    /// The settings in force, and their file's changes.
    private let configuration: LiveConfiguration
    /// Asks the desktop whether its touchpads scroll naturally, off the loop; nil: never asked
    /// (the engine's `desktopNaturalScrolling` stays as given).
    private let desktop: DesktopQuery?
    /// Whether this user's session is the seat's active one (`SeatWatch`); nil: not followed.
    private let seat: SeatWatch?
    /// True while another user's session is active: no device is open (`seatChanged`).
    private var paused = false
    /// The desktop's last answer: nil before one came, or when it found no setting.
    private var desktopAnswer: DesktopSettings.Answer?
    /// An ask is under way: the per-device directions are logged when its answer comes.
    private var desktopAsked = false
    /// A touchpad came that the pending answer may not know, or the desktop said its settings
    /// changed: ask again when the answer arrives.
    private var desktopAskAgain = false
    /// Tells when the desktop's touchpad settings change (sway's input events and starts, KDE's
    /// files, GNOME's dconf database); opened with an ask while none is, dropped when it ends.
    private var desktopWatch: (any DesktopWatch)?
    /// Tells when the X server's touchpad settings change (`XServerWatch`), beside
    /// `desktopWatch`; opened on the query's thread with an ask while none is, dropped when the
    /// connection ends.
    private var serverWatch: (any DesktopWatch)?
    /// Tells when an X server starts at the session's display (`XServerStartWatch`), while
    /// `serverWatch` is wanted and missing: it ended with its server, or could not be opened.
    /// Dropped when a server watch opens.
    private var serverStartWatch: (any DesktopWatch)?
    /// Why the last server watch could not be opened, so that the same reason is logged at info
    /// once.
    private var serverWatchFailure: String?
    /// What the last answer logged, so that an answer changing nothing logs at debug only.
    private var lastDesktopLines: [String] = []
    /// The line that said the explicit `scroll.natural` in force; asked again for a desktop
    /// change (the watch stays open for the virtual pad or the X server's drivers), the same
    /// line goes to debug. A reload that reads the file says it at info again.
    private var explicitNaturalLine: String?
    /// Whether the warning that the synaptics X driver drives the virtual touchpad was logged.
    private var warnedOfSynapticsOutput = false
    /// Touchpads closed because their driver glides by itself and nothing of theirs stops a coast
    /// (`followDriverGlides`), by device node: opened again when an answer says it no longer
    /// does.
    private var closedForDriverGlides: [String: DeviceIdentity] = [:]
    /// Touch devices judged not used (`keeps`), and devices left alone (`InputNode.Exclusion`),
    /// by node: their sysfs path. udev's "change" of
    /// the same device judges it again (a hwdb entry may have fixed its axes) but says an
    /// unchanged judgement at debug level only (a `udevadm trigger` logged each one anew).
    private var unusedTouchNodes: [String: String] = [:]
    /// The line said of each of those, so that a reload, a rescan or the seat's return that
    /// judges the same device alike says so at debug level only; a new reason is said anew.
    private var unusedTouchLines: [String: String] = [:]

    /// How long the configuration file must stay unchanged before it is read (see
    /// `LiveConfiguration.settleDelay`).
    public static let reloadDelay = LiveConfiguration.settleDelay

    private let poll: EventPoll
    private let timer: DeadlineTimer
    private let signals: SignalReceiver

    private var devices: [DeviceID: OpenDevice] = [:]
    /// Devices whose last read stopped at its cap (`EvdevDevice.DrainEnd.more`): read again in
    /// the same turn of the loop, as epoll may not say so.
    private var readAgain: [DeviceID] = []
    private var idsByNode: [String: DeviceID] = [:]
    private var nextID: DeviceID = 1
    /// Set after the first permission error, which is explained at length; later ones are not.
    private var explainedAccessDenied = false
    /// Touch devices present that flickd may not read (permission denied): their syspaths by
    /// node. While no touch device is read, the log and the status say so rather than
    /// "waiting for one".
    private var refusedTouchNodes: [String: String] = [:]
    /// Mice and keyboards flickd may not read, likewise: a udev change, a rescan or a reload
    /// that finds one refused again says so once more only in the debug log.
    private var refusedOtherNodes: [String: String] = [:]
    /// Set while writes to the output device fail, so a failure is logged once rather than per tick.
    private var outputFailing = false
    /// A lift of the virtual fingers the kernel did not take: when to write it again, and the
    /// wait after that one fails too. Left down, the fingers would rest on the virtual pad until
    /// the next coast's landing: libinput's scroll on it never ends (the app gets no scroll
    /// stop) and the pad reads as touched to anything that asks.
    private var owedLift: (at: Instant, wait: Duration)?
    /// An `output.mode` a reload asked for while the virtual fingers were down: frozen by the
    /// reload, they settle, rest and lift on the old touchpad first (destroyed at once, it would
    /// end their touches mid-motion, and GTK would glide on by itself, as `shutDown` avoids).
    private var pendingOutput: OutputMode?
    /// The first wait before a failed lift is written again; it doubles up to `liftRetryLongest`.
    static let liftRetryFirst = Duration.milliseconds(100)
    static let liftRetryLongest = Duration.seconds(5)
    /// Whether mice and keyboards are in the epoll set: only while a coast runs.
    private var watchingStopSources = false
    /// Tells a suspend during a coast (`SuspendWatch`).
    private var suspendWatch = SuspendWatch()
    /// The kernel's stamp of the release that started the coast that runs (or ran last): a
    /// mouse or keyboard press stops it only when stamped at or after it. One read in the
    /// release's own wake-up may have come before it (devices are read in epoll's order, not
    /// the kernel's); one read as the device is first looked at (`watch`, `modifierHeld`) may
    /// have come after it.
    private var coastStart: Instant?
    /// How punctually the timer drives the coast that runs, logged when it ends.
    private var punctuality = CoastPunctuality()
    /// What the service manager was last told the status of (`serviceStatus`).
    private var reportedStatus: StatusCounts?
    /// A reload's READY=1 that the service manager could not take at once while a coast ran
    /// (its queue full): sent again, waiting for room, once the coast is over and the virtual
    /// fingers are up, so that the reload does not stay unfinished.
    private var readyOwed = false
    /// Likewise a reload's RELOADING=1: sent, waiting, before the owed READY=1 (a
    /// `Type=notify-reload` unit waits for RELOADING=1 after its SIGHUP).
    private var reloadingOwed = false

    /// The time the machine has spent suspended since boot (`SuspendWatch`); tests grow it to
    /// play a suspend during a coast.
    var suspendedSinceBoot: () -> Duration = Syscall.suspendedSinceBoot
    /// Stops the process for job control once a SIGTSTP has been handled, SIGTSTP unblocked for
    /// the call; returns when it is continued. Tests stand in for it (the real one would stop
    /// the test run).
    var raiseStop: () -> Void = { _ = raise(SIGTSTP) }
    /// Whether a SIGHUP from the sender given is the hang-up of the terminal flickd was
    /// started in, asked at each SIGHUP: then it is the window's closing, not a reload. Tests
    /// stand in for it (a pty of their own would have to hang up the test run's standard
    /// streams).
    var terminalHungUp: (SignalSender) -> Bool = StartingTerminal.current().isHangUp(from:)
    /// The terminal flickd was started in, watched from `run()` for its hang-up (EPOLLHUP on
    /// one of its descriptors): a terminal emulator that signals the shell and waits for it to
    /// exit before it closes the terminal (Konsole, xterm) delivers every SIGHUP while the
    /// terminal is still open, and a job in the background may get none at all. Tests give one
    /// of their own (a pty) or none.
    var startingTerminal = StartingTerminal.current()
    /// The loop's own descriptors whose reads `readFault` can fail.
    enum LoopRead { case timer, signals, reloadTimer }
    /// A read error to take instead of reading one of the loop's own descriptors, which leaves
    /// it readable (tests: the kernel does not fail these reads on demand); nil in use.
    var readFault: ((LoopRead) -> SystemError?)?

    /// A daemon feeding `engine` from the devices `monitor` finds (nil: none, for tests) and
    /// writing to `wheel`. `reloadConfiguration` is called on SIGHUP; when it throws, the running
    /// configuration stays. Replaces `engine.onReport` with logging. Blocks SIGTERM, SIGINT,
    /// SIGHUP and SIGTSTP for the calling thread, which must be the one that calls `run()`.
    /// `notifier`, when given, hears when the daemon is ready, reloading and stopping, and how many devices it has.
    /// `configurationWatcher`, when given, makes a change to the configuration file reload it
    /// as SIGHUP does, once the file has been quiet for `reloadDelay`.
    public convenience init(
        engine: Engine,
        wheel: any WheelSink,
        monitor: (any DeviceSource)?,
        logger: Logger,
        notifier: ServiceNotifier? = nil,
        configurationWatcher: ConfigWatcher? = nil,
        desktop: DesktopQuery? = nil,
        reloadConfiguration: @escaping () throws -> Configuration
    ) throws(SystemError) {
        try self.init(engine: engine, output: .wheel(wheel), makeOutput: nil, monitor: monitor,
                      logger: logger, notifier: notifier,
                      configurationWatcher: configurationWatcher, desktop: desktop, reloadConfiguration: reloadConfiguration)
    }

    /// A daemon writing coasts to `output`, whose settings are read again with
    /// `reloadConfiguration` (see the first initializer).
    public convenience init(
        engine: Engine,
        output: OutputDevice?,
        makeOutput: ((OutputMode) throws -> OutputDevice)?,
        monitor: (any DeviceSource)?,
        logger: Logger,
        notifier: ServiceNotifier? = nil,
        configurationWatcher: ConfigWatcher? = nil,
        desktop: DesktopQuery? = nil,
        seat: SeatWatch? = nil,
        reloadConfiguration: @escaping () throws -> Configuration
    ) throws(SystemError) {
        let configuration = try LiveConfiguration(current: engine.configuration, watcher: configurationWatcher,
                                                  read: reloadConfiguration)
        try self.init(engine: engine, output: output, makeOutput: makeOutput, monitor: monitor,
                      logger: logger, notifier: notifier, configuration: configuration, desktop: desktop, seat: seat)
    }

    /// A daemon writing coasts to `output` (the engine's `output` is set to its mode); with
    /// no `output`, `makeOutput` creates the device of `configuration`'s mode when the first
    /// touchpad or touchscreen whose flicks coast is opened. `makeOutput` also creates the
    /// device for another mode when a reload changes `output.mode`.
    /// `configuration` is reloaded on SIGHUP and when its watcher reports a change; the engine
    /// must have been made with its `current` settings. `desktop`, when given, is asked for the
    /// desktop's natural-scrolling setting at start and after each reload that read the file,
    /// when a `scroll.natural` is `"auto"`; its answer is applied when it arrives. The rest as
    /// above.
    public init(
        engine: Engine,
        output: OutputDevice?,
        makeOutput: ((OutputMode) throws -> OutputDevice)?,
        monitor: (any DeviceSource)?,
        logger: Logger,
        notifier: ServiceNotifier? = nil,
        configuration: LiveConfiguration,
        desktop: DesktopQuery? = nil,
        seat: SeatWatch? = nil
    ) throws(SystemError) {
        self.engine = engine
        self.output = output
        self.makeOutput = makeOutput
        self.monitor = monitor
        self.logger = logger
        // A quirks file libinput cannot parse costs every quirk, libinput's and so flickd's:
        // said once, when a device first needs the files.
        (monitor as? DeviceMonitor)?.quirks.report = { [logger] problem in logger.warning("\(problem)") }
        self.notifier = notifier
        self.configuration = configuration
        self.desktop = desktop
        self.seat = seat
        signals = try SignalReceiver(signals: StartupChecks.daemonSignals)
        poll = try EventPoll()
        timer = try DeadlineTimer()
        try poll.add(signals.fileDescriptor, token: Token.signals)
        try poll.add(timer.fileDescriptor, token: Token.timer)
        if let watcher = configuration.watcher, let settleTimer = configuration.settleTimer {
            try poll.add(watcher.fileDescriptor, token: Token.configurationFile)
            try poll.add(settleTimer.fileDescriptor, token: Token.reloadDelay)
        }
        if let desktop { try poll.add(desktop.fileDescriptor, token: Token.desktop) }
        if let seat { try poll.add(seat.fileDescriptor, token: Token.seat) }
        engine.onReport = { [unowned self] report in self.reported(report) }
        engine.output = output?.mode ?? configuration.current.output.mode
        engine.onTouchFrame = { [unowned self] frame, _ in self.emit(frame) }
    }

    /// Opens the devices and runs until SIGTERM or SIGINT, then stops any coast, destroys the
    /// virtual wheel and returns. Throws only when the loop itself breaks (epoll, its timerfd or
    /// its signalfd fails), after the same shutdown: the virtual fingers lift first.
    public func run() throws(SystemError) {
        askDesktop(for: configuration.current)
        startHotplug()
        if case .inactive(let uid)? = seat?.current() {
            paused = true
            logger.notice("another user's session is active on the seat (uid \(uid)): flickd waits for this user's, with no device open")
        }
        openDevices(at: now())
        if !paused && !devices.values.contains(where: { $0.role == .touch }) {
            let later = output == nil ? " (\(OutputDevice.name(of: engine.output)) is created then)" : ""
            if refusedTouchNodes.isEmpty {
                logger.notice("no touchpad or touchscreen to read yet; waiting for one to be plugged in\(later)")
            } else {
                logger.notice("no touchpad or touchscreen flickd may read: \(refusedTouchNodes.keys.sorted().joined(separator: ", ")) refused access (see above); they are opened when udev reports them again (plugged in, or `sudo udevadm trigger` once a udev rule gives access) or when flickd starts with the input group\(later)")
            }
        }
        // The devices present are open, and the output with them: startup is complete.
        reportedStatus = statusCounts
        notifier?.ready(status: serviceStatus())
        // Right after READY: a start that waited for it would take its page reads longer (each
        // page is a read of its own after the shed); a gesture that begins meanwhile is read
        // a little late, with its kernel times, and coasts as usual.
        rehearse()
        warmLoop()
        // Start-up's allocations (configuration, device scan) are done with.
        Syscall.releaseFreeHeap()
        if let terminal = startingTerminal.descriptors.first {
            do {
                try poll.addHangUp(terminal, token: Token.terminal)
            } catch {
                logger.debug("the terminal flickd was started in is not watched for its closing: \(error)")
            }
        }
        do {
            try loop()
        } catch {
            // A loop without its timer or its signals cannot drive a coast or hear SIGTERM;
            // going on would spin on a descriptor that stays readable. The fingers lift first;
            // the caller logs the error.
            shutDown()
            throw error
        }
    }

    /// Waits for the loop's descriptors and handles them, until SIGTERM or SIGINT (returns,
    /// after the shutdown) or a failure of the loop itself (throws, before it).
    private func loop() throws(SystemError) {
        while true {
            // A device whose read stopped at its cap is read again at once, after the rest.
            let count = try poll.wait(timeoutMilliseconds: readAgain.isEmpty ? -1 : 0)
            // Once per wake-up, before any device is read: the first wake-up after a resume may
            // be a landing rather than the timer, and the coast from before the suspend must
            // not be caught by it (a touch would keep its velocity for a boost).
            if watchingStopSources && engine.isCoasting && suspendWatch.slept(suspendedSinceBoot()) {
                // The rest of the coast would play on after the resume, long after the flick.
                logger.info("the machine was suspended during a coast: stopped")
                engine.stop(at: now(), reason: .stall)
            }
            // The timer is handled after the devices: epoll lists it first when it stays on
            // epoll's ready list from its last wake-up, even when a device's events came
            // earlier. Ticked first, a late tick wrote motion up to the wake-up before a
            // touch, key or click stamped earlier that is read after it.
            var timerDue = false
            for index in 0..<count {
                let token = poll.token(at: index)
                switch token {
                case Token.signals:
                    if try receiveSignals() == .exit {
                        shutDown()
                        return
                    }
                case Token.timer:
                    timerDue = true
                case Token.hotplug:
                    receiveHotplug()
                case Token.configurationFile:
                    configurationFileChanged()
                case Token.reloadDelay:
                    reloadDelayPassed()
                case Token.desktop:
                    desktopAnswered()
                case Token.desktopChanges:
                    desktopChanged(server: false)
                case Token.serverChanges:
                    desktopChanged(server: true)
                case Token.serverStart:
                    serverStarting()
                case Token.seat:
                    seatChanged()
                case Token.terminal:
                    terminalClosed()
                    shutDown()
                    return
                default:
                    if let id = Token.deviceID(token) { read(id) }
                }
            }
            if !readAgain.isEmpty {
                let again = readAgain
                readAgain.removeAll(keepingCapacity: true)
                for id in again { read(id) }
            }
            // Its `time >= deadline` guard copes with a deadline the reads moved.
            if timerDue { try timerFired() }
            // Once per wake-up, not per event: a coast may have started or ended, and the
            // deadline may have moved, appeared or gone.
            followCoast()
            if let pending = pendingOutput, !engine.hasFingersDown {
                pendingOutput = nil
                // The desktop was asked for the new output's settings at the reload: a switch
                // that failed asks again for the output that runs on.
                if !switchOutput(to: pending) { askDesktop(for: configuration.current) }
            }
            if (readyOwed || reloadingOwed) && mayWaitForServiceManager { reportReady() }
            try timer.arm(at: nextDeadline)
            if statusCounts != reportedStatus { reportStatus() }
        }
    }

    /// Plays a coast into nothing (`Rehearsal`), so that the first real one runs warm.
    private func rehearse() {
        let began = now()
        do {
            // Its reports are formatted as the daemon's are, at the same level, for a log
            // that writes nothing: with --verbose the first coast's log line runs warm too.
            var quiet = NoOpLogHandler()
            quiet.logLevel = logger.logLevel
            let log = Logger(label: "rehearsal") { _ in quiet }
            let mode = engine.output
            let outcomes = try Rehearsal.run(configuration: configuration.current, output: mode) { report in
                Self.log(report, output: mode, to: log)
            }
            let took = (now() - began).microseconds / 1000
            let played = outcomes.map {
                "\($0.kind == .touchpad ? "a touchpad flick" : "a touchscreen drag"): \($0.coasted ? "coasted" : "no coast"), \($0.frames) frames"
            }
            logger.debug("rehearsed the first coast (\(played.isEmpty ? "nothing: no touchpad or touchscreen flick coasts" : played.joined(separator: "; "))) to /dev/null in \(took) ms")
        } catch {
            logger.debug("could not rehearse a coast (\(error)); the first one may start late")
        }
    }

    /// Runs once, right after the rehearsal, what only the daemon's loop does in a coast: the
    /// mice and keyboards that stop it watched and unwatched, and a timer that fires and is read
    /// (armed to fire at once: the loop's first wait returns it, and with no deadline pending
    /// it writes nothing). The rehearsal plays its engine on virtual time and never comes here,
    /// and the first real coast's opening frames waited for this path
    /// (docs/PERFORMANCE.md, "The first coast's timer").
    private func warmLoop() {
        follow(coasting: true)
        follow(coasting: false)
        do { try timer.arm(at: now()) } catch {
            logger.debug("could not run the timer once (\(error)); the first coast may open late")
        }
    }

    // MARK: Time

    /// The current time on CLOCK_MONOTONIC (the clock of evdev timestamps and the timerfd).
    private func now() -> Instant { Syscall.monotonicNow() }

    // MARK: Signals

    private enum SignalOutcome { case keepRunning, exit }

    /// Handles every pending signal; SIGHUP reloads even when a SIGTERM came with it, unless
    /// it is the hang-up of the terminal flickd was started in: then it shuts down as SIGTERM
    /// does.
    /// - Throws: when the signalfd cannot be read (it stays readable; the loop stops).
    private func receiveSignals() throws(SystemError) -> SignalOutcome {
        var outcome = SignalOutcome.keepRunning
        while true {
            let signal: Int32?, sender: SignalSender
            do throws(SystemError) {
                if let fault = readFault?(.signals) { throw fault }
                let received = try signals.next()
                (signal, sender) = (received?.number, received?.sender ?? SignalSender(code: 0, processID: 0))
            } catch {
                logger.error("cannot read signals (\(error)): flickd cannot hear SIGTERM or SIGHUP without them and stops")
                throw error
            }
            switch signal {
            case nil:
                return outcome
            case SIGHUP where terminalHungUp(sender):
                // The terminal's window was closed: its shell passes SIGHUP on to its jobs.
                // Reloading would leave flickd running unseen, and a flickd.service started
                // later would glide every flick a second time. A SIGHUP from anyone else is a
                // reload (`kill -HUP` from another shell, `systemctl reload`). The terminal's
                // closing itself is watched as well (`terminalClosed`).
                logger.info("SIGHUP: the terminal flickd was started in has closed: shutting down")
                outcome = .exit
            case SIGHUP:
                reload(because: "SIGHUP")
            case SIGTERM, SIGINT:
                logger.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): shutting down")
                outcome = .exit
            case SIGTSTP:
                stopForJobControl()
            default:
                continue
            }
        }
    }

    /// The starting terminal reported a hang-up (watched for nothing else: `addHangUp`), so it
    /// has closed (its window closed): the caller shuts down as after SIGTERM, rather than run
    /// on unseen, and a flickd.service started later would glide every flick a second time.
    /// Rationale: the report itself is the closing, not `StartingTerminal.hasHungUp()`: a pty
    /// reports EPOLLHUP as soon as its master is closed, a moment before the kernel hangs up its
    /// descriptors (which `tcgetattr`'s EIO tells), and a loop that woke in between and looked
    /// again would miss it for good.
    private func terminalClosed() {
        logger.info("the terminal flickd was started in has closed: shutting down")
    }

    /// SIGTSTP (Ctrl-Z under `flickd run` in a terminal): stops the coast, lets the virtual
    /// fingers rest, settle and lift as at a shutdown (`liftFingers`, at most
    /// `shutdownLiftBudget`), then stops the process as SIGTSTP's default action would, so that
    /// the shell's job control works; goes on when continued (SIGCONT). Stopped with the
    /// fingers down, they would rest on the virtual pad for as long as the process stays
    /// stopped: to libinput a touch that never ends. Lifted at once while still moving, GTK
    /// would take the lift for a flick's end and glide on by itself.
    private func stopForJobControl() {
        logger.info("SIGTSTP: the coast stops and the virtual fingers lift; then flickd stops until continued")
        liftFingers(reason: .jobControl)
        followCoast()
        signals.whileUnblocked(SIGTSTP, raiseStop)
        // In an orphaned process group (a service) the kernel drops the raised SIGTSTP: no stop.
        logger.info("flickd goes on after SIGTSTP")
    }

    /// Reads the configuration again and applies it, or keeps the running one when it cannot
    /// be read; `trigger` starts the log lines. A file change that leaves the settings as they
    /// are applies nothing (applying stops a coast).
    private func reload(because trigger: String, unlessUnchanged: Bool = false) {
        let time = now()
        // Before the file is read, a glide may run on (a file unchanged or unusable keeps it).
        if let notifier {
            let waiting = mayWaitForServiceManager
            reloadingOwed = !notifier.reloading(at: time, waiting: waiting) && !waiting
        }
        // Ready again whether the new file was taken or not: the daemon runs either way.
        defer {
            reportReady()
            Syscall.releaseFreeHeap()
        }
        let configuration: Configuration
        let rehearsed = Rehearsal.flicks(under: self.configuration.current)
        switch self.configuration.reload(unlessUnchanged: unlessUnchanged) {
        case .kept(let error):
            logger.error("\(trigger): keeping the running configuration: \(error)")
            return
        case .unchanged(let same):
            // The desktop's setting may have changed since: each reload asks again.
            askDesktop(for: same)
            logger.info("\(trigger): the settings are unchanged")
            return
        case .changed(let new):
            configuration = new
            explicitNaturalLine = nil
        }
        engine.apply(configuration, at: time)
        logger.info("\(trigger): configuration reloaded")
        for warning in configuration.deviceRuleWarnings() + configuration.touchpadGlideWarnings() { logger.warning("\(warning)") }
        pendingOutput = nil
        if configuration.output.mode != engine.output, case .touchpad? = output, engine.hasFingersDown {
            pendingOutput = configuration.output.mode
            logger.debug("output.mode = \"\(configuration.output.mode.rawValue)\" once the virtual touchpad's fingers have lifted")
            askDesktop(for: self.configuration.current)
            if Rehearsal.flicks(under: configuration) != rehearsed { rehearse() }
        } else if !switchOutput(to: configuration.output.mode) {
            askDesktop(for: self.configuration.current)
            // A kind of device or a finger count whose coast has not run yet.
            if Rehearsal.flicks(under: configuration) != rehearsed { rehearse() }
        }
        // Mice and keyboards are open only while their kind stops coasts.
        for (id, open) in devices.sorted(by: { $0.key < $1.key }) where open.role != .touch && role(for: open.node) == nil {
            close(id, at: time, why: "closed (it no longer stops coasts)")
        }
        // The engine has admitted its devices again under the new configuration: a disabled
        // kind is no longer read, an enabled one is.
        for (id, open) in devices.sorted(by: { $0.key < $1.key }) where open.role == .touch {
            if let admission = engine.admission(of: id), keeps(admission, node: open.node, buttons: open.hasButtons, sizeHint: open.device.sizeHint) { continue }
            // Judged and said: the open below judges it again, alike, at debug level.
            if !open.node.syspath.isEmpty { unusedTouchNodes[open.node.devnode] = open.node.syspath }
            close(id, at: time, why: "closed")
        }
        // Devices closed before may be wanted now.
        openDevices(at: time)
        // A kind of device that only stopped coasts may coast now.
        createOutputIfNeeded()
    }

    // MARK: The desktop's natural scrolling

    /// Asks the desktop for its touchpad setting when `configuration` follows it (a
    /// `scroll.natural = "auto"` anywhere); else logs the explicit setting, and asks all the
    /// same for the virtual pad's own setting (touchpad output) or which drivers glide (an X
    /// server). The answer is applied when it arrives (`desktopAnswered`); until then the last
    /// one stays. Not asked, the desktop's last answer no longer keeps a pad from coasting
    /// (`noCoastAnswer`).
    private func askDesktop(for configuration: Configuration) {
        guard let desktop else { return }
        if !configuration.followsDesktopNaturalScrolling {
            let line = DesktopSettings.naturalScrollingDecision(for: configuration) { .none(why: "not asked") }.message
            if line != explicitNaturalLine { logger.info("\(line)") } else { logger.debug("\(line)") }
            explicitNaturalLine = line
            // The virtual touchpad may have a setting of its own on the desktop all the same, and
            // an X server says which touchpads' drivers glide by themselves (their flicks must
            // start no second glide).
            guard asksDesktop(configuration, desktop) else {
                // Not asked, the desktop is not heard enabling a pad it disabled either: the pads
                // its last answer left starting no coast start them again (`noCoastAnswer`).
                followDriverGlides()
                return
            }
        }
        // The touchpads whose own settings the answer should hold (sway lists a device a moment
        // after the kernel has it, and the probe waits for them).
        var touchpads = devices.values.compactMap { $0.node.kind == .touchpad ? $0.identity : nil }
        if configuration.output.mode == .touchpad { touchpads.append(VirtualTouchpad.identity) }
        desktopAsked = desktop.ask(devices: touchpads, openingServerWatch: serverWatch == nil)
        if !desktopAsked {
            logger.warning("cannot ask the desktop for its natural-scrolling setting (no thread); keeping \(engine.desktopNaturalScrolling)")
        }
        watchDesktop(desktop)
    }

    /// Whether `desktop` is asked under `configuration` (`askDesktop`): for its setting where
    /// `scroll.natural = "auto"` anywhere, for the virtual pad's own setting with the touchpad
    /// output, and on an X server for which touchpads' drivers glide.
    private func asksDesktop(_ configuration: Configuration, _ desktop: DesktopQuery) -> Bool {
        Self.asksDesktop(configuration, onXServer: desktop.tellsDriverGlides)
    }

    /// Whether the desktop is asked under `configuration`, where `onXServer` says the session is
    /// an X server's that tells which touchpads' drivers glide (`DesktopQuery.tellsDriverGlides`);
    /// doctor judges a disabled pad by the same rule.
    public static func asksDesktop(_ configuration: Configuration, onXServer: Bool) -> Bool {
        configuration.followsDesktopNaturalScrolling || configuration.output.mode == .touchpad || onXServer
    }

    /// The desktop's answer in force as far as it says which touch devices start no coast
    /// (`PerDeviceNaturalScrolling.noCoast`): nil while the configuration in force does not ask
    /// the desktop (`asksDesktop`; an answer to an ask made before a reload may still come).
    /// Rationale: a pad kept stop-only (or closed) by an answer no longer asked for stayed so
    /// until a restart once the desktop enabled it again, unheard; not asked, a disabled pad is
    /// not seen, as at a start under that configuration.
    private var noCoastAnswer: PerDeviceNaturalScrolling? {
        guard let desktop, asksDesktop(configuration.current, desktop) else { return nil }
        return desktopAnswer?.perDevice
    }

    /// Opens a watch on the desktop's touchpad settings when there is none and the desktop
    /// offers one (on sway the watch also waits for a sway that starts later).
    private func watchDesktop(_ desktop: DesktopQuery) {
        guard desktopWatch == nil, let watch = desktop.watchChanges(logger) else { return }
        do {
            try poll.add(watch.fileDescriptor, token: Token.desktopChanges)
            desktopWatch = watch
            logger.debug("natural scrolling: following changes to \(watch.source)")
        } catch {
            logger.warning("cannot follow the desktop's touchpad settings: \(error); they are read again on reload")
        }
    }

    /// Puts the server watch the query opened for an ask in the loop's epoll set, or logs why
    /// there is none (a new reason at info, as changes made in the X server then wait for a
    /// reload). True when a watch was added.
    private func takeServerWatch(_ desktop: DesktopQuery) -> Bool {
        switch desktop.takeServerWatch() {
        case nil:
            return false
        case .failed(let why):
            waitForServer(desktop)
            let waiting = serverStartWatch.map { ", and when an X server starts (\($0.source))" } ?? ""
            let line = "natural scrolling: cannot follow the X server's touchpad settings as they change (\(why)); they are read again at each reload and hot-plug\(waiting)"
            if why != serverWatchFailure { logger.info("\(line)") } else { logger.debug("\(line)") }
            serverWatchFailure = why
            return false
        case .opened(let watch):
            guard serverWatch == nil else { return false }
            do {
                try poll.add(watch.fileDescriptor, token: Token.serverChanges)
                serverWatch = watch
                serverWatchFailure = nil
                if let start = serverStartWatch {
                    try? poll.remove(start.fileDescriptor)
                    serverStartWatch = nil
                }
                logger.debug("natural scrolling: following changes to \(watch.source)")
                return true
            } catch {
                logger.warning("cannot follow the X server's touchpad settings: \(error); they are read again on reload")
                return false
            }
        }
    }

    /// The desktop's watch (`server`: the X server's) is readable: a touchpad's settings changed
    /// or a desktop started (ask again), or the watch ended (drop it; the next ask opens a new
    /// one).
    private func desktopChanged(server: Bool) {
        guard let watch = server ? serverWatch : desktopWatch else { return }
        let change = watch.receive()
        switch change {
        case .none:
            return
        case .touchpads, .started:
            // What the answer changes is logged at info (`desktopAnswered`).
            let what = change == .started ? "a desktop started" : "the desktop's touchpad settings may have changed"
            logger.debug("natural scrolling: \(what) (\(watch.source)); asking again")
            if desktopAsked { desktopAskAgain = true } else { askDesktop(for: configuration.current) }
        case .closed:
            try? poll.remove(watch.fileDescriptor)
            if server {
                serverWatch = nil
                if let desktop { waitForServer(desktop) }
                let again = serverStartWatch.map { "when an X server starts (\($0.source)) or" } ?? "when"
                logger.info("natural scrolling: \(watch.source) ended (the X server went away); it is watched again \(again) the desktop is next asked (a reload, a touchpad plugged in)")
            } else {
                desktopWatch = nil
                logger.info("natural scrolling: the watch on \(watch.source) ended; the desktop is watched again when it is next asked (a reload, a touchpad plugged in)")
            }
        }
    }

    /// Opens the watch for an X server's start, when there is none and the session has a display
    /// to wait at.
    private func waitForServer(_ desktop: DesktopQuery) {
        guard serverStartWatch == nil, let watch = desktop.watchServerStart(logger) else { return }
        do {
            try poll.add(watch.fileDescriptor, token: Token.serverStart)
            serverStartWatch = watch
            logger.debug("natural scrolling: waiting at \(watch.source)")
        } catch {
            logger.debug("natural scrolling: cannot wait for an X server to start: \(error)")
        }
    }

    /// The watch for an X server's start is readable: time to try its watch (ask, opening one),
    /// or the watch ended (its directory removed or renamed): a new one is made at once (a
    /// directory made anew is waited at), else at the next ask whose opening fails
    /// (`takeServerWatch`), as the log says.
    private func serverStarting() {
        guard let watch = serverStartWatch else { return }
        switch watch.receive() {
        case .none, .touchpads:
            return
        case .started:
            guard serverWatch == nil else { return }
            logger.debug("natural scrolling: an X server may have started (\(watch.source)); asking, and watching it")
            if desktopAsked { desktopAskAgain = true } else { askDesktop(for: configuration.current) }
        case .closed:
            try? poll.remove(watch.fileDescriptor)
            serverStartWatch = nil
            // Said at info: the line that began the wait promised the X server's start would
            // be heard.
            let why = (watch as? any ExplainsItsEnd)?.whyEnded.map { " (\($0))" } ?? ""
            if let desktop { waitForServer(desktop) }
            let again = serverStartWatch.map { "waiting again at \($0.source)" }
                ?? "an X server's start is waited for again when the desktop is next asked (a reload, a touchpad plugged in)"
            logger.info("natural scrolling: the wait at \(watch.source) ended\(why); \(again)")
        }
    }

    /// The query's descriptor is readable: an answer came, or the server watch an ask wanted.
    private func desktopAnswered() {
        guard let desktop else { return }
        // The answer first, which empties the pipe (a watch kept after that wakes the loop
        // again); then the watch, before the answer is applied: an ask the answer makes (a change
        // came meanwhile) must see the watch, or it has the query open a second one.
        let finding = desktop.receive()
        // The watch opens after the probe: a change between the two was heard by neither.
        if takeServerWatch(desktop) {
            if desktopAsked { desktopAskAgain = true } else { askDesktop(for: configuration.current) }
        }
        if let finding { apply(finding) }
    }

    /// Applies the desktop's answer to the settings in force, and logs it. A desktop that did
    /// not answer this time (a timeout on a busy login) leaves what it said last in force.
    private func apply(_ finding: DesktopSettings.Finding) {
        var finding = finding
        if case .unanswered(let why) = finding, let last = desktopAnswer {
            logger.info("natural scrolling: the desktop did not answer this time (\(why)); keeping what it said last")
            finding = .found(last)
        }
        desktopAnswer = finding.answer
        desktopAsked = false
        let perDevice = finding.answer?.perDevice
        engine.virtualTouchpadNaturalScrolling = perDevice?.virtualTouchpad
        engine.virtualTouchpadScrollFactor = perDevice?.virtualTouchpadScrollFactor
        for (id, open) in devices where open.role == .touch {
            engine.setDesktopNaturalScrolling(desktopNaturalScrolling(for: open), for: id)
            engine.setDesktopScrollFactor(desktopScrollFactor(for: open), for: id)
        }
        followDriverGlides()
        warnOfSynapticsOutput(perDevice)
        var lines: [String] = []
        if let perDevice {
            let virtual = perDevice.virtualTouchpad.map { "\($0)" } ?? "not listed yet, so its fingers move as yours"
            lines.append("natural scrolling: the desktop keeps it per device (\(perDevice.source)); \(VirtualTouchpad.name): \(virtual)")
        }
        // A reload since the ask may have made every setting explicit: nothing to follow.
        if configuration.current.followsDesktopNaturalScrolling {
            let decision = DesktopSettings.naturalScrollingDecision(for: configuration.current) { finding }
            if let desktop = decision.desktop { engine.desktopNaturalScrolling = desktop }
            lines.append(decision.message)
        }
        let deviceLines = devices.values.sorted(by: { $0.node.devnode < $1.node.devnode }).compactMap(naturalScrollingLine)
        // An answer that changes nothing (GNOME's dconf database is rewritten for any of its
        // settings) is not news: the same lines go to debug.
        let changed = lines + deviceLines != lastDesktopLines
        lastDesktopLines = lines + deviceLines
        for line in lines {
            if changed { logger.info("\(line)") } else { logger.debug("\(line)") }
        }
        for line in deviceLines { logger.debug("\(line)") }
        if desktopAskAgain {
            desktopAskAgain = false
            askDesktop(for: configuration.current)
        }
        // The helper thread's allocations (its own malloc arena) are done with; at start the
        // trim after READY=1 may have come before them (docs/PERFORMANCE.md).
        Syscall.releaseFreeHeap()
    }

    /// Tells the engine which touchpads' drivers glide by themselves (the synaptics X driver's
    /// coasting), so that their flicks start no second glide, and which the desktop disabled
    /// (`PerDeviceNaturalScrolling.noCoast`), whose flicks scroll nothing, by `noCoastAnswer`;
    /// logs each change of a device's use (`keeps`). One no longer kept (nothing of it stops a
    /// coast) is closed; one whose driver no longer glides but was closed for it is opened again.
    private func followDriverGlides() {
        let time = now()
        let perDevice = noCoastAnswer
        for (id, open) in devices.sorted(by: { $0.key < $1.key }) where open.role == .touch {
            let why = open.identity.flatMap { perDevice?.noCoast(for: $0) }
            guard let admission = engine.setDriverGlides(why, for: id) else { continue }
            if !keeps(admission, node: open.node, buttons: open.hasButtons, sizeHint: open.device.sizeHint) {
                if let identity = open.identity { closedForDriverGlides[open.node.devnode] = identity }
                if !open.node.syspath.isEmpty { unusedTouchNodes[open.node.devnode] = open.node.syspath }
                close(id, at: time, why: "closed")
            }
        }
        let reopened = closedForDriverGlides.filter { perDevice?.noCoast(for: $0.value) == nil }
        guard !reopened.isEmpty, let monitor else { return }
        for devnode in reopened.keys { closedForDriverGlides[devnode] = nil }
        for node in monitor.inputNodes() where reopened[node.devnode] != nil { open(node, at: time) }
    }

    /// Warns, once, when the synaptics X driver drives the virtual touchpad the glides go
    /// through: it scrolls that pad by next to nothing (`synapticsDrivesVirtualTouchpad`).
    private func warnOfSynapticsOutput(_ perDevice: PerDeviceNaturalScrolling?) {
        guard !warnedOfSynapticsOutput, engine.output == .touchpad, perDevice?.synapticsDrivesVirtualTouchpad == true,
              devices.keys.contains(where: coasts) else { return }
        warnedOfSynapticsOutput = true
        logger.warning("""
            the synaptics X driver drives \(VirtualTouchpad.name) and scrolls it by next to nothing (a distance it \
            computes from the pad's size), so glides through it do not show; set output.mode = "wheel" in the \
            configuration, or let libinput drive the touchpads (remove xserver-xorg-input-synaptics)
            """)
    }

    /// Which way a touchpad's coasts go and which setting decided (debug), through the one
    /// resolver `flickd doctor` uses too; with the virtual touchpad, whether its fingers move
    /// against the real ones because the desktop gives it a setting of its own.
    private func logNaturalScrolling(_ open: OpenDevice) {
        if let line = naturalScrollingLine(open) { logger.debug("\(line)") }
    }

    /// The desktop's own setting for the touch device `open`, where it keeps one per device; nil
    /// where it does not (its desktop-wide setting applies) or does not list the device. A pad
    /// the desktop leaves at libinput's default (KWin, with no group for it) gets libinput's:
    /// on for Apple's pads, whose glide otherwise ran against the finger.
    private func desktopNaturalScrolling(for open: OpenDevice) -> Bool? {
        guard let identity = open.identity, let perDevice = desktopAnswer?.perDevice else { return nil }
        return perDevice.natural(for: identity) { open.node.kind == .touchpad && open.device.naturalScrollingByDefault != nil }
    }

    /// The desktop's own scrolling speed for the touch device `open`, where it keeps one per
    /// device (KWin's `ScrollFactor`, sway's `scroll_factor`); nil where it does not or does not
    /// list the device.
    private func desktopScrollFactor(for open: OpenDevice) -> Double? {
        guard let identity = open.identity else { return nil }
        return desktopAnswer?.perDevice?.scrollFactor(for: identity)
    }

    /// `logNaturalScrolling`'s line; nil for a device that is no touchpad.
    private func naturalScrollingLine(_ open: OpenDevice) -> String? {
        guard open.node.kind == .touchpad, let identity = open.identity else { return nil }
        let desktop = desktopNaturalScrolling(for: open) ?? desktopAnswer?.value
        let natural = engine.configuration.naturalScrolling(for: identity, kind: .touchpad, desktop: desktop)
        var line = "\(open.node.devnode) (\(open.node.printedName)): natural scrolling \(natural.isNatural) (\(natural.explanation))"
        // The desktop's own setting for the pad, where it gives one, is what the virtual pad's is
        // compared with (the engine's rule): `scroll.natural` does not change a touchpad's glide.
        let own = desktopNaturalScrolling(for: open) ?? natural.isNatural
        guard engine.output == .touchpad else { return line }
        let speed = GlideSpeedText(source: desktopScrollFactor(for: open), virtual: engine.virtualTouchpadScrollFactor)
        // Two turns of the fingers, as the engine makes them (and `flickd doctor` says them): the
        // two pads' directions differ, and a negative factor on one of them. Both cancel.
        let turned = speed.map { $0.ratio < 0 } ?? false
        let reverses = "a negative factor reverses one of the pads"
        if let virtual = engine.virtualTouchpadNaturalScrolling, virtual != own {
            line += turned ? "; the virtual touchpad's is \(virtual), and \(reverses): its fingers move as yours did"
                           : "; the virtual touchpad's is \(virtual), so its fingers move against yours"
        } else if turned {
            line += "; its fingers move against yours: \(reverses)"
        }
        if let speed, !speed.same {
            line += "; \(speed.sentence(way: false))"
            if let edge = speed.edge(engine.configuration.resolved(for: identity).configuration) { line += "; \(edge)" }
        }
        return line
    }

    /// Notes the configuration file's changes and (re)starts the wait for them to settle.
    private func configurationFileChanged() {
        do {
            try configuration.receiveChanges(at: now())
        } catch {
            // Out of the epoll set: a descriptor that stays readable would spin the loop.
            if let watcher = configuration.watcher { _ = try? poll.remove(watcher.fileDescriptor) }
            logger.error("configuration changes are no longer followed: \(error); SIGHUP still reloads")
        }
    }

    private func reloadDelayPassed() {
        let trigger: String?
        do throws(SystemError) {
            if let fault = readFault?(.reloadTimer) { throw fault }
            trigger = try configuration.settled(at: now())
        } catch {
            // Out of the epoll set, as a watcher that cannot be read is: a timer that stays
            // readable would spin the loop, and changes with no timer to settle them reload nothing.
            if let settleTimer = configuration.settleTimer { _ = try? poll.remove(settleTimer.fileDescriptor) }
            if let watcher = configuration.watcher { _ = try? poll.remove(watcher.fileDescriptor) }
            logger.error("configuration changes are no longer followed: cannot read the reload timer (\(error)); SIGHUP still reloads")
            return
        }
        guard let trigger else { return }
        reload(because: trigger, unlessUnchanged: true)
    }

    /// Makes `mode`'s device the output, when it is not already; true when the output changed
    /// (the desktop is asked again and a coast rehearsed on it). When the new device cannot be
    /// made and the old one runs on, the settings in force say so, so that the next save of the
    /// same file tries again, and the desktop is asked for the output that runs.
    @discardableResult
    private func switchOutput(to mode: OutputMode) -> Bool {
        let old = engine.output
        guard mode != old else { return false }
        replaceOutput(with: mode)
        if engine.output != mode { configuration.keepOutput(engine.output) }
        guard engine.output != old else { return false }
        askDesktop(for: configuration.current)
        rehearse()
        return true
    }

    /// Creates the device for `mode` and destroys the old one; keeps the old one when the new
    /// one cannot be created.
    private func replaceOutput(with mode: OutputMode) {
        guard let current = output else {
            // Not created yet: the new mode's device is, when it is needed.
            engine.setOutput(mode, at: now())
            failedOutput = nil
            logger.info("output: \(Self.describe(mode)), created when a touchpad or touchscreen is used")
            return
        }
        guard let makeOutput else {
            logger.error("output.mode = \"\(mode.rawValue)\" takes effect when flickd restarts")
            return
        }
        let replacement: OutputDevice
        do { replacement = try makeOutput(mode) } catch {
            logger.error("keeping the \(current.mode.rawValue) output: \(error)")
            return
        }
        // A reload waits for the fingers to lift (`pendingOutput`); any still down (a reload
        // whose switch could not wait) end with the device: the kernel lifts them.
        current.close()
        owedLift = nil
        output = replacement
        // A glide switched off now ends now, as its report says.
        engine.setOutput(mode, at: now())
        outputFailing = false
        logger.info("output: \(Self.describe(mode))")
    }

    /// Creates the output device when there is none yet (a device whose flicks coast was just
    /// opened). When it cannot be created, says why once; the next such device tries again.
    private func createOutputIfNeeded() {
        guard output == nil, let makeOutput, devices.keys.contains(where: coasts) else { return }
        let mode = engine.output
        do {
            output = try makeOutput(mode)
            failedOutput = nil
            outputFailing = false
        } catch {
            if failedOutput != mode {
                logger.error("\(error)\nflicks do not coast until it can be created (tried again when a touchpad or touchscreen is plugged in, when this user's session is in front again, or on reload)")
            }
            failedOutput = mode
        }
    }

    /// Whether flicks on device `id` coast (not only stop a coast).
    private func coasts(_ id: DeviceID) -> Bool {
        if case .used? = engine.admission(of: id) { return true }
        return false
    }

    /// The output device of `mode`, for the log.
    public static func describe(_ mode: OutputMode) -> String {
        switch mode {
        case .touchpad: return "\(OutputDevice.name(of: mode)) (two fingers carry each coast)"
        case .wheel: return "\(OutputDevice.name(of: mode)) (hi-res wheel events)"
        }
    }

    /// The longest shutdown waits for resting virtual fingers to lift, from the stop, on the
    /// clock: fingers frozen mid-glide rest, settle, rest again and lift
    /// (`VirtualFingers.stillBeforeLift`, 550 ms), each rest counted from when its frame was
    /// written, so late wake-ups and slow writes stretch it. Past this they lift at once.
    static let shutdownLiftBudget = Duration.seconds(1)

    private func shutDown() {
        liftFingers(reason: .shutdown)
        output?.close()
        // Only now, with nothing left gliding or down, may STOPPING=1 wait for a full queue;
        // it still comes before the exit, as systemd wants.
        notifier?.stopping()
        for open in devices.values { _ = try? poll.remove(open.device.fileDescriptor) }
        devices.removeAll()
        idsByNode.removeAll()
    }

    /// Stops any coast for `reason` and waits, on the clock, for the virtual fingers to rest,
    /// settle and lift, at most `shutdownLiftBudget`; past it they lift at once.
    private func liftFingers(reason: StopReason) {
        let stopped = now()
        engine.stop(at: stopped, reason: reason)
        // Frozen fingers lift only after resting, even now: lifting them at once would end the
        // scroll while the toolkit may still think they move (GTK would glide on its own).
        let giveUp = stopped + Self.shutdownLiftBudget
        while engine.hasFingersDown, let deadline = engine.nextDeadline, now() < giveUp {
            let wait = min(deadline, giveUp) - now()
            if wait > .zero { usleep(UInt32(clamping: wait.microseconds)) }
            let time = now()
            if time >= deadline { _ = engine.tick(at: time) }
        }
        if engine.hasFingersDown {
            // Out of time (writes or wake-ups ran late): lifted now, not ended by the device's
            // removal mid-rest. The stop that lifts at once writes the lift (`emit`).
            logger.debug("the virtual fingers did not lift within \(Self.shutdownLiftBudget.microseconds / 1000) ms of the stop: lifted now")
            engine.stop(at: now(), reason: .sessionInactive)
        }
    }

    // MARK: Timer

    /// - Throws: when the timer cannot be read (it stays readable; the loop stops).
    private func timerFired() throws(SystemError) {
        do throws(SystemError) {
            if let fault = readFault?(.timer) { throw fault }
            guard try timer.acknowledge() else { return }
        } catch {
            logger.error("cannot read the timer (\(error)): flickd cannot time a coast without it and stops")
            throw error
        }
        let time = now()
        if let owed = owedLift, time >= owed.at { writeOwedLift(owed, at: time) }
        // The deadline may have moved later since the timer was armed (events in the same
        // wake-up); then the re-arm at the end of the wake-up takes care of it.
        guard let deadline = engine.nextDeadline, time >= deadline else { return }
        // A suspend was looked for at the start of this wake-up (`loop`).
        heldEnd = .holding
        let output = engine.tick(at: time)
        logHeldEnd(after: output, written: emit(output))
        // A coast runs from the wake-up that read its release (`followCoast` saw it then).
        if watchingStopSources { punctuality.record(deadline: deadline, woke: time, written: now()) }
    }

    /// Writes wheel output; returns false when the write failed (the engine is told, so that
    /// the end of its coast counts only what was written).
    @discardableResult
    private func emit(_ wheelOutput: WheelOutput) -> Bool {
        guard !wheelOutput.isEmpty, case .wheel(let wheel)? = output else { return true }
        do {
            try wheel.write(wheelOutput)
            outputFailing = false
            return true
        } catch {
            if !outputFailing { logger.error("cannot write to the virtual wheel: \(error)") }
            outputFailing = true
            engine.notWritten(wheelOutput)
            return false
        }
    }

    /// A coast's end reported while the engine produced wheel output not written yet (the
    /// coast's last step): logged once that output's write is done (`logHeldEnd`).
    private enum HeldEnd {
        case none
        case holding
        case held(time: Instant, reason: StopReason, emitted: (vertical: Int64, horizontal: Int64))
    }
    private var heldEnd = HeldEnd.none

    /// The engine's reports, logged; a coast's end waits while `heldEnd` is holding.
    private func reported(_ report: EngineReport) {
        if output == nil {
            // No device carries coasts: a release's coast is stopped at once (`dispatch`), and
            // is none.
            switch report {
            case .coastStarted(let device, let time, _):
                logger.debug("device \(device): no coast at \(time): \(OutputDevice.name(of: engine.output)) could not be created")
                return
            case .coastEnded:
                return
            default:
                break
            }
        }
        if case .coastEnded(let time, let reason, let emitted) = report {
            switch heldEnd {
            case .holding:
                heldEnd = .held(time: time, reason: reason, emitted: emitted)
                return
            case .held(let earlier, let earlierReason, let earlierEmitted):
                // Two ends in one call (a release that replaced a running coast and whose own
                // short coast ended in it): the output is the last coast's, so that end is the
                // one held; the replaced coast's is logged now, as it was counted.
                Self.log(.coastEnded(time: earlier, reason: earlierReason, emittedHiRes: earlierEmitted),
                         output: engine.output, to: logger)
                heldEnd = .held(time: time, reason: reason, emitted: emitted)
                return
            case .none:
                break
            }
        }
        Self.log(report, output: engine.output, to: logger)
    }

    /// Logs the coast's end held while `output` was produced, without `output`'s units when
    /// its write failed (the coast had ended, so the engine could not be told).
    private func logHeldEnd(after output: WheelOutput, written: Bool) {
        defer { heldEnd = .none }
        guard case .held(let time, let reason, var emitted) = heldEnd else { return }
        if !written && !engine.isCoasting {
            emitted.vertical -= Int64(output.verticalHiRes)
            emitted.horizontal -= Int64(output.horizontalHiRes)
        }
        Self.log(.coastEnded(time: time, reason: reason, emittedHiRes: emitted), output: engine.output, to: logger)
    }

    private func emit(_ frame: TouchFrame) {
        guard case .touchpad(let touchpad)? = output else { return }
        do {
            // A write of nothing (a motion that changes no device unit, or one withheld after a
            // landing the kernel did not take) says nothing of whether the device takes writes.
            if try touchpad.writeEvents(of: frame) > 0 { outputFailing = false }
            // A landing lifts fingers still down first (`VirtualTouchpad.Encoder`).
            owedLift = nil
            // Read after the write: when the kernel stamped the frame, as libinput will see it.
            engine.touchFrameWritten(at: now())
        } catch {
            if !outputFailing { logger.error("cannot write to the virtual touchpad: \(error)") }
            outputFailing = true
            if frame.action == .lift { owedLift = (now() + Self.liftRetryFirst, Self.liftRetryFirst) }
        }
    }

    /// Writes again a lift the kernel did not take, unless the engine has landed the fingers
    /// since (its landing lifts them first) or the device is gone; failing again, waits twice as
    /// long, up to `liftRetryLongest`.
    private func writeOwedLift(_ owed: (at: Instant, wait: Duration), at time: Instant) {
        guard !engine.hasFingersDown, case .touchpad(let touchpad)? = output else {
            owedLift = nil
            return
        }
        do {
            try touchpad.write(TouchFrame(action: .lift, first: .zero, second: .zero))
            owedLift = nil
            if outputFailing { logger.info("the virtual touchpad's lift, written again, was taken: its fingers are up") }
            outputFailing = false
        } catch {
            let wait = min(owed.wait * 2, Self.liftRetryLongest)
            owedLift = (time + wait, wait)
        }
    }

    /// When the timer must fire next: the engine's deadline, or an owed lift's, the earlier.
    private var nextDeadline: Instant? {
        switch (engine.nextDeadline, owedLift?.at) {
        case (let engine?, let lift?): return min(engine, lift)
        case (let deadline, nil), (nil, let deadline): return deadline
        }
    }

    // MARK: Devices

    /// Watches mice and keyboards while a coast runs, and stops watching when it ends.
    private func followCoast() {
        follow(coasting: engine.isCoasting)
        // A press read as they were first watched (stamped after the release) may have
        // stopped the coast already: no wake-up would come to stop watching them.
        if watchingStopSources && !engine.isCoasting { follow(coasting: false) }
    }

    /// Whether a READY or RELOADING may wait for room in the service manager's queue (up to
    /// its send timeout): not while a coast runs or the virtual fingers are down, whose frames
    /// a wait would hold back (a glide stalled, settle frames late, a lift delayed).
    private var mayWaitForServiceManager: Bool { !engine.isCoasting && !engine.hasFingersDown }

    private func follow(coasting: Bool) {
        guard coasting != watchingStopSources else { return }
        watchingStopSources = coasting
        if coasting { suspendWatch.start(suspendedSinceBoot()) }
        if !coasting {
            // Built only when debug lines are written.
            if punctuality.wakeUps > 0 { logger.debug("\(punctuality.summary ?? "")") }
            punctuality.reset()
        }
        for (id, open) in devices where open.role != .touch {
            if coasting {
                watch(id, open)
            } else {
                do { try poll.remove(open.device.fileDescriptor) } catch {
                    logger.error("cannot stop watching \(open.node.devnode): \(error)")
                }
            }
        }
    }

    /// Reads each unwatched mouse and keyboard once, dropping what it sent (no coast runs to
    /// stop), and closes those gone.
    private func closeVanishedStopSources() {
        for (id, open) in devices.sorted(by: { $0.key < $1.key }) where open.role != .touch {
            switch open.device.readAvailable({ _ in }) {
            case .drained, .more: break
            case .vanished: close(id, at: now(), why: "removed")
            case .failed(let error): close(id, at: now(), why: "closed after a read error: \(error)")
            }
        }
    }

    /// Starts watching a mouse or keyboard. What it sent while unwatched is read: a press
    /// stamped at or after the coast's release stops it (it came in the release's wake-up, or
    /// since); the rest came before the coast and is dropped (`dispatch`).
    private func watch(_ id: DeviceID, _ open: OpenDevice) {
        switch open.device.readAvailable({ reading in
            if case .event(let event, let time) = reading { dispatch(event, from: id, role: open.role, at: time) }
        }) {
        case .drained: break
        // The rest waits in libevdev's queue, which epoll does not see.
        case .more: if !readAgain.contains(id) { readAgain.append(id) }
        case .vanished: return close(id, at: now(), why: "removed")
        case .failed(let error): return close(id, at: now(), why: "closed after a read error: \(error)")
        }
        do { try poll.add(open.device.fileDescriptor, token: Token.device(id)) } catch {
            close(id, at: now(), why: "closed: cannot watch it (\(error))")
        }
    }

    /// The seat's active session changed: pause while it is another user's, go on when it is
    /// this user's again (or when nothing is known any more).
    private func seatChanged() {
        guard let activity = seat?.receive() else { return }
        let time = now()
        switch (activity, paused) {
        case (.inactive(let uid), false):
            paused = true
            logger.notice("another user's session is active on the seat (uid \(uid)): flickd pauses, with no device open, until this user's is again")
            engine.stop(at: time, reason: .sessionInactive)
            for id in devices.keys.sorted() { close(id, at: time, why: "closed: another user's session is active") }
        case (.active, true), (.nobody, true), (.unknown, true):
            paused = false
            // Nobody: no session active on the seat (a text console with no login); unknown:
            // logind's record gone or unreadable. Either way not another user's.
            let why = activity == .active ? "this user's session is active on the seat again" : "no other user's session is active on the seat now"
            logger.notice("\(why): flickd goes on")
            openDevices(at: time)
        case (.active, false), (.nobody, false), (.unknown, false):
            // Not paused, yet the session may have been away from the front (another VT with no
            // login: no other user's session to pause for), where logind's uaccess ACL on
            // /dev/uinput is the front session's: an output that could not be made then is tried
            // again now this user's is in front, not at the next reload or device.
            if failedOutput != nil { createOutputIfNeeded() }
        case (.inactive, true):
            break
        }
    }

    private func startHotplug() {
        guard let monitor else { return }
        do {
            try poll.add(try monitor.startMonitoring(), token: Token.hotplug)
        } catch {
            logger.warning("devices plugged in later will not be seen (\(error))")
        }
    }

    private func receiveHotplug() {
        monitor?.receiveChanges { change in
            switch change {
            case .added(let node):
                open(node, at: now(), announced: true)
            case .changed(let node):
                if let id = idsByNode[node.devnode], let open = devices[id],
                   node.syspath.isEmpty || open.node.syspath.isEmpty || node.syspath == open.node.syspath {
                    reread(id, open, as: node, at: now())
                    break
                }
                // A touch device judged not used before is judged again (a hwdb entry may have
                // fixed its axes); the same judgement is said at debug level (`keeps`).
                open(node, at: now(), announced: true)
            case .removed(let devnode, let syspath):
                // A late removal of the device a node had before (read after a rescan) leaves
                // what is known of the one there now.
                func same(_ known: String?) -> Bool { known.map { $0.isEmpty || syspath.isEmpty || $0 == syspath } ?? false }
                if same(refusedTouchNodes[devnode]) { refusedTouchNodes[devnode] = nil }
                if same(refusedOtherNodes[devnode]) { refusedOtherNodes[devnode] = nil }
                if same(unusedTouchNodes[devnode]) {
                    unusedTouchNodes[devnode] = nil
                    unusedTouchLines[devnode] = nil
                }
                guard let id = idsByNode[devnode], let open = devices[id] else { break }
                if !syspath.isEmpty && !open.node.syspath.isEmpty && syspath != open.node.syspath {
                    // The removal of the device the node belonged to before, read after a rescan
                    // (lost hot-plug events) opened the one there now: that one stays.
                    logger.debug("\(devnode): removal of an earlier device at this node (\(syspath)); \(open.node.printedName) stays open")
                } else {
                    close(id, at: now(), why: "removed")
                }
            case .missedEvents:
                // A device removed unreported ends when its descriptor reports ENODEV, or when
                // the rescan finds another device at its node. Mice and keyboards are watched
                // only while a coast runs: between coasts each is read once here, so one
                // unplugged meanwhile is closed now, not at the next coast.
                logger.warning("hot-plug events were lost (flickd's queue of udev events overflowed): looking at every device again")
                openDevices(at: now())
                if !watchingStopSources { closeVanishedStopSources() }
            }
        }
    }

    /// udev looked at an open device again ("change": `udevadm trigger`, a hwdb entry that sets
    /// an axis range or resolution, a rule that classifies it anew): it is opened again when
    /// what flickd knows of it changed, its kind or (a touch device) its axes and name, so it is
    /// not read with a scale the kernel no longer has. Nothing changed: it stays as it is.
    /// A device udev now says flickd does not read (another kind, one whose stop setting is
    /// off, one libinput ignores) is closed, and the log says why.
    private func reread(_ id: DeviceID, _ open: OpenDevice, as node: InputNode, at time: Instant) {
        guard let role = role(for: node) else {
            close(id, at: time, why: "changed, closed: \(Self.whyNotOpened(node))")
            if let exclusion = node.exclusion, !node.syspath.isEmpty {
                // Said just now: a rescan or reload that finds it alike says so at debug only.
                unusedTouchNodes[node.devnode] = node.syspath
                unusedTouchLines[node.devnode] = Self.leftAloneLine(node, exclusion)
            }
            return
        }
        let change: String
        if node.kind != open.node.kind || role != open.role {
            change = "udev now says it is a \(node.kind.rawValue)\(node.hasKeys ? " with keyboard keys" : "")"
        } else if open.role == .touch, let now = open.device.describeAgain(), now != open.description {
            change = "its axes or name changed"
        } else {
            return
        }
        close(id, at: time, why: "changed (\(change)): reading it again")
        self.open(node, at: time, announced: true)
    }

    /// What the log says of a device flickd leaves alone: "/dev/input/event7 (name): not used
    /// (on seat1, not seat0)".
    static func leftAloneLine(_ node: InputNode, _ exclusion: InputNode.Exclusion) -> String {
        "\(node.devnode) (\(node.printedName)): not used (\(exclusion))"
    }

    /// How `node` is read under the stop settings in force; nil: it is not opened (not a touch
    /// device, and nothing of it stops a coast; or a device flickd leaves alone).
    private func role(for node: InputNode) -> Role? {
        guard node.exclusion == nil else { return nil }
        switch node.kind {
        case .touchpad, .touchscreen: return .touch
        // Open while something of it stops coasts (a mouse with keyboard keys: either setting).
        case .mouse, .keyboard:
            guard node.stopPress(under: stopSources) != nil else { return nil }
            return node.kind == .keyboard ? .keyboard : node.hasKeys ? .pointerWithKeys : .pointer
        case .other: return nil
        }
    }

    /// Why a node `role(for:)` does not open is not read, as the log says it: "libinput
    /// ignores it (LIBINPUT_IGNORE_DEVICE)", "udev now says it is a mouse, and stop.button is
    /// false".
    static func whyNotOpened(_ node: InputNode) -> String {
        if let exclusion = node.exclusion { return "\(exclusion)" }
        switch node.kind {
        case .mouse where node.hasKeys: return "udev now says it is a mouse with keyboard keys, and stop.button and stop.key are false"
        case .mouse: return "udev now says it is a mouse, and stop.button is false"
        case .keyboard: return "udev now says it is a keyboard, and stop.key is false"
        case .touchpad, .touchscreen, .other: return "udev no longer says it is a touchpad, touchscreen, mouse or keyboard"
        }
    }

    /// Opens every device the monitor lists that is not open yet. A refused node no longer
    /// listed as a touch device leaves `refusedTouchNodes` (its removal may have been lost).
    private func openDevices(at time: Instant) {
        guard let monitor else { return }
        let nodes = monitor.inputNodes()
        refusedTouchNodes = refusedTouchNodes.filter { refused in
            nodes.contains { $0.devnode == refused.key && ($0.kind == .touchpad || $0.kind == .touchscreen) }
        }
        refusedOtherNodes = refusedOtherNodes.filter { refused in
            nodes.contains { $0.devnode == refused.key && ($0.kind == .mouse || $0.kind == .keyboard) }
        }
        for node in nodes { open(node, at: time) }
    }

    /// Whether `node` is one of flickd's own virtual devices (or, by name, another flickd's):
    /// reading them would feed the coast back into the engine and stop it by its own touch.
    private func isOwnDevice(_ node: InputNode) -> Bool {
        if Self.isVirtualDeviceName(node.name) { return true }
        // A stale "add" of a device unplugged before it was read names its old node, which
        // the kernel may since have given to flickd's own device (and no name: libudev could
        // not read it): opened by path, it would be flickd's.
        if let devnode = output?.devnode, node.devnode == devnode { return true }
        guard let syspath = output?.syspath else { return false }
        return node.syspath.hasPrefix(syspath + "/")
    }

    /// Whether `name` is the name of one of flickd's virtual devices.
    public static func isVirtualDeviceName(_ name: String) -> Bool {
        name == VirtualWheel.name || name == VirtualTouchpad.name
    }

    /// Opens `node` and puts it to its use, or logs why not; `announced`: udev has just reported
    /// it (an add or change), rather than a scan having listed it.
    private func open(_ node: InputNode, at time: Instant, announced: Bool = false) {
        guard !paused else { return }
        if let id = idsByNode[node.devnode] {
            // Another device at a node still open: the kernel gave the node to a new device
            // and udev's removal of the old one was lost (an overflow), and an idle mouse or
            // keyboard, unwatched between coasts, would not report ENODEV until the next coast.
            guard let open = devices[id], !node.syspath.isEmpty, !open.node.syspath.isEmpty,
                  open.node.syspath != node.syspath else { return }
            close(id, at: time, why: "removed (its node now belongs to \(node.printedName))")
        }
        guard !isOwnDevice(node) else { return }
        // No touch device at this node any more (its removal lost): not a refused one either.
        if node.kind != .touchpad && node.kind != .touchscreen { refusedTouchNodes[node.devnode] = nil }
        guard let role = role(for: node) else {
            refusedOtherNodes[node.devnode] = nil
            // A device udev calls a touchpad or the like, left alone as libinput leaves it:
            // said once at info, like a touch device judged not used (`keeps`).
            if let exclusion = node.exclusion {
                sayNotUsed(Self.leftAloneLine(node, exclusion), of: node)
                unusedTouchNodes[node.devnode] = node.syspath
            }
            return
        }
        if role == .touch { refusedOtherNodes[node.devnode] = nil }
        guard let monitor else { return }
        let device: any InputDevice
        do {
            device = try monitor.open(node)
        } catch {
            let named = node.devnode + (node.name.isEmpty ? "" : " (\(node.printedName))")
            if error.isPermissionDenied {
                // Refused before (a udev change or a rescan looked again): said already.
                let before = role == .touch ? refusedTouchNodes.updateValue(node.syspath, forKey: node.devnode)
                    : refusedOtherNodes.updateValue(node.syspath, forKey: node.devnode)
                let again = before.map { $0 == node.syspath || $0.isEmpty || node.syspath.isEmpty } ?? false
                if again {
                    logger.debug("cannot open \(named): \(error.reason) (still)")
                } else if !explainedAccessDenied {
                    explainedAccessDenied = true
                    logger.warning("\(InputAccessError(error, node: node, under: stopSources))")
                } else {
                    let cost = InputAccessError.cost(of: node, under: stopSources).map { ": \($0)" } ?? ""
                    logger.warning("cannot open \(named): \(error.reason)\(cost)")
                }
            } else if error.isMissing && announced {
                // Unplugged between udev's add and the open (a stale add): nothing to warn of.
                // A node a scan lists but cannot open (no /dev/input in a container, a driver
                // stuck in its removal) is warned of below.
                logger.debug("cannot open \(named): \(error.reason) (gone again)")
            } else {
                logger.warning("cannot open \(named): \(error.reason)")
            }
            return
        }
        refusedTouchNodes[node.devnode] = nil
        refusedOtherNodes[node.devnode] = nil
        let id = nextID
        nextID += 1
        var identity: DeviceIdentity?
        var opened: DeviceDescription?
        var hasButtons = false
        switch role {
        case .touch:
            let description = device.describe()
            hasButtons = description.hasPointerButtons
            let glides = noCoastAnswer?.noCoast(for: DeviceIdentity(description))
            // Read as udev tags it (what libinput and the desktop's settings for it follow),
            // whatever its capabilities suggest; a touchpad's touches told by pressure as
            // libinput tells them there, its quirks applied (read once, here).
            guard keeps(engine.addDevice(id, description: description, kind: node.kind.touchKind, driverGlides: glides,
                                         currentSlot: device.currentSlot, slotsAtOpen: device.slots,
                                         touchPressure: .given(device.touchPressure)), node: node,
                        buttons: hasButtons, sizeHint: device.sizeHint) else {
                engine.removeDevice(id, at: time)
                if glides != nil { closedForDriverGlides[node.devnode] = DeviceIdentity(description) }
                unusedTouchNodes[node.devnode] = node.syspath
                return
            }
            unusedTouchNodes[node.devnode] = nil
            unusedTouchLines[node.devnode] = nil
            identity = DeviceIdentity(description)
            opened = description
        case .pointer:
            logger.info("\(node.devnode) (\(node.printedName)): mouse, a button press stops a coast")
        case .keyboard:
            logger.info("\(node.devnode) (\(node.printedName)): keyboard, a key press stops a coast")
        case .pointerWithKeys:
            logger.info("\(node.devnode) (\(node.printedName)): mouse with keyboard keys, \(node.stopPress(under: stopSources) ?? "nothing") stops a coast")
        }
        if role != .touch {
            // Left alone before (another seat's, one libinput ignored): no longer.
            unusedTouchNodes[node.devnode] = nil
            unusedTouchLines[node.devnode] = nil
        }
        if role == .touch || watchingStopSources {
            do {
                try poll.add(device.fileDescriptor, token: Token.device(id))
            } catch {
                logger.error("cannot watch \(node.devnode): \(error)")
                if role == .touch { engine.removeDevice(id, at: time) }
                return
            }
        }
        let open = OpenDevice(device: device, node: node, role: role, identity: identity, description: opened, hasButtons: hasButtons)
        devices[id] = open
        if let identity, let perDevice = desktopAnswer?.perDevice {
            engine.setDesktopNaturalScrolling(desktopNaturalScrolling(for: open), for: id)
            engine.setDesktopScrollFactor(desktopScrollFactor(for: open), for: id)
            // A desktop that lists only the devices it has (sway) has not answered for a
            // touchpad plugged in since: ask it again.
            if node.kind == .touchpad, perDevice.unlisted == nil, perDevice.natural(for: identity) == nil {
                if desktopAsked { desktopAskAgain = true } else { askDesktop(for: configuration.current) }
            }
        }
        idsByNode[node.devnode] = id
        if role == .touch { createOutputIfNeeded() }
        // While the desktop is being asked, its answer logs every touchpad's direction.
        if !desktopAsked { logNaturalScrolling(open) }
    }

    /// Whether a touch device with `admission` is kept open (and in the engine); logs the
    /// decision. A device judged not used as before (a udev change, a rescan or a reload judging
    /// it again) is said at debug level; a new reason, or another device at the node, at info.
    private func keeps(_ admission: DeviceAdmission, node: InputNode, buttons: Bool, sizeHint: LibinputQuirks.Hint? = nil) -> Bool {
        let label = "\(node.devnode) (\(node.printedName))"
        func sayNotUsed(_ line: String) { self.sayNotUsed(line, of: node) }
        switch admission {
        case .used(let kind, let geometry):
            // The quirk is named only where it set the scale in use (a [[device]] resolution wins).
            let quirk = sizeHint.flatMap { Double($0.unitsPerMillimetreX) == geometry.x.unitsPerMillimetre ? $0 : nil }
            let estimated = geometry.x.isEstimated || geometry.y.isEstimated
                ? ", size estimated (no resolution from the kernel and no libinput quirk: \(kind == .touchpad ? "libinput's 69 × 50 mm guess" : "a 13.3-inch panel"); a [[device]] resolution sets it)"
                : quirk.map { ", no resolution from the kernel: libinput's \($0.source)" } ?? ""
            logger.info("""
                \(label): \(kind.rawValue), \(Self.whole(geometry.x.lengthMillimetres)) × \
                \(Self.whole(geometry.y.lengthMillimetres)) mm\(estimated); flicks coast
                """)
            return true
        case .stopOnly(let kind, let why):
            guard let stopper = stopSources.stopper(ofUnreadDeviceWithButtons: buttons) else {
                sayNotUsed("\(label): \(kind.rawValue), not used (\(why), and \(Self.unreadDeviceStops(buttons: buttons)))")
                return false
            }
            logger.info("\(label): \(kind.rawValue), \(stopper) stops a coast (\(why))")
            return true
        case .ignored(let why):
            sayNotUsed("\(label): not used (\(why))")
            return false
        }
    }

    /// Says `line`, why `node` is not used: at info, or at debug when the same line was said of
    /// the same device before (a udev change, a rescan or a reload judging it alike).
    private func sayNotUsed(_ line: String, of node: InputNode) {
        let said = !node.syspath.isEmpty && unusedTouchNodes[node.devnode] == node.syspath && unusedTouchLines[node.devnode] == line
        if said { logger.debug("\(line)") } else { logger.info("\(line)") }
        unusedTouchLines[node.devnode] = line
    }

    /// Why nothing of a touch device whose flicks are not read stops a coast: the settings that
    /// are off (`stop.button` too when it has buttons of its own).
    static func unreadDeviceStops(buttons: Bool) -> String {
        buttons ? "stop.touch and stop.button are false" : "stop.touch is false"
    }

    /// Forgets device `id`: it leaves the engine (ending a coast it started) and is closed.
    private func close(_ id: DeviceID, at time: Instant, why: String) {
        guard let open = devices.removeValue(forKey: id) else { return }
        idsByNode[open.node.devnode] = nil
        do { try poll.remove(open.device.fileDescriptor) } catch {
            // Not watched (a mouse or keyboard between coasts), or closing the descriptor
            // when `open` goes removes it anyway.
        }
        if open.role == .touch { engine.removeDevice(id, at: time) }
        logger.info("\(open.node.devnode) (\(open.node.printedName)): \(why)")
    }

    private func read(_ id: DeviceID) {
        guard let open = devices[id] else { return }  // closed earlier in this wake-up
        let end = open.device.readAvailable { reading in
            switch reading {
            case .event(let event, let time):
                dispatch(event, from: id, role: open.role, at: time)
            case .resynchronized:
                // The engine abandons the gesture on the SYN_DROPPED event that follows.
                logger.debug("\(open.node.devnode): the kernel dropped events; resynchronised")
            }
        }
        switch end {
        case .drained: break
        case .more: if !readAgain.contains(id) { readAgain.append(id) }
        case .vanished: close(id, at: now(), why: "removed")
        case .failed(let error): close(id, at: now(), why: "closed after a read error: \(error)")
        }
    }

    /// One event from a device. Key codes are looked at only to tell a button from a key;
    /// they are never stored or logged.
    private func dispatch(_ event: InputEvent, from id: DeviceID, role: Role, at time: Instant) {
        switch role {
        case .touch:
            if engine.isCoasting, stopSources.key, event.type == EventCode.key, event.value == 1, !Self.isButton(event.code),
               coastStart.map({ time >= $0 }) ?? true || Self.modifierKeys.contains(event.code) {
                // A keyboard key on a touch device's own node (a keyboard and touchpad combo
                // that udev lists as a touchpad; a tablet's Windows key): a key press, as on a
                // keyboard, and like one stops only a coast that began before it (read after
                // another device's release in the same wake-up, it came first). But a modifier
                // from before the coast was held at its release, where `modifierHeld` could not
                // see it (it trusts touch nodes' state, this press unread): as there, no glide
                // with Super or Ctrl held.
                engine.stop(at: time, reason: .key)
            }
            heldEnd = .holding
            let coastsBefore = engine.coastsStarted
            let output = engine.handle(event, from: id, at: time)
            if engine.coastsStarted != coastsBefore {
                coastStart = time
                if self.output == nil {
                    // No device carries coasts (its creation failed, said once at error
                    // level): run unseen, the coast would wake the timer at its tick rate, have
                    // mice and keyboards watched, and leave virtual fingers in the model for a
                    // shutdown to wait for. Stopped now, the fingers lifting at once; its start
                    // was logged as no coast (`reported`), its end is not.
                    heldEnd = .none
                    engine.notWritten(output)
                    engine.stop(at: time, reason: .sessionInactive)
                    return
                }
            }
            // A coast that starts with a modifier held would reach the apps as Ctrl + scroll
            // (zoom), Shift + scroll or Alt + scroll: its press came before the coast, while
            // keyboards go unread, so it is looked up now, before the release's first output.
            // Asked of every coast this event started, also one whose whole output came with
            // its release and so has ended already (a short coast): the output is then that
            // coast's alone.
            if engine.coastsStarted != coastsBefore && stopSources.key && modifierHeld() {
                logger.debug("a modifier key is held at the release: no coast")
                engine.notWritten(output)
                // A coast that ended in its own release ended for the key too: nothing of it was
                // written; its end is the one held (`reported`). (While it runs, an end held is
                // that of the coast it replaced.)
                if !engine.isCoasting, case .held(let end, _, let emitted) = heldEnd {
                    heldEnd = .held(time: end, reason: .key, emitted: emitted)
                }
                logHeldEnd(after: output, written: false)
                engine.stop(at: time, reason: .key)
                return
            }
            logHeldEnd(after: output, written: emit(output))
        case .pointer, .keyboard, .pointerWithKeys:
            guard event.type == EventCode.key, event.value == 1, engine.isCoasting else { return }
            // A press before the coast's release (read after it, in the same wake-up, or as its
            // device is first looked at) came before the coast: the flick was made after it.
            if let coastStart, time < coastStart { return }
            let isButton = Self.isButton(event.code)
            guard isButton ? stopSources.button : stopSources.key else { return }
            engine.stop(at: time, reason: isButton ? .button : .key)
        }
    }

    /// Ctrl, Shift, Alt and Super (Meta), left and right: keys that turn scrolling into
    /// something else in apps and desktops (zoom, sideways, window actions).
    static let modifierKeys: [UInt16] = [
        29, 97,    // KEY_LEFTCTRL, KEY_RIGHTCTRL
        42, 54,    // KEY_LEFTSHIFT, KEY_RIGHTSHIFT
        56, 100,   // KEY_LEFTALT, KEY_RIGHTALT
        125, 126,  // KEY_LEFTMETA, KEY_RIGHTMETA
    ]

    /// Whether a keyboard, or a touch device or mouse with keys of its own, holds a modifier down
    /// now. Reads what each keyboard sent since it was last read so that libevdev's key state
    /// is current; a press stamped at or after the release stops the coast as `watch` has it
    /// do, the rest is dropped (`dispatch`). A keyboard that fails the read is left for `watch`
    /// to close.
    private func modifierHeld() -> Bool {
        var held = false
        for (id, open) in devices {
            switch open.role {
            case .keyboard, .pointerWithKeys:
                switch open.device.readAvailable({ reading in
                    if case .event(let event, let time) = reading { dispatch(event, from: id, role: open.role, at: time) }
                }) {
                case .drained, .more: break
                case .vanished, .failed: continue
                }
            case .touch:
                // Read all along: its key state is current (the keys of a combo device's own node).
                break
            case .pointer:
                continue
            }
            if Self.modifierKeys.contains(where: open.device.isKeyDown) { held = true }
        }
        return held
    }

    /// Whether an EV_KEY code is a button (`BTN_*`: mouse, joystick, gamepad, digitiser) rather
    /// than a keyboard key.
    static func isButton(_ code: UInt16) -> Bool {
        (0x100..<0x160).contains(code)  // BTN_MISC ... BTN_GEAR_UP
            || (0x220..<0x224).contains(code)  // BTN_DPAD_UP ... BTN_DPAD_RIGHT
            || (0x2c0..<0x2e8).contains(code)  // BTN_TRIGGER_HAPPY1 ... 40
    }

    // MARK: Service status

    /// What the status tells: the touch devices read, the mice and keyboards that stop a coast,
    /// and whether touch devices were refused. Compared each wake-up, so it does not allocate.
    private struct StatusCounts: Equatable {
        var touch: Int
        var others: Int
        var refused: Bool
        /// Paused for another user's session (`seatChanged`): no device is open, on purpose.
        var paused: Bool
        /// The output device that could not be created (`failedOutput`): flicks do not coast.
        var failedOutput: OutputMode?
    }

    private var statusCounts: StatusCounts {
        let touch = devices.values.count { $0.role == .touch }
        return StatusCounts(touch: touch, others: devices.count - touch, refused: !refusedTouchNodes.isEmpty, paused: paused,
                            failedOutput: failedOutput)
    }

    /// What `systemctl status` shows: the devices in use, or that flickd pauses.
    private func serviceStatus() -> String {
        let counts = statusCounts
        if counts.paused { return "paused: another user's session is active on the seat" }
        let touch = counts.touch, others = counts.others
        let reading = touch > 0 ? "reading \(touch) touch device\(touch == 1 ? "" : "s")"
            : counts.refused ? "may not read the touchpad or touchscreen (permission denied)"
            : "waiting for a touchpad or touchscreen"
        // Said first: the devices are read, but no flick coasts (the journal has the error).
        let status = counts.failedOutput.map { "flicks do not coast: \(OutputDevice.name(of: $0)) could not be created; \(reading)" } ?? reading
        switch others {
        case 0: return status
        case 1: return "\(status); 1 mouse or keyboard stops a coast"
        default: return "\(status); \(others) mice and keyboards stop a coast"
        }
    }

    /// Tells the service manager the daemon is ready, with the devices in use: waiting for room
    /// in its queue unless a coast runs, when a READY=1 it cannot take at once is owed until
    /// the coast is over (`readyOwed`). An owed RELOADING=1 goes first (`reloadingOwed`).
    private func reportReady() {
        reportedStatus = statusCounts
        guard let notifier else { return }
        let waiting = mayWaitForServiceManager
        if reloadingOwed {
            // Sent once when waiting: one that fails after its wait is not tried again. Not
            // waiting, a READY=1 never goes before it, even when the queue has room again:
            // the RELOADING=1 that followed would begin a second reload.
            guard notifier.reloading(at: now(), waiting: waiting) || waiting else {
                readyOwed = true
                return
            }
            reloadingOwed = false
        }
        readyOwed = !notifier.ready(status: serviceStatus(), waiting: waiting) && !waiting
    }

    /// Tells the service manager the devices in use, after one was opened or closed.
    /// One the service manager could not take (its queue full) is tried again at the next
    /// wake-up: the counts it told are remembered only once it is sent. Any other failure (no
    /// service manager listens at the address) counts as told: it would fail at every wake-up.
    private func reportStatus() {
        let counts = statusCounts
        if notifier?.status(serviceStatus()) != .queueFull { reportedStatus = counts }
    }

    // MARK: Reports

    /// One report as a log line. The wheel output counts hi-res units (v120); the virtual
    /// touchpad's coast is told in millimetres, which is what its fingers move.
    private static func log(_ report: EngineReport, output: OutputMode, to logger: Logger) {
        switch report {
        case .gestureBegan(let device, let time, let fingers):
            logger.debug("device \(device): \(fingers)-finger gesture began at \(time)")
        case .coastStarted(let device, let time, let plan):
            let extent = switch output {
            case .wheel: "to \(plan.totalHiRes.vertical) v120, \(plan.totalHiRes.horizontal) h120"
            case .touchpad: "\(whole(plan.travelMillimetres)) mm on the virtual touchpad"
            }
            logger.debug("""
                device \(device): coast at \(time): \(millimetresPerSecond(plan.velocity)) mm/s\
                \(plan.boosted ? " (boosted)" : "") for \(plan.duration), \(extent)
                """)
        case .noCoast(let device, let time, let velocity, let reason):
            let speed = velocity.map { " at \(millimetresPerSecond($0)) mm/s" } ?? ""
            logger.debug("device \(device): no coast at \(time)\(speed): \(reason)")
        case .coastEnded(let time, let reason, let emitted):
            switch output {
            case .wheel:
                logger.debug("coast ended at \(time): \(reason.rawValue), \(emitted.vertical) v120, \(emitted.horizontal) h120")
            case .touchpad:
                logger.debug("coast ended at \(time): \(reason.rawValue)")
            }
        case .bug(let device, let message):
            logger.error("device \(device): bug in flickd, gesture reset: \(message)")
        }
    }

    private static func millimetresPerSecond(_ velocity: Vector) -> String {
        "(\(whole(velocity.x)), \(whole(velocity.y)))"
    }

    /// `value` rounded for a log line; never traps (NaN or huge values print as they are).
    private static func whole(_ value: Double) -> String {
        value.isFinite && value.magnitude < 1e15 ? "\(Int(value.rounded()))" : "\(value)"
    }
}
