import CEvdev
import FlickCore
import Foundation
import Testing
@testable import FlickLinux

/// `EvdevDevice.describe` reads what libevdev knows of a device into a `DeviceDescription`.
///
/// No /dev/input here: each real device in ../shared/devices is built as a libevdev device in
/// memory (`libevdev_new` + enable codes, as libinput's test suite does before uinput), read
/// back, and compared with the fixture.
@Suite("Device descriptions from libevdev")
struct EvdevDescriptionTests {
    /// ../shared/devices, found from this file (`<repo>/Tests/FlickLinuxTests/...`).
    static let devicesDirectory: String = {
        if let shared = ProcessInfo.processInfo.environment["FLICKD_SHARED"], !shared.isEmpty {
            return shared + "/devices"
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/devices").path
    }()

    static let fixtureNames: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: devicesDirectory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// A fixture as JSON, and the description it states.
    struct Fixture {
        var json: [String: Any]
        var expected: DeviceDescription
        var kind: DeviceKind
    }

    static func load(_ file: String) throws -> Fixture {
        let data = try Data(contentsOf: URL(fileURLWithPath: devicesDirectory + "/" + file))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let id = json["id"] as? [String: Int] ?? [:]
        var keys = Set<UInt16>()
        for pair in json["codes"] as? [[String]] ?? [] where pair[0] == "EV_KEY" {
            keys.insert(UInt16(try code(EV_KEY, pair[1])))
        }
        var properties = Set<UInt16>()
        for name in json["props"] as? [String] ?? [] {
            let property = libevdev_property_from_name(name)
            guard property >= 0 else { throw FixtureError(message: "unknown property \(name)") }
            properties.insert(UInt16(property))
        }
        var axes: [UInt16: AxisInfo] = [:]
        for axis in json["absinfo"] as? [[String: Any]] ?? [] {
            let value = { (key: String) in Int32(axis[key] as? Int ?? 0) }
            axes[UInt16(try code(EV_ABS, axis["code"] as? String ?? ""))] = AxisInfo(
                minimum: value("min"), maximum: value("max"), fuzz: value("fuzz"), flat: value("flat"),
                resolution: value("resolution"))
        }
        let expected = DeviceDescription(
            name: json["name"] as? String ?? "", bustype: UInt16(id["bustype"] ?? 0),
            vendor: UInt16(id["vendor"] ?? 0), product: UInt16(id["product"] ?? 0),
            properties: properties, keys: keys, absoluteAxes: axes)
        let kind = try #require(DeviceKind(rawValue: json["kind"] as? String ?? ""))
        return Fixture(json: json, expected: expected, kind: kind)
    }

    static func code(_ type: Int32, _ name: String) throws -> Int32 {
        let value = libevdev_event_code_from_name(UInt32(type), name)
        guard value >= 0 else { throw FixtureError(message: "unknown code \(name)") }
        return value
    }

    struct FixtureError: Error { var message: String }

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

    @Test("the shared device fixtures are there")
    func fixturesPresent() {
        #expect(Self.fixtureNames.count >= 20, "found \(Self.fixtureNames) in \(Self.devicesDirectory)")
    }

    @Test("a real device reads back as the description it was built from", arguments: fixtureNames)
    func roundTrip(file: String) throws {
        let fixture = try Self.load(file)
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
        let fixture = try Self.load("synaptics-t440.json")
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
