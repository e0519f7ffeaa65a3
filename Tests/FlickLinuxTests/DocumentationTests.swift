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
