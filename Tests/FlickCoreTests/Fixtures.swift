import Foundation
import FlickCore

/// Test fixtures from ../shared: real device descriptions (devices/*.json, extracted from
/// libinput's test suite) and real evemu recordings (recordings/*.events and *.desc).
///
/// `../shared` is found relative to this source file (`#filePath` → the repository → its
/// parent → `shared`), so any clone with `shared` beside it works; `FLICKD_SHARED` overrides it.
enum Fixtures {
    /// A fixture that could not be read, with the file and the reason.
    struct FixtureError: Error, CustomStringConvertible {
        var path: String
        var message: String
        var description: String { "\(path): \(message)" }
    }

    /// Absolute path of the shared fixtures directory (`<repo>/../shared`).
    static var sharedDirectory: String {
        if let override = ProcessInfo.processInfo.environment["FLICKD_SHARED"], !override.isEmpty {
            return override
        }
        // #filePath = <repo>/Tests/FlickCoreTests/Fixtures.swift
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // FlickCoreTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // <repo>
        return repository.deletingLastPathComponent().appendingPathComponent("shared").standardizedFileURL.path
    }

    /// Directory of the device description JSON files.
    static var devicesDirectory: String { sharedDirectory + "/devices" }

    /// Directory of the evemu recordings.
    static var recordingsDirectory: String { sharedDirectory + "/recordings" }

    /// Names of every device fixture (`synaptics-t440`, ...), sorted, without `.json`.
    static func allDeviceNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: devicesDirectory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Paths of every recording (`*.events`) in ../shared/recordings, sorted.
    static func recordingPaths() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: recordingsDirectory)) ?? []
        return files.filter { $0.hasSuffix(".events") }.sorted().map { recordingsDirectory + "/" + $0 }
    }

    /// The `.desc` file of the device a recording was made on (`EP0430M09.2-finger-scroll-down.events`
    /// → `EP0430M09.desc`), or nil when there is none. Recordings that embed their description
    /// need none; when both exist the embedded one is the device that recorded.
    static func descriptionPath(forRecording path: String) -> String? {
        let file = URL(fileURLWithPath: path).lastPathComponent
        guard let stem = file.split(separator: ".").first else { return nil }
        let candidate = recordingsDirectory + "/" + stem + ".desc"
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }

    /// The text of a file, as UTF-8.
    static func text(atPath path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError(path: path, message: "cannot read file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FixtureError(path: path, message: "not UTF-8")
        }
        return text
    }

    /// The raw JSON object of device fixture `name` (`synaptics-t440` or `synaptics-t440.json`).
    static func deviceJSON(_ name: String) throws -> [String: Any] {
        let file = name.hasSuffix(".json") ? name : name + ".json"
        let path = devicesDirectory + "/" + file
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError(path: path, message: "cannot read device fixture")
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FixtureError(path: path, message: "not a JSON object")
        }
        return object
    }

    /// The kind the fixture says the device is (`touchpad`/`touchscreen`), as libinput's tests see it.
    static func expectedKind(_ name: String) throws -> DeviceKind? {
        (try deviceJSON(name)["kind"] as? String).flatMap(DeviceKind.init(rawValue:))
    }

    /// libinput's test tags for the device (`LITEST_SEMI_MT`, ...).
    static func features(_ name: String) throws -> [String] {
        try deviceJSON(name)["features"] as? [String] ?? []
    }

    /// Device fixture `name` (`synaptics-t440` or `synaptics-t440.json`) as a `DeviceDescription`.
    ///
    /// Codes, properties and axes are written as kernel names (`BTN_TOOL_DOUBLETAP`,
    /// `INPUT_PROP_SEMI_MT`, `ABS_MT_SLOT`); numbers are accepted too. Unknown names throw.
    static func device(_ name: String) throws -> DeviceDescription {
        let path = devicesDirectory + "/" + (name.hasSuffix(".json") ? name : name + ".json")
        let json = try deviceJSON(name)
        func fail(_ message: String) -> FixtureError { FixtureError(path: path, message: message) }

        guard let deviceName = json["name"] as? String else { throw fail("missing \"name\"") }
        let id = json["id"] as? [String: Any] ?? [:]
        func idField(_ key: String) throws -> UInt16 {
            guard let value = id[key] else { return 0 }
            guard let number = value as? Int, let field = UInt16(exactly: number) else {
                throw fail("id.\(key) = \(value) is not a 16-bit number")
            }
            return field
        }

        var description = DeviceDescription(
            name: deviceName, bustype: try idField("bustype"), vendor: try idField("vendor"),
            product: try idField("product"))

        for pair in json["codes"] as? [[Any]] ?? [] {
            guard pair.count == 2 else { throw fail("code entry \(pair) is not [type, code]") }
            let type: UInt16
            let code: UInt16
            switch (pair[0], pair[1]) {
            case let (typeName as String, codeName as String):
                guard let t = EventNames.type(named: typeName) else { throw fail("unknown event type \(typeName)") }
                guard let c = EventNames.lookup(codeName), c.type == t else {
                    throw fail("unknown \(typeName) code \(codeName)")
                }
                (type, code) = (t, c.code)
            case let (t as Int, c as Int):
                guard let t16 = UInt16(exactly: t), let c16 = UInt16(exactly: c) else {
                    throw fail("code entry \(pair) out of range")
                }
                (type, code) = (t16, c16)
            default:
                throw fail("code entry \(pair) is neither names nor numbers")
            }
            if type == EventCode.key { description.keys.insert(code) }
        }

        for property in json["props"] as? [Any] ?? [] {
            if let name = property as? String {
                guard let bit = EventNames.property(named: name) else { throw fail("unknown property \(name)") }
                description.properties.insert(bit)
            } else if let number = property as? Int, let bit = UInt16(exactly: number) {
                description.properties.insert(bit)
            } else {
                throw fail("property \(property) is neither a name nor a number")
            }
        }

        for axis in json["absinfo"] as? [[String: Any]] ?? [] {
            let code: UInt16
            if let name = axis["code"] as? String {
                guard let c = EventNames.lookup(name), c.type == EventCode.absolute else {
                    throw fail("unknown axis \(name)")
                }
                code = c.code
            } else if let number = axis["code"] as? Int, let c = UInt16(exactly: number) {
                code = c
            } else {
                throw fail("absinfo entry without a code: \(axis)")
            }
            func field(_ key: String) throws -> Int32 {
                guard let value = axis[key] else { return 0 }
                guard let number = value as? Int, let field = Int32(exactly: number) else {
                    throw fail("absinfo \(EventNames.codeName(type: EventCode.absolute, code: code)).\(key) = \(value) is not a 32-bit number")
                }
                return field
            }
            description.absoluteAxes[code] = AxisInfo(
                minimum: try field("min"), maximum: try field("max"), fuzz: try field("fuzz"),
                flat: try field("flat"), resolution: try field("resolution"))
        }
        return description
    }
}
