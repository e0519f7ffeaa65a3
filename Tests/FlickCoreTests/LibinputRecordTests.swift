import Foundation
import Testing
import FlickCore
import FlickTools
import FlickTestSupport

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

    /// A pad without a resolution is read as libinput read it where it was recorded: with the
    /// resolution hint among the device's `quirks:`, else its size hint; never over a
    /// resolution the kernel reports.
    @Test func aDeviceWithoutAResolutionGetsTheRecordedQuirk() throws {
        let unresolved = libinputRecordTwoFingerScroll
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
        #expect(both.events.count == 13 + 6 * 6 + 7 + 5, "the events are read as before")

        let size = try Recording.load(text: quirks(["AttrSizeHint=100x70"]))
        #expect(size.resolutionQuirk == "AttrSizeHint=100x70")
        #expect(size.description.absoluteAxes[EventCode.absMTPositionX]?.resolution == 44, "4410 / 100, in whole units")
        #expect(size.description.absoluteAxes[EventCode.absMTPositionY]?.resolution == 52, "3662 / 70")

        let none = try Recording.load(text: unresolved)
        #expect(none.resolutionQuirk == nil)
        #expect(DeviceGeometry(description: none.description, kind: .touchpad).x.isEstimated, "69 x 50 mm, as before")
        #expect(try Recording.load(text: quirks(["AttrResolutionHint=0x31", "AttrSizeHint=wide"])).resolutionQuirk == nil,
                "a malformed hint is skipped")

        let kernel = try Recording.load(text: quirks(["AttrResolutionHint=31x31"], in: libinputRecordTwoFingerScroll))
        #expect(kernel.resolutionQuirk == nil)
        #expect(kernel.description.absoluteAxes[EventCode.absMTPositionX]?.resolution == 45, "the kernel's resolution is kept")
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

    // MARK: Several devices

    /// A keyboard as `libinput record --all` lists it, with a key press of its own.
    private static let keyboard = """
        - node: /dev/input/event3
          evdev:
            # Name: AT Translated Set 2 keyboard
            name: "AT Translated Set 2 keyboard"
            id: [17, 1, 1, 43841]
            codes:
              0: [0, 1, 4, 17, 20] # EV_SYN
              1: [1, 2, 3, 30, 31, 32] # EV_KEY
              4: [4] # EV_MSC
            properties: []
          udev:
            properties:
            - ID_INPUT=1
            - ID_INPUT_KEY=1
          events:
          - evdev:
            - [  0,   5000,   4,   4,      30] # EV_MSC / MSC_SCAN                30 (obfuscated)
            - [  0,   5000,   1,  30,       1] # EV_KEY / KEY_A                    1 (obfuscated)
            - [  0,   5000,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +5ms

        """

    /// A touchscreen without a resolution, its one touch at 0.2 s.
    private static let touchscreen = """
        - node: /dev/input/event9
          evdev:
            name: "ELAN Touchscreen"
            id: [3, 1267, 16, 256]
            codes:
              1: [330] # EV_KEY
              3: [0, 1, 47, 53, 54, 57] # EV_ABS
            absinfo:
              0: [0, 3200, 0, 0, 0]
              1: [0, 1800, 0, 0, 0]
              47: [0, 9, 0, 0, 0]
              53: [0, 3200, 0, 0, 0]
              54: [0, 1800, 0, 0, 0]
              57: [0, 65535, 0, 0, 0]
            properties: [1]
          events:
          - evdev:
            - [  0, 200000,   3,  57,       7]
            - [  0, 200000,   3,  53,     100]
            - [  0, 200000,   3,  54,     100]
            - [  0, 200000,   1, 330,       1]
            - [  0, 200000,   0,   0,       0]

        """

    /// The two-finger scroll with `devices` listed around it and `ndevices` set to `count`.
    private static func withDevices(before: [String] = [], after: [String] = [], count: Int) -> String {
        let touchpad = "- node: /dev/input/event5\n"
        let start = libinputRecordTwoFingerScroll.range(of: touchpad)!.lowerBound
        var text = libinputRecordTwoFingerScroll
        text.insert(contentsOf: before.joined(), at: start)
        text += after.joined()
        return text.replacingOccurrences(of: "ndevices: 1\n", with: "ndevices: \(count)\n")
    }

    /// `libinput record --all` on a laptop: the keyboard comes first, the touchpad second. The
    /// touchpad is replayed, with its own events only.
    @Test func aKeyboardListedBeforeTheTouchpadIsNotReplayed() throws {
        let alone = try Recording.load(text: libinputRecordTwoFingerScroll)
        let recording = try Recording.load(text: Self.withDevices(before: [Self.keyboard], count: 2))
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.description.kind == .touchpad)
        #expect(recording.events == alone.events, "the touchpad's events, none of the keyboard's")
        #expect(recording.otherTouchDevices.isEmpty)
        #expect(recording.resolutionQuirk == alone.resolutionQuirk)
    }

    /// Two touch devices: the first listed is replayed, and the other is named so the replay
    /// can say it was left out.
    @Test func ofTwoTouchDevicesTheFirstIsReplayedAndTheOtherNamed() throws {
        let padFirst = try Recording.load(text: Self.withDevices(before: [Self.keyboard], after: [Self.touchscreen], count: 3))
        #expect(padFirst.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(padFirst.otherTouchDevices == ["ELAN Touchscreen (/dev/input/event9)"])

        let screenFirst = try Recording.load(text: Self.withDevices(before: [Self.touchscreen, Self.keyboard], count: 3))
        #expect(screenFirst.description.name == "ELAN Touchscreen")
        #expect(screenFirst.description.kind == .touchscreen)
        #expect(screenFirst.events.count == 5 && screenFirst.events.first?.time == Instant(microseconds: 200_000))
        #expect(screenFirst.otherTouchDevices == ["SynPS/2 Synaptics TouchPad (/dev/input/event5)"])
    }

    /// An idle touchscreen listed before the touchpad (node order often puts it first): the
    /// touchpad, which has the events, is replayed, and the screen named.
    @Test func aTouchDeviceWithoutEventsListedFirstIsNotTheOneReplayed() throws {
        let idleScreen = Self.touchscreen.components(separatedBy: "  events:\n")[0]
        #expect(!idleScreen.contains("events"))
        let recording = try Recording.load(text: Self.withDevices(before: [idleScreen], count: 2))
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.events == (try Recording.load(text: libinputRecordTwoFingerScroll)).events)
        #expect(recording.otherTouchDevices == ["ELAN Touchscreen (/dev/input/event9)"])
    }

    /// A keyboard listed before a pad libinput rejects (ABS_MT_POSITION_X of no width): the pad
    /// is replayed, and the replay says why it is not read, rather than the keyboard's "no
    /// touch positions".
    @Test func aPadLibinputRejectsIsReplayedBeforeAKeyboard() throws {
        let rejected = Self.withDevices(before: [Self.keyboard], count: 2)
            .replacingOccurrences(of: "53: [1266, 5676, 0, 0, 45]", with: "53: [1266, 1266, 0, 0, 45]")
        let recording = try Recording.load(text: rejected)
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.description.rangeProblem?.hasPrefix("ABS_MT_POSITION_X has min == max (1266)") == true)
        #expect(recording.otherTouchDevices.isEmpty)
    }

    /// A file with no touch device replays its first device, which the replay reports as not
    /// read for gestures (rather than refusing the file).
    @Test func withoutATouchDeviceTheFirstDeviceIsRead() throws {
        let onlyKeyboard = libinputRecordTwoFingerScroll.components(separatedBy: "devices:\n")[0] + "devices:\n" + Self.keyboard
        let recording = try Recording.load(text: onlyKeyboard)
        #expect(recording.description.name == "AT Translated Set 2 keyboard")
        #expect(recording.description.kind == nil)
        #expect(recording.events.count == 3)
    }

    /// `ndevices:` counts the devices listed: a file cut between two devices (or edited) is an
    /// error on the `ndevices:` line, not a replay of whichever device is left.
    @Test func aDeviceCountThatDiffersFromTheListIsAnError() {
        for (text, written, listed) in [(Self.withDevices(before: [Self.keyboard], count: 3), 3, 2),
                                        (Self.withDevices(count: 2), 2, 1),
                                        (Self.withDevices(before: [Self.keyboard], count: 1), 1, 2)] {
            let error = errorOf(text)
            #expect(error?.line == 3, "\(String(describing: error))")
            #expect(error?.message.hasPrefix("ndevices: \(written), but the \"devices:\" list (from line 12) holds \(listed):") == true,
                    "\(String(describing: error))")
        }
        #expect(errorOf(Self.withDevices(count: 1).replacingOccurrences(of: "ndevices: 1", with: "ndevices: two"))?
            .message.contains("ndevices must be an integer") == true)
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
        ("    - [0, 5, 1, 99999999999999999999, 1]", "must be an integer"),
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

    @Test func aFileThatIsNeitherFormatIsRejectedOnItsFirstLine() {
        #expect {
            _ = try Recording.load(text: "\n\n<html><body>404</body></html>\n")
        } throws: { error in
            (error as? RecordingError).map { $0.line == 3 && $0.message.contains("not a recording") } ?? false
        }
    }
}
