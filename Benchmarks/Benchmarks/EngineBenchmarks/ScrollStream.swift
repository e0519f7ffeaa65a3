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
/// needs the same direction). `Layout.nextHandStops`:
///
///     t = 0 ms        two fingers down at (40 mm, 15 mm) and (60 mm, 15 mm)
///     t = 8…120 ms    15 frames moving both 20 mm down (0.5 mm sideways drift)
///     t = 128 ms      both lift in one frame → a coast starts
///     t = 128…256 ms  the coast runs; the engine is ticked whenever it asks
///     t = 256 ms      the next two fingers land, stopping the coast; the same moving up
///
/// `Layout.tapStops` (each flick's coast stopped by a one-finger tap, flicks 1 s apart):
///
///     t = 0…128 ms    the same flick
///     t = 128…256 ms  the coast runs
///     t = 256…280 ms  one finger taps at (50 mm, 45 mm) (3 frames, then its lift), stopping
///                     the coast; on the virtual touchpad the fingers freeze, rest 250 ms,
///                     write their 3 settle frames 50 ms apart, rest 200 ms and lift (≈ 806 ms)
///     t = 1000 ms     the next flick, moving up, lands on nothing: the virtual fingers are
///                     up, so its coast opens with a landing
///
/// With `.nextHandStops` the virtual fingers never lift: each glide is frozen by the next
/// hand, whose scroll drops the settle frames (`VirtualFingers.handScrolls()`), and the next
/// release continues them. `.tapStops` makes every period run the whole of a glide: landing,
/// glide, rest, settle frames and lift.
///
/// The ticks are recorded from a dry run of three periods (the third is the steady state: with
/// `.nextHandStops` a coast from the previous flick is running when the fingers land; with
/// `.tapStops` the first frame's ticks are the previous period's settle frames and lift), so
/// every period of the stream replays exactly what the engine does.
struct ScrollStream {
    /// How one period's flicks follow each other and what stops their coasts.
    enum Layout {
        /// Flicks `flickInterval` apart; each coast runs until the next flick's fingers land.
        case nextHandStops
        /// Flicks `spacedFlickInterval` apart; each coast is stopped by a one-finger tap
        /// `tapAfterRelease` after its release, and the virtual fingers lift before the next flick.
        case tapStops
    }

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
    /// The virtual fingers' frames in one period, by what they do (none with the wheel output).
    let touchFramesPerPeriod: TouchFrameCounter.Counts

    /// Time between frames while the fingers are down, µs (a 125 Hz touchpad).
    static let frameInterval: Int64 = 8_000
    /// Frames of motion in one flick.
    static let moveFrames = 15
    /// How far the fingers travel in one flick, mm (about 170 mm/s over 120 ms).
    static let strokeMillimetres = 20.0
    /// Time from one flick's touch-down to the next one's, µs (`.nextHandStops`).
    static let flickInterval: Int64 = 256_000
    /// Time from one flick's touch-down to the next one's, µs (`.tapStops`): more than the tap
    /// and `VirtualFingers.stillBeforeLift` after it, so the virtual fingers are up when the
    /// next flick's coast starts.
    static let spacedFlickInterval: Int64 = 1_000_000
    /// Time from a flick's release to the tap that stops its coast, µs (`.tapStops`).
    static let tapAfterRelease: Int64 = 128_000

    /// The stream under `configuration`, for device `device`, which `description` describes,
    /// laid out as `layout` says, with the engine's coasts going to `output` (the virtual
    /// touchpad's frames go nowhere).
    init(configuration: Configuration, device: DeviceID, description: DeviceDescription, output: OutputMode = .wheel,
         layout: Layout = .nextHandStops) {
        var events: [(event: InputEvent, microseconds: Int64)] = []
        var writer = FingerStream(description: description)
        let flicksPerPeriod = 2
        let interval = layout == .nextHandStops ? Self.flickInterval : Self.spacedFlickInterval
        for flick in 0..<flicksPerPeriod {
            let direction = flick % 2 == 0 ? 1.0 : -1.0
            let top = 15.0
            let y0 = direction > 0 ? top : top + Self.strokeMillimetres
            var time = Instant(microseconds: Int64(flick) * interval)
            let stroke = Self.flick(from: Vector(x: 40, y: y0), by: Vector(x: 0.5, y: direction * Self.strokeMillimetres),
                                    frames: Self.moveFrames)
            events += writer.events(for: stroke, at: &time).map { ($0.event, $0.time.microseconds) }
            if layout == .tapStops {
                // One finger, still for 16 ms: a touch that stops the coast and starts no gesture.
                time = time + Duration(microseconds: Self.tapAfterRelease)
                let tap = Flick(fingers: 1, start: Vector(x: 50, y: 45), velocity: Vector(x: 0, y: 0),
                                motion: .milliseconds(16), frameInterval: Duration(microseconds: Self.frameInterval),
                                liftSpread: .zero, pressure: 40)
                events += writer.events(for: tap, at: &time).map { ($0.event, $0.time.microseconds) }
            }
        }
        let period = Int64(flicksPerPeriod) * interval
        precondition(events.last.map { $0.microseconds < period } ?? false, "a period's events should fit in the period")

        // Dry run: three periods; record the third.
        let engine = Engine(configuration: configuration)
        engine.output = output
        let touchFrames = TouchFrameCounter()
        // As the daemon does after writing a frame to the virtual touchpad (Daemon.emit).
        engine.onTouchFrame = { frame, time in
            touchFrames.count(frame, at: time)
            engine.touchFrameWritten(at: time)
        }
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
            if recording {
                counter.coastsStarted = 0
                touchFrames.reset()
            }
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
        self.touchFramesPerPeriod = touchFrames.counts
        engine.onTouchFrame = nil
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

/// Counts the virtual fingers' frames by what they do, as they are written.
///
/// A settle frame is a move of one device unit (`VirtualFingers.settleDistance`) along an axis,
/// at least `VirtualFingers.settleInterval` after the frame before: glide frames come a frame
/// period (or the opening's shorter intervals) apart, and the first frame of resting fingers
/// that a release continues moves by the glide's step.
final class TouchFrameCounter {
    /// Frames of each kind.
    struct Counts: Equatable, CustomStringConvertible {
        var lands = 0
        var moves = 0
        /// Of the moves, those that are settle frames.
        var settles = 0
        var lifts = 0

        var description: String { "\(lands) landings, \(moves) moves (\(settles) settle frames), \(lifts) lifts" }
    }

    private(set) var counts = Counts()
    private var lastTime: Int64 = 0
    private var lastFirst = Vector(x: 0, y: 0)

    @inline(__always)
    func count(_ frame: TouchFrame, at time: Instant) {
        switch frame.action {
        case .land: counts.lands &+= 1
        case .move:
            counts.moves &+= 1
            let step = max(abs(frame.first.x - lastFirst.x), abs(frame.first.y - lastFirst.y))
            if time.microseconds &- lastTime >= VirtualFingers.settleInterval.microseconds
                && step > 0 && step <= 1.5 * VirtualFingers.settleDistance {
                counts.settles &+= 1
            }
        case .lift: counts.lifts &+= 1
        }
        lastTime = time.microseconds
        lastFirst = frame.first
    }

    func reset() { counts = Counts() }
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
