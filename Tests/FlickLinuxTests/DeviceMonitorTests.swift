import Testing
@testable import FlickLinux

/// udev classification and ordering, without udev.
@Suite("Device monitor")
struct DeviceMonitorTests {
    func kind(_ properties: [String: String]) -> InputNode.Kind {
        InputNode.Kind.classify { properties[$0] }
    }

    @Test("udev's ID_INPUT_* properties decide the kind; touch wins")
    func classification() {
        #expect(kind(["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"]) == .touchpad)
        #expect(kind(["ID_INPUT_TOUCHSCREEN": "1"]) == .touchscreen)
        #expect(kind(["ID_INPUT_MOUSE": "1"]) == .mouse)
        #expect(kind(["ID_INPUT_POINTINGSTICK": "1"]) == .mouse)
        #expect(kind(["ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEY": "1"]) == .keyboard)
        #expect(kind(["ID_INPUT_KEY": "1"]) == .other, "a power button is not a keyboard")
        #expect(kind(["ID_INPUT_TOUCHPAD": "1", "ID_INPUT_MOUSE": "1"]) == .touchpad)
        #expect(kind(["ID_INPUT_TOUCHPAD": "0", "ID_INPUT_MOUSE": "1"]) == .mouse)
        #expect(kind([:]) == .other)
        #expect(kind(["ID_INPUT_TOUCHPAD": "1", "LIBINPUT_IGNORE_DEVICE": "1"]) == .other, "libinput ignores it")
        #expect(kind(["ID_INPUT_TOUCHSCREEN": "1", "LIBINPUT_IGNORE_DEVICE": "yes"]) == .other, "anything but 0, as libinput reads it")
        #expect(kind(["ID_INPUT_TOUCHPAD": "1", "LIBINPUT_IGNORE_DEVICE": "0"]) == .touchpad)
        #expect(kind(["ID_INPUT_MOUSE": "1", "ID_INPUT_KEYBOARD": "1"]) == .mouse)
        #expect(InputNode.Kind.touchpad.touchKind == .touchpad)
        #expect(InputNode.Kind.keyboard.touchKind == nil)
    }

    func node(_ properties: [String: String]) -> InputNode {
        InputNode(devnode: "/dev/input/event7", syspath: "", name: "pad") { properties[$0] }
    }

    /// libinput leaves alone a device with LIBINPUT_IGNORE_DEVICE, and a seat0 context one that
    /// udev puts on another seat (ID_SEAT; unset: seat0): so does flickd, and says why.
    @Test("a device libinput ignores, or one on another seat, is other, and the node says why")
    func exclusions() {
        let ignored = node(["ID_INPUT_TOUCHPAD": "1", "LIBINPUT_IGNORE_DEVICE": "1"])
        #expect(ignored.kind == .other && ignored.exclusion == .libinputIgnores)
        #expect(ignored.exclusion?.description == "libinput ignores it (LIBINPUT_IGNORE_DEVICE)")
        let seat1 = node(["ID_INPUT_TOUCHPAD": "1", "ID_SEAT": "seat1"])
        #expect(seat1.kind == .other && seat1.exclusion == .otherSeat("seat1"))
        #expect(seat1.exclusion?.description == "on seat1, not seat0")
        #expect(node(["ID_INPUT_TOUCHPAD": "1", "ID_SEAT": "seat0"]).kind == .touchpad)
        #expect(node(["ID_INPUT_TOUCHPAD": "1"]).exclusion == nil)
        #expect(node(["ID_INPUT_KEY": "1", "ID_SEAT": "seat1"]).exclusion == nil, "a power button is not used anyway")
        #expect(node(["ID_INPUT_MOUSE": "1", "ID_INPUT_KEYBOARD": "1"]).hasKeys)
        #expect(!node(["ID_INPUT_MOUSE": "1"]).hasKeys)
        #expect(!node(["ID_INPUT_KEYBOARD": "1"]).hasKeys, "a keyboard is one anyway")
    }

    @Test("nodes sort by number: event2 before event10")
    func naturalOrder() {
        let nodes = ["/dev/input/event10", "/dev/input/event2", "/dev/input/event1"]
        #expect(nodes.sorted(by: DeviceMonitor.naturalOrder)
            == ["/dev/input/event1", "/dev/input/event2", "/dev/input/event10"])
    }

    @Test("enumerating works here, and finds nothing without /dev/input",
          .enabled(if: !DeviceMonitor.hasInputDirectory, "needs a machine without /dev/input"))
    func enumerateWithoutInput() throws {
        #expect(try DeviceMonitor().inputNodes().isEmpty)
    }
}
