import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// The touchpad output on a desktop that keeps a scrolling speed per device (KWin's
/// `ScrollFactor`, sway's `scroll_factor`): the virtual pad's multiplies the fingers' motion, so
/// a touchpad's glide moves them faster by the real pad's factor over it, and the content goes
/// on at the speed the real pad scrolled it.
@Suite struct GlideSpeedRatioTests {
    /// A flick 20 mm down over 100 ms (about 200 mm/s) on a pad the desktop scrolls at
    /// `source` while the virtual pad scrolls at `virtual`, its glide run out.
    static func glide(source: Double?, virtual: Double?) -> TouchpadOutputTests.Pad {
        let pad = TouchpadOutputTests.Pad()
        pad.script.engine.setDesktopScrollFactor(source, for: pad.script.device)
        pad.script.engine.virtualTouchpadScrollFactor = virtual
        pad.flick(Vector(x: 0, y: 20))
        pad.script.wait(.seconds(8))
        return pad
    }

    @Test("the real pad at ScrollFactor 2, the virtual one at 1: the fingers glide twice as far, the release's velocity kept")
    func doubled() throws {
        let plain = Self.glide(source: 1, virtual: 1)
        let doubled = Self.glide(source: 2, virtual: 1)
        let plan = try #require(plain.script.coasts.first)
        let doubledPlan = try #require(doubled.script.coasts.first)
        #expect(doubledPlan.velocity == plan.velocity, "the plan and a boost keep the source's velocity")
        #expect(plain.actions == [.land, .move, .lift] && doubled.actions == [.land, .move, .lift])
        #expect(doubled.script.coastEndReasons == [.finished], "200 mm of glide fits the pad")
        // The model's travel is v/k, short of it by `restDistance`; the make-up comes on top.
        let k = Deceleration(ratePerMillisecond: 0.998).decayPerSecond
        let one = plain.travel.y - VirtualFingers.makeUp(speed: plan.velocity.y)
        let two = doubled.travel.y - VirtualFingers.makeUp(speed: 2 * plan.velocity.y)
        #expect(abs(one - plan.velocity.y / k) < 0.1, "\(one) vs \(plan.velocity.y / k)")
        #expect(abs(two - 2 * plan.velocity.y / k) < 0.1, "\(two) vs \(2 * plan.velocity.y / k)")
        // The fastest frame, once the ramp is done, is about twice as fast too.
        func fastest(_ pad: TouchpadOutputTests.Pad) -> Double {
            zip(pad.moves, pad.moves.dropFirst()).dropFirst(2).map { a, b in
                (b.frame.centroid - a.frame.centroid).length / (b.time - a.time).seconds
            }.max() ?? 0
        }
        #expect(abs(fastest(doubled) / fastest(plain) - 2) < 0.1, "\(fastest(doubled)) vs \(fastest(plain))")
    }

    @Test("sway's scroll_factor 0.5 on the real pad: half as far; unknown on either pad, or the same: as far as before")
    func halvedAndUnknown() throws {
        let plain = Self.glide(source: nil, virtual: nil)
        let plan = try #require(plain.script.coasts.first)
        let k = Deceleration(ratePerMillisecond: 0.998).decayPerSecond
        let half = Self.glide(source: 0.5, virtual: 1)
        let halfTravel = half.travel.y - VirtualFingers.makeUp(speed: plan.velocity.y / 2)
        #expect(abs(halfTravel - plan.velocity.y / 2 / k) < 0.1, "\(halfTravel)")
        for (source, virtual) in [(2.0, nil), (nil, 2.0), (1.5, 1.5)] as [(Double?, Double?)] {
            let pad = Self.glide(source: source, virtual: virtual)
            #expect(abs(pad.travel.y - plain.travel.y) < 1e-9, "\(String(describing: source)) / \(String(describing: virtual))")
        }
        // Both factors 2: the desktop doubles both pads' scrolls alike, nothing to match.
        let both = Self.glide(source: 2, virtual: 2)
        #expect(abs(both.travel.y - plain.travel.y) < 1e-9)
    }

    @Test("the ratio's size is kept within 0.1–10×, its sign the factors'; a real pad at 0 gives 0; a factor unknown or not finite, or a virtual pad at 0, leaves 1")
    func ratioIsClamped() {
        #expect(Engine.glideSpeedRatio(source: 2, virtual: 1) == 2)
        #expect(Engine.glideSpeedRatio(source: 0.5, virtual: 2) == 0.25)
        #expect(Engine.glideSpeedRatio(source: 100, virtual: 1) == 10)
        #expect(Engine.glideSpeedRatio(source: 0.001, virtual: 1) == 0.1)
        #expect(Engine.glideSpeedRatio(source: 0, virtual: 1) == 0)
        #expect(Engine.glideSpeedRatio(source: -0.0, virtual: 1) == 0)
        #expect(Engine.glideSpeedRatio(source: 1, virtual: 0) == 1)
        #expect(Engine.glideSpeedRatio(source: 0, virtual: 0) == 0, "sway's `input type:touchpad scroll_factor 0`: both pads at 0")
        #expect(Engine.glideSpeedRatio(source: 0, virtual: nil) == 0)
        #expect(Engine.glideSpeedRatio(source: -1, virtual: 1) == -1)
        #expect(Engine.glideSpeedRatio(source: -2, virtual: -1) == 2)
        #expect(Engine.glideSpeedRatio(source: 1, virtual: -2) == -0.5)
        #expect(Engine.glideSpeedRatio(source: -100, virtual: 1) == -10)
        #expect(Engine.glideSpeedRatio(source: .nan, virtual: 1) == 1)
        #expect(Engine.glideSpeedRatio(source: 1, virtual: .infinity) == 1)
        #expect(Engine.glideSpeedRatio(source: nil, virtual: 1) == 1)
        #expect(Engine.glideSpeedRatio(source: 1, virtual: nil) == 1)
    }

    /// sway's `scroll_factor 0` (KWin's `ScrollFactor=0`) on the real pad: the user's own
    /// scrolls on it move nothing, so its flicks glide nothing either: no fingers land, and the
    /// release says why. The wheel output, a mouse's wheel to the desktop, is not scaled.
    @Test("the real pad at factor 0: no fingers land on the virtual pad, the release reports why; the wheel output still coasts")
    func aPadThatScrollsNothingGlidesNothing() throws {
        let pad = Self.glide(source: 0, virtual: 1)
        #expect(pad.frames.isEmpty, "no fingers land: \(pad.actions)")
        #expect(pad.script.coasts.isEmpty && pad.script.coastEndReasons.isEmpty)
        #expect(pad.script.noCoastReasons == [.scrollsNothing], "\(pad.script.noCoastReasons)")
        #expect(!pad.script.engine.isCoasting && !pad.script.engine.hasFingersDown)
        // The wheel output is not scaled: the same pad's flick coasts there.
        let wheel = TouchpadOutputTests.Pad()
        wheel.script.engine.output = .wheel
        wheel.script.engine.setDesktopScrollFactor(0, for: wheel.script.device)
        wheel.flick(Vector(x: 0, y: 20))
        wheel.script.wait(.seconds(8))
        #expect(wheel.script.coasts.count == 1 && wheel.script.verticalTotal != 0)
    }

    /// Two touchpads, A at factor 1 and B at 0 (its touches do not stop a coast by `stop.touch`,
    /// and B's hand was already down when A's glide began: no landing on B stops it). B's
    /// release starts nothing, and takes nothing from A's glide: A's virtual fingers go on.
    @Test("pad A glides on the virtual pad; pad B at factor 0 releases a flick mid-glide: A's fingers keep moving to the glide's end")
    func aPadThatScrollsNothingLeavesAnotherPadsGlide() throws {
        var configuration = Configuration()
        configuration.stop.touch = false
        let a = TouchpadOutputTests.Pad(configuration: configuration)
        let engine = a.script.engine
        engine.virtualTouchpadScrollFactor = 1
        engine.setDesktopScrollFactor(1, for: a.script.device)
        let b: DeviceID = 8
        engine.addDevice(b, description: TouchpadOutputTests.touchpad)
        engine.setDesktopScrollFactor(0, for: b)
        var writer = FingerFrameWriter(description: TouchpadOutputTests.touchpad, clampsToAxes: false)
        var hand: [Vector?] = []
        func frameOnB() { writer.frame(hand) { _ = engine.handle($0, from: b, at: a.script.now) } }
        // t = 0: two fingers rest on B. Then A: a flick 20 mm down over 100 ms, released.
        hand = [Vector(x: 40, y: 20), Vector(x: 60, y: 20)]
        frameOnB()
        a.script.wait(.milliseconds(50))
        a.flick(Vector(x: 0, y: 20))
        let release = a.script.now
        // 200 ms into A's glide, B's hand flicks 20 mm down over 100 ms and lifts.
        a.script.wait(.milliseconds(200))
        for step in 1...12 {
            a.script.wait(.milliseconds(8))
            hand = [Vector(x: 40, y: 20 + 20 * Double(step) / 12), Vector(x: 60, y: 20 + 20 * Double(step) / 12)]
            frameOnB()
        }
        a.script.wait(.milliseconds(8))
        hand = [nil, nil]
        frameOnB()
        let bReleased = a.script.now
        #expect(a.script.noCoastReasons == [.scrollsNothing], "B's flick glides nothing: \(a.script.noCoastReasons)")
        a.script.wait(.seconds(8))
        #expect(a.script.coasts.count == 1 && a.script.coastEndReasons == [.finished],
                "A's glide ran to its end: \(a.script.coastEndReasons)")
        #expect(a.actions == [.land, .move, .lift], "one landing, at A's release: \(a.actions)")
        #expect(a.frames.first?.time == release)
        let after = a.moves.filter { $0.time > bReleased }
        #expect(after.count > 100, "A's fingers kept moving after B's release: \(after.count) frames")
        let moved = zip(after, after.dropFirst()).filter { $1.frame.centroid.y > $0.frame.centroid.y }.count
        #expect(moved > 100, "and moving down, as A's flick: \(moved) frames moved")
    }

    /// sway's `input type:touchpad scroll_factor 0` sets every touchpad at 0, flickd's virtual
    /// one too: the real pad's own scrolls move nothing, so its flick glides nothing either,
    /// rather than fingers gliding on a virtual pad that moves nothing.
    @Test("both pads at factor 0 (sway's `input type:touchpad scroll_factor 0`): no fingers land, the release reports why")
    func bothPadsAtZeroGlideNothing() throws {
        let pad = Self.glide(source: 0, virtual: 0)
        #expect(pad.actions.isEmpty, "no fingers land: \(pad.actions)")
        #expect(pad.script.coasts.isEmpty && pad.script.noCoastReasons == [.scrollsNothing], "\(pad.script.noCoastReasons)")
        #expect(!pad.script.engine.isCoasting && !pad.script.engine.hasFingersDown)
    }

    /// KWin's `ScrollFactor=-1` reverses that pad's scrolls: the content went the other way
    /// from its fingers, so the virtual fingers move the other way too (the virtual pad at 1),
    /// as far; with both pads at -1 the desktop reverses both alike.
    @Test("a negative factor on one pad turns the fingers round, as far; on both, as plain", arguments: [false, true])
    func aNegativeFactorTurnsTheFingersRound(natural: Bool) throws {
        func glide(source: Double?, virtual: Double?) -> TouchpadOutputTests.Pad {
            let pad = TouchpadOutputTests.Pad()
            pad.script.engine.desktopNaturalScrolling = natural
            pad.script.engine.setDesktopScrollFactor(source, for: pad.script.device)
            pad.script.engine.virtualTouchpadScrollFactor = virtual
            pad.flick(Vector(x: 0, y: 20))
            pad.script.wait(.seconds(8))
            return pad
        }
        let plain = glide(source: 1, virtual: 1)
        #expect(plain.travel.y > 70, "down, as the real fingers: \(plain.travel)")
        let reversed = glide(source: -1, virtual: 1)
        #expect(abs(reversed.travel.y + plain.travel.y) < 1e-6, "up, as far: \(reversed.travel) vs \(plain.travel)")
        #expect(reversed.actions == [.land, .move, .lift] && reversed.script.coastEndReasons == [.finished])
        let virtualReversed = glide(source: 1, virtual: -1)
        #expect(abs(virtualReversed.travel.y + plain.travel.y) < 1e-6, "\(virtualReversed.travel)")
        let both = glide(source: -1, virtual: -1)
        #expect(abs(both.travel.y - plain.travel.y) < 1e-9, "\(both.travel) vs \(plain.travel)")
        // Against a virtual pad that scrolls the other way round too, the two turns cancel.
        let again = TouchpadOutputTests.Pad()
        again.script.engine.desktopNaturalScrolling = natural
        again.script.engine.virtualTouchpadNaturalScrolling = !natural
        again.script.engine.setDesktopScrollFactor(-1, for: again.script.device)
        again.script.engine.virtualTouchpadScrollFactor = 1
        again.flick(Vector(x: 0, y: 20))
        again.script.wait(.seconds(8))
        #expect(abs(again.travel.y - plain.travel.y) < 1e-9, "\(again.travel) vs \(plain.travel)")
    }

    /// A touchscreen's content followed the finger at no pad's factor: a pad at 1 against the
    /// virtual pad's own. KWin giving flickd's virtual touchpad ScrollFactor=2 (its own group,
    /// or the defaults group) would otherwise double every touchscreen glide.
    @Test("a touchscreen's glide counts as a pad at 1: the virtual pad at 2 halves the fingers' travel", arguments: [2.0, 0.5])
    func aTouchscreenCountsAsAPadAtOne(virtual: Double) throws {
        func swipe(virtual: Double?) throws -> (travel: Double, velocity: Double) {
            var configuration = Configuration()
            configuration.touchscreen.enabled = true
            let screen = TouchpadOutputTests.Pad(TouchpadOutputTests.touchscreen, configuration: configuration)
            screen.script.engine.virtualTouchpadScrollFactor = virtual
            screen.swipe(Vector(x: 0, y: 20))
            screen.script.wait(.seconds(8))
            let plan = try #require(screen.script.coasts.first)
            #expect(screen.actions == [.land, .move, .lift])
            return (abs(screen.travel.y), abs(plan.velocity.y))
        }
        let plain = try swipe(virtual: nil)
        let atOne = try swipe(virtual: 1)
        #expect(abs(atOne.travel - plain.travel) < 1e-9)
        let scaled = try swipe(virtual: virtual)
        #expect(scaled.velocity == plain.velocity, "the release is the same")
        let k = Deceleration(ratePerMillisecond: 0.998).decayPerSecond
        let one = plain.travel - VirtualFingers.makeUp(speed: plain.velocity)
        let ratio = 1 / virtual
        let other = scaled.travel - VirtualFingers.makeUp(speed: ratio * plain.velocity)
        #expect(abs(one - plain.velocity / k) < 0.1, "\(one)")
        #expect(abs(other - ratio * plain.velocity / k) < 0.1, "\(other) vs \(ratio * plain.velocity / k)")
    }

    /// A fast flick (about 1000 mm/s) at ten times the virtual pad's speed: 10 000 mm/s wanted.
    /// The fingers still never pass their top speed and never leave the margins. The model
    /// reaches the margin ahead within about 90 ms; the fingers, at most 1600 mm/s, stop where
    /// they are then (`VirtualFingers.maximumCatchUp`): such a ratio shortens the glide.
    @Test("at 10× a fast flick's fingers stay under 1600 mm/s and inside the margins, and stop at the edge")
    func topSpeedAndMarginsHold() throws {
        let pad = TouchpadOutputTests.Pad()
        pad.script.engine.setDesktopScrollFactor(100, for: pad.script.device)
        pad.script.engine.virtualTouchpadScrollFactor = 1
        pad.flick(Vector(x: 0, y: 100))
        pad.script.wait(.seconds(8))
        #expect(pad.script.coastEndReasons == [.edge], "\(pad.script.coastEndReasons)")
        #expect(pad.actions == [.land, .move, .lift])
        let low = VirtualPad.marginMillimetres, high = VirtualPad.sideMillimetres - VirtualPad.marginMillimetres
        for entry in pad.frames {
            for finger in [entry.frame.first, entry.frame.second] {
                #expect(finger.x >= low - 1e-9 && finger.x <= high + 1e-9 && finger.y >= low - 1e-9 && finger.y <= high + 1e-9,
                        "\(entry.frame) at \(entry.time)")
            }
        }
        let moving = pad.frames.filter { $0.frame.action != .lift }
        for (a, b) in zip(moving, moving.dropFirst()) {
            let speed = (b.frame.centroid - a.frame.centroid).length / (b.time - a.time).seconds
            #expect(speed <= VirtualFingers.maximumSpeed + 1e-6, "\(speed) mm/s at \(b.time)")
        }
        #expect(pad.travel.y > 100, "the fingers ran at their top speed until the model's end: \(pad.travel)")
    }
}
