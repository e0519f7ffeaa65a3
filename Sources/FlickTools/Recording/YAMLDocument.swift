import CYAML

/// A node of a YAML document, with the line it starts on.
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
    /// 1-based line of the key this node is the value of, in a mapping; nil elsewhere.
    var keyLine: Int? = nil

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

/// Reads a YAML document (`libinput record` output) into `YAMLNode`s with libyaml's event
/// parser (Debian's libyaml-dev).
///
/// The tree keeps what the recording readers use: scalars as text, lists, mappings with scalar
/// keys, and each node's line. Tags and anchors are ignored; an alias, a key that is not a
/// scalar or a second document is an error (`libinput record` writes none of them), as is a
/// last line without its newline that may have been cut: `libinput record` ends every line
/// (but the comment it closes an `--autorestart` file with), and a cut number would read as a
/// shorter one. A last line that is visibly whole is accepted without its newline (a copy or
/// an editor drops it): an event whose `]` (or `}`) is there, whatever is left of its comment,
/// and the comments libinput writes whole (`# Closing after Ns inactivity`, `# Touch device in
/// neutral state`).
enum YAMLDocument {
    /// Deepest nesting of lists and mappings read inside the document's top level: libinput
    /// record nests a few levels, and the readers and the tree's release recurse, so a deeper
    /// file would overflow the stack.
    static let maximumDepth = 64

    private static let closingComment = Array("# Closing after ".utf8)
    private static let neutralComment = Array("# Touch device in neutral state".utf8)

    /// Parses `text`: nil for a document with no content.
    static func parse(_ text: String) throws(RecordingError) -> YAMLNode? {
        let lines = TextLines.split(text)
        // `libinput record --autorestart` ends its file with "# Closing after Ns inactivity" and
        // no newline: that line is no cut, nor is another that is visibly whole.
        if let last = lines.last, !last.isTerminated, !last.trimmed.isEmpty, !isWhole(last.trimmed) {
            throw RecordingError(line: last.number, message: TextLines.truncationError(line: last.number, detail: nil))
        }
        var (bytes, splitLines) = preparedForLibyaml(text)
        if bytes.isEmpty { return nil }
        // The file's line of each line libyaml counts (0-based), with the lines split apart.
        let fileLine = { (line: Int) -> Int in line + 1 - splitLines.prefix { $0 <= line }.count }
        return try bytes.withUnsafeMutableBufferPointer { (buffer) throws(RecordingError) -> YAMLNode? in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) != 0 else {
                throw RecordingError(line: 1, message: "libyaml could not start a parser (out of memory)")
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var tree = Tree(lineCount: max(lines.count, 1), fileLine: fileLine)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) != 0 else {
                    throw syntaxError(parser, lines: lines, bytes: UnsafeBufferPointer(buffer), fileLine: fileLine)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return tree.root }
                try tree.add(event)
            }
        }
    }

    /// Whether `line` (trimmed), the last of a file and without its newline, is as libinput
    /// wrote it: an event list item closed by its bracket, after which only a comment may
    /// follow (cut or not), or a comment libinput writes that is all there.
    private static func isWhole(_ line: ArraySlice<UInt8>) -> Bool {
        if line.starts(with: closingComment) || line.elementsEqual(neutralComment) { return true }
        for (open, close) in [(UInt8(ascii: "["), UInt8(ascii: "]")), (UInt8(ascii: "{"), UInt8(ascii: "}"))] {
            guard line.starts(with: [UInt8(ascii: "-"), TextLines.space, open]), let end = line.firstIndex(of: close) else { continue }
            // Brackets nest in no event libinput writes: the first closing one ends the item.
            let rest = line[(end + 1)...]
            let comment = TextLines.trim(rest)
            return comment.isEmpty || (comment.first == UInt8(ascii: "#") && TextLines.isBlank(rest.first ?? 0))
        }
        return false
    }

    /// `text`'s bytes as libyaml should read them, with four changes:
    /// - each backslash in a double-quoted scalar that starts no YAML escape is doubled, so that
    ///   it reads as itself. libinput record prints names (a device's, the DMI's, the kernel's)
    ///   between quotes as they are, unescaped: a `\` in one would be an error to a YAML parser,
    ///   where it is part of the name;
    /// - on a `name: "..."` line whose quoted text holds a bare `"` (libinput record prints
    ///   `name: "%s"`, so `Bob's "Work" Keyboard` breaks the quoting), the last quote on the line
    ///   closes the name and the text is the name as written: its quotes and backslashes are
    ///   escaped. A name with no bare quote is read as before;
    /// - the line breaks YAML knows besides `\n` and `\r\n` (a lone `\r`, U+0085, U+2028,
    ///   U+2029) become blanks of the same length, so that libyaml's line numbers are the
    ///   file's lines as an editor, and flickd's messages, count them. libinput record writes
    ///   none of them;
    /// - what follows `# Closing after Ns inactivity` on its line is put on a line of its own:
    ///   `libinput record --autorestart` ends a device's events with that comment and no
    ///   newline, and with several devices the next one's `- node:` follows it, which a comment
    ///   would swallow. Only that comment, exactly as libinput writes it at a line's start.
    /// Returns the bytes and, ascending, the 0-based lines (as libyaml counts them in the bytes)
    /// that the last change split off the line before: they are on that line in the file.
    static func preparedForLibyaml(_ text: String) -> (bytes: [UInt8], splitLines: [Int]) {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), singleQuote = UInt8(ascii: "'")
        let hash = UInt8(ascii: "#"), newline = UInt8(ascii: "\n")
        let single = Set("0abtnvfre \"/\\N_LP\t".utf8)
        let hexDigits: [UInt8: Int] = [UInt8(ascii: "x"): 2, UInt8(ascii: "u"): 4, UInt8(ascii: "U"): 8]
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        // Outside any quote, in a double-quoted scalar, in a single-quoted one, or in a comment.
        // Each ends at the line's end: libinput record writes no scalar over two lines.
        enum State { case plain, double, single, comment }
        var state = State.plain
        // The last byte before this one on its line that is not blank (nil at the line's start):
        // a quote starts a scalar only after an indicator or at the start, not inside plain text.
        var previous: UInt8?
        let startsScalar = Set(":-[{,".utf8)
        var index = 0
        var outLines = 0
        var splitLines: [Int] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == hash, index == 0 || bytes[index - 1] == newline, let end = closingCommentEnd(bytes, at: index),
               end < bytes.count, bytes[end] != newline, bytes[end] != UInt8(ascii: "\r") {
                out.append(contentsOf: bytes[index..<end])
                out.append(newline)
                outLines += 1
                splitLines.append(outLines)
                index = end
                continue
            }
            if state == .plain, index == 0 || bytes[index - 1] == newline, let name = bareQuotedName(bytes, lineStart: index) {
                out.append(contentsOf: bytes[index...name.open])
                for byte in bytes[(name.open + 1)..<name.close] {
                    if byte == quote || byte == backslash { out.append(backslash) }
                    out.append(byte)
                }
                out.append(quote)
                previous = quote
                index = name.close + 1
                continue
            }
            let breakLength = otherLineBreak(bytes, at: index)
            if breakLength > 0 {
                out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: breakLength))
                index += breakLength
                continue
            }
            if byte == newline {
                state = .plain
                previous = nil
                outLines += 1
                out.append(byte)
                index += 1
                continue
            }
            switch state {
            case .plain:
                if byte == quote || byte == singleQuote, previous.map(startsScalar.contains) ?? true {
                    state = byte == quote ? .double : .single
                } else if byte == hash, index == 0 || TextLines.isBlank(bytes[index - 1]) {
                    state = .comment
                }
                if !TextLines.isBlank(byte) { previous = byte }
            case .comment:
                break
            case .single:
                if byte == singleQuote { state = .plain; previous = byte }
            case .double:
                if byte == quote {
                    state = .plain
                    previous = byte
                } else if byte == backslash {
                    let next = index + 1 < bytes.count ? bytes[index + 1] : newline
                    let escapes: Bool
                    if let count = hexDigits[next] {
                        let digits = bytes[min(index + 2, bytes.count)..<min(index + 2 + count, bytes.count)]
                        escapes = digits.count == count && digits.allSatisfy(isHex)
                    } else {
                        escapes = single.contains(next) || next == newline
                    }
                    if escapes {
                        // The escape and what it escapes, so that an escaped quote ends nothing.
                        out.append(byte)
                        out.append(next)
                        index += 2
                        continue
                    }
                    out.append(backslash)
                }
            }
            out.append(byte)
            index += 1
        }
        return (out, splitLines)
    }

    /// The opening and closing quotes of the line at `lineStart` when it is `name: "..."`
    /// (indented, nothing after the last quote but blanks) and the text between them holds a
    /// quote no backslash escapes; nil for any other line.
    private static func bareQuotedName(_ bytes: [UInt8], lineStart: Int) -> (open: Int, close: Int)? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var start = lineStart
        while start < bytes.count, TextLines.isBlank(bytes[start]) { start += 1 }
        let key = Array("name: \"".utf8)
        guard bytes[start...].starts(with: key) else { return nil }
        let open = start + key.count - 1
        var end = bytes[open...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        while end > open + 1, TextLines.isBlank(bytes[end - 1]) || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let close = end - 1
        guard close > open, bytes[close] == quote else { return nil }
        var index = open + 1
        while index < close {
            if bytes[index] == backslash {
                index += 2
            } else if bytes[index] == quote {
                return (open, close)
            } else {
                index += 1
            }
        }
        return nil
    }

    /// Where `# Closing after Ns inactivity` ends when it starts at `index`; nil when it does not.
    private static func closingCommentEnd(_ bytes: [UInt8], at index: Int) -> Int? {
        guard bytes[index...].starts(with: closingComment) else { return nil }
        var end = index + closingComment.count
        let digitsStart = end
        while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        let suffix = Array("s inactivity".utf8)
        guard end > digitsStart, bytes[end...].starts(with: suffix) else { return nil }
        return end + suffix.count
    }

    /// The length in bytes of the line break YAML reads at `index` that is neither `\n` nor
    /// `\r\n`: a lone `\r` (1), U+0085 (2), U+2028 or U+2029 (3); 0 for anything else.
    private static func otherLineBreak(_ bytes: [UInt8], at index: Int) -> Int {
        func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        switch bytes[index] {
        case 0x0d: return byte(1) == UInt8(ascii: "\n") ? 0 : 1
        case 0xc2: return byte(1) == 0x85 ? 2 : 0
        case 0xe2: return byte(1) == 0x80 && (byte(2) == 0xa8 || byte(2) == 0xa9) ? 3 : 0
        default: return 0
        }
    }

    /// libyaml's error, on the line of the problem; where the problem is the file's end, on
    /// the line where what it was reading began. `bytes` are the ones libyaml read.
    private static func syntaxError(_ parser: yaml_parser_t, lines: [TextLine], bytes: UnsafeBufferPointer<UInt8>,
                                    fileLine: (Int) -> Int) -> RecordingError {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        // The end of the text is one line past the last; flickd names lines that exist.
        let lineCount = max(lines.count, 1)
        if parser.error == YAML_READER_ERROR {
            // A character YAML does not allow: libyaml gives its byte offset, not a line.
            let offset = min(Int(parser.problem_offset), bytes.count)
            let line = bytes[..<offset].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let what = offset < bytes.count ? ": " + character(in: bytes, at: offset) : ""
            return RecordingError(line: min(fileLine(line), lineCount), message: "YAML: \(problem)\(what)")
        }
        let problemEnd = fileLine(Int(parser.problem_mark.line))
        let problemLine = min(problemEnd, lineCount)
        let context = parser.context.map { String(cString: $0) }
        let contextLine = min(fileLine(Int(parser.context_mark.line)), lineCount)
        let lastContent = lines.last { !$0.trimmed.isEmpty }?.number ?? 1
        if let context, problemEnd > lastContent, contextLine <= lastContent {
            return RecordingError(line: contextLine, message: "what begins on this line does not end before the file does (truncated, or a quote or bracket missing?): \(context): \(problem)")
        }
        if parser.error == YAML_SCANNER_ERROR, lines.indices.contains(problemLine - 1),
           lines[problemLine - 1].bytes.prefix(while: { TextLines.isBlank($0) }).contains(TextLines.tab) {
            return RecordingError(line: problemLine, message: "tab in indentation (YAML indents with spaces)")
        }
        let detail = context.map { " (\($0) on line \(contextLine))" } ?? ""
        return RecordingError(line: problemLine, message: "YAML: \(problem)\(detail)")
    }

    /// The character at `offset` of `bytes`, for a message: `byte 0x07` for a byte that is
    /// ASCII or starts no valid UTF-8 sequence, else `U+FFFE`.
    private static func character(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
        let lead = bytes[offset]
        func byte() -> String { "byte 0x" + (lead < 0x10 ? "0" : "") + String(lead, radix: 16, uppercase: true) }
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 1, offset + length <= bytes.count else { return byte() }
        var decoder = UTF8()
        var iterator = bytes[offset..<(offset + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return byte() }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The tree built from libyaml's events: the collections still open, innermost last.
    private struct Tree {
        /// A list or mapping still being read. A struct whose arrays are appended to in place
        /// (`open[top].items.append`): an enum's payload taken out to append to and put back
        /// is a second reference while it is appended to, so every append copied the whole
        /// collection, and a recording of n frames took n² time.
        struct Open {
            enum Kind { case sequence, mapping }
            var kind: Kind
            /// 1-based line the collection starts on.
            var line: Int
            /// A list's items.
            var items: [YAMLNode] = []
            /// A mapping's entries, in file order.
            var entries: [(key: String, value: YAMLNode)] = []
            /// A mapping's key read and waiting for its value; nil when the next node is a key.
            var key: String?
            /// The line of `key`.
            var keyLine = 0
        }

        /// The text's lines: libyaml places what starts at the text's end one line past it.
        let lineCount: Int
        /// The file's 1-based line of a 0-based line of libyaml's.
        let fileLine: (Int) -> Int
        var open: [Open] = []
        var root: YAMLNode?
        var documents = 0

        mutating func add(_ event: yaml_event_t) throws(RecordingError) {
            let line = min(fileLine(Int(event.start_mark.line)), lineCount)
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw RecordingError(line: line, message: "a second YAML document: a libinput record file holds one")
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let isNull = text.isEmpty && scalar.style == YAML_PLAIN_SCALAR_STYLE
                close(YAMLNode(value: isNull ? .null : .scalar(text), line: line))
            case YAML_SEQUENCE_START_EVENT:
                try push(Open(kind: .sequence, line: line), line: line)
            case YAML_MAPPING_START_EVENT:
                try push(Open(kind: .mapping, line: line), line: line)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let finished = open.removeLast()
                switch finished.kind {
                case .sequence: close(YAMLNode(value: .sequence(finished.items), line: finished.line))
                case .mapping: close(YAMLNode(value: .mapping(finished.entries), line: finished.line))
                }
            case YAML_ALIAS_EVENT:
                throw RecordingError(line: line, message: "a YAML alias (*name): libinput record writes none")
            default:
                break
            }
        }

        private mutating func push(_ collection: Open, line: Int) throws(RecordingError) {
            guard open.count <= YAMLDocument.maximumDepth else {
                throw RecordingError(line: line, message: "lists and mappings nested more than \(YAMLDocument.maximumDepth) levels deep")
            }
            if let last = open.last, last.kind == .mapping, last.key == nil {
                throw RecordingError(line: line, message: "a list or mapping as a mapping's key: libinput record writes none")
            }
            open.append(collection)
        }

        /// Puts a finished node where it belongs: the next item of the open list, the open
        /// mapping's next key or that key's value, or the document.
        private mutating func close(_ node: YAMLNode) {
            guard !open.isEmpty else {
                root = node
                return
            }
            let top = open.count - 1
            switch open[top].kind {
            case .sequence:
                open[top].items.append(node)
            case .mapping:
                if let key = open[top].key {
                    var value = node
                    value.keyLine = open[top].keyLine
                    open[top].entries.append((key, value))
                    open[top].key = nil
                } else if case .scalar(let text) = node.value {
                    // A key is a scalar (`push` refuses a list or mapping there), or empty.
                    open[top].key = text
                    open[top].keyLine = node.line
                } else {
                    open[top].key = ""
                    open[top].keyLine = node.line
                }
            }
        }
    }
}
