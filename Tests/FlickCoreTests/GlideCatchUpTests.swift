import Testing
@testable import FlickCore

/// A glide whose fingers fall behind their model (the lead, the speed ramp of a fast release, a
/// landing written late): they catch up at most `maximumCatchUp` times the model's speed, to
/// the model's end. On virtual time; every frame is reported written at its deadline.
@Suite struct GlideCatchUpTests {
    static let release = Instant(microseconds: 10_000_000)
    static let period = VirtualFingers.framePeriod

    /// A glide down at `speed` (mm/s), deceleration `rate` a millisecond, whose landing is written
    /// `late` after the release: every frame until the lift, each written at its deadline.
    static func glide(speed: Double, rate: Double, landingWrittenLate late: Duration)
        -> (landing: TouchFrame, frames: [(time: Instant, frame: TouchFrame, ended: VirtualFingers.Ending?)])?
    {
        var fingers = VirtualFingers()
        guard let landing = fingers.start(velocity: Vector(x: 0, y: speed), deceleration: Deceleration(ratePerMillisecond: rate),
                                          maxDuration: .milliseconds(5000), at: release).landing
        else { return nil }
        fingers.frameWritten(at: release + late)
        var frames: [(Instant, TouchFrame, VirtualFingers.Ending?)] = []
        while let due = fingers.nextDeadline, frames.count < 5000 {
            let (frame, ended) = fingers.advance(to: due)
            guard let frame else { continue }
            fingers.frameWritten(at: due)
            frames.append((due, frame, ended))
        }
        return (landing, frames)
    }

    @Test("a glide still behind its model when the model ends stops where the fingers are: no frame faster than the catch-up allows, no fast last frame",
          arguments: [(0.99, 1500.0, 0), (0.99, 1500.0, 2), (0.99, 1500.0, 5), (0.99, 1000.0, 30),
                      (0.998, 400.0, 150), (0.998, 1000.0, 150), (0.998, 1500.0, 150), (0.998, 1000.0, 200)])
    func noDumpAtTheEnd(rate: Double, speed: Double, lateMilliseconds: Int) throws {
        let run = try #require(Self.glide(speed: speed, rate: rate, landingWrittenLate: .milliseconds(Int64(lateMilliseconds))))
        let deceleration = Deceleration(ratePerMillisecond: rate)
        let origin = Self.release + Self.period - VirtualFingers.lead
        func modelSpeed(_ time: Instant) -> Double {
            deceleration.velocity(after: max(0, (time - origin).seconds), velocity: speed)
        }
        let moves = run.frames.filter { $0.frame.action == .move }
        #expect(moves.count > 20)
        // From the model's first frame on (after the make-up and the baseline), each frame moves
        // at most `maximumCatchUp` times the model's speed at the frame's start.
        for (a, b) in zip(moves.dropFirst(2), moves.dropFirst(3)) {
            let step = b.frame.first.y - a.frame.first.y
            let frameSpeed = step / (b.time - a.time).seconds
            let limit = VirtualFingers.maximumCatchUp * modelSpeed(a.time)
            #expect(frameSpeed <= limit + 1e-6,
                    "\(rate) at \(speed) mm/s, landing \(lateMilliseconds) ms late: \(step) mm (\(frameSpeed) mm/s) at \(b.time - Self.release) after the release, the model at \(modelSpeed(a.time)) mm/s")
        }
        // It comes to rest: slow at the end, so no settle frames, the lift 200 ms after it.
        let last = try #require(moves.last)
        #expect(last.ended == .settled)
        #expect(run.frames.map(\.frame.action).suffix(2) == [.move, .lift])
        let lift = try #require(run.frames.last)
        #expect(lift.time - last.time == VirtualFingers.restBeforeLift)
        // What is dropped is what the fingers had not caught up: never more than the model's travel.
        let model = VirtualFingers.makeUp(speed: speed)
            + VirtualFingers.modelEnd(speed: speed, deceleration: deceleration, maxDuration: .milliseconds(5000)).distance
        let travel = last.frame.first.y - run.landing.first.y
        #expect(travel <= model + 1e-9 && travel > 0.6 * model, "travel \(travel) mm of the model's \(model) mm")
    }

    @Test("a glide that catches up on time travels the model's whole distance")
    func caughtUpTravelsItAll() throws {
        let run = try #require(Self.glide(speed: 150, rate: 0.998, landingWrittenLate: .milliseconds(1)))
        let deceleration = Deceleration(ratePerMillisecond: 0.998)
        let moves = run.frames.filter { $0.frame.action == .move }
        let last = try #require(moves.last)
        let model = VirtualFingers.makeUp(speed: 150)
            + VirtualFingers.modelEnd(speed: 150, deceleration: deceleration, maxDuration: .milliseconds(5000)).distance
        #expect(abs(last.frame.first.y - run.landing.first.y - model) < 1e-9)
        #expect(last.ended == .settled)
    }

    @Test("a release that continues resting fingers, handled 50 ms after its stamp: the first frame moves one frame period's worth of the ramp, not 50 ms of it")
    func continuedGlideHandledLate() throws {
        var fingers = VirtualFingers(lead: .zero)
        let deceleration = Deceleration(ratePerMillisecond: 0.998)
        _ = fingers.start(velocity: Vector(x: 0, y: 200), deceleration: deceleration, maxDuration: .milliseconds(5000),
                          at: Self.release)
        // The glide runs 100 ms, a touch stops it, and the hand flicks again 120 ms later.
        var time = Self.release
        while let due = fingers.nextDeadline, due <= Self.release + .milliseconds(100) {
            _ = fingers.advance(to: due)
            fingers.frameWritten(at: due)
            time = due
        }
        fingers.freeze(at: time + .milliseconds(1))
        let held = fingers.first
        let again = time + .milliseconds(120)
        let start = fingers.start(velocity: Vector(x: 0, y: 600), deceleration: deceleration, maxDuration: .milliseconds(5000),
                                  at: again)
        #expect(start == VirtualFingers.Start(), "continued, no landing")
        // flickd reads the release 50 ms after the kernel stamped it: the first tick is then.
        let handled = again + .milliseconds(50)
        let first = try #require(fingers.advance(to: handled).frame)
        fingers.frameWritten(at: handled)
        let step = first.first.y - held.y
        let bound = VirtualFingers.maximumSpeedIncrease * Self.period.seconds
        #expect(step > 0 && step <= bound + 1e-9, "first frame \(step) mm, at most \(bound) mm")
        // Then the ramp from rest, a frame period apart.
        let next = try #require(fingers.nextDeadline)
        #expect(next == handled + Self.period)
        let second = try #require(fingers.advance(to: next).frame)
        #expect(second.first.y - first.first.y <= bound + 1e-9)
    }
}
