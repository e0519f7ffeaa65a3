import TOMLKit

/// Finds the table headers that would abort the process inside TOMLKit.
///
/// toml++ 3.4.0, which TOMLKit 0.6.0 compiles without `NDEBUG`, asserts in `parse_key` when a
/// table header's name starts with a character that cannot start a key: `[=`, `[[[`, `[.a]`, a
/// `[` alone at the end of a line. The assertion aborts flickd (`check-config`, start-up, and a
/// reload that should have kept the running configuration). Fixed upstream in toml++ (pull
/// request 301), not in a TOMLKit release.
///
/// Such a header is never valid TOML, so the loader reports it as a syntax error before TOMLKit
/// sees the text. A line only counts when it is where toml++ reads a statement: the text before
/// it parses on its own (a `[=` line inside a multi-line string or array is left to TOMLKit).
enum TableHeaderCheck {
    /// The 1-based line and column of the first such header, or nil when there is none.
    static func firstUnnamedHeader(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        var lineStart = 0
        var line = 1
        while lineStart <= bytes.count {
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
}
