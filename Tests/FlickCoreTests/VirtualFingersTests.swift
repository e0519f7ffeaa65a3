import Foundation
import Testing
@testable import FlickCore
import FlickTestSupport

/// The virtual touchpad's fingers (`output.mode = "touchpad"`), on virtual time.
///
/// Positions are millimetres on the virtual pad (y grows downwards). The model is
/// `x(t) = (v0/k)(1 − e^(−kt))` with `k = −1000·ln 0.998` per second. Most tests read the model
/// plainly (`lead: .zero`); the lead has tests of its own.
@Suite struct VirtualFingersTests {
    static let deceleration = Deceleration(ratePerMillisecond: 0.998)
    static let release = Instant(microseconds: 10_000_000)
    static let period = VirtualFingers.framePeriod
    static let rest = VirtualFingers.restBeforeLift
    static let settleRest = VirtualFingers.restBeforeSettle
    static let settleGap = VirtualFingers.settleInterval
    static let unit = 1 / VirtualPad.unitsPerMillimetre
    /// The model's decay constant k = −1000·ln d for d = 0.998, per second.
    static let k = -1000 * log(0.998)

    /// The model's distance (mm) `seconds` after it starts at `velocity` (mm/s), from the closed
    /// form x(t) = (v0/k)(1 − e^(−kt)), not from `Deceleration`'s own.
    static func model(after seconds: Double, velocity: Double) -> Double {
        velocity / k * (1 - exp(-k * seconds))
    }

    /// Every frame from `time` until the fingers are up (or `until`), ticking at each deadline.
    static func run(_ fingers: inout VirtualFingers, from time: Instant, until: Instant? = nil)
        -> [(time: Instant, frame: TouchFrame, ended: VirtualFingers.Ending?)]
    {
        var frames: [(Instant, TouchFrame, VirtualFingers.Ending?)] = []
        var guardCount = 0
        while let deadline = fingers.nextDeadline, guardCount < 10_000 {
            if let until, deadline > until { break }
            let now = max(deadline, time)
            let (frame, ended) = fingers.advance(to: now)
            if let frame { frames.append((now, frame, ended)) }
            guardCount += 1
        }
        return frames
    }

    /// Fingers gliding at `velocity` (mm/s) from the release and frozen `after` it: the
    /// frames written until then, and the time of the stop.
    static func stopped(_ fingers: inout VirtualFingers, velocity: Vector, after: Duration)
        -> (frames: [(time: Instant, frame: TouchFrame, ended: VirtualFingers.Ending?)], stop: Instant)
    {
        _ = fingers.start(velocity: velocity, deceleration: deceleration, maxDuration: .milliseconds(5000), at: release)
        let stop = release + after
        let frames = run(&fingers, from: release, until: stop)
        fingers.freeze(at: stop)
        return (frames, stop)
    }

    /// The timings the tests here (and TouchpadOutputTests, DaemonEventPathTests) compare
    /// frames with, as VirtualFingers names them: pinned to the values docs/DESIGN.md gives.
    @Test("the documented timings: a frame every 8 ms, the opening's baseline 1 ms and model frame 2 ms apart, 250 ms still then settle frames 50 ms apart, 200 ms still before the lift")
    func documentedTimings() {
        // "A quick opening": the baseline frame 1 ms after the make-up, the model's first frame
        // 2 ms after that, then one frame every 8 ms (125 Hz, a pad's rate).
        #expect(VirtualFingers.baselineInterval == .milliseconds(1))
        #expect(VirtualFingers.openingInterval == .milliseconds(2))
        #expect(VirtualFingers.framePeriod == .milliseconds(8))
        // "Fingers stopped while moving settle before the lift": rest 250 ms, three settle
        // frames 50 ms apart.
        #expect(VirtualFingers.restBeforeSettle == .milliseconds(250))
        #expect(VirtualFingers.settleFrames == 3 && VirtualFingers.settleInterval == .milliseconds(50))
        // "Rest, then lift": still 200 ms, so GTK's velocity is 0 at the lift and the touch is
        // never a two-finger tap (libinput's tap timeout is 180 ms).
        #expect(VirtualFingers.restBeforeLift == .milliseconds(200))
    }

    @Test("a release lands two fingers 18 mm apart across the motion, away from the edges")
    func landing() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landingFrame = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landingFrame)
        #expect(landing.action == .land)
        #expect(abs((landing.second - landing.first).length - 18) < 1e-9)
        #expect(landing.first.y == landing.second.y, "side by side across a vertical motion")
        // Sideways flick: one finger above the other.
        var sideways = VirtualFingers(lead: .zero)
        let otherFrame = sideways.start(velocity: Vector(x: -300, y: 0), deceleration: Self.deceleration,
                                                maxDuration: .milliseconds(5000), at: Self.release).landing
        let other = try #require(otherFrame)
        #expect(other.first.x == other.second.x)
        for point in [landing.first, landing.second, other.first, other.second] {
            for c in [point.x, point.y] {
                #expect(c >= VirtualPad.marginMillimetres && c <= VirtualPad.sideMillimetres - VirtualPad.marginMillimetres)
            }
        }
    }

    @Test("150 mm/s down: a quick opening (make-up, baseline), then frames every 8 ms, model distance in all, rest 200 ms, lift")
    func wholeGlide() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landingFrame = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landingFrame)
        let frames = Self.run(&fingers, from: Self.release)
        let moves = frames.filter { $0.frame.action == .move }
        let lifts = frames.filter { $0.frame.action == .lift }
        #expect(lifts.count == 1 && frames.last?.frame.action == .lift)
        // The opening, then evenly spaced.
        let intervals = zip([(time: Self.release, frame: landing, ended: nil)] + moves, moves).map { $1.time - $0.time }
        #expect(Array(intervals.prefix(3)) == [VirtualFingers.makeUpInterval(distance: VirtualFingers.makeUp(speed: 150)),
                                               VirtualFingers.baselineInterval, VirtualFingers.openingInterval])
        #expect(intervals.prefix(3).reduce(Duration.zero, +) <= .milliseconds(7),
                "the model's first frame comes within 7 ms of the landing, not three frame periods (24 ms) after it")
        for interval in intervals.dropFirst(3) { #expect(interval == Self.period) }
        // The first motion frame is the make-up only (libinput drops it), 5.5 mm at libinput's 12 ms.
        let first = try #require(moves.first)
        #expect(abs(first.frame.first.y - landing.first.y - VirtualFingers.makeUp(speed: 150)) < 1e-9)
        #expect(first.frame.first.x == landing.first.x, "straight down")
        #expect(abs(VirtualFingers.makeUp(speed: 150) * 12 / (intervals[0].seconds * 1000) - 5.5) < 0.01)
        // The baseline: one device unit.
        #expect(abs(moves[1].frame.first.y - first.frame.first.y - VirtualFingers.baselineDistance) < 1e-9)
        // Then the model, from a period after the landing: x(t) beyond the make-up.
        for move in moves[2...5] {
            let expected = Self.model(after: (move.time - (Self.release + Self.period)).seconds, velocity: 150)
            #expect(abs(move.frame.first.y - first.frame.first.y - max(expected, VirtualFingers.baselineDistance)) < 1e-9,
                    "at \(move.time)")
        }
        // Total travel: the model's destination v0/k, less the rest distance, plus the make-up.
        let last = try #require(moves.last)
        let travel = last.frame.first.y - landing.first.y
        let destination = 150 / Self.k
        #expect(abs(travel - (destination - VirtualFingers.restDistance + VirtualFingers.makeUp(speed: 150))) < 1e-6,
                "travel \(travel) vs \(destination) - \(VirtualFingers.restDistance) + make-up")
        #expect(abs(destination - 74.9) < 0.1)
        #expect(last.ended == .settled)
        // No jump at the end: the last frame moves no more than the one before it (the model
        // is at its slowest there), and far less than the rest distance it used to jump.
        let beforeLast = moves[moves.count - 2], third = moves[moves.count - 3]
        let lastStep = last.frame.first.y - beforeLast.frame.first.y
        let previousStep = beforeLast.frame.first.y - third.frame.first.y
        #expect(lastStep <= previousStep + 1e-9 && lastStep < VirtualFingers.restDistance / 10,
                "last step \(lastStep) mm after \(previousStep) mm")
        // The lift: 200 ms after the last motion, not moving, at the last position.
        let lift = try #require(lifts.first)
        #expect(lift.time - last.time == Self.rest)
        #expect(lift.frame.first == last.frame.first && lift.frame.second == last.frame.second)
        #expect(!fingers.isDown && fingers.nextDeadline == nil)
        // Still 18 mm apart all along.
        for move in moves { #expect(abs((move.frame.second - move.frame.first).length - 18) < 1e-9) }
    }

    @Test("a stop mid-glide freezes the fingers: still 250 ms, three settle units along the motion 50 ms apart, still 200 ms, lift")
    func stopFreezes() throws {
        #expect(VirtualFingers.settleFrames == 3 && Self.settleGap == .milliseconds(50))
        var fingers = VirtualFingers(lead: .zero)
        let (before, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: -400), after: .milliseconds(203))
        let lastMotion = try #require(before.last)
        #expect(!fingers.isGliding && fingers.isDown)
        #expect(fingers.velocity(at: stop) == .zero)
        // Ticks before the first settle frame's time write nothing.
        #expect(fingers.advance(to: stop + .milliseconds(100)).frame == nil)
        #expect(fingers.advance(to: lastMotion.time + Self.settleRest - Duration(microseconds: 1)).frame == nil)
        let after = Self.run(&fingers, from: stop)
        #expect(after.map(\.frame.action) == [.move, .move, .move, .lift])
        let settles = after.dropLast()
        let lift = try #require(after.last)
        var previous = lastMotion
        for (i, settle) in settles.enumerated() {
            #expect(settle.time - previous.time == (i == 0 ? Self.settleRest : Self.settleGap))
            #expect(settle.frame.first.x == previous.frame.first.x && settle.frame.second.x == previous.frame.second.x)
            #expect(abs(settle.frame.first.y - (previous.frame.first.y - Self.unit)) < 1e-9,
                    "one device unit the way the fingers moved (up)")
            #expect(abs(settle.frame.second.y - (previous.frame.second.y - Self.unit)) < 1e-9)
            #expect(settle.ended == nil)
            previous = settle
        }
        #expect(lift.time - previous.time == Self.rest)
        #expect(lift.frame.first == previous.frame.first, "no motion between the last settle frame and the lift")
    }

    /// chromium's fling at the lift (its Wayland backend): the mean speed of the last scroll
    /// frames whose intervals, each from the frame before, add up to at most 200 ms; a frame
    /// that moved nothing ends the window. mm/s along y, from the motion frames before the lift.
    static func browserFling(_ frames: [(time: Instant, frame: TouchFrame, ended: VirtualFingers.Ending?)]) -> Double {
        let moves = frames.filter { $0.frame.action != .lift }
        var distance = 0.0, span = Duration.zero
        for i in stride(from: moves.count - 1, to: 0, by: -1) {
            let dy = moves[i].frame.first.y - moves[i - 1].frame.first.y
            let interval = moves[i].time - moves[i - 1].time
            if dy == 0 || span + interval > .milliseconds(200) { break }
            distance += dy
            span = span + interval
        }
        return span == .zero ? 0 : distance / span.seconds
    }

    /// chromium's fling at the lift in recent releases (its Wayland backend): a line fitted to
    /// the last three scroll frames, each placed at the sum of the intervals (each from the
    /// frame before, as chromium read them) back from the stop, which comes `stopAfter` after
    /// the last; none when `stopAfter` is over 200 ms. mm/s along y, from the motion frames'
    /// times and positions (`reads`: the times chromium read them, when not these).
    static func browserFit(_ frames: [(time: Instant, frame: TouchFrame, ended: VirtualFingers.Ending?)],
                           reads: [Instant]? = nil, stopAfter: Duration) -> Double {
        let moves = frames.filter { $0.frame.action != .lift }
        let times = reads ?? moves.map(\.time)
        guard stopAfter <= .milliseconds(200) else { return 0 }
        guard moves.count >= 4 else {
            Issue.record("a fit needs the last three scroll frames and the one before: \(moves.count) motion frames")
            return 0
        }
        var t = stopAfter.seconds, y = 0.0
        var n = 0.0, st = 0.0, stt = 0.0, sy = 0.0, sty = 0.0
        for i in stride(from: moves.count - 1, to: moves.count - 4, by: -1) {
            t += (times[i] - times[i - 1]).seconds
            y += moves[i].frame.first.y - moves[i - 1].frame.first.y
            n += 1; st += t; stt += t * t; sy += y; sty += t * y
        }
        let det = n * stt - st * st
        return det == 0 ? 0 : (n * sty - st * sy) / det
    }

    @Test("a browser that averages the last 200 ms of scroll frames at the lift sees no motion after a stop; it would without the settle frames")
    func settleLeavesNoFling() throws {
        var fingers = VirtualFingers(lead: .zero)
        let (before, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 400), after: .milliseconds(150))
        let after = Self.run(&fingers, from: stop)
        #expect(after.count >= 2, "settle frames and the lift after the stop: \(after.count) frames")
        #expect(Self.browserFling(before) > 300, "the glide's own speed, as a lift at the stop would fling")
        #expect(abs(Self.browserFling(before + after)) < 0.5, "\(Self.browserFling(before + after)) mm/s: two units in 100 ms")
        // A glide that comes to rest by itself ends slow enough: no settle frame, no fling.
        var settling = VirtualFingers(lead: .zero)
        _ = settling.start(velocity: Vector(x: 0, y: 400), deceleration: Self.deceleration,
                           maxDuration: .milliseconds(5000), at: Self.release)
        let whole = Self.run(&settling, from: Self.release)
        #expect(whole.count >= 10, "a whole glide to rest: \(whole.count) frames")
        #expect(abs(Self.browserFling(whole)) < 1, "\(Self.browserFling(whole)) mm/s")
        #expect(whole.last?.time == whole.dropLast().last.map { $0.time + Self.rest })
    }

    @Test("a browser that fits a line to the last three scroll frames sees no motion after a stop, even when it reads the stop early or the settle frames late; it did with one settle frame")
    func settleLeavesNoFittedFling() throws {
        var fingers = VirtualFingers(lead: .zero)
        let (before, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 400), after: .milliseconds(150))
        let after = Self.run(&fingers, from: stop)
        let frames = before + after
        #expect(Self.browserFit(before, stopAfter: .milliseconds(8)) > 300, "a lift at the stop flings at the glide's speed")
        // The stop read 1 to 200 ms after the last settle frame (restBeforeLift: 200 ms as written).
        for stopAfter: Int64 in [1, 100, 190, 200] {
            let fit = Self.browserFit(frames, stopAfter: .milliseconds(stopAfter))
            #expect(abs(fit) < 0.1, "\(fit) mm/s with the stop \(stopAfter) ms after the last settle frame")
        }
        // The settle frames read in one bunch, late: the first one's interval takes the delay.
        var reads = frames.filter { $0.frame.action != .lift }.map(\.time)
        let last = reads.count - 1
        reads[last - 2] = reads[last] + .milliseconds(5)
        reads[last - 1] = reads[last - 2]
        reads[last] = reads[last - 2]
        #expect(abs(Self.browserFit(frames, reads: reads, stopAfter: .milliseconds(150))) < 0.1)
        // One settle frame alone, read 10 ms late (the stop 190 ms after it): the glide's frames
        // before it make the fit, and the browser flings.
        let one = before + [after[0]]
        var oneReads = one.map(\.time)
        oneReads[oneReads.count - 1] = oneReads[oneReads.count - 1] + .milliseconds(10)
        #expect(Self.browserFit(one, reads: oneReads, stopAfter: .milliseconds(190)) > 100)
    }

    @Test("the rest before the lift counts from when the last motion frame was written")
    func restFromTheWrite() throws {
        var fingers = VirtualFingers(lead: .zero)
        _ = fingers.start(velocity: Vector(x: 0, y: 100), deceleration: Self.deceleration,
                          maxDuration: .milliseconds(100), at: Self.release)
        var last: Instant?
        while fingers.isGliding, let due = fingers.nextDeadline {
            _ = fingers.advance(to: due)
            last = due
            fingers.frameWritten(at: due + .milliseconds(3))
        }
        var written = try #require(last) + .milliseconds(3)
        // Cut at max_duration while moving: the settle frames first, then the lift, each rest
        // counted from the write before it.
        #expect(fingers.nextDeadline == written + Self.settleRest)
        for wait in [Self.settleRest, Self.settleGap, Self.settleGap] {
            #expect(fingers.nextDeadline == written + wait)
            let settle = written + wait
            #expect(fingers.advance(to: settle).frame?.action == .move)
            written = settle + .milliseconds(3)
            fingers.frameWritten(at: written)
        }
        #expect(fingers.nextDeadline == written + Self.rest)
    }

    /// The last motion frame's write held up longer than a frame period (30 ms): the rest
    /// before the lift still counts from its stamp, so the fingers rest the whole 200 ms as
    /// libinput and the toolkits see them.
    @Test("the rest before the lift counts from the last motion frame's write, however late")
    func restFromALateWrite() throws {
        var fingers = VirtualFingers(lead: .zero)
        _ = fingers.start(velocity: Vector(x: 0, y: 100), deceleration: Self.deceleration,
                          maxDuration: .milliseconds(5000), at: Self.release)
        var written = Self.release
        while fingers.isGliding, let due = fingers.nextDeadline {
            _ = fingers.advance(to: due)
            written = due + (fingers.isGliding ? .milliseconds(1) : .milliseconds(30))
            fingers.frameWritten(at: written)
        }
        #expect(fingers.nextDeadline == written + Self.rest, "the lift 200 ms after the stamp of the last motion frame")
        // A report with no frame written since changes nothing.
        fingers.frameWritten(at: written + .milliseconds(50))
        #expect(fingers.nextDeadline == written + Self.rest)
    }

    /// Fingers frozen mid-glide owe the settle frames; a release continues them and a stop
    /// comes before the new glide's first frame (a modifier held at the release, a button):
    /// they have not moved since, and still settle before the lift.
    @Test("a continued glide stopped before its first frame keeps the settle frames owed")
    func settleOwedAcrossAContinuation() throws {
        var fingers = VirtualFingers(lead: .zero)
        let stop = Self.stopped(&fingers, velocity: Vector(x: 0, y: 200), after: .milliseconds(100)).stop
        let again = stop + .milliseconds(120)
        #expect(fingers.start(velocity: Vector(x: 0, y: 200), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: again) == VirtualFingers.Start())
        fingers.freeze(at: again)
        let frames = Self.run(&fingers, from: again)
        #expect(frames.map(\.frame.action) == [.move, .move, .move, .lift], "settle frames, then the lift")
        let settle = try #require(frames.first)
        #expect(settle.time >= stop + Self.settleRest - Self.period, "the rest counted from when they stopped: \(settle.time - stop)")
    }

    /// Fingers stopped before their first motion frame never started libinput's scroll; a
    /// release that continues them opens as after a landing (make-up, then one unit), so that
    /// libinput's scroll start drops the make-up, not the glide's first frame.
    @Test("fingers that never moved continue with a landing's opening")
    func unmovedFingersOpenWithTheMakeUp() throws {
        var fingers = VirtualFingers(lead: .zero)
        let (moved, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 200), after: .milliseconds(1))
        #expect(!moved.contains { $0.frame.action == .move })
        let held = fingers.first
        let again = stop + .milliseconds(100)
        #expect(fingers.start(velocity: Vector(x: 0, y: 200), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: again) == VirtualFingers.Start())
        let frames = Self.run(&fingers, from: again).filter { $0.frame.action == .move }
        #expect(frames.count > 3)
        let makeUp = VirtualFingers.makeUp(speed: 200)
        #expect(abs(frames[0].frame.first.y - (held.y + makeUp)) < 1e-9, "the make-up first: \(frames[0].frame.first.y - held.y) mm")
        #expect(frames[0].time == again + VirtualFingers.makeUpInterval(distance: makeUp))
        #expect(abs(frames[1].frame.first.y - (held.y + makeUp + Self.unit)) < 1e-9, "then the baseline unit")
    }

    /// Fingers that glided down and back up to near where they landed are still in the scroll
    /// libinput started on the way down: a release continues it without a make-up frame,
    /// which libinput would scroll (a 1.8 mm jump) rather than drop.
    @Test("fingers that scrolled and came back near their landing point continue without a make-up frame")
    func fingersBackAtTheLandingPointStillScroll() throws {
        var fingers = VirtualFingers(lead: .zero)
        // 200 mm/s down from the landing at L, frozen once 30 mm down.
        let landing = try #require(fingers.start(velocity: Vector(x: 0, y: 200), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing)
        let down = try #require(Self.glide(&fingers, from: Self.release) { $0.first.y - landing.first.y >= 30 })
        fingers.freeze(at: down)
        // 100 ms later a flick up at 150 mm/s continues the same fingers, frozen within 1.5 mm of L.
        let up = down + .milliseconds(100)
        #expect(fingers.start(velocity: Vector(x: 0, y: -150), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: up) == VirtualFingers.Start())
        let back = try #require(Self.glide(&fingers, from: up) { abs($0.first.y - landing.first.y) < VirtualFingers.handScrollDistance })
        fingers.freeze(at: back)
        let held = fingers.first
        // A third release 50 ms later, down, while the fingers rest before their lift.
        let again = back + .milliseconds(50)
        #expect(fingers.isDown)
        #expect(fingers.start(velocity: Vector(x: 0, y: 200), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: again) == VirtualFingers.Start())
        let first = try #require(Self.run(&fingers, from: again).first { $0.frame.action == .move })
        #expect(first.time == again + Self.period, "one frame period after the release, not the make-up's interval")
        #expect(abs(first.frame.first.y - (held.y + Self.model(after: 0.008, velocity: 200))) < 1e-9,
                "the model from the release on, no make-up: \(first.frame.first.y - held.y) mm")
    }

    /// Ticks the fingers at their deadlines from `time` until a motion frame puts them where
    /// `reached` holds; the time of that frame (nil if the glide ends first).
    static func glide(_ fingers: inout VirtualFingers, from time: Instant, until reached: (TouchFrame) -> Bool) -> Instant? {
        var guardCount = 0
        while fingers.isGliding, let deadline = fingers.nextDeadline, guardCount < 10_000 {
            guardCount += 1
            let now = max(deadline, time)
            if let frame = fingers.advance(to: now).frame, frame.action == .move, reached(frame) { return now }
        }
        return nil
    }

    /// Fingers that landed within the tap timeout, scrolled and came back near where they
    /// landed moved too far for a tap: a glide with too little room ahead lifts them and lands
    /// again, as after any scroll, instead of being cut at the margin.
    @Test("fingers that scrolled within the tap timeout and came back near their landing point land again when the glide does not fit")
    func fingersBackAtTheLandingPointLandAgain() throws {
        var fingers = VirtualFingers(lead: .zero)
        // 1500 mm/s down lands high on the pad (the glide, 750 mm, centred on the surface);
        // frozen once 5 mm down.
        let landing = try #require(fingers.start(velocity: Vector(x: 0, y: 1500), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing)
        let down = try #require(Self.glide(&fingers, from: Self.release) { $0.first.y - landing.first.y >= 5 })
        fingers.freeze(at: down)
        // 10 ms later a slow flick up (its 60 mm fit above) continues the fingers; frozen back
        // within 1.5 mm of L.
        let up = down + .milliseconds(10)
        #expect(fingers.start(velocity: Vector(x: 0, y: -120), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: up) == VirtualFingers.Start())
        let back = try #require(Self.glide(&fingers, from: up) { abs($0.first.y - landing.first.y) < VirtualFingers.handScrollDistance })
        fingers.freeze(at: back)
        // A fast flick up 10 ms later, within the tap timeout of the landing: 750 mm of glide,
        // about 60 mm of room above.
        let again = back + .milliseconds(10)
        #expect(again - Self.release < Self.rest, "within the tap timeout of the landing: \(again - Self.release)")
        let held = fingers.first
        let start = fingers.start(velocity: Vector(x: 0, y: -1500), deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: again)
        let lift = try #require(start.lift, "continued \(fingers.first.y - VirtualPad.marginMillimetres) mm from the top margin")
        #expect(lift.first == held && start.landing?.action == .land)
        #expect(Self.run(&fingers, from: again).compactMap(\.ended) == [.settled], "a whole glide, not one cut at the edge")
    }

    /// The baseline frame must change a device unit: one that rounds to the make-up frame's
    /// units writes nothing, and X11 clients take the model's first frame as their starting
    /// point instead. A unit along a 30° diagonal is 0.87 and 0.5 of a unit on the axes.
    @Test("on a diagonal the baseline frame moves the fingers by at least one device unit on an axis", arguments: [30.0, 60.0, -150.0])
    func baselineChangesAUnitOnADiagonal(degrees: Double) throws {
        // At 131 mm/s the fingers land where 0.01 mm along the motion after the make-up
        // rounds to the same units on both axes, for both fingers.
        let speed = 131.0
        let angle = degrees * Double.pi / 180
        let direction = Vector(x: cos(angle), y: sin(angle))
        let (a, b) = VirtualFingers.landing(speed: speed, along: direction, deceleration: Self.deceleration)
        let makeUp = VirtualFingers.makeUp(speed: speed)
        func units(_ distance: Double) -> [Int32] {
            let p = a + direction * distance, q = b + direction * distance
            return [p.x, p.y, q.x, q.y].map(VirtualPad.units)
        }
        #expect(units(makeUp) == units(makeUp + Self.unit), "the premise: one unit along the motion changes no unit")

        var fingers = VirtualFingers(lead: .zero)
        let landing = try #require(fingers.start(velocity: direction * speed, deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing)
        #expect(landing.first == a && landing.second == b)
        let moves = Self.run(&fingers, from: Self.release).filter { $0.frame.action == .move }
        #expect(moves.count > 3)
        func written(_ frame: TouchFrame) -> [Int32] {
            [frame.first.x, frame.first.y, frame.second.x, frame.second.y].map(VirtualPad.units)
        }
        let (makeUpFrame, baseline) = (moves[0], moves[1])
        #expect(written(makeUpFrame.frame) == units(makeUp))
        #expect(written(baseline.frame) != written(makeUpFrame.frame),
                "the baseline frame writes something: \(written(baseline.frame)) after \(written(makeUpFrame.frame))")
        #expect(baseline.time == makeUpFrame.time + VirtualFingers.baselineInterval)
        // Still next to nothing, and on the path.
        let step = (baseline.frame.first - makeUpFrame.frame.first).length
        #expect(step >= VirtualFingers.baselineDistance - 1e-12 && step <= 2 * VirtualFingers.baselineDistance, "\(step) mm")
        #expect(abs((baseline.frame.first - landing.first).length - (makeUp + step)) < 1e-9)
    }

    @Test("the baseline step changes a device unit from any position, in any direction, and never moves more than a unit along the main axis")
    func baselineStepSweep() {
        for degrees in stride(from: 0.0, to: 360.0, by: 7.5) {
            let angle = degrees * Double.pi / 180
            let direction = Vector(x: cos(angle), y: sin(angle))
            let across = Vector(x: -direction.y, y: direction.x) * VirtualPad.fingerSpacingMillimetres
            for i in 0..<200 {
                // Fractions of a unit across the whole unit, on both axes.
                let first = Vector(x: 400 + Double(i) * 0.00513, y: 300 + Double(i) * 0.00371)
                let second = first + across
                let step = VirtualFingers.baselineStep(from: first, second, along: direction)
                let before = [first.x, first.y, second.x, second.y].map(VirtualPad.units)
                let a = first + direction * step, b = second + direction * step
                let after = [a.x, a.y, b.x, b.y].map(VirtualPad.units)
                #expect(before != after, "\(degrees)°, from \(first): \(step) mm changes no unit")
                #expect(step >= VirtualFingers.baselineDistance
                        && step <= VirtualFingers.baselineDistance / max(abs(direction.x), abs(direction.y)) + 1e-6,
                        "\(degrees)°: \(step) mm")
            }
        }
    }

    @Test("a stop right after landing never lifts within the tap timeout")
    func tapSafety() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landingFrame = fingers.start(velocity: Vector(x: 0, y: 60), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landingFrame)
        fingers.freeze(at: Self.release + .milliseconds(3))
        let frames = Self.run(&fingers, from: Self.release + .milliseconds(3))
        #expect(frames.map(\.frame.action) == [.lift])
        let lift = try #require(frames.first)
        #expect(lift.time - Self.release >= .milliseconds(200), "a touch this long is never a tap (timeout 180 ms)")
        #expect(lift.frame.first == landing.first)
    }

    @Test("max_duration cuts the motion at x(max_duration); then rest, settle, rest and lift")
    func maxDuration() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landingFrame = fingers.start(velocity: Vector(x: 200, y: 0), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(300), at: Self.release).landing
        let landing = try #require(landingFrame)
        let frames = Self.run(&fingers, from: Self.release)
        let moves = frames.filter { $0.frame.action == .move }
        let last = try #require(moves.first(where: { $0.ended != nil }))
        #expect(last.ended == .cut)
        let travel = last.frame.first.x - landing.first.x
        let expected = VirtualFingers.makeUp(speed: 200) + Self.model(after: 0.3, velocity: 200)
        #expect(abs(travel - expected) < 1e-9)
        // The model starts one period after the landing, so it ends 300 ms after that.
        #expect(last.time - Self.release <= .milliseconds(300) + Self.period * 2)
        // Cut while moving: the settle frames, each a unit further right, then the lift.
        let settles = moves.suffix(VirtualFingers.settleFrames)
        let settle = try #require(settles.last)
        #expect(settles.first!.time - last.time == Self.settleRest)
        #expect(settle.time - settles.first!.time == Self.settleGap * Int64(VirtualFingers.settleFrames - 1))
        #expect(abs(settle.frame.first.x - last.frame.first.x - 3 * Self.unit) < 1e-9 && settle.frame.first.y == last.frame.first.y)
        #expect(frames.last?.frame.action == .lift)
        #expect(frames.last!.time - settle.time == Self.rest)
    }

    @Test("a late tick writes one frame at the model's position, never a bunch")
    func lateTick() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landingFrame = fingers.start(velocity: Vector(x: 0, y: 300), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landingFrame)
        for _ in 0..<2 { _ = fingers.advance(to: fingers.nextDeadline!) }  // the make-up and the baseline
        let late = Self.release + .milliseconds(60)
        let frame = try #require(fingers.advance(to: late).frame)
        let expected = VirtualFingers.makeUp(speed: 300) + Self.model(after: (late - (Self.release + Self.period)).seconds,
                                                                           velocity: 300)
        #expect(abs(frame.first.y - landing.first.y - expected) < 1e-9)
        #expect(fingers.advance(to: late).frame == nil, "nothing more is due now")
        #expect(fingers.nextDeadline == late + Self.period)
    }

    @Test("the make-up frame is one period at the release speed, 1.8 to 2.4 mm (over libinput's ~1.5 mm scroll start), 5.5 mm at 12 ms after the landing")
    func makeUpSize() {
        #expect(VirtualFingers.makeUp(speed: 60) == 1.8)
        #expect(VirtualFingers.makeUp(speed: 150) == 1.8)
        #expect(abs(VirtualFingers.makeUp(speed: 250) - 2) < 1e-12)
        #expect(VirtualFingers.makeUp(speed: 1000) == VirtualFingers.maximumMakeUp)
        #expect(VirtualFingers.makeUpInterval(distance: 1.8) == Duration(microseconds: 3927))
        #expect(VirtualFingers.makeUpInterval(distance: 2.4) == Duration(microseconds: 5236))
        #expect(VirtualFingers.makeUpInterval(distance: 0.1) == .milliseconds(2))
        #expect(VirtualFingers.makeUpInterval(distance: 5) == Self.period)
    }

    @Test("libinput's touch-jump filter passes every frame: scaled to 12 ms, under 20 mm and growing by under 7 mm",
          arguments: [60.0, 150, 400, 1500])
    func noFrameLooksLikeAJump(speed: Double) throws {
        // libinput (evdev-mt-touchpad.c, tp_detect_jumps): a frame's distance times 12 ms over
        // its stamped interval is a jump above 20 mm, or above 7 mm more than the frame before
        // (0 before the first motion). Checked here against every frame before, which is stricter
        // than libinput, which forgets the history once the landing's finger count settles.
        var fingers = VirtualFingers()
        let landed = fingers.start(velocity: Vector(x: 0, y: speed), deceleration: Self.deceleration,
                                   maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landed)
        let frames = [(time: Self.release, frame: landing, ended: nil)] + Self.run(&fingers, from: Self.release)
        #expect(frames.filter { $0.frame.action == .move }.count >= 10, "\(speed) mm/s: \(frames.count) frames")
        var lastScaled = 0.0
        for (before, entry) in zip(frames, frames.dropFirst()) where entry.frame.action == .move {
            let millimetres = abs(entry.frame.first.y - before.frame.first.y)
            let scaled = millimetres * 12 / ((entry.time - before.time).seconds * 1000)
            #expect(scaled < 20 && scaled - lastScaled < 7,
                    "\(speed) mm/s at \(entry.time): \(millimetres) mm scaled to \(scaled) mm after \(lastScaled)")
            lastScaled = scaled
        }
    }

    @Test("from rest the fingers speed up by at most 300 mm/s a frame, then catch up with the model")
    func speedRamp() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landed = fingers.start(velocity: Vector(x: 0, y: 1500), deceleration: Self.deceleration,
                                   maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landed)
        let frames = Self.run(&fingers, from: Self.release).filter { $0.frame.action == .move }
        // The make-up (libinput drops it): 2.4 mm, 5.5 mm at libinput's 12 ms; from it on, the ramp from rest.
        let makeUp = frames[0].frame.first.y - landing.first.y
        #expect(abs(makeUp - 2.4) < 1e-9)
        #expect(makeUp * 12 / ((frames[0].time - Self.release).seconds * 1000) <= VirtualFingers.makeUpScaledDistance + 0.01)
        var previous = (time: frames[0].time, y: frames[0].frame.first.y, speed: 0.0)
        for entry in frames.dropFirst() {
            let dt = (entry.time - previous.time).seconds
            let speed = (entry.frame.first.y - previous.y) / dt
            #expect(speed <= previous.speed + 300 + 1e-6, "at \(entry.time): \(speed) mm/s after \(previous.speed)")
            previous = (entry.time, entry.frame.first.y, speed)
        }
        let total = frames.last!.frame.first.y - landing.first.y
        let expected = 1500 / Self.deceleration.decayPerSecond + VirtualFingers.makeUp(speed: 1500)
        #expect(abs(total - expected) < 0.06, "the whole travel still: \(total) vs \(expected)")
        // Caught up with the model within 200 ms.
        let later = try #require(frames.first { $0.time - Self.release >= .milliseconds(200) })
        let model = VirtualFingers.makeUp(speed: 1500)
            + Self.model(after: (later.time - (Self.release + Self.period)).seconds, velocity: 1500)
        #expect(abs(later.frame.first.y - landing.first.y - model) < 1e-9)
    }

    @Test("a frame written late pushes the next one a full period after the write")
    func writtenLate() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landed = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                   maxDuration: .milliseconds(5000), at: Self.release).landing
        let start = try #require(landed).first
        // The opening (make-up, baseline), written on time; then the model's frames.
        for _ in 0..<2 {
            let opening = try #require(fingers.nextDeadline)
            #expect(fingers.advance(to: opening).frame != nil)
            fingers.frameWritten(at: opening)
        }
        let due = try #require(fingers.nextDeadline)
        #expect(fingers.advance(to: due).frame != nil)
        fingers.frameWritten(at: due + .milliseconds(1))  // written promptly: the grid holds
        #expect(fingers.nextDeadline == due + Self.period + .milliseconds(1))
        let second = try #require(fingers.nextDeadline)
        _ = fingers.advance(to: second)
        fingers.frameWritten(at: second + .milliseconds(15))  // the write itself was held up
        #expect(fingers.nextDeadline == second + .milliseconds(15) + Self.period)
        // The model waits for the hold-up beyond `heldWrite` (15 - 2 ms; the prompt write's 1 ms
        // is an ordinary write's duration, not lag): the next frame moves by about the interval
        // since the last write, as its kernel stamp will say.
        let third = try #require(fingers.nextDeadline)
        let frame = try #require(fingers.advance(to: third).frame)
        let held = Duration.milliseconds(15).microseconds - VirtualFingers.heldWrite.microseconds
        let modelTime = (third - Duration(microseconds: held) - (Self.release + Self.period)).seconds
        #expect(abs(frame.first.y - (start.y + VirtualFingers.makeUp(speed: 150) + Self.model(after: modelTime, velocity: 150))) < 1e-9)
        fingers.frameWritten(at: third)
        fingers.freeze(at: third + .milliseconds(1))
        fingers.frameWritten(at: third + .milliseconds(40))
        #expect(fingers.nextDeadline == third + Self.settleRest,
                "still since the last write; a later report changes nothing while resting")
    }

    @Test("writes that each take 1 ms do not slow the glide: the fingers keep the model's pace")
    func ordinaryWritesAreNoLag() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landed = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                   maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landed)
        fingers.frameWritten(at: Self.release)
        var last: (time: Instant, y: Double)?
        while let due = fingers.nextDeadline, due - Self.release < .milliseconds(500) {
            let tick = due + Duration(microseconds: 300)  // the timer wakes a little late
            guard let frame = fingers.advance(to: tick).frame else { break }
            fingers.frameWritten(at: tick + .milliseconds(1))
            last = (tick, frame.first.y - landing.first.y)
        }
        let end = try #require(last)
        let model = VirtualFingers.makeUp(speed: 150)
            + Self.model(after: (end.time - (Self.release + Self.period)).seconds, velocity: 150)
        #expect(abs(end.y - model) < 1e-9, "\(end.y) mm at \(end.time - Self.release) vs the model's \(model) mm")
    }

    @Test("a release while the fingers rest continues them from where they are, without a landing")
    func continueWhileResting() throws {
        var fingers = VirtualFingers(lead: .zero)
        let stop = Self.stopped(&fingers, velocity: Vector(x: 0, y: 200), after: .milliseconds(100)).stop
        let held = fingers.first
        let again = stop + .milliseconds(120)
        #expect(fingers.start(velocity: Vector(x: 0, y: -200), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: again).landing == nil, "no landing: the fingers are down")
        let frames = Self.run(&fingers, from: again)
        let moves = frames.filter { $0.frame.action == .move }
        let first = try #require(moves.first)
        #expect(first.time == again + Self.period)
        #expect(abs(first.frame.first.y - (held.y - Self.model(after: 0.008, velocity: 200))) < 1e-9,
                "the model from the release on, no make-up")
        #expect(frames.map(\.frame.action).filter { $0 != .move } == [.lift])
    }

    /// libinput's touch-jump rule for one finger, as evdev-mt-touchpad.c's tp_detect_jumps
    /// runs it: a frame's distance scaled to a 12 ms interval is a jump above 20 mm, or above
    /// 7 mm more than the last frame it judged. A frame more than 30 ms after the one before
    /// is not judged at all, and does not become the one the next is judged against.
    struct LibinputJumpRule {
        var last: (time: Instant, position: Vector)?
        var lastScaled = 0.0

        /// A landing: the touch's history starts at it.
        mutating func land(_ position: Vector, at time: Instant) {
            last = (time, position)
            lastScaled = 0
        }

        /// Whether libinput would discard the motion to `position` at `time` as a jump.
        mutating func isJump(_ position: Vector, at time: Instant) -> Bool {
            guard let before = last else { return false }
            last = (time, position)
            let interval = time - before.time
            guard interval > .zero, interval <= .milliseconds(30) else { return false }
            let scaled = (position - before.position).length * 12 / (interval.seconds * 1000)
            defer { lastScaled = scaled }
            return scaled > 20 || scaled - lastScaled > 7
        }
    }

    @Test("a glide that continues resting fingers speeds up from rest after its first frame, which libinput does not judge", arguments: [500.0, 700.0])
    func continuedGlideRampsAfterItsFirstFrame(speed: Double) throws {
        // A flick up at 300 mm/s, caught when it crawls (2 s in: 5 mm/s); the hand scrolls on
        // and releases 150 ms later, down, fast. The fingers rest long enough that libinput
        // does not judge the new glide's first frame: it judges the second against the crawl.
        var fingers = VirtualFingers()
        var rule = LibinputJumpRule()
        let first = try #require(fingers.start(velocity: Vector(x: 0, y: -300), deceleration: Self.deceleration,
                                               maxDuration: .milliseconds(5000), at: Self.release).landing)
        rule.land(first.first, at: Self.release)
        let stop = Self.release + .milliseconds(2000)
        let glide = Self.run(&fingers, from: Self.release, until: stop).filter { $0.frame.action == .move }
        #expect(glide.count >= 10, "the first glide wrote \(glide.count) motion frames")
        for entry in glide {
            let jump = rule.isJump(entry.frame.first, at: entry.time)
            #expect(!jump, "the first glide at \(entry.time)")
        }
        fingers.freeze(at: stop)
        fingers.handDown(on: 1, at: stop)
        fingers.handScrolls()
        let again = stop + .milliseconds(150)
        let start = fingers.start(velocity: Vector(x: 0, y: speed), deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: again)
        #expect(start == VirtualFingers.Start(), "continued, not landed again")
        let frames = Self.run(&fingers, from: again).filter { $0.frame.action == .move }
        #expect(frames.count >= 40, "\(speed) mm/s: the continued glide wrote \(frames.count) motion frames")
        for entry in frames.prefix(40) {
            let before = rule.lastScaled
            let jump = rule.isJump(entry.frame.first, at: entry.time)
            #expect(!jump, "\(speed) mm/s, \(entry.time - again) after the release: \(rule.lastScaled) mm at 12 ms after \(before)")
        }
    }

    /// How a frame of the speed ramp comes more than 30 ms after the one before.
    enum Hole: Sendable, CustomStringConvertible {
        /// The timer wakes late (seen in the guest at 1200 mm/s, a boosted quick flick: 36 ms
        /// after the ramp's second frame).
        case lateTick
        /// The timer wakes on time, but the write reaches the kernel late (the process was
        /// preempted after computing the frame): the stamp is what libinput judges, and the
        /// model's interval, taken when the frame was computed, does not show it.
        case heldWrite
        var description: String { self == .lateTick ? "late tick" : "held write" }
    }

    @Test("a frame more than 30 ms after the one before, in the speed ramp, does not make libinput see a jump after it",
          arguments: [Hole.lateTick, .heldWrite],
          [(1200.0, 3, 36), (1500.0, 4, 45), (800.0, 6, 40), (1500.0, 8, 60), (1200.0, 5, 31)])
    func holeInTheRamp(hole: Hole, ramp: (speed: Double, movesBefore: Int, milliseconds: Int)) throws {
        // libinput does not judge a frame that long after the one before, and judges the next
        // against the last one it did judge, the slow frame before the hole.
        var fingers = VirtualFingers()
        var rule = LibinputJumpRule()
        let landing = try #require(fingers.start(velocity: Vector(x: 0, y: ramp.speed), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing)
        rule.land(landing.first, at: Self.release)
        // Only the held write is reported to the fingers (as the daemon reports every write):
        // a late tick must be caught from the model's own interval as well.
        let reportsWrites = hole == .heldWrite
        if reportsWrites { fingers.frameWritten(at: Self.release) }
        var moves = 0
        var last = Self.release
        var holed = false
        var guardCount = 0
        while let deadline = fingers.nextDeadline, guardCount < 400 {
            guardCount += 1
            var now = max(deadline, last)
            let due = moves == ramp.movesBefore && !holed
            if due && hole == .lateTick { now = last + .milliseconds(Int64(ramp.milliseconds)) }
            let (frame, _) = fingers.advance(to: now)
            guard let frame else { continue }
            var written = now
            if due && frame.action == .move {
                holed = true
                if hole == .heldWrite { written = now + .milliseconds(Int64(ramp.milliseconds)) }
            }
            if reportsWrites { fingers.frameWritten(at: written) }
            last = written
            guard frame.action == .move else { continue }
            moves += 1
            let before = rule.lastScaled
            let jump = rule.isJump(frame.first, at: written)
            #expect(!jump, "\(hole), \(ramp.speed) mm/s, frame \(moves), \(written - Self.release) after the release: \(rule.lastScaled) mm at 12 ms after \(before)")
            if moves > 60 { break }
        }
        #expect(holed && moves > 20, "the hole came in the ramp and the glide went on")
    }

    @Test("the fastest coast fits on the surface; a faster one stops at the margin")
    func surfaceHoldsTheTravel() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landingFrame = fingers.start(velocity: Vector(x: 0, y: 1500), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landingFrame)
        let frames = Self.run(&fingers, from: Self.release)
        let last = try #require(frames.last(where: { $0.frame.action == .move }))
        #expect(abs(last.frame.first.y - landing.first.y - (1500 / Self.deceleration.decayPerSecond + VirtualFingers.makeUp(speed: 1500))) < 0.06)
        var faster = VirtualFingers(lead: .zero)
        _ = faster.start(velocity: Vector(x: 3000, y: -3000), deceleration: Self.deceleration,
                         maxDuration: .milliseconds(5000), at: Self.release)
        let all = Self.run(&faster, from: Self.release)
        for entry in all {
            for c in [entry.frame.first.x, entry.frame.first.y, entry.frame.second.x, entry.frame.second.y] {
                #expect(c >= VirtualPad.marginMillimetres - 1e-9 && c <= VirtualPad.sideMillimetres - VirtualPad.marginMillimetres + 1e-9)
            }
        }
        #expect(all.compactMap(\.ended) == [.edge], "cut at the margin, not at max_duration")
        // Cut while moving: the last motions are the settle frames, one unit each along the main axis (up).
        let cut = try #require(all.first(where: { $0.ended == .edge }))
        let settle = try #require(all.last(where: { $0.frame.action == .move }))
        #expect(settle.frame.first.x == cut.frame.first.x && abs(cut.frame.first.y - settle.frame.first.y - 3 * Self.unit) < 1e-9)
        #expect(all.last?.frame.action == .lift)
    }

    @Test("with the lead the model starts early: the fingers catch up at most `maximumCatchUp` times the model's speed")
    func leadStartsTheModelEarly() throws {
        let lead = VirtualFingers.lead
        #expect(lead > .zero, "the default output covers the handover")
        var fingers = VirtualFingers()
        let landed = fingers.start(velocity: Vector(x: 0, y: 60), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landed)
        let moves = Self.run(&fingers, from: Self.release).filter { $0.frame.action == .move }
        // The make-up frame is the make-up alone, whatever the lead: libinput drops it.
        #expect(abs(moves[0].frame.first.y - landing.first.y - VirtualFingers.makeUp(speed: 60)) < 1e-9)
        // Then faster than the model, never more than `maximumCatchUp` times its speed, until caught up.
        let origin = Self.release + Self.period - lead
        func model(_ time: Instant) -> Double {
            VirtualFingers.makeUp(speed: 60) + Self.model(after: (time - origin).seconds, velocity: 60)
        }
        for (a, b) in zip(moves, moves.dropFirst()) where b.time - Self.release <= .milliseconds(200) {
            let speed = (b.frame.first.y - a.frame.first.y) / (b.time - a.time).seconds
            let modelSpeed = Self.deceleration.velocity(after: (b.time - origin).seconds, velocity: 60)
            #expect(speed <= VirtualFingers.maximumCatchUp * modelSpeed + 1e-6, "at \(b.time): \(speed) mm/s")
        }
        // At the model's first frame (after the make-up and the baseline) the fingers are ahead of
        // the plain model's position then.
        let plainThen = Self.model(after: (moves[2].time - (Self.release + Self.period)).seconds, velocity: 60)
        #expect(moves[2].frame.first.y - moves[0].frame.first.y > max(plainThen, VirtualFingers.baselineDistance) + 1e-3,
                "ahead of the plain model")
        let caughtUp = try #require(moves.first { $0.time - Self.release >= .milliseconds(100) })
        #expect(abs(caughtUp.frame.first.y - landing.first.y - model(caughtUp.time)) < 1e-9,
                "at the model started `lead` early within 100 ms of the release")
        // Against the same glide without the lead: same travel, ending about `lead` sooner.
        var plain = VirtualFingers(lead: .zero)
        _ = plain.start(velocity: Vector(x: 0, y: 60), deceleration: Self.deceleration,
                        maxDuration: .milliseconds(5000), at: Self.release)
        let plainMoves = Self.run(&plain, from: Self.release).filter { $0.frame.action == .move }
        let last = try #require(moves.last)
        let plainLast = try #require(plainMoves.last)
        #expect(abs((last.frame.first.y - landing.first.y) - (plainLast.frame.first.y - landing.first.y)) < 1e-9)
        let sooner = (plainLast.time - last.time).microseconds
        let slack = Self.period.microseconds
        #expect(abs(sooner - lead.microseconds) <= slack, "ends \(sooner) µs sooner")
    }

    @Test("the frame after the make-up starts the speed ramp from rest: at most 300 mm/s (2.4 mm in 8 ms)")
    func rampRestartsAfterTheMakeUp() throws {
        for speed in [150.0, 600.0, 1500.0] {
            var fingers = VirtualFingers()
            let landed = fingers.start(velocity: Vector(x: 0, y: speed), deceleration: Self.deceleration,
                                       maxDuration: .milliseconds(5000), at: Self.release).landing
            let landing = try #require(landed)
            let moves = Self.run(&fingers, from: Self.release).filter { $0.frame.action == .move }
            let step = moves[1].frame.first.y - moves[0].frame.first.y
            let seconds = (moves[1].time - moves[0].time).seconds
            #expect(step <= VirtualFingers.maximumSpeedIncrease * seconds + 1e-9,
                    "\(speed) mm/s: \(step) mm in \(seconds * 1000) ms after the make-up")
            #expect(moves[0].frame.first.y > landing.first.y, "the make-up moved")
        }
    }

    @Test("with the lead a fast release catches up under the speed-increase cap")
    func leadRespectsTheCap() throws {
        var fingers = VirtualFingers()
        let landed = fingers.start(velocity: Vector(x: 0, y: 400), deceleration: Self.deceleration,
                                                 maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landed)
        let frames = Self.run(&fingers, from: Self.release).filter { $0.frame.action == .move }
        // From the make-up on (libinput drops it; `makeUpInterval` bounds it), the ramp from rest.
        var previous = (time: frames[0].time, y: frames[0].frame.first.y, speed: 0.0)
        for entry in frames.dropFirst() {
            let speed = (entry.frame.first.y - previous.y) / (entry.time - previous.time).seconds
            #expect(speed <= previous.speed + VirtualFingers.maximumSpeedIncrease + 1e-6,
                    "at \(entry.time): \(speed) mm/s after \(previous.speed)")
            previous = (entry.time, entry.frame.first.y, speed)
        }
        // Within 200 ms the fingers are where the model started `lead` early puts them.
        let later = try #require(frames.first { $0.time - Self.release >= .milliseconds(200) })
        let origin = Self.release + Self.period - VirtualFingers.lead
        let model = VirtualFingers.makeUp(speed: 400)
            + Self.model(after: (later.time - origin).seconds, velocity: 400)
        #expect(abs(later.frame.first.y - landing.first.y - model) < 1e-9)
    }

    @Test("a landing written late is no lag: the fingers catch up with the release's clock")
    func lateLandingCatchesUp() throws {
        var fingers = VirtualFingers(lead: .zero)
        let landed = fingers.start(velocity: Vector(x: 0, y: 60), deceleration: Self.deceleration,
                                   maxDuration: .milliseconds(5000), at: Self.release).landing
        let landing = try #require(landed)
        let written = Self.release + .milliseconds(10)
        fingers.frameWritten(at: written)  // flickd handled the release 10 ms after its stamp
        #expect(fingers.nextDeadline == written + VirtualFingers.makeUpInterval(distance: VirtualFingers.makeUp(speed: 60)))
        var moves: [(time: Instant, y: Double)] = []
        while moves.count < 20, let due = fingers.nextDeadline {
            guard let frame = fingers.advance(to: due).frame else { break }
            fingers.frameWritten(at: due)
            moves.append((due, frame.first.y - landing.first.y))
        }
        #expect(abs(moves[0].y - VirtualFingers.makeUp(speed: 60)) < 1e-9, "the make-up first")
        // The model runs from the release's stamp: the 10 ms are caught up, not lost.
        func model(_ time: Instant) -> Double {
            VirtualFingers.makeUp(speed: 60) + Self.model(after: (time - (Self.release + Self.period)).seconds, velocity: 60)
        }
        #expect(moves[1].y < model(moves[1].time) - 1e-3, "behind at first: the catch-up is gradual")
        let late = try #require(moves.last)
        #expect(abs(late.y - model(late.time)) < 1e-9, "on the model by \(late.time - Self.release)")
    }

    @Test("a release while the fingers rest continues from where they are while the glide fits ahead")
    func continuesWhenTheGlideFits() throws {
        var fingers = VirtualFingers(lead: .zero)
        // 150 mm/s down, stopped 100 ms in: about 15 mm moved, 75 mm of glide left on a
        // surface with about 400 mm ahead.
        let (_, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 150), after: .milliseconds(100))
        let before = fingers.first
        // 300 ms later (the fingers have been down 400 ms), another 150 mm/s release down.
        let start = fingers.start(velocity: Vector(x: 0, y: 150), deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: stop + .milliseconds(300))
        #expect(start == VirtualFingers.Start(), "continuing writes nothing at the release: \(start)")
        #expect(fingers.first == before && fingers.isGliding)
    }

    @Test("a release while the fingers rest with too little room ahead lifts them and lands them again, centred on the glide")
    func landsAgainWhenTheGlideDoesNotFit() throws {
        var fingers = VirtualFingers(lead: .zero)
        // 1500 mm/s down, stopped 300 ms in: about 400 mm moved, near the bottom margin.
        let (_, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 1500), after: .milliseconds(300))
        let before = fingers.first
        let release = stop + .milliseconds(100)
        let start = fingers.start(velocity: Vector(x: 0, y: 1000), deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: release)
        let lift = try #require(start.lift, "fingers \(VirtualPad.sideMillimetres - before.y) mm from the bottom edge continued")
        let landing = try #require(start.landing)
        #expect(lift.action == .lift && lift.first == before)
        #expect(landing.action == .land)
        // The whole glide (500 mm at 1000 mm/s) lies on the surface below the landing.
        let travel = Self.deceleration.destination(velocity: 1000)
        #expect(landing.first.y + travel <= VirtualPad.sideMillimetres - VirtualPad.marginMillimetres)
        // It glides like any landing: the glide comes to rest, not at the edge.
        let frames = Self.run(&fingers, from: release)
        #expect(frames.compactMap(\.ended) == [.settled])
    }

    @Test("fingers that landed within the tap timeout and have not moved continue even with too little room ahead: no lift that could be a tap")
    func noLiftWithinTheTapTimeout() throws {
        var fingers = VirtualFingers(lead: .zero)
        // 1500 mm/s down lands high on the pad (the glide, 750 mm, centred on the surface); a
        // stop 1 ms in, before the first motion frame, and a release up 150 ms after the
        // landing: the room above is short. (Fingers that moved past libinput's scroll start
        // land again: `QuickFlicksTests`.)
        let (moved, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 1500), after: .milliseconds(1))
        #expect(!moved.contains { $0.frame.action == .move }, "stopped before the first motion frame")
        let release = Self.release + .milliseconds(150)
        #expect(release > stop)
        let start = fingers.start(velocity: Vector(x: 0, y: -1500), deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: release)
        #expect(start == VirtualFingers.Start(), "\(start)")
        let frames = Self.run(&fingers, from: release)
        // Cut at the top margin, then settled and lifted, never sooner than the rest.
        #expect(frames.compactMap(\.ended) == [.edge])
        let lift = try #require(frames.last)
        #expect(lift.frame.action == .lift && lift.time - Self.release >= Self.rest)
        #expect(frames.allSatisfy { $0.frame.first.y >= VirtualPad.marginMillimetres })
    }

    // MARK: libinput's axis lock across continued glides

    /// libinput locks a two-finger scroll to the axis it has moved along for 100 ms
    /// (`tp_gesture_apply_scroll_constraints`) and frees it only at a new scroll: fingers that
    /// continue a vertical scroll with a horizontal glide would have its motion zeroed for
    /// about 100 ms, the content standing still right after the release. They lift and land
    /// again: a new scroll, whose lock starts free.
    @Test("a release across the axis of the fingers' scroll lifts them and lands them again: libinput's axis lock would hold the new glide back",
          arguments: [Vector(x: 150, y: 0), Vector(x: -150, y: 0), Vector(x: 106, y: 106), Vector(x: -90, y: -130)])
    func anotherAxisLandsAgain(velocity: Vector) throws {
        var fingers = VirtualFingers(lead: .zero)
        // 150 mm/s down, stopped 200 ms in: about 27 mm down, libinput locked to the vertical axis.
        let (moved, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 150), after: .milliseconds(200))
        #expect(moved.filter { $0.frame.action == .move }.count > 12)
        let held = (fingers.first, fingers.second)
        // 100 ms later, while the fingers rest, a flick sideways (or diagonal), with room ahead.
        let release = stop + .milliseconds(100)
        let start = fingers.start(velocity: velocity, deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: release)
        let lift = try #require(start.lift, "continued the vertical scroll at \(velocity)")
        let landing = try #require(start.landing)
        #expect(lift.first == held.0 && lift.second == held.1)
        let across = landing.second - landing.first
        #expect(abs(across.x * velocity.x + across.y * velocity.y) < 1e-6, "side by side across the new glide")
        // A landing's opening: the make-up first, then the model; the whole glide comes to rest.
        let frames = Self.run(&fingers, from: release)
        let first = try #require(frames.first)
        #expect(first.time == release + VirtualFingers.makeUpInterval(distance: VirtualFingers.makeUp(speed: velocity.length)))
        #expect(frames.compactMap(\.ended) == [.settled])
    }

    /// Along the locked axis (either way), or near it as libinput clamps a new scroll's first
    /// frames too, the scroll goes on: the fingers continue without a lift.
    @Test("a release along the axis of the fingers' scroll continues it without a lift",
          arguments: [Vector(x: 0, y: 150), Vector(x: 0, y: -150), Vector(x: 40, y: -150)])
    func sameAxisContinues(velocity: Vector) throws {
        var fingers = VirtualFingers(lead: .zero)
        let stop = Self.stopped(&fingers, velocity: Vector(x: 0, y: 150), after: .milliseconds(200)).stop
        let before = fingers.first
        let start = fingers.start(velocity: velocity, deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: stop + .milliseconds(100))
        #expect(start == VirtualFingers.Start(), "\(start)")
        #expect(fingers.first == before && fingers.isGliding)
    }

    /// A diagonal scroll frees both axes in libinput for the rest of the touch: any glide after it
    /// continues; and one that continued a scroll keeps its lock, so a third glide across it
    /// lands again.
    @Test("after a diagonal scroll a release in any direction continues; after a continued vertical one, a sideways release lands again")
    func lockLastsTheWholeTouch() throws {
        var diagonal = VirtualFingers(lead: .zero)
        let stop = Self.stopped(&diagonal, velocity: Vector(x: 106, y: 106), after: .milliseconds(200)).stop
        #expect(diagonal.start(velocity: Vector(x: 150, y: 0), deceleration: Self.deceleration,
                               maxDuration: .milliseconds(5000), at: stop + .milliseconds(100)) == VirtualFingers.Start())
        var fingers = VirtualFingers(lead: .zero)
        let down = Self.stopped(&fingers, velocity: Vector(x: 0, y: 150), after: .milliseconds(200)).stop
        let up = down + .milliseconds(100)
        #expect(fingers.start(velocity: Vector(x: 0, y: -150), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: up) == VirtualFingers.Start())
        let upStop = up + .milliseconds(150)
        _ = Self.run(&fingers, from: up, until: upStop)
        fingers.freeze(at: upStop)
        let sideways = fingers.start(velocity: Vector(x: 150, y: 0), deceleration: Self.deceleration,
                                     maxDuration: .milliseconds(5000), at: upStop + .milliseconds(100))
        #expect(sideways.lift != nil && sideways.landing != nil, "\(sideways)")
    }

    /// Fingers that never moved started no scroll (libinput has nothing locked) and, within the
    /// tap timeout of their landing, must not lift: a glide across continues them.
    @Test("fingers that never moved continue across the axis: no scroll to be locked, and no lift within the tap timeout")
    func unmovedFingersContinueAcross() throws {
        var fingers = VirtualFingers(lead: .zero)
        let (moved, stop) = Self.stopped(&fingers, velocity: Vector(x: 0, y: 150), after: .milliseconds(1))
        #expect(!moved.contains { $0.frame.action == .move })
        #expect(fingers.start(velocity: Vector(x: 150, y: 0), deceleration: Self.deceleration,
                              maxDuration: .milliseconds(5000), at: stop + .milliseconds(100)) == VirtualFingers.Start())
    }

    /// The tap guard counts from the landing's write, as the rest before the lift does: a
    /// landing written 30 ms late, frozen before its make-up frame, and a release 205 ms after
    /// the first whose glide does not fit would otherwise lift 175 ms after the landing with no
    /// travel: a two-finger tap within libinput's 180 ms.
    @Test("the tap guard counts from the landing's write: a landing written 30 ms late is not lifted 175 ms after it")
    func tapGuardFromTheLandingsWrite() throws {
        var fingers = VirtualFingers(lead: .zero)
        // 1500 mm/s down lands high on the pad; its landing reaches the kernel 30 ms after the
        // release, and a stop 1 ms later comes before the make-up frame.
        _ = try #require(fingers.start(velocity: Vector(x: 0, y: 1500), deceleration: Self.deceleration,
                                       maxDuration: .milliseconds(5000), at: Self.release).landing)
        let written = Self.release + .milliseconds(30)
        fingers.frameWritten(at: written)
        fingers.freeze(at: written + .milliseconds(1))
        // A fast flick up 205 ms after the first release: about 60 mm of room above, 750 mm of glide.
        let again = Self.release + .milliseconds(205)
        let start = fingers.start(velocity: Vector(x: 0, y: -1500), deceleration: Self.deceleration,
                                  maxDuration: .milliseconds(5000), at: again)
        #expect(start.lift == nil, "lifted \(again - written) after the landing's write, having never moved")
        let frames = Self.run(&fingers, from: again)
        let lift = try #require(frames.last { $0.frame.action == .lift })
        #expect(lift.time - written >= Self.rest)
    }

    // MARK: The longest glide the pad holds

    /// How a glide that lands at `speed` (mm/s) along `direction` ends, run to the lift with
    /// the engine's lead.
    static func ending(speed: Double, along direction: Vector, coast: Configuration.Coast) -> [VirtualFingers.Ending] {
        var fingers = VirtualFingers()
        _ = fingers.start(velocity: direction * speed, deceleration: Deceleration(ratePerMillisecond: coast.decelerationRate),
                          maxDuration: coast.maxDuration, at: release)
        return run(&fingers, from: release).compactMap(\.ended)
    }

    static let axes = [Vector(x: 0, y: 1), Vector(x: 0, y: -1), Vector(x: 1, y: 0), Vector(x: -1, y: 0)]

    @Test("the fastest release that fits the pad is start's: along each axis a glide 0.01 mm/s under it does not end at the edge, 0.01 mm/s over it and at max_speed it does",
          arguments: [(0.998, 2000.0, 1738.5...1739.5), (0.999, 1500.0, 874.5...875.5), (0.9999, 1500.0, 220.5...221.5)])
    func fastestReleaseThatFits(rate: Double, maxSpeed: Double, expected: ClosedRange<Double>) throws {
        var configuration = Configuration()
        configuration.coast.decelerationRate = rate
        configuration.coast.maxSpeed = maxSpeed
        let limit = try #require(configuration.touchpadGlideSpeedLimit(), "\(rate), \(maxSpeed) mm/s")
        #expect(expected.contains(limit), "\(rate): \(limit) mm/s, expected \(expected)")
        for axis in Self.axes {
            let under = Self.ending(speed: limit - 0.01, along: axis, coast: configuration.coast)
            let over = Self.ending(speed: limit + 0.01, along: axis, coast: configuration.coast)
            let fastest = Self.ending(speed: maxSpeed, along: axis, coast: configuration.coast)
            #expect(under.count == 1 && under != [.edge], "\(rate), \(limit - 0.01) mm/s along \(axis): \(under)")
            #expect(over == [.edge], "\(rate), \(limit + 0.01) mm/s along \(axis): \(over)")
            #expect(fastest == [.edge], "\(rate), max_speed \(maxSpeed) mm/s along \(axis): \(fastest)")
        }
        // Along an axis the pad holds least: a diagonal glide just over the limit still fits.
        let diagonal = Self.ending(speed: limit + 0.01, along: Vector(x: 1, y: 1) / Double(2).squareRoot(), coast: configuration.coast)
        #expect(diagonal.count == 1 && diagonal != [.edge], "\(rate) diagonally: \(diagonal)")
    }

    @Test("with the defaults (0.998, max_speed 1500 mm/s) every release fits: no limit, and the fastest settles")
    func theDefaultsFit() {
        #expect(Configuration.defaults.touchpadGlideSpeedLimit() == nil)
        #expect(Configuration.defaults.touchpadGlideWarnings() == [])
        for axis in Self.axes {
            #expect(Self.ending(speed: 1500, along: axis, coast: Configuration.defaults.coast) == [.settled])
        }
        // Still nil at max_speed just under the limit at the default rate (1739 mm/s).
        var fast = Configuration()
        fast.coast.maxSpeed = 1738
        #expect(fast.touchpadGlideSpeedLimit() == nil)
        fast.coast.maxSpeed = 1740
        #expect(fast.touchpadGlideSpeedLimit() != nil)
    }

    @Test("the warning names the fastest release that fits, the glide at max_speed and what the pad holds; per [[device]] section with coast settings of its own; none with the wheel output")
    func warnings() {
        var slow = Configuration()
        slow.coast.decelerationRate = 0.999
        let top = "with output.mode = \"touchpad\", glides from releases faster than 874 mm/s stop at the edge of flickd's "
            + "virtual touchpad (coast.deceleration_rate = 0.999 glides 1.49 m at coast.max_speed = 1500 mm/s; the pad "
            + "holds 0.87 m along an axis): lower coast.max_speed to 874 or coast.deceleration_rate, or use output.mode = \"wheel\""
        #expect(slow.touchpadGlideWarnings() == [top])
        slow.output.mode = .wheel
        #expect(slow.touchpadGlideWarnings() == [], "the wheel output has no pad")
        slow.output.mode = .touchpad

        // Sections that inherit the top level's coast settings are covered by its line.
        var sections = slow
        sections.devices = [DeviceRule(name: "Synaptics", configuration: slow)]
        var fast = Configuration()
        fast.coast.maxSpeed = 2000
        sections.devices.append(DeviceRule(name: "ELAN", configuration: fast))
        var off = fast
        off.coast.maxSpeed = 3000
        sections.devices.append(DeviceRule(name: "Wacom", enabled: false, configuration: off))
        let device2 = "with output.mode = \"touchpad\", glides from releases faster than 1738 mm/s stop at the edge of flickd's "
            + "virtual touchpad (device[2].coast.deceleration_rate = 0.998 glides 1.00 m at device[2].coast.max_speed = 2000 mm/s; "
            + "the pad holds 0.87 m along an axis): lower device[2].coast.max_speed to 1738 or device[2].coast.deceleration_rate, "
            + "or use output.mode = \"wheel\""
        #expect(sections.touchpadGlideWarnings() == [top, device2])
        // A section's resolved settings give its own limit.
        let elan = sections.resolved(for: DeviceIdentity(name: "ELAN1200 Touchpad")).configuration
        #expect(elan.touchpadGlideSpeedLimit() == fast.touchpadGlideSpeedLimit())
        // A section that fits under a top level that does not: only the top level's line.
        var fits = slow
        fits.coast.decelerationRate = 0.998
        sections.devices = [DeviceRule(name: "ELAN", configuration: fits)]
        #expect(sections.touchpadGlideWarnings() == [top])

        // The same coast settings in a section that coasts where the top level does not (the
        // top level's touchpads off): no top-level line covers it, so it has its own.
        var padsOff = slow
        padsOff.touchpad.enabled = false
        var padOn = padsOff
        padOn.touchpad.enabled = true
        padsOff.devices = [DeviceRule(name: "ELAN", configuration: padOn)]
        let onlyThere = padsOff.touchpadGlideWarnings()
        #expect(onlyThere.count == 1 && onlyThere.first?.contains("device[1].coast.deceleration_rate = 0.999") == true, "\(onlyThere)")

        // A limit at or under min_speed: a max_speed that low is refused, only the rate helps.
        var steep = Configuration()
        steep.coast.decelerationRate = 0.9999
        steep.coast.maxDuration = .milliseconds(60000)
        steep.coast.minSpeed = 100
        let steepLine = steep.touchpadGlideWarnings().first ?? ""
        // A max_speed just over the limit: the glide and the pad in millimetres, not both 0.87 m.
        var near = Configuration()
        near.coast.maxSpeed = 1739
        let nearLine = near.touchpadGlideWarnings().first ?? ""
        #expect(nearLine.contains(" mm at coast.max_speed = 1739 mm/s; the pad holds ") && !nearLine.contains("0.87 m at"), "\(nearLine)")
        #expect(steepLine.hasSuffix("lower coast.deceleration_rate (every coast, from coast.min_speed = 100 mm/s on, stops there), or use output.mode = \"wheel\""),
                "\(steepLine)")
    }
}
