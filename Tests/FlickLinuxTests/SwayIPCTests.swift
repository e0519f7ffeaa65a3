import FlickCore
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// flickd speaking sway's IPC itself: its messages cut out of a stream that arrives in pieces,
/// `get_inputs` asked of a sway listening on a socket, and the input events that tell flickd
/// to ask again. The sway here is the test, on a socket pair or a socket in a fresh directory.
@Suite struct SwayIPCTests {
    /// sway's `input` event for a touchpad whose settings `swaymsg input ... natural_scroll
    /// enabled` (`libinput_config`) or a plug (`added`) changed, trimmed.
    static func inputEvent(_ change: String, type: String = "touchpad") -> String {
        """
        {"change": "\(change)", "input": {"identifier": "2:7:SynPS/2_Synaptics_TouchPad", \
        "name": "SynPS/2 Synaptics TouchPad", "vendor": 2, "product": 7, "type": "\(type)", \
        "libinput": {"natural_scroll": "enabled"}}}
        """
    }

    @Test func aMessageIsItsHeaderAndPayload() throws {
        let bytes = SwayIPC.encode(type: SwayIPC.MessageType.subscribe, payload: #"["input"]"#)
        #expect(Array(bytes.prefix(6)) == Array("i3-ipc".utf8))
        #expect(bytes.count == 14 + 9)
        var decoder = SwayIPC.Decoder()
        bytes.withUnsafeBytes { decoder.append($0) }
        let message = try #require(try decoder.next())
        #expect(message.type == 2 && message.text == #"["input"]"#)
        #expect(try decoder.next() == nil, "nothing more")
    }

    /// A stream delivers messages in any cut: byte by byte, or two in one read.
    @Test func messagesAreCutOutOfAStreamArrivingInPieces() throws {
        let first = SwayIPC.encode(type: SwayIPC.MessageType.inputEvent, payload: Self.inputEvent("libinput_config"))
        let second = SwayIPC.encode(type: SwayIPC.MessageType.getInputs, payload: "[]")
        var decoder = SwayIPC.Decoder()
        var messages: [SwayIPC.Message] = []
        for byte in first + second {
            [byte].withUnsafeBytes { decoder.append($0) }
            while let message = try decoder.next() { messages.append(message) }
        }
        #expect(messages.map(\.type) == [0x8000_0015, 100])
        #expect(messages.map(\.text) == [Self.inputEvent("libinput_config"), "[]"])
    }

    @Test func aStreamThatIsNotSwaysIsMalformed() {
        var decoder = SwayIPC.Decoder()
        Array("HTTP/1.1 200 OK\r\n".utf8).withUnsafeBytes { decoder.append($0) }
        #expect(throws: SwayIPC.Decoder.Malformed.self) { try decoder.next() }

        var early = SwayIPC.Decoder()
        Array("i3-x".utf8).withUnsafeBytes { early.append($0) }
        #expect(throws: SwayIPC.Decoder.Malformed.self, "a wrong start is known before a whole header came") { try early.next() }

        var huge = SwayIPC.Decoder()
        var header = SwayIPC.encode(type: 100)
        header.replaceSubrange(6..<10, with: withUnsafeBytes(of: UInt32(1 << 30)) { Array($0) })
        header.withUnsafeBytes { huge.append($0) }
        #expect(throws: SwayIPC.Decoder.Malformed.self, "a 1 GiB payload is not waited for") { try huge.next() }
    }

    @Test func onlyATouchpadAddedOrReconfiguredIsAChange() {
        #expect(SwayInputs.touchpadChanged(Self.inputEvent("libinput_config")))
        #expect(SwayInputs.touchpadChanged(Self.inputEvent("added")))
        #expect(!SwayInputs.touchpadChanged(Self.inputEvent("removed")), "a removed pad's setting no longer matters")
        #expect(!SwayInputs.touchpadChanged(Self.inputEvent("xkb_layout", type: "keyboard")), "a layout switch is no touchpad change")
        #expect(!SwayInputs.touchpadChanged(Self.inputEvent("libinput_config", type: "pointer")))
        #expect(!SwayInputs.touchpadChanged(#"{"change": "libinput_config"}"#), "no input")
        #expect(!SwayInputs.touchpadChanged("not json"))
    }

    // MARK: The watch

    @Test func theWatchSubscribesToInputEventsAndSaysWhenATouchpadChanged() throws {
        let (ours, sway) = try socketPair()
        defer { close(sway) }
        let watch = try SwayInputWatch(connected: ours)
        let subscription = try #require(try readMessage(sway))
        #expect(subscription.type == SwayIPC.MessageType.subscribe && subscription.text == #"["input"]"#)
        #expect(watch.receive() == .none, "nothing sent yet")

        send(sway, SwayIPC.encode(type: SwayIPC.MessageType.subscribe, payload: #"{"success": true}"#))
        send(sway, SwayIPC.encode(type: SwayIPC.MessageType.inputEvent, payload: Self.inputEvent("xkb_layout", type: "keyboard")))
        #expect(watch.receive() == .none, "the subscription's answer and a keyboard's layout")

        let event = SwayIPC.encode(type: SwayIPC.MessageType.inputEvent, payload: Self.inputEvent("libinput_config"))
        send(sway, Array(event.prefix(20)))
        #expect(watch.receive() == .none, "half an event")
        send(sway, Array(event.dropFirst(20)))
        #expect(watch.receive() == .touchpads)
        #expect(watch.receive() == .none, "told once")

        // `swaymsg reload` sends one event per input: one change.
        send(sway, event + event + event)
        #expect(watch.receive() == .touchpads)
    }

    @Test func swayGoneOrSpeakingAnotherProtocolClosesTheWatch() throws {
        let (ours, sway) = try socketPair()
        let watch = try SwayInputWatch(connected: ours)
        close(sway)
        #expect(watch.receive() == .closed)

        let (other, stranger) = try socketPair()
        defer { close(stranger) }
        let confused = try SwayInputWatch(connected: other)
        send(stranger, Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        #expect(confused.receive() == .closed)
    }

    // MARK: sway's comings and goings

    /// No sway runs when the watch starts (a user service started before sway): it waits in
    /// the runtime directory, connects to the sway that binds its socket there (again when that
    /// socket refused the first try: sway binds a moment before it listens), says it started
    /// only once it answers (it listens seconds before it reads), follows it, and after it
    /// exits waits for the next one.
    @Test func aSwayStartingLaterIsFollowedAndSoIsTheNextOne() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let watch = try SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path, retryInterval: .milliseconds(1),
                                         logger: Self.quiet)
        #expect(watch.receive() == .none)
        #expect(watch.source == runtime.path + " for a sway to start")

        // Not sway's socket, or another user's sway.
        try "x".write(toFile: runtime.path + "/sway-ipc.\(getuid()).txt", atomically: false, encoding: .utf8)
        let stranger = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid() + 1).\(getpid()).sock")
        defer { stranger.close() }
        #expect(Self.waitReadable(watch, for: .milliseconds(200)), "the directory's events")
        #expect(watch.receive() == .none)

        let path = runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock"
        let sway = try ListeningSocket(path, listening: false)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none, "bound, not listening yet: refused, tried again later")
        try sway.listen()
        #expect(Self.waitReadable(watch, for: .seconds(5)), "the retry")
        #expect(watch.receive() == .none, "connected; sway has not read it yet")
        #expect(watch.source == "sway's input events (\(path))")

        // The first connection only asked whether a sway listens (closed without a word).
        let probe = try sway.accept()
        #expect(try readMessage(probe) == nil)
        close(probe)
        let connection = try sway.accept()
        let subscription = try #require(try readMessage(connection))
        #expect(subscription.text == #"["input"]"#)
        send(connection, Self.subscribed)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .started)
        #expect(watch.receive() == .none, "said once")
        send(connection, SwayIPC.encode(type: SwayIPC.MessageType.inputEvent, payload: Self.inputEvent("libinput_config")))
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .touchpads)

        // sway exits: its connection and socket go; the watch waits for the next sway.
        close(connection)
        sway.close()
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none)
        #expect(watch.source == runtime.path + " for a sway to start")

        // A sway started with a SWAYSOCK naming a socket that is gone binds at that name: the
        // PID in it is not the new sway's (here no process's).
        let next = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).2147483646.sock")
        defer { next.close() }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none)
        let nextConnection = try Self.answerSubscription(next)
        defer { close(nextConnection) }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .started)
    }

    /// The sway running when the watch is made: its first answer is news only when it came
    /// later than an ask waits (it was starting; the daemon's first ask may have missed it).
    @Test func aRunningSwayIsSaidToHaveStartedOnlyWhenItAnsweredLate() throws {
        for (wait, said) in [(Duration.seconds(60), DesktopChange.none), (.zero, .started)] {
            let runtime = try TemporaryDirectory("flickd-runtime")
            let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
            defer { sway.close() }
            let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, answerWait: wait,
                                             logger: Self.quiet)
            #expect(watch.receive() == .none, "not answered yet")
            let connection = try Self.answerSubscription(sway)
            defer { close(connection) }
            #expect(Self.waitReadable(watch, for: .seconds(5)))
            #expect(watch.receive() == said, "answer wait \(wait)")
            #expect(watch.receive() == .none, "said once")
        }
    }

    /// A sway found bound when the watch is made but refusing the connection (starting, not
    /// listening yet): its socket never appears again for inotify, so it is tried again anyway.
    @Test func aRunningSwayThatRefusedTheFirstConnectionIsTriedAgain() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock", listening: false)
        defer { sway.close() }
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, retryInterval: .milliseconds(1),
                                         logger: Self.quiet)
        #expect(watch.source == runtime.path + " for a sway to start", "refused")
        try sway.listen()
        try #require(Self.waitReadable(watch, for: .seconds(5)), "the retry")
        #expect(watch.receive() == .none)
        try #require(watch.source == "sway's input events (\(sway.path))", "connected (else no subscription to answer)")
        let connection = try Self.answerSubscription(sway)
        defer { close(connection) }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .started)
    }

    /// The waits between tries a refusing sway gets: after 100, 200, 400 and 800 ms, then each
    /// second, `retries` (20) times, the last 17.5 s after the refusal.
    static let retrySchedule = [100, 200, 400, 800].map { Duration.milliseconds($0) }
        + Array(repeating: .seconds(1), count: SwaySessionWatch.retries - 4)

    /// Plays the retry timer on virtual time from `start` (a refusal): each try comes at the
    /// deadline the one before armed, long past on the monotonic clock, so the timer has fired.
    /// Returns the waits before each try, until none is armed.
    static func retryWaits(_ watch: SwaySessionWatch, from start: Instant) -> [Duration] {
        var waits: [Duration] = []
        var now = start
        while let deadline = watch.retryDeadline, waits.count <= 2 * SwaySessionWatch.retries {
            waits.append(deadline - now)
            guard waitReadable(watch, for: .seconds(5)) else {
                Issue.record("the retry armed for \(deadline) did not fire")
                break
            }
            now = deadline
            #expect(watch.receive(at: now) == .none, "try \(waits.count) at \(now): refused")
        }
        return waits
    }

    /// A sway refusing the connection (bound, not listening yet) is tried again after 100, 200,
    /// 400 and 800 ms, then each second, 20 times, the last 17.5 s after the refusal: the one
    /// found when the watch is made, and one whose socket appears later, alike.
    @Test func aRefusingSwayIsTriedTwentyTimesOverSeventeenAndAHalfSeconds() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock", listening: false)
        defer { sway.close() }
        // Times long past on the monotonic clock: once armed, the timer has fired.
        let t0 = Instant(microseconds: 1_000_000)
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, now: t0, logger: Self.quiet)
        #expect(watch.source == runtime.path + " for a sway to start", "refused when the watch was made")
        let atStart = Self.retryWaits(watch, from: t0)
        #expect(atStart == Self.retrySchedule, "refused at the start: waits \(atStart)")
        #expect(atStart.count == 20 && atStart.reduce(.zero, +) == .milliseconds(17_500))
        #expect(watch.retryDeadline == nil, "no more tries")

        // 20 s on, a sway binds another socket and refuses too: tried on the same schedule.
        let next = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).2147483646.sock", listening: false)
        defer { next.close() }
        try #require(Self.waitReadable(watch, for: .seconds(5)), "the socket appeared")
        let t1 = t0 + .seconds(20)
        #expect(watch.receive(at: t1) == .none, "refused when it appeared")
        let afterEvent = Self.retryWaits(watch, from: t1)
        #expect(afterEvent == Self.retrySchedule, "refused after it appeared: waits \(afterEvent)")
        #expect(afterEvent.count == 20 && afterEvent.reduce(.zero, +) == .milliseconds(17_500))
        #expect(watch.retryDeadline == nil, "no more tries")
    }

    /// A sway that refuses for seconds (starting sways listen late, with a backlog the probe's
    /// asks fill) is still followed once it listens: here from the eleventh try, 8.5 s on.
    @Test func aSwayThatListensAfterTenRefusalsIsFollowed() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock", listening: false)
        defer { sway.close() }
        let t0 = Instant(microseconds: 1_000_000)
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, now: t0, logger: Self.quiet)
        var now = t0
        for _ in 1...10 {
            let deadline = try #require(watch.retryDeadline)
            try #require(Self.waitReadable(watch, for: .seconds(5)))
            now = deadline
            #expect(watch.receive(at: now) == .none)
        }
        #expect(now == t0 + .milliseconds(7_500), "100 + 200 + 400 + 800 ms and six seconds")
        try sway.listen()
        let eleventh = try #require(watch.retryDeadline)
        #expect(eleventh == t0 + .milliseconds(8_500))
        try #require(Self.waitReadable(watch, for: .seconds(5)), "the eleventh try")
        #expect(watch.receive(at: eleventh) == .none, "connected; sway has not read it yet")
        #expect(watch.source == "sway's input events (\(sway.path))")
        #expect(watch.retryDeadline == nil, "no more tries")
        let connection = try Self.answerSubscription(sway)
        defer { close(connection) }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive(at: eleventh + .milliseconds(10)) == .started)
    }

    /// A sway that exits before it ever answered is not said to have started.
    @Test func aSwayGoneBeforeItAnsweredIsNotSaidToHaveStarted() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let watch = try SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path, retryInterval: .milliseconds(1),
                                         logger: Self.quiet)
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none)
        sway.close()
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none)
        #expect(watch.source == runtime.path + " for a sway to start")
    }

    /// sway's answer to a subscription.
    static let subscribed = SwayIPC.encode(type: SwayIPC.MessageType.subscribe, payload: #"{"success": true}"#)

    /// Plays a sway that has started reading: accepts `sway`'s connections until one
    /// subscribes (the ones before only asked whether it listens), answers it, and returns it.
    static func answerSubscription(_ sway: ListeningSocket) throws -> Int32 {
        while true {
            let connection = try sway.accept()
            if let message = try readMessage(connection), message.type == SwayIPC.MessageType.subscribe {
                send(connection, subscribed)
                return connection
            }
            close(connection)
        }
    }

    /// `$SWAYSOCK` names a path outside the runtime directory (a sway started with it set binds
    /// there): that directory is watched too, for that name only.
    @Test func aSwayBindingAtSwaysockIsFoundToo() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let elsewhere = try TemporaryDirectory("flickd-swaysock")
        let watch = try SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path, swaysock: elsewhere.path + "/mine.sock",
                                         retryInterval: .milliseconds(1), logger: Self.quiet)
        #expect(watch.source == [runtime.path, elsewhere.path].sorted().joined(separator: ", ") + " for a sway to start")
        let other = try ListeningSocket(elsewhere.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { other.close() }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none, "in SWAYSOCK's directory only SWAYSOCK's name counts")
        let sway = try ListeningSocket(elsewhere.path + "/mine.sock")
        defer { sway.close() }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none)
        let connection = try Self.answerSubscription(sway)
        defer { close(connection) }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .started)
        #expect(watch.source == "sway's input events (\(sway.path))")
    }

    /// A sway reached through `$SWAYSOCK` with no runtime directory to wait in: its exit ends
    /// the watch; so does the runtime directory's removal (the session's end) while no sway
    /// runs. With neither a sway that answers nor a directory there is nothing to watch.
    @Test func theWatchEndsWhenNothingIsLeftToWatch() throws {
        let runtime = try TemporaryDirectory("flickd-swaysock")
        let sway = try ListeningSocket(runtime.path + "/sway.sock")
        defer { sway.close() }
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: nil, logger: Self.quiet)
        close(try sway.accept())
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .closed)
        // The daemon logs the watch's end with what it followed: before, "? for a sway to start".
        #expect(watch.source == "sway's input events (\(sway.path))")

        #expect(throws: SystemError.self) {
            try SwaySessionWatch(socket: runtime.path + "/gone.sock", runtimeDirectory: nil, logger: Self.quiet)
        }

        let session = try TemporaryDirectory("flickd-runtime")
        let waiting = try SwaySessionWatch(socket: nil, runtimeDirectory: session.path, logger: Self.quiet)
        try FileManager.default.removeItem(atPath: session.path)
        #expect(Self.waitReadable(waiting, for: .seconds(5)))
        #expect(waiting.receive() == .closed)
        #expect(waiting.source == session.path + " for a sway to start")
    }

    /// Without an inotify instance (the user's fs.inotify.max_user_instances used up) the watch
    /// keeps its connection to the sway running, and says once what it cannot do: wait for a
    /// sway that starts later. With no sway to follow either, there is nothing to watch.
    @Test func withoutInotifyTheRunningSwayIsFollowedStill() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { sway.close() }
        let noInotify = { () throws(SystemError) -> Int32 in throw SystemError(errno: EMFILE, call: "inotify_init1") }
        let log = CollectedLog()
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, answerWait: .seconds(60),
                                         now: Syscall.monotonicNow(), inotify: noInotify, logger: log.logger)
        #expect(watch.source == "sway's input events (\(sway.path))")
        let warning = "warning: natural scrolling: a sway that starts after this one is not waited for (inotify_init1: Too many open files); the desktop is asked again at each reload"
        #expect(log.lines == [warning])

        let connection = try Self.answerSubscription(sway)
        send(connection, SwayIPC.encode(type: SwayIPC.MessageType.inputEvent, payload: Self.inputEvent("libinput_config")))
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .touchpads)
        // sway exits: with nowhere to wait for the next one, the watch ends.
        sway.close()
        close(connection)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .closed)
        #expect(log.lines.filter { $0.hasPrefix("warning:") } == [warning], "warned once")

        #expect(throws: SystemError(errno: EMFILE, call: "inotify_init1"), "no sway, nowhere to wait for one") {
            try SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path, now: Syscall.monotonicNow(), inotify: noInotify, logger: log.logger)
        }
    }

    /// sway drops a client it cannot write to and runs on: the watch connects again at once
    /// and says sway started when it answers, so the daemon asks it what changed meanwhile. It
    /// waited for a new socket before, and followed nothing until flickd restarted.
    @Test func aSwayThatDropsTheConnectionAndRunsOnIsConnectedToAgain() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { sway.close() }
        let log = CollectedLog()
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, answerWait: .seconds(60),
                                         logger: log.logger)
        let first = try Self.answerSubscription(sway)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none, "the sway running at the start, answering in time")

        close(first)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none, "connected again; not answered yet")
        // Required: without a connection the accept below would wait for ever.
        try #require(watch.source == "sway's input events (\(sway.path))")
        #expect(log.lines.contains("info: natural scrolling: flickd's connection to sway's IPC (\(sway.path)) ended, and a sway listens there still: connected again"))
        let second = try Self.answerSubscription(sway)
        defer { close(second) }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .started)
        send(second, SwayIPC.encode(type: SwayIPC.MessageType.inputEvent, payload: Self.inputEvent("libinput_config")))
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .touchpads)
    }

    /// The same, with sway's listen backlog full when the connection is made again (EAGAIN:
    /// sway busy, its clients unread): it is tried again, not taken for a sway that exited.
    @Test func aSwayWithItsBacklogFullIsTriedAgain() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { sway.close() }
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, retryInterval: .milliseconds(1),
                                         answerWait: .seconds(60), logger: Self.quiet)
        let first = try Self.answerSubscription(sway)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none)
        // Connections sway has not accepted, until one more would not fit.
        var waiting: [Int32] = []
        defer { waiting.forEach { close($0) } }
        while waiting.count < 64, let fd = try? Syscall.connectUnixStream(to: sway.path) { waiting.append(fd) }
        try #require(waiting.count < 64, "the backlog filled")

        close(first)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none)
        try #require(watch.retryDeadline != nil, "tried again later, not left waiting for a new socket")
        // sway reads its queue: the probes first, then the watch's next try.
        for _ in waiting { close(try sway.accept()) }
        var said = DesktopChange.none
        for _ in 0..<50 where said == .none {
            if Self.waitReadable(watch, for: .milliseconds(100)) { said = watch.receive() }
            if watch.source == "sway's input events (\(sway.path))" && said == .none {
                let again = try Self.answerSubscription(sway)
                defer { close(again) }
                #expect(Self.waitReadable(watch, for: .seconds(5)))
                said = watch.receive()
            }
        }
        #expect(said == .started)
    }

    /// A second sway starts while flickd follows the first (its socket appears while
    /// connected), then the first exits: the second is followed. Before, the watch tried the
    /// first's socket again, then waited for a socket to appear that had appeared already, and
    /// followed nothing until a reload.
    @Test func aSwayStartedWhileAnotherRanIsFollowedWhenTheFirstExits() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let first = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { first.close() }
        let watch = try SwaySessionWatch(socket: first.path, runtimeDirectory: runtime.path, retryInterval: .milliseconds(1),
                                         answerWait: .seconds(60), logger: Self.quiet)
        let connection = try Self.answerSubscription(first)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none, "the sway running at the start, answering in time")

        let second = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).2147483646.sock")
        defer { second.close() }
        #expect(Self.waitReadable(watch, for: .seconds(5)), "its socket appeared")
        #expect(watch.receive() == .none)
        #expect(watch.source == "sway's input events (\(first.path))", "the first is followed still")

        // The first exits: its connection and socket go.
        close(connection)
        first.close()
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .none, "connected to the second; not answered yet")
        // Required: without a connection the accept below would wait for ever.
        try #require(watch.source == "sway's input events (\(second.path))")
        let next = try Self.answerSubscription(second)
        defer { close(next) }
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive() == .started)
    }

    /// `$SWAYSOCK` in the runtime directory spelt otherwise (`/run/user/1000//sway.sock`, or
    /// through a symlink): inotify gives one watch for both, which serves both places' names.
    /// Before, the second place replaced the first, and a sway binding `sway-ipc.UID.PID.sock`
    /// was no longer noticed.
    @Test func swaysockInTheRuntimeDirectorySpeltOtherwiseLeavesItWatched() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        // The tries the watch makes from its start come a minute apart here: only inotify tells.
        let watch = try SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path, swaysock: runtime.path + "//x.sock",
                                         retryInterval: .seconds(60), logger: Self.quiet)
        #expect(watch.source == runtime.path + " for a sway to start")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { sway.close() }
        try #require(Self.waitReadable(watch, for: .seconds(2)), "the runtime directory's sway socket appeared")
        #expect(watch.receive() == .none)
        #expect(watch.source == "sway's input events (\(sway.path))")

        // `$SWAYSOCK` through a symlink to the runtime directory: its name is still noticed.
        let elsewhere = try TemporaryDirectory("flickd-swaysock")
        let link = elsewhere.path + "/runtime"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: runtime.path)
        let linked = try SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path, swaysock: link + "/x.sock",
                                          retryInterval: .seconds(60), logger: Self.quiet)
        let named = try ListeningSocket(runtime.path + "/x.sock")
        defer { named.close() }
        try #require(Self.waitReadable(linked, for: .seconds(2)), "SWAYSOCK's socket appeared")
        #expect(linked.receive() == .none)
        #expect(linked.source == "sway's input events (\(link)/x.sock)")
    }

    /// Without inotify, a sway whose backlog was full when its connection ended is tried again
    /// on the retry schedule (virtual time); once the last try found none, nothing is left to
    /// wake the watch: it ends, and the daemon makes a new one at its next ask (a reload, a
    /// touchpad plugged in). Before, it stayed, dead, and the daemon, which makes a watch only
    /// when it has none, never replaced it.
    @Test func withoutInotifyTheWatchEndsWhenItsTriesAreUsedUp() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { sway.close() }
        let noInotify = { () throws(SystemError) -> Int32 in throw SystemError(errno: EMFILE, call: "inotify_init1") }
        // Times long past on the monotonic clock: once armed, the timer has fired.
        let t0 = Instant(microseconds: 1_000_000)
        let watch = try SwaySessionWatch(socket: sway.path, runtimeDirectory: runtime.path, answerWait: .seconds(60),
                                         now: t0, inotify: noInotify, logger: Self.quiet)
        let first = try Self.answerSubscription(sway)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive(at: t0 + .milliseconds(10)) == .none)
        // Connections sway has not accepted, until one more would not fit.
        var waiting: [Int32] = []
        defer { waiting.forEach { close($0) } }
        while waiting.count < 64, let fd = try? Syscall.connectUnixStream(to: sway.path) { waiting.append(fd) }
        try #require(waiting.count < 64, "the backlog filled")

        close(first)
        #expect(Self.waitReadable(watch, for: .seconds(5)))
        #expect(watch.receive(at: t0 + .seconds(1)) == .none)
        try #require(watch.retryDeadline != nil, "tried again later")
        var said: [DesktopChange] = []
        while let deadline = watch.retryDeadline, said.count <= 2 * SwaySessionWatch.retries {
            guard Self.waitReadable(watch, for: .seconds(5)) else {
                Issue.record("the retry armed for \(deadline) did not fire")
                break
            }
            said.append(watch.receive(at: deadline))
        }
        // (The first try may come in the receive that armed it: its instant is long past.)
        #expect(said.last == .closed && said.dropLast().allSatisfy { $0 == .none }, "\(said.count) tries: \(said)")
        #expect(said.count >= SwaySessionWatch.retries - 1 && said.count <= SwaySessionWatch.retries)
        #expect(watch.source == "sway's input events (\(sway.path))", "the last thing followed, for the log; before, \"? for a sway to start\"")
    }

    /// A sway nested in this session (or another session's) binds a socket in the runtime
    /// directory too, and here sorts first. Told it serves another Wayland display, the watch
    /// does not follow it, and follows this session's sway when that one comes. Before, it
    /// followed the first live socket, and the daemon asked that sway.
    @Test func aSwayServingAnotherDisplayIsNotFollowed() throws {
        let runtime = try TemporaryDirectory("flickd-runtime")
        let nestedPath = runtime.path + "/sway-ipc.\(getuid()).1.sock"
        let watch = try SwaySessionWatch(socket: nil, runtimeDirectory: runtime.path,
                                         servesThisSession: { $0 == nestedPath ? false : nil },
                                         retryInterval: .milliseconds(1), logger: Self.quiet)
        let nested = try ListeningSocket(nestedPath)
        defer { nested.close() }
        #expect(Self.waitReadable(watch, for: .seconds(5)), "the directory's event")
        #expect(watch.receive() == .none)
        #expect(watch.source == runtime.path + " for a sway to start", "not the nested sway's")
        let own = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).2.sock")
        defer { own.close() }
        let deadline = Syscall.monotonicNow() + .seconds(5)
        while watch.source != "sway's input events (\(own.path))", Syscall.monotonicNow() < deadline {
            if Self.waitReadable(watch, for: .milliseconds(100)) { _ = watch.receive() }
        }
        #expect(watch.source == "sway's input events (\(own.path))")
    }

    static let quiet = Logger(label: "flickd-test") { _ in NoOpLogHandler() }

    /// Waits up to `limit` for the watch to have something to read.
    static func waitReadable(_ watch: SwaySessionWatch, for limit: Duration) -> Bool {
        Syscall.waitReadable(watch.fileDescriptor, until: Syscall.monotonicNow() + limit)
    }

    // MARK: Which desktop is watched

    /// sway is watched over its socket, KDE through its files, GNOME through dconf's database;
    /// a session with no sway to reach and no runtime directory to wait in is not watched.
    @Test func eachDesktopIsWatchedWhereItKeepsSettingsPerDevice() throws {
        let quiet = Self.quiet
        let home = try TemporaryDirectory("flickd-kdewatch")
        let directory = home.path
        func session(_ desktop: String?, sway: String? = nil) -> DesktopSettings.Environment {
            DesktopSettings.Environment(currentDesktop: desktop, sessionType: "wayland", configHome: directory,
                                        readFile: { _ in nil }, gsettingsGet: { _, _ in .failed("gsettings is not on the PATH") }, swaySocket: sway)
        }
        #expect(DesktopSettings.watchChanges(in: session("sway"), logger: quiet) == nil, "no sway to reach, nowhere to wait")
        #expect(DesktopSettings.watchChanges(in: session("sway", sway: directory + "/gone.sock"), logger: quiet) == nil)
        var later = session(nil)
        later.runtimeDirectory = directory
        let waiting = try #require(DesktopSettings.watchChanges(in: later, logger: quiet), "no sway yet: one may start")
        #expect(waiting.source == directory + " for a sway to start")
        later.currentDesktop = "GNOME"
        #expect(DesktopSettings.watchChanges(in: later, logger: quiet) is DesktopFilesWatch, "GNOME waits for no sway")

        let server = try FakeSway(reply: { _ in nil }, answers: false)
        defer { server.stop() }
        let sway = try #require(DesktopSettings.watchChanges(in: session("sway", sway: server.path), logger: quiet))
        #expect(sway.source == "sway's input events (\(server.path))")
        #expect(DesktopSettings.watchChanges(in: session("KDE", sway: server.path), logger: quiet) is DesktopFilesWatch,
                "KDE says what it is: its files, never a sway socket found only by name (another session's, maybe)")
        // A sway listening where `$SWAYSOCK` says is this session's compositor whatever the
        // desktop's name: sway sessions set XDG_CURRENT_DESKTOP=KDE (for Qt and the KDE portal)
        // or ...:GNOME. Before, KDE's files or dconf were watched there, and sway never.
        for desktop in ["KDE", "sway:GNOME"] {
            var named = session(desktop, sway: server.path)
            named.swaysock = server.path
            #expect(DesktopSettings.watchChanges(in: named, logger: quiet)?.source == "sway's input events (\(server.path))", "\(desktop)")
        }

        // A sway serving another Wayland display than $WAYLAND_DISPLAY (another session's, at
        // the SWAYSOCK the user manager kept) on a desktop that is neither KDE nor GNOME: not
        // followed. Before, Hyprland's flickd followed it. Where that cannot be told, it is.
        var hyprland = session("Hyprland", sway: server.path)
        hyprland.swaysock = server.path
        hyprland.waylandDisplay = "wayland-2"
        hyprland.swayServesThisSession = { _ in false }
        #expect(DesktopSettings.watchChanges(in: hyprland, logger: quiet)?.source == String(server.path.dropLast("/sway-ipc.sock".count)) + " for a sway to start",
                "another session's sway: not followed; a sway of this session's may start at SWAYSOCK")
        hyprland.swayServesThisSession = { _ in nil }
        #expect(DesktopSettings.watchChanges(in: hyprland, logger: quiet)?.source == "sway's input events (\(server.path))")
        // No sway is an X11 session's compositor.
        var x11 = session("i3", sway: server.path)
        x11.sessionType = "x11"
        x11.display = ":0"
        #expect(DesktopSettings.watchChanges(in: x11, logger: quiet) == nil)

        // System Settings saves kcminputrc by renaming a new file over it.
        let kde = try #require(DesktopSettings.watchChanges(in: session("KDE"), logger: quiet))
        #expect(kde.receive() == .none)
        try "[Mouse]\nX11LibInputXAccelProfileFlat=true\n".write(toFile: directory + "/kglobalshortcutsrc", atomically: true, encoding: .utf8)
        #expect(kde.receive() == .none, "another file of the directory")
        try "[Libinput][2][7][SynPS/2 Synaptics TouchPad]\nNaturalScroll=true\n".write(toFile: directory + "/kcminputrc", atomically: true, encoding: .utf8)
        #expect(kde.receive() == .touchpads)
        #expect(kde.receive() == .none, "told once")

        // A system directory's kcminputrc (KWin's defaults a distribution ships) is read under
        // the user's: its change is a change, in a directory made only now.
        var system = session("KDE")
        system.configDirs = [directory + "/xdg-vendor", directory + "/xdg"]
        let cascade = try #require(DesktopSettings.watchChanges(in: system, logger: quiet))
        #expect(cascade.source.contains(directory + "/xdg/kcminputrc") && cascade.source.contains(directory + "/xdg-vendor/kcminputrc"))
        try FileManager.default.createDirectory(atPath: directory + "/xdg", withIntermediateDirectories: false)
        _ = cascade.receive()
        #expect(cascade.receive() == .none)
        try "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n".write(toFile: directory + "/xdg/kcminputrc", atomically: true, encoding: .utf8)
        #expect(cascade.receive() == .touchpads)

        // dconf's service writes a new database and renames it over `user`, in a directory
        // made at the first write.
        let gnome = try #require(DesktopSettings.watchChanges(in: session("ubuntu:GNOME"), logger: quiet))
        #expect(gnome.source == directory + "/dconf/user")
        try FileManager.default.createDirectory(atPath: directory + "/dconf", withIntermediateDirectories: false)
        _ = gnome.receive()
        #expect(gnome.receive() == .none)
        try "GVariant".write(toFile: directory + "/dconf/user.X1Y2Z3", atomically: false, encoding: .utf8)
        #expect(gnome.receive() == .none, "dconf's temporary file")
        #expect(rename(directory + "/dconf/user.X1Y2Z3", directory + "/dconf/user") == 0)
        #expect(gnome.receive() == .touchpads)
    }

    // MARK: Asking

    @Test func getInputsIsAskedOverTheSocket() throws {
        let server = try FakeSway(reply: { request in
            request.type == SwayIPC.MessageType.getInputs ? SwayIPC.encode(type: 100, payload: SwayInputsTests.reply()) : nil
        })
        defer { server.stop() }
        let json = try SwayInputs.ask(socket: server.path, timeout: .milliseconds(5000)).get()
        let found = try #require(SwayInputs.touchpads(json))
        #expect(found.natural(for: DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)) == true)
        #expect(found.virtualTouchpad == false)
    }

    /// Each way an ask fails is told as what happened: before, every one was "did not answer
    /// get_inputs within 1 s", a refusal and a closed connection included.
    @Test func aSwayThatClosesAnswersAnotherTypeOrIsSilentGivesNoAnswer() throws {
        func why(_ asked: Result<String, SwayIPC.Failure>, _ socket: String) -> String {
            guard case .failure(let failure) = asked else { return "answered" }
            return failure.why("get_inputs", at: socket, within: .seconds(1))
        }
        let closing = try FakeSway(reply: { _ in nil })
        defer { closing.stop() }
        #expect(why(SwayInputs.ask(socket: closing.path, timeout: .milliseconds(5000)), closing.path)
                == "sway at \(closing.path) closed the connection without answering get_inputs")

        let wrong = try FakeSway(reply: { _ in SwayIPC.encode(type: 1, payload: "[]") })
        defer { wrong.stop() }
        #expect(why(SwayInputs.ask(socket: wrong.path, timeout: .milliseconds(5000)), wrong.path)
                == "sway at \(wrong.path) answered get_inputs with a message of type 1")

        let stranger = try FakeSway(reply: { _ in Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8) })
        defer { stranger.stop() }
        #expect(why(SwayInputs.ask(socket: stranger.path, timeout: .milliseconds(5000)), stranger.path)
                == "what came from \(stranger.path) in answer to get_inputs is not sway's IPC protocol")

        // A silent sway is waited for until the deadline, and no longer (the control: one that
        // answers is heard).
        let silent = try FakeSway(reply: { _ in SwayIPC.encode(type: 100, payload: "[]") }, answers: false)
        defer { silent.stop() }
        let asked = Syscall.monotonicNow()
        #expect(why(SwayInputs.ask(socket: silent.path, timeout: .milliseconds(50)), silent.path)
                == "sway at \(silent.path) did not answer get_inputs within 1 s")
        let waited = Syscall.monotonicNow() - asked
        #expect(waited >= .milliseconds(50) && waited < .seconds(10), "waited \(waited)")
        let answering = try FakeSway(reply: { _ in SwayIPC.encode(type: 100, payload: "[]") })
        defer { answering.stop() }
        #expect(SwayInputs.ask(socket: answering.path, timeout: .seconds(5)) == .success("[]"), "the control: an answer within the wait")

        #expect(why(SwayInputs.ask(socket: closing.path + ".gone", timeout: .milliseconds(5000)), closing.path + ".gone")
                == "sway at \(closing.path).gone could not be reached for get_inputs (connect: No such file or directory)")
        let starting = try ListeningSocket(closing.path + ".bound", listening: false)
        defer { starting.close() }
        #expect(why(SwayInputs.ask(socket: starting.path, timeout: .milliseconds(5000)), starting.path)
                == "sway at \(starting.path) could not be reached for get_inputs (connect: Connection refused)")
    }
}

/// A connected pair of stream sockets: flickd's end and sway's.
func socketPair() throws -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
        throw SystemError(errno: errno, call: "socketpair")
    }
    return (ends[0], ends[1])
}

/// Writes all of `bytes` to the blocking socket `fd`.
func send(_ fd: Int32, _ bytes: [UInt8]) {
    let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    precondition(sent == bytes.count)
}

/// One whole message read (blocking) from `fd`; nil at its end.
func readMessage(_ fd: Int32) throws -> SwayIPC.Message? {
    var decoder = SwayIPC.Decoder()
    var byte: UInt8 = 0
    while true {
        if let message = try decoder.next() { return message }
        guard Glibc.read(fd, &byte, 1) == 1 else { return nil }
        [byte].withUnsafeBytes { decoder.append($0) }
    }
}

/// A sway listening on a socket in a fresh directory that serves one connection: it reads the
/// request and writes what `reply` gives (nil: closes without a word); with `answers` false
/// it holds the connection open without answering until stopped.
private final class FakeSway: @unchecked Sendable {
    var path: String { listener.path }
    private let directory: TemporaryDirectory
    private let listener: ListeningSocket
    private let thread: Thread

    init(reply: @escaping @Sendable (SwayIPC.Message) -> [UInt8]?, answers: Bool = true) throws {
        directory = try TemporaryDirectory("flickd-swayipc")
        let listener = try ListeningSocket(directory.path + "/sway-ipc.sock")
        self.listener = listener
        thread = Thread {
            guard let connection = try? listener.accept() else { return }
            defer { close(connection) }
            guard let request = try? readMessage(connection), let bytes = reply(request) else { return }
            if answers { send(connection, bytes) }
            // Held until the client closes (or the listener is shut down).
            var byte: UInt8 = 0
            _ = Glibc.read(connection, &byte, 1)
        }
        thread.start()
    }

    /// Ends the server: wakes a pending accept and removes the socket.
    func stop() {
        listener.close()
    }
}

/// A directory made fresh for a test, removed with its contents when released.
final class TemporaryDirectory {
    let path: String

    init(_ prefix: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A Unix stream socket bound at `path` (a sway's IPC socket), listening unless told not to.
/// `close()` may come from another thread than a pending `accept()`, which it wakes.
final class ListeningSocket: @unchecked Sendable {
    let path: String
    private var fd: Int32
    /// Whether the path is this socket's: only then does `close` remove it (a failed bind leaves
    /// whatever was there).
    private var bound = false

    init(_ path: String, listening: Bool = true) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard let address = UnixSocketAddress(path), address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            throw SystemError(errno: errno, call: "bind", path: path)
        }
        bound = true
        if listening { try listen() }
    }

    deinit { close() }

    func listen() throws {
        guard Glibc.listen(fd, 4) == 0 else { throw SystemError(errno: errno, call: "listen", path: path) }
    }

    /// The next connection (one already made returns at once).
    func accept() throws -> Int32 {
        let connection = Glibc.accept(fd, nil, nil)
        guard connection >= 0 else { throw SystemError(errno: errno, call: "accept", path: path) }
        return connection
    }

    /// Stops listening (a pending accept returns) and removes the socket, as an exiting sway does.
    func close() {
        guard fd >= 0 else { return }
        // No longer handed out before it is closed: a late accept gets EBADF, never a reused number.
        let closing = fd
        fd = -1
        shutdown(closing, Int32(SHUT_RDWR))
        Glibc.close(closing)
        if bound { unlink(path) }
    }
}
