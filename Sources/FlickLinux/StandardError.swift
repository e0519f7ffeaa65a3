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

/// Who sent a signal, as the signalfd tells it (`signalfd_siginfo`'s `ssi_code` and `ssi_pid`).
public struct SignalSender: Sendable, Equatable {
    /// How it was sent: `SI_KERNEL` (0x80) from the kernel itself (a terminal's hang-up),
    /// `SI_USER` (0) from `kill`, `SI_TKILL` (-6) from `tgkill` and `raise`.
    public var code: Int32
    /// The sending process's id; 0 for the kernel.
    public var processID: pid_t

    /// A sender of `code` in process `processID`.
    public init(code: Int32, processID: pid_t) {
        self.code = code
        self.processID = processID
    }

    /// Whether the kernel sent it (`SI_KERNEL`), as it sends a hang-up's SIGHUP.
    public var isKernel: Bool { code == Int32(SI_KERNEL) }
}

/// The terminal flickd was started in, through its standard input, output or error: to tell,
/// at a SIGHUP, whether it is that terminal's hang-up (its window closed) or someone asks for
/// a reload (`systemctl reload`, `kill -HUP`).
///
/// A hung-up terminal fails every call on a descriptor of it with EIO, the process's own
/// descriptors included, whether or not it is the process's controlling terminal (the kernel
/// swaps the files' operations for failing ones before it sends SIGHUP). Checks without such a
/// descriptor are not reliable: `open("/dev/tty")` fails with ENXIO for a process started with
/// `setsid` in a terminal that is still open, and `tcgetpgrp` with ENOTTY.
///
/// That the terminal has hung up is not enough: a flickd that outlived its window (had the
/// closing been missed) would find it hung up at every later SIGHUP, and `kill -HUP` from
/// another shell asks it for a reload; the daemon also watches the terminal's descriptor for
/// the closing itself. Only the hang-up's own SIGHUP stops it:
/// sent by the kernel (to the session leader, and to the foreground job when the session
/// leader exits) or by flickd's session leader (the shell passing it on to its jobs as it
/// exits). And only a terminal whose session flickd is in counts: one started with `setsid`
/// has left it, and its hang-up sends flickd nothing.
public struct StartingTerminal: Sendable {
    /// Which of standard input, output and error (0, 1, 2) were, at `current()`, a terminal
    /// whose session is flickd's (`tcgetsid` is `getsid(0)`).
    public let descriptors: [Int32]
    /// flickd's session at `current()`: its leader's process id (`getsid(0)`).
    public let session: pid_t

    /// A terminal on `descriptors` of flickd's `session`.
    public init(descriptors: [Int32], session: pid_t) {
        self.descriptors = descriptors
        self.session = session
    }

    /// The standard streams that are now a terminal of this process's session.
    public static func current() -> StartingTerminal {
        current(of: [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO])
    }

    /// Those of `candidates` that are now a terminal of this process's session: the terminal
    /// says so (`tcgetsid`), which it does only to a process of its session (ENOTTY otherwise).
    static func current(of candidates: [Int32]) -> StartingTerminal {
        let session = getsid(0)
        return StartingTerminal(descriptors: candidates.filter { Syscall.isTerminal($0) && tcgetsid($0) == session },
                                session: session)
    }

    /// Whether the terminal has hung up: asking one of `descriptors` for its settings
    /// (`tcgetattr`) fails with EIO. Never, without a terminal at start.
    public func hasHungUp() -> Bool {
        descriptors.contains { fd in
            var settings = termios()
            return tcgetattr(fd, &settings) != 0 && Glibc.errno == EIO
        }
    }

    /// Whether a SIGHUP from `sender` is the terminal's hang-up, which ends flickd: the
    /// terminal has hung up, and the kernel or the session's leader sent it. Any other sender
    /// asks for a reload.
    public func isHangUp(from sender: SignalSender) -> Bool {
        (sender.isKernel || sender.processID == session) && hasHungUp()
    }
}
