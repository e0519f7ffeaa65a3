import CEvdev
import FlickCore
import Glibc

/// The quirks by which libinput reads a touchpad's pressure (`TouchPressure`): `AttrPressureRange`,
/// `AttrPalmPressureThreshold`, `AttrTouchSizeRange` (a pad read by touch size is not read by
/// pressure), and `AttrTPKComboLayout` (an external pad below a keyboard keeps its palms).
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
        /// The EV_ABS codes the last `AttrEventCodeDisable` (1.22) or `AttrEventCode` (`-ABS_…`,
        /// 1.23 on) that applies takes away: libinput disables them in libevdev before it reads
        /// the pad (`evdev_pre_configure_model_quirks`), so it reads no pressure from them
        /// (`ABS_MT_PRESSURE;ABS_PRESSURE;` on pressure pads such as Dell's Precision 5680).
        /// Enabling an EV_ABS code needs its range, which a quirk cannot give: a `+` adds none.
        public var disabledAxes: Set<UInt16>
        /// `ModelPressurePad` (1.23 to 1.30): libinput disables ABS_MT_PRESSURE and ABS_PRESSURE
        /// (`tp_init_pressurepad`).
        public var pressurePadModel: Bool?
        /// INPUT_PROP_PRESSUREPAD as the last `AttrInputProp` that names it sets it (`+`: true,
        /// `-`: false); from 1.31, where libinput reads a pad with it as a pressure pad.
        public var pressurePadProperty: Bool?
        /// `AttrTPKComboLayout=below`: the pad sits below the keys of a keyboard it comes with
        /// (HP's Elite x2 1013 G3 cover, which udev tags external), so libinput keeps its palm
        /// detection (`tp_is_tpkb_combo_below`). `below` is the only value libinput knows: any
        /// other reads as false.
        public var comboBelowKeyboard: Bool?

        public init(pressureRange: QuirkRange? = nil, palmPressureThreshold: Int32? = nil, touchSizeRange: QuirkRange? = nil,
                    disabledAxes: Set<UInt16> = [], pressurePadModel: Bool? = nil, pressurePadProperty: Bool? = nil,
                    comboBelowKeyboard: Bool? = nil) {
            self.pressureRange = pressureRange
            self.palmPressureThreshold = palmPressureThreshold
            self.touchSizeRange = touchSizeRange
            self.disabledAxes = disabledAxes
            self.pressurePadModel = pressurePadModel
            self.pressurePadProperty = pressurePadProperty
            self.comboBelowKeyboard = comboBelowKeyboard
        }
    }

    /// The texts of the files `system()` reads, in its order (the files that cannot be read left
    /// out: `system()` then has a problem, and no quirk applies).
    public static func systemFiles() -> [(path: String, text: String)] {
        systemPaths().compactMap { path in (try? TextFile.read(path)).map { (path, $0) } }
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
                        applies = applies && matches(match, device)
                    } else {
                        applies = false
                    }
                    continue
                }
                guard applies else { continue }
                result.read(key: key, value: String(decoding: pieces[1], as: UTF8.self),
                            namesPressurePadProperty: grammar.namesPressurePadProperty)
            }
        }
        return result
    }

    /// How libinput reads the touchpad `description`'s pressure with the quirks of it in `files`
    /// (`systemFiles()`), udev's `ID_INPUT_TOUCHPAD_INTEGRATION` being `integration` and its
    /// `ID_INPUT_TABLET` `isTablet`: `PressureQuirks.touchPressure(for:kind:integration:isTablet:)`.
    /// nil for any other device, or where it reads none.
    public func touchPressure(for description: DeviceDescription, kind: DeviceKind,
                              in files: [(path: String, text: String)], integration: String? = nil,
                              isTablet: Bool = false) -> TouchPressure? {
        guard kind == .touchpad else { return nil }
        return pressureQuirks(for: Device(description, kind: kind), in: files)
            .touchPressure(for: description, kind: kind, integration: integration, isTablet: isTablet)
    }

    static let absMTTouchMajor: UInt16 = 0x30
    static let absPressure: UInt16 = 0x18
    static let absMTPressure: UInt16 = 0x3a
    static let propPressurePad: UInt16 = 0x07
    static let evABS: Int32 = 3

    /// The EV_ABS codes an event code list (as `QuirksParser.eventCodes` accepts it) disables:
    /// each `-` item (every item before 1.23, `signed` false) that names an ABS code, `EV_ABS`
    /// (the whole type) or `EV_ABS:0x3a`.
    static func disabledAxes(_ value: String, signed: Bool) -> Set<UInt16> {
        var codes: Set<UInt16> = []
        for var item in value.split(separator: ";") {
            if signed {
                guard let sign = item.first else { continue }
                item = item.dropFirst()
                guard sign == "-" else { continue }
            }
            if let colon = item.firstIndex(of: ":") {
                guard libevdev_event_type_from_name(String(item[..<colon])) == evABS else { continue }
                var digits = item[item.index(after: colon)...]
                if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
                if let code = UInt16(digits, radix: 16) { codes.insert(code) }
            } else if item == "EV_ABS" {
                // The whole type: every axis, so both pressures.
                codes.formUnion(0...UInt16(libevdev_event_type_get_max(UInt32(evABS))))
            } else if item.hasPrefix("ABS_") {
                let code = libevdev_event_code_from_name(UInt32(evABS), String(item))
                if code >= 0 { codes.insert(UInt16(code)) }
            }
        }
        return codes
    }

    /// What an `AttrInputProp` value (signed, 1.23 on) does to INPUT_PROP_PRESSUREPAD: the last
    /// item naming it (by name or 0x07) decides; nil when none does.
    static func pressurePadProperty(_ value: String) -> Bool? {
        var result: Bool?
        for item in value.split(separator: ";") {
            guard let sign = item.first else { continue }
            let name = item.dropFirst()
            let number = name.lowercased().hasPrefix("0x") ? UInt16(name.dropFirst(2), radix: 16) : UInt16(name, radix: 16)
            guard name == "INPUT_PROP_PRESSUREPAD" || number == propPressurePad else { continue }
            result = sign == "+"
        }
        return result
    }
    static let busBluetooth: UInt16 = 0x05
    static let vendorLogitech: UInt16 = 0x046d

    /// libinput's `parse_range_property`: `none` (0:0), or `hi:lo` with hi > lo. `0:0` is how
    /// `libinput record` lists `none`; libinput refuses it in a quirks file (hi ≤ lo), whose
    /// reading then has a problem and no quirk applies, so only a recording gives it here.
    static func range(_ value: String) -> QuirkRange? {
        if value == "none" || value == "0:0" { return QuirkRange(high: 0, low: 0) }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let high = Int32(parts[0]), let low = Int32(parts[1]), low < high else { return nil }
        return QuirkRange(high: high, low: low)
    }
}

extension LibinputQuirks.PressureQuirks {
    /// The keys these quirks are read from (`read(key:value:namesPressurePadProperty:)`); a
    /// quirk of any other key says nothing of pressure.
    public static let keys: Set<String> = [
        "AttrPressureRange", "AttrPalmPressureThreshold", "AttrTouchSizeRange", "AttrEventCodeDisable", "AttrEventCode",
        "ModelPressurePad", "AttrInputProp", "AttrTPKComboLayout",
    ]

    /// The recorded quirks among `entries` (`Key=value`, as `init(recorded:libinputVersion:)`
    /// reads them) that libinput read for the touchpad `description`'s pressure under
    /// `libinputVersion`, udev's `ID_INPUT_TOUCHPAD_INTEGRATION` being `integration` and its
    /// `ID_INPUT_TABLET` `isTablet`; in their order. Listed: an event code list that takes
    /// ABS_MT_PRESSURE or ABS_PRESSURE away, `ModelPressurePad`, an `AttrInputProp` naming
    /// INPUT_PROP_PRESSUREPAD from 1.31; `AttrTouchSizeRange` where the pad (as those leave it)
    /// has ABS_MT_TOUCH_MAJOR and 5 slots or more (`tp_init_touch_size`); `AttrPressureRange`
    /// where it is then not read by touch size and has the pressure axis (`tp_init_pressure`);
    /// `AttrPalmPressureThreshold` where it has ABS_MT_PRESSURE and keeps palm detection
    /// (`tp_init_palmdetect`: not external, or below a keyboard, or a tablet's);
    /// `AttrTPKComboLayout=below` where it is what keeps it, on an external pad with
    /// ABS_MT_PRESSURE. `AttrEventCode=-BTN_RIGHT;`, or a pre-1.31 `AttrInputProp`, says nothing
    /// of pressure.
    public static func readForPressure(_ entries: [String], libinputVersion: String?, description: DeviceDescription,
                                       integration: String?, isTablet: Bool) -> [String] {
        let all = Self(recorded: entries, libinputVersion: libinputVersion)
        let pad = all.asLibinputSees(description)
        let external = Self.isExternal(description, integration: integration)
        // A pressure pad's pressure is a force: libinput reads none of it (`TouchPressure.libinput`).
        let pressurePad = pad.properties.contains(LibinputQuirks.propPressurePad)
            || (pad.absoluteAxes[LibinputQuirks.absMTPressure]?.resolution ?? 0) != 0
        let mtPressure = !pressurePad && pad.absoluteAxes[LibinputQuirks.absMTPressure] != nil
        let touchSize = pad.absoluteAxes[LibinputQuirks.absMTTouchMajor] != nil && pad.slotCount >= 5
        let multitouch = (pad.slotCount > 0 && !pad.isSemiMultitouch) || pad.usesProtocolA
        let pressureAxis = !pressurePad && pad.absoluteAxes[multitouch ? LibinputQuirks.absMTPressure : LibinputQuirks.absPressure] != nil
        let readByTouchSize = touchSize && all.touchSizeRange.map { !($0.high == 0 && $0.low == 0) } == true
        return entries.filter { entry in
            var quirks = Self(recorded: [entry], libinputVersion: libinputVersion)
            quirks.disabledAxes.formIntersection([LibinputQuirks.absMTPressure, LibinputQuirks.absPressure])
            if quirks.touchSizeRange != nil { return touchSize }
            if quirks.pressureRange != nil { return !readByTouchSize && pressureAxis }
            if quirks.palmPressureThreshold != nil { return mtPressure && (!external || all.comboBelowKeyboard == true || isTablet) }
            if let below = quirks.comboBelowKeyboard { return below && mtPressure && external && !isTablet }
            return quirks != Self()
        }
    }

    /// The pressure quirks among the quirks `libinput record` listed for a device (its `quirks:`
    /// entries, `Key=value`), those of the machine it was recorded on, each already the one
    /// that applies there (libinput's `tools_list_device_quirks`). `libinputVersion` is the
    /// recording's (`libinput: version: "1.25.0"`): from 1.31 an `AttrInputProp` that sets
    /// INPUT_PROP_PRESSUREPAD makes a pressure pad; nil (unknown) reads as the newest, as the
    /// quirks files of a release flickd does not know are read.
    ///
    /// The entries are read as a quirks file's lines are (`read`), with what `libinput record`
    /// prints differently: a range of `none` as `0:0`, event codes and properties by their
    /// names, each with its sign from 1.23 (`-ABS_MT_PRESSURE;`), without one before
    /// (`AttrEventCodeDisable=ABS_MT_PRESSURE;`). Entries of other keys are skipped.
    public init(recorded entries: [String], libinputVersion: String?) {
        self.init()
        let namesPressurePadProperty = Self.release(libinputVersion).map { $0.major > 1 || ($0.major == 1 && $0.minor >= 31) } ?? true
        for entry in entries {
            let pieces = entry.split(separator: "=", omittingEmptySubsequences: true)
            guard pieces.count == 2 else { continue }
            read(key: String(pieces[0]), value: String(pieces[1]), namesPressurePadProperty: namesPressurePadProperty)
        }
    }

    /// `1.25.0` as (1, 25); nil for anything else. A patch of 900 or more is the next minor
    /// release's candidate (libinput numbers 1.31's `1.30.901`), which already reads as it does:
    /// (1, 31).
    static func release(_ version: String?) -> (major: Int, minor: Int)? {
        guard let parts = version?.split(separator: ".", omittingEmptySubsequences: false), parts.count >= 2,
              let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        if parts.count >= 3, let patch = Int(parts[2].prefix { $0.isNumber }), patch >= 900 { return (major, minor + 1) }
        return (major, minor)
    }

    /// Takes in one quirk that applies to the device, `key=value`; a later one of a key
    /// replaces an earlier one, as libinput reads the last section that sets it (its
    /// `quirk_find_prop` runs backwards), not a union of them. A malformed value leaves the
    /// key as it was. `namesPressurePadProperty`: whether the release reads INPUT_PROP_PRESSUREPAD
    /// from `AttrInputProp` (`Grammar.namesPressurePadProperty`, 1.31).
    ///
    /// Each of `AttrEventCodeDisable` (1.22, unsigned) and `AttrEventCode` (1.23 on, signed)
    /// belongs to one release's grammar: quirks files holding the other release's key are
    /// refused whole (`problems`), and `libinput record` lists its own release's.
    mutating func read(key: String, value: String, namesPressurePadProperty: Bool) {
        switch key {
        case "AttrPressureRange": pressureRange = LibinputQuirks.range(value) ?? pressureRange
        case "AttrTouchSizeRange": touchSizeRange = LibinputQuirks.range(value) ?? touchSizeRange
        case "AttrPalmPressureThreshold":
            if let threshold = UInt32(value), let fits = Int32(exactly: threshold) { palmPressureThreshold = fits }
        case "AttrEventCodeDisable": disabledAxes = LibinputQuirks.disabledAxes(value, signed: false)
        case "AttrEventCode": disabledAxes = LibinputQuirks.disabledAxes(value, signed: true)
        case "ModelPressurePad": pressurePadModel = value == "1"
        case "AttrInputProp" where namesPressurePadProperty:
            if let set = LibinputQuirks.pressurePadProperty(value) { pressurePadProperty = set }
        case "AttrTPKComboLayout": comboBelowKeyboard = value == "below"
        default: break
        }
    }

    /// How libinput reads the touchpad `description`'s pressure with these quirks
    /// (`TouchPressure.libinput`); nil for any other device, or where it reads none. The daemon
    /// asks it with the quirks of the pad's files (`LibinputQuirks.touchPressure(for:kind:in:)`),
    /// `flickd replay` with those a `libinput record` file lists (`init(recorded:libinputVersion:)`).
    ///
    /// Touch size replaces pressure where `AttrTouchSizeRange` applies, is not 0:0, and the pad
    /// has ABS_MT_TOUCH_MAJOR and at least 5 slots (`tp_init_touch_size`). An external pad
    /// (`isExternal(_:integration:)`) has no palm detection by pressure (`tp_init_palmdetect`)
    /// unless it sits below a keyboard (`AttrTPKComboLayout=below`: HP's Elite x2 1013 G3) or
    /// udev also tags it a tablet (`isTablet`, `ID_INPUT_TABLET`: Wacom's touch parts). The
    /// daemon passes no tablet tag: `InputNode` does not read ID_INPUT_TABLET, and no tablet's
    /// touch part known reports ABS_MT_PRESSURE.
    public func touchPressure(for description: DeviceDescription, kind: DeviceKind, integration: String? = nil,
                              isTablet: Bool = false) -> TouchPressure? {
        guard kind == .touchpad else { return nil }
        let pad = asLibinputSees(description)
        let touchSize = touchSizeRange.map { range in
            !(range.high == 0 && range.low == 0) && pad.absoluteAxes[LibinputQuirks.absMTTouchMajor] != nil
                && pad.slotCount >= 5
        } ?? false
        let noPalmDetection = Self.isExternal(description, integration: integration) && comboBelowKeyboard != true && !isTablet
        return TouchPressure.libinput(for: pad, kind: kind,
                                      pressureRange: pressureRange.map { ($0.high, $0.low) },
                                      palmThreshold: palmPressureThreshold,
                                      touchSizeRange: touchSize, isExternal: noPalmDetection)
    }

    /// Whether libinput tags the touchpad `description` external, as udev's
    /// ID_INPUT_TOUCHPAD_INTEGRATION (`integration`) says: `external` or `internal` (systemd's
    /// 70-touchpad.hwdb tags Apple's USB Magic Trackpad 2, Wacom's pads and the HP Elite x2
    /// 1013 G3's cover (usb:v044ep1221) external); without either, on Bluetooth or from
    /// Logitech (libinput's fallback, `evdev_tag_touchpad`).
    static func isExternal(_ description: DeviceDescription, integration: String?) -> Bool {
        switch integration {
        case "external": return true
        case "internal": return false
        // No value, or one libinput does not know (it logs it): its fallback.
        default: return description.bustype == LibinputQuirks.busBluetooth || description.vendor == LibinputQuirks.vendorLogitech
        }
    }

    /// The pad `description` as libinput sees it once these quirks have taken axes and set
    /// properties away: without ABS_MT_PRESSURE (on a pad with slots; ABS_PRESSURE on others)
    /// it reads no touch by pressure, without ABS_MT_PRESSURE no palm (`tp_init_pressure`,
    /// `tp_init_palmdetect_pressure`), and a pressure pad neither (`tp_init_pressurepad`).
    func asLibinputSees(_ description: DeviceDescription) -> DeviceDescription {
        var description = description
        for code in disabledAxes { description.absoluteAxes[code] = nil }
        if pressurePadModel == true {
            description.absoluteAxes[LibinputQuirks.absMTPressure] = nil
            description.absoluteAxes[LibinputQuirks.absPressure] = nil
        }
        switch pressurePadProperty {
        case true?: description.properties.insert(LibinputQuirks.propPressurePad)
        case false?: description.properties.remove(LibinputQuirks.propPressurePad)
        case nil: break
        }
        return description
    }
}
