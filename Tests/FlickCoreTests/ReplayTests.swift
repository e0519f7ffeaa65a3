import Foundation
import Testing
@testable import FlickCore
@testable import FlickTools
import FlickTestSupport
import FlickFingerStories

/// Replays of the real recordings in ../shared/recordings.
// The trait is on each test, not on the suite: a suite skipped whole is reported once, without
// its tests, so scripts/test's count of skipped tests would miss them.
@Suite struct RecordingReplays {
    static func load(_ path: String) throws -> Recording {
        let text = try Fixtures.text(atPath: path)
        let description = try Fixtures.descriptionPath(forRecording: path).map { try Fixtures.text(atPath: $0) }
        return try Recording.load(text: text, description: description)
    }

    static func replay(_ path: String, touchscreens: Bool = true, touchscreenFingers: Int? = nil) throws -> Replay {
        var config = Configuration()
        config.touchscreen.enabled = touchscreens
        if let touchscreenFingers { config.touchscreen.fingers = touchscreenFingers }
        return Replay(try load(path), configuration: config)
    }

    static var all: [String] { Fixtures.recordingPaths() }

    @Test(.needsSharedRecordings, arguments: all, [nil, 2])
    func everyRecordingReplays(path: String, touchscreenFingers: Int?) throws {
        let replay = try Self.replay(path, touchscreenFingers: touchscreenFingers)
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard case .used = replay.admission else {
            Issue.record("\(name): device not read: \(replay.admission)")
            return
        }
        #expect(replay.gestures > 0, "\(name): no gesture seen")
        // Whatever was emitted is consistent with the coasts: no output without a coast, every
        // value finite and within one event, legacy detents one per 120 hi-res units.
        if replay.coasts.isEmpty { #expect(replay.emitted.isEmpty, "\(name): output without a coast") }
        let totals = Dictionary(uniqueKeysWithValues: replay.totals.map { ($0.code, $0.total) })
        #expect(totals[EventCode.relWheel]! == totals[EventCode.relWheelHiRes]! / 120 || replay.coasts.count > 1,
                "\(name): legacy detents \(totals[EventCode.relWheel]!) for \(totals[EventCode.relWheelHiRes]!) hi-res")
    }

    @Test("the recordings' coasts (touchscreens read, with one finger and with two) each end within coast.max_duration; some coast", .needsSharedRecordings)
    func coastsEndWithinTheMaxDuration() throws {
        var coasts: [(name: String, duration: Duration)] = []
        for path in Self.all {
            for fingers in [nil, 2] {
                let name = URL(fileURLWithPath: path).lastPathComponent
                coasts += try Self.replay(path, touchscreenFingers: fingers).coasts.map { (name, $0.plan.duration) }
            }
        }
        try #require(!coasts.isEmpty, "no recording in \(Fixtures.recordingsDirectory) coasts: nothing to check")
        for coast in coasts {
            #expect(coast.duration <= Configuration.defaults.coast.maxDuration, "\(coast.name): a coast of \(coast.duration)")
        }
    }

    @Test("taps do not coast", .needsSharedRecordings)
    func tapsDoNotCoast() throws {
        let taps = Self.all.filter { URL(fileURLWithPath: $0).lastPathComponent.contains("tap") }
        try #require(!taps.isEmpty, "no recording of taps in \(Fixtures.recordingsDirectory): nothing to check")
        for path in taps {
            let replay = try Self.replay(path)
            #expect(replay.gestures > 0, "\(path)")
            #expect(replay.coasts.isEmpty, "\(path): \(replay.coasts.map(\.plan.releaseVelocity))")
            #expect(replay.emitted.isEmpty, "\(path)")
        }
    }

    @Test(.needsSharedRecordings) func twoFingerVerticalScrollOnSynapticsIsReadAsScrolls() throws {
        let path = try #require(Self.all.first { $0.contains("SynPS2_Synaptics_TouchPad.two-finger-vert-scroll") })
        let replay = try Self.replay(path)
        // Whatever coasts the user's releases produce, they are vertical: the recording is of
        // vertical two-finger scrolling.
        #expect(replay.totals.first { $0.code == EventCode.relHorizontalWheelHiRes }?.total == 0)
        let scrolls = replay.coasts.count + replay.noCoasts.filter {
            switch $0.reason {
            case .tooSlow, .fingersStopped, .fingerStayed: return true
            default: return false
            }
        }.count
        #expect(scrolls > 0, "no two-finger scroll recognised: \(replay.noCoasts.map(\.reason))")
    }

    @Test(.needsSharedRecordings) func touchscreenScrollDownCoastsNaturally() throws {
        let path = try #require(Self.all.first { $0.contains("EP0430M09.2-finger-scroll-down") })
        var config = Configuration()
        config.touchscreen.enabled = true
        config.touchscreen.fingers = 2
        let replay = Replay(try Self.load(path), configuration: config)
        #expect(replay.gestures > 0)
        // "Scroll down" on a touchscreen: the fingers push the content up (the recording's y
        // falls from 547 to 216), so the view scrolls down: REL_WHEEL < 0.
        let vertical = replay.totals.first { $0.code == EventCode.relWheelHiRes }!.total
        #expect(replay.coasts.count == 1, "\(replay.noCoasts.map(\.reason))")
        #expect(vertical < 0, "the view scrolls down; total \(vertical)")
        #expect(replay.totals.first { $0.code == EventCode.relHorizontalWheelHiRes }!.total == 0)
    }

    @Test(.needsSharedRecordings) func replayIsDeterministic() throws {
        // Every recording, touchscreens scrolled with two fingers so that one of them coasts:
        // with the defaults none of the samples coasts, and empty outputs compare equal.
        var coasted = 0
        for path in Self.all {
            let a = try Self.replay(path, touchscreenFingers: 2)
            let b = try Self.replay(path, touchscreenFingers: 2)
            #expect(a.emitted == b.emitted, "\(path)")
            #expect(a.coasts.map(\.plan.releaseVelocity) == b.coasts.map(\.plan.releaseVelocity), "\(path)")
            if !a.emitted.isEmpty { coasted += 1 }
        }
        #expect(coasted > 0, "no recording coasted: the comparison compared no output")
    }

    /// A recording stopped between two lines is a shorter recording: it loads with exactly the
    /// events before the cut and replays with no more gestures than the whole. (A cut inside a
    /// line is an error on that line: `EvemuRecordingTests.recordingsCutMidLineNameTheCutLine`;
    /// one inside the recording's own description is cut short:
    /// `EvemuRecordingTests.sharedDescriptionsCutAtALineEndAmongTheirAxesAreCutShort`.)
    @Test(.needsSharedRecordings) func recordingsCutAtALineEndReplayTheEventsBeforeTheCut() throws {
        var checked = 0
        for path in Self.all {
            let text = try Fixtures.text(atPath: path)
            let description = try Fixtures.descriptionPath(forRecording: path).map { try Fixtures.text(atPath: $0) }
            let whole = try Self.load(path)
            let wholeReplay = Replay(whole, configuration: .defaults)
            let bytes = Array(text.utf8)
            for fraction in [0.1, 0.37, 0.5, 0.81, 0.99] {
                // Just after the newline that ends the line the fraction falls in.
                guard let newline = bytes[Int(Double(bytes.count) * fraction)...].firstIndex(of: UInt8(ascii: "\n")) else { continue }
                let cut = String(decoding: bytes[...newline], as: UTF8.self)
                let lines = cut.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                let eventLines = lines.filter { $0.hasPrefix("E:") }.count
                let name = "\(URL(fileURLWithPath: path).lastPathComponent) cut after byte \(newline) (line \(lines.count))"
                if lines.allSatisfy({ $0.isEmpty || $0.hasPrefix("#") }) {
                    // Only the header comments: no recording at all, and said so.
                    #expect(throws: RecordingError(line: 0, message: "the file holds only comments (neither evemu lines nor libinput record YAML)"),
                            "\(name)") { try Recording.load(text: cut, description: description) }
                    continue
                }
                // Cut inside its own description (before its last A: line): refused as cut
                // short, since evemu writes B: lines, and an A: line for every axis B: 03 lists.
                let axisLines = lines.filter { $0.hasPrefix("A:") }.count
                let describes = lines.contains { line in ["N:", "I:", "P:", "B:", "A:"].contains { line.hasPrefix($0) } }
                if axisLines < whole.description.absoluteAxes.count, describes {
                    #expect("\(name)") {
                        try Recording.load(text: cut, description: description)
                    } throws: { error in
                        (error as? RecordingError)?.message.hasSuffix("cut short?") == true
                    }
                    checked += 1
                    continue
                }
                let recording = try Recording.load(text: cut, description: description)
                #expect(recording.events == Array(whole.events.prefix(eventLines)), "\(name): \(recording.events.count) events, \(eventLines) E: lines")
                let replay = Replay(recording, configuration: .defaults)
                #expect(replay.gestures <= wholeReplay.gestures, "\(name)")
                // Every gesture is accounted for: one cut mid-gesture as the recording's end.
                #expect(replay.gestures == replay.coasts.count + replay.noCoasts.count + (replay.unfinished == nil ? 0 : 1),
                        "\(name): \(replay.gestures) gestures, \(replay.coasts.count) coasts, \(replay.noCoasts.map(\.reason))")
                if replay.coasts.isEmpty { #expect(replay.emitted.isEmpty, "\(name): output without a coast") }
                checked += 1
            }
        }
        #expect(checked >= 40)
    }
}

/// How a replay accounts for a recording's gestures: each one coasts, ends without a coast, or
/// is under way when the recording ends.
@Suite struct ReplayGestureAccounting {
    /// Two fingers land at 1 s and scroll 20 mm down over 100 ms; the recording stops there.
    @Test(.needsSharedRecordings) func aRecordingEndingWithFingersDownSaysSo() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 40, y: 30), Vector(x: 60, y: 30))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        let replay = Replay(Recording(description: pad.description, events: pad.sent), configuration: .defaults)
        #expect(replay.gestures == 1 && replay.coasts.isEmpty && replay.noCoasts.isEmpty, "\(replay.noCoasts.map(\.reason))")
        let unfinished = try #require(replay.unfinished)
        #expect(unfinished.fingers == 2)
        #expect(unfinished.reason == "the recording ends with 2 fingers down")
        #expect(abs(unfinished.time - (pad.sent.last!.time - pad.sent.first!.time).seconds) < 1e-9)
        #expect(replay.emitted.isEmpty)

        // One finger lifted, the other still down past the lift window: still under way.
        pad.lift(0)
        pad.wait(.milliseconds(500))
        pad.stationaryFrame()
        let lifting = Replay(Recording(description: pad.description, events: pad.sent), configuration: .defaults)
        #expect(lifting.unfinished?.fingers == 1 && lifting.gestures == 1, "\(String(describing: lifting.unfinished))")

        // Lifted: the gesture ended, and nothing is under way.
        pad.lift()
        let lifted = Replay(Recording(description: pad.description, events: pad.sent), configuration: .defaults)
        #expect(lifted.unfinished == nil)
        #expect(lifted.gestures == lifted.coasts.count + lifted.noCoasts.count)
    }
}

/// A recording whose clock steps back (evemu stamps events with the wall clock, which an NTP
/// step moves) replays as the daemon, reading monotonic stamps, would have seen it.
@Suite struct ReplayClockSteps {
    /// Two fingers land at 1 s and scroll 20 mm down over 104 ms, 8 ms a frame, and lift.
    static func flick() throws -> FingerScript {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(104))
        pad.lift()
        return pad
    }

    /// The flick's frames from 1.080 s on (the last three moves and the lift) stamped 10 s
    /// earlier, as after an NTP step: the replay says where the clock stepped back, and joins
    /// the parts a frame interval apart, so the flick coasts as recorded with a steady clock:
    /// the same wheel events, and the coast ends `finished`, not cut at its first tick as a
    /// stall with times gone negative.
    @Test func aClockSteppingBackIsJoinedAndSaidWhere() throws {
        let pad = try Self.flick()
        // Stamped by a wall clock at 1000 s (evemu writes no time before 0).
        let sent = pad.sent.map { TimedEvent(time: $0.time + .seconds(1000), event: $0.event) }
        let stepAt = Instant(microseconds: 1_001_080_000)
        let stepped = sent.map { timed in
            timed.time >= stepAt ? TimedEvent(time: timed.time - .seconds(10), event: timed.event) : timed
        }
        let steady = Replay(try Recording.load(text: EvemuWriter.text(description: pad.description, events: sent)), configuration: .defaults)
        let replay = Replay(try Recording.load(text: EvemuWriter.text(description: pad.description, events: stepped)), configuration: .defaults)
        try #require(steady.coasts.count == 1 && steady.clockStep == nil, "\(steady.noCoasts.map(\.reason))")

        let step = try #require(replay.clockStep)
        let first = try #require(sent.firstIndex { $0.time >= stepAt })
        #expect(step.event == first + 1 && step.count == 1, "\(step)")
        #expect(abs(step.seconds - 10) < 1e-9 && abs(step.bridgeSeconds - 0.008) < 1e-9, "\(step)")
        #expect(replay.coasts.map(\.end?.reason) == [.finished], "\(replay.coasts.map(\.end))")
        #expect(replay.emitted == steady.emitted,
                "expected \(steady.emitted.map { "\($0.time) \($0.code) \($0.value)" })\nreplayed \(replay.emitted.map { "\($0.time) \($0.code) \($0.value)" })")
        #expect(replay.emitted.allSatisfy { $0.time >= 0 }, "\(replay.emitted)")
    }

    /// Each coast's end is kept with it: a flick's coast caught by a finger 150 ms after the
    /// release (at 0.254 s) ends `touch`, having written less than its destination.
    @Test func aCoastKeepsWhyItEnded() throws {
        let pad = try Self.flick()
        pad.wait(.milliseconds(150))
        pad.down(Vector(x: 30, y: 30))
        pad.lift()
        let replay = Replay(Recording(description: pad.description, events: pad.sent), configuration: .defaults)
        let coast = try #require(replay.coasts.first)
        let end = try #require(coast.end)
        #expect(end.reason == .touch && abs(end.time - 0.254) < 1e-9, "\(end)")
        let total = try #require(replay.totals.first { $0.code == EventCode.relWheelHiRes }).total
        #expect(end.verticalHiRes == total && end.horizontalHiRes == 0, "\(end), total \(total)")
        #expect(Double(abs(total)) < abs(coast.plan.destinationHiRes.vertical) - 120, "\(total) of \(coast.plan.destinationHiRes)")
    }
}

/// What of a device's size a replay says was estimated: the axis without a resolution.
@Suite struct ReplayEstimatedSize {
    /// The Elantech pad reports resolution 0 on both axes; given 12 units/mm on one, the other
    /// is the one estimated.
    @Test func theAxisWithoutResolutionIsNamed() throws {
        let pad = try Fixtures.device("elantech-touchpad")
        func geometry(x: Int32, y: Int32) -> DeviceGeometry {
            var description = pad
            for (codes, resolution) in [([EventCode.absX, EventCode.absMTPositionX], x), ([EventCode.absY, EventCode.absMTPositionY], y)] {
                for code in codes { description.absoluteAxes[code]?.resolution = resolution }
            }
            return DeviceGeometry(description: description, kind: .touchpad)
        }
        #expect(Replay.estimatedPart(of: geometry(x: 12, y: 12)) == nil)
        #expect(Replay.estimatedPart(of: geometry(x: 0, y: 12)) == "width")
        #expect(Replay.estimatedPart(of: geometry(x: 12, y: 0)) == "height")
        #expect(Replay.estimatedPart(of: geometry(x: 0, y: 0)) == "size")
    }
}
