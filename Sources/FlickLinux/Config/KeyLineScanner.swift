/// Finds the line of each key and table header in a TOML text.
///
/// TOMLKit does not tell where a key was written, so this light scan of the text does: it
/// follows `[table]` / `[[array]]` headers and `key = ...` lines (dotted and quoted keys, blanks
/// anywhere) and records the first line of each full dotted name, and of each dotted prefix.
///
/// Sections of an array of tables are numbered from 1, as error messages name them: the keys
/// under the second `[[device]]` header, and under a `[device.coast]` header after it, are
/// recorded as `device[2].name` and `device[2].coast.boost`.
///
/// Limitations, accepted because they only cost a line number: keys inside inline tables
/// (`coast = { boost = true }`) get the line of the table's own key; text inside multi-line
/// strings is skipped, but a multi-line array holding `key = value` text could mislead it.
/// A key it cannot place is reported without a line.
struct KeyLineScanner {
    /// Line of each full dotted name (`coast.boost`) and section (`coast`).
    private(set) var lines: [String: Int] = [:]

    init(text: String) {
        var table: [String] = []
        var inMultilineString: String?
        // How many `[[name]]` headers of each array of tables (by dotted name) came so far.
        var arrayCounts: [String: Int] = [:]
        for (offset, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = offset + 1
            var line = Substring(rawLine)
            if let delimiter = inMultilineString {
                guard let end = line.firstRange(of: delimiter) else { continue }
                line = line[end.upperBound...]
                inMultilineString = nil
            }
            let content = Substring(Self.stripComment(line).trimmingBlanks)
            if content.isEmpty { continue }
            if content.hasPrefix("[") {
                let isArray = content.hasPrefix("[[")
                let inner = isArray
                    ? content.dropFirst(2).prefix { $0 != "]" }
                    : content.dropFirst().prefix { $0 != "]" }
                let parts = Self.keyParts(inner)
                if isArray && !parts.isEmpty {
                    arrayCounts[parts.joined(separator: "."), default: 0] += 1
                    record(parts, line: number)  // `device` itself: its first header
                }
                // Each part naming an array of tables stands for its newest element.
                table = parts.indices.map { index in
                    let count = arrayCounts[parts[...index].joined(separator: ".")]
                    return parts[index] + (count.map { "[\($0)]" } ?? "")
                }
                record(table, line: number)
                continue
            }
            guard let equals = Self.firstUnquoted("=", in: content) else { continue }
            let keyParts = Self.keyParts(content[..<equals])
            if keyParts.isEmpty { continue }
            record(table + keyParts, line: number)
            let value = content[content.index(after: equals)...].trimmingBlanks
            for delimiter in ["\"\"\"", "'''"] where value.hasPrefix(delimiter) {
                if value.dropFirst(3).firstRange(of: delimiter) == nil { inMultilineString = delimiter }
            }
        }
    }

    /// The line of `name` (a full dotted key or a section), falling back to its closest
    /// recorded prefix (a key written inside an inline table gets the table's line).
    /// A numbered name (`device[1].coast`) found nowhere falls back to the unnumbered one (an
    /// inline array `device = [{ ... }]` has no headers).
    func line(of name: String) -> Int? {
        var parts = name.split(separator: ".").map(String.init)
        while !parts.isEmpty {
            if let line = lines[parts.joined(separator: ".")] { return line }
            parts.removeLast()
        }
        if name.contains("[") {
            return line(of: String(name.split(separator: ".").map { $0.prefix { $0 != "[" } }.joined(separator: ".")))
        }
        return nil
    }

    private mutating func record(_ parts: [String], line: Int) {
        for count in 1...max(1, parts.count) where count <= parts.count {
            let name = parts.prefix(count).joined(separator: ".")
            if lines[name] == nil { lines[name] = line }
        }
    }

    /// `a . "b.c" . d` → ["a", "b.c", "d"].
    private static func keyParts(_ text: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current.trimmingBlanks)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingBlanks)
        return parts.contains(where: \.isEmpty) ? [] : parts
    }

    /// The index of the first `target` outside quotes.
    private static func firstUnquoted(_ target: Character, in text: Substring) -> Substring.Index? {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if open == "\"" && character == "\\" {
                    index = text.index(after: index)
                    if index == text.endIndex { break }
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == target {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// `line` without a `#` comment (outside quotes).
    private static func stripComment(_ line: Substring) -> Substring {
        firstUnquoted("#", in: line).map { line[..<$0] } ?? line
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns.
    fileprivate var trimmingBlanks: String {
        let blanks: Set<Character> = [" ", "\t", "\r"]
        guard let first = firstIndex(where: { !blanks.contains($0) }),
              let last = lastIndex(where: { !blanks.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// Did-you-mean suggestions by edit distance.
enum Suggestion {
    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours each cost 1 (`caost` is 1 from `coast`).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// The candidate closest to `word`, when it is close enough to be a likely typo: at most 2
    /// edits, or a third of the word's length for long words.
    static func closest(to word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates.map { ($0, distance(word, $0)) }, length: word.count)
    }

    /// The candidate with the smallest score within the typo limit for a word of `length`.
    static func closest(to word: String, among scored: [(String, Int)], length: Int) -> String? {
        let limit = Swift.max(2, length / 3)
        return scored.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }
}
