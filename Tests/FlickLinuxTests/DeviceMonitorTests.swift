import Testing
@testable import FlickLinux

/// udev classification and ordering, without udev.
@Suite("Device monitor")
struct DeviceMonitorTests {
    /// The kind udev's properties `properties` give (every device here tagged ID_INPUT=1, as
    /// udev's input_id tags any input device, unless `properties` says otherwise), and
    /// `parent` its parent input device's.
    func kind(_ properties: [String: String], parent: [String: String] = [:]) -> InputNode.Kind {
        let tagged = properties.merging(["ID_INPUT": "1"]) { own, _ in own }
        return InputNode.Kind.classify(property: { tagged[$0] }, parentProperty: { parent[$0] })
    }

    @Test("udev's ID_INPUT_* properties decide the kind; touch wins")
    func classification() {
        #expect(kind(["ID_INPUT_TOUCHPAD": "1"]) == .touchpad)
        #expect(kind(["ID_INPUT_TOUCHSCREEN": "1"]) == .touchscreen)
        #expect(kind(["ID_INPUT_MOUSE": "1"]) == .mouse)
        #expect(kind(["ID_INPUT_POINTINGSTICK": "1"]) == .mouse)
        #expect(kind(["ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEY": "1"]) == .keyboard)
        #expect(kind(["ID_INPUT_KEY": "1"]) == .other, "a power button is not a keyboard")
        #expect(kind(["ID_INPUT_TOUCHPAD": "1", "ID_INPUT_MOUSE": "1"]) == .touchpad)
        #expect(kind(["ID_INPUT_TOUCHPAD": "0", "ID_INPUT_MOUSE": "1"]) == .mouse)
        #expect(kind(["ID_INPUT_TOUCHPAD": "yes", "ID_INPUT_MOUSE": "1"]) == .mouse, "only 1 sets a tag, as libinput reads it")
        #expect(kind([:]) == .other)
        #expect(kind(["ID_INPUT_TOUCHPAD": "1", "LIBINPUT_IGNORE_DEVICE": "1"]) == .other, "libinput ignores it")
        #expect(kind(["ID_INPUT_TOUCHSCREEN": "1", "LIBINPUT_IGNORE_DEVICE": "yes"]) == .other, "anything but 0, as libinput reads it")
        #expect(kind(["ID_INPUT_TOUCHPAD": "1", "LIBINPUT_IGNORE_DEVICE": "0"]) == .touchpad)
        #expect(kind(["ID_INPUT_MOUSE": "1", "ID_INPUT_KEYBOARD": "1"]) == .mouse)
        #expect(InputNode.Kind.touchpad.touchKind == .touchpad)
        #expect(InputNode.Kind.keyboard.touchKind == nil)
    }

    /// A udev rule that hides a device from libinput by its ID_INPUT (`ENV{ID_INPUT}="0"`, or
    /// removing it) leaves its ID_INPUT_TOUCHPAD: libinput drops it as "not tagged as supported
    /// input device", so flickd leaves it alone too. libinput reads each tag on the event node
    /// and its parent input device, set only by "1".
    @Test("a touchpad or mouse without udev's ID_INPUT=1 is left alone, as libinput leaves it")
    func withoutInputTag() {
        #expect(kind(["ID_INPUT": "0", "ID_INPUT_TOUCHPAD": "1"]) == .other)
        #expect(kind(["ID_INPUT": "", "ID_INPUT_TOUCHSCREEN": "1"]) == .other)
        #expect(kind(["ID_INPUT": "true", "ID_INPUT_MOUSE": "1"]) == .other, "only 1 sets it")
        #expect(InputNode.Kind.classify { ["ID_INPUT_TOUCHPAD": "1"][$0] } == .other, "no ID_INPUT at all")
        let hidden = node(["ID_INPUT": "0", "ID_INPUT_TOUCHPAD": "1"])
        #expect(hidden.kind == .other && hidden.exclusion == .notTaggedInput)
        #expect(hidden.exclusion?.description == "libinput ignores it (udev does not set ID_INPUT=1)")
        #expect(node(["ID_INPUT": "0", "ID_INPUT_KEY": "1"]).exclusion == nil, "a power button is not used anyway")
        // The parent input device's tags count as the node's, as libinput reads them.
        #expect(kind(["ID_INPUT": "0", "ID_INPUT_TOUCHPAD": "1"], parent: ["ID_INPUT": "1"]) == .touchpad)
        #expect(kind(["ID_INPUT": "0"], parent: ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"]) == .touchpad)
        #expect(kind(["ID_INPUT": "0", "ID_INPUT_TOUCHPAD": "1"], parent: ["ID_INPUT": "0"]) == .other)
    }

    func node(_ properties: [String: String]) -> InputNode {
        let tagged = properties.merging(["ID_INPUT": "1"]) { own, _ in own }
        return InputNode(devnode: "/dev/input/event7", syspath: "", name: "pad") { tagged[$0] }
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
