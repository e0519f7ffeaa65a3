import Testing
import FlickCore
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
