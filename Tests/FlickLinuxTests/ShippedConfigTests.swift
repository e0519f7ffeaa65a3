import Testing
import FlickCore
import FlickTestSupport
@testable import FlickLinux

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
            let line = try #require(document.lines[name], "\(name) is not in config/flickd.toml")
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
