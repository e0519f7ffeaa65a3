import Testing
import FlickCore
@testable import FlickLinux

@Suite struct ConfigLoaderTests {
    @Test func emptyAndCommentOnlyFilesAreTheDefaults() {
        #expect(parsed("") == .defaults)
        #expect(parsed("\n\n   \n") == .defaults)
        #expect(parsed("# nothing to change\n[coast]\n# still nothing\n") == .defaults)
    }

    @Test func valuesLandInTheirFields() {
        let configuration = parsed("""
            [scroll]
            speed = 30.5
            natural = true
            [coast]
            deceleration_rate = 0.995
            min_speed = 10
            max_speed = 3000
            max_duration = 1500.5
            tick_rate = 240
            boost = false
            axis_lock = 0
            [velocity]
            estimator = "lookback"
            [touchpad]
            enabled = false
            fingers = 3
            lift_window = 0
            lift_travel = 4.5
            [touchscreen]
            enabled = true
            fingers = 2
            """)
        var expected = Configuration()
        expected.scroll.speed = 30.5
        expected.scroll.natural = true
        expected.coast.decelerationRate = 0.995
        expected.coast.minSpeed = 10
        expected.coast.maxSpeed = 3000
        expected.coast.maxDuration = Duration(microseconds: 1_500_500)
        expected.coast.tickRate = 240
        expected.coast.boost = false
        expected.coast.axisLockDegrees = 0
        expected.velocity.estimator = .lookback
        expected.touchpad.enabled = false
        expected.touchpad.fingers = 3
        expected.touchpad.liftWindow = .zero
        expected.touchpad.liftTravel = 4.5
        expected.touchscreen.enabled = true
        expected.touchscreen.fingers = 2
        #expect(configuration == expected)
    }

    @Test func decelerationNamesNormalAndFast() {
        #expect(parsed("[coast]\ndeceleration_rate = \"normal\"\n")?.coast.decelerationRate == 0.998)
        #expect(parsed("[coast]\ndeceleration_rate = \"fast\"\n")?.coast.decelerationRate == 0.99)
        #expect(problems("[coast]\ndeceleration_rate = \"fsat\"\n") == [
            "flickd.toml:2: coast.deceleration_rate = \"fsat\" is not a number or a known name (0.9 <= rate <= 0.9999, or \"normal\" (0.998), \"fast\" (0.99)); did you mean \"fast\"?; 0.998 is the default",
        ])
        #expect(problems("[coast]\ndeceleration_rate = \"slow\"\n") == [
            "flickd.toml:2: coast.deceleration_rate = \"slow\" is not a number or a known name (0.9 <= rate <= 0.9999, or \"normal\" (0.998), \"fast\" (0.99)); 0.998 is the default",
        ])
    }

    @Test func dottedKeysAndLooseWhitespace() {
        let configuration = parsed("coast.boost = false\n  scroll . speed   =   30   # thirty\n\t[touchpad]  # pad\n   fingers=3\n")
        #expect(configuration?.coast.boost == false)
        #expect(configuration?.scroll.speed == 30)
        #expect(configuration?.touchpad.fingers == 3)
        #expect(problems("# first line\ncoast.tick_rate = 5\n") == [
            "flickd.toml:2: coast.tick_rate = 5 is out of range (10 <= rate <= 1000); 120 is the default",
        ])
        #expect(problems("[coast]\n   max_duration    =    10   # too short\n") == [
            "flickd.toml:2: coast.max_duration = 10 is out of range (50 <= duration <= 60000); 5000 is the default",
        ])
    }

    @Test func outOfRangeValuesSayFileLineKeyValueRangeAndDefault() {
        #expect(problems("[coast]\ndeceleration_rate = 1.5\n") == [
            "flickd.toml:2: coast.deceleration_rate = 1.5 is out of range (0.9 <= rate <= 0.9999); 0.998 is the default",
        ])
        #expect(problems("\n[scroll]\nspeed = 0\n") == [
            "flickd.toml:3: scroll.speed = 0 is out of range (0.1 <= speed <= 1000); 90 is the default",
        ])
        #expect(problems("[touchpad]\nfingers = 5\n") == [
            "flickd.toml:2: touchpad.fingers = 5 is out of range (2 <= fingers <= 4); 2 is the default",
        ])
        #expect(problems("[touchscreen]\nfingers = 0\n") == [
            "flickd.toml:2: touchscreen.fingers = 0 is out of range (1 <= fingers <= 4); 1 is the default",
        ])
        #expect(problems("[coast]\naxis_lock = 45.5\n") == [
            "flickd.toml:2: coast.axis_lock = 45.5 is out of range (0 <= angle <= 45); 20 is the default",
        ])
        #expect(problems("[scroll]\nspeed = nan\n") == [
            "flickd.toml:2: scroll.speed = nan is out of range (0.1 <= speed <= 1000); 90 is the default",
        ])
        #expect(problems("[coast]\nmax_speed = inf\n") == [
            "flickd.toml:2: coast.max_speed = inf is out of range (1 <= speed <= 100000); 1500 is the default",
        ])
    }

    @Test(arguments: ConfigurationLoader.keys.filter { $0.range != nil })
    func everyRangedKeyRejectsJustOutsideBothEnds(key: ConfigurationKey) {
        let range = key.range!
        let step = key.kind == .integer ? 1.0 : max(range.upperBound - range.lowerBound, 1) / 1000
        for value in [range.lowerBound - step, range.upperBound + step] {
            let written = ConfigurationKey.format(value)
            let text = "# \(key.name)\n[\(key.section)]\n\(key.key) = \(key.kind == .integer ? String(Int(value)) : written)\n"
            let found = problems(text)
            #expect(found?.count == 1, "\(text): \(String(describing: found))")
            let line = found?.first ?? ""
            #expect(line.hasPrefix("flickd.toml:3: \(key.name) = "), "\(line)")
            #expect(line.contains("is out of range (\(key.rangeText)); \(key.defaultValue) is the default"), "\(line)")
        }
        // And both ends themselves are accepted.
        for value in [range.lowerBound, range.upperBound] {
            let written = key.kind == .integer ? String(Int(value)) : ConfigurationKey.format(value)
            var text = "[\(key.section)]\n\(key.key) = \(written)\n"
            // Keep min_speed < max_speed whichever end is tried.
            if key.name == "coast.min_speed" { text += "max_speed = 100000\n" }
            if key.name == "coast.max_speed" { text += "min_speed = 0\n" }
            #expect(problems(text) == nil, "\(text)")
        }
    }

    @Test func unknownKeysAndSectionsSuggestTheNearestName() {
        #expect(problems("[coast]\nmax_sped = 3000\n") == ["flickd.toml:2: unknown key coast.max_sped; did you mean coast.max_speed?"])
        #expect(problems("speed = 30\n") == ["flickd.toml:1: unknown key speed; did you mean scroll.speed?"])
        #expect(problems("[coast]\nnatural = true\n") == ["flickd.toml:2: unknown key coast.natural; did you mean scroll.natural?"])
        #expect(problems("[touchpad]\nfinger = 3\n") == ["flickd.toml:2: unknown key touchpad.finger; did you mean touchpad.fingers?"])
        #expect(problems("[caost]\nboost = true\n") == [
            "flickd.toml:1: unknown section [caost]; did you mean [coast]?; the sections are [scroll], [coast], [velocity], [touchpad], [touchscreen], [stop], [output] and [[device]]",
        ])
        #expect(problems("[coast]\nwobble = 1\n") == [
            "flickd.toml:2: unknown key coast.wobble; [coast] has deceleration_rate, min_speed, max_speed, max_duration, tick_rate, boost, axis_lock",
        ])
        #expect(problems("[keyboard]\nrepeat = 1\n")?.first?.hasPrefix("flickd.toml:1: unknown section [keyboard]; the sections are") == true)
        #expect(problems("[coast.extra]\nx = 1\n") == [
            "flickd.toml:1: unknown table [coast.extra]; [coast] has deceleration_rate, min_speed, max_speed, max_duration, tick_rate, boost, axis_lock",
        ])
    }

    /// A name that differs only in case is a likely slip (TOML's names are case-sensitive): it
    /// is suggested, ahead of any other.
    @Test func aNameInAnotherCaseIsSuggested() {
        #expect(problems("[COAST]\nboost = true\n")?.first?
            .hasPrefix("flickd.toml:1: unknown section [COAST]; did you mean [coast]?; the sections are") == true)
        #expect(problems("[coast]\nMIN_SPEED = 3\n") == ["flickd.toml:2: unknown key coast.MIN_SPEED; did you mean coast.min_speed?"])
        #expect(problems("MIN_SPEED = 3\n") == ["flickd.toml:1: unknown key MIN_SPEED; did you mean coast.min_speed?"])
        #expect(problems("[velocity]\nestimator = \"LSQ2\"\n") == [
            "flickd.toml:2: velocity.estimator = \"LSQ2\" is not one of \"lsq2\", \"lookback\"; did you mean \"lsq2\"?; \"lsq2\" is the default",
        ])
        #expect(problems("[output]\nmode = \"TOUCHPAD\"\n") == [
            "flickd.toml:2: output.mode = \"TOUCHPAD\" is not one of \"touchpad\", \"wheel\"; did you mean \"touchpad\"?; \"touchpad\" is the default",
        ])
        #expect(Suggestion.closest(to: "Ab", among: ["Ac", "ab"]) == "ab", "the same letters first, though \"Ac\" is one edit too")
        #expect(Suggestion.distance("MAX_SPED", "max_speed") == 1, "case aside, a typo as any other")
    }

    @Test("a key's part, a section or a string longer than 64 bytes is shown by its first 48 and its length")
    func longWordsAreShortened() {
        let long = String(repeating: "a", count: 100_000)
        let shown = String(repeating: "a", count: 48) + "… (100000 bytes)"
        let has = "; [coast] has deceleration_rate, min_speed, max_speed, max_duration, tick_rate, boost, axis_lock"
        #expect(problems("[coast]\n\(long) = 1\n") == ["flickd.toml:2: unknown key coast.\(shown)\(has)"])
        #expect(problems("coast.\(long) = 1\n") == ["flickd.toml:1: unknown key coast.\(shown)\(has)"], "a dotted key")
        #expect(problems("[\(long)]\nx = 1\n")?.first?.hasPrefix("flickd.toml:1: unknown section [\(shown)]; the sections are") == true)
        #expect(problems("[scroll]\nspeed = \"\(long)\"\n") == [
            "flickd.toml:2: scroll.speed = \"\(shown)\" has the wrong type: expected a number (0.1 <= speed <= 1000); 90 is the default",
        ])
        // Few characters, many bytes (each with 10000 combining accents): by bytes too.
        let marks = String(repeating: "e" + String(repeating: "\u{301}", count: 10_000), count: 60)
        let message = problems("[scroll]\nspeed = \"\(marks)\"\n")?.first ?? ""
        #expect(message.utf8.count < 300 && message.contains("… (1200060 bytes)"), "\(message.utf8.count) bytes")
        // Up to 64 bytes a word is shown whole.
        let fits = String(repeating: "b", count: 64)
        #expect(problems("[coast]\n\(fits) = 1\n") == ["flickd.toml:2: unknown key coast.\(fits)\(has)"])
    }

    @Test func wrongTypesSayWhatWasExpected() {
        #expect(problems("[scroll]\nspeed = \"fast\"\n") == [
            "flickd.toml:2: scroll.speed = \"fast\" has the wrong type: expected a number (0.1 <= speed <= 1000); 90 is the default",
        ])
        #expect(problems("[scroll]\nnatural = 1\n") == [
            "flickd.toml:2: scroll.natural = 1 has the wrong type: expected true, false or \"auto\"; \"auto\" is the default",
        ])
        #expect(problems("[touchpad]\nfingers = 2.5\n") == [
            "flickd.toml:2: touchpad.fingers = 2.5 has the wrong type: expected a whole number (2 <= fingers <= 4); 2 is the default",
        ])
        #expect(problems("[velocity]\nestimator = 2\n") == [
            "flickd.toml:2: velocity.estimator = 2 has the wrong type: expected one of \"lsq2\", \"lookback\"; \"lsq2\" is the default",
        ])
        #expect(problems("[velocity]\nestimator = \"lsq\"\n") == [
            "flickd.toml:2: velocity.estimator = \"lsq\" is not one of \"lsq2\", \"lookback\"; did you mean \"lsq2\"?; \"lsq2\" is the default",
        ])
        #expect(problems("[output]\nmode = \"touchpda\"\n") == [
            "flickd.toml:2: output.mode = \"touchpda\" is not one of \"touchpad\", \"wheel\"; did you mean \"touchpad\"?; \"touchpad\" is the default",
        ])
        #expect(problems("[output]\nmode = true\n") == [
            "flickd.toml:2: output.mode = true has the wrong type: expected one of \"touchpad\", \"wheel\"; \"touchpad\" is the default",
        ])
        #expect(problems("[coast]\nboost = [true]\n") == [
            "flickd.toml:2: coast.boost = [...] has the wrong type: expected true or false; true is the default",
        ])
        #expect(problems("coast = 5\n") == ["flickd.toml:1: coast = 5 should be a table: write [coast] and its keys below it"])
        #expect(problems("coast = [{ boost = true }]\n") == [
            "flickd.toml:1: coast = [...] should be a table: write [coast] and its keys below it",
        ])
    }

    /// `[[coast]]`, a known section with two brackets, was told "coast = [...] should be a
    /// table", which was not written: the header is named.
    @Test func aKnownSectionWithTwoBracketsNeedsOnePair() {
        #expect(problems("[[coast]]\nboost = true\n") == [
            "flickd.toml:1: [[coast]] needs one pair of brackets: write [coast] and its keys below it",
        ])
        #expect(problems("# stop\n[[ \"stop\" ]]\nbutton = false\n[[stop]]\nkey = false\n") == [
            "flickd.toml:2: [[stop]] needs one pair of brackets: write [stop] and its keys below it",
        ], "written twice, quoted: at the first")
    }

    @Test func keysInsideInlineTablesGetTheTablesLine() {
        #expect(problems("\ncoast = { boost = 3 }\n") == [
            "flickd.toml:2: coast.boost = 3 has the wrong type: expected true or false; true is the default",
        ])
    }

    @Test func syntaxErrorsCarryTheParsersLineAndColumn() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(text: "[scroll]\nspeed = 24\n[coast\nboost = true\n", path: "flickd.toml")
        }
        #expect(error.problems.count == 1)
        #expect(error.problems[0].line == 3)
        #expect(error.problems[0].column == 7, "the line break where ] should be")
        #expect(error.problems[0].message.hasPrefix("TOML syntax error: "))
        #expect(error.description.hasPrefix("flickd.toml:3:7: TOML syntax error: "))

        let second = try #require(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(text: "[scroll]\n\n\nspeed = = 3\n", path: "flickd.toml")
        }
        #expect(second.problems.map(\.line) == [4])
    }

    @Test func minimumSpeedMustStayBelowMaximumSpeed() {
        #expect(problems("[coast]\nmin_speed = 2000\n") == [
            "flickd.toml:2: coast.min_speed = 2000 must be less than coast.max_speed = 1500: every coast would start at max_speed, however fast the flick",
        ])
        #expect(problems("[coast]\n\nmax_speed = 40\n") == [
            "flickd.toml:3: coast.min_speed = 50 must be less than coast.max_speed = 40: every coast would start at max_speed, however fast the flick",
        ])
        #expect(problems("[coast]\nmax_speed = 40\nmin_speed = 40\n")?.first?.hasPrefix("flickd.toml:3: coast.min_speed = 40 must be less") == true)
        #expect(parsed("[coast]\nmin_speed = 2000\nmax_speed = 2500\n")?.coast.minSpeed == 2000)
        // A refused value is not compared: the default standing in for it was never written.
        #expect(problems("[coast]\nmin_speed = -5\nmax_speed = 40\n") == [
            "flickd.toml:2: coast.min_speed = -5 is out of range (0 <= speed <= 10000); 50 is the default",
        ])
        #expect(problems("[coast]\nmin_speed = 2000\nmax_speed = \"fast\"\n") == [
            "flickd.toml:3: coast.max_speed = \"fast\" has the wrong type: expected a number (1 <= speed <= 100000); 1500 is the default",
        ])
    }

    @Test func allProblemsAreReportedTogetherInLineOrder() throws {
        let text = """
            [scroll]
            speed = 5000
            natral = true

            [coast]
            deceleration_rate = 2
            tick_rate = "often"

            [touchpad]
            fingers = 9
            """
        let error = try #require(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(text: text, path: "/etc/flickd.toml")
        }
        #expect(error.problems.map(\.line) == [2, 3, 6, 7, 10])
        #expect(error.problems.map(\.key) == ["scroll.speed", "scroll.natral", "coast.deceleration_rate", "coast.tick_rate", "touchpad.fingers"])
        #expect(error.problems.allSatisfy { $0.path == "/etc/flickd.toml" })
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[1] == "/etc/flickd.toml:3: unknown key scroll.natral; did you mean scroll.natural?")
        #expect(lines[2] == "/etc/flickd.toml:6: coast.deceleration_rate = 2 is out of range (0.9 <= rate <= 0.9999); 0.998 is the default")
    }

    @Test func aMissingFileNamesThePathAndTheReason() throws {
        let path = "/nonexistent-flickd-test/flickd.toml"
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.description == "\(path): cannot read the configuration file: No such file or directory (errno 2)")
        #expect(error.problems.first?.line == nil)
    }

    /// TOML files are UTF-8: one saved in Latin-1 is refused where it stops being UTF-8, not
    /// read with a replacement character that no device's name holds.
    @Test func aFileThatIsNotUTF8IsRefusedWhereItStopsBeing() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("latin1.toml")
        directory.write("latin1.toml", bytes: Array("# café\n[[device]]\nname = \"Caf".utf8) + [0xE9] + Array(" pad\"\n".utf8))
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.description == "\(path):3:12: the file is not UTF-8 (byte 0xE9 here), and TOML files must be: save it as UTF-8")

        let source = ConfigurationSource(explicitPath: path)
        directory.write("latin1.toml", "[scroll]\nspeed = 40\n")
        #expect(try source.load().scroll.speed == 40)
        directory.write("latin1.toml", bytes: Array("[scroll]\nspeed = 50\n".utf8) + [0xFF, 0x0A])
        let kept = try #require(throws: ConfigurationError.self, "a reload keeps the running settings") { try source.reload() }
        #expect(kept.description == "\(path):3:1: the file is not UTF-8 (byte 0xFF here), and TOML files must be: save it as UTF-8")
    }

    /// One problem a line, and nothing a terminal would act on: a string or a key with a line
    /// break or an escape sequence is shown as TOML writes it.
    @Test func controlCharactersInStringsAndKeysAreShownEscaped() throws {
        #expect(problems("[output]\nmode = \"\"\"\nwheel\n\"\"\"\n") == [
            "flickd.toml:2: output.mode = \"wheel\\n\" is not one of \"touchpad\", \"wheel\"; did you mean \"wheel\"?; \"touchpad\" is the default",
        ])
        #expect(problems("[output]\nmode = \"wh\\u001b[31meel \\\\ \\\"q\\\" \\u0085\\t\"\n") == [
            "flickd.toml:2: output.mode = \"wh\\u001B[31meel \\\\ \\\"q\\\" \\u0085\\t\" is not one of \"touchpad\", \"wheel\"; \"touchpad\" is the default",
        ])
        let has = "; [coast] has deceleration_rate, min_speed, max_speed, max_duration, tick_rate, boost, axis_lock"
        #expect(problems("[coast]\n\"\" = 1\n\"a\\nb\" = 2\n") == [
            "flickd.toml:2: unknown key coast.\"\"\(has)",
            "flickd.toml:3: unknown key coast.\"a\\nb\"\(has)",
        ])
        let escaped = try #require(problems("[output]\nmode = \"\\r\\u001b]0;title\\u0007\"\n"))
        #expect(!escaped.isEmpty)
        for message in escaped {
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 }, "\(message.debugDescription)")
        }
    }

    /// The shipped file lists every section: one added again at its end is a syntax error, and
    /// the message says where the first one is.
    @Test func aRedefinedTableOrKeySaysWhereItIsFirst() {
        #expect(problems("[coast]\nboost = true\n\n[ coast ]\nmax_speed = 3000\n") == [
            "flickd.toml:4:1: TOML syntax error: Error while parsing table header: cannot redefine existing table 'coast'; "
                + "[coast] is first on line 1: write all its keys under that one",
        ])
        #expect(problems("[scroll]\nspeed = 1\n[coast]\nboosted = 1\nboost = true\nboost = false\n") == [
            "flickd.toml:6:9: TOML syntax error: Error while parsing key-value pair: cannot redefine existing boolean 'boost'; "
                + "boost is first set on line 5: keep one of the two",
        ])
        #expect(problems("[[device]]\nname = \"a\"\n[[device]]\nname = \"b\"\nname = \"c\"\n")?.first?
            .hasSuffix("name is first set on line 4: keep one of the two") == true, "in the second [[device]], not the first")
        // A dotted key is matched whole: `enabled` on line 2 is another key.
        let dotted = problems("[[device]]\nenabled = false\ntouchpad.enabled = true\ntouchpad.enabled  = false\n")
        #expect(dotted?.count == 1 && dotted?.first?.hasSuffix("'; touchpad.enabled is first set on line 3: keep one of the two") == true,
                "\(dotted ?? [])")
        // Written another way the first time, it is the same key.
        #expect(problems("[[device]]\nenabled = false\ntouchpad . enabled = true\ntouchpad.enabled = false\n")?.first?
            .hasSuffix("cannot redefine existing boolean 'touchpad.enabled'; touchpad.enabled is first set on line 3: keep one of the two") == true)
        #expect(ConfigurationLoader.firstDefinition(in: "[a]\n", redefined: "cannot redefine existing table '", before: 2) == nil)
        #expect(ConfigurationLoader.firstDefinition(in: "", redefined: "cannot redefine existing table ''", before: 0) == nil)
        // Made by a dotted key, the table has no header to point at: toml++'s message alone.
        #expect(problems("coast.boost = true\n[coast]\nmax_speed = 1\n") == [
            "flickd.toml:2:1: TOML syntax error: Error while parsing table header: cannot redefine existing table 'coast'",
        ])
    }

    /// The first line comes from the file parsed again up to the error, not from its text: a
    /// multi-line string or array holding `boost = 1` or a `[...]` line is no key or header.
    @Test func aRedefinedKeyIsFoundPastMultiLineStringsAndArrays() {
        let quotes = "\"\"\""
        #expect(problems("[coast]\nx = \(quotes)\nboost = 1\n\(quotes)\nboost = true\nboost = false\n") == [
            "flickd.toml:6:9: TOML syntax error: Error while parsing key-value pair: cannot redefine existing boolean 'boost'; "
                + "boost is first set on line 5: keep one of the two",
        ])
        // A [ line in a string or an array does not start a table.
        #expect(problems("[coast]\nboost = true\ns = \(quotes)\n[scroll]\nboost = 1\n\(quotes)\nboost = false\n")?.first?
            .hasSuffix("boost is first set on line 2: keep one of the two") == true)
        #expect(problems("[scroll]\nspeed = 1\nx = [\n[1],\n]\nspeed = 2\n")?.first?
            .hasSuffix("speed is first set on line 2: keep one of the two") == true)
        #expect(problems("[[device]]\n[device.coast]\nboost = true\ns = '''\n[[device]]\n'''\n[device.coast]\n")?.first?
            .hasSuffix("[device.coast] is first on line 2: write all its keys under that one") == true)
        // A key of the top-level table, below a string holding a header.
        #expect(problems("s = '''\n[coast]\n'''\nx = 1\nx = 2\n")?.first?.hasSuffix("x is first set on line 4: keep one of the two") == true)
    }

    /// Nesting past `TOMLDocument.maximumDepth` is a syntax error at its place: 80 inline tables
    /// each holding a key of 256 parts (41 kB) overflowed the stack freeing them. Under [coast]
    /// (1 deep), `x` is 2 and the first table's key 65 at its 63rd part.
    @Test func nestingTooDeepIsASyntaxErrorAtItsPlace() {
        let key = Array(repeating: "a", count: 256).joined(separator: ".")
        let text = "x = " + String(repeating: "{" + key + " = ", count: 80) + "1" + String(repeating: " }", count: 80) + "\n"
        #expect(problems("[coast]\nboost = true\n" + text) == [
            "flickd.toml:3:130: TOML syntax error: nested more than 64 deep, counting each part of the table header and the key, "
                + "and each array and inline table around the value (flickd's keys are at most 3 deep)",
        ])
    }

    /// A key or table written in quotes and given twice: toml++ garbles its name ('"mimin_speed" ',
    /// '"cocoast"'), so the message takes the name from the line, and says where it is first.
    @Test func aRedefinedQuotedKeyOrTableIsNamedFromItsLine() {
        #expect(problems("[coast]\n\"min_speed\" = 1\n\"min_speed\" = 2\n") == [
            "flickd.toml:3:15: TOML syntax error: Error while parsing key-value pair: cannot redefine existing integer 'min_speed'; "
                + "min_speed is first set on line 2: keep one of the two",
        ])
        #expect(problems("[\"coast\"]\nboost = true\n[\"coast\"]\naxis_lock = 3\n") == [
            "flickd.toml:3:1: TOML syntax error: Error while parsing table header: cannot redefine existing table 'coast'; "
                + "[coast] is first on line 1: write all its keys under that one",
        ])
        // Quoted one time and bare the other: the same name.
        #expect(problems("[coast]\nmin_speed = 1\n'min_speed' = 2\n")?.first?
            .hasSuffix("cannot redefine existing integer 'min_speed'; min_speed is first set on line 2: keep one of the two") == true)
        #expect(problems("[\"coast\"]\nboost = true\n[ coast ]\n")?.first?
            .hasSuffix("cannot redefine existing table 'coast'; [coast] is first on line 1: write all its keys under that one") == true)
        // A quoted part that a bare key could not be stays quoted: one key, dot and all.
        #expect(problems("[coast]\n\"a.b\" = 1\n\"a.b\" = 2\n")?.first?
            .hasSuffix("cannot redefine existing integer '\"a.b\"'; \"a.b\" is first set on line 2: keep one of the two") == true)
        // In a [[device]] element, and a key of the section written as a table.
        #expect(problems("[[device]]\n[\"device\".\"coast\"]\nboost = true\n[\"device\".coast]\n")?.first?
            .hasSuffix("cannot redefine existing table 'device.coast'; [device.coast] is first on line 2: write all its keys under that one") == true)
        #expect(problems("[[device]]\nname = \"a\"\n[\"device\".name]\n")?.first?
            .hasSuffix("cannot redefine existing string 'device.name' as table; "
                + "name is a key of the [[device]] section, not a table: write name = \"...\" under it") == true)
    }

    /// A table repeated inside a later [[device]] is first in that element, not in the first
    /// element that has a table of the same name.
    @Test func aTableRedefinedInALaterDeviceSaysWhereInThatDevice() {
        let text = "[[device]]\nname = \"a\"\n[device.coast]\nboost = true\n"
            + "[[device]]\nname = \"b\"\n[device.coast]\nboost = true\n[device.coast]\nmax_speed = 3000\n"
        let message = problems(text)?.first ?? "none"
        #expect(message.hasPrefix("flickd.toml:9:1: TOML syntax error: "), "\(message)")
        #expect(message.hasSuffix("; [device.coast] is first on line 7: write all its keys under that one"), "\(message)")
        // Made by a dotted key in this element, the table has no header there: toml++'s
        // message alone, not another element's header.
        #expect(problems("[[device]]\n[device.coast]\nboost = true\n[[device]]\ncoast.boost = true\n[device.coast]\n") == [
            "flickd.toml:6:1: TOML syntax error: Error while parsing table header: cannot redefine existing table 'device.coast'",
        ])
    }

    @Test func theFirstByteThatIsNotUTF8() {
        #expect(TextFile.firstInvalidUTF8(in: Array("plain, é, €, 𝄞".utf8)) == nil)
        #expect(TextFile.firstInvalidUTF8(in: []) == nil)
        #expect(TextFile.firstInvalidUTF8(in: [0x61, 0xE9, 0x62]) == 1, "a Latin-1 é")
        #expect(TextFile.firstInvalidUTF8(in: [0x61, 0x62, 0xE2, 0x82]) == 2, "a sequence cut short at the end")
        #expect(TextFile.firstInvalidUTF8(in: [0xC3, 0xA9, 0xED, 0xA0, 0x80]) == 2, "a surrogate")
        #expect(TextFile.firstInvalidUTF8(in: [0xC0, 0x80]) == 0, "an overlong NUL")
        #expect(TextFile.firstInvalidUTF8(in: [0x61, 0x80]) == 1, "a stray continuation byte")
    }

    @Test func editDistanceCountsASwapAsOneEdit() {
        #expect(Suggestion.distance("caost", "coast") == 1)
        #expect(Suggestion.distance("max_sped", "max_speed") == 1)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.closest(to: "wobble", among: ["boost", "axis_lock"]) == nil)
    }

    /// A quoted key is one key, dots and all: `"coast.boost"` is no `boost` in [coast], and the
    /// message says so instead of suggesting the name it has.
    @Test func aQuotedDottedKeyIsNamedAsOneKey() {
        #expect(problems("\"coast.boost\" = true\n") == [
            "flickd.toml:1: unknown key \"coast.boost\": a quoted key is one key, dots and all; "
                + "write coast.boost without the quotes, or boost under [coast]",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n\"coast.boost\" = true\n") == [
            "flickd.toml:3: unknown key device[1].\"coast.boost\": a quoted key is one key, dots and all; "
                + "write coast.boost without the quotes, or boost under [device.coast]",
        ])
        // On its own line, though [coast]'s boost has the same dotted name.
        #expect(problems("\"coast.boost\" = false\n[coast]\nboost = true\n") == [
            "flickd.toml:1: unknown key \"coast.boost\": a quoted key is one key, dots and all; "
                + "write coast.boost without the quotes, or boost under [coast]",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n\"coast.boost\" = true\n[device.coast]\nboost = true\n")?.first?
            .hasPrefix("flickd.toml:3: unknown key device[1].\"coast.boost\"") == true)
    }

    /// A float where a whole number goes is shown as written, a float: `3.0`, not `3`.
    @Test func aFloatInAWholeNumberKeyIsShownAsAFloat() {
        #expect(problems("[touchpad]\nfingers = 3.0\n") == [
            "flickd.toml:2: touchpad.fingers = 3.0 has the wrong type: expected a whole number (2 <= fingers <= 4); 2 is the default",
        ])
    }

    /// A word past `Suggestion.longestWord` bytes is not aligned edit by edit (a megabyte-long
    /// key held the loader for 40 s): it scores its length, more than the typo limit of any of
    /// flickd's names, and an unknown key that long still gets its problem, with no suggestion.
    @Test func aVeryLongWordIsScoredByItsLength() throws {
        let long = "boost" + String(repeating: "x", count: Suggestion.longestWord)
        #expect(Suggestion.distance(long, "boost") == long.utf8.count)
        #expect(Suggestion.distance("boost", long) == long.utf8.count)
        let key = String(repeating: "a", count: 1 << 20)
        let found = problems("[coast]\n\(key) = 1\n")
        #expect(found == ["flickd.toml:2: unknown key coast.\(ConfigurationLoader.shown(key)); [coast] has deceleration_rate, min_speed, max_speed, "
                          + "max_duration, tick_rate, boost, axis_lock"], "\(found?.map { $0.prefix(80) } ?? [])")
    }
}
