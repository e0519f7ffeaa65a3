import FlickCore

/// The kernel's names for event types, codes and input properties, both ways.
///
/// FlickCore cannot import `linux/input-event-codes.h`, so the names flickd meets in recordings,
/// device descriptions and logs are written out here: every `EV_*` type, the codes of `EV_SYN`,
/// `EV_REL`, `EV_ABS` and `EV_MSC`, the buttons of `EV_KEY` (`BTN_*`, not the keyboard's
/// `KEY_*`), and every `INPUT_PROP_*`. The values are the kernel's stable ABI.
///
/// A code without a name here is written `<PREFIX>_0x<hex>` (`ABS_0x2a`, `KEY_0x1e`), and
/// `lookup` reads that form back, so names round-trip for every code.
public enum EventNames {
    /// One named code: the evdev type it belongs to, its code and its kernel name.
    public struct Entry: Hashable, Sendable {
        /// Event type (`EV_KEY` = 1, ...).
        public var type: UInt16
        /// Code within the type.
        public var code: UInt16
        /// The kernel's name (`BTN_TOUCH`).
        public var name: String
    }

    /// Event types by value, with their largest valid code (`*_MAX`).
    private static let types: [(name: String, type: UInt16, codePrefix: String, maximumCode: UInt16)] = [
        ("EV_SYN", 0x00, "SYN", 0x0f),
        ("EV_KEY", 0x01, "KEY", 0x2ff),
        ("EV_REL", 0x02, "REL", 0x0f),
        ("EV_ABS", 0x03, "ABS", 0x3f),
        ("EV_MSC", 0x04, "MSC", 0x07),
        ("EV_SW", 0x05, "SW", 0x10),
        ("EV_LED", 0x11, "LED", 0x0f),
        ("EV_SND", 0x12, "SND", 0x07),
        ("EV_REP", 0x14, "REP", 0x01),
        ("EV_FF", 0x15, "FF", 0x7f),
        ("EV_PWR", 0x16, "PWR", 0x00),
        ("EV_FF_STATUS", 0x17, "FF_STATUS", 0x01),
    ]

    /// Largest event type (`EV_MAX`).
    public static let maximumType: UInt16 = 0x1f

    /// Largest input property bit (`INPUT_PROP_MAX`).
    public static let maximumProperty: UInt16 = 0x1f

    /// Canonical names, one per code: what `codeName` prints.
    private static let canonical: [(UInt16, UInt16, String)] = {
        var table: [(UInt16, UInt16, String)] = [
            (0x00, 0x00, "SYN_REPORT"), (0x00, 0x01, "SYN_CONFIG"),
            (0x00, 0x02, "SYN_MT_REPORT"), (0x00, 0x03, "SYN_DROPPED"),

            (0x02, 0x00, "REL_X"), (0x02, 0x01, "REL_Y"), (0x02, 0x02, "REL_Z"),
            (0x02, 0x03, "REL_RX"), (0x02, 0x04, "REL_RY"), (0x02, 0x05, "REL_RZ"),
            (0x02, 0x06, "REL_HWHEEL"), (0x02, 0x07, "REL_DIAL"), (0x02, 0x08, "REL_WHEEL"),
            (0x02, 0x09, "REL_MISC"), (0x02, 0x0a, "REL_RESERVED"),
            (0x02, 0x0b, "REL_WHEEL_HI_RES"), (0x02, 0x0c, "REL_HWHEEL_HI_RES"),

            (0x03, 0x00, "ABS_X"), (0x03, 0x01, "ABS_Y"), (0x03, 0x02, "ABS_Z"),
            (0x03, 0x03, "ABS_RX"), (0x03, 0x04, "ABS_RY"), (0x03, 0x05, "ABS_RZ"),
            (0x03, 0x06, "ABS_THROTTLE"), (0x03, 0x07, "ABS_RUDDER"), (0x03, 0x08, "ABS_WHEEL"),
            (0x03, 0x09, "ABS_GAS"), (0x03, 0x0a, "ABS_BRAKE"),
            (0x03, 0x10, "ABS_HAT0X"), (0x03, 0x11, "ABS_HAT0Y"), (0x03, 0x12, "ABS_HAT1X"),
            (0x03, 0x13, "ABS_HAT1Y"), (0x03, 0x14, "ABS_HAT2X"), (0x03, 0x15, "ABS_HAT2Y"),
            (0x03, 0x16, "ABS_HAT3X"), (0x03, 0x17, "ABS_HAT3Y"),
            (0x03, 0x18, "ABS_PRESSURE"), (0x03, 0x19, "ABS_DISTANCE"),
            (0x03, 0x1a, "ABS_TILT_X"), (0x03, 0x1b, "ABS_TILT_Y"), (0x03, 0x1c, "ABS_TOOL_WIDTH"),
            (0x03, 0x20, "ABS_VOLUME"), (0x03, 0x21, "ABS_PROFILE"), (0x03, 0x28, "ABS_MISC"),
            (0x03, 0x2e, "ABS_RESERVED"), (0x03, 0x2f, "ABS_MT_SLOT"),
            (0x03, 0x30, "ABS_MT_TOUCH_MAJOR"), (0x03, 0x31, "ABS_MT_TOUCH_MINOR"),
            (0x03, 0x32, "ABS_MT_WIDTH_MAJOR"), (0x03, 0x33, "ABS_MT_WIDTH_MINOR"),
            (0x03, 0x34, "ABS_MT_ORIENTATION"), (0x03, 0x35, "ABS_MT_POSITION_X"),
            (0x03, 0x36, "ABS_MT_POSITION_Y"), (0x03, 0x37, "ABS_MT_TOOL_TYPE"),
            (0x03, 0x38, "ABS_MT_BLOB_ID"), (0x03, 0x39, "ABS_MT_TRACKING_ID"),
            (0x03, 0x3a, "ABS_MT_PRESSURE"), (0x03, 0x3b, "ABS_MT_DISTANCE"),
            (0x03, 0x3c, "ABS_MT_TOOL_X"), (0x03, 0x3d, "ABS_MT_TOOL_Y"),

            (0x04, 0x00, "MSC_SERIAL"), (0x04, 0x01, "MSC_PULSELED"), (0x04, 0x02, "MSC_GESTURE"),
            (0x04, 0x03, "MSC_RAW"), (0x04, 0x04, "MSC_SCAN"), (0x04, 0x05, "MSC_TIMESTAMP"),

            (0x01, 0x110, "BTN_LEFT"), (0x01, 0x111, "BTN_RIGHT"), (0x01, 0x112, "BTN_MIDDLE"),
            (0x01, 0x113, "BTN_SIDE"), (0x01, 0x114, "BTN_EXTRA"), (0x01, 0x115, "BTN_FORWARD"),
            (0x01, 0x116, "BTN_BACK"), (0x01, 0x117, "BTN_TASK"),
            (0x01, 0x120, "BTN_TRIGGER"), (0x01, 0x121, "BTN_THUMB"), (0x01, 0x122, "BTN_THUMB2"),
            (0x01, 0x123, "BTN_TOP"), (0x01, 0x124, "BTN_TOP2"), (0x01, 0x125, "BTN_PINKIE"),
            (0x01, 0x126, "BTN_BASE"), (0x01, 0x127, "BTN_BASE2"), (0x01, 0x128, "BTN_BASE3"),
            (0x01, 0x129, "BTN_BASE4"), (0x01, 0x12a, "BTN_BASE5"), (0x01, 0x12b, "BTN_BASE6"),
            (0x01, 0x12f, "BTN_DEAD"),
            (0x01, 0x130, "BTN_SOUTH"), (0x01, 0x131, "BTN_EAST"), (0x01, 0x132, "BTN_C"),
            (0x01, 0x133, "BTN_NORTH"), (0x01, 0x134, "BTN_WEST"), (0x01, 0x135, "BTN_Z"),
            (0x01, 0x136, "BTN_TL"), (0x01, 0x137, "BTN_TR"), (0x01, 0x138, "BTN_TL2"),
            (0x01, 0x139, "BTN_TR2"), (0x01, 0x13a, "BTN_SELECT"), (0x01, 0x13b, "BTN_START"),
            (0x01, 0x13c, "BTN_MODE"), (0x01, 0x13d, "BTN_THUMBL"), (0x01, 0x13e, "BTN_THUMBR"),
            (0x01, 0x140, "BTN_TOOL_PEN"), (0x01, 0x141, "BTN_TOOL_RUBBER"),
            (0x01, 0x142, "BTN_TOOL_BRUSH"), (0x01, 0x143, "BTN_TOOL_PENCIL"),
            (0x01, 0x144, "BTN_TOOL_AIRBRUSH"), (0x01, 0x145, "BTN_TOOL_FINGER"),
            (0x01, 0x146, "BTN_TOOL_MOUSE"), (0x01, 0x147, "BTN_TOOL_LENS"),
            (0x01, 0x148, "BTN_TOOL_QUINTTAP"), (0x01, 0x149, "BTN_STYLUS3"),
            (0x01, 0x14a, "BTN_TOUCH"), (0x01, 0x14b, "BTN_STYLUS"), (0x01, 0x14c, "BTN_STYLUS2"),
            (0x01, 0x14d, "BTN_TOOL_DOUBLETAP"), (0x01, 0x14e, "BTN_TOOL_TRIPLETAP"),
            (0x01, 0x14f, "BTN_TOOL_QUADTAP"),
            (0x01, 0x150, "BTN_GEAR_DOWN"), (0x01, 0x151, "BTN_GEAR_UP"),
            (0x01, 0x220, "BTN_DPAD_UP"), (0x01, 0x221, "BTN_DPAD_DOWN"),
            (0x01, 0x222, "BTN_DPAD_LEFT"), (0x01, 0x223, "BTN_DPAD_RIGHT"),
        ]
        for digit in 0..<10 {
            table.append((0x01, 0x100 + UInt16(digit), "BTN_\(digit)"))
        }
        for number in 1...40 {
            table.append((0x01, 0x2bf + UInt16(number), "BTN_TRIGGER_HAPPY\(number)"))
        }
        return table
    }()

    /// Second names the kernel gives to some codes (`BTN_MOUSE` is `BTN_LEFT`): read, never printed.
    private static let aliases: [(UInt16, UInt16, String)] = [
        (0x01, 0x100, "BTN_MISC"), (0x01, 0x110, "BTN_MOUSE"), (0x01, 0x120, "BTN_JOYSTICK"),
        (0x01, 0x130, "BTN_GAMEPAD"), (0x01, 0x130, "BTN_A"), (0x01, 0x131, "BTN_B"),
        (0x01, 0x133, "BTN_X"), (0x01, 0x134, "BTN_Y"), (0x01, 0x140, "BTN_DIGI"),
        (0x01, 0x150, "BTN_WHEEL"), (0x01, 0x2c0, "BTN_TRIGGER_HAPPY"),
    ]

    /// Input properties (`INPUT_PROP_*`) by bit.
    private static let properties: [(UInt16, String)] = [
        (0x00, "INPUT_PROP_POINTER"), (0x01, "INPUT_PROP_DIRECT"), (0x02, "INPUT_PROP_BUTTONPAD"),
        (0x03, "INPUT_PROP_SEMI_MT"), (0x04, "INPUT_PROP_TOPBUTTONPAD"),
        (0x05, "INPUT_PROP_POINTING_STICK"), (0x06, "INPUT_PROP_ACCELEROMETER"),
    ]

    private struct Key: Hashable { var type: UInt16; var code: UInt16 }

    private static let nameByCode: [Key: String] = {
        var map: [Key: String] = [:]
        for (type, code, name) in canonical { map[Key(type: type, code: code)] = name }
        return map
    }()

    private static let codeByName: [String: Key] = {
        var map: [String: Key] = [:]
        for (type, code, name) in canonical + aliases { map[name] = Key(type: type, code: code) }
        return map
    }()

    /// Every named code, canonical names only, sorted by type then code.
    public static var allEntries: [Entry] {
        canonical.map { Entry(type: $0.0, code: $0.1, name: $0.2) }
            .sorted { ($0.type, $0.code) < ($1.type, $1.code) }
    }

    /// The name of event type `type` (`EV_ABS`), or `EV_0x<hex>` when it has none.
    public static func typeName(_ type: UInt16) -> String {
        types.first { $0.type == type }?.name ?? "EV_0x\(hex(type))"
    }

    /// The event type called `name` (`EV_ABS` → 3; `EV_0x1f` form accepted), or nil.
    public static func type(named name: String) -> UInt16? {
        if let entry = types.first(where: { $0.name == name }) { return entry.type }
        if let value = parseHexSuffix(name, prefix: "EV_"), value <= maximumType { return value }
        return nil
    }

    /// The largest valid code of event type `type` (its `*_MAX`), or nil for a type without codes
    /// in the kernel header.
    public static func maximumCode(type: UInt16) -> UInt16? {
        types.first { $0.type == type }?.maximumCode
    }

    /// The name of `code` within event type `type` (`ABS_MT_SLOT`); a code without a name is
    /// written `<PREFIX>_0x<hex>` (`ABS_0x2a`, `KEY_0x1e`, `EV_0x1f_0x03` for an unknown type).
    public static func codeName(type: UInt16, code: UInt16) -> String {
        if let name = nameByCode[Key(type: type, code: code)] { return name }
        guard let entry = types.first(where: { $0.type == type }) else {
            return "EV_0x\(hex(type))_0x\(hex(code))"
        }
        // Unnamed buttons keep the BTN_ prefix so they read as buttons, as the kernel groups them.
        let prefix = type == EventCode.key && code >= 0x100 ? "BTN" : entry.codePrefix
        return "\(prefix)_0x\(hex(code))"
    }

    /// The type and code called `name` (`BTN_TOUCH` → (1, 0x14a)), including aliases
    /// (`BTN_MOUSE`) and the fallback form `ABS_0x2a`; nil for an unknown name or a code beyond
    /// the type's maximum.
    public static func lookup(_ name: String) -> (type: UInt16, code: UInt16)? {
        if let key = codeByName[name] { return (key.type, key.code) }
        // Longest prefix first: FF_STATUS_ must win over FF_.
        let prefixes = types.map { ($0.codePrefix + "_", $0.type, $0.maximumCode) } + [("BTN_", 0x01, 0x2ff)]
        for (prefix, type, maximum) in prefixes.sorted(by: { $0.0.count > $1.0.count }) {
            if let code = parseHexSuffix(name, prefix: prefix) {
                return code <= maximum ? (type, code) : nil
            }
        }
        return nil
    }

    /// The bit of the input property called `name` (`INPUT_PROP_SEMI_MT` → 3; the fallback form
    /// `INPUT_PROP_0x07` is accepted), or nil.
    public static func property(named name: String) -> UInt16? {
        if let entry = properties.first(where: { $0.1 == name }) { return entry.0 }
        if let value = parseHexSuffix(name, prefix: "INPUT_PROP_"), value <= maximumProperty { return value }
        return nil
    }

    /// The name of input property bit `bit` (`INPUT_PROP_DIRECT`), or `INPUT_PROP_0x<hex>`.
    public static func propertyName(_ bit: UInt16) -> String {
        properties.first { $0.0 == bit }?.1 ?? "INPUT_PROP_0x\(hex(bit))"
    }

    /// Lower-case hex of `value`, at least two digits.
    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }

    /// The value of `name` when it is `prefix` followed by `0x` and hex digits.
    private static func parseHexSuffix(_ name: String, prefix: String) -> UInt16? {
        let marker = prefix + "0x"
        guard name.hasPrefix(marker) else { return nil }
        let digits = name.dropFirst(marker.count)
        guard !digits.isEmpty else { return nil }
        return UInt16(digits, radix: 16)
    }
}
