import Dispatch
import FlickCore
import Glibc
import Synchronization
import Testing
@testable import FlickLinux

/// A Unix datagram socket standing in for systemd's notification socket.
final class NotifySocketListener {
    let fd: Int32
    /// `$NOTIFY_SOCKET` for it: a path, or `@name` in the abstract namespace.
    let address: String
    private let path: String?

    init(abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        let name = "flickd-test-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        address = abstract ? "@\(name)" : "/tmp/\(name)"
        path = abstract ? nil : address
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(address.utf8)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
            if abstract { sunPath[0] = 0 }
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        try #require(bound == 0, "bind \(address): errno \(errno)")
    }

    deinit {
        close(fd)
        if let path { unlink(path) }
    }

    /// Every datagram waiting, oldest first, without blocking.
    func received() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0 { return messages }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }
}

/// A thread of this process seen from another through /proc/self/task/TID: whether it sleeps
/// in sendto(2), as a send waiting for room in a full datagram queue does.
struct ThreadProbe: Sendable {
    /// The thread's id (the TID of /proc/self/task/TID).
    let id: Substring

    /// The calling thread: /proc/thread-self links to `PID/task/TID`.
    static func current() throws -> ThreadProbe {
        var link = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &link, link.count - 1)
        try #require(count > 0, "readlink /proc/thread-self: errno \(errno)")
        let path = String(decoding: link[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ThreadProbe(id: try #require(path.split(separator: "/").last, "\(path)"))
    }

    /// sendto's system call number, as /proc/.../syscall shows it.
    #if arch(x86_64)
    static let sendto = "44"
    #else
    static let sendto = "206"  // the generic table's (arm64, riscv64)
    #endif

    /// Whether the thread sleeps (state S in its stat) in sendto (the number its syscall file
    /// starts with; the kernel shows it only for a thread that is not running).
    var isWaitingInSendto: Bool {
        guard let stat = Self.text("/proc/self/task/\(id)/stat"), let call = Self.text("/proc/self/task/\(id)/syscall"),
              let nameEnd = stat.lastIndex(of: ")")
        else { return false }
        // "TID (comm) S ...": the state follows the name, which may hold spaces and ')'.
        let state = stat[stat.index(after: nameEnd)...].first { $0 != " " }
        return state == "S" && call.split(separator: " ").first.map(String.init) == Self.sendto
    }

    private static func text(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}

@Suite("sd_notify without libsystemd", .serialized)
struct ServiceNotifierTests {
    let quiet = Logger(label: "flickd-test") { _ in NoOpLogHandler() }

    @Test("datagrams reach a socket given by path and by abstract name", arguments: [false, true])
    func sendsToPathAndAbstractSockets(abstract: Bool) throws {
        let listener = try NotifySocketListener(abstract: abstract)
        let notifier = try ServiceNotifier(address: listener.address, logger: quiet)
        notifier.ready(status: "reading 1 touch device")
        notifier.reloading(at: Instant(microseconds: 1_234_567))
        notifier.status("two\nlines")
        notifier.stopping()
        #expect(listener.received() == [
            "READY=1\nSTATUS=reading 1 touch device",
            "RELOADING=1\nMONOTONIC_USEC=1234567",
            "STATUS=two lines",
            "STOPPING=1",
        ])
    }

    @Test("addresses: absolute path or @abstract; anything else is refused")
    func addresses() {
        #expect(UnixSocketAddress("/run/user/1000/systemd/notify") != nil)
        #expect(UnixSocketAddress("@/org/freedesktop/systemd1/notify/123") != nil)
        #expect(UnixSocketAddress("relative/path") == nil)
        #expect(UnixSocketAddress("vsock:2:1234") == nil)
        #expect(UnixSocketAddress("@") == nil)
        #expect(UnixSocketAddress("") == nil)
        #expect(UnixSocketAddress("/" + String(repeating: "x", count: 106)) != nil)  // 107 + NUL = 108
        #expect(UnixSocketAddress("/" + String(repeating: "x", count: 107)) == nil)
        #expect(UnixSocketAddress("@" + String(repeating: "x", count: 107)) != nil)  // no NUL needed
        #expect(throws: SystemError.self) { try ServiceNotifier(address: "not-a-path", logger: quiet) }
    }

    /// The warnings `log` holds of notifications that could not be sent.
    static func failures(_ log: CollectedLog) -> [String] {
        log.lines.filter { $0.hasPrefix("warning: cannot notify the service manager") }
    }

    /// A notifier for `listener` waiting up to `sendTimeout`, whose queue has been filled with
    /// statuses until the first could not be sent (that failure is in `log`).
    static func fullQueue(_ listener: NotifySocketListener, log: CollectedLog, sendTimeout: Duration) throws -> ServiceNotifier {
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger, sendTimeout: sendTimeout)
        // The queue holds net.unix.max_dgram_qlen datagrams: the kernel's default is 10, systemd's
        // sysctl.d raises it to 512.
        var queued = 0
        while failures(log).isEmpty && queued < 5000 {
            notifier.status("reading \(queued) touch devices")
            queued += 1
        }
        try #require(failures(log).count == 1, "the queue filled after \(queued) statuses: \(log.lines)")
        return notifier
    }

    @Test("a socket nobody listens on is a logged warning per kind, not a failure")
    func missingSocketIsNotFatal() throws {
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: "/tmp/flickd-test-nobody-\(getpid())", logger: log.logger)
        #expect(throws: SystemError.self) { try notifier.send("READY=1") }
        notifier.ready()  // logs, does not throw or trap
        notifier.ready()
        notifier.stopping()
        notifier.stopping()
        let warnings = Self.failures(log)
        #expect(warnings.count == 2, "one warning for READY, one for STOPPING: \(log.lines)")
        #expect(warnings.first?.contains("READY=1") == true && warnings.last?.contains("STOPPING=1") == true, "\(warnings)")
    }

    /// A send timeout far beyond `noWait`: a send that waited for room would take all of it.
    static let longSendTimeout = Duration.seconds(20)
    /// How long a send that does not wait may take on a loaded machine: generous, for a send
    /// that returns at once; a wait shows as `longSendTimeout`, twice as long.
    static let noWait = Duration.seconds(10)

    @Test("a service manager that reads nothing makes the status sends fail, never wait")
    func aFullQueueDoesNotHoldTheLoop() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let timeout = Self.longSendTimeout
        let notifier = try Self.fullQueue(listener, log: log, sendTimeout: timeout)
        let before = Syscall.monotonicNow()
        notifier.status("reading 1 touch device")
        let took = Syscall.monotonicNow() - before
        #expect(took < Self.noWait, "a status into the full queue returned after \(took): it waited (the send timeout is \(timeout))")
        #expect(Self.failures(log).count == 1, "the full queue is logged once for statuses: \(log.lines)")
        let received = listener.received()
        #expect(!received.isEmpty, "the ones queued before it filled arrived")
        #expect(!received.contains("STATUS=reading 1 touch device"), "the status was dropped, not sent late")
    }

    @Test("READY and RELOADING told not to wait (a glide runs) fail at once in a full queue, and say so")
    func aStateChangeDuringAGlideDoesNotWait() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let timeout = Self.longSendTimeout
        let notifier = try Self.fullQueue(listener, log: log, sendTimeout: timeout)
        let before = Syscall.monotonicNow()
        notifier.reloading(at: Instant(microseconds: 1_234_567), waiting: false)
        notifier.ready(status: "reading 1 touch device", waiting: false)
        let took = Syscall.monotonicNow() - before
        #expect(took < Self.noWait, "RELOADING and READY into the full queue returned after \(took): one waited (the send timeout is \(timeout))")
        let warnings = Self.failures(log)
        #expect(warnings.count == 3, "STATUS, then RELOADING and READY each logged: \(log.lines)")
        #expect(warnings.dropFirst().first?.contains("RELOADING=1") == true && warnings.last?.contains("READY=1") == true, "\(warnings)")
    }

    @Test("READY, RELOADING and STOPPING wait for room in a full queue, up to the send timeout, and their failures are logged after a status's")
    func stateChangesWaitForRoom() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let timeout = Duration.milliseconds(20)
        let notifier = try Self.fullQueue(listener, log: log, sendTimeout: timeout)
        // Nobody reads: each waits its whole timeout, then gives up and is logged, once a kind.
        let changes: [(name: String, send: () -> Void)] = [
            ("READY=1", { notifier.ready(status: "reading 1 touch device") }),
            ("READY=1", { notifier.ready() }),
            ("RELOADING=1", { notifier.reloading(at: Instant(microseconds: 1_234_567)) }),
            ("STOPPING=1", { notifier.stopping() }),
        ]
        for change in changes {
            let before = Syscall.monotonicNow()
            change.send()
            let took = Syscall.monotonicNow() - before
            #expect(took >= timeout, "\(change.name) gave up after \(took), before its \(timeout) wait")
        }
        let warnings = Self.failures(log)
        #expect(warnings.count == 4, "STATUS, READY (once), RELOADING and STOPPING: \(log.lines)")
        #expect(zip(warnings, ["STATUS", "READY=1", "RELOADING=1", "STOPPING=1"]).allSatisfy { $0.contains("of \($1)") }, "\(warnings)")
        #expect(!listener.received().contains { $0.hasPrefix("READY=1") || $0 == "STOPPING=1" }, "none arrived")
    }

    @Test("READY=1 waits for room in a full queue and arrives when the service manager reads (a lost READY gets the service killed)")
    func readyWaitsForRoom() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try Self.fullQueue(listener, log: log, sendTimeout: Self.longSendTimeout)
        // The service manager reads one datagram once this thread is seen waiting in sendto(2):
        // only a READY that waited can then arrive. One that did not wait fails at once.
        let reader = ReadOnWait(fd: listener.fd, sender: try ThreadProbe.current(), within: Self.noWait)
        notifier.ready(status: "reading 1 touch device")
        #expect(reader.stop(), "READY=1 was never seen waiting for room: \(log.lines)")
        #expect(listener.received().last == "READY=1\nSTATUS=reading 1 touch device", "READY waited and arrived")
        #expect(!Self.failures(log).contains { $0.contains("READY=1") }, "\(log.lines)")
    }

    /// The service manager reading one datagram from `fd` as soon as `sender` is seen waiting in
    /// sendto(2) (polled every 100 µs for up to `within`, on a thread of its own).
    final class ReadOnWait: Sendable {
        private let state = Mutex((stopped: false, sawWait: false))
        private let finished = DispatchSemaphore(value: 0)

        init(fd: Int32, sender: ThreadProbe, within limit: Duration) {
            DispatchQueue.global().async { [self] in
                let deadline = Syscall.monotonicNow() + limit
                while !state.withLock({ $0.stopped }) && Syscall.monotonicNow() < deadline {
                    if sender.isWaitingInSendto {
                        state.withLock { $0.sawWait = true }
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        _ = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                        break
                    }
                    usleep(100)
                }
                finished.signal()
            }
        }

        /// Ends the watch (waiting for its thread); whether the sender was seen waiting, and a
        /// datagram read for it.
        func stop() -> Bool {
            state.withLock { $0.stopped = true }
            finished.wait()
            return state.withLock { $0.sawWait }
        }
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "config.toml:1: unreadable (a test's)" }
    }

    /// A run of a daemon with the wheel output, a touchpad and a service manager that stopped
    /// reading: once READY=1 has arrived, the queue is filled until a status fails, and a flick
    /// coasts; `afterWrite` runs after each wheel frame. The run ends with SIGTERM at the coast's
    /// end at the latest. SIGHUP reloads a file that cannot be used (the coast goes on).
    final class FullQueueRun {
        /// The notifier's send timeout: far beyond a frame's interval or a reload's work, so
        /// that a wait shows as a gap this long.
        let timeout: Duration
        let listener: NotifySocketListener
        let log = CollectedLog()
        /// The log's lines, each with the time it was written.
        var lines: [(time: Instant, line: String)] = []
        /// When each wheel frame was written.
        var writes: [Instant] = []
        var hangUp: Instant?, terminated: Instant?, returned: Instant?
        /// Runs while the reload reads its file (between its RELOADING=1 and its READY=1).
        var duringReload: ((FullQueueRun) -> Void)?

        /// The T440 pad, a keyboard and a mouse (`DaemonEventPathTests.source()`).
        let source: ScriptedDevices

        init(sendTimeout: Duration) throws {
            timeout = sendTimeout
            listener = try NotifySocketListener(abstract: false)
            source = try DaemonEventPathTests.source()
        }

        func line(containing text: String) -> (time: Instant, line: String)? { lines.first { $0.line.contains(text) } }
        func raiseSIGHUP() { hangUp = Syscall.monotonicNow(); raise(SIGHUP) }
        func terminate() {
            guard terminated == nil else { return }
            terminated = Syscall.monotonicNow()
            raise(SIGTERM)
        }

        func run(afterWrite: @escaping (FullQueueRun, Int) -> Void) throws {
            let notifier = try ServiceNotifier(address: listener.address, logger: log.logger, sendTimeout: timeout)
            let outputs = DaemonDeviceTests.Outputs()
            source.play([{ [unowned self] in
                var queued = 0
                while failures(log).isEmpty && queued < 5000 {
                    notifier.status("filling \(queued)")
                    queued += 1
                }
                let pad = source.devices[DaemonEventPathTests.pad]!
                pad.feed(DaemonEventPathTests.flick(on: pad.description, releasedAt: Syscall.monotonicNow()))
                outputs.wheels[0].afterWrite = { [unowned self] count in
                    writes.append(Syscall.monotonicNow())
                    afterWrite(self, count)
                }
                return []
            }])
            log.onLine = { [unowned self] line in
                lines.append((Syscall.monotonicNow(), line))
                if line.hasPrefix("debug: coast ended at ") { terminate() }
            }
            defer {
                for wheel in outputs.wheels { wheel.afterWrite = nil }
                log.onLine = nil
            }
            let daemon = try Daemon(engine: Engine(configuration: DaemonEventPathTests.wheelConfiguration(),
                                                   stallLimit: DaemonEventPathTests.noStall), output: nil,
                                    makeOutput: outputs.make, monitor: source, logger: log.logger, notifier: notifier) { [unowned self] in
                duringReload?(self)
                throw Unreadable()
            }
            let watchdog = DaemonWatchdog(seconds: 20)
            try daemon.run()
            returned = Syscall.monotonicNow()
            watchdog.cancel()
        }
    }

    @Test("a reload during a coast does not wait for a full notify queue; its RELOADING and READY are sent again once the coast is over")
    func aReloadDuringACoastDoesNotWait() throws {
        // At the coast's third frame SIGHUP; at the first frame after the reload, the service
        // manager reads again, and a key stops the coast. A RELOADING or READY that waited
        // would hold the loop the whole long send timeout, past the coast's end (about 5 s):
        // no frame after the reload, no key ending the coast, and a gap over `noWait`.
        let run = try FullQueueRun(sendTimeout: Self.longSendTimeout)
        var readAgain: [String]?
        try run.run { run, count in
            if count == 3 { run.raiseSIGHUP() }
            if readAgain == nil, let kept = run.line(containing: "SIGHUP: keeping the running configuration"),
               run.writes.last! > kept.time {
                readAgain = run.listener.received()
                run.source.devices[DaemonEventPathTests.keyboard]!.feed(DaemonEventPathTests.press(30, at: Syscall.monotonicNow()))  // KEY_A
            }
        }
        let hup = try #require(run.hangUp, "SIGHUP raised at the coast's third frame: \(run.writes.count) frames")
        let kept = try #require(run.line(containing: "SIGHUP: keeping the running configuration"), "\(run.log.lines)")
        #expect(kept.time - hup < Self.noWait, "RELOADING held the coast: the reload read its file \(kept.time - hup) after SIGHUP")
        let nextFrame = try #require(run.writes.first { $0 > kept.time }, "the coast went on after the reload: \(run.log.lines)")
        #expect(nextFrame - kept.time < Self.noWait, "READY held the coast: its next frame came \(nextFrame - kept.time) after the reload")
        let warnings = Self.failures(run.log)
        #expect(warnings.contains { $0.contains("of RELOADING=1") } && !warnings.contains { $0.contains("of READY=1") },
                "RELOADING failed and was logged; READY waited for it, untried: \(warnings)")
        #expect(DaemonEventPathTests.coastEnds(run.log) == ["key"], "the coast ran on until the key: \(run.log.lines)")
        #expect(readAgain?.first?.hasPrefix("READY=1\nSTATUS=") == true, "READY=1 at start came before the queue filled: \(readAgain ?? [])")
        let after = run.listener.received()
        #expect(after.count == 3 && after.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true
                && after.dropFirst().first?.hasPrefix("READY=1\nSTATUS=reading 1 touch device") == true && after.last == "STOPPING=1",
                "the reload's RELOADING and READY after the coast, then STOPPING: \(after)")
    }

    @Test("a RELOADING=1 that failed during a coast goes before its READY=1 even when the queue has room again by the READY")
    func anOwedReloadingGoesBeforeReady() throws {
        // The service manager reads its queue while the reload reads the file: READY=1 would
        // now fit, but its RELOADING=1 did not go; the two go in order after the coast.
        let run = try FullQueueRun(sendTimeout: Self.longSendTimeout)
        var drained: [String]?
        run.duringReload = { run in drained = run.listener.received() }
        var stopped = false
        try run.run { run, count in
            if count == 3 { run.raiseSIGHUP() }
            if !stopped, let kept = run.line(containing: "SIGHUP: keeping the running configuration"), run.writes.last! > kept.time {
                stopped = true
                run.source.devices[DaemonEventPathTests.keyboard]!.feed(DaemonEventPathTests.press(30, at: Syscall.monotonicNow()))  // KEY_A
            }
        }
        #expect(drained?.isEmpty == false, "the queue was read during the reload")
        #expect(Self.failures(run.log).contains { $0.contains("of RELOADING=1") }, "\(run.log.lines)")
        let after = run.listener.received()
        #expect(after.count == 3 && after.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true
                && after.dropFirst().first?.hasPrefix("READY=1\n") == true && after.last == "STOPPING=1",
                "RELOADING, READY, STOPPING, in that order, no READY before them: \(after)")
    }

    @Test("a shutdown during a coast stops it before STOPPING=1 waits for a full notify queue")
    func aShutdownStopsTheCoastBeforeWaiting() throws {
        // STOPPING waits its whole send timeout (nobody reads), then fails and is logged: the
        // coast's end is logged before that failure, not after it.
        let run = try FullQueueRun(sendTimeout: .milliseconds(500))
        try run.run { run, count in if count == 3 { run.terminate() } }
        let timeout = run.timeout
        #expect(DaemonEventPathTests.coastEnds(run.log) == ["shutdown"], "the coast ran until SIGTERM: \(run.log.lines)")
        let term = try #require(run.terminated), returned = try #require(run.returned)
        let ended = run.lines.firstIndex { $0.line.hasPrefix("debug: coast ended at ") }
        let stopping = run.lines.firstIndex { $0.line.hasPrefix("warning: cannot notify the service manager of STOPPING=1") }
        #expect(stopping != nil && ended.map { $0 < stopping! } == true,
                "STOPPING held the coast: the coast's end (line \(ended.map(String.init) ?? "none")) is logged after STOPPING's failure (line \(stopping.map(String.init) ?? "none")): \(run.log.lines)")
        #expect(returned - term >= timeout, "STOPPING waited its \(timeout) after the coast stopped: the run returned \(returned - term) after SIGTERM")
        #expect(Self.failures(run.log).last?.contains("of STOPPING=1") == true, "\(run.log.lines)")
    }

    @Test("a status the full queue could not take is sent at the next wake-up once there is room, not only when the devices change again")
    func aStatusNotSentIsSentAgain() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        var atStart: [String] = [], afterRoom: [String] = []
        var queued = 0
        _ = try DaemonDeviceTests.run(source, steps: [
            {
                // The service manager stops reading, its queue fills; then the pad is plugged in.
                atStart = listener.received()
                while Self.failures(log).isEmpty && queued < 5000 {
                    notifier.status("filling \(queued)")
                    queued += 1
                }
                source.present = [pad]
                return [.added(pad)]
            },
            {
                // It reads its queue again: the status it could not take is still owed.
                _ = listener.received()
                return []
            },
            {
                afterRoom = listener.received()
                return []
            },
        ], notifier: notifier)
        #expect(atStart == ["READY=1\nSTATUS=waiting for a touchpad or touchscreen"], "\(atStart)")
        #expect(Self.failures(log).count == 1, "the queue filled after \(queued) statuses: \(log.lines)")
        #expect(afterRoom == ["STATUS=reading 1 touch device"], "the pad's status, at the wake-up after there was room: \(afterRoom)")
    }

    @Test("a status to a socket nobody listens on is tried once, not again at every wake-up after it")
    func aStatusNobodyCanTakeIsNotRetried() throws {
        // NOTIFY_SOCKET names a path where nothing is bound (ENOENT): the pad's status fails
        // for good. Five more wake-ups follow the plug; each would try it again if it were owed.
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: "/tmp/flickd-test-nobody-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                                           logger: log.logger)
        var statuses: [String] = []
        notifier.onSend = { (message: String) in if message.hasPrefix("STATUS=") { statuses.append(message) } }
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        let plug: () -> [DeviceMonitor.Change] = {
            source.present = [pad]
            return [.added(pad)]
        }
        _ = try DaemonDeviceTests.run(source, steps: [plug] + Array(repeating: { [] }, count: 5), notifier: notifier)
        #expect(statuses == ["STATUS=reading 1 touch device"], "the pad's status, tried once: \(statuses.count) attempts: \(statuses)")
        #expect(Self.failures(log).count == 3, "READY, STATUS and STOPPING each logged once: \(log.lines)")
    }

    @Test("the daemon: READY after startup, RELOADING then READY around SIGHUP, STOPPING on SIGTERM")
    func daemonLifecycle() throws {
        let listener = try NotifySocketListener(abstract: false)
        let notifier = try ServiceNotifier(address: listener.address, logger: quiet)
        let daemon = try Daemon(
            engine: Engine(), wheel: RecordingWheel(), monitor: nil, logger: quiet, notifier: notifier
        ) { Configuration() }
        let before = Syscall.monotonicNow()
        raise(SIGHUP)
        raise(SIGTERM)
        try daemon.run()
        let messages = listener.received()
        try #require(messages.count == 4, "\(messages)")
        #expect(messages[0] == "READY=1\nSTATUS=waiting for a touchpad or touchscreen")
        let reloading = messages[1].split(separator: "\n")
        #expect(reloading.first == "RELOADING=1")
        let stamp = try #require(reloading.last.flatMap { Int64($0.dropFirst("MONOTONIC_USEC=".count)) })
        #expect(stamp >= before.microseconds && stamp <= Syscall.monotonicNow().microseconds)
        #expect(messages[2] == "READY=1\nSTATUS=waiting for a touchpad or touchscreen")
        #expect(messages[3] == "STOPPING=1")
    }
}
