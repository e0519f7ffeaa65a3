import Foundation
import Testing
import FlickCore
import FlickTools
import FlickTestSupport

// MARK: - libinput record

@Suite struct LibinputRecordTests {
    @Test func theFixtureIsRecognisedAsLibinputRecord() {
        #expect(Recording.format(of: LibinputRecordSamples.twoFingerScroll) == .libinputRecord)
        #expect(Recording.format(of: "version: 1\ndevices: []\n") == .libinputRecord)
        #expect(Recording.format(of: "# EVEMU 1.3\nN: pad\n") == .evemu)
        #expect(Recording.format(of: "") == .evemu)
        #expect(Recording.format(of: "<html>") == nil)
    }

    @Test func twoFingerScrollDescription() throws {
        let recording = try Recording.load(text: LibinputRecordSamples.twoFingerScroll)
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

    /// A pad without a resolution is read as libinput read it where it was recorded: with the
    /// resolution hint among the device's `quirks:`, else its size hint; never over a
    /// resolution the kernel reports.
    @Test func aDeviceWithoutAResolutionGetsTheRecordedQuirk() throws {
        let unresolved = LibinputRecordSamples.twoFingerScroll
            .replacingOccurrences(of: ", 0, 0, 45]", with: ", 0, 0, 0]")
            .replacingOccurrences(of: ", 0, 0, 68]", with: ", 0, 0, 0]")
        func quirks(_ lines: [String], in text: String = unresolved) -> String {
            text.replacingOccurrences(of: "- ModelLenovoT450Touchpad=1",
                                      with: (["- ModelLenovoT450Touchpad=1"] + lines.map { "- " + $0 }).joined(separator: "\n  "))
        }
        let both = try Recording.load(text: quirks(["AttrSizeHint=100x70", "AttrResolutionHint=31x31", "AttrPressureRange=10:8"]))
        #expect(both.resolutionQuirk == "AttrResolutionHint=31x31", "a resolution hint before a size hint, wherever it is listed")
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            #expect(both.description.absoluteAxes[code]?.resolution == 31)
        }
        #expect(both.events.count == 15 + 6 * 6 + 7 + 5, "the events are read as before")

        let size = try Recording.load(text: quirks(["AttrSizeHint=100x70"]))
        #expect(size.resolutionQuirk == "AttrSizeHint=100x70")
        #expect(size.description.absoluteAxes[EventCode.absMTPositionX]?.resolution == 44, "4410 / 100, in whole units")
        #expect(size.description.absoluteAxes[EventCode.absMTPositionY]?.resolution == 52, "3662 / 70")

        let none = try Recording.load(text: unresolved)
        #expect(none.resolutionQuirk == nil)
        #expect(DeviceGeometry(description: none.description, kind: .touchpad).x.isEstimated, "69 x 50 mm, as before")
        #expect(try Recording.load(text: quirks(["AttrResolutionHint=0x31", "AttrSizeHint=wide"])).resolutionQuirk == nil,
                "a malformed hint is skipped")

        let kernel = try Recording.load(text: quirks(["AttrResolutionHint=31x31"], in: LibinputRecordSamples.twoFingerScroll))
        #expect(kernel.resolutionQuirk == nil)
        #expect(kernel.description.absoluteAxes[EventCode.absMTPositionX]?.resolution == 45, "the kernel's resolution is kept")
    }

    @Test func twoFingerScrollEventsInFileOrderWithoutLibinputEvents() throws {
        let recording = try Recording.load(text: LibinputRecordSamples.twoFingerScroll)
        #expect(recording.events.count == 15 + 6 * 6 + 7 + 5)
        #expect(recording.events.first == TimedEvent(time: .zero, event: InputEvent(type: 3, code: 47, value: 0)))
        #expect(recording.events[1].event == InputEvent(type: 3, code: 57, value: 101))
        #expect(recording.events[15] == TimedEvent(time: Instant(microseconds: 12_034), event: InputEvent(type: 3, code: 47, value: 0)))
        #expect(recording.events.last == TimedEvent(time: Instant(microseconds: 95_140), event: InputEvent(type: 0, code: 0, value: 0)))
        let lifts = recording.events.filter { $0.event == InputEvent(type: 3, code: 57, value: -1) }.map(\.time)
        #expect(lifts == [Instant(microseconds: 84_133), Instant(microseconds: 95_140)])
        #expect(zip(recording.events, recording.events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func everyMidLineCutOfTheFixtureIsAnErrorOnTheCutLine() {
        let text = LibinputRecordSamples.twoFingerScroll
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
                // An event cut in its comment, after its "]", is whole.
                let whole = bytes[firstContent..<cut].starts(with: Array("- [".utf8)) && bytes[firstContent..<cut].contains(UInt8(ascii: "]"))
                do {
                    let recording = try Recording.load(text: truncated)
                    if whole {
                        #expect(recording.events.last?.time == (try Recording.load(text: String(decoding: bytes[..<index], as: UTF8.self))).events.last?.time)
                    } else {
                        Issue.record("cut at byte \(cut) (line \(expectedLine)) parsed")
                    }
                } catch {
                    #expect(!whole, "cut at byte \(cut) (line \(expectedLine)): \(error)")
                    #expect(error.line == expectedLine, "cut at byte \(cut): \(error)")
                }
                cuts += 1
            }
            lineStart = index + 1
        }
        #expect(cuts > 100)
    }

    /// A complete file that lost only its final newline: a last event whose `]` is there
    /// (whatever is left of its comment), and the comment libinput closes a touch with, are
    /// whole; what is cut before the `]` is not.
    @Test func aCompleteLastLineWithoutItsNewlineIsAccepted() throws {
        let complete = LibinputRecordSamples.twoFingerScroll
        let events = try Recording.load(text: complete).events
        let withoutNewline = String(complete.dropLast())
        #expect(withoutNewline.hasSuffix("# Touch device in neutral state"))
        #expect(try Recording.load(text: withoutNewline).events == events)
        let lastEvent = String(complete[..<complete.range(of: "\n", options: .backwards, range: complete.startIndex..<complete.index(before: complete.endIndex))!.lowerBound])
        #expect(lastEvent.hasSuffix("+11ms"))
        #expect(try Recording.load(text: lastEvent).events == events)
        #expect(try Recording.load(text: String(lastEvent.dropLast(30))).events == events, "a comment cut short")
        #expect(try LibinputRecordParser.parse(text: Self.minimal(events: "    - [0, 5, 1, 330, 1]").dropLast() + "").events.count == 1)
        for cut in ["    - [0, 5, 1, 330, 1", "    - [0, 5, 1, 330, 1] x", "    - [0, 5, 1, 330, 1]]"] {
            let error = errorOf(Self.minimal(events: cut).dropLast() + "")
            #expect(error?.line == 15, "\(cut): \(String(describing: error))")
        }
    }

    @Test func truncatedInsideAnEventArray() {
        let cut = LibinputRecordSamples.twoFingerScroll.range(of: "- [  0,  48088,   3,  54,    31")!.upperBound
        let truncated = String(LibinputRecordSamples.twoFingerScroll[..<cut])
        let line = truncated.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect {
            _ = try Recording.load(text: truncated)
        } throws: { error in
            guard let error = error as? RecordingError else { return false }
            return error.line == line && error.message.contains("truncated")
        }
    }

    // MARK: Times before the first event

    /// `libinput record` with several devices: each event's time less the recording's start,
    /// computed unsigned, so an event 1 ms before the start is written as 2⁶⁴ − 1000 µs.
    @Test func aTimeBeforeTheStartIsReadAsNegative() throws {
        for event in ["    - [18446744073709, 550616,   3,  57,  12]", "    - [-1, 999000, 3, 57, 12]"] {
            let recording = try LibinputRecordParser.parse(text: Self.minimal(events: event))
            #expect(recording.events == [TimedEvent(time: Instant(microseconds: -1000), event: InputEvent(type: 3, code: 57, value: 12))],
                    "\(event)")
        }
        // Past the largest seconds but no wrapped negative time: still an error.
        #expect(errorOf(Self.minimal(events: "    - [9223372036854, 0, 3, 57, 12]"))?.message.contains("seconds 9223372036854 out of range") == true)
        #expect(errorOf(Self.minimal(events: "    - [-1000000000000, 0, 3, 57, 12]"))?.message.contains("out of range") == true)
    }

    /// A touchpad whose first frames came before the recording's start (another device's event
    /// started the clock) replays as the same touchpad recorded from zero: its first frame is
    /// the replay's start, and the frames stay in order.
    @Test func aRecordingThatStartsBeforeZeroReplaysAsFromZero() throws {
        let shift: Int64 = -30_000
        var shifted = ""
        for line in LibinputRecordSamples.twoFingerScroll.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let open = line.range(of: "- [  0, "), let comma = line[open.upperBound...].firstIndex(of: ",") else {
                shifted += line + "\n"
                continue
            }
            let microseconds = Int64(line[open.upperBound..<comma].trimmingCharacters(in: .whitespaces))! + shift
            // As libinput prints it: the unsigned difference, split into seconds and microseconds.
            let unsigned = UInt64(bitPattern: microseconds)
            shifted += line[..<open.lowerBound] + "- [\(unsigned / 1_000_000), \(unsigned % 1_000_000)" + line[comma...] + "\n"
        }
        shifted.removeLast()
        #expect(shifted.contains("- [18446744073709, 521616,"), "−30 ms as libinput writes it")
        let early = try Recording.load(text: shifted)
        let alone = try Recording.load(text: LibinputRecordSamples.twoFingerScroll)
        #expect(early.events.map { $0.time.microseconds } == alone.events.map { $0.time.microseconds + shift })
        let replay = Replay(early, configuration: Configuration())
        let expected = Replay(alone, configuration: Configuration())
        #expect(replay.gestures == expected.gestures && replay.gestures == 1)
        #expect(replay.emitted == expected.emitted, "times are since the first frame, at -30 ms")
        #expect(replay.coasts.map(\.time) == expected.coasts.map(\.time))
        #expect(replay.noCoasts.map(\.time) == expected.noCoasts.map(\.time))
    }

    // MARK: Several devices

    /// `libinput record --all` on a laptop: the keyboard comes first, the touchpad second. The
    /// touchpad is replayed, with its own events only.
    @Test func aKeyboardListedBeforeTheTouchpadIsNotReplayed() throws {
        let alone = try Recording.load(text: LibinputRecordSamples.twoFingerScroll)
        let recording = try Recording.load(text: LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], count: 2))
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.description.kind == .touchpad)
        #expect(recording.events == alone.events, "the touchpad's events, none of the keyboard's")
        #expect(recording.otherTouchDevices.isEmpty)
        #expect(recording.resolutionQuirk == alone.resolutionQuirk)
    }

    /// Two touch devices: the one with the most frames is replayed wherever it is listed (a
    /// screen touched once listed first is not), and the other is named so the replay can say
    /// it was left out.
    @Test func ofTwoTouchDevicesTheBusierIsReplayedAndTheOtherNamed() throws {
        let alone = try Recording.load(text: LibinputRecordSamples.twoFingerScroll)
        let padFirst = try Recording.load(text: LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], after: [LibinputRecordSamples.touchscreen], count: 3))
        #expect(padFirst.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(padFirst.otherTouchDevices.map(\.description) == ["ELAN Touchscreen (/dev/input/event9)"])

        let screenFirst = try Recording.load(text: LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.touchscreen, LibinputRecordSamples.keyboard], count: 3))
        #expect(screenFirst.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(screenFirst.events == alone.events, "the touchpad's events, none of the screen's")
        #expect(screenFirst.otherTouchDevices.map(\.description) == ["ELAN Touchscreen (/dev/input/event9)"])

        // The touchpad idle (an empty events: list): the screen, touched once, is the busier.
        let idlePad = LibinputRecordSamples.twoFingerScroll.components(separatedBy: "  events:\n")[0] + "  events:\n"
        #expect(idlePad.count < LibinputRecordSamples.twoFingerScroll.count)
        let screenBusier = try Recording.load(text: (idlePad + LibinputRecordSamples.touchscreen)
            .replacingOccurrences(of: "ndevices: 1\n", with: "ndevices: 2\n"))
        #expect(screenBusier.description.name == "ELAN Touchscreen")
        #expect(screenBusier.description.kind == .touchscreen)
        #expect(screenBusier.events.count == 5 && screenBusier.events.first?.time == Instant(microseconds: 200_000))
        #expect(screenBusier.otherTouchDevices.map(\.description) == ["SynPS/2 Synaptics TouchPad (/dev/input/event5)"])
    }

    /// A convertible's pen digitizer listed beside its touchpad, and busier (a stroke of 30
    /// frames): it sets INPUT_PROP_DIRECT and BTN_TOUCH as a touchscreen does, but udev and
    /// libinput read it as a tablet, so the touchpad is replayed and the pen is not named among
    /// the other touch devices. flickd took the pen for a touchscreen and replayed its stroke.
    @Test func aPenListedBesideTheTouchpadIsNotReplayed() throws {
        var pen = """
            - node: /dev/input/event12
              evdev:
                name: "Wacom HID 5218 Pen"
                id: [24, 1386, 21016, 256]
                codes:
                  1: [320, 321, 330, 331, 332] # EV_KEY
                  3: [0, 1, 24, 26, 27] # EV_ABS
                absinfo:
                  0: [0, 25978, 0, 0, 100]
                  1: [0, 14612, 0, 0, 100]
                  24: [0, 4095, 0, 0, 0]
                  26: [-9000, 9000, 0, 0, 57]
                  27: [-9000, 9000, 0, 0, 57]
                properties: [1]
              events:

            """
        for frame in 0..<30 {
            let time = 100_000 + 5000 * frame
            pen += "      - evdev:\n"
            if frame == 0 {
                pen += "        - [  0, \(time),   1, 320,       1]\n        - [  0, \(time),   1, 330,       1]\n"
            }
            pen += "        - [  0, \(time),   3,   1, \(5000 + 100 * frame)]\n        - [  0, \(time),   0,   0,       0]\n"
        }
        let alone = try Recording.load(text: LibinputRecordSamples.twoFingerScroll)
        for (before, after) in [([pen], [String]()), ([], [pen])] {
            let recording = try Recording.load(text: LibinputRecordSamples.withDevices(before: before, after: after, count: 2))
            #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
            #expect(recording.events == alone.events, "the touchpad's events, none of the pen's")
            #expect(recording.otherTouchDevices.isEmpty, "\(recording.otherTouchDevices.map(\.description))")
        }
        let penOnly = try Recording.load(text: LibinputRecordSamples.withDevices(before: [pen], count: 2), device: "/dev/input/event12")
        #expect(penOnly.events.count == 30 * 2 + 2, "the pen's stroke, read: it is the busier device")
        #expect(penOnly.description.kind == nil)
    }

    /// The busier device is the one with more evdev frames (SYN_REPORTs): a touchscreen's
    /// hidraw and empty libinput entries count for nothing.
    @Test func onlyEvdevFramesCountTowardTheBusierDevice() throws {
        let entries = String(repeating: "  - hid:\n    - {time: 0.3, node: hidraw0, data: [1, 2]}\n  - libinput:\n", count: 10)
        let screen = LibinputRecordSamples.touchscreen + entries
        let recording = try Recording.load(text: LibinputRecordSamples.withDevices(before: [screen], count: 2))
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.node == "/dev/input/event5")
        #expect(recording.otherTouchDevices.map(\.description) == ["ELAN Touchscreen (/dev/input/event9)"])
    }

    /// `--device NODE` replays the device of that node, whatever its frames; a node the file
    /// does not list is an error that lists the ones it does.
    @Test func aDeviceChosenByNodeIsReplayed() throws {
        let text = LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], after: [LibinputRecordSamples.touchscreen], count: 3)
        let screen = try Recording.load(text: text, device: "/dev/input/event9")
        #expect(screen.description.name == "ELAN Touchscreen" && screen.node == "/dev/input/event9")
        #expect(screen.events.count == 5)
        #expect(screen.otherTouchDevices.map(\.description) == ["SynPS/2 Synaptics TouchPad (/dev/input/event5)"])
        let keyboard = try Recording.load(text: text, device: "/dev/input/event3")
        #expect(keyboard.description.name == "AT Translated Set 2 keyboard")
        #expect(throws: RecordingError(line: 12, message: "no device /dev/input/event7 in the recording; it lists /dev/input/event3, /dev/input/event5, /dev/input/event9")) {
            try Recording.load(text: text, device: "/dev/input/event7")
        }
        #expect(throws: RecordingError(line: 1, message: "--device chooses among the devices of a libinput record file; an evemu recording holds one")) {
            try Recording.load(text: "N: pad\nE: 0.000000 0000 0000 0000\n", device: "/dev/input/event7")
        }
    }

    /// An idle touchscreen listed before the touchpad (node order often puts it first): the
    /// touchpad, which has the events, is replayed, and the screen named.
    @Test func aTouchDeviceWithoutEventsListedFirstIsNotTheOneReplayed() throws {
        let idleScreen = LibinputRecordSamples.touchscreen.components(separatedBy: "  events:\n")[0] + "  events:\n"
        #expect(!idleScreen.contains("- evdev"))
        let recording = try Recording.load(text: LibinputRecordSamples.withDevices(before: [idleScreen], count: 2))
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.events == (try Recording.load(text: LibinputRecordSamples.twoFingerScroll)).events)
        #expect(recording.otherTouchDevices.map(\.description) == ["ELAN Touchscreen (/dev/input/event9)"])
    }

    /// A keyboard listed before a pad libinput rejects (ABS_MT_POSITION_X of no width): the pad
    /// is replayed, and the replay says why it is not read, rather than the keyboard's "no
    /// touch positions".
    @Test func aPadLibinputRejectsIsReplayedBeforeAKeyboard() throws {
        let rejected = LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], count: 2)
            .replacingOccurrences(of: "53: [1266, 5676, 0, 0, 45]", with: "53: [1266, 1266, 0, 0, 45]")
        let recording = try Recording.load(text: rejected)
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.description.rangeProblem?.hasPrefix("ABS_MT_POSITION_X has min == max (1266)") == true)
        #expect(recording.otherTouchDevices.isEmpty)
    }

    /// A file with no touch device replays its first device, which the replay reports as not
    /// read for gestures (rather than refusing the file).
    @Test func withoutATouchDeviceTheFirstDeviceIsRead() throws {
        let onlyKeyboard = LibinputRecordSamples.twoFingerScroll.components(separatedBy: "devices:\n")[0] + "devices:\n" + LibinputRecordSamples.keyboard
        let recording = try Recording.load(text: onlyKeyboard)
        #expect(recording.description.name == "AT Translated Set 2 keyboard")
        #expect(recording.description.kind == nil)
        #expect(recording.events.count == 3)
    }

    /// `ndevices:` counts the devices listed: a file cut between two devices (or edited) is an
    /// error on the `ndevices:` line, not a replay of whichever device is left.
    @Test func aDeviceCountThatDiffersFromTheListIsAnError() {
        for (text, written, listed) in [(LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], count: 3), 3, 2),
                                        (LibinputRecordSamples.withDevices(count: 2), 2, 1),
                                        (LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], count: 1), 1, 2)] {
            let error = errorOf(text)
            #expect(error?.line == 3, "\(String(describing: error))")
            #expect(error?.message.hasPrefix("ndevices: \(written), but the \"devices:\" list (from line 12) holds \(listed):") == true,
                    "\(String(describing: error))")
        }
        #expect(errorOf(LibinputRecordSamples.withDevices(count: 1).replacingOccurrences(of: "ndevices: 1", with: "ndevices: two"))?
            .message.contains("ndevices must be an integer") == true)
    }

    /// `libinput record --autorestart` with several devices ends the first device's events with
    /// "# Closing after Ns inactivity" and no newline, so the next device starts on that line.
    /// That device is read as its own entry, and lines are still the file's.
    @Test func aDeviceAfterTheAutorestartCommentIsReadAsItsOwnEntry() throws {
        let touchpad = "- node: /dev/input/event5\n"
        let text = LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], count: 2)
            .replacingOccurrences(of: touchpad, with: "# Closing after 2s inactivity" + touchpad)
        #expect(text.contains("# Closing after 2s inactivity- node: /dev/input/event5\n"))
        let recording = try Recording.load(text: text)
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.events == (try Recording.load(text: LibinputRecordSamples.twoFingerScroll)).events)

        // A line after the split is named as the file numbers it.
        let broken = text.replacingOccurrences(of: "- [  0,  24051,   3,  47,       0]", with: "- [  0,  24051,   3,  47]")
        let line = broken.components(separatedBy: "\n").firstIndex { $0.contains("- [  0,  24051,   3,  47]") }! + 1
        let error = errorOf(broken)
        #expect(error?.line == line && error?.message.contains("found 4 value(s)") == true, "line \(line): \(String(describing: error))")
        // Another comment swallows what follows it, as YAML reads it: the device's keys are
        // read as the keyboard's second ones, which is the error, not the device count.
        let other = LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], count: 2)
            .replacingOccurrences(of: touchpad, with: "# Closing soon" + touchpad)
        #expect(errorOf(other)?.message.hasPrefix("\"evdev\" twice in one mapping") == true, "\(String(describing: errorOf(other)))")
    }

    /// A key twice in one device entry (a device's lines run together, or an edit) is an error
    /// naming both lines, never the first one read and the second dropped.
    @Test func aKeyTwiceInADeviceIsAnError() {
        let twice = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(of: "  quirks:\n", with: "  evdev:\n    name: \"Other\"\n  quirks:\n")
        let first = twice.components(separatedBy: "\n").firstIndex { $0 == "  evdev:" }! + 1
        let second = twice.components(separatedBy: "\n").lastIndex { $0 == "  evdev:" }! + 1
        let error = errorOf(twice)
        #expect(error?.line == second, "\(String(describing: error))")
        #expect(error?.message.contains("\"evdev\" twice") == true && error?.message.contains("line \(first)") == true,
                "\(String(describing: error))")
        let nested = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(of: "      1: [1096, 4758, 0, 0, 68]\n",
                                                                                 with: "      1: [1096, 4758, 0, 0, 68]\n      0: [0, 1, 0, 0, 0]\n")
        #expect(errorOf(nested)?.message.contains("\"0\" twice") == true, "\(String(describing: errorOf(nested)))")
    }

    /// With several devices and `--with-libinput`, libinput's own events can land in an
    /// `evdev:` list: they are skipped there as in a `libinput:` list; any other mapping is not.
    @Test func libinputEventsInsideAnEvdevListAreSkipped() throws {
        let text = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(
            of: "  - evdev:\n    - [  0,  24051,",
            with: "  - evdev:\n    - {time: 0.190000, type: GESTURE_HOLD_BEGIN, nfingers: 2}\n    - [  0,  24051,")
        #expect(text != LibinputRecordSamples.twoFingerScroll)
        #expect(try Recording.load(text: text).events == (try Recording.load(text: LibinputRecordSamples.twoFingerScroll)).events)
        // Its device notices, which carry no time, too (libinput writes the seat names padded).
        for notice in ["{type: DEVICE_ADDED, seat: seat0, logical_seat: default}", "{type: DEVICE_REMOVED, seat: seat0, logical_seat: default}"] {
            let noticed = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(
                of: "  - evdev:\n    - [  0,  24051,", with: "  - evdev:\n    - \(notice)\n    - [  0,  24051,")
            #expect(noticed != LibinputRecordSamples.twoFingerScroll)
            #expect(try Recording.load(text: noticed).events == (try Recording.load(text: LibinputRecordSamples.twoFingerScroll)).events, "\(notice)")
        }
        for other in ["{type: GESTURE_HOLD_BEGIN}", "{type: DEVICE_GONE}", "{time: 0.19}", "{sec: 0, usec: 5}"] {
            let error = errorOf(Self.minimal(events: "    - \(other)"))
            #expect(error?.line == 15 && error?.message.contains("found a mapping") == true, "\(other): \(String(describing: error))")
        }
    }

    /// libinput record always writes a device's `events:`, if empty: a file that ends before it
    /// (inside the description, quirks or udev properties) was cut, and is an error on the
    /// device's line, not a replay of no events.
    @Test func aDeviceWithoutItsEventsListIsCutShort() {
        for end in ["  events:\n", "  quirks:\n", "      57: [0, 65535, 0, 0, 0]\n"] {
            let cut = String(LibinputRecordSamples.twoFingerScroll.components(separatedBy: end)[0])
            let error = errorOf(cut)
            #expect(error?.line == 12, "cut before \(end): \(String(describing: error))")
            #expect(error?.message == "the device /dev/input/event5 has no \"events:\" list, which libinput record always writes: the recording was cut short?",
                    "cut before \(end): \(String(describing: error))")
        }
        // Cut in a second device: that one is named.
        let second = LibinputRecordSamples.withDevices(after: [LibinputRecordSamples.touchscreen.components(separatedBy: "  events:\n")[0]], count: 2)
        #expect(errorOf(second)?.message.hasPrefix("the device /dev/input/event9 has no") == true, "\(String(describing: errorOf(second)))")
    }

    @Test func truncatedAtALineBoundaryKeepsTheEventsSoFar() throws {
        // A recording stopped between lines is a shorter recording, not an error.
        let cut = LibinputRecordSamples.twoFingerScroll.range(of: "  - evdev:\n    - [  0,  84133")!.lowerBound
        let recording = try Recording.load(text: String(LibinputRecordSamples.twoFingerScroll[..<cut]))
        #expect(recording.events.count == 15 + 6 * 6)
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

    /// libinput record prints a name between quotes as it is, quotes and all: on a `name:` line
    /// whose quoted text holds a bare quote, the last quote closes it and the text is the name
    /// as written, backslashes too. The rest of the file is read as before.
    @Test(arguments: [
        (#"Bob's "Work" Keyboard"#, #"Bob's "Work" Keyboard"#),
        (#""Quoted" C:\x41 \"#, #""Quoted" C:\x41 \"#),
        (#"a " b"#, #"a " b"#),
    ])
    func bareQuotesInANameAreKept(written: String, read: String) throws {
        let yaml = Self.minimal(events: "    - [0, 5, 1, 330, 1]").replacingOccurrences(of: "name: \"Pad\"", with: "name: \"\(written)\"")
        let recording = try LibinputRecordParser.parse(text: yaml)
        #expect(recording.description.name == read)
        #expect(recording.events.count == 1)
    }

    /// libinput record prints names between quotes as they are: a backslash that starts no
    /// YAML escape is part of the name; one that does is read as the escape.
    @Test(arguments: [
        (#"Pad \\ two \"q\" \t"#, "Pad \\ two \"q\" \t"),
        (#"C:\dev \x4g \x41 \u00e9 \u00zz \q"#, #"C:\dev \x4g A é \u00zz \q"#),
    ])
    func strayBackslashesInQuotedNamesAreKept(written: String, read: String) throws {
        let yaml = Self.minimal(events: "    - [0, 5, 1, 330, 1]").replacingOccurrences(of: "name: \"Pad\"", with: "name: \"\(written)\"")
        #expect(try LibinputRecordParser.parse(text: yaml).description.name == read)
    }

    /// `libinput record --autorestart` ends its file with a comment and no newline; any other
    /// last line without one is a cut.
    @Test func aLastCommentWithoutItsNewlineIsNoCut() throws {
        let yaml = Self.minimal(events: "    - [0, 5, 1, 330, 1]\n    - [0, 5, 0, 0, 0]") + "# Closing after 5s inactivity"
        #expect(try LibinputRecordParser.parse(text: yaml).events.count == 2)
        #expect(errorOf(Self.minimal(events: "    - [0, 5, 1, 330, 1]\n    - [0, 5, 0, 0, 0]").dropLast(2) + "")?.message.contains("truncated") == true)
    }

    /// YAML breaks lines at a lone carriage return and at U+0085, U+2028 and U+2029 too; an
    /// error still names the line an editor shows (found by the recording fuzz target: libyaml
    /// counted one line more than the text had).
    @Test(arguments: ["\r", "\u{85}", "\u{2028}", "\u{2029}"])
    func otherLineBreaksDoNotShiftTheLines(lineBreak: String) {
        let yaml = Self.minimal(events: "    - [0, 5, 1, 330, 1]]").replacingOccurrences(of: "name: \"Pad\"", with: "name: \"Pad\(lineBreak)X\"")
        #expect(errorOf(yaml).map { $0.line == 15 && $0.message.hasPrefix("YAML: did not find expected key") } == true,
                "\(String(describing: errorOf(yaml)))")
        let cutInABracket = Self.minimal(events: "    - [0, 5, 1, 330,").replacingOccurrences(of: "ndevices: 1", with: "ndevices: 1 \(lineBreak)")
        #expect(errorOf(cutInABracket).map { $0.line == 15 && $0.message.contains("truncated") } == true, "\(String(describing: errorOf(cutInABracket)))")
    }

    /// A character YAML does not allow (a control character) is libyaml's reader error, which
    /// has no line of its own: the error names the file's line and the character.
    @Test func aControlCharacterIsNamedOnItsLine() {
        let inName = Self.minimal(events: "    - [0, 5, 1, 330, 1]").replacingOccurrences(of: "name: \"Pad\"", with: "name: \"Pad\u{07}X\"")
        let error = errorOf(inName)
        #expect(error?.line == 6, "\(String(describing: error))")
        #expect(error?.message == "YAML: control characters are not allowed: byte 0x07", "\(String(describing: error))")
        // After a line split in two for libyaml (the autorestart comment) and a backslash doubled.
        let touchpad = "- node: /dev/input/event5\n"
        let split = LibinputRecordSamples.withDevices(before: [LibinputRecordSamples.keyboard], count: 2)
            .replacingOccurrences(of: touchpad, with: "# Closing after 2s inactivity" + touchpad)
            .replacingOccurrences(of: "name: \"SynPS/2 Synaptics TouchPad\"", with: "name: \"SynPS/2 \\Synaptics TouchPad\"")
            .replacingOccurrences(of: "# EV_ABS / ABS_MT_POSITION_Y       2872 (+136)", with: "# EV_ABS / ABS_MT_POSITION_Y       2872 (+136)\u{1B}[31m")
        let line = split.components(separatedBy: "\n").firstIndex { $0.contains("\u{1B}") }! + 1
        let late = errorOf(split)
        #expect(late?.line == line && late?.message == "YAML: control characters are not allowed: byte 0x1B", "line \(line): \(String(describing: late))")
        let wide = errorOf(inName.replacingOccurrences(of: "\u{07}", with: "\u{FFFE}"))
        #expect(wide?.line == 6 && wide?.message == "YAML: control characters are not allowed: U+FFFE", "\(String(describing: wide))")
    }

    /// What libinput record never writes is an error at its line, never a wrong reading.
    @Test func aliasesKeysThatAreNotTextAndSecondDocumentsAreErrors() {
        let alias = Self.minimal(events: "    - &first [0, 5, 1, 330, 1]\n    - *first")
        #expect(errorOf(alias).map { $0.line == 16 && $0.message.contains("alias") } == true, "\(String(describing: errorOf(alias)))")
        let complexKey = Self.minimal(events: "    - [0, 5, 1, 330, 1]").replacingOccurrences(of: "properties: []", with: "? [1, 2]\n    : 3")
        #expect(errorOf(complexKey).map { $0.line == 12 && $0.message.contains("key") } == true, "\(String(describing: errorOf(complexKey)))")
        // libyaml starts the second document where the first one's content ends.
        let twoDocuments = Self.minimal(events: "    - [0, 5, 1, 330, 1]") + "---\nversion: 1\n"
        #expect(errorOf(twoDocuments).map { (16...17).contains($0.line) && $0.message.contains("second YAML document") } == true,
                "\(String(describing: errorOf(twoDocuments)))")
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
        ("    - [0, 5, 1, 99999999999999999999, 1]", "code 99999999999999999999 is too large"),
        ("    - [99999999999999999999, 0, 3, 57, 1]", "seconds 99999999999999999999 is too large"),
        ("    - [-99999999999999999999, 0, 3, 57, 1]", "seconds -99999999999999999999 is too large"),
        // Int64.min itself, which has no positive counterpart (abs would trap on it).
        ("    - [-9223372036854775808, 0, 3, 47, 0]", "seconds -9223372036854775808 out of range"),
        ("    - [-9223372036854775807, 0, 3, 47, 0]", "seconds -9223372036854775807 out of range"),
        ("    - [-1000000000000, 0, 3, 47, 0]", "seconds -1000000000000 out of range"),
        ("    - [0, 5, 1, 70000, 1]", "0...65535"),
        ("    - [0, 5, 32, 0, 1]", "EV_MAX"),
        ("    - [0, 5, x, 0, 1]", "must be an integer"),
        ("    - 17", "must be [sec, usec, type, code, value]"),
        ("    - [0, 5, 1, 330, 1", "truncated"),
        ("    - [0, 5, 1, 330, 1]]", "did not find expected key"),
        ("    - [0, 5, 1, 330, \"1]", "while scanning a quoted scalar: found unexpected end of stream"),
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

    /// A UTF-8 byte order mark (an editor's) before the first line is skipped.
    @Test func aByteOrderMarkIsSkipped() throws {
        let marked = "\u{FEFF}" + LibinputRecordSamples.twoFingerScroll
        #expect(Recording.format(of: marked) == .libinputRecord)
        #expect(try Recording.load(text: marked).events == (try Recording.load(text: LibinputRecordSamples.twoFingerScroll)).events)
        #expect(try LibinputRecordParser.parse(text: "\u{FEFF}" + Self.minimal(events: "    - [0, 5, 1, 330, 1]")).events.count == 1)
        let error = errorOf("\u{FEFF}" + Self.minimal(events: "    - [0, 5, 1, 330]"))
        #expect(error?.line == 15, "\(String(describing: error))")
    }

    @Test func aFileThatIsNeitherFormatIsRejectedOnItsFirstLine() {
        #expect {
            _ = try Recording.load(text: "\n\n<html><body>404</body></html>\n")
        } throws: { error in
            (error as? RecordingError).map { $0.line == 3 && $0.message.contains("not a recording") } ?? false
        }
    }

    /// The recording's udev tag is the kind the daemon read the device as: the pad tagged
    /// ID_INPUT_TOUCHSCREEN=1 is read as a touchscreen, by the parser and by the replay's
    /// engine; untagged (no `udev:` list), its capabilities decide.
    /// A device udev marks LIBINPUT_IGNORE_DEVICE (a touchscreen silenced for phantom touches)
    /// is one neither libinput nor the daemon opens: not the device replayed, even listed first
    /// with as many frames, nor one whose input would have stopped a coast.
    @Test func aDeviceLibinputIgnoresIsNotReplayed() throws {
        let text = LibinputRecordSamples.twoFingerScroll
        let start = text.range(of: "- node: /dev/input/event5\n")!.lowerBound
        let ignoredCopy = String(text[start...])
            .replacingOccurrences(of: "- node: /dev/input/event5\n", with: "- node: /dev/input/event9\n")
            .replacingOccurrences(of: "- ID_INPUT=1\n", with: "- LIBINPUT_IGNORE_DEVICE=1\n")
        #expect(ignoredCopy.contains("LIBINPUT_IGNORE_DEVICE=1"))
        let recording = try Recording.load(text: LibinputRecordSamples.withDevices(before: [ignoredCopy], count: 2))
        #expect(recording.node == "/dev/input/event5")
        #expect(!recording.otherDevices.contains { $0.device.node == "/dev/input/event9" })
        #expect(recording.otherTouchDevices.isEmpty)
        // Set to 0 it is read: the first listed of equals is replayed.
        let notIgnored = ignoredCopy.replacingOccurrences(of: "LIBINPUT_IGNORE_DEVICE=1", with: "LIBINPUT_IGNORE_DEVICE=0")
        #expect(try Recording.load(text: LibinputRecordSamples.withDevices(before: [notIgnored], count: 2)).node == "/dev/input/event9")
    }

    @Test func theRecordedUdevTagIsTheDevicesKind() throws {
        let retagged = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(of: "- ID_INPUT_TOUCHPAD=1", with: "- ID_INPUT_TOUCHSCREEN=1")
        let recording = try Recording.load(text: retagged)
        #expect(recording.udevKind == .touchscreen)
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        guard case .used(let kind, _) = Replay(recording, configuration: configuration).admission else {
            Issue.record("not read: \(Replay(recording, configuration: configuration).admission)")
            return
        }
        #expect(kind == .touchscreen)
        #expect(try Recording.load(text: LibinputRecordSamples.twoFingerScroll).udevKind == .touchpad)
        let untagged = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(of: "- ID_INPUT_TOUCHPAD=1\n", with: "")
        #expect(try Recording.load(text: untagged).udevKind == nil)
    }
}
