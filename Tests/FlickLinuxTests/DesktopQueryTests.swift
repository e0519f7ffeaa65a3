import FlickCore
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// A door a helper thread waits at, opened by the test: a pipe read blocking until a byte comes.
private final class Gate: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0)
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Blocks until `open()`; each waiter takes one byte.
    func wait() {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Lets every waiting thread through (a daemon may have asked more than once).
    func open() {
        let bytes = [UInt8](repeating: 1, count: 64)
        _ = write(writeEnd, bytes, bytes.count)
    }
}

/// Counts probes across the helper thread and the test, and notes the thread each ran on.
/// sway's end of the connection a test's sway answered on, closed when the test ends.
private final class Connection: @unchecked Sendable {
    private var fd: Int32?
    private var closed = false
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }

    /// Keeps `fd`; closes it at once when the test has ended already.
    func set(_ fd: Int32?) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        self.fd = fd
        if closed { closeLocked() }
    }

    func close() {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        closed = true
        closeLocked()
    }

    private func closeLocked() {
        if let fd { Glibc.close(fd) }
        fd = nil
    }
}

final class ProbeCounter: @unchecked Sendable {
    private var value = 0
    private var threads: [pthread_t] = []
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }

    /// The number of this probe, from 1.
    func next() -> Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        value += 1
        threads.append(pthread_self())
        return value
    }

    var count: Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return value
    }

    /// Whether every probe so far ran on one thread.
    var ranOnOneThread: Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return threads.allSatisfy { pthread_equal($0, threads[0]) != 0 }
    }
}

/// Whether `fd` becomes readable within `milliseconds` (0: is it now).
private func readable(_ fd: Int32, within milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) == 1
}

/// Whether `fd` holds at least `count` bytes within 10 s: the helper thread wrote them.
private func bytesWaiting(_ fd: Int32, atLeast count: Int32) -> Bool {
    var deadline = timespec()
    clock_gettime(CLOCK_MONOTONIC, &deadline)
    deadline.tv_sec += 10
    while true {
        var bytes: Int32 = 0
        _ = ioctl(fd, UInt(FIONREAD), &bytes)
        if bytes >= count { return true }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        if now.tv_sec > deadline.tv_sec { return false }
        sched_yield()
    }
}

/// Whether `query` answers within 5 s (a wake with no answer, a watch kept, is waited past).
private func answered(_ query: DesktopQuery) -> Bool {
    while readable(query.fileDescriptor, within: 5000) {
        if query.receive() != nil { return true }
    }
    return false
}

/// Logs nowhere, and sends SIGTERM to the logging thread (the daemon's) on a line starting with
/// `prefix`: the loop ends once it has done what the line says.
private struct TerminateOnLine: LogHandler {
    let prefix: String
    var logLevel: Logger.Level = .debug
    func log(event: LogEvent) {
        if "\(event.message)".hasPrefix(prefix) { raise(SIGTERM) }
    }
}

/// Keeps the level of every line logged, and sends SIGTERM to the logging thread once the line
/// `message` has been logged `endAfter` times; `then` runs (on the logging thread) each time it
/// is logged before that.
private final class LevelledLines: LogHandler, @unchecked Sendable {
    var logLevel: Logger.Level = .debug
    private let message: String
    private let endAfter: Int
    private let then: () -> Void
    private let each: (String) -> Void
    private var logged: [(Logger.Level, String)] = []
    private var lock = pthread_mutex_t()

    /// `each` runs with every line logged.
    init(endAfter: Int, of message: String, then: @escaping () -> Void = {}, each: @escaping (String) -> Void = { _ in }) {
        self.endAfter = endAfter
        self.message = message
        self.then = then
        self.each = each
        pthread_mutex_init(&lock, nil)
    }

    func log(event: LogEvent) {
        pthread_mutex_lock(&lock)
        logged.append((event.level, "\(event.message)"))
        let seen = logged.filter { $0.1 == message }.count
        pthread_mutex_unlock(&lock)
        each("\(event.message)")
        guard "\(event.message)" == message else { return }
        if seen == endAfter { raise(SIGTERM) } else { then() }
    }

    /// The levels `line` was logged at, in order.
    func levels(of line: String) -> [Logger.Level] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return logged.filter { $0.1 == line }.map(\.0)
    }
}

/// A `watchChanges` that opens one watch, on the socket `ours`, with the first ask, and has sway
/// (the socket's other end) say a touchpad's settings changed once it is watched; later asks
/// open none. `watches` counts the calls.
private func oneSwayChange(_ ours: Int32, _ sway: Int32, counting watches: ProbeCounter) -> (Logger) -> (any DesktopWatch)? {
    let event = SwayIPC.encode(type: SwayIPC.MessageType.inputEvent, payload: SwayIPCTests.inputEvent("libinput_config"))
    return { _ in
        guard watches.next() == 1, let watch = try? SwayInputWatch(connected: ours) else { return nil }
        send(sway, event)
        return watch
    }
}

/// A query that asks `probe` and reads nothing of the session running the tests: no watch of
/// its desktop or X server unless a test passes one, and no driver glides to ask about whatever
/// the session is (`DesktopQuery`'s defaults are the session's: in an X11 terminal the daemon
/// asked the desktop where a test said it must not).
private func testQuery(probe: @escaping @Sendable ([DeviceIdentity]) -> DesktopQuery.Answer,
                       watchChanges: @escaping (Logger) -> (any DesktopWatch)? = { _ in nil },
                       openServerWatch: @escaping @Sendable () -> ServerWatchOpening? = { nil },
                       watchServerStart: @escaping (Logger) -> (any DesktopWatch)? = { _ in nil }) throws -> DesktopQuery {
    try DesktopQuery(probe: probe, watchChanges: watchChanges, openServerWatch: openServerWatch,
                     watchServerStart: watchServerStart, tellsDriverGlides: false)
}

/// Runs a daemon with no devices, asking `desktop`, until `logger` ends it (a watchdog ends it
/// after 10 s); nothing reloads.
private func runUntilLogged(_ engine: Engine, logger: Logger, desktop: DesktopQuery) throws {
    let daemon = try Daemon(engine: engine, wheel: RecordingWheel(), monitor: nil, logger: logger, desktop: desktop) {
        Issue.record("nothing reloads")
        return .defaults
    }
    let watchdog = DaemonWatchdog(seconds: 10)
    try daemon.run()
    watchdog.cancel()
}

/// Asking the desktop for its natural-scrolling setting happens off the event loop: a query
/// that hangs (gsettings waiting on a stuck session bus) delays nothing, and its answer is
/// applied when it comes. The probes block on a pipe the test opens, never on a sleep.
@Suite("Desktop query", .serialized)
struct DesktopQueryTests {
    @Test func theAnswerComesOnTheDescriptorAndAskingDoesNotWait() throws {
        let gate = Gate()
        let query = try testQuery { _ in gate.wait(); return .found(DesktopSettings.Answer(true, "test desktop")) }
        #expect(query.ask(), "returns while the probe still waits at the gate")
        #expect(!readable(query.fileDescriptor, within: 0))
        #expect(query.receive() == nil, "no answer yet")

        gate.open()
        #expect(readable(query.fileDescriptor, within: 5000))
        let answer = try #require(query.receive()?.answer)
        #expect(answer.value == true && answer.source == "test desktop")
        #expect(query.receive() == nil, "taken")
        #expect(!readable(query.fileDescriptor, within: 0), "the pipe is emptied")
    }

    @Test func noDesktopSettingIsAnAnswerToo() throws {
        let query = try testQuery { _ in .none(why: "no desktop here") }
        query.ask()
        #expect(readable(query.fileDescriptor, within: 5000))
        let answer = try #require(query.receive())
        #expect(answer == .none(why: "no desktop here"), "the reason comes with it")
    }

    /// One helper thread serves every ask (a thread's exit would run libc code nothing else
    /// touches), and an ask made while a probe hangs is answered by the next probe, the older
    /// answer dropped.
    @Test func oneThreadServesEveryAskAndTheNewestAnswerWins() throws {
        let gate = Gate(), entered = Gate()
        defer { gate.open() }
        let probes = ProbeCounter()
        let query = try testQuery { _ in
            let n = probes.next()
            if n == 1 {
                entered.open()
                gate.wait()
            }
            return .found(DesktopSettings.Answer(true, "probe \(n)"))
        }
        #expect(query.ask())
        entered.wait()
        #expect(query.ask(), "asked again while the first probe hangs")
        #expect(!readable(query.fileDescriptor, within: 0))
        gate.open()
        #expect(readable(query.fileDescriptor, within: 5000))
        let second = try #require(query.receive()?.answer)
        #expect(second.source == "probe 2", "the first probe's answer was for an older ask")
        #expect(probes.count == 2)

        #expect(query.ask())
        #expect(readable(query.fileDescriptor, within: 5000))
        let third = try #require(query.receive()?.answer)
        #expect(third.source == "probe 3")
        #expect(probes.ranOnOneThread, "every probe ran on the one helper thread")
    }

    @Test func aHangingQueryDoesNotDelayTheLoop() throws {
        let gate = Gate()
        defer { gate.open() }
        let query = try testQuery { _ in gate.wait(); return .found(DesktopSettings.Answer(true, "slow desktop")) }
        let engine = Engine()
        var faster = Configuration()
        faster.scroll.speed = 48
        var reloads = 0
        let quiet = Logger(label: "flickd-test") { _ in NoOpLogHandler() }
        let daemon = try Daemon(engine: engine, wheel: RecordingWheel(), monitor: nil, logger: quiet, desktop: query) {
            reloads += 1
            return faster
        }
        raise(SIGHUP)
        raise(SIGTERM)
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        #expect(reloads == 1, "SIGHUP was handled (and asked the desktop again) while the first question hung")
        #expect(engine.configuration.scroll.speed == 48)
        #expect(engine.desktopNaturalScrolling == false, "no answer yet: the value in use stays")
    }

    @Test func theAnswerIsAppliedWhenItComes() throws {
        let query = try testQuery { _ in .found(DesktopSettings.Answer(true, "test desktop")) }
        let engine = Engine()
        let logger = Logger(label: "flickd-test") { _ in TerminateOnLine(prefix: "natural scrolling: auto → true (test desktop)") }
        try runUntilLogged(engine, logger: logger, desktop: query)
        #expect(engine.desktopNaturalScrolling == true)
    }

    @Test func anExplicitSettingWithTheWheelDoesNotAsk() throws {
        var explicit = Configuration()
        explicit.scroll.natural = .off
        explicit.output.mode = .wheel
        let query = try testQuery { _ in Issue.record("asked"); return .none(why: "asked") }
        let engine = Engine(configuration: explicit)
        let logger = Logger(label: "flickd-test") { _ in TerminateOnLine(prefix: "natural scrolling: false (scroll.natural = false in the configuration") }
        let daemon = try Daemon(engine: engine, wheel: RecordingWheel(), monitor: nil, logger: logger, desktop: query) { explicit }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        // Counted where the loop asks: a probe runs on the helper thread, maybe after the run.
        #expect(query.asks == 0, "the desktop was asked")
    }

    /// With the touchpad output the desktop is asked all the same, for the virtual pad's own
    /// setting; the explicit setting stays the real pads'.
    @Test func anExplicitSettingWithTheTouchpadAsksForTheVirtualPadOnly() throws {
        var explicit = Configuration()
        explicit.scroll.natural = .off
        explicit.output.mode = .touchpad
        let virtual = PerDeviceNaturalScrolling.Entry(device: VirtualTouchpad.identity, natural: true)
        let query = try testQuery { devices in
            #expect(devices == [VirtualTouchpad.identity], "in touchpad mode the answer must hold the virtual pad's own setting")
            return .found(DesktopSettings.Answer(true, "KDE test", perDevice: PerDeviceNaturalScrolling(entries: [virtual], source: "kcminputrc")))
        }
        let engine = Engine(configuration: explicit)
        let logger = Logger(label: "flickd-test") { _ in
            TerminateOnLine(prefix: "natural scrolling: the desktop keeps it per device (kcminputrc); flickd virtual touchpad: true")
        }
        let daemon = try Daemon(engine: engine, wheel: RecordingWheel(), monitor: nil, logger: logger, desktop: query) { explicit }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        #expect(engine.virtualTouchpadNaturalScrolling == true)
        #expect(engine.desktopNaturalScrolling == false, "the desktop-wide answer is not followed: scroll.natural is explicit")
    }

    /// An explicit setting with the touchpad output: the watch stays open for the virtual pad,
    /// and each change asks again; the explicit line, unchanged, goes to debug the second time.
    @Test func anExplicitSettingIsSaidAtInfoOnceForDesktopChanges() throws {
        var explicit = Configuration()
        explicit.scroll.natural = .off
        explicit.output.mode = .touchpad
        let (ours, sway) = try socketPair()
        defer { close(sway) }
        let query = try testQuery(probe: { _ in .found(DesktopSettings.Answer(true, "sway test")) },
                                     watchChanges: oneSwayChange(ours, sway, counting: ProbeCounter()))
        let line = "natural scrolling: false (scroll.natural = false in the configuration, for touchscreen coasts; a touchpad's glide on flickd virtual touchpad goes the way the desktop's own setting scrolls it)"
        let lines = LevelledLines(endAfter: 2, of: line)
        let daemon = try Daemon(engine: Engine(configuration: explicit), wheel: RecordingWheel(), monitor: nil,
                                logger: Logger(label: "flickd-test") { _ in lines }, desktop: query) { explicit }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        #expect(lines.levels(of: line) == [.info, .debug])
    }

    /// sway says a touchpad's settings changed (`swaymsg input ... natural_scroll enabled`):
    /// the daemon asks again at once and follows the new answer, without a reload.
    @Test func swaySayingATouchpadChangedIsAskedAgain() throws {
        let (ours, sway) = try socketPair()
        defer { close(sway) }
        let probes = ProbeCounter()
        let watches = ProbeCounter()
        let query = try testQuery(probe: { _ in
            // The second ask is answered after the change.
            .found(DesktopSettings.Answer(probes.next() != 1, "sway test"))
        }, watchChanges: oneSwayChange(ours, sway, counting: watches))
        let engine = Engine()
        let logger = Logger(label: "flickd-test") { _ in TerminateOnLine(prefix: "natural scrolling: auto → true (sway test)") }
        try runUntilLogged(engine, logger: logger, desktop: query)
        #expect(engine.desktopNaturalScrolling == true)
        #expect(probes.count == 2, "asked at start, and once more for the change")
        #expect(watches.count == 1, "the open watch is kept: the second ask opens none")
    }

    /// The desktop said natural; after a change it does not answer (gsettings timed out on a
    /// busy login): what it said last stays in force, and the log says so.
    @Test func aDesktopThatDoesNotAnswerLeavesItsLastAnswer() throws {
        let (ours, sway) = try socketPair()
        defer { close(sway) }
        let probes = ProbeCounter()
        let query = try testQuery(probe: { _ in
            probes.next() == 1 ? .found(DesktopSettings.Answer(true, "test desktop"))
                : .unanswered(why: "gsettings did not answer within 5 s (killed)")
        }, watchChanges: oneSwayChange(ours, sway, counting: ProbeCounter()))
        let engine = Engine()
        let logger = Logger(label: "flickd-test") { _ in
            TerminateOnLine(prefix: "natural scrolling: the desktop did not answer this time (gsettings did not answer within 5 s (killed)); keeping what it said last")
        }
        try runUntilLogged(engine, logger: logger, desktop: query)
        #expect(probes.count == 2)
        #expect(engine.desktopNaturalScrolling == true, "not libinput's default, off")
    }

    /// The desktop says something changed, and the answer is the one already in force (GNOME's
    /// dconf database is rewritten for any of its settings): the lines that said it go to debug,
    /// not to the journal's info again.
    @Test func anAnswerThatChangesNothingIsLoggedAtDebugOnly() throws {
        let (ours, sway) = try socketPair()
        defer { close(sway) }
        let probes = ProbeCounter()
        let query = try testQuery(probe: { _ in
            _ = probes.next()
            return .found(DesktopSettings.Answer(true, "test desktop"))
        }, watchChanges: oneSwayChange(ours, sway, counting: ProbeCounter()))
        let lines = LevelledLines(endAfter: 2, of: "natural scrolling: auto → true (test desktop)")
        let engine = Engine()
        try runUntilLogged(engine, logger: Logger(label: "flickd-test") { _ in lines }, desktop: query)
        #expect(probes.count == 2)
        #expect(lines.levels(of: "natural scrolling: auto → true (test desktop)") == [.info, .debug])
    }

    /// flickd started before sway (a user service started with the user manager): the first
    /// ask finds no sway; when sway binds its socket in the runtime directory and answers there,
    /// the daemon asks again, without a reload, and follows the answer.
    @Test func aSwayStartedAfterTheDaemonIsAsked() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        var sway: ListeningSocket?
        let answered = Connection()
        defer { answered.close() }
        let probes = ProbeCounter()
        let query = try testQuery(probe: { _ in
            probes.next() == 1 ? .none(why: "no sway running") : .found(DesktopSettings.Answer(true, "sway test"))
        }, watchChanges: { logger in
            guard sway == nil, let watch = try? SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path, logger: logger) else {
                return nil
            }
            // sway starts once the daemon waits for it, and reads its socket.
            sway = try? ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
            if let sway {
                Thread { answered.set(try? SwayIPCTests.answerSubscription(sway)) }.start()
            }
            return watch
        })
        let engine = Engine()
        let logger = Logger(label: "flickd-test") { _ in TerminateOnLine(prefix: "natural scrolling: auto → true (sway test)") }
        try runUntilLogged(engine, logger: logger, desktop: query)
        #expect(sway != nil)
        #expect(engine.desktopNaturalScrolling == true)
        #expect(probes.count == 2, "asked at start, and once more when sway came")
    }

    /// On X11 the X server's watch opens on the query's thread (connecting blocks) after the
    /// first probe, whose answer does not wait for it; the loop asks once more when it takes
    /// the watch (a change between the two was heard by neither), and opens no second one.
    @Test func theServerWatchOpensOffTheLoopAfterTheAnswerAndIsFollowedByAnAsk() throws {
        let watch = try PipeWatch()
        let threads = ProbeCounter()
        let probes = ProbeCounter()
        let openings = ProbeCounter()
        let probedBeforeOpening = ProbeCounter()
        let query = try testQuery(probe: { _ in
            _ = threads.next()
            return .found(DesktopSettings.Answer(probes.next() != 1, "x test"))
        }, watchChanges: { _ in nil }, openServerWatch: {
            _ = threads.next()
            for _ in 0..<probes.count { _ = probedBeforeOpening.next() }
            _ = openings.next()
            return .opened(watch)
        })
        let engine = Engine()
        let logger = Logger(label: "flickd-test") { _ in TerminateOnLine(prefix: "natural scrolling: auto → true (x test)") }
        try runUntilLogged(engine, logger: logger, desktop: query)
        #expect(engine.desktopNaturalScrolling == true)
        #expect(probes.count == 2, "asked at start, and once more when the watch came")
        #expect(openings.count == 1, "the open watch is kept: the second ask opens none")
        #expect(probedBeforeOpening.count == 1, "opened after the first probe")
        #expect(threads.ranOnOneThread, "opened on the thread the probes run on")
    }

    /// A change comes while the first ask is probed, and its answer and the X server's watch
    /// both wait when the loop wakes: the loop takes the watch before it applies the answer, so
    /// the ask for the change opens no second watch (one more connection to the X server, up to
    /// 2 s of the query's thread, then closed by the loop), and is the only ask after the watch.
    @Test func anAnswerAndTheServerWatchInOneWakeOpenOneWatch() throws {
        let change = try PipeWatch()
        let watch = try PipeWatch(source: "the X server's watch")
        let seen = Gate()
        let openings = ProbeCounter()
        let probes = ProbeCounter()
        let query = try testQuery(probe: { _ in
            let number = probes.next()
            if number == 1 {
                // Someone changes a setting; the loop hears it while this ask is out.
                change.signal()
                seen.wait()
            }
            return .found(DesktopSettings.Answer(number == 2, "x test"))
        }, watchChanges: { _ in change }, openServerWatch: {
            _ = openings.next()
            return .opened(watch)
        })
        let heard = "natural scrolling: the desktop's touchpad settings may have changed (a test's watch); asking again"
        // The loop, having heard the change, waits until the answer and the watch are both kept
        // (each wakes it with one byte): one wake brings both.
        let lines = LevelledLines(endAfter: 1, of: "natural scrolling: auto → true (x test)") { } each: { line in
            guard line == heard else { return }
            seen.open()
            #expect(bytesWaiting(query.fileDescriptor, atLeast: 2), "the answer and the watch within 10 s")
        }
        try runUntilLogged(Engine(), logger: Logger(label: "flickd-test") { _ in lines }, desktop: query)
        #expect(query.asks == 2, "at start, and once for the change and the watch together")
        #expect(openings.count == 1)
    }

    /// The loop asks for a watch while the one opened for an earlier ask waits to be taken (a
    /// reload or a hot-plug handled in the same wake), and takes it before the helper thread
    /// comes to that ask: the ask is served by the watch taken, and no second one is opened.
    @Test func aWatchTakenServesAnAskThatWantedOne() throws {
        let watch = try PipeWatch(source: "the X server's watch")
        let started = Gate()
        let release = Gate()
        let openings = ProbeCounter()
        let probes = ProbeCounter()
        let query = try testQuery(probe: { _ in
            if probes.next() == 2 {
                started.open()
                release.wait()
            }
            return .found(DesktopSettings.Answer(true, "x test"))
        }, openServerWatch: {
            _ = openings.next()
            return .opened(watch)
        })
        #expect(query.ask(openingServerWatch: true))
        #expect(answered(query), "the first ask")
        #expect(query.ask())
        // The second probe runs: the first ask's watch, opened before it, is kept, not taken yet.
        started.wait()
        #expect(query.ask(openingServerWatch: true))
        guard case .opened = query.takeServerWatch() else {
            Issue.record("the first ask's watch")
            return
        }
        release.open()
        #expect(answered(query), "the third ask")
        // A fourth ask, probed once the helper thread is done with the third, opening included.
        #expect(query.ask())
        #expect(answered(query), "the fourth ask")
        #expect(openings.count == 1)
        #expect(query.takeServerWatch() == nil)
    }

    /// A change the X server's watch reports (`xinput set-prop`) is asked about at once.
    @Test func aChangeTheServerWatchReportsIsAskedAgain() throws {
        let watch = try PipeWatch()
        let probes = ProbeCounter()
        let query = try testQuery(probe: { _ in
            let number = probes.next()
            // The ask made when the watch came reads the old setting; it changes after.
            if number == 2 { watch.signal() }
            return .found(DesktopSettings.Answer(number == 3, "x test"))
        }, watchChanges: { _ in nil }, openServerWatch: { .opened(watch) })
        let engine = Engine()
        let logger = Logger(label: "flickd-test") { _ in TerminateOnLine(prefix: "natural scrolling: auto → true (x test)") }
        try runUntilLogged(engine, logger: logger, desktop: query)
        #expect(engine.desktopNaturalScrolling == true)
        #expect(probes.count == 3, "at start, when the watch came, and for the change")
    }

    /// A server watch that cannot be opened (no X server yet, no libXi) is tried again at the
    /// next ask; its reason is logged at info once, then at debug.
    @Test func aServerWatchThatCannotOpenIsTriedAgainAndLoggedOnce() throws {
        let change = try PipeWatch()
        let openings = ProbeCounter()
        let query = try testQuery(probe: { _ in .found(DesktopSettings.Answer(true, "x test")) },
                                     watchChanges: { _ in change }, openServerWatch: {
                                         _ = openings.next()
                                         return .failed(why: "no X server")
                                     }, watchServerStart: { _ in nil })
        let line = "natural scrolling: cannot follow the X server's touchpad settings as they change (no X server); they are read again at each reload and hot-plug"
        // Once the first failure is logged, the desktop says something changed: a second ask.
        let lines = LevelledLines(endAfter: 2, of: line) { change.signal() }
        try runUntilLogged(Engine(), logger: Logger(label: "flickd-test") { _ in lines }, desktop: query)
        #expect(openings.count == 2)
        #expect(lines.levels(of: line) == [.info, .debug])
    }

    /// The X server goes away and another starts at the display (`startx` again, flickd running
    /// on): the watch for its start cues an ask that opens the new server's watch, and is
    /// dropped then. A cue that finds no server yet (the opening fails) leaves it waiting for
    /// the next. Before, nothing asked until a reload or a hot-plug.
    @Test func anXServerStartingAgainIsWatchedAgain() throws {
        let first = try PipeWatch(ending: true, source: "the first server's watch")
        let second = try PipeWatch(source: "the second server's watch")
        let start = try PipeWatch(says: .started, source: "X0 for an X server to start")
        let openings = ProbeCounter()
        let startsMade = ProbeCounter()
        let query = try testQuery(probe: { _ in .found(DesktopSettings.Answer(true, "x test")) },
                                     watchChanges: { _ in nil }, openServerWatch: {
                                         switch openings.next() {
                                         case 1:
                                             first.signal()
                                             return .opened(first)
                                         case 2:
                                             return .failed(why: "no X server yet")
                                         default:
                                             return .opened(second)
                                         }
                                     }, watchServerStart: { _ in
                                         _ = startsMade.next()
                                         start.signal()
                                         return start
                                     })
        let ended = "natural scrolling: the first server's watch ended (the X server went away); it is watched again when an X server starts (X0 for an X server to start) or the desktop is next asked (a reload, a touchpad plugged in)"
        let failed = "natural scrolling: cannot follow the X server's touchpad settings as they change (no X server yet); they are read again at each reload and hot-plug, and when an X server starts (X0 for an X server to start)"
        // The start watch's next cue comes once the failed opening is taken (its timer, here).
        let lines = LevelledLines(endAfter: 1, of: "natural scrolling: following changes to the second server's watch") { } each: { line in
            if line == failed { start.signal() }
        }
        try runUntilLogged(Engine(), logger: Logger(label: "flickd-test") { _ in lines }, desktop: query)
        #expect(openings.count == 3, "at start, at the first cue (no server yet), at the second")
        #expect(startsMade.count == 1, "one start watch, kept through the failed opening")
        #expect(lines.levels(of: ended) == [.info])
        #expect(lines.levels(of: failed) == [.info])
    }

    /// The X server goes away (a logout): the log says its watch ended, and when it comes back.
    @Test func aServerWatchThatEndsIsLogged() throws {
        let watch = try PipeWatch(ending: true)
        let query = try testQuery(probe: { _ in .found(DesktopSettings.Answer(true, "x test")) },
                                     watchChanges: { _ in nil }, openServerWatch: {
                                         watch.signal()
                                         return .opened(watch)
                                     }, watchServerStart: { _ in nil })
        let line = "natural scrolling: a test's watch ended (the X server went away); it is watched again when the desktop is next asked (a reload, a touchpad plugged in)"
        let lines = LevelledLines(endAfter: 1, of: line)
        try runUntilLogged(Engine(), logger: Logger(label: "flickd-test") { _ in lines }, desktop: query)
        #expect(lines.levels(of: line) == [.info])
    }
}

/// A desktop watch the test makes readable: each `signal()` is one change of a touchpad's
/// settings, or with `ending`, the watch's end (an X server gone), or what `says` says.
private final class PipeWatch: DesktopWatch, @unchecked Sendable {
    let fileDescriptor: Int32
    private let writeEnd: Int32
    private let says: DesktopChange
    let source: String

    init(ending: Bool = false, says: DesktopChange? = nil, source: String = "a test's watch") throws {
        self.says = says ?? (ending ? .closed : .touchpads)
        self.source = source
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
        return changes == 0 ? .none : says
    }
}
