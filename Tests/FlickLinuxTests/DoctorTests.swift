import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// A machine described in a few fields, for `Doctor`. The default is a laptop where everything
/// flickd needs is in place: uinput loaded and writable, one touchpad the user can read, the
/// user in `input` in this session, the service enabled and running, no configuration file.
private struct FakeSystem: SystemProbe {
    var files: Set<String> = ["/sys/module/uinput", "/dev/uinput", "/dev/input"]
    var uinputError: SystemError?
    var nodes: [InputNode] = [
        InputNode(devnode: "/dev/input/event4", syspath: "/sys/devices/platform/i8042/serio1/input/input5/event4",
                  name: "SynPS/2 Synaptics TouchPad", kind: .touchpad),
        InputNode(devnode: "/dev/input/event3", syspath: "/sys/devices/platform/i8042/serio0/input/input3/event3",
                  name: "AT Translated Set 2 keyboard", kind: .keyboard),
    ]
    var readErrors: [String: SystemError] = [:]
    var user: UserAccount? = UserAccount(uid: 1000, name: "ada", primaryGroup: 1000)
    var inputGID: UInt32? = 105
    var database: [UInt32] = [1000, 105]
    var process: [UInt32] = [1000, 105]
    /// What `systemctl` answers, by its arguments joined with spaces; a missing entry means
    /// systemctl is not installed.
    var commands: [String: CommandResult] = [
        "systemctl --user is-enabled flickd": CommandResult(status: 0, output: "enabled\n"),
        "systemctl --user is-active flickd": CommandResult(status: 0, output: "active\n"),
    ]
    var fileContents: [String: String] = [:]
    var searchPath = ["/home/ada/.config/flickd/config.toml", "/etc/flickd/config.toml"]
    var desktop: (value: Bool, source: String)? = (false, "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")

    func exists(_ path: String) -> Bool { files.contains(path) || fileContents[path] != nil }
    func writeAccess(_ path: String) -> SystemError? { path == "/dev/uinput" ? uinputError : nil }
    func readAccess(_ path: String) -> SystemError? { readErrors[path] }
    func inputNodes() -> [InputNode] { nodes }
    func currentUser() -> UserAccount? { user }
    func groupID(named name: String) -> UInt32? { name == "input" ? inputGID : nil }
    func databaseGroups(of user: UserAccount) -> [UInt32] { database }
    func processGroups() -> [UInt32] { process }
    func run(_ arguments: [String]) -> CommandResult? { commands[arguments.joined(separator: " ")] }
    func readFile(_ path: String) -> Result<String, SystemError> {
        fileContents[path].map { .success($0) } ?? .failure(SystemError(errno: ENOENT, call: "open", path: path))
    }
    var configurationSearchPath: [String] { searchPath }
    func desktopNaturalScrolling() -> (value: Bool, source: String)? { desktop }

    /// The checks a doctor makes of this machine.
    func checks(config: String? = nil) -> [Doctor.Check] { Doctor(probe: self, configurationPath: config).run() }
}

private let denied = SystemError(errno: EACCES, call: "open")

private extension Array where Element == Doctor.Check {
    /// The checks titled `title`.
    func titled(_ title: String) -> [Doctor.Check] { filter { $0.title == title } }
    /// The one check titled `title`.
    func one(_ title: String) throws -> Doctor.Check {
        let found = titled(title)
        #expect(found.count == 1, "one \"\(title)\" check, got:\n\(found.map(\.text).joined(separator: "\n"))")
        return try #require(found.first)
    }
    var report: String { map(\.text).joined(separator: "\n") }
}

@Suite struct DoctorTests {
    @Test func aMachineWithEverythingInPlacePassesEveryCheck() {
        let checks = FakeSystem().checks()
        #expect(checks.allSatisfy { $0.status == .ok }, "\(checks.report)")
        #expect(!Doctor.blocks(checks))
        #expect(checks.allSatisfy { $0.fix == nil })
        #expect(checks.map(\.title) == ["uinput module", "/dev/uinput writable", "touch devices", "input group",
                                        "flickd service", "configuration", "natural scrolling", "output"])
        #expect(checks.report.contains("✓ touch devices: /dev/input/event4 \"SynPS/2 Synaptics TouchPad\" (touchpad): readable"))
    }

    // MARK: uinput

    @Test func withoutUinputTheModuleIsLoadedAndListedForBoot() throws {
        var system = FakeSystem()
        system.files = ["/dev/input"]
        let checks = system.checks()
        let module = try checks.one("uinput module")
        #expect(module.status == .failure)
        #expect(module.fix == "sudo modprobe uinput && sudo cp systemd/flickd-uinput.conf /etc/modules-load.d/")
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure && writable.fix == "sudo modprobe uinput")
        #expect(Doctor.blocks(checks))
    }

    @Test func uinputBuiltIntoTheKernelHasNoModuleDirectoryButANode() throws {
        var system = FakeSystem()
        system.files.remove("/sys/module/uinput")
        #expect(try system.checks().one("uinput module").status == .ok)
    }

    @Test func aRootOnlyUinputNodeNeedsTheUdevRule() throws {
        var system = FakeSystem()
        system.uinputError = SystemError(errno: EACCES, call: "access", path: "/dev/uinput")
        let checks = system.checks()
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure)
        #expect(writable.fix == "sudo cp systemd/70-flickd-uinput.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger /dev/uinput")
        #expect(writable.detail.contains("Permission denied"))
        #expect(Doctor.blocks(checks))
    }

    // MARK: Touch devices and the input group

    @Test func aUserOutsideTheInputGroupIsToldToJoinIt() throws {
        var system = FakeSystem()
        system.database = [1000]
        system.process = [1000]
        system.readErrors["/dev/input/event4"] = denied
        let checks = system.checks()
        let touch = try checks.one("touch devices")
        #expect(touch.status == .failure && touch.detail.contains("cannot be read (Permission denied)"))
        #expect(touch.fix == "sudo usermod -aG input $USER, then log out and back in")
        let group = try checks.one("input group")
        #expect(group.status == .failure && group.fix == touch.fix)
        #expect(Doctor.blocks(checks))
    }

    @Test func aUserAddedToTheGroupButNotLoggedInAgainIsToldToLogInAgain() throws {
        // usermod -aG input ada ran, but this session (and the user manager) started before.
        var system = FakeSystem()
        system.database = [1000, 105]
        system.process = [1000]
        system.readErrors["/dev/input/event4"] = denied
        let checks = system.checks()
        let group = try checks.one("input group")
        #expect(group.status == .failure)
        #expect(group.detail.contains("added to input after this session started"), "\(group.detail)")
        #expect(group.fix?.hasPrefix("log out of every session and back in") == true)
        #expect(try checks.one("touch devices").fix == group.fix, "not usermod again")
    }

    @Test func devicesReadableWithoutTheGroupOnlyWarn() throws {
        // A uaccess ACL gives the logged-in user the touchpad without the input group.
        var system = FakeSystem()
        system.database = [1000]
        system.process = [1000]
        let checks = system.checks()
        #expect(try checks.one("touch devices").status == .ok)
        #expect(try checks.one("input group").status == .warning)
        #expect(!Doctor.blocks(checks), "\(checks.report)")
    }

    @Test func oneUnreadableDeviceOfTwoIsAWarning() {
        var system = FakeSystem()
        system.nodes.append(InputNode(devnode: "/dev/input/event9", syspath: "", name: "ELAN Touchscreen", kind: .touchscreen))
        system.readErrors["/dev/input/event9"] = denied
        let touch = system.checks().titled("touch devices")
        #expect(touch.map(\.status) == [.ok, .warning], "\(touch.map(\.text))")
        #expect(!Doctor.blocks(system.checks()))
    }

    @Test func noTouchDeviceAtAllBlocks() throws {
        var system = FakeSystem()
        system.nodes = [
            InputNode(devnode: "/dev/input/event3", syspath: "", name: "AT Translated Set 2 keyboard", kind: .keyboard),
            InputNode(devnode: "/dev/input/event12", syspath: "", name: "flickd virtual wheel", kind: .mouse),
        ]
        let checks = system.checks()
        let touch = try checks.one("touch devices")
        #expect(touch.status == .failure && touch.detail.hasPrefix("none"))
        #expect(Doctor.blocks(checks))
    }

    @Test func aMachineWithoutDevInputSaysSo() throws {
        // A container: no /dev/input, no uinput, no user manager (this build machine).
        var system = FakeSystem()
        system.files = []
        system.nodes = []
        let touch = try system.checks().one("touch devices")
        #expect(touch.status == .failure && touch.detail.contains("no /dev/input"))
        #expect(touch.fix == nil, "nothing to run: flickd belongs on the machine with the touchpad")
    }

    @Test func runningAsRootIsAWarningAndTheGroupIsNotNeeded() throws {
        var system = FakeSystem()
        system.user = UserAccount(uid: 0, name: "root", primaryGroup: 0)
        system.database = [0]
        system.process = [0]
        let checks = system.checks()
        #expect(checks.first?.title == "user" && checks.first?.status == .warning)
        #expect(try checks.one("input group").status == .ok)
    }

    // MARK: The service

    private func service(enabled: CommandResult?, active: CommandResult?) throws -> Doctor.Check {
        var system = FakeSystem()
        system.commands = [:]
        system.commands["systemctl --user is-enabled flickd"] = enabled
        system.commands["systemctl --user is-active flickd"] = active
        return try system.checks().one("flickd service")
    }

    @Test func aDisabledServiceIsEnabledAndStarted() throws {
        let check = try service(enabled: CommandResult(status: 1, output: "disabled\n"),
                                active: CommandResult(status: 3, output: "inactive\n"))
        #expect(check.status == .failure)
        #expect(check.fix == "systemctl --user enable --now flickd")
        #expect(check.text == "✗ flickd service: disabled, inactive\n    fix: systemctl --user enable --now flickd")
    }

    @Test func aFailedServicePointsAtTheJournal() throws {
        let check = try service(enabled: CommandResult(status: 0, output: "enabled\n"),
                                active: CommandResult(status: 3, output: "failed\n"))
        #expect(check.status == .failure && check.detail.contains("journalctl --user -u flickd"))
        #expect(check.fix == "systemctl --user restart flickd")
    }

    @Test func aServiceNotInstalledIsAFailureOnBothSystemdSpellings() throws {
        // systemd 252 says it in words on stderr; newer ones print "not-found".
        for enabled in [CommandResult(status: 1, output: "Failed to get unit file state for flickd.service: No such file or directory\n"),
                        CommandResult(status: 4, output: "not-found\n")] {
            let check = try service(enabled: enabled, active: CommandResult(status: 3, output: "inactive\n"))
            #expect(check.status == .failure && check.detail.contains("not installed"), "\(check.text)")
            #expect(check.fix == "systemctl --user enable --now flickd")
        }
    }

    @Test func withoutSystemctlOrAUserManagerTheServiceIsAWarning() throws {
        let missing = try service(enabled: nil, active: nil)
        #expect(missing.status == .warning && missing.fix == nil && missing.detail.contains("systemctl is not installed"))

        let noBus = try service(
            enabled: CommandResult(status: 1, output: "Failed to get unit file state for flickd.service: No such file or directory\n"),
            active: CommandResult(status: 1, output: "Failed to connect to bus: No medium found\n"))
        #expect(noBus.status == .warning, "\(noBus.text)")
        #expect(noBus.detail.contains("Failed to connect to bus: No medium found"))
    }

    @Test func aMaskedServiceIsUnmaskedFirst() throws {
        let check = try service(enabled: CommandResult(status: 1, output: "masked\n"),
                                active: CommandResult(status: 3, output: "inactive\n"))
        #expect(check.fix == "systemctl --user unmask flickd && systemctl --user enable --now flickd")
    }

    @Test func aRunningServiceThatIsNotEnabledWarns() throws {
        let check = try service(enabled: CommandResult(status: 1, output: "disabled\n"),
                                active: CommandResult(status: 0, output: "active\n"))
        #expect(check.status == .warning && check.fix == "systemctl --user enable flickd")
    }

    // MARK: The configuration

    @Test func theFirstConfigurationFileOnTheSearchPathIsChecked() throws {
        var system = FakeSystem()
        system.fileContents["/etc/flickd/config.toml"] = "[coast]\ndeceleration_rate = 1.5\n"
        let checks = system.checks()
        let check = try checks.one("configuration")
        #expect(check.status == .failure)
        #expect(check.detail.hasPrefix("/etc/flickd/config.toml has 1 problem, the first: /etc/flickd/config.toml:2:"), "\(check.detail)")
        #expect(check.fix == "flickd check-config /etc/flickd/config.toml")
        #expect(Doctor.blocks(checks))

        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nspeed = 30\n"
        #expect(try system.checks().one("configuration").detail == "/home/ada/.config/flickd/config.toml is valid")
    }

    @Test func anExplicitConfigurationIsCheckedEvenWhenItIsMissing() throws {
        let check = try FakeSystem().checks(config: "/tmp/my flickd.toml").one("configuration")
        #expect(check.status == .failure && check.detail == "cannot read /tmp/my flickd.toml: No such file or directory")
        #expect(check.fix == "flickd check-config '/tmp/my flickd.toml'", "quoted for the shell")
    }

    @Test func withoutAConfigurationFileTheDefaultsApply() throws {
        let check = try FakeSystem().checks().one("configuration")
        #expect(check.status == .ok && check.detail.contains("the built-in defaults apply"))
    }

    // MARK: Natural scrolling

    @Test func autoFollowsTheDesktopAndSaysWhereItLooked() throws {
        var system = FakeSystem()
        system.desktop = (true, "KDE kcminputrc [Libinput][1739][52737][SYNA2B31:00 06CB:CD41 Touchpad] NaturalScroll")
        let check = try system.checks().one("natural scrolling")
        #expect(check.status == .ok)
        #expect(check.detail == "natural: scroll.natural = \"auto\" follows the desktop (KDE kcminputrc [Libinput][1739][52737][SYNA2B31:00 06CB:CD41 Touchpad] NaturalScroll)")
    }

    @Test func autoWithoutADesktopSettingWarnsButDoesNotBlock() throws {
        var system = FakeSystem()
        system.desktop = nil
        let checks = system.checks()
        let check = try checks.one("natural scrolling")
        #expect(check.status == .warning && check.detail.hasPrefix("traditional: scroll.natural = \"auto\" found no desktop setting"))
        #expect(!Doctor.blocks(checks))
    }

    @Test func anExplicitSettingAgainstTheDesktopWarns() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = true\n"
        let against = try system.checks().one("natural scrolling")
        #expect(against.status == .warning, "the desktop (GNOME) scrolls traditionally")
        #expect(against.detail.contains("coasts will run against your scrolls; set scroll.natural = \"auto\""))

        system.desktop = (true, "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")
        let agreeing = try system.checks().one("natural scrolling")
        #expect(agreeing.status == .ok && agreeing.detail.hasPrefix("natural: scroll.natural = true, as the desktop"))
    }

    /// A `[[device]]` section's `scroll.natural` is resolved for the touchpad it matches (by
    /// name, and by ids read from sysfs), as the daemon resolves it.
    @Test func aDeviceSectionIsCheckedForItsTouchpad() throws {
        var system = FakeSystem()
        let syspath = "/sys/devices/platform/i8042/serio1/input/input5/event4"
        system.fileContents[syspath + "/device/id/vendor"] = "0002\n"
        system.fileContents["/home/ada/.config/flickd/config.toml"] = """
            [[device]]
            name = "logitech"
            [device.scroll]
            natural = false

            [[device]]
            name = "synaptics"
            vendor = 0x0002
            [device.scroll]
            natural = true
            """
        let checks = system.checks()
        #expect(try checks.one("configuration").status == .ok, "\(checks.report)")
        let found = checks.titled("natural scrolling")
        #expect(found.count == 2, "the top level's, then the touchpad's:\n\(checks.report)")
        let pad = try #require(found.last)
        #expect(pad.status == .warning, "the desktop (GNOME) scrolls traditionally")
        #expect(pad.detail.hasPrefix("/dev/input/event4 \"SynPS/2 Synaptics TouchPad\": natural: scroll.natural = true in [[device]] 2, but the desktop scrolls traditional"), "\(pad.detail)")

        system.fileContents[syspath + "/device/id/vendor"] = "0003\n"
        #expect(system.checks().titled("natural scrolling").count == 1, "another vendor: the section does not match")
        system.desktop = (true, "KDE test")
        system.fileContents[syspath + "/device/id/vendor"] = "0002\n"
        #expect(try #require(system.checks().titled("natural scrolling").last).status == .ok, "natural on a natural desktop")
    }

    @Test func aBrokenConfigurationIsNotComparedWithTheDesktop() throws {
        var system = FakeSystem()
        system.fileContents["/etc/flickd/config.toml"] = "[scroll]\nnatural = \"sometimes\"\n"
        let check = try system.checks().one("natural scrolling")
        #expect(check.status == .warning && check.detail.contains("not compared with scroll.natural"))
    }

    @Test func shellQuoting() {
        #expect(Doctor.shellQuoted("/etc/flickd/config.toml") == "/etc/flickd/config.toml")
        #expect(Doctor.shellQuoted("it's here") == "'it'\\''s here'")
        #expect(Doctor.shellQuoted("") == "''")
    }
}

/// The syscall wrappers `LiveSystem` uses, on things every Linux machine has.
@Suite struct LiveSystemTests {
    @Test func runCapturesOutputAndStatus() throws {
        let result = try #require(LiveSystem().run(["sh", "-c", "echo out; echo err >&2; exit 3"]))
        #expect(result.status == 3)
        #expect(result.output == "out\nerr\n")
    }

    @Test func runReportsAMissingProgram() {
        #expect(LiveSystem().run(["flickd-no-such-program-\(getpid())"]) == nil)
    }

    @Test func runGivesTheChildNoStandardInput() throws {
        let result = try #require(LiveSystem().run(["cat"]))
        #expect(result.status == 0 && result.output.isEmpty, "cat reads /dev/null and ends at once")
    }

    @Test func accessAndGroupsAnswer() {
        let system = LiveSystem()
        #expect(system.writeAccess("/no/such/file")?.isMissing == true)
        #expect(system.readAccess("/no/such/file")?.isMissing == true)
        #expect(system.processGroups().contains(getegid()))
        #expect(system.groupID(named: "flickd-no-such-group") == nil)
        if let user = system.currentUser() {
            #expect(user.uid == getuid())
            #expect(system.databaseGroups(of: user).contains(user.primaryGroup))
        }
    }

    @Test func textFileWriteRoundTrips() throws {
        let path = NSTemporaryDirectory() + "flickd-doctor-test-\(getpid()).txt"
        defer { unlink(path) }
        try TextFile.write("first, longer text\n", to: path)
        try TextFile.write("ünïcode ✓\n", to: path)
        #expect(try TextFile.read(path) == "ünïcode ✓\n", "replaced, not appended")
        #expect(throws: SystemError.self) { try TextFile.write("x", to: "/no/such/dir/file") }
    }
}

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

    @Test func plotRefusesABadSpeedInOneLine() throws {
        let result = try flickd(["plot", "--speeds", "50,fast"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr == "flickd: --speeds: \"fast\" is not a speed; give positive numbers in mm/s separated by commas, e.g. --speeds 50,100,200,400\n")
    }

    @Test func plotRefusesAConfigurationWithErrors() throws {
        let config = temporary("bad.toml")
        defer { unlink(config) }
        try TextFile.write("[coast]\ndeceleration_rate = 2\n", to: config)
        let result = try flickd(["plot", "--config", config])
        #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.contains("\(config):2:"), "\(result.stderr)")
    }

    @Test func doctorReportsABadConfigurationAndFails() throws {
        let config = temporary("doctor.toml")
        defer { unlink(config) }
        try TextFile.write("[scroll]\nspeeed = 3\n", to: config)
        let result = try flickd(["doctor", "--config", config])
        #expect(result.status == 1)
        #expect(result.stdout.contains("✗ configuration: \(config) has 1 problem"), "\(result.stdout)")
        #expect(result.stdout.contains("    fix: flickd check-config \(config)"))
        // Every line is a check (✓ ! ✗), a fix under one, or the summary.
        for line in result.stdout.split(separator: "\n") {
            #expect(["✓ ", "! ", "✗ ", "    fix: "].contains { line.hasPrefix($0) } || line.hasSuffix("."), "\(line)")
        }
    }

    // MARK: output

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
        system.desktop = (true, "KDE ~/.config/kcminputrc [Libinput][1267][12410][SYNA] NaturalScroll")
        let check = try system.checks().one("output")
        #expect(check.status == .warning)
        #expect(check.fix?.contains("flickd virtual touchpad") == true)
        #expect(check.fix?.contains("Natural scrolling") == true)
    }
}
