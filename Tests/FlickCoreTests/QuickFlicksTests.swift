import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// Quick flicks one after another on the touchpad output: each release comes while the virtual
/// fingers still rest from the glide the touch stopped, so the glide continues with the same
/// fingers from where they are. Flick after flick in one direction walks them towards the
/// surface's margin; where the room ahead is shorter than the new glide they lift and land
/// again, so every flick glides.
@Suite struct QuickFlicksTests {
    /// Seven flicks down the pad, 40 mm in 80 ms each, every next touch 250 ms after the last
    /// release (the touch stops that glide): boost speeds them up to about 1100 mm/s.
    static func flicks(count: Int = 7) throws -> (pad: FingerScript, frames: [(time: Instant, frame: TouchFrame)], releases: [Instant]) {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.engine.output = .touchpad
        var frames: [(time: Instant, frame: TouchFrame)] = []
        pad.engine.onTouchFrame = { frames.append(($1, $0)) }
        var releases: [Instant] = []
        for _ in 0..<count {
            pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
            pad.move(by: Vector(x: 0, y: 40), over: .milliseconds(80))
            pad.lift()
            releases.append(pad.now)
            pad.wait(.milliseconds(250))
        }
        pad.wait(.seconds(10))
        return (pad, frames, releases)
    }

    @Test("seven quick flicks down: every one glides; the fingers land again when the room ahead runs short")
    func everyFlickGlides() throws {
        let (pad, frames, releases) = try Self.flicks()
        #expect(pad.coasts.count == releases.count, "\(pad.coasts.count) coasts for \(releases.count) flicks")
        // Each glide until the next touch (100 ms before the next release), or to its end.
        for (i, release) in releases.enumerated() {
            let until = i + 1 < releases.count ? releases[i + 1] - .milliseconds(100) : Instant.end
            let moves = frames.filter { $0.time >= release && $0.time <= until && $0.frame.action == .move }
            let from = frames.last(where: { $0.time <= release })?.frame.first.y ?? 0
            let travel = (moves.last?.frame.first.y ?? from) - from
            // About 170 ms of a glide at 500–1100 mm/s: 95 mm or more.
            #expect(travel > 50, "flick \(i + 1) moved the virtual fingers \(travel) mm down (from \(from) mm)")
        }
        // No glide was cut at the surface's edge: each ended at the next touch, the last at rest.
        #expect(pad.coastEndReasons == Array(repeating: StopReason.touch, count: releases.count - 1) + [.finished],
                "\(pad.coastEndReasons)")
        // At least one release lifted the fingers and landed them again, at once.
        let lifts = frames.indices.filter { frames[$0].frame.action == .lift }
        let landsAgain = lifts.filter { $0 + 1 < frames.count && frames[$0 + 1].frame.action == .land && frames[$0 + 1].time == frames[$0].time }
        #expect(!landsAgain.isEmpty, "no release landed the fingers again: \(frames.map { "\($0.frame.action)" })")
        // Never a lift within the tap timeout of its landing with less motion than starts a
        // scroll (a two-finger tap), and every frame inside the margins.
        Self.expectNoTap(frames)
        for entry in frames {
            for y in [entry.frame.first.y, entry.frame.second.y] {
                #expect(y >= VirtualPad.marginMillimetres && y <= VirtualPad.sideMillimetres - VirtualPad.marginMillimetres,
                        "at \(y) mm: outside the margins")
            }
        }
        // Each glide goes down the pad, as the fingers did.
        for (before, after) in zip(frames, frames.dropFirst()) where after.frame.action == .move && before.frame.action != .lift {
            #expect(after.frame.first.y >= before.frame.first.y, "the fingers went up: \(before.frame.first.y) -> \(after.frame.first.y)")
        }
    }

    /// No lift within `restBeforeLift` of its landing unless the fingers moved at least
    /// `handScrollDistance` in between (libinput then scrolls: no tap).
    static func expectNoTap(_ frames: [(time: Instant, frame: TouchFrame)]) {
        var landing: (time: Instant, at: Vector)?
        for entry in frames {
            switch entry.frame.action {
            case .land: landing = (entry.time, entry.frame.first)
            case .lift:
                guard let landing else { continue }
                let down = entry.time - landing.time
                let moved = (entry.frame.first - landing.at).length
                #expect(down >= VirtualFingers.restBeforeLift || moved >= VirtualFingers.handScrollDistance,
                        "fingers lifted \(down.seconds * 1000) ms after landing, \(moved) mm from it")
            case .move: break
            }
        }
    }

    /// A fast flick down, then, 10–120 ms after its release, a quick flick up: the fingers
    /// landed for the first glide near the top and moved far down; the second glide needs the
    /// room above them. They lift and land again at once (they moved well past a tap), and the
    /// second glide runs its course, not cut at the margin.
    @Test(arguments: [10, 60, 120] as [Int64])
    func aQuickFlickBackSoonAfterALandingGlidesItsCourse(gap: Int64) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.engine.output = .touchpad
        var frames: [(time: Instant, frame: TouchFrame)] = []
        pad.engine.onTouchFrame = { frames.append(($1, $0)) }
        pad.down(Vector(x: 40, y: 5), Vector(x: 60, y: 5))
        pad.move(by: Vector(x: 0, y: 80), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(gap))
        pad.down(Vector(x: 40, y: 80), Vector(x: 60, y: 80))
        pad.move(by: Vector(x: 0, y: -50), over: .milliseconds(60))
        pad.lift()
        let second = pad.now
        pad.wait(.seconds(10))
        try #require(pad.coasts.count == 2, "\(pad.transcript)")
        #expect(pad.coastEndReasons == [.touch, .finished], "the second glide was not cut at the margin: \(pad.coastEndReasons)")
        let after = frames.filter { $0.time >= second }
        let landing = try #require(after.firstIndex { $0.frame.action == .land }, "landed again: \(after.map(\.frame.action))")
        let moves = after[landing...].filter { $0.frame.action == .move }
        let travel = (moves.last?.frame.first.y ?? 0) - after[landing].frame.first.y
        #expect(travel < -200, "the second glide moved the fingers \(travel) mm up")
        Self.expectNoTap(frames)
    }
}
