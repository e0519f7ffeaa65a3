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
        #expect(InputNode.Kind.touchpad.touchKind == .touchpad)
        #expect(InputNode.Kind.keyboard.touchKind == nil)
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
