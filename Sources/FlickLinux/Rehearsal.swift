import CEvdev
import FlickCore

/// One flick and its coast, played at start-up through an engine of their own into an output
/// that writes to `/dev/null`, so that the first real coast runs warm.
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
/// own code on its own configuration, so what it warms is what a coast runs, with no list of
/// functions or pages to keep up to date; what it keeps resident is what the first coast would
/// have read back anyway.
public enum Rehearsal {
    /// What a rehearsal did.
    public struct Outcome: Equatable, Sendable {
        /// Whether the engine started a coast from the flick (not when the configuration
        /// coasts no touchpad flick: `touchpad.enabled = false`, or a `coast.min_speed` above
        /// `maximumSpeed / 1.5`).
        public var coasted: Bool
        /// Frames written to `/dev/null`: virtual-finger frames or wheel frames.
        public var frames: Int
        /// Whether the engine ended idle: no coast, no virtual finger down, no deadline.
        public var finished: Bool
    }

    /// The flick: two fingers 18 mm apart moving down for `flickFrames` frames, `frameInterval` apart.
    static let flickFrames = 25
    static let frameInterval = Duration.milliseconds(10)
    /// How long the coast runs before a touch stops it: long enough for the coast's frames,
    /// short enough that the stop's settle frames and lift are rehearsed too.
    static let coastBeforeStop = Duration.milliseconds(300)
    /// The fastest flick played (mm/s): its 250 ms stay within 800 mm of the pad's 1000.
    static let maximumSpeed = 3200.0
    /// A bound on the engine's deadlines played: the rehearsal ends even if a coast did not.
    static let maximumTicks = 2000

    /// The touchpad the flick is played on: the virtual touchpad's own geometry
    /// (`VirtualPad`: 1000 mm square, 100 units/mm) and two slots.
    static let touchpad: DeviceDescription = {
        let span = AxisInfo(minimum: 0, maximum: VirtualPad.maximumUnits, resolution: Int32(VirtualPad.unitsPerMillimetre))
        return DeviceDescription(
            name: "flickd rehearsal touchpad", bustype: 0x06,
            properties: [EventCode.propPointer],
            keys: [EventCode.buttonLeft, EventCode.touch, EventCode.toolFinger, EventCode.toolDoubleTap],
            absoluteAxes: [
                EventCode.absX: span, EventCode.absY: span,
                EventCode.absMTSlot: AxisInfo(minimum: 0, maximum: 1),
                EventCode.absMTTrackingID: AxisInfo(minimum: 0, maximum: 65535),
                EventCode.absMTPositionX: span, EventCode.absMTPositionY: span,
            ])
    }()

    /// Plays the flick under `configuration` with `output`, starting at `start` on the
    /// engine's clock (any instant: the rehearsal's engine is its own), and writes what the
    /// engine produces through a stand-in of the real output device that discards it. The
    /// engine's reports go to `onReport` (the daemon formats them for a log that writes
    /// nothing). Throws only when `/dev/null` cannot be opened.
    public static func run(configuration: Configuration, output: OutputMode,
                           start: Instant = Instant(seconds: 1, microseconds: 0),
                           onReport: @escaping (EngineReport) -> Void = { _ in }) throws(SystemError) -> Outcome {
        let engine = Engine(configuration: configuration)
        engine.output = output
        var outcome = Outcome(coasted: false, frames: 0, finished: false)
        engine.onReport = { report in
            if case .coastStarted = report { outcome.coasted = true }
            onReport(report)
        }
        defer { engine.onReport = nil }
        let device = DeviceID(0)
        engine.addDevice(device, description: touchpad)

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
            play(on: engine, device: device, from: start) { _ in }
        case .wheel:
            let sink = try VirtualWheel(discarding: ())
            defer { sink.close() }
            play(on: engine, device: device, from: start) { wheel in
                guard !wheel.isEmpty, (try? sink.write(wheel)) != nil else { return }
                outcome.frames += 1
            }
        }
        outcome.finished = !engine.isCoasting && !engine.hasFingersDown && engine.nextDeadline == nil
        return outcome
    }

    /// The flick's events, then the engine's deadlines until it has none (or `maximumTicks`),
    /// with a touch stop `coastBeforeStop` after the lift; wheel output goes to `write`. The
    /// flick's frames are the virtual touchpad's own (`VirtualTouchpad.Encoder`), read back.
    private static func play(on engine: Engine, device: DeviceID, from start: Instant,
                             write: (WheelOutput) -> Void) {
        // Fast enough to coast above `coast.min_speed`, slow enough that the flick stays on the
        // pad: a `min_speed` above `maximumSpeed / 1.5` rehearses no coast.
        let speed = min(max(150, 1.5 * engine.configuration.coast.minSpeed), maximumSpeed)
        let step = Vector(x: 0, y: speed * Double(frameInterval.microseconds) / 1_000_000)
        let spacing = Vector(x: VirtualPad.fingerSpacingMillimetres, y: 0)
        var first = VirtualPad.centre - step * (Double(flickFrames) / 2)
        var encoder = VirtualTouchpad.Encoder()
        let events = UnsafeMutablePointer<input_event>.allocate(capacity: VirtualTouchpad.maximumFrameLength)
        defer { events.deallocate() }
        var time = start
        func send(_ action: TouchFrame.Action) {
            let count = encoder.encode(TouchFrame(action: action, first: first, second: first + spacing), into: events)
            for index in 0..<count {
                let event = InputEvent(type: events[index].type, code: events[index].code, value: events[index].value)
                write(engine.handle(event, from: device, at: time))
            }
        }
        send(.land)
        for _ in 1...flickFrames {
            time = time + frameInterval
            first = first + step
            send(.move)
        }
        time = time + frameInterval
        send(.lift)

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
