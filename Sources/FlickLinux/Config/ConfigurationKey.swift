import FlickCore

/// A value of a configuration key, as read from the file or the built-in defaults.
public enum ConfigurationValue: Hashable, Sendable, CustomStringConvertible {
    /// A real number (also written as a TOML integer).
    case number(Double)
    /// A whole number.
    case integer(Int)
    /// `true` or `false`.
    case boolean(Bool)
    /// One of a key's named choices.
    case string(String)

    /// The value as it would be written in TOML: `24`, `0.998`, `true`, `"lsq2"`.
    public var description: String {
        switch self {
        case .number(let number): return ConfigurationKey.format(number)
        case .integer(let integer): return String(integer)
        case .boolean(let boolean): return boolean ? "true" : "false"
        case .string(let string): return "\"\(string)\""
        }
    }
}

/// One key of the configuration file: its name, type, accepted range, default, meaning, and
/// how it lands in `Configuration`.
///
/// The table of these (`ConfigurationLoader.keys`) is the one place that knows the file's keys:
/// the loader validates with it, error messages quote it, `flickd check-config` and the docs can
/// list it, and a test checks that `config/flickd.toml` documents every key in it.
public struct ConfigurationKey: Sendable {
    /// The TOML type a key takes.
    public enum Kind: Hashable, Sendable {
        /// A number, integer or float; `range` applies.
        case number
        /// A whole number; `range` applies.
        case integer
        /// `true` or `false`.
        case boolean
        /// One of `choices`, as a string.
        case choice
        /// `true`, `false`, or one of `choices` as a string (`scroll.natural = "auto"`).
        case booleanOrChoice
    }

    /// Full dotted name, `section.key` (`coast.deceleration_rate`).
    public let name: String
    /// The TOML type the key takes.
    public let kind: Kind
    /// Accepted values, inclusive, for `.number` and `.integer`.
    public let range: ClosedRange<Double>?
    /// The short name used in range messages: `(0.9 <= rate <= 0.9999)`.
    public let symbol: String
    /// The unit of the value (`mm/s`, `ms`), nil for none.
    public let unit: String?
    /// The accepted strings of a `.choice` key.
    public let choices: [String]
    /// Names a `.number` key also accepts in place of a number (`"normal"` = 0.998).
    public let namedValues: [NamedValue]
    /// One line saying what the key does.
    public let summary: String

    /// A name that stands for a number (`coast.deceleration_rate = "fast"`).
    public struct NamedValue: Hashable, Sendable {
        /// The name as written in the file, without quotes.
        public let name: String
        /// The number it stands for.
        public let value: Double
    }

    let read: @Sendable (Configuration) -> ConfigurationValue
    let write: @Sendable (inout Configuration, ConfigurationValue) -> Void

    /// The `[section]` the key lives in (`coast`).
    public var section: String { String(name.prefix { $0 != "." }) }

    /// The key's name within its section (`deceleration_rate`).
    public var key: String { String(name.drop { $0 != "." }.dropFirst()) }

    /// The built-in default, from `Configuration.defaults`.
    public var defaultValue: ConfigurationValue { read(.defaults) }

    /// This key's value in `configuration`.
    public func value(in configuration: Configuration) -> ConfigurationValue { read(configuration) }

    /// The range in words: `0.9 <= rate <= 0.9999`, `true or false`, `one of "lsq2", "lookback"`,
    /// `true, false or "auto"`.
    public var rangeText: String {
        switch kind {
        case .number, .integer:
            guard let range else { return kind == .integer ? "a whole number" : "a number" }
            return "\(Self.format(range.lowerBound)) <= \(symbol) <= \(Self.format(range.upperBound))"
        case .boolean:
            return "true or false"
        case .choice:
            return "one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
        case .booleanOrChoice:
            let names = ["true", "false"] + choices.map { "\"\($0)\"" }
            return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        }
    }

    /// Everything the key accepts: `rangeText` plus any names
    /// (`0.9 <= rate <= 0.9999, or "normal" (0.998), "fast" (0.99)`).
    public var acceptedText: String {
        guard !namedValues.isEmpty else { return rangeText }
        return rangeText + ", or " + namedValues.map { "\"\($0.name)\" (\(Self.format($0.value)))" }.joined(separator: ", ")
    }

    /// `number` written briefly: `24`, `0.998`, `1e-05`.
    static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return String(number)
    }

    // MARK: Building the table

    static func number(
        _ name: String, _ range: ClosedRange<Double>, symbol: String, unit: String?, named: [NamedValue] = [],
        _ summary: String,
        get: @escaping @Sendable (Configuration) -> Double, set: @escaping @Sendable (inout Configuration, Double) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, kind: .number, range: range, symbol: symbol, unit: unit, choices: [], namedValues: named,
            summary: summary, read: { .number(get($0)) },
            write: { configuration, value in if case .number(let number) = value { set(&configuration, number) } })
    }

    static func integer(
        _ name: String, _ range: ClosedRange<Int>, symbol: String, unit: String?, _ summary: String,
        get: @escaping @Sendable (Configuration) -> Int, set: @escaping @Sendable (inout Configuration, Int) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, kind: .integer, range: Double(range.lowerBound)...Double(range.upperBound), symbol: symbol,
            unit: unit, choices: [], namedValues: [], summary: summary, read: { .integer(get($0)) },
            write: { configuration, value in if case .integer(let integer) = value { set(&configuration, integer) } })
    }

    static func boolean(
        _ name: String, _ summary: String,
        get: @escaping @Sendable (Configuration) -> Bool, set: @escaping @Sendable (inout Configuration, Bool) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, kind: .boolean, range: nil, symbol: name, unit: nil, choices: [], namedValues: [],
            summary: summary, read: { .boolean(get($0)) },
            write: { configuration, value in if case .boolean(let boolean) = value { set(&configuration, boolean) } })
    }

    static func booleanOrChoice(
        _ name: String, _ choices: [String], _ summary: String,
        get: @escaping @Sendable (Configuration) -> ConfigurationValue,
        set: @escaping @Sendable (inout Configuration, ConfigurationValue) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, kind: .booleanOrChoice, range: nil, symbol: name, unit: nil, choices: choices, namedValues: [],
            summary: summary, read: get, write: set)
    }

    static func choice(
        _ name: String, _ choices: [String], _ summary: String,
        get: @escaping @Sendable (Configuration) -> String, set: @escaping @Sendable (inout Configuration, String) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            name: name, kind: .choice, range: nil, symbol: name, unit: nil, choices: choices, namedValues: [],
            summary: summary, read: { .string(get($0)) },
            write: { configuration, value in if case .string(let string) = value { set(&configuration, string) } })
    }
}

extension Duration {
    /// This span in (possibly fractional) milliseconds, for the config file.
    var configMilliseconds: Double { Double(microseconds) / 1000 }

    /// A span of `milliseconds`, rounded to the microsecond.
    static func configMilliseconds(_ milliseconds: Double) -> Duration { .seconds(milliseconds / 1000) }
}
