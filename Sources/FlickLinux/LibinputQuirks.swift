import FlickCore
import Glibc

/// The size libinput gives a touch device that reports no resolution, from libinput's own
/// device database: its quirks files (`/usr/share/libinput/*.quirks`, then
/// `/etc/libinput/local-overrides.quirks`).
///
/// A touchpad without a resolution (older Elantech and ALPS PS/2 pads, Apple's USB pads) gets
/// its units per millimetre from a section's `AttrResolutionHint=XxY`, else its size from
/// `AttrSizeHint=WxH` (mm), and only without either libinput's guess of 69 × 50 mm
/// (`DeviceGeometry.assumedTouchpadSize`). flickd must measure millimetres as libinput does:
/// the virtual touchpad's fingers move at the real pad's speed in millimetres, which libinput
/// turns back into scrolling by the scale it gave each pad. With the guess instead of the
/// hint, an Elantech pad's glide ran 1.5–1.6 (horizontal) and 1.9–2.1 (vertical) times the
/// finger's speed in the apps (docs/APPS.md, "Other touchpads, and touchpads without a
/// resolution").
///
/// A section applies when every `Match` line matches (libinput's rules): `MatchName` and
/// `MatchDMIModalias` and `MatchDeviceTree` are shell globs (fnmatch) on the device's name,
/// the machine's DMI modalias and its device tree's first `compatible` string; `MatchBus`
/// names the bus (`usb`, `bluetooth`, `ps2`, `rmi`, `i2c`, `spi`); `MatchVendor`,
/// `MatchProduct` (a `;` list) and `MatchVersion` are hexadecimal ids; `MatchUdevType` is
/// `touchpad` or `touchscreen` for the devices flickd reads. A section with a `Match` key this
/// reader does not know never applies. Where several sections set a hint, the last one read
/// wins, as in libinput. Only the sections holding a hint or one of Apple's touchpad models
/// are kept (a few of the files' hundreds), read once, when the first touch device without a
/// resolution is described or the first touchpad's default direction is asked
/// (`QuirksOnDemand`): a machine whose pads all report one, on a desktop that says how each
/// pad scrolls, never reads the files.
///
/// The models (`ModelAppleTouchpad`, `ModelAppleTouchpadOneButton`) are the touchpads libinput
/// scrolls naturally by default (`naturalScrollingByDefault(for:)`): every Apple pad on USB,
/// Bluetooth or SPI. A compositor that leaves a pad at libinput's default (KWin, for a pad with
/// no group in kcminputrc) scrolls those naturally.
public struct LibinputQuirks: Sendable {
    /// A hint and where it was read
    /// (`"30-vendor-elantech.quirks [Elantech Touchpads] AttrResolutionHint=31x31"`).
    public struct Hint: Sendable, Equatable {
        public typealias Value = ResolutionHint

        public var value: Value
        public var source: String
        /// The units per millimetre `applied(to:kind:)` gave the device's x axis with it (0
        /// before it is applied).
        public var unitsPerMillimetreX: Int32 = 0
    }

    /// What a device is, as the `Match` keys see it.
    public struct Device: Sendable {
        public var name: String
        public var bustype: UInt16
        public var vendor: UInt16
        public var product: UInt16
        public var version: UInt16
        /// `touchpad` or `touchscreen` (`MatchUdevType`).
        public var udevType: String

        public init(name: String, bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16, udevType: String) {
            self.name = name
            self.bustype = bustype
            self.vendor = vendor
            self.product = product
            self.version = version
            self.udevType = udevType
        }

        /// The device `description` describes, read as a `kind`.
        public init(_ description: DeviceDescription, kind: DeviceKind) {
            self.init(name: description.name, bustype: description.bustype, vendor: description.vendor,
                      product: description.product, version: description.version,
                      udevType: kind == .touchpad ? "touchpad" : "touchscreen")
        }
    }

    struct Section: Sendable {
        var matches: [(key: String, value: String)]
        var hints: [Hint]
        /// The Apple models it sets: the key, on or off, and where (for the log).
        var models: [(key: String, isOn: Bool, source: String)] = []
    }

    /// The model keys that make libinput scroll a touchpad naturally by default.
    static let naturalModels = ["ModelAppleTouchpad", "ModelAppleTouchpadOneButton"]

    /// The bytes a quirks line is trimmed of: space, tab and carriage return.
    static let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]

    /// The directory of libinput's own files, and the file a system's administrator adds.
    public static let dataDirectory = "/usr/share/libinput"
    public static let overridesFile = "/etc/libinput/local-overrides.quirks"

    let sections: [Section]
    /// `/sys/class/dmi/id/modalias`, and the device tree's first `compatible` string; empty
    /// where the machine has none.
    let dmiModalias: String
    let deviceTree: String

    /// The quirks of this machine's libinput. Files that cannot be read count as empty.
    public static func system() -> LibinputQuirks {
        var paths: [String] = []
        var found = glob_t()
        if glob(dataDirectory + "/*.quirks", 0, nil, &found) == 0 {
            for index in 0..<Int(found.gl_pathc) {
                if let entry = found.gl_pathv[index] { paths.append(String(cString: entry)) }
            }
        }
        globfree(&found)
        paths.append(overridesFile)
        let files = paths.compactMap { path in (try? TextFile.read(path)).map { (path, $0) } }
        let compatible = (try? TextFile.read("/sys/firmware/devicetree/base/compatible")) ?? ""
        return LibinputQuirks(
            files: files,
            dmiModalias: ((try? TextFile.read("/sys/class/dmi/id/modalias")) ?? "").trimmingWhitespace,
            deviceTree: String(compatible.split(separator: "\0", omittingEmptySubsequences: true).first ?? ""))
    }

    /// Quirks read from `files` (path and text, in the order libinput reads them).
    ///
    /// The text is scanned as bytes, and only the lines of sections that hold a hint become
    /// strings: the files have hundreds of sections, of which a few matter, and character-level
    /// string handling would make flickd touch code and tables it needs nowhere else.
    public init(files: [(path: String, text: String)], dmiModalias: String = "", deviceTree: String = "") {
        var sections: [Section] = []
        for (path, text) in files {
            let file = path.split(separator: "/").last.map(String.init) ?? path
            let bytes = Array(text.utf8)
            func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
            func trimmed(_ range: Range<Int>) -> Range<Int> {
                var (low, high) = (range.lowerBound, range.upperBound)
                while low < high, Self.blanks.contains(bytes[low]) { low += 1 }
                while high > low, Self.blanks.contains(bytes[high - 1]) { high -= 1 }
                return low..<high
            }
            func starts(_ range: Range<Int>, with prefix: StaticString) -> Bool {
                range.count >= prefix.utf8CodeUnitCount
                    && bytes[range.lowerBound..<range.lowerBound + prefix.utf8CodeUnitCount].elementsEqual(
                        UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
            }
            // The open section: its name, Match lines and hints (key and value ranges).
            var name: Range<Int>?
            var matches: [(key: Range<Int>, value: Range<Int>)] = []
            var hints: [(hint: ResolutionHint, key: Range<Int>, value: Range<Int>)] = []
            var models: [(key: Range<Int>, value: Range<Int>)] = []
            func close() {
                if let name, !hints.isEmpty || !models.isEmpty, !matches.isEmpty {
                    let label = string(name)
                    func source(_ key: Range<Int>, _ value: Range<Int>) -> String { "\(file) [\(label)] \(string(key))=\(string(value))" }
                    sections.append(Section(
                        matches: matches.map { (string($0.key), string($0.value)) },
                        hints: hints.map { Hint(value: $0.hint, source: source($0.key, $0.value)) },
                        models: models.map { (string($0.key), string($0.value) == "1", source($0.key, $0.value)) }))
                }
                name = nil
                matches = []
                hints = []
                models = []
            }
            var lineStart = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "\n") {
                let line = trimmed(lineStart..<end)
                lineStart = end + 1
                guard let first = line.first, bytes[first] != UInt8(ascii: "#") else { continue }
                if bytes[first] == UInt8(ascii: "["), bytes[line.upperBound - 1] == UInt8(ascii: "]"), line.count >= 2 {
                    close()
                    name = line.lowerBound + 1..<line.upperBound - 1
                    continue
                }
                guard name != nil, let equals = line.first(where: { bytes[$0] == UInt8(ascii: "=") }) else { continue }
                let key = trimmed(line.lowerBound..<equals)
                let value = trimmed(equals + 1..<line.upperBound)
                if starts(key, with: "Match") {
                    matches.append((key, value))
                } else if starts(key, with: "AttrResolutionHint") || starts(key, with: "AttrSizeHint"),
                          let hint = ResolutionHint(key: string(key), value: string(value)) {
                    hints.append((hint, key, value))
                } else if starts(key, with: "ModelApple"), Self.naturalModels.contains(string(key)) {
                    models.append((key, value))
                }
            }
            close()
        }
        self.sections = sections
        self.dmiModalias = dmiModalias
        self.deviceTree = deviceTree
    }

    /// The hint libinput uses for `device`: a resolution hint wins over a size hint (libinput
    /// reads the size only without one); nil when neither applies.
    public func hint(for device: Device) -> Hint? {
        var resolution: Hint?
        var size: Hint?
        for section in sections where section.matches.allSatisfy({ matches($0.key, $0.value, device) }) {
            for hint in section.hints {
                if case .resolution = hint.value { resolution = hint } else { size = hint }
            }
        }
        return resolution ?? size
    }

    /// Whether libinput scrolls `device` naturally by default, as its
    /// `tp_scroll_config_natural_get_default` decides: a touchpad one of whose Apple models is
    /// on, each model as the last section setting it says. The model's line
    /// (`"50-system-apple.quirks [Apple Touchpads USB] ModelAppleTouchpad=1"`); nil: off.
    public func naturalScrollingByDefault(for device: Device) -> String? {
        guard device.udevType == "touchpad" else { return nil }
        var models: [String: (isOn: Bool, source: String)] = [:]
        for section in sections where !section.models.isEmpty && section.matches.allSatisfy({ matches($0.key, $0.value, device) }) {
            for model in section.models { models[model.key] = (model.isOn, model.source) }
        }
        return Self.naturalModels.lazy.compactMap { models[$0] }.first { $0.isOn }?.source
    }

    /// `description` with the resolution libinput gives it, when the device reports none on
    /// x and y (MT and single-touch axes alike) and a hint applies; the hint used, or nil when
    /// the description is returned as it was.
    public func applied(to description: DeviceDescription, kind: DeviceKind) -> (DeviceDescription, Hint?) {
        guard ResolutionHint.couldApply(to: description) else { return (description, nil) }
        guard var hint = hint(for: Device(description, kind: kind)), let result = hint.value.applied(to: description) else { return (description, nil) }
        hint.unitsPerMillimetreX = (result.absoluteAxes[EventCode.absMTPositionX] ?? result.absoluteAxes[EventCode.absX])?.resolution ?? 0
        return (result, hint)
    }

    /// Bus names of `MatchBus`, as the kernel numbers them (linux/input.h).
    static let buses: [String: UInt16] = ["usb": 0x03, "bluetooth": 0x05, "ps2": 0x11, "i2c": 0x18, "spi": 0x1C, "rmi": 0x1D]

    private func matches(_ key: String, _ value: String, _ device: Device) -> Bool {
        func hex(_ text: Substring) -> UInt16? {
            let digits = text.trimmingWhitespace
            guard digits.lowercased().hasPrefix("0x") else { return nil }
            return UInt16(digits.dropFirst(2), radix: 16)
        }
        switch key {
        case "MatchName": return fnmatch(value, device.name, 0) == 0
        case "MatchDMIModalias": return !dmiModalias.isEmpty && fnmatch(value, dmiModalias, 0) == 0
        case "MatchDeviceTree": return !deviceTree.isEmpty && fnmatch(value, deviceTree, 0) == 0
        case "MatchBus": return Self.buses[value.lowercased()] == device.bustype
        case "MatchVendor": return hex(value[...]) == device.vendor
        case "MatchProduct": return value.split(separator: ";").contains { hex($0) == device.product }
        case "MatchVersion": return hex(value[...]) == device.version
        case "MatchUdevType": return value == device.udevType
        default: return false
        }
    }
}

/// libinput's quirks, read the first time a device without a resolution asks for them, or a
/// touchpad's default direction is asked (the desktop did not say it). Nearly every touch
/// device reports its resolution, so a daemon that only sees such devices, on a desktop that
/// answers for them, never reads the files (about 40 files and 40 kB of text on Debian 12).
public final class QuirksOnDemand {
    private let load: () -> LibinputQuirks
    private var loaded: LibinputQuirks?
    /// How many times the files were read: 0 until a device needed them, then 1.
    public private(set) var loads = 0

    /// `load` reads the quirks (`LibinputQuirks.system` on a real system).
    public init(load: @escaping () -> LibinputQuirks = LibinputQuirks.system) {
        self.load = load
    }

    /// The quirks, read now if they were not yet.
    public var quirks: LibinputQuirks {
        if let loaded { return loaded }
        let read = load()
        loaded = read
        loads += 1
        return read
    }

    /// `description` with the resolution libinput gives it (`LibinputQuirks.applied`); the
    /// files are read only when the device lacks a resolution.
    public func applied(to description: DeviceDescription, kind: DeviceKind) -> (DeviceDescription, LibinputQuirks.Hint?) {
        guard ResolutionHint.couldApply(to: description) else { return (description, nil) }
        return quirks.applied(to: description, kind: kind)
    }

    /// Whether libinput scrolls the touchpad `description` naturally by default, and by which
    /// line (`LibinputQuirks.naturalScrollingByDefault`); nil for any other device.
    public func naturalScrollingByDefault(_ description: DeviceDescription, kind: DeviceKind) -> String? {
        guard kind == .touchpad else { return nil }
        return quirks.naturalScrollingByDefault(for: LibinputQuirks.Device(description, kind: kind))
    }
}
