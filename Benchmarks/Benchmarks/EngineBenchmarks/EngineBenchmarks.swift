import Benchmark
import FlickCore
import FlickTestSupport
#if canImport(Glibc)
import Glibc
#endif

// The engine's two hot paths, measured as the daemon drives them: `handle(_:from:at:)` for every
// evdev event of a two-finger scroll (with the coast ticks that fall due between frames), and
// `tick(at:)` in a running coast. Each wake-up ends by reading `nextDeadline`, as the daemon
// does to re-arm its timerfd. The goal is zero allocations on both paths
// (Thresholds/*.p90.json: mallocCountTotal 0; `scripts/bench-engine` fails otherwise).
//
// No `cpuTotal`: the framework reads it from /proc/self/stat in 10 ms scheduler ticks, and
// reading it allocates (16 mallocs per iteration, seen in empty benchmarks), which would hide
// the engine's own count. `threadCPU` below measures the same thing precisely.
//
// FLICKD_BENCH_SMOKE=1 runs each benchmark for a few iterations only (CI: keep them building
// and running; no timing is checked).

/// CPU time of the benchmark's thread, per operation (ns), read with
/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` around the measured loop (which allocates nothing).
let threadCPU = BenchmarkMetric.custom("Thread CPU time (ns)", polarity: .prefersSmaller, useScalingFactor: true)

/// Nanoseconds of CPU time this thread has used.
@inline(__always)
func threadCPUNanoseconds() -> Int {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return spec.tv_sec * 1_000_000_000 + spec.tv_nsec
}

/// Runs `operation` once per scaled iteration of `benchmark`, measured (only the loop), and
/// records the thread CPU time it took. The closure is not escaping: nothing is allocated.
@inline(__always)
func measureScaledIterations(_ benchmark: Benchmark, _ operation: () -> Void) {
    benchmark.startMeasurement()
    let cpu = threadCPUNanoseconds()
    for _ in benchmark.scaledIterations {
        operation()
    }
    let used = threadCPUNanoseconds() - cpu
    benchmark.stopMeasurement()
    benchmark.measurement(threadCPU, used)
}

let benchmarks: @Sendable () -> Void = {
    let smoke = getenv("FLICKD_BENCH_SMOKE").map { String(cString: $0) != "0" } ?? false
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: BenchmarkThresholds(absolute: [.p90: 0]),
    ]
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, threadCPU, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: smoke ? 1 : 20,
        scalingFactor: .kilo,
        maxDuration: smoke ? .milliseconds(100) : .seconds(2),
        maxIterations: smoke ? 5 : 1_000_000,
        thresholds: zeroAllocations
    )

    // One scaled iteration = one input frame of the stream (its events up to SYN_REPORT, and
    // the ticks that fell due before it): throughput is frames per second.
    Benchmark("ScrollFrames") { benchmark, driver in
        measureScaledIterations(benchmark) { driver.nextFrame() }
        blackHole(driver.checksum)
    } setup: {
        StreamDriver(description: Touchpad.description, label: "ScrollFrames")
    }

    // Coasts on the virtual touchpad (the default output), each stopped by a one-finger tap,
    // flicks 1 s apart: every period's glides land, glide, rest, settle and lift (the driver
    // checks that they do), each finger frame written to a closure, as the daemon's writer, which
    // calls `touchFrameWritten(at:)` as the daemon does.
    Benchmark("ScrollFramesTouchpad") { benchmark, driver in
        measureScaledIterations(benchmark) { driver.nextFrame() }
        blackHole(driver.checksum)
    } setup: {
        StreamDriver(description: Touchpad.description, label: "ScrollFramesTouchpad", output: .touchpad, layout: .tapStops)
    }

    // ScrollFramesTouchpad's stream with the wheel output: what the virtual touchpad adds is
    // the difference between the two.
    Benchmark("ScrollFramesTapStopped") { benchmark, driver in
        measureScaledIterations(benchmark) { driver.nextFrame() }
        blackHole(driver.checksum)
    } setup: {
        StreamDriver(description: Touchpad.description, label: "ScrollFramesTapStopped", layout: .tapStops)
    }

    // The same stream from a protocol A pad without tracking ids: each frame lists every contact,
    // and the engine pairs them with the last frame's by position (an assignment over a cost
    // matrix held by the tracker). Throughput is frames per second, as above.
    Benchmark("ScrollFramesProtocolA") { benchmark, driver in
        measureScaledIterations(benchmark) { driver.nextFrame() }
        blackHole(driver.checksum)
    } setup: {
        StreamDriver(description: Touchpad.protocolADescription, label: "ScrollFramesProtocolA")
    }

    // One scaled iteration = one `tick(at:)` at the engine's `nextDeadline` in a running coast:
    // throughput is ticks per second. Starting a coast is not measured.
    Benchmark("CoastTicks") { benchmark, driver in
        driver.ensureCoast(ticks: benchmark.scaledIterations.count)
        measureScaledIterations(benchmark) { driver.tick() }
        blackHole(driver.checksum)
    } setup: {
        CoastDriver()
    }

    // Proves the malloc counter works: exactly one allocation per scaled iteration. Its
    // threshold is 1000 per iteration, so a counter that reads 0 (the interposer not loaded)
    // fails the check as "better than threshold" instead of passing the engine's zeros.
    Benchmark("MallocCounterCheck") { benchmark in
        for size in benchmark.scaledIterations {
            blackHole([UInt8](repeating: 0, count: 16 + size % 16))
        }
    }
}

/// Feeds a `ScrollStream` to one engine, frame by frame, period after period.
///
/// Used from the benchmark's one thread only.
final class StreamDriver: @unchecked Sendable {
    let engine: Engine
    let stream: ScrollStream
    let counter = ReportCounter()
    let device: DeviceID = 3
    private var frame = 0
    private var base: Int64 = 1_000_000_000
    /// Sum of everything written, so that no output is unused.
    private(set) var checksum: Int64 = 0

    /// The virtual fingers' frames, counted as they are written (nothing with the wheel output).
    let touchFrames = TouchFrameCounter()

    init(description: DeviceDescription, label: String, output: OutputMode = .wheel,
         layout: ScrollStream.Layout = .nextHandStops) {
        let configuration = Configuration.defaults
        stream = ScrollStream(configuration: configuration, device: device, description: description, output: output,
                              layout: layout)
        precondition(stream.coastsPerPeriod == 2 && stream.ticksPerPeriod > 0,
                     "the stream should start two coasts per period and tick them: \(stream.coastsPerPeriod) coasts, \(stream.ticksPerPeriod) ticks")
        engine = Engine(configuration: configuration)
        engine.output = output
        engine.onReport = counter.callback
        engine.addDevice(device, description: description)
        print("\(label): one period is \(stream.frames.count) frames, \(stream.eventsPerPeriod) events, "
              + "\(stream.ticksPerPeriod) ticks, \(stream.coastsPerPeriod) coasts, \(stream.period.milliseconds) ms"
              + (output == .touchpad ? "; touch frames: \(stream.touchFramesPerPeriod)" : ""))
        // The daemon writes each finger frame to the virtual touchpad, then tells the engine when
        // it did (Daemon.emit): here, into the checksum, at the frame's time.
        engine.onTouchFrame = { [unowned self] frame, time in
            checksum &+= Int64((frame.first.x + frame.first.y) * 1000)
            touchFrames.count(frame, at: time)
            engine.touchFrameWritten(at: time)
        }
        guard output == .touchpad else { return }
        // Two periods, the second counted: it opens with the first's last settle frames and
        // lift, as every later period does. A stream whose glides never settle or lift (the
        // next hand's scroll dropping the settle frames, fingers still down at the next release)
        // would measure something else than the row in docs/PERFORMANCE.md says: stop here.
        for _ in stream.frames { nextFrame() }
        touchFrames.reset()
        for _ in stream.frames { nextFrame() }
        let seen = touchFrames.counts
        let settles = 2 * VirtualFingers.settleFrames
        precondition(seen == stream.touchFramesPerPeriod && seen.lands == 2 && seen.lifts == 2 && seen.settles == settles
                     && seen.moves > seen.settles,
                     "\(label): a period should land, glide, settle (\(settles) frames) and lift twice: \(seen) "
                     + "(the dry run: \(stream.touchFramesPerPeriod))")
    }

    /// Runs the next frame of the stream: its due ticks, then its events.
    @inline(__always)
    func nextFrame() {
        for index in stream.frames[frame] {
            let step = stream.steps[index]
            let time = Instant(microseconds: base &+ step.microseconds)
            let output = step.isTick ? engine.tick(at: time) : engine.handle(step.event, from: device, at: time)
            checksum &+= Int64(output.verticalHiRes) &+ Int64(output.horizontalHiRes)
            if step.isTick { checksum &+= engine.nextDeadline?.microseconds ?? 0 }
        }
        checksum &+= engine.nextDeadline?.microseconds ?? 0
        frame += 1
        if frame == stream.frames.count {
            frame = 0
            base &+= stream.period.microseconds
        }
    }
}

/// Keeps one long coast running and ticks it at the engine's deadlines.
///
/// The coast is slowed down (`coast.deceleration_rate` 0.9999, `coast.max_duration` 60 s) so that
/// one flick lasts thousands of ticks; a tick evaluates the same closed form whatever the rate.
/// Used from the benchmark's one thread only.
final class CoastDriver: @unchecked Sendable {
    let engine: Engine
    let device: DeviceID = 3
    /// 30 mm in 64 ms: about 470 mm/s, a brisk flick.
    let flick: [(event: InputEvent, microseconds: Int64)] = {
        var time = Instant.zero
        var stream = FingerStream(description: Touchpad.description)
        let stroke = ScrollStream.flick(from: Vector(x: 40, y: 10), by: Vector(x: 0, y: 30), frames: 8)
        return stream.events(for: stroke, at: &time).map { ($0.event, $0.time.microseconds) }
    }()
    /// Ticks one flick's coast lasts (measured once, in `init`).
    private(set) var ticksPerCoast = 0
    private var ticksLeft = 0
    private var now: Int64 = 1_000_000_000
    /// Sum of everything written, so that no output is unused.
    private(set) var checksum: Int64 = 0

    static var configuration: Configuration {
        var configuration = Configuration.defaults
        configuration.coast.decelerationRate = 0.9999
        configuration.coast.maxDuration = .milliseconds(60_000)
        return configuration
    }

    init() {
        engine = Engine(configuration: Self.configuration)
        engine.addDevice(device, description: Touchpad.description)
        startCoast()
        while let deadline = engine.nextDeadline {
            _ = engine.tick(at: deadline)
            now = deadline.microseconds
            ticksPerCoast += 1
        }
        precondition(ticksPerCoast > 1000, "a coast should last more than 1000 ticks, got \(ticksPerCoast)")
        print("CoastTicks: one coast lasts \(ticksPerCoast) ticks")
    }

    /// Starts a new coast, a second after the last tick (its touch stops the one running, if any).
    private func startCoast() {
        let start = now + 1_000_000
        for (event, offset) in flick {
            _ = engine.handle(event, from: device, at: Instant(microseconds: start + offset))
        }
        now = start + (flick.last?.microseconds ?? 0)
        ticksLeft = ticksPerCoast
    }

    /// Makes sure the running coast has at least `ticks` ticks left; starts a new one if not.
    func ensureCoast(ticks: Int) {
        if ticksLeft < ticks { startCoast() }
    }

    /// One timer wake-up in a coast: the tick at the deadline, then the next deadline.
    @inline(__always)
    func tick() {
        guard let deadline = engine.nextDeadline else { return }
        let output = engine.tick(at: deadline)
        checksum &+= Int64(output.verticalHiRes) &+ (engine.nextDeadline?.microseconds ?? 0)
        now = deadline.microseconds
        ticksLeft -= 1
    }
}
