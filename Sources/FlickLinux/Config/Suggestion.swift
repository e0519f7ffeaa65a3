/// Did-you-mean suggestions by edit distance (configuration keys, and flickd's subcommands).
public enum Suggestion {
    /// The longest word, in UTF-8 bytes, scored by its edits (`distance`).
    static let longestWord = 100

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours each cost 1 (`caost` is 1 from `coast`), letters compared case-insensitively:
    /// TOML's names are case-sensitive and flickd's are all lower case, so `[COAST]`,
    /// `MIN_SPEED` and `"LSQ2"` are 0 from the name meant, and suggested ahead of any other.
    ///
    /// A word longer than `longestWord` bytes is scored by the longer one's length in bytes, an
    /// upper bound: the table costs the product of the lengths, and a megabyte-long key in a
    /// configuration file held the loader (and a reload, the daemon's loop) for 40 s. No such
    /// word is a typo of flickd's names, which are under 40 characters: against those its
    /// distance is more than the typo limit, a third of its length, either way.
    static func distance(_ a: String, _ b: String) -> Int {
        if a.utf8.count > longestWord || b.utf8.count > longestWord { return Swift.max(a.utf8.count, b.utf8.count) }
        let a = Array(a.lowercased()), b = Array(b.lowercased())
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
    public static func closest(to word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates.map { ($0, distance(word, $0)) }, length: word.count)
    }

    /// The candidate with the smallest score within the typo limit for a word of `length`.
    static func closest(to word: String, among scored: [(String, Int)], length: Int) -> String? {
        let limit = Swift.max(2, length / 3)
        return scored.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }
}
