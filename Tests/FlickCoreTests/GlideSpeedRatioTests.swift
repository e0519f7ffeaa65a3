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

    @Test("the ratio is kept within 0.1–10×; a factor that is unknown, negative or not finite, or a virtual pad at 0, leaves 1")
    func ratioIsClamped() {
        #expect(Engine.glideSpeedRatio(source: 2, virtual: 1) == 2)
        #expect(Engine.glideSpeedRatio(source: 0.5, virtual: 2) == 0.25)
        #expect(Engine.glideSpeedRatio(source: 100, virtual: 1) == 10)
        #expect(Engine.glideSpeedRatio(source: 0, virtual: 1) == 0.1)
        #expect(Engine.glideSpeedRatio(source: 1, virtual: 0) == 1)
        #expect(Engine.glideSpeedRatio(source: -1, virtual: 1) == 1)
        #expect(Engine.glideSpeedRatio(source: .nan, virtual: 1) == 1)
        #expect(Engine.glideSpeedRatio(source: 1, virtual: .infinity) == 1)
        #expect(Engine.glideSpeedRatio(source: nil, virtual: 1) == 1)
        #expect(Engine.glideSpeedRatio(source: 1, virtual: nil) == 1)
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
