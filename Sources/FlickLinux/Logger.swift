import Glibc

/// flickd's log: a level and a handler that writes (`JournalLogHandler` in the daemon).
///
/// Messages are autoclosures, so a line below the handler's level is never built. The shape
/// follows swift-log's (`Logger`, `LogHandler`, `LogEvent`, `Logger.Level`), which flickd used
/// until 2026-11-24; only what flickd needs is here.
///
/// Rationale (docs/DESIGN.md, "Logging: flickd's own logger"): swift-log 1.16 carries a
/// task-local logger for structured concurrency, and with it links Swift's concurrency runtime
/// and libdispatch into every program that uses it, with their start-up constructors and
/// relocated tables: about 210 KiB of flickd's resident memory, measured, for a feature flickd,
/// one epoll loop without tasks, never uses.
public struct Logger: Sendable {
    /// How much a message matters, from `trace` (least) to `critical`.
    public enum Level: Int, Comparable, CaseIterable, Sendable, CustomStringConvertible {
        case trace, debug, info, notice, warning, error, critical

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            }
        }
    }

    /// Text written after a message as `key=value`.
    public typealias Metadata = [String: MetadataValue]

    /// A metadata value: text.
    public struct MetadataValue: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByStringInterpolation
    {
        public var description: String
        public init(_ text: String) { description = text }
        public init(stringLiteral value: String) { description = value }
    }

    /// A message: a string literal, interpolations included.
    public struct Message: Sendable, CustomStringConvertible, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
        public var description: String
        public init(_ text: String) { description = text }
        public init(stringLiteral value: String) { description = value }
    }

    /// Where messages go.
    public var handler: any LogHandler

    /// A logger sending to `factory(label)`.
    public init(label: String, factory: (String) -> any LogHandler) {
        handler = factory(label)
    }

    /// A logger sending to the process's handler (`LoggingSystem.bootstrap`; by default a
    /// `JournalLogHandler` at `info`).
    public init(label: String) {
        self.init(label: label, factory: LoggingSystem.factory)
    }

    /// The lowest level passed on.
    public var logLevel: Level {
        get { handler.logLevel }
        set { handler.logLevel = newValue }
    }

    /// Sends `message` at `level` when the handler's level lets it through.
    public func log(
        level: Level, _ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        guard level >= handler.logLevel else { return }
        handler.log(event: LogEvent(level: level, message: message(), metadata: metadata()))
    }

    public func trace(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .trace, message(), metadata: metadata())
    }

    public func debug(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .debug, message(), metadata: metadata())
    }

    public func info(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .info, message(), metadata: metadata())
    }

    public func notice(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .notice, message(), metadata: metadata())
    }

    public func warning(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .warning, message(), metadata: metadata())
    }

    public func error(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .error, message(), metadata: metadata())
    }

    public func critical(_ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil) {
        log(level: .critical, message(), metadata: metadata())
    }
}

/// One message on its way to a handler.
public struct LogEvent: Sendable {
    public var level: Logger.Level
    public var message: Logger.Message
    public var metadata: Logger.Metadata?
}

/// Writes messages somewhere; a logger passes it only those at `logLevel` or above.
public protocol LogHandler: Sendable {
    var logLevel: Logger.Level { get set }
    func log(event: LogEvent)
}

/// A handler that writes nothing (tests; the start-up rehearsal's reports, formatted and dropped).
public struct NoOpLogHandler: LogHandler {
    public var logLevel: Logger.Level = .critical
    public init() {}
    public func log(event: LogEvent) {}
}

/// The handler `Logger(label:)` sends to: set once, before the first logger is made.
public enum LoggingSystem {
    nonisolated(unsafe) private static var made: (String) -> any LogHandler = { _ in JournalLogHandler() }
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    /// Makes `factory` the handler of every `Logger(label:)` made from now on.
    public static func bootstrap(_ factory: @escaping (String) -> any LogHandler) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        made = factory
    }

    static func factory(_ label: String) -> any LogHandler {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return made(label)
    }
}
