import FlickCore
import Glibc
import Logging

/// Which inputs from outside a gesture stop a running coast.
public struct StopSources: Hashable, Sendable {
    /// A finger touching a touch device whose flicks are not read (a touchscreen while
    /// `touchscreen.enabled` is false). A touch on a device whose flicks are read always stops
    /// a coast: it may be the next flick.
    public var touch: Bool
    /// A button pressed on a mouse or pointing stick.
    public var button: Bool
    /// A key pressed on a keyboard (Ctrl during a coast would otherwise zoom).
    public var key: Bool

    /// Stop sources; all on by default.
    public init(touch: Bool = true, button: Bool = true, key: Bool = true) {
        self.touch = touch
        self.button = button
        self.key = key
    }

    /// Every source stops a coast.
    public static let all = StopSources()

    /// The stop sources `configuration` turns on (`[stop]`).
    public init(_ configuration: Configuration.Stop) {
        self.init(touch: configuration.touch, button: configuration.button, key: configuration.key)
    }
}

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
/// `nextDeadline` (disarmed while the engine is idle) and a signalfd for SIGTERM, SIGINT and
/// SIGHUP. Mice and keyboards are open but watched only while a coast runs, so typing and
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
    }

    private struct OpenDevice {
        let device: EvdevDevice
        let node: InputNode
        let role: Role
    }

    /// epoll tokens: small constants for the loop's own descriptors; devices carry their id in
    /// the low 32 bits with bit 32 set.
    private enum Token {
        static let signals: UInt64 = 1
        static let timer: UInt64 = 2
        static let hotplug: UInt64 = 3
        static let configurationFile: UInt64 = 4
        static let reloadDelay: UInt64 = 5
        static let deviceFlag: UInt64 = 1 << 32

        static func device(_ id: DeviceID) -> UInt64 { deviceFlag | UInt64(UInt32(bitPattern: id)) }
        static func deviceID(_ token: UInt64) -> DeviceID? {
            token & deviceFlag != 0 ? DeviceID(bitPattern: UInt32(truncatingIfNeeded: token)) : nil
        }
    }

    private let engine: Engine
    /// The device coasts are written to; replaced when a reload changes `output.mode`.
    private var output: OutputDevice
    /// Creates the device for a mode, on a reload that changes `output.mode`; nil: the device
    /// given at start stays (tests).
    private let makeOutput: ((OutputMode) throws -> OutputDevice)?
    private let monitor: DeviceMonitor?
    private var stopSources: StopSources
    private let logger: Logger
    private let reloadConfiguration: () throws -> Configuration
    private let notifier: ServiceNotifier?
    private let configurationWatcher: ConfigWatcher?
    /// Armed when the configuration file changed, for the reload once changes settle.
    private let reloadTimer: DeadlineTimer?
    /// The changes seen since the last reload, for its log line.
    private var pendingChanges: [ConfigWatcher.Change] = []

    /// How long the configuration file must stay unchanged before it is read: an editor's save
    /// (write a temporary file, rename it over, maybe chmod) comes as a burst of events.
    public static let reloadDelay = Duration.milliseconds(150)

    private let poll: EventPoll
    private let timer: DeadlineTimer
    private let signals: SignalReceiver

    private var devices: [DeviceID: OpenDevice] = [:]
    private var idsByNode: [String: DeviceID] = [:]
    private var nextID: DeviceID = 1
    /// Set after the first permission error, which is explained at length; later ones are not.
    private var explainedAccessDenied = false
    /// Set while writes to the output device fail, so a failure is logged once rather than per tick.
    private var outputFailing = false
    /// Whether mice and keyboards are in the epoll set: only while a coast runs.
    private var watchingStopSources = false
    /// How many devices were open when the service manager was last told the status.
    private var reportedDeviceCount: Int?

    /// A daemon feeding `engine` from the devices `monitor` finds (nil: none, for tests) and
    /// writing to `wheel`. `reloadConfiguration` is called on SIGHUP; when it throws, the running
    /// configuration stays. Replaces `engine.onReport` with logging. Blocks SIGTERM, SIGINT and
    /// SIGHUP for the calling thread, which must be the one that calls `run()`. `notifier`, when
    /// given, hears when the daemon is ready, reloading and stopping, and how many devices it has.
    /// `configurationWatcher`, when given, makes a change to the configuration file reload it
    /// as SIGHUP does, once the file has been quiet for `reloadDelay`.
    public convenience init(
        engine: Engine,
        wheel: any WheelSink,
        monitor: DeviceMonitor?,
        stopSources: StopSources = .all,
        logger: Logger,
        notifier: ServiceNotifier? = nil,
        configurationWatcher: ConfigWatcher? = nil,
        reloadConfiguration: @escaping () throws -> Configuration
    ) throws(SystemError) {
        try self.init(engine: engine, output: .wheel(wheel), makeOutput: nil, monitor: monitor,
                      stopSources: stopSources, logger: logger, notifier: notifier,
                      configurationWatcher: configurationWatcher, reloadConfiguration: reloadConfiguration)
    }

    /// A daemon writing coasts to `output` (the engine's `output` is set to its mode);
    /// `makeOutput` creates the device for another mode when a reload changes `output.mode`.
    /// The rest as above.
    public init(
        engine: Engine,
        output: OutputDevice,
        makeOutput: ((OutputMode) throws -> OutputDevice)?,
        monitor: DeviceMonitor?,
        stopSources: StopSources = .all,
        logger: Logger,
        notifier: ServiceNotifier? = nil,
        configurationWatcher: ConfigWatcher? = nil,
        reloadConfiguration: @escaping () throws -> Configuration
    ) throws(SystemError) {
        self.engine = engine
        self.output = output
        self.makeOutput = makeOutput
        self.monitor = monitor
        self.stopSources = stopSources
        self.logger = logger
        self.notifier = notifier
        self.configurationWatcher = configurationWatcher
        self.reloadConfiguration = reloadConfiguration
        signals = try SignalReceiver(signals: [SIGTERM, SIGINT, SIGHUP])
        poll = try EventPoll()
        timer = try DeadlineTimer()
        try poll.add(signals.fileDescriptor, token: Token.signals)
        try poll.add(timer.fileDescriptor, token: Token.timer)
        if let configurationWatcher {
            let reloadTimer = try DeadlineTimer()
            try poll.add(configurationWatcher.fileDescriptor, token: Token.configurationFile)
            try poll.add(reloadTimer.fileDescriptor, token: Token.reloadDelay)
            self.reloadTimer = reloadTimer
        } else {
            reloadTimer = nil
        }
        engine.onReport = { [logger] report in Self.log(report, to: logger) }
        engine.output = output.mode
        engine.onTouchFrame = { [unowned self] frame, _ in self.emit(frame) }
    }

    /// Opens the devices and runs until SIGTERM or SIGINT, then stops any coast, destroys the
    /// virtual wheel and returns. Throws only when the loop itself breaks (epoll, timerfd).
    public func run() throws(SystemError) {
        startHotplug()
        openDevices(at: now())
        if !devices.values.contains(where: { $0.role == .touch }) {
            logger.notice("no touchpad or touchscreen to read yet; waiting for one to be plugged in")
        }
        // The wheel exists and the devices present are open: startup is complete.
        reportedDeviceCount = devices.count
        notifier?.ready(status: serviceStatus())
        // Start-up's allocations (configuration, device scan) are done with.
        Syscall.releaseFreeHeap()
        while true {
            let count = try poll.wait()
            for index in 0..<count {
                let token = poll.token(at: index)
                switch token {
                case Token.signals:
                    if receiveSignals() == .exit {
                        shutDown()
                        return
                    }
                case Token.timer:
                    timerFired()
                case Token.hotplug:
                    receiveHotplug()
                case Token.configurationFile:
                    configurationFileChanged()
                case Token.reloadDelay:
                    reloadDelayPassed()
                default:
                    if let id = Token.deviceID(token) { read(id) }
                }
            }
            // Once per wake-up, not per event: a coast may have started or ended, and the
            // deadline may have moved, appeared or gone.
            followCoast()
            try timer.arm(at: engine.nextDeadline)
            if devices.count != reportedDeviceCount { reportStatus() }
        }
    }

    // MARK: Time

    /// The current time on CLOCK_MONOTONIC (the clock of evdev timestamps and the timerfd).
    private func now() -> Instant { Syscall.monotonicNow() }

    // MARK: Signals

    private enum SignalOutcome { case keepRunning, exit }

    /// Handles every pending signal; SIGHUP reloads even when a SIGTERM came with it.
    private func receiveSignals() -> SignalOutcome {
        var outcome = SignalOutcome.keepRunning
        while true {
            let signal: Int32?
            do { signal = try signals.next() } catch {
                logger.error("cannot read signals: \(error)")
                return outcome
            }
            switch signal {
            case nil:
                return outcome
            case SIGHUP:
                reload(because: "SIGHUP")
            case SIGTERM, SIGINT:
                logger.info("\(signal == SIGINT ? "SIGINT" : "SIGTERM"): shutting down")
                outcome = .exit
            default:
                continue
            }
        }
    }

    /// Reads the configuration again and applies it, or keeps the running one when it cannot
    /// be read; `trigger` starts the log lines. A file change that leaves the settings as they
    /// are applies nothing (applying stops a coast).
    private func reload(because trigger: String, unlessUnchanged: Bool = false) {
        let time = now()
        notifier?.reloading(at: time)
        // Ready again whether the new file was taken or not: the daemon runs either way.
        defer {
            reportedDeviceCount = devices.count
            notifier?.ready(status: serviceStatus())
            Syscall.releaseFreeHeap()
        }
        let configuration: Configuration
        do {
            configuration = try reloadConfiguration()
        } catch {
            logger.error("\(trigger): keeping the running configuration: \(error)")
            return
        }
        if unlessUnchanged && configuration == engine.configuration {
            logger.info("\(trigger): the settings are unchanged")
            return
        }
        engine.apply(configuration, at: time)
        stopSources = StopSources(configuration.stop)
        logger.info("\(trigger): configuration reloaded")
        if configuration.output.mode != output.mode { replaceOutput(with: configuration.output.mode) }
        // Mice and keyboards are open only while their kind stops coasts.
        for (id, open) in devices.sorted(by: { $0.key < $1.key }) {
            switch open.role {
            case .pointer where !stopSources.button, .keyboard where !stopSources.key:
                close(id, at: time, why: "closed (it no longer stops coasts)")
            default:
                break
            }
        }
        // The engine has admitted its devices again under the new configuration: a disabled
        // kind is no longer read, an enabled one is.
        for (id, open) in devices.sorted(by: { $0.key < $1.key }) where open.role == .touch {
            if let admission = engine.admission(of: id), keeps(admission, node: open.node) { continue }
            close(id, at: time, why: "closed")
        }
        // Devices closed before may be wanted now.
        openDevices(at: time)
    }

    /// Notes the configuration file's changes and (re)starts the wait for them to settle.
    private func configurationFileChanged() {
        guard let configurationWatcher, let reloadTimer else { return }
        do {
            let changes = try configurationWatcher.receive()
            guard !changes.isEmpty else { return }
            for change in changes where !pendingChanges.contains(change) { pendingChanges.append(change) }
            try reloadTimer.arm(at: now() + Self.reloadDelay)
        } catch {
            // Out of the epoll set: a descriptor that stays readable would spin the loop.
            _ = try? poll.remove(configurationWatcher.fileDescriptor)
            logger.error("configuration changes are no longer followed: \(error); SIGHUP still reloads")
        }
    }

    private func reloadDelayPassed() {
        guard let reloadTimer else { return }
        do {
            guard try reloadTimer.acknowledge() else { return }
        } catch {
            logger.error("cannot read the reload timer: \(error)")
            return
        }
        let trigger = pendingChanges.map(\.description).joined(separator: ", ")
        pendingChanges = []
        reload(because: trigger.isEmpty ? "configuration file changed" : trigger, unlessUnchanged: true)
    }

    /// Creates the device for `mode` and destroys the old one; keeps the old one when the new
    /// one cannot be created.
    private func replaceOutput(with mode: OutputMode) {
        guard let makeOutput else {
            logger.error("output.mode = \"\(mode.rawValue)\" takes effect when flickd restarts")
            return
        }
        let replacement: OutputDevice
        do { replacement = try makeOutput(mode) } catch {
            logger.error("keeping the \(output.mode.rawValue) output: \(error)")
            return
        }
        // Fingers still down on the old touchpad end with it: the kernel lifts them.
        output.close()
        output = replacement
        engine.output = mode
        outputFailing = false
        logger.info("output: \(Self.describe(mode))")
    }

    /// The output device of `mode`, for the log.
    public static func describe(_ mode: OutputMode) -> String {
        switch mode {
        case .touchpad: return "\(VirtualTouchpad.name) (two fingers carry each coast)"
        case .wheel: return "\(VirtualWheel.name) (hi-res wheel events)"
        }
    }

    /// The longest shutdown waits for resting virtual fingers to lift.
    static let shutdownLiftLimit = Duration.milliseconds(400)

    private func shutDown() {
        notifier?.stopping()
        let stopped = now()
        engine.stop(at: stopped, reason: .shutdown)
        // Frozen fingers lift only after resting, even now: destroying the device at once would
        // lift them while the toolkit may still think they move (GTK would glide on its own).
        while engine.hasFingersDown, let deadline = engine.nextDeadline, deadline - stopped <= Self.shutdownLiftLimit {
            let wait = deadline - now()
            if wait > .zero { usleep(UInt32(clamping: wait.microseconds)) }
            _ = engine.tick(at: now())
        }
        output.close()
        for open in devices.values { _ = try? poll.remove(open.device.fileDescriptor) }
        devices.removeAll()
        idsByNode.removeAll()
    }

    // MARK: Timer

    private func timerFired() {
        do {
            guard try timer.acknowledge() else { return }
        } catch {
            logger.error("cannot read the timer: \(error)")
            return
        }
        let time = now()
        // The deadline may have moved later since the timer was armed (events in the same
        // wake-up); then the re-arm at the end of the wake-up takes care of it.
        guard let deadline = engine.nextDeadline, time >= deadline else { return }
        emit(engine.tick(at: time))
    }

    private func emit(_ wheelOutput: WheelOutput) {
        guard !wheelOutput.isEmpty, case .wheel(let wheel) = output else { return }
        do {
            try wheel.write(wheelOutput)
            outputFailing = false
        } catch {
            if !outputFailing { logger.error("cannot write to the virtual wheel: \(error)") }
            outputFailing = true
        }
    }

    private func emit(_ frame: TouchFrame) {
        guard case .touchpad(let touchpad) = output else { return }
        do {
            try touchpad.write(frame)
            outputFailing = false
            // Read after the write: when the kernel stamped the frame, as libinput will see it.
            engine.touchFrameWritten(at: now())
        } catch {
            if !outputFailing { logger.error("cannot write to the virtual touchpad: \(error)") }
            outputFailing = true
        }
    }

    // MARK: Devices

    /// Watches mice and keyboards while a coast runs, and stops watching when it ends.
    private func followCoast() {
        let coasting = engine.isCoasting
        guard coasting != watchingStopSources else { return }
        watchingStopSources = coasting
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

    /// Starts watching a mouse or keyboard. What it sent while unwatched came before the coast
    /// and is dropped unread.
    private func watch(_ id: DeviceID, _ open: OpenDevice) {
        switch open.device.readAvailable({ _ in }) {
        case .drained: break
        case .vanished: return close(id, at: now(), why: "removed")
        case .failed(let error): return close(id, at: now(), why: "closed after a read error: \(error)")
        }
        do { try poll.add(open.device.fileDescriptor, token: Token.device(id)) } catch {
            close(id, at: now(), why: "closed: cannot watch it (\(error))")
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
                open(node, at: now())
            case .removed(let devnode):
                if let id = idsByNode[devnode] { close(id, at: now(), why: "removed") }
            case .missedEvents:
                // A device removed unreported ends on its own: its descriptor reports ENODEV.
                logger.warning("hot-plug events were lost (flickd's queue of udev events overflowed): looking at every device again")
                openDevices(at: now())
            }
        }
    }

    /// Opens every device the monitor lists that is not open yet.
    private func openDevices(at time: Instant) {
        guard let monitor else { return }
        for node in monitor.inputNodes() { open(node, at: time) }
    }

    /// Whether `node` is one of flickd's own virtual devices (or, by name, another flickd's):
    /// reading them would feed the coast back into the engine and stop it by its own touch.
    private func isOwnDevice(_ node: InputNode) -> Bool {
        if Self.isVirtualDeviceName(node.name) { return true }
        guard let syspath = output.syspath else { return false }
        return node.syspath.hasPrefix(syspath + "/")
    }

    /// Whether `name` is the name of one of flickd's virtual devices.
    public static func isVirtualDeviceName(_ name: String) -> Bool {
        name == VirtualWheel.name || name == VirtualTouchpad.name
    }

    private func open(_ node: InputNode, at time: Instant) {
        guard idsByNode[node.devnode] == nil, !isOwnDevice(node) else { return }
        let role: Role
        switch node.kind {
        case .touchpad, .touchscreen: role = .touch
        case .mouse where stopSources.button: role = .pointer
        case .keyboard where stopSources.key: role = .keyboard
        case .mouse, .keyboard, .other: return
        }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: node.devnode)
        } catch {
            if error.isPermissionDenied && !explainedAccessDenied {
                explainedAccessDenied = true
                logger.warning("\(InputAccessError(error))")
            } else {
                logger.warning("cannot open \(node.devnode) (\(node.name)): \(error.reason)")
            }
            return
        }
        let id = nextID
        nextID += 1
        switch role {
        case .touch:
            guard keeps(engine.addDevice(id, description: device.describe()), node: node) else {
                engine.removeDevice(id, at: time)
                return
            }
        case .pointer:
            logger.info("\(node.devnode) (\(node.name)): mouse, a button press stops a coast")
        case .keyboard:
            logger.info("\(node.devnode) (\(node.name)): keyboard, a key press stops a coast")
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
        devices[id] = OpenDevice(device: device, node: node, role: role)
        idsByNode[node.devnode] = id
    }

    /// Whether a touch device with `admission` is kept open (and in the engine); logs the
    /// decision.
    private func keeps(_ admission: DeviceAdmission, node: InputNode) -> Bool {
        let label = "\(node.devnode) (\(node.name))"
        switch admission {
        case .used(let kind, let geometry):
            let estimated = geometry.x.isEstimated || geometry.y.isEstimated ? ", size estimated" : ""
            logger.info("""
                \(label): \(kind.rawValue), \(Self.whole(geometry.x.lengthMillimetres)) × \
                \(Self.whole(geometry.y.lengthMillimetres)) mm\(estimated); flicks coast
                """)
            return true
        case .stopOnly(let kind, let why) where stopSources.touch:
            logger.info("\(label): \(kind.rawValue), a touch stops a coast (\(why))")
            return true
        case .stopOnly(let kind, let why):
            logger.info("\(label): \(kind.rawValue), not used (\(why))")
            return false
        case .ignored(let why):
            logger.info("\(label): not used (\(why))")
            return false
        }
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
        logger.info("\(open.node.devnode) (\(open.node.name)): \(why)")
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
        case .vanished: close(id, at: now(), why: "removed")
        case .failed(let error): close(id, at: now(), why: "closed after a read error: \(error)")
        }
    }

    /// One event from a device. Key codes are looked at only to tell a button from a key;
    /// they are never stored or logged.
    private func dispatch(_ event: InputEvent, from id: DeviceID, role: Role, at time: Instant) {
        switch role {
        case .touch:
            emit(engine.handle(event, from: id, at: time))
        case .pointer, .keyboard:
            guard event.type == EventCode.key, event.value == 1, engine.isCoasting else { return }
            let isButton = Self.isButton(event.code)
            guard isButton ? stopSources.button : stopSources.key else { return }
            engine.stop(at: time, reason: isButton ? .button : .key)
        }
    }

    /// Whether an EV_KEY code is a button (`BTN_*`: mouse, joystick, gamepad, digitiser) rather
    /// than a keyboard key.
    static func isButton(_ code: UInt16) -> Bool {
        (0x100..<0x160).contains(code)  // BTN_MISC ... BTN_GEAR_UP
            || (0x220..<0x224).contains(code)  // BTN_DPAD_UP ... BTN_DPAD_RIGHT
            || (0x2c0..<0x2e8).contains(code)  // BTN_TRIGGER_HAPPY1 ... 40
    }

    // MARK: Service status

    /// What `systemctl status` shows: the devices in use.
    private func serviceStatus() -> String {
        let touch = devices.values.count { $0.role == .touch }
        let others = devices.count - touch
        let reading = touch == 0
            ? "waiting for a touchpad or touchscreen"
            : "reading \(touch) touch device\(touch == 1 ? "" : "s")"
        switch others {
        case 0: return reading
        case 1: return "\(reading); 1 mouse or keyboard stops a coast"
        default: return "\(reading); \(others) mice and keyboards stop a coast"
        }
    }

    /// Tells the service manager the devices in use, after one was opened or closed.
    private func reportStatus() {
        reportedDeviceCount = devices.count
        notifier?.status(serviceStatus())
    }

    // MARK: Reports

    private static func log(_ report: EngineReport, to logger: Logger) {
        switch report {
        case .gestureBegan(let device, let time, let fingers):
            logger.debug("device \(device): \(fingers)-finger gesture began at \(time)")
        case .coastStarted(let device, let time, let plan):
            logger.debug("""
                device \(device): coast at \(time): \(millimetresPerSecond(plan.velocity)) mm/s\
                \(plan.boosted ? " (boosted)" : "") for \(plan.duration), to \
                \(plan.totalHiRes.vertical) v120, \(plan.totalHiRes.horizontal) h120
                """)
        case .noCoast(let device, let time, let velocity, let reason):
            let speed = velocity.map { " at \(millimetresPerSecond($0)) mm/s" } ?? ""
            logger.debug("device \(device): no coast at \(time)\(speed): \(reason)")
        case .coastEnded(let time, let reason, let emitted):
            logger.debug("coast ended at \(time): \(reason.rawValue), \(emitted.vertical) v120, \(emitted.horizontal) h120")
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
