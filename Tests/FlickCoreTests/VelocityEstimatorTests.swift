import Foundation
import Testing
@testable import FlickCore
import FlickTestSupport

/// The golden table of DESIGN_NOTES §2 (samples every 8 ms; positions here are "units" and
/// velocities units/s, on the y axis).
@Suite struct VelocityEstimatorGoldenTable {
    static let interval = Duration.milliseconds(8)
    static let release = Instant(microseconds: 10_000_000)

    /// A history of `count` samples ending at `release`, positions from `position(τ)` (τ in s, ≤ 0).
    static func history(count: Int, repeatLast: Bool = false, position: (Double) -> Double) -> TouchHistory {
        var history = TouchHistory(capacity: 64)
        for i in 0..<count {
            let tau = -Double(count - 1 - i) * interval.seconds
            history.append(TouchSample(time: release + .seconds(tau), position: Vector(x: 0, y: position(tau))))
        }
        if repeatLast, let last = history.newest {
            history.append(TouchSample(time: last.time + interval, position: last.position))
        }
        return history
    }

    @Test(arguments: VelocityEstimatorKind.allCases)
    func constantVelocity(kind: VelocityEstimatorKind) throws {
        var h = Self.history(count: 16) { 1000 * $0 }
        let v = try #require(VelocityEstimator(kind: kind).estimate(&h, release: Self.release))
        #expect(abs(v.y - 1000) < 0.001, "\(kind): expected 1000, got \(v.y)")
        #expect(abs(v.x) < 1e-9)
    }

    /// Constant deceleration of 5000 units/s² ending at 900 units/s.
    static func decelerating(_ tau: Double) -> Double { 900 * tau - 0.5 * 5000 * tau * tau }

    @Test func constantDecelerationLSQ2() throws {
        var h = Self.history(count: 16, position: Self.decelerating)
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: Self.release))
        #expect(abs(v.y - 900) < 0.05, "expected 900.0, got \(v.y)")
    }

    @Test func constantDecelerationLookbackIsTheMeanOverItsWindow() throws {
        var h = Self.history(count: 16, position: Self.decelerating)
        let v = try #require(VelocityEstimator(kind: .lookback).estimate(&h, release: Self.release))
        // Look-back measures the mean velocity of the last 70 ms: 900 + 5000·0.035 = 1075, less
        // the error of interpolating a parabola linearly between 8 ms samples (≤ 0.43 here).
        #expect(abs(v.y - 1075) < 0.5, "expected 1075, got \(v.y)")
    }

    @Test("LSQ2 never answers against the motion: stamps in a bunch then one late give the average")
    func unevenStampsNeverReverse() throws {
        // Forward motion, 1.2 units a frame, but a stalled sender: four frames stamped 1 ms
        // apart, then one 34 ms later (within the 40 ms that still count as one movement).
        var h = TouchHistory(capacity: 64)
        let start = Self.release - .milliseconds(45)
        for (ms, y) in [(0, 0.0), (8, 1.2), (9, 2.4), (10, 3.6), (11, 4.8), (45, 6.0)] {
            h.append(TouchSample(time: start + .milliseconds(Int64(ms)), position: Vector(x: 0, y: y)))
        }
        let raw = try #require(VelocityEstimator.leastSquaresQuadratic(h))
        #expect(raw.y < 0, "the parabola turns back at its end: \(raw.y)")
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: Self.release))
        let average = VelocityEstimator.lookback(h)
        #expect(v.y > 0 && v == average, "forward, the motion's average: \(v.y) vs \(average.y)")
    }

    @Test("LSQ2 keeps a finger that turned back before it lifted: never the way it no longer went")
    func aTurnBeforeTheLiftIsKept() throws {
        // 200 mm/s down for 128 ms, then 150 mm/s up for three frames (8 ms apart): the average
        // over the look-back window still points down, the fit and the newest steps up.
        var h = TouchHistory(capacity: 64)
        let start = Self.release - .milliseconds(160)
        var y = 0.0
        for frame in 0...19 {
            if frame > 0 { y += frame <= 16 ? 1.6 : -1.2 }
            h.append(TouchSample(time: start + .milliseconds(Int64(frame * 8)), position: Vector(x: 0, y: y)))
        }
        let average = VelocityEstimator.lookback(h)
        #expect(average.y > 0, "the average still points down: \(average.y)")
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: Self.release))
        #expect(v.y < 0, "up, as the finger went last: \(v.y)")
    }

    @Test("samples at only two distinct times fit no parabola: LSQ2 gives the look-back average, not a stop")
    func twoDistinctStampsGiveTheAverage() throws {
        // Coarse stamps: three frames of one read stamped alike, 8 ms after the first.
        var h = TouchHistory(capacity: 64)
        let start = Self.release - .milliseconds(8)
        for (ms, y) in [(0, 0.0), (8, 2.0), (8, 2.5), (8, 2.6)] {
            h.append(TouchSample(time: start + .milliseconds(Int64(ms)), position: Vector(x: 0, y: y)))
        }
        #expect(VelocityEstimator.leastSquaresQuadratic(h) == nil)
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: Self.release))
        #expect(abs(v.y - 325) < 1e-9, "2.6 units in 8 ms: \(v.y)")
    }

    @Test("two samples stamped alike fit no line: LSQ2 gives the look-back average, not a stop")
    func twoSamplesStampedAlikeGiveTheAverage() throws {
        // A movement, a pause of 112 ms (beyond the fit's 100 ms window), then one read of two
        // frames stamped alike: only those two are the fit's.
        var h = TouchHistory(capacity: 64)
        let start = Self.release - .milliseconds(120)
        for (ms, y) in [(0, 0.0), (8, 1.0), (120, 2.0), (120, 2.6)] {
            h.append(TouchSample(time: start + .milliseconds(Int64(ms)), position: Vector(x: 0, y: y)))
        }
        #expect(VelocityEstimator.leastSquaresQuadratic(h) == nil)
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: Self.release))
        // 70 ms back from the newest: 1.0 + 42/112 of the way to 2.0; 1.225 units in 70 ms.
        #expect(abs(v.y - 17.5) < 1e-9, "the look-back average, not 0: \(v.y)")
    }

    @Test func repeatedFinalFrameIsDropped() throws {
        var h = Self.history(count: 16, repeatLast: true, position: Self.decelerating)
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: Self.release + Self.interval))
        #expect(abs(v.y - 900) < 0.05, "zero-length final frame dropped: expected 900.0, got \(v.y)")
    }

    @Test func repeatedFinalFrameKeptGives714_9() throws {
        // Without dropping it, LSQ2 sees the finger stop: the table's 714.9.
        let h = Self.history(count: 16, repeatLast: true, position: Self.decelerating)
        let v = try #require(VelocityEstimator.leastSquaresQuadratic(h))
        #expect(abs(v.y - 714.9) < 0.1, "expected 714.9, got \(v.y)")
    }

    @Test func noiseHalfAUnit() throws {
        // σ = 0.5 units of position noise: LSQ2 gives 999 ± 17 (mean and spread over many trials).
        var rng = SplitMix64(seed: 42)
        let trials = 4000
        var sum = 0.0
        var sumSquares = 0.0
        for _ in 0..<trials {
            var h = Self.history(count: 16) { 1000 * $0 + 0.5 * rng.nextGaussian() }
            let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: Self.release))
            sum += v.y
            sumSquares += v.y * v.y
        }
        let mean = sum / Double(trials)
        let sd = (sumSquares / Double(trials) - mean * mean).squareRoot()
        #expect(abs(mean - 1000) < 2, "mean \(mean)")
        #expect(sd > 13 && sd < 21, "standard deviation \(sd), expected about 17")
    }

    @Test(arguments: VelocityEstimatorKind.allCases)
    func stoppedFingersGiveZero(kind: VelocityEstimatorKind) throws {
        var h = Self.history(count: 16) { 1000 * $0 }
        // Released 41 ms after the newest motion: the fingers had stopped.
        let v = try #require(VelocityEstimator(kind: kind).estimate(&h, release: Self.release + .milliseconds(41)))
        #expect(v == .zero)
        var h2 = Self.history(count: 16) { 1000 * $0 }
        let moving = try #require(VelocityEstimator(kind: kind).estimate(&h2, release: Self.release + .milliseconds(39)))
        switch kind {
        case .lsq2:
            #expect(moving.y > 900, "39 ms is still a moving release: the fit's velocity at the newest sample")
        case .lookback:
            // Where the finger was 70 ms before the release, 31 ms before the newest sample: 31
            // units in 70 ms.
            #expect(abs(moving.y - 1000 * 31 / 70) < 1e-6, "39 ms is still a moving release: \(moving.y)")
        }
    }

    /// DESIGN_NOTES §2: look-back takes where the touch was 70 ms before the release, not before
    /// the newest motion. Fingers at 300 mm/s that stay still 30 ms (no frames) and lift moved
    /// 12 mm in the 70 ms before the release: 171 mm/s (it answered 300).
    @Test func lookbackReachesBackFromTheRelease() throws {
        var h = TouchHistory(capacity: 64)
        // 300 mm/s for 160 ms, a frame every 8 ms, the last at release − 30 ms.
        let last = Self.release - .milliseconds(30)
        for frame in 0...20 {
            h.append(TouchSample(time: last - .milliseconds(Int64(160 - frame * 8)), position: Vector(x: 0, y: 0.3 * Double(frame * 8))))
        }
        let v = try #require(VelocityEstimator(kind: .lookback).estimate(&h, release: Self.release))
        #expect(abs(v.y - 300.0 * 40 / 70) < 1e-6, "expected 171.4 mm/s, got \(v.y)")
        // Released with the newest frame, the same history gives the fingers' speed.
        var fresh = h
        let atOnce = try #require(VelocityEstimator(kind: .lookback).estimate(&fresh, release: last))
        #expect(abs(atOnce.y - 300) < 1e-6)
    }

    @Test func lsq2UsesAtMostTwentySamplesWithin100ms() throws {
        // An old, very different movement beyond 100 ms must not bend the fit.
        var h = TouchHistory(capacity: 64)
        for i in 0..<10 {  // 10 samples moving fast the other way, ending 140 ms before release
            h.append(TouchSample(time: Self.release - .milliseconds(220 - Int64(i) * 8), position: Vector(x: 0, y: -5000 * Double(i) * 0.008)))
        }
        let base = h.newest!.position.y
        for i in 0..<13 {  // then 13 samples (96 ms) at +1000 units/s
            let tau = -Double(12 - i) * 0.008
            h.append(TouchSample(time: Self.release + .seconds(tau), position: Vector(x: 0, y: base + 1000 * (tau + 0.096))))
        }
        let v = try #require(VelocityEstimator.leastSquaresQuadratic(h))
        #expect(abs(v.y - 1000) < 0.001, "got \(v.y)")
    }

    @Test func tooFewSamples() {
        var one = TouchHistory()
        one.append(TouchSample(time: Self.release, position: Vector(x: 0, y: 1)))
        #expect(VelocityEstimator(kind: .lsq2).estimate(&one, release: Self.release) == nil)
        var two = TouchHistory()
        two.append(TouchSample(time: Self.release - .milliseconds(10), position: Vector(x: 0, y: 0)))
        two.append(TouchSample(time: Self.release, position: Vector(x: 0, y: 5)))
        let v = VelocityEstimator(kind: .lsq2).estimate(&two, release: Self.release)
        #expect(v == Vector(x: 0, y: 500), "two samples: the line through them")
    }
}

/// Fingers that stop sharply after a flick: a parabola fitted over 100 ms of "fast, then
/// stopped" curves back at its end. Positions in mm, a frame every 8 ms.
@Suite struct VelocityEstimatorAfterAStop {
    static let interval = Duration.milliseconds(8)
    static let start = Instant(microseconds: 10_000_000)

    /// 13 frames at 1.6 mm (200 mm/s) from `start`, then a frame every 8 ms moving `then[i]` mm.
    static func flick(then steps: [Double]) -> TouchHistory {
        var h = TouchHistory(capacity: 64)
        var y = 0.0
        var time = start
        h.append(TouchSample(time: time, position: Vector(x: 0, y: y)))
        for step in Array(repeating: 1.6, count: 13) + steps {
            time = time + interval
            y += step
            h.append(TouchSample(time: time, position: Vector(x: 0, y: y)))
        }
        return h
    }

    @Test("a unit of jitter after the fingers stopped reads as the stop an exact repeat does, never a coast back",
          arguments: VelocityEstimatorKind.allCases)
    func jitterAfterAStopIsAStop(kind: VelocityEstimatorKind) throws {
        // 13 frames at 200 mm/s, 5 frames where they stopped, the last 0.033 mm back (a unit of
        // a 30 units/mm pad); released a frame later. LSQ2 answered −77 mm/s: up, against the
        // flick, faster than coast.min_speed.
        var h = Self.flick(then: [0, 0, 0, 0, 0, -0.033])
        let release = h.newest!.time + Self.interval
        let v = try #require(VelocityEstimator(kind: kind).estimate(&h, release: release))
        #expect(v.y > -Configuration.defaults.coast.minSpeed, "\(kind): \(v.y)")
        #expect(v == .zero, "\(kind): at rest 48 ms before the release, the fingers had stopped: \(v)")
    }

    @Test("fingers that crept after the flick coast no faster than twice their creep",
          arguments: VelocityEstimatorKind.allCases)
    func creepingAfterAFlickIsSlow(kind: VelocityEstimatorKind) throws {
        // 200 mm/s, then five frames at 10 mm/s (0.08 mm each); released a frame later. The fit
        // turned back, and the look-back average that answered instead reached into the flick:
        // 91 mm/s, a coast. The last 40 ms support 10 mm/s: at most 20.
        var h = Self.flick(then: Array(repeating: 0.08, count: 5))
        let release = h.newest!.time + Self.interval
        let v = try #require(VelocityEstimator(kind: kind).estimate(&h, release: release))
        #expect(v.y >= 0 && v.y <= 2 * 10 + 1e-9, "\(kind): \(v.y)")
    }

    @Test("a finger that rolls back by more than jitter after it stopped coasts back no faster than that roll supports")
    func aRollBackIsSlow() throws {
        // Stopped 5 frames, then 0.3 mm back in one frame: 7.5 mm/s over the last 40 ms, at
        // most 15 back (LSQ2 answered −82).
        var h = Self.flick(then: [0, 0, 0, 0, 0, -0.3])
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: h.newest!.time))
        #expect(v.y <= 0 && v.y >= -15 - 1e-9, "\(v.y)")
    }

    @Test("steady speed-up from a standstill keeps its full speed under the support rule",
          arguments: [24, 40, 64])
    func speedingUpFromAStandstillKeepsItsSpeed(milliseconds: Int) throws {
        // Constant acceleration from rest to 200 mm/s in `milliseconds`, released with the newest.
        var h = TouchHistory(capacity: 64)
        let a = 200 / (Double(milliseconds) / 1000)
        for frame in 0...(milliseconds / 8) {
            let t = Double(frame) * 0.008
            h.append(TouchSample(time: Self.start + .milliseconds(Int64(frame * 8)), position: Vector(x: 0, y: a * t * t / 2)))
        }
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: h.newest!.time))
        #expect(abs(v.y - 200) < 1e-6, "\(v.y)")
    }

    @Test("fingers moving on after a stop are held to the window when the look-back average answers")
    func theAverageIsNotVouchedForByASpeedUp() throws {
        // Stopped 3 frames, then on 0.3 and 0.5 mm (37.5, then 62.5 mm/s), released at once. The
        // fit turned back (−25 mm/s) and the average over 70 ms, reaching into the flick, answers
        // 97 mm/s: the steps' speed-up (to 75) vouches for a fit only, so 0.8 mm in 40 ms holds
        // it to 40 (too slow to coast).
        var h = Self.flick(then: [0, 0, 0, 0.3, 0.5])
        let raw = try #require(VelocityEstimator.leastSquaresQuadratic(h))
        #expect(raw.y < 0, "the fit turned back: \(raw.y)")
        #expect(abs(VelocityEstimator.speedUp(along: Vector(x: 0, y: 1), in: h) - 75) < 1e-6)
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: h.newest!.time))
        #expect(v.y >= 0 && v.y <= 2 * 0.8 / 0.04 + 1e-9, "\(v.y)")
    }

    @Test("a fit against the motion whose newest steps went back less than jitter gives the average")
    func aBackStepWithinJitterIsNoTurn() throws {
        // Stopped 3 frames (24 ms: still a moving release), then 0.1 mm back, released at once.
        var h = Self.flick(then: [0, 0, 0, -0.1])
        let raw = try #require(VelocityEstimator.leastSquaresQuadratic(h))
        #expect(raw.y < 0, "the fit turned back: \(raw.y)")
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: h.newest!.time))
        #expect(v.y > 0, "the flick's way: \(v.y)")
    }
}

/// Fingers still speeding up when they lift: a flick lifted early in its stroke. A minimum-jerk
/// stroke of 20 mm over 100 ms (x = 20·(10s³ − 15s⁴ + 6s⁵), s = t/100 ms) speeds up as t² at
/// first, so it ends a window at up to three times its mean speed, where a steady speed-up ends
/// it at twice. Positions in mm, a frame every 8 ms.
@Suite struct VelocityEstimatorWhileSpeedingUp {
    static let start = Instant(microseconds: 10_000_000)
    /// The stroke's positions at 0, 8, 16, 24 and 32 ms.
    static let stroke = [0, 0.0905, 0.6352, 1.865, 3.8105]

    static func history(_ positions: [Double], every interval: Duration = .milliseconds(8)) -> TouchHistory {
        var h = TouchHistory(capacity: 64)
        for (frame, y) in positions.enumerated() {
            h.append(TouchSample(time: start + interval * Int64(frame), position: Vector(x: 0, y: y)))
        }
        return h
    }

    @Test("a flick lifted while still speeding up keeps the fit's speed",
          arguments: [(frames: 5, speed: 284.0), (frames: 4, speed: 200.0)])
    func aFlickLiftedEarlyKeepsItsSpeed(lift: (frames: Int, speed: Double)) throws {
        // Lifted 32 ms in, at 284 mm/s, LSQ2 says 274; the window's twice-the-mean cut it to 238.
        // Lifted 24 ms in, at 200 mm/s, LSQ2 says 184; it was cut to 155.
        var h = Self.history(Array(Self.stroke.prefix(lift.frames)))
        let fitted = try #require(VelocityEstimator.leastSquaresQuadratic(h))
        let v = try #require(VelocityEstimator(kind: .lsq2).estimate(&h, release: h.newest!.time))
        #expect(abs(v.y - fitted.y) <= 0.05 * fitted.y, "the fit's \(fitted.y) mm/s, got \(v.y)")
        #expect(abs(v.y - lift.speed) <= 0.1 * lift.speed, "the finger's \(lift.speed) mm/s, got \(v.y)")
    }

    @Test("the newest two steps' speed-up is carried on to the newest sample")
    func theSpeedUpOfTheNewestSteps() {
        // 1.2298 mm in 8 ms, then 1.9455: 153.7 then 243.2 mm/s, 287.9 at 32 ms (the stroke's 284).
        let h = Self.history(Self.stroke)
        let v = VelocityEstimator.speedUp(along: Vector(x: 0, y: 1), in: h)
        #expect(abs(v - 287.9) < 0.1, "\(v)")
        #expect(VelocityEstimator.speedUp(along: Vector(x: 0, y: -1), in: h) == 0, "none the other way")
    }

    @Test("one step proves no speed-up: from rest, after a unit of jitter, or slowing down")
    func oneStepIsNoSpeedUp() {
        let up = Vector(x: 0, y: 1)
        // Still, then 1 mm in one frame (a finger rolling as it lifts).
        #expect(VelocityEstimator.speedUp(along: up, in: Self.history([0, 0, 0, 1])) == 0)
        // Still but for a unit of jitter of a 10 units/mm pad, then 1 mm.
        #expect(VelocityEstimator.speedUp(along: up, in: Self.history([0, 0, 0.1, 1.1])) == 0)
        // 1 mm, then 0.5 mm: slowing down.
        #expect(VelocityEstimator.speedUp(along: up, in: Self.history([0, 0, 1, 1.5])) == 0)
    }

    @Test("a frame delivered 1 ms after the one before measures no speed over that millisecond")
    func aFrameInABunchMeasuresOverTheStep() {
        // Creeping at 0.25 mm a frame (31 mm/s), the newest frame stamped 1 ms after the one
        // before: the newest step reaches back 9 ms (0.5 mm: 55.6 mm/s), not 1 ms (250 mm/s,
        // carried on to 274).
        var h = Self.history([0, 0.25, 0.5, 0.75, 1.0])
        h.append(TouchSample(time: h.newest!.time + .milliseconds(1), position: Vector(x: 0, y: 1.25)))
        let v = VelocityEstimator.speedUp(along: Vector(x: 0, y: 1), in: h)
        let newer = 0.5 / 0.009, earlier = 0.25 / 0.008
        #expect(abs(v - (newer + (newer - earlier) * 9 / 17)) < 1e-9, "\(v)")
    }
}

/// The flick lifted early, with its fingers leaving 24 ms apart (DESIGN_NOTES §2: 10–30 ms),
/// the one left behind still speeding up along the flick: it coasts. Driven frame by frame
/// (`FingerFrameWriter`) because the first finger lifts in a frame where the other moves.
@Suite struct StaggeredLiftWhileSpeedingUp {
    @Test("two fingers leaving a flick 24 ms apart while speeding up coast")
    func fingersLeavingWhileSpeedingUpCoast() throws {
        // Down two fingers at (30 mm, 20 mm) and (50 mm, 20 mm) → the stroke above (20 mm over
        // 100 ms, minimum jerk) → at 40 ms lift the second (the first has reached 26.35 mm) →
        // 48, 56 ms: the first goes on to 29.25, 32.22 mm → 64 ms: lift it. The first moved
        // 5.87 mm after the other lifted; the flick carries it 16 ms at the release velocity.
        // Cut to 238 mm/s, that left 2.07 mm of its own: more than touchpad.lift_travel (2 mm), a
        // finger that stayed, no coast. At the fit's 274 mm/s it is 1.49 mm: the flick's.
        let description = try Fixtures.device("synaptics-t440")
        var writer = FingerFrameWriter(description: description, clampsToAxes: false)
        let engine = Engine(configuration: .defaults)
        var reports: [EngineReport] = []
        engine.onReport = { reports.append($0) }
        let device: DeviceID = 7
        engine.addDevice(device, description: description, touchPressure: .description)
        func y(_ ms: Double) -> Double {
            let s = min(ms / 100, 1)
            return 20 + 20 * (10 * s * s * s - 15 * s * s * s * s + 6 * s * s * s * s * s)
        }
        let start = Instant(microseconds: 1_000_000)
        func frame(at ms: Int64, _ fingers: [Vector?]) {
            let time = start + .milliseconds(ms)
            writer.frame(fingers) { _ = engine.handle($0, from: device, at: time) }
        }
        for ms: Int64 in [0, 8, 16, 24, 32] {
            let along = y(Double(ms))
            frame(at: ms, [Vector(x: 30, y: along), Vector(x: 50, y: along)])
        }
        for ms: Int64 in [40, 48, 56] {
            frame(at: ms, [Vector(x: 30, y: y(Double(ms))), nil])
        }
        frame(at: 64, [nil, nil])
        let coasts = reports.compactMap { report -> CoastPlan? in
            if case .coastStarted(_, _, let plan) = report { return plan } else { return nil }
        }
        let plan = try #require(coasts.first, "no coast: \(reports)")
        #expect(plan.releaseVelocity.y > 0.95 * 274, "the fit's 274 mm/s: \(plan.releaseVelocity)")
    }
}
