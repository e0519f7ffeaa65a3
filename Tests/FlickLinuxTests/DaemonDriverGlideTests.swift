import FlickCore
import FlickTestSupport
import Glibc
import Testing
@testable import FlickLinux

/// Keeps every line logged, and runs `then` (on the logging thread, the daemon's) with each.
private final class WatchedLog: LogHandler, @unchecked Sendable {
    var logLevel: Logger.Level = .debug
    private var lock = pthread_mutex_t()
    private var storage: [String] = []
    private let then: (String) -> Void

    init(then: @escaping (String) -> Void) {
        self.then = then
        pthread_mutex_init(&lock, nil)
    }

    var lines: [String] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return storage
    }

    func log(event: LogEvent) {
        let line = "\(event.message)"
        pthread_mutex_lock(&lock)
        storage.append(line)
        pthread_mutex_unlock(&lock)
        then(line)
    }
}

/// The X server says a touchpad's driver glides by itself (the synaptics driver's coasting):
/// the daemon stops coasting that pad's flicks and says so, and coasts them again once the
/// driver no longer glides, each without a restart.
@Suite("Daemon and a driver that glides", .serialized)
struct DaemonDriverGlideTests {
    static let why = XInputDevices.synapticsGlides(coastingSpeed: 20)
    static let pad = "/dev/input/event5 (SynPS/2 Synaptics TouchPad): touchpad"

    /// A daemon with the T440 present, whose desktop answers with the pad's driver gliding at
    /// the first ask and not at the second: the first line about the pad's use after its
    /// opening reloads (which asks again), the second "flicks coast" ends the run. `observe`
    /// sees the engine at each line about the pad's use. The reload reads `afterReload` (nil: the
    /// same configuration); `tellsDriverGlides`: whether the session has an X server to ask (false:
    /// sway's or KWin's Wayland session). Returns the nodes opened and the lines.
    static func run(configuration: Configuration, afterReload: Configuration? = nil, tellsDriverGlides: Bool = true,
                    observe: @escaping (Engine) -> Void = { _ in },
                    perDevice: (@Sendable (_ first: Bool, _ pad: DeviceIdentity) -> PerDeviceNaturalScrolling)? = nil) throws -> (ScriptedDevices, [String]) {
        let source = ScriptedDevices()
        source.present = [try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")]
        let identity = DeviceIdentity(try Fixtures.device("synaptics-t440"))
        let asks = ProbeCounter()
        let query = try DesktopQuery(probe: { _ in
            let first = asks.next() == 1
            if let perDevice { return .found(DesktopSettings.Answer(false, "desktop test", perDevice: perDevice(first, identity))) }
            let entry = PerDeviceNaturalScrolling.Entry(device: identity, natural: false, driverGlides: first ? Self.why : nil)
            return .found(DesktopSettings.Answer(false, "X server test", perDevice: PerDeviceNaturalScrolling(entries: [entry], source: "X server test")))
        }, watchChanges: { _ in nil }, openServerWatch: { nil }, tellsDriverGlides: tellsDriverGlides)
        let engine = Engine(configuration: configuration)
        var coasting = 0
        var reloaded = false
        // Weak: the engine's report handler holds the logger, which holds this log.
        let log = WatchedLog { [weak engine] line in
            guard let engine, line.hasPrefix(Self.pad) else { return }
            observe(engine)
            if line.hasSuffix("flicks coast") {
                coasting += 1
                if coasting == 2 { raise(SIGTERM) }
            } else if !reloaded {
                // A reload asks again (and logs each device's use again).
                reloaded = true
                raise(SIGHUP)
            }
        }
        let daemon = try Daemon(engine: engine, output: nil, makeOutput: DaemonDeviceTests.Outputs().make,
                                monitor: source, logger: Logger(label: "flickd-test") { _ in log },
                                desktop: query, reloadConfiguration: { afterReload ?? configuration })
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        return (source, log.lines)
    }

    @Test func aPadWhoseDriverGlidesOnlyStopsCoastsUntilItNoLongerDoes() throws {
        var admissions: [DeviceAdmission?] = []
        let (source, lines) = try Self.run(configuration: Configuration()) { admissions.append($0.admission(of: 1)) }
        let said = lines.filter { $0.hasPrefix(Self.pad) }
        #expect(said.first?.hasSuffix("flicks coast") == true, "opened before the first answer")
        #expect(said.dropFirst().first == "\(Self.pad), a touch or a press of its buttons stops a coast (\(Self.why))")
        #expect(said.last?.hasSuffix("flicks coast") == true, "the next answer: the driver no longer glides")
        guard admissions.count >= 3, case .stopOnly? = admissions[1], case .used? = admissions.last else {
            Issue.record("\(admissions)")
            return
        }
        #expect(source.opened == ["/dev/input/event5"], "kept open throughout: its touches stop coasts")
    }

    /// The desktop disabled the pad (sway's `events disabled`, KWin's `Enabled=false`): it
    /// hands the pad's events to no app, but flickd reads the kernel's device, and its flicks
    /// coasted, scrolling what the pad itself could not. Now they start none (its touches still
    /// stop a coast, as a gliding driver's pad's do) until the desktop enables it again.
    @Test func aPadTheDesktopDisabledStartsNoCoastUntilItIsEnabledAgain() throws {
        let why = "sway disables it (events disabled)"
        var admissions: [DeviceAdmission?] = []
        let (source, lines) = try Self.run(configuration: Configuration(), observe: { admissions.append($0.admission(of: 1)) }) { first, pad in
            var perDevice = PerDeviceNaturalScrolling(entries: [.init(device: pad, natural: false)], source: "sway test", unlisted: nil)
            if first { perDevice.disabled = [.init(device: pad, why: why)] }
            return perDevice
        }
        let said = lines.filter { $0.hasPrefix(Self.pad) }
        #expect(said.dropFirst().first == "\(Self.pad), a touch or a press of its buttons stops a coast (\(why))", "\(said)")
        #expect(said.last?.hasSuffix("flicks coast") == true, "enabled again: its flicks coast")
        guard admissions.count >= 3, case .stopOnly? = admissions[1], case .used? = admissions.last else {
            Issue.record("\(admissions)")
            return
        }
        #expect(source.opened == ["/dev/input/event5"])
    }

    /// On sway, output.mode = "wheel" with scroll.natural = "auto" asks the desktop, which says
    /// the pad is disabled: its flicks start no coast (with no touch or button stops, it is
    /// closed). Then scroll.natural = true is set and reloaded: sway is no longer asked, and would
    /// not be heard enabling the pad again. Its flicks coast again at once (it is opened again),
    /// as at a start under that configuration, rather than start none until a restart.
    @Test(arguments: [true, false])
    func aPadTheDesktopDisabledCoastsAgainOnceTheDesktopIsNoLongerAsked(stops: Bool) throws {
        let why = "sway disables it (events disabled)"
        var configuration = Configuration()
        configuration.output.mode = .wheel
        configuration.scroll.natural = .auto
        configuration.stop.touch = stops
        configuration.stop.button = stops
        var reloaded = configuration
        reloaded.scroll.natural = .on
        var admissions: [DeviceAdmission?] = []
        let (source, lines) = try Self.run(configuration: configuration, afterReload: reloaded, tellsDriverGlides: false,
                                           observe: { admissions.append($0.admission(of: 2) ?? $0.admission(of: 1)) }) { _, pad in
            // Whenever asked (once: the reload does not ask), the pad is disabled.
            var perDevice = PerDeviceNaturalScrolling(entries: [.init(device: pad, natural: false)], source: "sway test", unlisted: nil)
            perDevice.disabled = [.init(device: pad, why: why)]
            return perDevice
        }
        let said = lines.filter { $0.hasPrefix(Self.pad) }
        let first = stops ? "a touch or a press of its buttons stops a coast (\(why))"
                          : "not used (\(why), and stop.touch and stop.button are false)"
        #expect(said.dropFirst().first == "\(Self.pad), \(first)", "\(said)")
        #expect(said.last?.hasSuffix("flicks coast") == true, "no longer asked: its flicks coast, \(said)")
        guard case .used? = admissions.last else {
            Issue.record("\(admissions)")
            return
        }
        #expect(source.opened == (stops ? ["/dev/input/event5"] : ["/dev/input/event5", "/dev/input/event5"]))
    }

    /// An explicit `scroll.natural` with the wheel output: the desktop is still asked, as the X
    /// server says which drivers glide (the configuration's advice for synaptics users is this).
    @Test(arguments: [NaturalScrolling.on, .off])
    func anExplicitNaturalScrollingStillAsksWhichDriversGlide(natural: NaturalScrolling) throws {
        var configuration = Configuration()
        configuration.scroll.natural = natural
        configuration.output.mode = .wheel
        let (_, lines) = try Self.run(configuration: configuration)
        let said = lines.filter { $0.hasPrefix(Self.pad) }
        #expect(said.dropFirst().first == "\(Self.pad), a touch or a press of its buttons stops a coast (\(Self.why))", "\(lines)")
    }

    @Test func withoutTouchOrButtonStopsThePadIsClosedAndOpenedAgain() throws {
        var configuration = Configuration()
        configuration.stop.touch = false
        configuration.stop.button = false
        let (source, lines) = try Self.run(configuration: configuration)
        let said = lines.filter { $0.hasPrefix(Self.pad) }
        #expect(said.dropFirst().first == "\(Self.pad), not used (\(Self.why), and stop.touch and stop.button are false)", "\(lines)")
        #expect(lines.contains { $0.hasPrefix("/dev/input/event5 (SynPS/2 Synaptics TouchPad): closed") }, "\(lines)")
        // The reload opens it again and closes it again, as the answer in force still says the
        // driver glides; the next answer says it no longer does: opened, and kept.
        #expect(source.opened == ["/dev/input/event5", "/dev/input/event5", "/dev/input/event5"])
        #expect(said.last?.hasSuffix("flicks coast") == true, "\(lines)")
    }

    /// The pad's own button (the T440's clickpad button) still stops coasts when its touches
    /// do not: it stays open.
    @Test func withoutTouchStopsThePadsButtonsKeepItOpen() throws {
        var configuration = Configuration()
        configuration.stop.touch = false
        let (source, lines) = try Self.run(configuration: configuration)
        let said = lines.filter { $0.hasPrefix(Self.pad) }
        #expect(said.dropFirst().first == "\(Self.pad), a press of its buttons stops a coast (\(Self.why))", "\(lines)")
        #expect(source.opened == ["/dev/input/event5"], "kept open throughout: its button stops coasts")
    }
}

/// The synaptics driver drives the virtual touchpad too, and the pad's own glide is off:
/// flickd glides through a pad that driver scrolls by next to nothing, and says so once.
@Suite("Daemon and the synaptics driver on its touchpad", .serialized)
struct DaemonSynapticsOutputTests {
    @Test func aVirtualTouchpadTheSynapticsDriverDrivesIsWarnedOfOnce() throws {
        let source = ScriptedDevices()
        source.present = [try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")]
        let identity = DeviceIdentity(try Fixtures.device("synaptics-t440"))
        let query = try DesktopQuery(probe: { _ in
            let pad = PerDeviceNaturalScrolling.Entry(device: identity, natural: false, xDriver: XInputDevices.synaptics)
            let virtual = PerDeviceNaturalScrolling.Entry(device: VirtualTouchpad.identity, natural: true, xDriver: XInputDevices.synaptics)
            return .found(DesktopSettings.Answer(false, "X server test",
                                                 perDevice: PerDeviceNaturalScrolling(entries: [pad, virtual], source: "X server test")))
        }, watchChanges: { _ in nil }, openServerWatch: { nil })
        var answers = 0
        let log = WatchedLog { line in
            guard line.hasPrefix("natural scrolling: the desktop keeps it per device") else { return }
            answers += 1
            // A reload asks again: the warning is not repeated.
            raise(answers == 1 ? SIGHUP : SIGTERM)
        }
        let daemon = try Daemon(engine: Engine(), output: nil, makeOutput: DaemonDeviceTests.Outputs().make,
                                monitor: source, logger: Logger(label: "flickd-test") { _ in log },
                                desktop: query, reloadConfiguration: { Configuration() })
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        let warnings = log.lines.filter { $0.hasPrefix("the synaptics X driver drives \(VirtualTouchpad.name)") }
        #expect(warnings.count == 1, "\(log.lines)")
        #expect(warnings.first?.contains("set output.mode = \"wheel\"") == true)
    }
}
