import FlickCore
import Glibc

/// The quirks by which libinput reads a touchpad's pressure (`TouchPressure`): `AttrPressureRange`,
/// `AttrPalmPressureThreshold`, and `AttrTouchSizeRange` (a pad read by touch size is not read by
/// pressure).
///
/// `LibinputQuirks` keeps only the sections it needs for sizes and Apple's models; these values
/// are read from the same files again, after `LibinputQuirks` has judged them: where it found a
/// problem, libinput uses no quirk, and neither does this. The files passed must be the ones it
/// read (`systemFiles()` on a real system).
extension LibinputQuirks {
    /// A `hi:lo` range as libinput's `parse_range_property` reads it (`none` is 0:0).
    public struct QuirkRange: Sendable, Equatable {
        /// The upper threshold (a touch begins at it).
        public var high: Int32
        /// The lower threshold (a touch ends below it).
        public var low: Int32

        public init(high: Int32, low: Int32) {
            self.high = high
            self.low = low
        }
    }

    /// What the quirks that apply to a device say of its pressure; nil: no section says.
    public struct PressureQuirks: Sendable, Equatable {
        /// `AttrPressureRange` (0:0: detection by pressure off).
        public var pressureRange: QuirkRange?
        /// `AttrPalmPressureThreshold`, device units.
        public var palmPressureThreshold: Int32?
        /// `AttrTouchSizeRange`.
        public var touchSizeRange: QuirkRange?

        public init(pressureRange: QuirkRange? = nil, palmPressureThreshold: Int32? = nil, touchSizeRange: QuirkRange? = nil) {
            self.pressureRange = pressureRange
            self.palmPressureThreshold = palmPressureThreshold
            self.touchSizeRange = touchSizeRange
        }
    }

    /// The texts of the files `system()` reads, in its order (the files that cannot be read left
    /// out: `system()` then has a problem, and no quirk applies).
    public static func systemFiles() -> [(path: String, text: String)] {
        var paths: [String] = []
        var found = glob_t()
        if glob(dataDirectory + "/*.quirks", 0, nil, &found) == 0 {
            for index in 0..<Int(found.gl_pathc) {
                if let entry = found.gl_pathv[index] { paths.append(String(cString: entry)) }
            }
        }
        globfree(&found)
        paths.append(overridesFile)
        return paths.compactMap { path in (try? TextFile.read(path)).map { (path, $0) } }
    }

    /// The pressure quirks of `device` in `files` (the files these quirks were read from): for
    /// each key, the last section that applies and sets it wins, as in libinput. None where the
    /// files have a problem (`problems`).
    public func pressureQuirks(for device: Device, in files: [(path: String, text: String)]) -> PressureQuirks {
        var result = PressureQuirks()
        guard problems.isEmpty else { return result }
        let grammar = Grammar.releases.first { $0.release == grammarRelease } ?? Grammar.releases[Grammar.releases.count - 1]
        for file in files {
            var applies = false
            var inSection = false
            let bytes = Array(file.text.utf8)
            for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
                // The files passed `LibinputQuirks`' strict reading: a comment runs from `#`, the
                // blanks before it go, and every other line is a section or one Key=value.
                var line = rawLine[...]
                if let hash = line.firstIndex(of: UInt8(ascii: "#")) { line = line[..<hash] }
                while let last = line.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { line = line.dropLast() }
                guard let first = line.first else { continue }
                if first == UInt8(ascii: "[") {
                    applies = true
                    inSection = true
                    continue
                }
                let pieces = line.split(separator: UInt8(ascii: "="), omittingEmptySubsequences: true)
                guard inSection, pieces.count == 2 else { continue }
                let key = String(decoding: pieces[0], as: UTF8.self)
                if key.hasPrefix("Match") {
                    // Every Match line comes before the section's properties.
                    if let match = QuirksParser.parseMatch(pieces[0], pieces[1], grammar) {
                        applies = applies && matchesForPressure(match, device)
                    } else {
                        applies = false
                    }
                    continue
                }
                guard applies else { continue }
                let value = String(decoding: pieces[1], as: UTF8.self)
                switch key {
                case "AttrPressureRange": result.pressureRange = Self.range(value) ?? result.pressureRange
                case "AttrTouchSizeRange": result.touchSizeRange = Self.range(value) ?? result.touchSizeRange
                case "AttrPalmPressureThreshold":
                    if let threshold = UInt32(value), let fits = Int32(exactly: threshold) { result.palmPressureThreshold = fits }
                default: break
                }
            }
        }
        return result
    }

    /// How libinput reads the touchpad `description`'s pressure with these quirks
    /// (`TouchPressure.libinput`), from `files` (`systemFiles()`); nil for any other device, or
    /// where it reads none.
    ///
    /// Touch size replaces pressure where `AttrTouchSizeRange` applies, is not 0:0, and the pad
    /// has ABS_MT_TOUCH_MAJOR and at least 5 slots (`tp_init_touch_size`). A pad is external,
    /// and has no palm detection by pressure, on Bluetooth or from Logitech (libinput's
    /// fallback when udev sets no ID_INPUT_TOUCHPAD_INTEGRATION; `evdev_tag_touchpad`).
    public func touchPressure(for description: DeviceDescription, kind: DeviceKind,
                              in files: [(path: String, text: String)]) -> TouchPressure? {
        guard kind == .touchpad else { return nil }
        let quirks = pressureQuirks(for: Device(description, kind: kind), in: files)
        let touchSize = quirks.touchSizeRange.map { range in
            !(range.high == 0 && range.low == 0) && description.absoluteAxes[Self.absMTTouchMajor] != nil
                && description.slotCount >= 5
        } ?? false
        let isExternal = description.bustype == Self.busBluetooth || description.vendor == Self.vendorLogitech
        return TouchPressure.libinput(for: description, kind: kind,
                                      pressureRange: quirks.pressureRange.map { ($0.high, $0.low) },
                                      palmThreshold: quirks.palmPressureThreshold,
                                      touchSizeRange: touchSize, isExternal: isExternal)
    }

    static let absMTTouchMajor: UInt16 = 0x30
    static let busBluetooth: UInt16 = 0x05
    static let vendorLogitech: UInt16 = 0x046d

    /// libinput's `parse_range_property`: `none` (0:0), or `hi:lo` with hi > lo.
    static func range(_ value: String) -> QuirkRange? {
        if value == "none" { return QuirkRange(high: 0, low: 0) }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let high = Int32(parts[0]), let low = Int32(parts[1]), low < high else { return nil }
        return QuirkRange(high: high, low: low)
    }

    /// Whether `match` holds for `device` (as `LibinputQuirks` matches its own sections).
    private func matchesForPressure(_ match: Match, _ device: Device) -> Bool {
        switch match {
        case .name(let glob): fnmatch(glob, device.name, 0) == 0
        case .dmiModalias(let glob): !dmiModalias.isEmpty && fnmatch(glob, dmiModalias, 0) == 0
        case .deviceTree(let glob): !deviceTree.isEmpty && fnmatch(glob, deviceTree, 0) == 0
        case .bus(let bus): bus == device.bustype
        case .vendor(let id): id == device.vendor
        case .products(let ids): ids.contains(device.product)
        case .version(let id): id == device.version
        case .udevType(let type): type == device.udevType
        case .uniq: false
        }
    }
}
