import FlickLinux
import Foundation
import Glibc
import Testing

/// The one way the tests start a program: run it to its end and collect its status and output.
enum ChildProcess {
    /// How a program ended and what it printed.
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "status \(status), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)" }
    }

    /// How long a program may run: one that hangs is killed then (SIGKILL), and the test
    /// records an issue, rather than holding the whole run.
    static let limitSeconds = 30.0

    /// Runs `executable` with `arguments` to its end, or for `limitSeconds` (then it is killed
    /// and an issue is recorded). Its output goes to files, not pipes: reading one pipe to its
    /// end while the child fills the other (a sanitizer's report on stderr) would block both
    /// processes.
    /// The environment a child flickd gets: the tests' own, but its log style must not depend on
    /// how the tests were started: under a systemd service (a CI runner, systemd-run, a terminal
    /// run as a user service) INVOCATION_ID or JOURNAL_STREAM would make flickd write journald's
    /// `<3>` prefixes (LogStyle.detect).
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["INVOCATION_ID"] = nil
        environment["JOURNAL_STREAM"] = nil
        return environment
    }

    static func run(_ executable: String, _ arguments: [String], limitSeconds: Double = limitSeconds) throws -> Result {
        let base = NSTemporaryDirectory() + "flickd-test-\(getpid())-\(UUID().uuidString)"
        let outPath = base + ".out", errPath = base + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        for path in [outPath, errPath] where !FileManager.default.createFile(atPath: path, contents: nil) {
            throw SystemError(errno: errno, call: "creat", path: path)
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + limitSeconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("\(executable) \(arguments) did not end within \(limitSeconds) s: killed")
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        // TextFile rather than Data(contentsOf:), whose buffer LeakSanitizer reports as leaked.
        return Result(status: process.terminationStatus, stdout: try TextFile.read(outPath), stderr: try TextFile.read(errPath))
    }
}
