import FlickCore
import FlickTools
import Foundation

/// Where the tests find their devices and recordings, and how they read them.
///
/// Two sources, one rule (Tests/README.md):
/// - the repository's own device fixtures, `Tests/Fixtures/devices/*.device` (always there;
///   format in that folder's README.md), and its golden replays, `Tests/Golden/`;
/// - the shared samples (real device descriptions `devices/*.json` and evemu recordings
///   `recordings/*.events`), in `$FLICKD_SHARED` when set, else the folder `shared` beside
///   the repository (`<repo>/../shared`). A fresh clone has none: tests that need them are
///   reported as skipped with `sharedAbsentReason`.
public enum Fixtures {
    /// A fixture that could not be read, with the file (and line) and the reason.
    public struct FixtureError: Error, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    /// The repository's root, found from this source file (`<repo>/Tests/FlickTestSupport/Fixtures.swift`).
    public static let repositoryDirectory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FlickTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // <repo>
        .standardizedFileURL.path

    // MARK: - The repository's device fixtures

    /// Directory of the repository's device fixtures (`Tests/Fixtures/devices`).
    public static var devicesDirectory: String { repositoryDirectory + "/Tests/Fixtures/devices" }

    /// Names of every repository device fixture (`synaptics-t440`, ...), sorted, without `.device`.
    public static func allDeviceNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: devicesDirectory)) ?? []
        return files.filter { $0.hasSuffix(".device") }.map { String($0.dropLast(7)) }.sorted()
    }

    /// Repository device fixture `name` (`synaptics-t440`) as a `DeviceDescription`.
    public static func device(_ name: String) throws -> DeviceDescription {
        try deviceFixture(name).description
    }

    /// The kind fixture `name` says the device is (its `kind` line).
    public static func expectedKind(_ name: String) throws -> DeviceKind {
        try deviceFixture(name).kind
    }

    /// A parsed `.device` file: the description and the kind it states.
    public struct DeviceFixture: Sendable {
        /// What the device states.
        public var description: DeviceDescription
        /// What udev should call it.
        public var kind: DeviceKind
    }

    /// Repository device fixture `name` (`synaptics-t440` or `synaptics-t440.device`).
    public static func deviceFixture(_ name: String) throws -> DeviceFixture {
        let path = devicesDirectory + "/" + (name.hasSuffix(".device") ? name : name + ".device")
        return try parseDevice(text: try text(atPath: path), path: path)
    }

    /// Parses the `.device` format (Tests/Fixtures/devices/README.md). Names are kernel names
    /// (`BTN_TOOL_DOUBLETAP`, `INPUT_PROP_SEMI_MT`, `ABS_MT_SLOT`); unknown ones throw with the line.
    public static func parseDevice(text: String, path: String) throws -> DeviceFixture {
        var name: String?
        var kind: DeviceKind?
        var description = DeviceDescription(name: "")
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ message: String) -> FixtureError { FixtureError(path: "\(path):\(index + 1)", message: message) }
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            let rest = words.dropFirst()
            func number(_ text: Substring) throws -> Int64 {
                let value = text.hasPrefix("0x") ? Int64(text.dropFirst(2), radix: 16) : Int64(text)
                guard let value else { throw fail("\(text) is not a number") }
                return value
            }
            switch words[0] {
            case "name":
                name = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            case "kind":
                guard let value = rest.first.flatMap(DeviceKind.init(rawValue:)) else { throw fail("kind is touchpad or touchscreen") }
                kind = value
            case "id":
                for word in rest {
                    let parts = word.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, let value = UInt16(exactly: try number(parts[1])) else {
                        throw fail("id field \(word) is not key=16-bit number")
                    }
                    switch parts[0] {
                    case "bus": description.bustype = value
                    case "vendor": description.vendor = value
                    case "product": description.product = value
                    case "version": break  // DeviceDescription does not keep it; vdev.py does
                    default: throw fail("unknown id field \(parts[0])")
                    }
                }
            case "properties":
                for word in rest {
                    guard let bit = EventNames.property(named: word) else { throw fail("unknown property \(word)") }
                    description.properties.insert(bit)
                }
            case "keys":
                for word in rest {
                    guard let code = EventNames.lookup(word), code.type == EventCode.key else { throw fail("unknown key \(word)") }
                    description.keys.insert(code.code)
                }
            case "axis":
                let fields = Array(rest)
                guard fields.count >= 3, let code = EventNames.lookup(fields[0]), code.type == EventCode.absolute else {
                    throw fail("axis is ABS_* MIN MAX [resolution=N] [fuzz=N] [flat=N]")
                }
                func int32(_ text: Substring) throws -> Int32 {
                    guard let value = Int32(exactly: try number(text)) else { throw fail("\(text) is not a 32-bit number") }
                    return value
                }
                var axis = AxisInfo(minimum: try int32(Substring(fields[1])), maximum: try int32(Substring(fields[2])))
                for option in fields.dropFirst(3) {
                    let parts = option.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2 else { throw fail("axis option \(option) is not key=number") }
                    switch parts[0] {
                    case "resolution": axis.resolution = try int32(parts[1])
                    case "fuzz": axis.fuzz = try int32(parts[1])
                    case "flat": axis.flat = try int32(parts[1])
                    default: throw fail("unknown axis option \(parts[0])")
                    }
                }
                description.absoluteAxes[code.code] = axis
            default:
                throw fail("unknown field \(words[0])")
            }
        }
        guard let name, !name.isEmpty else { throw FixtureError(path: path, message: "no name line") }
        guard let kind else { throw FixtureError(path: path, message: "no kind line") }
        description.name = name
        return DeviceFixture(description: description, kind: kind)
    }

    // MARK: - The shared samples

    /// The shared samples folder: `$FLICKD_SHARED` when set, else `<repo>/../shared`.
    public static var sharedDirectory: String {
        if let override = ProcessInfo.processInfo.environment["FLICKD_SHARED"], !override.isEmpty {
            return override
        }
        return URL(fileURLWithPath: repositoryDirectory).deletingLastPathComponent()
            .appendingPathComponent("shared").standardizedFileURL.path
    }

    /// Directory of the shared device descriptions (JSON).
    public static var sharedDevicesDirectory: String { sharedDirectory + "/devices" }

    /// Directory of the shared evemu recordings.
    public static var recordingsDirectory: String { sharedDirectory + "/recordings" }

    /// Whether the shared recordings are there (the tests that replay them run only then).
    public static var hasSharedRecordings: Bool { !recordingPaths().isEmpty }

    /// Whether the shared device descriptions are there.
    public static var hasSharedDevices: Bool { !sharedDeviceNames().isEmpty }

    /// Why a test that needs the shared samples did not run.
    public static var sharedAbsentReason: String {
        "no shared samples at \(sharedDirectory) (set FLICKD_SHARED, or put the folder `shared` beside the clone)"
    }

    /// Names of the shared device descriptions (`synaptics-t440`, ...), sorted, without `.json`.
    public static func sharedDeviceNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: sharedDevicesDirectory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Paths of every shared recording (`*.events`), sorted; empty when the samples are absent.
    public static func recordingPaths() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: recordingsDirectory)) ?? []
        return files.filter { $0.hasSuffix(".events") }.sorted().map { recordingsDirectory + "/" + $0 }
    }

    /// The `.desc` file of the device a recording was made on (`EP0430M09.2-finger-scroll-down.events`
    /// → `EP0430M09.desc`), or nil when there is none. Recordings that embed their description
    /// need none; when both exist the embedded one is the device that recorded.
    public static func descriptionPath(forRecording path: String) -> String? {
        let file = URL(fileURLWithPath: path).lastPathComponent
        guard let stem = file.split(separator: ".").first else { return nil }
        let candidate = URL(fileURLWithPath: path).deletingLastPathComponent().path + "/" + stem + ".desc"
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }

    /// The text of a file, as UTF-8.
    public static func text(atPath path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError(path: path, message: "cannot read file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FixtureError(path: path, message: "not UTF-8")
        }
        return text
    }

    /// A recording and the description of the device it was made on (its `.desc` file when
    /// it has one), parsed.
    public static func recording(atPath path: String) throws -> Recording {
        let description = try descriptionPath(forRecording: path).map { try text(atPath: $0) }
        return try Recording.load(text: try text(atPath: path), description: description)
    }

    /// The raw JSON object of shared device `name` (`synaptics-t440` or `synaptics-t440.json`).
    public static func sharedDeviceJSON(_ name: String) throws -> [String: Any] {
        let path = sharedDevicesDirectory + "/" + (name.hasSuffix(".json") ? name : name + ".json")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureError(path: path, message: "cannot read device sample")
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FixtureError(path: path, message: "not a JSON object")
        }
        return object
    }

    /// The kind shared device `name` says it is (`touchpad`/`touchscreen`).
    public static func sharedExpectedKind(_ name: String) throws -> DeviceKind? {
        (try sharedDeviceJSON(name)["kind"] as? String).flatMap(DeviceKind.init(rawValue:))
    }

    /// Shared device `name` as a `DeviceDescription`.
    ///
    /// Codes, properties and axes are written as kernel names (`BTN_TOOL_DOUBLETAP`,
    /// `INPUT_PROP_SEMI_MT`, `ABS_MT_SLOT`); numbers are accepted too. Unknown names throw.
    public static func sharedDevice(_ name: String) throws -> DeviceDescription {
        let path = sharedDevicesDirectory + "/" + (name.hasSuffix(".json") ? name : name + ".json")
        let json = try sharedDeviceJSON(name)
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
