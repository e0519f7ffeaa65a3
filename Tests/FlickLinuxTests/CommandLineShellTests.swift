import Foundation
import Glibc
import Testing

/// The `flickd` binary run by a shell, for what only a shell gives it: standard output and
/// error pointed elsewhere (a full device, one file for both), and arguments that are not
/// UTF-8 (`Process` takes text).
@Suite struct CommandLineShellTests {
    /// Runs `script` with /bin/sh, flickd's path as `$0` and `arguments` as `$1`...
    static func shell(_ script: String, _ arguments: String...) throws -> FlickdBinary.Result {
        try ChildProcess.run("/bin/sh", ["-c", script, FlickdBinary.url.path] + arguments)
    }

    /// Output that cannot be written is a failure, not a success that lost it: the SVG (more
    /// than stdio's buffer) and the help (less, written only at exit) alike.
    @Test(.enabled(if: access("/dev/full", W_OK) == 0, "no /dev/full"),
          arguments: ["plot --config /dev/null", "--help", "help replay"])
    func outputThatCannotBeWrittenFailsTheCommand(arguments: String) throws {
        let result = try Self.shell(#"exec "$0" \#(arguments) > /dev/full"#)
        #expect(result.status == 1, "flickd \(arguments) > /dev/full: \(result)")
        #expect(result.stderr == "flickd: cannot write the output: No space left on device\n", "\(result)")
    }
}

extension CommandLineShellTests {
    /// Standard output and error in one file (`flickd devices > log 2>&1`) read as the two do
    /// apart: an error comes after the lines printed before it, not ahead of the buffered ones.
    /// (Where every device opens, devices prints no error, and the order holds trivially.)
    @Test func anErrorComesAfterTheOutputBeforeIt() throws {
        let apart = try FlickdBinary.run(["devices", "--config", "/dev/null"])
        let together = try Self.shell(#"exec "$0" devices --config /dev/null 2>&1"#)
        #expect(together.status == apart.status)
        #expect(together.stdout == apart.stdout + apart.stderr, "apart: \(apart)")
    }
}

extension CommandLineShellTests {
    /// A file name that is not UTF-8 cannot reach the system as typed (Swift reads the
    /// arguments as text, each such byte made U+FFFD): it is refused as a command line that
    /// cannot be run, rather than another file opened or written. Made with printf's octal
    /// escapes: \\351 is the byte E9, "é" in Latin-1.
    @Test func aFileNameThatIsNotUTF8IsRefused() throws {
        let directory = NSTemporaryDirectory() + "flickd-test-\(getpid())-latin1"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hint = "; flickd takes file names as UTF-8 text only: give a UTF-8 name (`ln -s` makes one for an existing file)"

        let replay = try Self.shell(#"cd "$1" && name=$(printf 'caf\351.events') && echo 'N: pad' > "$name" && exec "$0" replay "$name""#,
                                    directory)
        #expect(replay.status == 64, "\(replay)")
        #expect(replay.stderr.hasPrefix(#"Error: The argument '<FILE>' is not UTF-8: 'caf\xE9.events'"# + hint + "\nUsage: flickd replay "),
                "\(replay)")

        let plot = try Self.shell(#"cd "$1" && exec "$0" plot --out "$(printf 'r\351.svg')""#, directory)
        #expect(plot.status == 64, "\(plot)")
        #expect(plot.stderr.hasPrefix(#"Error: The value of '--out <FILE.svg>' is not UTF-8: 'r\xE9.svg'"# + hint), "\(plot)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1, "plot wrote no file: the one there is replay's")

        let config = try Self.shell(#"exec "$0" check-config --config="$(printf '/tmp/\351.toml')""#)
        #expect(config.status == 64, "\(config)")
        #expect(config.stderr.hasPrefix(#"Error: The value of '--config <FILE>' is not UTF-8: '/tmp/\xE9.toml'"#), "\(config)")
    }
}

extension CommandLineShellTests {
    /// `flickd run 2>&1 | grep coast`, grep ended first (by the Ctrl-C that stops both): a log
    /// line to a pipe nobody reads any more fails, and flickd goes on to its own end (its
    /// shutdown lifts the virtual fingers) rather than dying of SIGPIPE at the write. Here
    /// the end is a configuration that cannot be read: status 1, not signal 13. The pipe is a
    /// FIFO opened for reading and writing, then its reading end closed: no reader, from the
    /// start, and no race with one that exits.
    @Test func aLogLineNobodyReadsDoesNotKillTheDaemon() throws {
        let directory = NSTemporaryDirectory() + "flickd-test-\(getpid())-sigpipe"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.shell(#"mkfifo "$1/log" && exec 3<>"$1/log" 4>"$1/log" 3<&- && exec "$0" run --config "$1/missing.toml" 2>&4 4>&-"#,
                                    directory)
        #expect(result.status == 1, "flickd run with stderr a pipe nobody reads: \(result)")
    }
}
