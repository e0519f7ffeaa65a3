import FlickLinux
import Foundation

/// The `flickd` executable that `swift build` puts beside the test bundle, run as a user runs it.
enum FlickdBinary {
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "status \(status), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)" }
    }

    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flickd")
    }

    /// Runs flickd with `arguments` to its end. Its output goes to files, not pipes: reading one
    /// pipe to its end while the child fills the other (a sanitizer's report on stderr) would
    /// block both processes.
    static func run(_ arguments: [String]) throws -> Result {
        let base = NSTemporaryDirectory() + "flickd-test-\(getpid())-\(UUID().uuidString)"
        let outPath = base + ".out", errPath = base + ".err"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        // TextFile rather than Data(contentsOf:), whose buffer LeakSanitizer reports as leaked.
        return Result(status: process.terminationStatus, stdout: try TextFile.read(outPath), stderr: try TextFile.read(errPath))
    }
}
