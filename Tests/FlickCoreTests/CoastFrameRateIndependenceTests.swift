import Foundation
import Testing
@testable import FlickCore

/// Frame-rate independence: the emitted total is round(X) at any tick rate.
@Suite struct CoastFrameRateIndependence {
    static let rates: [Double] = [60, 120, 144, 1000]

    @Test(arguments: rates)
    func totalEqualsRoundedDestination(rate: Double) {
        for (vertical, horizontal) in [(1000.0, 0.0), (-2400.0, 700.0), (37.0, -5000.0), (12345.6, 0)] {
            var coast = Coast(source: 1, origin: Instant(microseconds: 1_000_000), vertical: vertical, horizontal: horizontal,
                              millimetresPerSecond: Vector(x: 1, y: 1), deceleration: Deceleration(ratePerMillisecond: 0.998),
                              maxDuration: .milliseconds(60_000), period: .seconds(1 / rate))
            var total = (v: Int64(0), h: Int64(0))
            var detents = (v: Int64(0), h: Int64(0))
            var t = coast.origin
            var ended = false
            var ticks = 0
            while !ended && ticks < 100_000 {
                t = t + .seconds(1 / rate)
                let step = coast.advance(to: t)
                total.v += Int64(step.output.verticalHiRes)
                total.h += Int64(step.output.horizontalHiRes)
                detents.v += Int64(step.output.verticalDetents)
                detents.h += Int64(step.output.horizontalDetents)
                ended = step.ended
                ticks += 1
            }
            // X = v0/k with k = −1000·ln 0.998, per axis (all of these settle within 60 s).
            let k = -1000 * log(0.998)
            let d = (vertical: vertical / k, horizontal: horizontal / k)
            #expect(ended, "the coast settles at \(rate) Hz")
            #expect(total.v != 0 || total.h != 0, "the coast wrote nothing at \(rate) Hz")
            #expect(Double(total.v) == d.vertical.rounded(), "vertical at \(rate) Hz: emitted \(total.v), destination \(d.vertical)")
            #expect(Double(total.h) == d.horizontal.rounded(), "horizontal at \(rate) Hz: emitted \(total.h), destination \(d.horizontal)")
            // Legacy detents: one per whole 120 units, same sign.
            #expect(detents.v == total.v / 120, "legacy vertical detents \(detents.v) for \(total.v) hi-res units")
            #expect(detents.h == total.h / 120, "legacy horizontal detents \(detents.h) for \(total.h) hi-res units")
        }
    }

    @Test func ticksWithoutMovementEmitNothing() {
        var coast = Coast(source: 1, origin: .zero, vertical: 300, horizontal: 0, millimetresPerSecond: Vector(x: 0, y: 1),
                          deceleration: Deceleration(ratePerMillisecond: 0.998), maxDuration: .milliseconds(10_000),
                          period: .milliseconds(1))
        var empty = 0
        var nonEmpty = 0
        var t = Instant.zero
        var first: Int32?
        for _ in 0..<3000 {
            t = t + .milliseconds(1)
            let step = coast.advance(to: t)
            if step.output.isEmpty { empty += 1 } else {
                nonEmpty += 1
                if first == nil {
                    first = step.output.verticalHiRes
                } else {
                    #expect(abs(step.output.verticalHiRes) == 1, "at 1 kHz a slow coast moves one unit at a time")
                }
            }
            if step.ended { break }
        }
        // X = 149.85: the first tick emits the 60-unit lead, then 90 units one by one.
        #expect(first == 60)
        #expect(empty > 0 && nonEmpty == 91, "\(nonEmpty) non-empty ticks")
    }

    @Test func maxDurationCutsTheCoast() {
        var coast = Coast(source: 1, origin: .zero, vertical: 10_000, horizontal: 0, millimetresPerSecond: Vector(x: 0, y: 1),
                          deceleration: Deceleration(ratePerMillisecond: 0.998), maxDuration: .milliseconds(1000),
                          period: .milliseconds(8))
        #expect(!coast.settles)
        let step = coast.advance(to: Instant(microseconds: 5_000_000))
        #expect(step.ended)
        // x(1 s) = (v0/k)(1 − e^(−k·1 s)), k = −1000·ln 0.998: 4320 units of the 4997 at rest,
        // and the output 60 units ahead of it.
        let k = -1000 * log(0.998)
        let expected = (10_000 / k * (1 - exp(-k * 1)) + 60).rounded()
        #expect(Double(step.output.verticalHiRes) == expected, "stops where the output is at max_duration")
    }

    /// Woken exactly at each deadline, a coast writes something at every wake-up but its last
    /// (the end, which may find everything written): the deadline is never a microsecond before
    /// the crossing it was computed for.
    @Test(arguments: [120.0, 250, 500, 1000])
    func everyWakeUpAtADeadlineWrites(rate: Double) {
        for (vertical, horizontal) in [(3000.0, 0.0), (-9000.0, 2500.0), (600.0, -600.0), (20_000.0, 0)] {
            var coast = Coast(source: 1, origin: Instant(microseconds: 1_000_000), vertical: vertical, horizontal: horizontal,
                              millimetresPerSecond: Vector(x: 1, y: 1), deceleration: Deceleration(ratePerMillisecond: 0.997),
                              maxDuration: .milliseconds(5_000), period: .seconds(1 / rate))
            var t = coast.origin
            var empty = 0
            var wakeUps = 0
            while wakeUps < 100_000 {
                let step = coast.advance(to: t)
                wakeUps += 1
                if step.ended { break }
                if step.output.isEmpty { empty += 1 }
                t = coast.nextDeadline
            }
            #expect(empty == 0, "\(empty) of \(wakeUps) wake-ups wrote nothing at \(rate) Hz for (\(vertical), \(horizontal))")
        }
    }

    @Test func nextDeadlineSkipsTicksThatWouldEmitNothing() {
        var coast = Coast(source: 1, origin: .zero, vertical: 10, horizontal: 0, millimetresPerSecond: Vector(x: 0, y: 1),
                          deceleration: Deceleration(ratePerMillisecond: 0.9999), maxDuration: .milliseconds(10_000),
                          period: .milliseconds(8))
        // X = 100: the lead (60) goes at once; then at 10 units/s the next half unit is reached
        // after ~50 ms, not after one 8 ms period.
        #expect(coast.advance(to: .zero).output.verticalHiRes == 60)
        let first = coast.nextDeadline.microseconds
        #expect(first > 40_000 && first < 60_000, "first deadline \(first) µs")
    }
}
