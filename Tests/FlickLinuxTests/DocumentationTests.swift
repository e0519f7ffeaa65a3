import Foundation
import Testing
@testable import FlickLinux

/// The README's configuration table keeps up with the key table.
@Suite struct DocumentationTests {
    static var readme: String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    @Test func everyKeyIsInTheReadmeTable() {
        let text = Self.readme
        #expect(!text.isEmpty)
        for key in ConfigurationLoader.keys {
            #expect(text.contains("| `\(key.name)` |"), "README.md's configuration table lacks \(key.name)")
        }
    }

    /// A key's row in the README's configuration table: its range and default columns.
    static func row(of name: String) -> (range: String, defaultValue: String)? {
        guard let line = readme.split(separator: "\n").first(where: { $0.hasPrefix("| `\(name)` |") }) else { return nil }
        let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 6 else { return nil }
        return (cells[3], cells[4])
    }

    /// The range column as the README writes it: `0.1–1000`, `0.9–0.9999, "normal" (0.998)`,
    /// `` `true`, `false` ``, `` `"lsq2"`, `"lookback"` ``.
    static func rangeCell(_ key: ConfigurationKey) -> String {
        let quoted = key.choices.map { "`\"\($0)\"`" }
        switch key.kind {
        case .number, .integer:
            guard let range = key.range else { return "" }
            return (["\(ConfigurationKey.format(range.lowerBound))–\(ConfigurationKey.format(range.upperBound))"]
                + key.namedValues.map { "`\"\($0.name)\"` (\(ConfigurationKey.format($0.value)))" }).joined(separator: ", ")
        case .boolean: return "`true`, `false`"
        case .choice: return quoted.joined(separator: ", ")
        case .booleanOrChoice: return (["`true`", "`false`"] + quoted).joined(separator: ", ")
        }
    }

    /// The default column: a number as it is, anything else in backticks.
    static func defaultCell(_ key: ConfigurationKey) -> String {
        switch key.defaultValue {
        case .number, .integer: return "\(key.defaultValue)"
        case .boolean, .string: return "`\(key.defaultValue)`"
        }
    }

    @Test func theReadmeTableHasEachKeysRangeAndDefault() throws {
        for key in ConfigurationLoader.keys {
            let row = try #require(Self.row(of: key.name), "README.md's configuration table lacks \(key.name)")
            #expect(row.range == Self.rangeCell(key), "\(key.name): README.md says \(row.range), the code \(Self.rangeCell(key))")
            #expect(row.defaultValue == Self.defaultCell(key), "\(key.name): README.md says \(row.defaultValue), the code \(Self.defaultCell(key))")
        }
    }

    /// Where `scroll.natural = "auto"` reads the desktop's setting (`DesktopSettings`): the
    /// README's row names each place config/flickd.toml's comment does.
    @Test func theReadmeRowOfScrollNaturalNamesEveryPlaceAutoReads() throws {
        let row = try #require(Self.readme.split(separator: "\n").first { $0.hasPrefix("| `scroll.natural` |") })
        let shipped = try TextFile.read(shippedConfigPath)
        let comment = shipped.split(separator: "\n").drop { !$0.hasPrefix("[scroll]") }.prefix { !$0.hasPrefix("natural =") }
            .joined(separator: " ")
        for place in ["GNOME", "KDE", "sway", "X server"] {
            #expect(comment.contains(place), "config/flickd.toml's scroll.natural does not name \(place)")
            #expect(row.contains(place), "README.md's scroll.natural row does not name \(place): \(row)")
        }
    }

    @Test func theReadmeTableHasNoKeyThatDoesNotExist() {
        let names = Set(ConfigurationLoader.keys.map(\.name))
        let rows = Self.readme.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains(".") }
        for row in rows {
            let name = row.dropFirst(3).prefix { $0 != "`" }
            guard name.contains("."), !name.contains(" "), !name.hasPrefix("flickd"), !name.hasPrefix("/") else { continue }
            #expect(names.contains(String(name)), "README.md documents \(name), which is not a key")
        }
    }
}

extension DocumentationTests {
    static func repositoryFile(_ path: String) -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(path)
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    /// A test that needs ../shared carries the trait itself: a suite skipped whole is reported
    /// once, without its tests, so scripts/test's count of skipped tests (one line per skipped
    /// test) would miss them, and a bare clone's summary would not say what did not run.
    @Test func noSuiteIsSkippedWhole() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50, "the test sources were found: \(files.count)")
        for file in files {
            let text = (try? String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n")
            where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite(") && line.contains(".needsShared") {
                Issue.record("\(file): \(line.trimmingCharacters(in: .whitespaces)): put the trait on each @Test")
            }
        }
    }

    /// The fixes doctor and the errors print write the shipped udev rule and modules-load file
    /// themselves (they work from any directory): the same rules, the same module.
    @Test func theUinputFixesWriteWhatTheRepositoryShips() {
        let rule = Self.repositoryFile("systemd/70-flickd-uinput.rules").split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(rule == [Substring(UinputDevice.udevRule), Substring(Self.virtualTouchpadIsExternal)], "\(rule)")
        #expect(UinputDevice.touchpadRule == Self.virtualTouchpadIsExternal)
        #expect(UinputDevice.writeUdevRule.hasPrefix("printf '%s\\n' '\(UinputDevice.udevRule)' '\(UinputDevice.touchpadRule)' | sudo tee "))
        let module = Self.repositoryFile("systemd/flickd-uinput.conf").split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(module == ["uinput"])
        #expect(UinputDevice.loadModule.contains("echo uinput | sudo tee /etc/modules-load.d/flickd-uinput.conf"))
        let readme = Self.readme
        // In a Markdown table a pipe inside code is written \|.
        func cell(_ text: String) -> String { "| `" + text.replacingOccurrences(of: "|", with: "\\|") + "` |" }
        #expect(readme.contains(cell(UinputDevice.installUdevRule)), "README's table shows doctor's fix for /dev/uinput")
        #expect(readme.contains(cell(UinputDevice.loadModule)), "README's table shows doctor's fix for the module")
        #expect(!readme.contains("sudo cp systemd/"), "no fix that works only in the source tree")
    }

    /// The shipped rule that has libinput call flickd's virtual touchpad external
    /// (evdev-mt-touchpad.c, evdev_tag_touchpad: without udev's ID_INPUT_TOUCHPAD_INTEGRATION
    /// a pad on any bus but Bluetooth is internal, and flickd's is on BUS_VIRTUAL). Internal, it
    /// is paired with the laptop's keyboard (disable-while-typing ends its scroll at a key while
    /// the fingers still move), trackpoint, lid and tablet-mode switch (which suspend it). The
    /// e2e scenarios tp-typing and tp-tablet-mode show both in a real libinput.
    static let virtualTouchpadIsExternal =
        #"SUBSYSTEM=="input", KERNEL=="event*", DEVPATH=="/devices/virtual/input/*", ATTRS{name}=="flickd virtual touchpad", ENV{ID_INPUT_TOUCHPAD_INTEGRATION}="external""#

    /// The rule matches the name flickd gives its touchpad, on the bus libinput would otherwise
    /// call internal, among uinput's devices only, and only event nodes (the ones libinput opens).
    @Test func theShippedRuleTagsTheVirtualTouchpadExternal() {
        #expect(Self.virtualTouchpadIsExternal.contains(#"ATTRS{name}=="\#(VirtualTouchpad.name)""#))
        #expect(UinputDevice.busType == 0x06, "BUS_VIRTUAL: not BUS_BLUETOOTH (0x05), so internal without the rule")
        #expect(Self.virtualTouchpadIsExternal.contains(#"DEVPATH=="/devices/virtual/input/*""#))
        #expect(Self.virtualTouchpadIsExternal.contains(#"KERNEL=="event*""#))
        #expect(Self.virtualTouchpadIsExternal.hasSuffix(#"ENV{ID_INPUT_TOUCHPAD_INTEGRATION}="external""#))
        // Every place the file is installed sorts before 73-seat-late.rules, which applies uaccess
        // (the other rule's tag).
        for file in UinputDevice.udevRuleFiles {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            #expect(name < "73-seat-late.rules", "\(file)")
        }
    }
}
