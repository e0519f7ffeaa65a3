import FlickCore

/// One thing the daemon does to the engine in one wake-up: feed an evdev event, or run a tick
/// that fell due. `microseconds` is the time since the start of the stream's period.
struct Step {
    var event: InputEvent
    var microseconds: Int64
    var isTick: Bool
}

/// A pre-generated stream of two-finger scrolls on `Touchpad`, as the kernel would send them
/// (protocol B), with the coast ticks the engine asks for in between. Built once, outside the
/// measurement, so that the measured loop does nothing but call the engine.
///
/// One period is two flicks, down then back up (so that no flick boosts the next: a boost
/// needs the same direction):
///
///     t = 0 ms        two fingers down at (40 mm, 15 mm) and (60 mm, 15 mm)
///     t = 8…120 ms    15 frames moving both 20 mm down (0.5 mm sideways drift)
///     t = 128 ms      both lift in one frame → a coast starts
///     t = 128…256 ms  the coast runs; the engine is ticked whenever it asks
///     t = 256 ms      the next two fingers land, stopping the coast; the same moving up
///
/// The ticks are recorded from a dry run of three periods (the third is the steady state: a
/// coast from the previous flick is running when the fingers land), so every period of the
/// stream replays exactly what the engine does.
struct ScrollStream {
    /// Steps of one period, in order; a frame's ticks come before its events.
    let steps: [Step]
    /// Each input frame's steps (the ticks due before it, then its events up to SYN_REPORT).
    let frames: [Range<Int>]
    /// Length of one period.
    let period: Duration
    /// Coasts started in one period (2 when the stream works as described).
    let coastsPerPeriod: Int
    /// Ticks in one period.
    let ticksPerPeriod: Int
    /// Input events in one period.
    let eventsPerPeriod: Int

    /// Time between frames while the fingers are down, µs (a 125 Hz touchpad).
    static let frameInterval: Int64 = 8_000
    /// Frames of motion in one flick.
    static let moveFrames = 15
    /// How far the fingers travel in one flick, mm (about 170 mm/s over 120 ms).
    static let strokeMillimetres = 20.0
    /// Time from one flick's touch-down to the next one's, µs.
    static let flickInterval: Int64 = 256_000

    /// The stream under `configuration`, for device `device`.
    init(configuration: Configuration, device: DeviceID) {
        var events: [(event: InputEvent, microseconds: Int64)] = []
        let slots = SlotWriter()
        let flicksPerPeriod = 2
        for flick in 0..<flicksPerPeriod {
            let start = Int64(flick) * Self.flickInterval
            let direction = flick % 2 == 0 ? 1.0 : -1.0
            let top = 15.0
            let y0 = direction > 0 ? top : top + Self.strokeMillimetres
            events += slots.flick(at: start, from: (40, y0), (60, y0),
                                  by: (0.5, direction * Self.strokeMillimetres),
                                  frames: Self.moveFrames, interval: Self.frameInterval)
        }
        let period = Int64(flicksPerPeriod) * Self.flickInterval

        // Dry run: three periods; record the third.
        let engine = Engine(configuration: configuration)
        let counter = ReportCounter()
        engine.onReport = counter.callback
        engine.addDevice(device, description: Touchpad.description)
        var steps: [Step] = []
        var frames: [Range<Int>] = []
        var frameStart = 0
        let origin: Int64 = 10_000_000
        for pass in 0..<3 {
            let base = origin + Int64(pass) * period
            let recording = pass == 2
            if recording { counter.coastsStarted = 0 }
            for (event, offset) in events {
                let time = base + offset
                // Ticks that fall due before this event run first, as the daemon's timerfd
                // fires before the next evdev read.
                engine.advance(to: Instant(microseconds: time)) { _, tick in
                    if recording {
                        steps.append(Step(event: InputEvent(type: 0, code: 0, value: 0),
                                          microseconds: tick.microseconds - base, isTick: true))
                    }
                }
                _ = engine.handle(event, from: device, at: Instant(microseconds: time))
                if recording {
                    steps.append(Step(event: event, microseconds: offset, isTick: false))
                    if event.type == EventCode.synchronization && event.code == EventCode.synReport {
                        frames.append(frameStart..<steps.count)
                        frameStart = steps.count
                    }
                }
            }
        }
        self.steps = steps
        self.frames = frames
        self.period = Duration(microseconds: period)
        self.coastsPerPeriod = counter.coastsStarted
        self.ticksPerPeriod = steps.filter(\.isTick).count
        self.eventsPerPeriod = steps.count - ticksPerPeriod
    }
}

/// Counts the engine's reports, the way a listener (the daemon's logger) receives them.
final class ReportCounter {
    var coastsStarted = 0
    var reports = 0

    var callback: (EngineReport) -> Void {
        { [unowned self] report in
            self.reports &+= 1
            if case .coastStarted = report { self.coastsStarted &+= 1 }
        }
    }
}

/// Writes protocol-B events for two fingers, sending only what changed, as the kernel does.
final class SlotWriter {
    private var trackingID: Int32 = 100
    private var currentSlot: Int32 = -1
    private var sent: [Int32: (x: Int32, y: Int32, pressure: Int32)] = [:]

    /// A two-finger flick starting at `start` (µs): both fingers land at `a` and `b` (mm), move
    /// by `delta` (mm) over `frames` frames `interval` µs apart, and lift together one interval
    /// after the last move.
    func flick(at start: Int64, from a: (Double, Double), _ b: (Double, Double), by delta: (Double, Double),
               frames: Int, interval: Int64) -> [(event: InputEvent, microseconds: Int64)] {
        var out: [(InputEvent, Int64)] = []
        var time = start
        func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) { out.append((InputEvent(type: type, code: code, value: value), time)) }
        func contact(_ slot: Int32, _ x: Double, _ y: Double, pressure: Int32, new: Bool) {
            let ux = Touchpad.units(x), uy = Touchpad.units(y)
            let before = sent[slot]
            if currentSlot != slot {
                emit(EventCode.absolute, EventCode.absMTSlot, slot)
                currentSlot = slot
            }
            if new {
                trackingID += 1
                emit(EventCode.absolute, EventCode.absMTTrackingID, trackingID)
            }
            if new || before?.x != ux { emit(EventCode.absolute, EventCode.absMTPositionX, ux) }
            if new || before?.y != uy { emit(EventCode.absolute, EventCode.absMTPositionY, uy) }
            if new || before?.pressure != pressure { emit(EventCode.absolute, EventCode.absMTPressure, pressure) }
            sent[slot] = (ux, uy, pressure)
        }
        func legacy(_ x: Double, _ y: Double, pressure: Int32) {
            // The single-touch axes follow the first finger, as the kernel's input_mt_report_pointer_emulation.
            emit(EventCode.absolute, EventCode.absX, Touchpad.units(x))
            emit(EventCode.absolute, EventCode.absY, Touchpad.units(y))
            emit(EventCode.absolute, EventCode.absPressure, pressure)
        }
        func sync() { emit(EventCode.synchronization, EventCode.synReport, 0) }

        // Down: both fingers in one frame.
        contact(0, a.0, a.1, pressure: 40, new: true)
        contact(1, b.0, b.1, pressure: 42, new: true)
        emit(EventCode.key, EventCode.touch, 1)
        emit(EventCode.key, EventCode.toolDoubleTap, 1)
        legacy(a.0, a.1, pressure: 40)
        sync()
        // Move: a straight line at constant speed; pressure wobbles as real fingers' does.
        for step in 1...frames {
            time += interval
            let f = Double(step) / Double(frames)
            let pressure = Int32(44 + step % 3)
            contact(0, a.0 + delta.0 * f, a.1 + delta.1 * f, pressure: pressure, new: false)
            contact(1, b.0 + delta.0 * f, b.1 + delta.1 * f, pressure: pressure + 2, new: false)
            legacy(a.0 + delta.0 * f, a.1 + delta.1 * f, pressure: pressure)
            sync()
        }
        // Lift: both fingers in one frame.
        time += interval
        for slot: Int32 in [0, 1] {
            if currentSlot != slot {
                emit(EventCode.absolute, EventCode.absMTSlot, slot)
                currentSlot = slot
            }
            emit(EventCode.absolute, EventCode.absMTTrackingID, -1)
            sent[slot] = nil
        }
        emit(EventCode.key, EventCode.touch, 0)
        emit(EventCode.key, EventCode.toolDoubleTap, 0)
        emit(EventCode.absolute, EventCode.absPressure, 0)
        sync()
        return out
    }
}
