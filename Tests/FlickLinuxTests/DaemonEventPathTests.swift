import FlickCore
import FlickTestSupport
import Glibc
import Testing
@testable import FlickLinux

/// The daemon's event path, through its real loop (epoll, timerfd, signalfd) with scripted
/// devices: a flick read from a touchpad coasts out of the wheel output, the coast's timer
/// writes its ticks, and a key or button press stops it, from devices read only while a coast
/// runs. The readings are stamped with the monotonic clock when they are fed, just before the
/// loop reads them, so that the coast's timer, which runs on that clock, finds them current.
@Suite("Daemon event path", .serialized)
struct DaemonEventPathTests {
    static let pad = "/dev/input/event5"
    static let keyboard = "/dev/input/event2"
    static let mouse = "/dev/input/event6"

    /// The wheel output, made at start (a touchpad is present), is `outputs.wheels[0]`.
    /// Two fingers move 20 mm down over 96 ms on `description` and lift, the lift stamped `release`.
    static func flick(on description: DeviceDescription, releasedAt release: Instant) -> [EvdevDevice.Reading] {
        flick(on: description, releasedAt: release, millimetres: 20)
    }

    /// Two fingers move `millimetres` down over 96 ms on `description` and lift, the lift
    /// stamped `release`.
    static func flick(on description: DeviceDescription, releasedAt release: Instant, millimetres: Double) -> [EvdevDevice.Reading] {
        var writer = FingerFrameWriter(description: description)
        var readings: [EvdevDevice.Reading] = []
        let frames = 12
        for step in 0...frames {
            let time = release - .milliseconds(Int64(8 * (frames + 1 - step)))
            let y = 10 + millimetres * Double(step) / Double(frames)
            writer.frame([Vector(x: 20, y: y), Vector(x: 40, y: y)]) { readings.append(.event($0, at: time)) }
        }
        writer.frame([nil, nil]) { readings.append(.event($0, at: release)) }
        return readings
    }

    /// A key (or button) `code` pressed at `time`: the press and its frame's end.
    static func press(_ code: UInt16, at time: Instant) -> [EvdevDevice.Reading] {
        [.event(InputEvent(type: EventCode.key, code: code, value: 1), at: time),
         .event(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0), at: time)]
    }

    /// A source with the T440 pad, a keyboard and a mouse present; `mouseHasKeys`: the mouse's
    /// node is a keyboard too (Logitech's K400).
    static func source(mouseHasKeys: Bool = false) throws -> ScriptedDevices {
        let source = ScriptedDevices()
        source.present = [
            try source.node(2, .keyboard, name: "AT Translated Set 2 keyboard"),
            try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440"),
            try source.node(6, .mouse, name: mouseHasKeys ? "Logitech K400" : "Logitech USB Optical Mouse",
                            udev: mouseHasKeys ? ["ID_INPUT_KEYBOARD": "1"] : [:]),
        ]
        return source
    }

    /// A stall limit no descheduling reaches, for the daemons these tests run on the real clock.
    static let noStall = Duration.seconds(600)

    static func wheelConfiguration(stopKey: Bool = true) -> Configuration {
        var configuration = Configuration()
        configuration.output.mode = .wheel
        configuration.stop.key = stopKey
        return configuration
    }

    /// Ends a run by raising SIGTERM once, whichever asks first: the test's own moment, or the
    /// end of the coast (a coast that ended some other way, a stall under load, must not leave
    /// the loop waiting for that moment).
    final class RunEnd {
        private var raised = false
        init(log: CollectedLog) {
            log.onLine = { [unowned self] line in if line.hasPrefix("debug: coast ended at ") { self.now() } }
        }
        func now() {
            guard !raised else { return }
            raised = true
            raise(SIGTERM)
        }
    }

    /// The reasons coasts ended, from the daemon's debug log.
    static func coastEnds(_ log: CollectedLog) -> [String] {
        log.lines.compactMap { line in
            guard line.hasPrefix("debug: coast ended at "), let colon = line.range(of: ": ", options: .backwards) else { return nil }
            return String(line[colon.upperBound...].prefix { $0 != "," })
        }
    }

    /// Runs a daemon with the wheel output and `configuration` on `source`: the pad's flick is
    /// read at the loop's first wake-up; once the wheel has been written `frames` times,
    /// `action` runs (with what ends the run). The run ends at the coast's end at the latest.
    /// `beforeFlick` runs first, in the same wake-up (with the devices open).
    static func runFlick(_ source: ScriptedDevices, configuration: Configuration = wheelConfiguration(),
                         setUp: (Daemon) -> Void = { _ in },
                         beforeFlick: (() -> Void)? = nil,
                         flick: @escaping (DeviceDescription, Instant) -> [EvdevDevice.Reading] = DaemonEventPathTests.flick(on:releasedAt:),
                         atFrame frames: Int, _ action: @escaping (RunEnd, DaemonDeviceTests.Outputs) -> Void)
        throws -> (outputs: DaemonDeviceTests.Outputs, log: CollectedLog)
    {
        let outputs = DaemonDeviceTests.Outputs()
        let log = CollectedLog()
        let end = RunEnd(log: log)
        source.play([{
            beforeFlick?()
            let pad = source.devices[Self.pad]!
            pad.feed(flick(pad.description, Syscall.monotonicNow()))
            outputs.wheels[0].afterWrite = { count in if count == frames { action(end, outputs) } }
            return []
        }])
        // The loop runs on the real clock: a test descheduled under load is no suspend, and its
        // coast must not end as a stall (Engine.stallLimit, 500 ms) before the test's moment.
        let daemon = try DaemonDeviceTests.daemon(source, outputs, log: log, configuration: configuration,
                                                  stallLimit: Self.noStall)
        setUp(daemon)
        // A flick that never coasted (a regression) writes and logs nothing: the watchdog ends
        // the run, and the test's expectations fail, instead of the loop waiting for ever.
        let watchdog = DaemonWatchdog(seconds: 10)
        defer {
            // The hooks hold the outputs, the source and the log: no cycle outlives the run.
            for wheel in outputs.wheels { wheel.afterWrite = nil }
            log.onLine = nil
        }
        try daemon.run()
        watchdog.cancel()
        return (outputs, log)
    }

    /// Writes to the virtual wheel fail from the coast's fourth frame on: the coast runs out, the
    /// error is logged once, and the end's debug line counts only the units written.
    /// A read that stopped at its cap (`EvdevDevice.DrainEnd.more`) leaves the rest in
    /// libevdev's queue, which epoll does not report: the loop reads the device again itself,
    /// and the flick, handed over 5 events a read, coasts.
    @Test("a read cut at the cap is taken up again")
    func aReadCutAtTheCapIsTakenUpAgain() throws {
        let source = try Self.source()
        var readings = 0
        let (outputs, _) = try Self.runFlick(source, beforeFlick: { source.devices[Self.pad]!.readLimit = 5 },
                                             flick: { description, time in
                                                 let flick = Self.flick(on: description, releasedAt: time)
                                                 readings = flick.count
                                                 return flick
                                             }, atFrame: 2) { end, _ in end.now() }
        #expect(readings > 10)
        #expect(source.devices[Self.pad]!.reads == (readings + 4) / 5, "5 readings a read, all read")
        #expect(outputs.wheels.first?.frames.count ?? 0 >= 2, "the flick coasted")
    }

    @Test("a coast whose wheel writes fail counts only what was written")
    func failedWritesAreNotCounted() throws {
        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, atFrame: 3) { _, outputs in outputs.wheels[0].failing = true }
        let wheel = try #require(outputs.wheels.first)
        #expect(wheel.frames.count == 3 && wheel.failedWrites > 0, "\(wheel.frames.count) written, \(wheel.failedWrites) failed")
        let written = wheel.frames.reduce(0) { $0 + Int($1.verticalHiRes) }
        #expect(log.lines.filter { $0.hasPrefix("error: cannot write to the virtual wheel") }.count == 1, "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("debug: coast ended at ") && $0.hasSuffix(", \(written) v120, 0 h120") },
                "\(written) units written: \(log.lines.filter { $0.contains("coast ended") })")
    }

    /// The pad was opened while the kernel's current MT slot was 1 (`SlotAtOpenStory`): the
    /// daemon gives the engine libevdev's slot at open, and the flick that follows coasts.
    @Test("a pad opened on MT slot 1 reads its next landing there, and its flick coasts")
    func slotAtOpen() throws {
        let source = try Self.source()
        source.currentSlots[Self.pad] = SlotAtOpenStory.slotAtOpen
        let (outputs, log) = try Self.runFlick(source, flick: { description, release in
            let frames = SlotAtOpenStory.framesAfterOpen(description: description)
            let last = frames.last?.milliseconds ?? 0
            return frames.flatMap { frame in
                frame.events.map { EvdevDevice.Reading.event($0, at: release - .milliseconds(last - frame.milliseconds)) }
            }
        }, atFrame: 3) { end, _ in end.now() }
        #expect(outputs.wheels.first?.frames.count ?? 0 >= 3, "\(log.lines)")
        #expect(log.lines.contains { $0.contains(": coast at ") }, "\(log.lines)")
    }

    /// A palm rested in slot 2 of a five-slot pad and lifted before flickd opened it; it lands
    /// again there while two fingers flick, and the kernel sends no ABS_MT_TOOL_TYPE for it
    /// (unchanged). The daemon hands the engine what each slot held at open (`InputDevice.slots`),
    /// so the palm is a palm and the two fingers coast; without it the palm was a third finger
    /// and nothing coasted (`SlotAtOpenTests.palmToolTypeFromOpen` for the engine alone).
    @Test("the slots' state at open reaches the engine: a palm landing again in its slot is a palm, and the flick coasts")
    func slotsAtOpen() throws {
        let source = ScriptedDevices()
        source.present = [try source.node(5, .touchpad, name: "Synaptics TM3075-002", fixture: "synaptics-rmi4")]
        let description = source.descriptions[Self.pad]!
        let geometry = DeviceGeometry(description: description, kind: .touchpad)
        func units(_ x: Double, _ y: Double) -> (Int32, Int32) {
            (Int32((x * geometry.x.unitsPerMillimetre).rounded()), Int32((y * geometry.y.unitsPerMillimetre).rounded()))
        }
        let palm = units(80, 45)
        var slots = Array(repeating: SlotAtOpen(trackingID: -1, x: 0, y: 0), count: description.slotCount)
        slots[2] = SlotAtOpen(trackingID: -1, x: palm.0, y: palm.1, toolType: EventCode.mtToolPalm)
        source.slotsAtOpen[Self.pad] = slots
        source.currentSlots[Self.pad] = 2
        let (outputs, log) = try Self.runFlick(source, flick: { _, release in
            func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EventCode.absolute, code: code, value: value) }
            let syn = InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0)
            let a0 = units(30, 10), b0 = units(50, 10)
            var frames: [(Int64, [InputEvent])] = []
            // Two fingers land (slots 0 and 1) with the palm (slot 2: id and position, no tool type).
            frames.append((0, [abs(EventCode.absMTSlot, 0), abs(EventCode.absMTTrackingID, 10), abs(EventCode.absMTPositionX, a0.0), abs(EventCode.absMTPositionY, a0.1),
                               abs(EventCode.absMTSlot, 1), abs(EventCode.absMTTrackingID, 11), abs(EventCode.absMTPositionX, b0.0), abs(EventCode.absMTPositionY, b0.1),
                               abs(EventCode.absMTSlot, 2), abs(EventCode.absMTTrackingID, 12), abs(EventCode.absMTPositionX, palm.0 + 1), syn]))
            for step in 1...12 {
                let y = units(0, 10 + 20 * Double(step) / 12).1
                frames.append((8 * Int64(step), [abs(EventCode.absMTSlot, 0), abs(EventCode.absMTPositionY, y),
                                                 abs(EventCode.absMTSlot, 1), abs(EventCode.absMTPositionY, y), syn]))
            }
            frames.append((104, [abs(EventCode.absMTSlot, 0), abs(EventCode.absMTTrackingID, -1), abs(EventCode.absMTSlot, 1), abs(EventCode.absMTTrackingID, -1),
                                 abs(EventCode.absMTSlot, 2), abs(EventCode.absMTTrackingID, -1), syn]))
            return frames.flatMap { frame in frame.1.map { EvdevDevice.Reading.event($0, at: release - .milliseconds(104 - frame.0)) } }
        }, atFrame: 3) { end, _ in end.now() }
        #expect(outputs.wheels.first?.frames.count ?? 0 >= 3, "\(log.lines)")
        #expect(log.lines.contains { $0.contains(": coast at ") }, "\(log.lines)")
    }

    /// Two fingers pressing `fingers` flick 20 mm down over 96 ms on `description`; from the
    /// fourth frame a third contact rests pressing `third`; it lifts with the two, stamped `release`.
    static func flickWithAThirdContact(on description: DeviceDescription, releasedAt release: Instant,
                                       fingers: Int32, third: Int32) -> [EvdevDevice.Reading] {
        var writer = FingerFrameWriter(description: description)
        var readings: [EvdevDevice.Reading] = []
        let frames = 12
        for step in 0...frames {
            let time = release - .milliseconds(Int64(8 * (frames + 1 - step)))
            let y = 10 + 20 * Double(step) / Double(frames)
            writer.frame([Vector(x: 20, y: y), Vector(x: 40, y: y), step >= 3 ? Vector(x: 70, y: 40) : nil],
                         pressures: [fingers, fingers, third]) { readings.append(.event($0, at: time)) }
        }
        writer.frame([nil, nil, nil]) { readings.append(.event($0, at: release)) }
        return readings
    }

    /// A source with the rmi4 pad (five slots, ABS_MT_PRESSURE 0...255) at `pad`, whose
    /// pressure libinput reads as `touchPressure` says.
    static func pressurePad(_ touchPressure: TouchPressure?) throws -> ScriptedDevices {
        let source = ScriptedDevices()
        source.present = [try source.node(5, .touchpad, name: "Synaptics TM3075-002", fixture: "synaptics-rmi4")]
        if let touchPressure { source.touchPressures[Self.pad] = touchPressure }
        return source
    }

    /// libinput's rule on the rmi4 pad (touches from 30) reaches the engine: a contact resting
    /// at 15 during a two-finger flick is no finger, and the flick coasts. Before the daemon
    /// handed the engine the pad's `touchPressure`, the contact was a third finger: no coast.
    @Test("the pad's pressure rule reaches the engine: a light third contact during a two-finger flick is no finger, and it coasts")
    func aLightThirdContactDuringAFlick() throws {
        let rmi4 = try Fixtures.device("synaptics-rmi4")
        let source = try Self.pressurePad(TouchPressure.libinput(for: rmi4, kind: .touchpad))
        let (outputs, log) = try Self.runFlick(source, flick: { description, release in
            Self.flickWithAThirdContact(on: description, releasedAt: release, fingers: 60, third: 15)
        }, atFrame: 3) { end, _ in end.now() }
        #expect(outputs.wheels.first?.frames.count ?? 0 >= 3, "\(log.lines)")
        #expect(log.lines.contains { $0.contains(": coast at ") }, "\(log.lines)")
    }

    /// The pad's quirk (Elantech's AttrPressureRange=10:8 on the same axis) is what the engine
    /// uses, not the axis's default (30:25, `PressureReading.description`): two fingers
    /// pressing 20 flick and coast.
    @Test("the pad's own pressure quirk reaches the engine: fingers at 20 count where it says touches begin at 10")
    func thePadsQuirkWins() throws {
        let rmi4 = try Fixtures.device("synaptics-rmi4")
        let quirk = TouchPressure.libinput(for: rmi4, kind: .touchpad, pressureRange: (high: 10, low: 8))
        let light = try Self.runFlick(try Self.pressurePad(quirk), flick: { description, release in
            Self.flickWithAThirdContact(on: description, releasedAt: release, fingers: 20, third: 0)
        }, atFrame: 3) { end, _ in end.now() }
        #expect(light.log.lines.contains { $0.contains(": coast at ") }, "\(light.log.lines)")
    }

    @Test("a flick coasts out of the wheel output, its timer ticks, and a key pressed during the coast stops it")
    func aKeyStopsTheCoast() throws {
        let source = try Self.source()
        var framesAtTheKey: Int?
        // Once the coast has ticked a few times, a key: the keyboard, watched since the coast
        // began, is read, and the run ends after it.
        let (outputs, log) = try Self.runFlick(source, atFrame: 5) { end, outputs in
            source.devices[Self.keyboard]!.feed(Self.press(30, at: Syscall.monotonicNow())) {  // KEY_A
                framesAtTheKey = outputs.wheels[0].frames.count
                end.now()
            }
        }
        #expect(outputs.made == [.wheel])
        let frames = outputs.wheels.first?.frames ?? []
        #expect(frames.count >= 5, "the release's output and the timer's ticks")
        #expect(frames.allSatisfy { $0.verticalHiRes <= 0 } && frames.contains { $0.verticalHiRes < 0 },
                "fingers moving down scroll down: \(frames.map(\.verticalHiRes))")
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
        #expect(framesAtTheKey == frames.count, "nothing written after the key")
        #expect(source.devices[Self.keyboard]?.reads == 1)
    }

    /// Runs a daemon with `configuration` (the touchpad output) on `source`: the pad's flick is
    /// read at the loop's first wake-up; `prepare` sets up the virtual touchpad made for it and
    /// `onFrame` runs after each frame it takes. A hook ends the run with SIGTERM; the watchdog
    /// does after 10 s.
    static func runTouchpadFlick(_ source: ScriptedDevices, configuration: Configuration, log: CollectedLog,
                                 reload: @escaping () -> Configuration = { Configuration() },
                                 setUp: (Daemon) -> Void = { _ in },
                                 prepare: @escaping (RecordingTouchpad) -> Void = { _ in },
                                 onFrame: @escaping (TouchFrame, RecordingTouchpad) -> Void) throws -> DaemonDeviceTests.Outputs {
        let outputs = DaemonDeviceTests.Outputs()
        if let error = try runTouchpadFlick(source, configuration: configuration, log: log, outputs: outputs, reload: reload,
                                            setUp: setUp, prepare: prepare, onFrame: onFrame) {
            throw error
        }
        return outputs
    }

    /// The same, into `outputs`; returns the error the loop ended with (nil: it returned).
    static func runTouchpadFlick(_ source: ScriptedDevices, configuration: Configuration, log: CollectedLog,
                                 outputs: DaemonDeviceTests.Outputs,
                                 reload: @escaping () -> Configuration = { Configuration() },
                                 setUp: (Daemon) -> Void = { _ in },
                                 prepare: @escaping (RecordingTouchpad) -> Void = { _ in },
                                 onFrame: @escaping (TouchFrame, RecordingTouchpad) -> Void) throws -> SystemError? {
        source.play([{
            let pad = source.devices[Self.pad]!
            pad.feed(Self.flick(on: pad.description, releasedAt: Syscall.monotonicNow()))
            let virtual = outputs.touchpads[0]
            prepare(virtual)
            virtual.afterWrite = { [unowned virtual] frame in onFrame(frame, virtual) }
            return []
        }])
        // The loop runs on the real clock: a test descheduled under load is no suspend, and its
        // glide must not freeze as a stall (Engine.stallLimit, 500 ms) before the test's moment.
        let daemon = try DaemonDeviceTests.daemon(source, outputs, log: log, configuration: configuration,
                                                  stallLimit: Self.noStall, reload: reload)
        setUp(daemon)
        let watchdog = DaemonWatchdog(seconds: 10)
        defer {
            // The hooks hold the outputs, the source and the log: no cycle outlives the run.
            for pad in outputs.touchpads { pad.afterWrite = nil }
            log.onLine = nil
            watchdog.cancel()
        }
        do { try daemon.run() } catch { return error }
        return nil
    }

    static var touchpadConfiguration: Configuration {
        var configuration = Configuration()
        configuration.output.mode = .touchpad
        return configuration
    }

    /// The waits the test below measures its retries with, pinned to the values Daemon.swift
    /// documents at `liftRetryFirst`: 100 ms first, doubling (200 ms, ...) up to 5 s.
    @Test("a lift the kernel did not take is tried again after 100 ms, then twice as long each time, at most 5 s")
    func liftRetryWaits() {
        #expect(Daemon.liftRetryFirst == .milliseconds(100))
        #expect(Daemon.liftRetryLongest == .seconds(5))
    }

    @Test("a landing the kernel did not take, then motion that writes nothing: the failure is said once, not again at the lift")
    func aWriteOfNothingIsNoRecovery() throws {
        let source = try Self.source()
        let log = CollectedLog()
        var errors = 0
        log.onLine = { line in if line.hasPrefix("error: cannot write to the virtual touchpad") { errors += 1 } }
        var lifted = false
        let outputs = try Self.runTouchpadFlick(source, configuration: Self.touchpadConfiguration, log: log, prepare: { virtual in
            virtual.failingLandings = 1
            virtual.emptyMoves = true
            virtual.failingLifts = 1
            virtual.afterEmptyMove = { [unowned virtual] in
                // A key once the fingers move: they freeze, rest and lift (the lift fails once).
                if virtual.emptyMovesWritten == 3 { source.devices[Self.keyboard]!.feed(Self.press(30, at: Syscall.monotonicNow())) }
            }
        }) { frame, _ in
            if frame.action == .lift, !lifted {
                lifted = true
                raise(SIGTERM)
            }
        }
        let virtual = try #require(outputs.touchpads.first)
        defer { virtual.afterEmptyMove = nil }
        #expect(virtual.emptyMovesWritten >= 3, "\(log.lines)")
        #expect(virtual.liftsTried >= 2, "the lift failed and was written again: \(log.lines)")
        #expect(errors == 1, "the failing device is said once: \(log.lines)")
    }

    @Test("a lift of the virtual fingers the kernel did not take is written again, later each time, until taken")
    func aFailedLiftIsWrittenAgain() throws {
        let source = try Self.source()
        let log = CollectedLog()
        var liftTaken: Instant?
        var failedAt: [Instant] = []
        log.onLine = { line in if line.hasPrefix("error: cannot write to the virtual touchpad") { failedAt.append(Syscall.monotonicNow()) } }
        let outputs = try Self.runTouchpadFlick(source, configuration: Self.touchpadConfiguration, log: log,
                                                prepare: { $0.failingLifts = 2 }) { frame, virtual in
            if virtual.frames.count == 3 {
                // A key once the fingers move (the keyboard is read from the coast's first
                // wake-up on): they freeze, rest and lift.
                source.devices[Self.keyboard]!.feed(Self.press(30, at: Syscall.monotonicNow()))
            } else if frame.action == .lift, liftTaken == nil {
                liftTaken = Syscall.monotonicNow()
                raise(SIGTERM)
            }
        }
        let virtual = try #require(outputs.touchpads.first)
        #expect(virtual.frames.first?.action == .land && virtual.frames.last?.action == .lift, "\(virtual.frames.map(\.action))")
        #expect(virtual.liftsTried == 3, "the lift, then twice again: once failing, once taken")
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
        #expect(failedAt.count == 1, "the failure is said once: \(log.lines)")
        if let failed = failedAt.first, let taken = liftTaken {
            // 100 ms, then 200 ms: taken no sooner than 300 ms after the failure.
            #expect(taken - failed >= Daemon.liftRetryFirst * 3, "\(taken - failed)")
        }
        #expect(log.lines.contains { $0.contains("lift, written again, was taken") }, "\(log.lines)")
    }

    @Test("a reload to the wheel output mid-glide lifts the virtual fingers, at rest, before the touchpad is destroyed")
    func aReloadToTheWheelLetsTheFingersLiftFirst() throws {
        let source = try Self.source()
        let log = CollectedLog()
        var wheel = Self.touchpadConfiguration
        wheel.output.mode = .wheel
        var closedAfter: [TouchFrame.Action]?
        var lastMove: Instant?
        var lifted: Instant?
        var touchpads: [RecordingTouchpad] = []
        log.onLine = { line in
            if line.hasPrefix("info: output: flickd virtual wheel") {
                closedAfter = touchpads.first.map { $0.closed ? $0.frames.map(\.action) : [] }
                raise(SIGTERM)
            }
        }
        let outputs = try Self.runTouchpadFlick(source, configuration: Self.touchpadConfiguration, log: log, reload: { wheel },
                                                prepare: { touchpads.append($0) }) { frame, virtual in
            if frame.action == .move { lastMove = Syscall.monotonicNow() }
            if frame.action == .lift { lifted = Syscall.monotonicNow() }
            if virtual.frames.count == 3 { raise(SIGHUP) }  // mid-glide
        }
        touchpads.removeAll()
        #expect(outputs.made == [.touchpad, .wheel], "\(log.lines)")
        let actions = try #require(closedAfter, "the wheel was never made: \(log.lines)")
        #expect(actions.first == .land && actions.last == .lift && actions.filter { $0 == .lift }.count == 1,
                "the touchpad destroyed after its fingers lifted: \(actions)")
        let moved = try #require(lastMove, "the fingers moved before the switch"), lift = try #require(lifted, "the fingers lifted")
        #expect(lift - moved >= VirtualFingers.restBeforeLift, "at rest before the lift: \(lift - moved)")
    }

    @Test("a mouse button pressed during a coast stops it")
    func aButtonStopsTheCoast() throws {
        let source = try Self.source()
        let (_, log) = try Self.runFlick(source, atFrame: 3) { end, _ in
            source.devices[Self.mouse]!.feed(Self.press(0x110, at: Syscall.monotonicNow())) { end.now() }  // BTN_LEFT
        }
        #expect(Self.coastEnds(log) == ["button"], "\(log.lines)")
    }

    /// A key `code` pressed before the flick, and released again when `released`: read by the
    /// daemon only once a coast would start.
    static func keyBeforeTheFlick(_ source: ScriptedDevices, _ code: UInt16, released: Bool = false) -> () -> Void {
        {
            let before = Syscall.monotonicNow() - .milliseconds(500)
            var readings = Self.press(code, at: before)
            if released {
                readings += [.event(InputEvent(type: EventCode.key, code: code, value: 0), at: before + .milliseconds(100)),
                             .event(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0),
                                    at: before + .milliseconds(100))]
            }
            source.devices[Self.keyboard]!.feed(readings)
        }
    }

    @Test("a modifier held since before the flick (Ctrl + scroll zooms) stops the coast at the release, before its first wheel event",
          arguments: [UInt16(29), 97, 42, 54, 56, 100, 125, 126])
    func aModifierHeldAtTheReleaseStopsTheCoast(modifier: UInt16) throws {
        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, beforeFlick: Self.keyBeforeTheFlick(source, modifier), atFrame: 1) { end, _ in
            end.now()
        }
        #expect(outputs.made == [.wheel])
        #expect(outputs.wheels.first?.frames.isEmpty == true, "nothing written: \(outputs.wheels.first?.frames.map(\.verticalHiRes) ?? [])")
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("debug: coast ended at ") && $0.hasSuffix(": key, 0 v120, 0 h120") },
                "the log counts no unit written: \(log.lines)")
    }

    /// A short coast (coast.deceleration_rate = 0.9, a release at about 80 mm/s) runs out in its
    /// release's own event, its whole output written with it: the coast is over before the
    /// modifier is looked up. Its output was written, a zoom step under Ctrl, when the daemon
    /// asked whether a coast was running rather than whether the release started one.
    @Test("a modifier held at a release whose short coast ends in the release itself: nothing written")
    func aModifierHeldAtTheReleaseOfAShortCoast() throws {
        var configuration = Self.wheelConfiguration()
        configuration.coast.decelerationRate = 0.9
        let slow: (DeviceDescription, Instant) -> [EvdevDevice.Reading] = { Self.flick(on: $0, releasedAt: $1, millimetres: 8) }
        // The flick alone: its coast starts and ends at the release, its output written then.
        let free = try Self.source()
        let (alone, aloneLog) = try Self.runFlick(free, configuration: configuration, flick: slow, atFrame: 1) { _, _ in }
        let started = aloneLog.lines.first { $0.contains(": coast at ") }.flatMap { $0.split(separator: " ").dropFirst(5).first }
        let ended = aloneLog.lines.first { $0.hasPrefix("debug: coast ended at ") }.flatMap { $0.split(separator: " ").dropFirst(4).first }
        #expect(started != nil && started == ended, "the coast ends at its release: \(aloneLog.lines)")
        #expect(alone.wheels.first?.frames.count == 1 && alone.wheels.first?.frames.first?.verticalHiRes != 0,
                "written with the release: \(alone.wheels.first?.frames.map(\.verticalHiRes) ?? [])")

        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, configuration: configuration, beforeFlick: Self.keyBeforeTheFlick(source, 29),
                                               flick: slow, atFrame: 1) { end, _ in end.now() }
        #expect(log.lines.contains { $0.contains(": coast at ") }, "a coast started: \(log.lines)")
        #expect(outputs.wheels.first?.frames.isEmpty == true, "nothing written: \(outputs.wheels.first?.frames.map(\.verticalHiRes) ?? [])")
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("debug: coast ended at ") && $0.hasSuffix(": key, 0 v120, 0 h120") },
                "the log counts no unit written: \(log.lines)")
    }

    /// Two pads: the T440's coast runs; a second pad's fingers, down since before it began, flick
    /// slowly with Ctrl held on it and lift. That release replaces the running coast and starts
    /// a short one (coast.deceleration_rate = 0.9 on that pad) that ends in the release itself.
    /// Both ends come in one call: the T440's (`replaced`, its units all written) was the one
    /// held, the second pad's was logged at once (`finished`, its unwritten units counted), and
    /// then the T440's end was relabelled `key` with the second pad's output taken from its count.
    @Test("a modifier held at a release on a second pad whose short coast replaced another and ended in the release: each end is its own")
    func aModifierAtAShortCoastThatReplacedAnother() throws {
        let second = "/dev/input/event7"
        var configuration = Self.wheelConfiguration()
        var short = configuration
        short.coast.decelerationRate = 0.9
        configuration.devices = [DeviceRule(name: "Second Pad", configuration: short)]
        let source = try Self.source()
        source.present.append(try source.node(7, .touchpad, name: "Second Pad", fixture: "synaptics-t440"))
        source.descriptions[second]?.name = "Second Pad"
        var writer: FingerFrameWriter?
        var firstRelease: Instant?
        let (outputs, log) = try Self.runFlick(source, configuration: configuration, beforeFlick: {
            // Two fingers rest on the second pad from 200 ms before the T440's flick ends.
            let pad = source.devices[second]!
            var fingers = FingerFrameWriter(description: pad.description)
            var readings: [EvdevDevice.Reading] = []
            let now = Syscall.monotonicNow()
            for step in 0..<3 {
                fingers.frame([Vector(x: 20, y: 10), Vector(x: 40, y: 10)]) { readings.append(.event($0, at: now - .milliseconds(Int64(200 - 8 * step)))) }
            }
            pad.feed(readings)
            writer = fingers
        }, flick: { description, release in
            firstRelease = release
            return Self.flick(on: description, releasedAt: release)
        }, atFrame: 3) { _, _ in
            // Ctrl down on the second pad's own node; its fingers move at about 60 mm/s
            // since the T440's release, and lift now.
            let pad = source.devices[second]!
            pad.keysDown = [29]
            let release = Syscall.monotonicNow()
            let start = firstRelease!
            let frames = 12
            let step = (release - start).microseconds / Int64(frames + 1)
            let millimetres = 6 * Double((release - start).microseconds) / 96_000
            var readings: [EvdevDevice.Reading] = []
            for index in 1...frames {
                let y = 10 + millimetres * Double(index) / Double(frames)
                writer!.frame([Vector(x: 20, y: y), Vector(x: 40, y: y)]) { readings.append(.event($0, at: start + Duration(microseconds: step * Int64(index)))) }
            }
            writer!.frame([nil, nil]) { readings.append(.event($0, at: release)) }
            pad.feed(readings)
        }
        #expect(log.lines.filter { $0.contains(": coast at ") }.count == 2, "two coasts started: \(log.lines)")
        #expect(Self.coastEnds(log) == ["replaced", "key"], "the T440's replaced, then the second pad's: \(log.lines)")
        let written = outputs.wheels.first?.frames.reduce(Int64(0)) { $0 + Int64($1.verticalHiRes) } ?? 0
        let ends = log.lines.filter { $0.hasPrefix("debug: coast ended at ") }
        #expect(ends.first?.contains(": replaced, \(written) v120, 0 h120") ?? false,
                "the T440's coast counts what was written (\(written)): \(ends)")
        #expect(ends.last?.hasSuffix(": key, 0 v120, 0 h120") ?? false, "the second pad's wrote nothing: \(ends)")
    }

    @Test("with the touchpad output, a modifier held at the release: the virtual fingers land and lift without moving")
    func aModifierHeldAtTheReleaseMovesNoVirtualFinger() throws {
        let source = try Self.source()
        let log = CollectedLog()
        let outputs = try Self.runTouchpadFlick(source, configuration: Self.touchpadConfiguration, log: log,
                                                prepare: { _ in Self.keyBeforeTheFlick(source, 29)() }) { frame, _ in
            if frame.action == .lift { raise(SIGTERM) }
        }
        let actions = outputs.touchpads.first?.frames.map(\.action) ?? []
        #expect(actions.first == .land && actions.last == .lift && !actions.contains(.move), "\(actions)")
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
    }

    @Test("a modifier pressed and let go before the flick, or another key held, leaves the coast alone",
          arguments: [(UInt16(29), true), (UInt16(30), false)])
    func otherKeysBeforeTheFlickLeaveTheCoast(key: UInt16, released: Bool) throws {
        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, beforeFlick: Self.keyBeforeTheFlick(source, key, released: released),
                                               atFrame: 3) { end, _ in end.now() }
        #expect((outputs.wheels.first?.frames.count ?? 0) >= 3, "the coast went on: \(log.lines)")
        #expect(!Self.coastEnds(log).contains("key"), "\(log.lines)")
    }

    /// A keyboard and touchpad on one node (a combo device udev lists as a touchpad): a key
    /// press on the pad's own node stops the coast, as one on a keyboard does.
    @Test("a key pressed on the touch device's own node stops the coast")
    func aKeyOnThePadsOwnNodeStopsTheCoast() throws {
        let source = try Self.source()
        var framesAtTheKey: Int?
        let (outputs, log) = try Self.runFlick(source, atFrame: 3) { end, outputs in
            source.devices[Self.pad]!.feed(Self.press(30, at: Syscall.monotonicNow())) {  // KEY_A
                framesAtTheKey = outputs.wheels[0].frames.count
                end.now()
            }
        }
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
        #expect(framesAtTheKey == outputs.wheels.first?.frames.count, "nothing written after the key")
    }

    /// The same combo device, Ctrl held on it since before the flick: no coast, as with Ctrl
    /// held on a keyboard.
    @Test("a modifier held on the touch device's own node at the release: no coast")
    func aModifierOnThePadsOwnNodeStopsTheCoast() throws {
        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, beforeFlick: { source.devices[Self.pad]!.keysDown = [29] }, atFrame: 1) { end, _ in
            end.now()
        }
        #expect(outputs.wheels.first?.frames.isEmpty == true, "\(outputs.wheels.first?.frames.map(\.verticalHiRes) ?? [])")
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
    }

    /// A keyboard and pointer on one node that udev lists as a mouse (Logitech's K400), Ctrl
    /// held on it since before the flick: no coast (Ctrl + scroll would zoom), as with Ctrl held
    /// on a keyboard.
    @Test("a modifier held on a mouse node with keyboard keys at the release: no coast")
    func aModifierOnAMouseWithKeysStopsTheCoast() throws {
        let source = try Self.source(mouseHasKeys: true)
        let (outputs, log) = try Self.runFlick(source, beforeFlick: { source.devices[Self.mouse]!.keysDown = [29] }, atFrame: 1) { end, _ in
            end.now()
        }
        #expect(outputs.wheels.first?.frames.isEmpty == true, "\(outputs.wheels.first?.frames.map(\.verticalHiRes) ?? [])")
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
    }

    /// The same node with stop.button = false: still opened, and a key pressed on it during the
    /// coast stops it, as one on a keyboard does.
    @Test("with stop.button = false, a key pressed on a mouse node with keyboard keys stops the coast")
    func aKeyOnAMouseWithKeysStopsTheCoast() throws {
        let source = try Self.source(mouseHasKeys: true)
        var configuration = Self.wheelConfiguration()
        configuration.stop.button = false
        let (_, log) = try Self.runFlick(source, configuration: configuration, atFrame: 3) { end, _ in
            source.devices[Self.mouse]?.feed(Self.press(30, at: Syscall.monotonicNow())) { end.now() }  // KEY_A
        }
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
    }

    @Test("with stop.key = false a keyboard is neither opened nor read, and the coast goes on past a key")
    func keysIgnoredWhenTheyDoNotStop() throws {
        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, configuration: Self.wheelConfiguration(stopKey: false), atFrame: 2) { end, outputs in
            // A key, readable from the coast's second frame on, if the keyboard was opened at all;
            // the run ends ten frames later.
            source.devices[Self.keyboard]?.feed(Self.press(30, at: Syscall.monotonicNow()))
            outputs.wheels[0].afterWrite = { count in if count == 12 { end.now() } }
        }
        #expect((outputs.wheels.first?.frames.count ?? 0) >= 12, "the coast ticked on")
        #expect(!Self.coastEnds(log).contains("key"), "\(log.lines)")
        #expect(!source.opened.contains(Self.keyboard), "a keyboard that stops nothing is not opened")
        #expect(source.opened.contains(Self.mouse), "a mouse still stops coasts")
    }

    /// Writes that take the kernel 20 ms each (a loaded machine): every settle frame's rest, and
    /// the lift's, count from when the frame was written, so the fingers frozen by a SIGTERM
    /// lift more than 600 ms after it. The shutdown waits for them on the clock, up to
    /// `Daemon.shutdownLiftBudget`, and the touchpad is destroyed only after the lift. (This
    /// loop runs on the real clock: the 20 ms are slept in the write.)
    @Test("SIGTERM mid-glide, each touchpad write taking 20 ms: the fingers settle and lift before the touchpad is destroyed")
    func aShutdownWithSlowWritesLiftsFirst() throws {
        let source = try Self.source()
        let log = CollectedLog()
        var moves = 0
        var stopped: Instant?
        var lifted: Instant?
        let outputs = try Self.runTouchpadFlick(source, configuration: Self.touchpadConfiguration, log: log) { frame, _ in
            usleep(20_000)
            if frame.action == .lift { lifted = Syscall.monotonicNow() }
            guard frame.action == .move else { return }
            moves += 1
            if moves == 10 {
                stopped = Syscall.monotonicNow()
                raise(SIGTERM)
            }
        }
        let virtual = try #require(outputs.touchpads.first)
        let actions = virtual.frames.map(\.action)
        #expect(virtual.closed)
        // The rests and settle frames take about 630 ms of the 1 s budget; a machine so loaded
        // that they take longer gets the budget's lift at once (logged), which is the rule too.
        let gaveUp = log.lines.contains { $0.contains("did not lift within") }
        #expect(gaveUp || moves == 10 + VirtualFingers.settleFrames, "stopped mid-glide, then the settle frames: \(actions)")
        #expect(moves >= 10, "stopped mid-glide: \(actions)")
        #expect(actions.last == .lift, "the last frame before the touchpad was destroyed: \(actions)")
        if let stopped, let lifted {
            #expect(lifted - stopped > VirtualFingers.stillBeforeLift, "the rests ran long: \(lifted - stopped)")
        }
    }

    /// Whether `signal` is blocked for the calling thread.
    static func isBlocked(_ signal: Int32) -> Bool {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        return sigismember(&mask, signal) == 1
    }

    @Test("Ctrl-Z (SIGTSTP) mid-glide: the virtual fingers rest, settle and lift, then the process stops as job control wants, and goes on when continued")
    func aJobControlStopLiftsTheFingersFirst() throws {
        let source = try Self.source()
        let log = CollectedLog()
        var moves = 0
        var atStop: [TouchFrame.Action]?
        var unblockedAtStop = false
        var touchpads: [RecordingTouchpad] = []
        let outputs = try Self.runTouchpadFlick(source, configuration: Self.touchpadConfiguration, log: log, setUp: { daemon in
            // Stands in for raise(SIGTSTP), which would stop the test run; SIGTERM then ends it.
            daemon.raiseStop = {
                atStop = touchpads.first?.frames.map(\.action)
                unblockedAtStop = !Self.isBlocked(SIGTSTP)
                raise(SIGTERM)
            }
        }, prepare: { touchpads.append($0) }) { frame, _ in
            guard frame.action == .move else { return }
            moves += 1
            guard moves == 3 else { return }
            // Blocked, it goes to the daemon's signalfd; not blocked, it would stop the test run.
            guard Self.isBlocked(SIGTSTP) else {
                Issue.record("SIGTSTP is not blocked: not raised")
                raise(SIGTERM)
                return
            }
            raise(SIGTSTP)
        }
        touchpads.removeAll()
        let actions = try #require(atStop, "the process was never stopped: \(log.lines)")
        // Stopped after 3 motion frames, the fingers rest and settle before they lift: lifted
        // while moving, GTK would glide on by itself.
        #expect(actions.first == .land && actions.last == .lift, "\(actions)")
        #expect(actions.filter { $0 == .move }.count == 3 + VirtualFingers.settleFrames, "the settle frames before the lift: \(actions)")
        #expect(unblockedAtStop, "SIGTSTP unblocked for the raise")
        #expect(outputs.touchpads.first?.frames.map(\.action) == actions, "nothing written after the stop")
        #expect(log.lines.contains { $0.hasPrefix("info: SIGTSTP: ") } && log.lines.contains("info: flickd goes on after SIGTSTP"), "\(log.lines)")
        #expect(log.lines.contains { $0.contains("job-control") }, "the coast's end names why: \(log.lines)")
    }

    @Test("a suspend during a coast (the time suspended grows 300 ms after the third wheel frame) stops it: no frame after")
    func aSuspendStopsTheCoast() throws {
        let source = try Self.source()
        var suspended = Duration.seconds(7)
        var framesAtTheSuspend: Int?
        let (outputs, log) = try Self.runFlick(source, setUp: { daemon in daemon.suspendedSinceBoot = { suspended } },
                                               atFrame: 3) { _, outputs in
            suspended = suspended + .milliseconds(300)
            framesAtTheSuspend = outputs.wheels[0].frames.count
        }
        #expect(framesAtTheSuspend == 3)
        #expect(log.lines.contains("info: the machine was suspended during a coast: stopped"), "\(log.lines)")
        #expect(outputs.wheels.first?.frames.count == 3, "nothing written after the resume")
        #expect(Self.coastEnds(log) == ["stall"], "\(log.lines)")
    }

    // MARK: One wake-up, several sources

    /// A tick due while the loop was held up (here: the write of the frame before it, 20 ms)
    /// and a key pressed before it was due are read in one wake-up. epoll lists the timer
    /// first (it stays on epoll's ready list from its last wake-up), but the key came first:
    /// the coast stops at the key, and the tick finds nothing to write. Ticked first, it wrote
    /// the catch-up up to the wake-up after the key.
    @Test("a key pressed before a late tick was due, read in the tick's wake-up: the coast stops at the key, no frame after it")
    func aKeyBeforeALateTick() throws {
        let source = try Self.source()
        var framesAtTheKey: Int?
        let (outputs, log) = try Self.runFlick(source, atFrame: 5) { end, outputs in
            framesAtTheKey = outputs.wheels[0].frames.count
            source.devices[Self.keyboard]!.feed(Self.press(30, at: Syscall.monotonicNow())) { end.now() }  // KEY_A
            // Over two tick periods (120 Hz: 8.3 ms): the next wake-up finds the timer due too.
            usleep(20_000)
        }
        #expect(Self.coastEnds(log) == ["key"], "\(log.lines)")
        #expect(framesAtTheKey == 5)
        #expect(outputs.wheels.first?.frames.count == 5,
                "nothing written after the key: \(outputs.wheels.first?.frames.map(\.verticalHiRes) ?? [])")
    }

    /// A press stamped just after the release, on a device not watched yet (no coast ran): it
    /// is read when the coast's release is, as the device is watched (a mouse) or as the
    /// keyboards are asked for a modifier (a keyboard), and stops the coast at once. Dropped
    /// there as "before the coast", it left the coast to run on.
    @Test("a press stamped 1 ms after the release, read as its device is first looked at, stops the coast",
          arguments: [(keyboard, UInt16(30), "key"), (mouse, UInt16(0x110), "button")])  // KEY_A, BTN_LEFT
    func aPressJustAfterTheReleaseStopsTheCoast(node: String, code: UInt16, reason: String) throws {
        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, flick: { description, release in
            source.devices[node]!.feed(Self.press(code, at: release + .milliseconds(1)))
            return Self.flick(on: description, releasedAt: release)
        }, atFrame: 3) { end, _ in end.now() }
        #expect(Self.coastEnds(log) == [reason], "\(log.lines)")
        #expect((outputs.wheels.first?.frames.count ?? 0) <= 1,
                "the release's own step at most: \(outputs.wheels.first?.frames.map(\.verticalHiRes) ?? [])")
    }

    /// The mouse moved before the flick, more events than one read takes (a read cut at its cap,
    /// as `EvdevDevice.maximumEventsPerRead` cuts one): the press behind them, stamped after
    /// the release, is read when the loop takes the mouse up again (epoll does not report what
    /// waits in libevdev's queue), and stops the coast.
    @Test("a press stamped after the release behind a read cut at its cap, as the mouse is first watched, stops the coast")
    func aPressBehindACutReadStopsTheCoast() throws {
        let source = try Self.source()
        let (_, log) = try Self.runFlick(source, flick: { description, release in
            let mouse = source.devices[Self.mouse]!
            mouse.readLimit = 4
            let moved = release - .milliseconds(10)
            let motion: [EvdevDevice.Reading] = (0..<3).flatMap { _ in
                [.event(InputEvent(type: EventCode.relative, code: EventCode.relX, value: 2), at: moved),
                 .event(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0), at: moved)]
            }
            mouse.feed(motion + Self.press(0x110, at: release + .milliseconds(1)))  // BTN_LEFT
            return Self.flick(on: description, releasedAt: release)
        }, atFrame: 3) { end, _ in end.now() }
        #expect(Self.coastEnds(log) == ["button"], "\(log.lines)")
    }

    @Test("a press stamped 1 ms before the release, read as its device is first looked at, leaves the coast alone",
          arguments: [(keyboard, UInt16(30)), (mouse, UInt16(0x110))])
    func aPressJustBeforeTheReleaseLeavesTheCoast(node: String, code: UInt16) throws {
        let source = try Self.source()
        let (outputs, log) = try Self.runFlick(source, flick: { description, release in
            source.devices[node]!.feed(Self.press(code, at: release - .milliseconds(1)))
            return Self.flick(on: description, releasedAt: release)
        }, atFrame: 3) { end, _ in end.now() }
        #expect(Self.coastEnds(log) == ["shutdown"], "\(log.lines)")
        #expect(outputs.wheels.first?.frames.count == 3)
    }

    /// During a coast, a second flick on the pad and a click stamped 1 ms before its release
    /// are read in one wake-up, the pad first: the click came during the first coast, which
    /// the second flick's landing stopped anyway; it leaves the second coast alone.
    @Test("a click stamped before a new release, read after it in the same wake-up, leaves the new coast alone")
    func aClickBeforeANewReleaseLeavesItsCoast() throws {
        let source = try Self.source()
        // 20 frames: the first coast has run longer (160 ms) than the second flick's 104 ms.
        let (_, log) = try Self.runFlick(source, atFrame: 20) { _, _ in
            let pad = source.devices[Self.pad]!
            let release = Syscall.monotonicNow()
            pad.feed(Self.flick(on: pad.description, releasedAt: release))
            source.devices[Self.mouse]!.feed(Self.press(0x110, at: release - .milliseconds(1)))  // BTN_LEFT
        }
        #expect(log.lines.filter { $0.contains(": coast at ") }.count == 2, "\(log.lines)")
        #expect(Self.coastEnds(log) == ["touch", "shutdown"], "\(log.lines)")
    }

    /// The same with a key on a touch device's own node (a touchscreen's home key): stamped
    /// before the pad's new release and read after it, it leaves the new coast alone; but a
    /// modifier (the Windows key, which Goodix screens send there) was held at the release,
    /// which `modifierHeld` could not see, and stops it as a key.
    @Test("a key on a touchscreen's own node stamped before a new release, read after it, leaves the new coast alone; a modifier stops it",
          arguments: [(UInt16(172), "shutdown"), (UInt16(125), "key")])  // KEY_HOMEPAGE, KEY_LEFTMETA
    func aTouchNodesKeyBeforeANewReleaseLeavesItsCoast(code: UInt16, end: String) throws {
        let source = try Self.source()
        let screen = "/dev/input/event8"
        source.present.append(try source.node(8, .touchscreen, name: "Goodix Capacitive TouchScreen", fixture: "touch-screen"))
        let (_, log) = try Self.runFlick(source, atFrame: 20) { _, _ in
            let pad = source.devices[Self.pad]!
            let release = Syscall.monotonicNow()
            pad.feed(Self.flick(on: pad.description, releasedAt: release))
            source.devices[screen]!.feed(Self.press(code, at: release - .milliseconds(1)))
        }
        #expect(log.lines.filter { $0.contains(": coast at ") }.count == 2, "\(log.lines)")
        #expect(Self.coastEnds(log) == ["touch", end], "\(log.lines)")
    }

    /// After a resume the first wake-up may be a landing (a hand back on the pad) rather than
    /// the timer: the coast from before the suspend is over by then, a stall, and the flick that
    /// follows starts afresh. Taken as live, the landing stopped it as a touch and the flick
    /// was boosted by its velocity. Without the suspend (the first run), the same landing
    /// catches the coast and the flick is boosted.
    @Test("a landing and a flick read first after a resume: the coast before the suspend ends as a stall, no boost",
          arguments: [false, true])
    func aLandingAfterAResume(suspend: Bool) throws {
        let source = try Self.source()
        var suspended = Duration.seconds(7)
        let (_, log) = try Self.runFlick(source, setUp: { daemon in daemon.suspendedSinceBoot = { suspended } },
                                         atFrame: 20) { _, _ in
            if suspend { suspended = suspended + .milliseconds(300) }
            let pad = source.devices[Self.pad]!
            pad.feed(Self.flick(on: pad.description, releasedAt: Syscall.monotonicNow()))
        }
        let coasts = log.lines.filter { $0.contains(": coast at ") }
        #expect(coasts.count == 2, "\(log.lines)")
        #expect(Self.coastEnds(log).first == (suspend ? "stall" : "touch"), "\(log.lines)")
        #expect(coasts.last?.contains("(boosted)") == !suspend, "\(coasts)")
    }
}
