import Testing
@testable import FlickCore
import FlickFingerStories

/// Why a coast that runs out ends, as `--verbose` logs it: `finished` when its output has
/// written everything it was going to, `max-duration` only when `coast.max_duration` cuts it
/// there with output still to write.
@Suite struct CoastEndReasonTests {
    /// Two fingers on the 100 × 70 mm test touchpad move `millimetres` down over 100 ms, a frame
    /// later they lift; the engine writes `output`. Returns the script, the release time and
    /// the coast's end (time, reason, emitted) once it has run out.
    static func flick(millimetres: Double, output: OutputMode, configuration: Configuration = .defaults) throws
        -> (script: FingerScript, release: Instant, plan: CoastPlan, end: Instant, reason: StopReason,
            emitted: (vertical: Int64, horizontal: Int64))
    {
        let script = FingerScript(description: TouchpadOutputTests.touchpad, configuration: configuration)
        script.engine.output = output
        script.down(Vector(x: 40, y: 10), Vector(x: 60, y: 10))
        script.move(by: Vector(x: 0, y: millimetres), over: .milliseconds(100))
        script.advance(to: script.now + script.frameInterval)
        script.lift()
        let release = script.now
        script.wait(.seconds(10))
        let plan = try #require(script.coasts.first)
        let ends = script.reports.compactMap { report -> (Instant, StopReason, (Int64, Int64))? in
            if case .coastEnded(let time, let reason, let emitted) = report { return (time, reason, emitted) }
            return nil
        }
        let end = try #require(ends.first)
        #expect(ends.count == 1)
        return (script, release, plan, end.0, end.1, (end.2.0, end.2.1))
    }

    /// 400 mm/s at the default 90 units/mm is 36000 units/s: the model would come within half a
    /// unit of its rest only after 5.24 s, but with the 60-unit lead the output has written
    /// round(X) = 17982 units by 2.84 s. That is the coast finishing, not max_duration (5 s)
    /// cutting it: the old rule logged `max-duration` 2.2 s before max_duration.
    @Test("a wheel coast whose output has written everything by 2.8 s ends as finished, not max-duration")
    func wheelCoastThatWritesEverythingFinishes() throws {
        let coast = try Self.flick(millimetres: 40, output: .wheel)
        #expect(coast.plan.velocity.y > 300, "release \(coast.plan.velocity), above the 248 mm/s whose model rests after 5 s")
        let destination = -coast.plan.velocity.y * Configuration.defaults.scroll.speed
            / Deceleration(ratePerMillisecond: 0.998).decayPerSecond
        #expect(coast.reason == .finished, "ended \(coast.reason) at \(coast.end - coast.release) after the release")
        #expect(coast.plan.totalHiRes.vertical == Int64(destination.rounded()), "the whole destination \(destination)")
        #expect(coast.emitted.vertical == coast.plan.totalHiRes.vertical && coast.script.verticalTotal == coast.emitted.vertical)
        #expect((coast.end - coast.release).seconds < 3, "done at \(coast.end - coast.release)")
        // It ends when its plan said, with its last event.
        #expect(abs((coast.end - coast.release - coast.plan.duration).seconds) <= 1.0 / 120)
        #expect(coast.script.lastOutputTime == coast.end)
    }

    /// A max_duration of 300 ms cuts the same flick while its output moves at over 20000
    /// units/s: `max-duration`, at max_duration, with the rest of the destination unwritten.
    @Test("a wheel coast cut by a short max_duration ends as max-duration at max_duration, output unwritten")
    func wheelCoastCutByMaxDuration() throws {
        var configuration = Configuration.defaults
        configuration.coast.maxDuration = .milliseconds(300)
        let coast = try Self.flick(millimetres: 40, output: .wheel, configuration: configuration)
        #expect(coast.reason == .maxDuration)
        let destination = -coast.plan.velocity.y * configuration.scroll.speed
            / Deceleration(ratePerMillisecond: 0.998).decayPerSecond
        #expect(Double(-coast.emitted.vertical) < -destination - 1000, "cut: \(coast.emitted.vertical) of \(destination)")
        // The model starts one tick period (1/120 s) before the release; the cut is 300 ms later,
        // within the output's last unit (a few microseconds at this speed).
        let cut = coast.release - Duration.seconds(1.0 / 120) + .milliseconds(300)
        #expect(abs((coast.end - cut).seconds) <= 1.0 / 120, "ended \(coast.end), max_duration at \(cut)")
    }

    /// The virtual fingers end as `finished` when the model is within 0.05 mm of rest before
    /// max_duration, `max-duration` when it is cut there still moving.
    @Test("the touchpad output: finished when it comes to rest, max-duration only when cut there")
    func touchpadReasons() throws {
        let settled = try Self.flick(millimetres: 40, output: .touchpad)
        #expect(settled.reason == .finished)
        var configuration = Configuration.defaults
        configuration.coast.maxDuration = .milliseconds(300)
        let cut = try Self.flick(millimetres: 40, output: .touchpad, configuration: configuration)
        #expect(cut.reason == .maxDuration)
        // The glide's model starts a frame period less the lead (8 − 16 ms) after the release.
        let end = cut.release + VirtualFingers.framePeriod - VirtualFingers.lead + .milliseconds(300)
        #expect(cut.end >= end && cut.end - end <= VirtualFingers.framePeriod, "ended \(cut.end), cut at \(end)")
    }

    /// The daemon switches the output on a reload (`Daemon.replaceOutput`) while a glide runs:
    /// the touchpad output's coast is bookkeeping that is never ticked, so its own last tick
    /// is the release. The end is reported when the switch came.
    @Test("a touchpad glide switched to the wheel 500 ms after its release ends then, as reconfigured")
    func outputSwitchedMidGlideEndsThen() throws {
        for told in [true, false] {
            let script = FingerScript(description: TouchpadOutputTests.touchpad)
            script.engine.output = .touchpad
            script.down(Vector(x: 40, y: 10), Vector(x: 60, y: 10))
            script.move(by: Vector(x: 0, y: 40), over: .milliseconds(100))
            script.advance(to: script.now + script.frameInterval)
            script.lift()
            let release = script.now
            script.wait(.milliseconds(500))
            #expect(script.engine.isCoasting, "still gliding 500 ms on")
            if told {
                script.engine.setOutput(.wheel, at: script.now)
            } else {
                // Set without a time: at the last tick (the script ticks every deadline up to now).
                script.engine.output = .wheel
            }
            #expect(!script.engine.isCoasting)
            let ends = script.reports.compactMap { report -> (Instant, StopReason)? in
                if case .coastEnded(let time, let reason, _) = report { return (time, reason) }
                return nil
            }
            let end = try #require(ends.first)
            #expect(ends.count == 1 && end.1 == .reconfigured, "\(ends)")
            let after = end.0 - release
            if told {
                #expect(end.0 == script.now, "ended \(after) after the release, switched 500 ms after it")
            } else {
                #expect(after > .milliseconds(480) && end.0 <= script.now, "ended \(after) after the release")
            }
        }
    }
}
