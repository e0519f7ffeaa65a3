import FlickCore
import FlickFingerStories
import FlickTestSupport
import Foundation
import Testing

/// `flickd replay` as a user runs it: what it prints of the device, of a recording with no
/// events, of files given the wrong way round, and what it says of a `--desc` it does not use.
@Suite struct ReplayCommandTests {
    static func run(_ arguments: [String]) throws -> FlickdBinary.Result { try FlickdBinary.run(arguments) }

    /// A file in the temporary directory, removed by `remove`.
    static func temporaryFile(_ name: String, _ contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "flickd-replay-test-\(getpid())-\(name)"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func remove(_ paths: String...) {
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The summary object of `--json` output: its last line.
    static func summary(_ stdout: String) throws -> [String: Any] {
        let last = try #require(stdout.split(separator: "\n").last)
        return try #require((JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])?["summary"] as? [String: Any])
    }

    /// The pad and the touchscreen of `libinput record --all`, named `pad` and `screen` (YAML
    /// double-quoted: escapes such as `\n` and `\e` are read).
    static func padAndScreen(pad: String = "SynPS/2 Synaptics TouchPad", screen: String = "ELAN Touchscreen") -> String {
        LibinputRecordSamples.withDevices(after: [LibinputRecordSamples.touchscreen], count: 2)
            .replacingOccurrences(of: "name: \"SynPS/2 Synaptics TouchPad\"", with: "name: \"\(pad)\"")
            .replacingOccurrences(of: "name: \"ELAN Touchscreen\"", with: "name: \"\(screen)\"")
    }

    /// A device name is printed as it is, unless it holds a control character (or is empty):
    /// then it is quoted and escaped as the `--json` output writes it, so that a newline in it
    /// cannot start a line of its own and an escape sequence never reaches the terminal.
    @Test func replayTextEscapesDeviceNames() throws {
        let path = try Self.temporaryFile("names.yml", Self.padAndScreen(pad: #"Pad\n# gestures: 99\e[2J"#, screen: #"Screen\e]0;title\a"#))
        defer { Self.remove(path) }
        let result = try Self.run(["replay", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix(#"# "Pad\n# gestures: 99\u001B[2J": touchpad, "#) == true, "\(result.stdout)")
        #expect(lines.dropFirst().first == #"# also in the recording, not replayed: "Screen\u001B]0;title\u0007" (/dev/input/event9)"#, "\(result.stdout)")
        #expect(!lines.contains("# gestures: 99"), "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result.stdout.debugDescription)")

        // An empty name is shown as "", and a plain one as it is.
        let empty = try Self.temporaryFile("empty-name.yml", Self.padAndScreen(pad: ""))
        defer { Self.remove(empty) }
        let emptyResult = try Self.run(["replay", empty])
        #expect(emptyResult.stdout.hasPrefix("# \"\": touchpad, "), "\(emptyResult.stdout)")
        #expect(emptyResult.stdout.contains("\n# also in the recording, not replayed: ELAN Touchscreen (/dev/input/event9)\n"), "\(emptyResult.stdout)")

        // An error message quoting the recording's text escapes its control characters too.
        let bad = try Self.temporaryFile("bad-line.events", "N: Pad\nhello\u{1B}[2J\n")
        defer { Self.remove(bad) }
        let badResult = try Self.run(["replay", bad])
        #expect(badResult.status == 1)
        #expect(badResult.stderr == "flickd: \(bad):2: expected an evemu line (\"E: ...\", \"A: ...\", ...), found \"hello\\u001B[2J\"\n", "\(badResult.stderr.debugDescription)")
    }

    /// The `--json` summary says how the device was read, as the text's first line does: used
    /// (with its size, and whether that was estimated or a recorded quirk's), or only for
    /// stopping coasts, or ignored, with why; how many events the recording holds; and the
    /// touch devices not replayed. The keys it had stay as they were.
    @Test func replayJSONSaysHowTheDeviceWasRead() throws {
        let path = try Self.temporaryFile("admission.yml", LibinputRecordSamples.withDevices(
            before: [LibinputRecordSamples.keyboard], after: [LibinputRecordSamples.touchscreen], count: 3))
        let screens = try Self.temporaryFile("screens.toml", "[touchscreen]\nenabled = true\n")
        defer { Self.remove(path, screens) }
        func summary(_ arguments: [String]) throws -> [String: Any] {
            let result = try Self.run(["replay", path, "--json"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try Self.summary(result.stdout)
        }

        let pad = try summary([])
        for key in ["device", "gestures", "coasts", "no_coast", "totals"] { #expect(pad[key] != nil, "\(key): \(pad)") }
        let used = try #require(pad["admission"] as? [String: Any], "\(pad)")
        #expect(used["state"] as? String == "used" && used["kind"] as? String == "touchpad" && used["why"] is NSNull, "\(used)")
        let size = try #require(used["size_mm"] as? [String: Any], "\(used)")
        #expect((size["x"] as? Double ?? 0) > 10 && (size["y"] as? Double ?? 0) > 10, "\(size)")
        #expect(size["estimated"] as? Bool == false && size["quirk"] is NSNull, "\(size)")
        #expect((pad["events"] as? Int ?? 0) > 0, "\(pad)")
        let others = try #require(pad["also_in_recording"] as? [[String: String]], "\(pad)")
        #expect(others == [["name": "ELAN Touchscreen", "node": "/dev/input/event9"]])

        // The touchscreen, off by default: read only to stop coasts.
        let stopOnly = try #require(try summary(["--device", "/dev/input/event9"])["admission"] as? [String: Any])
        #expect(stopOnly["state"] as? String == "stop_only" && stopOnly["kind"] as? String == "touchscreen", "\(stopOnly)")
        #expect(stopOnly["why"] as? String == "touchscreen.enabled is false" && stopOnly["size_mm"] is NSNull, "\(stopOnly)")

        // On: a screen without resolution is measured as a 13.3-inch panel, and says so.
        let screen = try #require(try summary(["--device", "/dev/input/event9", "--config", screens])["admission"] as? [String: Any])
        let screenSize = try #require(screen["size_mm"] as? [String: Any], "\(screen)")
        #expect(screenSize["x"] as? Double == 294 && screenSize["y"] as? Double == 165 && screenSize["estimated"] as? Bool == true, "\(screenSize)")

        // The keyboard: ignored, with why.
        let keyboard = try summary(["--device", "/dev/input/event3"])
        let ignored = try #require(keyboard["admission"] as? [String: Any])
        #expect(ignored["state"] as? String == "ignored" && ignored["kind"] is NSNull && (ignored["why"] as? String)?.isEmpty == false, "\(ignored)")
        let keyboardOthers = try #require(keyboard["also_in_recording"] as? [[String: String]])
        #expect(keyboardOthers.map { $0["node"] } == ["/dev/input/event5", "/dev/input/event9"], "\(keyboardOthers)")
    }

    /// A description with no events (a `.desc` given as FILE) replays to nothing, and says so:
    /// a line of the text, `"events": 0` in the JSON. Exit status 0: the file is well formed.
    @Test func aRecordingWithoutEventsSaysSo() throws {
        let description = try Self.temporaryFile("pad.desc", EvemuWriter.text(description: try Fixtures.device("elantech-touchpad"), events: []))
        defer { Self.remove(description) }
        let text = try Self.run(["replay", description])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.dropFirst().first == "# the recording holds no events (a device description alone): nothing to replay", "\(text.stdout)")
        let json = try Self.run(["replay", description, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try Self.summary(json.stdout)["events"] as? Int == 0, "\(json.stdout)")
    }

    /// The output's times count from the recording's first event, of whichever device: with a
    /// keyboard's key press at 0 s and the touchpad's scroll from 5 s (`libinput record --all`),
    /// the wheel events are 5 s later than those of the scroll recorded alone. The earliest
    /// event counts, not the first listed: a pad whose scroll starts before the keyboard's press,
    /// even before the recording's start (a negative time), replays as it does alone.
    @Test func replayTimesCountFromTheRecordingsFirstEventOfAnyDevice() throws {
        let keyboardAt = { (time: String) in
            LibinputRecordSamples.keyboard.replacingOccurrences(of: "- [  0,   5000,", with: "- [\(time),")
        }
        /// The two-finger scroll `seconds` later, after a keyboard pressing a key at `keyTime`.
        func recording(padSeconds seconds: String, keyTime: String) -> String {
            LibinputRecordSamples.withDevices(before: [keyboardAt(keyTime)], count: 2)
                .replacingOccurrences(of: "- [  0, ", with: "- [\(seconds), ")
        }
        /// Each line's first time (an event's, or a coast's "# 0.095 s:") and the rest of it.
        func timedLines(_ stdout: String) -> [(time: Double, rest: String)] {
            stdout.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
                if let time = Double(fields[0]) { return (time, fields[1]) }
                guard line.hasPrefix("# "), let time = Double(fields[1].prefix { $0 != " " }), fields[1].contains(" s: ") else { return nil }
                return (time, String(fields[1].drop { $0 != " " }))
            }
        }
        let alone = try Self.temporaryFile("clock-alone.yml", LibinputRecordSamples.twoFingerScroll)
        let padLater = try Self.temporaryFile("clock-later.yml", recording(padSeconds: "5", keyTime: "0, 0"))
        let padFirst = try Self.temporaryFile("clock-first.yml", recording(padSeconds: "0", keyTime: "3, 0"))
        let padBefore = try Self.temporaryFile("clock-before.yml", recording(padSeconds: "-1", keyTime: "0, 0"))
        defer { Self.remove(alone, padLater, padFirst, padBefore) }
        let expected = timedLines(try Self.run(["replay", alone]).stdout)
        #expect(expected.count >= 3 && expected.contains { $0.rest.hasPrefix(" s: coast, ") }, "\(expected)")
        for (path, shift) in [(padLater, 5.0), (padFirst, 0.0), (padBefore, 0.0)] {
            let result = try Self.run(["replay", path])
            #expect(result.status == 0, "\(result.stderr)")
            let actual = timedLines(result.stdout)
            #expect(actual.map(\.rest) == expected.map(\.rest), "\(path): \(result.stdout)")
            #expect(zip(actual, expected).allSatisfy { abs($0.time - ($1.time + shift)) < 0.0015 },
                    "\(path): expected \(expected.map { $0.time + shift }), printed \(actual.map(\.time))")
            let json = try Self.summary(try Self.run(["replay", path, "--json"]).stdout)
            let coast = try #require((json["coasts"] as? [[String: Any]])?.first?["time"] as? Double)
            #expect(abs(coast - (try #require(expected.first { $0.rest.hasPrefix(" s: coast, ") }).time + shift)) < 0.0015, "\(json)")
        }
    }

    /// A `.desc` cut at a line end among its A: lines (`head -c 750` of the Synaptics one keeps
    /// A: 00 and 01) is refused, exit 1, naming the file and the first axis lost, instead of
    /// replaying, exit 0, a pad without slots, pressure or finger count.
    @Test(.needsSharedRecordings) func aDescriptionCutShortIsRefused() throws {
        let events = Fixtures.recordingsDirectory + "/SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events"
        let whole = try Fixtures.text(atPath: Fixtures.recordingsDirectory + "/SynPS2_Synaptics_TouchPad.desc")
        let cut = try Self.temporaryFile("cut.desc", String(decoding: Array(whole.utf8).prefix(750), as: UTF8.self))
        defer { Self.remove(cut) }
        let result = try Self.run(["replay", events, "--desc", cut])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "flickd: \(cut):18: B: 03 lists ABS_PRESSURE (0x18) but there is no A: line for it (evemu writes one for every axis B: 03 lists): cut short?\n",
                "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        let full = try Self.run(["replay", events, "--desc", Fixtures.recordingsDirectory + "/SynPS2_Synaptics_TouchPad.desc"])
        #expect(full.status == 0 && full.stdout.contains("\n# gestures: 1, "), "\(full)")
    }

    /// FILE and `--desc` given the wrong way round: the message gives the rule and the likely cause.
    @Test func aRecordingGivenAsTheDescriptionIsNamedAsSuch() throws {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10))
        pad.lift()
        let recording = try Self.temporaryFile("swap.events", EvemuWriter.text(description: pad.description, events: pad.sent))
        let description = try Self.temporaryFile("swap.desc", EvemuWriter.text(description: pad.description, events: []))
        defer { Self.remove(recording, description) }
        let result = try Self.run(["replay", description, "--desc", recording])
        #expect(result.status == 1)
        let firstEvent = try #require(EvemuWriter.text(description: pad.description, events: pad.sent)
            .split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("E:") })
        #expect(result.stderr == "flickd: \(recording):\(firstEvent + 1): --desc FILE must be a description only, without E: lines (this one has \(pad.sent.count), the first on this line); were FILE and --desc swapped?\n",
                "\(result.stderr)")
    }

    /// An empty FILE (or one of blank lines and comments) is named as such, not as evemu
    /// events without a description, nor as an evemu recording that `--device` cannot choose in;
    /// one cut in its comment is named as cut, with `--device` too.
    @Test(arguments: [("empty", "", ": the file is empty (neither evemu lines nor libinput record YAML)"),
                      ("blank", "\n\n", ": the file is empty (neither evemu lines nor libinput record YAML)"),
                      ("comments", "# EVEMU 1.3\n", ": the file holds only comments (neither evemu lines nor libinput record YAML)"),
                      ("cut-comment", "# EVEMU 1.3", ":1: the file ends in the middle of this line (truncated?)")])
    func anEmptyFileIsNamedAsSuch(name: String, contents: String, expected: String) throws {
        // A file of its own per case: the cases run at the same time.
        let path = try Self.temporaryFile("\(name).events", contents)
        defer { Self.remove(path) }
        for device in [[], ["--device", "/dev/input/event5"]] {
            let result = try Self.run(["replay", path] + device)
            #expect(result.status == 1, "\(device)")
            #expect(result.stderr == "flickd: \(path)\(expected)\n", "\(device): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// A `.desc` cut after its first lines (N:, I:, P:), before any B: line, is refused as cut
    /// short at its last line, not replayed as a device that reports no touch positions.
    @Test func aDescriptionCutBeforeItsBitmasksIsRefused() throws {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        let whole = EvemuWriter.text(description: pad.description, events: [])
        let bare = try Self.temporaryFile("cut-bits.events", EvemuWriter.text(description: pad.description, events: pad.sent)
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !"NIPBA".contains($0.first ?? " ") || $0.dropFirst().first != ":" }
            .joined(separator: "\n"))
        let lines = whole.split(separator: "\n").prefix { !$0.hasPrefix("B:") }
        #expect(lines.last?.hasPrefix("P:") == true, "\(lines)")
        let cut = try Self.temporaryFile("cut-bits.desc", lines.joined(separator: "\n") + "\n")
        let full = try Self.temporaryFile("full-bits.desc", whole)
        defer { Self.remove(bare, cut, full) }
        let result = try Self.run(["replay", bare, "--desc", cut])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == "flickd: \(cut):\(lines.count): the description ends before its B: lines (evemu writes a B: line for every event type): cut short?\n",
                "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        let replayed = try Self.run(["replay", bare, "--desc", full])
        #expect(replayed.status == 0 && replayed.stdout.contains("\n# gestures: 1, coasts: 1\n"), "\(replayed)")
    }

    /// A recording that ends with fingers down (stopped mid-gesture) counts that gesture, and
    /// says why it did not coast, in the text and among the JSON's `no_coast`.
    @Test func aGestureUnderWayWhenTheRecordingEndsIsReported() throws {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        let path = try Self.temporaryFile("under-way.events", EvemuWriter.text(description: pad.description, events: pad.sent))
        defer { Self.remove(path) }
        let end = (try #require(pad.sent.last).time - (try #require(pad.sent.first)).time).seconds

        let text = try Self.run(["replay", path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("# gestures: 1, coasts: 0"), "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("# ") && $0.hasSuffix(" s: no coast: the recording ends with 2 fingers down") }, "\(text.stdout)")

        let json = try Self.run(["replay", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let summary = try Self.summary(json.stdout)
        let none = try #require(summary["no_coast"] as? [[String: Any]], "\(summary)")
        #expect(summary["gestures"] as? Int == 1 && none.count == 1, "\(summary)")
        #expect(none.first?["reason"] as? String == "the recording ends with 2 fingers down", "\(none)")
        // At the recording's last event, in seconds since its first.
        #expect(abs((none.first?["time"] as? Double ?? -1) - end) < 1e-6, "\(none), \(end)")
    }

    /// `--desc` is read only for an evemu recording without a description of its own; where
    /// it is not used, a line on standard error says so and the replay is the same.
    @Test func aDescriptionThatIsNotUsedIsWarnedOf() throws {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10))
        pad.lift()
        let embedded = try Self.temporaryFile("own.events", EvemuWriter.text(description: pad.description, events: pad.sent))
        let description = try Self.temporaryFile("own.desc", EvemuWriter.text(description: pad.description, events: []))
        let bare = try Self.temporaryFile("bare.events", EvemuWriter.text(description: pad.description, events: pad.sent)
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !"NIPBA".contains($0.first ?? " ") || $0.dropFirst().first != ":" }
            .joined(separator: "\n"))
        let yaml = try Self.temporaryFile("own.yml", LibinputRecordSamples.twoFingerScroll)
        defer { Self.remove(embedded, description, bare, yaml) }

        let libinput = try Self.run(["replay", yaml, "--desc", description])
        #expect(libinput.status == 0, "\(libinput.stderr)")
        #expect(libinput.stderr == "flickd: warning: --desc \(description) is not read: \(yaml) is a libinput record file, which describes its devices itself\n")
        #expect(libinput.stdout == (try Self.run(["replay", yaml])).stdout)
        // Not read, so a --desc that is not there changes nothing but the warning's name.
        let missing = "/nonexistent/flickd-test.desc"
        let unread = try Self.run(["replay", yaml, "--desc", missing])
        #expect(unread.status == 0, "\(unread)")
        #expect(unread.stderr == "flickd: warning: --desc \(missing) is not read: \(yaml) is a libinput record file, which describes its devices itself\n")
        #expect(unread.stdout == libinput.stdout)

        let own = try Self.run(["replay", embedded, "--desc", description])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stderr == "flickd: warning: --desc \(description) is not used: \(embedded) has a description of its own (N:, I:, A: lines), which wins\n")
        #expect(own.stdout == (try Self.run(["replay", embedded])).stdout)

        let used = try Self.run(["replay", bare, "--desc", description])
        #expect(used.status == 0 && used.stderr.isEmpty, "\(used.stderr)")
        #expect(used.stdout == own.stdout)
    }

    /// The help measures both kinds of device without resolution, and says when `--desc` is not read.
    @Test func theHelpSaysHowEachKindIsMeasuredAndWhenDescIsIgnored() throws {
        let help = try Self.run(["help", "replay"]).stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        #expect(help.contains("a touchpad as 69 x 50 mm, a touchscreen as a 13.3-inch panel (294 x 165 mm, or 165 x 294 mm upright where its y range is the longer)"), "\(help)")
        // The ends a replay can give: no key, stall nor other device's coast comes in one.
        #expect(help.contains("touch, button, resynchronized (the recording's SYN_DROPPED: the kernel lost events), max-duration;"), "\(help)")
        #expect(help.contains("a warning on standard error"), "\(help)")
    }

    /// `--device` chooses among the devices of a `libinput record` file: given with an evemu
    /// recording, which holds one, it is a command line that cannot be run (64 and the usage),
    /// not a fault at the recording's first line, nor hidden by a --config that cannot be read.
    @Test func deviceWithAnEvemuRecordingIsAUsageError() throws {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10))
        pad.lift()
        let recording = try Self.temporaryFile("device.events", EvemuWriter.text(description: pad.description, events: pad.sent))
        defer { Self.remove(recording) }
        let result = try Self.run(["replay", recording, "--device", "/dev/input/event5"])
        #expect(result.status == 64, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: --device chooses among the devices of a libinput record file; \(recording) is an evemu recording, which holds one", "\(result)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: flickd replay <FILE>") == true, "\(result)")
        #expect(result.stdout.isEmpty)
        // Judged before the configuration is read: a missing --config does not hide it.
        let missing = try Self.run(["replay", recording, "--device", "/dev/input/event5", "--config", "/nonexistent-flickd-test/config.toml"])
        #expect(missing.status == 64 && missing.stderr == result.stderr, "\(missing)")
    }

    /// Two fingers land at 1 s on the Elantech pad, scroll 20 mm down over 104 ms, 8 ms a
    /// frame, and lift.
    static func flick() throws -> FingerScript {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(104))
        pad.lift()
        return pad
    }

    /// A flick, then a finger 150 ms after the release: the coast stops short of its planned
    /// destination, and the output says why and how much it wrote, in the text after the
    /// coast's line and in the JSON's coast, so that the totals are explained.
    @Test func whyACoastEndedIsPrinted() throws {
        let pad = try Self.flick()
        pad.wait(.milliseconds(150))
        pad.down(Vector(x: 30, y: 30))
        pad.lift()
        try #require(pad.coastEndReasons == [.touch], "\(pad.transcript)")
        let path = try Self.temporaryFile("touched.events", EvemuWriter.text(description: pad.description, events: pad.sent))
        defer { Self.remove(path) }

        let text = try Self.run(["replay", path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let coast = try #require(lines.firstIndex { $0.hasPrefix("# 0.104 s: coast, ") }, "\(text.stdout)")
        let total = try #require(lines.last { $0.hasPrefix("# totals: REL_WHEEL_HI_RES ") }?.split(separator: " ")[3].dropLast(), "\(text.stdout)")
        #expect(lines.dropFirst(coast + 1).first == "# 0.254 s: coast ended: touch, \(total) / 0 hi-res written", "\(text.stdout)")

        let json = try Self.run(["replay", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let coasts = try #require(try Self.summary(json.stdout)["coasts"] as? [[String: Any]])
        let end = try #require(coasts.first?["end"] as? [String: Any], "\(coasts)")
        #expect(end["reason"] as? String == "touch" && abs((end["time"] as? Double ?? 0) - 0.254) < 1e-6, "\(end)")
        let written = try #require(end["written_hi_res"] as? [String: Int], "\(end)")
        #expect(written["vertical"].map(String.init) == String(total) && written["horizontal"] == 0, "\(written)")
    }

    /// An evemu recording whose last frames are stamped 10 s earlier (its wall clock stepped
    /// back): a line says where, and the flick replays as with a steady clock, its coast
    /// finished, no time negative.
    @Test func aClockSteppingBackIsSaid() throws {
        let pad = try Self.flick()
        // Stamped by a wall clock at 1000 s (evemu writes no time before 0).
        let sent = pad.sent.map { timed in
            var event = timed
            event.time = timed.time + .seconds(1000)
            return event
        }
        let stepAt = Instant(microseconds: 1_001_080_000)
        let stepped = sent.map { timed in
            var event = timed
            if timed.time >= stepAt { event.time = timed.time - .seconds(10) }
            return event
        }
        let event = try #require(sent.firstIndex { $0.time >= stepAt }) + 1
        let steady = try Self.temporaryFile("steady.events", EvemuWriter.text(description: pad.description, events: sent))
        let path = try Self.temporaryFile("stepped.events", EvemuWriter.text(description: pad.description, events: stepped))
        defer { Self.remove(steady, path) }

        let text = try Self.run(["replay", path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.dropFirst().first == "# the recording's clock steps back 10.000 s at event \(event): replayed with the events from there on 0.008 s after the one before (the frame interval before the step), as a clock that never goes back would stamp them", "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("# ") && $0.contains(" s: coast ended: finished, ") }, "\(text.stdout)")
        #expect(!lines.contains { $0.hasPrefix("-") || $0.hasPrefix("# -") }, "\(text.stdout)")
        let steadyLines = try Self.run(["replay", steady]).stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.dropFirst(2)) == Array(steadyLines.dropFirst()), "stepped:\n\(text.stdout)\nsteady:\n\(steadyLines.joined(separator: "\n"))")

        let json = try Self.summary(try Self.run(["replay", path, "--json"]).stdout)
        let step = try #require(json["clock_steps_back"] as? [String: Any], "\(json)")
        #expect(step["event"] as? Int == event && step["seconds"] as? Double == 10 && step["count"] as? Int == 1, "\(step)")
        #expect(try Self.summary(try Self.run(["replay", steady, "--json"]).stdout)["clock_steps_back"] is NSNull)
    }

    /// A `libinput record --all` file: the pad's scroll coasts from 0.095 s to 2.495 s, and the
    /// keyboard beside it, not replayed, presses A at 0.3 s: a warning says the daemon would
    /// have stopped the coast there, and the JSON lists it. Left Ctrl held from 0.05 s instead:
    /// the daemon would have started no coast. A press after the coast says nothing.
    @Test func inputOfDevicesNotReplayedThatWouldStopACoastIsNamed() throws {
        /// The keyboard pressing `code` at `time` ("0, 300000": 0.3 s), not released.
        func recording(keyAt time: String, code: String = "30") -> String {
            let keyboard = LibinputRecordSamples.keyboard.replacingOccurrences(of: "- [  0,   5000,", with: "- [\(time),")
                .replacingOccurrences(of: "1,  30,       1]", with: "1,  \(code),       1]")
            return LibinputRecordSamples.withDevices(before: [keyboard], count: 2)
        }
        let during = try Self.temporaryFile("key-during.yml", recording(keyAt: "0, 300000"))
        let held = try Self.temporaryFile("ctrl-held.yml", recording(keyAt: "0, 50000", code: "29"))
        let after = try Self.temporaryFile("key-after.yml", recording(keyAt: "3, 0"))
        defer { Self.remove(during, held, after) }

        let text = try Self.run(["replay", during])
        #expect(text.status == 0 && text.stdout.contains("\n# 0.095 s: coast, "), "\(text)")
        #expect(text.stderr == "flickd: warning: a key press on AT Translated Set 2 keyboard (/dev/input/event3), which is not replayed, at 0.300 s would have stopped the coast of 0.095 s there (stop.key)\n", "\(text.stderr)")
        let json = try Self.run(["replay", during, "--json"])
        let stops = try #require(try Self.summary(json.stdout)["unreplayed_stops"] as? [[String: Any]], "\(json.stdout)")
        #expect(stops.count == 1 && stops.first?["reason"] as? String == "key" && stops.first?["time"] as? Double == 0.3
                && stops.first?["modifier_held"] as? Bool == false, "\(stops)")
        #expect((stops.first?["device"] as? [String: String]) == ["name": "AT Translated Set 2 keyboard", "node": "/dev/input/event3"], "\(stops)")

        let ctrl = try Self.run(["replay", held])
        #expect(ctrl.stderr == "flickd: warning: a modifier key was held on AT Translated Set 2 keyboard (/dev/input/event3), which is not replayed, when the coast of 0.095 s started: the daemon would not have started it (stop.key)\n", "\(ctrl.stderr)")

        let later = try Self.run(["replay", after])
        #expect(later.status == 0 && later.stderr.isEmpty, "\(later)")
        #expect(try Self.summary(try Self.run(["replay", after, "--json"]).stdout)["unreplayed_stops"] as? [Any] != nil)
        // With stop.key off, the daemon would not stop on it either.
        let noKeys = try Self.temporaryFile("no-keys.toml", "[stop]\nkey = false\n")
        defer { Self.remove(noKeys) }
        let off = try Self.run(["replay", during, "--config", noKeys])
        #expect(off.status == 0 && off.stderr.isEmpty, "\(off)")
    }

    /// flickd's own virtual touchpad as `libinput record --all` lists it while flickd runs: its
    /// fingers land at 0.096 s, 1 ms after the pad's release, and glide 12 frames, more than
    /// the pad's 8.
    static let virtualTouchpad: String = {
        var frames = """
              - evdev:
                - [  0,  96000,   3,  57,       1]
                - [  0,  96000,   3,  53,     500]
                - [  0,  96000,   3,  54,     500]
                - [  0,  96000,   1, 330,       1]
                - [  0,  96000,   1, 325,       1]
                - [  0,  96000,   0,   0,       0]

            """
        for frame in 1...11 {
            let time = 96_000 + 8_000 * frame
            frames += """
                  - evdev:
                    - [  0, \(time),   3,  54,     \(500 + 20 * frame)]
                    - [  0, \(time),   0,   0,       0]

                """
        }
        return """
            - node: /dev/input/event20
              evdev:
                name: "flickd virtual touchpad"
                id: [6, 0, 0, 1]
                codes:
                  1: [325, 330, 333] # EV_KEY
                  3: [0, 1, 47, 53, 54, 57] # EV_ABS
                absinfo:
                  0: [0, 2000, 0, 0, 20]
                  1: [0, 1400, 0, 0, 20]
                  47: [0, 1, 0, 0, 0]
                  53: [0, 2000, 0, 0, 20]
                  54: [0, 1400, 0, 0, 20]
                  57: [0, 65535, 0, 0, 0]
                properties: [0]
              udev:
                properties:
                - ID_INPUT=1
                - ID_INPUT_TOUCHPAD=1
              events:

            """ + frames
    }()

    /// A recording taken while flickd runs lists its virtual touchpad, whose fingers land just
    /// after each release the daemon glides: the daemon never reads its own devices, so the
    /// replay neither chooses it (though it is the busier) nor warns that its landing would
    /// have stopped the coast, nor names it among the touch devices left out.
    @Test func flickdsOwnVirtualTouchpadIsNeitherReplayedNorWarnedOf() throws {
        let path = try Self.temporaryFile("virtual.yml", LibinputRecordSamples.withDevices(after: [Self.virtualTouchpad], count: 2))
        let alone = try Self.temporaryFile("virtual-alone.yml", LibinputRecordSamples.twoFingerScroll)
        defer { Self.remove(path, alone) }
        let result = try Self.run(["replay", path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let padOnly = try Self.run(["replay", alone])
        #expect(result.stdout == padOnly.stdout, "with the virtual touchpad:\n\(result.stdout)\npad alone:\n\(padOnly.stdout)")
        #expect(result.stdout.contains("\n# 0.095 s: coast, "), "\(result.stdout)")
        let json = try Self.summary(try Self.run(["replay", path, "--json"]).stdout)
        #expect((json["unreplayed_stops"] as? [Any])?.isEmpty == true && (json["also_in_recording"] as? [Any])?.isEmpty == true, "\(json)")
    }

    /// A touchpad-like device (a finger tool, not direct) that udev tagged a touchscreen where
    /// it was recorded (ID_INPUT_TOUCHSCREEN=1 in the recording's udev properties): the daemon
    /// reads it as one, and so does the replay.
    @Test func aDeviceUdevTaggedATouchscreenIsReplayedAsOne() throws {
        let retagged = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(of: "- ID_INPUT_TOUCHPAD=1", with: "- ID_INPUT_TOUCHSCREEN=1")
        try #require(retagged != LibinputRecordSamples.twoFingerScroll)
        let path = try Self.temporaryFile("retagged.yml", retagged)
        defer { Self.remove(path) }
        let text = try Self.run(["replay", path])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.hasPrefix("# SynPS/2 Synaptics TouchPad: touchscreen, "), "\(text.stdout)")
        let admission = try #require(try Self.summary(try Self.run(["replay", path, "--json"]).stdout)["admission"] as? [String: Any])
        #expect(admission["kind"] as? String == "touchscreen", "\(admission)")
    }

    /// The touchscreen beside the pad, touched at 0.2 s in the pad's coast: the warning follows
    /// the daemon's reading of it. Turned off by a [[device]] section, the daemon ignores it:
    /// no warning. Read for flicks (touchscreen.enabled) with stop.touch = false, its touch still stops the coast,
    /// and the warning names no setting that is not what decides.
    @Test func theOtherTouchDevicesStopFollowsHowTheDaemonReadsIt() throws {
        let path = try Self.temporaryFile("screen-touch.yml", Self.padAndScreen())
        let off = try Self.temporaryFile("screen-off.toml", "[[device]]\nname = \"ELAN Touchscreen\"\nenabled = false\n")
        let noTouch = try Self.temporaryFile("no-touch.toml", "[touchscreen]\nenabled = true\n[stop]\ntouch = false\n")
        let stopOnly = try Self.temporaryFile("stop-only.toml", "[stop]\ntouch = true\n")
        defer { Self.remove(path, off, noTouch, stopOnly) }

        let ignored = try Self.run(["replay", path, "--config", off])
        #expect(ignored.status == 0 && ignored.stderr.isEmpty, "\(ignored)")

        let read = try Self.run(["replay", path, "--config", noTouch])
        #expect(read.stderr == "flickd: warning: a touch on ELAN Touchscreen (/dev/input/event9), which is not replayed, at 0.200 s would have stopped the coast of 0.095 s there (its flicks are read: any touch on it stops a coast)\n", "\(read.stderr)")
        let stops = try #require(try Self.summary(try Self.run(["replay", path, "--config", noTouch, "--json"]).stdout)["unreplayed_stops"] as? [[String: Any]])
        #expect(stops.count == 1 && stops.first?["setting"] is NSNull, "\(stops)")

        let watched = try Self.run(["replay", path, "--config", stopOnly])
        #expect(watched.stderr.hasSuffix("would have stopped the coast of 0.095 s there (stop.touch)\n"), "\(watched.stderr)")
    }
}
