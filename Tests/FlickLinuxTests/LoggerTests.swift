import Glibc
import Testing
@testable import FlickLinux

/// Collects what reaches it.
private final class Collected: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var lines: [String] = []
    init() { pthread_mutex_init(&lock, nil) }
    func add(_ line: String) {
        pthread_mutex_lock(&lock)
        lines.append(line)
        pthread_mutex_unlock(&lock)
    }
    var all: [String] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return lines
    }
}

private struct CollectingHandler: LogHandler {
    let into: Collected
    var logLevel: Logger.Level
    func log(event: LogEvent) {
        let extra = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        into.add("\(event.level): \(event.message)\(extra)")
    }
}

/// flickd's logger: the handler's level decides, and a message below it is never built.
@Suite struct LoggerTests {
    @Test func levelsAreOrderedAndNamed() {
        #expect(Logger.Level.allCases == [.trace, .debug, .info, .notice, .warning, .error, .critical])
        #expect(Logger.Level.allCases.map(\.description) == ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        #expect(Logger.Level.debug < .info && !(Logger.Level.error < .warning))
    }

    @Test func onlyMessagesAtTheLevelOrAboveArriveAndOthersAreNotBuilt() {
        let collected = Collected()
        var logger = Logger(label: "test") { _ in CollectingHandler(into: collected, logLevel: .info) }
        var built = 0
        func expensive() -> String {
            built += 1
            return "built"
        }
        logger.debug("not \(expensive())")
        logger.info("shown \(expensive())", metadata: ["device": "3"])
        logger.warning("warned")
        logger.logLevel = .error
        logger.warning("hidden \(expensive())")
        logger.critical("critical")
        #expect(collected.all == ["info: shown built device=3", "warning: warned", "critical: critical"])
        #expect(built == 1, "the debug and the later warning line were never built")
        #expect(logger.handler.logLevel == .error)
    }

    @Test func theJournalHandlerWritesThroughTheLogger() {
        let collected = Collected()
        let handler = JournalLogHandler(style: .journal, logLevel: .info, clock: { JournalLogHandlerTests.noon }, output: { collected.add($0) })
        let logger = Logger(label: "flickd") { _ in handler }
        logger.error("it failed", metadata: ["path": "/dev/input/event3"])
        logger.debug("quiet")
        #expect(collected.all == ["<3>it failed path=/dev/input/event3\n"])
    }
}
