import Testing
import FlickCore
@testable import FlickLinux

/// Findings of the config fuzzer (Fuzz/Sources/FuzzConfig, `scripts/fuzz config`), each kept
/// as the file that found it.
@Suite struct ConfigFuzzRegressions {
    private func problems(_ text: String) -> [ConfigurationError.Problem]? {
        do {
            _ = try ConfigurationLoader.parse(text: text, path: "flickd.toml")
            return nil
        } catch let error as ConfigurationError {
            return error.problems
        } catch {
            Issue.record("unexpected error type: \(error)")
            return []
        }
    }

    /// The two-byte file `[=` aborted flickd (check-config, start-up and reload) in an assertion
    /// of toml++ inside TOMLKit (the parser before toml++ was used directly); so did any table
    /// header whose name starts with a character no key starts with. Each is a syntax error at
    /// its line and column: toml++'s own, which the bridge no longer lets an assertion abort.
    @Test(arguments: [
        ("[=", 1, 2),
        ("[[[1]]]", 1, 3),
        ("[[=", 1, 3),
        ("[\n", 1, 2),
        ("[\r\nspeed = 1\n", 1, 2),
        ("[.coast]\n", 1, 2),
        ("[ +x]\n", 1, 3),
        ("\u{FEFF}[=\n", 1, 2),
        ("[scroll]\nspeed = 30\n\n  [=\n", 4, 4),
        ("[coast]\nboost = false # [=\n[[ {x}]]\n", 3, 4),
    ])
    func aTableHeaderWithoutANameIsASyntaxErrorNotACrash(text: String, line: Int, column: Int) {
        let found = problems(text)
        #expect(found?.count == 1)
        #expect(found?.first?.line == line && found?.first?.column == column, "\(String(describing: found))")
        #expect(found?.first?.message.contains("TOML syntax error") == true)
        #expect(found?.first?.message.contains("expected bare key starting character") == true, "\(String(describing: found))")
    }

    /// Only where toml++ reads a statement: the same characters inside a multi-line string (a
    /// device name) are text, and a syntax error before them is the one reported.
    @Test func theSameTextInsideAStringIsNotAHeader() throws {
        let configuration = try ConfigurationLoader.parse(
            text: "[[device]]\nname = \"\"\"\n[=\n\"\"\"\n[device.coast]\nboost = false\n", path: "flickd.toml")
        #expect(configuration.devices.first?.name == "[=\n")
        let earlier = problems("[coast\n[=\n")
        #expect(earlier?.first?.line == 1 && earlier?.first?.message.contains("TOML syntax error") == true)
    }

    /// Well-formed headers, with blanks and quotes, are untouched.
    @Test func wellFormedHeadersStillParse() throws {
        let configuration = try ConfigurationLoader.parse(
            text: "[ scroll ]\nspeed = 30\n[[ device ]]\nname = 'pad'\n[ \"device\".coast ]\nboost = false\n", path: "flickd.toml")
        #expect(configuration.scroll.speed == 30)
        #expect(configuration.devices.first?.configuration.coast.boost == false)
    }

    /// The four-byte file `o=[}` aborted flickd the same way, in toml++'s `parse_value`: a `}`
    /// where an array expects a value. Now a syntax error at the `}`.
    @Test(arguments: [
        ("o=[}", 1, 4),
        ("a = [1, }\n", 1, 9),
        ("[coast]\nboost = [\n  # nothing yet\n  }\n", 4, 3),
        ("x = [[[[\n}}}}", 2, 1),
        ("a = [}\n[=\n", 1, 6),
        ("[=\na = [}\n", 1, 2),
    ])
    func aBraceWhereAnArrayValueShouldBeIsASyntaxErrorNotACrash(text: String, line: Int, column: Int) {
        let found = problems(text)
        #expect(found?.count == 1)
        #expect(found?.first?.line == line && found?.first?.column == column, "\(String(describing: found))")
        #expect(found?.first?.message.contains("TOML syntax error") == true)
    }

    /// The same characters in strings and comments are text, not syntax.
    @Test(arguments: [#""[}""#, #"'[,}'"#, "\"\"\"\n[}\n\"\"\"", "'''\n, }'''", #""\"[}""#])
    func bracesInStringsAndCommentsAreLeftAlone(name: String) throws {
        let text = "[[device]] # [}\nname = \(name) # , }\n[device.coast]\nboost = false\n"
        let configuration = try ConfigurationLoader.parse(text: text, path: "flickd.toml")
        #expect(configuration.devices.first?.name?.contains("}") == true)
    }
}
