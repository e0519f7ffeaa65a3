import Foundation

/// The `flickd` executable that `swift build` puts beside the test bundle, run as a user runs it.
enum FlickdBinary {
    typealias Result = ChildProcess.Result

    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flickd")
    }

    /// Runs flickd with `arguments` to its end.
    static func run(_ arguments: [String]) throws -> Result {
        try ChildProcess.run(url.path, arguments)
    }
}
