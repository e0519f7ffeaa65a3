import Testing
import FlickCore
@testable import FlickLinux

/// `config/flickd.toml` in this clone (found from this file's path).
let shippedConfigPath: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // this file, FlickLinuxTests, Tests
    return parts.joined(separator: "/") + "/config/flickd.toml"
}()

/// The problems of parsing `text` as `flickd.toml`, one description a line; nil when it parses.
func problems(_ text: String) -> [String]? {
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
func parsed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Configuration? {
    do {
        return try ConfigurationLoader.parse(text: text, path: "flickd.toml")
    } catch {
        Issue.record("expected \(text.debugDescription) to parse, got:\n\(error)", sourceLocation: sourceLocation)
        return nil
    }
}
