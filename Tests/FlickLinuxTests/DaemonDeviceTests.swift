import FlickCore
import FlickTestSupport
import Glibc
import Testing
@testable import FlickLinux

/// Devices for the daemon on a host without /dev/input: the nodes present at start, and
/// hot-plug steps played one per wake-up of the loop (a step sees the daemon between two
/// batches of changes). Each step's changes are reported in order; a step ends the run by
/// raising SIGTERM. The devices opened are never readable unless a test makes them so.
final class ScriptedDevices: DeviceSource {
    /// A device the daemon opened: its description, and whether its next read finds it gone.
    final class Device: InputDevice {
        let description: DeviceDescription
        /// What `ScriptedDevices.quirks` filled in, as `EvdevDevice` reports it.
        var sizeHint: LibinputQuirks.Hint?
        /// The quirk by which libinput scrolls the device naturally by default, from
        /// `ScriptedDevices.quirks`.
        var naturalScrollingByDefault: String?
        /// Readable once `unplug()` or `feed(_:then:)` is called.
        private let readable = Doorbell()
        var fileDescriptor: Int32 { readable.fileDescriptor }
        private var gone = false
        /// Readings the next read hands over, and what runs after it.
        private var queued: [EvdevDevice.Reading] = []
        private var afterRead: (() -> Void)?
        /// How many reads handed readings over.
        private(set) var reads = 0
        /// Keys (EV_KEY codes) down, as libevdev's state would hold them: set by the test, and
        /// updated by the key events a read hands over.
        var keysDown: Set<UInt16> = []

        init(description: DeviceDescription) {
            self.description = description
        }

        func describe() -> DeviceDescription { description }

        /// What the kernel says now: `ScriptedDevices.descriptions` as the test last set it.
        var currentDescription: (() -> DeviceDescription)?
        func describeAgain() -> DeviceDescription? { currentDescription?() ?? description }

        func isKeyDown(_ code: UInt16) -> Bool { keysDown.contains(code) }

        /// The kernel's current MT slot when the daemon opens the device (set by the test).
        var currentSlot = 0
        /// What each MT slot holds when the daemon opens the device (set by the test).
        var slots: [SlotAtOpen] = []
        /// How libinput reads the pad's pressure, its quirks applied (`EvdevDevice.touchPressure`):
        /// `ScriptedDevices.touchPressures`; nil (every contact counts) when the test names none.
        var touchPressure: TouchPressure?

        /// The next read reports the device gone (ENODEV), as the kernel does for a device
        /// unplugged before udev's removal is read.
        func unplug() {
            gone = true
            readable.ring()
        }

        /// The next read hands `readings` over, then runs `then` (which may raise a signal to
        /// end the run once the daemon has handled them).
        func feed(_ readings: [EvdevDevice.Reading], then: (() -> Void)? = nil) {
            queued += readings
            afterRead = then
            readable.ring()
        }

        /// The most readings a read hands over, as `EvdevDevice.maximumEventsPerRead` caps one;
        /// the rest stay queued (as in libevdev's own queue: the descriptor is not readable for
        /// them) and the read says `.more`.
        var readLimit: Int?

        func readAvailable(_ handle: (EvdevDevice.Reading) -> Void) -> EvdevDevice.DrainEnd {
            if gone { return .vanished }
            readable.answer()
            if !queued.isEmpty {
                let readings = Array(queued.prefix(readLimit ?? queued.count))
                queued.removeFirst(readings.count)
                reads += 1
                for reading in readings {
                    if case .event(let event, _) = reading, event.type == EventCode.key {
                        if event.value == 0 { keysDown.remove(event.code) } else { keysDown.insert(event.code) }
                    }
                    handle(reading)
                }
                if !queued.isEmpty { return .more }
                let then = afterRead
                afterRead = nil
                then?()
            }
            return .drained
        }
    }

    /// The nodes that exist at start (`node(_:_:name:fixture:)` makes them).
    var present: [InputNode] = []
    /// What each node's device describes itself as when opened; a step may change it.
    var descriptions: [String: DeviceDescription] = [:]
    private var steps: [() -> [DeviceMonitor.Change]] = []
    private let hotplug = Doorbell()
    /// Nodes whose open fails as the kernel refuses a user outside the input group (EACCES).
    var refused: Set<String> = []
    /// Nodes gone before they are opened (ENOENT: a stale add).
    var gone: Set<String> = []
    /// libinput's quirks, applied to touch devices as `DeviceMonitor.open` applies them.
    var quirks: LibinputQuirks?
    /// Every node the daemon opened, in order, and the devices it holds.
    private(set) var opened: [String] = []
    private(set) var devices: [String: Device] = [:]
    /// The kernel's current MT slot of a node when the daemon opens it (0 when not named).
    var currentSlots: [String: Int] = [:]
    /// What each MT slot of a node holds when the daemon opens it (none when not named).
    var slotsAtOpen: [String: [SlotAtOpen]] = [:]
    /// How libinput reads a node's pressure when the daemon opens it (`InputDevice.touchPressure`;
    /// none when not named, as a device opened without quirks).
    var touchPressures: [String: TouchPressure] = [:]

    /// A node of `kind` named `name` at `/dev/input/event<number>`, described by the repository's
    /// device fixture `fixture` when it is a touch device. `udev`: more udev properties beside
    /// the kind's `ID_INPUT_*` and `ID_INPUT=1` (`ID_SEAT`, `LIBINPUT_IGNORE_DEVICE`,
    /// `ID_INPUT_KEYBOARD`, another `ID_INPUT`), judged as `DeviceMonitor` judges them.
    func node(_ number: Int, _ kind: InputNode.Kind, name: String, fixture: String? = nil,
              udev: [String: String] = [:]) throws -> InputNode {
        let devnode = "/dev/input/event\(number)"
        descriptions[devnode] = try fixture.map(Fixtures.device) ?? DeviceDescription(name: name)
        let syspath = "/sys/devices/virtual/input/input\(number)/event\(number)"
        guard !udev.isEmpty else { return InputNode(devnode: devnode, syspath: syspath, name: name, kind: kind) }
        var properties = udev.merging(["ID_INPUT": "1"]) { own, _ in own }
        switch kind {
        case .touchpad: properties["ID_INPUT_TOUCHPAD"] = "1"
        case .touchscreen: properties["ID_INPUT_TOUCHSCREEN"] = "1"
        case .mouse: properties["ID_INPUT_MOUSE"] = "1"
        case .keyboard: properties["ID_INPUT_KEYBOARD"] = "1"
        case .other: break
        }
        return InputNode(devnode: devnode, syspath: syspath, name: name) { properties[$0] }
    }

    /// The steps to play, one per wake-up.
    func play(_ steps: [() -> [DeviceMonitor.Change]]) { self.steps = steps }

    func inputNodes() -> [InputNode] { present }

    func startMonitoring() throws(SystemError) -> Int32 {
        if !steps.isEmpty { hotplug.ring() }
        return hotplug.fileDescriptor
    }

    func receiveChanges(_ report: (DeviceMonitor.Change) -> Void) {
        hotplug.answer()
        guard !steps.isEmpty else { return }
        for change in steps.removeFirst()() { report(change) }
        if !steps.isEmpty { hotplug.ring() }
    }

    func open(_ node: InputNode) throws(SystemError) -> any InputDevice {
        if refused.contains(node.devnode) { throw SystemError(errno: EACCES, call: "open", path: node.devnode) }
        if gone.contains(node.devnode) { throw SystemError(errno: ENOENT, call: "open", path: node.devnode) }
        opened.append(node.devnode)
        var description = descriptions[node.devnode] ?? DeviceDescription(name: node.name)
        var hint: LibinputQuirks.Hint?
        if let quirks, let kind = node.kind.touchKind { (description, hint) = quirks.applied(to: description, kind: kind) }
        let device = Device(description: description)
        device.sizeHint = hint
        if let quirks, let kind = node.kind.touchKind {
            device.naturalScrollingByDefault = kind == .touchpad ? quirks.naturalScrollingByDefault(for: LibinputQuirks.Device(description, kind: kind)) : nil
        }
        device.currentSlot = currentSlots[node.devnode] ?? 0
        device.slots = slotsAtOpen[node.devnode] ?? []
        device.touchPressure = touchPressures[node.devnode]
        device.currentDescription = { [unowned self] in
            var now = self.descriptions[node.devnode] ?? DeviceDescription(name: node.name)
            if let quirks = self.quirks, let kind = node.kind.touchKind { now = quirks.applied(to: now, kind: kind).0 }
            return now
        }
        devices[node.devnode] = device
        return device
    }
}

/// A descriptor the loop sees readable between `ring()` and `answer()` (a non-blocking socket
/// pair).
final class Doorbell {
    private let ends: (read: Int32, write: Int32)
    var fileDescriptor: Int32 { ends.read }

    init() {
        var fds: [Int32] = [-1, -1]
        let type = SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue
        precondition(socketpair(AF_UNIX, Int32(type), 0, &fds) == 0)
        ends = (fds[0], fds[1])
    }

    deinit {
        close(ends.read)
        close(ends.write)
    }

    func ring() { _ = write(ends.write, "x", 1) }

    func answer() {
        var byte: UInt8 = 0
        while read(ends.read, &byte, 1) == 1 {}
    }
}

/// The daemon's devices: which it opens, and when it creates its output device. Runs the real
/// loop (epoll, signalfd) with scripted devices; no input event is read, so no coast runs.
@Suite("Daemon devices", .serialized)
struct DaemonDeviceTests {
    /// A daemon with no output yet, whose `makeOutput` records each mode it was asked for and
    /// hands out recording devices (or throws `failure` while it is set).
    final class Outputs {
        var made: [OutputMode] = []
        var touchpads: [RecordingTouchpad] = []
        var wheels: [RecordingWheel] = []
        var failure: (any Error)?
        /// The sysfs path and event node the touchpads made say they have.
        var syspath: String?
        var devnode: String?

        func make(_ mode: OutputMode) throws -> OutputDevice {
            made.append(mode)
            if let failure { throw failure }
            switch mode {
            case .touchpad:
                touchpads.append(RecordingTouchpad(syspath: syspath, devnode: devnode))
                return .touchpad(touchpads[touchpads.count - 1])
            case .wheel:
                wheels.append(RecordingWheel())
                return .wheel(wheels[wheels.count - 1])
            }
        }
    }

    struct NoUinput: Error, CustomStringConvertible {
        var description: String { "cannot create flickd virtual touchpad: /dev/uinput is gone" }
    }

    static func daemon(_ source: ScriptedDevices, _ outputs: Outputs, log: CollectedLog,
                       configuration: Configuration = Configuration(), seat: SeatWatch? = nil,
                       notifier: ServiceNotifier? = nil, stallLimit: Duration = Engine.stallLimit,
                       reload: @escaping () -> Configuration = { Configuration() }) throws -> Daemon {
        try Daemon(engine: Engine(configuration: configuration, stallLimit: stallLimit), output: nil, makeOutput: outputs.make,
                   monitor: source, logger: log.logger, notifier: notifier, seat: seat, reloadConfiguration: reload)
    }

    /// Runs a daemon on `source` through `steps` (one per wake-up), then stops it with SIGTERM;
    /// returns its log.
    static func run(_ source: ScriptedDevices, steps: [() -> [DeviceMonitor.Change]], outputs: Outputs = Outputs(),
                    notifier: ServiceNotifier? = nil) throws -> CollectedLog {
        source.play(steps + [{
            raise(SIGTERM)
            return []
        }])
        let log = CollectedLog()
        try daemon(source, outputs, log: log, notifier: notifier).run()
        return log
    }

    /// Runs a daemon through two reloads, to `first` and then to `second`, and returns how many
    /// ran. Each reload raises the next signal, which the loop reads in the same drain once the
    /// reload is applied; `beforeSecond` runs as the second begins.
    static func runTwoReloads(_ source: ScriptedDevices, _ outputs: Outputs, log: CollectedLog,
                              to first: Configuration, then second: Configuration,
                              beforeSecond: @escaping () -> Void) throws -> Int {
        var reloads = 0
        let daemon = try daemon(source, outputs, log: log) {
            reloads += 1
            if reloads == 1 {
                raise(SIGHUP)
                return first
            }
            beforeSecond()
            raise(SIGTERM)
            return second
        }
        raise(SIGHUP)
        try daemon.run()
        return reloads
    }

    @Test("a touchpad present at start creates the output with it, once; the keyboard and mouse beside it are opened and create nothing")
    func touchpadAtStart() throws {
        let source = ScriptedDevices()
        source.present = [
            try source.node(2, .keyboard, name: "AT Translated Set 2 keyboard"),
            try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440"),
            try source.node(6, .mouse, name: "TPPS/2 IBM TrackPoint"),
        ]
        let outputs = Outputs()
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        raise(SIGTERM)
        try daemon.run()
        #expect(source.opened == ["/dev/input/event2", "/dev/input/event5", "/dev/input/event6"])
        #expect(outputs.made == [.touchpad], "one device, of the configured mode")
        #expect(outputs.touchpads.first?.closed == true, "destroyed at shutdown")
        #expect(log.lines.contains { $0.contains("/dev/input/event5 (SynPS/2 Synaptics TouchPad): touchpad") && $0.hasSuffix("flicks coast") },
                "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("waiting for one to be plugged in") }, "\(log.lines)")
    }

    /// A device's name is any bytes its driver or a uinput user gave it: the log prints it with
    /// its control characters escaped, one line per message, nothing for a terminal to act on.
    @Test("a device name with control characters is logged escaped")
    func controlCharactersInANameAreEscaped() throws {
        let source = ScriptedDevices()
        source.present = [
            try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440"),
            try source.node(6, .mouse, name: "mouse\u{1B}[2J\ninfo: forged line"),
        ]
        let log = CollectedLog()
        let daemon = try Self.daemon(source, Outputs(), log: log)
        raise(SIGTERM)
        try daemon.run()
        #expect(log.lines.contains(#"info: /dev/input/event6 (mouse\u001B[2J\u000Ainfo: forged line): mouse, a button press stops a coast"#),
                "\(log.lines)")
        #expect(!log.lines.contains { $0.unicodeScalars.contains(where: QuotedText.isControl) }, "\(log.lines)")
    }

    @Test("a pad without a resolution is measured with libinput's quirk, which the log names, unless a [[device]] resolution wins")
    func libinputsQuirkInTheLog() throws {
        let quirks = LibinputQuirks(files: [("/usr/share/libinput/30-vendor-elantech.quirks", """
            [Elantech Touchpads]
            MatchName=*Elantech Touchpad*
            AttrResolutionHint=31x31
            """)])
        var ruled = Configuration()
        ruled.devices = [DeviceRule(name: "Elantech", resolution: 10, configuration: Configuration())]
        let none = LibinputQuirks(files: [])
        for (configuration, quirks, expected) in [
            (Configuration(), quirks, "touchpad, 41 × 23 mm, no resolution from the kernel: libinput's 30-vendor-elantech.quirks [Elantech Touchpads] AttrResolutionHint=31x31; flicks coast"),
            (ruled, quirks, "touchpad, 128 × 70 mm; flicks coast"),
            (Configuration(), none, "touchpad, 71 × 50 mm, size estimated (no resolution from the kernel and no libinput quirk: libinput's 69 × 50 mm guess; a [[device]] resolution sets it); flicks coast"),
        ] {
            let source = ScriptedDevices()
            source.quirks = quirks
            source.present = [try source.node(4, .touchpad, name: "ETPS/2 Elantech Touchpad", fixture: "elantech-touchpad")]
            let log = CollectedLog()
            let daemon = try Self.daemon(source, Outputs(), log: log, configuration: configuration)
            raise(SIGTERM)
            try daemon.run()
            #expect(log.lines.contains { $0.hasSuffix("/dev/input/event4 (ETPS/2 Elantech Touchpad): " + expected) }, "\(log.lines)")
        }
    }

    /// KWin leaves a pad with no group in kcminputrc (and no `[Libinput][Defaults]` setting) at
    /// libinput's default, which is natural for Apple's pads: their glide must go that way, and
    /// the virtual pad (libinput's default, off) moves against them. flickd took "off" for every
    /// such pad before, and the glide ran against the finger on a MacBook.
    @Test func anAppleTouchpadKDELeavesAtLibinputsDefaultScrollsNaturally() throws {
        let apple = """
            [Apple Touchpads USB]
            MatchVendor=0x05AC
            MatchBus=usb
            MatchUdevType=touchpad
            ModelAppleTouchpad=1
            """
        for (vendor, natural) in [(UInt16(0x05ac), true), (0x06cb, false)] {
            let source = ScriptedDevices()
            source.quirks = LibinputQuirks(files: [("/usr/share/libinput/50-system-apple.quirks", apple)])
            let pad = try source.node(4, .touchpad, name: "bcm5974", fixture: "generic-usb-touchpad")
            source.descriptions[pad.devnode]?.vendor = vendor
            source.descriptions[pad.devnode]?.bustype = 0x03
            source.present = [pad]
            let (line, _) = try Self.padLine(source, kcminputrc: "[Libinput][1][2][Another Mouse]\nNaturalScroll=true\n")
            #expect(line.hasPrefix("debug: /dev/input/event4 (bcm5974): natural scrolling \(natural) ("), "\(line)")
            #expect(line.hasSuffix("; the virtual touchpad's is false, so its fingers move against yours") == natural, "\(line)")
        }
    }

    /// Runs a daemon with the touchpad output on `source` (its pad at event4, "bcm5974") whose
    /// desktop answers with the per-device settings of `kcminputrc` (KDE's file), until it logs
    /// the pad's natural-scrolling line; returns that line and the engine.
    static func padLine(_ source: ScriptedDevices, kcminputrc text: String) throws -> (line: String, engine: Engine) {
        let kcminputrc = PerDeviceNaturalScrolling(kcminputrc: text, file: "kcminputrc")
        let query = try DesktopQuery(probe: { _ in .found(DesktopSettings.Answer(false, "KDE test", perDevice: kcminputrc)) },
                                     watchChanges: { _ in nil }, openServerWatch: { nil })
        var configuration = Configuration()
        configuration.output.mode = .touchpad
        let log = CollectedLog()
        log.onLine = { line in if line.hasPrefix("debug: /dev/input/event4 (bcm5974): natural scrolling") { raise(SIGTERM) } }
        let engine = Engine(configuration: configuration)
        let daemon = try Daemon(engine: engine, output: nil, makeOutput: Outputs().make,
                                monitor: source, logger: log.logger, desktop: query) { configuration }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        log.onLine = nil
        let line = try #require(log.lines.last { $0.hasPrefix("debug: /dev/input/event4 (bcm5974): natural scrolling") })
        return (line, engine)
    }

    @Test("with only a touchscreen that stops coasts, nothing is created; the first touchpad plugged in creates the output, later pads and removals keep it")
    func firstCoastingDevicePluggedIn() throws {
        let source = ScriptedDevices()
        let touchscreen = try source.node(3, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        let first = try source.node(7, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let second = try source.node(8, .touchpad, name: "Apple Magic Trackpad", fixture: "generic-usb-touchpad")
        source.present = [touchscreen]
        let outputs = Outputs()
        var madeBeforePlugIn: [OutputMode]?
        var madeAfterFirst: [OutputMode]?
        source.play([
            {
                madeBeforePlugIn = outputs.made
                return [.added(first)]
            },
            {
                madeAfterFirst = outputs.made
                return [.added(second), .removed(devnode: first.devnode)]
            },
            {
                raise(SIGTERM)
                return [.removed(devnode: second.devnode)]
            },
        ])
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        try daemon.run()
        #expect(madeBeforePlugIn == [], "a touchscreen whose flicks do not coast (touchscreen.enabled = false) creates nothing")
        #expect(madeAfterFirst == [.touchpad])
        #expect(outputs.made == [.touchpad], "the second pad and the removals created nothing more")
        #expect(outputs.touchpads.count == 1 && outputs.touchpads[0].closed, "kept until shutdown, then destroyed")
        #expect(source.opened == [touchscreen.devnode, first.devnode, second.devnode])
        #expect(log.lines.contains { $0.contains("ELAN Touchscreen): touchscreen, a touch stops a coast") }, "\(log.lines)")
        #expect(log.lines.contains("info: \(first.devnode) (SynPS/2 Synaptics TouchPad): removed"), "\(log.lines)")
    }

    @Test("with no touch device the notice says the output comes with the first one; a device that vanishes on read is closed")
    func noTouchDeviceThenVanishing() throws {
        let source = ScriptedDevices()
        let keyboard = try source.node(1, .keyboard, name: "AT Translated Set 2 keyboard")
        let pad = try source.node(4, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [keyboard]
        let outputs = Outputs()
        source.play([
            { [.added(pad)] },
            {
                // Unplugged with no udev removal read yet: the read reports ENODEV.
                source.devices[pad.devnode]?.unplug()
                return []
            },
            {
                raise(SIGTERM)
                return []
            },
        ])
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        try daemon.run()
        #expect(log.lines.contains("notice: no touchpad or touchscreen to read yet; waiting for one to be plugged in (flickd virtual touchpad is created then)"),
                "\(log.lines)")
        #expect(outputs.made == [.touchpad])
        #expect(log.lines.contains("info: \(pad.devnode) (SynPS/2 Synaptics TouchPad): removed"), "\(log.lines)")
    }

    @Test("after lost hot-plug events, a device at the node of one still open replaces it: an idle mouse's, or a pad's whose ENODEV is not read yet")
    func anotherDeviceAtAnOpenNode() throws {
        let source = ScriptedDevices()
        let mouse = try source.node(7, .mouse, name: "USB Mouse")
        let oldPad = try source.node(5, .touchpad, name: "Old Pad", fixture: "synaptics-t440")
        // The kernel numbers input devices on: a new one at a reused node has another syspath.
        // (The fixtures describe what opens at each node from here on; a mouse's is not read.)
        var pad = try source.node(7, .touchpad, name: "New Pad", fixture: "generic-usb-touchpad")
        pad.syspath = "/sys/devices/virtual/input/input21/event7"
        var newPad = try source.node(5, .touchpad, name: "Newer Pad", fixture: "synaptics-rmi4")
        newPad.syspath = "/sys/devices/virtual/input/input22/event5"
        source.present = [mouse, oldPad]
        let outputs = Outputs()
        source.play([
            {
                // Both removals and both additions lost: only the overflow is told.
                source.present = [pad, newPad]
                return [.missedEvents]
            },
            {
                // The same devices told again, and the same node with its own syspath: nothing.
                [.added(pad), .added(newPad)]
            },
            {
                raise(SIGTERM)
                return []
            },
        ])
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        try daemon.run()
        #expect(source.opened == [mouse.devnode, oldPad.devnode, pad.devnode, newPad.devnode], "\(log.lines)")
        #expect(log.lines.contains("info: \(mouse.devnode) (USB Mouse): removed (its node now belongs to New Pad)"), "\(log.lines)")
        #expect(log.lines.contains("info: \(oldPad.devnode) (Old Pad): removed (its node now belongs to Newer Pad)"), "\(log.lines)")
    }

    /// A keyboard unplugged while udev's events were lost, no coast running (mice and keyboards
    /// are watched only during one): the rescan reads it once and closes it; the mouse still
    /// there stays open.
    @Test func anIdleKeyboardUnpluggedWhileEventsWereLostIsClosed() throws {
        let source = ScriptedDevices()
        let keyboard = try source.node(3, .keyboard, name: "USB Keyboard")
        let mouse = try source.node(4, .mouse, name: "USB Mouse")
        source.present = [keyboard, mouse]
        let log = try Self.run(source, steps: [
            {
                source.devices[keyboard.devnode]?.unplug()
                source.present = [mouse]
                return [.missedEvents]
            },
        ])
        #expect(log.lines.contains("info: \(keyboard.devnode) (USB Keyboard): removed"), "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("\(mouse.devnode) (USB Mouse): removed") }, "\(log.lines)")
    }

    /// Back: this user's session active again, or logind's record with no active session (no
    /// other user's either), each said as it is.
    @Test("while another user's session is active on the seat no device is open, nor opened when plugged in; this user's again opens them all",
          arguments: [(true, "this user's session is active on the seat again"), (false, "no other user's session is active on the seat now")])
    func anotherUsersSessionPauses(mineAgain: Bool, said: String) throws {
        let directory = ConfigScratchDirectory()
        let me: UInt32 = 1000
        directory.write("seat0", "ACTIVE=2\nACTIVE_UID=\(me)\nSESSIONS=2 5\n")
        let seat = try SeatWatch(path: directory.file("seat0"), uid: me, logger: CollectedLog().logger)
        let source = ScriptedDevices()
        let keyboard = try source.node(1, .keyboard, name: "AT Translated Set 2 keyboard")
        let pad = try source.node(4, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let screen = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        source.present = [keyboard, pad]
        var openedWhilePaused: [String]?
        // One step a wake-up; logind's rename is read in the wake-up after the step that made it.
        source.play([
            { directory.replace("seat0", "ACTIVE=5\nACTIVE_UID=1001\nSESSIONS=2 5\n"); return [] },
            { [] },
            {
                source.present = [keyboard, pad, screen]
                return [.added(screen)]
            },
            {
                openedWhilePaused = source.opened
                directory.replace("seat0", mineAgain ? "ACTIVE=2\nACTIVE_UID=\(me)\nSESSIONS=2 5\n" : "SESSIONS=2 5\n")
                return []
            },
            { [] },
            {
                raise(SIGTERM)
                return []
            },
        ])
        let log = CollectedLog()
        let outputs = Outputs()
        let daemon = try Self.daemon(source, outputs, log: log, seat: seat)
        try daemon.run()
        #expect(openedWhilePaused == [keyboard.devnode, pad.devnode], "nothing opened while paused: \(log.lines)")
        #expect(log.lines.contains("info: \(pad.devnode) (SynPS/2 Synaptics TouchPad): closed: another user's session is active"), "\(log.lines)")
        #expect(log.lines.contains("info: \(keyboard.devnode) (AT Translated Set 2 keyboard): closed: another user's session is active"), "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("notice: another user's session is active on the seat (uid 1001): flickd pauses") }, "\(log.lines)")
        #expect(log.lines.contains("notice: \(said): flickd goes on"), "\(log.lines)")
        #expect(Set(source.opened.dropFirst(2)) == [keyboard.devnode, pad.devnode, screen.devnode], "all opened again, the screen plugged in meanwhile too")
        #expect(outputs.made == [.touchpad], "the virtual device kept through the pause")
    }

    /// The virtual device could not be made (EACCES on /dev/uinput while another VT without a
    /// login was in front, so logind gave this user no uaccess ACL on it); then this user's
    /// session comes to the front again without flickd having paused (no other user's session
    /// was active): the output is made then. Before, it waited for a reload or a device.
    @Test("an output that could not be made is made again when this user's session is active on the seat again")
    func aFailedOutputIsMadeWhenTheSessionIsActiveAgain() throws {
        let directory = ConfigScratchDirectory()
        let me: UInt32 = 1000
        directory.write("seat0", "SESSIONS=2\n")
        let seat = try SeatWatch(path: directory.file("seat0"), uid: me, logger: CollectedLog().logger)
        let source = ScriptedDevices()
        let pad = try source.node(4, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [pad]
        let outputs = Outputs()
        outputs.failure = SystemError(errno: EACCES, call: "open", path: "/dev/uinput")
        var madeBefore: [OutputMode]?
        // One step a wake-up; logind's rename is read in the wake-up after the step that made it.
        source.play([
            {
                madeBefore = outputs.made
                outputs.failure = nil
                directory.replace("seat0", "ACTIVE=2\nACTIVE_UID=\(me)\nSESSIONS=2\n")
                return []
            },
            { [] },
            {
                raise(SIGTERM)
                return []
            },
        ])
        let log = CollectedLog()
        try Self.daemon(source, outputs, log: log, seat: seat).run()
        #expect(madeBefore == [.touchpad], "tried once at the start, and failed: \(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("error: ") && $0.contains("Permission denied") }, "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("flickd goes on") }, "flickd never paused: \(log.lines)")
        #expect(outputs.made == [.touchpad, .touchpad], "made when this user's session is active: \(log.lines)")
        #expect(outputs.touchpads.count == 1, "\(log.lines)")
    }

    /// A refused mouse whose node has keyboard keys (Logitech's K400) is opened for its buttons and
    /// its keys: what its refusal costs says both, or what of them stops a coast under the stop
    /// settings. Before, it always said "its buttons do not stop a coast".
    @Test("a refused mouse with keyboard keys says its key presses do not stop a coast",
          arguments: [(true, "its button and key presses do not stop a coast"), (false, "its key presses do not stop a coast")])
    func aRefusedMouseWithKeysSaysItsKeys(button: Bool, cost: String) throws {
        let source = ScriptedDevices()
        let keyboard = try source.node(2, .keyboard, name: "AT Translated Set 2 keyboard")
        let combo = try source.node(3, .mouse, name: "Logitech K400", udev: ["ID_INPUT_KEYBOARD": "1"])
        source.present = [keyboard, combo]
        source.refused = [keyboard.devnode, combo.devnode]
        var configuration = Configuration()
        configuration.stop.button = button
        let log = CollectedLog()
        let daemon = try Self.daemon(source, Outputs(), log: log, configuration: configuration)
        raise(SIGTERM)
        try daemon.run()
        let warnings = log.lines.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.last == "warning: cannot open /dev/input/event3 (Logitech K400): Permission denied: \(cost)", "\(warnings)")

        // Explained in full when it is the first refused.
        let alone = ScriptedDevices()
        let first = try alone.node(3, .mouse, name: "Logitech K400", udev: ["ID_INPUT_KEYBOARD": "1"])
        alone.present = [first]
        alone.refused = [first.devnode]
        let explained = CollectedLog()
        let again = try Self.daemon(alone, Outputs(), log: explained, configuration: configuration)
        raise(SIGTERM)
        try again.run()
        #expect(explained.lines.contains { $0.hasPrefix("warning: cannot read /dev/input/event3 (Permission denied): \(cost). ") }, "\(explained.lines)")
    }

    @Test("a flickd started while another user's session is active opens nothing until this user's is")
    func startedWhileAnotherUsersSessionIsActive() throws {
        let directory = ConfigScratchDirectory()
        directory.write("seat0", "ACTIVE_UID=1001\n")
        let seat = try SeatWatch(path: directory.file("seat0"), uid: 1000, logger: CollectedLog().logger)
        let source = ScriptedDevices()
        let pad = try source.node(4, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [pad]
        var openedBefore: [String]?
        source.play([
            {
                openedBefore = source.opened
                directory.remove("seat0")  // logind gone: nothing is known, flickd runs
                return []
            },
            { [] },
            {
                raise(SIGTERM)
                return []
            },
        ])
        let log = CollectedLog()
        try Self.daemon(source, Outputs(), log: log, seat: seat).run()
        #expect(openedBefore == [])
        #expect(source.opened == [pad.devnode], "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("notice: another user's session is active on the seat (uid 1001): flickd waits") }, "\(log.lines)")
    }

    @Test("logind's seat file: this user's session active, another's, or nothing known")
    func seatFile() {
        #expect(SeatWatch.activity(of: "ACTIVE=2\nACTIVE_UID=1000\nSESSIONS=2\n", uid: 1000) == .active)
        #expect(SeatWatch.activity(of: "ACTIVE=5\nACTIVE_UID=1001\n", uid: 1000) == .inactive(uid: 1001))
        #expect(SeatWatch.activity(of: "SESSIONS=\n", uid: 1000) == .unknown, "no active session, none of this user's")
        #expect(SeatWatch.activity(of: "ACTIVE_UID=gdm\n", uid: 1000) == .unknown)
        #expect(SeatWatch.activity(of: nil, uid: 1000) == .unknown, "no logind")
    }

    @Test("flickd's own virtual devices, by name, are never opened")
    func ownDevicesAreNotRead() throws {
        let source = ScriptedDevices()
        source.present = [
            try source.node(10, .touchpad, name: VirtualTouchpad.name, fixture: "synaptics-t440"),
            try source.node(11, .mouse, name: VirtualWheel.name),
        ]
        let outputs = Outputs()
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        raise(SIGTERM)
        try daemon.run()
        #expect(source.opened.isEmpty)
        #expect(outputs.made.isEmpty, "another flickd's pad is no reason to create one")
    }

    @Test("the output's own event node is not read, whatever it is called")
    func outputNodeIsNotRead() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        // As udev reports the device once it is created; renamed, so only its path tells.
        let output = try source.node(30, .touchpad, name: "a renamed virtual touchpad", fixture: "synaptics-t440")
        source.present = [pad]
        let outputs = Outputs()
        outputs.syspath = "/sys/devices/virtual/input/input30"
        source.play([
            {
                raise(SIGTERM)
                return [.added(output)]
            },
        ])
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        try daemon.run()
        #expect(source.opened == [pad.devnode])
    }

    @Test("a stale add of a device gone before it was read, at the node flickd's own device now has, is not opened")
    func staleAddAtTheOutputsNodeIsNotRead() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        // A touchpad's add, read after it was unplugged: libudev could not read its name, and
        // its node, event30, is the output's now (described here as the device at that node
        // would be read). Its syspath is the old device's own.
        let stale = try source.node(30, .touchpad, name: "", fixture: "synaptics-t440")
        source.present = [pad]
        let outputs = Outputs()
        outputs.syspath = "/sys/devices/virtual/input/input31"
        outputs.devnode = stale.devnode
        source.play([
            {
                raise(SIGTERM)
                return [.added(stale)]
            },
        ])
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        try daemon.run()
        #expect(outputs.made == [.touchpad])
        #expect(source.opened == [pad.devnode], "flickd's own node read as a device: \(source.opened)")
    }

    @Test("an output that cannot be created is reported once for several pads, and created by the next pad once it can be")
    func failedCreationIsRetried() throws {
        let source = ScriptedDevices()
        let pads = try (0..<3).map { try source.node(20 + $0, .touchpad, name: "pad \($0)", fixture: "synaptics-t440") }
        source.present = [pads[0]]
        let outputs = Outputs()
        outputs.failure = NoUinput()
        source.play([
            { [.added(pads[1])] },
            {
                outputs.failure = nil
                raise(SIGTERM)
                return [.added(pads[2])]
            },
        ])
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        try daemon.run()
        #expect(outputs.made == [.touchpad, .touchpad, .touchpad], "tried at each pad")
        let errors = log.lines.filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("/dev/uinput is gone") == true)
        #expect(errors.first?.contains("flicks do not coast until it can be created") == true)
        #expect(outputs.touchpads.count == 1 && outputs.touchpads[0].closed, "the third pad's try made it")
    }

    @Test("a reload that lets a touchscreen coast creates the output; one that changes the mode after it replaces it")
    func reloadCreatesThenReplaces() throws {
        let source = ScriptedDevices()
        source.present = [try source.node(3, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")]
        let outputs = Outputs()
        var coasting = Configuration()
        coasting.touchscreen.enabled = true
        var wheel = coasting
        wheel.output.mode = .wheel
        var madeAtSecondReload: [OutputMode]?
        let reloads = try Self.runTwoReloads(source, outputs, log: CollectedLog(), to: coasting, then: wheel) {
            madeAtSecondReload = outputs.made
        }
        #expect(reloads == 2)
        #expect(madeAtSecondReload == [.touchpad], "the touchscreen coasts after the first reload: the output came with it")
        #expect(outputs.made == [.touchpad, .wheel])
        #expect(outputs.touchpads.count == 1 && outputs.touchpads[0].closed, "the touchpad was replaced")
        #expect(outputs.wheels.count == 1 && outputs.wheels[0].closed, "and the wheel destroyed at shutdown")
    }

    @Test("devices the user may not read are explained once, with the way out; the others still open")
    func accessDeniedIsExplainedOnce() throws {
        let source = ScriptedDevices()
        let keyboard = try source.node(2, .keyboard, name: "AT Translated Set 2 keyboard")
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let screen = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        source.present = [keyboard, pad, screen]
        source.refused = [pad.devnode, screen.devnode]
        let outputs = Outputs()
        let log = CollectedLog()
        let daemon = try Self.daemon(source, outputs, log: log)
        raise(SIGTERM)
        try daemon.run()
        let warnings = log.lines.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.first?.contains("cannot read /dev/input/event5 (Permission denied): this touchpad gets no glide. ") == true, "\(warnings)")
        #expect(warnings.first?.contains("sudo usermod -aG input $USER") == true, "\(warnings)")
        #expect(warnings.last == "warning: cannot open /dev/input/event6 (ELAN Touchscreen): Permission denied: this touchscreen gets no glide", "\(warnings)")
        #expect(log.lines.contains("notice: no touchpad or touchscreen flickd may read: /dev/input/event5, /dev/input/event6 refused access (see above); they are opened when udev reports them again (plugged in, or `sudo udevadm trigger` once a udev rule gives access) or when flickd starts with the input group (flickd virtual touchpad is created then)"),
                "not 'waiting for one to be plugged in': \(log.lines)")
        #expect(source.opened == [keyboard.devnode])
        #expect(outputs.made.isEmpty, "no touch device could be read")
    }

    /// Hot-plug events lost: the rescan finds another touchpad at an open pad's node, closes
    /// the old and opens the new; the old one's removal, read afterwards, leaves the new open.
    @Test func aLateRemovalOfTheDeviceANodeHadBeforeClosesNothing() throws {
        let source = ScriptedDevices()
        let first = try source.node(7, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let second = InputNode(devnode: first.devnode, syspath: "/sys/devices/virtual/input/input70/event7",
                               name: "Apple Magic Trackpad", kind: .touchpad)
        source.present = [first]
        let log = try Self.run(source, steps: [
            {
                source.present = [second]
                return [.missedEvents]
            },
            { [.removed(devnode: first.devnode, syspath: first.syspath)] },
        ])
        #expect(source.opened == [first.devnode, first.devnode], "the first pad, then the second at its node")
        #expect(log.lines.contains("info: /dev/input/event7 (SynPS/2 Synaptics TouchPad): removed (its node now belongs to Apple Magic Trackpad)"),
                "\(log.lines)")
        #expect(!log.lines.contains("info: /dev/input/event7 (Apple Magic Trackpad): removed"), "the second stays: \(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("debug: /dev/input/event7: removal of an earlier device at this node") }, "\(log.lines)")
    }

    /// A device plugged in and out before flickd opened it (udev's add read late, the node gone):
    /// no warning, a debug line.
    @Test func aNodeGoneBeforeItsOpenIsNoWarning() throws {
        let source = ScriptedDevices()
        let stale = InputNode(devnode: "/dev/input/event30", syspath: "/sys/devices/virtual/input/input30/event30", name: "", kind: .mouse)
        source.gone = [stale.devnode]
        let log = try Self.run(source, steps: [{ [.added(stale)] }])
        #expect(!log.lines.contains { $0.hasPrefix("warning: ") }, "\(log.lines)")
        #expect(log.lines.contains("debug: cannot open /dev/input/event30: No such file or directory (gone again)"), "\(log.lines)")
    }

    /// The service manager's status follows refused touch devices, which change no count of
    /// devices open: a refused pad plugged in, then out; another refused and then, its removal
    /// lost, gone from the rescan.
    @Test func theStatusFollowsRefusedTouchDevices() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let screen = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        source.refused = [pad.devnode, screen.devnode]
        var statuses: [[String]] = []
        _ = try Self.run(source, steps: [
            {
                source.present = [pad]
                return [.added(pad)]
            },
            {
                statuses.append(listener.received())
                source.present = []
                return [.removed(devnode: pad.devnode, syspath: pad.syspath)]
            },
            {
                statuses.append(listener.received())
                source.present = [screen]
                return [.added(screen)]
            },
            {
                statuses.append(listener.received())
                source.present = []
                return [.missedEvents]
            },
            {
                statuses.append(listener.received())
                return []
            },
        ], notifier: notifier)
        let waiting = "STATUS=waiting for a touchpad or touchscreen"
        let refused = "STATUS=may not read the touchpad or touchscreen (permission denied)"
        #expect(statuses == [["READY=1\n" + waiting, refused], [waiting], [refused], [waiting]], "\(statuses)")
    }

    /// Hot-plug events lost: the rescan finds another refused pad at a refused pad's node (said
    /// as a new refusal, not "still"); the first one's removal, read afterwards, leaves the
    /// second refused: the status keeps saying so.
    @Test func aLateRemovalOfARefusedPadLeavesTheOneNowAtItsNodeRefused() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        let source = ScriptedDevices()
        let first = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        var second = try source.node(5, .touchpad, name: "Apple Magic Trackpad", fixture: "generic-usb-touchpad")
        second.syspath = "/sys/devices/virtual/input/input50/event5"
        source.refused = [first.devnode]
        source.present = [first]
        var statuses: [[String]] = []
        let daemonLog = try Self.run(source, steps: [
            {
                statuses.append(listener.received())
                source.present = [second]
                return [.missedEvents]
            },
            { [.removed(devnode: first.devnode, syspath: first.syspath)] },
            {
                statuses.append(listener.received())
                return []
            },
        ], notifier: notifier)
        let refused = "STATUS=may not read the touchpad or touchscreen (permission denied)"
        #expect(statuses == [["READY=1\n" + refused], []], "\(statuses)")
        #expect(daemonLog.lines.contains { $0.hasPrefix("warning: cannot open /dev/input/event5 (Apple Magic Trackpad)") }, "\(daemonLog.lines)")
    }

    /// udev's "change" (`udevadm trigger`) of a touch device judged not used, or refused, says
    /// it again at debug level only (it is judged again: a hwdb entry may have fixed it); a
    /// change of a device at that node that is another one is judged and said as usual.
    @Test func aChangeOfADeviceJudgedBeforeIsNotLoggedAgain() throws {
        let source = ScriptedDevices()
        let screen = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [screen, pad]
        source.refused = [pad.devnode]
        var configuration = Configuration()
        configuration.stop.touch = false
        let other = InputNode(devnode: screen.devnode, syspath: "/sys/devices/virtual/input/input60/event6",
                              name: screen.name, kind: .touchscreen)
        source.play([
            { [.changed(screen), .changed(pad)] },
            { [.changed(screen), .changed(pad)] },
            { [.changed(other)] },
            {
                raise(SIGTERM)
                return []
            },
        ])
        let log = CollectedLog()
        try Self.daemon(source, Outputs(), log: log, configuration: configuration).run()
        let notUsed = log.lines.filter { $0.hasPrefix("info: /dev/input/event6 (ELAN Touchscreen): touchscreen, not used") }
        #expect(notUsed.count == 2, "at start, and for the other device at its node: \(log.lines)")
        let again = log.lines.filter { $0.hasPrefix("debug: /dev/input/event6 (ELAN Touchscreen): touchscreen, not used") }
        #expect(again.count == 2, "judged again at each change of the same device: \(log.lines)")
        #expect(log.lines.filter { $0.hasPrefix("warning: ") }.count == 1, "the refusal said once: \(log.lines)")
        #expect(log.lines.filter { $0 == "debug: cannot open /dev/input/event5 (SynPS/2 Synaptics TouchPad): Permission denied (still)" }.count == 2,
                "\(log.lines)")
        #expect(source.opened.filter { $0 == screen.devnode }.count == 4, "opened at each look: \(source.opened)")
    }

    /// A keyboard and a mouse flickd may not read (not in the input group): said once, at the
    /// start; a udev change of each and a rescan after lost events (as a reload's) find them
    /// refused again and say so in the debug log only. One unplugged and plugged in again is new.
    @Test func refusedMiceAndKeyboardsAreWarnedOfOnce() throws {
        let source = ScriptedDevices()
        let keyboard = try source.node(1, .keyboard, name: "AT Translated Set 2 keyboard")
        let mouse = try source.node(2, .mouse, name: "Logitech USB Optical Mouse")
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [keyboard, mouse, pad]
        source.refused = [keyboard.devnode, mouse.devnode]
        source.play([
            { [.changed(keyboard), .changed(mouse)] },
            { [.missedEvents] },
            {
                source.present = [keyboard, pad]
                return [.removed(devnode: mouse.devnode, syspath: mouse.syspath)]
            },
            {
                source.present = [keyboard, mouse, pad]
                return [.added(mouse)]
            },
            {
                raise(SIGTERM)
                return []
            },
        ])
        let log = CollectedLog()
        try Self.daemon(source, Outputs(), log: log).run()
        let warnings = log.lines.filter { $0.hasPrefix("warning: cannot ") }
        #expect(warnings.count == 3, "the keyboard at length, the mouse, the mouse plugged in again: \(log.lines)")
        #expect(warnings.last?.hasPrefix("warning: cannot open /dev/input/event2 (Logitech USB Optical Mouse): Permission denied") == true, "\(warnings)")
        #expect(log.lines.filter { $0 == "debug: cannot open /dev/input/event1 (AT Translated Set 2 keyboard): Permission denied (still)" }.count == 2,
                "the change and the rescan: \(log.lines)")
        #expect(log.lines.filter { $0 == "debug: cannot open /dev/input/event2 (Logitech USB Optical Mouse): Permission denied (still)" }.count == 2,
                "the change and the rescan: \(log.lines)")
    }

    /// While another user's session is active flickd closes every device on purpose: the status
    /// says it pauses, not that it waits for a touchpad, and says what it reads once it goes on.
    @Test func theStatusSaysWhenFlickdPauses() throws {
        let directory = ConfigScratchDirectory()
        directory.write("seat0", "ACTIVE=2\nACTIVE_UID=1000\n")
        let seat = try SeatWatch(path: directory.file("seat0"), uid: 1000, logger: CollectedLog().logger)
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [pad]
        var statuses: [[String]] = []
        source.play([
            {
                statuses.append(listener.received())
                directory.replace("seat0", "ACTIVE=5\nACTIVE_UID=1001\n")
                return []
            },
            { [] },
            {
                statuses.append(listener.received())
                directory.replace("seat0", "ACTIVE=2\nACTIVE_UID=1000\n")
                return []
            },
            { [] },
            {
                statuses.append(listener.received())
                raise(SIGTERM)
                return []
            },
        ])
        try Self.daemon(source, Outputs(), log: log, seat: seat, notifier: notifier).run()
        let reading = "STATUS=reading 1 touch device"
        #expect(statuses == [["READY=1\n" + reading], ["STATUS=paused: another user's session is active on the seat"], [reading]], "\(statuses)")
    }

    /// While its output device cannot be created, flickd reads the pads but no flick coasts: the
    /// status says so first (the journal has the error), and stops saying it once a pad
    /// plugged in creates the device.
    @Test func theStatusSaysWhenTheOutputCannotBeCreated() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        let source = ScriptedDevices()
        let pads = try (0..<2).map { try source.node(20 + $0, .touchpad, name: "pad \($0)", fixture: "synaptics-t440") }
        source.present = [pads[0]]
        let outputs = Outputs()
        outputs.failure = NoUinput()
        var statuses: [[String]] = []
        source.play([
            {
                statuses.append(listener.received())
                outputs.failure = nil
                return [.added(pads[1])]
            },
            { [] },
            {
                statuses.append(listener.received())
                raise(SIGTERM)
                return []
            },
        ])
        try Self.daemon(source, outputs, log: log, notifier: notifier).run()
        #expect(statuses == [["READY=1\nSTATUS=flicks do not coast: flickd virtual touchpad could not be created; reading 1 touch device"],
                             ["STATUS=reading 2 touch devices"]], "\(statuses)")
    }

    /// A reload judges the touch devices again: one judged not used for the same reason is said
    /// at debug level the second time (each config save logged it anew), a new reason at info.
    @Test func aReloadSaysAnUnchangedJudgementAtDebugLevel() throws {
        let source = ScriptedDevices()
        let screen = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        source.present = [screen]
        var noTouch = Configuration()
        noTouch.stop.touch = false
        let log = CollectedLog()
        let reloads = try Self.runTwoReloads(source, Outputs(), log: log, to: noTouch, then: noTouch) {}
        #expect(reloads == 2)
        // The first reload judges the open screen (said) and opens it again after closing it
        // (alike: debug); the second opens and judges it (debug).
        let notUsed = log.lines.filter { $0.contains("/dev/input/event6 (ELAN Touchscreen): touchscreen, not used") }
        #expect(notUsed.map { $0.prefix { $0 != ":" } } == ["info", "debug", "debug"], "\(log.lines)")
    }

    /// A touchpad set aside for its axes (no size), then fixed by a hwdb entry and a `udevadm
    /// trigger`: udev's "change" of the same device judges it again, and it is read.
    @Test func aChangeOfADeviceSetAsideJudgesItAgain() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let fixed = source.descriptions[pad.devnode]
        var broken = try #require(fixed)
        broken.absoluteAxes = broken.absoluteAxes.mapValues { var axis = $0; axis.maximum = axis.minimum; return axis }
        source.descriptions[pad.devnode] = broken
        source.present = [pad]
        let log = try Self.run(source, steps: [{
            source.descriptions[pad.devnode] = fixed
            return [.changed(pad)]
        }])
        #expect(log.lines.contains { $0.hasPrefix("info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): not used") }, "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): touchpad") && $0.hasSuffix("flicks coast") },
                "\(log.lines)")
    }

    /// A touchpad set aside, then a udev "change" after which it is set aside for another
    /// reason: the new reason is said at info (a "change" said every repeat at debug level,
    /// whatever it said); the same reason again, at debug.
    @Test func aChangeThatSetsADeviceAsideForAnotherReasonIsSaid() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let fixed = try #require(source.descriptions[pad.devnode])
        var noRange = fixed
        noRange.absoluteAxes = noRange.absoluteAxes.mapValues { var axis = $0; axis.maximum = axis.minimum; return axis }
        var noPositions = fixed
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] { noPositions.absoluteAxes[code] = nil }
        source.descriptions[pad.devnode] = noRange
        source.present = [pad]
        let log = try Self.run(source, steps: [
            {
                source.descriptions[pad.devnode] = noPositions
                return [.changed(pad)]
            },
            { [.changed(pad)] },
        ])
        let notUsed = log.lines.filter { $0.contains("/dev/input/event5 (SynPS/2 Synaptics TouchPad): not used") }
        #expect(notUsed.count == 3 && Set(notUsed).count == 3, "\(log.lines)")
        #expect(notUsed.map { $0.prefix { $0 != ":" } } == ["info", "info", "debug"], "\(notUsed)")
    }

    /// A touchpad read with its own resolution; then a hwdb entry gives it another and `udevadm
    /// trigger` makes udev apply it (the kernel's axes change under the open descriptor) and
    /// report a "change": the pad is read again at the new scale. A "change" that changed
    /// nothing (the second one) leaves it open as it is.
    @Test func aChangeOfAnOpenPadsAxesReadsItAgain() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [pad]
        let log = try Self.run(source, steps: [
            {
                var rescaled = source.descriptions[pad.devnode]!
                for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
                    rescaled.absoluteAxes[code]?.resolution = 84
                }
                source.descriptions[pad.devnode] = rescaled
                return [.changed(pad)]
            },
            { [.changed(pad)] },
        ])
        #expect(log.lines.contains("info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): changed (its axes or name changed): reading it again"),
                "\(log.lines)")
        let sizes = log.lines.filter { $0.hasPrefix("info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): touchpad, ") }
        #expect(sizes.count == 2 && sizes[0].contains("touchpad, 97 × 67 mm") && sizes[1].contains("touchpad, 49 × 33 mm"), "\(sizes)")
        #expect(source.opened == [pad.devnode, pad.devnode], "opened again once: \(source.opened)")
    }

    /// A device udev first called a mouse, then (a hwdb entry, `udevadm trigger`) a touchpad:
    /// the "change" closes the mouse and reads the touchpad.
    @Test func aChangeOfKindReadsTheDeviceAgain() throws {
        let source = ScriptedDevices()
        let asMouse = try source.node(5, .mouse, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        var asPad = asMouse
        asPad.kind = .touchpad
        source.present = [asMouse]
        let log = try Self.run(source, steps: [{ [.changed(asPad)] }])
        #expect(log.lines.contains("info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): changed (udev now says it is a touchpad): reading it again"),
                "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): touchpad, ") && $0.hasSuffix("flicks coast") },
                "\(log.lines)")
    }

    /// A node a scan lists that cannot be opened for want of the node (no /dev/input in a
    /// container, a driver stuck in its removal) is a warning, unlike a stale hot-plug add.
    @Test func aListedNodeThatIsMissingIsAWarning() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [pad]
        source.gone = [pad.devnode]
        let log = try Self.run(source, steps: [])
        #expect(log.lines.contains("warning: cannot open /dev/input/event5 (SynPS/2 Synaptics TouchPad): No such file or directory"), "\(log.lines)")
    }

    /// Only the keyboard refused: the explanation says what that costs (its keys do not stop a
    /// coast), and the touchpad is read. Access given later and the node changed (udev's
    /// "change"): the keyboard is opened.
    @Test func aRefusedKeyboardSaysWhatItCostsAndIsOpenedOnceItMayBe() throws {
        let source = ScriptedDevices()
        let keyboard = try source.node(2, .keyboard, name: "AT Translated Set 2 keyboard")
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [keyboard, pad]
        source.refused = [keyboard.devnode]
        var openedBeforeChange: [String]?
        let log = try Self.run(source, steps: [
            {
                openedBeforeChange = source.opened
                source.refused = []
                return [.changed(keyboard), .changed(pad)]
            },
        ])
        let warnings = log.lines.filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 1 && warnings[0].hasPrefix("warning: cannot read /dev/input/event2 (Permission denied): its key presses do not stop a coast. "),
                "\(warnings)")
        #expect(!log.lines.contains { $0.contains("no touchpad or touchscreen") }, "\(log.lines)")
        #expect(openedBeforeChange == [pad.devnode])
        #expect(source.opened == [pad.devnode, keyboard.devnode], "the keyboard opened; the pad, open already, not again")
    }

    @Test("a reload that turns stop.key off closes the keyboards; one that turns it on opens them again")
    func keyboardsFollowStopKey() throws {
        let source = ScriptedDevices()
        let keyboard = try source.node(2, .keyboard, name: "AT Translated Set 2 keyboard")
        let mouse = try source.node(3, .mouse, name: "Logitech USB Optical Mouse")
        source.present = [keyboard, mouse]
        let outputs = Outputs()
        var noKeys = Configuration()
        noKeys.stop.key = false
        var openedAtSecondReload: [String]?
        let log = CollectedLog()
        let reloads = try Self.runTwoReloads(source, outputs, log: log, to: noKeys, then: Configuration()) {
            openedAtSecondReload = source.opened
        }
        #expect(reloads == 2)
        #expect(openedAtSecondReload == [keyboard.devnode, mouse.devnode])
        #expect(log.lines.contains("info: \(keyboard.devnode) (AT Translated Set 2 keyboard): closed (it no longer stops coasts)"),
                "\(log.lines)")
        #expect(!log.lines.contains { $0.contains(mouse.devnode) && $0.contains("closed") }, "the mouse still stops coasts")
        #expect(source.opened == [keyboard.devnode, mouse.devnode, keyboard.devnode], "opened again by the second reload")
    }

    /// A node udev assigns to another seat (multi-seat: a second user's keyboard, mouse and
    /// touchpad on seat1) is that seat's user's: a flickd following seat0 leaves it alone, as
    /// libinput's seat0 context does, and says so once. Its own seat's pad is read.
    @Test("a touchpad on seat1 is not opened; one without ID_SEAT, or on seat0, is")
    func anotherSeatsTouchpadIsNotOpened() throws {
        let source = ScriptedDevices()
        let theirs = try source.node(7, .touchpad, name: "Seat 1 TouchPad", fixture: "synaptics-t440", udev: ["ID_SEAT": "seat1"])
        let theirMouse = try source.node(8, .mouse, name: "Seat 1 Mouse", udev: ["ID_SEAT": "seat1"])
        let ours = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440", udev: ["ID_SEAT": "seat0"])
        let screen = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        source.present = [ours, screen, theirs, theirMouse]
        let log = try Self.run(source, steps: [{ [.changed(theirs)] }])
        #expect(source.opened == [ours.devnode, screen.devnode], "\(log.lines)")
        #expect(log.lines.filter { $0 == "info: /dev/input/event7 (Seat 1 TouchPad): not used (on seat1, not seat0)" }.count == 1,
                "said once; the change judging it alike at debug: \(log.lines)")
        #expect(log.lines.contains("debug: /dev/input/event7 (Seat 1 TouchPad): not used (on seat1, not seat0)"), "\(log.lines)")
        #expect(log.lines.contains("info: /dev/input/event8 (Seat 1 Mouse): not used (on seat1, not seat0)"), "\(log.lines)")
    }

    /// udev's LIBINPUT_IGNORE_DEVICE (the Arch wiki's rule for a DualSense controller's
    /// touchpad; a touchscreen whose phantom touches a rule silences): libinput does not read
    /// it, nor does flickd. Set to "0" it is read.
    @Test("a touchpad with LIBINPUT_IGNORE_DEVICE=1 is not opened; with 0 it is")
    func aDeviceLibinputIgnoresIsNotOpened() throws {
        let source = ScriptedDevices()
        let ignored = try source.node(7, .touchpad, name: "Sony DualSense Touchpad", fixture: "synaptics-t440", udev: ["LIBINPUT_IGNORE_DEVICE": "1"])
        let read = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440", udev: ["LIBINPUT_IGNORE_DEVICE": "0"])
        source.present = [read, ignored]
        let log = try Self.run(source, steps: [])
        #expect(source.opened == [read.devnode], "\(log.lines)")
        #expect(log.lines.contains("info: /dev/input/event7 (Sony DualSense Touchpad): not used (libinput ignores it (LIBINPUT_IGNORE_DEVICE))"),
                "\(log.lines)")
    }

    /// A udev rule that hides a touchpad from libinput by its ID_INPUT (`ENV{ID_INPUT}="0"`, its
    /// ID_INPUT_TOUCHPAD left as it was): libinput drops it ("not tagged as supported input
    /// device"), so flickd leaves it alone and says why. Before, flickd read it: its swipes
    /// glided on the virtual pad that libinput does read.
    @Test("a touchpad udev does not tag ID_INPUT=1 is not opened, as libinput does not open it")
    func aDeviceNotTaggedInputIsNotOpened() throws {
        let source = ScriptedDevices()
        let hidden = try source.node(7, .touchpad, name: "Hidden TouchPad", fixture: "synaptics-t440", udev: ["ID_INPUT": "0"])
        let read = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440", udev: ["ID_INPUT": "1"])
        source.present = [read, hidden]
        let log = try Self.run(source, steps: [])
        #expect(source.opened == [read.devnode], "\(log.lines)")
        #expect(log.lines.contains("info: /dev/input/event7 (Hidden TouchPad): not used (libinput ignores it (udev does not set ID_INPUT=1))"),
                "\(log.lines)")
    }

    /// A keyboard and pointer on one node (Logitech's K400; udev sets ID_INPUT_KEYBOARD beside
    /// ID_INPUT_MOUSE): its keys stop coasts, so stop.button = false leaves it open for them.
    /// A plain mouse beside it is not opened.
    @Test("a mouse node with keyboard keys is opened with stop.button = false, for its keys")
    func aMouseWithKeysIsOpenedForItsKeys() throws {
        let source = ScriptedDevices()
        let combo = try source.node(3, .mouse, name: "Logitech K400", udev: ["ID_INPUT_KEYBOARD": "1"])
        let mouse = try source.node(4, .mouse, name: "Logitech USB Optical Mouse")
        source.present = [combo, mouse]
        var configuration = Configuration()
        configuration.stop.button = false
        let log = CollectedLog()
        let daemon = try Self.daemon(source, Outputs(), log: log, configuration: configuration)
        raise(SIGTERM)
        try daemon.run()
        #expect(source.opened == [combo.devnode], "\(log.lines)")
        #expect(log.lines.contains("info: /dev/input/event3 (Logitech K400): mouse with keyboard keys, a key press stops a coast"), "\(log.lines)")
    }

    /// Reloads: stop.button turned off closes the plain mouse and leaves the one with keys open;
    /// stop.key turned off too closes that one.
    @Test("a reload keeps a mouse with keyboard keys open while stop.key is on, and closes it once neither stops a coast")
    func aMouseWithKeysFollowsBothStops() throws {
        let source = ScriptedDevices()
        let combo = try source.node(3, .mouse, name: "Logitech K400", udev: ["ID_INPUT_KEYBOARD": "1"])
        let mouse = try source.node(4, .mouse, name: "Logitech USB Optical Mouse")
        source.present = [combo, mouse]
        var noButtons = Configuration()
        noButtons.stop.button = false
        var neither = noButtons
        neither.stop.key = false
        var linesAtSecondReload: [String] = []
        let log = CollectedLog()
        let reloads = try Self.runTwoReloads(source, Outputs(), log: log, to: noButtons, then: neither) {
            linesAtSecondReload = log.lines
        }
        #expect(reloads == 2)
        #expect(linesAtSecondReload.contains("info: \(mouse.devnode) (Logitech USB Optical Mouse): closed (it no longer stops coasts)"), "\(log.lines)")
        #expect(!linesAtSecondReload.contains { $0.contains(combo.devnode) && $0.contains("closed") }, "its keys still stop coasts: \(log.lines)")
        #expect(log.lines.contains("info: \(combo.devnode) (Logitech K400): closed (it no longer stops coasts)"), "\(log.lines)")
    }

    /// udev's "change" says an open device is one flickd does not read (a rule that unsets its
    /// ID_INPUT_TOUCHPAD, one that sets LIBINPUT_IGNORE_DEVICE, a keyboard that stop.key leaves
    /// alone): it is closed, the log says why, and nothing is read again.
    @Test("a change that makes an open device one flickd does not read closes it and says why")
    func aChangeToAKindNotReadClosesTheDevice() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let screen = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        var padAsOther = pad
        padAsOther.kind = .other
        let screenIgnored = try source.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen",
                                            udev: ["LIBINPUT_IGNORE_DEVICE": "1"])
        source.present = [pad, screen]
        var openedAtTheEnd: [String] = []
        let log = try Self.run(source, steps: [
            { [.changed(padAsOther), .changed(screenIgnored)] },
            {
                openedAtTheEnd = source.opened
                return [.changed(screenIgnored)]
            },
        ])
        #expect(log.lines.contains("info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): changed, closed: udev no longer says it is a touchpad, touchscreen, mouse or keyboard"),
                "\(log.lines)")
        #expect(log.lines.contains("info: /dev/input/event6 (ELAN Touchscreen): changed, closed: libinput ignores it (LIBINPUT_IGNORE_DEVICE)"),
                "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("reading it again") || $0.contains("a other") }, "\(log.lines)")
        #expect(!log.lines.contains { $0.hasPrefix("info: ") && $0.hasSuffix("not used (libinput ignores it (LIBINPUT_IGNORE_DEVICE))") },
                "said once, at the close; the next change at debug: \(log.lines)")
        #expect(openedAtTheEnd == [pad.devnode, screen.devnode], "nothing opened again")
    }

    @Test("a change to a keyboard while stop.key is false closes the device: a keyboard is not read then")
    func aChangeToAKeyboardThatStopsNothingClosesIt() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "Combo", fixture: "synaptics-t440")
        var asKeyboard = pad
        asKeyboard.kind = .keyboard
        source.present = [pad]
        var configuration = Configuration()
        configuration.stop.key = false
        source.play([{ [.changed(asKeyboard)] }, {
            raise(SIGTERM)
            return []
        }])
        let log = CollectedLog()
        try Self.daemon(source, Outputs(), log: log, configuration: configuration).run()
        #expect(log.lines.contains("info: /dev/input/event5 (Combo): changed, closed: udev now says it is a keyboard, and stop.key is false"),
                "\(log.lines)")
        #expect(source.opened == [pad.devnode])
    }

    /// A touch panel that looks like a touchpad (a finger tool, not direct: the Intuos5's finger
    /// half stands in for it) which an hwdb entry tags a touchscreen (`ID_INPUT_TOUCHPAD=0`,
    /// `ID_INPUT_TOUCHSCREEN=1`): libinput and the desktop read it as a touchscreen, and so does
    /// flickd. It read it as a touchpad (two fingers, touchpad.enabled, the pad's direction).
    /// One finger moves 20 mm down over 96 ms and lifts: the content follows it down.
    @Test("a device udev tags a touchscreen is read as one, whatever its capabilities suggest")
    func udevsTouchscreenTagWins() throws {
        let source = ScriptedDevices()
        source.present = [try source.node(5, .touchscreen, name: "Wacom Intuos5 touch M Finger", fixture: "wacom-intuos5-finger")]
        #expect(source.descriptions[DaemonEventPathTests.pad]?.kind == .touchpad, "the fixture looks like a touchpad")
        var configuration = DaemonEventPathTests.wheelConfiguration()
        configuration.touchscreen.enabled = true
        let (outputs, log) = try DaemonEventPathTests.runFlick(source, configuration: configuration, flick: { description, release in
            var writer = FingerFrameWriter(description: description, kind: .touchscreen)
            var readings: [EvdevDevice.Reading] = []
            for step in 0...12 {
                let time = release - .milliseconds(Int64(8 * (13 - step)))
                writer.frame([Vector(x: 30, y: 10 + 20 * Double(step) / 12)]) { readings.append(.event($0, at: time)) }
            }
            writer.frame([nil]) { readings.append(.event($0, at: release)) }
            return readings
        }, atFrame: 3) { end, _ in end.now() }
        #expect(log.lines.contains { $0.hasPrefix("info: /dev/input/event5 (Wacom Intuos5 touch M Finger): touchscreen, ") && $0.hasSuffix("; flicks coast") },
                "\(log.lines)")
        let written = outputs.wheels.first?.frames.map(\.verticalHiRes) ?? []
        #expect(written.count >= 3 && written.allSatisfy { $0 >= 0 } && written.contains { $0 > 0 },
                "a coast upward, the content following the finger down: \(written)")
    }

    /// The reverse: a device udev tags a touchpad whose capabilities alone say neither (MT
    /// positions, but no finger tool nor BTN_TOUCH, and not direct). libinput reads it as a
    /// touchpad, and its touchpad code refuses it (`tp_pass_sanity_check`: "device failed
    /// touchpad sanity checks"): no device, nothing scrolls with it. flickd read it as a
    /// touchpad and glided after flicks the desktop never scrolled; it is not used, and says why.
    @Test("a device udev tags a touchpad without the keys libinput's touchpad code needs is not used")
    func udevsTouchpadTagWins() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.descriptions[pad.devnode]?.keys.subtract([EventCode.toolFinger, EventCode.touch])
        #expect(source.descriptions[pad.devnode]?.kind == nil, "its capabilities say neither")
        source.present = [pad]
        let log = try Self.run(source, steps: [])
        #expect(log.lines.contains("""
            info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): not used (a touchpad without BTN_TOUCH and \
            BTN_TOOL_FINGER: it fails libinput's touchpad sanity checks, so no desktop scrolls with it)
            """), "\(log.lines)")
    }

    /// A pad with a finger tool but no BTN_TOUCH: udev tags it a touchpad and libinput's
    /// sanity check refuses it as above. It was read as a touchpad before the tag decided.
    @Test("a touchpad with a finger tool but no BTN_TOUCH is not used")
    func aTouchpadWithoutBTNTouchIsNotUsed() throws {
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.descriptions[pad.devnode]?.keys.remove(EventCode.touch)
        #expect(source.descriptions[pad.devnode]?.kind == .touchpad, "its capabilities say a touchpad")
        source.present = [pad]
        let log = try Self.run(source, steps: [])
        #expect(log.lines.contains("""
            info: /dev/input/event5 (SynPS/2 Synaptics TouchPad): not used (a touchpad without BTN_TOUCH: \
            it fails libinput's touchpad sanity checks, so no desktop scrolls with it)
            """), "\(log.lines)")
    }

    /// The first pad's flick, read while the output cannot be created: no coast runs unseen
    /// (no timer, no mouse or keyboard watched, no virtual fingers in the model for the
    /// shutdown to wait for), and the log says why at debug level. The touchpad created later
    /// gets nothing of it. (A coast that ran took the new device mid-glide: its motion came
    /// without a landing, and the shutdown waited for its fingers to settle and lift.)
    @Test("a flick while the output cannot be created does not coast; the output created after it gets no frame of it")
    func noCoastWithoutAnOutput() throws {
        let source = ScriptedDevices()
        let pads = try (0..<2).map { try source.node(20 + $0, .touchpad, name: "pad \($0)", fixture: "synaptics-t440") }
        source.present = [pads[0]]
        let outputs = Outputs()
        outputs.failure = NoUinput()
        source.play([
            {
                let pad = source.devices[pads[0].devnode]!
                pad.feed(DaemonEventPathTests.flick(on: pad.description, releasedAt: Syscall.monotonicNow()))
                return []
            },
            // The flick is read in this step's wake-up, before or after the step.
            { [] },
            {
                outputs.failure = nil
                raise(SIGTERM)
                return [.added(pads[1])]
            },
        ])
        let log = CollectedLog()
        try Self.daemon(source, outputs, log: log).run()
        #expect(outputs.made == [.touchpad, .touchpad], "tried at the first pad and made at the second")
        #expect(source.devices[pads[0].devnode]?.reads == 1, "the flick was read")
        #expect(!log.lines.contains { $0.contains(": coast at ") || $0.hasPrefix("debug: coast ended at ") }, "\(log.lines)")
        #expect(log.lines.contains { $0.contains(": no coast at ") && $0.contains("flickd virtual touchpad could not be created") },
                "\(log.lines)")
        #expect(outputs.touchpads.count == 1 && outputs.touchpads[0].closed)
        #expect(outputs.touchpads.first?.frames.isEmpty == true, "\(outputs.touchpads.first?.frames.map(\.action) ?? [])")
    }
}
