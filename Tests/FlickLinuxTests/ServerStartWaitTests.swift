import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// The wait for an X server to start (`XServerStartWatch`, inotify on /tmp/.X11-unix) ends when
/// its directory goes: the log says so and why (an earlier line promised the server's start
/// would be heard), and the wait is made again, at once or at the next ask.
@Suite("X server start wait", .serialized)
struct ServerStartWaitTests {
    /// The session's X server is not up (every opening of its watch fails), so flickd waits at
    /// its socket's directory; the directory is removed (a clean-up of /tmp): the log says the
    /// wait ended and why, none can be made at once (no directory), and the next ask (the
    /// desktop's settings changed) makes one again. Before, the wait ended unsaid.
    @Test func aStartWaitThatEndsIsLoggedAndMadeAgainAtTheNextAsk() throws {
        let change = try SignalledWatch(says: .touchpads, source: "the desktop's settings")
        let first = try SignalledWatch(says: .closed, source: "/tmp/.X11-unix/X0 for an X server to start",
                                       whyEnded: "/tmp/.X11-unix was removed")
        let third = try SignalledWatch(says: .started, source: "/tmp/.X11-unix/X0 (made again) for an X server to start")
        let starts = ProbeCounter()
        let query = try DesktopQuery(probe: { _ in .found(DesktopSettings.Answer(true, "x test")) },
                                     watchChanges: { _ in change },
                                     openServerWatch: { .failed(why: "no X server yet") },
                                     watchServerStart: { _ in
                                         switch starts.next() {
                                         case 1:
                                             first.signal()
                                             return first
                                         case 2:
                                             return nil  // the directory is gone
                                         default:
                                             return third
                                         }
                                     }, tellsDriverGlides: false)
        let ended = "natural scrolling: the wait at /tmp/.X11-unix/X0 for an X server to start ended (/tmp/.X11-unix was removed); an X server's start is waited for again when the desktop is next asked (a reload, a touchpad plugged in)"
        let waitingAgain = "natural scrolling: waiting at /tmp/.X11-unix/X0 (made again) for an X server to start"
        let lines = LinesUntil(waitingAgain) { line in
            if line == ended { change.signal() }
        }
        let daemon = try Daemon(engine: Engine(), wheel: RecordingWheel(), monitor: nil,
                                logger: Logger(label: "flickd-test") { _ in lines }, desktop: query) {
            Issue.record("nothing reloads")
            return .defaults
        }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        #expect(lines.levels(of: ended) == [.info], "\(lines.all)")
        #expect(starts.count == 3, "at the first failed opening, at once when it ended, at the next ask: \(lines.all)")
    }

    /// The directory renamed and made anew at once: the wait is made again at once, and said.
    @Test func aStartWaitThatEndsIsMadeAgainAtOnceWhenItCanBe() throws {
        let first = try SignalledWatch(says: .closed, source: "/tmp/.X11-unix/X0 for an X server to start",
                                       whyEnded: "/tmp/.X11-unix was renamed")
        let second = try SignalledWatch(says: .none, source: "/tmp/.X11-unix/X0 (new) for an X server to start")
        let starts = ProbeCounter()
        let query = try DesktopQuery(probe: { _ in .found(DesktopSettings.Answer(true, "x test")) },
                                     watchChanges: { _ in nil },
                                     openServerWatch: { .failed(why: "no X server yet") },
                                     watchServerStart: { _ in
                                         guard starts.next() == 1 else { return second }
                                         first.signal()
                                         return first
                                     }, tellsDriverGlides: false)
        let ended = "natural scrolling: the wait at /tmp/.X11-unix/X0 for an X server to start ended (/tmp/.X11-unix was renamed); waiting again at /tmp/.X11-unix/X0 (new) for an X server to start"
        let lines = LinesUntil(ended)
        let daemon = try Daemon(engine: Engine(), wheel: RecordingWheel(), monitor: nil,
                                logger: Logger(label: "flickd-test") { _ in lines }, desktop: query) {
            Issue.record("nothing reloads")
            return .defaults
        }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        #expect(lines.levels(of: ended) == [.info], "\(lines.all)")
        #expect(starts.count == 2, "\(lines.all)")
    }
}

/// Keeps every line logged with its level, runs `each` with each, and sends SIGTERM once
/// `last` is logged.
private final class LinesUntil: LogHandler, @unchecked Sendable {
    var logLevel: Logger.Level = .debug
    private let last: String
    private let each: (String) -> Void
    private var logged: [(Logger.Level, String)] = []
    private var lock = pthread_mutex_t()

    init(_ last: String, each: @escaping (String) -> Void = { _ in }) {
        self.last = last
        self.each = each
        pthread_mutex_init(&lock, nil)
    }

    func log(event: LogEvent) {
        let line = "\(event.message)"
        pthread_mutex_lock(&lock)
        logged.append((event.level, line))
        pthread_mutex_unlock(&lock)
        each(line)
        if line == last { raise(SIGTERM) }
    }

    func levels(of line: String) -> [Logger.Level] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return logged.filter { $0.1 == line }.map(\.0)
    }

    var all: [String] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return logged.map { "\($0.0): \($0.1)" }
    }
}

/// A watch the test makes readable: each `signal()` makes `receive()` say `says`; one that
/// says `.closed` explains it with `whyEnded`.
private final class SignalledWatch: DesktopWatch, ExplainsItsEnd, @unchecked Sendable {
    let fileDescriptor: Int32
    private let writeEnd: Int32
    private let says: DesktopChange
    let source: String
    private let why: String?
    private(set) var whyEnded: String?

    init(says: DesktopChange, source: String, whyEnded: String? = nil) throws {
        self.says = says
        self.source = source
        why = whyEnded
        let ends = try Syscall.makePipe()
        (fileDescriptor, writeEnd) = (ends.read, ends.write)
        Syscall.setNonBlocking(fileDescriptor)
    }

    deinit {
        close(fileDescriptor)
        close(writeEnd)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    func receive() -> DesktopChange {
        var byte: UInt8 = 0
        var changes = 0
        while read(fileDescriptor, &byte, 1) == 1 { changes += 1 }
        guard changes > 0 else { return .none }
        if says == .closed { whyEnded = why }
        return says
    }
}
