import TOMLKit

/// Finds the texts that would abort the process inside TOMLKit, so that the loader reports them
/// as syntax errors instead.
///
/// toml++ 3.4.0, which TOMLKit 0.6.0 compiles without `NDEBUG`, checks its parser's preconditions
/// with `assert`, and two of them fail on invalid TOML: an assertion aborts flickd
/// (`check-config`, start-up, and a reload that should have kept the running configuration).
///
/// - `parse_key`, from a table header whose name starts with a character that cannot start a
///   key: `[=`, `[[[`, `[.a]`, a `[` alone at the end of a line. Fixed upstream in toml++ (pull
///   request 301), not in a TOMLKit release.
/// - `parse_value`, from an array with a `}` where a value should be: `a = [}`, `a = [1, }`.
///
/// Both are invalid TOML wherever they are found, so reporting them never rejects a valid file.
enum TOMLAbortCheck {
    /// The first place TOMLKit would abort on, as (line, column, message), or nil.
    static func firstAbort(in text: String) -> (line: Int, column: Int, message: String)? {
        // The brace first: the header check parses the text before each suspect line, which
        // must not hold a brace TOMLKit aborts on.
        let brace = firstMissingArrayValue(in: text)
        if let header = firstUnnamedHeader(in: text, throughLine: brace?.line ?? Int.max),
           brace.map({ (header.line, header.column) < ($0.line, $0.column) }) ?? true {
            return (header.line, header.column, "a table header needs a name after \"[\": write [section] or [[device]]")
        }
        return brace.map {
            ($0.line, $0.column, "\"}\" where a value should be: an array holds values separated by commas, between [ and ]")
        }
    }

    // MARK: Table headers

    /// The 1-based line and column of the first header whose name cannot start a key, looking
    /// no further than line `last`; nil when there is none. A line only counts where toml++
    /// reads a statement: when the text before it parses on its own (a `[=` line inside a
    /// multi-line string or array is left to TOMLKit).
    static func firstUnnamedHeader(in text: String, throughLine last: Int = Int.max) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        var lineStart = 0
        var line = 1
        while lineStart <= bytes.count, line <= last {
            let end = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if let column = unnamedHeaderColumn(bytes[lineStart..<end], endsText: end == bytes.count, isFirst: line == 1),
               (try? TOMLTable(string: String(decoding: bytes[..<lineStart], as: UTF8.self))) != nil {
                return (line, column)
            }
            lineStart = end + 1
            line += 1
        }
        return nil
    }

    /// The column of the character toml++ would hand to `parse_key` when `line` starts a table
    /// header, if that character cannot start a key; nil otherwise. `endsText`: no line break
    /// follows the line (toml++ reports a header cut by the end of the text as an error).
    private static func unnamedHeaderColumn(_ line: ArraySlice<UInt8>, endsText: Bool, isFirst: Bool) -> Int? {
        var index = line.startIndex
        var column = 1
        // toml++ skips a byte order mark at the start of the text.
        if isFirst, line.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        func skipBlanks() -> Bool {
            var skipped = false
            while index < line.endIndex, line[index] == UInt8(ascii: " ") || line[index] == UInt8(ascii: "\t") {
                index += 1
                column += 1
                skipped = true
            }
            return skipped
        }
        _ = skipBlanks()
        guard index < line.endIndex, line[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        column += 1
        let blanks = skipBlanks()
        if index < line.endIndex, line[index] == UInt8(ascii: "[") {
            // `[ [` is an error toml++ reports; `[[` opens an array-of-tables header.
            if blanks { return nil }
            index += 1
            column += 1
            _ = skipBlanks()
        }
        guard index < line.endIndex else {
            // The line break itself would reach parse_key; the end of the text would not.
            return endsText ? nil : column
        }
        switch line[index] {
        case UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "-"), UInt8(ascii: "_"),
             UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return nil
        default:
            // Anything else cannot start a name (toml++ reports a few of these itself, such as a
            // non-ASCII space; they are invalid all the same).
            return column
        }
    }

    // MARK: Arrays

    /// The line and column of the first `}` that follows a `[` or a `,` with nothing but blanks,
    /// line breaks and comments between them, outside strings and comments; nil when there is
    /// none. In an array toml++ asserts on it; in a table header or an inline table (a trailing
    /// comma) it is an error all the same.
    static func firstMissingArrayValue(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
        let newline = UInt8(ascii: "\n")
        var index = 0
        var line = 1
        var lineStart = 0
        var previous: UInt8?  // the last byte outside strings, comments and blanks
        func run(of byte: UInt8, at start: Int) -> Int {
            var end = start
            while end < bytes.count, bytes[end] == byte { end += 1 }
            return end - start
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case newline:
                index += 1
                line += 1
                lineStart = index
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != newline { index += 1 }
            case quote, apostrophe:
                // A string (or a quoted key): skip to its end, counting the lines it spans.
                let escapes = byte == quote
                if run(of: byte, at: index) >= 3 {
                    index += 3
                    while index < bytes.count {
                        if escapes, bytes[index] == backslash {
                            index += 1
                        } else if bytes[index] == byte, run(of: byte, at: index) >= 3 {
                            index += run(of: byte, at: index)  // up to two quotes end the content
                            break
                        }
                        if index < bytes.count, bytes[index] == newline {
                            line += 1
                            lineStart = index + 1
                        }
                        index += 1
                    }
                } else {
                    index += 1
                    while index < bytes.count, bytes[index] != newline {
                        if escapes, bytes[index] == backslash {
                            index += 2
                            continue
                        }
                        index += 1
                        if bytes[index - 1] == byte { break }
                    }
                }
                previous = byte
            case UInt8(ascii: "}"):
                if previous == UInt8(ascii: "[") || previous == UInt8(ascii: ",") {
                    let column = String(decoding: bytes[lineStart..<index], as: UTF8.self).unicodeScalars.count + 1
                    return (line, column)
                }
                previous = byte
                index += 1
            default:
                previous = byte
                index += 1
            }
        }
        return nil
    }
}
