import FlickCore
import Testing
@testable import FlickLinux

/// The coast played at start-up into /dev/null (`Rehearsal`): it coasts under the daemon's
/// configuration, writes through the output's own encoder, and leaves nothing running.
@Suite("Rehearsal")
struct RehearsalTests {
    @Test("on the touchpad output it coasts, writes the fingers' frames and ends with them lifted")
    func touchpad() throws {
        let outcomes = try Rehearsal.run(configuration: .defaults, output: .touchpad)
        #expect(outcomes.map(\.kind) == [.touchpad], "touchscreens do not coast by default")
        let outcome = try #require(outcomes.first)
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
        let outcome = try #require(Rehearsal.run(configuration: .defaults, output: .wheel).first)
        #expect(outcome.coasted)
        #expect(outcome.frames > 10, "\(outcome)")
        #expect(outcome.finished, "\(outcome)")
    }

    @Test("a configuration that coasts neither touchpad nor touchscreen flicks rehearses nothing")
    func nothingCoasts() throws {
        var configuration = Configuration.defaults
        configuration.touchpad.enabled = false
        #expect(try Rehearsal.run(configuration: configuration, output: .touchpad) == [])
    }

    @Test("with touchscreens on, a touchscreen drag of their fingers is rehearsed too",
          arguments: [(true, 1), (false, 1), (false, 2), (true, 4)])
    func touchscreen(touchpad: Bool, fingers: Int) throws {
        var configuration = Configuration.defaults
        configuration.touchpad.enabled = touchpad
        configuration.touchscreen.enabled = true
        configuration.touchscreen.fingers = fingers
        for output in OutputMode.allCases {
            let outcomes = try Rehearsal.run(configuration: configuration, output: output)
            #expect(outcomes.map(\.kind) == (touchpad ? [.touchpad, .touchscreen] : [.touchscreen]))
            for outcome in outcomes {
                #expect(outcome.coasted && outcome.finished && outcome.frames > 10, "\(output), \(fingers) fingers: \(outcome)")
            }
        }
    }

    @Test("a touchpad scroll of more fingers is rehearsed with that many", arguments: [3, 4])
    func touchpadFingers(fingers: Int) throws {
        var configuration = Configuration.defaults
        configuration.touchpad.fingers = fingers
        let outcome = try #require(Rehearsal.run(configuration: configuration, output: .touchpad).first)
        #expect(outcome.coasted, "\(fingers) fingers: \(outcome)")
        #expect(outcome.finished)
    }

    /// The flick is played at 1.5 × min_speed (150 mm/s at least) up to `maximumSpeed`, 3200
    /// mm/s: it coasts up to a min_speed of 3200, and one of 2500 is played at 3200.
    @Test("the flick is faster than a raised coast.min_speed, up to what fits on the pad",
          arguments: [0.0, 50, 400, 2000, 2500, 3100])
    func minimumSpeed(minSpeed: Double) throws {
        var configuration = Configuration.defaults
        configuration.coast.minSpeed = minSpeed
        configuration.coast.maxSpeed = 100_000
        let outcome = try #require(Rehearsal.run(configuration: configuration, output: .touchpad).first)
        #expect(outcome.coasted, "min_speed \(minSpeed): \(outcome)")
        #expect(outcome.finished)
    }

    @Test("a coast.min_speed above the fastest flick played rehearses no coast, and ends idle")
    func minimumSpeedAboveTheFastestFlick() throws {
        var configuration = Configuration.defaults
        configuration.coast.minSpeed = 3300
        configuration.coast.maxSpeed = 100_000
        let outcome = try #require(Rehearsal.run(configuration: configuration, output: .touchpad).first)
        #expect(!outcome.coasted && outcome.finished, "\(outcome)")
    }

    /// `[[device]]` sections are for the user's devices. One whose name is part of the
    /// rehearsal's ("touchpad" is of "flickd rehearsal touchpad", ignoring case) left its
    /// devices alone (enabled = false), or waited for another number of fingers, or measured
    /// them with another resolution: no coast was rehearsed, and the first real one ran cold.
    @Test("the [[device]] sections do not apply to the rehearsal's devices",
          arguments: ["enabled = false", "touchpad.fingers = 3", "touchscreen.fingers = 2", "resolution = 10000"])
    func deviceSections(setting: String) throws {
        var configuration = Configuration.defaults
        configuration.touchscreen.enabled = true
        var section = configuration
        var enabled = true
        var resolution: Double?
        switch setting {
        case "enabled = false": enabled = false
        case "touchpad.fingers = 3": section.touchpad.fingers = 3
        case "touchscreen.fingers = 2": section.touchscreen.fingers = 2
        default: resolution = 10_000  // 100 times the units a millimetre: a flick 100 times as slow
        }
        configuration.devices = ["TouchPad", "touchscreen", "REHEARSAL"].map { name in
            DeviceRule(name: name, enabled: enabled, resolution: resolution, configuration: section)
        }
        for output in OutputMode.allCases {
            let outcomes = try Rehearsal.run(configuration: configuration, output: output)
            #expect(outcomes.map(\.kind) == [.touchpad, .touchscreen])
            for outcome in outcomes {
                #expect(outcome.coasted && outcome.finished, "\(setting), \(output): \(outcome)")
            }
        }
    }

    /// Touchscreens off at the top level and on for one screen by its section (with two
    /// fingers): that screen's first coast would run cold without a touchscreen rehearsal.
    @Test("a kind enabled only by a [[device]] section is rehearsed with that section's fingers")
    func kindEnabledBySectionOnly() throws {
        var configuration = Configuration.defaults
        var section = configuration
        section.touchscreen.enabled = true
        section.touchscreen.fingers = 2
        configuration.devices = [
            DeviceRule(name: "Wacom", enabled: false, configuration: section),
            DeviceRule(name: "ELAN Touchscreen", configuration: section),
        ]
        #expect(Rehearsal.flicks(under: configuration) == [
            Rehearsal.Flick(kind: .touchpad, fingers: 2), Rehearsal.Flick(kind: .touchscreen, fingers: 2),
        ])
        for output in OutputMode.allCases {
            let outcomes = try Rehearsal.run(configuration: configuration, output: output)
            #expect(outcomes.map(\.kind) == [.touchpad, .touchscreen], "\(output)")
            for outcome in outcomes { #expect(outcome.coasted && outcome.finished, "\(output): \(outcome)") }
        }
        // The disabled section enables nothing.
        configuration.devices.removeLast()
        #expect(Rehearsal.flicks(under: configuration).map(\.kind) == [.touchpad])
    }

    @Test("the engine's clock is its own: any start gives the same rehearsal")
    func start() throws {
        let early = try Rehearsal.run(configuration: .defaults, output: .touchpad, start: Instant(seconds: 1, microseconds: 0))
        let late = try Rehearsal.run(configuration: .defaults, output: .touchpad, start: Instant(seconds: 86_400 * 30, microseconds: 123))
        #expect(early == late)
    }
}
