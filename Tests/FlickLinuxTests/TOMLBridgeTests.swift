import Testing
import FlickCore
@testable import FlickLinux

/// What the bridge to toml++ does with input that is not a configuration at all.
@Suite struct TOMLBridgeTests {
    /// Bytes toml++ refuses are syntax errors with a place, never a crash.
    @Test(arguments: [
        ("a = 1\u{0}\n", 1), ("[coast]\nboost = \"\u{1}\"\n", 2), ("x = \"\\q\"\n", 1), ("a = 1\na = 2\n", 2),
        (String(repeating: "[", count: 300) + "\n", 1), ("v = " + String(repeating: "[", count: 300) + "\n", 1),
    ])
    func badBytesAreSyntaxErrors(text: String, line: Int) {
        do {
            _ = try TOMLDocument(text: text)
            Issue.record("\(text.debugDescription) parsed")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(!error.message.isEmpty)
        }
    }

    /// A dotted key nests a table per part; the most parts flickd reads are walked without
    /// recursion.
    @Test func aLongDottedKeyIsWalkedWithoutRecursion() throws {
        let parts = TOMLDocument.maximumKeyParts
        let document = try TOMLDocument(text: "\n" + Array(repeating: "a", count: parts).joined(separator: ".") + " = 1\n")
        #expect(document.line(of: Array(repeating: "a", count: parts).joined(separator: ".")) == 2)
        var value = document.root["a"]
        for _ in 1..<parts { value = value?.table?["a"] }
        #expect(value?.int == 1)
    }

    /// toml++ recurses once per part of a dotted key (parsing it, and freeing its tables): a key
    /// or header of 100000 parts overflowed the stack. Past `maximumKeyParts` it is an error at
    /// the dot that goes past, never handed to toml++.
    /// (before the key, a part, between parts, parts, after the key; line and column of the error).
    static let deepKeys: [(String, String, String, Int, String, Int, Int)] = [
        ("\n", "a", ".", 257, " = 1\n", 2, 512),
        ("# x\n[", "a", ".", 100_000, "]\n", 2, 513),
        ("[coast]\n", "\"b\"", " . ", 100_000, " = 1\n", 2, 1535),
        ("v = { ", "c", ".", 100_000, " = 1 }\n", 1, 518),
        // The line-ending backslash of a multi-line basic string still counts its newline.
        ("s = \"\"\"a \\\n  b\"\"\"\n", "d", ".", 300, " = 1\n", 3, 512),
    ]

    @Test(arguments: deepKeys)
    func aKeyOfTooManyPartsIsAnError(key: (String, String, String, Int, String, Int, Int)) {
        let (before, part, between, parts, after, line, column) = key
        let text = before + Array(repeating: part, count: parts).joined(separator: between) + after
        do {
            _ = try TOMLDocument(text: text)
            Issue.record("parsed")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains("more than 256 parts"), "\(error.message)")
        }
    }

    /// Dots in strings, comments and values are no key's parts.
    @Test func dotsElsewhereAreNoKeysParts() throws {
        let dots = String(repeating: "x.", count: 1000)
        let floats = (1...1000).map { "\($0).5" }.joined(separator: ", ")
        let quotes = "\"\"\""
        let document = try TOMLDocument(text: """
            # \(dots)
            a = "\(dots)"
            b = '\(dots)'
            c = \(quotes)
            \(dots)
            \(dots)\(quotes)
            d = '''\(dots)'''
            e = [\(floats)]
            f.g = 07:32:00.999
            """)
        #expect(document.root["a"]?.string == dots && document.root["b"]?.string == dots)
        #expect(document.root["e"]?.array?.count == 1000)
        #expect(document.root["f"]?.table?["g"] != nil)
    }

    /// Every TOML type arrives with its value; dates are recognised but carry none.
    @Test func everyTypeArrives() throws {
        let document = try TOMLDocument(text: """
            s = "text\\twith\\u00e9"
            i = 0x10
            f = 1.5e3
            b = true
            d = 2026-11-23
            t = 20:15:00
            dt = 2026-11-23T20:15:00Z
            a = [1, "two", [3]]
            """)
        let root = document.root
        #expect(root["s"]?.string == "text\twith\u{e9}")
        #expect(root["i"]?.int == 16)
        #expect(root["f"]?.double == 1500)
        #expect(root["b"]?.bool == true)
        #expect(ConfigurationLoader.describe(try #require(root["d"])) == "a date/time")
        #expect(ConfigurationLoader.describe(try #require(root["t"])) == "a date/time")
        #expect(ConfigurationLoader.describe(try #require(root["dt"])) == "a date/time")
        let array = try #require(root["a"]?.array)
        #expect(array.count == 3 && array[0].int == 1 && array[1].string == "two" && array[2].array?.first?.int == 3)
        #expect(root.sortedEntries.map(\.key) == ["a", "b", "d", "dt", "f", "i", "s", "t"])
    }

    /// Floats are read exactly (std::from_chars): each equals Swift's own reading of the same
    /// digits, underscores, exponents, signs and the specials included; one too large for a
    /// double is an error with its line, not infinity.
    @Test func floatsAreReadExactly() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("0.998", 0.998), ("-0.5", -0.5), ("+2.25", 2.25), ("1_000.125", 1000.125),
            ("6.02e23", 6.02e23), ("1E-7", 1e-7), ("5e+22", 5e22), ("-0.0", -0.0),
            ("0.30000000000000004", 0.30000000000000004), ("2.2250738585072014e-308", 2.2250738585072014e-308),
            ("inf", .infinity), ("-inf", -.infinity),
        ]
        for (text, expected) in cases {
            let value = try #require(try TOMLDocument(text: "x = \(text)\n").root["x"]?.double, "\(text)")
            #expect(value == expected && value.sign == expected.sign, "\(text) read as \(value)")
        }
        #expect(try TOMLDocument(text: "x = nan\n").root["x"]?.double?.isNaN == true)
        do {
            _ = try TOMLDocument(text: "a = 1\nx = 1e400\n")
            Issue.record("1e400 parsed")
        } catch {
            #expect(error.line == 2, "\(error)")
        }
    }
}
