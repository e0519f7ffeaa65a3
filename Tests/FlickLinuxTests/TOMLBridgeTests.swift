import Testing
import FlickCore
@testable import FlickLinux

/// What the bridge to toml++ does with input that is not a configuration at all.
@Suite struct TOMLBridgeTests {
    /// Bytes toml++ refuses are syntax errors with a place, never a crash.
    @Test(arguments: [
        ("a = 1\u{0}\n", 1), ("[coast]\nboost = \"\u{1}\"\n", 2), ("x = \"\\q\"\n", 1), ("a = 1\na = 2\n", 2),
        (String(repeating: "[", count: 300) + "\n", 1), ("v = " + String(repeating: "[", count: 300) + "\n", 1),
        ("v = [\n" + String(repeating: "[", count: 200) + "\n", 2),
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
        let parts = TOMLDocument.maximumDepth
        let document = try TOMLDocument(text: "\n" + Array(repeating: "a", count: parts).joined(separator: ".") + " = 1\n")
        #expect(document.line(of: Array(repeating: "a", count: parts).joined(separator: ".")) == 2)
        var value = document.root["a"]
        for _ in 1..<parts { value = value?.table?["a"] }
        #expect(value?.int == 1)
    }

    /// toml++ recurses once per level of nesting (parsing it, and freeing its tables): a key or
    /// header of 100000 parts overflowed the stack, and so did inline tables each holding a
    /// long key. Past `maximumDepth`, header parts, key parts, arrays and inline tables all
    /// counted together, it is an error where the first thing too deep is written, never
    /// handed to toml++. (The text; line and column of the error.)
    static let tooDeep: [(String, Int, Int)] = [
        // The 65th part of a key.
        ("\n" + Array(repeating: "a", count: 65).joined(separator: ".") + " = 1\n", 2, 129),
        // The dot before a header's 65th part.
        ("# x\n[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]\n", 2, 129),
        ("[[" + Array(repeating: "a", count: 100).joined(separator: ".") + "]]\n", 1, 130),
        // A header's parts and the key's add up: [coast] is 1 deep, the key's 64th part 65.
        ("[coast]\n" + Array(repeating: "\"b\"", count: 100_000).joined(separator: " . ") + " = 1\n", 2, 379),
        ("v = { " + Array(repeating: "c", count: 100_000).joined(separator: ".") + " = 1 }\n", 1, 133),
        // The line-ending backslash of a multi-line basic string still counts its newline.
        ("s = \"\"\"a \\\n  b\"\"\"\n" + Array(repeating: "d", count: 300).joined(separator: ".") + " = 1\n", 3, 129),
        // Inline tables each holding a key of 256 parts, 80 deep: 41 kB that overflowed the
        // stack in toml::table::~table. `x` is 1 deep, the first table's key is 65 at its 64th part.
        ("x = " + String(repeating: "{" + Array(repeating: "a", count: 256).joined(separator: ".") + " = ", count: 80)
            + "1" + String(repeating: " }", count: 80) + "\n", 1, 132),
        // An array is as deep as its key, each element one deeper: the 65th [ is 65 deep.
        ("v = " + String(repeating: "[", count: 300) + "\n", 1, 69),
        ("v = [\n" + String(repeating: "[ ", count: 63) + "1" + String(repeating: "]", count: 64) + "\n", 2, 127),
        // Arrays of inline tables with dotted keys: the 21st b is 64 deep, its array too, and
        // the array in that 65.
        ("v = " + String(repeating: "[{ a.b = ", count: 21) + "[[]]" + String(repeating: " }]", count: 21) + "\n", 1, 195),
    ]

    @Test(arguments: tooDeep)
    func nestingTooDeepIsAnError(text: String, line: Int, column: Int) {
        do {
            _ = try TOMLDocument(text: text)
            Issue.record("parsed")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.hasPrefix("nested more than 64 deep"), "\(error.message)")
        }
    }

    /// Up to `maximumDepth` every way of nesting is parsed; brackets, braces and dots in
    /// strings and comments count for nothing.
    @Test func nestingAtTheLimitIsParsed() throws {
        func key(_ parts: Int) -> String { Array(repeating: "k", count: parts).joined(separator: ".") }
        let quotes = "\"\"\""
        // The header is 10 deep; the key's parts 11 to 30, and its array 30; the inline table
        // in it 31, its key's parts 32 to 61; then arrays at 61, 62 and 63 hold `value` at 64.
        func text(_ value: String) -> String {
            """
            # {{{{[[[[ \(key(100))
            s = "{{{{[[[[ \(key(100))"
            t = '{{{{[[[['
            u = \(quotes)
            [\(key(100))]
            {{{{\\\\\(quotes)
            w = '''
            [[[[ ]]]
            '''
            [\(key(10))]
            \(key(20)) = [{ \(key(30)) = [[[\(value)]]] }] # [[[[{{{{
            """
        }
        let document = try TOMLDocument(text: text("1"))
        #expect(document.root["s"]?.string?.hasPrefix("{{{{[[[[") == true)
        #expect(document.root["u"]?.string == "[\(key(100))]\n{{{{\\")
        var value = document.root["k"]
        for _ in 1..<30 { value = value?.table?["k"] }
        value = value?.array?.first
        for _ in 0..<30 { value = value?.table?["k"] }
        #expect(value?.array?.first?.array?.first?.array?.first?.int == 1)
        #expect(document.line(of: key(30) + "[1]." + key(30)) == 11)
        // One level more is refused, at the 1, now 65 deep.
        do {
            _ = try TOMLDocument(text: text("[1]"))
            Issue.record("65 deep parsed")
        } catch {
            #expect(error.line == 11 && error.column == 112, "\(error)")
            #expect(error.message.hasPrefix("nested more than 64 deep"), "\(error.message)")
        }
    }

    /// A key's line is looked up part by part (names are not stored whole, each holding its
    /// table's long name again); a name not written gets its closest enclosing one's line.
    @Test func linesAreFoundPartByPart() throws {
        let header = String(repeating: "h", count: 1000)
        let keys = (1...100).map { "k\($0) = \($0)" }.joined(separator: "\n")
        let document = try TOMLDocument(text: "[\(header)]\n\(keys)\n\"a.b\" = [{ c = 1 }, { \"[d]\" = 2 }]\n")
        #expect(document.root[header]?.table?.entries.count == 101)
        #expect(document.line(of: header + ".k100") == 101)
        #expect(document.ownLine(of: header + ".k101") == nil)
        #expect(document.line(of: header + ".k101") == 1)
        #expect(document.ownLine(of: header + ".\"a.b\"[2].\"[d]\"") == 102)
        #expect(document.ownLine(of: header + ".\"a.b\"[3]") == nil)
        #expect(document.line(of: "") == nil)
        #expect(TOMLDocument.steps(of: "device[2].coast.\"a.\\\"b\"[1][3].x") == ["device", "[2]", "coast", "\"a.\\\"b\"", "[1]", "[3]", "x"])
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
            j = 1234
            o = 0o17
            bin = 0b11
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
        // How each integer was written, which an id needs (`vendor = 1234` is no 0x1234).
        if case .integer(16, .hexadecimal) = root["i"] {} else { Issue.record("i = \(String(describing: root["i"]))") }
        if case .integer(1234, .decimal) = root["j"] {} else { Issue.record("j = \(String(describing: root["j"]))") }
        if case .integer(15, .octal) = root["o"] {} else { Issue.record("o = \(String(describing: root["o"]))") }
        if case .integer(3, .binary) = root["bin"] {} else { Issue.record("bin = \(String(describing: root["bin"]))") }
        #expect(root["f"]?.double == 1500)
        #expect(root["b"]?.bool == true)
        #expect(ConfigurationLoader.describe(try #require(root["d"])) == "a date/time")
        #expect(ConfigurationLoader.describe(try #require(root["t"])) == "a date/time")
        #expect(ConfigurationLoader.describe(try #require(root["dt"])) == "a date/time")
        let array = try #require(root["a"]?.array)
        #expect(array.count == 3 && array[0].int == 1 && array[1].string == "two" && array[2].array?.first?.int == 3)
        #expect(root.sortedEntries.map(\.key) == ["a", "b", "bin", "d", "dt", "f", "i", "j", "o", "s", "t"])
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
