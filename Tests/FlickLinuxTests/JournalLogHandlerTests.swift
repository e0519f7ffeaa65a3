import Synchronization
import Testing
@testable import FlickLinux

@Suite("Log lines for the journal and for a terminal")
struct JournalLogHandlerTests {
    static let noon = JournalLogHandler.WallTime(
        year: 2026, month: 3, day: 7, hour: 12, minute: 4, second: 5, millisecond: 9)

    /// Messages logged through a `JournalLogHandler` in `style`, as written.
    static func written(style: LogStyle, level: Logger.Level = .debug, _ body: (Logger) -> Void) -> [String] {
        let lines = Mutex<[String]>([])
        let handler = JournalLogHandler(
            style: style, logLevel: level, clock: { noon }, output: { text in lines.withLock { $0.append(text) } })
        body(Logger(label: "flickd") { _ in handler })
        return lines.withLock { $0 }
    }

    @Test("levels become syslog priorities", arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func priorities(level: Logger.Level, priority: Int) {
        #expect(JournalLogHandler.priority(of: level) == priority)
        let lines = Self.written(style: .journal, level: .trace) { $0.log(level: level, "message") }
        #expect(lines == ["<\(priority)>message\n"])
    }

    @Test("under systemd: no timestamp, the prefix on every line of a message")
    func journalLines() {
        let lines = Self.written(style: .journal) { logger in
            logger.warning("cannot read /dev/input/event4 (Permission denied)")
            logger.error("the configuration has errors; nothing was started:\nconfig.toml:3: bad\nconfig.toml:9: worse")
        }
        #expect(lines == [
            "<4>cannot read /dev/input/event4 (Permission denied)\n",
            "<3>the configuration has errors; nothing was started:\n<3>config.toml:3: bad\n<3>config.toml:9: worse\n",
        ])
        #expect(!lines.joined().contains("2026"))
    }

    /// A message carrying text from outside flickd (a device's name) must not start a journal
    /// line of its own: journald reads a `<N>` at a line's start as its priority. "\r\n" is one
    /// Character in Swift, which splitting on "\n" did not cut: the line after it went out
    /// bare, as an emergency (`<0>`). journald also ends a line at a NUL.
    @Test("every line break, CR LF and NUL included, starts a line with the prefix")
    func noForgedPriority() {
        let lines = Self.written(style: .journal) { logger in
            logger.warning("pad \"x\r\n<0>forged\"")
            logger.warning("pad \"x\r<0>cr\u{0}<0>nul\"")
        }
        #expect(lines == [
            "<4>pad \"x\n<4><0>forged\"\n",
            "<4>pad \"x\n<4><0>cr\n<4><0>nul\"\n",
        ])
    }

    @Test("on a terminal: local time to the millisecond, then the level")
    func terminalLines() {
        let lines = Self.written(style: .terminal) { logger in
            logger.info("created flickd virtual wheel at /dev/input/event9")
            logger.debug("coast", metadata: ["device": "3", "axis": "vertical"])
        }
        #expect(lines == [
            "2026-03-07 12:04:05.009 info: created flickd virtual wheel at /dev/input/event9\n",
            "2026-03-07 12:04:05.009 debug: coast axis=vertical device=3\n",
        ])
    }

    @Test("messages below the level are not written")
    func levelFilters() {
        let lines = Self.written(style: .journal, level: .info) { logger in
            logger.debug("hidden")
            logger.info("shown")
        }
        #expect(lines == ["<6>shown\n"])
    }

    @Test("journal style only when JOURNAL_STREAM is stderr itself, or INVOCATION_ID without a terminal")
    func detection() {
        let stderr = FileIdentity(device: 23, inode: 4711)
        func style(_ environment: [String: String], terminal: Bool = false) -> LogStyle {
            LogStyle.detect(environment: { environment[$0] }, stderr: stderr, stderrIsTerminal: terminal)
        }
        #expect(style(["JOURNAL_STREAM": "23:4711"]) == .journal)
        #expect(style(["JOURNAL_STREAM": "23:4711"], terminal: true) == .journal)
        // Inherited by a terminal emulator's shell from the service that started it.
        #expect(style(["JOURNAL_STREAM": "23:9999"], terminal: true) == .terminal)
        #expect(style(["JOURNAL_STREAM": "garbage"], terminal: true) == .terminal)
        #expect(style(["INVOCATION_ID": "0123abcd"]) == .journal)
        #expect(style(["INVOCATION_ID": "0123abcd"], terminal: true) == .terminal)
        #expect(style([:]) == .terminal)
        #expect(style([:], terminal: true) == .terminal)
    }

    @Test("a JOURNAL_STREAM naming another file than stderr is a terminal's, whatever INVOCATION_ID says")
    func aJournalStreamOfAnotherFileIsNoJournal() {
        // A shell in a terminal emulator started as a systemd user service inherits both, and
        // `flickd run --verbose 2>&1 | tee log` points stderr at a pipe: no `<7>` prefixes
        // for the person reading it, and timestamps.
        let pipe = FileIdentity(device: 14, inode: 88_812)
        func style(_ environment: [String: String], stderr: FileIdentity? = pipe) -> LogStyle {
            LogStyle.detect(environment: { environment[$0] }, stderr: stderr, stderrIsTerminal: false)
        }
        #expect(style(["JOURNAL_STREAM": "23:9999", "INVOCATION_ID": "0123abcd"]) == .terminal)
        #expect(style(["JOURNAL_STREAM": "garbage", "INVOCATION_ID": "0123abcd"]) == .terminal)
        #expect(style(["JOURNAL_STREAM": "23:9999", "INVOCATION_ID": "0123abcd"], stderr: nil) == .terminal)
        #expect(style(["JOURNAL_STREAM": "14:88812", "INVOCATION_ID": "0123abcd"]) == .journal)
        // Set but empty is no stream: INVOCATION_ID decides (stderr to kmsg or syslog).
        #expect(style(["JOURNAL_STREAM": "", "INVOCATION_ID": "0123abcd"]) == .journal)
    }
}
