import CEvdev
import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// What the installed libinput release changes, as its shipped quirks files tell it: which
/// quirks grammar judges the administrator's file (1.31 dropped `ModelPressurePad`), and how
/// a device without a resolution is measured (1.25 counts an axis range's ends both in).
@Suite("libinput's release, from its files")
struct LibinputReleaseTests {
    static let overrides = "/etc/libinput/local-overrides.quirks"

    /// 1.30-grade files (`AttrIsVirtual`, `ModelScrollOnMiddleClick`) with `ModelPressurePad`,
    /// as 1.23 to 1.30 always ship it, or without it, as 1.31 ships them.
    static func shipped130(pressurePad: Bool) -> [(path: String, text: String)] {
        var files: [(path: String, text: String)] = [
            ("/usr/share/libinput/30-vendor-qemu.quirks", "[QEMU mouse]\nMatchName=QEMU Virtio Mouse\nAttrIsVirtual=1\n"),
            ("/usr/share/libinput/30-vendor-logitech.quirks", "[Logitech mouse]\nMatchVendor=0x046D\nModelScrollOnMiddleClick=1\n"),
        ]
        files.append(pressurePad
            ? ("/usr/share/libinput/50-system-lenovo.quirks", "[Lenovo haptic pad]\nMatchName=*SYNA*\nModelPressurePad=1\n")
            : ("/usr/share/libinput/50-system-lenovo.quirks", "[Lenovo haptic pad]\nMatchName=*SYNA*\nAttrInputProp=+INPUT_PROP_PRESSUREPAD\n"))
        return files
    }

    /// libinput 1.31 no longer knows `ModelPressurePad`: an override setting it makes 1.31
    /// drop every quirk. Its files take 1.30's grammar too (1.31 only took a key away), and
    /// flickd, choosing the oldest grammar that takes them, read them as 1.30's and accepted
    /// the override: it applied quirks that libinput had dropped.
    @Test func filesWithoutModelPressurePadAre131s() {
        let override = (Self.overrides, "[My pad]\nMatchName=*Elantech*\nModelPressurePad=1\n")
        let read131 = LibinputQuirks(files: Self.shipped130(pressurePad: false) + [override])
        #expect(read131.grammarRelease == "1.31")
        #expect(read131.problems.count == 1, "\(read131.problems)")
        #expect(read131.problems.first?.hasPrefix(#"/etc/libinput/local-overrides.quirks:3: an unknown key in "ModelPressurePad=1""#) == true,
                "\(read131.problems)")

        let read130 = LibinputQuirks(files: Self.shipped130(pressurePad: true) + [override])
        #expect(read130.grammarRelease == "1.30")
        #expect(read130.problems == [], "1.30 knows the model")
    }

    /// `AttrInputProp=+INPUT_PROP_PRESSUREPAD`: libinput 1.31 names the property itself; an
    /// older one asks libevdev, which knows the name from 1.13.6. flickd took it under every
    /// grammar from 1.23, so an override that 1.30 on an older libevdev refuses kept its quirks.
    @Test func thePressurePadPropertyIsNamedBy131OrByLibevdev() {
        let override = (Self.overrides, "[My pad]\nMatchName=*Elantech*\nAttrInputProp=+INPUT_PROP_PRESSUREPAD\n")
        let read130 = LibinputQuirks(files: Self.shipped130(pressurePad: true) + [override])
        #expect(read130.grammarRelease == "1.30")
        let libevdevKnows = libevdev_property_from_name("INPUT_PROP_PRESSUREPAD") != -1
        #expect(read130.problems.count == (libevdevKnows ? 0 : 1), "libevdev knows the name: \(libevdevKnows); \(read130.problems)")

        let read131 = LibinputQuirks(files: Self.shipped130(pressurePad: false) + [override])
        #expect(read131.grammarRelease == "1.31")
        #expect(read131.problems == [])
    }

    /// An ALPS pad on PS/2 without a resolution, 0...`maximumX` × 0...`maximumY` (product 8:
    /// a v8 pad, which `sizeHint` matches).
    static func alps(maximumX: Int32, maximumY: Int32, product: UInt16 = 0x0008) -> DeviceDescription {
        let x = AxisInfo(minimum: 0, maximum: maximumX)
        let y = AxisInfo(minimum: 0, maximum: maximumY)
        return DeviceDescription(name: "AlpsPS/2 ALPS GlidePoint", bustype: 0x11, vendor: 0x0002, product: product, version: 0x0800,
                                 keys: [EventCode.toolFinger, EventCode.touch],
                                 absoluteAxes: [EventCode.absX: x, EventCode.absY: y, EventCode.absMTPositionX: x, EventCode.absMTPositionY: y])
    }

    static let sizeHint = ("/usr/share/libinput/50-system-alps.quirks", """
        [ALPS v8 Touchpads]
        MatchUdevType=touchpad
        MatchBus=ps2
        MatchVendor=0x0002
        MatchProduct=0x0008
        MatchVersion=0x0800
        AttrSizeHint=100x55
        """)
    /// A file only 1.26 and later take (`MatchUniq`).
    static let uniq126 = ("/usr/share/libinput/50-system-keyboard.quirks", "[Some keyboard]\nMatchUniq=xyz\nModelBouncingKeys=1\n")
    /// A file 1.24 and later take.
    static let phantom124 = ("/usr/share/libinput/50-system-phantom.quirks", "[Some pad]\nMatchName=*Phantom*\nModelTouchpadPhantomClicks=1\n")

    /// libinput 1.25 and later divide `maximum − minimum + 1` into the 69 × 50 mm guess and an
    /// `AttrSizeHint`; 1.22 divides `maximum − minimum`. flickd used 1.22's everywhere, so on a
    /// newer libinput an ALPS pad of 0...2000 measured 28 units/mm where libinput has 29, and
    /// one of 0...1199 with a 100 × 55 mm hint 11 where libinput has 12: the virtual pad's
    /// glide ran a few per cent off the finger.
    @Test func newerLibinputsCountBothEndsOfAnAxisRange() {
        let guessed = Self.alps(maximumX: 2000, maximumY: 1400, product: 0x0007)
        let read126 = LibinputQuirks(files: [Self.uniq126])
        #expect(read126.grammarRelease == "1.26")
        let newer = DeviceGeometry(description: read126.applied(to: guessed, kind: .touchpad).0, kind: .touchpad)
        #expect(newer.x.unitsPerMillimetre == 29, "2001 / 69 = 29.0: \(newer.x)")
        #expect(newer.y.unitsPerMillimetre == 28, "1401 / 50 = 28.02: \(newer.y)")
        #expect(newer.x.isEstimated, "still libinput's guess")

        let hinted = Self.alps(maximumX: 1199, maximumY: 659)
        let (described, hint) = LibinputQuirks(files: [Self.uniq126, Self.sizeHint]).applied(to: hinted, kind: .touchpad)
        #expect(hint?.value == .size(width: 100, height: 55))
        #expect(hint?.unitsPerMillimetreX == 12, "1200 / 100")
        #expect(described.absoluteAxes[EventCode.absMTPositionY]?.resolution == 12, "660 / 55")

        // 1.24's files read alike as 1.25's: taken for 1.25's.
        let read124 = LibinputQuirks(files: [Self.phantom124])
        #expect(read124.grammarRelease == "1.24")
        #expect(DeviceGeometry(description: read124.applied(to: guessed, kind: .touchpad).0, kind: .touchpad).x.unitsPerMillimetre == 29)
    }

    /// Debian 12's 1.22 (and 1.23) divide `maximum − minimum`, as flickd did; so does a replay
    /// or a test, which knows no installed libinput.
    @Test func olderLibinputsAndUnknownOnesDivideTheDifference() {
        let guessed = Self.alps(maximumX: 2000, maximumY: 1400, product: 0x0007)
        let read122 = LibinputQuirks(files: [("/usr/share/libinput/30-vendor.quirks", LibinputQuirksTests.elantech)])
        #expect(read122.grammarRelease == "1.22")
        #expect(DeviceGeometry(description: read122.applied(to: guessed, kind: .touchpad).0, kind: .touchpad).x.unitsPerMillimetre == 28,
                "2000 / 69 = 28.99")
        #expect(DeviceGeometry(description: guessed, kind: .touchpad).x.unitsPerMillimetre == 28, "no libinput known")
        let (_, hint) = LibinputQuirks(files: [Self.sizeHint]).applied(to: Self.alps(maximumX: 1199, maximumY: 659), kind: .touchpad)
        #expect(hint?.unitsPerMillimetreX == 11, "1199 / 100")
        #expect(LibinputQuirks(files: []).libinputAxisRange == .difference, "no shipped file: flickd's measure before")
    }
}
