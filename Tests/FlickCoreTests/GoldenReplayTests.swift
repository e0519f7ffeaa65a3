import FlickCore
import FlickTools
import FlickFingerStories
import FlickTestSupport
import Foundation
import Testing

/// Golden replays (Tests/Golden/README.md): each recording is replayed through the engine and
/// the wheel stream it produces must equal, line for line, the one written beside it.
///
/// `FLICKD_GOLDEN=update swift test --filter GoldenReplays` rewrites the expected streams from
/// the current engine (and synthesizes any recording of `stories` that is missing), so that a
/// change of behaviour shows as a diff of plain text files in review; that run fails for each
/// stream it changed, showing the difference, and for each it wrote with no earlier one to
/// compare, and passes only where nothing changed. The
/// synthesized stories are also checked against what their summaries say (`Outcome`).
@Suite struct GoldenReplays {
    static let directory = Fixtures.repositoryDirectory + "/Tests/Golden"
    static let sharedExpectations = directory + "/shared"
    static let updating = ProcessInfo.processInfo.environment["FLICKD_GOLDEN"] == "update"

    /// The configuration every golden replay runs with: the defaults, touchscreens read.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        return configuration
    }

    // MARK: - The recordings the project synthesizes

    /// A finger story on a device fixture, recorded as `NAME.events`.
    struct Story: CustomTestStringConvertible, Sendable {
        var name: String
        var device: String
        var summary: String
        /// What the summary says, checked on the replay itself (not taken from the expected
        /// stream, which the engine wrote): coasts, their end, the wheels' signs. Scrolling
        /// down is a negative REL_WHEEL, right a positive REL_HWHEEL.
        var outcome: Outcome
        var play: @Sendable (FingerScript) -> Void
        var testDescription: String { name }
    }

    struct Outcome: Sendable {
        var coasts: Int
        var end: StopReason?
        /// The sign of each axis's hi-res total: -1, 0 or 1.
        var vertical: Int
        var horizontal: Int
    }

    static let stories: [Story] = [
        Story(name: "two-finger-flick-down", device: "synaptics-t440",
              summary: "two fingers move 20 mm down in 100 ms and lift together: a coast downward",
              outcome: Outcome(coasts: 1, end: .finished, vertical: -1, horizontal: 0)) { pad in
            pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.wait(pad.frameInterval)
            pad.lift()
        },
        Story(name: "slow-release", device: "synaptics-t440",
              summary: "two fingers move 6 mm in 300 ms (20 mm/s) and lift: too slow to coast",
              outcome: Outcome(coasts: 0, end: nil, vertical: 0, horizontal: 0)) { pad in
            pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
            pad.move(by: Vector(x: 0, y: 6), over: .milliseconds(300))
            pad.lift()
        },
        Story(name: "stop-by-touch", device: "synaptics-rmi4",
              summary: "a flick up, then 200 ms into the coast one finger touches: the coast stops",
              outcome: Outcome(coasts: 1, end: .touch, vertical: 1, horizontal: 0)) { pad in
            pad.down(Vector(x: 20, y: 20), Vector(x: 40, y: 20))
            pad.move(by: Vector(x: 0, y: -20), over: .milliseconds(100))
            pad.lift()
            pad.wait(.milliseconds(200))
            pad.down(Vector(x: 30, y: 20))
            pad.wait(.milliseconds(300))
            pad.lift()
        },
        Story(name: "protocol-a-flick", device: "protocol-a-touch-screen",
              summary: "a one-finger drag up on a protocol A touchscreen: the view coasts down",
              outcome: Outcome(coasts: 1, end: .finished, vertical: -1, horizontal: 0)) { screen in
            screen.down(Vector(x: 100, y: 120))
            screen.move(by: Vector(x: 0, y: -40), over: .milliseconds(120))
            screen.lift()
        },
        Story(name: "horizontal-flick", device: "synaptics-rmi4",
              summary: "two fingers move 25 mm right in 100 ms: a coast on the horizontal wheel only",
              outcome: Outcome(coasts: 1, end: .finished, vertical: 0, horizontal: 1)) { pad in
            pad.down(Vector(x: 20, y: 20), Vector(x: 20, y: 35))
            pad.move(by: Vector(x: 25, y: 0), over: .milliseconds(100))
            pad.lift()
        },
    ]

    @Test(arguments: stories)
    func synthesized(story: Story) throws {
        let recordingPath = Self.directory + "/" + story.name + ".events"
        if Self.updating && !FileManager.default.fileExists(atPath: recordingPath) {
            let pad = try FingerScript(device: story.device)
            story.play(pad)
            let text = EvemuWriter.text(description: pad.description, events: pad.sent,
                                        comment: ["Synthesized by GoldenReplays (Tests/FlickCoreTests/GoldenReplayTests.swift)",
                                                  "from the device fixture \(story.device): \(story.summary)."])
            try text.write(toFile: recordingPath, atomically: true, encoding: .utf8)
        }
        try Self.check(recording: recordingPath, expected: Self.directory + "/" + story.name + ".wheel")
        let replay = Replay(try Fixtures.recording(atPath: recordingPath), configuration: Self.configuration)
        // The committed recording is what the story makes: played now, the story replays as the
        // file does, so a story changed without its recording (or the other way round) fails
        // here. (Delete NAME.events and run with FLICKD_GOLDEN=update to write it again.)
        let pad = try FingerScript(device: story.device)
        story.play(pad)
        let played = try Recording.load(text: EvemuWriter.text(description: pad.description, events: pad.sent))
        #expect(Self.lines(of: Replay(played, configuration: Self.configuration)) == Self.lines(of: replay),
                "\(story.name): the story no longer makes \(story.name).events")
        let outcome = story.outcome
        #expect(replay.coasts.count == outcome.coasts, "\(replay.noCoasts.map(\.reason))")
        #expect(replay.coastEnds.last?.reason == outcome.end)
        let totals = Dictionary(uniqueKeysWithValues: replay.totals.map { ($0.code, $0.total) })
        let vertical = totals[EventCode.relWheelHiRes] ?? 0
        let horizontal = totals[EventCode.relHorizontalWheelHiRes] ?? 0
        #expect(vertical.signum() == Int64(outcome.vertical), "vertical hi-res total \(vertical)")
        #expect(horizontal.signum() == Int64(outcome.horizontal), "horizontal hi-res total \(horizontal)")
        // The legacy wheels carry the same scroll in whole detents of 120 hi-res units.
        #expect(abs((totals[EventCode.relWheel] ?? 0) - vertical / 120) <= 1, "REL_WHEEL \(totals[EventCode.relWheel] ?? 0)")
        #expect(abs((totals[EventCode.relHorizontalWheel] ?? 0) - horizontal / 120) <= 1,
                "REL_HWHEEL \(totals[EventCode.relHorizontalWheel] ?? 0)")
    }

    // MARK: - The shared recordings

    static var sharedRecordings: [String] {
        Fixtures.recordingPaths().map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
    }

    /// The shared recordings that have an expected stream here. The samples beside a clone may
    /// hold others (they are samples, not the list): those are replayed by `RecordingReplays`,
    /// which checks what holds for any recording. An expected stream whose recording is not
    /// there is an error (`everySharedExpectedStreamHasItsRecording`).
    static var sharedRecordingsWithExpectations: [String] {
        sharedRecordings.filter { FileManager.default.fileExists(atPath: sharedExpectations + "/" + $0 + ".wheel") }
    }

    @Test(.needsSharedRecordings, arguments: sharedRecordingsWithExpectations)
    func shared(recording name: String) throws {
        try Self.check(recording: Fixtures.recordingsDirectory + "/" + name + ".events",
                       expected: Self.sharedExpectations + "/" + name + ".wheel")
    }

    /// With the shared samples present, each expected stream in Tests/Golden/shared has its
    /// recording among them, and at least one is checked: a recording renamed or missing from
    /// the samples would otherwise leave `shared(recording:)` without its case, silently.
    /// Without the samples (a fresh clone) this is skipped, saying where they were looked for.
    @Test(.needsSharedRecordings)
    func everySharedExpectedStreamHasItsRecording() throws {
        let streams = try FileManager.default.contentsOfDirectory(atPath: Self.sharedExpectations)
            .filter { $0.hasSuffix(".wheel") }.map { String($0.dropLast(".wheel".count)) }.sorted()
        let recordings = Set(Self.sharedRecordings)
        let missing = streams.filter { !recordings.contains($0) }
        #expect(missing.isEmpty, """
            expected streams in \(Self.sharedExpectations) without their recording in \(Fixtures.recordingsDirectory): \
            \(missing.map { $0 + ".wheel needs " + $0 + ".events" }.joined(separator: ", "))
            """)
        #expect(!Self.sharedRecordingsWithExpectations.isEmpty,
                "none of the \(recordings.count) shared recordings has an expected stream in \(Self.sharedExpectations): shared(recording:) checked nothing")
    }

    /// Every shared recording decides no coast under the golden configuration (its fingers are
    /// too many for a touchscreen's one-finger drag). Read with the finger count it was made
    /// with, a touchscreen recording coasts, and the view moves the way its fingers did: content
    /// follows a touchscreen's fingers, so fingers moving up (y falling) scroll the view down,
    /// a negative REL_WHEEL_HI_RES.
    /// (EP0430M09.4-finger-drag-down does not coast even with `touchscreen.fingers = 4`: not used here.)
    @Test(.needsSharedRecordings, arguments: [("EP0430M09.2-finger-scroll-down", 2)])
    func sharedTouchscreenRecordingCoastsWithItsFingerCount(name: String, fingers: Int) throws {
        let path = Fixtures.recordingsDirectory + "/" + name + ".events"
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is not among the shared recordings")
        let recording = try Fixtures.recording(atPath: path)
        var configuration = Self.configuration
        configuration.touchscreen.fingers = fingers
        let replay = Replay(recording, configuration: configuration)
        // The fingers' motion, read from the recording: where the contacts are first and last.
        let ys = recording.events.filter { $0.event.type == EventCode.absolute && $0.event.code == EventCode.absMTPositionY }
            .map(\.event.value)
        let first = try #require(ys.first), last = try #require(ys.last)
        #expect(abs(last - first) > 50, "\(name): the fingers moved from y = \(first) to \(last)")
        #expect(replay.coasts.count >= 1, "\(name) with \(fingers) fingers: \(replay.noCoasts.map(\.reason))")
        let totals = Dictionary(uniqueKeysWithValues: replay.totals.map { ($0.code, $0.total) })
        let vertical = totals[EventCode.relWheelHiRes] ?? 0
        #expect(vertical != 0 && vertical.signum() == Int64((last - first).signum()),
                "\(name): fingers from y = \(first) to \(last), REL_WHEEL_HI_RES total \(vertical)")
    }

    // MARK: - Checking

    /// A replay as the lines of a `.wheel` file, in time order: each wheel event (seconds since
    /// the first event, six decimals; the code's name; the value) and, between them, what the
    /// engine decided (`coast`, `no-coast REASON`, `coast-end REASON`; reasons without their
    /// measured values, so the files name decisions, not floating-point digits).
    static func lines(of replay: Replay) -> [String] {
        func time(_ seconds: Double) -> String {
            let microseconds = Int64((seconds * 1_000_000).rounded())
            let fraction = String(abs(microseconds) % 1_000_000)
            return (microseconds < 0 ? "-" : "") + "\(abs(microseconds) / 1_000_000)."
                + String(repeating: "0", count: 6 - fraction.count) + fraction
        }
        func reason(_ value: Any) -> String {
            String(String(describing: value).prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
        }
        // (time, order among lines of the same time, text): a coast starts before its first
        // event, a gesture's outcome follows the events of its time.
        var rows: [(Double, Int, String)] = []
        rows += replay.coasts.map { ($0.time, 0, "coast") }
        rows += replay.emitted.map { ($0.time, 1, "\(EventNames.codeName(type: EventCode.relative, code: $0.code)) \($0.value)") }
        rows += replay.coastEnds.map { ($0.time, 2, "coast-end \(reason($0.reason))") }
        rows += replay.noCoasts.map { ($0.time, 3, "no-coast \(reason($0.reason))") }
        return rows.enumerated()
            .sorted { ($0.element.0, $0.element.1, $0.offset) < ($1.element.0, $1.element.1, $1.offset) }
            .map { "\(time($0.element.0)) \($0.element.2)" }
    }

    static func check(recording path: String, expected expectedPath: String) throws {
        let recordingName = URL(fileURLWithPath: path).lastPathComponent
        let replay = Replay(try Fixtures.recording(atPath: path), configuration: configuration)
        let actual = lines(of: replay)
        if updating {
            // Rewritten, and still compared: a run that changed a stream says which. A stream
            // with no earlier file is written unchecked, so that run says so too; an earlier
            // file that cannot be read is an error, not a stream to overwrite.
            let before: [String]?
            if FileManager.default.fileExists(atPath: expectedPath) {
                before = expectedLines(of: try Fixtures.text(atPath: expectedPath))
            } else {
                before = nil
                Issue.record("written (FLICKD_GOLDEN=update): \(expectedPath) for \(recordingName) had no earlier stream to compare with; review it and run again")
            }
            if let before, before != actual {
                Issue.record(Comment(rawValue: "rewritten (FLICKD_GOLDEN=update): " +
                                     sideBySide(expected: before, actual: actual, title: "\(recordingName) → \(expectedPath)")))
            }
            let header = ["# What flickd makes of \(recordingName) (Tests/Golden/README.md): seconds since",
                          "# the recording's first event, then a wheel event (code, value) or a decision."]
            let body = actual.isEmpty ? ["# (nothing: no gesture)"] : actual
            try ((header + body).joined(separator: "\n") + "\n").write(toFile: expectedPath, atomically: true, encoding: .utf8)
            return
        }
        guard FileManager.default.fileExists(atPath: expectedPath) else {
            Issue.record("no expected stream \(expectedPath) for \(recordingName): write it with FLICKD_GOLDEN=update")
            return
        }
        let expected = expectedLines(of: try Fixtures.text(atPath: expectedPath))
        if expected != actual {
            Issue.record(Comment(rawValue: sideBySide(expected: expected, actual: actual, title: "\(recordingName) → \(expectedPath)")))
        }
    }

    /// The lines of a `.wheel` file, comments and blank lines left out.
    static func expectedLines(of text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Expected and actual next to each other, differing rows marked, around the first difference.
    static func sideBySide(expected: [String], actual: [String], title: String) -> String {
        let rows = max(expected.count, actual.count)
        let first = (0..<rows).first { row in
            (row < expected.count ? expected[row] : nil) != (row < actual.count ? actual[row] : nil)
        } ?? 0
        let width = max(28, expected.map(\.count).max() ?? 0)
        func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        var out = ["golden replay differs: \(title)",
                   "\(expected.count) expected, \(actual.count) actual lines; first difference at line \(first + 1)",
                   "     " + pad("expected") + " | actual"]
        let shown = max(0, first - 3)..<min(rows, first + 20)
        for row in shown {
            let e = row < expected.count ? expected[row] : "(none)"
            let a = row < actual.count ? actual[row] : "(none)"
            let mark = e == a ? "  " : "<<"
            let number = String(row + 1)
            out.append(String(repeating: " ", count: max(0, 4 - number.count)) + number + " " + pad(e) + " | " + a + " " + mark)
        }
        if shown.upperBound < rows { out.append("     ... \(rows - shown.upperBound) more rows") }
        return out.joined(separator: "\n")
    }

    @Test func aDifferenceIsShownSideBySideWithTimes() {
        let text = Self.sideBySide(expected: ["0.100000 REL_WHEEL_HI_RES -60", "0.108000 REL_WHEEL_HI_RES -58"],
                                   actual: ["0.100000 REL_WHEEL_HI_RES -60", "0.108000 REL_WHEEL_HI_RES -57"], title: "x")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1] == "2 expected, 2 actual lines; first difference at line 2")
        #expect(lines.contains { $0.hasPrefix("   2 0.108000 REL_WHEEL_HI_RES -58") && $0.hasSuffix("| 0.108000 REL_WHEEL_HI_RES -57 <<") },
                "\(text)")
        #expect(lines.contains { $0.hasPrefix("   1 0.100000") && $0.hasSuffix("-60   ") }, "\(text)")
    }
}
