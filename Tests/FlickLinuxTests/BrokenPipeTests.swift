import FlickCore
import FlickFingerStories
import FlickLinux
import FlickTestSupport
import Foundation
import Glibc
import Testing

/// flickd's commands with standard output a pipe nobody reads any more (`flickd replay big.yml |
/// head -1`, once head has exited): the write fails, and the command says so and exits 1, as the
/// help promises for any output that cannot be written, rather than die of SIGPIPE (status 141
/// in the shell). The programs flickd starts still get SIGPIPE's default.
@Suite struct BrokenPipeTests {
    /// How flickd ended with its standard output a pipe whose read end was closed before it started.
    struct Ending: CustomStringConvertible {
        var signal: Int32?
        var status: Int32
        var stderr: String
        var description: String { signal.map { "killed by signal \($0), stderr \(stderr.debugDescription)" }
            ?? "status \(status), stderr \(stderr.debugDescription)" }
    }

    /// Runs flickd with `arguments`, standard output a pipe whose read end is closed, standard
    /// error a file.
    static func runIntoAClosedPipe(_ arguments: [String]) throws -> Ending {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SystemError(errno: errno, call: "pipe") }
        close(ends[0])  // Nobody will read: head has exited.
        let errPath = NSTemporaryDirectory() + "flickd-test-\(getpid())-\(UUID().uuidString).err"
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        guard FileManager.default.createFile(atPath: errPath, contents: nil) else {
            throw SystemError(errno: errno, call: "creat", path: errPath)
        }
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let out = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let process = Process()
        process.executableURL = FlickdBinary.url
        process.arguments = arguments
        process.environment = ChildProcess.environment
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return Ending(signal: signal, status: process.terminationStatus, stderr: try TextFile.read(errPath))
    }

    /// An evemu recording of one two-finger flick, far more output than a pipe holds once
    /// replayed (its wheel events alone).
    static func flickRecording() throws -> String {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 30, y: 20), Vector(x: 45, y: 20))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(200))
        pad.lift()
        let path = NSTemporaryDirectory() + "flickd-test-\(getpid())-broken-pipe.events"
        try EvemuWriter.text(description: pad.description, events: pad.sent).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The SVG (more than a pipe's buffer), the help (written only at the exit) and a replay:
    /// each exits 1 and says why, as for a full disk.
    @Test(arguments: [["plot", "--config", "/dev/null"], ["--help"], ["help", "replay"], ["replay"]])
    func aClosedPipeFailsTheCommandWithStatus1(arguments: [String]) throws {
        let recording = arguments == ["replay"] ? try Self.flickRecording() : nil
        defer { recording.map { try? FileManager.default.removeItem(atPath: $0) } }
        let arguments = arguments + (recording.map { [$0] } ?? [])
        let ending = try Self.runIntoAClosedPipe(arguments)
        #expect(ending.signal == nil && ending.status == 1, "flickd \(arguments): \(ending)")
        #expect(ending.stderr == "flickd: cannot write the output: Broken pipe\n", "\(ending)")
    }

    /// The programs flickd starts get SIGPIPE's default disposition, even when flickd's own
    /// parent ignored it (an ignored signal stays ignored across exec): doctor's systemctl,
    /// here a script in its place that writes down what it inherited.
    @Test(.enabled(if: access("/usr/bin/env", X_OK) == 0, "no /usr/bin/env"))
    func theProgramsDoctorStartsGetTheDefaultSIGPIPE() throws {
        let directory = NSTemporaryDirectory() + "flickd-test-\(getpid())-sigpipe"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/systemctl", record = directory + "/ignored"
        // SigIgn in /proc is the mask of ignored signals in hex; a shell keeps what it inherited.
        try "#!/bin/sh\ngrep '^SigIgn:' /proc/$$/status >> '\(record)'\necho unknown\nexit 4\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let path = directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try ChildProcess.run("/usr/bin/env", ["--ignore-signal=PIPE", "PATH=\(path)", FlickdBinary.url.path,
                                                           "doctor", "--config", "/dev/null"])
        let lines = try TextFile.read(record).split(separator: "\n")
        #expect(!lines.isEmpty, "doctor asked systemctl: \(result)")
        for line in lines {
            let mask = UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
            #expect(mask & (1 << (UInt64(SIGPIPE) - 1)) == 0, "systemctl started with SIGPIPE ignored: \(line)")
        }
    }
}
