import Testing
import FlickCore
@testable import FlickLinux

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

    /// A key left out of a section takes the top-level value: a rejected one says that value
    /// where the top level changed it, and the default where it did not.
    @Test func aRejectedKeyInASectionNamesWhatLeavingItOutGives() {
        #expect(problems("[coast]\ndeceleration_rate = 0.99\n[[device]]\nname = \"pad\"\n[device.coast]\ndeceleration_rate = 2\n") == [
            "flickd.toml:6: device[1].coast.deceleration_rate = 2 is out of range (0.9 <= rate <= 0.9999); 0.99 is the top-level value, which applies without it",
        ])
        #expect(problems("[output]\nmode = \"wheel\"\n[velocity]\nestimator = \"lookback\"\n[[device]]\nname = \"pad\"\n[device.velocity]\nestimator = \"lsq\"\n") == [
            "flickd.toml:8: device[1].velocity.estimator = \"lsq\" is not one of \"lsq2\", \"lookback\"; did you mean \"lsq2\"?; \"lookback\" is the top-level value, which applies without it",
        ])
        #expect(problems("[coast]\nboost = true\n[[device]]\nname = \"pad\"\n[device.coast]\nboost = 1\n") == [
            "flickd.toml:6: device[1].coast.boost = 1 has the wrong type: expected true or false; true is the default",
        ])
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

    /// A misspelt `[[device]]` header is an unknown section too, not an unknown key.
    @Test func aMisspeltArrayOfTablesHeaderIsAnUnknownSection() {
        for header in ["devices", "devce", "Device"] {
            #expect(problems("[[\(header)]]\nname = \"pad\"\n") == [
                "flickd.toml:1: unknown section [[\(header)]]; did you mean [[device]]?; the sections are [scroll], [coast], [velocity], [touchpad], [touchscreen], [stop], [output] and [[device]]",
            ])
        }
        #expect(problems("[[scrol]]\nspeed = 40\n")?.first?.hasPrefix("flickd.toml:1: unknown section [[scrol]]; did you mean [scroll]?") == true)
        // A list of numbers is no section.
        #expect(problems("devices = [1]\n") == ["flickd.toml:1: unknown key devices"])
    }

    /// `devices = [{...}]` is a key holding an inline array of tables: no `[[devices]]` header
    /// was written, so the message names the key on its line and what it holds, and suggests a
    /// near section the way it is written.
    @Test func anInlineArrayOfTablesUnderAnUnknownNameIsNamedAsWritten() {
        let sections = "; the sections are [scroll], [coast], [velocity], [touchpad], [touchscreen], [stop], [output] and [[device]]"
        #expect(problems("devices = [{ name = \"pad\", enabled = false }]\n") == [
            "flickd.toml:1: unknown key devices = [{...}], an inline array of tables; did you mean [[device]] sections?\(sections)",
        ])
        #expect(problems("# pads\ndevcie = [\n  { name = \"a\" },\n  { name = \"b\" },\n]\n") == [
            "flickd.toml:2: unknown key devcie = [{...}], an inline array of tables; did you mean [[device]] sections?\(sections)",
        ])
        #expect(problems("\"devices\" = [{ name = \"pad\" }]\n") == [
            "flickd.toml:1: unknown key devices = [{...}], an inline array of tables; did you mean [[device]] sections?\(sections)",
        ])
        #expect(problems("scrol = [{ speed = 40 }]\n") == [
            "flickd.toml:1: unknown key scrol = [{...}], an inline array of tables; did you mean [scroll]?\(sections)",
        ])
        #expect(problems("keyboard = [{ repeat = 1 }]\n") == [
            "flickd.toml:1: unknown key keyboard = [{...}], an inline array of tables\(sections)",
        ])
        // In a device section, the same, with the section's tables.
        let deviceTables = "; the sections are [device.scroll], [device.coast], [device.velocity], [device.touchpad], [device.touchscreen]"
        #expect(problems("[[device]]\nname = \"pad\"\ncaost = [{ boost = true }]\n") == [
            "flickd.toml:3: unknown key device[1].caost = [{...}], an inline array of tables; did you mean [device.coast]?\(deviceTables)",
        ])
        #expect(problems("device = [{ name = \"pad\", stop = [{ key = false }] }]\n") == [
            "flickd.toml:1: unknown key device[1].stop = [{...}], an inline array of tables; [stop] applies to the whole daemon and goes at the top level\(deviceTables)",
        ])
    }

    /// To TOML, `device = [{...}]` is the same data as `[[device]]` sections, and flickd reads
    /// it so: the same rules, and problems named by the section's number on their own line.
    @Test func theDeviceSectionsWrittenInlineAreTheSameRules() throws {
        let inline = try #require(parsed("""
            device = [
              { name = "Synaptics", vendor = 0x06cb, resolution = 30, coast = { deceleration_rate = "fast" }, touchpad = { fingers = 3 } },
              { product = "0007", enabled = false },
            ]
            [coast]
            boost = false
            """))
        let headers = try #require(parsed("""
            [coast]
            boost = false
            [[device]]
            name = "Synaptics"
            vendor = 0x06cb
            resolution = 30
            [device.coast]
            deceleration_rate = "fast"
            [device.touchpad]
            fingers = 3
            [[device]]
            product = "0007"
            enabled = false
            """))
        #expect(inline.devices.count == 2)
        #expect(inline == headers)
        #expect(problems("device = [\n  { name = \"a\" },\n  { name = \"b\", resolution = 0 },\n]\n") == [
            "flickd.toml:3: device[2].resolution = 0 is out of range (1 <= resolution <= 1000); without it flickd uses the resolution the device reports (or an estimate)",
        ])
        // TOML lets no [[device]] header add to the inline array: the syntax error says where it is.
        #expect(problems("device = [{ name = \"a\" }]\n\n[[device]]\nname = \"b\"\n") == [
            "flickd.toml:3:1: TOML syntax error: Error while parsing table header: cannot redefine existing array 'device' as array-of-tables; "
                + "device = [...] on line 1 holds the device sections already: write each one there, or all as [[device]] sections",
        ])
        // Text in a multi-line string is no key: the array is on line 4, not 2.
        #expect(problems("notes = \"\"\"\ndevice = [\n\"\"\"\ndevice = [{ name = \"a\" }]\n[[device]]\n")?.first?
            .hasSuffix("device = [...] on line 4 holds the device sections already: write each one there, or all as [[device]] sections") == true)
        // `[device]` after `[[device]]` headers: no inline array to point at.
        #expect(problems("[[device]]\nname = \"a\"\n[device]\n")?.first?
            .hasSuffix("; did you mean [[device]]?; [device] needs two brackets, one such section per rule") == true)
    }

    /// A misspelt header in or after a device section, or a table of one with its brackets or
    /// its section's name wrong, gets a did-you-mean on its own line.
    @Test func misspeltHeadersInAndAfterADeviceSectionSuggestTheNearestOne() {
        let sections = "; the sections are [scroll], [coast], [velocity], [touchpad], [touchscreen], [stop], [output] and [[device]]"
        let deviceTables = "; the sections are [device.scroll], [device.coast], [device.velocity], [device.touchpad], [device.touchscreen]"
        // Two brackets on a misspelt table of the section: a section, as with one.
        #expect(problems("[[device]]\nname = \"pad\"\n[[device.caost]]\nboost = true\n") == [
            "flickd.toml:3: unknown section [[device.caost]] in device[1]; did you mean [device.coast]?\(deviceTables)",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[[ device . touchpda ]]\nfingers = 3\n") == [
            "flickd.toml:3: unknown section [[device.touchpda]] in device[1]; did you mean [device.touchpad]?\(deviceTables)",
        ])
        #expect(problems("[[device]]\r\nname = \"pad\"\r\n[[device.caost]]  # the coast\r\nboost = true\r\n") == [
            "flickd.toml:3: unknown section [[device.caost]] in device[1]; did you mean [device.coast]?\(deviceTables)",
        ], "a file with Windows line ends")
        // Near a section that applies to the whole daemon.
        #expect(problems("[[device]]\nname = \"pad\"\n[device.stpo]\nkey = false\n") == [
            "flickd.toml:3: unknown section [device.stpo] in device[1]; did you mean [stop]?; it applies to the whole daemon and goes at the top level\(deviceTables)",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[[device.outptu]]\nmode = \"wheel\"\n") == [
            "flickd.toml:3: unknown section [[device.outptu]] in device[1]; did you mean [output]?; it applies to the whole daemon and goes at the top level\(deviceTables)",
        ])
        // The section's name misspelt in a table's header: that table is meant, not [[device]].
        #expect(problems("[[device]]\nname = \"pad\"\n[devcie.coast]\nboost = true\n") == [
            "flickd.toml:3: unknown section [devcie.coast]; did you mean [device.coast]?\(sections)",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[[devcie.caost]]\nboost = true\n") == [
            "flickd.toml:3: unknown section [[devcie.caost]]; did you mean [device.coast]?\(sections)",
        ])
        // One pair of brackets after a device section: another section is meant.
        #expect(problems("[[device]]\nname = \"pad\"\n\n[ device ]\nname = \"screen\"\n") == [
            "flickd.toml:4:1: TOML syntax error: Error while parsing table header: cannot redefine existing array 'device' as table; "
                + "did you mean [[device]]?; [device] needs two brackets, one such section per rule",
        ])
        // A table of a device section with no section above it: not [device], which was not written.
        #expect(problems("[device.coast]\nboost = false\n") == [
            "flickd.toml:1: [device.coast] has no [[device]] section above it: write [[device]] with a name, vendor or product first, then [device.coast]",
        ])
        #expect(problems("# pad\n[[device.caost]]\nboost = false\n") == [
            "flickd.toml:2: [[device.caost]] has no [[device]] section above it: write [[device]] with a name, vendor or product first, then [device.coast]",
        ])
    }

    /// A `[[device]]` after what made `device` one table (toml++: "cannot redefine existing
    /// table 'device' as array-of-tables", with no way out): the message says what that was,
    /// on which line, and how to write it.
    @Test func aDeviceSectionAfterWhatMadeDeviceOneTableSaysWhatAndWhere() {
        let error = "TOML syntax error: Error while parsing table header: cannot redefine existing table 'device' as array-of-tables"
        // A table of a section written above its section.
        #expect(problems("[device.coast]\nboost = false\n[[device]]\nname = \"b\"\n") == [
            "flickd.toml:3:1: \(error); [device.coast] on line 1 comes before any [[device]]: move it below the [[device]] it is for",
        ])
        #expect(problems("\u{FEFF}# pads\n[ device . touchpad ]\nfingers = 3\n\n[[device]]\nname = \"b\"\n") == [
            "flickd.toml:5:1: \(error); [device.touchpad] on line 2 comes before any [[device]]: move it below the [[device]] it is for",
        ], "after a byte order mark, the header written with blanks")
        // One pair of brackets, then two.
        #expect(problems("[device]\nname = \"a\"\n[[device]]\nname = \"b\"\n") == [
            "flickd.toml:3:1: \(error); [device] on line 1 needs two brackets: write [[device]] there, one such section per rule",
        ])
        // A dotted key, an inline table: no header was written.
        #expect(problems("device.name = \"a\"\n[[device]]\nname = \"b\"\n") == [
            "flickd.toml:2:1: \(error); device.name on line 1 is a dotted key, which makes device one table: write name = ... below a [[device]] instead",
        ])
        #expect(problems("# screen\ndevice = { name = \"a\" }\n[[device]]\nname = \"b\"\n") == [
            "flickd.toml:3:1: \(error); device = {...} on line 2 is an inline table, which makes device one table: write it as a [[device]] section too",
        ])
    }

    /// `device.name = "pad"` and `device = { name = "pad" }` were told "[device] needs two
    /// brackets", though no [device] was written: the message names what was.
    @Test func aDottedKeyOrAnInlineTableForDeviceIsNamedAsWritten() {
        let list = "but device sections are a list: write [[device]]"
        #expect(problems("device.name = \"pad\"\n") == [
            "flickd.toml:1: device.name is a dotted key, which makes device one table, \(list) and name = ... below it, one such section per rule, or device = [{ name = ... }]",
        ])
        #expect(problems("[coast]\nboost = true\n\n[scroll]\nspeed = 2\n") == nil)
        #expect(problems("# pad\ndevice . coast . boost = false\n") == [
            "flickd.toml:2: device.coast.boost is a dotted key, which makes device one table, \(list) and coast.boost = ... below it, one such section per rule, or device = [{ coast.boost = ... }]",
        ])
        #expect(problems("device = { name = \"pad\" }\n") == [
            "flickd.toml:1: device = {...} is an inline table, \(list) and its keys below it, one such section per rule, or device = [{...}]",
        ])
        // Both ways out parse.
        #expect(parsed("[[device]]\nname = \"pad\"\n")?.devices.count == 1)
        #expect(parsed("device = [{ name = \"pad\" }]\n")?.devices.count == 1)
    }

    /// A key of the device section written as its table, or a dotted key under a misspelt
    /// section: the message names the key and how it is written.
    @Test func aDeviceKeyWrittenAsATableOrADottedKeyUnderAMisspeltSectionIsNamedAsWritten() {
        let sections = "; the sections are [scroll], [coast], [velocity], [touchpad], [touchscreen], [stop], [output] and [[device]]"
        let deviceTables = "; the sections are [device.scroll], [device.coast], [device.velocity], [device.touchpad], [device.touchscreen]"
        #expect(problems("[[device]]\nname = \"pad\"\n[device.nmae]\nx = 1\n") == [
            "flickd.toml:3: unknown section [device.nmae] in device[1]; did you mean the key name?; it is a key of the [[device]] section, written name = \"...\" under it\(deviceTables)",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[[device.vendr]]\nx = 1\n") == [
            "flickd.toml:3: unknown section [[device.vendr]] in device[1]; did you mean the key vendor?; it is a key of the [[device]] section, written vendor = 0x06cb under it\(deviceTables)",
        ])
        #expect(problems("[[device]]\nvendor = 0x06cb\n[device.name]\nx = 1\n") == [
            "flickd.toml:3: [device.name] in device[1] is a table, but name is a key of the [[device]] section: write name = \"...\" under it",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[device.name]\nx = 1\n") == [
            "flickd.toml:3:1: TOML syntax error: Error while parsing table header: cannot redefine existing string 'device.name' as table; "
                + "name is a key of the [[device]] section, not a table: write name = \"...\" under it",
        ])
        // Sections do not nest.
        let nested = "; did you mean [[device]]?; device sections do not nest, each starts with its own [[device]]"
        #expect(problems("[[device]]\nname = \"pad\"\n[[device.device]]\nname = \"screen\"\n") == [
            "flickd.toml:3: unknown section [[device.device]] in device[1]\(nested)\(deviceTables)",
        ])
        #expect(problems("[[device.device]]\nname = \"screen\"\n") == [
            "flickd.toml:1: [[device.device]] has no [[device]] section above it: write [[device]] with a name, vendor or product first\(nested)",
        ])
        // A dotted key under a misspelt section: the key as written, on its line.
        #expect(problems("# pad\ndevcie.coast.boost = true\n") == [
            "flickd.toml:2: unknown key devcie.coast.boost; did you mean [[device]] sections?\(sections)",
        ])
        #expect(problems("[coast]\nboost = true\n[[device]]\nname = \"pad\"\ncaost . boost = false\n") == [
            "flickd.toml:5: unknown key device[1].caost.boost; did you mean [device.coast]?\(deviceTables)",
        ])
        // An inline table is no dotted key: its section, as before.
        #expect(problems("devcie = { coast = { boost = true } }\n") == [
            "flickd.toml:1: unknown section [devcie]; did you mean [[device]]?\(sections)",
        ])
    }

    /// A device section may not hold [stop] or [output]: its did-you-mean never names their
    /// keys (following it would be refused in turn), and one that fits is said to go at the top.
    @Test func unknownKeysInASectionSuggestOnlyKeysASectionMayHold() throws {
        #expect(problems("[[device]]\nname = \"pad\"\nmode = \"wheel\"\n") == [
            "flickd.toml:3: unknown key device[1].mode; output.mode applies to the whole daemon and goes at the top level, under [output]",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\n[device.touchpad]\nbutton = false\n") == [
            "flickd.toml:4: unknown key device[1].touchpad.button; stop.button applies to the whole daemon and goes at the top level, under [stop]",
        ])
        for key in ConfigurationLoader.keys where ConfigurationLoader.daemonSections.contains(key.section) {
            let messages = try #require(problems("[[device]]\nname = \"pad\"\n\(key.key) = 1\n"), "\(key.key) in a device section")
            #expect(!messages.isEmpty)
            for message in messages {
                #expect(!message.contains("did you mean device[1].\(key.section)."), "\(message)")
            }
        }
        // At the top level they are suggested as before.
        #expect(problems("[output]\nmdoe = \"wheel\"\n") == ["flickd.toml:2: unknown key output.mdoe; did you mean output.mode?"])
    }

    /// Ids are hexadecimal, as `flickd devices` shows them: `vendor = 1234` copied from it was
    /// taken as 0x04d2 and matched nothing, with check-config saying OK. Only an integer written
    /// 0x... is an id.
    @Test func anIdNotWrittenInHexadecimalIsRefused() {
        let refused = "is written in decimal, but ids are hexadecimal, as `flickd devices` shows them"
        #expect(problems("[[device]]\nvendor = 1234\n") == [
            "flickd.toml:2: device[1].vendor = 1234 \(refused): write 0x1234 or \"1234\" (or 0x04d2, if you meant the decimal 1234)",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\nproduct = 7\n") == [
            "flickd.toml:3: device[1].product = 7 \(refused): write 0x7 or \"7\"",
        ])
        #expect(problems("[[device]]\nvendor = 0\n") == ["flickd.toml:2: device[1].vendor = 0 \(refused): write 0x0 or \"0\""])
        #expect(problems("[[device]]\nvendor = 12_345\n") == ["flickd.toml:2: device[1].vendor = 12345 \(refused): write 0x3039, the same id"])
        #expect(problems("[[device]]\nvendor = 0o17\n") == [
            "flickd.toml:2: device[1].vendor = 0o17 is written in octal, but ids are hexadecimal, as `flickd devices` shows them: write 0x000f, the same id",
        ])
        #expect(problems("[[device]]\nproduct = 0b101\n") == [
            "flickd.toml:2: device[1].product = 0b101 is written in binary, but ids are hexadecimal, as `flickd devices` shows them: write 0x0005, the same id",
        ])
        #expect(problems("device = [{ name = \"a\" },\n  { vendor = 0x06cb, product = 1234 }]\n") == [
            "flickd.toml:2: device[2].product = 1234 \(refused): write 0x1234 or \"1234\" (or 0x04d2, if you meant the decimal 1234)",
        ])
        let configuration = parsed("[[device]]\nvendor = 0x1234\nproduct = 0x0\n[[device]]\nvendor = \"1234\"\n")
        #expect(configuration?.devices.map(\.vendor) == [0x1234, 0x1234])
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
        let expectedID = "a 16-bit id, written 0x06cb or \"06cb\" (hexadecimal, as `flickd devices` and /proc/bus/input/devices show it)"
        #expect(problems("[[device]]\nvendor = 0x10000\n") == [
            "flickd.toml:2: device[1].vendor = 65536 (0x10000) is out of range (0 <= id <= 0xffff): expected \(expectedID)",
        ])
        #expect(problems("[[device]]\nproduct = -1\n") == [
            "flickd.toml:2: device[1].product = -1 (-0x1) is out of range (0 <= id <= 0xffff): expected \(expectedID)",
        ])
        #expect(problems("[[device]]\nvendor = \"06cg\"\n") == ["flickd.toml:2: device[1].vendor = \"06cg\" is not \(expectedID)"])
        #expect(problems("[[device]]\nproduct = \"0x12345\"\n") == ["flickd.toml:2: device[1].product = \"0x12345\" is not \(expectedID)"])
        // A sign is no hex digit, though Swift's integer parser takes one.
        #expect(problems("[[device]]\nproduct = \"+1\"\n") == ["flickd.toml:2: device[1].product = \"+1\" is not \(expectedID)"])
        #expect(problems("[[device]]\nvendor = \"0x-1\"\n") == ["flickd.toml:2: device[1].vendor = \"0x-1\" is not \(expectedID)"])
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
        // Two brackets where one belongs: the header written, not `coast = [...]`.
        #expect(problems("[[device]]\nname = \"pad\"\n[[device.coast]]\nboost = false\n") == [
            "flickd.toml:3: [[device.coast]] in device[1] needs one pair of brackets: write [device.coast] and its keys below it",
        ])
        #expect(problems("[[device]]\nname = \"pad\"\ncoast = [{ boost = false }]\n") == [
            "flickd.toml:3: device[1].coast = [...] should be a table: write [device.coast] and its keys below it",
        ], "written inline, as before")
    }

    @Test func speedsMustStayOrderedInsideASection() {
        #expect(problems("[[device]]\nname = \"pad\"\n[device.coast]\nmin_speed = 2000\n") == [
            "flickd.toml:4: device[1].coast.min_speed = 2000 must be less than device[1].coast.max_speed = 1500: every coast would start at max_speed, however fast the flick",
        ])
        // A top-level problem is reported once, at the top level, not again for each section.
        #expect(problems("[coast]\nmin_speed = 2000\n[[device]]\nname = \"pad\"\n")?.count == 1)
        // A section may fix what it needs: raising max_speed for one pad only.
        #expect(parsed("[coast]\nmin_speed = 100\n[[device]]\nname = \"pad\"\n[device.coast]\nmax_speed = 3000\n")?
            .devices.first?.configuration.coast.maxSpeed == 3000)
        // A refused value, the section's or the top level's it would take, is not compared.
        #expect(problems("[[device]]\nname = \"pad\"\n[device.coast]\nmin_speed = -5\nmax_speed = 40\n") == [
            "flickd.toml:4: device[1].coast.min_speed = -5 is out of range (0 <= speed <= 10000); 50 is the default",
        ])
        #expect(problems("[coast]\nmin_speed = -5\n[[device]]\nname = \"pad\"\n[device.coast]\nmax_speed = 40\n") == [
            "flickd.toml:2: coast.min_speed = -5 is out of range (0 <= speed <= 10000); 50 is the default",
        ])
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
        #expect(rule.name == "Synaptics" && rule.vendor == 0x0002 && rule.resolution == 30)
        #expect(rule.configuration.coast.decelerationRate == 0.99)
        #expect(rule.configuration.touchpad.fingers == 3)
        for key in ConfigurationLoader.deviceKeys {
            #expect(lines[..<start].contains { $0.hasPrefix("#   \(key.name) ") }, "[[device]] key \(key.name) is not documented")
        }
    }
}
