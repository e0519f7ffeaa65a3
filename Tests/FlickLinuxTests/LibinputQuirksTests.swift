import FlickCore
import Testing
@testable import FlickLinux

/// A touch device that reports no resolution gets the one libinput gives it from its quirks
/// files, so that flickd's millimetres are libinput's (an Elantech pad's glide ran at twice
/// the finger's speed with flickd's own guess).
@Suite("libinput's quirks")
struct LibinputQuirksTests {
    static let elantech = """
        # comment
        [Elantech Touchpads]
        MatchName=*Elantech Touchpad*
        AttrResolutionHint=31x31
        AttrPressureRange=10:8

        [ALPS v8 Touchpads]
        MatchUdevType=touchpad
        MatchBus=ps2
        MatchVendor=0x0002
        MatchProduct=0x0008
        MatchVersion=0x0800
        AttrSizeHint=100x55
        """

    /// A pad with `resolution` on its four position axes, 0..1280 × 0..704.
    static func pad(_ name: String, resolution: Int32 = 0, bustype: UInt16 = 0x11, vendor: UInt16 = 2,
                    product: UInt16 = 14, version: UInt16 = 0) -> DeviceDescription {
        let x = AxisInfo(minimum: 0, maximum: 1280, resolution: resolution)
        let y = AxisInfo(minimum: 0, maximum: 704, resolution: resolution)
        return DeviceDescription(name: name, bustype: bustype, vendor: vendor, product: product, version: version,
                                 absoluteAxes: [EventCode.absX: x, EventCode.absY: y,
                                                EventCode.absMTPositionX: x, EventCode.absMTPositionY: y])
    }

    let quirks = LibinputQuirks(files: [("/usr/share/libinput/30-vendor.quirks", Self.elantech)])

    /// libinput scrolls Apple's touchpads naturally by default (`ModelAppleTouchpad`,
    /// `ModelAppleTouchpadOneButton`): a pad a compositor leaves at that default (KWin) scrolls
    /// naturally. The model is read like a hint: every Match must match, the last section
    /// setting a model wins, and only touchpads have it.
    @Test func applesTouchpadsScrollNaturallyByDefault() throws {
        let quirks = LibinputQuirks(files: [("/usr/share/libinput/50-system-apple.quirks", """
            [Apple Touchpads USB]
            MatchVendor=0x05AC
            MatchBus=usb
            MatchUdevType=touchpad
            ModelAppleTouchpad=1
            AttrPalmSizeThreshold=800

            [Apple Touchpad OneButton]
            MatchUdevType=touchpad
            MatchBus=usb
            MatchVendor=0x5AC
            MatchProduct=0x021A
            ModelAppleTouchpadOneButton=1
            """), ("/etc/libinput/local-overrides.quirks", """
            [Not natural, this one]
            MatchVendor=0x05AC
            MatchProduct=0x0273
            ModelAppleTouchpad=0
            """)])
        func device(vendor: UInt16, product: UInt16 = 0x0262, bustype: UInt16 = 0x03, udevType: String = "touchpad") -> LibinputQuirks.Device {
            LibinputQuirks.Device(name: "bcm5974", bustype: bustype, vendor: vendor, product: product, version: 0, udevType: udevType)
        }
        #expect(quirks.naturalScrollingByDefault(for: device(vendor: 0x05ac)) == "50-system-apple.quirks [Apple Touchpads USB] ModelAppleTouchpad=1")
        #expect(quirks.naturalScrollingByDefault(for: device(vendor: 0x05ac, product: 0x021a))
                    == "50-system-apple.quirks [Apple Touchpads USB] ModelAppleTouchpad=1")
        #expect(quirks.naturalScrollingByDefault(for: device(vendor: 0x05ac, product: 0x0273)) == nil, "the later section turns it off")
        #expect(quirks.naturalScrollingByDefault(for: device(vendor: 0x05ac, bustype: 0x05)) == nil, "another bus")
        #expect(quirks.naturalScrollingByDefault(for: device(vendor: 0x06cb)) == nil, "another vendor")
        #expect(quirks.naturalScrollingByDefault(for: device(vendor: 0x05ac, udevType: "touchscreen")) == nil)
        let oneButton = LibinputQuirks(files: [("q.quirks", "[One]\nMatchVendor=0x5AC\nModelAppleTouchpadOneButton=1\n")])
        #expect(oneButton.naturalScrollingByDefault(for: device(vendor: 0x05ac)) == "q.quirks [One] ModelAppleTouchpadOneButton=1")
        let onDemand = QuirksOnDemand { quirks }
        #expect(onDemand.naturalScrollingByDefault(Self.pad("bcm5974", resolution: 40, bustype: 0x03, vendor: 0x05ac), kind: .touchpad) != nil)
        #expect(onDemand.naturalScrollingByDefault(Self.pad("bcm5974", resolution: 40, bustype: 0x03, vendor: 0x05ac), kind: .touchscreen) == nil)
    }

    @Test func aResolutionHintFillsInTheMissingResolution() throws {
        let (described, hint) = quirks.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad)
        #expect(hint?.source == "30-vendor.quirks [Elantech Touchpads] AttrResolutionHint=31x31")
        #expect(hint?.unitsPerMillimetreX == 31)
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            #expect(described.absoluteAxes[code]?.resolution == 31)
        }
        let geometry = DeviceGeometry(description: described, kind: .touchpad)
        #expect(!geometry.x.isEstimated)
        #expect(abs(geometry.x.lengthMillimetres - 1280.0 / 31) < 0.01, "41 mm wide, not the guessed 69")
        #expect(abs(geometry.y.lengthMillimetres - 704.0 / 31) < 0.01)
    }

    @Test func aResolutionFromTheKernelIsKept() {
        let pad = Self.pad("ETPS/2 Elantech Touchpad", resolution: 12)
        let (described, hint) = quirks.applied(to: pad, kind: .touchpad)
        #expect(hint == nil)
        #expect(described == pad)
    }

    @Test func aSizeHintIsDividedInWholeUnitsAsLibinputDoes() throws {
        let alps = Self.pad("AlpsPS/2 ALPS GlidePoint", vendor: 2, product: 8, version: 0x800)
        let (described, hint) = quirks.applied(to: alps, kind: .touchpad)
        #expect(hint?.value == .size(width: 100, height: 55))
        #expect(hint?.unitsPerMillimetreX == 12)
        #expect(described.absoluteAxes[EventCode.absMTPositionX]?.resolution == 12, "1280 / 100")
        #expect(described.absoluteAxes[EventCode.absMTPositionY]?.resolution == 12, "704 / 55")
        // Every Match line must hold: another version, another bus, or a touchscreen is not it.
        #expect(quirks.applied(to: Self.pad("AlpsPS/2 ALPS GlidePoint", vendor: 2, product: 8, version: 0x700), kind: .touchpad).1 == nil)
        #expect(quirks.applied(to: Self.pad("AlpsPS/2 ALPS GlidePoint", bustype: 0x03, vendor: 2, product: 8, version: 0x800), kind: .touchpad).1 == nil)
        #expect(quirks.applied(to: alps, kind: .touchscreen).1 == nil)
    }

    /// Nearly every pad reports a resolution: its daemon never reads libinput's files.
    @Test func theFilesAreReadOnlyForADeviceWithoutAResolution() {
        let onDemand = QuirksOnDemand { quirks }
        let synaptics = Self.pad("SynPS/2 Synaptics TouchPad", resolution: 42)
        #expect(onDemand.applied(to: synaptics, kind: .touchpad).0 == synaptics)
        #expect(onDemand.applied(to: synaptics, kind: .touchscreen).1 == nil)
        #expect(onDemand.loads == 0, "a pad with a resolution reads nothing")
        let elantech = onDemand.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad)
        #expect(elantech.1?.unitsPerMillimetreX == 31)
        #expect(onDemand.loads == 1)
        _ = onDemand.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad)
        _ = onDemand.applied(to: Self.pad("AlpsPS/2 ALPS GlidePoint", vendor: 2, product: 8, version: 0x800), kind: .touchpad)
        #expect(onDemand.loads == 1, "read once, kept for the next devices")
    }

    @Test func noHintLeavesTheDescriptionAsItWas() {
        let pad = Self.pad("SynPS/2 Synaptics TouchPad")
        let (described, hint) = quirks.applied(to: pad, kind: .touchpad)
        #expect(hint == nil)
        #expect(described == pad)
        #expect(DeviceGeometry(description: described, kind: .touchpad).x.isEstimated, "flickd's own guess, as before")
    }

    @Test func theLastFileReadWinsAndAResolutionHintBeatsASize() {
        let overrides = """
            [My pad]
            MatchName=ETPS/2 Elantech Touchpad
            AttrResolutionHint=20x25
            """
        let both = LibinputQuirks(files: [("a.quirks", Self.elantech), ("/etc/libinput/local-overrides.quirks", overrides)])
        let described = both.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).0
        #expect(described.absoluteAxes[EventCode.absMTPositionX]?.resolution == 20)
        #expect(described.absoluteAxes[EventCode.absMTPositionY]?.resolution == 25)

        let sizeLater = LibinputQuirks(files: [("a.quirks", Self.elantech), ("b.quirks", """
            [Size]
            MatchName=*Elantech*
            AttrSizeHint=80x40
            """)])
        #expect(sizeLater.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1?.value == .resolution(x: 31, y: 31),
                "libinput reads the size only when no resolution hint applies")
    }

    @Test func machineAndListMatches() {
        let text = """
            [By machine]
            MatchDMIModalias=dmi:*svnLENOVO:*pvrThinkPadX1*
            MatchProduct=0x0001;0x000E
            AttrResolutionHint=40x40

            [Unknown match key]
            MatchSomethingNew=1
            MatchName=*
            AttrResolutionHint=5x5

            [Broken hint]
            MatchName=*
            AttrResolutionHint=31
            """
        let lenovo = LibinputQuirks(files: [("q.quirks", text)], dmiModalias: "dmi:bvnLENOVO:svnLENOVO:pn20XW:pvrThinkPadX1Carbon:")
        #expect(lenovo.applied(to: Self.pad("any pad", product: 14), kind: .touchpad).1?.value == .resolution(x: 40, y: 40))
        #expect(lenovo.applied(to: Self.pad("any pad", product: 15), kind: .touchpad).1 == nil, "not in the product list")
        let other = LibinputQuirks(files: [("q.quirks", text)], dmiModalias: "dmi:svnDell:pnXPS:")
        #expect(other.applied(to: Self.pad("any pad", product: 14), kind: .touchpad).1 == nil)
        #expect(LibinputQuirks(files: [("q.quirks", text)]).applied(to: Self.pad("any pad", product: 14), kind: .touchpad).1 == nil,
                "no DMI modalias: a DMI match never holds")
    }

    /// The files' text as editors leave it: CRLF line ends, blanks around names and `=`,
    /// comments and empty lines; a section without a Match line, a key that only starts like
    /// a hint's, a hint before any section, and a file without a final newline.
    @Test func theTextIsReadAsLibinputWritesAndUsersEditIt() {
        let text = "AttrResolutionHint=9x9\r\n# [Commented]\r\n\r\n[  Spaced  ]\r\n  MatchName = *Elantech* \r\n"
            + "AttrSizeHintX=1x1\r\n\tAttrResolutionHint =  33x34\t\r\n[No match]\nAttrResolutionHint=7x7\n[Last]\nMatchName=*Last*\nAttrSizeHint=100x55"
        let quirks = LibinputQuirks(files: [("/etc/libinput/local-overrides.quirks", text)])
        let hint = quirks.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1
        #expect(hint?.value == .resolution(x: 33, y: 34))
        #expect(hint?.source == "local-overrides.quirks [  Spaced  ] AttrResolutionHint=33x34")
        #expect(quirks.applied(to: Self.pad("The Last Pad"), kind: .touchpad).1?.value == .size(width: 100, height: 55))
        #expect(quirks.applied(to: Self.pad("Some Pad"), kind: .touchpad).1 == nil, "a section needs a Match line")
    }

    /// This machine's libinput files, where libinput is installed: its Elantech section is read.
    @Test(.enabled(if: TextFileProbe.exists(LibinputQuirks.dataDirectory + "/30-vendor-elantech.quirks"),
                   "libinput's quirks files are not installed here (libinput-bin)"))
    func theSystemFilesGiveElantechPadsLibinputsResolution() {
        let hint = LibinputQuirks.system().applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1
        #expect(hint?.value == .resolution(x: 31, y: 31))
        #expect(hint?.source.hasPrefix("30-vendor-elantech.quirks [Elantech Touchpads]") == true)
    }
}

enum TextFileProbe {
    static func exists(_ path: String) -> Bool { (try? TextFile.read(path)) != nil }
}
