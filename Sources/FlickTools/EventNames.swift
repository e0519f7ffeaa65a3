import CEvdev
import FlickCore

/// The kernel's names for event types, codes and input properties, both ways, as libevdev
/// knows them (its tables are made from the kernel's headers it was built with).
///
/// A code without a name is written `<PREFIX>_0x<hex>` (`ABS_0x2a`, `EV_0x1f_0x03` for a type
/// without one either), and `lookup` reads that form back, so names round-trip for every code.
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

    /// Largest event type (`EV_MAX`).
    public static let maximumType = UInt16(EV_MAX)

    /// Largest input property bit (`INPUT_PROP_MAX`).
    public static let maximumProperty = UInt16(INPUT_PROP_MAX)

    /// Second names the kernel gives to codes that have a first one (`BTN_MOUSE` is `BTN_LEFT`)
    /// and that libevdev does not read: read, never printed.
    private static let aliases: [String: (type: UInt16, code: UInt16)] = [
        "BTN_MISC": (1, 0x100), "BTN_MOUSE": (1, 0x110), "BTN_JOYSTICK": (1, 0x120),
        "BTN_GAMEPAD": (1, 0x130), "BTN_DIGI": (1, 0x140), "BTN_WHEEL": (1, 0x150),
        "BTN_TRIGGER_HAPPY": (1, 0x2c0),
    ]

    /// Every named code, sorted by type then code (the `*_MAX` names left out).
    public static var allEntries: [Entry] {
        var entries: [Entry] = []
        for type in 0...maximumType {
            guard let maximum = maximumCode(type: type) else { continue }
            for code in 0...maximum {
                guard let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map({ String(cString: $0) }),
                      !name.hasSuffix("_MAX") else { continue }
                entries.append(Entry(type: type, code: code, name: name))
            }
        }
        return entries
    }

    /// The name of event type `type` (`EV_ABS`), or `EV_0x<hex>` when it has none.
    public static func typeName(_ type: UInt16) -> String {
        knownTypeName(type) ?? "EV_0x\(hex(type))"
    }

    /// The event type called `name` (`EV_ABS` → 3; `EV_0x1f` form accepted), or nil.
    public static func type(named name: String) -> UInt16? {
        let type = libevdev_event_type_from_name(name)
        if type >= 0, type <= Int32(maximumType), !name.hasSuffix("_MAX") { return UInt16(type) }
        if let value = parseHexSuffix(name, prefix: "EV_"), value <= maximumType { return value }
        return nil
    }

    /// The largest valid code of event type `type` (its `*_MAX`), or nil for a type without codes
    /// in the kernel header.
    public static func maximumCode(type: UInt16) -> UInt16? {
        let maximum = libevdev_event_type_get_max(UInt32(type))
        return maximum >= 0 ? UInt16(maximum) : nil
    }

    /// The name of `code` within event type `type` (`ABS_MT_SLOT`); a code without a name, or
    /// whose only name is its type's `*_MAX`, is written `<PREFIX>_0x<hex>` (`ABS_0x2a`;
    /// `EV_0x1f_0x03` for an unknown type).
    public static func codeName(type: UInt16, code: UInt16) -> String {
        if let name = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map({ String(cString: $0) }), !name.hasSuffix("_MAX") {
            return name
        }
        guard let typeName = knownTypeName(type) else { return "EV_0x\(hex(type))_0x\(hex(code))" }
        return "\(codePrefix(typeName))_0x\(hex(code))"
    }

    /// The type and code called `name` (`BTN_TOUCH` → (1, 0x14a)), including the kernel's second
    /// names (`BTN_MOUSE`, `BTN_A`) and the fallback form `ABS_0x2a`; nil for an unknown name or
    /// a code beyond the type's maximum.
    public static func lookup(_ name: String) -> (type: UInt16, code: UInt16)? {
        let type = libevdev_event_type_from_code_name(name), code = libevdev_event_code_from_code_name(name)
        if type >= 0, code >= 0 { return (UInt16(type), UInt16(code)) }
        if let alias = aliases[name] { return alias }
        // `PREFIX_0x<hex>`: no two types' prefixes both match one name (FF_0x… is not FF_STATUS_0x…).
        for type in 0...maximumType {
            guard let typeName = knownTypeName(type), let maximum = maximumCode(type: type),
                  let code = parseHexSuffix(name, prefix: codePrefix(typeName) + "_") else { continue }
            return code <= maximum ? (type, code) : nil
        }
        return nil
    }

    /// The bit of the input property called `name` (`INPUT_PROP_SEMI_MT` → 3; the fallback form
    /// `INPUT_PROP_0x07` is accepted), or nil.
    public static func property(named name: String) -> UInt16? {
        let bit = libevdev_property_from_name(name)
        if bit >= 0, bit <= Int32(maximumProperty), !name.hasSuffix("_MAX") { return UInt16(bit) }
        if let value = parseHexSuffix(name, prefix: "INPUT_PROP_"), value <= maximumProperty { return value }
        return nil
    }

    /// The name of input property bit `bit` (`INPUT_PROP_DIRECT`), or `INPUT_PROP_0x<hex>`.
    public static func propertyName(_ bit: UInt16) -> String {
        guard bit < maximumProperty, let name = libevdev_property_get_name(UInt32(bit)) else { return "INPUT_PROP_0x\(hex(bit))" }
        return String(cString: name)
    }

    /// libevdev's name of event type `type`, the `EV_MAX` alias left out.
    private static func knownTypeName(_ type: UInt16) -> String? {
        guard type < maximumType, let name = libevdev_event_type_get_name(UInt32(type)) else { return nil }
        return String(cString: name)
    }

    /// The prefix of a type's codes: its name without `EV_` (`EV_FF_STATUS` → `FF_STATUS`).
    private static func codePrefix(_ typeName: String) -> String {
        String(typeName.dropFirst(3))
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
