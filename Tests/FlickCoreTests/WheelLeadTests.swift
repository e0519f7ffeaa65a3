import Foundation
import Testing
@testable import FlickCore

/// The wheel output runs 60 hi-res units ahead of the model, so libinput's hold-back (60 units
/// after a pause, reset after 500 ms without an event) neither delays the first event nor
/// swallows the slow tail.
@Suite struct WheelLeadTests {
    static let origin = Instant(microseconds: 5_000_000)
    static let period = Duration.milliseconds(8)

    static func coast(velocity: Double, rate: Double = 0.998, maxDuration: Duration = .milliseconds(60000)) -> Coast {
        Coast(source: 1, origin: origin, vertical: velocity, horizontal: 0, millimetresPerSecond: Vector(x: 0, y: 1),
              deceleration: Deceleration(ratePerMillisecond: rate), maxDuration: maxDuration, period: period)
    }

    /// Every non-empty output as (time, vertical units), ticking at each deadline, and whether
    /// it ended.
    static func run(_ coast: inout Coast, from start: Instant) -> [(Instant, Int32)] {
        var out: [(Instant, Int32)] = []
        var now = start
        for _ in 0..<100_000 {
            let (output, ended) = coast.advance(to: now)
            if output.verticalHiRes != 0 { out.append((now, output.verticalHiRes)) }
            if ended { return out }
            now = max(coast.nextDeadline, now + Duration(microseconds: 1))
        }
        Issue.record("the coast never ended")
        return out
    }

    @Test("the first event carries the model's first step plus 60 units", arguments: [3000.0, -3000.0, 24000.0])
    func firstEventPassesTheHoldBack(velocity: Double) {
        var c = Self.coast(velocity: velocity)
        let first = c.advance(to: Self.origin + Self.period).output.verticalHiRes
        let model = Deceleration(ratePerMillisecond: 0.998).position(after: 0.008, velocity: velocity)
        #expect(abs(Double(first)) >= 60, "first event \(first)")
        #expect(abs(Double(first) - (model + (velocity > 0 ? 60 : -60))) <= 1)
    }

    @Test("the total is kept, reached 60 units early, with no gap of 400 ms or more",
          arguments: [(3000.0, 0.998), (-500.0, 0.998), (200.0, 0.9999), (1500.0, 0.99)])
    func totalKeptAndNoLongGaps(velocity: Double, rate: Double) {
        var c = Self.coast(velocity: velocity, rate: rate)
        // round(X), X = v0/k with k = −1000·ln d: each output reaches it, the model 60.5 units
        // short, well within the 60 s limit (200 units/s at 0.9999 after 35 s; its model would
        // come within half a unit of X only after 83 s).
        let k = -1000 * log(rate)
        let total = Int64((velocity / k).rounded())
        let out = Self.run(&c, from: Self.origin + Self.period)
        let sum = out.reduce(Int64(0)) { $0 + Int64($1.1) }
        #expect(!out.isEmpty, "the coast wrote nothing")
        #expect(sum == total, "emitted \(sum) of \(total)")
        let gaps = zip(out, out.dropFirst()).map { ($1.0 - $0.0).milliseconds }
        #expect((gaps.max() ?? 0) < 400, "largest gap \(gaps.max() ?? 0) ms")
        // It ends where the model is still about 60 units short of its destination.
        if let last = out.last {
            let d = Deceleration(ratePerMillisecond: rate)
            let model = d.position(after: (last.0 - Self.origin).seconds, velocity: velocity)
            // Within one period's motion there (60·k units/s) and rounding.
            let slack = 60 * d.decayPerSecond * Self.period.seconds + 1.5
            #expect(abs(abs(Double(total) - model) - 60) <= slack, "model \(model) at the last event, total \(total)")
        }
    }

    @Test("a coast of less than 60 units is emitted at once")
    func smallCoast() {
        var c = Self.coast(velocity: 80)  // X = 80/k = 40 units (k = −1000·ln 0.998 ≈ 2.002)
        let out = Self.run(&c, from: Self.origin + Self.period)
        #expect(out.count == 1 && out.first?.1 == 40, "\(out)")
    }

    @Test("a coast cut by max_duration emits its total by the end, nothing after")
    func cutCoast() {
        var c = Self.coast(velocity: 3000, maxDuration: .milliseconds(300))
        // Where the output is at 300 ms: the model x(t) = (v0/k)·(1 − e^(−k·t)), k = −1000·ln 0.998,
        // plus the lead.
        let k = -1000 * log(0.998)
        let total = Int64((3000 / k * (1 - exp(-k * 0.3)) + 60).rounded())
        #expect(!c.settles && c.end == Self.origin + .milliseconds(300))
        let out = Self.run(&c, from: Self.origin + Self.period)
        #expect(!out.isEmpty, "the coast wrote nothing")
        #expect(out.reduce(Int64(0)) { $0 + Int64($1.1) } == total, "\(out), expected \(total)")
        #expect(out.allSatisfy { $0.0 <= Self.origin + .milliseconds(300) })
    }

    /// With the lead the output reaches its total while the model is 60.5 units short, at
    /// t = −ln(1 − k·(total − 60.5)/v0)/k: the coast ends with that event and says when
    /// beforehand, so its plan's duration is true. One that settles ends exactly then (its
    /// total is round(X)); one cut by max_duration writes where the output is at max_duration,
    /// and so ends within the last unit before it.
    @Test("a coast ends with its last event, when it said it would",
          arguments: [(3000.0, Duration.milliseconds(60000)), (-3000.0, .milliseconds(60000)),
                      (3000.0, .milliseconds(300)), (30000.0, .milliseconds(5000))])
    func endsWithItsLastEvent(velocity: Double, maxDuration: Duration) throws {
        var c = Self.coast(velocity: velocity, maxDuration: maxDuration)
        let k = -1000 * log(0.998)
        let destination = (velocity / k).rounded()
        let written = -log(1 - k * (destination - (velocity > 0 ? 60.5 : -60.5)) / velocity) / k
        let settles = written <= maxDuration.seconds
        let lead = velocity > 0 ? 60.0 : -60.0
        let total = settles ? destination : (velocity / k * (1 - exp(-k * maxDuration.seconds)) + lead).rounded()
        let last = total - (velocity > 0 ? 60.5 : -60.5)
        let expected = Self.origin + Duration.seconds(-log(1 - k * last / velocity) / k)
        #expect(c.settles == settles)
        #expect(abs((c.outputEnd - expected).microseconds) <= 1, "\(c.outputEnd) vs \(expected)")
        if settles {
            #expect(c.outputEnd == c.end, "a coast that settles ends when its output has written round(X)")
        } else {
            // Within the model's last unit before max_duration: it moves faster than 60·k units/s.
            #expect(c.end == Self.origin + maxDuration && c.outputEnd <= c.end
                        && (c.end - c.outputEnd).seconds <= 1 / (60 * k), "\(c.outputEnd), cut at \(c.end)")
        }
        var now = Self.origin + Self.period
        var lastEvent: Instant?
        var endedAt: Instant?
        for _ in 0..<100_000 {
            let (output, ended) = c.advance(to: now)
            if output.verticalHiRes != 0 { lastEvent = now }
            if ended { endedAt = now; break }
            now = max(c.nextDeadline, now + Duration(microseconds: 1))
        }
        let end = try #require(endedAt, "the coast never ended")
        #expect(end == lastEvent, "ended at \(end), last event at \(String(describing: lastEvent))")
        #expect(end >= c.outputEnd && end - c.outputEnd <= Self.period, "ended \(end), said \(c.outputEnd)")
    }
    /// At 10 ticks a second (100 ms apart) and max_duration 50 ms, a coast that writes its
    /// destination in 11 ms still writes its last step by max_duration, not a period after its
    /// first tick (the soak found one writing at 100 ms).
    @Test("a coast that settles within a tick period writes its end by max_duration")
    func noTickPastMaxDuration() {
        var c = Coast(source: 1, origin: Self.origin, vertical: 20_000, horizontal: 0, millimetresPerSecond: Vector(x: 0, y: 1),
                      deceleration: Deceleration(ratePerMillisecond: 0.9), maxDuration: .milliseconds(50),
                      period: .milliseconds(100))
        #expect(c.settles && c.end < Self.origin + .milliseconds(12), "written by \(c.end)")
        var now = Self.origin + .milliseconds(1)
        var ended = false
        for _ in 0..<10 where !ended {
            ended = c.advance(to: now).ended
            if !ended {
                now = c.nextDeadline
                #expect(now <= Self.origin + .milliseconds(50), "a tick at \(now), past max_duration")
            }
        }
        #expect(ended && c.emittedVertical == 190, "ended \(ended), \(c.emittedVertical) of 190 units")
    }
}
