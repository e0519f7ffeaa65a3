import FlickCore
import FlickFingerStories
import FlickTestSupport
import Foundation
import Testing

/// The `flickd` binary as a user runs it: `replay`, `check-config`, `--help`.
@Suite struct CommandLineTests {
    /// A shared recording (`Fixtures.recordingsDirectory`); tests that use one need the shared samples.
    static func sharedRecording(_ file: String) -> String { Fixtures.recordingsDirectory + "/" + file }

    static func run(_ arguments: [String]) throws -> FlickdBinary.Result { try FlickdBinary.run(arguments) }

    static func temporaryFile(_ name: String, _ contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "flickd-test-\(getpid())-\(name)"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(.needsSharedRecordings)
    func replayJSONIsOneObjectPerEventThenASummary() throws {
        let config = try Self.temporaryFile("ts.toml", "[touchscreen]\nenabled = true\nfingers = 2\n")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let recording = Self.sharedRecording("EP0430M09.2-finger-scroll-down.events")
        let result = try Self.run(["replay", recording, "--config", config, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let events = objects.dropLast()
        let summary = try #require(objects.last?["summary"] as? [String: Any])
        #expect(!events.isEmpty, "the touchscreen drag coasts")
        var sums: [String: Int] = [:]
        var lastTime = -1.0
        for event in events {
            let time = try #require(event["time"] as? Double)
            let code = try #require(event["code"] as? String)
            let value = try #require(event["value"] as? Int)
            #expect(["REL_WHEEL", "REL_HWHEEL", "REL_WHEEL_HI_RES", "REL_HWHEEL_HI_RES"].contains(code))
            #expect(value != 0 && time >= lastTime)
            lastTime = time
            sums[code, default: 0] += value
        }
        let totals = try #require(summary["totals"] as? [String: Int])
        for (code, total) in totals { #expect(sums[code, default: 0] == total, "\(code)") }
        let coasts = try #require(summary["coasts"] as? [[String: Any]])
        #expect(coasts.count == 1)
        #expect((coasts.first?["release_speed_mm_s"] as? Double ?? 0) > 50)
        #expect((summary["gestures"] as? Int ?? 0) >= 1)
        #expect((sums["REL_WHEEL_HI_RES"] ?? 0) < 0, "scroll-down gesture scrolls down")
    }

    @Test(.needsSharedRecordings)
    func replayTextNamesWhyTapsDoNotCoast() throws {
        let recording = Self.sharedRecording("CyPS2_Cypress_Trackpad.three_finger_tap.events")
        let result = try Self.run(["replay", recording])
        #expect(result.status == 0)
        #expect(result.stdout.contains("no coast: 3 fingers, not a scroll"), "\(result.stdout)")
        #expect(result.stdout.contains("# totals: REL_WHEEL_HI_RES 0"))
    }

    @Test(.needsSharedRecordings)
    func truncatedRecordingIsAnErrorWithItsLine() throws {
        let text = try Fixtures.text(atPath: Self.sharedRecording("CyPS2_Cypress_Trackpad.two_finger_tap.events"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(60).joined(separator: "\n") + "\nE: 0.10"
        let path = try Self.temporaryFile("cut.events", cut)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run(["replay", path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("flickd: \(path):61: "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// An evemu recording of a pad without resolution carries no libinput quirk: the replay
    /// says its size is libinput's guess and how to set it, and a [[device]] resolution sets it.
    @Test func replaySaysWhereAGuessedSizeComesFrom() throws {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10), Vector(x: 38, y: 10))
        pad.move(by: Vector(x: 0, y: 15), over: .milliseconds(100))
        pad.lift()
        let recording = try Self.temporaryFile("elantech.events", EvemuWriter.text(description: pad.description, events: pad.sent))
        let config = try Self.temporaryFile("elantech.toml", "[[device]]\nname = \"Elantech\"\nresolution = 31\n")
        defer {
            try? FileManager.default.removeItem(atPath: recording)
            try? FileManager.default.removeItem(atPath: config)
        }
        let guessed = try Self.run(["replay", recording])
        #expect(guessed.status == 0, "\(guessed.stderr)")
        #expect(guessed.stdout.hasPrefix("""
            # ETPS/2 Elantech Touchpad: touchpad, 71.1 x 50.3 mm (size estimated: no resolution and no libinput quirk \
            in the recording: libinput's 69 x 50 mm guess; a [[device]] resolution in --config sets it)

            """), "\(guessed.stdout)")
        let set = try Self.run(["replay", recording, "--config", config])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.hasPrefix("# ETPS/2 Elantech Touchpad: touchpad, 41.3 x 22.7 mm\n"), "\(set.stdout)")
    }

    /// A `libinput record --all` file with a touchpad and a touchscreen: the touchpad is replayed,
    /// the screen is named right after the device line, and its touch changes nothing.
    @Test func replayNamesTheTouchDeviceItLeavesOut() throws {
        let alone = try Self.temporaryFile("pad.yml", LibinputRecordSamples.twoFingerScroll)
        let both = try Self.temporaryFile("pad-screen.yml", LibinputRecordSamples.withDevices(
            before: [LibinputRecordSamples.keyboard], after: [LibinputRecordSamples.touchscreen], count: 3))
        defer {
            try? FileManager.default.removeItem(atPath: alone)
            try? FileManager.default.removeItem(atPath: both)
        }
        let padOnly = try Self.run(["replay", alone])
        let result = try Self.run(["replay", both])
        #expect(padOnly.status == 0 && result.status == 0, "\(padOnly.stderr)\(result.stderr)")
        var expected = padOnly.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(expected.first?.hasPrefix("# SynPS/2 Synaptics TouchPad: touchpad, ") == true, "\(padOnly.stdout)")
        #expect(padOnly.stdout.contains("s: coast, release "), "the scroll coasts: \(padOnly.stdout)")
        #expect(!padOnly.stdout.contains("also in the recording"))
        expected.insert("# also in the recording, not replayed: ELAN Touchscreen (/dev/input/event9)", at: 1)
        #expect(result.stdout == expected.joined(separator: "\n"))
    }

    /// `--device NODE` replays that device of a file holding several, and `--json` names the
    /// device replayed.
    @Test func replayOfAChosenDeviceNamesItInJSON() throws {
        let both = try Self.temporaryFile("pad-screen-device.yml", LibinputRecordSamples.withDevices(
            before: [LibinputRecordSamples.keyboard], after: [LibinputRecordSamples.touchscreen], count: 3))
        defer { try? FileManager.default.removeItem(atPath: both) }
        func summary(_ arguments: [String]) throws -> [String: Any] {
            let result = try Self.run(["replay", both, "--json"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let last = try #require(result.stdout.split(separator: "\n").last)
            return try #require((JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])?["summary"] as? [String: Any])
        }
        let pad = try #require(try summary([])["device"] as? [String: String])
        #expect(pad == ["name": "SynPS/2 Synaptics TouchPad", "node": "/dev/input/event5"])
        let screen = try #require(try summary(["--device", "/dev/input/event9"])["device"] as? [String: String])
        #expect(screen == ["name": "ELAN Touchscreen", "node": "/dev/input/event9"])
        let text = try Self.run(["replay", both, "--device", "/dev/input/event9"])
        #expect(text.stdout.hasPrefix("# ELAN Touchscreen: touchscreen"), "\(text.stdout)")
        #expect(text.stdout.contains("# also in the recording, not replayed: SynPS/2 Synaptics TouchPad (/dev/input/event5)\n"))
        let missing = try Self.run(["replay", both, "--device", "/dev/input/event7"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "flickd: \(both):12: no device /dev/input/event7 in the recording; it lists /dev/input/event3, /dev/input/event5, /dev/input/event9\n")
    }

    @Test func missingRecordingIsAClearError() throws {
        let result = try Self.run(["replay", "/nonexistent/session.yml"])
        #expect(result.status == 1)
        #expect(result.stderr == "flickd: cannot read /nonexistent/session.yml: No such file or directory\n")
    }

    @Test func checkConfigReportsEveryProblem() throws {
        let path = try Self.temporaryFile("bad.toml", "[coast]\nmin_speed = -3\ntick_rate = 5000\n[touchpad]\nfingres = 2\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run(["check-config", path])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("\(path):2: coast.min_speed = -3") == true)
        #expect(lines.last?.contains("did you mean touchpad.fingers?") == true)
    }

    @Test func checkConfigAcceptsTheShippedFile() throws {
        let shipped = Fixtures.repositoryDirectory + "/config/flickd.toml"
        let result = try Self.run(["check-config", shipped])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("OK (every setting at its default)"))
    }

    /// `--config FILE`, as every other command takes it, is the same as the positional FILE;
    /// both at once is a usage error, whichever comes first.
    @Test func checkConfigTakesTheFileAsConfigToo() throws {
        let path = try Self.temporaryFile("option.toml", "[scroll]\nspeed = 40\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["check-config", "--config", path], ["check-config", "--config=\(path)"]] {
            let result = try Self.run(arguments)
            #expect(result.status == 0 && result.stdout == "\(path): OK (scroll.speed = 40)\n", "\(result)")
        }
        for arguments in [["check-config", path, "--config", path], ["check-config", "--config", path, "other.toml"]] {
            let both = try Self.run(arguments)
            #expect(both.status == 64 && both.stdout.isEmpty, "\(both)")
            #expect(both.stderr.hasPrefix("""
                Error: Give the file to check once: as <FILE> or as --config <FILE>, not both
                Usage: flickd check-config [<FILE>] [--config <FILE>]

                """), "\(both.stderr)")
        }
        #expect(try Self.run(["help", "check-config"]).stdout.contains("  --config <FILE>"))
    }

    /// A configuration file that cannot be read is not said to have errors: run, devices, plot
    /// and replay say they cannot use it, above the reason; a file with errors is still said to have them.
    @Test func anUnreadableConfigurationIsNotCalledOneWithErrors() throws {
        let missing = "/nonexistent-flickd-test/config.toml"
        let reason = "\(missing): cannot read the configuration file: No such file or directory (errno 2)\n"
        let run = try Self.run(["run", "--config", missing])
        #expect(run.status == 1 && run.stderr.hasSuffix("error: cannot use the configuration; nothing was started:\n" + reason), "\(run)")
        let devices = try Self.run(["devices", "--config", missing])
        #expect(devices.status == 1 && devices.stderr == "flickd: cannot use the configuration:\n" + reason, "\(devices)")
        let plot = try Self.run(["plot", "--config", missing])
        #expect(plot.status == 1 && plot.stderr == "flickd: cannot use the configuration; nothing was drawn:\n" + reason, "\(plot)")
        let recording = try Self.temporaryFile("lead.yml", LibinputRecordSamples.twoFingerScroll)
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let replay = try Self.run(["replay", recording, "--config", missing])
        #expect(replay.status == 1 && replay.stderr == "flickd: cannot use the configuration; nothing was replayed:\n" + reason, "\(replay)")

        let bad = try Self.temporaryFile("errors.toml", "[coast]\nboost = 3\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(try Self.run(["run", "--config", bad]).stderr.contains("error: the configuration has errors; nothing was started:\n\(bad):2: "))
        #expect(try Self.run(["plot", "--config", bad]).stderr.hasPrefix("flickd: the configuration has errors; nothing was drawn:\n\(bad):2: "))
        #expect(try Self.run(["replay", recording, "--config", bad]).stderr.hasPrefix("flickd: the configuration has errors; nothing was replayed:\n\(bad):2: "))
    }

    /// An empty file is the defaults at start, so it is valid; but a running flickd keeps its
    /// settings rather than reload one, and check-config says so.
    @Test func checkConfigSaysAnEmptyFileIsNotReloaded() throws {
        for contents in ["", "\n  \n"] {
            let path = try Self.temporaryFile("blank.toml", contents)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try Self.run(["check-config", path])
            #expect(result.status == 0, "valid at start: \(result.stderr)")
            #expect(result.stdout == """
                \(path): OK (every setting at its default)
                \(path): the file is empty: flickd starts with the built-in defaults, but a running flickd takes an empty file \
                for a half-written one and keeps its settings; for the defaults on a reload too, leave a comment line in it

                """)
        }
        let commented = try Self.temporaryFile("comment.toml", "# the defaults\n")
        defer { try? FileManager.default.removeItem(atPath: commented) }
        #expect(try Self.run(["check-config", commented]).stdout == "\(commented): OK (every setting at its default)\n")
    }

    /// A [[device]] section after one that matches every device it matches never applies (the
    /// first matching section is used): check-config says so, and the file is valid.
    @Test func checkConfigWarnsOfADeviceSectionThatNeverApplies() throws {
        let path = try Self.temporaryFile("shadow.toml", """
            [[device]]
            name = "Synaptics"
            [device.coast]
            deceleration_rate = 0.99

            [[device]]
            name = "Synaptics TM3053"
            enabled = false

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run(["check-config", path])
        #expect(result.status == 0 && result.stderr == "", "valid: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            "\(path): OK (every setting at its default; 2 [[device]] sections)",
            "\(path): device[2] never applies: device[1] comes before it and matches every device it matches (the first "
                + "matching [[device]] section is used); move device[2] above device[1], or narrow device[1]",
        ], "\(result.stdout)")
    }

    /// Settings in range that, with the touchpad output, glide farther than flickd's virtual
    /// touchpad holds (about 0.87 m along an axis): the file is valid, and check-config warns,
    /// for the top level and for a [[device]] section with coast settings of its own.
    @Test func checkConfigWarnsOfGlidesThatStopAtTheVirtualTouchpadsEdge() throws {
        let warning = "with output.mode = \"touchpad\", glides from releases faster than 874 mm/s stop at the edge of flickd's "
            + "virtual touchpad (coast.deceleration_rate = 0.999 glides 1.49 m at coast.max_speed = 1500 mm/s; the pad holds "
            + "0.87 m along an axis): lower coast.max_speed to 874 or coast.deceleration_rate, or use output.mode = \"wheel\""
        let slow = try Self.temporaryFile("slow.toml", "[coast]\ndeceleration_rate = 0.999\n")
        defer { try? FileManager.default.removeItem(atPath: slow) }
        let result = try Self.run(["check-config", slow])
        #expect(result.status == 0, "valid: \(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout.split(separator: "\n").map(String.init) == ["\(slow): OK (coast.deceleration_rate = 0.999)", "\(slow): \(warning)"],
                "\(result.stdout)")

        let section = try Self.temporaryFile("section.toml", "[[device]]\nname = \"ELAN\"\n[device.coast]\nmax_speed = 2000\n")
        defer { try? FileManager.default.removeItem(atPath: section) }
        let sectionResult = try Self.run(["check-config", section])
        #expect(sectionResult.status == 0)
        let lines = sectionResult.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.last?.hasPrefix("\(section): with output.mode = \"touchpad\", glides from releases faster than 1738 mm/s") == true
                && lines.last?.contains("(device[1].coast.deceleration_rate = 0.998 glides 1.00 m at device[1].coast.max_speed = 2000 mm/s;") == true,
                "\(sectionResult.stdout)")

        // The wheel output, or a max_speed that fits: only the OK line.
        for contents in ["[coast]\ndeceleration_rate = 0.999\n[output]\nmode = \"wheel\"\n",
                         "[coast]\ndeceleration_rate = 0.999\nmax_speed = 874\n"] {
            let path = try Self.temporaryFile("fits.toml", contents)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let fits = try Self.run(["check-config", path])
            #expect(fits.status == 0 && fits.stdout.split(separator: "\n").count == 1, "\(contents)\n\(fits.stdout)")
        }
    }

    /// Each way of asking for help prints that command's own usage line: `flickd help replay`
    /// is replay's help, not the overview or another command's.
    @Test(arguments: [
        (["--help"], "USAGE: flickd <subcommand>"),
        (["help"], "USAGE: flickd <subcommand>"),
        (["help", "replay"], "USAGE: flickd replay <FILE> "),
        (["replay", "--help"], "USAGE: flickd replay <FILE> "),
        (["run", "--help"], "USAGE: flickd run "),
        (["help", "run"], "USAGE: flickd run "),
        (["devices", "--help"], "USAGE: flickd devices "),
        (["check-config", "--help"], "USAGE: flickd check-config "),
        (["help", "plot"], "USAGE: flickd plot "),
        (["doctor", "--help"], "USAGE: flickd doctor "),
        // Help about help is the overview, which says how to use it (it was "Unknown subcommand").
        (["help", "help"], "USAGE: flickd <subcommand>"),
        (["help", "--help"], "USAGE: flickd <subcommand>"),
        (["help", "-h"], "USAGE: flickd <subcommand>"),
    ])
    func helpExplainsItself(arguments: [String], usage: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 0)
        let usageLines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("USAGE: ") }
        #expect(usageLines.count == 1 && (usageLines.first.map { "\($0) ".hasPrefix(usage) } ?? false),
                "flickd \(arguments.joined(separator: " ")): \(usageLines)")
    }

    /// The end of the message for a word that is no subcommand.
    static let subcommands = "The subcommands are run, devices, replay, check-config, plot, doctor and help"

    /// A command line that cannot be run says why, shows the usage and exits with 64
    /// (EX_USAGE), before the command does anything.
    @Test(arguments: [
        // A first word that is no subcommand is a misspelt one, not run's argument.
        (["chek-config"], "Error: Unknown subcommand 'chek-config'. Did you mean 'check-config'? \(subcommands)",
         "  See 'flickd --help'"),
        (["bogus"], "Error: Unknown subcommand 'bogus'. \(subcommands)", "  See 'flickd --help'"),
        (["--verbose", "chek-config"], "Error: Unknown subcommand 'chek-config'. Did you mean 'check-config'? \(subcommands)",
         "  See 'flickd --help'"),
        // A subcommand after an option: the option was taken for run's.
        (["--verbose", "devices"], "Error: Options come after the subcommand: write 'devices' first", "Usage: flickd devices "),
        // After "--" a word is an argument, never a subcommand: not "Did you mean 'devices'?".
        (["--", "devices"], "Error: Unexpected argument 'devices' after '--': write the subcommand first", "Usage: flickd devices "),
        (["--", "bogus"], "Error: Unexpected argument 'bogus' after '--'", "  See 'flickd --help'"),
        (["--json", "replay", "a.events"], "Error: Options come after the subcommand: write 'replay' first", "Usage: flickd replay "),
        (["plot", "--speed", "100"], "Error: Unknown option '--speed'. Did you mean '--speeds'?", "Usage: flickd plot "),
        (["replay"], "Error: Missing expected argument '<FILE>'", "Usage: flickd replay <FILE>"),
        (["devices", "--config"], "Error: Missing value for '--config <FILE>'", "Usage: flickd devices "),
        // A value given apart that starts with "--" is the next option, the value forgotten.
        (["run", "--config", "--verbose"],
         "Error: Missing value for '--config <FILE>' before '--verbose' (a value that starts with '--' is written --config=VALUE)",
         "Usage: flickd run "),
        // An option's value is no subcommand written late: the mistake is the option.
        (["--config", "plot", "--bogus"], "Error: Unknown option '--bogus'", "Usage: flickd run "),
        (["replay", "a.events", "--json=yes"], "Error: The flag '--json' does not take a value", "Usage: flickd replay "),
        (["check-config", "a.toml", "b.toml"], "Error: Unexpected argument 'b.toml'", "Usage: flickd check-config [<FILE>]"),
        (["help", "bogus"], "Error: Unknown subcommand 'bogus'. \(subcommands)", "  See 'flickd --help'"),
        (["help", "dvices"], "Error: Unknown subcommand 'dvices'. Did you mean 'devices'? \(subcommands)", "  See 'flickd --help'"),
        (["hlep", "plot"], "Error: Unknown subcommand 'hlep'. Did you mean 'help'? \(subcommands)", "  See 'flickd --help'"),
        // `help` takes one name: a word after it was ignored.
        (["help", "run", "extra"], "Error: Unexpected argument 'extra' after 'help run': help takes one subcommand's name",
         "  See 'flickd --help'"),
        (["help", "help", "plot"], "Error: Unexpected argument 'plot' after 'help help': help takes one subcommand's name",
         "  See 'flickd --help'"),
        // An empty file name would only come back as an error about a file named "".
        (["run", "--config="], "Error: The value of '--config <FILE>' is empty", "Usage: flickd run "),
        (["plot", "--out", ""], "Error: The value of '--out <FILE.svg>' is empty", "Usage: flickd plot "),
        (["check-config", ""], "Error: The argument '<FILE>' is empty", "Usage: flickd check-config [<FILE>]"),
        // Options are "--name": one dash or three are none, and "--=x" names nothing.
        (["run", "---verbose"], "Error: Unknown option '---verbose'. Did you mean '--verbose'?", "Usage: flickd run "),
        (["run", "--=x"], "Error: Unknown option '--=x'", "Usage: flickd run "),
    ])
    func aBadCommandLineIsAUsageError(arguments: [String], error: String, usage: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 64, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == error, "\(result.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix(usage) == true, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// `--name VALUE` and `--name=VALUE` are the same; the last one given wins.
    @Test func optionValuesInBothForms() throws {
        let out = NSTemporaryDirectory() + "flickd-test-\(getpid())-plot.svg"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let config = try Self.temporaryFile("plot.toml", "[coast]\ndeceleration_rate = 0.99\n")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let result = try Self.run(["plot", "--speeds", "1", "--speeds=100,200", "--out=\(out)", "--config", config])
        #expect(result.status == 0, "\(result)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.contains("100 mm/s") && svg.contains("200 mm/s"), "the last --speeds")
        #expect(!svg.contains(">1 mm/s"), "the first --speeds is replaced")
        // Written with "=", a value may start with "--": it is the file's name.
        let dashes = try Self.run(["check-config", "--config=--x.toml"])
        #expect(dashes.status == 1 && dashes.stderr.contains("--x.toml"), "\(dashes)")
        let bad = try Self.run(["plot", "--speeds=abc"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("--speeds: \"abc\" is not a speed"), "\(bad.stderr)")
    }

    @Test func versionIsOneLineWithTheNumber() throws {
        let result = try Self.run(["--version"])
        #expect(result.status == 0)
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("flickd "), "\(line)")
        let parts = line.dropFirst("flickd ".count).split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "\(line)")
    }
}

extension CommandLineTests {
    /// The help names the documented example where an install puts it, not the source tree's
    /// config/flickd.toml: the package's /usr (scripts/package runs scripts/install with
    /// --prefix /usr; the PKGBUILD installs it there too) and scripts/install's default prefix.
    @Test(arguments: [["run", "--help"], ["check-config", "--help"]])
    func theHelpNamesTheInstalledExampleConfiguration(arguments: [String]) throws {
        let help = try Self.run(arguments).stdout
        #expect(!help.contains("config/flickd.toml"), "\(help)")
        #expect(help.contains("/usr/share/doc/flickd/flickd.toml"), "\(help)")
        #expect(help.contains("/usr/local/share/doc/flickd/flickd.toml"), "\(help)")

        let install = try Fixtures.text(atPath: Fixtures.repositoryDirectory + "/scripts/install")
        // The paths for a prefix are scripts/lib/paths.sh's, which install, uninstall and package share.
        let paths = try Fixtures.text(atPath: Fixtures.repositoryDirectory + "/scripts/lib/paths.sh")
        #expect(install.contains("\nprefix=/usr/local\n") && paths.contains("\n    doc_dir=$prefix/share/doc/flickd\n")
                    && paths.contains("\n    doc_path=$doc_dir/flickd.toml\n"),
                "scripts/install puts the example elsewhere: update the help")
        let pkgbuild = try Fixtures.text(atPath: Fixtures.repositoryDirectory + "/packaging/arch/PKGBUILD")
        #expect(pkgbuild.contains("\"$pkgdir/usr/share/doc/flickd/flickd.toml\""))
    }
}

extension CommandLineTests {
    /// `flickd run --help` says what gives access to /dev/uinput where an install puts it (the
    /// package's /usr/lib, scripts/install's /etc), not the source tree's systemd/ files, and
    /// does not offer the input group for it (/dev/uinput is root's, not the group's).
    @Test func theRunHelpNamesTheInstalledUinputRule() throws {
        let help = try Self.run(["run", "--help"]).stdout
        #expect(!help.contains("systemd/70-flickd-uinput.rules") && !help.contains("systemd/flickd.service"), "\(help)")
        #expect(!help.contains("or join the input group"), "\(help)")
        for place in ["/usr/lib/udev/rules.d/", "/etc/udev/rules.d/", "/usr/lib/modules-load.d/",
                      "/etc/modules-load.d/", "modprobe"] {
            #expect(help.contains(place), "run --help does not name \(place): \(help)")
        }
    }
}

extension CommandLineTests {
    /// Every subcommand's help (and so its man page, scripts/docs-from-help) lists the status a
    /// command line that cannot be run exits with, beside the command's own.
    @Test func everyCommandsExitStatusIncludesTheUsageError() throws {
        let main = try Self.run(["--help"]).stdout
        let listed = main.split(separator: "\n").drop { $0 != "SUBCOMMANDS:" }.dropFirst()
            .prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  See ") }
            .compactMap { $0.hasPrefix("   ") ? nil : $0.split(separator: " ").first.map(String.init) }
        #expect(Set(listed) == ["run", "devices", "replay", "check-config", "plot", "doctor"], "\(main)")
        for name in listed {
            let help = try Self.run(["help", name]).stdout.replacingOccurrences(of: "\n", with: " ")
            let status = try #require(help.range(of: "Exit status: "), "flickd help \(name): no \"Exit status:\"")
            // The paragraph: its wrapped lines joined, up to the blank line after it.
            let paragraph = String(help[status.upperBound...]).components(separatedBy: "  ").first ?? ""
            #expect(paragraph.contains("64 when the command line cannot be run"), "flickd help \(name): \(paragraph)")
        }
        #expect(try Self.run(["bogus"]).status == 64, "the status the help gives")
    }
}
