import FlickCore
import FlickTestSupport
import Glibc
import Testing
@testable import FlickLinux

/// `flickd devices`' text (`DeviceListing`), for scripted devices: a test host has no /dev/input.
@Suite struct DevicesCommandTests {
    /// A ThinkPad's devices: its touchpad, a mouse, the keyboard and the power button.
    static func laptop() throws -> (ScriptedDevices, [InputNode]) {
        let devices = ScriptedDevices()
        let nodes = [
            try devices.node(1, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440"),
            try devices.node(2, .mouse, name: "Logitech USB Receiver"),
            try devices.node(3, .keyboard, name: "AT Translated Set 2 keyboard"),
            try devices.node(4, .other, name: "Power Button"),
        ]
        return (devices, nodes)
    }

    /// `configuration` read from the TOML `text`.
    static func configuration(_ text: String) throws -> Configuration {
        try ConfigurationLoader.parse(text: text, path: "config.toml")
    }

    @Test func theDefaultsUseTheTouchpadAndStopOnTheMouseAndKeyboard() throws {
        let (devices, nodes) = try Self.laptop()
        let listing = DeviceListing.list(nodes, from: devices, configuration: .defaults)
        #expect(listing.text == """
            /dev/input/event1  "SynPS/2 Synaptics TouchPad"
                kind:        touchpad
                ids:         vendor 0x0002, product 0x0007
                size:        97.3 × 66.9 mm
                resolution:  42.0 × 42.0 units/mm
                slots:       2
                used:        yes: touchpad flicks coast
            /dev/input/event2  "Logitech USB Receiver"
                kind:        mouse
                used:        to stop a coast: a button press stops it
            /dev/input/event3  "AT Translated Set 2 keyboard"
                kind:        keyboard
                used:        to stop a coast: a key press stops it
            /dev/input/event4  "Power Button"
                kind:        other
                used:        no: not a touchpad, touchscreen, mouse or keyboard

            """, "\(listing.text)")
        #expect(listing.failures.isEmpty)
        #expect(devices.opened == ["/dev/input/event1", "/dev/input/event2", "/dev/input/event3"], "the power button is not opened")
    }

    /// A device's name is any bytes its driver (or a uinput user) gave it: the listing prints it
    /// quoted and escaped as a `[[device]]` section's `name` takes it, on one line, with no
    /// control character for the terminal; so does the error of a device that cannot be opened.
    @Test func aNameWithControlCharactersIsPrintedEscaped() throws {
        let devices = ScriptedDevices()
        let name = "pad \"x\"\u{1B}]0;owned\u{07}\nfake: line"
        let node = try devices.node(6, .mouse, name: name)
        let listing = DeviceListing.list([node], from: devices, configuration: .defaults)
        #expect(listing.text.hasPrefix(#"/dev/input/event6  "pad \"x\"\u001B]0;owned\u0007\nfake: line""# + "\n"), "\(listing.text)")
        #expect(!listing.text.unicodeScalars.contains { QuotedText.isControl($0) && $0 != "\n" }, "\(listing.text)")
        #expect(listing.text.split(separator: "\n").count == 3, "\(listing.text)")
        devices.gone.insert(node.devnode)
        let failure = try #require(DeviceListing.list([node], from: devices, configuration: .defaults).failure)
        #expect(failure.contains(#"(pad "x"\u001B]0;owned\u0007\u000Afake: line)"#), "\(failure)")
        #expect(!failure.unicodeScalars.contains(where: QuotedText.isControl), "\(failure)")
    }

    @Test func aPadWithoutResolutionSaysItsSizeIsEstimated() throws {
        let devices = ScriptedDevices()
        let pad = try devices.node(5, .touchpad, name: "ETPS/2 Elantech Touchpad", fixture: "elantech-touchpad")
        let text = DeviceListing.list([pad], from: devices, configuration: .defaults).text
        #expect(text.contains("    size:        71.1 × 50.3 mm\n"), "\(text)")
        #expect(text.contains("    resolution:  18.0 × 14.0 units/mm, estimated: libinput's guess for a 69 × 50 mm pad"), "\(text)")
    }

    /// udev's tag decides, as in the daemon and libinput: a touch panel that looks like a
    /// touchpad (a finger tool, no INPUT_PROP_DIRECT) which an hwdb entry tags a touchscreen is
    /// listed as the touchscreen the daemon reads it as.
    @Test func aDeviceUdevTagsATouchscreenIsListedAsOne() throws {
        let devices = ScriptedDevices()
        let panel = try devices.node(7, .touchscreen, name: "Wacom Intuos5 touch M Finger", fixture: "wacom-intuos5-finger")
        var configuration = Configuration.defaults
        configuration.touchscreen.enabled = true
        let text = DeviceListing.list([panel], from: devices, configuration: configuration).text
        #expect(text.contains("    used:        yes: touchscreen flicks coast\n"), "\(text)")
    }

    /// A device udev tags a touchpad that libinput's touchpad code refuses (no finger tool):
    /// listed as not used, with the reason, as the daemon logs it.
    @Test func aTouchpadLibinputRefusesSaysWhyItIsNotUsed() throws {
        let devices = ScriptedDevices()
        let pad = try devices.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        devices.descriptions[pad.devnode]?.keys.remove(EventCode.toolFinger)
        let text = DeviceListing.list([pad], from: devices, configuration: .defaults).text
        #expect(text.contains("""
                used:        no: a touchpad without BTN_TOOL_FINGER: it fails libinput's touchpad sanity checks, \
            so no desktop scrolls with it

            """), "\(text)")
    }

    @Test func aDeviceThatCannotBeOpenedIsAFailure() throws {
        let (devices, nodes) = try Self.laptop()
        devices.refused = ["/dev/input/event1"]
        let listing = DeviceListing.list(nodes, from: devices, configuration: .defaults)
        #expect(listing.text.hasPrefix("""
            /dev/input/event1  "SynPS/2 Synaptics TouchPad"
                kind:        touchpad
                used:        unknown: cannot open it (Permission denied)
            /dev/input/event2
            """), "\(listing.text)")
        #expect(listing.failures.map(\.node.devnode) == ["/dev/input/event1"])
        #expect(listing.failures.first?.error.isPermissionDenied == true)
    }
}

extension DevicesCommandTests {
    /// With `[stop]` off, the daemon does not open mice and keyboards, and a touch device whose
    /// flicks are not read is not used at all: the listing says so, and opens none of them.
    @Test func stopSettingsThatAreOffAreFollowed() throws {
        let (devices, nodes) = try Self.laptop()
        let screen = try devices.node(6, .touchscreen, name: "ELAN Touchscreen", fixture: "touch-screen")
        let configuration = try Self.configuration("[stop]\nbutton = false\nkey = false\ntouch = false\n")
        let text = DeviceListing.list(nodes + [screen], from: devices, configuration: configuration).text
        #expect(text.contains("""
            /dev/input/event2  "Logitech USB Receiver"
                kind:        mouse
                used:        no: stop.button is false (a button press does not stop a coast)
            /dev/input/event3  "AT Translated Set 2 keyboard"
                kind:        keyboard
                used:        no: stop.key is false (a key press does not stop a coast)

            """), "\(text)")
        #expect(text.hasSuffix("    used:        no: touchscreen.enabled is false, and stop.touch is false (a touch does not stop a coast)\n"), "\(text)")
        #expect(devices.opened == ["/dev/input/event1", "/dev/input/event6"], "neither the mouse nor the keyboard")

        let stopping = DeviceListing.list([screen], from: devices, configuration: .defaults).text
        #expect(stopping.hasSuffix("    used:        to stop a coast: a touch stops it (touchscreen.enabled is false)\n"), "\(stopping)")
    }
}

extension DevicesCommandTests {
    /// A `[[device]] resolution` sets the scale the daemon reads the pad with: the listing
    /// shows that size, not the estimate, and says where it comes from.
    @Test func aDeviceSectionsResolutionIsTheOneShown() throws {
        let devices = ScriptedDevices()
        let pad = try devices.node(5, .touchpad, name: "ETPS/2 Elantech Touchpad", fixture: "elantech-touchpad")
        let configuration = try Self.configuration("[[device]]\nname = \"mouse\"\n\n[[device]]\nname = \"Elantech\"\nresolution = 31\n")
        let text = DeviceListing.list([pad], from: devices, configuration: configuration).text
        #expect(text.contains("""
                size:        41.3 × 22.7 mm
                resolution:  31.0 × 31.0 units/mm, from [[device]] section 2

            """), "\(text)")
        #expect(text.hasSuffix("    used:        yes: touchpad flicks coast\n"), "\(text)")

        // Also for a pad whose flicks are not read: the size it would be read with.
        let off = try Self.configuration("[touchpad]\nenabled = false\n[[device]]\nname = \"Elantech\"\nresolution = 31\n")
        let stopOnly = DeviceListing.list([pad], from: devices, configuration: off).text
        #expect(stopOnly.contains("    size:        41.3 × 22.7 mm\n"), "\(stopOnly)")
        #expect(stopOnly.hasSuffix("    used:        to stop a coast: a touch or a press of its buttons stops it (touchpad.enabled is false)\n"), "\(stopOnly)")

        // Its buttons still stop coasts when its touches do not; with neither, it is not read.
        let buttonsOnly = try Self.configuration("[touchpad]\nenabled = false\n[stop]\ntouch = false\n")
        let buttons = DeviceListing.list([pad], from: devices, configuration: buttonsOnly).text
        #expect(buttons.hasSuffix("    used:        to stop a coast: a press of its buttons stops it (touchpad.enabled is false)\n"), "\(buttons)")
        let neither = try Self.configuration("[touchpad]\nenabled = false\n[stop]\ntouch = false\nbutton = false\n")
        let unread = DeviceListing.list([pad], from: devices, configuration: neither).text
        #expect(unread.hasSuffix("    used:        no: touchpad.enabled is false, and stop.touch and stop.button are false (neither a touch nor a press of its buttons stops a coast)\n"), "\(unread)")
    }
}

/// `ScriptedDevices` whose opens of some nodes fail with an errno of the test's choosing.
final class FailingDevices: DeviceSource {
    let devices: ScriptedDevices
    let errors: [String: Int32]

    init(_ devices: ScriptedDevices, failing errors: [String: Int32]) {
        self.devices = devices
        self.errors = errors
    }

    func inputNodes() -> [InputNode] { devices.inputNodes() }
    func startMonitoring() throws(SystemError) -> Int32 { try devices.startMonitoring() }
    func receiveChanges(_ report: (DeviceMonitor.Change) -> Void) { devices.receiveChanges(report) }
    func open(_ node: InputNode) throws(SystemError) -> any InputDevice {
        if let errno = errors[node.devnode] { throw SystemError(errno: errno, call: "open", path: node.devnode) }
        return try devices.open(node)
    }
}

extension DevicesCommandTests {
    /// Any device flickd would open and cannot is a failure (exit status 1), not only one it
    /// may not read: a permission error prints the fix, another error names the device.
    @Test func everyDeviceThatCannotBeOpenedFailsTheCommand() throws {
        let (devices, nodes) = try Self.laptop()
        let vanished = FailingDevices(devices, failing: ["/dev/input/event1": ENODEV])
        let listing = DeviceListing.list(nodes, from: vanished, configuration: .defaults)
        #expect(listing.text.hasPrefix("""
            /dev/input/event1  "SynPS/2 Synaptics TouchPad"
                kind:        touchpad
                used:        unknown: cannot open it (No such device)

            """), "\(listing.text)")
        #expect(listing.failure == "cannot open /dev/input/event1 (SynPS/2 Synaptics TouchPad): No such device", "\(listing.failure ?? "nil")")

        let both = FailingDevices(devices, failing: ["/dev/input/event1": ENODEV, "/dev/input/event3": EACCES])
        let denied = try #require(DeviceListing.list(nodes, from: both, configuration: .defaults).failure)
        #expect(denied.hasPrefix("cannot read /dev/input/event3 (Permission denied). Reading touchpads"), "the fix first: \(denied)")
        #expect(denied.hasSuffix("\ncannot open /dev/input/event1 (SynPS/2 Synaptics TouchPad): No such device"), "\(denied)")

        #expect(DeviceListing.list(nodes, from: devices, configuration: .defaults).failure == nil)
    }
}

extension DevicesCommandTests {
    /// Without --config, `flickd devices` decides with the file `flickd run` reads (here the
    /// user's, through XDG_CONFIG_HOME), and says which.
    @Test func theFileFlickdRunReadsIsUsedAndNamed() throws {
        let home = ConfigScratchDirectory()
        home.makeDirectory("flickd")
        home.write("flickd/config.toml", "[stop]\nkey = false\n")
        let path = home.file("flickd/config.toml")
        let result = try ChildProcess.run("/usr/bin/env", ["XDG_CONFIG_HOME=\(home.path)", FlickdBinary.url.path, "devices"])
        #expect(result.stdout.hasPrefix("configuration: \(path)\n"), "\(result)")

        home.write("flickd/config.toml", "[stop]\nkey = 3\n")
        let bad = try ChildProcess.run("/usr/bin/env", ["XDG_CONFIG_HOME=\(home.path)", FlickdBinary.url.path, "devices"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("flickd: the configuration has errors:\n\(path):2: stop.key = 3"), "\(bad)")
    }

    @Test func theConfigurationLineNamesTheDefaultsWithoutAFile() {
        let location = ConfigurationLocation(explicit: nil, searchPath: ["/home/ada/.config/flickd/config.toml", "/etc/flickd/config.toml"])
        #expect(DeviceListing.configurationLine(path: nil, location: location)
            == "configuration: the built-in defaults (no file at /home/ada/.config/flickd/config.toml, /etc/flickd/config.toml)")
        #expect(DeviceListing.configurationLine(path: "/etc/flickd/config.toml", location: location)
            == "configuration: /etc/flickd/config.toml")
    }
}

extension DevicesCommandTests {
    /// A touchpad the daemon leaves alone says why (libinput ignores it; another seat's), and a
    /// mouse whose node has keyboard keys is used while either stop setting is on, as the
    /// daemon's `role(for:)` opens it.
    @Test func excludedDevicesSayWhyAndAMouseWithKeysFollowsBothStopSettings() throws {
        let (devices, nodes) = try Self.laptop()
        var ignored = try devices.node(7, .other, name: "DualSense Wireless Controller Touchpad")
        ignored.exclusion = .libinputIgnores
        var seat1 = try devices.node(8, .other, name: "Second Seat TouchPad")
        seat1.exclusion = .otherSeat("seat1")
        var combo = try devices.node(9, .mouse, name: "Logitech K400 Plus")
        combo.hasKeys = true
        let buttonOff = try Self.configuration("[stop]\nbutton = false\n")
        let text = DeviceListing.list(nodes + [ignored, seat1, combo], from: devices, configuration: buttonOff).text
        #expect(text.contains("kind:        other\n    used:        no: libinput ignores it (LIBINPUT_IGNORE_DEVICE)\n"), "\(text)")
        #expect(text.contains("kind:        other\n    used:        no: on seat1, not seat0\n"), "\(text)")
        #expect(text.contains("\"Logitech K400 Plus\"\n    kind:        mouse\n    used:        to stop a coast"), "\(text)")
        #expect(text.contains("\"Logitech USB Receiver\"\n    kind:        mouse\n    used:        no: stop.button is false"), "\(text)")
        let bothOff = try Self.configuration("[stop]\nbutton = false\nkey = false\n")
        let off = DeviceListing.list([combo], from: devices, configuration: bothOff).text
        #expect(off.contains("used:        no: stop.button and stop.key are false (a button or key press does not stop a coast)"), "\(off)")
    }
}
