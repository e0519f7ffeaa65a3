import FlickCore

/// A flick and its coast for each kind of device that coasts (a touchpad's scroll of
/// `touchpad.fingers` fingers, a touchscreen's drag of `touchscreen.fingers`), played at
/// start-up through an engine of their own into an output that writes to `/dev/null`, so that
/// the first real coast runs warm.
///
/// The first coast after a start runs code that nothing ran before it: the release decision,
/// the coast and the virtual fingers, the encoder and the write. Each page of it is a read from
/// the disk (the daemon shed its binary's pages: `ExecutablePages`), and the Swift runtime sets
/// up what that code uses on first use. Measured in the e2e guest, the first coast after a
/// start landed its fingers 16–37 ms after the lift where later ones took 3–7 ms, and 20–67 ms
/// with a display server running; its first 100 ms then carried a sixth to three quarters of the
/// motion (docs/PERFORMANCE.md, "The first coast"). Played once right after the daemon reports
/// ready, the same code is resident and set up when the first flick comes.
///
/// Rationale (docs/DESIGN.md, "A rehearsed coast at start-up"): the rehearsal is the daemon's
/// own code on its own configuration (less its `[[device]]` sections, which are for the user's
/// devices; a kind only a section turns on is played under that section's settings), so what
/// it warms is what a coast runs, with no list of
/// functions or pages to keep up to date; what it keeps resident is what the first coast would
/// have read back anyway.
public enum Rehearsal {
    /// What a rehearsal did with one kind of device.
    public struct Outcome: Equatable, Sendable {
        /// The kind of device the flick was played on.
        public var kind: DeviceKind
        /// Whether the engine started a coast from the flick (not with a `coast.min_speed`
        /// above `maximumSpeed`, the fastest flick played).
        public var coasted: Bool
        /// Frames written to `/dev/null`: virtual-finger frames or wheel frames.
        public var frames: Int
        /// Whether the engine ended idle: no coast, no virtual finger down, no deadline.
        public var finished: Bool
    }

    /// The flick: `fingers` fingers 18 mm apart moving down for `flickFrames` frames, `frameInterval` apart.
    static let flickFrames = 25
    static let frameInterval = Duration.milliseconds(10)
    /// How long the coast runs before a touch stops it: long enough for the coast's frames,
    /// short enough that the stop's settle frames and lift are rehearsed too.
    static let coastBeforeStop = Duration.milliseconds(300)
    /// The fastest flick played (mm/s): its 250 ms stay within 800 mm of the surface's 1000.
    static let maximumSpeed = 3200.0
    /// A bound on the engine's deadlines played: the rehearsal ends even if a coast did not.
    static let maximumTicks = 2000
    /// Slots of the rehearsal's devices: the most fingers a flick takes (`touchpad.fingers`
    /// and `touchscreen.fingers` are at most 4).
    static let slots = 4

    /// A flick the rehearsal plays: on a device of `kind`, with `fingers` fingers.
    struct Flick: Equatable {
        var kind: DeviceKind
        var fingers: Int
    }

    /// The flicks that coast under `configuration`, one per kind of device: the touchpad's,
    /// then the touchscreen's, each with the fingers of `settings(for:under:)`. A reload that
    /// changes them is rehearsed again (`Daemon`).
    static func flicks(under configuration: Configuration) -> [Flick] {
        [DeviceKind.touchpad, .touchscreen].compactMap { kind in
            settings(for: kind, under: configuration).map { settings in
                Flick(kind: kind, fingers: kind == .touchpad ? settings.touchpad.fingers : settings.touchscreen.fingers)
            }
        }
    }

    /// The settings a flick of `kind` coasts under: the top level's where they enable the kind,
    /// else the first enabled `[[device]]` section's that does (touchscreens enabled for one
    /// screen only: its first coast would run cold too); nil where none does. Without the
    /// sections themselves: the rehearsal's devices are none of the user's, but a section's
    /// name matches a part of a name ("touchpad" matches "flickd rehearsal touchpad"), and its
    /// enabled = false or touchpad.fingers would keep the flick played from coasting.
    static func settings(for kind: DeviceKind, under configuration: Configuration) -> Configuration? {
        func enables(_ settings: Configuration) -> Bool {
            kind == .touchpad ? settings.touchpad.enabled : settings.touchscreen.enabled
        }
        let candidates = [configuration] + configuration.devices.filter(\.enabled).map(\.configuration)
        guard var settings = candidates.first(where: enables) else { return nil }
        settings.devices = []
        return settings
    }

    /// The device a flick is played on: the virtual touchpad's geometry (`VirtualPad`: 1000 mm
    /// square, 100 units/mm) and `slots` slots, as a touchpad or as a direct-touch screen.
    static func device(_ kind: DeviceKind) -> DeviceDescription {
        let span = AxisInfo(minimum: 0, maximum: VirtualPad.maximumUnits, resolution: Int32(VirtualPad.unitsPerMillimetre))
        let axes = [
            EventCode.absX: span, EventCode.absY: span,
            EventCode.absMTSlot: AxisInfo(minimum: 0, maximum: Int32(slots - 1)),
            EventCode.absMTTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            EventCode.absMTPositionX: span, EventCode.absMTPositionY: span,
        ]
        switch kind {
        case .touchpad:
            return DeviceDescription(
                name: "flickd rehearsal touchpad", bustype: 0x06, properties: [EventCode.propPointer],
                keys: [EventCode.buttonLeft, EventCode.touch, EventCode.toolFinger, EventCode.toolDoubleTap,
                       EventCode.toolTripleTap, EventCode.toolQuadTap],
                absoluteAxes: axes)
        case .touchscreen:
            return DeviceDescription(
                name: "flickd rehearsal touchscreen", bustype: 0x06, properties: [EventCode.propDirect],
                keys: [EventCode.touch], absoluteAxes: axes)
        }
    }

    /// Plays a flick on each kind of device whose flicks coast under `configuration` (none
    /// when neither touchpads nor touchscreens are enabled), with `output`, starting at `start`
    /// on the engine's clock (any instant: each flick's engine is its own), and writes what the
    /// engine produces through a stand-in of the real output device that discards it. The
    /// engines' reports go to `onReport` (the daemon formats them for a log that writes
    /// nothing). Throws only when `/dev/null` cannot be opened.
    public static func run(configuration: Configuration, output: OutputMode,
                           start: Instant = Instant(seconds: 1, microseconds: 0),
                           onReport: @escaping (EngineReport) -> Void = { _ in }) throws(SystemError) -> [Outcome] {
        var outcomes: [Outcome] = []
        for flick in flicks(under: configuration) {
            guard let settings = settings(for: flick.kind, under: configuration) else { continue }
            outcomes.append(try run(flick.kind, fingers: flick.fingers, settings: settings,
                                    output: output, start: start, onReport: onReport))
        }
        return outcomes
    }

    /// One flick of `fingers` fingers on a device of `kind`, and its coast, under `settings`
    /// (`settings(for:under:)`).
    private static func run(_ kind: DeviceKind, fingers: Int, settings: Configuration, output: OutputMode,
                            start: Instant, onReport: @escaping (EngineReport) -> Void) throws(SystemError) -> Outcome {
        let engine = Engine(configuration: settings)
        engine.output = output
        var outcome = Outcome(kind: kind, coasted: false, frames: 0, finished: false)
        engine.onReport = { report in
            if case .coastStarted = report { outcome.coasted = true }
            onReport(report)
        }
        defer { engine.onReport = nil }
        let device = DeviceID(0)
        engine.addDevice(device, description: Self.device(kind))

        switch output {
        case .touchpad:
            let sink = try VirtualTouchpad(discarding: ())
            defer { sink.close() }
            engine.onTouchFrame = { frame, time in
                guard (try? sink.write(frame)) != nil else { return }
                outcome.frames += 1
                engine.touchFrameWritten(at: time)
            }
            defer { engine.onTouchFrame = nil }
            play(kind, fingers: fingers, on: engine, device: device, from: start) { _ in }
        case .wheel:
            let sink = try VirtualWheel(discarding: ())
            defer { sink.close() }
            play(kind, fingers: fingers, on: engine, device: device, from: start) { wheel in
                guard !wheel.isEmpty, (try? sink.write(wheel)) != nil else { return }
                outcome.frames += 1
            }
        }
        outcome.finished = !engine.isCoasting && !engine.hasFingersDown && engine.nextDeadline == nil
        return outcome
    }

    /// The flick's events (protocol B, one slot per finger), then the engine's deadlines until
    /// it has none (or `maximumTicks`), with a touch stop `coastBeforeStop` after the lift;
    /// wheel output goes to `write`.
    private static func play(_ kind: DeviceKind, fingers: Int, on engine: Engine, device: DeviceID,
                             from start: Instant, write: (WheelOutput) -> Void) {
        // Fast enough to coast above `coast.min_speed`, slow enough that the flick stays on the
        // surface: a `min_speed` above `maximumSpeed` (played at that speed) rehearses no coast.
        let speed = min(max(150, 1.5 * engine.configuration.coast.minSpeed), maximumSpeed)
        let step = Vector(x: 0, y: speed * Double(frameInterval.microseconds) / 1_000_000)
        let spacing = VirtualPad.fingerSpacingMillimetres
        var first = VirtualPad.centre - step * (Double(flickFrames) / 2)
        let fingers = min(max(fingers, 1), slots)
        // The tool key that says how many fingers are down, on a touchpad.
        let tool = [EventCode.toolFinger, EventCode.toolDoubleTap, EventCode.toolTripleTap, EventCode.toolQuadTap][fingers - 1]
        let touchpad = kind == .touchpad
        var time = start
        func send(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            write(engine.handle(InputEvent(type: type, code: code, value: value), from: device, at: time))
        }
        func frame(landing: Bool) {
            for finger in 0..<fingers {
                send(EventCode.absolute, EventCode.absMTSlot, Int32(finger))
                if landing { send(EventCode.absolute, EventCode.absMTTrackingID, Int32(finger + 1)) }
                send(EventCode.absolute, EventCode.absMTPositionX, VirtualPad.units(first.x + spacing * Double(finger)))
                send(EventCode.absolute, EventCode.absMTPositionY, VirtualPad.units(first.y))
            }
            if landing {
                send(EventCode.key, EventCode.touch, 1)
                if touchpad { send(EventCode.key, tool, 1) }
            }
            send(EventCode.absolute, EventCode.absX, VirtualPad.units(first.x))
            send(EventCode.absolute, EventCode.absY, VirtualPad.units(first.y))
            send(EventCode.synchronization, EventCode.synReport, 0)
        }
        frame(landing: true)
        for _ in 1...flickFrames {
            time = time + frameInterval
            first = first + step
            frame(landing: false)
        }
        time = time + frameInterval
        for finger in 0..<fingers {
            send(EventCode.absolute, EventCode.absMTSlot, Int32(finger))
            send(EventCode.absolute, EventCode.absMTTrackingID, -1)
        }
        send(EventCode.key, EventCode.touch, 0)
        if touchpad { send(EventCode.key, tool, 0) }
        send(EventCode.synchronization, EventCode.synReport, 0)

        let stopAt = time + coastBeforeStop
        var stopped = false
        for _ in 0..<maximumTicks {
            guard let deadline = engine.nextDeadline else { break }
            time = deadline
            if !stopped, time >= stopAt {
                stopped = true
                if engine.isCoasting { engine.stop(at: time, reason: .touch) }
                continue
            }
            write(engine.tick(at: time))
        }
    }
}
