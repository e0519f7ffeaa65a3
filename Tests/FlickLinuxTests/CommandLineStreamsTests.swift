import Foundation
import Glibc
import Testing

/// The `flickd` binary's standard output and error where the shell points them: a full
/// device, one file for both.
@Suite struct CommandLineStreamsTests {
    /// Runs `script` with /bin/sh, flickd's path as `$0`: the redirections are the shell's.
    static func shell(_ script: String) throws -> FlickdBinary.Result {
        try ChildProcess.run("/bin/sh", ["-c", script, FlickdBinary.url.path])
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

extension CommandLineStreamsTests {
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
