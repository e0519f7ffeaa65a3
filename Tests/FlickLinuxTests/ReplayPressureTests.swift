import FlickCore
import FlickTestSupport
import Foundation
import Testing

/// `flickd replay` counts a touchpad's fingers and palms by pressure as libinput did on the
/// machine a `libinput record` file was made on, from the quirks it lists for the pad; a
/// recording that lists none counts every contact, as before.
///
/// The recordings are the two-finger scroll of `LibinputRecordSamples` (a 0...255
/// ABS_MT_PRESSURE, both fingers landing at 0 s pressing `pressure`; its coast starts at
/// 0.095 s) with its `quirks:` list as given.
@Suite struct ReplayPressureTests {
    /// The scroll, its fingers pressing `pressure`, its quirks `quirks` (nil: no `quirks:` key).
    static func scroll(pressing pressure: Int, quirks: [String]?, firstPressing first: Int? = nil) -> String {
        let listed = quirks.map { ["  quirks:"] + $0.map { "  - " + $0 } } ?? []
        var text = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(
            of: "  quirks:\n  - ModelLenovoT450Touchpad=1\n", with: listed.map { $0 + "\n" }.joined())
        let line = "3,  58,      60]"
        let slot0 = text.range(of: line)!
        text.replaceSubrange(slot0, with: "3,  58, \(String(first ?? pressure).leftPadded(7))]")
        return text.replacingOccurrences(of: line, with: "3,  58, \(String(pressure).leftPadded(7))]")
    }

    static func replay(_ text: String, _ name: String, _ arguments: [String] = []) throws -> (text: String, summary: [String: Any]) {
        let path = try ReplayCommandTests.temporaryFile(name, text)
        defer { ReplayCommandTests.remove(path) }
        let plain = try ReplayCommandTests.run(["replay", path] + arguments)
        #expect(plain.status == 0, "\(plain.stderr)")
        let json = try ReplayCommandTests.run(["replay", path, "--json"] + arguments)
        #expect(json.status == 0, "\(json.stderr)")
        return (plain.stdout, try ReplayCommandTests.summary(json.stdout))
    }

    static func pressureLine(_ text: String) -> String? {
        text.split(separator: "\n").map(String.init).first { $0.hasPrefix("# pressure: ") }
    }

    @Test("recorded AttrPressureRange=10:8: fingers pressing 12 are fingers, and the flick coasts")
    func recordedRangeCountsLightFingers() throws {
        let (text, summary) = try Self.replay(Self.scroll(pressing: 12, quirks: ["ModelLenovoT450Touchpad=1", "AttrPressureRange=10:8"]), "range.yml")
        #expect(summary["gestures"] as? Int == 1 && (summary["coasts"] as? [Any])?.count == 1, "\(summary)")
        #expect(Self.pressureLine(text) == "# pressure: libinput's rule with the recorded quirks (AttrPressureRange=10:8): a finger from ABS_MT_PRESSURE 10 until below 8; a palm above 130",
                "\(text)")
        let pressure = try #require(summary["pressure"] as? [String: Any], "\(summary)")
        #expect(pressure["rule"] as? String == "recorded_quirks" && pressure["quirks"] as? [String] == ["AttrPressureRange=10:8"], "\(pressure)")
        let touch = try #require(pressure["touch"] as? [String: Any], "\(pressure)")
        #expect(touch["axis"] as? String == "ABS_MT_PRESSURE" && touch["high"] as? Int == 10 && touch["low"] as? Int == 8, "\(touch)")
        #expect(pressure["palm_threshold"] as? Int == 130, "\(pressure)")
    }

    @Test("an empty quirks list: libinput's default of 30 on 0...255; fingers pressing 12 are no fingers, nothing coasts")
    func emptyListIsTheDefaults() throws {
        let (text, summary) = try Self.replay(Self.scroll(pressing: 12, quirks: []), "empty.yml")
        #expect(summary["gestures"] as? Int == 0 && (summary["coasts"] as? [Any])?.isEmpty == true, "\(summary)")
        #expect(!text.contains("coast, release"), "\(text)")
        #expect(Self.pressureLine(text) == "# pressure: libinput's rule with the recorded quirks (none of pressure: the axis's defaults): a finger from ABS_MT_PRESSURE 30 until below 25; a palm above 130",
                "\(text)")
        let pressure = try #require(summary["pressure"] as? [String: Any], "\(summary)")
        #expect(pressure["quirks"] as? [String] == [] && (pressure["touch"] as? [String: Any])?["high"] as? Int == 30, "\(pressure)")
        // Pressing 60, the sample's, they are fingers by the defaults too.
        let firm = try Self.replay(Self.scroll(pressing: 60, quirks: []), "empty-firm.yml").summary
        #expect((firm["coasts"] as? [Any])?.count == 1, "\(firm)")
    }

    @Test("recorded AttrPalmPressureThreshold=200: fingers pressing 150 coast (over the default 130); one pressing 220 is a palm")
    func recordedPalmThreshold() throws {
        let threshold = ["AttrPalmPressureThreshold=200"]
        let firm = try Self.replay(Self.scroll(pressing: 150, quirks: threshold), "palm-firm.yml").summary
        #expect((firm["coasts"] as? [Any])?.count == 1, "\(firm)")
        // The same fingers under the default threshold are palms.
        let defaults = try Self.replay(Self.scroll(pressing: 150, quirks: []), "palm-default.yml").summary
        #expect((defaults["coasts"] as? [Any])?.isEmpty == true, "\(defaults)")
        // A palm over the recorded threshold beside one finger: no two-finger scroll.
        let palm = try Self.replay(Self.scroll(pressing: 60, quirks: threshold, firstPressing: 220), "palm.yml").summary
        #expect((palm["coasts"] as? [Any])?.isEmpty == true, "\(palm)")
        let below = try Self.replay(Self.scroll(pressing: 60, quirks: threshold, firstPressing: 199), "palm-below.yml").summary
        #expect((below["coasts"] as? [Any])?.count == 1, "\(below)")
    }

    @Test("a pad the recorded quirks make a pressure pad counts every contact, and says why")
    func recordedPressurePad() throws {
        let (text, summary) = try Self.replay(Self.scroll(pressing: 12, quirks: ["AttrEventCode=-ABS_MT_PRESSURE;-ABS_PRESSURE;"]), "pressurepad.yml")
        #expect((summary["coasts"] as? [Any])?.count == 1, "\(summary)")
        #expect(Self.pressureLine(text) == "# pressure: libinput's rule with the recorded quirks (AttrEventCode=-ABS_MT_PRESSURE;-ABS_PRESSURE;): every contact counts (libinput reads no pressure on this pad)",
                "\(text)")
        let pressure = try #require(summary["pressure"] as? [String: Any], "\(summary)")
        #expect(pressure["touch"] is NSNull && pressure["palm_threshold"] is NSNull, "\(pressure)")
    }

    @Test("the pressure note and the JSON list only the recorded quirks read for pressure, not every entry of their keys")
    func listsOnlyQuirksReadForPressure() throws {
        // 1.25.0: a BTN_RIGHT code and INPUT_PROP_PRESSUREPAD (read from 1.31) say nothing of pressure.
        let quirks = ["AttrEventCode=-BTN_RIGHT;", "AttrInputProp=+INPUT_PROP_PRESSUREPAD;", "AttrPressureRange=10:8"]
        let (text, summary) = try Self.replay(Self.scroll(pressing: 12, quirks: quirks), "listed.yml")
        #expect(Self.pressureLine(text)?.hasPrefix("# pressure: libinput's rule with the recorded quirks (AttrPressureRange=10:8): ") == true,
                "\(text)")
        let pressure = try #require(summary["pressure"] as? [String: Any], "\(summary)")
        #expect(pressure["quirks"] as? [String] == ["AttrPressureRange=10:8"], "\(pressure)")
        // Nothing of pressure left: the axis's defaults.
        let none = try Self.replay(Self.scroll(pressing: 60, quirks: ["AttrEventCode=-BTN_RIGHT;"]), "listed-none.yml")
        #expect(Self.pressureLine(none.text)?.contains("(none of pressure: the axis's defaults)") == true, "\(none.text)")
    }

    /// libinput record writes no slot's state, and the kernel drops a pressure equal to the
    /// slot's last: a finger landing as hard as its slot last pressed has no pressure event.
    /// Read from 0 it never touched, and the two-finger scroll never began.
    @Test("a finger whose slot reports no pressure since the recording began counts, as libinput counted it")
    func aFirstTouchWithoutPressureCounts() throws {
        var lines = Self.scroll(pressing: 12, quirks: ["AttrPressureRange=10:8"]).split(separator: "\n", omittingEmptySubsequences: false)
        let pressures = lines.indices.filter { lines[$0].contains("3,  58,") }
        try #require(pressures.count == 2, "\(lines)")
        // The second finger's: it lands in slot 1 pressing as slot 1 did before the recording.
        lines.remove(at: pressures[1])
        let summary = try Self.replay(lines.joined(separator: "\n"), "unreported.yml").summary
        #expect(summary["gestures"] as? Int == 1 && (summary["coasts"] as? [Any])?.count == 1, "\(summary)")
    }

    /// An external pad (udev's ID_INPUT_TOUCHPAD_INTEGRATION=external, as systemd's hwdb sets
    /// for Apple's USB Magic Trackpad 2) has no palm detection by pressure in libinput.
    @Test("a recording whose udev properties tag the pad external: a contact over the palm threshold is a finger")
    func recordedExternalPadHasNoPressurePalm() throws {
        let palm = Self.scroll(pressing: 60, quirks: [], firstPressing: 220)
        #expect((try Self.replay(palm, "internal.yml").summary["coasts"] as? [Any])?.isEmpty == true)
        let external = palm.replacingOccurrences(of: "- LIBINPUT_DEVICE_GROUP=11/2/7:isa0060/serio1", with: "- ID_INPUT_TOUCHPAD_INTEGRATION=external")
        #expect(external != palm)
        let (text, summary) = try Self.replay(external, "external.yml")
        #expect((summary["coasts"] as? [Any])?.count == 1, "\(summary)")
        #expect(Self.pressureLine(text)?.hasSuffix("; no palm by pressure") == true, "\(text)")
    }

    /// The sample's pad tagged external by its recorded udev properties (`extra`: more of them).
    static func external(_ text: String, _ extra: [String] = []) -> String {
        text.replacingOccurrences(of: "- LIBINPUT_DEVICE_GROUP=11/2/7:isa0060/serio1",
                                  with: (["- ID_INPUT_TOUCHPAD_INTEGRATION=external"] + extra).joined(separator: "\n    "))
    }

    /// libinput keeps an external pad's palm detection where it sits below a keyboard
    /// (AttrTPKComboLayout=below: HP's Elite x2 1013 G3 cover) or is a tablet's (ID_INPUT_TABLET).
    @Test("a recorded external pad below a keyboard, or a tablet's, keeps its palm by pressure; the note lists the layout")
    func recordedComboBelowKeepsThePalm() throws {
        let palm = Self.external(Self.scroll(pressing: 60, quirks: ["AttrTPKComboLayout=below"], firstPressing: 220))
        #expect(palm.contains("ID_INPUT_TOUCHPAD_INTEGRATION=external"))
        let (text, summary) = try Self.replay(palm, "combo.yml")
        #expect((summary["coasts"] as? [Any])?.isEmpty == true, "\(summary)")
        #expect(Self.pressureLine(text) == "# pressure: libinput's rule with the recorded quirks (AttrTPKComboLayout=below): a finger from ABS_MT_PRESSURE 30 until below 25; a palm above 130",
                "\(text)")
        #expect((summary["pressure"] as? [String: Any])?["quirks"] as? [String] == ["AttrTPKComboLayout=below"], "\(summary)")
        let tablet = Self.external(Self.scroll(pressing: 60, quirks: [], firstPressing: 220), ["- ID_INPUT_TABLET=1"])
        let read = try Self.replay(tablet, "tablet.yml")
        #expect((read.summary["coasts"] as? [Any])?.isEmpty == true, "\(read.summary)")
        #expect(Self.pressureLine(read.text)?.hasSuffix("; a palm above 130") == true, "\(read.text)")
    }

    @Test("the note lists no palm threshold on an external pad, no touch size range on a pad with 2 slots, no layout on an internal pad")
    func listsOnlyQuirksThePadReads() throws {
        let quirks = ["AttrPalmPressureThreshold=150", "AttrTouchSizeRange=20:10", "AttrTPKComboLayout=below", "AttrPressureRange=10:8"]
        let external = try Self.replay(Self.external(Self.scroll(pressing: 60, quirks: Array(quirks.prefix(2)) + ["AttrPressureRange=10:8"])), "ext-listed.yml")
        #expect((external.summary["pressure"] as? [String: Any])?["quirks"] as? [String] == ["AttrPressureRange=10:8"], "\(external.summary)")
        #expect(Self.pressureLine(external.text)?.hasSuffix("(AttrPressureRange=10:8): a finger from ABS_MT_PRESSURE 10 until below 8; no palm by pressure") == true,
                "\(external.text)")
        // Internal: the threshold is read, the layout says nothing.
        let inside = try Self.replay(Self.scroll(pressing: 60, quirks: quirks), "int-listed.yml")
        #expect((inside.summary["pressure"] as? [String: Any])?["quirks"] as? [String] == ["AttrPalmPressureThreshold=150", "AttrPressureRange=10:8"],
                "\(inside.summary)")
    }

    @Test("no quirks: key (evemu, or libinput record without its quirks): every contact counts, as before")
    func noQuirksCountsEveryContact() throws {
        let (text, summary) = try Self.replay(Self.scroll(pressing: 12, quirks: nil), "none.yml")
        #expect((summary["coasts"] as? [Any])?.count == 1, "\(summary)")
        #expect(Self.pressureLine(text)?.hasPrefix("# pressure: every contact counts: the recording lists no libinput quirks") == true, "\(text)")
        let pressure = try #require(summary["pressure"] as? [String: Any], "\(summary)")
        #expect(pressure["rule"] as? String == "every_contact" && pressure["quirks"] is NSNull && pressure["touch"] is NSNull, "\(pressure)")
        // A palm by any threshold counts too.
        let palm = try Self.replay(Self.scroll(pressing: 250, quirks: nil), "none-palm.yml").summary
        #expect((palm["coasts"] as? [Any])?.count == 1, "\(palm)")
    }

    @Test("a touchscreen has no pressure line, and null in the JSON")
    func touchscreenHasNone() throws {
        let text = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(of: "- ID_INPUT_TOUCHPAD=1", with: "- ID_INPUT_TOUCHSCREEN=1")
        let (plain, summary) = try Self.replay(text, "screen.yml")
        #expect(Self.pressureLine(plain) == nil, "\(plain)")
        #expect(summary["pressure"] is NSNull, "\(summary)")
    }

    /// A second touchpad of `libinput record --all`, touched lightly (pressing 12) at 0.2 s in
    /// the replayed pad's coast, with `quirks` (nil: no `quirks:` key).
    static func secondPad(quirks: [String]?) -> String {
        let listed = quirks.map { (["  quirks:"] + $0.map { "  - " + $0 }).joined(separator: "\n") + "\n" } ?? ""
        return """
            - node: /dev/input/event6
              evdev:
                name: "Second TouchPad"
                id: [24, 1267, 32, 256]
                codes:
                  1: [325, 330, 333] # EV_KEY
                  3: [0, 1, 47, 53, 54, 57, 58] # EV_ABS
                absinfo:
                  0: [0, 3000, 0, 0, 30]
                  1: [0, 2000, 0, 0, 30]
                  47: [0, 1, 0, 0, 0]
                  53: [0, 3000, 0, 0, 30]
                  54: [0, 2000, 0, 0, 30]
                  57: [0, 65535, 0, 0, 0]
                  58: [0, 255, 0, 0, 0]
                properties: [0]
              udev:
                properties:
                - ID_INPUT=1
                - ID_INPUT_TOUCHPAD=1

            """ + listed + """
              events:
              - evdev:
                - [  0, 200000,   3,  47,       0]
                - [  0, 200000,   3,  57,       7]
                - [  0, 200000,   3,  53,     100]
                - [  0, 200000,   3,  54,     100]
                - [  0, 200000,   3,  58,      12]
                - [  0, 200000,   1, 330,       1]
                - [  0, 200000,   1, 325,       1]
                - [  0, 200000,   0,   0,       0]

            """
    }

    @Test("--all: a light touch on another touchpad stops the coast only where its recorded quirks count it")
    func anotherPadsLightTouch() throws {
        func stops(_ quirks: [String]?, _ name: String) throws -> [[String: Any]] {
            let text = LibinputRecordSamples.withDevices(after: [Self.secondPad(quirks: quirks)], count: 2)
            let summary = try Self.replay(text, name).summary
            #expect((summary["coasts"] as? [Any])?.count == 1, "\(summary)")
            return try #require(summary["unreplayed_stops"] as? [[String: Any]], "\(summary)")
        }
        // libinput's default, 30: pressing 12 it is no finger, and the daemon's coast runs on.
        #expect(try stops([], "second-default.yml").isEmpty)
        // Its quirk starts touches at 10: a finger, which stops the coast.
        let counted = try stops(["AttrPressureRange=10:8"], "second-range.yml")
        #expect(counted.count == 1 && counted.first?["reason"] as? String == "touch" && counted.first?["time"] as? Double == 0.2, "\(counted)")
        // No quirks listed: every contact counts, as before.
        #expect(try stops(nil, "second-none.yml").count == 1)
    }
}

private extension String {
    /// Right-aligned in `width` columns, as libinput record aligns its values.
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
