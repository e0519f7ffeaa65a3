import FlickTestSupport
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// `-` on flickd's command line: standard output for `plot --out -`, standard input for
/// `replay -`, and refused where a file name is read as a file (it would name a file called "-").
/// Also the size limit on what flickd reads, as a message says it.
@Suite struct StandardStreamArgumentTests {
    /// Runs `script` with /bin/sh, flickd's path as `$0`, in a directory of its own (where a
    /// file named "-" would be written).
    static func shell(_ script: String, in directory: String) throws -> FlickdBinary.Result {
        try ChildProcess.run("/bin/sh", ["-c", "cd \"$1\" && " + script, FlickdBinary.url.path, directory])
    }

    static func temporaryDirectory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "flickd-test-\(getpid())-\(name)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `flickd plot --out -` writes the SVG to standard output, as without --out, and no file
    /// named "-". (It wrote "./-" and printed nothing.)
    @Test func plotOutDashWritesToStandardOutput() throws {
        let directory = try Self.temporaryDirectory("plot-dash")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.shell(#""$0" plot --config /dev/null --out -"#, in: directory)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("<?xml") && result.stdout.hasSuffix("</svg>\n"), "\(result.stdout.prefix(200))")
        #expect(result.stdout == (try FlickdBinary.run(["plot", "--config", "/dev/null"])).stdout)
        #expect(!FileManager.default.fileExists(atPath: directory + "/-"), "a file named - was written")
        let help = try FlickdBinary.run(["help", "plot"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("(- writes to standard output)"), "\(help)")
    }

    /// `flickd replay -` reads the recording from standard input, redirected or piped, and
    /// replays it as it replays the file. (It said "cannot read -: No such file or directory".)
    @Test func replayDashReadsStandardInput() throws {
        let directory = try Self.temporaryDirectory("replay-dash")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = directory + "/pad.yml"
        try LibinputRecordSamples.twoFingerScroll.write(toFile: recording, atomically: true, encoding: .utf8)
        let file = try FlickdBinary.run(["replay", recording])
        #expect(file.status == 0 && file.stdout.contains("# totals: "), "\(file)")
        for script in [#""$0" replay - < pad.yml"#, #"cat pad.yml | "$0" replay -"#] {
            let result = try Self.shell(script, in: directory)
            #expect(result.status == 0, "\(script): \(result)")
            #expect(result.stdout == file.stdout, "\(script): \(result.stdout)")
        }
        let empty = try Self.shell(#""$0" replay - < /dev/null"#, in: directory)
        #expect(empty.status == 1 && empty.stderr.hasPrefix("flickd: standard input: "), "\(empty)")
        let help = try FlickdBinary.run(["help", "replay"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("- reads it from standard input"), "\(help)")
    }

    /// Where `-` is no stream, a file name of `-` is a usage error that says so and how to name
    /// a file called "-", before the command reads anything. (It read a file named "-".)
    @Test(arguments: [
        (["check-config", "-"], "Error: The argument '<FILE>' is '-', which flickd check-config does not take for standard input or output: give a file's name (./- for a file named '-')",
         "Usage: flickd check-config "),
        (["check-config", "--config", "-"], "Error: The value of '--config <FILE>' is '-', which flickd check-config does not take for standard input or output: give a file's name (./- for a file named '-')",
         "Usage: flickd check-config "),
        (["plot", "--config=-"], "Error: The value of '--config <FILE>' is '-', which flickd plot does not take for standard input or output: give a file's name (./- for a file named '-')",
         "Usage: flickd plot "),
        (["replay", "a.yml", "--desc", "-"], "Error: The value of '--desc <FILE>' is '-', which flickd replay does not take for standard input or output: give a file's name (./- for a file named '-')",
         "Usage: flickd replay "),
        (["run", "--config", "-"], "Error: The value of '--config <FILE>' is '-', which flickd run does not take for standard input or output: give a file's name (./- for a file named '-')",
         "Usage: flickd run "),
    ])
    func dashWhereNoStreamIsReadIsAUsageError(arguments: [String], error: String, usage: String) throws {
        let result = try FlickdBinary.run(arguments)
        #expect(result.status == 64, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == error, "\(result.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix(usage) == true, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A file over the 64 MiB flickd reads: the message says the limit, not the system's
    /// "File too large" (which is about the largest file a disk holds). A sparse file: no
    /// 65 MiB is written.
    @Test func aFileOverTheLimitIsNamedWithTheLimit() throws {
        let directory = try Self.temporaryDirectory("big")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big.yml"
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        #expect(ftruncate(fd, 65 << 20) == 0)
        close(fd)
        #expect(TextFile.maximumBytes == 64 << 20)
        do {
            _ = try TextFile.read(path)
            Issue.record("a 65 MiB file was read")
        } catch {
            #expect(TextFile.reason(for: error) == "it is larger than 64 MiB, the most flickd reads")
        }
        let replay = try FlickdBinary.run(["replay", path])
        #expect(replay.status == 1, "\(replay)")
        #expect(replay.stderr == "flickd: cannot read \(path): it is larger than 64 MiB, the most flickd reads\n", "\(replay)")
        // Any other failure keeps the system's words.
        #expect(TextFile.reason(for: SystemError(errno: ENOENT, call: "open", path: "x")) == "No such file or directory")
    }
}
