import FlickCore
import Glibc
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

    /// The machine's and the id matches. A `MatchProduct` list is libinput 1.27's: flickd takes
    /// it where the shipped files use lists (the installed libinput reads them), and refuses it,
    /// as libinput 1.22 does, where they do not.
    @Test func machineAndListMatches() {
        let text = """
            [By machine]
            MatchDMIModalias=dmi:*svnLENOVO:*pvrThinkPadX1*
            MatchProduct=0x0001;0x000E
            AttrResolutionHint=40x40
            """
        let shipped127 = ("/usr/share/libinput/50-system-apple.quirks", """
            [Apple Touchpads]
            MatchVendor=0x05AC
            MatchProduct=0x0262;0x0263
            ModelAppleTouchpad=1
            """)
        let files = [shipped127, ("/usr/share/libinput/50-system-lenovo.quirks", text)]
        let lenovo = LibinputQuirks(files: files, dmiModalias: "dmi:bvnLENOVO:svnLENOVO:pn20XW:pvrThinkPadX1Carbon:")
        #expect(lenovo.problems == [])
        #expect(lenovo.grammarRelease == "1.27")
        #expect(lenovo.applied(to: Self.pad("any pad", product: 14), kind: .touchpad).1?.value == .resolution(x: 40, y: 40))
        #expect(lenovo.applied(to: Self.pad("any pad", product: 1), kind: .touchpad).1?.value == .resolution(x: 40, y: 40))
        #expect(lenovo.applied(to: Self.pad("any pad", product: 15), kind: .touchpad).1 == nil, "not in the product list")
        let other = LibinputQuirks(files: files, dmiModalias: "dmi:svnDell:pnXPS:")
        #expect(other.applied(to: Self.pad("any pad", product: 14), kind: .touchpad).1 == nil)
        #expect(LibinputQuirks(files: files).applied(to: Self.pad("any pad", product: 14), kind: .touchpad).1 == nil,
                "no DMI modalias: a DMI match never holds")

        // libinput 1.22's files (one id a line): the list in an override is an error, and costs every quirk.
        let with122 = LibinputQuirks(files: [("/usr/share/libinput/30-vendor.quirks", Self.elantech),
                                             ("/etc/libinput/local-overrides.quirks", text)],
                                     dmiModalias: "dmi:bvnLENOVO:svnLENOVO:pn20XW:pvrThinkPadX1Carbon:")
        #expect(with122.grammarRelease == "1.22")
        #expect(with122.problems.count == 1)
        #expect(with122.problems.first?.hasPrefix(#"/etc/libinput/local-overrides.quirks:3: libinput cannot parse "MatchProduct=0x0001;0x000E""#) == true,
                "\(with122.problems)")
        #expect(with122.applied(to: Self.pad("ETPS/2 Elantech Touchpad", product: 14), kind: .touchpad).1 == nil)
    }

    /// libinput's grammar changed in 1.23 (`AttrEventCode=-BTN_RIGHT` for
    /// `AttrEventCodeDisable=BTN_RIGHT`) and 1.26 (`MatchUniq`): the shipped files say which
    /// libinput reads them, and an override is judged by that libinput's rules.
    @Test func theShippedFilesSayWhichLibinputsGrammarApplies() {
        let shipped123 = ("/usr/share/libinput/30-vendor-elantech.quirks", """
            [Elantech Touchpads]
            MatchName=*Elantech Touchpad*
            AttrResolutionHint=31x31
            AttrEventCode=-BTN_RIGHT;+EV_ABS;-EV_KEY:0x110
            AttrInputProp=+INPUT_PROP_BUTTONPAD
            """)
        let uniq = ("/etc/libinput/local-overrides.quirks", """
            [My pad]
            MatchUniq=abc
            AttrSizeHint=80x40
            """)
        let old = ("/etc/libinput/local-overrides.quirks", """
            [My pad]
            MatchName=*Elantech Touchpad*
            AttrEventCodeDisable=BTN_RIGHT
            """)
        let pad = Self.pad("ETPS/2 Elantech Touchpad")
        let new = LibinputQuirks(files: [shipped123])
        #expect(new.grammarRelease == "1.23")
        #expect(new.problems == [])
        #expect(new.applied(to: pad, kind: .touchpad).1?.value == .resolution(x: 31, y: 31))
        #expect(LibinputQuirks(files: [shipped123, uniq]).problems.first?.hasPrefix(
            #"/etc/libinput/local-overrides.quirks:2: libinput cannot parse "MatchUniq=abc""#) == true, "MatchUniq came in 1.26")
        #expect(LibinputQuirks(files: [shipped123, old]).problems.first?.hasPrefix(
            #"/etc/libinput/local-overrides.quirks:3: an unknown key in "AttrEventCodeDisable=BTN_RIGHT""#) == true, "gone in 1.23")
        let shipped126 = ("/usr/share/libinput/50-system.quirks", "[Some keyboard]\nMatchUniq=xyz\nModelBouncingKeys=1\n")
        let read126 = LibinputQuirks(files: [shipped123, shipped126, uniq])
        #expect(read126.grammarRelease == "1.26")
        #expect(read126.problems == [])
        #expect(read126.applied(to: pad, kind: .touchpad).1?.value == .resolution(x: 31, y: 31),
                "MatchUniq never matches (flickd does not know a device's uniq); the section is valid")
        // A libinput newer than flickd knows: a key only its files use does not cost every quirk.
        let future = ("/usr/share/libinput/50-future.quirks", "[Future]\nMatchName=*\nModelSomethingNew=1\n")
        let newer = LibinputQuirks(files: [shipped123, future])
        #expect(newer.problems == [])
        #expect(newer.applied(to: pad, kind: .touchpad).1?.value == .resolution(x: 31, y: 31))
        #expect(LibinputQuirks(files: [shipped123, ("/etc/libinput/local-overrides.quirks", future.1)]).problems.count == 1,
                "an unknown key in the administrator's file alone is an error")
    }

    /// A file copied into libinput's directory from a newer libinput (upstream's Elantech file,
    /// `AttrEventCode=`, on Debian 12's 1.22, as maintainers suggest to try a quirk): no
    /// grammar takes every file. The problem names that file, by 1.22's rules, which take the
    /// others; it named the others (by the newest rules) and never that one.
    @Test func aFileFromAnotherLibinputIsTheOneNamed() {
        let apple122 = ("/usr/share/libinput/50-system-apple.quirks", """
            [Apple Touchpads USB]
            MatchVendor=0x05AC
            MatchBus=usb
            MatchUdevType=touchpad
            ModelAppleTouchpad=1
            AttrEventCodeDisable=BTN_RIGHT
            """)
        let lenovo122 = ("/usr/share/libinput/50-system-lenovo.quirks", """
            [Lenovo ThinkPad]
            MatchName=*Synaptics*
            AttrInputPropDisable=INPUT_PROP_BUTTONPAD
            """)
        let copied = ("/usr/share/libinput/30-vendor-elantech.quirks", """
            [Elantech Touchpads]
            MatchName=*Elantech Touchpad*
            AttrResolutionHint=31x31
            AttrEventCode=-BTN_RIGHT
            """)
        let read = LibinputQuirks(files: [copied, apple122, lenovo122])
        #expect(read.problems.count == 1, "\(read.problems)")
        #expect(read.problems.first?.hasPrefix(#"/usr/share/libinput/30-vendor-elantech.quirks:4: "#) == true, "\(read.problems)")
        #expect(read.problems.first?.contains("read by the rules of libinput 1.22") == true, "\(read.problems)")
        #expect(read.grammarRelease == "1.22")
        #expect(read.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1 == nil, "no quirks, as in libinput")
    }

    /// libinput refuses every quirk when any file has an error (quirks_init_subsystem fails,
    /// and libinput runs without quirks): an Apple pad is then not natural by default, and an
    /// Elantech pad gets libinput's 69 × 50 mm guess. flickd read such text leniently (it
    /// trimmed blanks and carriage returns, lowered case, skipped bad lines) and applied the
    /// quirks libinput dropped: the glide ran against the finger, or at the wrong speed. Each
    /// text here is one `libinput quirks validate` (1.22.1) refuses.
    @Test(arguments: [
        ("[My pad]\r\nMatchName=*Elantech*\r\nAttrResolutionHint=20x20\r\n", 1, "no closing ] in"),
        ("[My pad]\nMatchName=*Elantech* \nAttrResolutionHint=20x20\n", 2, "trailing blank in"),
        ("[My pad]\n  MatchName=*Elantech*\nAttrResolutionHint=20x20\n", 2, "leading blank in"),
        ("[My pad]\nMatchName = *Elantech*\nAttrResolutionHint=20x20\n", 2, "libinput cannot parse"),
        ("[My pad]\nAttrResolutionHint=20x20\nMatchName=*Elantech*\n", 2, "the section's Match lines must come first"),
        ("[My pad]\nMatchName=*Elantech*\nAttrResolutionHint=20x20\nMatchBus=ps2\n", 4, "a Match line after"),
        ("[My pad]\nMatchVendor=0x05ac\nAttrResolutionHint=20x20\n", 2, "libinput cannot parse"),
        ("[My pad]\nMatchBus=USB\nAttrResolutionHint=20x20\n", 2, "libinput cannot parse"),
        ("[My pad]\nMatchUdevType=touchscreen\nAttrResolutionHint=20x20\n", 2, "libinput cannot parse"),
        ("[My pad]\nMatchName=*Elantech*\nMatchName=*Pad*\nAttrResolutionHint=20x20\n", 3, "a second MatchName"),
        ("[My pad]\nMatchDMIModalias=*svnLENOVO*\nAttrResolutionHint=20x20\n", 2, "libinput cannot parse"),
        ("[My pad]\nMatchName=*Elantech*\nAttrResolutionHint=31\n", 3, "libinput cannot parse"),
        ("[My pad]\nMatchName=*Elantech*\nAttrResolutionHint=0x31\n", 3, "libinput cannot parse"),
        ("[My pad]\nMatchName=\"*Elantech*\"\nAttrResolutionHint=20x20\n", 2, "a quoted value in"),
        ("[My pad]\nMatchName=*Elantech*\nAttrResolutionHint=20x20\nModelAppleTouchpad=true\n", 4, "a model that is neither 1 nor 0"),
        ("[My pad]\nMatchName=*Elantech*\nAttrPressureRange=10:20\n", 3, "libinput cannot parse"),
        ("[My pad]\nMatchName=*Elantech*\nAttrResolutionHint=20x20\nResolution=20\n", 4, "a key that is not Match"),
        ("[My pad]\nMatchName=*Elantech*\nAttrSomething=1\n", 3, "an unknown key in"),
        ("[My pad]\nMatchName=*Elantech*\nAttrEventCodeDisable=BTN_NOTHING\n", 3, "libinput cannot parse"),
        ("[My pad]\nMatchName=*Elantech*\n\n[Another]\nMatchName=*\nAttrSizeHint=1x1\n", 4, "a section that has no Match line and property yet"),
        ("[My pad]\nMatchName=*Elantech*\n", 2, "the last section, [My pad], has no property"),
        ("MatchName=*Elantech*\n[My pad]\nMatchName=*Elantech*\nAttrResolutionHint=20x20\n", 1, "a line before any [Section]"),
        ("# only a comment\n", nil, "no [Section] in the file"),
    ] as [(String, Int?, String)])
    func oneErrorInAnyFileLeavesLibinputAndFlickdWithoutQuirks(text: String, line: Int?, reason: String) {
        let apple = ("/usr/share/libinput/50-system-apple.quirks", "[Apple Touchpads USB]\nMatchVendor=0x05AC\nMatchBus=usb\nModelAppleTouchpad=1\n")
        let elantech = ("/usr/share/libinput/30-vendor-elantech.quirks", Self.elantech)
        let macBook = LibinputQuirks.Device(name: "bcm5974", bustype: 0x03, vendor: 0x05ac, product: 0x0262, version: 0, udevType: "touchpad")
        let good = LibinputQuirks(files: [elantech, apple])
        #expect(good.problems == [])
        #expect(good.naturalScrollingByDefault(for: macBook) != nil)
        #expect(good.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1 != nil)

        let reported = Reported()
        let onDemand = QuirksOnDemand(load: { LibinputQuirks(files: [elantech, apple, ("/etc/libinput/local-overrides.quirks", text)]) },
                                      report: { reported.lines.append($0) })
        #expect(onDemand.naturalScrollingByDefault(Self.pad("bcm5974", resolution: 40, bustype: 0x03, vendor: 0x05ac, product: 0x0262), kind: .touchpad) == nil,
                "libinput has no ModelAppleTouchpad: not natural by default")
        #expect(onDemand.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1 == nil, "libinput's guess, not a hint")
        let at = "/etc/libinput/local-overrides.quirks" + (line.map { ":\($0)" } ?? "") + ": " + reason
        #expect(reported.lines.count == 1 && reported.lines[0].hasPrefix(at), "expected \(at)…, reported \(reported.lines)")
        #expect(reported.lines.allSatisfy { $0.hasSuffix("libinput then uses none of its quirks, nor does flickd") })
        #expect(onDemand.quirks.problems == reported.lines)
        #expect(reported.lines.count == 1, "told once")
    }

    /// The files' text as libinput reads it: a line is cut at its first `#` with the blanks
    /// before it (a comment may follow a section, a match or a value), lines may be empty,
    /// `Key==value` is `Key=value`, and the last line needs no newline. flickd skipped only
    /// lines that began with `#`, so `MatchName=*Elantech Touchpad* # my pad` never matched
    /// and `AttrResolutionHint=40x40 # measured` was ignored.
    @Test func theTextIsReadAsLibinputReadsIt() {
        let text = "# [Commented]\n\n[My pad] # the one on my desk\nMatchName=*Elantech Touchpad* # my pad\n"
            + "MatchBus==ps2\t# PS/2\nAttrResolutionHint=40x40 # measured\n#AttrResolutionHint=1x1\n\n"
            + "[Last]\nMatchName=*Last*\nAttrSizeHint=100x55"
        let quirks = LibinputQuirks(files: [("/usr/share/libinput/30-vendor.quirks", Self.elantech), ("/etc/libinput/local-overrides.quirks", text)])
        #expect(quirks.problems == [])
        let hint = quirks.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1
        #expect(hint?.value == .resolution(x: 40, y: 40))
        #expect(hint?.source == "local-overrides.quirks [My pad] AttrResolutionHint=40x40")
        #expect(quirks.applied(to: Self.pad("The Last Pad"), kind: .touchpad).1?.value == .size(width: 100, height: 55))
        #expect(quirks.applied(to: Self.pad("Some Pad"), kind: .touchpad).1 == nil)
    }

    /// libinput takes only a file that does not exist for none (the override file is
    /// optional); any other file it cannot read makes it refuse every quirk. flickd left an
    /// unreadable file out and kept the rest: a local-overrides.quirks of mode 0600 (EACCES), or
    /// a directory named `*.quirks`, still gave an Elantech pad libinput's hint, which libinput
    /// itself then ran without.
    @Test func aQuirksFileThatCannotBeReadCostsEveryQuirkAsInLibinput() {
        let shipped = "/usr/share/libinput/30-vendor-elantech.quirks"
        let overrides = LibinputQuirks.overridesFile
        func quirks(_ failing: [String: Int32]) -> LibinputQuirks {
            LibinputQuirks.reading([shipped, "/usr/share/libinput/50-mine.quirks", overrides]) { path in
                if let errno = failing[path] { return .failure(SystemError(errno: errno, call: "open", path: path)) }
                return path == shipped ? .success(Self.elantech) : .failure(SystemError(errno: ENOENT, call: "open", path: path))
            }
        }
        let absent = quirks([:])
        #expect(absent.problems == [], "no override file, and a data file removed since the listing: none")
        #expect(absent.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1?.value == .resolution(x: 31, y: 31))

        let private0600 = quirks([overrides: EACCES])
        #expect(private0600.problems == ["\(overrides): cannot be read (Permission denied); libinput then uses none of its quirks, nor does flickd"],
                "\(private0600.problems)")
        #expect(private0600.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1 == nil, "libinput's guess, not a hint")

        let directory = quirks(["/usr/share/libinput/50-mine.quirks": EISDIR])
        #expect(directory.problems.count == 1 && directory.problems[0].hasPrefix("/usr/share/libinput/50-mine.quirks: is a directory"),
                "\(directory.problems)")
        #expect(directory.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1 == nil)
    }

    /// This machine's libinput files, where libinput is installed: its Elantech section is read.
    @Test(.enabled(if: TextFileProbe.exists(LibinputQuirks.dataDirectory + "/30-vendor-elantech.quirks"),
                   "libinput's quirks files are not installed here (libinput-bin)"))
    func theSystemFilesGiveElantechPadsLibinputsResolution() {
        let system = LibinputQuirks.system()
        #expect(system.problems == [], "libinput reads its own files")
        let hint = system.applied(to: Self.pad("ETPS/2 Elantech Touchpad"), kind: .touchpad).1
        #expect(hint?.value == .resolution(x: 31, y: 31))
        #expect(hint?.source.hasPrefix("30-vendor-elantech.quirks [Elantech Touchpads]") == true)
    }
}

/// The lines `QuirksOnDemand` reported.
final class Reported: @unchecked Sendable {
    var lines: [String] = []
}

enum TextFileProbe {
    static func exists(_ path: String) -> Bool { (try? TextFile.read(path)) != nil }
}
