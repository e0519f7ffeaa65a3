import FlickCore
import TOMLKit

/// Reads `flickd.toml` into a `Configuration`, checking every key against `keys`.
///
/// Every problem in the file is collected (syntax, unknown keys and sections with a
/// did-you-mean, wrong types, values out of range, keys that contradict each other) and thrown
/// together as one `ConfigurationError`. Keys not in the file keep their defaults; an empty file
/// is the defaults.
public enum ConfigurationLoader {
    /// Reads and parses the file at `path`.
    /// - Throws: `ConfigurationError`: the file cannot be read (with the system's reason), or
    ///   the problems in it.
    public static func load(path: String) throws -> Configuration {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw ConfigurationError(problems: [
                .init(path: path, line: nil, key: nil,
                      message: "cannot read the configuration file: \(error.reason) (errno \(error.errno))"),
            ])
        }
        return try parse(text: text, path: path)
    }

    /// Parses the TOML `text`; `path` is only used in messages.
    /// - Throws: `ConfigurationError` with every problem found.
    public static func parse(text: String, path: String) throws -> Configuration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(problems: [
                .init(path: path, line: error.source.begin.line, column: error.source.begin.column, key: nil,
                      message: "TOML syntax error: \(error.description)"),
            ])
        }

        var reader = Reader(path: path, lines: KeyLineScanner(text: text))
        var configuration = Configuration.defaults
        var seen: Set<String> = []
        for (name, value) in table.sorted(by: { $0.0 < $1.0 }) {
            guard sections.contains(name) else {
                reader.unknown(name, isTable: value.type == .table)
                continue
            }
            guard let section = value.table else {
                reader.problem(name, "\(name) = \(describe(value)) should be a table: write [\(name)] and its keys below it")
                continue
            }
            for (keyName, keyValue) in section.sorted(by: { $0.0 < $1.0 }) {
                let fullName = name + "." + keyName
                guard let key = key(named: fullName) else {
                    reader.unknown(fullName, isTable: keyValue.type == .table)
                    continue
                }
                if let checked = reader.check(key, keyValue) {
                    key.write(&configuration, checked)
                    seen.insert(fullName)
                }
            }
        }
        reader.checkTogether(configuration, seen: seen)

        if !reader.problems.isEmpty { throw ConfigurationError(problems: reader.problems) }
        return configuration
    }

    /// Collects the problems of one parse.
    private struct Reader {
        let path: String
        let lines: KeyLineScanner
        var problems: [ConfigurationError.Problem] = []

        mutating func problem(_ key: String, _ message: String) {
            problems.append(.init(path: path, line: lines.line(of: key), key: key, message: message))
        }

        /// An unknown key or section, with the likeliest intended one.
        mutating func unknown(_ name: String, isTable: Bool) {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 1 && isTable {
                let suggestion = Suggestion.closest(to: name, among: sections)
                problem(name, "unknown section [\(name)]" + (suggestion.map { "; did you mean [\($0)]?" } ?? "")
                    + "; the sections are " + sections.map { "[\($0)]" }.joined(separator: ", "))
                return
            }
            // Score each known key by the whole name, or by the last part alone with one edit
            // for a wrong section: "speed" finds scroll.speed, "coast.natural" scroll.natural.
            let last = parts.last ?? name
            let scored = keys.map { key -> (String, Int) in
                let whole = Suggestion.distance(name, key.name)
                let sameSection = parts.count > 1 && parts[0] == key.section
                let byKey = Suggestion.distance(last, key.key) + (sameSection ? 0 : 1)
                return (key.name, min(whole, byKey))
            }
            let suggestion = Suggestion.closest(to: name, among: scored, length: last.count)
            let section = parts.count > 1 ? parts[0] : nil
            var message = isTable ? "unknown table [\(name)]" : "unknown key \(name)"
            if let suggestion {
                message += "; did you mean \(suggestion)?"
            } else if let section, sections.contains(section) {
                let known = keys.filter { $0.section == section }.map(\.key)
                message += "; [\(section)] has " + known.joined(separator: ", ")
            }
            problem(name, message)
        }

        /// The value of `key` if its type and range are right; else records why not.
        mutating func check(_ key: ConfigurationKey, _ value: TOMLValueConvertible) -> ConfigurationValue? {
            let written = describe(value)
            let tail = "; \(key.defaultValue) is the default"
            switch key.kind {
            case .number, .integer:
                var number: Double
                if key.kind == .integer {
                    guard let integer = value.int else {
                        problem(key.name, "\(key.name) = \(written) has the wrong type: expected a whole number (\(key.rangeText))\(tail)")
                        return nil
                    }
                    number = Double(integer)
                } else if let integer = value.int {
                    number = Double(integer)
                } else if let double = value.double {
                    number = double
                } else if let name = value.string, !key.namedValues.isEmpty {
                    guard let named = key.namedValues.first(where: { $0.name == name }) else {
                        let suggestion = Suggestion.closest(to: name, among: key.namedValues.map(\.name))
                        problem(key.name, "\(key.name) = \(written) is not a number or a known name (\(key.acceptedText))"
                            + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "") + tail)
                        return nil
                    }
                    number = named.value
                } else {
                    problem(key.name, "\(key.name) = \(written) has the wrong type: expected a number (\(key.acceptedText))\(tail)")
                    return nil
                }
                if let range = key.range, !range.contains(number) {
                    problem(key.name, "\(key.name) = \(written) is out of range (\(key.rangeText))\(tail)")
                    return nil
                }
                return key.kind == .integer ? .integer(Int(number)) : .number(number)
            case .boolean:
                guard let boolean = value.bool else {
                    problem(key.name, "\(key.name) = \(written) has the wrong type: expected true or false\(tail)")
                    return nil
                }
                return .boolean(boolean)
            case .choice:
                guard let string = value.string else {
                    problem(key.name, "\(key.name) = \(written) has the wrong type: expected \(key.rangeText)\(tail)")
                    return nil
                }
                guard key.choices.contains(string) else {
                    let suggestion = Suggestion.closest(to: string, among: key.choices)
                    problem(key.name, "\(key.name) = \(written) is not \(key.rangeText)"
                        + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "") + tail)
                    return nil
                }
                return .string(string)
            }
        }

        /// Rules that involve more than one key.
        mutating func checkTogether(_ configuration: Configuration, seen: Set<String>) {
            let minSpeed = configuration.coast.minSpeed, maxSpeed = configuration.coast.maxSpeed
            if minSpeed >= maxSpeed {
                // Point at the key the user wrote: min_speed if both or only it, else max_speed.
                let at = seen.contains("coast.min_speed") || !seen.contains("coast.max_speed") ? "coast.min_speed" : "coast.max_speed"
                problem(at, "coast.min_speed = \(ConfigurationKey.format(minSpeed)) must be less than coast.max_speed = \(ConfigurationKey.format(maxSpeed)): no release could coast")
            }
        }
    }

    /// A TOML value as it would be written: `1.5`, `"fast"`, `[1, 2]`, `{...}`.
    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .int: return value.int.map { String($0) } ?? "?"
        case .double: return value.double.map { ConfigurationKey.format($0) } ?? "?"
        case .bool: return value.bool == true ? "true" : "false"
        case .string: return "\"\(value.string ?? "")\""
        case .array: return "[...]"
        case .table: return "{...}"
        case .date, .time, .dateTime: return "a date/time"
        }
    }
}
