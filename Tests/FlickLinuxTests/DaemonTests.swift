import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// A wheel that records instead of writing to uinput.
final class RecordingWheel: WheelSink {
    var frames: [WheelOutput] = []
    var closed = false
    let syspath: String? = nil
    /// Runs after each frame recorded, with the count so far.
    var afterWrite: ((Int) -> Void)?
    /// While set, each write fails (EIO) and is counted in `failedWrites`, unrecorded.
    var failing = false
    private(set) var failedWrites = 0

    func write(_ output: WheelOutput) throws(SystemError) {
        guard !output.isEmpty else { return }
        if closed { throw SystemError(errno: EBADF, call: "write", path: "/dev/uinput") }
        if failing {
            failedWrites += 1
            throw SystemError(errno: EIO, call: "write", path: "/dev/uinput")
        }
        frames.append(output)
        afterWrite?(frames.count)
    }

    func close() { closed = true }
}

/// A virtual touchpad that records instead of writing to uinput.
final class RecordingTouchpad: TouchSink {
    var frames: [TouchFrame] = []
    var closed = false
    let syspath: String?
    let devnode: String?

    init(syspath: String? = nil, devnode: String? = nil) {
        self.syspath = syspath
        self.devnode = devnode
    }

    /// How many of the next lift writes fail (EIO), as a kernel that does not take them.
    var failingLifts = 0
    /// Every lift written, taken or not.
    var liftsTried = 0
    /// Runs after each frame recorded.
    var afterWrite: ((TouchFrame) -> Void)?

    /// How many of the next landings fail (EIO).
    var failingLandings = 0
    /// Motion frames are taken and write nothing (as after a landing not taken); counted here.
    var emptyMoves = false
    var emptyMovesWritten = 0
    /// Runs after each motion frame that wrote nothing.
    var afterEmptyMove: (() -> Void)?

    /// Events the last write took: 0 for an empty motion frame.
    private var lastWriteCount = 0

    func writeEvents(of frame: TouchFrame) throws(SystemError) -> Int {
        try write(frame)
        return lastWriteCount
    }

    func write(_ frame: TouchFrame) throws(SystemError) {
        if closed { throw SystemError(errno: EBADF, call: "write", path: "/dev/uinput") }
        lastWriteCount = 0
        if frame.action == .move, emptyMoves {
            emptyMovesWritten += 1
            afterEmptyMove?()
            return
        }
        if frame.action == .land, failingLandings > 0 {
            failingLandings -= 1
            throw SystemError(errno: EIO, call: "write", path: "/dev/uinput")
        }
        lastWriteCount = 1
        if frame.action == .lift {
            liftsTried += 1
            if failingLifts > 0 {
                failingLifts -= 1
                throw SystemError(errno: EIO, call: "write", path: "/dev/uinput")
            }
        }
        frames.append(frame)
        afterWrite?(frame)
    }

    func close() { closed = true }
}

/// The daemon's loop without devices (this host has no /dev/input): signals and reloads.
///
/// Signals are sent with raise(), which targets the test's own thread; the daemon has blocked
/// them there, so they wait in its signalfd and `run()` finds them at once.
@Suite("Daemon", .serialized)
struct DaemonTests {
    let quiet = Logger(label: "flickd-test") { _ in NoOpLogHandler() }

    @Test("SIGHUP reloads the configuration, SIGTERM stops the loop and destroys the wheel")
    func reloadThenTerminate() throws {
        let engine = Engine()
        let wheel = RecordingWheel()
        var reloads = 0
        var faster = Configuration()
        faster.scroll.speed = 48
        let daemon = try Daemon(engine: engine, wheel: wheel, monitor: nil, logger: quiet) {
            reloads += 1
            return faster
        }
        raise(SIGHUP)
        raise(SIGTERM)
        try daemon.run()
        #expect(reloads == 1)
        #expect(engine.configuration.scroll.speed == 48)
        #expect(wheel.closed)
        #expect(wheel.frames.isEmpty)
    }

    @Test("a reload to settings whose glides outrun the virtual touchpad warns, once per reload")
    func aReloadWarnsOfGlidesLongerThanTheVirtualTouchpad() throws {
        var long = Configuration()
        long.output.mode = .touchpad
        long.coast.decelerationRate = 0.999
        let warning = try #require(long.touchpadGlideWarnings().first, "0.999 at the default max_speed outruns the pad")
        let log = CollectedLog()
        let engine = Engine()
        engine.output = .touchpad
        let daemon = try Daemon(engine: engine, output: .touchpad(RecordingTouchpad()), makeOutput: nil, monitor: nil,
                                logger: log.logger) { long }
        raise(SIGHUP)
        raise(SIGTERM)
        try daemon.run()
        #expect(log.lines.filter { $0 == "warning: \(warning)" }.count == 1, "\(log.lines)")
    }

    @Test("a reload that changes output.mode replaces the device; the old one is destroyed")
    func reloadSwapsTheOutput() throws {
        let engine = Engine()
        let touchpad = RecordingTouchpad()
        var made: [OutputMode] = []
        let wheel = RecordingWheel()
        var wheelMode = Configuration()
        wheelMode.output.mode = .wheel
        let daemon = try Daemon(engine: engine, output: .touchpad(touchpad),
                                makeOutput: { mode in
                                    made.append(mode)
                                    return .wheel(wheel)
                                },
                                monitor: nil, logger: quiet) { wheelMode }
        #expect(engine.output == .touchpad, "the engine computes what the device it was given takes")
        raise(SIGHUP)
        raise(SIGTERM)
        try daemon.run()
        #expect(made == [.wheel])
        #expect(touchpad.closed, "the touchpad was destroyed")
        #expect(engine.output == .wheel)
        #expect(wheel.closed, "and the wheel at shutdown")
    }

    @Test("with no touchpad or touchscreen no output device is created; a reload that changes output.mode only changes the mode")
    func noDeviceNoOutput() throws {
        let engine = Engine()
        var made: [OutputMode] = []
        var wheelMode = Configuration()
        wheelMode.output.mode = .wheel
        let daemon = try Daemon(engine: engine, output: nil,
                                makeOutput: { mode in
                                    made.append(mode)
                                    return .wheel(RecordingWheel())
                                },
                                monitor: nil, logger: quiet) { wheelMode }
        #expect(engine.output == .touchpad, "the engine takes the configuration's mode (the default)")
        raise(SIGHUP)
        raise(SIGTERM)
        try daemon.run()
        #expect(made.isEmpty, "no device was created: nothing could coast")
        #expect(engine.output == .wheel, "the reload's mode is the one a device will be created for")
    }

    @Test("a configuration that fails to load keeps the running one")
    func failedReloadKeepsConfiguration() throws {
        struct BadFile: Error {}
        var slow = Configuration()
        slow.scroll.speed = 12
        let engine = Engine(configuration: slow)
        let log = CollectedLog()
        var loads = 0
        let daemon = try Daemon(engine: engine, wheel: RecordingWheel(), monitor: nil, logger: log.logger) {
            loads += 1
            throw BadFile()
        }
        raise(SIGHUP)
        raise(SIGINT)
        try daemon.run()
        #expect(loads == 1, "SIGHUP loads the configuration once")
        #expect(log.lines.contains { $0.hasPrefix("error: SIGHUP: keeping the running configuration: ") }, "\(log.lines)")
        #expect(engine.configuration.scroll.speed == 12)
    }

    @Test("buttons are told from keys by code range; codes are not kept")
    func buttonOrKey() {
        #expect(Daemon.isButton(EventCode.buttonLeft))
        #expect(Daemon.isButton(EventCode.buttonMiddle))
        #expect(Daemon.isButton(0x100))  // BTN_0
        #expect(Daemon.isButton(0x220))  // BTN_DPAD_UP
        #expect(Daemon.isButton(0x2c0))  // BTN_TRIGGER_HAPPY1
        #expect(!Daemon.isButton(30))    // KEY_A
        #expect(!Daemon.isButton(29))    // KEY_LEFTCTRL
        #expect(!Daemon.isButton(0x160)) // KEY_OK
    }
}
