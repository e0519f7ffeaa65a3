import FlickCore

/// One line of a text file, as UTF-8 bytes.
struct TextLine {
    /// 1-based line number.
    var number: Int
    /// The bytes of the line without its terminator (`\n` or `\r\n`).
    var bytes: ArraySlice<UInt8>
    /// False for a last line that has no newline: the file may have been cut in the middle of it.
    var isTerminated: Bool

    /// The line without leading and trailing blanks.
    var trimmed: ArraySlice<UInt8> { TextLines.trim(bytes) }

    /// The line as a String (invalid UTF-8 is replaced, never fatal).
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Line splitting and checked number parsing on UTF-8 bytes, shared by the recording parsers.
///
/// Bytes, not Characters: Swift treats `\r\n` as one Character, and byte scanning is what a
/// 10 000-line recording wants. Every number parser returns nil on overflow instead of trapping.
enum TextLines {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// `text` without the UTF-8 byte order mark an editor may put before its first line: no
    /// recording format has one, and it would hide the first line's content from the readers.
    static func withoutByteOrderMark(_ text: String) -> String {
        guard text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) else { return text }
        return String(decoding: text.utf8.dropFirst(3), as: UTF8.self)
    }

    /// The lines of `text`. A final newline does not start another line.
    static func split(_ text: String) -> [TextLine] {
        let bytes = Array(text.utf8)
        var lines: [TextLine] = []
        var start = 0
        var number = 1
        for index in bytes.indices where bytes[index] == newline {
            var end = index
            if end > start && bytes[end - 1] == carriageReturn { end -= 1 }
            lines.append(TextLine(number: number, bytes: bytes[start..<end], isTerminated: true))
            number += 1
            start = index + 1
        }
        if start < bytes.count {
            var end = bytes.count
            if bytes[end - 1] == carriageReturn { end -= 1 }
            lines.append(TextLine(number: number, bytes: bytes[start..<end], isTerminated: false))
        }
        return lines
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isBlank(first) { slice = slice.dropFirst() }
        while let last = slice.last, isBlank(last) { slice = slice.dropLast() }
        return slice
    }

    /// The blank-separated fields of `bytes`.
    static func fields(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isBlank)
    }

    /// The value of a decimal integer with an optional sign, or nil when `bytes` is not one or
    /// it does not fit in Int64.
    static func decimal(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var digits = bytes
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate negatively so Int64.min parses too.
            let (next, overflow2) = negative
                ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
        }
        return value
    }

    /// The value of unsigned hexadecimal digits (no `0x`), or nil when `bytes` is not one or it
    /// does not fit in UInt64.
    static func hexadecimal(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// What a text with no line of content holds, for an error message: "the file is empty"
    /// (nothing, or blank lines), "the file holds only comments" (`#` lines among the blank
    /// ones); nil when some line is neither blank nor a comment, or is a comment without its
    /// newline at the end of the file: a file cut there, which the readers report as cut. A
    /// byte order mark is skipped.
    static func emptiness(_ text: String) -> String? {
        var sawComment = false
        for line in split(withoutByteOrderMark(text)) {
            let content = line.trimmed
            if content.isEmpty { continue }
            guard content.first == UInt8(ascii: "#"), line.isTerminated else { return nil }
            sawComment = true
        }
        return sawComment ? "the file holds only comments" : "the file is empty"
    }

    /// `bytes` as text for an error message, shortened to `limit` characters.
    static func quote(_ bytes: ArraySlice<UInt8>, limit: Int = 40) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > limit ? "\"" + String(text.prefix(limit)) + "...\"" : "\"" + text + "\""
    }

    /// The error for a parse that failed (or ended) on a last line without a newline: the file
    /// was most likely cut there, and saying so is more useful than the syntax complaint.
    static func truncationError(line: Int, detail: String?) -> String {
        let base = "the file ends in the middle of this line (truncated?)"
        return detail.map { base + ": " + $0 } ?? base
    }
}
