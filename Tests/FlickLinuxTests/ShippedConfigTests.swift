import Testing
import FlickCore
import FlickFingerStories
import FlickTestSupport
@testable import FlickLinux

@Suite struct ShippedConfigTests {
    /// Whether `text` has `phrase` followed by the end of a word: the end of the text,
    /// whitespace, or punctuation other than a "." or "/" that goes on (`Range: 0 to 50` is not
    /// in "Range: 0 to 500" nor "Range: 0 to 50.5", `Unit: mm` not in "Unit: mm/s").
    static func contains(_ phrase: String, in text: String) -> Bool {
        var rest = text[...]
        while let found = rest.firstRange(of: phrase) {
            let after = rest[found.upperBound...]
            guard let next = after.first else { return true }
            let following = after.dropFirst().first
            if next.isWhitespace || (next.isPunctuation && next != "." && next != "/" && next != "_" && next != "-")
                || (next == "." && (following == nil || following!.isWhitespace)) {
                return true
            }
            rest = rest[rest.index(after: found.lowerBound)...]
        }
        return false
    }

    @Test func aPhraseIsFoundOnlyWhereItsLastWordEnds() {
        #expect(Self.contains("Range: 0 to 50", in: "# Range: 0 to 50 (must stay below max_speed)."))
        #expect(Self.contains("Range: 0 to 50", in: "# Range: 0 to 50.\n"))
        #expect(Self.contains("Range: 0 to 50", in: "Range: 0 to 50, or \"off\""))
        #expect(Self.contains("Range: 0 to 50", in: "Range: 0 to 50"))
        #expect(!Self.contains("Range: 0 to 50", in: "# Range: 0 to 500. Default: 50."))
        #expect(!Self.contains("Range: 0 to 50", in: "# Range: 0 to 50.5."))
        #expect(!Self.contains("Unit: mm", in: "# Unit: mm/s. Range: 0 to 10000."))
        #expect(Self.contains("Unit: mm", in: "# Unit: mm/s. Unit: mm. Range: 0 to 50."), "the second one")
        #expect(!Self.contains("Default: 0.", in: "# Default: 0.998."))
        #expect(Self.contains("Default: 0.998.", in: "# Default: 0.998.\n"))
    }

    @Test func theShippedFileIsExactlyTheDefaults() throws {
        let configuration = try ConfigurationLoader.load(path: shippedConfigPath)
        #expect(configuration == Configuration.defaults)
    }

    @Test func everyKeyIsInTheShippedFileWithItsUnitRangeAndDefault() throws {
        let text = try TextFile.read(shippedConfigPath)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let document = try TOMLDocument(text: text)
        for key in ConfigurationLoader.keys {
            guard let line = document.ownLine(of: key.name) else {
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
            #expect(Self.contains("Default: \(key.defaultValue).", in: comment), "\(key.name): no \"Default: \(key.defaultValue).\" in\n\(comment)")
            if let range = key.range {
                let words = "Range: \(ConfigurationKey.format(range.lowerBound)) to \(ConfigurationKey.format(range.upperBound))"
                #expect(Self.contains(words, in: comment), "\(key.name): no \"\(words)\" in\n\(comment)")
            }
            if let unit = key.unit {
                #expect(Self.contains("Unit: \(unit)", in: comment), "\(key.name): no \"Unit: \(unit)\" in\n\(comment)")
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

/// Keys only the wheel output reads: the touchpad output (the default) ignores them, and the
/// shipped file and the README say so where they document them.
@Suite struct WheelOutputOnlyKeysTests {
    /// The touch frames a two-finger flick down on a T440 pad makes under `configuration`,
    /// with the touchpad output, until the glide is over.
    static func touchpadFrames(_ configuration: Configuration) throws -> [String] {
        final class Frames { var lines: [String] = [] }
        let frames = Frames()
        let script = try FingerScript(device: "synaptics-t440", configuration: configuration)
        script.engine.output = .touchpad
        script.engine.onTouchFrame = { frame, time in frames.lines.append("\(time.microseconds) µs: \(frame)") }
        script.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        script.move(by: Vector(x: 0, y: 30), over: .milliseconds(150))
        script.lift()
        script.wait(.seconds(6))
        return frames.lines
    }

    /// Each key the list names changes nothing the touchpad output writes: set to either end
    /// of its range, the flick's frames are the defaults' frame for frame.
    @Test func theTouchpadOutputIgnoresThem() throws {
        let reference = try Self.touchpadFrames(.defaults)
        #expect(reference.count > 10, "the flick glides")
        for name in ConfigurationLoader.wheelOutputOnlyKeys {
            let key = try #require(ConfigurationLoader.key(named: name))
            let range = try #require(key.range, "\(name): a number")
            for value in [range.lowerBound, range.upperBound] {
                var configuration = Configuration.defaults
                key.write(&configuration, .number(value))
                #expect(key.value(in: configuration) == .number(value))
                #expect(try Self.touchpadFrames(configuration) == reference, "\(name) = \(value) changes the touchpad output")
            }
        }
    }

    @Test func theShippedFileAndTheReadmeSayTheyAreForTheWheelOutput() throws {
        let text = try TextFile.read(shippedConfigPath)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let document = try TOMLDocument(text: text)
        for name in ConfigurationLoader.wheelOutputOnlyKeys {
            let line = try #require(document.ownLine(of: name), "\(name) is not in config/flickd.toml")
            var comment = ""
            var index = line - 2
            while index >= 0, lines[index].hasPrefix("#") {
                comment = lines[index] + "\n" + comment
                index -= 1
            }
            // The comment's words, its lines joined.
            let prose = comment.split(separator: "\n").map { $0.dropFirst().drop { $0 == " " } }.joined(separator: " ")
            #expect(prose.hasPrefix("With output.mode = \"wheel\": "), "\(name): the comment does not start with it:\n\(comment)")
            #expect(prose.contains("The touchpad output (the default)"), "\(name): the comment does not say what the touchpad output does:\n\(comment)")
            let row = DocumentationTests.readme.split(separator: "\n").first { $0.hasPrefix("| `\(name)` |") }
            #expect(row?.contains("| wheel output only: ") == true, "README.md's row for \(name): \(row ?? "none")")
        }
    }
}
