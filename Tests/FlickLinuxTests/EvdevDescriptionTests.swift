import CEvdev
import FlickCore
import FlickTestSupport
import Foundation
import Testing
@testable import FlickLinux

/// `EvdevDevice.describe` reads what libevdev knows of a device into a `DeviceDescription`.
///
/// No /dev/input here: each device fixture (the repository's, and the shared samples when
/// present) is built as a libevdev device in memory (`libevdev_new` + enable codes, as
/// libinput's test suite does before uinput), read back, and compared with the fixture.
@Suite("Device descriptions from libevdev")
struct EvdevDescriptionTests {
    /// A fixture: the description it states and the kind it says udev gives it.
    struct Fixture {
        var expected: DeviceDescription
        var kind: DeviceKind?
    }

    static func load(_ name: String) throws -> Fixture {
        let fixture = try Fixtures.deviceFixture(name)
        return Fixture(expected: fixture.description, kind: fixture.kind)
    }

    /// A libevdev device in memory with everything `description` states.
    static func makeEvdev(_ description: DeviceDescription) -> OpaquePointer {
        let evdev = libevdev_new()!
        libevdev_set_name(evdev, description.name)
        libevdev_set_id_bustype(evdev, Int32(description.bustype))
        libevdev_set_id_vendor(evdev, Int32(description.vendor))
        libevdev_set_id_product(evdev, Int32(description.product))
        for property in description.properties { libevdev_enable_property(evdev, UInt32(property)) }
        for key in description.keys { libevdev_enable_event_code(evdev, UInt32(EV_KEY), UInt32(key), nil) }
        for (code, axis) in description.absoluteAxes {
            var info = input_absinfo(
                value: axis.minimum, minimum: axis.minimum, maximum: axis.maximum, fuzz: axis.fuzz,
                flat: axis.flat, resolution: axis.resolution)
            libevdev_enable_event_code(evdev, UInt32(EV_ABS), UInt32(code), &info)
        }
        return evdev
    }

    @Test("a device fixture reads back as the description it was built from", arguments: Fixtures.allDeviceNames())
    func roundTrip(file: String) throws {
        try Self.roundTrip(try Self.load(file), file: file)
    }

    @Test("a shared device sample reads back as the description it was built from", .needsSharedDevices)
    func sharedRoundTrip() throws {
        for name in Fixtures.sharedDeviceNames() {
            try Self.roundTrip(Fixture(expected: try Fixtures.sharedDevice(name), kind: try Fixtures.sharedExpectedKind(name)), file: name)
        }
    }

    static func roundTrip(_ fixture: Fixture, file: String) throws {
        let evdev = Self.makeEvdev(fixture.expected)
        defer { libevdev_free(evdev) }
        let described = EvdevDevice.describe(evdev)
        #expect(described.name == fixture.expected.name)
        #expect(described.bustype == fixture.expected.bustype)
        #expect(described.vendor == fixture.expected.vendor)
        #expect(described.product == fixture.expected.product)
        #expect(described.properties == fixture.expected.properties)
        #expect(described.keys == fixture.expected.keys)
        #expect(described.absoluteAxes == fixture.expected.absoluteAxes)
        #expect(described.kind == fixture.kind, "\(file): udev-style kind")
    }

    @Test("a slotted touchpad: slots, resolution and kind")
    func slottedTouchpad() throws {
        let fixture = try Self.load("synaptics-t440")
        let evdev = Self.makeEvdev(fixture.expected)
        defer { libevdev_free(evdev) }
        let described = EvdevDevice.describe(evdev)
        #expect(described.slotCount == 2)
        #expect(described.maximumToolFingerCount == 5)
        #expect(described.absoluteAxes[EventCode.absMTPositionX]?.resolution == 42)
        #expect(described.kind == .touchpad)
    }

    @Test("a device without keys or axes describes as empty, with no kind")
    func emptyDevice() {
        let evdev = libevdev_new()!
        defer { libevdev_free(evdev) }
        libevdev_set_name(evdev, "bare")
        let described = EvdevDevice.describe(evdev)
        #expect(described == DeviceDescription(name: "bare"))
        #expect(described.kind == nil)
    }

    @Test("opening a missing node throws ENOENT naming it")
    func openMissing() {
        #expect(throws: SystemError(errno: ENOENT, call: "open", path: "/dev/input/event999")) {
            try EvdevDevice(path: "/dev/input/event999")
        }
    }
}
