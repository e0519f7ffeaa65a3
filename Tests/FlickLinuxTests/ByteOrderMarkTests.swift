import Testing
@testable import FlickLinux

/// A file saved with a byte order mark (Notepad's "UTF-8 with BOM"): toml++ skips it, and the
/// messages about line 1, which read the line's text to say what was written there, must too.
@Suite struct ByteOrderMarkTests {
    @Test(arguments: [
        // A table of a device section with no [[device]] above it: not "[device] needs two brackets".
        "[device.coast]\nboost = true\n",
        // A misspelt array of tables: "unknown section [[devcie]]", not "unknown key".
        "[[devcie]]\nname = \"a\"\n",
        // A section written twice: where it is first.
        "[coast]\nboost = true\n[coast]\nmax_speed = 3000\n",
        // A dotted key that makes a table, on line 1.
        "devcie.coast.boost = true\n",
        "[[device]]\nname = \"pad\"\n[devcie.coast]\nboost = true\n",
    ])
    func theMarkChangesNoMessage(text: String) {
        let plain = problems(text)
        #expect(plain != nil, "each text has a problem to report")
        #expect(problems("\u{FEFF}" + text) == plain)
    }

    @Test func theLinesAreTheTextsWithoutIt() {
        #expect(ConfigurationLoader.sourceLines("\u{FEFF}[coast]\r\nboost = true\n") == ["[coast]\r", "boost = true", ""])
        // Only before the first line: anywhere else it is text toml++ reads, and refuses.
        #expect(ConfigurationLoader.sourceLines("[coast]\n\u{FEFF}boost = true") == ["[coast]", "\u{FEFF}boost = true"])
    }

    /// A byte that is not UTF-8 on line 1 after the mark: its column counts from after the mark,
    /// as toml++'s syntax errors and editors count (it said column 3 for "a" then 0xFF).
    @Test func anInvalidByteOnLineOneCountsFromAfterTheMark() {
        func column(_ bytes: [UInt8]) -> Int? {
            do { _ = try ConfigurationLoader.text(of: bytes, path: "config.toml"); return nil } catch { return error.problems.first?.column }
        }
        #expect(column([0xEF, 0xBB, 0xBF, 0x61, 0xFF]) == 2)
        #expect(column([0x61, 0xFF]) == 2)
        #expect(column([0xEF, 0xBB, 0xBF, 0x61, 0x0A, 0x62, 0xFF]) == 2, "line 2 has no mark")
    }
}
