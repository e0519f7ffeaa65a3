import FlickCore
import Testing
import _StringProcessing

/// `containsText` stands in for `String.contains(String)` of `_StringProcessing` (which flickd's
/// modules are built without); this test target has that module, so the two are compared
/// (through its `firstRange(of:)`, what its `contains` answers with: here a plain `contains` is
/// Foundation's, which Testing brings in, and which compares UTF-16 code units).
@Suite struct TextSearch {
    static let cases: [(text: String, other: String, expected: Bool)] = [
        ("", "", true), ("a", "", true), ("", "a", false),
        ("Synaptics TouchPad", "TouchPad", true), ("Synaptics TouchPad", "touchpad", false),
        ("abc", "abcd", false), ("aaab", "aab", true), ("x-gnome-y", "gnome", true),
        // Characters, not code points: a combining accent belongs to the letter before it.
        ("cafe\u{301}", "caf\u{e9}", true), ("cafe\u{301}x", "e", false),
        ("ab\r\ncd", "\r", false), ("ab\r\ncd", "\r\n", true),
        ("\u{1F1E9}\u{1F1EA}\u{1F1EB}\u{1F1F7}", "\u{1F1EA}\u{1F1EB}", false),
    ]

    @Test(arguments: cases)
    func answersAsStringContains(text: String, other: String, expected: Bool) {
        #expect(text.containsText(other) == expected)
        #expect((text.firstRange(of: other) != nil) == expected)
        #expect(text.dropFirst(0).containsText(other.dropFirst(0)) == expected)
    }

    /// `firstRange(ofText:)` and `lastRange(ofText:)` stand in for `firstRange(of:)` and
    /// `ranges(of:).last` (the configuration loader's reading of toml++'s messages); where the
    /// text occurs, the same ranges as those, and nil for the empty text (where they give an
    /// empty range).
    @Test(arguments: cases + [("a' as b' as c", "' as ", true)])
    func rangesAsStringProcessingGives(text: String, other: String, expected: Bool) {
        let first = text.firstRange(ofText: other), last = text.lastRange(ofText: other)
        #expect((first != nil) == (expected && !other.isEmpty))
        #expect((last != nil) == (expected && !other.isEmpty))
        guard !other.isEmpty else { return }
        #expect(first == text.firstRange(of: other))
        #expect(last == text.ranges(of: other).last, "no case here overlaps itself, where ranges(of:) skips ahead")
    }

    /// The last occurrence, not the first; overlapping ones too ("aa" in "aaa": from the second a).
    @Test func theLastRangeIsTheLastOccurrence() {
        let text = "cannot redefine existing table 'a' as b' as table"
        let last = text.lastRange(ofText: "' as ")
        #expect(last.map { text[$0.upperBound...] } == "table")
        #expect(text.firstRange(ofText: "' as ").map { text[$0.upperBound...] } == "b' as table")
        let aaa = "aaa"
        #expect(aaa.lastRange(ofText: "aa") == aaa.index(after: aaa.startIndex)..<aaa.endIndex)
    }
}
