import CTOMLBridge

/// A TOML value as the configuration loader reads it.
enum TOMLValue {
    case table(TOMLTable)
    case array([TOMLValue])
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A local date, local time, or (offset) date-time; flickd has no key that takes one.
    case date, time, dateTime

    /// The table, when this is one.
    var table: TOMLTable? { if case .table(let table) = self { table } else { nil } }
    /// The elements, when this is an array.
    var array: [TOMLValue]? { if case .array(let elements) = self { elements } else { nil } }
    /// The text, when this is a string.
    var string: String? { if case .string(let text) = self { text } else { nil } }
    /// The value, when this is an integer (a float is not one).
    var int: Int? { if case .integer(let value) = self { value } else { nil } }
    /// The value, when this is a float (an integer is not one).
    var double: Double? { if case .float(let value) = self { value } else { nil } }
    /// The value, when this is a boolean.
    var bool: Bool? { if case .boolean(let value) = self { value } else { nil } }
    /// Whether this is a table.
    var isTable: Bool { table != nil }
    /// Whether this is a non-empty array of tables: `[[name]]` sections, or `name = [{...}]`.
    var isArrayOfTables: Bool { array.map { !$0.isEmpty && $0.allSatisfy(\.isTable) } ?? false }
}

/// A TOML table: its keys, in no particular order, each once.
struct TOMLTable {
    /// The keys and their values.
    var entries: [(key: String, value: TOMLValue)]

    /// The value of `key`, or nil when the table has no such key.
    subscript(key: String) -> TOMLValue? { entries.first { $0.key == key }?.value }

    /// The entries sorted by key, the order in which problems of one line are reported.
    var sortedEntries: [(key: String, value: TOMLValue)] { entries.sorted { $0.key < $1.key } }
}

/// A syntax error in a TOML text, as toml++ describes it.
struct TOMLSyntaxError: Error {
    /// toml++'s message (`Error while parsing table header: expected ']', saw '\n'`).
    var message: String
    /// 1-based line and column of the error; nil when toml++ gives none.
    var line: Int?
    var column: Int?
}

/// A TOML text parsed by toml++ (through the CTOMLBridge target), with where each key was
/// written.
///
/// Names are dotted paths from the top-level table; an element of an array is named by the
/// array's name and its 1-based position, the way error messages name the sections of an array
/// of tables: the `boost` key under the second `[[device]]` header's `[device.coast]` is
/// `device[2].coast.boost`. A key holding a dot, `[` or `"` is quoted in a name (`namePart`),
/// so that each name is one node's: the quoted key `"coast.boost" = 1` is `"coast.boost"`,
/// not the `boost` of `[coast]`.
struct TOMLDocument {
    /// The top-level table.
    let root: TOMLTable
    /// 1-based line of each name: a key's own line (for a table, its header or the first
    /// dotted key that made it), an array element's first line.
    let lines: [String: Int]

    /// `key` as one part of a name: as it is, or quoted (`QuotedText`) when it holds a dot, `[`
    /// or `"`, which would make it read as more parts, an element, or another quoted key.
    static func namePart(_ key: String) -> String {
        key.unicodeScalars.contains { $0 == "." || $0 == "[" || $0 == "\"" } ? QuotedText.quoted(key) : key
    }

    /// The most parts a dotted key or table header may have. toml++ recurses once per part, to
    /// parse the key and to free its tables, with no limit of its own (it has one for nested
    /// values, 256): a 40 kB line of `a.a.a...` overflowed the stack. The same bound as its own.
    static let maximumKeyParts = 256

    /// Where a key or table header of more than `maximumKeyParts` parts first goes past that
    /// (1-based line and column), or nil when none does.
    ///
    /// Counts the runs of dots between bare or quoted keys outside strings and comments: in a
    /// value a run is at most one dot (a float, a time's fraction), so only a key reaches the
    /// bound. Any other character ends a run, a line too; strings and comments are skipped whole.
    static func firstDeepKey(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        var line = 1, lineStart = 0
        var dots = 0
        var i = 0
        func isKeyByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
        /// Skips the string that opens at `i` (quote `q`, three of them when `triple`); counts
        /// the lines inside. Returns false when it does not end (toml++ reports that).
        func skipString(_ q: UInt8, triple: Bool) -> Bool {
            i += triple ? 3 : 1
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x5C && q == 0x22 {
                    // An escape in a basic string; a line-ending backslash escapes the newline.
                    i += 1
                    if i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    continue
                }
                if b == 0x0A {
                    if !triple { return false }
                    line += 1
                    lineStart = i + 1
                }
                if b == q {
                    if !triple { i += 1; return true }
                    if i + 2 < bytes.count, bytes[i + 1] == q, bytes[i + 2] == q {
                        // Up to two more quotes may close a multi-line string's content.
                        i += 3
                        while i < bytes.count, bytes[i] == q { i += 1 }
                        return true
                    }
                }
                i += 1
            }
            return false
        }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x2E:  // .
                dots += 1
                if dots >= maximumKeyParts { return (line, i - lineStart + 1) }
                i += 1
            case 0x22, 0x27:  // a quoted key (or a string value)
                let triple = i + 2 < bytes.count && bytes[i + 1] == b && bytes[i + 2] == b
                if triple { dots = 0 }
                guard skipString(b, triple: triple) else { return nil }
            case 0x20, 0x09:
                i += 1
            case 0x23:  // a comment, to the end of the line
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            case 0x0A:
                dots = 0
                line += 1
                i += 1
                lineStart = i
            default:
                if !isKeyByte(b) { dots = 0 }
                i += 1
            }
        }
        return nil
    }

    /// Parses `text`.
    /// - Throws: `TOMLSyntaxError` for anything that is not valid TOML (toml++ never aborts on it).
    init(text: String) throws(TOMLSyntaxError) {
        var text = text
        if let deep = Self.firstDeepKey(in: text) {
            throw TOMLSyntaxError(
                message: "a dotted key of more than \(Self.maximumKeyParts) parts (flickd's keys have at most 3)",
                line: deep.line, column: deep.column)
        }
        var document = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { ctoml_parse($0.baseAddress, $0.count) }
        }
        defer { ctoml_free(&document) }
        if let error = document.error {
            throw TOMLSyntaxError(
                message: String(cString: error),
                line: document.error_line > 0 ? Int(document.error_line) : nil,
                column: document.error_column > 0 ? Int(document.error_column) : nil)
        }
        let nodes = UnsafeBufferPointer(start: document.nodes, count: document.count)

        // Names first, parents before children (the bridge's order).
        var names = [String](repeating: "", count: nodes.count)
        var lines: [String: Int] = [:]
        var children = [[Int]](repeating: [], count: nodes.count)
        var topLevel: [Int] = []
        for (index, node) in nodes.enumerated() {
            let parent = Int(node.parent)
            let parentName = parent >= 0 ? names[parent] : ""
            if let key = node.key {
                let key = Self.text(key, node.key_length)
                names[index] = parent < 0 ? Self.namePart(key) : parentName + "." + Self.namePart(key)
            } else {
                names[index] = parentName + "[\(Int(node.index) + 1)]"
            }
            if node.line > 0 { lines[names[index]] = Int(node.line) }
            if parent >= 0 { children[parent].append(index) } else { topLevel.append(index) }
        }

        // Values last to first, so that each node's children are built before it (no recursion:
        // a long dotted key nests tables as deep as the file is long).
        var values = [TOMLValue?](repeating: nil, count: nodes.count)
        func entries(_ indices: [Int]) -> [(key: String, value: TOMLValue)] {
            indices.map { child in
                defer { values[child] = nil }
                return (Self.text(nodes[child].key, nodes[child].key_length), values[child] ?? .table(TOMLTable(entries: [])))
            }
        }
        for index in nodes.indices.reversed() {
            let node = nodes[index]
            switch node.type {
            case ctoml_table:
                values[index] = .table(TOMLTable(entries: entries(children[index])))
            case ctoml_array:
                values[index] = .array(children[index].map { child in
                    defer { values[child] = nil }
                    return values[child] ?? .table(TOMLTable(entries: []))
                })
            case ctoml_string:
                values[index] = .string(Self.text(node.string, node.string_length))
            case ctoml_integer:
                values[index] = .integer(Int(node.integer))
            case ctoml_float:
                values[index] = .float(node.floating)
            case ctoml_boolean:
                values[index] = .boolean(node.boolean)
            case ctoml_date:
                values[index] = .date
            case ctoml_time:
                values[index] = .time
            default:
                values[index] = .dateTime
            }
        }
        self.root = TOMLTable(entries: entries(topLevel))
        self.lines = lines
    }

    /// The line of `name` (a full dotted name or a section), or of its closest enclosing name
    /// that has one (`device[2].coast.min_speed`, not written, gets `device[2]`'s header line);
    /// nil when none has.
    func line(of name: String) -> Int? {
        var name = Substring(name)
        while !name.isEmpty {
            if let line = lines[String(name)] { return line }
            guard let cut = name.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            name = name[..<cut]
        }
        return nil
    }

    private static func text(_ start: UnsafePointer<CChar>?, _ count: Int) -> String {
        guard let start else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
