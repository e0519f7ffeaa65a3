import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// The engine with `output = .touchpad`: releases become virtual finger frames, no wheel output.
@Suite struct TouchpadOutputTests {
    /// A 100 × 70 mm two-slot clickpad at 40 units/mm.
    static let touchpad = DeviceDescription(
        name: "test touchpad", bustype: 0x18,
        properties: [EventCode.propPointer, EventCode.propButtonPad],
        keys: [EventCode.buttonLeft, EventCode.touch, EventCode.toolFinger, EventCode.toolDoubleTap, EventCode.toolTripleTap],
        absoluteAxes: [
            EventCode.absX: AxisInfo(minimum: 0, maximum: 4000, resolution: 40),
            EventCode.absY: AxisInfo(minimum: 0, maximum: 2800, resolution: 40),
            EventCode.absMTSlot: AxisInfo(minimum: 0, maximum: 1),
            EventCode.absMTTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            EventCode.absMTPositionX: AxisInfo(minimum: 0, maximum: 4000, resolution: 40),
            EventCode.absMTPositionY: AxisInfo(minimum: 0, maximum: 2800, resolution: 40),
        ])

    /// A 300 × 200 mm touchscreen at 10 units/mm.
    static let touchscreen = DeviceDescription(
        name: "test touchscreen", bustype: 0x03,
        properties: [EventCode.propDirect],
        keys: [EventCode.touch],
        absoluteAxes: [
            EventCode.absX: AxisInfo(minimum: 0, maximum: 3000, resolution: 10),
            EventCode.absY: AxisInfo(minimum: 0, maximum: 2000, resolution: 10),
            EventCode.absMTSlot: AxisInfo(minimum: 0, maximum: 9),
            EventCode.absMTTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            EventCode.absMTPositionX: AxisInfo(minimum: 0, maximum: 3000, resolution: 10),
            EventCode.absMTPositionY: AxisInfo(minimum: 0, maximum: 2000, resolution: 10),
        ])

    /// A script on `description` whose engine writes to the virtual touchpad; frames are
    /// collected in `frames`.
    final class Pad {
        let script: FingerScript
        var frames: [(time: Instant, frame: TouchFrame)] = []
        init(_ description: DeviceDescription = TouchpadOutputTests.touchpad, configuration: Configuration = .defaults) {
            script = FingerScript(description: description, configuration: configuration)
            script.engine.output = .touchpad
            script.engine.onTouchFrame = { [unowned self] frame, time in self.frames.append((time, frame)) }
        }
        var moves: [(time: Instant, frame: TouchFrame)] { frames.filter { $0.frame.action == .move } }
        var actions: [TouchFrame.Action] {
            var result: [TouchFrame.Action] = []
            for entry in frames where result.last != entry.frame.action || entry.frame.action != .move {
                result.append(entry.frame.action)
            }
            return result
        }
        /// Centroid travel from the landing to the last frame, mm.
        var travel: Vector {
            guard let first = frames.first, let last = frames.last else { return .zero }
            return last.frame.centroid - first.frame.centroid
        }
        /// A flick down whose glide runs 150 ms, then a frame of the fingers resting: the time
        /// to stop it at.
        func stopped() -> Instant {
            flick(Vector(x: 0, y: 30))
            script.wait(.milliseconds(150))
            script.stationaryFrame()
            return script.now
        }
        /// From the stop to the lift of such a glide, stopped with nothing on the pad after it.
        static func liftAfterStop() -> Duration? {
            let pad = Pad()
            let stop = pad.stopped()
            pad.script.engine.stop(at: stop, reason: .touch)
            pad.script.wait(.seconds(2))
            return pad.frames.last(where: { $0.frame.action == .lift }).map { $0.time - stop }
        }
        /// A one-finger swipe by `delta` over 100 ms from `start` (a touchscreen's), then a lift.
        func swipe(_ delta: Vector, from start: Vector = Vector(x: 100, y: 50)) {
            script.down(start)
            script.move(by: delta, over: .milliseconds(100))
            script.advance(to: script.now + script.frameInterval)
            script.lift()
        }
        /// A two-finger scroll by `delta` over 100 ms, then a lift.
        func flick(_ delta: Vector, at start: Vector = Vector(x: 40, y: 20)) {
            script.down(start, start + Vector(x: 20, y: 0))
            script.move(by: delta, over: .milliseconds(100))
            script.advance(to: script.now + script.frameInterval)
            script.lift()
        }
    }

    @Test("a flick down on a touchpad: land at the release, fingers move down, no wheel output, lift")
    func flickDown() throws {
        let pad = Pad()
        pad.flick(Vector(x: 0, y: 20))
        let release = pad.script.now
        pad.script.wait(.seconds(6))
        #expect(pad.script.output.isEmpty, "no wheel output in touchpad mode")
        #expect(pad.frames.first?.time == release && pad.frames.first?.frame.action == .land)
        #expect(pad.actions == [.land, .move, .lift])
        let plan = try #require(pad.script.coasts.first)
        let destination = plan.velocity.y / Deceleration(ratePerMillisecond: 0.998).decayPerSecond
        #expect(abs(pad.travel.y - (destination + VirtualFingers.makeUp(speed: plan.velocity.y))) < 0.06, "travel \(pad.travel) vs \(destination)")
        #expect(pad.travel.x == 0)
        #expect(pad.script.coastEndReasons == [.finished])
        #expect(!pad.script.engine.isCoasting && !pad.script.engine.hasFingersDown)
    }

    @Test("natural scrolling does not invert a touchpad's fingers a second time; a touchscreen's follow the desktop",
          arguments: [false, true])
    func direction(desktopNatural: Bool) throws {
        for natural in [NaturalScrolling.auto, .on, .off] {
            var configuration = Configuration()
            configuration.scroll.natural = natural
            let pad = Pad(configuration: configuration)
            pad.script.engine.desktopNaturalScrolling = desktopNatural
            pad.flick(Vector(x: 0, y: 20))
            pad.script.wait(.seconds(6))
            #expect(pad.travel.y > 70, "touchpad fingers move down as the real ones did (\(natural), desktop \(desktopNatural))")
        }
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        let screen = Pad(Self.touchscreen, configuration: configuration)
        screen.script.engine.desktopNaturalScrolling = desktopNatural
        screen.swipe(Vector(x: 0, y: 20))
        screen.script.wait(.seconds(6))
        #expect(screen.script.coasts.count == 1)
        // Content follows a touchscreen finger: on a natural pad the fingers move the same way.
        #expect(desktopNatural ? screen.travel.y > 70 : screen.travel.y < -70, "travel \(screen.travel)")
    }

    /// Whatever `scroll.natural` says (explicit, it still does not change a touchpad's glide):
    /// the desktop's settings for the two pads decide.
    @Test("a desktop that gives the virtual pad a setting of its own: the fingers move against the real ones where it differs",
          arguments: [false, true])
    func perDeviceDirection(sourceNatural: Bool) throws {
        for virtualNatural in [false, true] {
            for natural in [NaturalScrolling.auto, .on, .off] {
                var configuration = Configuration()
                configuration.scroll.natural = natural
                let pad = Pad(configuration: configuration)
                pad.script.engine.desktopNaturalScrolling = !sourceNatural  // the desktop-wide value is not this pad's
                pad.script.engine.setDesktopNaturalScrolling(sourceNatural, for: pad.script.device)
                pad.script.engine.virtualTouchpadNaturalScrolling = virtualNatural
                pad.flick(Vector(x: 0, y: 20))
                pad.script.wait(.seconds(6))
                let same = virtualNatural == sourceNatural
                #expect(same ? pad.travel.y > 70 : pad.travel.y < -70,
                        "real pad \(sourceNatural), virtual pad \(virtualNatural), scroll.natural \(natural): travel \(pad.travel)")
            }
        }
        // A touchscreen's content follows the finger: the virtual pad's own setting decides.
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        let screen = Pad(Self.touchscreen, configuration: configuration)
        screen.script.engine.desktopNaturalScrolling = !sourceNatural
        screen.script.engine.virtualTouchpadNaturalScrolling = sourceNatural
        screen.swipe(Vector(x: 0, y: 20))
        screen.script.wait(.seconds(6))
        #expect(sourceNatural ? screen.travel.y > 70 : screen.travel.y < -70, "travel \(screen.travel)")
    }

    @Test("a touch mid-glide freezes the fingers; 250 ms later three settle units 50 ms apart, 200 ms after them the lift")
    func touchStops() throws {
        let pad = Pad()
        pad.flick(Vector(x: 0, y: 30))
        pad.script.wait(.milliseconds(150))
        let lastMotion = try #require(pad.moves.last)
        pad.script.down(Vector(x: 50, y: 30))
        let stop = pad.script.now
        #expect(pad.script.coastEndReasons == [.touch])
        pad.script.wait(.milliseconds(800))
        let after = pad.frames.filter { $0.time >= stop }
        #expect(after.map(\.frame.action) == [.move, .move, .move, .lift], "\(after)")
        let lift = try #require(after.last)
        var previous = lastMotion
        for (i, settle) in after.dropLast().enumerated() {
            let wait = i == 0 ? VirtualFingers.restBeforeSettle : VirtualFingers.settleInterval
            #expect(settle.time - previous.time >= wait)
            #expect(settle.time - previous.time < wait + VirtualFingers.framePeriod)
            let step = settle.frame.centroid - previous.frame.centroid
            #expect(step.x == 0 && abs(abs(step.y) - 1 / VirtualPad.unitsPerMillimetre) < 1e-9, "one device unit: \(step)")
            previous = settle
        }
        #expect(lift.time - previous.time >= VirtualFingers.restBeforeLift)
        #expect(lift.time - previous.time < VirtualFingers.restBeforeLift + VirtualFingers.framePeriod)
    }

    @Test("two fingers that catch the glide and scroll on: no settle frame amid their scroll; the lift when it would have come",
          arguments: [0, 1, 2])
    func handScrollsOn(settledBefore: Int) throws {
        // The glide stops 150 ms in: at once by the hand's landing, or by a key and the hand
        // lands 10 ms after the `settledBefore`th settle frame. It scrolls 30 mm/s down for 800 ms.
        let pad = Pad()
        let stop = pad.stopped()
        let planned = try #require(Pad.liftAfterStop())
        if settledBefore > 0 {
            pad.script.engine.stop(at: stop, reason: .key)
            pad.script.wait(VirtualFingers.restBeforeSettle + VirtualFingers.settleInterval * Int64(settledBefore - 1)
                            + .milliseconds(10))
        }
        #expect(pad.moves.filter { $0.time > stop }.count == settledBefore)
        pad.script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        let hand = pad.script.now
        pad.script.move(by: Vector(x: 0, y: 24), over: .milliseconds(800))
        pad.script.wait(.milliseconds(300))
        pad.script.lift()
        pad.script.wait(.seconds(1))
        #expect(pad.script.coasts.count == 1, "the hand stopped before it lifted: no flick")
        #expect(pad.moves.filter { $0.time > hand }.isEmpty, "a settle frame amid the hand's scroll")
        let lifts = pad.frames.filter { $0.frame.action == .lift }
        #expect(lifts.count == 1)
        let lift = try #require(lifts.first)
        #expect(lift.time - stop == planned, "lifted \((lift.time - stop).seconds * 1000) ms after the stop, planned \(planned.seconds * 1000) ms")
    }

    @Test("two fingers that catch the glide and rest: the settle frames wait for their lift, at most longestHandHold",
          arguments: [400, 1500])
    func handRests(milliseconds: Int) throws {
        let pad = Pad()
        let stop = pad.stopped()
        pad.script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        pad.script.wait(.milliseconds(Int64(milliseconds)))
        pad.script.lift()
        let handLift = pad.script.now
        pad.script.wait(.seconds(2))
        let settles = pad.moves.filter { $0.time > stop }
        #expect(settles.count == VirtualFingers.settleFrames)
        let first = try #require(settles.first)
        let expected = min(handLift, stop + VirtualFingers.longestHandHold)
        #expect(first.time >= expected && first.time < expected + pad.script.frameInterval,
                "first settle frame \((first.time - stop).seconds * 1000) ms after the stop")
        for (a, b) in zip(settles, settles.dropFirst()) { #expect(b.time - a.time >= VirtualFingers.settleInterval) }
        let lift = try #require(pad.frames.last)
        #expect(lift.frame.action == .lift && lift.time - (settles.last?.time ?? stop) >= VirtualFingers.restBeforeLift)
    }

    @Test("two fingers that catch the glide and lift while the kernel drops events: their lift, seen in the resynchronised frame, lets the settle frames come")
    func handLiftsAcrossDroppedEvents() throws {
        let pad = Pad()
        let stop = pad.stopped()
        pad.script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        pad.script.wait(.milliseconds(400))
        _ = pad.script.engine.handle(InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0),
                                     from: pad.script.device, at: pad.script.now)
        pad.script.lift()
        let handLift = pad.script.now
        pad.script.wait(.seconds(2))
        let first = try #require(pad.moves.first { $0.time > stop })
        #expect(first.time >= handLift && first.time < handLift + pad.script.frameInterval,
                "first settle frame \((first.time - stop).seconds * 1000) ms after the stop, the hand lifted \((handLift - stop).seconds * 1000) ms after it")
        #expect(pad.frames.last?.frame.action == .lift)
    }

    @Test("a hand's touchpad removed, or flickd shutting down, while two fingers rest on it: the settle frames come as ever")
    func handGone() throws {
        for shutdown in [false, true] {
            let pad = Pad()
            let stop = pad.stopped()
            pad.script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
            pad.script.wait(.milliseconds(100))
            if shutdown {
                pad.script.engine.stop(at: pad.script.now, reason: .shutdown)
            } else {
                pad.script.engine.removeDevice(pad.script.device, at: pad.script.now)
            }
            pad.script.wait(.seconds(2))
            let first = try #require(pad.moves.first { $0.time > stop }, "shutdown: \(shutdown)")
            #expect(first.time - stop < VirtualFingers.restBeforeSettle + pad.script.frameInterval, "shutdown: \(shutdown)")
            #expect(pad.frames.last?.frame.action == .lift)
        }
    }

    @Test("another user's session in front, the fingers gliding or resting: they lift at once, with no settle frame")
    func sessionInactiveLiftsAtOnce() throws {
        for resting in [false, true] {
            let pad = Pad()
            let stop: Instant
            if resting {
                // A glide stopped by a key: the fingers rest, settle frames and the lift owed.
                pad.script.engine.stop(at: pad.stopped(), reason: .key)
                pad.script.wait(.milliseconds(50))
                stop = pad.script.now
            } else {
                stop = pad.stopped()
            }
            let before = pad.frames.count
            #expect(pad.script.engine.hasFingersDown, "resting: \(resting)")
            pad.script.engine.stop(at: stop, reason: .sessionInactive)
            pad.script.wait(.seconds(2))
            let after = pad.frames.dropFirst(before)
            #expect(after.map(\.frame.action) == [.lift], "resting: \(resting): \(after.map(\.frame.action))")
            #expect(after.first?.time == stop, "resting: \(resting)")
            #expect(!pad.script.engine.hasFingersDown)
        }
    }

    @Test("one finger that rests or moves after the stop, or two that drift less than libinput's scroll start: the settle frames come")
    func handMakesNoScroll() throws {
        for how in ["one finger rests", "one finger moves", "two fingers drift 1.2 mm", "one finger moves, a second lands"] {
            let pad = Pad()
            let stop = pad.stopped()
            switch how {
            case "one finger rests":
                pad.script.down(Vector(x: 50, y: 30))
                pad.script.wait(.milliseconds(800))
            case "one finger moves":
                pad.script.down(Vector(x: 50, y: 30))
                pad.script.move(by: Vector(x: 20, y: 20), over: .milliseconds(800))
            case "two fingers drift 1.2 mm":
                pad.script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
                pad.script.move(by: Vector(x: 0, y: 1.2), over: .milliseconds(100))
                pad.script.wait(.milliseconds(500))
            default:
                // The landing frame measures the first finger's motion before it: no scroll of two.
                pad.script.down(Vector(x: 50, y: 30))
                pad.script.move(by: Vector(x: 10, y: 0), over: .milliseconds(100))
                pad.script.down(Vector(x: 50, y: 50))
                pad.script.wait(.milliseconds(500))
            }
            pad.script.lift()
            pad.script.wait(.seconds(2))
            #expect(pad.moves.filter { $0.time > stop }.count == VirtualFingers.settleFrames, "\(how)")
            #expect(pad.frames.last?.frame.action == .lift, "\(how)")
        }
    }

    @Test("a hand on one touchpad holds the settle frames back while a finger moves on another; the hold keeps its limit")
    func handOnOneOfTwoTouchpads() throws {
        let pad = Pad()
        let other: DeviceID = 42
        pad.script.engine.addDevice(other, description: Self.touchpad)
        var writer = FingerFrameWriter(description: Self.touchpad, clampsToAxes: false)
        let stop = pad.stopped()
        pad.script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        let hand = pad.script.now
        // 3 s of a finger moving on the other pad, the hand resting (a frame each 8 ms on both).
        for step in 0..<375 {
            pad.script.stationaryFrame()
            writer.frame([Vector(x: 30 + Double(step % 40), y: 40)]) { _ = pad.script.engine.handle($0, from: other, at: pad.script.now) }
        }
        let settles = pad.moves.filter { $0.time > stop }
        let first = try #require(settles.first)
        #expect(first.time - hand >= VirtualFingers.longestHandHold, "held \((first.time - hand).seconds * 1000) ms")
        #expect(first.time - hand < VirtualFingers.longestHandHold + pad.script.frameInterval * 2,
                "held \((first.time - hand).seconds * 1000) ms, beyond the limit")
        #expect(settles.count == VirtualFingers.settleFrames)
    }

    @Test("axis lock: a slanted flick moves the fingers along the axis only")
    func axisLock() throws {
        let pad = Pad()
        pad.flick(Vector(x: 3, y: 20))  // 8.5° from vertical
        pad.script.wait(.seconds(6))
        #expect(pad.travel.x == 0 && pad.travel.y > 50)
    }

    @Test("boost: a second flick while the fingers rest continues them, faster, without a new landing")
    func boost() throws {
        let pad = Pad()
        pad.flick(Vector(x: 0, y: 30))
        pad.script.wait(.milliseconds(60))
        pad.flick(Vector(x: 0, y: 30), at: Vector(x: 40, y: 20))
        pad.script.wait(.seconds(6))
        #expect(pad.script.coasts.count == 2)
        #expect(pad.script.coasts.last?.boosted == true)
        #expect(pad.actions == [.land, .move, .lift], "one landing, one lift: \(pad.actions)")
        let second = pad.script.coasts[1]
        let destination = second.velocity.y / Deceleration(ratePerMillisecond: 0.998).decayPerSecond
        #expect(pad.travel.y > destination, "the second glide adds its whole travel")
    }

    @Test("a reload freezes the fingers; changing the output forgets them")
    func reconfigure() throws {
        let pad = Pad()
        pad.flick(Vector(x: 0, y: 30))
        pad.script.wait(.milliseconds(100))
        let count = pad.frames.count
        pad.script.engine.apply(Configuration(), at: pad.script.now)
        #expect(pad.script.coastEndReasons == [.reconfigured])
        pad.script.wait(.milliseconds(700))
        #expect(pad.frames.dropFirst(count).map(\.frame.action) == [.move, .move, .move, .lift], "the settle frames, then the lift")
        // Start again, then switch to the wheel: no frame, no fingers.
        pad.flick(Vector(x: 0, y: 30))
        pad.script.wait(.milliseconds(50))
        let before = pad.frames.count
        pad.script.engine.output = .wheel
        #expect(!pad.script.engine.hasFingersDown && !pad.script.engine.isCoasting)
        pad.script.wait(.seconds(1))
        #expect(pad.frames.count == before)
    }

    @Test("a glide cut at the virtual pad's margin ends as `edge`, not as `max-duration`")
    func edgeReason() throws {
        let pad = Pad()
        // A fast flick down lands the virtual fingers high on the surface (its travel centred).
        pad.flick(Vector(x: 0, y: 40))
        let landing = try #require(pad.frames.first)
        // A quick flick up stops it before the first motion frame; its release comes within the
        // tap timeout of the landing, so the fingers, which have not moved, continue from where
        // they are (no lift that could be a tap): too little room above.
        pad.script.wait(.milliseconds(1))
        pad.script.down(Vector(x: 40, y: 50), Vector(x: 60, y: 50))
        pad.script.move(by: Vector(x: 0, y: -45), over: .milliseconds(60))
        pad.script.lift()
        #expect(pad.script.now - landing.time < VirtualFingers.restBeforeLift)
        #expect(!pad.frames.contains { $0.frame.action == .move && $0.time < pad.script.now - .milliseconds(60) },
                "no motion frame before the touch")
        pad.script.wait(.seconds(6))
        #expect(pad.script.coastEndReasons == [.touch, .edge])
        #expect(pad.actions == [.land, .move, .lift], "one landing: the second glide continued to the margin")
        let top = pad.frames.map(\.frame.first.y).min() ?? 0
        #expect(abs(top - VirtualPad.marginMillimetres) < 1, "stopped \(top) mm from the top, the margin is \(VirtualPad.marginMillimetres) mm")
    }

    @Test("max_duration in touchpad mode ends the glide as in wheel mode")
    func maxDurationReason() throws {
        var configuration = Configuration()
        configuration.coast.maxDuration = .milliseconds(200)
        let pad = Pad(configuration: configuration)
        pad.flick(Vector(x: 0, y: 30))
        pad.script.wait(.seconds(2))
        #expect(pad.script.coastEndReasons == [.maxDuration])
        #expect(pad.actions == [.land, .move, .lift])
    }

    /// A pad whose frames the daemon writes `late` after the release it handles (its landing's
    /// write reported then, as the daemon reports every write), and on time after it.
    static func handledLate(_ late: Duration) -> (pad: Pad, release: Instant) {
        let pad = Pad()
        var handled: Instant?
        pad.script.engine.onTouchFrame = { [unowned pad] frame, time in
            pad.frames.append((time, frame))
            // The first frame is the landing, written when flickd reads the release.
            let written = max(time, handled ?? time + late)
            handled = handled ?? written
            pad.script.engine.touchFrameWritten(at: written)
        }
        pad.flick(Vector(x: 0, y: 20))
        return (pad, pad.script.now)
    }

    @Test("a release flickd reads 2 s after its stamp (a stopped process, a suspend; the kernel kept the events): the fingers land, glide not, rest and lift, as the wheel's coast stops")
    func releaseHandledAfterAStall() throws {
        let (pad, release) = Self.handledLate(.seconds(2))
        pad.script.wait(.seconds(4))
        #expect(pad.actions == [.land, .lift], "no glide: \(pad.frames.count) frames")
        #expect(pad.script.coastEndReasons == [.stall])
        let lift = try #require(pad.frames.last { $0.frame.action == .lift })
        #expect(lift.time - (release + .seconds(2)) >= VirtualFingers.restBeforeLift, "no land-and-lift within the tap timeout")
        #expect(!pad.script.engine.hasFingersDown)
    }

    @Test("a release read 300 ms after its stamp, under the stall limit, still glides")
    func releaseHandledLateGlides() throws {
        let (pad, _) = Self.handledLate(.milliseconds(300))
        pad.script.wait(.seconds(6))
        #expect(pad.actions == [.land, .move, .lift])
        #expect(pad.script.coastEndReasons == [.finished])
        #expect(pad.travel.y > 30)
    }
}
