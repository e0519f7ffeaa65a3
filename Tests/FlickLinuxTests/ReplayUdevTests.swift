import FlickCore
import FlickTestSupport
import Foundation
import Testing

/// `flickd replay` reads a `libinput record` file's udev properties as the daemon reads udev's
/// (`InputNode.judge`): a device it would not read touches of is not replayed as a touchpad,
/// and other devices' presses are warned of only where the daemon opens the device for them.
@Suite struct ReplayUdevTests {
    typealias Command = ReplayCommandTests

    /// The two-finger scroll's pad, alone, with its `ID_INPUT=1` and `ID_INPUT_TOUCHPAD=1`
    /// lines replaced by `properties`.
    static func pad(properties: [String]) -> String {
        LibinputRecordSamples.twoFingerScroll.replacingOccurrences(
            of: "- ID_INPUT=1\n    - ID_INPUT_TOUCHPAD=1",
            with: properties.map { "- \($0)" }.joined(separator: "\n    "))
    }

    /// The pad alone in its file, its scroll coasting at 0.095 s, but udev's recorded properties
    /// say libinput ignores it, or tag it a mouse: the daemon reads none of its touches, so the
    /// replay admits it as ignored, with the daemon's reason, and nothing coasts.
    @Test(arguments: [
        (["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1", "LIBINPUT_IGNORE_DEVICE=1"], "libinput ignores it (LIBINPUT_IGNORE_DEVICE)"),
        (["ID_INPUT=0", "ID_INPUT_TOUCHPAD=1"], "libinput ignores it (udev does not set ID_INPUT=1)"),
        (["ID_INPUT=1", "ID_INPUT_MOUSE=1"], "udev tags it a mouse"),
    ])
    func aDeviceTheDaemonReadsNoTouchesOfIsNotReplayedAsATouchpad(properties: [String], why: String) throws {
        let text = Self.pad(properties: properties)
        #expect(text != LibinputRecordSamples.twoFingerScroll)
        let path = try Command.temporaryFile("ignored-\(properties.count)-\(why.count).yml", text)
        defer { Command.remove(path) }
        let result = try Command.run(["replay", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("# SynPS/2 Synaptics TouchPad: ignored: \(why)"), "\(result.stdout)")
        #expect(result.stdout.contains("# gestures: 0, coasts: 0\n"), "\(result.stdout)")
        // Named by --device, the same.
        let named = try Command.run(["replay", path, "--device", "/dev/input/event5"])
        #expect(named.stdout == result.stdout, "\(named.stdout)")
        let json = try Command.summary(try Command.run(["replay", path, "--json"]).stdout)
        let admission = try #require(json["admission"] as? [String: Any])
        #expect(admission["state"] as? String == "ignored" && (admission["why"] as? String)?.hasPrefix(why) == true, "\(admission)")
        // Its own tags, as recorded: it coasts.
        let tagged = try Command.temporaryFile("tagged-\(properties.count)-\(why.count).yml", LibinputRecordSamples.twoFingerScroll)
        defer { Command.remove(tagged) }
        #expect(try Command.run(["replay", tagged]).stdout.contains("\n# 0.095 s: coast, "))
    }

    /// A device udev tags `ID_INPUT_KEY` alone (a Power Button, a Video Bus, Consumer Control)
    /// presses its key in the pad's coast: the daemon never opens it, so no warning; the same
    /// device tagged ID_INPUT_KEYBOARD is warned of.
    @Test func aKeyOnADeviceTheDaemonDoesNotOpenIsNotWarnedOf() throws {
        let keyboard = LibinputRecordSamples.keyboard.replacingOccurrences(of: "- [  0,   5000,", with: "- [0, 300000,")
        let power = keyboard.replacingOccurrences(of: "AT Translated Set 2 keyboard", with: "Power Button")
            .replacingOccurrences(of: "    - ID_INPUT_KEYBOARD=1\n", with: "")
        #expect(power.contains("ID_INPUT_KEY=1") && !power.contains("ID_INPUT_KEYBOARD"))
        let path = try Command.temporaryFile("power.yml", LibinputRecordSamples.withDevices(before: [power], count: 2))
        let keys = try Command.temporaryFile("keys.yml", LibinputRecordSamples.withDevices(before: [keyboard], count: 2))
        defer { Command.remove(path, keys) }
        let result = try Command.run(["replay", path])
        #expect(result.status == 0 && result.stdout.contains("\n# 0.095 s: coast, ") && result.stderr.isEmpty, "\(result)")
        #expect(try Command.run(["replay", keys]).stderr.contains("a key press on AT Translated Set 2 keyboard"))
    }

    /// The touchscreen beside the pad is touched at 0.05 s, before the pad's coast of 0.095 s, and
    /// clicks (BTN_LEFT) at 0.3 s with that finger still down: the daemon's engine stops the
    /// coast on the click (stop.button), so the replay warns of it.
    @Test func anotherTouchDevicesOwnClickIsWarnedOf() throws {
        let screen = LibinputRecordSamples.touchscreen
            .replacingOccurrences(of: "1: [330] # EV_KEY", with: "1: [272, 330] # EV_KEY")
            .replacingOccurrences(of: "0, 200000,", with: "0,  50000,")
            + """
              - evdev:
                - [  0, 300000,   1, 272,       1]
                - [  0, 300000,   0,   0,       0]

            """
        let path = try Command.temporaryFile("screen-click.yml", LibinputRecordSamples.withDevices(after: [screen], count: 2))
        defer { Command.remove(path) }
        let result = try Command.run(["replay", path])
        #expect(result.stdout.contains("\n# 0.095 s: coast, "), "\(result.stdout)")
        #expect(result.stderr == "flickd: warning: a button press on ELAN Touchscreen (/dev/input/event9), which is not replayed, at 0.300 s would have stopped the coast of 0.095 s there (stop.button)\n", "\(result.stderr)")
    }

    /// The help says the replay asks no desktop: scroll.natural = "auto" scrolls traditionally,
    /// and --config with scroll.natural set changes it.
    @Test func theHelpSaysWhichWayAutoScrolls() throws {
        let help = try Command.run(["help", "replay"]).stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        #expect(help.contains("No desktop is asked: where scroll.natural is \"auto\" (the default), the replay assumes traditional scrolling"), "\(help)")
        #expect(help.contains("--config with scroll.natural set to true or false"), "\(help)")
    }
}
