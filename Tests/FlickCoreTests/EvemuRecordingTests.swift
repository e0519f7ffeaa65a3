import Foundation
import Testing
import FlickCore
import FlickTools
import FlickTestSupport

// MARK: - evemu recordings from ../shared

/// A recording in ../shared with its pairing and what the file name says the user did.
private func loadShared(_ path: String) throws -> Recording {
    let text = try Fixtures.text(atPath: path)
    let description = try Fixtures.descriptionPath(forRecording: path).map(Fixtures.text(atPath:))
    return try Recording.load(text: text, description: description)
}

@Suite struct EvemuRecordingTests {
    @Test(.needsSharedRecordings)
    func everySharedRecordingParsesWithAllItsEventsInOrder() throws {
        // Whatever recordings the samples hold (no fixed count), each one parses.
        let paths = Fixtures.recordingPaths()
        #expect(!paths.isEmpty, "no recording in \(Fixtures.recordingsDirectory)")
        for path in paths {
            let text = try Fixtures.text(atPath: path)
            let recording = try loadShared(path)
            let eventLines = text.split(separator: "\n").filter { $0.hasPrefix("E:") }.count
            #expect(recording.events.count == eventLines, "\(path): \(recording.events.count) events, file has \(eventLines) E: lines")
            #expect(recording.events.count >= 48)
            #expect(recording.description.hasPosition, "\(path)")
            let backwards = zip(recording.events, recording.events.dropFirst()).filter { $1.time < $0.time }
            #expect(backwards.isEmpty, "\(path): time goes back at \(backwards.first.map { "\($0.0.time) → \($0.1.time)" } ?? "")")
            // Every frame is closed: the last event is a SYN_REPORT.
            #expect(recording.events.last?.event == InputEvent(type: 0, code: 0, value: 0), "\(path)")
            let file = path.split(separator: "/").last.map(String.init) ?? path
            let expectedKind: DeviceKind = file.hasPrefix("EP0430M09") || file.hasPrefix("Atmel") ? .touchscreen : .touchpad
            #expect(recording.description.kind == expectedKind, "\(file): \(String(describing: recording.description.kind))")
        }
    }

    @Test(.needsSharedRecordings)
    func synapticsScrollReadsTheDescFileAndTheFirstEvents() throws {
        let path = Fixtures.recordingsDirectory + "/SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events"
        let recording = try loadShared(path)
        let device = recording.description
        #expect(device.name == "SynPS/2 Synaptics TouchPad")
        #expect((device.bustype, device.vendor, device.product) == (0x11, 0x02, 0x07))
        #expect(device.properties == [EventCode.propPointer, EventCode.propButtonPad])  // P: 05
        #expect(device.slotCount == 2)
        #expect(device.maximumToolFingerCount == 5)
        // Old evemu: no resolution column.
        #expect(device.absoluteAxes[EventCode.absMTPositionX] == AxisInfo(minimum: 1472, maximum: 5472, fuzz: 8, flat: 0, resolution: 0))
        #expect(recording.events.count == 582)
        #expect(recording.events[0] == TimedEvent(time: Instant(seconds: 1358916661, microseconds: 266155),
                                                 event: InputEvent(type: 3, code: 0x2f, value: 0)))
        #expect(recording.events[1].event == InputEvent(type: 3, code: 0x39, value: 774))
        #expect(recording.events.last?.time == Instant(seconds: 1358916663, microseconds: 274103))
    }

    @Test(.needsSharedRecordings)
    func embeddedDescriptionWinsOverTheDescFile() throws {
        // The ALPS tap recording embeds a description with 2000×1400 axes; its .desc says 1360×660.
        let path = Fixtures.recordingsDirectory + "/AlpsPS2_ALPS_GlidePoint.2-finger-tap.events"
        let recording = try loadShared(path)
        #expect(recording.description.absoluteAxes[EventCode.absX]?.maximum == 2000)
        // The edge-scroll recording has no description of its own and takes the .desc.
        let edge = try loadShared(Fixtures.recordingsDirectory + "/AlpsPS2_ALPS_GlidePoint.right-edge-scroll.events")
        #expect(edge.description.absoluteAxes[EventCode.absX]?.maximum == 1360)
        #expect(edge.description.isSemiMultitouch)  // P: 08
    }

    @Test(.needsSharedRecordings)
    func samsungRecordingEmbedsAResolutionOf32UnitsPerMillimetre() throws {
        let recording = try loadShared(Fixtures.recordingsDirectory + "/ETPS2_Elantech_Touchpad.Samsung-700Z3A.events")
        #expect(recording.description.absoluteAxes[EventCode.absMTPositionX]?.resolution == 32)
        #expect(recording.description.absoluteAxes[EventCode.absMTPositionY]?.resolution == 32)
        #expect(recording.description.slotCount == 5)
        // evemu 1.3 lines carry a comment and zero-padded values: "0948\t# EV_ABS / ...".
        #expect(recording.events[0] == TimedEvent(time: .zero, event: InputEvent(type: 3, code: 0x39, value: 948)))
    }

    @Test(.needsSharedRecordings)
    func eventsWithoutAnyDescriptionAreAnError() throws {
        let text = try Fixtures.text(atPath: Fixtures.recordingsDirectory + "/ETPS2_Elantech_Touchpad.events")
        #expect(throws: RecordingError.self) { try EvemuParser.parse(text: text) }
        do {
            _ = try EvemuParser.parse(text: text)
        } catch {
            #expect(error.line == 1)
            #expect(error.message.contains("no device description"))
        }
    }

    @Test(.needsSharedRecordings)
    func recordingsCutMidLineNameTheCutLine() throws {
        var checked = 0
        for path in Fixtures.recordingPaths() {
            let text = try Fixtures.text(atPath: path)
            let description = try Fixtures.descriptionPath(forRecording: path).map(Fixtures.text(atPath:))
            for cut in midLineCuts(in: text, count: 5) {
                let truncated = String(decoding: Array(text.utf8)[..<cut], as: UTF8.self)
                let expectedLine = lineNumber(ofByte: cut, in: text)
                // An event cut in the comment evemu 1.3 writes after its value is whole.
                let lastLine = truncated.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
                // So is a SYN_REPORT: its value 0 however much of "0000" is left.
                let fields = lastLine.split(whereSeparator: { $0 == " " || $0 == "\t" })
                let whole = lastLine.hasPrefix("E:") && (fields.dropFirst(5).first?.first == "#"
                    || (fields.count == 5 && fields[2] == "0000" && fields[3] == "0000" && Int(fields[4]) == 0))
                do {
                    let recording = try Recording.load(text: truncated, description: description)
                    if whole {
                        checked += 1
                    } else {
                        Issue.record("\(path) cut at byte \(cut) (line \(expectedLine)) parsed with \(recording.events.count) events")
                    }
                } catch {
                    #expect(!whole, "\(path) cut at byte \(cut) (line \(expectedLine)): \(error)")
                    #expect(error.line == expectedLine, "\(path) cut at byte \(cut): \(error)")
                    #expect(error.part == .recording)
                    #expect(error.message.contains("truncated"), "\(error)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 40)
    }

    @Test(.needsSharedRecordings)
    func descFilesCutMidLineAreReportedInTheDescription() throws {
        let events = try Fixtures.text(atPath: Fixtures.recordingsDirectory + "/SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events")
        let description = try Fixtures.text(atPath: Fixtures.recordingsDirectory + "/SynPS2_Synaptics_TouchPad.desc")
        for cut in midLineCuts(in: description, count: 4) {
            let truncated = String(decoding: Array(description.utf8)[..<cut], as: UTF8.self)
            #expect {
                _ = try EvemuParser.parse(text: events, description: truncated)
            } throws: { error in
                guard let error = error as? RecordingError else { return false }
                return error.part == .description && error.line == lineNumber(ofByte: cut, in: description)
                    && error.description.hasPrefix("description line ")
            }
        }
    }

    /// The Synaptics pad's `.desc` as evemu wrote it (../shared/recordings), for the cuts that
    /// need no shared samples: B: 00 on line 4, B: 03 on line 18, A: lines 25 to 33.
    private static let synapticsDescription = """
        N: SynPS/2 Synaptics TouchPad
        I: 0011 0002 0007 01b1
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 01 00 00 00 00 00
        B: 01 20 e5 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 03 00 00 11 00 80 60 06
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        A: 00 1472 5472 8 0
        A: 01 1408 4448 8 0
        A: 18 0 255 0 0
        A: 1c 0 15 0 0
        A: 2f 0 1 0 0
        A: 35 1472 5472 8 0
        A: 36 1408 4448 8 0
        A: 39 0 65535 0 0
        A: 3a 0 255 0 0

        """

    /// Each cut of `text` just after a line end from line `first` to line `last` (1-based,
    /// both ends included): the text as it is with that line its last, each line whole.
    private func lineEndCuts(in text: String, afterLines lines: ClosedRange<Int>) -> [(line: Int, text: String)] {
        let bytes = Array(text.utf8)
        let ends = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
        return lines.filter { $0 <= ends.count }.map { line in
            let cut = ends[line - 1] + 1
            #expect(lineNumber(ofByte: cut - 1, in: text) == line)
            return (line, String(decoding: bytes[..<cut], as: UTF8.self))
        }
    }

    /// The A: lines of `text`: their line numbers and axis codes, in order.
    private func axisLines(of text: String) -> [(line: Int, code: UInt16)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard line.hasPrefix("A:"), let code = line.split(separator: " ").dropFirst().first.flatMap({ UInt16($0, radix: 16) }) else { return nil }
            return (index + 1, code)
        }
    }

    /// The line of `text` that starts with `prefix`, 1-based.
    private func firstLine(startingWith prefix: String, in text: String) -> Int? {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(prefix) }.map { $0 + 1 }
    }

    /// A description cut at a line end inside its A: lines has no line cut visibly, but evemu
    /// writes an A: line for every axis B: 03 lists: the first one missing is named, at the
    /// B: 03 line, as in a .desc and as in a recording's own description. (`head -c 750` of the
    /// Synaptics .desc kept A: 00 and 01 and, read as whole, replayed its scroll as "no
    /// coast: too slow" without ABS_MT_SLOT and the pressure.)
    @Test func aDescriptionCutAtALineEndAmongItsAxesIsCutShort() throws {
        let events = "E: 0.000000 0000 0000 0\n"
        let axes = axisLines(of: Self.synapticsDescription)
        #expect(axes.map(\.code) == [0x00, 0x01, 0x18, 0x1c, 0x2f, 0x35, 0x36, 0x39, 0x3a])
        let cuts = lineEndCuts(in: Self.synapticsDescription, afterLines: 18...32)
        #expect(cuts.count == 15)
        for (line, cut) in cuts {
            let missing = try #require(axes.first { $0.line > line }?.code)
            let name = EventNames.codeName(type: EventCode.absolute, code: missing)
            for separate in [true, false] {
                #expect {
                    _ = separate ? try EvemuParser.parse(text: events, description: cut) : try EvemuParser.parse(text: cut + events)
                } throws: { error in
                    guard let error = error as? RecordingError else { return false }
                    return error.part == (separate ? .description : .recording) && error.line == 18
                        && error.message.hasPrefix("B: 03 lists \(name) (0x") && error.message.hasSuffix("cut short?")
                }
            }
        }
        // The 750 bytes of the report: A: 00 and 01 kept, ABS_PRESSURE (0x18) the first lost.
        let head = String(decoding: Array(Self.synapticsDescription.utf8)[..<750], as: UTF8.self)
        #expect(head.hasSuffix("A: 01 1408 4448 8 0\n"))
        #expect {
            _ = try EvemuParser.parse(text: events, description: head)
        } throws: { error in
            (error as? RecordingError)?.description
                == "description line 18: B: 03 lists ABS_PRESSURE (0x18) but there is no A: line for it (evemu writes one for every axis B: 03 lists): cut short?"
        }
        // The whole description parses, as a .desc and as a recording's own.
        #expect(try EvemuParser.parse(text: events, description: Self.synapticsDescription).description.absoluteAxes.count == 9)
        #expect(try EvemuParser.parse(text: Self.synapticsDescription + events).description.slotCount == 2)
    }

    /// Cut before its B: 03 line (among the B: lines), a description lacks the axes B: 00
    /// says it has: that is named at the B: 00 line; before B: 01, the keys too. Cut before
    /// any B: line (after N:, I: or P:), it lacks them all: named at its last line. As a .desc
    /// and as a recording's own, followed by its events.
    @Test func aDescriptionCutAmongItsBitmasksIsCutShort() throws {
        let events = "E: 0.000000 0000 0000 0\n"
        for (line, cut) in lineEndCuts(in: Self.synapticsDescription, afterLines: 1...17) {
            for separate in [true, false] {
                #expect("cut after line \(line), \(separate ? "a .desc" : "embedded")") {
                    _ = separate ? try EvemuParser.parse(text: events, description: cut) : try EvemuParser.parse(text: cut + events)
                } throws: { error in
                    guard let error = error as? RecordingError, error.part == (separate ? .description : .recording),
                          error.message.hasSuffix("cut short?") else { return false }
                    if line < 4 {
                        return error.line == line && error.message.hasPrefix("the description ends before its B: lines")
                    }
                    let lacking = line == 4 ? "EV_KEY but there is no B: 01 line" : "EV_ABS but there is no B: 03 line"
                    return error.line == 4 && error.message.hasPrefix("B: 00 lists \(lacking)")
                }
            }
        }
    }

    /// The recordings the tests write themselves (`EvemuWriter`) say in B: 00 which event types
    /// the device has, as evdev does: cut after that line, one lacks the keys it lists.
    @Test func evemuWriterListsTheEventTypesInBitmaskZero() throws {
        let text = EvemuWriter.text(description: try Fixtures.device("synaptics-t440"), events: [])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let typesLine = try #require(lines.firstIndex { $0.hasPrefix("B: 00") }) + 1
        #expect(lines[typesLine - 1] == "B: 00 0b 00 00 00 00 00 00 00", "EV_SYN, EV_KEY and EV_ABS")
        for (line, cut) in lineEndCuts(in: text, afterLines: typesLine...typesLine) {
            #expect(throws: RecordingError(line: line, message: "B: 00 lists EV_KEY but there is no B: 01 line (evemu writes one for every type B: 00 lists): cut short?")) {
                try EvemuParser.parse(text: cut)
            }
        }
        #expect(try EvemuParser.parse(text: text).description.slotCount > 0)
    }

    /// Every shared evemu description, a .desc or a recording's own, cut at any line end from
    /// its B: 03 line to its last A: line but one, is refused as cut short, naming the first
    /// axis whose A: line was lost.
    @Test(.needsSharedRecordings)
    func sharedDescriptionsCutAtALineEndAmongTheirAxesAreCutShort() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.recordingsDirectory)
            .filter { $0.hasSuffix(".desc") || $0.hasSuffix(".events") }.sorted()
        var checked = 0
        for file in files {
            let text = try Fixtures.text(atPath: Fixtures.recordingsDirectory + "/" + file)
            let axes = axisLines(of: text)
            guard let bitmaskLine = firstLine(startingWith: "B: 03", in: text), let lastAxis = axes.last else { continue }
            let separate = file.hasSuffix(".desc")
            for (line, cut) in lineEndCuts(in: text, afterLines: bitmaskLine...(lastAxis.line - 1)) {
                let missing = try #require(axes.first { $0.line > line }?.code)
                let name = EventNames.codeName(type: EventCode.absolute, code: missing)
                do {
                    _ = separate ? try EvemuParser.parse(text: "E: 0.000000 0000 0000 0\n", description: cut) : try EvemuParser.parse(text: cut)
                    Issue.record("\(file) cut after line \(line) parsed")
                } catch {
                    #expect(error.part == (separate ? .description : .recording), "\(file) after line \(line): \(error)")
                    #expect(error.line == bitmaskLine && error.message.hasPrefix("B: 03 lists \(name) (0x") && error.message.hasSuffix("cut short?"),
                            "\(file) after line \(line): \(error)")
                }
                checked += 1
            }
        }
        #expect(checked >= 50)
    }

    private static let header = """
        N: Test Pad
        I: 0011 0002 0007 01b1
        P: 05 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 01 00 00 00 00 00
        B: 01 20 e5 00 00 00 00 00 00
        A: 00 1472 5472 8 0 42
        A: 01 1408 4448 8 0
        A: 2f 0 1 0 0 0
        A: 35 1472 5472 8 0 42
        A: 36 1408 4448 8 0 42

        """

    /// The error of parsing `header` + `line` + a valid event: the bad line is line 15.
    private func errorOf(_ line: String) -> RecordingError? {
        let text = Self.header + line + "\nE: 0.000000 0000 0000 0\n"
        do {
            _ = try EvemuParser.parse(text: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSmallDescriptionParsesBitByBit() throws {
        let recording = try EvemuParser.parse(text: Self.header + "E: 12.000500 0003 0035 1500\n")
        let device = recording.description
        // B: 01, 5th line byte 2 = 0x01 → code (4*8+2)*8 = 0x110 BTN_LEFT; 6th line 20 e5 → 0x145, 0x148, 0x14a, 0x14d, 0x14e, 0x14f.
        #expect(device.keys == [0x110, 0x145, 0x148, 0x14a, 0x14d, 0x14e, 0x14f])
        #expect(device.absoluteAxes[EventCode.absY] == AxisInfo(minimum: 1408, maximum: 4448, fuzz: 8, flat: 0, resolution: 0))
        #expect(device.absoluteAxes[EventCode.absX]?.resolution == 42)
        #expect(recording.events == [TimedEvent(time: Instant(microseconds: 12_000_500), event: InputEvent(type: 3, code: 0x35, value: 1500))])
    }

    /// evemu reads times with "%lu.%06u": the digits after the point count microseconds,
    /// however few there are ("12.5" is 12 s and 5 µs, not 12.5 s).
    @Test(arguments: [("12.5", 12_000_005), ("12.05", 12_000_005), ("0.123", 123), ("3.000001", 3_000_001), ("7.999999", 7_999_999)])
    func microsecondsOfFewerThanSixDigitsAreACount(time: String, microseconds: Int64) throws {
        let recording = try EvemuParser.parse(text: Self.header + "E: \(time) 0003 0035 1500\n")
        #expect(recording.events.map(\.time) == [Instant(microseconds: microseconds)])
    }

    @Test func crlfLineEndsAndBlanksAroundFieldsAreTolerated() throws {
        let text = (Self.header + "  E: 0.000001\t0003 0035   -7  \n").replacingOccurrences(of: "\n", with: "\r\n")
        let recording = try EvemuParser.parse(text: text)
        #expect(recording.events.first?.event.value == -7)
        #expect(recording.description.absoluteAxes.count == 5)
    }

    @Test(arguments: [
        ("A: 00 0 1360 0", "4 or 5 numbers"),
        ("A: 00 0 1360 0 0 0 0", "4 or 5 numbers"),
        ("A: zz 0 1360 0 0", "hexadecimal"),
        ("A: 00 0 13x0 0 0", "decimal 32-bit"),
        ("A: 00 0 99999999999 0 0", "decimal 32-bit"),
        ("A: 00 0 99999999999999999999999999 0 0", "decimal 32-bit"),
        ("A: 40 0 1 0 0", "ABS_MAX"),
        ("A: 00000 0 1 0 0", "at most 4 digits"),
        ("E: 0.000000 0003 0035", "4 fields"),
        ("E: 0.000000 0003 0035 1 2", "4 fields"),
        ("E: 0. 0003 0035 1", "1 to 6 digits"),
        ("E: 0.0000000 0003 0035 1", "1 to 6 digits"),
        ("E: 0.+12345 0003 0035 1", "1 to 6 digits"),
        ("E: 0,000000 0003 0035 1", "seconds.microseconds"),
        ("E: -1.000000 0003 0035 1", "non-negative"),
        ("E: 99999999999999999999.000000 0003 0035 1", "non-negative"),
        ("E: 0.000000 00g3 0035 1", "hexadecimal"),
        ("E: 0.000000 0020 0035 1", "EV_MAX"),
        ("E: 0.000000 0003 0035 2147483648", "decimal 32-bit"),
        ("E: 0.000000 0003 0035 1.5", "decimal 32-bit"),
        ("B: 01", "at least one bitmask byte"),
        ("B: 01 0g", "two hexadecimal digits"),
        ("I: 0011 0002 0007", "4 hexadecimal fields"),
        ("P:", "at least one"),
        ("X: 1 2 3", "unknown evemu line kind"),
        ("hello", "expected an evemu line"),
        ("N: Second Name", "second N: line"),
    ])
    func malformedLinesAreErrorsThatNameLine15(line: String, expected: String) {
        let error = errorOf(line)
        #expect(error?.line == 15, "\(line): \(String(describing: error))")
        #expect(error?.message.contains(expected) == true, "\(line): \(String(describing: error))")
        #expect(error?.description.hasPrefix("line 15: ") == true)
    }

    @Test func aLastLineWithoutNewlineIsATruncation() {
        // Well-formed but unterminated: evemu always ends its lines, so the value may be cut.
        #expect {
            _ = try EvemuParser.parse(text: Self.header + "E: 0.000000 0003 0035 15")
        } throws: { error in
            (error as? RecordingError).map { $0.line == 15 && $0.message.contains("truncated") } ?? false
        }
        // Whitespace after the last newline is not a cut line.
        #expect(throws: Never.self) { try EvemuParser.parse(text: Self.header + "E: 0.000000 0003 0035 15\n  ") }
    }

    /// A complete recording that lost only its final newline: its last line is whole when the
    /// comment evemu 1.3 writes after every value has begun, or when it is a SYN_REPORT (0 is
    /// 0 however much of "0000" is left). A value without its comment may still be cut.
    @Test func aCompleteLastLineWithoutItsNewlineIsAccepted() throws {
        for last in ["E: 0.000000 0003 0035 0015\t# EV_ABS / ABS_MT_POSITION_X    15", "E: 0.000000 0003 0035 0015\t# EV_A",
                     "E: 0.000000 0000 0000 0000", "E: 1358916663.274103 0000 0000 0"] {
            let recording = try EvemuParser.parse(text: Self.header + last)
            #expect(recording.events.count == 1, "\(last)")
        }
        for cut in ["E: 0.000000 0003 0035 0015\t", "E: 0.000000 0003 0035 0015 ", "E: 0.000000 0003 0035 1", "E: 0.000000 0000 0000 1", "E: 0.000000 0000 00"] {
            #expect {
                _ = try EvemuParser.parse(text: Self.header + cut)
            } throws: { error in
                (error as? RecordingError).map { $0.line == 15 && $0.message.contains("truncated") } ?? false
            }
        }
    }

    /// A UTF-8 byte order mark (an editor's) before the first line is skipped, in the events
    /// and in a separate description.
    @Test func aByteOrderMarkIsSkipped() throws {
        let marked = "\u{FEFF}" + Self.header + "E: 0.000000 0000 0000 0\n"
        #expect(Recording.format(of: marked) == .evemu)
        #expect(try Recording.load(text: marked).description.name == "Test Pad")
        #expect(try EvemuParser.parse(text: "E: 0.000000 0000 0000 0\n", description: "\u{FEFF}" + Self.header).events.count == 1)
    }

    /// A `.desc` with events is refused with the rule and, where the recording holds none (a
    /// description alone: the two files given the wrong way round), the likely cause.
    @Test func aDescFileWithEventsIsRejected() throws {
        let events = "E: 0.000000 0003 0035 1500\nE: 0.000000 0000 0000 0\n"
        func error(text: String, description: String) -> RecordingError? {
            do {
                _ = try EvemuParser.parse(text: text, description: description)
                return nil
            } catch {
                return error
            }
        }
        let swapped = try #require(error(text: Self.header, description: Self.header + events))
        #expect(swapped.part == .description && swapped.line == 15, "\(swapped)")
        #expect(swapped.message == "--desc FILE must be a description only, without E: lines (this one has 2, the first on this line); were FILE and --desc swapped?",
                "\(swapped)")
        let twoRecordings = try #require(error(text: Self.header + events, description: Self.header + events))
        #expect(twoRecordings.part == .description && twoRecordings.line == 15, "\(twoRecordings)")
        #expect(twoRecordings.message == "--desc FILE must be a description only, without E: lines (this one has 2, the first on this line)",
                "\(twoRecordings)")
    }

    /// An empty file, or one of blank lines and comments, is no recording: it is said so, not
    /// read as evemu events that lack their description. Line 0: the file as a whole.
    @Test(arguments: [("", "the file is empty"), ("\n \t\n\r\n", "the file is empty"), ("\u{FEFF}", "the file is empty"),
                      ("# EVEMU 1.3\n\n# nothing\n", "the file holds only comments")])
    func anEmptyFileIsSaidToBeEmpty(text: String, expected: String) {
        for description in [nil, Self.header] {
            #expect {
                _ = try Recording.load(text: text, description: description)
            } throws: { error in
                guard let error = error as? RecordingError else { return false }
                return error.line == 0 && error.part == .recording
                    && error.message == "\(expected) (neither evemu lines nor libinput record YAML)"
            }
        }
    }

    /// An empty `.desc` is said to be one, in the description.
    @Test func anEmptyDescFileIsSaidToBeEmpty() {
        #expect {
            _ = try Recording.load(text: "E: 0.000000 0000 0000 0\n", description: "\n")
        } throws: { error in
            guard let error = error as? RecordingError else { return false }
            return error.line == 0 && error.part == .description && error.message.hasPrefix("the file is empty")
        }
    }

    /// Whether the separate description was the one used: only when the recording has none.
    @Test func theRecordingSaysWhetherItsDescriptionCameSeparately() throws {
        let events = "E: 0.000000 0000 0000 0\n"
        #expect(try Recording.load(text: events, description: Self.header).describedSeparately)
        #expect(try !Recording.load(text: Self.header + events, description: Self.header).describedSeparately)
        #expect(try !Recording.load(text: Self.header + events).describedSeparately)
    }
}
