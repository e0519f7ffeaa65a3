import Dispatch
import FlickCore
import Glibc
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

    @Test("a service manager that reads nothing makes the status sends fail, never wait")
    func aFullQueueDoesNotHoldTheLoop() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        // A status that waited would take the whole send timeout: 500 ms, far beyond a send.
        let timeout = Duration.milliseconds(500)
        let notifier = try Self.fullQueue(listener, log: log, sendTimeout: timeout)
        let before = Syscall.monotonicNow()
        notifier.status("reading 1 touch device")
        let took = Syscall.monotonicNow() - before
        #expect(took < timeout, "a status into the full queue returned after \(took), the send timeout is \(timeout)")
        #expect(Self.failures(log).count == 1, "the full queue is logged once for statuses: \(log.lines)")
        #expect(!listener.received().isEmpty, "the ones queued before it filled arrived")
    }

    @Test("READY and RELOADING told not to wait (a glide runs) fail at once in a full queue, and say so")
    func aStateChangeDuringAGlideDoesNotWait() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let timeout = Duration.milliseconds(500)
        let notifier = try Self.fullQueue(listener, log: log, sendTimeout: timeout)
        let before = Syscall.monotonicNow()
        notifier.reloading(at: Instant(microseconds: 1_234_567), waiting: false)
        notifier.ready(status: "reading 1 touch device", waiting: false)
        let took = Syscall.monotonicNow() - before
        #expect(took < timeout, "RELOADING and READY into the full queue returned after \(took), the send timeout is \(timeout)")
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
        let notifier = try Self.fullQueue(listener, log: log, sendTimeout: .seconds(5))
        // The service manager reads one datagram a moment later.
        let fd = listener.fd
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        }
        notifier.ready(status: "reading 1 touch device")
        #expect(listener.received().last == "READY=1\nSTATUS=reading 1 touch device", "READY waited and arrived")
        #expect(!Self.failures(log).contains { $0.contains("READY=1") }, "\(log.lines)")
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
        let timeout = Duration.milliseconds(500)
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

        init() throws {
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
            let daemon = try Daemon(engine: Engine(configuration: DaemonEventPathTests.wheelConfiguration()), output: nil,
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
        // manager reads again, and a key stops the coast.
        let run = try FullQueueRun()
        var readAgain: [String]?
        try run.run { run, count in
            if count == 3 { run.raiseSIGHUP() }
            if readAgain == nil, let kept = run.line(containing: "SIGHUP: keeping the running configuration"),
               run.writes.last! > kept.time {
                readAgain = run.listener.received()
                run.source.devices[DaemonEventPathTests.keyboard]!.feed(DaemonEventPathTests.press(30, at: Syscall.monotonicNow()))  // KEY_A
            }
        }
        let timeout = run.timeout
        let hup = try #require(run.hangUp, "SIGHUP raised at the coast's third frame: \(run.writes.count) frames")
        let kept = try #require(run.line(containing: "SIGHUP: keeping the running configuration"), "\(run.log.lines)")
        #expect(kept.time - hup < timeout, "RELOADING held the coast: the reload read its file \(kept.time - hup) after SIGHUP")
        let nextFrame = try #require(run.writes.first { $0 > kept.time }, "the coast went on after the reload: \(run.log.lines)")
        #expect(nextFrame - kept.time < timeout, "READY held the coast: its next frame came \(nextFrame - kept.time) after the reload")
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
        let run = try FullQueueRun()
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
        let run = try FullQueueRun()
        try run.run { run, count in if count == 3 { run.terminate() } }
        let timeout = run.timeout
        #expect(DaemonEventPathTests.coastEnds(run.log) == ["shutdown"], "the coast ran until SIGTERM: \(run.log.lines)")
        let term = try #require(run.terminated), returned = try #require(run.returned)
        let stopped = try #require(run.line(containing: "debug: coast ended at "))
        #expect(stopped.time - term < timeout, "STOPPING held the coast: it stopped \(stopped.time - term) after SIGTERM")
        #expect(returned - term >= timeout, "STOPPING waited its \(timeout) after the coast stopped: the run returned \(returned - term) after SIGTERM")
        #expect(Self.failures(run.log).last?.contains("of STOPPING=1") == true, "\(run.log.lines)")
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
