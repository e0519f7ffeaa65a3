import FlickCore
import FlickFingerStories
import Glibc
import Testing
@testable import FlickLinux

/// Scrolling speeds a desktop keeps per device (KWin's `ScrollFactor` in kcminputrc, sway's
/// `scroll_factor` in `get_inputs`), read beside the direction, and the touchpad glide matched
/// to them: the virtual pad's factor multiplies the fingers' motion, so they move faster by the
/// real pad's over it.
@Suite struct ScrollFactorTests {
    static let pad = DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)
    static let padGroup = "[Libinput][2][7][SynPS/2 Synaptics TouchPad]"

    // MARK: KWin

    @Test func kwinsScrollFactorIsReadPerDeviceWithItsDefaultsAndOne() {
        // Plasma's touchpad page sets it for the real pad only: the virtual pad scrolls at 1.
        let own = PerDeviceNaturalScrolling(kcminputrc: "\(Self.padGroup)\nNaturalScroll=true\nScrollFactor=2\n", file: "kcminputrc")
        #expect(own.scrollFactor(for: Self.pad) == 2)
        #expect(own.virtualTouchpadScrollFactor == 1, "no group, no defaults: KWin's 1")
        // A group with the speed alone: the direction stays the defaults'.
        let speedOnly = PerDeviceNaturalScrolling(kcminputrc: "\(Self.padGroup)\nScrollFactor=0.5\n", file: "kcminputrc")
        #expect(speedOnly.scrollFactor(for: Self.pad) == 0.5)
        #expect(speedOnly.natural(for: Self.pad) == false && speedOnly.entries.isEmpty)
        // KWin's defaults group, in its order, gives every device without a factor of its own one.
        let defaults = PerDeviceNaturalScrolling(
            kcminputrc: "[Libinput][Defaults][Touchpad]\nScrollFactor=1.5\n\(Self.padGroup)\nScrollFactor=3\n", file: "kcminputrc")
        #expect(defaults.virtualTouchpadScrollFactor == 1.5 && defaults.scrollFactor(for: Self.pad) == 3)
        let pointer = PerDeviceNaturalScrolling(
            kcminputrc: "[Libinput][Defaults][Pointer]\nScrollFactor=1.5\n[Libinput][Defaults][Touchpad]\nTapToClick=true\n", file: "kcminputrc")
        #expect(pointer.virtualTouchpadScrollFactor == 1, "the touchpad group comes first; without the key, KWin's 1")
        // The last readable entry counts; what KWin cannot read as a number leaves its default.
        let unreadable = PerDeviceNaturalScrolling(kcminputrc: "\(Self.padGroup)\nScrollFactor=2\nScrollFactor=fast\n", file: "kcminputrc")
        #expect(unreadable.scrollFactor(for: Self.pad) == 1)
        #expect(own.scrollFactor(for: DeviceIdentity(name: "no ids")) == nil)
    }

    /// Through the whole search, as the daemon asks it: KDE on Wayland, kcminputrc in the user's
    /// directory; the fixture's mouse interface has a `ScrollFactor` of its own.
    @Test func theSearchOnKDECarriesTheFactors() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.files["/home/u/.config/kcminputrc"] = DesktopSettingsTests.kcminputrc + "\n[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]\nScrollFactor=2\n"
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        let perDevice = try #require(found.perDevice)
        #expect(perDevice.scrollFactor(for: DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Touchpad", vendor: 1739, product: 52934)) == 2)
        #expect(perDevice.scrollFactor(for: DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Mouse", vendor: 1739, product: 52934)) == 0.75)
        #expect(perDevice.virtualTouchpadScrollFactor == 1)
        #expect(found.value == false, "the direction as before")
    }

    // MARK: sway

    @Test func swaysScrollFactorIsReadBesideLibinput() throws {
        let reply = """
            [{"identifier": "2:7:SynPS/2_Synaptics_TouchPad", "name": "SynPS/2 Synaptics TouchPad", "vendor": 2, "product": 7, "type": "touchpad", "scroll_factor": 0.500000, "libinput": {"natural_scroll": "enabled"}},
             {"identifier": "0:0:flickd_virtual_touchpad", "name": "\(VirtualTouchpad.name)", "vendor": 0, "product": 0, "type": "touchpad", "scroll_factor": 1.000000, "libinput": {"natural_scroll": "disabled"}},
             {"identifier": "1267:12410:ELAN_Touchpad", "name": "ELAN Touchpad", "vendor": 1267, "product": 12410, "type": "touchpad", "scroll_factor": 3, "libinput": {"send_events": "enabled"}},
             {"identifier": "2:10:TPPS/2_IBM_TrackPoint", "name": "TPPS/2 IBM TrackPoint", "vendor": 2, "product": 10, "type": "pointer", "scroll_factor": 4.0}]
            """
        let found = try #require(SwayInputs.touchpads(reply))
        #expect(found.scrollFactor(for: Self.pad) == 0.5)
        #expect(found.virtualTouchpadScrollFactor == 1)
        #expect(found.scrollFactor(for: DeviceIdentity(name: "ELAN Touchpad", vendor: 1267, product: 12410)) == 3,
                "a pad without natural scrolling still has a speed (an integer read as one)")
        #expect(found.scrollFactor(for: DeviceIdentity(name: "TPPS/2 IBM TrackPoint", vendor: 2, product: 10)) == nil, "not a touchpad")
        #expect(found.scrollFactor(for: DeviceIdentity(name: "Other", vendor: 9, product: 9)) == nil, "not listed: unknown")
        // A sway that lists no factor: unknown, and the glide is not scaled.
        let older = try #require(SwayInputs.touchpads(SwayInputsTests.reply()))
        #expect(older.virtualTouchpadScrollFactor == nil && older.scrollFactor(for: Self.pad) == nil)
        #expect(older.natural(for: Self.pad) == true, "the direction as before")
    }

    // MARK: The glide

    /// kcminputrc with ScrollFactor=2 for the real pad only, applied as the daemon applies it:
    /// the virtual fingers glide twice as far as with the file that sets no speed.
    @Test func kcminputrcsFactorForTheRealPadOnlyDoublesTheGlide() throws {
        func travel(_ kcminputrc: String) throws -> (travel: Double, velocity: Double) {
            let script = try FingerScript(device: "synaptics-t440")
            var frames: [TouchFrame] = []
            script.engine.output = .touchpad
            script.engine.onTouchFrame = { frame, _ in frames.append(frame) }
            let perDevice = PerDeviceNaturalScrolling(kcminputrc: kcminputrc, file: "kcminputrc")
            script.engine.virtualTouchpadScrollFactor = perDevice.virtualTouchpadScrollFactor
            script.engine.setDesktopScrollFactor(perDevice.scrollFactor(for: DeviceIdentity(script.description)), for: script.device)
            script.down(Vector(x: 30, y: 20), Vector(x: 50, y: 20))
            script.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            script.wait(script.frameInterval)
            script.lift()
            script.wait(.seconds(8))
            let plan = try #require(script.coasts.first)
            let first = try #require(frames.first), last = try #require(frames.last)
            return ((last.centroid - first.centroid).y, plan.velocity.y)
        }
        let identity = DeviceIdentity(try FingerScript(device: "synaptics-t440").description)
        let group = "[Libinput][\(identity.vendor ?? 0)][\(identity.product ?? 0)][\(identity.name)]"
        let plain = try travel("\(group)\nNaturalScroll=false\n")
        let doubled = try travel("\(group)\nNaturalScroll=false\nScrollFactor=2\n")
        #expect(doubled.velocity == plain.velocity, "the release is the same")
        let one = plain.travel - VirtualFingers.makeUp(speed: plain.velocity)
        let two = doubled.travel - VirtualFingers.makeUp(speed: 2 * plain.velocity)
        #expect(one > 50, "\(plain)")
        #expect(abs(two / one - 2) < 0.01, "\(two) vs \(one)")
    }

    // MARK: Words

    @Test func factorsAreSaidToTheHundredth() throws {
        #expect(GlideSpeedText.times(2) == "2.0×")
        #expect(GlideSpeedText.times(0.5) == "0.5×")
        #expect(GlideSpeedText.times(1.25) == "1.25×")
        #expect(GlideSpeedText.times(0.333) == "0.33×")
        #expect(GlideSpeedText.times(0.05) == "0.05×")
        #expect(GlideSpeedText(source: 2, virtual: nil) == nil)
        // A factor the engine takes for unknown (the glide is not scaled) is not described as a pace.
        #expect(GlideSpeedText(source: 2, virtual: .nan) == nil)
        #expect(GlideSpeedText(source: 2, virtual: 1)?.sentence
                == "the desktop scrolls it at 2.0×, flickd virtual touchpad at 1.0×: the virtual fingers move 2.0× as fast, so that the glide keeps your speed")
        #expect(GlideSpeedText(source: 50, virtual: 1)?.pace == "10.0× as fast, the most flickd matches: glides run slower than your scrolls")
        #expect(GlideSpeedText(source: 0.01, virtual: 1)?.pace == "0.1× as fast, the least flickd matches: glides run faster than your scrolls")
        #expect(GlideSpeedText(source: 1, virtual: 1)?.same == true)
        // A pad the desktop scrolls by nothing glides nothing; one whose factor is negative
        // (KWin's ScrollFactor=-1 reverses it) has its fingers turned round.
        #expect(GlideSpeedText(source: 0, virtual: 1)?.sentence
                == "the desktop scrolls it at 0.0×, flickd virtual touchpad at 1.0×: the desktop scrolls nothing with it, so its releases do not glide")
        #expect(GlideSpeedText(source: -1, virtual: 1)?.sentence
                == "the desktop scrolls it at -1.0×, flickd virtual touchpad at 1.0×: the virtual fingers move 1.0× as fast and turned round (a negative factor reverses one of the pads), so that the glide keeps your speed")
        #expect(GlideSpeedText(source: -1, virtual: -1)?.same == true)
        // sway's `input type:touchpad scroll_factor 0` sets the virtual pad at 0 as well: the
        // real pad's releases glide nothing, which is no pace "as fast as yours".
        let bothNothing = try #require(GlideSpeedText(source: 0, virtual: 0))
        #expect(!bothNothing.same && bothNothing.glidesNothing)
        #expect(bothNothing.pace == "not at all: the desktop scrolls nothing with it, so its releases do not glide")
        #expect(bothNothing.sentence == "the desktop scrolls it at 0.0×, flickd virtual touchpad at 0.0×: the desktop scrolls nothing with it, so its releases do not glide")
    }

    /// At twice the virtual pad's speed the fingers move twice as fast as the release: with the
    /// defaults (0.998, up to 1500 mm/s, which all fit at 1×) releases over about 869 mm/s take
    /// them to the pad's edge. Said where the ratio is not 1; the configuration's own limit is
    /// warned of as it loads.
    @Test func glidesThatTheRatioRunsIntoTheEdgeAreSaid() throws {
        let defaults = Configuration()
        #expect(defaults.touchpadGlideSpeedLimit() == nil)
        let doubled = try #require(defaults.touchpadGlideSpeedLimit(speedRatio: 2))
        #expect(abs(doubled - 869) < 2, "\(doubled)")
        #expect(defaults.touchpadGlideSpeedLimit(speedRatio: -2) == doubled, "turned round, as far")
        #expect(defaults.touchpadGlideSpeedLimit(speedRatio: 0) == nil)
        #expect(GlideSpeedText(source: 2, virtual: 1)?.edge(defaults)
                == "glides from releases faster than \(Int64(doubled.rounded(.down))) mm/s on it stop at the edge of flickd's virtual touchpad")
        #expect(GlideSpeedText(source: 1, virtual: 2)?.edge(defaults) == nil, "half as fast: every release fits")
        #expect(GlideSpeedText(source: 0, virtual: 1)?.edge(defaults) == nil, "no glide")
        // A configuration whose own glides outrun the pad (0.999: over about 874 mm/s): at 0.6×
        // releases up to 874 / 0.6 fit, at 0.5× every one up to coast.max_speed = 1500 mm/s.
        var long = Configuration()
        long.coast.decelerationRate = 0.999
        let own = try #require(long.touchpadGlideSpeedLimit())
        let slower = try #require(long.touchpadGlideSpeedLimit(speedRatio: 0.6))
        #expect(abs(slower - own / 0.6) < 1e-6, "\(slower) vs \(own)")
        #expect(long.touchpadGlideSpeedLimit(speedRatio: 0.5) == nil)
        #expect(GlideSpeedText(source: 2, virtual: 2)?.edge(long) == nil, "the same speed: the warning's")
        #expect(GlideSpeedText(source: -1, virtual: 1)?.edge(long) == nil, "turned round at the same speed: the warning's too")
        #expect(GlideSpeedText(source: 1, virtual: -1)?.edge(long) == nil)
        #expect(GlideSpeedText(source: -2, virtual: 1)?.edge(defaults) != nil, "turned round and twice as fast: said")
    }
}

// In the daemon devices' suite, which runs its daemons one at a time (each ends by SIGTERM).
extension DaemonDeviceTests {
    /// KDE on Wayland with ScrollFactor=2 for the real pad only: the daemon gives the engine both
    /// factors, and its line for the pad says the fingers move twice as fast.
    @Test func theDesktopsScrollFactorsReachTheEngineAndTheLog() throws {
        let source = ScriptedDevices()
        let pad = try source.node(4, .touchpad, name: "bcm5974", fixture: "generic-usb-touchpad")
        source.descriptions[pad.devnode]?.vendor = 0x06cb
        source.descriptions[pad.devnode]?.product = 0x0001
        source.present = [pad]
        let name = try #require(source.descriptions[pad.devnode]?.name)
        let (line, engine) = try DaemonDeviceTests.padLine(source, kcminputrc: "[Libinput][1739][1][\(name)]\nScrollFactor=2\n")
        #expect(engine.virtualTouchpadScrollFactor == 1)
        // At 2× the default settings' faster releases (up to coast.max_speed = 1500 mm/s, which
        // all fit at 1×) stop at the edge of the virtual pad: the line says from what speed.
        let limit = try #require(engine.configuration.touchpadGlideSpeedLimit(speedRatio: 2))
        #expect(line.hasSuffix("; the desktop scrolls it at 2.0×, flickd virtual touchpad at 1.0×: the virtual fingers move 2.0× as fast, so that the glide keeps your speed; glides from releases faster than \(Int64(limit.rounded(.down))) mm/s on it stop at the edge of flickd's virtual touchpad"),
                "\(line)")
    }
}

extension DaemonDeviceTests {
    /// The pad's line under KDE with the pad's group `group`: the daemon's debug line.
    static func padLine(group: String) throws -> String {
        let source = ScriptedDevices()
        let pad = try source.node(4, .touchpad, name: "bcm5974", fixture: "generic-usb-touchpad")
        source.descriptions[pad.devnode]?.vendor = 0x06cb
        source.descriptions[pad.devnode]?.product = 0x0001
        source.present = [pad]
        let name = try #require(source.descriptions[pad.devnode]?.name)
        return try DaemonDeviceTests.padLine(source, kcminputrc: "[Libinput][1739][1][\(name)]\n" + group).line
    }

    /// The real pad natural, the virtual one traditional (KWin's default), the real pad's
    /// ScrollFactor=-1: the two turns of the fingers cancel, as the engine makes them, and the
    /// line says one way, not both.
    @Test func aNegativeFactorAndADifferentDirectionCancelInThePadsLine() throws {
        let both = try Self.padLine(group: "NaturalScroll=true\nScrollFactor=-1\n")
        #expect(both.hasSuffix("; the virtual touchpad's is false, and a negative factor reverses one of the pads: its fingers move as yours did; the desktop scrolls it at -1.0×, flickd virtual touchpad at 1.0×: the virtual fingers move 1.0× as fast, so that the glide keeps your speed"),
                "\(both)")
        #expect(!both.contains("against yours") && !both.contains("turned round"), "\(both)")
        // The directions alike: the negative factor alone turns them.
        let turned = try Self.padLine(group: "NaturalScroll=false\nScrollFactor=-1\n")
        #expect(turned.hasSuffix("; its fingers move against yours: a negative factor reverses one of the pads; the desktop scrolls it at -1.0×, flickd virtual touchpad at 1.0×: the virtual fingers move 1.0× as fast, so that the glide keeps your speed"),
                "\(turned)")
        #expect(!turned.contains("turned round"), "said once: \(turned)")
    }
}

extension ScrollFactorTests {
    /// `flickd doctor` on KDE Plasma under Wayland, the real pad's group as `group` says:
    /// the output check's detail.
    static func doctorSays(_ group: String) throws -> String {
        var system = FakeSystem()
        let sysfs = "/sys/devices/platform/i8042/serio1/input/input5/event4/device/id/"
        system.fileContents[sysfs + "vendor"] = "0002\n"
        system.fileContents[sysfs + "product"] = "0007\n"
        let kcminputrc = "[Libinput][2][7][SynPS/2 Synaptics TouchPad]\nNaturalScroll=false\n" + group
        system.desktop = DesktopSettings.Answer(false, "KDE kcminputrc",
                                                perDevice: PerDeviceNaturalScrolling(kcminputrc: kcminputrc, file: "kcminputrc"))
        return try system.checks().one("output").detail
    }

    /// What doctor says of a pad at 0 (it glides nothing) and at -1 (the fingers turned round).
    @Test func doctorSaysWhereTheRatioTakesTheGlide() throws {
        let nothing = try Self.doctorSays("ScrollFactor=0\n")
        #expect(nothing.hasSuffix("scrolls traditional at 0.0×: the desktop scrolls nothing with it, so its releases do not glide"), "\(nothing)")
        let reversed = try Self.doctorSays("ScrollFactor=-1\n")
        #expect(reversed.hasSuffix("scrolls traditional at -1.0×: the virtual fingers move against yours (a negative factor reverses one of the pads), so the glide keeps your direction, and 1.0× as fast, so that the glide keeps your speed"), "\(reversed)")
        // KWin's defaults group at 0 for every touchpad, the virtual one too: nothing glides.
        let bothNothing = try Self.doctorSays("[Libinput][Defaults][Touchpad]\nScrollFactor=0\n")
        #expect(bothNothing.hasSuffix("scrolls traditional at 0.0×: the desktop scrolls nothing with it, so its releases do not glide"), "\(bothNothing)")
    }
}
