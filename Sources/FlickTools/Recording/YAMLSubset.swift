import FlickCore

/// A node of the small YAML subset `libinput record` writes, with the line it starts on.
struct YAMLNode {
    enum Value {
        /// A plain or quoted scalar, unescaped.
        case scalar(String)
        case sequence([YAMLNode])
        /// Entries in file order (keys may repeat; the first one wins on lookup).
        case mapping([(key: String, value: YAMLNode)])
        /// A key with nothing after it, or an empty `- `.
        case null
    }

    var value: Value
    /// 1-based line the node starts on.
    var line: Int

    /// The value of `key` when this is a mapping that has it.
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let entries) = value else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// A short name of the node's kind, for messages.
    var kindName: String {
        switch value {
        case .scalar(let text): return "the scalar \"\(text.count > 30 ? String(text.prefix(30)) + "..." : text)\""
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .null: return "nothing"
        }
    }
}

/// A parser for the YAML subset of `libinput record` output. Not a YAML parser.
///
/// Supported: block mappings (`key: value`, `key:` + indented block), block sequences (`- item`,
/// including `- key: value` items and sequences at their parent key's indentation), flow
/// sequences and mappings (`[1, 2]`, `{type: X, time: 0.1}`) that may span lines, plain,
/// `"double"` and `'single'` quoted scalars, `#` comments, a leading `---`.
/// Not supported (an error, never a wrong reading): tabs in indentation, block scalars (`|`, `>`),
/// anchors, aliases, tags, multi-line quoted scalars, several documents.
struct YAMLSubset {
    /// A logical line: comments removed, flow collections joined across physical lines.
    private struct Line {
        var number: Int
        var indent: Int
        var content: [UInt8]
    }

    private var lines: [Line] = []
    private var index = 0
    /// Blocks being read, one inside the other.
    private var depth = 0

    /// Deepest nesting read, of blocks and of `[ ]` / `{ }` alike: libinput record nests a few
    /// levels, and the readers recurse, so a deeper file would overflow the stack.
    static let maximumDepth = 64

    /// Parses `text`: nil for a document with no content.
    static func parse(_ text: String) throws(RecordingError) -> YAMLNode? {
        var parser = YAMLSubset()
        try parser.scan(TextLines.split(text))
        guard !parser.lines.isEmpty else { return nil }
        let root = try parser.block(indent: parser.lines[0].indent)
        if parser.index < parser.lines.count {
            let line = parser.lines[parser.index]
            throw RecordingError(line: line.number, message: "unexpected indentation (expected \(parser.lines[0].indent) spaces, found \(line.indent))")
        }
        return root
    }

    // MARK: Lines

    private static let hash = UInt8(ascii: "#")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let singleQuote = UInt8(ascii: "'")
    private static let backslash = UInt8(ascii: "\\")

    /// Strips comments, measures indentation and joins open flow collections.
    private mutating func scan(_ physical: [TextLine]) throws(RecordingError) {
        var pending: (line: Line, depth: Int)?
        for line in physical {
            do throws(RecordingError) {
                var bytes = line.bytes
                if pending == nil {
                    var indent = 0
                    while let first = bytes.first, first == TextLines.space { indent += 1; bytes = bytes.dropFirst() }
                    if bytes.first == TextLines.tab, !TextLines.trim(bytes).isEmpty {
                        throw RecordingError(line: line.number, message: "tab in indentation (YAML indents with spaces)")
                    }
                    let (content, depth) = try Self.stripComment(bytes, line: line.number)
                    if content.isEmpty { continue }
                    if index == 0, lines.isEmpty, content == Array("---".utf8) { continue }
                    let logical = Line(number: line.number, indent: indent, content: content)
                    if depth > 0 { pending = (logical, depth) } else { lines.append(logical) }
                } else if var open = pending {
                    let (content, depth) = try Self.stripComment(bytes, line: line.number, depth: open.depth)
                    if !content.isEmpty {
                        open.line.content.append(TextLines.space)
                        open.line.content.append(contentsOf: content)
                    }
                    open.depth = depth
                    if depth > 0 { pending = open } else { lines.append(open.line); pending = nil }
                }
            } catch {
                if !line.isTerminated {
                    throw RecordingError(line: line.number, message: TextLines.truncationError(line: line.number, detail: error.message))
                }
                throw error
            }
        }
        if let last = physical.last, !last.isTerminated, !last.trimmed.isEmpty {
            throw RecordingError(line: last.number, message: TextLines.truncationError(line: last.number, detail: nil))
        }
        if let open = pending {
            throw RecordingError(line: physical.last?.number ?? open.line.number,
                                 message: "the file ends inside a [ ] or { } opened on line \(open.line.number) (truncated?)")
        }
    }

    /// `bytes` without a trailing comment and blanks, and the flow nesting depth at its end
    /// (starting from `depth`). Quotes must close on their line.
    private static func stripComment(_ bytes: ArraySlice<UInt8>, line: Int, depth start: Int = 0) throws(RecordingError) -> ([UInt8], Int) {
        var depth = start
        var quote: UInt8?
        var end = bytes.endIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if let open = quote {
                if open == doubleQuote && byte == backslash {
                    index += 2
                    continue
                }
                if byte == open {
                    // '' inside single quotes is an escaped quote.
                    if open == singleQuote, index + 1 < bytes.endIndex, bytes[index + 1] == singleQuote {
                        index += 2
                        continue
                    }
                    quote = nil
                }
            } else {
                switch byte {
                case doubleQuote, singleQuote:
                    quote = byte
                case hash where index == bytes.startIndex || TextLines.isBlank(bytes[index - 1]):
                    end = index
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > maximumDepth {
                        throw RecordingError(line: line, message: "[ ] and { } nested more than \(maximumDepth) levels deep")
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth < 0 {
                        throw RecordingError(line: line, message: "unmatched \"\(String(UnicodeScalar(byte)))\"")
                    }
                default:
                    break
                }
            }
            if end != bytes.endIndex { break }
            index += 1
        }
        if quote != nil {
            throw RecordingError(line: line, message: "unterminated quoted string")
        }
        return (Array(TextLines.trim(bytes[bytes.startIndex..<end])), depth)
    }

    // MARK: Blocks

    private var current: Line? { index < lines.count ? lines[index] : nil }

    private static func isSequenceItem(_ content: [UInt8]) -> Bool {
        content.first == UInt8(ascii: "-") && (content.count == 1 || content[1] == TextLines.space)
    }

    /// The block (mapping or sequence) whose lines start at `indent`.
    private mutating func block(indent: Int) throws(RecordingError) -> YAMLNode {
        guard let line = current else { return YAMLNode(value: .null, line: lines.last?.number ?? 1) }
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw RecordingError(line: line.number, message: "lists and mappings nested more than \(Self.maximumDepth) levels deep")
        }
        return Self.isSequenceItem(line.content) ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    private mutating func sequence(indent: Int) throws(RecordingError) -> YAMLNode {
        let startLine = current?.number ?? 1
        var items: [YAMLNode] = []
        while let line = current, line.indent == indent, Self.isSequenceItem(line.content) {
            var rest = Array(line.content.dropFirst())
            var column = indent + 1
            while rest.first == TextLines.space { rest.removeFirst(); column += 1 }
            if rest.isEmpty {
                index += 1
                if let next = current, next.indent > indent {
                    items.append(try block(indent: next.indent))
                } else {
                    items.append(YAMLNode(value: .null, line: line.number))
                }
            } else if Self.isSequenceItem(rest) || Self.keySplit(rest) != nil {
                // "- key: value" or "- - x": the item is a block starting at the item's column;
                // rewrite the line as that block's first line.
                lines[index] = Line(number: line.number, indent: column, content: rest)
                items.append(try block(indent: column))
            } else {
                index += 1
                items.append(try Self.inlineValue(rest, line: line.number))
            }
        }
        return YAMLNode(value: .sequence(items), line: startLine)
    }

    private mutating func mapping(indent: Int) throws(RecordingError) -> YAMLNode {
        let startLine = current?.number ?? 1
        var entries: [(key: String, value: YAMLNode)] = []
        while let line = current, line.indent == indent, !Self.isSequenceItem(line.content) {
            guard let (keyBytes, valueBytes) = Self.keySplit(line.content) else {
                throw RecordingError(line: line.number, message: "expected \"key: value\", found \(TextLines.quote(line.content[...]))")
            }
            let key = try Self.scalarText(keyBytes, line: line.number)
            index += 1
            if !valueBytes.isEmpty {
                entries.append((key, try Self.inlineValue(valueBytes, line: line.number)))
            } else if let next = current, next.indent > indent {
                entries.append((key, try block(indent: next.indent)))
            } else if let next = current, next.indent == indent, Self.isSequenceItem(next.content) {
                // YAML lets a sequence value sit at its key's indentation.
                entries.append((key, try sequence(indent: indent)))
            } else {
                entries.append((key, YAMLNode(value: .null, line: line.number)))
            }
        }
        if let line = current, line.indent > indent {
            throw RecordingError(line: line.number, message: "unexpected indentation (expected \(indent) spaces, found \(line.indent))")
        }
        return YAMLNode(value: .mapping(entries), line: startLine)
    }

    /// Splits `key: value` / `key:` at the first `:` followed by a blank or the end, outside
    /// quotes and brackets; nil when there is none.
    private static func keySplit(_ content: [UInt8]) -> ([UInt8], [UInt8])? {
        var quote: UInt8?
        var depth = 0
        for index in content.indices {
            let byte = content[index]
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case doubleQuote, singleQuote:
                if index == 0 { quote = byte }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if index == 0 { return nil }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            case UInt8(ascii: ":") where depth == 0:
                if index + 1 == content.count || TextLines.isBlank(content[index + 1]) {
                    let key = Array(TextLines.trim(content[..<index]))
                    let value = Array(TextLines.trim(content[(index + 1)...]))
                    return key.isEmpty ? nil : (key, value)
                }
            default:
                break
            }
        }
        return nil
    }

    // MARK: Inline values

    /// A value written after `key:` or `- `: a flow collection or a scalar.
    private static func inlineValue(_ content: [UInt8], line: Int) throws(RecordingError) -> YAMLNode {
        switch content.first {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var flow = FlowReader(bytes: content, line: line)
            let node = try flow.value()
            flow.skipBlanks()
            if flow.position < content.count {
                throw RecordingError(line: line, message: "unexpected text after the closing bracket: \(TextLines.quote(content[flow.position...]))")
            }
            return node
        case UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"):
            throw RecordingError(line: line, message: "unsupported YAML (block scalar, anchor, alias or tag): \(TextLines.quote(content[...]))")
        default:
            return YAMLNode(value: .scalar(try scalarText(content, line: line)), line: line)
        }
    }

    /// The text of a plain or quoted scalar.
    fileprivate static func scalarText(_ bytes: [UInt8], line: Int) throws(RecordingError) -> String {
        guard let first = bytes.first, first == doubleQuote || first == singleQuote else {
            return String(decoding: bytes, as: UTF8.self)
        }
        guard bytes.count >= 2, bytes.last == first else {
            throw RecordingError(line: line, message: "malformed quoted string \(TextLines.quote(bytes[...]))")
        }
        let inner = bytes[1..<(bytes.count - 1)]
        var out: [UInt8] = []
        var index = inner.startIndex
        while index < inner.endIndex {
            let byte = inner[index]
            if first == doubleQuote && byte == backslash {
                guard index + 1 < inner.endIndex else {
                    throw RecordingError(line: line, message: "dangling backslash in \(TextLines.quote(bytes[...]))")
                }
                let escaped = inner[index + 1]
                switch escaped {
                case UInt8(ascii: "n"): out.append(TextLines.newline)
                case UInt8(ascii: "t"): out.append(TextLines.tab)
                case doubleQuote, backslash, UInt8(ascii: "/"): out.append(escaped)
                default:
                    // libinput prints device names without escaping them: keep a stray backslash.
                    out.append(byte)
                    out.append(escaped)
                }
                index += 2
            } else if first == singleQuote && byte == singleQuote {
                out.append(singleQuote)  // '' → '
                index += 2
            } else if byte == first {
                throw RecordingError(line: line, message: "text after the closing quote in \(TextLines.quote(bytes[...]))")
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads one flow collection (`[...]`, `{...}`) and the scalars in it.
    private struct FlowReader {
        let bytes: [UInt8]
        let line: Int
        var position = 0

        init(bytes: [UInt8], line: Int) {
            self.bytes = bytes
            self.line = line
        }

        mutating func skipBlanks() {
            while position < bytes.count, TextLines.isBlank(bytes[position]) { position += 1 }
        }

        private func fail(_ message: String) -> RecordingError { RecordingError(line: line, message: message) }

        mutating func value() throws(RecordingError) -> YAMLNode {
            skipBlanks()
            guard position < bytes.count else { throw fail("a value is missing in a [ ] or { }") }
            switch bytes[position] {
            case UInt8(ascii: "["): return try sequence()
            case UInt8(ascii: "{"): return try mapping()
            default: return YAMLNode(value: .scalar(try scalar(inMapping: false)), line: line)
            }
        }

        private mutating func sequence() throws(RecordingError) -> YAMLNode {
            position += 1  // [
            var items: [YAMLNode] = []
            while true {
                skipBlanks()
                guard position < bytes.count else { throw fail("unterminated [") }
                if bytes[position] == UInt8(ascii: "]") { position += 1; break }
                items.append(try value())
                skipBlanks()
                guard position < bytes.count else { throw fail("unterminated [") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; break }
                throw fail("expected \",\" or \"]\" in a list, found \(TextLines.quote(bytes[position...]))")
            }
            return YAMLNode(value: .sequence(items), line: line)
        }

        private mutating func mapping() throws(RecordingError) -> YAMLNode {
            position += 1  // {
            var entries: [(key: String, value: YAMLNode)] = []
            while true {
                skipBlanks()
                guard position < bytes.count else { throw fail("unterminated {") }
                if bytes[position] == UInt8(ascii: "}") { position += 1; break }
                let key = try scalar(inMapping: true)
                skipBlanks()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw fail("expected \":\" after the key \"\(key)\" in { }")
                }
                position += 1
                entries.append((key, try value()))
                skipBlanks()
                guard position < bytes.count else { throw fail("unterminated {") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; break }
                throw fail("expected \",\" or \"}\" in a mapping, found \(TextLines.quote(bytes[position...]))")
            }
            return YAMLNode(value: .mapping(entries), line: line)
        }

        /// A quoted scalar, or a plain one up to `,`, `]`, `}` (or `: ` for a key).
        private mutating func scalar(inMapping: Bool) throws(RecordingError) -> String {
            skipBlanks()
            let start = position
            if let quote = bytes[safe: position], quote == YAMLSubset.doubleQuote || quote == YAMLSubset.singleQuote {
                position += 1
                while position < bytes.count {
                    if quote == YAMLSubset.doubleQuote && bytes[position] == YAMLSubset.backslash { position += 2; continue }
                    if bytes[position] == quote {
                        if quote == YAMLSubset.singleQuote, bytes[safe: position + 1] == quote { position += 2; continue }
                        break
                    }
                    position += 1
                }
                guard position < bytes.count else { throw fail("unterminated quoted string") }
                position += 1
                return try YAMLSubset.scalarText(Array(bytes[start..<position]), line: line)
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                    || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                    break
                }
                if inMapping, byte == UInt8(ascii: ":"),
                   position + 1 >= bytes.count || TextLines.isBlank(bytes[position + 1]) {
                    break
                }
                position += 1
            }
            let text = TextLines.trim(bytes[start..<position])
            if text.isEmpty { throw fail("empty value in a [ ] or { }") }
            return String(decoding: text, as: UTF8.self)
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
