import CTOMLBridge

/// A TOML value as the configuration loader reads it.
enum TOMLValue {
    case table(TOMLTable)
    case array([TOMLValue])
    case string(String)
    /// An integer, and how it was written (`0x1234` is hexadecimal).
    case integer(Int, IntegerNotation)
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
    var int: Int? { if case .integer(let value, _) = self { value } else { nil } }
    /// The value, when this is a float (an integer is not one).
    var double: Double? { if case .float(let value) = self { value } else { nil } }
    /// The value, when this is a boolean.
    var bool: Bool? { if case .boolean(let value) = self { value } else { nil } }
    /// Whether this is a table.
    var isTable: Bool { table != nil }
    /// Whether this is a non-empty array of tables: `[[name]]` sections, or `name = [{...}]`.
    var isArrayOfTables: Bool { array.map { !$0.isEmpty && $0.allSatisfy(\.isTable) } ?? false }
}

/// How a TOML integer was written: `1234`, `0x04d2`, `0o2322` or `0b10011010010`.
enum IntegerNotation {
    case decimal, hexadecimal, octal, binary
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
    /// Each node's parent (-1 for a key of the top-level table), in the bridge's order.
    private let parents: [Int]
    /// Each node's part of a name: `namePart` of its key, or `[n]` for an array's nth element.
    private let parts: [String]
    /// Each node's 1-based line (a key's own line: for a table, its header or the first dotted
    /// key that made it; an array element's first line), 0 when toml++ gives none.
    private let nodeLines: [Int]
    /// Each node by its parent and its part of a name. Names are not stored whole: a node's is
    /// as long as all its parents' together, and a long key over many keys would make them
    /// take the square of the file's size.
    private let nodeByStep: [Step: Int]

    /// A node's place below its parent.
    private struct Step: Hashable {
        var parent: Int
        var part: String
    }

    /// `key` as one part of a name: as it is, or quoted (`QuotedText`) when it holds a dot, `[`
    /// or `"`, which would make it read as more parts, an element, or another quoted key.
    static func namePart(_ key: String) -> String {
        key.unicodeScalars.contains { $0 == "." || $0 == "[" || $0 == "\"" } ? QuotedText.quoted(key) : key
    }

    /// The deepest a key or value may be nested, counted as written: each part of the table
    /// header above it, each part of its dotted key, and each part of the keys of the inline
    /// tables and each array around it. flickd's own keys are at most 3 deep
    /// (`[device.coast]`, `boost`).
    ///
    /// toml++ recurses once per level, to parse a key and to free its tables, and its own limit
    /// counts only arrays and inline tables (256 of them, each holding its own dotted key of any
    /// length): a 41 kB file of inline tables holding 256-part keys, 80 deep, overflowed the
    /// stack. toml++ nests more than is written when a header goes through an array of tables
    /// (`[device.coast]` is in `device`'s last element), at most twice as deep.
    static let maximumDepth = 64

    /// Where a key or value nested deeper than `maximumDepth` (as it counts them) is first
    /// written (1-based line and column), or nil when none is.
    ///
    /// Reads the text as TOML is written, without checking it (toml++ does that): table headers
    /// at the start of a line, keys up to their `=`, values with their arrays and inline tables;
    /// strings and comments are skipped whole, so a bracket or dot in them counts for nothing.
    static func firstTooDeep(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        var line = 1, lineStart = 0
        var i = 0
        /// The depth of the table that the keys below the last header go into.
        var tableDepth = 0
        /// The arrays and inline tables open around the place read, innermost last, with the
        /// depth of each.
        var open: [(depth: Int, isArray: Bool)] = []
        /// Whether a key is read (up to its `=`), or a value.
        var inKey = true
        /// In a key, the depth of its part being read; in a value, the depth the value has.
        var depth = 1
        /// Whether the key part or array element at `depth` has not been met yet: it is
        /// checked at its first character, so that `{}` or `[]` at the limit is no deeper.
        var pending = true
        /// Whether nothing but blanks was read since the line began outside any value.
        var lineFresh = true

        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
        func place() -> (line: Int, column: Int) {
            // Columns count characters, as toml++'s do.
            (line, String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1)
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
        /// Starts the key of a table whose own depth is `container`.
        func startKey(in container: Int) {
            inKey = true
            depth = container + 1
            pending = true
        }
        /// Starts an element of an array whose own depth is `container`.
        func startElement(in container: Int) {
            inKey = false
            depth = container + 1
            pending = true
        }

        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                i += 1
                lineStart = i
                // A line ends a key-value pair, unless an array is open (its values may go
                // over lines; an inline table may not, which toml++ reports).
                if open.isEmpty {
                    startKey(in: tableDepth)
                    lineFresh = true
                }
                continue
            }
            if isBlank(b) { i += 1; continue }
            if b == 0x23 {  // a comment, to the end of the line
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                continue
            }
            if lineFresh && b == 0x5B {  // [ : a table header
                lineFresh = false
                i += 1
                if i < bytes.count, bytes[i] == 0x5B { i += 1 }
                var headerDepth = 1
                header: while i < bytes.count {
                    switch bytes[i] {
                    case 0x5D, 0x0A: break header  // ], or a header not closed (toml++ reports it)
                    case 0x2E:  // .
                        headerDepth += 1
                        if headerDepth > maximumDepth { return place() }
                        i += 1
                    case 0x22, 0x27:
                        guard skipString(bytes[i], triple: false) else { return nil }
                    default:
                        i += 1
                    }
                }
                // The rest of the line holds no key (toml++ reports anything but a comment).
                tableDepth = headerDepth
                inKey = false
                pending = false
                continue
            }
            lineFresh = false
            if b == 0x22 || b == 0x27 {  // a quoted key part, or a string value
                if pending {
                    if depth > maximumDepth { return place() }
                    pending = false
                }
                let triple = i + 2 < bytes.count && bytes[i + 1] == b && bytes[i + 2] == b
                guard skipString(b, triple: triple) else { return nil }
                continue
            }
            if inKey {
                switch b {
                case 0x2E:  // . : the next part is one deeper
                    depth += 1
                    pending = true
                case 0x3D:  // = : the value is as deep as the key's last part
                    inKey = false
                    pending = false
                case 0x7D:  // } : an empty inline table, or one ending after a comma
                    if let last = open.last, !last.isArray { open.removeLast() }
                    inKey = false
                    pending = false
                default:
                    if pending {
                        if depth > maximumDepth { return place() }
                        pending = false
                    }
                }
                i += 1
                continue
            }
            switch b {
            case 0x7B, 0x5B:  // { or [ : the value is a table or an array at `depth`
                if pending {
                    if depth > maximumDepth { return place() }
                    pending = false
                }
                open.append((depth, b == 0x5B))
                if b == 0x5B { startElement(in: depth) } else { startKey(in: depth) }
            case 0x7D, 0x5D:  // } or ]
                if let last = open.last, last.isArray == (b == 0x5D) { open.removeLast() }
                pending = false
            case 0x2C:  // , : the next key of an inline table, or the next element of an array
                if let last = open.last {
                    if last.isArray { startElement(in: last.depth) } else { startKey(in: last.depth) }
                }
            default:
                // A number, a date, true or false.
                if pending {
                    if depth > maximumDepth { return place() }
                    pending = false
                }
            }
            i += 1
        }
        return nil
    }

    /// Parses `text`.
    /// - Throws: `TOMLSyntaxError` for anything that is not valid TOML (toml++ never aborts on it).
    init(text: String) throws(TOMLSyntaxError) {
        var text = text
        if let deep = Self.firstTooDeep(in: text) {
            throw TOMLSyntaxError(
                message: "nested more than \(Self.maximumDepth) deep, counting each part of the table header and the key, "
                    + "and each array and inline table around the value (flickd's keys are at most 3 deep)",
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

        // Each node's place, parents before children (the bridge's order).
        var parents = [Int](repeating: -1, count: nodes.count)
        var parts = [String](repeating: "", count: nodes.count)
        var nodeLines = [Int](repeating: 0, count: nodes.count)
        var steps: [Step: Int] = [:]
        steps.reserveCapacity(nodes.count)
        var children = [[Int]](repeating: [], count: nodes.count)
        var topLevel: [Int] = []
        for (index, node) in nodes.enumerated() {
            let parent = Int(node.parent)
            parents[index] = parent
            parts[index] = node.key.map { Self.namePart(Self.text($0, node.key_length)) } ?? "[\(Int(node.index) + 1)]"
            nodeLines[index] = Int(node.line)
            steps[Step(parent: parent, part: parts[index])] = index
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
                let notation: IntegerNotation = switch node.integer_format {
                case ctoml_hexadecimal: .hexadecimal
                case ctoml_octal: .octal
                case ctoml_binary: .binary
                default: .decimal
                }
                values[index] = .integer(Int(node.integer), notation)
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
        self.parents = parents
        self.parts = parts
        self.nodeLines = nodeLines
        self.nodeByStep = steps
    }

    /// The line of `name` (a full dotted name or a section), or of its closest enclosing name
    /// that has one (`device[2].coast.min_speed`, not written, gets `device[2]`'s header line);
    /// nil when none has.
    func line(of name: String) -> Int? {
        path(of: name).nodes.reversed().lazy.map { nodeLines[$0] }.first { $0 > 0 }
    }

    /// The line of `name` itself; nil when the document has no such name, or no line for it.
    func ownLine(of name: String) -> Int? {
        let path = path(of: name)
        guard path.isWhole, let node = path.nodes.last, nodeLines[node] > 0 else { return nil }
        return nodeLines[node]
    }

    /// The name of the table or array holding the first key `key` met in the bridge's order
    /// ("" for the top-level table), or nil when no table has that key.
    func nameOfTable(holding key: String) -> String? {
        let part = Self.namePart(key)
        guard var node = parts.firstIndex(of: part) else { return nil }
        var names: [String] = []
        while parents[node] >= 0 {
            node = parents[node]
            names.append(parts[node])
        }
        // An element's part (`[2]`) joins its array's name without a dot.
        var name = ""
        for (offset, part) in names.reversed().enumerated() {
            name += offset == 0 || part.hasPrefix("[") ? part : "." + part
        }
        return name
    }

    /// The nodes along `name`, from the top-level table down, as far as the document has them;
    /// `isWhole` when it has every one.
    private func path(of name: String) -> (nodes: [Int], isWhole: Bool) {
        guard !name.isEmpty else { return ([], false) }
        var found: [Int] = []
        var parent = -1
        let steps = Self.steps(of: name)
        for step in steps {
            guard let node = nodeByStep[Step(parent: parent, part: String(step))] else { return (found, false) }
            found.append(node)
            parent = node
        }
        return (found, true)
    }

    /// The parts of `name`, as `namePart` and array elements write them: `device[2].coast."a.b"`
    /// is `device`, `[2]`, `coast`, `"a.b"`.
    static func steps(of name: String) -> [Substring] {
        let utf8 = name.utf8
        var steps: [Substring] = []
        var i = utf8.startIndex
        func advance() { i = utf8.index(after: i) }
        while true {
            // A key: quoted (escapes and all), or bare up to the next dot or element.
            let start = i
            if i < utf8.endIndex, utf8[i] == UInt8(ascii: "\"") {
                advance()
                while i < utf8.endIndex, utf8[i] != UInt8(ascii: "\"") {
                    if utf8[i] == UInt8(ascii: "\\") { advance() }
                    if i < utf8.endIndex { advance() }
                }
                if i < utf8.endIndex { advance() }
            } else {
                while i < utf8.endIndex, utf8[i] != UInt8(ascii: "."), utf8[i] != UInt8(ascii: "[") { advance() }
            }
            steps.append(name[start..<i])
            // Its elements: `[2]`.
            while i < utf8.endIndex, utf8[i] == UInt8(ascii: "[") {
                let open = i
                while i < utf8.endIndex, utf8[i] != UInt8(ascii: "]") { advance() }
                if i < utf8.endIndex { advance() }
                steps.append(name[open..<i])
            }
            guard i < utf8.endIndex, utf8[i] == UInt8(ascii: ".") else { break }
            advance()
        }
        return steps
    }

    private static func text(_ start: UnsafePointer<CChar>?, _ count: Int) -> String {
        guard let start else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
