import Testing
@testable import FlickCore
import FlickFingerStories

/// The legacy wheel (REL_WHEEL), one detent per 120 hi-res units, for readers that see nothing
/// else (wlroots 0.15, sway 1.7): what one coast leaves under a detent counts towards the next
/// one in the same direction, and a reversal starts afresh.
@Suite struct LegacyDetentCarryTests {
    /// At 2 hi-res units per mm a 100 mm/s release coasts about 100 units (X = v0/k = 200/2.002).
    static var configuration: Configuration {
        var configuration = Configuration.defaults
        configuration.scroll.speed = 2
        return configuration
    }

    /// Two fingers on the test touchpad move 10 mm (down when `down`, else up) over 100 ms, lift
    /// a frame later, and the coast runs out (2 s).
    static func flick(_ script: FingerScript, down: Bool) {
        let y = down ? 20.0 : 40.0
        script.down(Vector(x: 40, y: y), Vector(x: 60, y: y))
        script.move(by: Vector(x: 0, y: down ? 10 : -10), over: .milliseconds(100))
        script.advance(to: script.now + script.frameInterval)
        script.lift()
        script.wait(.seconds(2))
    }

    /// The hi-res units each coast wrote.
    static func totals(_ script: FingerScript) -> [Int64] {
        script.reports.compactMap { if case .coastEnded(_, _, let emitted) = $0 { return emitted.vertical } else { return nil } }
    }

    @Test("two flicks of about 100 units each, the same way: one legacy detent in all (none before)")
    func smallFlicksAddUp() {
        let script = FingerScript(description: TouchpadOutputTests.touchpad, configuration: Self.configuration)
        Self.flick(script, down: true)
        let first = Self.totals(script)
        #expect(first.count == 1 && (60..<120).contains(-(first.first ?? 0)), "first coast \(first)")
        #expect(script.verticalDetents == 0, "under a detent: no legacy event yet")
        Self.flick(script, down: true)
        let both = Self.totals(script)
        #expect(both.count == 2 && both.allSatisfy { (60..<120).contains(-$0) } && -both.reduce(0, +) >= 120, "\(both)")
        #expect(script.verticalDetents == -1, "\(script.verticalTotal) hi-res units down: one detent down\n\(script.transcript)")
        #expect(script.verticalDetents == script.verticalTotal / 120)
    }

    @Test("a flick the other way starts afresh: down, up, down, down gives one detent down")
    func aReversalStartsAfresh() {
        let script = FingerScript(description: TouchpadOutputTests.touchpad, configuration: Self.configuration)
        Self.flick(script, down: true)
        Self.flick(script, down: false)
        #expect(script.verticalDetents == 0, "the ~100 units up do not undo the ones down, nor make a detent")
        Self.flick(script, down: true)
        #expect(script.verticalDetents == 0, "the remainder up was dropped: this one starts from zero")
        Self.flick(script, down: true)
        #expect(script.verticalDetents == -1, "\(Self.totals(script))")
        #expect(script.coastEndReasons.count == 4)
    }

    @Test("units a coast did not write (its release step dropped for a modifier) are not carried: the next flick starts from zero")
    func unwrittenUnitsAreNotCarried() throws {
        let script = FingerScript(description: TouchpadOutputTests.touchpad, configuration: Self.configuration)
        script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        script.move(by: Vector(x: 0, y: 10), over: .milliseconds(100))
        script.advance(to: script.now + script.frameInterval)
        script.lift()
        // The daemon's handling of Ctrl held at the release: the first step is not written, and
        // the coast stops.
        let dropped = try #require(script.output.last)
        #expect(dropped.time == script.now && dropped.wheel.verticalHiRes < 0, "the release's step")
        script.engine.notWritten(dropped.wheel)
        script.engine.stop(at: script.now, reason: .key)
        script.wait(.seconds(2))
        Self.flick(script, down: true)
        let written = script.verticalTotal - Int64(dropped.wheel.verticalHiRes)
        #expect((60..<120).contains(-written), "the second flick's units alone reached the apps: \(written)")
        #expect(script.verticalDetents - Int64(dropped.wheel.verticalDetents) == 0,
                "no detent for \(written) units written (the dropped \(dropped.wheel.verticalHiRes) carried one)")
    }

    @Test("a coast's last step reported not written (the write at the tick that ran it out failed): nothing is carried, the next flick starts from zero")
    func anUnwrittenLastStepIsNotCarried() throws {
        let script = FingerScript(description: TouchpadOutputTests.touchpad, configuration: Self.configuration)
        Self.flick(script, down: true)
        #expect(script.coastEndReasons == [.finished])
        // The daemon's failed write of the output of the tick that ended the coast: the engine
        // has reported the coast's end by the time it hears of it.
        let last = try #require(script.output.last)
        #expect(last.wheel.verticalHiRes < 0 && last.wheel.verticalDetents == 0, "the coast's last step, under a detent: \(last.wheel)")
        script.engine.notWritten(last.wheel)
        Self.flick(script, down: true)
        let written = script.verticalTotal - Int64(last.wheel.verticalHiRes)
        #expect(-written >= 120, "about 100 units each, the same way: a detent if carried (\(written))")
        #expect(script.verticalDetents == 0,
                "the first coast's remainder, its last \(last.wheel.verticalHiRes) units not written, is not carried\n\(script.transcript)")
        #expect(script.coastEndReasons == [.finished, .finished])
    }
}
