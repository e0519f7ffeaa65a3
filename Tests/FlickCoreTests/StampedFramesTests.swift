import Testing
@testable import FlickCore
import FlickTestSupport

/// The virtual touchpad's frames with flickd's own timestamps (`output.timestamps`; kernels
/// from 6.5 take a uinput event's stamp), on virtual time.
@Suite struct StampedFramesTests {
    static let deceleration = Deceleration(ratePerMillisecond: 0.998)
    static let release = Instant(microseconds: 10_000_000)

    /// Every frame the fingers write when ticked at each deadline, each tick at `max(deadline,
    /// time)`, as (tick, frame).
    static func run(_ fingers: inout VirtualFingers, from time: Instant) -> [(tick: Instant, frame: TouchFrame)] {
        var frames: [(Instant, TouchFrame)] = []
        var ticks = 0
        while let deadline = fingers.nextDeadline, ticks < 10_000 {
            let now = max(deadline, time)
            if let frame = fingers.advance(to: now).frame { frames.append((now, frame)) }
            ticks += 1
        }
        return frames
    }

    @Test("150 mm/s: the landing is stamped back by the opening; make-up, baseline and the model's first frame go out at the release, stamped at the opening's intervals")
    func openingAtOnce() throws {
        var fingers = VirtualFingers(lead: .zero, stampsFrames: true)
        let landed = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release)
        let landing = try #require(landed)
        let makeUp = VirtualFingers.makeUp(speed: 150)
        let opening = VirtualFingers.openingDuration(makeUp: makeUp)
        #expect(landing.action == .land)
        #expect(landing.stamp == Self.release - opening, "stamped \(opening) before the release")
        #expect(fingers.nextDeadline == landing.stamp! + VirtualFingers.makeUpInterval(distance: makeUp),
                "the make-up is due already")
        // Three frames at the release tick, stamped at the intervals the kernel-stamped glide waits out.
        var atRelease: [TouchFrame] = []
        while let deadline = fingers.nextDeadline, deadline <= Self.release {
            atRelease.append(try #require(fingers.advance(to: Self.release).frame))
        }
        let stamps = atRelease.compactMap(\.stamp)
        #expect(atRelease.count == 3 && stamps.count == 3)
        #expect(zip([landing.stamp!] + stamps, stamps).map { $1 - $0 }
                == [VirtualFingers.makeUpInterval(distance: makeUp), VirtualFingers.baselineInterval,
                    VirtualFingers.openingInterval])
        #expect(stamps.last == Self.release, "the model's first frame is for the release")
        // Their motion is the kernel-stamped glide's: the make-up, then one device unit.
        #expect(abs(atRelease[0].first.y - landing.first.y - makeUp) < 1e-9)
        #expect(abs(atRelease[1].first.y - atRelease[0].first.y - VirtualFingers.baselineDistance) < 1e-9)
        // Then one frame per period, each stamped with its tick.
        let rest = Self.run(&fingers, from: Self.release + .milliseconds(1))
        let moves = rest.filter { $0.frame.action == .move }
        #expect(moves.first?.tick == Self.release + VirtualFingers.framePeriod)
        for move in moves { #expect(move.frame.stamp == move.tick, "at \(move.tick)") }
        let lift = try #require(rest.last)
        #expect(lift.frame.action == .lift && lift.frame.stamp == lift.tick)
        #expect(lift.tick - moves.last!.tick == VirtualFingers.restBeforeLift)
    }

    @Test("without stamps the same glide's frames carry none, and the opening waits out its intervals")
    func unstampedAsBefore() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landed = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release)
        let landing = try #require(landed)
        #expect(landing.stamp == nil)
        #expect(fingers.advance(to: Self.release).frame == nil, "the make-up is not due at the release")
        let frames = Self.run(&fingers, from: Self.release)
        #expect(frames.allSatisfy { $0.frame.stamp == nil })
        #expect(frames[2].tick - Self.release == VirtualFingers.openingDuration(makeUp: VirtualFingers.makeUp(speed: 150)))
    }

    @Test("stamps never go back: a release right after a lift lands no earlier than the lift's stamp")
    func stampsAreMonotonic() throws {
        var fingers = VirtualFingers(lead: .zero, stampsFrames: true)
        _ = fingers.start(velocity: Vector(x: 0, y: 60), deceleration: Self.deceleration,
                          maxDuration: .milliseconds(5000), at: Self.release)
        let first = Self.run(&fingers, from: Self.release)
        let lift = try #require(first.last)
        #expect(lift.frame.action == .lift)
        // A new flick released 1 ms after that lift: the opening would reach back before it.
        let again = lift.tick + .milliseconds(1)
        let landed = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: again)
        let landing = try #require(landed)
        #expect(landing.stamp == lift.frame.stamp, "clamped to the lift's stamp, not \(VirtualFingers.openingDuration(makeUp: 1.8)) before the release")
        let second = Self.run(&fingers, from: again)
        let frames = [lift.frame, landing] + second.map(\.frame)
        let stamps = frames.compactMap(\.stamp)
        #expect(stamps.count == frames.count, "every frame stamped")
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 }, "\(stamps)")
        #expect(stamps.allSatisfy { $0 <= max(again, second.last!.tick) }, "no stamp in the future")
    }

    @Test("a late write changes nothing when frames carry their stamps: the next frame keeps the period")
    func lateWritesAreNoLag() throws {
        var fingers = VirtualFingers(lead: .zero, stampsFrames: true)
        _ = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                          maxDuration: .milliseconds(5000), at: Self.release)
        while let deadline = fingers.nextDeadline, deadline <= Self.release { _ = fingers.advance(to: Self.release) }
        let tick = Self.release + VirtualFingers.framePeriod
        let frame = try #require(fingers.advance(to: tick).frame)
        fingers.frameWritten(at: tick + .milliseconds(6))
        #expect(fingers.nextDeadline == tick + VirtualFingers.framePeriod, "not pushed a period after the write")
        let next = try #require(fingers.advance(to: tick + VirtualFingers.framePeriod).frame)
        // The step is the model's over the stamped 8 ms (150 mm/s slowed by e^(-kt)): no held-write lag.
        let t0 = (tick - (Self.release + VirtualFingers.framePeriod)).seconds
        let expected = Self.deceleration.position(after: t0 + VirtualFingers.framePeriod.seconds, velocity: 150)
            - Self.deceleration.position(after: t0, velocity: 150)
        #expect(abs((next.first.y - frame.first.y) - expected) < 0.3,
                "\(next.first.y - frame.first.y) mm against the model's \(expected) mm (the catch-up cap aside)")
        #expect(next.stamp == tick + VirtualFingers.framePeriod)
    }

    @Test("output.timestamps: auto follows the kernel; flickd and kernel force it; the engine applies it from the next glide")
    func setting() {
        #expect(FrameTimestamps.auto.stampsFrames(kernelTakesStamps: true))
        #expect(!FrameTimestamps.auto.stampsFrames(kernelTakesStamps: false))
        #expect(FrameTimestamps.flickd.stampsFrames(kernelTakesStamps: false))
        #expect(!FrameTimestamps.kernel.stampsFrames(kernelTakesStamps: true))
        #expect(Configuration.defaults.output.timestamps == .auto)
        let engine = Engine()
        #expect(!engine.stampsTouchFrames, "no kernel said it takes stamps")
        engine.kernelTakesStamps = true
        #expect(engine.stampsTouchFrames)
        var kernel = Configuration.defaults
        kernel.output.timestamps = .kernel
        engine.apply(kernel, at: Self.release)
        #expect(!engine.stampsTouchFrames)
    }

    @Test("through the engine: a flick on a kernel that takes stamps lands stamped before the release, every frame stamped and none in the future")
    func engineFlick() throws {
        let pad = TouchpadOutputTests.Pad()
        pad.script.engine.kernelTakesStamps = true
        pad.flick(Vector(x: 0, y: 20))
        let release = pad.script.now
        pad.script.wait(.seconds(6))
        let landing = try #require(pad.frames.first)
        #expect(landing.frame.action == .land)
        let stamp = try #require(landing.frame.stamp)
        #expect(stamp < release && release - stamp <= .milliseconds(7), "\(stamp) against the release \(release)")
        for (time, frame) in pad.frames {
            let stamp = try #require(frame.stamp, "\(frame) at \(time)")
            #expect(stamp <= time, "\(frame) written at \(time)")
        }
        #expect(pad.actions.last == .lift)
        // The landing and the whole opening are handed over at the release, in one go.
        let atRelease = pad.frames.filter { $0.time == release }
        #expect(atRelease.count == 4, "\(pad.frames.prefix(6).map { "\($0.frame) at \($0.time)" })")
        #expect(atRelease.last?.frame.stamp == release, "the model's first frame is for the release")
    }

    @Test("a release handled 15 ms late: the opening is stamped to end at the write, and the model's first frame moves no more than from rest")
    func lateRelease() throws {
        var fingers = VirtualFingers(stampsFrames: true)
        let landed = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                   maxDuration: .milliseconds(5000), at: Self.release)
        let landing = try #require(landed)
        let handled = Self.release + .milliseconds(15)
        var opening: [TouchFrame] = []
        while let deadline = fingers.nextDeadline, deadline <= handled {
            opening.append(try #require(fingers.advance(to: handled).frame))
        }
        #expect(opening.count == 3)
        #expect(opening.compactMap(\.stamp) == [handled - VirtualFingers.baselineInterval - VirtualFingers.openingInterval,
                                                handled - VirtualFingers.openingInterval, handled])
        #expect(try #require(landing.stamp) < opening[0].stamp!)
        // From rest (the baseline's one unit in 1 ms) the first model frame may add 300 mm/s.
        let step = opening[2].first.y - opening[1].first.y
        let cap = (VirtualFingers.baselineDistance / VirtualFingers.baselineInterval.seconds
            + VirtualFingers.maximumSpeedIncrease) * VirtualFingers.openingInterval.seconds
        #expect(step <= cap + 1e-9, "\(step) mm in 2 ms")
    }
}
