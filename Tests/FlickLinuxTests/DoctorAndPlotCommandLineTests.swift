import FlickCore
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// `flickd doctor` and `flickd plot` as a user runs them.
@Suite struct DoctorAndPlotCommandLineTests {
    private func flickd(_ arguments: [String]) throws -> FlickdBinary.Result { try FlickdBinary.run(arguments) }

    private func temporary(_ name: String) -> String { NSTemporaryDirectory() + "flickd-\(getpid())-\(name)" }

    @Test func plotWritesAnSVGFileAndNothingOnStandardOutput() throws {
        let path = temporary("plot.svg")
        defer { unlink(path) }
        let result = try flickd(["plot", "--out", path, "--speeds", "80, 300"])
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        let svg = try TextFile.read(path)
        #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 4, "two speeds × two panels")
    }

    @Test func plotWithoutOutWritesToStandardOutput() throws {
        let result = try flickd(["plot", "--config", "/dev/null"])
        #expect(result.status == 0 && result.stdout.hasPrefix("<?xml") && result.stdout.contains("settings: /dev/null"))
    }

    /// A [[device]] section with coast settings of its own, which `flickd run` gives its
    /// devices: plot draws the top level and says so, on standard error and in the legend, and
    /// its help says so.
    @Test func plotNamesTheDeviceSectionsItDoesNotDraw() throws {
        let config = temporary("sections.toml")
        defer { unlink(config) }
        try TextFile.write("[[device]]\nname = \"Apple\"\n[device.coast]\ndeceleration_rate = \"fast\"\n"
                           + "[[device]]\nname = \"Elan\"\n[device.touchpad]\nfingers = 3\n", to: config)
        let result = try flickd(["plot", "--config", config])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "flickd: note: the plot draws the top-level settings, not the coast settings of "
                + "device[1] (name \"Apple\") (their own in [[device]])\n", "\(result)")
        #expect(result.stdout.contains(">device[1] (name &quot;Apple&quot;)</text>") && !result.stdout.contains("Elan"))
        let help = try flickd(["help", "plot"]).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(help.contains("The plot draws the top-level settings: an enabled [[device]] section whose own"), "\(help)")
        #expect(help.contains("scroll.speed does not apply, and the plot does not depend on it"), "\(help)")
    }

    @Test func plotRefusesABadSpeedInOneLine() throws {
        let result = try flickd(["plot", "--speeds", "50,fast"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr == "flickd: --speeds: \"fast\" is not a speed; give positive numbers in mm/s separated by commas, e.g. --speeds 50,100,200,400\n")
    }

    /// Speeds are plain decimal numbers: Double() also took hex (0x10 drew 16 mm/s) and
    /// exponents; and a speed beyond what coast.max_speed may be set to is refused (1e155
    /// overflowed the model and was drawn as "no coast: slower than min_speed").
    @Test func plotTakesPlainDecimalSpeedsUpToTheLargestMaxSpeed() throws {
        let advice = "give positive numbers in mm/s separated by commas, e.g. --speeds 50,100,200,400"
        for item in ["0x10", "1e155", "1e3", "inf", "nan", "+5", "-5", "1.2.3", ".", "0"] {
            let result = try flickd(["plot", "--speeds", "50,\(item)"])
            #expect(result.status == 1 && result.stdout.isEmpty, "\(item): \(result)")
            #expect(result.stderr == "flickd: --speeds: \"\(item)\" is not a speed; \(advice)\n", "\(item)")
        }
        for item in ["100000.5", "200000", "1" + String(repeating: "0", count: 200)] {
            let result = try flickd(["plot", "--speeds", item])
            #expect(result.status == 1 && result.stdout.isEmpty, "\(item): \(result)")
            #expect(result.stderr == "flickd: --speeds: \(item) mm/s is faster than any coast starts: coast.max_speed is at most "
                + "100000 mm/s; give speeds up to that\n", "\(item)")
        }
        let result = try flickd(["plot", "--speeds", "0.5, 99.5,100000"])
        #expect(result.status == 0 && result.stdout.hasPrefix("<?xml"), "\(result.stderr)")
    }

    @Test func plotRefusesAConfigurationWithErrors() throws {
        let config = temporary("bad.toml")
        defer { unlink(config) }
        try TextFile.write("[coast]\ndeceleration_rate = 2\n", to: config)
        let result = try flickd(["plot", "--config", config])
        #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.contains("\(config):2:"), "\(result.stderr)")
    }

    /// The checks that failed (✗) in doctor's output.
    private static func failures(_ result: FlickdBinary.Result) -> Int {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix("✗ ") }.count
    }

    /// That doctor's exit status 1 is the bad configuration's: doctor exits 1 on a machine
    /// without uinput or touch devices (this build machine) whatever the file says. Its summary
    /// counts every ✗, one more than the same doctor with a valid file.
    private func expectTheConfigurationBlocks(_ result: FlickdBinary.Result) throws {
        #expect(result.status == 1, "\(result)")
        let good = try flickd(["doctor", "--config", "/dev/null"])
        let count = Self.failures(result)
        #expect(count == Self.failures(good) + 1, "\(result.stdout)\nwith /dev/null:\n\(good.stdout)")
        let summary = "\(count) problem\(count == 1 ? " stops" : "s stop") flickd from working; "
        #expect(result.stdout.split(separator: "\n").last?.hasPrefix(summary) == true, "\(result.stdout)")
    }

    /// Only the configuration broken, on a machine with everything else in place: doctor
    /// blocks, on it alone.
    @Test func aBadConfigurationAloneBlocks() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nspeeed = 3\n"
        let checks = system.checks()
        #expect(checks.filter { $0.status == .failure }.map(\.title) == ["configuration"], "\(checks.report)")
        #expect(Doctor.blocks(checks))
    }

    @Test func doctorReportsABadConfigurationAndFails() throws {
        let config = temporary("doctor.toml")
        defer { unlink(config) }
        try TextFile.write("[scroll]\nspeeed = 3\n", to: config)
        let result = try flickd(["doctor", "--config", config])
        try expectTheConfigurationBlocks(result)
        #expect(result.stdout.contains("✗ configuration: \(config) has 1 problem"), "\(result.stdout)")
        #expect(result.stdout.contains("    fix: flickd check-config \(config)"))
        // Every line is a check (✓ ! ✗), a fix under one, or the summary.
        for line in result.stdout.split(separator: "\n") {
            #expect(["✓ ", "! ", "✗ ", "    fix: "].contains { line.hasPrefix($0) } || line.hasSuffix("."), "\(line)")
        }
    }

    /// `--config` given relative to where doctor runs: the fix names the file absolutely, and
    /// runs from any directory (the test's own, here).
    @Test func theConfigurationFixRunsFromAnyDirectory() throws {
        let directory = temporary("doctor-cwd")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TextFile.write("[scroll]\nspeeed = 3\n", to: directory + "/bad.toml")
        let result = try CommandLineShellTests.shell(#"cd "$1" && exec "$0" doctor --config bad.toml"#, directory)
        try expectTheConfigurationBlocks(result)
        let fix = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("    fix: flickd check-config ") },
                               "\(result.stdout)")
        let path = String(fix.dropFirst("    fix: flickd check-config ".count))
        #expect(path.hasPrefix("/") && path.hasSuffix("/bad.toml"), "\(fix)")
        let check = try flickd(["check-config", path])
        #expect(check.status == 1 && check.stderr.contains("speeed"), "\(check)")
    }

    /// Started by a parent that ignores SIGCHLD (which exec keeps), doctor still waits for the
    /// programs it asks: its service check says what systemctl answered, as it does otherwise,
    /// not "systemctl is not installed" (the kernel had reaped it: waitpid's ECHILD).
    @Test(.enabled(if: access("/usr/bin/systemctl", X_OK) == 0 || access("/bin/systemctl", X_OK) == 0, "no systemctl to ask"),
          .enabled(if: access("/usr/bin/env", X_OK) == 0, "no /usr/bin/env"))
    func doctorUnderAParentThatIgnoresSIGCHLDStillHearsSystemctl() throws {
        func serviceLine(_ result: FlickdBinary.Result) -> String? {
            result.stdout.split(separator: "\n").first { $0.contains(" flickd service: ") }.map(String.init)
        }
        let plain = try flickd(["doctor", "--config", "/dev/null"])
        let ignoring = try ChildProcess.run("/usr/bin/env", ["--ignore-signal=CHLD", FlickdBinary.url.path, "doctor", "--config", "/dev/null"])
        let expected = try #require(serviceLine(plain), "\(plain.stdout)")
        #expect(!expected.contains("systemctl is not installed"))
        #expect(serviceLine(ignoring) == expected, "\(ignoring.stdout)\n\(ignoring.stderr)")
    }

    // MARK: output

    /// `flickd help doctor` says that the uinput fixes apply what is installed (the package's
    /// files under /usr/lib too) rather than write it again to /etc.
    @Test func doctorsHelpSaysTheUinputFixesUseWhatIsInstalled() throws {
        let help = try flickd(["help", "doctor"]).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(help.contains("Where flickd's udev rule is installed (/etc/udev/rules.d, or the package's /usr/lib/udev/rules.d), the fix applies it to /dev/uinput and does not write it again to /etc"), "\(help)")
        #expect(help.contains("Where flickd's modules-load file is installed (/etc/modules-load.d, or the package's /usr/lib/modules-load.d), the fix loads it now"), "\(help)")
    }

    /// Every check doctor prints is in `flickd help doctor`'s list, by the title it prints
    /// (each `title` in Doctor.swift): "service groups" was missing.
    @Test func doctorsHelpListsEveryCheck() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FlickLinux/Doctor.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        var titles: Set<String> = []
        for marker in ["title: \"", "let title = \""] {
            for piece in text.components(separatedBy: marker).dropFirst() {
                if let end = piece.firstIndex(of: "\"") { titles.insert(String(piece[..<end])) }
            }
        }
        #expect(titles.count > 15 && titles.contains("service groups"), "\(titles.sorted())")
        let help = try flickd(["help", "doctor"]).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for title in titles.sorted() {
            #expect(help.contains(" - \(title): "), "\(title) is not in the help's list of checks")
        }
    }

    @Test func theOutputInUseIsNamed() throws {
        var system = FakeSystem()
        let touchpad = try system.checks().one("output")
        #expect(touchpad.status == .ok)
        #expect(touchpad.detail.hasPrefix("touchpad:") && touchpad.detail.contains("flickd virtual touchpad"))
        #expect(touchpad.detail.contains("does not invert"))
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[output]\nmode = \"wheel\"\n"
        let wheel = try system.checks().one("output")
        #expect(wheel.status == .ok && wheel.detail.hasPrefix("wheel:"))
    }

    @Test func kdeKeepsTouchpadSettingsPerDeviceAndTheFixIsNamed() throws {
        var system = FakeSystem()
        system.desktop = DesktopSettings.Answer(true, "KDE ~/.config/kcminputrc [Libinput][1267][12410][SYNA] NaturalScroll")
        let check = try system.checks().one("output")
        #expect(check.status == .warning)
        #expect(check.fix?.contains("flickd virtual touchpad") == true)
        #expect(check.fix?.contains("Natural scrolling") == true)
        // Plasma on X11, answered from its file because the X server could not be read: the
        // same fix, and where to look for why the X server was not read.
        system.desktop = DesktopSettings.Answer(true, "KDE /home/ada/.config/touchpadxlibinputrc [SynPS/2 Synaptics TouchPad] naturalScroll")
        let x11 = try system.checks().one("output")
        #expect(x11.status == .warning)
        #expect(x11.fix?.hasPrefix("while flickd runs, open System Settings › Touchpad, pick \"flickd virtual touchpad\"") == true, "\(x11.text)")
        #expect(x11.fix?.contains("\"service display\" and \"X server changes\"") == true, "\(x11.text)")
    }

    /// On X11 (not GNOME) flickd asks the X server with libX11 and libXi; without them, the
    /// glide's direction is a guess on desktops that keep settings per device, and doctor says so.
    @Test func anX11SessionWithoutLibXiIsWarned() throws {
        var system = FakeSystem()
        system.desktop = nil
        system.desktopMiss = "XDG_CURRENT_DESKTOP=XFCE; cannot load libXi.so.6 (Debian's libxi6); no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR)"
        let check = try system.checks().one("output")
        #expect(check.status == .warning, "\(check.text)")
        #expect(check.detail.contains("with libX11 and libXi, which cannot be loaded"))
        #expect(check.fix?.hasPrefix("install libX11 and libXi") == true)
        system.desktopMiss = "XDG_CURRENT_DESKTOP=XFCE; cannot connect to the X server :0; no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR)"
        #expect(try system.checks().one("output").status == .ok, "no X server to read: the service display check's business")
        system.desktopMiss = "XDG_CURRENT_DESKTOP unset; no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR)"
        #expect(try system.checks().one("output").status == .ok, "not an X11 session: nothing to read")
    }

    /// KDE Plasma on Wayland: both settings are read, and the fingers keep the pad's direction.
    @Test func perDeviceSettingsReadOnBothPadsAreCompared() throws {
        var system = FakeSystem()
        let sysfs = "/sys/devices/platform/i8042/serio1/input/input5/event4/device/id/"
        system.fileContents[sysfs + "vendor"] = "0002\n"
        system.fileContents[sysfs + "product"] = "0007\n"
        let pad = PerDeviceNaturalScrolling.Entry(device: DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7), natural: true)
        system.desktop = DesktopSettings.Answer(true, "KDE kcminputrc", perDevice: PerDeviceNaturalScrolling(entries: [pad], source: "kcminputrc"))
        let against = try system.checks().one("output")
        #expect(against.status == .ok, "flickd handles it: \(against.text)")
        #expect(against.detail.contains("scrolls it traditional"), "no group for the virtual pad: libinput's default")
        #expect(against.detail.contains("/dev/input/event4 \"SynPS/2 Synaptics TouchPad\" scrolls natural: the virtual fingers move against yours"))
        // An answer without speeds (a KDE answer built without factors): a speed set for the real pad alone is not the virtual pad's.
        #expect(against.detail.hasSuffix("a scrolling speed the desktop keeps per device is the virtual touchpad's own too: give \"flickd virtual touchpad\" your touchpad's, or glides run faster or slower than your scrolls"), "\(against.text)")
        let virtual = PerDeviceNaturalScrolling.Entry(device: VirtualTouchpad.identity, natural: true)
        system.desktop?.perDevice?.entries.append(virtual)
        let same = try system.checks().one("output")
        #expect(same.detail.contains("scrolls natural: the virtual fingers move as yours did"), "\(same.text)")
        // scroll.natural set the other way: the desktop's settings for the two pads still decide.
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = false\n"
        let explicit = try system.checks().one("output")
        #expect(explicit.detail.contains("scrolls natural: the virtual fingers move as yours did"), "\(explicit.text)")
    }

    /// KDE Plasma on Wayland with a scrolling speed for the real pad alone (Plasma's touchpad
    /// page writes ScrollFactor to the pad's group): doctor says both speeds and that the
    /// virtual fingers move that much faster, and no longer tells to copy the speed by hand.
    @Test func perDeviceScrollingSpeedsAreReadAndMatched() throws {
        var system = FakeSystem()
        let sysfs = "/sys/devices/platform/i8042/serio1/input/input5/event4/device/id/"
        system.fileContents[sysfs + "vendor"] = "0002\n"
        system.fileContents[sysfs + "product"] = "0007\n"
        let kcminputrc = "[Libinput][2][7][SynPS/2 Synaptics TouchPad]\nNaturalScroll=false\nScrollFactor=2\n"
        system.desktop = DesktopSettings.Answer(false, "KDE kcminputrc",
                                                perDevice: PerDeviceNaturalScrolling(kcminputrc: kcminputrc, file: "kcminputrc"))
        let doubled = try system.checks().one("output")
        #expect(doubled.status == .ok, "\(doubled.text)")
        #expect(doubled.detail.contains("(kcminputrc) and scrolls it traditional at 1.0×"), "\(doubled.text)")
        #expect(doubled.detail.hasSuffix("; /dev/input/event4 \"SynPS/2 Synaptics TouchPad\" scrolls traditional at 2.0×: the virtual fingers move as yours did, 2.0× as fast, so that the glide keeps your speed (glides from releases faster than 869 mm/s on it stop at the edge of flickd's virtual touchpad)"),
                "\(doubled.text)")
        #expect(!doubled.detail.contains("give \"flickd virtual touchpad\" your touchpad's"), "the speed is matched, not left to the user")
        // The same speed on both (KWin's defaults group): nothing to match, nothing said of it.
        let same = "[Libinput][Defaults][Touchpad]\nScrollFactor=2\n" + kcminputrc
        system.desktop?.perDevice = PerDeviceNaturalScrolling(kcminputrc: same, file: "kcminputrc")
        let matched = try system.checks().one("output")
        #expect(matched.detail.contains("(kcminputrc) and scrolls it traditional at 2.0×"), "\(matched.text)")
        #expect(matched.detail.hasSuffix("scrolls traditional: the virtual fingers move as yours did"), "\(matched.text)")
        // Beyond what flickd matches: said so.
        let far = "[Libinput][2][7][SynPS/2 Synaptics TouchPad]\nScrollFactor=20\n"
        system.desktop?.perDevice = PerDeviceNaturalScrolling(kcminputrc: far, file: "kcminputrc")
        let clamped = try system.checks().one("output")
        #expect(clamped.detail.hasSuffix("scrolls traditional at 20.0×: the virtual fingers move as yours did, 10.0× as fast, the most flickd matches: glides run slower than your scrolls (glides from releases faster than 173 mm/s on it stop at the edge of flickd's virtual touchpad)"), "\(clamped.text)")
    }

    /// KDE Plasma on Wayland with no group for the pad: KWin leaves it at libinput's default,
    /// natural for Apple's pads, and the virtual pad at libinput's (off): doctor says the
    /// fingers move against it. It said "traditional" for every such pad before.
    /// An Apple USB pad (event4) on KDE Plasma under Wayland with no kcminputrc group for it,
    /// and libinput's Apple quirk.
    static func appleOnKDE() -> FakeSystem {
        var system = FakeSystem()
        system.fileContents[appleSysfs + "vendor"] = "05ac\n"
        system.fileContents[appleSysfs + "product"] = "0273\n"
        system.fileContents[appleSysfs + "bustype"] = "0003\n"
        let kcminputrc = PerDeviceNaturalScrolling(kcminputrc: "[Libinput][1][2][Another Mouse]\nNaturalScroll=true\n", file: "kcminputrc")
        system.desktop = DesktopSettings.Answer(false, "KDE kcminputrc", perDevice: kcminputrc)
        system.quirksFiles = [appleQuirks]
        return system
    }

    static let appleSysfs = "/sys/devices/platform/i8042/serio1/input/input5/event4/device/id/"
    static let appleQuirks = ("/usr/share/libinput/50-system-apple.quirks",
                              "[Apple Touchpads USB]\nMatchVendor=0x05AC\nMatchBus=usb\nMatchUdevType=touchpad\nModelAppleTouchpad=1\n")

    @Test func anApplePadWithoutAGroupScrollsAsLibinputsDefault() throws {
        var system = Self.appleOnKDE()
        let apple = try system.checks().one("output")
        #expect(apple.detail.contains("/dev/input/event4 \"SynPS/2 Synaptics TouchPad\" scrolls natural: the virtual fingers move against yours"), "\(apple.text)")
        system.fileContents[Self.appleSysfs + "bustype"] = "0011\n"
        let other = try system.checks().one("output")
        #expect(other.detail.contains("/dev/input/event4 \"SynPS/2 Synaptics TouchPad\" scrolls traditional: the virtual fingers move as yours did"), "\(other.text)")
    }

    /// A local override that libinput cannot parse (a CRLF line end): libinput uses none of its
    /// quirks, so the Apple pad scrolls traditional by default, and doctor names the file and
    /// line. With the file as libinput writes it, no such warning.
    @Test func aQuirksFileLibinputCannotParseIsNamed() throws {
        var system = Self.appleOnKDE()
        let apple = Self.appleQuirks
        system.quirksFiles = [apple, (LibinputQuirks.overridesFile, "[Mine]\nMatchName=*Pad*\nAttrSizeHint=100x60\n")]
        #expect(system.checks().titled("libinput quirks").isEmpty, "files libinput reads: nothing to say")

        system.quirksFiles = [apple, (LibinputQuirks.overridesFile, "[Mine]\r\nMatchName=*Pad*\r\nAttrSizeHint=100x60\r\n")]
        let broken = try system.checks().one("libinput quirks")
        #expect(broken.status == .warning)
        #expect(broken.detail.hasPrefix(LibinputQuirks.overridesFile + ":1: "), "\(broken.text)")
        #expect(broken.detail.hasSuffix("libinput then uses none of its quirks, nor does flickd"), "\(broken.text)")
        #expect(broken.fix?.contains("libinput quirks validate") == true)
        let output = try system.checks().one("output")
        #expect(output.detail.contains("/dev/input/event4 \"SynPS/2 Synaptics TouchPad\" scrolls traditional"), "no quirk, not natural: \(output.text)")
    }

    /// An X server whose synaptics driver glides by itself for the pad: doctor names it, and the
    /// way to flickd's glide instead; nothing is said where the driver does not glide.
    @Test func aPadWhoseDriverGlidesIsNamed() throws {
        var system = FakeSystem()
        let sysfs = "/sys/devices/platform/i8042/serio1/input/input5/event4/device/id/"
        system.fileContents[sysfs + "vendor"] = "0002\n"
        system.fileContents[sysfs + "product"] = "0007\n"
        let why = XInputDevices.synapticsGlides(coastingSpeed: 20)
        let pad = PerDeviceNaturalScrolling.Entry(device: DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7),
                                                  natural: false, driverGlides: why)
        let source = XInputDevices.source(display: ":0")
        system.desktop = DesktopSettings.Answer(false, source, perDevice: PerDeviceNaturalScrolling(entries: [pad], source: source, unlisted: nil))
        let check = try system.checks().one("touchpad driver")
        #expect(check.status == .warning)
        #expect(check.detail.hasPrefix("/dev/input/event4 \"SynPS/2 Synaptics TouchPad\": \(why) (\(source)), so flickd starts no coast of its own on it"),
                "\(check.text)")
        #expect(check.fix?.contains("xserver-xorg-input-synaptics") == true)
        let virtual = PerDeviceNaturalScrolling.Entry(device: VirtualTouchpad.identity, natural: true, xDriver: XInputDevices.synaptics)
        system.desktop?.perDevice?.entries.append(virtual)
        #expect(try system.checks().one("output").status == .ok, "the pad is left to its driver: no glide goes through the virtual pad")

        // The driver's glide turned off: flickd glides, through a virtual pad the same driver scrolls.
        system.desktop?.perDevice?.entries[0].driverGlides = nil
        #expect(system.checks().titled("touchpad driver").isEmpty, "coasting off: nothing to say")
        let output = try system.checks().one("output")
        #expect(output.status == .warning)
        #expect(output.detail.contains("the synaptics X driver drives it"), "\(output.text)")
        #expect(output.fix?.hasPrefix("set output.mode = \"wheel\"") == true)
    }

    /// The udev rule in force tags the virtual touchpad external: said where it does; a warning
    /// with the fix that writes the rule where the installed one predates the line or none is
    /// installed; the package's own older rule is the package's to replace; nothing with the
    /// wheel output.
    @Test func theVirtualTouchpadsTagIsChecked() throws {
        var system = FakeSystem()
        let etc = UinputDevice.udevRuleFile, package = "/usr/lib/udev/rules.d/70-flickd-uinput.rules"
        let none = try system.checks().one("virtual touchpad tag")
        #expect(none.status == .warning)
        #expect(none.detail.hasPrefix("no flickd udev rule is installed"), "\(none.text)")
        #expect(none.fix == UinputDevice.writeUdevRule + " && sudo udevadm control --reload && systemctl --user restart flickd")

        system.fileContents[etc] = UinputDevice.udevRule + "\n"
        let old = try system.checks().one("virtual touchpad tag")
        #expect(old.status == .warning)
        #expect(old.detail.hasPrefix("\(etc) is from before flickd tagged its virtual touchpad external, so libinput takes"), "\(old.text)")
        #expect(old.fix == none.fix)

        system.fileContents[etc] = UinputDevice.udevRule + "\n# " + UinputDevice.touchpadRule + "\n"
        #expect(try system.checks().one("virtual touchpad tag").status == .warning, "a line commented out tags nothing")

        system.fileContents[etc] = UinputDevice.udevRule + "\n" + UinputDevice.touchpadRule + "\n"
        let current = try system.checks().one("virtual touchpad tag")
        #expect(current.status == .ok)
        #expect(current.detail == "external (\(etc))")

        // An old copy in /etc over the package's current rule: removed, not written again.
        system.fileContents[etc] = UinputDevice.udevRule + "\n"
        system.fileContents[package] = UinputDevice.udevRule + "\n" + UinputDevice.touchpadRule + "\n"
        let shadowing = try system.checks().one("virtual touchpad tag")
        #expect(shadowing.status == .warning)
        #expect(shadowing.fix == "sudo rm \(etc) && sudo udevadm control --reload && systemctl --user restart flickd", "\(shadowing.text)")

        system.fileContents[etc] = nil
        system.fileContents[package] = UinputDevice.udevRule + "\n"
        let packaged = try system.checks().one("virtual touchpad tag")
        #expect(packaged.status == .warning)
        #expect(packaged.fix?.hasPrefix("install the flickd package of this flickd's version") == true, "\(packaged.text)")

        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[output]\nmode = \"wheel\"\n"
        #expect(system.checks().titled("virtual touchpad tag").isEmpty, "the wheel output has no touchpad")
    }

    /// A touchpad the desktop disabled: doctor names it and says flickd starts no coast from it;
    /// nothing is said of a pad the desktop leaves on, or of another pad it disabled.
    @Test func aPadTheDesktopDisabledIsNamed() throws {
        var system = FakeSystem()
        let sysfs = "/sys/devices/platform/i8042/serio1/input/input5/event4/device/id/"
        system.fileContents[sysfs + "vendor"] = "0002\n"
        system.fileContents[sysfs + "product"] = "0007\n"
        let identity = DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)
        let source = "sway (swaymsg -t get_inputs)"
        var perDevice = PerDeviceNaturalScrolling(entries: [.init(device: identity, natural: false)], source: source, unlisted: nil)
        perDevice.disabled = [.init(device: identity, why: "sway disables it (events disabled)")]
        system.desktop = DesktopSettings.Answer(false, source, perDevice: perDevice)
        let check = try system.checks().one("touchpad disabled")
        #expect(check.status == .warning)
        #expect(check.detail == "/dev/input/event4 \"SynPS/2 Synaptics TouchPad\": sway disables it (events disabled) (\(source)), so flickd starts no coast from its flicks; its touches still stop a coast",
                "\(check.text)")
        #expect(check.fix?.contains("events enabled") == true)

        // The wheel output with scroll.natural set, off X11: the daemon does not ask the desktop,
        // so it does not see the pad disabled, and it coasts.
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[output]\nmode = \"wheel\"\n[scroll]\nnatural = false\n"
        #expect(system.checks().titled("touchpad disabled").isEmpty, "not asked: the pad coasts")
        system.xServer = (":0", nil)
        #expect(try system.checks().one("touchpad disabled").status == .warning, "on X11 the desktop is asked for the drivers' glides")
        system.xServer = nil
        system.fileContents["/home/ada/.config/flickd/config.toml"] = nil

        system.desktop?.perDevice?.disabled = [.init(device: DeviceIdentity(name: "other", vendor: 2, product: 8), why: "sway disables it (events disabled)")]
        #expect(system.checks().titled("touchpad disabled").isEmpty, "another pad disabled: nothing to say of this one")
        system.desktop?.perDevice?.disabled = []
        #expect(system.checks().titled("touchpad disabled").isEmpty, "enabled: nothing to say")
        #expect(try system.checks().one("output").status == .ok)

        // `input type:touchpad events disabled` reaches flickd's own pad: glides show nowhere.
        system.desktop?.perDevice?.disabled = [.init(device: VirtualTouchpad.identity, why: "sway disables it (events disabled)")]
        let output = try system.checks().one("output")
        #expect(output.status == .failure)
        #expect(output.detail.hasSuffix("but sway disables it (events disabled) (\(source)), so glides through it reach no app"), "\(output.text)")
        #expect(output.fix?.contains("output.mode = \"wheel\"") == true)
        #expect(system.checks().titled("touchpad disabled").isEmpty, "the virtual pad is not one of the real pads")
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[output]\nmode = \"wheel\"\n"
        #expect(try system.checks().one("output").status == .ok, "the wheel output does not go through it")
    }

    /// sway lists only the devices it has: with flickd stopped, its pad is not there to compare.
    @Test func swayWithoutTheVirtualPadSaysSoAndRunsThePadsThroughTheDaemon() throws {
        var system = FakeSystem()
        let pad = PerDeviceNaturalScrolling.Entry(device: DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7), natural: true)
        let perDevice = PerDeviceNaturalScrolling(entries: [pad], source: SwayInputs.source, unlisted: nil)
        system.desktop = DesktopSettings.Answer(true, SwayInputs.source, perDevice: perDevice)
        let check = try system.checks().one("output")
        #expect(check.status == .ok, "\(check.text)")
        #expect(check.detail.contains("does not list that device now (is flickd running? it creates the device when it opens a touchpad or touchscreen)"), "\(check.text)")
        system.desktop?.perDevice?.entries.append(.init(device: VirtualTouchpad.identity, natural: false))
        #expect(try system.checks().one("output").detail.contains("(\(SwayInputs.source)) and scrolls it traditional"))
    }
}
