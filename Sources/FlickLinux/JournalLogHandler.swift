import Glibc

/// How log lines are written to stderr.
public enum LogStyle: Hashable, Sendable {
    /// For systemd's journal: no timestamp (journald stamps each line), each line starting with
    /// its syslog priority in angle brackets (`<3>` error, `<4>` warning, `<6>` info), which
    /// journald strips and records as the entry's priority (sd-daemon(3)).
    case journal
    /// For a person at a terminal: local time to the millisecond, the level, the message.
    case terminal

    /// The style for a process whose stderr is `stderr` (nil: unknown), given its environment.
    ///
    /// Journal style when `$JOURNAL_STREAM` (`DEVICE:INODE`, set by systemd when it connects
    /// stderr to the journal) names the file stderr actually is, or, without a
    /// `$JOURNAL_STREAM`, when `$INVOCATION_ID` (set by systemd for every service) is set and
    /// stderr is not a terminal (stderr to syslog or kmsg, which read the same prefixes). Both
    /// variables are inherited by everything a service starts, a terminal emulator's shells
    /// included, so neither alone is trusted: a `$JOURNAL_STREAM` that names another file says
    /// that stderr was pointed elsewhere since (`flickd run 2>&1 | tee log` in such a shell),
    /// and `$INVOCATION_ID` is not asked then.
    public static func detect(
        environment: (String) -> String?, stderr: FileIdentity?, stderrIsTerminal: Bool
    ) -> LogStyle {
        if let stream = environment("JOURNAL_STREAM"), !stream.isEmpty {
            let parts = stream.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
               FileIdentity(device: device, inode: inode) == stderr {
                return .journal
            }
            return .terminal
        }
        if let invocation = environment("INVOCATION_ID"), !invocation.isEmpty, !stderrIsTerminal {
            return .journal
        }
        return .terminal
    }

    /// The style for this process's stderr.
    public static func detect() -> LogStyle {
        detect(
            environment: { name in getenv(name).map { String(cString: $0) } },
            stderr: try? Syscall.fileIdentity(STDERR_FILENO),
            stderrIsTerminal: Syscall.isTerminal(STDERR_FILENO))
    }
}

/// A log handler writing one line per message to stderr, in the `LogStyle` that suits
/// where stderr goes: priority prefixes for the journal, timestamps for a terminal.
///
/// Each message is written with one `write` so lines from different threads never interleave.
/// A message with several lines is written as several lines, each with the prefix, so the
/// journal gives every line its priority.
public struct JournalLogHandler: LogHandler {
    /// Local wall-clock time, for the terminal style.
    public struct WallTime: Hashable, Sendable {
        public var year: Int, month: Int, day: Int
        public var hour: Int, minute: Int, second: Int, millisecond: Int

        /// The time `year`-`month`-`day` `hour`:`minute`:`second`.`millisecond`.
        public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
            (self.year, self.month, self.day) = (year, month, day)
            (self.hour, self.minute, self.second, self.millisecond) = (hour, minute, second, millisecond)
        }

        /// The current local time (`CLOCK_REALTIME`, `localtime_r`).
        public static func now() -> WallTime {
            var now = timespec()
            _ = clock_gettime(CLOCK_REALTIME, &now)
            var seconds = now.tv_sec
            var local = tm()
            _ = localtime_r(&seconds, &local)
            return WallTime(
                year: Int(local.tm_year) + 1900, month: Int(local.tm_mon) + 1, day: Int(local.tm_mday),
                hour: Int(local.tm_hour), minute: Int(local.tm_min), second: Int(local.tm_sec),
                millisecond: now.tv_nsec / 1_000_000)
        }

        /// `2026-11-22 15:58:06.123`.
        var text: String {
            func padded(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2)) "
                + "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2)).\(padded(millisecond, 3))"
        }
    }

    public var logLevel: Logger.Level

    /// Where lines go.
    public let style: LogStyle
    private let clock: @Sendable () -> WallTime
    private let output: @Sendable (String) -> Void

    /// A handler writing to stderr in `style` (by default the one `LogStyle.detect()` finds),
    /// passing messages at `logLevel` and above.
    public init(style: LogStyle = .detect(), logLevel: Logger.Level = .info) {
        self.init(style: style, logLevel: logLevel, clock: WallTime.now, output: StandardError.write)
    }

    /// A handler writing each formatted message (newline included) to `output`, with time from
    /// `clock`; for tests.
    public init(
        style: LogStyle, logLevel: Logger.Level,
        clock: @escaping @Sendable () -> WallTime, output: @escaping @Sendable (String) -> Void
    ) {
        self.style = style
        self.logLevel = logLevel
        self.clock = clock
        self.output = output
    }

    public func log(event: LogEvent) {
        let time = style == .terminal ? clock() : nil
        output(Self.format(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:], style: style, time: time))
    }

    /// The syslog priority journald records for `level` (sd-daemon(3)'s `SD_*` prefixes):
    /// trace and debug 7, info 6, notice 5, warning 4, error 3, critical 2.
    public static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// The text written for one message, ending in a newline.
    ///
    /// Journal: `<6>message key=value`, every line of a multi-line message prefixed (a line ends
    /// at any newline, CR LF and CR included, and at a NUL).
    /// Terminal: `2026-11-22 15:58:06.123 info: message key=value`, continuation lines as they are.
    public static func format(
        level: Logger.Level, message: String, metadata: Logger.Metadata, style: LogStyle, time: WallTime?
    ) -> String {
        var text = message
        for key in metadata.keys.sorted() { text += " \(key)=\(metadata[key]!)" }
        switch style {
        case .journal:
            let prefix = "<\(priority(of: level))>"
            // Every line break, so that text from elsewhere in a message (a device's name) starts
            // no line of its own that journald would read a priority from: "\r\n" is one
            // Character, which a split on "\n" does not cut, and journald ends a line at a NUL too.
            return text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline || $0 == "\0" })
                .map { prefix + $0 + "\n" }.joined()
        case .terminal:
            let stamp = time.map { $0.text + " " } ?? ""
            return "\(stamp)\(level): \(text)\n"
        }
    }
}
