import Foundation
import Glibc
import FlickCore
import Testing
@testable import FlickLinux

@Suite struct DoctorTests {
    @Test func aMachineWithEverythingInPlacePassesEveryCheck() {
        var system = FakeSystem()
        // scripts/install's rule, as shipped (the package's, under /usr/lib, would do too).
        system.fileContents[UinputDevice.udevRuleFile] = UinputDevice.udevRule + "\n" + UinputDevice.touchpadRule + "\n"
        let checks = system.checks()
        #expect(checks.allSatisfy { $0.status == .ok }, "\(checks.report)")
        #expect(!Doctor.blocks(checks))
        #expect(checks.allSatisfy { $0.fix == nil })
        #expect(checks.map(\.title) == ["uinput module", "/dev/uinput writable", "touch devices", "input group",
                                        "flickd service", "configuration", "natural scrolling", "output", "virtual touchpad tag"])
        #expect(checks.report.contains("✓ touch devices: /dev/input/event4 \"SynPS/2 Synaptics TouchPad\" (touchpad): readable"))
    }

    // MARK: uinput

    @Test func withoutUinputTheModuleIsLoadedAndListedForBoot() throws {
        var system = FakeSystem()
        system.files = ["/dev/input"]
        let checks = system.checks()
        let module = try checks.one("uinput module")
        #expect(module.status == .failure)
        #expect(module.fix == "sudo modprobe uinput && echo uinput | sudo tee /etc/modules-load.d/flickd-uinput.conf >/dev/null")
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure && writable.fix == "sudo modprobe uinput")
        #expect(Doctor.blocks(checks))
    }

    /// A /dev/uinput without /sys/module/uinput is a module not loaded yet, whose node
    /// systemd's kmod-static-nodes made at boot (opening it loads the module), unless the
    /// kernel's modules.builtin lists uinput.ko.
    @Test func uinputNotLoadedIsAStaticNodeUnlessBuiltIntoTheKernel() throws {
        var system = FakeSystem()
        system.files.remove("/sys/module/uinput")
        system.fileContents["/proc/sys/kernel/osrelease"] = "6.1.0-18-amd64\n"
        let staticNode = try system.checks().one("uinput module")
        #expect(staticNode.status == .ok)
        #expect(staticNode.detail == "not loaded yet: /dev/uinput is a static node (made at boot by systemd's kmod-static-nodes), and the kernel loads the module when flickd first opens it", "\(staticNode.text)")

        system.fileContents["/lib/modules/6.1.0-18-amd64/modules.builtin"] = "kernel/drivers/input/evdev.ko\nkernel/drivers/input/misc/uinput.ko\n"
        let builtIn = try system.checks().one("uinput module")
        #expect(builtIn.status == .ok)
        #expect(builtIn.detail == "built into the kernel (/lib/modules/6.1.0-18-amd64/modules.builtin lists uinput.ko)", "\(builtIn.text)")
    }

    /// uinput built into the kernel, but no /dev/uinput (a container without the host's /dev):
    /// doctor gave `sudo modprobe uinput`, which has nothing to load and makes no node.
    @Test func aBuiltInUinputWithoutItsNodeIsNotLoadedAgain() throws {
        var system = FakeSystem()
        system.files = ["/dev/input"]
        system.fileContents["/proc/sys/kernel/osrelease"] = "6.1.0-18-amd64\n"
        system.fileContents["/lib/modules/6.1.0-18-amd64/modules.builtin"] = "kernel/drivers/input/evdev.ko\nkernel/drivers/input/misc/uinput.ko\n"
        let checks = system.checks()
        #expect(try checks.one("uinput module").status == .ok)
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure && writable.fix == nil, "\(writable.text)")
        #expect(writable.detail == "uinput is built into the kernel but there is no /dev/uinput node (a container without the host's /dev?); flickd must run where the device node is",
                "\(writable.text)")
    }

    /// uinput not loaded, and /dev/uinput the static node kmod-static-nodes made at boot, root's
    /// alone (flickd's rule not there at boot): the user's open fails before the kernel would
    /// load the module, and `udevadm trigger /dev/uinput` fails with no device behind the node.
    /// Every fix loads the module first, whose "add" event lets udev apply the rule.
    @Test(arguments: [[], ["/usr/lib/udev/rules.d/70-flickd-uinput.rules"]])
    func aStaticUinputNodeTheUserCannotOpenHasTheModuleLoadedFirst(rules: [String]) throws {
        var system = FakeSystem()
        system.files = Set(["/dev/uinput", "/dev/input"] + rules)
        system.fileContents["/proc/sys/kernel/osrelease"] = "6.1.0-18-amd64\n"
        system.files.insert("/lib/modules/6.1.0-18-amd64")
        system.uinputError = SystemError(errno: EACCES, call: "open", path: "/dev/uinput")
        let checks = system.checks()
        let module = try checks.one("uinput module")
        #expect(module.status == .failure, "\(module.text)")
        #expect(module.fix == "sudo modprobe uinput && echo uinput | sudo tee /etc/modules-load.d/flickd-uinput.conf >/dev/null", "\(module.text)")
        #expect(module.detail.contains("cannot open it (Permission denied)"), "\(module.text)")
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure)
        let fix = try #require(writable.fix)
        #expect(fix.hasPrefix("sudo modprobe uinput && "), "\(writable.text)")
        #expect(fix == "sudo modprobe uinput && " + (rules.isEmpty ? UinputDevice.installUdevRule : UinputDevice.applyUdevRule), "\(writable.text)")
        #expect(writable.detail.contains("static node made at boot"), "\(writable.text)")

        // The daemon's error says the same.
        let advice = UinputDevice.permissionAdvice(installedRule: rules.first, moduleInKernel: false, modulesGone: nil)
        #expect(advice.contains("`sudo modprobe uinput && "), "\(advice)")
    }

    /// The static node, and the running kernel's modules gone since boot (Arch's kernel
    /// package removes them on an upgrade): opening the node fails with ENODEV, or EACCES
    /// before that, and modprobe cannot load uinput either. The fix is a reboot.
    @Test(arguments: [ENODEV, EACCES])
    func aStaticUinputNodeWhoseKernelModulesAreGoneNeedsAReboot(errno: Int32) throws {
        var system = FakeSystem()
        // A system that keeps modules under /lib/modules (another kernel's are there).
        system.files = ["/dev/uinput", "/dev/input", "/usr/lib/modules-load.d/flickd-uinput.conf", "/lib/modules"]
        system.fileContents["/proc/sys/kernel/osrelease"] = "6.12.1-arch1-1\n"
        system.uinputError = SystemError(errno: errno, call: "open", path: "/dev/uinput")
        let checks = system.checks()
        let module = try checks.one("uinput module")
        #expect(module.status == .failure && module.fix == Doctor.Fix.reboot, "\(module.text)")
        #expect(module.detail.contains("the running kernel's modules (/lib/modules/6.12.1-arch1-1) are gone"), "\(module.text)")
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure, "\(writable.text)")
        #expect(writable.fix == (errno == ENODEV ? Doctor.Fix.reboot : "\(UinputDevice.writeUdevRule), then \(Doctor.Fix.reboot)"), "\(writable.text)")
        #expect(UinputDevice.moduleAdvice(installedModules: "/usr/lib/modules-load.d/flickd-uinput.conf", modulesGone: "/lib/modules/6.12.1-arch1-1")
                    .contains("reboot"))
        #expect(UinputDevice.permissionAdvice(installedRule: "/usr/lib/udev/rules.d/70-flickd-uinput.rules", moduleInKernel: false,
                                              modulesGone: "/lib/modules/6.12.1-arch1-1").hasSuffix("Reboot."))

        // No /lib/modules or /usr/lib/modules at all (NixOS keeps them elsewhere; a container
        // sees the host's /dev/uinput without them): a reboot is no fix, modprobe's answer is.
        system.files.remove("/lib/modules")
        #expect(try system.checks().one("uinput module").fix == "sudo modprobe uinput")
        #expect(UinputDevice.modulesGoneSinceBoot(exists: { system.files.contains($0) },
                                                  readFile: { path in system.fileContents[path].map { .success($0) } ?? .failure(SystemError(errno: ENOENT, call: "open", path: path)) }) == nil)
        system.files.insert("/lib/modules")

        // With the modules there, the kernel's refusal is modprobe's to explain.
        system.files.insert("/lib/modules/6.12.1-arch1-1")
        let loadable = system.checks()
        #expect(try loadable.one("uinput module").fix == "sudo modprobe uinput")
        if errno == ENODEV {
            let writable = try loadable.one("/dev/uinput writable")
            #expect(writable.fix == "sudo modprobe uinput" && writable.detail.contains("could not load uinput"), "\(writable.text)")
        }
    }

    /// Doctor opens /dev/uinput as the daemon does (read-write): where that fails, doctor says
    /// so with the same error, rather than judging by access(W_OK). Here /dev/uinput is
    /// usually missing, and both say ENOENT from the same call.
    @Test func theUinputCheckIsTheDaemons() {
        var daemon: SystemError?
        do { try OutputDevice.checkAccess(for: .touchpad) } catch { daemon = error.underlying }
        #expect(LiveSystem().uinputAccess() == daemon)
    }

    @Test func aRootOnlyUinputNodeNeedsTheUdevRule() throws {
        var system = FakeSystem()
        system.uinputError = SystemError(errno: EACCES, call: "open", path: "/dev/uinput")
        let checks = system.checks()
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure)
        #expect(writable.fix == #"printf '%s\n' 'KERNEL=="uinput", SUBSYSTEM=="misc", OPTIONS+="static_node=uinput", TAG+="uaccess"' 'SUBSYSTEM=="input", KERNEL=="event*", DEVPATH=="/devices/virtual/input/*", ATTRS{name}=="flickd virtual touchpad", ENV{ID_INPUT_TOUCHPAD_INTEGRATION}="external"' | sudo tee /etc/udev/rules.d/70-flickd-uinput.rules >/dev/null && sudo udevadm control --reload && sudo udevadm trigger /dev/uinput"#)
        #expect(writable.detail.contains("Permission denied"))
        #expect(Doctor.blocks(checks))
    }

    /// The package's udev rule is in /usr/lib/udev/rules.d (scripts/install's in /etc), and
    /// /dev/uinput is still root's: writing the rule again to /etc would not help (the cause
    /// is elsewhere), would shadow the package's copy and would outlive its purge. The fix
    /// applies the installed rule, and the detail names the likelier causes: the session, or
    /// a rule not yet applied to the node.
    @Test(arguments: [
        (["/usr/lib/udev/rules.d/70-flickd-uinput.rules"], "/usr/lib/udev/rules.d/70-flickd-uinput.rules"),
        (["/etc/udev/rules.d/70-flickd-uinput.rules"], "/etc/udev/rules.d/70-flickd-uinput.rules"),
        (["/usr/lib/udev/rules.d/70-flickd-uinput.rules", "/etc/udev/rules.d/70-flickd-uinput.rules"], "/etc/udev/rules.d/70-flickd-uinput.rules"),
    ])
    func aRootOnlyUinputNodeWithTheRuleInstalledHasTheRuleApplied(rules: [String], named: String) throws {
        var system = FakeSystem()
        system.files.formUnion(rules)
        system.uinputError = SystemError(errno: EACCES, call: "open", path: "/dev/uinput")
        let checks = system.checks()
        let writable = try checks.one("/dev/uinput writable")
        #expect(writable.status == .failure)
        #expect(writable.fix == "sudo udevadm control --reload && sudo udevadm trigger --action=change /dev/uinput", "\(writable.text)")
        #expect(writable.detail.hasPrefix("no (Permission denied), though flickd's udev rule is installed (\(named)): uaccess gives /dev/uinput only to the user of the active local session on the seat, so the likelier cause is the session: an SSH login"),
                "\(writable.text)")
        #expect(!writable.text.contains("tee "), "\(writable.text)")
        #expect(Doctor.blocks(checks))

        // The daemon's error says the same.
        let advice = UinputDevice.permissionAdvice(installedRule: named, moduleInKernel: true, modulesGone: nil)
        #expect(advice == "flickd's udev rule is installed (\(named)): \(UinputDevice.installedRuleCauses). Apply it now with `sudo udevadm control --reload && sudo udevadm trigger --action=change /dev/uinput`.")
    }

    /// The modules-load file is installed (the package's under /usr/lib) and uinput is not
    /// loaded: writing the file again to /etc would change nothing. The fix loads it now, and
    /// the detail says why the boot did not.
    @Test(arguments: ["/usr/lib/modules-load.d/flickd-uinput.conf", "/etc/modules-load.d/flickd-uinput.conf"])
    func uinputNotLoadedWithItsModulesLoadFileInstalledIsLoadedNow(file: String) throws {
        var system = FakeSystem()
        system.files = ["/dev/input", file]
        let checks = system.checks()
        let module = try checks.one("uinput module")
        #expect(module.status == .failure)
        #expect(module.fix == "sudo modprobe uinput", "\(module.text)")
        #expect(module.detail.hasSuffix("though flickd's modules-load file is installed (\(file)): systemd-modules-load loads it at boot, so the likelier cause is that the file came after the last boot, or that the running kernel has no uinput module (modules of a kernel upgraded since boot replaced, a kernel built without it), which `sudo modprobe uinput` says"),
                "\(module.text)")
        #expect(UinputDevice.moduleAdvice(installedModules: file, modulesGone: nil)
                == "flickd's modules-load file is installed (\(file)): \(UinputDevice.installedModuleCauses). Load it now with `sudo modprobe uinput`.")
    }

    /// Where neither file is installed, the daemon's fixes install them, as before; its error
    /// looks where the files are on this machine.
    @Test func theDaemonsUinputFixesInstallWhatIsNotInstalled() {
        #expect(UinputDevice.permissionAdvice(installedRule: nil, moduleInKernel: true, modulesGone: nil) == "Install the udev rule that gives the logged-in user access (uaccess; scripts/install and the package do): `\(UinputDevice.installUdevRule)`.")
        #expect(UinputDevice.moduleAdvice(installedModules: nil, modulesGone: nil) == "Load it, now and at every boot, with `\(UinputDevice.loadModule)` (scripts/install does both).")
        #expect(UinputDevice.installedFile(UinputDevice.udevRuleFiles) { $0.hasPrefix("/usr/lib/") } == "/usr/lib/udev/rules.d/70-flickd-uinput.rules")
        #expect(UinputDevice.installedFile(UinputDevice.modulesLoadFiles) { _ in false } == nil)
        let denied = VirtualWheelError(SystemError(errno: EACCES, call: "open", path: "/dev/uinput"), device: VirtualTouchpad.name)
        #expect(denied.description.contains(UinputDevice.permissionAdvice(installedRule: UinputDevice.installedFile(UinputDevice.udevRuleFiles))))
        let missing = VirtualWheelError(SystemError(errno: ENOENT, call: "open", path: "/dev/uinput"), device: VirtualTouchpad.name)
        #expect(missing.description.contains(UinputDevice.moduleAdvice(installedModules: UinputDevice.installedFile(UinputDevice.modulesLoadFiles))))
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
        #expect(touch.fix == "sudo usermod -aG input $USER, then log out of every session, wait 10 seconds for the systemd user manager to stop, and log back in; or reboot (the only way where lingering keeps the manager running: Linger=yes in `loginctl show-user $USER`)")
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
        #expect(group.fix?.hasPrefix("log out of every session, wait 10 seconds for the systemd user manager to stop") == true)
        #expect(try checks.one("touch devices").fix == group.fix, "not usermod again")
    }

    /// Joining the input group fixes an unreadable device only where there is one and the
    /// user is not in it: with no group, or the group already in this session, the touch
    /// devices' line says what it is, as the input group's line does, and offers no usermod.
    @Test func theTouchDevicesFixMatchesTheGroupState() throws {
        var noGroup = FakeSystem()
        noGroup.inputGID = nil
        noGroup.database = [1000]
        noGroup.process = [1000]
        noGroup.readErrors["/dev/input/event4"] = denied
        let checks = noGroup.checks()
        let touch = try checks.one("touch devices")
        #expect(touch.status == .failure && touch.fix == nil, "\(touch.text)")
        #expect(touch.detail.hasSuffix("cannot be read (Permission denied); this system has no input group: a udev rule must give the device to this user (TAG+=\"uaccess\")"), "\(touch.text)")
        #expect(try checks.one("input group").detail.contains("this system has no input group"))

        var member = FakeSystem()
        member.readErrors["/dev/input/event4"] = denied
        let memberChecks = member.checks()
        let memberTouch = try memberChecks.one("touch devices")
        #expect(memberTouch.status == .failure && memberTouch.fix == nil, "\(memberTouch.text)")
        #expect(memberTouch.detail.hasSuffix("cannot be read (Permission denied), though this session has the input group: the node is not the group's to read (`ls -l /dev/input/event4` shows its owner, group and mode)"), "\(memberTouch.text)")
        #expect(try memberChecks.one("input group").status == .ok)
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

    private static let touchscreen = InputNode(devnode: "/dev/input/event9", syspath: "", name: "ELAN Touchscreen", kind: .touchscreen)

    /// Not in the input group; the touchpad readable through udev's uaccess ACL, the
    /// touchscreen (which does not coast by default) denied. Doctor exited 1, "1 problem stops
    /// flickd from working" (the input group's ✗), while flickd coasts on the touchpad.
    @Test func aDeniedTouchscreenThatDoesNotCoastDoesNotBlock() throws {
        var system = FakeSystem()
        system.database = [1000]
        system.process = [1000]
        system.nodes.append(Self.touchscreen)
        system.readErrors["/dev/input/event9"] = denied
        let checks = system.checks()
        #expect(checks.titled("touch devices").map(\.status) == [.ok, .warning], "\(checks.report)")
        let group = try checks.one("input group")
        #expect(group.status == .warning && group.fix == Doctor.Fix.joinInputGroup, "\(group.text)")
        #expect(!Doctor.blocks(checks), "\(checks.report)")
    }

    /// In the input group, the touchpad unreadable, the touchscreen readable but not coasting
    /// (touchscreen.enabled defaults to false): doctor said "flickd can work", with nothing to
    /// coast on. A touchscreen that coasts makes up for the touchpad.
    @Test func aReadableTouchscreenThatDoesNotCoastIsNoHelp() throws {
        var system = FakeSystem()
        system.nodes.append(Self.touchscreen)
        system.readErrors["/dev/input/event4"] = denied
        let checks = system.checks()
        let touch = checks.titled("touch devices")
        #expect(touch.map(\.status) == [.failure, .ok], "\(checks.report)")
        #expect(touch.last?.detail == "/dev/input/event9 \"ELAN Touchscreen\" (touchscreen): readable, but flickd does not coast on it (touchscreen.enabled = false)",
                "\(checks.report)")
        #expect(Doctor.blocks(checks))

        // Outside the group, the touchpad denied: joining it is the fix that counts.
        var outside = system
        outside.database = [1000]
        outside.process = [1000]
        #expect(try outside.checks().one("input group").status == .failure)

        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[touchscreen]\nenabled = true\n"
        let coasting = system.checks()
        #expect(coasting.titled("touch devices").map(\.status) == [.warning, .ok], "\(coasting.report)")
        #expect(!Doctor.blocks(coasting), "\(coasting.report)")

        // The touchscreen's [[device]] section leaves it alone: no help again.
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[touchscreen]\nenabled = true\n[[device]]\nname = \"ELAN\"\nenabled = false\n"
        let left = system.checks()
        #expect(left.titled("touch devices").last?.detail.hasSuffix("readable, but flickd does not coast on it (enabled = false in [[device]] 1)") == true,
                "\(left.report)")
        #expect(Doctor.blocks(left))
    }

    /// A touchscreen alone, the configuration's defaults (touchscreen.enabled is false): flickd
    /// runs and coasts on nothing. Every device counted as coasting where none did, the
    /// touchscreen's note was dropped, and doctor said "Everything flickd needs is in place",
    /// exit 0. A failure, as with no touch device found, whose fix is the setting.
    @Test func aTouchscreenAloneThatDoesNotCoastLeavesNothingToCoastOn() throws {
        var system = FakeSystem()
        system.nodes = [Self.touchscreen]
        let checks = system.checks()
        let touch = checks.titled("touch devices")
        #expect(touch.map(\.status) == [.ok, .failure], "\(checks.report)")
        #expect(touch.first?.detail == "/dev/input/event9 \"ELAN Touchscreen\" (touchscreen): readable, but flickd does not coast on it (touchscreen.enabled = false)",
                "\(checks.report)")
        #expect(touch.last?.detail == "flickd coasts on none of them (touchscreen.enabled = false; a touchscreen does not coast by default), so it has nothing to coast on",
                "\(checks.report)")
        #expect(touch.last?.fix == "set touchscreen.enabled = true in the configuration (/home/ada/.config/flickd/config.toml)", "\(checks.report)")
        #expect(try checks.one("input group").status == .ok, "the group is no fix")
        #expect(Doctor.blocks(checks))

        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[touchscreen]\nenabled = true\n"
        let coasting = system.checks()
        #expect(coasting.titled("touch devices").map(\.status) == [.ok], "\(coasting.report)")
        #expect(!Doctor.blocks(coasting), "\(coasting.report)")
    }

    /// touchpad.enabled = false on a machine with a touchpad alone: the same, and the fix
    /// names the key that turned it off, in the file read (`--config`'s here).
    @Test func aTouchpadTurnedOffLeavesNothingToCoastOn() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/flickd.toml"] = "[touchpad]\nenabled = false\n"
        let checks = system.checks(config: "/home/ada/flickd.toml")
        let touch = checks.titled("touch devices")
        #expect(touch.map(\.status) == [.ok, .failure], "\(checks.report)")
        #expect(touch.first?.detail == "/dev/input/event4 \"SynPS/2 Synaptics TouchPad\" (touchpad): readable, but flickd does not coast on it (touchpad.enabled = false)",
                "\(checks.report)")
        #expect(touch.last?.detail == "flickd coasts on none of them (touchpad.enabled = false), so it has nothing to coast on", "\(checks.report)")
        #expect(touch.last?.fix == "set touchpad.enabled = true in the configuration (/home/ada/flickd.toml)", "\(checks.report)")
        #expect(Doctor.blocks(checks))

        // With a touchscreen too, and its [[device]] section turning it off: either setting.
        system.nodes.append(Self.touchscreen)
        system.fileContents["/home/ada/flickd.toml"] = "[touchpad]\nenabled = false\n[touchscreen]\nenabled = true\n[[device]]\nname = \"ELAN\"\nenabled = false\n"
        let both = system.checks(config: "/home/ada/flickd.toml")
        #expect(both.titled("touch devices").map(\.status) == [.ok, .ok, .failure], "\(both.report)")
        #expect(both.titled("touch devices").last?.fix == "set touchpad.enabled = true in the configuration (/home/ada/flickd.toml); or set enabled = true in [[device]] 1 of the configuration (/home/ada/flickd.toml)",
                "\(both.report)")
    }

    /// A [[device]] section that matches the device but leaves its kind's `enabled` unset takes
    /// the top level's: the top level is named, as the place to change it. Doctor said
    /// "touchpad.enabled = false in [[device]] 1", a line not in that section, and for a
    /// touchscreen dropped "a touchscreen does not coast by default".
    @Test func aSectionThatOnlyInheritsEnabledNamesTheTopLevel() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/flickd.toml"] = "[touchpad]\nenabled = false\n[[device]]\nname = \"Synaptics\"\nscroll.speed = 20\n"
        let pad = system.checks(config: "/home/ada/flickd.toml").titled("touch devices")
        #expect(pad.first?.detail.hasSuffix("readable, but flickd does not coast on it (touchpad.enabled = false)") == true, "\(pad)")
        #expect(pad.last?.detail == "flickd coasts on none of them (touchpad.enabled = false), so it has nothing to coast on", "\(pad)")
        #expect(pad.last?.fix == "set touchpad.enabled = true in the configuration (/home/ada/flickd.toml)", "\(pad)")

        // The section that sets it itself is named, as before.
        system.fileContents["/home/ada/flickd.toml"] = "[[device]]\nname = \"Synaptics\"\ntouchpad.enabled = false\n"
        let own = system.checks(config: "/home/ada/flickd.toml").titled("touch devices")
        #expect(own.last?.detail == "flickd coasts on none of them (touchpad.enabled = false in [[device]] 1), so it has nothing to coast on", "\(own)")
        #expect(own.last?.fix == "set touchpad.enabled = true in [[device]] 1 of the configuration (/home/ada/flickd.toml)", "\(own)")

        // A touchscreen by its defaults, its section only about speed: the default's hint stays.
        system.nodes = [Self.touchscreen]
        system.fileContents["/home/ada/flickd.toml"] = "[[device]]\nname = \"ELAN\"\nscroll.speed = 20\n"
        let screen = system.checks(config: "/home/ada/flickd.toml").titled("touch devices")
        #expect(screen.last?.detail == "flickd coasts on none of them (touchscreen.enabled = false; a touchscreen does not coast by default), so it has nothing to coast on",
                "\(screen)")
        #expect(screen.last?.fix == "set touchscreen.enabled = true in the configuration (/home/ada/flickd.toml)", "\(screen)")
    }

    /// Every fix that needs a new login waits for the systemd user manager to stop: it
    /// outlives a logout by 10 s (UserStopDelaySec) and keeps the groups it started with, so
    /// "log out and back in" left flickd without the group.
    @Test func theGroupFixesWaitForTheUserManagerToStop() {
        for fix in [Doctor.Fix.joinInputGroup, Doctor.Fix.logInAgain] {
            #expect(fix.contains("log out of every session, wait 10 seconds for the systemd user manager to stop, and log back in; or reboot (the only way where lingering keeps the manager running"),
                    "\(fix)")
            #expect(!fix.contains("log out and back in"), "\(fix)")
        }
        #expect(Doctor.Fix.joinInputGroup.hasPrefix("sudo usermod -aG input $USER, then log out of every session"))
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

    /// `sudo usermod -aG input ada`, then a quick logout and login: the new session has the
    /// group, so doctor reads the touchpad, but the systemd user manager outlived the logout
    /// (UserStopDelaySec) and the flickd it started lacks the group and logs "cannot open".
    /// Doctor said every check passed; it now reads the service's groups.
    @Test func aServiceWhoseUserManagerPredatesTheGroupCannotReadTheDevices() throws {
        var system = FakeSystem()
        system.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: "4242\n")
        system.fileContents["/proc/4242/environ"] = "HOME=/home/ada\0XDG_CURRENT_DESKTOP=GNOME\0"
        system.fileContents["/proc/4242/status"] = "Name:\tflickd\nUid:\t1000\t1000\t1000\t1000\nGroups:\t1000 \nNSpid:\t4242\n"
        let checks = system.checks()
        #expect(try checks.one("input group").status == .ok, "this session has it")
        let groups = try checks.one("service groups")
        #expect(groups.status == .failure, "\(checks.report)")
        #expect(groups.detail.hasPrefix("flickd (pid 4242) runs without the input group (gid 105), which this session has and /dev/input/event4 takes, so it cannot open it"),
                "\(groups.text)")
        #expect(groups.fix == Doctor.Fix.restartUserManager && groups.fix?.contains("wait 10 seconds") == true)
        #expect(Doctor.blocks(checks))

        // The user manager started after the usermod: fine.
        system.fileContents["/proc/4242/status"] = "Groups:\t105 1000 \n"
        let has = try system.checks().one("service groups")
        #expect(has.status == .ok && has.detail == "flickd (pid 4242) has the input group (gid 105), which the touch devices take", "\(has.text)")

        // A touchpad readable without the group (udev's uaccess ACL): nothing to check.
        system.fileContents["/proc/4242/status"] = "Groups:\t1000\n"
        system.readingGroups = [:]
        #expect(system.checks().titled("service groups").isEmpty)
        #expect(!Doctor.blocks(system.checks()))
    }

    /// /dev/uinput given to a group (`GROUP="uinput", MODE="0660"`, as the uinput check
    /// suggests), the user added to it, a quick logout and login: doctor opens /dev/uinput, but
    /// the user manager kept its groups, and the flickd it starts fails its start-time check of
    /// /dev/uinput. Doctor passed "/dev/uinput writable" and "service groups": it compared only
    /// the touch devices' group, and only a running flickd's.
    @Test func aUserManagerWithoutTheUinputGroupCannotStartFlickd() throws {
        var system = FakeSystem()
        system.uinputGID = 990
        system.database = [1000, 105, 990]
        system.process = [1000, 105, 990]
        system.writingGroups["/dev/uinput"] = 990
        // flickd failed its start: no main process; its user manager is pid 1234.
        system.commands["systemctl --user is-active flickd"] = CommandResult(status: 3, output: "failed\n")
        system.commands["systemctl show --property=MainPID --value user@1000.service"] = CommandResult(status: 0, output: "1234\n")
        system.fileContents["/proc/1234/status"] = "Name:\tsystemd\nGroups:\t105 1000 \n"
        let checks = system.checks()
        #expect(try checks.one("/dev/uinput writable").status == .ok)
        let manager = try checks.one("service groups")
        #expect(manager.status == .failure, "\(checks.report)")
        #expect(manager.detail.hasPrefix("the systemd user manager (pid 1234), which starts flickd, runs without the uinput group (gid 990), which this session has and /dev/uinput takes, so the flickd it starts cannot open it (flickd opens /dev/uinput when it starts, and stops without it): it began before ada joined the group"),
                "\(manager.text)")
        #expect(manager.fix == Doctor.Fix.restartUserManager)

        // A flickd that runs (started while /dev/uinput was the seat user's), without the group.
        system.commands["systemctl --user is-active flickd"] = CommandResult(status: 0, output: "active\n")
        system.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: "4242\n")
        system.fileContents["/proc/4242/environ"] = "HOME=/home/ada\0XDG_CURRENT_DESKTOP=GNOME\0"
        system.fileContents["/proc/4242/status"] = "Groups:\t105 1000 \n"
        let running = try system.checks().one("service groups")
        #expect(running.status == .failure, "\(running.text)")
        #expect(running.detail.hasPrefix("flickd (pid 4242) runs without the uinput group (gid 990), which this session has and /dev/uinput takes, so it cannot open it"),
                "\(running.text)")

        // With both groups: fine.
        system.fileContents["/proc/4242/status"] = "Groups:\t105 990 1000 \n"
        let has = try system.checks().one("service groups")
        #expect(has.status == .ok, "\(has.text)")
        #expect(has.detail == "flickd (pid 4242) has the input group (gid 105), which the touch devices take; and the uinput group (gid 990), which /dev/uinput takes",
                "\(has.text)")
    }

    /// udev's uaccess gives the seat's user an ACL entry: the device needs no group then.
    @Test func anACLEntryForTheUserLetsItReadWithinTheMask() {
        func acl(_ entries: [(tag: UInt16, permissions: UInt16, id: UInt32)]) -> [UInt8] {
            var bytes: [UInt8] = [2, 0, 0, 0]
            for entry in entries {
                bytes += [UInt8(entry.tag & 0xff), UInt8(entry.tag >> 8), UInt8(entry.permissions & 0xff), UInt8(entry.permissions >> 8)]
                bytes += (0..<4).map { UInt8(truncatingIfNeeded: entry.id >> (8 * UInt32($0))) }
            }
            return bytes
        }
        let uaccess = acl([(0x01, 6, UInt32.max), (0x02, 6, 1000), (0x04, 6, UInt32.max), (0x10, 6, UInt32.max), (0x20, 0, UInt32.max)])
        #expect(Doctor.aclLetsRead(uaccess, uid: 1000))
        #expect(!Doctor.aclLetsRead(uaccess, uid: 1001), "another user's entry")
        #expect(!Doctor.aclLetsRead(acl([(0x02, 6, 1000), (0x10, 2, UInt32.max)]), uid: 1000), "the mask takes read away")
        #expect(Doctor.aclLets(uaccess, uid: 1000, permissions: 6), "read and write, /dev/uinput's")
        #expect(!Doctor.aclLets(acl([(0x02, 6, 1000), (0x10, 4, UInt32.max)]), uid: 1000, permissions: 6), "the mask takes write away")
        #expect(Doctor.statusGroups("Name:\tflickd\nGroups:\t24 105 1000 \n") == [24, 105, 1000])
        #expect(Doctor.statusGroups("Groups:\n") == [] && Doctor.statusGroups("Name:\tx\n") == nil)
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

    /// The service's line where systemctl answers `enabled` and `active` for flickd, and
    /// `session` for graphical-session.target (nil: not asked, or no answer).
    private func service(enabled: CommandResult?, active: CommandResult?, session: CommandResult? = nil) throws -> Doctor.Check {
        var system = FakeSystem()
        system.commands = [:]
        system.commands["systemctl --user is-enabled flickd"] = enabled
        system.commands["systemctl --user is-active flickd"] = active
        system.commands["systemctl --user is-active graphical-session.target"] = session
        return try system.checks().one("flickd service")
    }

    /// Sessions that never start graphical-session.target (Xfce on Debian 12, i3, startx) never
    /// start the unit, WantedBy= it: after every login doctor said "enabled, inactive" and gave
    /// `enable --now`, which lasts this session only. It now says why and gives the startup fix.
    @Test func anEnabledServiceInASessionWithoutTheGraphicalTargetIsStartedByTheSession() throws {
        let enabled = CommandResult(status: 0, output: "enabled\n")
        let inactive = CommandResult(status: 3, output: "inactive\n")
        let check = try service(enabled: enabled, active: inactive, session: inactive)
        #expect(check.status == .failure, "\(check.text)")
        #expect(check.detail.contains("this session does not start graphical-session.target"), "\(check.text)")
        #expect(check.fix == Doctor.Fix.startWithSession)
        #expect(check.fix?.hasPrefix("systemctl --user start flickd, and add that command to your session's startup") == true)

        // A session that starts it (GNOME, Plasma): flickd was stopped since; start it again.
        let stopped = try service(enabled: enabled, active: inactive, session: CommandResult(status: 0, output: "active\n"))
        #expect(stopped.text == "✗ flickd service: enabled, inactive\n    fix: systemctl --user enable --now flickd")
        // No answer about the target: as before.
        #expect(try service(enabled: enabled, active: inactive).fix == Doctor.Fix.enableService)
    }

    /// Not enabled, in such a session: `enable --now` started it for this session only, and
    /// enabled it for a target that never starts.
    @Test func aDisabledServiceInASessionWithoutTheGraphicalTargetIsStartedByTheSession() throws {
        let disabled = CommandResult(status: 1, output: "disabled\n")
        let inactive = CommandResult(status: 3, output: "inactive\n")
        let check = try service(enabled: disabled, active: inactive, session: inactive)
        #expect(check.status == .failure && check.fix == Doctor.Fix.startWithSession, "\(check.text)")
        #expect(check.detail.hasPrefix("disabled, inactive: this session does not start graphical-session.target (inactive)"), "\(check.text)")
        let gnome = try service(enabled: disabled, active: inactive, session: CommandResult(status: 0, output: "active\n"))
        #expect(gnome.text == "✗ flickd service: disabled, inactive\n    fix: systemctl --user enable --now flickd")
    }

    /// Masked in /run (`mask --runtime`): `enable --now` is refused for it as for `masked`.
    @Test func aServiceMaskedForThisBootIsUnmaskedFirst() throws {
        let check = try service(enabled: CommandResult(status: 1, output: "masked-runtime\n"),
                                active: CommandResult(status: 3, output: "inactive\n"))
        #expect(check.status == .failure && check.detail == "masked-runtime: systemd will not start it", "\(check.text)")
        #expect(check.fix == "systemctl --user unmask --runtime flickd && systemctl --user enable --now flickd")
    }

    /// Reloading its configuration or stopping: passing states, which doctor took for a stopped
    /// service (✗, `enable --now`).
    @Test func aServiceReloadingOrStoppingIsLookedAtAgain() throws {
        for word in ["reloading", "deactivating"] {
            let check = try service(enabled: CommandResult(status: 0, output: "enabled\n"),
                                    active: CommandResult(status: 0, output: word + "\n"))
            #expect(check.status == .warning && check.fix == nil, "\(check.text)")
            #expect(check.detail == "enabled and \(word): run `flickd doctor` again in a few seconds", "\(check.text)")
        }
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
        // A bare restart right after the unit's start limit (5 starts a minute) is refused,
        // and before the cause is fixed fails again: the journal first, as README says.
        #expect(check.fix == "journalctl --user -u flickd -e, then: systemctl --user reset-failed flickd && systemctl --user restart flickd",
                "\(check.text)")
        let notEnabled = try service(enabled: CommandResult(status: 1, output: "disabled\n"),
                                     active: CommandResult(status: 3, output: "failed\n"))
        #expect(notEnabled.fix?.hasPrefix("journalctl --user -u flickd -e, then: ") == true
                && notEnabled.fix?.hasSuffix(" && systemctl --user enable flickd") == true, "\(notEnabled.text)")
    }

    /// Between Restart=on-failure's tries systemd says "activating": enabling and starting it
    /// again would change nothing; the journal says why it stopped.
    @Test func aServiceRestartingAfterAFailurePointsAtTheJournal() throws {
        let check = try service(enabled: CommandResult(status: 0, output: "enabled\n"),
                                active: CommandResult(status: 3, output: "activating\n"))
        #expect(check.status == .failure, "\(check.text)")
        #expect(check.fix != Doctor.Fix.enableService && check.fix == "journalctl --user -u flickd -e", "\(check.text)")

        // Caught while starting (Type=notify, before READY=1): look again.
        var system = FakeSystem()
        system.commands["systemctl --user is-active flickd"] = CommandResult(status: 3, output: "activating\n")
        system.commands["systemctl --user show --property=SubState --value flickd"] = CommandResult(status: 0, output: "start\n")
        let starting = try system.checks().one("flickd service")
        #expect(starting.status == .warning && starting.fix == nil, "\(starting.text)")
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

        // No bus socket (sudo -u, or su keeping another user's XDG_RUNTIME_DIR): systemctl says
        // "No such file or directory" of the socket, not of the unit.
        let noSocket = CommandResult(status: 1, output: "Failed to connect to bus: No such file or directory\n")
        let socket = try service(enabled: noSocket, active: noSocket)
        #expect(socket.status == .warning && socket.detail.hasPrefix("no systemd user manager to ask (Failed to connect to bus: No such file or directory)"),
                "\(socket.text)")
        #expect(!socket.detail.contains("not installed"), "\(socket.text)")
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

        // Linked in, enabled in /run only (gone at reboot), or indirect: not started at the
        // next login either; doctor said "enabled and running".
        for word in ["linked", "linked-runtime", "indirect", "enabled-runtime"] {
            let running = try service(enabled: CommandResult(status: 0, output: word + "\n"),
                                      active: CommandResult(status: 0, output: "active\n"))
            #expect(running.status == .warning && running.fix == "systemctl --user enable flickd", "\(word): \(running.text)")
            #expect(running.detail == "running but not enabled (\(word)): it will not start at the next login", "\(running.text)")
        }
    }

    // MARK: The configuration

    // MARK: The service's X display

    /// Doctor run in an X11 session on `:0` (cookie in `/home/ada/.Xauthority`), the service
    /// running as pid 4242 with `environ` (entries as `/proc/PID/environ` has them).
    private func serviceDisplay(environ: [String], mainPID: String = "4242\n") -> [Doctor.Check] {
        var system = FakeSystem()
        system.xServer = (":0", "/home/ada/.Xauthority")
        system.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: mainPID)
        system.fileContents["/proc/4242/environ"] = environ.map { $0 + "\0" }.joined()
        return system.checks().titled("service display")
    }

    @Test func aServiceStartedBeforeTheXSessionImportedItsDisplayIsToldToImportIt() throws {
        let checks = serviceDisplay(environ: ["HOME=/home/ada", "XDG_RUNTIME_DIR=/run/user/1000"])
        let check = try #require(checks.first)
        #expect(checks.count == 1 && check.status == .warning)
        #expect(check.detail.hasPrefix("flickd (pid 4242) runs without DISPLAY (this session's is :0), so it cannot ask the X server"), "\(check.text)")
        #expect(check.fix == "systemctl --user import-environment DISPLAY XAUTHORITY && systemctl --user restart flickd")
    }

    @Test func aServiceOnAnotherDisplayOrWithAnotherCookieWarns() throws {
        let other = try #require(serviceDisplay(environ: ["DISPLAY=:1", "XAUTHORITY=/home/ada/.Xauthority"]).first)
        #expect(other.status == .warning && other.detail.contains("runs with DISPLAY=:1, this session's is :0"), "\(other.text)")
        let cookie = try #require(serviceDisplay(environ: ["DISPLAY=:0"]).first)
        #expect(cookie.status == .warning
                && cookie.detail.contains("has no X cookie file (neither XAUTHORITY nor HOME), this session's is /home/ada/.Xauthority: the X server may refuse it"),
                "\(cookie.text)")
        let gdm = try #require(serviceDisplay(environ: ["DISPLAY=:0", "HOME=/home/ada", "XAUTHORITY=/run/user/1000/gdm/Xauthority"]).first)
        #expect(gdm.status == .warning
                && gdm.detail.contains("reads its X cookie from /run/user/1000/gdm/Xauthority, this session's is /home/ada/.Xauthority"),
                "\(gdm.text)")
    }

    @Test func aServiceWithTheSessionsDisplayIsFine() throws {
        let check = try #require(serviceDisplay(environ: ["DISPLAY=:0", "XAUTHORITY=/home/ada/.Xauthority", "A=b=c"]).first)
        #expect(check.status == .ok && check.detail.contains("runs with this session's DISPLAY=:0"), "\(check.text)")
        // No XAUTHORITY: an X client reads ~/.Xauthority, the session's file here.
        let home = try #require(serviceDisplay(environ: ["DISPLAY=:0", "HOME=/home/ada"]).first)
        #expect(home.status == .ok, "\(home.text)")
        #expect(Doctor.cookieFile(authority: nil, home: "/home/ada") == "/home/ada/.Xauthority")
        #expect(Doctor.cookieFile(authority: "", home: nil) == nil)
    }

    @Test func theServicesDisplayIsCheckedOnlyWhereTheXServerIsAskedAndTheServiceRuns() {
        // Wayland, GNOME: no X server asked.
        var wayland = FakeSystem()
        wayland.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: "4242\n")
        wayland.fileContents["/proc/4242/environ"] = "HOME=/home/ada\0"
        #expect(wayland.checks().titled("service display").isEmpty)
        // Not running (systemd says MainPID 0), or its environment unreadable.
        #expect(serviceDisplay(environ: [], mainPID: "0\n").isEmpty)
        var hidden = FakeSystem()
        hidden.xServer = (":0", nil)
        hidden.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: "4242\n")
        #expect(hidden.checks().titled("service display").isEmpty)
    }

    // MARK: The X server's changes

    /// Doctor in an X11 session on `:0` whose watch on the X server's device properties opens,
    /// or fails for `why`.
    private func xServerChanges(failing why: String? = nil) throws -> Doctor.Check {
        var system = FakeSystem()
        system.xServer = (":0", nil)
        system.xServerWatchFailure = why
        let checks = system.checks().titled("X server changes")
        #expect(checks.count == 1)
        return try #require(checks.first)
    }

    @Test func anXSessionWhoseServerCanBeWatchedIsFine() throws {
        let check = try xServerChanges()
        #expect(check.status == .ok && check.fix == nil)
        #expect(check.detail.hasPrefix("flickd hears the X server :0's device-property changes (XInput 2)"), "\(check.text)")
    }

    @Test func anXServerThatCannotBeWatchedSaysWhyAndWhenAChangeIsRead() throws {
        let libXi = try xServerChanges(failing: "cannot load libXi.so.6 (Debian's libxi6)")
        #expect(libXi.status == .warning)
        #expect(libXi.detail.hasPrefix("flickd cannot watch the X server :0 for changes (cannot load libXi.so.6"), "\(libXi.text)")
        #expect(libXi.detail.contains("read only when flickd next asks (`systemctl --user reload flickd`"), "\(libXi.text)")
        #expect(libXi.fix?.hasPrefix("install libX11 and libXi") == true, "\(libXi.text)")
        // An X server that refuses doctor too: nothing to install.
        let refused = try xServerChanges(failing: "cannot connect to the X server :0")
        #expect(refused.status == .warning && refused.fix == nil, "\(refused.text)")
        // No X server asked (Wayland, GNOME): no such check.
        #expect(FakeSystem().checks().titled("X server changes").isEmpty)
    }

    /// The service's desktop name against this session's (GNOME by default in `FakeSystem`).
    private func serviceDesktop(environ: [String], session: String? = "GNOME", plasma: Bool = false,
                                sway: (socket: String, waylandDisplay: String?)? = nil) throws -> Doctor.Check {
        var system = FakeSystem()
        system.desktopName = session
        system.plasmaSession = plasma
        system.sway = sway
        system.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: "4242\n")
        system.fileContents["/proc/4242/environ"] = environ.map { $0 + "\0" }.joined()
        return try system.checks().one("service desktop")
    }

    @Test func aServiceWithoutTheSessionsDesktopNameIsToldToImportIt() throws {
        let missing = try serviceDesktop(environ: ["HOME=/home/ada"])
        #expect(missing.status == .warning)
        #expect(missing.detail.hasPrefix("flickd (pid 4242) runs with no XDG_CURRENT_DESKTOP, this session's is GNOME"), "\(missing.text)")
        #expect(missing.fix == "systemctl --user import-environment XDG_CURRENT_DESKTOP && systemctl --user restart flickd")
        let other = try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=sway"])
        #expect(other.status == .warning && other.detail.contains("runs with XDG_CURRENT_DESKTOP=sway, this session's is GNOME"))
    }

    /// Plasma's own session sets KDE_FULL_SESSION=true: a service without it reads a kcminputrc
    /// with no groups as no setting, not as KWin's per-device defaults.
    @Test func aServiceWithoutPlasmasMarkIsToldToImportIt() throws {
        let unmarked = try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=KDE"], session: "KDE", plasma: true)
        #expect(unmarked.status == .warning, "\(unmarked.text)")
        #expect(unmarked.detail.contains("but without its KDE_FULL_SESSION=true"), "\(unmarked.text)")
        #expect(unmarked.fix == "systemctl --user import-environment KDE_FULL_SESSION && systemctl --user restart flickd")
        let neither = try serviceDesktop(environ: ["HOME=/home/ada"], session: "KDE", plasma: true)
        #expect(neither.fix == "systemctl --user import-environment XDG_CURRENT_DESKTOP KDE_FULL_SESSION && systemctl --user restart flickd",
                "\(neither.text)")
        let marked = try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=KDE", "KDE_FULL_SESSION=true"], session: "KDE", plasma: true)
        #expect(marked.status == .ok, "\(marked.text)")
        // KDE named without Plasma's session (sway setting it for Qt): nothing to import.
        #expect(try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=KDE"], session: "KDE").status == .ok)
    }

    /// sway sessions named KDE (for Qt) or GNOME: doctor reads sway's settings by its SWAYSOCK,
    /// but a service with the name alone reads the named desktop's (a kcminputrc left from a
    /// Plasma login, gsettings' default). Doctor compared the name only and said ✓.
    @Test func aServiceWithoutTheSwaySessionsSocketIsToldToImportIt() throws {
        let sway = (socket: "/run/user/1000/sway-ipc.1000.812.sock", waylandDisplay: Optional("wayland-1"))
        let bare = try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=KDE"], session: "KDE", sway: sway)
        #expect(bare.status == .warning, "\(bare.text)")
        #expect(bare.detail.hasPrefix("flickd (pid 4242) runs with this session's XDG_CURRENT_DESKTOP=KDE but with no SWAYSOCK and no WAYLAND_DISPLAY, where this session is sway's (SWAYSOCK=/run/user/1000/sway-ipc.1000.812.sock, WAYLAND_DISPLAY=wayland-1)"),
                "\(bare.text)")
        #expect(bare.fix == "systemctl --user import-environment SWAYSOCK WAYLAND_DISPLAY && systemctl --user restart flickd")
        // Another sway's socket (an older login's, kept by the user manager), and no desktop name.
        let stale = try serviceDesktop(environ: ["SWAYSOCK=/run/user/1000/sway-ipc.1000.500.sock", "WAYLAND_DISPLAY=wayland-1"],
                                       session: "sway:GNOME", sway: sway)
        #expect(stale.fix == "systemctl --user import-environment XDG_CURRENT_DESKTOP SWAYSOCK && systemctl --user restart flickd", "\(stale.text)")
        let same = try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=KDE", "SWAYSOCK=\(sway.socket)", "WAYLAND_DISPLAY=wayland-1"],
                                      session: "KDE", sway: sway)
        #expect(same.status == .ok, "\(same.text)")
        // Named sway: the service finds sway by its socket in the runtime directory anyway.
        #expect(try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=sway"], session: "sway", sway: sway).status == .ok)
    }

    @Test func aServiceWithTheSessionsDesktopNameOrASessionWithoutOneIsFine() throws {
        let same = try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=GNOME"])
        #expect(same.status == .ok && same.detail == "flickd (pid 4242) runs with this session's XDG_CURRENT_DESKTOP=GNOME")
        let none = try serviceDesktop(environ: ["XDG_CURRENT_DESKTOP=GNOME"], session: nil)
        #expect(none.status == .ok && none.detail.contains("this session sets no XDG_CURRENT_DESKTOP"))
    }

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

        // Emptied: the defaults at start, but not on a reload.
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "\n  \n"
        let empty = try system.checks().one("configuration")
        #expect(empty.status == .ok)
        #expect(empty.detail.hasPrefix("/home/ada/.config/flickd/config.toml is empty: the built-in defaults at start, but a running flickd keeps its settings"),
                "\(empty.detail)")
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "# the defaults\n"
        #expect(try system.checks().one("configuration").detail == "/home/ada/.config/flickd/config.toml is valid", "a comment line is not empty")
    }

    /// A shell whose XDG_CONFIG_HOME differs from the service's: the file the service reads is
    /// the one checked.
    @Test func theRunningServicesConfigurationFileIsChecked() throws {
        var system = FakeSystem()
        system.searchPath = ["/home/ada/alt/flickd/config.toml", "/etc/flickd/config.toml"]  // this shell's
        system.fileContents["/home/ada/alt/flickd/config.toml"] = "[scroll]\nspeed = 30\n"
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[coast]\ndeceleration_rate = 1.5\n"
        #expect(try system.checks().one("configuration").detail == "/home/ada/alt/flickd/config.toml is valid",
                "no service running: this shell's file")
        system.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: "4242\n")
        system.fileContents["/proc/4242/environ"] = "HOME=/home/ada\0XDG_RUNTIME_DIR=/run/user/1000\0"
        let check = try system.checks().one("configuration")
        #expect(check.status == .failure)
        #expect(check.detail.hasPrefix("/home/ada/.config/flickd/config.toml has 1 problem"), "\(check.detail)")
    }

    /// A service started with `--config FILE` (a drop-in's ExecStart) reads that file: it is the
    /// one checked, a relative one in the service's working directory; doctor's own --config
    /// still wins.
    @Test func theRunningServicesConfigOptionIsTheFileChecked() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nspeed = 30\n"
        system.fileContents["/home/ada/dotfiles/flickd.toml"] = "[coast]\ndeceleration_rate = 1.5\n"
        system.commands["systemctl --user show --property=MainPID --value flickd"] = CommandResult(status: 0, output: "4242\n")
        system.fileContents["/proc/4242/environ"] = "HOME=/home/ada\0"
        for commandLine in ["/usr/bin/flickd\0run\0--config\0/home/ada/dotfiles/flickd.toml\0",
                            "/usr/bin/flickd\0run\0--config=/home/ada/dotfiles/flickd.toml\0",
                            "/usr/bin/flickd\0--config\0dotfiles/flickd.toml\0"] {
            system.fileContents["/proc/4242/cmdline"] = commandLine
            system.links["/proc/4242/cwd"] = "/home/ada"
            let check = try system.checks().one("configuration")
            #expect(check.status == .failure, "\(commandLine)")
            #expect(check.detail.hasPrefix("/home/ada/dotfiles/flickd.toml has 1 problem"), "\(commandLine): \(check.detail)")
        }
        // Its working directory removed since: the link reads "(deleted)"; the file is still
        // read through the link.
        system.fileContents["/proc/4242/cmdline"] = "/usr/bin/flickd\0--config\0flickd.toml\0"
        system.links["/proc/4242/cwd"] = "/home/ada/old (deleted)"
        system.fileContents["/proc/4242/cwd/flickd.toml"] = "[coast]\ntick_rate = 5\n"
        let removed = try system.checks().one("configuration")
        #expect(removed.detail.hasPrefix("/proc/4242/cwd/flickd.toml has 1 problem"), "\(removed.detail)")
        system.links["/proc/4242/cwd"] = "/home/ada"
        system.fileContents["/proc/4242/cmdline"] = "/usr/bin/flickd\0run\0--\0--config\0/home/ada/dotfiles/flickd.toml\0"
        #expect(try system.checks().one("configuration").detail == "/home/ada/.config/flickd/config.toml is valid", "after --: no option")
        system.fileContents["/proc/4242/cmdline"] = "/usr/bin/flickd\0run\0--config\0/home/ada/dotfiles/flickd.toml\0"
        let doctors = try system.checks(config: "/home/ada/.config/flickd/config.toml").one("configuration")
        #expect(doctors.detail == "/home/ada/.config/flickd/config.toml is valid", "doctor --config wins")
    }

    @Test func theSeatsActiveSessionIsNamedWhenLogindRecordsIt() throws {
        var system = FakeSystem()
        #expect(system.checks().first { $0.title == "session" } == nil, "no record: nothing said")
        system.fileContents[SeatWatch.seat0] = "ACTIVE=2\nACTIVE_UID=1000\n"
        let mine = try system.checks().one("session")
        #expect(mine.status == .ok && mine.detail == "this user's session is the active one on seat0")
        system.fileContents[SeatWatch.seat0] = "ACTIVE=7\nACTIVE_UID=1001\n"
        let other = try system.checks().one("session")
        #expect(other.status == .warning && other.detail.hasPrefix("another user's session (uid 1001) is the active one on seat0: flickd pauses"))
        system.user = UserAccount(uid: 0, name: "root", primaryGroup: 0)
        #expect(system.checks().first { $0.title == "session" } == nil, "root's flickd follows no session")
    }

    /// doctor's `--config` relative to its working directory: named from the root, in the
    /// detail and in the fix, which runs from any directory; as typed where the directory
    /// cannot be told (removed since).
    @Test func aRelativeConfigurationIsNamedFromTheRoot() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/dotfiles/flickd.toml"] = "[coast]\ntick_rate = 5\n"
        let check = try system.checks(config: "dotfiles/flickd.toml").one("configuration")
        #expect(check.detail.hasPrefix("/home/ada/dotfiles/flickd.toml has 1 problem"), "\(check.text)")
        #expect(check.fix == "flickd check-config /home/ada/dotfiles/flickd.toml")
        system.currentDirectory = nil
        #expect(try system.checks(config: "dotfiles/flickd.toml").one("configuration").fix == "flickd check-config dotfiles/flickd.toml")
    }

    @Test func aConfigurationLinkToNothingIsAProblemNotTheDefaults() throws {
        var system = FakeSystem()
        system.danglingLinks = ["/home/ada/.config/flickd/config.toml"]
        system.fileContents["/etc/flickd/config.toml"] = "[scroll]\nspeed = 30\n"
        let check = try system.checks().one("configuration")
        #expect(check.status == .failure && check.detail == "cannot read /home/ada/.config/flickd/config.toml: No such file or directory")
        #expect(check.fix == "flickd check-config /home/ada/.config/flickd/config.toml")
    }

    @Test func aConfigurationThatIsNotUTF8IsAProblem() throws {
        var system = FakeSystem()
        system.fileBytes["/etc/flickd/config.toml"] = Array("[[device]]\nname = \"".utf8) + [0xE9] + Array("\"\n".utf8)
        let check = try system.checks().one("configuration")
        #expect(check.status == .failure)
        #expect(check.detail == "/etc/flickd/config.toml has 1 problem, the first: /etc/flickd/config.toml:2:9: the file is not UTF-8 (byte 0xE9 here), and TOML files must be: save it as UTF-8")
    }

    @Test func anExplicitConfigurationIsCheckedEvenWhenItIsMissing() throws {
        let check = try FakeSystem().checks(config: "/tmp/my flickd.toml").one("configuration")
        #expect(check.status == .failure && check.detail == "cannot read /tmp/my flickd.toml: No such file or directory")
        #expect(check.fix == "flickd check-config '/tmp/my flickd.toml'", "quoted for the shell")
    }

    /// A FIFO given as the configuration: doctor returns at once (the read does not wait for a
    /// writer) and says what the path is, not the errno's text.
    @Test func aFIFOAsTheConfigurationIsNamedForWhatItIs() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("ff.toml")
        #expect(mkfifo(path, 0o600) == 0)
        var system = FakeSystem()
        system.realPaths = [path]
        let check = try system.checks(config: path).one("configuration")
        #expect(check.status == .failure && check.detail == "cannot read \(path): it is a FIFO (a named pipe), not a regular file", "\(check.detail)")
    }

    /// A configuration over the 64 MiB flickd reads: doctor names the limit, as check-config and
    /// the daemon do, not EFBIG's "File too large" (the largest file a disk can hold).
    @Test func aConfigurationOverTheLimitIsNamedWithTheLimit() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("big.toml")
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, off_t(TextFile.maximumBytes) + 1) == 0, "sparse: nothing is written")
        close(fd)
        var system = FakeSystem()
        system.realPaths = [path]
        let check = try system.checks(config: path).one("configuration")
        #expect(check.status == .failure && check.detail == "cannot read \(path): it is larger than 64 MiB, the most flickd reads", "\(check.detail)")
    }

    @Test func withoutAConfigurationFileTheDefaultsApply() throws {
        let check = try FakeSystem().checks().one("configuration")
        #expect(check.status == .ok && check.detail.contains("the built-in defaults apply"))
    }

    /// coast.deceleration_rate = 0.999 is in range, but with the touchpad output its fast
    /// glides are longer than the virtual touchpad (about 0.87 m along an axis) and stop at its
    /// edge: a warning, as check-config gives it, that does not stop flickd.
    @Test func glidesLongerThanTheVirtualTouchpadHoldsAreAWarning() throws {
        var system = FakeSystem()
        let config = "/home/ada/.config/flickd/config.toml"
        system.fileContents[config] = "[coast]\ndeceleration_rate = 0.999\n"
        let checks = system.checks()
        let glide = try checks.one("glide length")
        #expect(glide.status == .warning && glide.fix == nil)
        #expect(glide.detail == "with output.mode = \"touchpad\", glides from releases faster than 874 mm/s stop at the edge of "
            + "flickd's virtual touchpad (coast.deceleration_rate = 0.999 glides 1.49 m at coast.max_speed = 1500 mm/s; "
            + "the pad holds 0.87 m along an axis): lower coast.max_speed to 874 or coast.deceleration_rate, or use output.mode = \"wheel\"")
        #expect(!Doctor.blocks(checks), "\(checks.report)")
        #expect(try checks.one("configuration").status == .ok)

        // A [[device]] section's own max_speed, at the default rate: that section's line.
        system.fileContents[config] = "[[device]]\nname = \"Synaptics\"\n[device.coast]\nmax_speed = 2000\n"
        let section = try system.checks().one("glide length")
        #expect(section.status == .warning)
        #expect(section.detail.hasPrefix("with output.mode = \"touchpad\", glides from releases faster than 1738 mm/s"), "\(section.detail)")
        #expect(section.detail.hasSuffix("lower device[1].coast.max_speed to 1738 or device[1].coast.deceleration_rate, or use output.mode = \"wheel\""),
                "\(section.detail)")

        // The wheel output, or a max_speed that fits: nothing to say.
        for contents in ["[coast]\ndeceleration_rate = 0.999\n[output]\nmode = \"wheel\"\n",
                         "[coast]\ndeceleration_rate = 0.999\nmax_speed = 874\n"] {
            system.fileContents[config] = contents
            let checks = system.checks()
            #expect(checks.titled("glide length").isEmpty, "\(contents)\n\(checks.report)")
            #expect(try checks.one("configuration").status == .ok)
        }
    }

    // MARK: Natural scrolling

    @Test func autoFollowsTheDesktopAndSaysWhereItLooked() throws {
        var system = FakeSystem()
        system.desktop = DesktopSettings.Answer(true, "KDE kcminputrc [Libinput][1739][52737][SYNA2B31:00 06CB:CD41 Touchpad] NaturalScroll")
        let check = try system.checks().one("natural scrolling")
        #expect(check.status == .ok)
        #expect(check.detail == "natural: scroll.natural = \"auto\" follows the desktop (KDE kcminputrc [Libinput][1739][52737][SYNA2B31:00 06CB:CD41 Touchpad] NaturalScroll)")
    }

    /// Asking may run gsettings for up to 5 s: the doctor asks once for all its checks.
    @Test func theDesktopIsAskedOnce() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[[device]]\nname = \"Synaptics\"\nscroll.natural = true\n"
        let checks = system.checks()
        #expect(checks.filter { $0.title == "natural scrolling" }.count >= 1)
        #expect(system.desktopAsks.count == 1)
    }

    @Test func autoWithoutADesktopSettingWarnsWithTheWheelButDoesNotBlock() throws {
        var system = FakeSystem()
        system.desktop = nil
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[output]\nmode = \"wheel\"\n"
        let checks = system.checks()
        let check = try checks.one("natural scrolling")
        #expect(check.status == .warning && check.detail.hasPrefix("traditional: scroll.natural = \"auto\" found no desktop setting"))
        // It says where `auto` looked and why it found nothing there.
        #expect(check.detail.contains("found no desktop setting: XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed); if"))
        #expect(check.detail.hasSuffix("set scroll.natural = true or coasts run backwards"))
        #expect(!Doctor.blocks(checks))
    }

    /// A desktop flickd cannot read (Weston, and most compositors) with the touchpad output:
    /// a touchpad's coast does not use the guess, so there is nothing to warn of; a coasting
    /// touchscreen's does (its fingers' direction on the virtual touchpad depends on it).
    @Test func autoWithoutADesktopSettingIsNotNeededByTheTouchpadOutputForTouchpads() throws {
        var system = FakeSystem()
        system.desktop = nil
        let touchpadsOnly = try system.checks().one("natural scrolling")
        #expect(touchpadsOnly.status == .ok, "\(touchpadsOnly.text)")
        #expect(touchpadsOnly.detail.hasPrefix("not needed: scroll.natural = \"auto\" found no desktop setting: XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed); with the touchpad output"))

        // A touchscreen that does not coast (touchscreen.enabled is false by default) uses no guess either.
        system.nodes.append(InputNode(devnode: "/dev/input/event9", syspath: "", name: "ELAN Touchscreen", kind: .touchscreen))
        #expect(try system.checks().one("natural scrolling").status == .ok)

        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[touchscreen]\nenabled = true\n"
        let withTouchscreen = try system.checks().one("natural scrolling")
        #expect(withTouchscreen.status == .warning)
        #expect(withTouchscreen.detail.hasSuffix("set scroll.natural = true or touchscreen coasts run backwards"))
    }

    /// A touchscreen whose coast a `[[device]]` section turns on, the top level's
    /// `touchscreen.enabled` false: the daemon resolves the section for it, so it coasts and
    /// its fingers' direction needs the setting. Doctor read the top level only and said "not
    /// needed" and "not used".
    @Test func aTouchscreenThatCoastsOnlyByItsDeviceSectionNeedsTheSetting() throws {
        var system = FakeSystem()
        system.nodes.append(InputNode(devnode: "/dev/input/event9", syspath: "", name: "ELAN Touchscreen", kind: .touchscreen))
        let section = "[[device]]\nname = \"ELAN Touchscreen\"\n[device.touchscreen]\nenabled = true\n"
        system.desktop = nil
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[touchscreen]\nenabled = false\n\n" + section
        let auto = try system.checks().one("natural scrolling")
        #expect(auto.status == .warning && auto.detail.hasSuffix("set scroll.natural = true or touchscreen coasts run backwards"), "\(auto.text)")

        system.desktop = DesktopSettings.Answer(false, "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = true\n\n" + section
        let against = try system.checks().one("natural scrolling")
        #expect(against.status == .warning && against.detail.contains("coasts will run against your scrolls"), "\(against.text)")

        // A section for another device leaves this touchscreen at the top level's false.
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = true\n\n"
            + section.replacingOccurrences(of: "ELAN Touchscreen", with: "Wacom")
        #expect(try system.checks().one("natural scrolling").status == .ok)
    }

    @Test func anExplicitSettingAgainstTheDesktopWarns() throws {
        var system = FakeSystem()
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = true\n[output]\nmode = \"wheel\"\n"
        let against = try system.checks().one("natural scrolling")
        #expect(against.status == .warning, "the desktop (GNOME) scrolls traditionally")
        #expect(against.detail.contains("coasts will run against your scrolls; set scroll.natural = \"auto\""))

        // With the touchpad output and no touchscreen that coasts, nothing uses the setting.
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = true\n"
        let unused = try system.checks().one("natural scrolling")
        #expect(unused.status == .ok, "\(unused.text)")
        #expect(unused.detail.contains("not used: with the touchpad output a touchpad's glide follows the desktop's setting"), "\(unused.detail)")
        system.nodes.append(InputNode(devnode: "/dev/input/event9", syspath: "", name: "ELAN Touchscreen", kind: .touchscreen))
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = true\n[touchscreen]\nenabled = true\n"
        #expect(try system.checks().one("natural scrolling").status == .warning, "a touchscreen's coast uses it")
        system.nodes.removeLast()
        system.fileContents["/home/ada/.config/flickd/config.toml"] = "[scroll]\nnatural = true\n"

        system.desktop = DesktopSettings.Answer(true, "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")
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
            [output]
            mode = "wheel"

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

        // A desktop that keeps the setting per device: this pad's own is compared, not the first's.
        system.fileContents[syspath + "/device/id/product"] = "0007\n"
        let own = PerDeviceNaturalScrolling.Entry(device: DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7), natural: true)
        let other = PerDeviceNaturalScrolling.Entry(device: DeviceIdentity(name: "Other Touchpad", vendor: 9, product: 9), natural: false)
        system.desktop = DesktopSettings.Answer(false, "sway test", perDevice: PerDeviceNaturalScrolling(entries: [other, own], source: "sway test", unlisted: nil))
        let perDevice = try #require(system.checks().titled("natural scrolling").last)
        #expect(perDevice.status == .ok && perDevice.detail.contains("as the desktop"), "\(perDevice.detail)")
        system.desktop = DesktopSettings.Answer(false, "GNOME test")
        system.fileContents[syspath + "/device/id/product"] = nil

        // With the touchpad output the section's value is not used for this pad's glide.
        let text = try #require(system.fileContents["/home/ada/.config/flickd/config.toml"])
        system.fileContents["/home/ada/.config/flickd/config.toml"] = text.replacingOccurrences(of: "mode = \"wheel\"", with: "mode = \"touchpad\"")
        let unused = try #require(system.checks().titled("natural scrolling").last)
        #expect(unused.status == .ok && unused.detail.contains("not used with the touchpad output"), "\(unused.detail)")
        system.fileContents["/home/ada/.config/flickd/config.toml"] = text

        system.fileContents[syspath + "/device/id/vendor"] = "0003\n"
        #expect(system.checks().titled("natural scrolling").count == 1, "another vendor: the section does not match")
        system.desktop = DesktopSettings.Answer(true, "KDE test")
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
