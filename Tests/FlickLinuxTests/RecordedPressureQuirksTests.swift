import Testing
import FlickCore
@testable import FlickLinux

/// The pressure quirks a `libinput record` file lists for a pad (its `quirks:` entries, printed
/// by libinput's `tools_list_device_quirks`), read as the daemon reads the same quirks from the
/// files: `flickd replay` counts the recorded fingers and palms as libinput did there.
@Suite struct RecordedPressureQuirksTests {
    static let pad = PressureQuirksTests.pad("ETPS/2 Elantech Touchpad")
    static let defaults = TouchPressure(touch: .init(axis: EventCode.absMTPressure, high: 30, low: 25), palmThreshold: 130)

    static func recorded(_ entries: [String], version: String? = "1.25.0", on pad: DeviceDescription = pad) -> TouchPressure? {
        LibinputQuirks.PressureQuirks(recorded: entries, libinputVersion: version).touchPressure(for: pad, kind: .touchpad)
    }

    @Test("AttrPressureRange=10:8 and AttrPalmPressureThreshold=200 as recorded; other quirks change nothing")
    func rangeAndPalm() {
        let quirks = LibinputQuirks.PressureQuirks(recorded: ["ModelLenovoT450Touchpad=1", "AttrResolutionHint=31x31",
                                                              "AttrPressureRange=10:8", "AttrPalmPressureThreshold=200"],
                                                   libinputVersion: "1.25.0")
        #expect(quirks == .init(pressureRange: .init(high: 10, low: 8), palmPressureThreshold: 200))
        #expect(quirks.touchPressure(for: Self.pad, kind: .touchpad)
                == TouchPressure(touch: .init(axis: EventCode.absMTPressure, high: 10, low: 8), palmThreshold: 200))
        #expect(quirks.touchPressure(for: Self.pad, kind: .touchscreen) == nil)
        // An empty list: libinput's defaults from the axis.
        #expect(Self.recorded([]) == Self.defaults)
        #expect(Self.recorded(["ModelLenovoT450Touchpad=1"]) == Self.defaults)
    }

    @Test("libinput record prints a range of none as 0:0: detection by pressure off, palms still by pressure")
    func noneIsPrintedAsZeroZero() {
        #expect(Self.recorded(["AttrPressureRange=0:0"]) == TouchPressure(touch: nil, palmThreshold: 130))
        #expect(Self.recorded(["AttrPressureRange=0:0", "AttrPalmPressureThreshold=0"]) == nil)
    }

    @Test("the axes a quirk takes away, 1.22's unsigned list and 1.23's signed one, and the pressure pad model")
    func disabledAxesAndPressurePads() {
        let dell = PressureQuirksTests.dell5680
        #expect(Self.recorded(["AttrEventCodeDisable=ABS_MT_PRESSURE;ABS_PRESSURE;"], version: "1.22.1", on: dell) == nil)
        #expect(Self.recorded(["AttrEventCode=-ABS_MT_PRESSURE;-ABS_PRESSURE;"], version: "1.26.1", on: dell) == nil)
        #expect(Self.recorded(["ModelPressurePad=1"], version: "1.26.1", on: dell) == nil)
        #expect(Self.recorded(["ModelPressurePad=0"], version: "1.26.1", on: dell) == Self.defaults)
        // Enabling a code (+) takes nothing away.
        #expect(Self.recorded(["AttrEventCode=+BTN_RIGHT;-ABS_PRESSURE;"], version: "1.26.1", on: dell) == Self.defaults)
        // INPUT_PROP_PRESSUREPAD makes a pressure pad from 1.31; before, libinput did not read it so.
        #expect(Self.recorded(["AttrInputProp=+INPUT_PROP_PRESSUREPAD;"], version: "1.31.0", on: dell) == nil)
        #expect(Self.recorded(["AttrInputProp=+INPUT_PROP_PRESSUREPAD;"], version: "1.26.1", on: dell) == Self.defaults)
        #expect(Self.recorded(["AttrInputProp=+INPUT_PROP_PRESSUREPAD;"], version: nil, on: dell) == nil, "unknown: the newest")
        // 1.30.901 is 1.31's release candidate, which already has the change.
        #expect(Self.recorded(["AttrInputProp=+INPUT_PROP_PRESSUREPAD;"], version: "1.30.901", on: dell) == nil)
        #expect(Self.recorded(["AttrInputProp=+INPUT_PROP_PRESSUREPAD;"], version: "1.30.0", on: dell) == Self.defaults)
    }

    @Test("touch size on an Apple pad with 5+ slots and ABS_MT_TOUCH_MAJOR; external on Bluetooth: no palm")
    func touchSizeAndExternal() {
        let trackpad = PressureQuirksTests.pad("Apple Inc. Magic Trackpad", bus: 0x05, vendor: 0x004c, product: 0x0265, slots: 16)
        #expect(Self.recorded(["AttrTouchSizeRange=20:10", "AttrPalmPressureThreshold=190"], on: trackpad) == nil)
        let spi = PressureQuirksTests.pad("Apple SPI Touchpad", bus: 0x1c, vendor: 0x05ac, product: 0x0272, slots: 16)
        #expect(Self.recorded(["AttrTouchSizeRange=20:10", "AttrPalmPressureThreshold=190"], on: spi)
                == TouchPressure(touch: nil, palmThreshold: 190))
        let fewSlots = PressureQuirksTests.pad("Apple SPI Touchpad", bus: 0x1c, vendor: 0x05ac, product: 0x0272, slots: 4)
        #expect(Self.recorded(["AttrTouchSizeRange=20:10"], on: fewSlots) == Self.defaults)
    }

    /// The recorded list and the files are one reading: each quirk set, written as the one
    /// section of a quirks file that applies, gives the pad what the same quirks recorded give.
    @Test("the recorded quirks and the same quirks in a file give the same reading")
    func sameReadingAsTheFiles() {
        let sets: [[String]] = [
            [], ["AttrPressureRange=10:8"], ["AttrPressureRange=none"], ["AttrPalmPressureThreshold=200"],
            ["AttrPressureRange=40:30", "AttrPalmPressureThreshold=0"], ["AttrTouchSizeRange=20:10"],
            ["ModelPressurePad=1"], ["AttrEventCode=-ABS_MT_PRESSURE;"], ["AttrEventCode=-ABS_PRESSURE;"],
            // On the Bluetooth pad (external) it keeps the palm.
            ["AttrTPKComboLayout=below"], ["AttrTPKComboLayout=below", "AttrPalmPressureThreshold=200"],
        ]
        for pad in [Self.pad, PressureQuirksTests.pad("ETPS/2 Elantech Touchpad", slots: 5),
                    PressureQuirksTests.pad("ETPS/2 Elantech Touchpad", bus: 0x05)] {
            for entries in sets {
                // A file that names ModelPressurePad is read by the rules of 1.23 to 1.30, where
                // libinput record lists it too once a section sets it.
                let resolved = entries.contains { $0.hasPrefix("ModelPressurePad") } ? entries : ["ModelPressurePad=0"] + entries
                let section = ["[Elantech Touchpads]", "MatchName=*Elantech Touchpad*"] + resolved
                let files = [("/usr/share/libinput/30-vendor-elantech.quirks", section.joined(separator: "\n") + "\n")]
                let quirks = LibinputQuirks(files: files)
                #expect(quirks.problems.isEmpty, "\(entries): \(quirks.problems)")
                // libinput record prints a range of none as 0:0.
                let printed = resolved.map { $0 == "AttrPressureRange=none" ? "AttrPressureRange=0:0" : $0 }
                #expect(quirks.touchPressure(for: pad, kind: .touchpad, in: files) == Self.recorded(printed, version: "1.30.0", on: pad),
                        "\(entries) on \(pad.name), bus \(pad.bustype), \(pad.slotCount) slots")
            }
        }
    }
}
