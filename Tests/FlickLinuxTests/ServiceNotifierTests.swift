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

    @Test("a socket nobody listens on is a logged warning, not a failure")
    func missingSocketIsNotFatal() throws {
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: "/tmp/flickd-test-nobody-\(getpid())", logger: log.logger)
        #expect(throws: SystemError.self) { try notifier.send("READY=1") }
        notifier.ready()  // logs once, does not throw or trap
        notifier.stopping()
        let warnings = log.lines.filter { $0.hasPrefix("warning: cannot notify the service manager") }
        #expect(warnings.count == 1, "one warning for both failures: \(log.lines)")
    }

    @Test("a service manager that reads nothing makes the status sends fail, never wait")
    func aFullQueueDoesNotHoldTheLoop() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        // More datagrams than a Unix socket queues (net.unix.max_dgram_qlen, 512 by default):
        // a blocking send would wait here for a reader that never comes.
        for index in 0..<5000 { notifier.status("reading \(index) touch devices") }
        let warnings = log.lines.filter { $0.hasPrefix("warning: cannot notify the service manager") }
        #expect(warnings.count == 1, "the full queue is logged once: \(log.lines.prefix(3))")
        #expect(!listener.received().isEmpty, "the ones queued before it filled arrived")
    }

    @Test("READY=1 waits for room in a full queue (a lost READY gets the service killed), up to a limit")
    func readyWaitsForRoom() throws {
        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        var queued = 0
        while log.lines.isEmpty && queued < 5000 {
            notifier.status("reading \(queued) touch devices")
            queued += 1
        }
        try #require(!log.lines.isEmpty, "the queue filled")
        // The service manager reads one datagram a moment later.
        let fd = listener.fd
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        }
        notifier.ready(status: "reading 1 touch device")
        #expect(listener.received().last == "READY=1\nSTATUS=reading 1 touch device", "READY waited and arrived")
        #expect(log.lines.count == 1, "nothing more failed: \(log.lines)")
        // The queue full again (more than net.unix.max_dgram_qlen) and nobody reading:
        // STOPPING gives up after its wait.
        for _ in 0..<5000 { notifier.status("filling") }
        let before = Syscall.monotonicNow()
        notifier.stopping()
        #expect(Syscall.monotonicNow() - before < ServiceNotifier.stateChangeWait * 3, "it gave up")
        #expect(!listener.received().contains("STOPPING=1"))
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
