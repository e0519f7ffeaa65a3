import CShim
import FlickCore
import Glibc
import Synchronization
import Testing
@testable import FlickLinux

/// The syscall layer against the real kernel: errno mapping, epoll, timerfd, signalfd.
///
/// No test sleeps: readiness is checked with `epoll_wait` and a zero timeout, except one timer
/// armed 2 ms ahead.
@Suite("Syscalls", .serialized)
struct SyscallTests {
    @Test("an errno becomes a SystemError naming the call, the file and the reason")
    func errnoDescription() {
        let denied = SystemError(errno: EACCES, call: "open", path: "/dev/input/event3")
        #expect(denied.description == "open /dev/input/event3: Permission denied")
        #expect(denied.isPermissionDenied && !denied.isMissing)

        let missing = SystemError(errno: ENOENT, call: "open", path: "/dev/uinput")
        #expect(missing.isMissing && !missing.isPermissionDenied)
        #expect(SystemError(errno: ENODEV, call: "read").isMissing)

        let busy = SystemError(errno: EAGAIN, call: "read")
        #expect(busy.description == "read: Resource temporarily unavailable")
        #expect(busy.wouldBlock)
    }

    @Test("open of a missing file throws ENOENT with the path")
    func openMissing() {
        #expect(throws: SystemError(errno: ENOENT, call: "open", path: "/nonexistent/flickd")) {
            try Syscall.open("/nonexistent/flickd", flags: O_RDONLY)
        }
    }

    @Test("an extended attribute is read back as its bytes; one a file does not have is nil")
    func extendedAttribute() throws {
        let directory = ConfigScratchDirectory()
        directory.write("device", "")
        let path = directory.file("device")
        #expect(Syscall.extendedAttribute(path, "system.posix_acl_access") == nil, "a file without an ACL")
        let value: [UInt8] = [2, 0, 0, 0, 1, 0, 6, 0]
        guard setxattr(path, "user.flickd-test", value, value.count, 0) == 0 else {
            // A file system without user attributes: nothing to read back here.
            try #require(errno == ENOTSUP, "setxattr: \(errno)")
            return
        }
        #expect(Syscall.extendedAttribute(path, "user.flickd-test") == value)
        #expect(Syscall.extendedAttribute(directory.file("missing"), "user.flickd-test") == nil)
    }

    @Test("the monotonic clock is CLOCK_MONOTONIC in microseconds, and moves forward")
    func monotonicClock() {
        // clock_gettime read directly before and after brackets it exactly.
        let before = nanoseconds(CLOCK_MONOTONIC) / 1000
        let now = Syscall.monotonicNow()
        let after = nanoseconds(CLOCK_MONOTONIC) / 1000
        #expect(before <= now.microseconds && now.microseconds <= after, "\(before) µs ≤ \(now.microseconds) µs ≤ \(after) µs")
        #expect(Syscall.monotonicNow() >= now)
    }

    @Test("a timer armed for a deadline already past is ready at once, and is one-shot")
    func timerInThePast() throws {
        let poll = try EventPoll()
        let timer = try DeadlineTimer()
        try poll.add(timer.fileDescriptor, token: 7)

        #expect(try poll.wait(timeoutMilliseconds: 0) == 0)
        try timer.arm(at: Syscall.monotonicNow() - .milliseconds(1))
        #expect(try poll.wait(timeoutMilliseconds: 0) == 1)
        #expect(poll.token(at: 0) == 7)
        #expect(try timer.acknowledge())
        #expect(timer.deadline == nil)

        // Fired once: no longer ready, and a second read finds nothing.
        #expect(try poll.wait(timeoutMilliseconds: 0) == 0)
        #expect(try timer.acknowledge() == false)
    }

    @Test("a deadline at the clock's origin still fires (an all-zero itimerspec would disarm)")
    func timerAtOrigin() throws {
        let poll = try EventPoll()
        let timer = try DeadlineTimer()
        try poll.add(timer.fileDescriptor, token: 1)
        try timer.arm(at: .zero)
        #expect(try poll.wait(timeoutMilliseconds: 0) == 1)
    }

    @Test("a future deadline is not ready; disarming cancels one that has passed, unread")
    func timerInTheFuture() throws {
        let poll = try EventPoll()
        let timer = try DeadlineTimer()
        try poll.add(timer.fileDescriptor, token: 1)
        try timer.arm(at: Syscall.monotonicNow() + .milliseconds(10_000))
        #expect(try poll.wait(timeoutMilliseconds: 0) == 0)
        try timer.arm(at: .zero)
        #expect(try poll.wait(timeoutMilliseconds: 0) == 1, "passed: ready")
        try timer.arm(at: nil)
        #expect(timer.deadline == nil)
        #expect(try poll.wait(timeoutMilliseconds: 0) == 0, "disarmed: its expiry is gone")
        #expect(try timer.acknowledge() == false)
    }

    @Test("a timer armed 2 ms ahead wakes epoll_wait no earlier than its deadline")
    func timerFiresAtDeadline() throws {
        let poll = try EventPoll()
        let timer = try DeadlineTimer()
        try poll.add(timer.fileDescriptor, token: 3)
        let deadline = Syscall.monotonicNow() + .milliseconds(2)
        try timer.arm(at: deadline)
        #expect(try poll.wait(timeoutMilliseconds: 1000) == 1)
        let woke = Syscall.monotonicNow()
        #expect(woke >= deadline, "woke at \(woke), deadline \(deadline)")
        #expect(try timer.acknowledge())
    }

    @Test("a removed descriptor is no longer reported")
    func epollRemove() throws {
        let poll = try EventPoll()
        let timer = try DeadlineTimer()
        try poll.add(timer.fileDescriptor, token: 1)
        try timer.arm(at: .zero)
        try poll.remove(timer.fileDescriptor)
        #expect(try poll.wait(timeoutMilliseconds: 0) == 0)
        #expect(throws: SystemError.self) { try poll.remove(timer.fileDescriptor) }
    }

    @Test("a blocked signal arrives through the signalfd, and the mask is restored after")
    func signalReceiver() throws {
        // Test threads may have signals blocked already (libdispatch's workers do): compare
        // with the mask as it was.
        var before = sigset_t()
        sigprocmask(SIG_BLOCK, nil, &before)
        do {
            let signals = try SignalReceiver(signals: [SIGUSR1])
            let poll = try EventPoll()
            try poll.add(signals.fileDescriptor, token: 9)
            #expect(try signals.next() == nil)

            // raise() sends to this thread, which has SIGUSR1 blocked: it waits for the signalfd.
            raise(SIGUSR1)
            #expect(try poll.wait(timeoutMilliseconds: 0) == 1)
            #expect(try signals.next()?.number == SIGUSR1)
            #expect(try signals.next() == nil)
        }
        var after = sigset_t()
        sigprocmask(SIG_BLOCK, nil, &after)
        #expect(sigismember(&after, SIGUSR1) == sigismember(&before, SIGUSR1))
    }

    /// A signal that came after the last read (a second SIGTERM while the daemon shut down) is
    /// dropped with the receiver, not delivered once the mask is restored. SIGWINCH, counted by
    /// a handler: by default it is ignored, so a failure cannot end the test process.
    @Test("a signal pending when the receiver goes is dropped, not delivered")
    func pendingSignalIsDroppedWithTheReceiver() throws {
        // Test threads may have signals blocked (libdispatch's workers do): SIGWINCH is
        // unblocked here, as on the daemon's thread, and the thread's mask put back after.
        var winch = sigset_t()
        sigemptyset(&winch)
        sigaddset(&winch, SIGWINCH)
        var before = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &winch, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        windowChanges.store(0, ordering: .relaxed)
        let previous = signal(SIGWINCH) { _ in windowChanges.add(1, ordering: .relaxed) }
        defer { signal(SIGWINCH, previous) }
        do {
            let signals = try SignalReceiver(signals: [SIGWINCH])
            raise(SIGWINCH)
            _ = signals
        }
        // Unblocking delivers what is pending before sigprocmask returns: it would have run by now.
        #expect(windowChanges.load(ordering: .relaxed) == 0, "delivered after the receiver went")
    }
}

/// SIGWINCHs delivered to `pendingSignalIsDroppedWithTheReceiver`'s handler.
private let windowChanges = Atomic<Int>(0)

/// `clock`'s time, read with clock_gettime, in nanoseconds.
func nanoseconds(_ clock: clockid_t) -> Int64 {
    var now = timespec()
    precondition(clock_gettime(clock, &now) == 0)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
