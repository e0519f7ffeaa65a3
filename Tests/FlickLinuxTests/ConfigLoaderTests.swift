import Testing
import FlickCore
@testable import FlickLinux

/// `config/flickd.toml` in this clone (found from this file's path).
private let shippedConfigPath: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // ConfigTests.swift, FlickLinuxTests, Tests
    return parts.joined(separator: "/") + "/config/flickd.toml"
}()

/// The problems of parsing `text` as `flickd.toml`, one description a line; nil when it parses.
private func problems(_ text: String) -> [String]? {
    do {
        _ = try ConfigurationLoader.parse(text: text, path: "flickd.toml")
        return nil
    } catch let error as ConfigurationError {
        return error.problems.map(\.description)
    } catch {
        return ["unexpected error type: \(error)"]
    }
}

/// The configuration `text` gives, or nil with the problems recorded as a test issue.
private func parsed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Configuration? {
    do {
        return try ConfigurationLoader.parse(text: text, path: "flickd.toml")
    } catch {
        Issue.record("expected \(text.debugDescription) to parse, got:\n\(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite struct ShippedConfigTests {
    @Test func theShippedFileIsExactlyTheDefaults() throws {
        let configuration = try ConfigurationLoader.load(path: shippedConfigPath)
        #expect(configuration == Configuration.defaults)
    }

    @Test func everyKeyIsInTheShippedFileWithItsUnitRangeAndDefault() throws {
        let text = try TextFile.read(shippedConfigPath)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let document = try TOMLDocument(text: text)
        for key in ConfigurationLoader.keys {
            guard let line = document.lines[key.name] else {
                Issue.record("\(key.name) is not in config/flickd.toml: document it there")
                continue
            }
            // The comment block right above the key documents it.
            var comment = ""
            var index = line - 2
            while index >= 0, lines[index].hasPrefix("#") {
                comment = lines[index] + "\n" + comment
                index -= 1
            }
            #expect(comment.contains("Default: \(key.defaultValue)."), "\(key.name): no \"Default: \(key.defaultValue).\" in\n\(comment)")
            if let range = key.range {
                let words = "Range: \(ConfigurationKey.format(range.lowerBound)) to \(ConfigurationKey.format(range.upperBound))"
                #expect(comment.contains(words), "\(key.name): no \"\(words)\" in\n\(comment)")
            }
            if let unit = key.unit {
                #expect(comment.contains("Unit: \(unit)"), "\(key.name): no \"Unit: \(unit)\" in\n\(comment)")
            }
            for named in key.namedValues {
                #expect(comment.contains("\"\(named.name)\" (\(ConfigurationKey.format(named.value)))"), "\(key.name)")
            }
            for choice in key.choices {
                #expect(comment.contains("\"\(choice)\""), "\(key.name): choice \(choice) undocumented")
            }
            if key.kind == .boolean {
                #expect(comment.contains("Values: true or false."), "\(key.name)")
            }
            if key.kind == .booleanOrChoice {
                #expect(comment.contains("Values: \(key.rangeText)."), "\(key.name): no \"Values: \(key.rangeText).\" in\n\(comment)")
            }
        }
    }
}

@Suite struct KeyTableTests {
    @Test func namesAreUniqueAndSectionsAreTheSeven() {
        let names = ConfigurationLoader.keys.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 20)
        #expect(ConfigurationLoader.sections == ["scroll", "coast", "velocity", "touchpad", "touchscreen", "stop", "output"])
        #expect(ConfigurationLoader.deviceSections == ["scroll", "coast", "velocity", "touchpad", "touchscreen"])
    }

    @Test func everyDefaultIsInsideItsRange() {
        for key in ConfigurationLoader.keys {
            switch (key.defaultValue, key.range) {
            case (.number(let number), let range?): #expect(range.contains(number), "\(key.name)")
            case (.integer(let integer), let range?): #expect(range.contains(Double(integer)), "\(key.name)")
            case (.string(let string), _): #expect(key.choices.contains(string), "\(key.name)")
            case (.boolean, _): break
            default: Issue.record("\(key.name): default \(key.defaultValue) does not fit kind \(key.kind)")
            }
        }
    }

    /// Each key's setter must reach its own field and no other: set a different valid value and
    /// read every key back.
    @Test func eachKeyWritesItsOwnFieldOnly() {
        for key in ConfigurationLoader.keys {
            let other: ConfigurationValue
            switch key.defaultValue {
            case .number(let number): other = .number(number == key.range!.upperBound ? key.range!.lowerBound : key.range!.upperBound)
            case .integer(let integer): other = .integer(integer == Int(key.range!.upperBound) ? Int(key.range!.lowerBound) : Int(key.range!.upperBound))
            case .boolean(let boolean): other = .boolean(!boolean)
            case .string where key.kind == .booleanOrChoice: other = .boolean(true)
            case .string(let string): other = .string(key.choices.first { $0 != string }!)
            }
            var configuration = Configuration.defaults
            key.write(&configuration, other)
            #expect(configuration != .defaults, "\(key.name) changed nothing")
            for probe in ConfigurationLoader.keys {
                let expected = probe.name == key.name ? other : probe.defaultValue
                #expect(probe.value(in: configuration) == expected, "writing \(key.name) = \(other): \(probe.name) reads \(probe.value(in: configuration))")
            }
        }
    }
}

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
            "flickd.toml:3: scroll.speed = 0 is out of range (0.1 <= speed <= 1000); 24 is the default",
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
            "flickd.toml:2: scroll.speed = nan is out of range (0.1 <= speed <= 1000); 24 is the default",
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

    @Test func wrongTypesSayWhatWasExpected() {
        #expect(problems("[scroll]\nspeed = \"fast\"\n") == [
            "flickd.toml:2: scroll.speed = \"fast\" has the wrong type: expected a number (0.1 <= speed <= 1000); 24 is the default",
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
            "flickd.toml:2: coast.min_speed = 2000 must be less than coast.max_speed = 1500: no release could coast",
        ])
        #expect(problems("[coast]\n\nmax_speed = 40\n") == [
            "flickd.toml:3: coast.min_speed = 50 must be less than coast.max_speed = 40: no release could coast",
        ])
        #expect(problems("[coast]\nmax_speed = 40\nmin_speed = 40\n")?.first?.hasPrefix("flickd.toml:3: coast.min_speed = 40 must be less") == true)
        #expect(parsed("[coast]\nmin_speed = 2000\nmax_speed = 2500\n")?.coast.minSpeed == 2000)
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

    @Test func editDistanceCountsASwapAsOneEdit() {
        #expect(Suggestion.distance("caost", "coast") == 1)
        #expect(Suggestion.distance("max_sped", "max_speed") == 1)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.closest(to: "wobble", among: ["boost", "axis_lock"]) == nil)
    }
}

@Suite struct NaturalScrollingKeyTests {
    @Test func autoTrueAndFalse() {
        #expect(Configuration.defaults.scroll.natural == .auto)
        #expect(parsed("[scroll]\nnatural = \"auto\"\n")?.scroll.natural == .auto)
        #expect(parsed("[scroll]\nnatural = true\n")?.scroll.natural == .on)
        #expect(parsed("[scroll]\nnatural = false\n")?.scroll.natural == .off)
    }

    @Test func theKeyReadsBackAsWritten() throws {
        let key = try #require(ConfigurationLoader.key(named: "scroll.natural"))
        #expect(key.defaultValue == .string("auto"))
        #expect(key.rangeText == "true, false or \"auto\"")
        var configuration = Configuration()
        configuration.scroll.natural = .on
        #expect(key.value(in: configuration) == .boolean(true))
        configuration.scroll.natural = .off
        #expect(key.value(in: configuration) == .boolean(false))
    }

    @Test func wrongValuesSayWhatIsAccepted() {
        #expect(problems("[scroll]\nnatural = \"atuo\"\n") == [
            "flickd.toml:2: scroll.natural = \"atuo\" is not true, false or \"auto\"; did you mean \"auto\"?; \"auto\" is the default",
        ])
        #expect(problems("[scroll]\nnatural = \"true\"\n") == [
            "flickd.toml:2: scroll.natural = \"true\" is not true, false or \"auto\"; write natural = true, without quotes; \"auto\" is the default",
        ])
        #expect(problems("[scroll]\nnatural = \"off\"\n") == [
            "flickd.toml:2: scroll.natural = \"off\" is not true, false or \"auto\"; write natural = false, without quotes; \"auto\" is the default",
        ])
        #expect(problems("[scroll]\nnatural = \"sideways\"\n") == [
            "flickd.toml:2: scroll.natural = \"sideways\" is not true, false or \"auto\"; \"auto\" is the default",
        ])
    }
}

@Suite struct DeviceSectionTests {
    /// The example of the issue: every kind of key, two override tables.
    @Test func aFullSectionBecomesOneRule() throws {
        let configuration = try #require(parsed("""
            [coast]
            boost = false

            [[device]]
            name = "Synaptics"        # the kernel name contains this (ignoring case)
            vendor = 0x06cb
            product = 0x0007
            enabled = true
            resolution = 30
            [device.coast]
            deceleration_rate = "fast"
            [device.touchpad]
            fingers = 3
            """))
        #expect(configuration.devices.count == 1)
        let rule = try #require(configuration.devices.first)
        #expect(rule.name == "Synaptics")
        #expect(rule.vendor == 0x06cb)
        #expect(rule.product == 0x0007)
        #expect(rule.enabled)
        #expect(rule.resolution == 30)
        var expected = Configuration.defaults
        expected.coast.boost = false  // from the top level
        expected.coast.decelerationRate = 0.99
        expected.touchpad.fingers = 3
        #expect(rule.configuration == expected)
        #expect(rule.configuration.devices.isEmpty)
        // The top level is untouched by the section's overrides.
        #expect(configuration.coast.decelerationRate == 0.998)
        #expect(configuration.touchpad.fingers == 2)
        #expect(configuration.coast.boost == false)
    }

    @Test func idsAsHexStringsAndRulesInFileOrder() throws {
        let configuration = try #require(parsed("""
            [[device]]
            vendor = "06cb"
            product = "0x00A7"
            enabled = false

            [[device]]
            name = "touchscreen"
            [device.touchscreen]
            enabled = true
            fingers = 2
            """))
        #expect(configuration.devices.map(\.vendor) == [0x06cb, nil])
        #expect(configuration.devices.map(\.product) == [0x00a7, nil])
        #expect(configuration.devices.map(\.enabled) == [false, true])
        #expect(configuration.devices.map(\.name) == [nil, "touchscreen"])
        #expect(configuration.devices[0].configuration == .defaults)
        #expect(configuration.devices[1].configuration.touchscreen.enabled)
        #expect(configuration.devices[1].configuration.touchscreen.fingers == 2)
    }

    /// TOML lets top-level tables follow the device sections; those still come first.
    @Test func topLevelSettingsWrittenAfterTheSectionsStillApplyToThem() throws {
        let configuration = try #require(parsed("""
            [[device]]
            name = "ELAN"
            [device.scroll]
            natural = true

            [scroll]
            speed = 40
            """))
        #expect(configuration.scroll.speed == 40)
        #expect(configuration.devices.first?.configuration.scroll.speed == 40)
        #expect(configuration.devices.first?.configuration.scroll.natural == .on)
        #expect(configuration.scroll.natural == .auto)
    }

    @Test func inlineTablesAndDottedKeysWork() throws {
        let configuration = try #require(parsed("""
            [[device]]
            name = "ALPS"
            coast = { boost = false, tick_rate = 60 }
            touchpad.fingers = 4
            """))
        let rule = try #require(configuration.devices.first)
        #expect(rule.configuration.coast.boost == false)
        #expect(rule.configuration.coast.tickRate == 60)
        #expect(rule.configuration.touchpad.fingers == 4)
    }

    @Test func keysInsideASectionAreCheckedLikeTopLevelOnesAndNamedByNumber() {
        let text = """
            [[device]]
            name = "first"

            [[device]]
            name = "second"
            [device.coast]
            deceleration_rate = 1.5
            tick_rate = "often"
            [device.touchpad]
            fingers = 9
            """
        #expect(problems(text) == [
            "flickd.toml:7: device[2].coast.deceleration_rate = 1.5 is out of range (0.9 <= rate <= 0.9999); 0.998 is the default",
            "flickd.toml:8: device[2].coast.tick_rate = \"often\" has the wrong type: expected a number (10 <= rate <= 1000); 120 is the default",
            "flickd.toml:10: device[2].touchpad.fingers = 9 is out of range (2 <= fingers <= 4); 2 is the default",
        ])
    }

    /// The same messages as at the top level, for every ranged key, with the section's number.
    @Test(arguments: ConfigurationLoader.keys.filter { $0.range != nil })
    func everyRangedKeyIsRangedInsideASectionToo(key: ConfigurationKey) {
        let range = key.range!
        let step = key.kind == .integer ? 1.0 : max(range.upperBound - range.lowerBound, 1) / 1000
        let value = range.upperBound + step
        let written = key.kind == .integer ? String(Int(value)) : ConfigurationKey.format(value)
        let top = problems("[\(key.section)]\n\(key.key) = \(written)\n")
        let inDevice = problems("[[device]]\nname = \"pad\"\n[device.\(key.section)]\n\(key.key) = \(written)\n")
        #expect(top?.count == 1 && inDevice?.count == 1, "\(String(describing: top)) / \(String(describing: inDevice))")
        let topPrefix = "flickd.toml:2: \(key.name)"
        let expected = top?.first.map { "flickd.toml:4: device[1].\(key.name)" + $0.dropFirst(topPrefix.count) }
        #expect(top?.first?.hasPrefix(topPrefix) == true)
        #expect(inDevice?.first == expected)
    }

    @Test func unknownKeysInASectionSuggestTheNearestName() {
        #expect(problems("[[device]]\nname = \"pad\"\nfingers = 3\n") == [
            "flickd.toml:3: unknown key device[1].fingers; did you mean device[1].touchpad.fingers?",
        ])
        #expect(problems("[[device]]\nvendr = 0x06cb\n") == [
            "flickd.toml:1: device[1] names no device, so it would apply to all of them: give it a name (part of the device's name), a vendor or a product",
            "flickd.toml:2: unknown key device[1].vendr; did you mean device[1].vendor?",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[device.coast]\nmax_sped = 3000\n") == [
            "flickd.toml:4: unknown key device[1].coast.max_sped; did you mean device[1].coast.max_speed?",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[device.caost]\nboost = true\n") == [
            "flickd.toml:3: unknown section [device.caost] in device[1]; did you mean [device.coast]?; the sections are [device.scroll], [device.coast], [device.velocity], [device.touchpad], [device.touchscreen]",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\nwobble = 1\n") == [
            "flickd.toml:3: unknown key device[1].wobble; a [[device]] section has name, vendor, product, enabled, resolution and the sections scroll, coast, velocity, touchpad, touchscreen",
        ])
        #expect(problems("[devices]\nname = \"pad\"\n")?.first?.hasPrefix("flickd.toml:1: unknown section [devices]; did you mean [[device]]?") == true)
    }

    @Test func matchKeysAreChecked() {
        #expect(problems("[[device]]\nenabled = false\n") == [
            "flickd.toml:1: device[1] names no device, so it would apply to all of them: give it a name (part of the device's name), a vendor or a product",
        ])
        #expect(problems("[[device]]\nname = \"\"\n") == [
            "flickd.toml:2: device[1].name is empty, which every device name contains: write part of the device's name (flickd devices lists the names)",
        ])
        #expect(problems("[[device]]\nname = 5\n") == [
            "flickd.toml:2: device[1].name = 5 has the wrong type: expected a string, part of the device's name (flickd devices lists the names)",
        ])
        let expectedID = "a 16-bit id, written 0x06cb or \"06cb\" (hexadecimal, as lsusb and /proc/bus/input/devices show it)"
        #expect(problems("[[device]]\nvendor = 0x10000\n") == [
            "flickd.toml:2: device[1].vendor = 65536 is out of range (0 <= id <= 0xffff): expected \(expectedID)",
        ])
        #expect(problems("[[device]]\nvendor = \"06cg\"\n") == ["flickd.toml:2: device[1].vendor = \"06cg\" is not \(expectedID)"])
        #expect(problems("[[device]]\nproduct = \"0x12345\"\n") == ["flickd.toml:2: device[1].product = \"0x12345\" is not \(expectedID)"])
        #expect(problems("[[device]]\nproduct = true\n") == ["flickd.toml:2: device[1].product = true has the wrong type: expected \(expectedID)"])
        #expect(problems("[[device]]\nname = \"pad\"\nenabled = \"no\"\n") == [
            "flickd.toml:3: device[1].enabled = \"no\" has the wrong type: expected true or false; true is the default",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\nresolution = 0\n") == [
            "flickd.toml:3: device[1].resolution = 0 is out of range (1 <= resolution <= 1000); without it flickd uses the resolution the device reports (or an estimate)",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\nresolution = \"30\"\n") == [
            "flickd.toml:3: device[1].resolution = \"30\" has the wrong type: expected a number of units per mm (1 <= resolution <= 1000); without it flickd uses the resolution the device reports (or an estimate)",
        ])
        #expect(parsed("[[device]]\nname = \"pad\"\nresolution = 12.5\n")?.devices.first?.resolution == 12.5)
    }

    @Test func sectionsMustBeAnArrayOfTables() {
        #expect(problems("[device]\nname = \"pad\"\n") == [
            "flickd.toml:1: [device] needs two brackets: write [[device]], one such section per rule",
        ])
        #expect(problems("device = 3\n") == [
            "flickd.toml:1: device = 3 should be a list of sections: write [[device]] and its keys below it",
        ])
        #expect(problems("device = [1]\n") == [
            "flickd.toml:1: device[1] = 1 should be a table: write [[device]] and its keys below it",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\ncoast = 5\n") == [
            "flickd.toml:3: device[1].coast = 5 should be a table: write [device.coast] and its keys below it",
        ])
    }

    @Test func speedsMustStayOrderedInsideASection() {
        #expect(problems("[[device]]\nname = \"pad\"\n[device.coast]\nmin_speed = 2000\n") == [
            "flickd.toml:4: device[1].coast.min_speed = 2000 must be less than device[1].coast.max_speed = 1500: no release could coast",
        ])
        // A top-level problem is reported once, at the top level, not again for each section.
        #expect(problems("[coast]\nmin_speed = 2000\n[[device]]\nname = \"pad\"\n")?.count == 1)
        // A section may fix what it needs: raising max_speed for one pad only.
        #expect(parsed("[coast]\nmin_speed = 100\n[[device]]\nname = \"pad\"\n[device.coast]\nmax_speed = 3000\n")?
            .devices.first?.configuration.coast.maxSpeed == 3000)
    }

    /// config/flickd.toml documents `[[device]]` with a commented-out example that parses.
    @Test func theShippedExampleSectionParses() throws {
        let text = try TextFile.read(shippedConfigPath)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "# [[device]]"), "no commented-out [[device]] example")
        let example = lines[start...].map { $0.hasPrefix("# ") ? String($0.dropFirst(2)) : $0 }.joined(separator: "\n")
        let configuration = try #require(parsed(example))
        let rule = try #require(configuration.devices.first)
        #expect(configuration.devices.count == 1)
        #expect(rule.name == "Synaptics" && rule.vendor == 0x06cb && rule.resolution == 30)
        #expect(rule.configuration.coast.decelerationRate == 0.99)
        #expect(rule.configuration.touchpad.fingers == 3)
        for key in ConfigurationLoader.deviceKeys {
            #expect(lines[..<start].contains { $0.hasPrefix("#   \(key.name) ") }, "[[device]] key \(key.name) is not documented")
        }
    }
}

/// Where the parser says each key was written (`TOMLDocument.lines`), as the messages use it.
@Suite struct KeyLineTests {
    @Test func sectionsOfAnArrayOfTablesAreNumbered() throws {
        let document = try TOMLDocument(text: """
            [coast]
            boost = true
            [[device]]
            name = "a"
            [device.coast]
            boost = false
            [[device]]
            name = "b"
            [device.touchpad]
            fingers = 3
            """)
        #expect(document.line(of: "coast.boost") == 2)
        #expect(document.line(of: "device") == 3)
        #expect(document.line(of: "device[1].name") == 4)
        #expect(document.line(of: "device[1].coast") == 5)
        #expect(document.line(of: "device[1].coast.boost") == 6)
        #expect(document.line(of: "device[2]") == 7)
        #expect(document.line(of: "device[2].name") == 8)
        #expect(document.line(of: "device[2].touchpad.fingers") == 10)
        #expect(document.line(of: "device[2].coast.boost") == 7, "not written: the section's header")
        #expect(document.line(of: "scroll.speed") == nil, "nothing of it written")
    }

    @Test func anInlineArrayGivesEachKeyItsOwnLine() throws {
        let document = try TOMLDocument(text: "\ndevice = [{ name = 5 },\n  { name = 6 }]\n")
        #expect(document.line(of: "device[1].name") == 2)
        #expect(document.line(of: "device[2].name") == 3)
    }

    /// Text inside a multi-line string is not a header; a key keeps its line wherever its
    /// value goes on.
    @Test func keysAreFoundWhereTheParserFoundThem() throws {
        let document = try TOMLDocument(text: #"""
            name = """
            [coast]
            boost = 1
            """
            touchpad.fingers = [
              2,
              3]
            coast = { boost = false, tick_rate = 60 }
            """#)
        #expect(document.line(of: "name") == 1)
        #expect(document.line(of: "touchpad.fingers") == 5)
        #expect(document.line(of: "touchpad.fingers[2]") == 7)
        #expect(document.line(of: "coast") == 8)
        #expect(document.line(of: "coast.tick_rate") == 8)
        #expect(document.root["coast"]?.table?["boost"]?.bool == false)
    }
}

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

    /// A dotted key nests a table per part; 2000 parts are walked without recursion.
    @Test func aVeryLongDottedKeyIsWalkedWithoutRecursion() throws {
        let parts = 2000
        let document = try TOMLDocument(text: "\n" + Array(repeating: "a", count: parts).joined(separator: ".") + " = 1\n")
        #expect(document.line(of: Array(repeating: "a", count: parts).joined(separator: ".")) == 2)
        var value = document.root["a"]
        for _ in 1..<parts { value = value?.table?["a"] }
        #expect(value?.int == 1)
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
}

/// What a running daemon reads: the file picked again on each reload, and a file gone or
/// emptied keeping the running settings.
@Suite struct ConfigurationSourceTests {
    @Test func noFileMeansTheDefaultsUntilOneIsCreated() throws {
        let directory = ConfigScratchDirectory()
        let (user, system) = (directory.file("user.toml"), directory.file("system.toml"))
        let source = ConfigurationSource(explicitPath: nil, searchPath: [user, system])
        #expect(source.watchedPaths == [user, system])
        #expect(try source.load() == .defaults)
        #expect(source.path == nil)
        #expect(try source.reload() == .defaults)

        directory.write("system.toml", "[scroll]\nspeed = 30\n")
        #expect(try source.reload().scroll.speed == 30)
        #expect(source.path == system)
        directory.write("user.toml", "[scroll]\nspeed = 40\n")
        #expect(try source.reload().scroll.speed == 40, "the user's file comes first")
        #expect(source.path == user)
    }

    @Test func aFileGoneKeepsTheRunningSettingsUntilItIsBack() throws {
        let directory = ConfigScratchDirectory()
        let (user, system) = (directory.file("user.toml"), directory.file("system.toml"))
        directory.write("user.toml", "[scroll]\nspeed = 40\n")
        directory.write("system.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(explicitPath: nil, searchPath: [user, system])
        #expect(try source.load().scroll.speed == 40)

        directory.remove("user.toml")
        let error = try #require(throws: ConfigurationError.self) { try source.reload() }
        #expect(error.description == "\(user): the file is gone (deleted, or renamed away by an editor); the running settings stay until it is back (restart flickd to run without it)")
        #expect(source.path == user, "still the file in use: not /etc's, not the defaults")

        directory.write("user.toml", "[scroll]\nspeed = 45\n")
        #expect(try source.reload().scroll.speed == 45)
    }

    @Test func anEmptyFileIsTheDefaultsAtStartButKeepsTheSettingsOnReload() throws {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "")
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        #expect(try source.load() == .defaults)

        directory.write("config.toml", "[scroll]\nspeed = 40\n")
        #expect(try source.reload().scroll.speed == 40)
        directory.write("config.toml", " \n\t\n")
        let error = try #require(throws: ConfigurationError.self) { try source.reload() }
        #expect(error.problems.first?.message.hasPrefix("the file is empty (perhaps half-written); the running settings stay") == true)
        directory.write("config.toml", "# the defaults\n")
        #expect(try source.reload() == .defaults, "a comment says the defaults are meant")
    }

    @Test func problemsAndAnExplicitFileThatIsMissing() throws {
        let directory = ConfigScratchDirectory()
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        #expect(source.watchedPaths == [directory.file("config.toml")])
        #expect(throws: ConfigurationError.self) { try source.load() }
        directory.write("config.toml", "[coast]\ntick_rate = 5\n")
        let error = try #require(throws: ConfigurationError.self) { try source.reload() }
        #expect(error.description == "\(directory.file("config.toml")):2: coast.tick_rate = 5 is out of range (10 <= rate <= 1000); 120 is the default")
    }
}

@Suite struct StopSectionTests {
    @Test func stopKeysReadAtTheTopLevel() throws {
        let c = try ConfigurationLoader.parse(text: "[stop]\nkey = false\nbutton = false\n", path: "flickd.toml")
        #expect(c.stop.key == false && c.stop.button == false && c.stop.touch == true)
    }

    @Test func outputModeIsReadAndGlobal() throws {
        let wheel = try ConfigurationLoader.parse(text: "[output]\nmode = \"wheel\"\n", path: "flickd.toml")
        #expect(wheel.output.mode == .wheel)
        #expect(Configuration.defaults.output.mode == .touchpad)
        let text = "[[device]]\nname = \"pad\"\n[device.output]\nmode = \"wheel\"\n"
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.parse(text: text, path: "flickd.toml") }
    }

    @Test func stopIsNotADeviceSetting() {
        let text = "[[device]]\nname = \"pad\"\n[device.stop]\nkey = false\n"
        do {
            _ = try ConfigurationLoader.parse(text: text, path: "flickd.toml")
            Issue.record("[device.stop] was accepted")
        } catch let error as ConfigurationError {
            #expect(error.problems.map(\.description) == [
                "flickd.toml:3: unknown section [device.stop] in device[1]; [stop] applies to the whole daemon and goes at the top level; the sections are [device.scroll], [device.coast], [device.velocity], [device.touchpad], [device.touchscreen]",
            ])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
