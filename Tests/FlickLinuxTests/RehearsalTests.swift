import FlickCore
import Testing
@testable import FlickLinux

/// The coast played at start-up into /dev/null (`Rehearsal`): it coasts under the daemon's
/// configuration, writes through the output's own encoder, and leaves nothing running.
@Suite("Rehearsal")
struct RehearsalTests {
    @Test("on the touchpad output it coasts, writes the fingers' frames and ends with them lifted")
    func touchpad() throws {
        let outcome = try Rehearsal.run(configuration: .defaults, output: .touchpad)
        #expect(outcome.coasted)
        // A landing, the coast's frames over 300 ms, the settle frames and the lift (44 today).
        #expect(outcome.frames > 20, "\(outcome)")
        #expect(outcome.finished, "no coast, no finger down, no deadline left: \(outcome)")
    }

    @Test("its reports are a gesture, a coast and a touch that stops it", arguments: OutputMode.allCases)
    func reports(output: OutputMode) throws {
        var reports: [String] = []
        _ = try Rehearsal.run(configuration: .defaults, output: output) { report in
            switch report {
            case .gestureBegan: reports.append("gesture")
            case .coastStarted: reports.append("coast")
            case .coastEnded(_, let reason, _): reports.append("ended: \(reason.rawValue)")
            case .noCoast: reports.append("no coast")
            case .bug(_, let message): reports.append("bug: \(message)")
            }
        }
        #expect(reports == ["gesture", "coast", "ended: touch"])
    }

    @Test("on the wheel output it coasts and writes wheel frames")
    func wheel() throws {
        let outcome = try Rehearsal.run(configuration: .defaults, output: .wheel)
        #expect(outcome.coasted)
        #expect(outcome.frames > 10, "\(outcome)")
        #expect(outcome.finished, "\(outcome)")
    }

    @Test("a configuration that coasts no touchpad flick rehearses no coast, and writes nothing")
    func touchpadDisabled() throws {
        var configuration = Configuration.defaults
        configuration.touchpad.enabled = false
        let outcome = try Rehearsal.run(configuration: configuration, output: .touchpad)
        #expect(outcome == Rehearsal.Outcome(coasted: false, frames: 0, finished: true))
    }

    @Test("the flick is faster than a raised coast.min_speed, up to what fits on the pad",
          arguments: [0.0, 50, 400, 2000])
    func minimumSpeed(minSpeed: Double) throws {
        var configuration = Configuration.defaults
        configuration.coast.minSpeed = minSpeed
        configuration.coast.maxSpeed = 100_000
        let outcome = try Rehearsal.run(configuration: configuration, output: .touchpad)
        #expect(outcome.coasted, "min_speed \(minSpeed): \(outcome)")
        #expect(outcome.finished)
    }

    @Test("the engine's clock is its own: any start gives the same rehearsal")
    func start() throws {
        let early = try Rehearsal.run(configuration: .defaults, output: .touchpad, start: Instant(seconds: 1, microseconds: 0))
        let late = try Rehearsal.run(configuration: .defaults, output: .touchpad, start: Instant(seconds: 86_400 * 30, microseconds: 123))
        #expect(early == late)
    }
}
