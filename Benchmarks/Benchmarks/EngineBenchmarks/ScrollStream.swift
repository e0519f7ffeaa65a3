import FlickCore
import FlickTestSupport

/// One thing the daemon does to the engine in one wake-up: feed an evdev event, or run a tick
/// that fell due. `microseconds` is the time since the start of the stream's period.
struct Step {
    var event: InputEvent
    var microseconds: Int64
    var isTick: Bool
}

/// A pre-generated stream of two-finger scrolls on a touchpad (`Touchpad.description`, or its
/// protocol A twin), as the kernel would send them (written by FlickTestSupport's `FingerStream`:
/// slots for protocol B, every contact closed by SYN_MT_REPORT for protocol A), with the coast ticks the engine
/// asks for in between. Built once, outside the
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

    /// The stream under `configuration`, for device `device`, which `description` describes,
    /// with the engine's coasts going to `output` (the virtual touchpad's frames go nowhere).
    init(configuration: Configuration, device: DeviceID, description: DeviceDescription, output: OutputMode = .wheel) {
        var events: [(event: InputEvent, microseconds: Int64)] = []
        var writer = FingerStream(description: description)
        let flicksPerPeriod = 2
        for flick in 0..<flicksPerPeriod {
            let direction = flick % 2 == 0 ? 1.0 : -1.0
            let top = 15.0
            let y0 = direction > 0 ? top : top + Self.strokeMillimetres
            var time = Instant(microseconds: Int64(flick) * Self.flickInterval)
            let stroke = Self.flick(from: Vector(x: 40, y: y0), by: Vector(x: 0.5, y: direction * Self.strokeMillimetres),
                                    frames: Self.moveFrames)
            events += writer.events(for: stroke, at: &time).map { ($0.event, $0.time.microseconds) }
        }
        let period = Int64(flicksPerPeriod) * Self.flickInterval

        // Dry run: three periods; record the third.
        let engine = Engine(configuration: configuration)
        engine.output = output
        engine.onTouchFrame = { _, _ in }
        let counter = ReportCounter()
        engine.onReport = counter.callback
        engine.addDevice(device, description: description)
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
                engine.advance(to: Instant(microseconds: time)) { tick in
                    if recording {
                        steps.append(Step(event: InputEvent(type: 0, code: 0, value: 0),
                                          microseconds: tick.time.microseconds - base, isTick: true))
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

    /// Two fingers 20 mm apart landing at `start` (the left one, mm) and moving by `delta` (mm)
    /// over `frames` frames `frameInterval` apart, lifting together one interval after the last
    /// move; pressure about 40, wobbling as a real finger's does.
    static func flick(from start: Vector, by delta: Vector, frames: Int) -> Flick {
        let motion = Duration(microseconds: Int64(frames) * frameInterval)
        return Flick(fingers: 2, start: start, spacing: 20, velocity: delta / motion.seconds, motion: motion,
                     frameInterval: Duration(microseconds: frameInterval), liftSpread: .zero, pressure: 40)
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
