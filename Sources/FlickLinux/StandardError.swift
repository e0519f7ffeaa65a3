// C's `stdout` is a global variable, which Swift 6 reads only from a module imported
// @preconcurrency; flickd never assigns it, and its FILE locks itself.
@preconcurrency import Glibc

/// The process's standard error, for the command line's explanations (logging goes through
/// `Logger` and `JournalLogHandler`).
public enum StandardError {
    /// Writes `text` to stderr, ignoring failures (there is nowhere else to report them).
    /// Standard output's buffered text goes out first: where both go to one file
    /// (`flickd devices > log 2>&1`), an error comes after the lines it follows.
    public static func write(_ text: String) {
        // A failure is remembered for the exit to report (`StandardOutput.flush`).
        try? StandardOutput.flush()
        var text = text
        text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty, let written = try? Syscall.write(STDERR_FILENO, rest), written > 0 {
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }
}

/// The process's standard output, through C stdio's buffered `stdout` as Swift's `print`
/// writes it, remembering why a write failed: stdio keeps only that one did, and drops the
/// text it could not write.
public enum StandardOutput {
    /// The errno of the first write to standard output that failed; nil while none has.
    nonisolated(unsafe) private static var failure: Int32?

    /// Writes `text` to standard output's buffer (and the buffer out when it is full).
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            if fwrite(bytes.baseAddress, 1, bytes.count, stdout) < bytes.count { remember(errno) }
        }
    }

    /// Writes out what is buffered. Throws when standard output could not take it, now or at an
    /// earlier write (a full disk, `> /dev/full`): the error of the first write that failed,
    /// EIO when that was a write by some other way whose errno is gone (`Swift.print`).
    public static func flush() throws(SystemError) {
        if fflush(stdout) != 0 { remember(errno) }
        if ferror(stdout) != 0 { remember(EIO) }
        if let failure { throw SystemError(errno: failure, call: "write") }
    }

    /// Keeps `error` unless an earlier failure is already kept.
    private static func remember(_ error: Int32) {
        if failure == nil { failure = error }
    }
}

extension StandardError {
    /// Ignores SIGPIPE from now on, for `flickd run` to call first thing. Its default kills
    /// flickd at a log line written to a pipe whose reader has gone: in `flickd run 2>&1 | grep
    /// coast`, Ctrl-C ends grep as well, often first, and the line saying "SIGINT: shutting
    /// down" would end flickd before its shutdown lifts the virtual fingers. Ignored, the write
    /// fails with EPIPE, which `write` drops. (systemd ignores it for a service already:
    /// IgnoreSIGPIPE=yes.) An ignored SIGPIPE is inherited across exec: the programs the daemon
    /// starts get it back at its default (`DesktopSettings.spawn`).
    public static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}

/// The terminal flickd was started in, through its standard input, output or error: to tell,
/// at a SIGHUP, whether that terminal has hung up (its window closed) or someone asks for a
/// reload (`systemctl reload`, `kill -HUP`).
///
/// A hung-up terminal fails every call on a descriptor of it with EIO, the process's own
/// descriptors included, whether or not it is the process's controlling terminal (the kernel
/// swaps the files' operations for failing ones before it sends SIGHUP). Checks without such a
/// descriptor are not reliable: `open("/dev/tty")` fails with ENXIO for a process started with
/// `setsid` in a terminal that is still open, and `tcgetpgrp` with ENOTTY.
public struct StartingTerminal: Sendable {
    /// Which of standard input, output and error (0, 1, 2) were a terminal at `current()`.
    public let descriptors: [Int32]

    /// The standard streams that are a terminal now.
    public static func current() -> StartingTerminal {
        StartingTerminal(descriptors: [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].filter(Syscall.isTerminal))
    }

    /// Whether the terminal has hung up: asking one of `descriptors` for its settings
    /// (`tcgetattr`) fails with EIO. Never, without a terminal at start.
    public func hasHungUp() -> Bool {
        descriptors.contains { fd in
            var settings = termios()
            return tcgetattr(fd, &settings) != 0 && Glibc.errno == EIO
        }
    }
}
