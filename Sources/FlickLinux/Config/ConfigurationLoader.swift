import FlickCore
import Glibc

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
        try parse(text: readText(path: path), path: path)
    }

    /// The text of the file at `path`.
    /// - Throws: `ConfigurationError`: the file cannot be read (with the system's reason), or
    ///   it is not UTF-8, as TOML must be (`text(of:path:)`).
    public static func readText(path: String) throws(ConfigurationError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try TextFile.readBytes(path)
        } catch {
            var reason = "\(error.reason) (errno \(error.errno))"
            if error.errno == ENOENT, let target = Syscall.symbolicLinkTarget(path) {
                reason = "it is a symbolic link to \(target), which does not exist"
            } else if error.errno == EISDIR || error.errno == TextFile.notRegularFile, let kind = TextFile.kind(of: path) {
                reason = "it is \(kind), not a regular file"
            } else if error.errno == EFBIG {
                // The system's "File too large" is about the largest file a disk holds.
                reason = TextFile.reason(for: error)
            }
            throw ConfigurationError(problems: [
                .init(path: path, line: nil, key: nil, message: "cannot read the configuration file: \(reason)"),
            ], unreadable: true)
        }
        return try text(of: bytes, path: path)
    }

    /// `bytes` as text; `path` is only used in messages.
    /// - Throws: `ConfigurationError` where `bytes` stop being UTF-8: a file saved in Latin-1
    ///   would otherwise read as text whose names match no device.
    static func text(of bytes: [UInt8], path: String) throws(ConfigurationError) -> String {
        if let offset = TextFile.firstInvalidUTF8(in: bytes) {
            // Line 1 starts after a byte order mark, which toml++ and editors do not count.
            let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? min(bom, offset)
            let line = 1 + bytes[..<offset].count(where: { $0 == UInt8(ascii: "\n") })
            // Columns count characters, as the syntax errors' do.
            let column = 1 + String(decoding: bytes[lineStart..<offset], as: UTF8.self).count
            let hex = String(bytes[offset], radix: 16, uppercase: true)
            let byte = hex.count == 1 ? "0" + hex : hex
            throw ConfigurationError(problems: [
                .init(path: path, line: line, column: column, key: nil,
                      message: "the file is not UTF-8 (byte 0x\(byte) here), and TOML files must be: save it as UTF-8"),
            ])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses the TOML `text`; `path` is only used in messages.
    /// - Throws: `ConfigurationError` with every problem found.
    public static func parse(text: String, path: String) throws -> Configuration {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(text: text)
        } catch {
            let message = error.line.map { redefinitionRenamed(error.message, in: text, line: $0) } ?? error.message
            let first = error.line.flatMap {
                firstDefinition(in: text, redefined: message, before: $0) ?? redefinedDevices(in: text, message: message, before: $0)
                    ?? deviceKeyAsTable(message: message)
            }
            throw ConfigurationError(problems: [
                .init(path: path, line: error.line, column: error.column, key: nil,
                      message: "TOML syntax error: \(message)" + (first ?? "")),
            ])
        }
        let table = document.root

        var reader = Reader(path: path, lines: document, text: text)
        var configuration = Configuration.defaults
        var seen: Set<String> = []
        for (name, value) in table.sortedEntries where name != deviceSection {
            guard sections.contains(name) else {
                // `[[devices]]` (or `devices = [{...}]`) makes an array of tables: a misspelt section too.
                reader.unknown(name, at: TOMLDocument.namePart(name), isTable: value.isTable, isArrayOfTables: value.isArrayOfTables,
                               value: value.isTable ? value : nil)
                continue
            }
            reader.readSection(name, value, into: &configuration, seen: &seen)
        }
        reader.checkTogether(configuration, seen: seen)
        // Device sections start from the top-level settings, wherever they are in the file.
        if let devices = table[deviceSection] {
            configuration.devices = reader.readDevices(devices, base: configuration)
        }

        if !reader.problems.isEmpty { throw ConfigurationError(problems: reader.problems) }
        return configuration
    }

    /// Collects the problems of one parse.
    private struct Reader {
        let path: String
        let lines: TOMLDocument
        /// The text, for what a line holds: a header, or a key.
        let text: String
        /// Its lines, split when a message first needs one.
        lazy var source: [Substring] = sourceLines(text)
        var problems: [ConfigurationError.Problem] = []
        /// The keys written with a value that was refused (`coast.min_speed`,
        /// `device[1].coast.max_speed`): the configuration holds a stand-in for each (the
        /// default, or the top-level value), which a rule of two keys must not quote.
        var refused: Set<String> = []

        /// A problem of `key`, on the line of `written` (its name in the document, which
        /// differs for a key with dots in it: `TOMLDocument.namePart`), else of `key`.
        mutating func problem(_ key: String, _ message: String, at written: String? = nil) {
            problems.append(.init(path: path, line: lines.line(of: written ?? key), key: key, message: message))
        }

        /// The table header on the line of `written` (a name as `problem` takes it), when that
        /// line holds one.
        mutating func header(at written: String) -> TableHeader? {
            guard let line = lines.line(of: written), line >= 1, line <= source.count else { return nil }
            return TableHeader(source[line - 1])
        }

        /// The parts of the key set on the line of `written` (a name as `problem` takes it),
        /// when that line holds a `key = value`.
        mutating func keyParts(at written: String) -> [String]? {
            guard let line = lines.line(of: written), line >= 1, line <= source.count else { return nil }
            return ConfigurationLoader.keyParts(ofLine: source[line - 1])
        }

        /// The dotted key that made the table `name` (`devcie.coast.boost`, as a message shows
        /// it), whose value is `value` and name in the document `written`: the longest chain of
        /// its keys on its line that the line starts with, blanks aside. Nil when the line holds
        /// none (an inline table).
        mutating func dottedKey(_ name: String, _ value: TOMLValue, at written: String) -> String? {
            guard let line = lines.ownLine(of: written), line <= source.count else { return nil }
            let bare = source[line - 1].filter { $0 != " " && $0 != "\t" }
            var value: TOMLValue? = value, path = written
            var parts = [TOMLDocument.namePart(name)], found: [String]? = nil
            while let table = value?.table,
                  let child = table.sortedEntries.first(where: { lines.ownLine(of: path + "." + TOMLDocument.namePart($0.key)) == line }) {
                path += "." + TOMLDocument.namePart(child.key)
                parts.append(TOMLDocument.namePart(child.key))
                if bare.hasPrefix(parts.joined(separator: ".") + "=") { found = parts }
                value = child.value
            }
            return found.map { $0.map(ConfigurationLoader.shownKey).joined(separator: ".") }
        }

        /// The keys of section `name` (`coast`, or `device[1].coast` with `prefix` `device[1].`)
        /// into `configuration`; `seen` gets the names (without the prefix) of the keys set.
        mutating func readSection(
            _ name: String, _ value: TOMLValue, prefix: String = "",
            into configuration: inout Configuration, seen: inout Set<String>
        ) {
            guard let section = value.table else {
                let header = prefix.isEmpty ? name : "\(deviceSection).\(name)"
                if value.isArrayOfTables, let written = self.header(at: prefix + name), written.brackets == 2,
                   written.parts == (prefix.isEmpty ? [name] : [deviceSection, name]) {
                    // `[[coast]]` made the array: the user wrote a header, not `coast = [...]`.
                    let inDevice = prefix.isEmpty ? "" : " in \(prefix.dropLast())"
                    problem(prefix + name, "[[\(header)]]\(inDevice) needs one pair of brackets: write [\(header)] and its keys below it")
                } else {
                    problem(prefix + name, "\(prefix + name) = \(describe(value)) should be a table: write [\(header)] and its keys below it")
                }
                return
            }
            for (keyName, keyValue) in section.sortedEntries {
                let fullName = name + "." + keyName
                guard let key = key(named: fullName) else {
                    unknown(fullName, at: prefix + name + "." + TOMLDocument.namePart(keyName), isTable: keyValue.isTable, prefix: prefix)
                    continue
                }
                // A key left out of a device section takes the top-level value: where the top
                // level changed it, the message gives that value, not the default.
                let inherited = key.value(in: configuration)
                let fallback = prefix.isEmpty || inherited == key.defaultValue ? nil : inherited
                if let checked = check(key, keyValue, as: prefix + key.name, inherited: fallback) {
                    key.write(&configuration, checked)
                    seen.insert(fullName)
                } else {
                    refused.insert(prefix + key.name)
                }
            }
        }

        /// The `[[device]]` sections, each with the top-level settings `base` and its overrides.
        mutating func readDevices(_ value: TOMLValue, base: Configuration) -> [DeviceRule] {
            guard let array = value.array else {
                if value.isTable, let header = self.header(at: deviceSection), header.parts.count > 1, header.parts[0] == deviceSection {
                    // `[device.coast]` with no `[[device]]` above it makes a `device` table too,
                    // but the user wrote no `[device]`: name what was written.
                    let table = header.parts[1]
                    let known = deviceSections.contains(table) ? table : Suggestion.closest(to: table, among: deviceSections)
                    problem(deviceSection, "\(header.shown) has no [[\(deviceSection)]] section above it: write [[\(deviceSection)]] with a name, vendor or product first"
                        + (known.map { ", then [\(deviceSection).\($0)]" } ?? (table == deviceSection ? nestedDevices : "")))
                } else if value.isTable, self.header(at: deviceSection) == nil, let parts = keyParts(at: deviceSection), parts.first == deviceSection {
                    // No `[device]` was written: a dotted key (`device.name = "pad"`) or an inline
                    // table (`device = { name = "pad" }`) made the table. Name what was.
                    let sections = "device sections are a list: write [[\(deviceSection)]]"
                    if parts.count > 1 {
                        let key = shownName(Array(parts.dropFirst()))
                        problem(deviceSection, "\(shownName(parts)) is a dotted key, which makes \(deviceSection) one table, but \(sections) "
                            + "and \(key) = ... below it, one such section per rule, or \(deviceSection) = [{ \(key) = ... }]")
                    } else {
                        problem(deviceSection, "\(deviceSection) = {...} is an inline table, but \(sections) "
                            + "and its keys below it, one such section per rule, or \(deviceSection) = [{...}]")
                    }
                } else if value.isTable {
                    problem(deviceSection, "[\(deviceSection)] needs two brackets: write [[\(deviceSection)]], one such section per rule")
                } else {
                    problem(deviceSection, "\(deviceSection) = \(describe(value)) should be a list of sections: write [[\(deviceSection)]] and its keys below it")
                }
                return []
            }
            var rules: [DeviceRule] = []
            for (offset, element) in array.enumerated() {
                let name = "\(deviceSection)[\(offset + 1)]"
                guard let table = element.table else {
                    problem(name, "\(name) = \(describe(element)) should be a table: write [[\(deviceSection)]] and its keys below it")
                    continue
                }
                if let rule = readDevice(table, name: name, base: base) { rules.append(rule) }
            }
            return rules
        }

        /// One `[[device]]` section called `name` (`device[2]`).
        private mutating func readDevice(_ table: TOMLTable, name: String, base: Configuration) -> DeviceRule? {
            let before = problems.count
            let prefix = name + "."
            var rule = DeviceRule(configuration: base)
            var seen: Set<String> = []
            var matchKeys = 0
            for (keyName, value) in table.sortedEntries {
                let fullName = prefix + keyName
                if let example = deviceKeyExamples[keyName], value.isTable || value.isArrayOfTables,
                   let header = header(at: fullName), header.parts == [deviceSection, keyName] {
                    // `[device.name]`: the key is meant, which the header cannot set.
                    if ["name", "vendor", "product"].contains(keyName) { matchKeys += 1 }
                    problem(fullName, "\(header.shown) in \(name) is a table, but \(keyName) is a key of the [[\(deviceSection)]] section: write \(example) under it")
                    continue
                }
                switch keyName {
                case "name":
                    matchKeys += 1
                    guard let text = value.string else {
                        problem(fullName, "\(fullName) = \(describe(value)) has the wrong type: expected a string, part of the device's name (flickd devices lists the names)")
                        continue
                    }
                    guard !text.isEmpty else {
                        problem(fullName, "\(fullName) is empty, which every device name contains: write part of the device's name (flickd devices lists the names)")
                        continue
                    }
                    rule.name = text
                case "vendor", "product":
                    matchKeys += 1
                    guard let id = deviceID(value, as: fullName) else { continue }
                    if keyName == "vendor" { rule.vendor = id } else { rule.product = id }
                case "enabled":
                    guard let enabled = value.bool else {
                        problem(fullName, "\(fullName) = \(describe(value)) has the wrong type: expected true or false; true is the default")
                        continue
                    }
                    rule.enabled = enabled
                case "resolution":
                    let range = deviceResolutionRange
                    let rangeText = "\(ConfigurationKey.format(range.lowerBound)) <= resolution <= \(ConfigurationKey.format(range.upperBound))"
                    let tail = "; without it flickd uses the resolution the device reports (or an estimate)"
                    guard let number = value.int.map(Double.init) ?? value.double else {
                        problem(fullName, "\(fullName) = \(describe(value)) has the wrong type: expected a number of units per mm (\(rangeText))\(tail)")
                        continue
                    }
                    guard range.contains(number) else {
                        problem(fullName, "\(fullName) = \(describe(value)) is out of range (\(rangeText))\(tail)")
                        continue
                    }
                    rule.resolution = number
                default:
                    if deviceSections.contains(keyName) {
                        readSection(keyName, value, prefix: prefix, into: &rule.configuration, seen: &seen)
                    } else {
                        unknown(keyName, at: prefix + TOMLDocument.namePart(keyName), isTable: value.isTable,
                                isArrayOfTables: value.isArrayOfTables, value: value.isTable ? value : nil, prefix: prefix)
                    }
                }
            }
            checkTogether(rule.configuration, seen: seen, prefix: prefix, onlyIfSeen: true)
            if matchKeys == 0 {
                problem(name, "\(name) names no device, so it would apply to all of them: give it a name (part of the device's name), a vendor or a product")
            }
            rule.configuration.devices = []
            return problems.count == before ? rule : nil
        }

        /// A vendor or product id: a TOML integer written in hexadecimal (`0x06cb`) or a
        /// hexadecimal string (`"06cb"`).
        private mutating func deviceID(_ value: TOMLValue, as name: String) -> UInt16? {
            let expected = "a 16-bit id, written 0x06cb or \"06cb\" (hexadecimal, as `flickd devices` and /proc/bus/input/devices show it)"
            if case .integer(let integer, let notation) = value {
                guard let id = UInt16(exactly: integer) else {
                    // In hexadecimal too, as the range and the ids are written.
                    let hex = integer < 0 ? "-0x" + String(integer.magnitude, radix: 16) : "0x" + String(integer, radix: 16)
                    problem(name, "\(name) = \(describe(value)) (\(hex)) is out of range (0 <= id <= 0xffff): expected \(expected)")
                    return nil
                }
                guard notation == .hexadecimal else {
                    // `vendor = 1234` copied from `flickd devices` would be the id 0x04d2, and match
                    // nothing: an id is only taken as written in hexadecimal.
                    let digits = String(id, radix: 16)
                    let hex = "0x" + String(repeating: "0", count: 4 - digits.count) + digits
                    let (written, base) = switch notation {
                    case .octal: ("0o" + String(id, radix: 8), "octal")
                    case .binary: ("0b" + String(id, radix: 2), "binary")
                    default: (String(id), "decimal")
                    }
                    let way = notation == .decimal && id <= 9999
                        ? "write 0x\(id) or \"\(id)\"" + (id > 9 ? " (or \(hex), if you meant the decimal \(id))" : "")
                        : "write \(hex), the same id"
                    problem(name, "\(name) = \(written) is written in \(base), but ids are hexadecimal, as `flickd devices` shows them: \(way)")
                    return nil
                }
                return id
            }
            guard let text = value.string else {
                problem(name, "\(name) = \(describe(value)) has the wrong type: expected \(expected)")
                return nil
            }
            var digits = Substring(text)
            if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
            // Hex digits only: UInt16(_:radix:) would also take a sign ("+1").
            guard (1...4).contains(digits.count), digits.allSatisfy(\.isHexDigit), let id = UInt16(digits, radix: 16) else {
                problem(name, "\(name) = \(describe(value)) is not \(expected)")
                return nil
            }
            return id
        }

        /// An unknown key or section; `name` is relative to `prefix` (`device[1].`), which
        /// the message and the suggestion carry; `written` is its name in the document, with
        /// the prefix (`device[1]."coast.boost"`), for its line. `isArrayOfTables`: `[[name]]`
        /// headers or `name = [{...}]`. `value`: the table of an unknown section, when it may have
        /// been made by a dotted key (`devcie.coast.boost = true`), which the message then names.
        mutating func unknown(_ name: String, at written: String, isTable: Bool, isArrayOfTables: Bool = false,
                              value: TOMLValue? = nil, prefix: String = "") {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let inDevice = !prefix.isEmpty
            let shown = parts.map(ConfigurationLoader.shownKey).joined(separator: ".")
            if parts.count == 1 && (isTable || isArrayOfTables) {
                // The message says what the line holds: a header naming the section (`[[devcie]]`,
                // `[[device.caost]]`, or `[devcie.coast]`, which makes `devcie` too), or a key.
                // An array of tables with no header on its line was written inline,
                // `devices = [{...}]`: a key, which the user should not be told is `[[devices]]`.
                let onLine = self.header(at: written)
                let depth = inDevice ? 1 : 0
                let header = onLine.flatMap { $0.parts.count > depth && $0.parts[depth] == name ? $0 : nil }
                let inline = isArrayOfTables && onLine == nil ? "unknown key \(prefix + shown) = [{...}], an inline array of tables"
                    // `devcie.coast.boost = true` makes a table `devcie` too: name the key written.
                    : onLine == nil ? value.flatMap { dottedKey(name, $0, at: written) }.map { "unknown key \(prefix)\($0)" } : nil
                let suggestion = Suggestion.closest(to: name, among: inDevice ? deviceSections : sections + [deviceSection])
                if inDevice {
                    // A section of the whole daemon, named or near, is said to go at the top level.
                    let daemonWide = daemonSections.contains(name) ? name
                        : suggestion == nil ? Suggestion.closest(to: name, among: sections.filter(daemonSections.contains)) : nil
                    // Else `[[device.device]]`, or one of the section's own keys, near (`[device.nmae]`).
                    var ownKey: String?
                    if let key = Suggestion.closest(to: name, among: deviceKeys.map(\.name)), let example = deviceKeyExamples[key] {
                        ownKey = "; did you mean the key \(key)?; it is a key of the [[\(deviceSection)]] section, written \(example) under it"
                    }
                    let wayOut = daemonWide.map { ($0 == name ? "; [\($0)]" : "; did you mean [\($0)]?; it") + " applies to the whole daemon and goes at the top level" }
                        ?? suggestion.map { "; did you mean [\(deviceSection).\($0)]?" }
                        ?? (name == deviceSection ? nestedDevices : ownKey) ?? ""
                    let brackets = header?.brackets == 2 ? ("[[", "]]") : ("[", "]")
                    problem(prefix + name, (inline ?? "unknown section \(brackets.0)\(deviceSection).\(shown)\(brackets.1) in \(prefix.dropLast())")
                        + wayOut + "; the sections are " + deviceSections.map { "[\(deviceSection).\($0)]" }.joined(separator: ", "),
                        at: written)
                } else {
                    var section = isArrayOfTables ? "[[\(shown)]]" : "[\(shown)]"
                    var wayOut = suggestion.map { $0 == deviceSection ? "; did you mean [[\($0)]]?" : "; did you mean [\($0)]?" } ?? ""
                    if inline != nil, suggestion == deviceSection {
                        wayOut = "; did you mean [[\(deviceSection)]] sections?"
                    } else if let header, header.parts.count > 1, suggestion == deviceSection {
                        // `[devcie.coast]`: the table of a device section is meant, not `[[device]]`.
                        let table = header.parts[1]
                        let known = deviceSections.contains(table) ? table : Suggestion.closest(to: table, among: deviceSections)
                        section = header.shown
                        wayOut = "; did you mean " + (known.map { "[\(deviceSection).\($0)]" } ?? "[[\(deviceSection)]]") + "?"
                    }
                    problem(name, (inline ?? "unknown section \(section)") + wayOut
                        + "; the sections are " + sections.map { "[\($0)]" }.joined(separator: ", ") + " and [[\(deviceSection)]]",
                        at: written)
                }
                return
            }
            // Score each known key by the whole name, or by the last part alone with one edit
            // for a wrong section: "speed" finds scroll.speed, "coast.natural" scroll.natural.
            // A device section also has its own keys (name, vendor, ...), which have no section.
            let last = parts.last ?? name
            func score(_ key: ConfigurationKey) -> (String, Int) {
                let whole = Suggestion.distance(name, key.name)
                let sameSection = parts.count > 1 && parts[0] == key.section
                let byKey = Suggestion.distance(last, key.key) + (sameSection ? 0 : 1)
                return (key.name, min(whole, byKey))
            }
            // A device section suggests only what it may hold: a whole-daemon key there would
            // be refused in turn. One of those that fits is named as going at the top level.
            var scored = keys.filter { !inDevice || !daemonSections.contains($0.section) }.map(score)
            if inDevice {
                scored += deviceKeys.map { key in
                    (key.name, min(Suggestion.distance(name, key.name), Suggestion.distance(last, key.name) + (parts.count > 1 ? 1 : 0)))
                }
            }
            let suggestion = Suggestion.closest(to: name, among: scored, length: last.count)
            let daemonWide = inDevice && suggestion == nil
                ? Suggestion.closest(to: name, among: keys.filter { daemonSections.contains($0.section) }.map(score), length: last.count)
                : nil
            let section = parts.count > 1 ? parts[0] : nil
            var message = isTable ? "unknown table [\(prefix + shown)]" : "unknown key \(prefix + shown)"
            if !isTable, suggestion == name, let section, let key = parts.last {
                // Found by its whole name, yet unknown: one quoted key with the dots in it.
                let table = inDevice ? "[\(deviceSection).\(section)]" : "[\(section)]"
                message = "unknown key \(prefix)\"\(name)\": a quoted key is one key, dots and all; write \(name) "
                    + "without the quotes, or \(key) under \(table)"
            } else if let suggestion {
                message += "; did you mean \(prefix + suggestion)?"
            } else if let daemonWide, let daemonKey = key(named: daemonWide) {
                message += "; \(daemonKey.name) applies to the whole daemon and goes at the top level, under [\(daemonKey.section)]"
            } else if let section, sections.contains(section) {
                let known = keys.filter { $0.section == section }.map(\.key)
                message += "; [\(section)] has " + known.joined(separator: ", ")
            } else if inDevice && parts.count == 1 {
                message += "; a [[\(deviceSection)]] section has " + deviceKeys.map(\.name).joined(separator: ", ")
                    + " and the sections " + deviceSections.joined(separator: ", ")
            }
            problem(prefix + name, message, at: written)
        }

        /// The value of `key` if its type and range are right; else records why not.
        /// `name` is the key as the message shows it (`device[1].coast.boost`); `inherited`, the
        /// top-level value a device section has without the key, when it is not the default.
        mutating func check(_ key: ConfigurationKey, _ value: TOMLValue, as name: String, inherited: ConfigurationValue? = nil) -> ConfigurationValue? {
            let written = describe(value)
            let tail = inherited.map { "; \($0) is the top-level value, which applies without it" } ?? "; \(key.defaultValue) is the default"
            switch key.kind {
            case .number, .integer:
                var number: Double
                if key.kind == .integer {
                    guard let integer = value.int else {
                        problem(name, "\(name) = \(written) has the wrong type: expected a whole number (\(key.rangeText))\(tail)")
                        return nil
                    }
                    number = Double(integer)
                } else if let integer = value.int {
                    number = Double(integer)
                } else if let double = value.double {
                    number = double
                } else if let word = value.string, !key.namedValues.isEmpty {
                    guard let named = key.namedValues.first(where: { $0.name == word }) else {
                        let suggestion = Suggestion.closest(to: word, among: key.namedValues.map(\.name))
                        problem(name, "\(name) = \(written) is not a number or a known name (\(key.acceptedText))"
                            + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "") + tail)
                        return nil
                    }
                    number = named.value
                } else {
                    problem(name, "\(name) = \(written) has the wrong type: expected a number (\(key.acceptedText))\(tail)")
                    return nil
                }
                if let range = key.range, !range.contains(number) {
                    problem(name, "\(name) = \(written) is out of range (\(key.rangeText))\(tail)")
                    return nil
                }
                return key.kind == .integer ? .integer(Int(number)) : .number(number)
            case .boolean:
                guard let boolean = value.bool else {
                    problem(name, "\(name) = \(written) has the wrong type: expected true or false\(tail)")
                    return nil
                }
                return .boolean(boolean)
            case .booleanOrChoice:
                if let boolean = value.bool { return .boolean(boolean) }
                guard let string = value.string else {
                    problem(name, "\(name) = \(written) has the wrong type: expected \(key.rangeText)\(tail)")
                    return nil
                }
                guard key.choices.contains(string) else {
                    // "true" in quotes is the likeliest slip: point at the unquoted word.
                    let truth: [String: String] = ["true": "true", "on": "true", "yes": "true",
                                                   "false": "false", "off": "false", "no": "false"]
                    let hint: String
                    if let word = truth[string.lowercased()] {
                        hint = "; write \(key.key) = \(word), without quotes"
                    } else {
                        hint = Suggestion.closest(to: string, among: key.choices).map { "; did you mean \"\($0)\"?" } ?? ""
                    }
                    problem(name, "\(name) = \(written) is not \(key.rangeText)\(hint)\(tail)")
                    return nil
                }
                return .string(string)
            case .choice:
                guard let string = value.string else {
                    problem(name, "\(name) = \(written) has the wrong type: expected \(key.rangeText)\(tail)")
                    return nil
                }
                guard key.choices.contains(string) else {
                    let suggestion = Suggestion.closest(to: string, among: key.choices)
                    problem(name, "\(name) = \(written) is not \(key.rangeText)"
                        + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "") + tail)
                    return nil
                }
                return .string(string)
            }
        }

        /// Rules that involve more than one key. In a device section (`prefix` `device[1].`)
        /// with `onlyIfSeen`, only rules touching a key the section sets are checked: the
        /// others were checked at the top level.
        mutating func checkTogether(_ configuration: Configuration, seen: Set<String>, prefix: String = "", onlyIfSeen: Bool = false) {
            /// Whether the value of `name` stands in for one refused (its problem is reported):
            /// the section's own, or, not set in the section, the top level's.
            func standsIn(_ name: String) -> Bool {
                refused.contains(prefix + name) || (!prefix.isEmpty && !seen.contains(name) && refused.contains(name))
            }
            let minSpeed = configuration.coast.minSpeed, maxSpeed = configuration.coast.maxSpeed
            let wroteSpeed = seen.contains("coast.min_speed") || seen.contains("coast.max_speed")
            if minSpeed >= maxSpeed && (wroteSpeed || !onlyIfSeen) && !standsIn("coast.min_speed") && !standsIn("coast.max_speed") {
                // Point at the key the user wrote: min_speed if both or only it, else max_speed.
                let at = seen.contains("coast.min_speed") || !seen.contains("coast.max_speed") ? "coast.min_speed" : "coast.max_speed"
                problem(prefix + at, "\(prefix)coast.min_speed = \(ConfigurationKey.format(minSpeed)) must be less than \(prefix)coast.max_speed = \(ConfigurationKey.format(maxSpeed)): every coast would start at max_speed, however fast the flick")
            }
        }
    }

    /// Where a table or key that toml++ calls redefined at line `line` was first written, as
    /// the end of its message (`; [coast] is first on line 12: ...`): the shipped file lists
    /// every section, so a section added at the end of it is the likely case. Nil when the
    /// message is no redefinition or the first line is not known (a table made by a dotted
    /// key, an inline table). The name is the one written at `line` (`writtenName`), compared
    /// part by part: `"min_speed"` is `min_speed`, `[ coast ]` is `[coast]`.
    ///
    /// The lines above `line` are parsed again, with a key of its own in place of line `line`:
    /// toml++ says where each key was written and which table that key is in (a multi-line
    /// string or array holding `[coast]` or `boost = 1` is no header or key). A header names
    /// its table from the top, in the last element of an array of tables on its way.
    static func firstDefinition(in text: String, redefined message: String, before line: Int) -> String? {
        // toml++: "... cannot redefine existing table 'coast'", "... existing boolean 'boost'".
        guard let (_, named) = redefinition(in: message), named.upperBound == message.index(before: message.endIndex) else { return nil }
        let source = sourceLines(text)
        guard line >= 1, line <= source.count,
              let written = writtenName(String(message[named]), on: source[line - 1]) else { return nil }
        let probe = "flickd: the table of line \(line)"
        let above = source.prefix(line - 1).joined(separator: "\n")
        guard let document = try? TOMLDocument(text: above + "\n" + QuotedText.quoted(probe) + " = 0\n") else { return nil }
        let parts = written.parts
        if written.isHeader {
            // The table must have been made by a header, which the message can point at.
            guard let name = headerName(parts, in: document.root), let first = document.ownLine(of: name), first <= source.count,
                  let header = TableHeader(source[first - 1]), header.brackets == 1, header.parts == parts else { return nil }
            return "; [\(shownName(parts))] is first on line \(first): write all its keys under that one"
        }
        // A key: in the table line `line` is in, as the same parts (toml++ names it as
        // written, dots and all: `touchpad.enabled` is no `enabled`).
        guard let table = document.nameOfTable(holding: probe) else { return nil }
        let name = ((table.isEmpty ? [] : [table]) + parts.map(TOMLDocument.namePart)).joined(separator: ".")
        guard let first = document.ownLine(of: name) else { return nil }
        return "; \(shownName(parts)) is first set on line \(first): keep one of the two"
    }

    /// The name in a document (`TOMLDocument`) of the table a header of `parts` names, from
    /// `root`: through an array of tables, its last element (`device[2].coast`). Nil when
    /// `root` has no such table.
    static func headerName(_ parts: [String], in root: TOMLTable) -> String? {
        var table = root, name = ""
        for (offset, part) in parts.enumerated() {
            name += (offset == 0 ? "" : ".") + TOMLDocument.namePart(part)
            if let next = table[part]?.table {
                table = next
            } else if offset < parts.count - 1, let array = table[part]?.array, let last = array.last?.table {
                name += "[\(array.count)]"
                table = last
            } else {
                return nil
            }
        }
        return name
    }

    /// toml++'s "cannot redefine existing KIND 'NAME'" (or "... 'NAME' as table"): the kind and
    /// where the name is in `message`; nil for any other message.
    static func redefinition(in message: String) -> (kind: Substring, name: Range<String.Index>)? {
        guard let marker = message.firstRange(ofText: "cannot redefine existing "),
              let open = message[marker.upperBound...].firstIndex(of: "'") else { return nil }
        let start = message.index(after: open)
        // The name may hold quotes of its own ('"mimin_speed" '): it ends at the last quote, or
        // at the last one before " as ".
        let close: String.Index
        if message.last == "'" {
            close = message.index(before: message.endIndex)
        } else if let asType = message[start...].lastRange(ofText: "' as ") {
            close = asType.lowerBound
        } else {
            return nil
        }
        guard start <= close else { return nil }
        return (message[marker.upperBound..<open].trimmingWhitespace[...], start..<close)
    }

    /// `message` with the name of a redefinition (`redefinition(in:)`) taken from the header or
    /// key on line `line` of `text`, where it is redefined: toml++ garbles a name with a quoted
    /// part ('"mimin_speed" ' for `"min_speed"`, '"cocoast"' for `["coast"]`). Unchanged for any
    /// other message, or when the line holds no such name.
    static func redefinitionRenamed(_ message: String, in text: String, line: Int) -> String {
        guard let (_, named) = redefinition(in: message) else { return message }
        let source = sourceLines(text)
        guard line >= 1, line <= source.count,
              let written = writtenName(String(message[named]), on: source[line - 1]) else { return message }
        return message[..<named.lowerBound] + shownName(written.parts) + message[named.upperBound...]
    }

    /// The header or key written on `line` (its parts, and whether it is a header), when it is
    /// the name toml++ calls `named`: the same name, or, where toml++ garbled a quoted part
    /// (`named` holds a quote), one whose every part is in `named`. Nil when the line holds
    /// neither, or another name (a key inside an inline table the line sets).
    static func writtenName(_ named: String, on line: Substring) -> (parts: [String], isHeader: Bool)? {
        let found: (parts: [String], isHeader: Bool)
        if let header = TableHeader(line) {
            found = (header.parts, true)
        } else if let parts = keyParts(ofLine: line) {
            found = (parts, false)
        } else {
            return nil
        }
        let garbled = named.contains { $0 == "\"" || $0 == "'" }
        let same = garbled ? found.parts.allSatisfy({ !$0.isEmpty && named.containsText($0) })
                           : found.parts.joined(separator: ".") == named.trimmingWhitespace
        guard same else { return nil }
        return found
    }

    /// A dotted name as TOML writes it: each part bare where a bare key can be (letters,
    /// digits, `_` and `-`), else quoted (`"a.b"`, `""`); long parts shortened (`shown`).
    static func shownName(_ parts: [String]) -> String {
        parts.map { part in
            let bare = !part.isEmpty && part.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }
            return bare ? shown(part) : QuotedText.quoted(shown(part))
        }.joined(separator: ".")
    }

    /// The parts of the key a `key = value` line sets (`coast . "boost"` is `coast`, `boost`);
    /// nil for a header, a comment, or a line without `=`.
    static func keyParts(ofLine line: Substring) -> [String]? {
        let text = line.trimmingWhitespace
        guard !text.hasPrefix("["), !text.hasPrefix("#") else { return nil }
        return nameParts(text[...], until: "=")
    }

    /// The parts of a dotted name at the start of `text`, up to `terminator` (`]` after a
    /// header's brackets, `=` after a key), without the blanks around the dots or the quotes
    /// around a quoted part; nil when `terminator` does not end it.
    static func nameParts(_ text: Substring, until terminator: Character) -> [String]? {
        var parts: [String] = []
        var part = "", quote: Character?, escaped = false
        for character in text {
            if let open = quote {
                // Inside a quoted part, dots and brackets are the key's own.
                if escaped {
                    part.append(character)
                    escaped = false
                } else if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    part.append(character)
                }
                continue
            }
            switch character {
            case "\"", "'": quote = character
            case ".": parts.append(part); part = ""
            case terminator: parts.append(part); return parts
            case " ", "\t": break
            default: part.append(character)
            }
        }
        return nil
    }

    /// The way out of toml++'s "cannot redefine existing array 'device' as ..." at line `line`, as
    /// the end of its message: a `[[device]]` header after the sections written inline
    /// (`device = [{...}]`, which no header may add to), or `[device]` after a `[[device]]`
    /// section, one pair of brackets where two belong. And of "cannot redefine existing table
    /// 'device' as array-of-tables": a `[[device]]` header after what made `device` one table
    /// (`redefinedDeviceTable`). Nil for any other message.
    static func redefinedDevices(in text: String, message: String, before line: Int) -> String? {
        if message.hasSuffix("cannot redefine existing table '\(deviceSection)' as array-of-tables") {
            return redefinedDeviceTable(in: text, before: line)
        }
        let redefined = "cannot redefine existing array '\(deviceSection)' as "
        let asTable = message.hasSuffix(redefined + "table")
        guard asTable || message.hasSuffix(redefined + "array-of-tables") else { return nil }
        // Where the inline array is, from the lines above parsed again (a multi-line string
        // holding `device = [` is no key); made by `[[device]]` headers, it is none.
        let source = sourceLines(text)
        let above = source.prefix(max(0, line - 1)).joined(separator: "\n")
        if let document = try? TOMLDocument(text: above), document.root[deviceSection]?.array != nil,
           let first = document.ownLine(of: deviceSection), first <= source.count, TableHeader(source[first - 1]) == nil {
            return "; \(deviceSection) = [...] on line \(first) holds the device sections already: "
                + "write each one there, or all as [[\(deviceSection)]] sections"
        }
        return asTable ? "; did you mean [[\(deviceSection)]]?; [\(deviceSection)] needs two brackets, one such section per rule" : nil
    }

    /// The end of the message for a `[[device]]` header at line `line` after something above
    /// made `device` one table, which no header may turn into a list of sections: what that was
    /// and on which line (the lines above parsed again, as `firstDefinition` does), with the
    /// way out. `[device.coast]` before any `[[device]]` is the likely case: a table of a
    /// section written above the section. Nil when it cannot be found.
    static func redefinedDeviceTable(in text: String, before line: Int) -> String? {
        let source = sourceLines(text)
        let above = source.prefix(max(0, line - 1)).joined(separator: "\n")
        guard let document = try? TOMLDocument(text: above), document.root[deviceSection]?.table != nil,
              let first = document.line(of: deviceSection), first >= 1, first <= source.count else { return nil }
        let written = source[first - 1]
        if let header = TableHeader(written), header.parts.first == deviceSection {
            guard header.parts.count > 1 else {
                return "; [\(deviceSection)] on line \(first) needs two brackets: write [[\(deviceSection)]] there, one such section per rule"
            }
            return "; \(header.shown) on line \(first) comes before any [[\(deviceSection)]]: move it below the [[\(deviceSection)]] it is for"
        }
        guard let parts = keyParts(ofLine: written), parts.first == deviceSection else { return nil }
        if parts.count > 1 {
            let key = shownName(Array(parts.dropFirst()))
            return "; \(shownName(parts)) on line \(first) is a dotted key, which makes \(deviceSection) one table: "
                + "write \(key) = ... below a [[\(deviceSection)]] instead"
        }
        return "; \(deviceSection) = {...} on line \(first) is an inline table, which makes \(deviceSection) one table: "
            + "write it as a [[\(deviceSection)]] section too"
    }

    /// How each key of a `[[device]]` section is written, for a message that names one.
    static let deviceKeyExamples = [
        "name": "name = \"...\"", "vendor": "vendor = 0x06cb", "product": "product = 0x0007",
        "enabled": "enabled = false", "resolution": "resolution = 30",
    ]

    /// The way out of a `[[device.device]]` header.
    static let nestedDevices = "; did you mean [[\(deviceSection)]]?; device sections do not nest, each starts with its own [[\(deviceSection)]]"

    /// The way out of toml++'s "cannot redefine existing string 'device.name' as table", as the
    /// end of its message: `[device.name]` under a section that sets `name`. Nil for any other.
    static func deviceKeyAsTable(message: String) -> String? {
        guard let marker = message.firstRange(ofText: "' as "), let open = message[..<marker.lowerBound].lastIndex(of: "'") else { return nil }
        let name = message[message.index(after: open)..<marker.lowerBound]
        guard name.hasPrefix(deviceSection + "."), message.hasSuffix("' as table") || message.hasSuffix("' as array-of-tables") else { return nil }
        let key = String(name.dropFirst(deviceSection.count + 1))
        return deviceKeyExamples[key].map { "; \(key) is a key of the [[\(deviceSection)]] section, not a table: write \($0) under it" }
    }

    /// The lines of `text`, as TOML counts them: each ends at a line feed (split by bytes: Swift
    /// reads CRLF as one character, no "\n"), a CRLF's carriage return left at its end. A byte
    /// order mark before the first line is left out, as toml++ skips it: kept, `[device.coast]`
    /// on line 1 would start with no bracket.
    static func sourceLines(_ text: String) -> [Substring] {
        let bytes = text.utf8
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.index(bytes.startIndex, offsetBy: 3) : bytes.startIndex
        return bytes[start...].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// A table header as written on its line: `[coast]`, `[[device]]`, `[ device . "coast" ]`.
    struct TableHeader {
        /// Its parts, without the blanks around the dots or the quotes around a quoted part.
        var parts: [String]
        /// 1 for a table, 2 for an element of an array of tables.
        var brackets: Int

        /// The header `line` holds, or nil when it holds none (a key, a value).
        init?(_ line: Substring) {
            let text = line.trimmingWhitespace
            guard text.hasPrefix("[") else { return nil }
            brackets = text.hasPrefix("[[") ? 2 : 1
            guard let parts = ConfigurationLoader.nameParts(text.dropFirst(brackets), until: "]") else { return nil }
            self.parts = parts
        }

        /// The header as a message shows it (`shownKey`): `[[device.caost]]`.
        var shown: String {
            let (open, close) = brackets == 2 ? ("[[", "]]") : ("[", "]")
            return open + parts.map(ConfigurationLoader.shownKey).joined(separator: ".") + close
        }
    }

    /// `text` as a message shows it: whole up to 64 bytes; a longer one (a key or a string a
    /// megabyte long, which would bury the line it is on) by its first 48 characters, at most
    /// 48 bytes of them (a character may carry any number of combining marks), and its length.
    static func shown(_ text: String) -> String {
        guard text.utf8.count > 64 else { return text }
        var head = Substring()
        for character in text {
            guard head.utf8.count + character.utf8.count <= 48 else { break }
            head.append(character)
        }
        return "\(head)… (\(text.utf8.count) bytes)"
    }

    /// One part of a key as a message shows it (`shown`): as written, but quoted and escaped
    /// when it is empty or holds a control character (a quoted `""` or `"\n"` key, which would
    /// show as nothing or break the line).
    static func shownKey(_ part: String) -> String {
        let text = shown(part)
        return part.isEmpty || part.unicodeScalars.contains(where: QuotedText.isControl) ? QuotedText.quoted(text) : text
    }

    /// A TOML value as it would be written: `1.5`, `"fast"`, `[1, 2]`, `{...}`.
    static func describe(_ value: TOMLValue) -> String {
        switch value {
        case .integer(let integer, _): return String(integer)
        case .float(let double):
            // As a float was written: `3.0` is no whole number, and a message must not show one.
            let text = ConfigurationKey.format(double)
            return double.isFinite && !text.contains(where: { $0 == "." || $0 == "e" }) ? text + ".0" : text
        case .boolean(let boolean): return boolean ? "true" : "false"
        case .string(let string): return QuotedText.quoted(shown(string))
        case .array: return "[...]"
        case .table: return "{...}"
        case .date, .time, .dateTime: return "a date/time"
        }
    }
}
