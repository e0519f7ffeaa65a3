import Foundation
import Testing
import FlickCore
import FlickTestSupport

@Suite struct FixtureTests {
    @Test func everyDeviceFixtureLoadsAndIsTheKindItStates() throws {
        let names = Fixtures.allDeviceNames()
        #expect(names.count >= 14, "found \(names.count) device fixtures in \(Fixtures.devicesDirectory)")
        for name in names {
            let device = try Fixtures.device(name)
            #expect(!device.name.isEmpty)
            #expect(device.hasPosition, "\(name) has no position axes")
            let expected = try Fixtures.expectedKind(name)
            #expect(device.kind == expected, "\(name): expected \(expected), got \(String(describing: device.kind))")
        }
    }

    @Test func theFixturesCoverEveryWayOfReportingFingers() throws {
        let devices = try Fixtures.allDeviceNames().map(Fixtures.device)
        #expect(devices.contains { $0.slotCount > 2 && !$0.isSemiMultitouch }, "protocol B")
        #expect(devices.contains { $0.slotCount == 2 && $0.maximumToolFingerCount > 2 && !$0.isSemiMultitouch },
                "fewer slots than fingers")
        #expect(devices.contains { $0.isSemiMultitouch }, "semi-MT")
        #expect(devices.contains { $0.usesProtocolA }, "protocol A")
        #expect(devices.contains { $0.slotCount == 0 && !$0.usesProtocolA }, "single-touch")
        #expect(devices.contains { $0.kind == .touchpad && DeviceGeometry(description: $0, kind: .touchpad).x.isEstimated },
                "a touchpad with resolution 0")
        #expect(devices.contains { $0.kind == .touchscreen }, "a touchscreen")
    }

    @Test func aFixtureWithAMistakeNamesItsLine() {
        let text = "name Pad\nkind touchpad\naxis ABS_X 0 100\nkeys BTN_TOUCH BTN_NOPE\n"
        #expect(throws: Fixtures.FixtureError.self) { try Fixtures.parseDevice(text: text, path: "bad.device") }
        do {
            _ = try Fixtures.parseDevice(text: text, path: "bad.device")
        } catch let error as Fixtures.FixtureError {
            #expect(error.description == "bad.device:4: unknown key BTN_NOPE")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(.needsSharedDevices)
    func everySharedDeviceLoadsAndIsTheKindLibinputSays() throws {
        let names = Fixtures.sharedDeviceNames()
        #expect(names.count >= 20, "found \(names.count) device samples in \(Fixtures.sharedDevicesDirectory)")
        for name in names {
            let device = try Fixtures.sharedDevice(name)
            #expect(device.hasPosition, "\(name) has no position axes")
            let expected = try Fixtures.sharedExpectedKind(name)
            #expect(device.kind == expected, "\(name): expected \(String(describing: expected)), got \(String(describing: device.kind))")
        }
    }

    @Test(.needsSharedDevices)
    func fixturesStateWhatTheSharedSampleOfTheSameNameStates() throws {
        // Typos in the hand-written fixtures show here, where the samples are present.
        for name in Fixtures.allDeviceNames() where Fixtures.sharedDeviceNames().contains(name) {
            #expect(try Fixtures.device(name) == Fixtures.sharedDevice(name), "\(name)")
        }
    }

    @Test func synapticsT440IsATwoSlotClickpadWithFiveFingerTools() throws {
        let t440 = try Fixtures.device("synaptics-t440")
        #expect(t440.name == "SynPS/2 Synaptics TouchPad")
        #expect((t440.bustype, t440.vendor, t440.product) == (0x11, 2, 7))
        #expect(t440.properties == [EventCode.propPointer, EventCode.propButtonPad, 0x04])
        #expect(t440.slotCount == 2)
        #expect(t440.maximumToolFingerCount == 5)
        #expect(t440.absoluteAxes[EventCode.absMTPositionX] == AxisInfo(minimum: 1024, maximum: 5112, resolution: 42))
    }

    @Test func semiMultitouchAndProtocolAFixturesSayWhatTheyAre() throws {
        #expect(try Fixtures.device("alps-dualpoint").isSemiMultitouch)
        #expect(try Fixtures.device("protocol-a-touch-screen").usesProtocolA)
    }

    @Test(.needsSharedRecordings)
    func recordingsAreFoundAndPaired() {
        let paths = Fixtures.recordingPaths()
        #expect(paths.count == 10)
        let synaptics = paths.first { $0.hasSuffix("SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events") }
        #expect(synaptics.flatMap(Fixtures.descriptionPath(forRecording:))?.hasSuffix("/SynPS2_Synaptics_TouchPad.desc") == true)
    }
}

// MARK: - Event names

@Suite struct EventNamesTests {
    @Test func everyNamedCodeRoundTrips() {
        let entries = EventNames.allEntries
        #expect(entries.count > 150)
        for entry in entries {
            #expect(EventNames.codeName(type: entry.type, code: entry.code) == entry.name)
            let found = EventNames.lookup(entry.name)
            #expect(found?.type == entry.type && found?.code == entry.code, "\(entry.name)")
        }
    }

    @Test func kernelValuesOfTheCodesFlickdReads() {
        #expect(EventNames.lookup("BTN_TOOL_DOUBLETAP")! == (0x01, 0x14d))
        #expect(EventNames.lookup("BTN_TOUCH")! == (0x01, 0x14a))
        #expect(EventNames.lookup("ABS_MT_TRACKING_ID")! == (0x03, 0x39))
        #expect(EventNames.lookup("ABS_MT_TOOL_Y")! == (0x03, 0x3d))
        #expect(EventNames.lookup("REL_HWHEEL_HI_RES")! == (0x02, 0x0c))
        #expect(EventNames.lookup("SYN_MT_REPORT")! == (0x00, 0x02))
        #expect(EventNames.lookup("MSC_TIMESTAMP")! == (0x04, 0x05))
        #expect(EventNames.lookup("BTN_TRIGGER_HAPPY40")! == (0x01, 0x2e7))
        #expect(EventNames.typeName(EventCode.absolute) == "EV_ABS")
        #expect(EventNames.typeName(0x17) == "EV_FF_STATUS")
        #expect(EventNames.type(named: "EV_MSC") == 0x04)
        #expect(EventNames.property(named: "INPUT_PROP_SEMI_MT") == EventCode.propSemiMT)
        #expect(EventNames.property(named: "INPUT_PROP_ACCELEROMETER") == 0x06)
        #expect(EventNames.propertyName(0x02) == "INPUT_PROP_BUTTONPAD")
    }

    @Test func aliasesAreReadButTheCanonicalNameIsPrinted() {
        #expect(EventNames.lookup("BTN_MOUSE")! == (0x01, 0x110))
        #expect(EventNames.lookup("BTN_A")! == (0x01, 0x130))
        #expect(EventNames.codeName(type: 0x01, code: 0x110) == "BTN_LEFT")
        #expect(EventNames.codeName(type: 0x01, code: 0x130) == "BTN_SOUTH")
    }

    @Test func unnamedCodesGetAHexNameThatReadsBack() {
        #expect(EventNames.codeName(type: 0x03, code: 0x2a) == "ABS_0x2a")
        #expect(EventNames.codeName(type: 0x01, code: 0x1e) == "KEY_0x1e")
        #expect(EventNames.codeName(type: 0x01, code: 0x160) == "BTN_0x160")
        #expect(EventNames.codeName(type: 0x05, code: 0x01) == "SW_0x01")
        #expect(EventNames.codeName(type: 0x1f, code: 0x03) == "EV_0x1f_0x03")
        #expect(EventNames.typeName(0x1f) == "EV_0x1f")
        #expect(EventNames.propertyName(0x10) == "INPUT_PROP_0x10")
        #expect(EventNames.lookup("ABS_0x2a")! == (0x03, 0x2a))
        #expect(EventNames.lookup("KEY_0x1e")! == (0x01, 0x1e))
        #expect(EventNames.lookup("BTN_0x160")! == (0x01, 0x160))
        #expect(EventNames.type(named: "EV_0x1f") == 0x1f)
    }

    @Test func unknownNamesAndCodesBeyondTheMaximumAreRejected() {
        #expect(EventNames.lookup("ABS_NOPE") == nil)
        #expect(EventNames.lookup("ABS_0x40") == nil)       // ABS_MAX is 0x3f
        #expect(EventNames.lookup("ABS_0x") == nil)
        #expect(EventNames.lookup("ABS_0xzz") == nil)
        #expect(EventNames.lookup("") == nil)
        #expect(EventNames.type(named: "EV_0x20") == nil)   // EV_MAX is 0x1f
        #expect(EventNames.property(named: "INPUT_PROP_NOPE") == nil)
    }
}

// MARK: - evemu recordings from ../shared

/// A recording in ../shared with its pairing and what the file name says the user did.
private func loadShared(_ path: String) throws -> Recording {
    let text = try Fixtures.text(atPath: path)
    let description = try Fixtures.descriptionPath(forRecording: path).map(Fixtures.text(atPath:))
    return try Recording.load(text: text, description: description)
}

/// The 1-based number of the line holding byte `offset` of `text`.
private func lineNumber(ofByte offset: Int, in text: String) -> Int {
    Array(text.utf8)[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
}

/// Byte offsets in `text` that fall inside a line, after at least one non-blank byte of it:
/// cutting there leaves a last line that has visibly lost its end.
private func midLineCuts(in text: String, count: Int) -> [Int] {
    let bytes = Array(text.utf8)
    var cuts: [Int] = []
    for step in 1...count {
        var cut = bytes.count * step / (count + 1)
        while cut < bytes.count {
            let lineStart = bytes[..<cut].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            let partial = bytes[lineStart..<cut]
            if bytes[cut] != UInt8(ascii: "\n"), partial.contains(where: { $0 != 0x20 && $0 != 0x09 }) { break }
            cut += 1
        }
        if cut < bytes.count { cuts.append(cut) }
    }
    return cuts
}

@Suite struct EvemuRecordingTests {
    @Test(.needsSharedRecordings)
    func everySharedRecordingParsesWithAllItsEventsInOrder() throws {
        let paths = Fixtures.recordingPaths()
        #expect(paths.count == 10)
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
                do {
                    let recording = try Recording.load(text: truncated, description: description)
                    Issue.record("\(path) cut at byte \(cut) (line \(expectedLine)) parsed with \(recording.events.count) events")
                } catch {
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
        ("E: 0.00000 0003 0035 1", "6 digits"),
        ("E: 0.0000000 0003 0035 1", "6 digits"),
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

    @Test func aDescFileWithEventsIsRejected() {
        #expect(throws: RecordingError.self) {
            try EvemuParser.parse(text: "E: 0.000000 0000 0000 0\n", description: Self.header + "E: 0.000000 0000 0000 0\n")
        }
    }
}

// MARK: - libinput record

/// A two-finger scroll down on a 2-slot clickpad, as `libinput record` (1.2x) writes it:
/// fingers land 16 mm apart, move 12 mm down in 6 frames 12 ms apart, the left one lifts 11 ms
/// before the right one.
let libinputRecordTwoFingerScroll = """
    # libinput record
    version: 1
    ndevices: 1
    libinput:
      version: "1.25.0"
      git: "unknown"
    system:
      os: "fedora:40"
      kernel: "6.8.9-300.fc40.x86_64"
      dmi: "dmi:bvnLENOVO:bvrGJET72WW(2.22):bd02/21/2014:svnLENOVO:pn20AN006VUS:pvrThinkPadT440s:"
    devices:
    - node: /dev/input/event5
      evdev:
        # Name: SynPS/2 Synaptics TouchPad
        # ID: bus 0x0011 vendor 0x0002 product 0x0007 version 0x01b1
        # Size in mm: 97x66
        # Supported Events:
        # Event type 0 (EV_SYN)
        # Event type 1 (EV_KEY)
        #   Event code 272 (BTN_LEFT)
        #   Event code 330 (BTN_TOUCH)
        # Event type 3 (EV_ABS)
        #   Event code 0 (ABS_X)
        #       Value        2903
        #       Min          1266
        #       Max          5676
        #       Fuzz            0
        #       Flat            0
        #       Resolution     45
        # Properties:
        #    Property 0 (INPUT_PROP_POINTER)
        #    Property 2 (INPUT_PROP_BUTTONPAD)
        name: "SynPS/2 Synaptics TouchPad"
        id: [17, 2, 7, 433]
        codes:
          0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
          1: [272, 325, 328, 330, 333, 334, 335] # EV_KEY
          3: [0, 1, 24, 28, 47, 53, 54, 57, 58] # EV_ABS
        absinfo:
          0: [1266, 5676, 0, 0, 45]
          1: [1096, 4758, 0, 0, 68]
          24: [0, 255, 0, 0, 0]
          28: [0, 15, 0, 0, 0]
          47: [0, 1, 0, 0, 0]
          53: [1266, 5676, 0, 0, 45]
          54: [1096, 4758, 0, 0, 68]
          57: [0, 65535, 0, 0, 0]
          58: [0, 255, 0, 0, 0]
        properties: [0, 2]
      hid: [
        0x05, 0x01, 0x09, 0x02, 0xa1, 0x01,
        0x09, 0x01, 0xa1, 0x00
      ]
      udev:
        properties:
        - ID_INPUT=1
        - ID_INPUT_TOUCHPAD=1
        - LIBINPUT_DEVICE_GROUP=11/2/7:isa0060/serio1
      quirks:
      - ModelLenovoT450Touchpad=1
      libinput:
        size: [97, 66]
        capabilities: [pointer, gesture]
      events:
      # Current time is 14:02:11
      - evdev:
        - [  0,      0,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,      0,   3,  57,     101] # EV_ABS / ABS_MT_TRACKING_ID        101
        - [  0,      0,   3,  53,    3000] # EV_ABS / ABS_MT_POSITION_X       3000 (+3000)
        - [  0,      0,   3,  54,    2600] # EV_ABS / ABS_MT_POSITION_Y       2600 (+2600)
        - [  0,      0,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,      0,   3,  57,     102] # EV_ABS / ABS_MT_TRACKING_ID        102
        - [  0,      0,   3,  53,    3720] # EV_ABS / ABS_MT_POSITION_X       3720 (+3720)
        - [  0,      0,   3,  54,    2610] # EV_ABS / ABS_MT_POSITION_Y       2610 (+2610)
        - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
        - [  0,      0,   1, 333,       1] # EV_KEY / BTN_TOOL_DOUBLETAP        1
        - [  0,      0,   3,   0,    3000] # EV_ABS / ABS_X                  3000 (+3000)
        - [  0,      0,   3,   1,    2600] # EV_ABS / ABS_Y                  2600 (+2600)
        - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
      - libinput:
        - {time: 0.000000, type: GESTURE_HOLD_BEGIN, nfingers: 2}
      - evdev:
        - [  0,  12034,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,  12034,   3,  54,    2736] # EV_ABS / ABS_MT_POSITION_Y       2736 (+136)
        - [  0,  12034,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,  12034,   3,  54,    2746] # EV_ABS / ABS_MT_POSITION_Y       2746 (+136)
        - [  0,  12034,   3,   1,    2736] # EV_ABS / ABS_Y                  2736 (+136)
        - [  0,  12034,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
      - evdev:
        - [  0,  24051,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,  24051,   3,  54,    2872] # EV_ABS / ABS_MT_POSITION_Y       2872 (+136)
        - [  0,  24051,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,  24051,   3,  54,    2882] # EV_ABS / ABS_MT_POSITION_Y       2882 (+136)
        - [  0,  24051,   3,   1,    2872] # EV_ABS / ABS_Y                  2872 (+136)
        - [  0,  24051,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
      - evdev:
        - [  0,  36070,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,  36070,   3,  54,    3008] # EV_ABS / ABS_MT_POSITION_Y       3008 (+136)
        - [  0,  36070,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,  36070,   3,  54,    3018] # EV_ABS / ABS_MT_POSITION_Y       3018 (+136)
        - [  0,  36070,   3,   1,    3008] # EV_ABS / ABS_Y                  3008 (+136)
        - [  0,  36070,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
      - evdev:
        - [  0,  48088,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,  48088,   3,  54,    3144] # EV_ABS / ABS_MT_POSITION_Y       3144 (+136)
        - [  0,  48088,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,  48088,   3,  54,    3154] # EV_ABS / ABS_MT_POSITION_Y       3154 (+136)
        - [  0,  48088,   3,   1,    3144] # EV_ABS / ABS_Y                  3144 (+136)
        - [  0,  48088,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
      - evdev:
        - [  0,  60101,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,  60101,   3,  54,    3280] # EV_ABS / ABS_MT_POSITION_Y       3280 (+136)
        - [  0,  60101,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,  60101,   3,  54,    3290] # EV_ABS / ABS_MT_POSITION_Y       3290 (+136)
        - [  0,  60101,   3,   1,    3280] # EV_ABS / ABS_Y                  3280 (+136)
        - [  0,  60101,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
      - evdev:
        - [  0,  72120,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,  72120,   3,  54,    3416] # EV_ABS / ABS_MT_POSITION_Y       3416 (+136)
        - [  0,  72120,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,  72120,   3,  54,    3426] # EV_ABS / ABS_MT_POSITION_Y       3426 (+136)
        - [  0,  72120,   3,   1,    3416] # EV_ABS / ABS_Y                  3416 (+136)
        - [  0,  72120,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
      - evdev:
        - [  0,  84133,   3,  47,       0] # EV_ABS / ABS_MT_SLOT                 0
        - [  0,  84133,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID         -1
        - [  0,  84133,   1, 325,       1] # EV_KEY / BTN_TOOL_FINGER           1
        - [  0,  84133,   1, 333,       0] # EV_KEY / BTN_TOOL_DOUBLETAP        0
        - [  0,  84133,   3,   0,    3720] # EV_ABS / ABS_X                  3720 (+720)
        - [  0,  84133,   3,   1,    3426] # EV_ABS / ABS_Y                  3426 (+10)
        - [  0,  84133,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
      - evdev:
        - [  0,  95140,   3,  47,       1] # EV_ABS / ABS_MT_SLOT                 1
        - [  0,  95140,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID         -1
        - [  0,  95140,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
        - [  0,  95140,   1, 325,       0] # EV_KEY / BTN_TOOL_FINGER           0
        - [  0,  95140,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +11ms
                                           # Touch device in neutral state

    """

@Suite struct LibinputRecordTests {
    @Test func theFixtureIsRecognisedAsLibinputRecord() {
        #expect(Recording.format(of: libinputRecordTwoFingerScroll) == .libinputRecord)
        #expect(Recording.format(of: "version: 1\ndevices: []\n") == .libinputRecord)
        #expect(Recording.format(of: "# EVEMU 1.3\nN: pad\n") == .evemu)
        #expect(Recording.format(of: "") == .evemu)
        #expect(Recording.format(of: "<html>") == nil)
    }

    @Test func twoFingerScrollDescription() throws {
        let recording = try Recording.load(text: libinputRecordTwoFingerScroll)
        let device = recording.description
        #expect(device.name == "SynPS/2 Synaptics TouchPad")
        #expect((device.bustype, device.vendor, device.product) == (17, 2, 7))
        #expect(device.keys == [272, 325, 328, 330, 333, 334, 335])
        #expect(device.properties == [EventCode.propPointer, EventCode.propButtonPad])
        #expect(device.absoluteAxes.count == 9)
        #expect(device.absoluteAxes[EventCode.absMTPositionY] == AxisInfo(minimum: 1096, maximum: 4758, resolution: 68))
        #expect(device.slotCount == 2)
        #expect(device.kind == .touchpad)
        #expect(device.maximumToolFingerCount == 5)
    }

    @Test func twoFingerScrollEventsInFileOrderWithoutLibinputEvents() throws {
        let recording = try Recording.load(text: libinputRecordTwoFingerScroll)
        #expect(recording.events.count == 13 + 6 * 6 + 7 + 5)
        #expect(recording.events.first == TimedEvent(time: .zero, event: InputEvent(type: 3, code: 47, value: 0)))
        #expect(recording.events[1].event == InputEvent(type: 3, code: 57, value: 101))
        #expect(recording.events[13] == TimedEvent(time: Instant(microseconds: 12_034), event: InputEvent(type: 3, code: 47, value: 0)))
        #expect(recording.events.last == TimedEvent(time: Instant(microseconds: 95_140), event: InputEvent(type: 0, code: 0, value: 0)))
        let lifts = recording.events.filter { $0.event == InputEvent(type: 3, code: 57, value: -1) }.map(\.time)
        #expect(lifts == [Instant(microseconds: 84_133), Instant(microseconds: 95_140)])
        #expect(zip(recording.events, recording.events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func everyMidLineCutOfTheFixtureIsAnErrorOnTheCutLine() {
        let text = libinputRecordTwoFingerScroll
        let bytes = Array(text.utf8)
        var cuts = 0
        // One cut in the middle of every line that has content.
        var lineStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let line = bytes[lineStart..<index]
            if let firstContent = line.firstIndex(where: { $0 != 0x20 }), index - firstContent >= 2 {
                let cut = firstContent + (index - firstContent) / 2
                let truncated = String(decoding: bytes[..<cut], as: UTF8.self)
                let expectedLine = lineNumber(ofByte: cut, in: text)
                do {
                    _ = try Recording.load(text: truncated)
                    Issue.record("cut at byte \(cut) (line \(expectedLine)) parsed")
                } catch {
                    #expect(error.line == expectedLine, "cut at byte \(cut): \(error)")
                }
                cuts += 1
            }
            lineStart = index + 1
        }
        #expect(cuts > 100)
    }

    @Test func truncatedInsideAnEventArray() {
        let cut = libinputRecordTwoFingerScroll.range(of: "- [  0,  48088,   3,  54,    31")!.upperBound
        let truncated = String(libinputRecordTwoFingerScroll[..<cut])
        let line = truncated.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect {
            _ = try Recording.load(text: truncated)
        } throws: { error in
            guard let error = error as? RecordingError else { return false }
            return error.line == line && error.message.contains("truncated")
        }
    }

    @Test func truncatedAtALineBoundaryKeepsTheEventsSoFar() throws {
        // A recording stopped between lines is a shorter recording, not an error.
        let cut = libinputRecordTwoFingerScroll.range(of: "  - evdev:\n    - [  0,  84133")!.lowerBound
        let recording = try Recording.load(text: String(libinputRecordTwoFingerScroll[..<cut]))
        #expect(recording.events.count == 13 + 6 * 6)
    }

    private func errorOf(_ yaml: String) -> RecordingError? {
        do {
            _ = try LibinputRecordParser.parse(text: yaml)
            return nil
        } catch {
            return error
        }
    }

    private static func minimal(events: String, codes: String = "1: [330]") -> String {
        """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event0
          evdev:
            name: "Pad"
            id: [3, 1, 2, 0]
            codes:
              \(codes)
            absinfo:
              0: [0, 100, 0, 0, 10]
            properties: []
          events:
          - evdev:
        \(events)

        """
    }

    @Test func quotedNamesAreUnescapedAndStrayBackslashesKept() throws {
        let yaml = Self.minimal(events: "    - [0, 5, 1, 330, 1]")
            .replacingOccurrences(of: "name: \"Pad\"", with: #"name: "Pad \"X\" C:\dev # not a comment""#)
        let recording = try LibinputRecordParser.parse(text: yaml)
        #expect(recording.description.name == #"Pad "X" C:\dev # not a comment"#)
    }

    @Test func namesAndMappingsInCodesAreAccepted() throws {
        let yaml = Self.minimal(events: "    - [0, 5, 1, 330, 1]", codes: "EV_KEY: {BTN_TOUCH: 1, 325: 1}")
        let recording = try LibinputRecordParser.parse(text: yaml)
        #expect(recording.description.keys == [330, 325])
        #expect(recording.events == [TimedEvent(time: Instant(microseconds: 5), event: InputEvent(type: 1, code: 330, value: 1))])
    }

    @Test(arguments: [
        ("    - [0, 5, 1, 330]", "found 4 value(s)"),
        ("    - [0, 5, 1, 330, 1, 2]", "found 6 value(s)"),
        ("    - [0, 1000000, 1, 330, 1]", "microseconds"),
        ("    - [0, 5, 1, 330, 2147483648]", "32 bits"),
        ("    - [0, 5, 1, 99999999999999999999, 1]", "must be an integer"),
        ("    - [0, 5, 1, 70000, 1]", "0...65535"),
        ("    - [0, 5, 32, 0, 1]", "EV_MAX"),
        ("    - [0, 5, x, 0, 1]", "must be an integer"),
        ("    - 17", "must be [sec, usec, type, code, value]"),
        ("    - [0, 5, 1, 330, 1", "truncated"),
        ("    - [0, 5, 1, 330, 1]]", "unmatched"),
        ("    - [0, 5, 1, 330, \"1]", "unterminated quoted string"),
    ])
    func malformedEventsNameLine15(event: String, expected: String) {
        let error = errorOf(Self.minimal(events: event))
        #expect(error?.line == 15, "\(event): \(String(describing: error))")
        #expect(error?.message.contains(expected) == true, "\(event): \(String(describing: error))")
    }

    @Test func malformedDescriptionsAreErrors() {
        #expect(errorOf("version: 2\ndevices: []\n")?.message.contains("unsupported libinput record version 2") == true)
        #expect(errorOf("version: 1\nndevices: 0\n")?.message.contains("no \"devices:\"") == true)
        #expect(errorOf("version: 1\ndevices: []\n")?.message.contains("non-empty list") == true)
        #expect(errorOf(Self.minimal(events: "", codes: "1: [BTN_NOPE]"))?.line == 9)
        #expect(errorOf(Self.minimal(events: "", codes: "1: [ABS_X]"))?.message.contains("not a code of EV_KEY") == true)
        let badAbsinfo = Self.minimal(events: "").replacingOccurrences(of: "[0, 100, 0, 0, 10]", with: "[0, 100, 0]")
        #expect(errorOf(badAbsinfo)?.line == 11)
        let tabs = Self.minimal(events: "").replacingOccurrences(of: "    name:", with: "\tname:")
        #expect(errorOf(tabs)?.message.contains("tab") == true)
        let badIndent = Self.minimal(events: "").replacingOccurrences(of: "    properties: []", with: "       properties: []")
        #expect(errorOf(badIndent)?.line == 12)
    }

    @Test func aFileThatIsNeitherFormatIsRejectedOnItsFirstLine() {
        #expect {
            _ = try Recording.load(text: "\n\n<html><body>404</body></html>\n")
        } throws: { error in
            (error as? RecordingError).map { $0.line == 3 && $0.message.contains("not a recording") } ?? false
        }
    }
}
