import Glibc

/// The process's standard error, for the command line's explanations (logging goes through
/// `Logger` and `JournalLogHandler`).
public enum StandardError {
    /// Writes `text` to stderr, ignoring failures (there is nowhere else to report them).
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty, let written = try? Syscall.write(STDERR_FILENO, rest), written > 0 {
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            }
        }
    }
}
