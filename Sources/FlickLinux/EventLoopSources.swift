import CShim
import FlickCore
import Glibc

/// An epoll instance: the one place the daemon blocks.
///
/// Level-triggered; every watched descriptor carries a caller-chosen 64-bit token.
final class EventPoll {
    /// How many ready descriptors one `wait` reports at most; more stay ready for the next.
    static let capacity = 32

    let fileDescriptor: Int32
    /// Filled by `wait`; allocated once so waiting never allocates.
    private let ready: UnsafeMutableBufferPointer<epoll_event>

    init() throws(SystemError) {
        fileDescriptor = try Syscall.epollCreate()
        ready = .allocate(capacity: Self.capacity)
    }

    deinit {
        ready.deallocate()
        Syscall.close(fileDescriptor)
    }

    /// Watches `fd` for input, reported with `token`.
    func add(_ fd: Int32, token: UInt64) throws(SystemError) {
        try Syscall.epollAdd(fileDescriptor, fd, token: token)
    }

    /// Watches `fd` for its hang-up alone (EPOLLHUP and EPOLLERR, which epoll always reports):
    /// never readable for input, so a terminal the user types into does not wake the loop.
    func addHangUp(_ fd: Int32, token: UInt64) throws(SystemError) {
        try Syscall.epollAdd(fileDescriptor, fd, token: token, events: 0)
    }

    /// Stops watching `fd`.
    func remove(_ fd: Int32) throws(SystemError) {
        try Syscall.epollRemove(fileDescriptor, fd)
    }

    /// Blocks until a watched descriptor is ready or `timeoutMilliseconds` pass (-1, the
    /// default: forever). Returns the number of ready entries; read them with `token(at:)`.
    func wait(timeoutMilliseconds: Int32 = -1) throws(SystemError) -> Int {
        try Syscall.epollWait(fileDescriptor, into: ready, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The token of the `index`th ready descriptor of the last `wait`.
    func token(at index: Int) -> UInt64 { ready[index].data.u64 }
}

/// A one-shot timer on CLOCK_MONOTONIC, armed with absolute deadlines (a timerfd).
final class DeadlineTimer {
    let fileDescriptor: Int32
    /// The deadline the timer is armed for; nil while disarmed.
    private(set) var deadline: Instant?

    init() throws(SystemError) {
        fileDescriptor = try Syscall.timerCreate()
    }

    deinit { Syscall.close(fileDescriptor) }

    /// Arms the timer for `deadline` (nil disarms). Makes no syscall when nothing changes.
    func arm(at deadline: Instant?) throws(SystemError) {
        guard deadline != self.deadline else { return }
        try Syscall.timerSet(fileDescriptor, deadline: deadline)
        self.deadline = deadline
    }

    /// Consumes the timer's readiness. True when it fired; it is disarmed afterwards.
    func acknowledge() throws(SystemError) -> Bool {
        guard try Syscall.timerExpirations(fileDescriptor) > 0 else { return false }
        deadline = nil
        return true
    }
}

/// Signals delivered through a signalfd instead of handlers.
///
/// Blocks its signals on creation (for the calling thread: the daemon's only one) and restores
/// the previous mask when released.
final class SignalReceiver {
    let fileDescriptor: Int32
    private let previousMask: sigset_t

    /// Receives `signals` (SIGTERM, SIGINT, ...) from now on.
    init(signals: [Int32]) throws(SystemError) {
        let set = Syscall.signalSet(signals)
        previousMask = try Syscall.blockSignals(set)
        do throws(SystemError) {
            fileDescriptor = try Syscall.signalCreate(set)
        } catch {
            Syscall.restoreSignalMask(previousMask)
            throw error
        }
    }

    /// Signals still pending are read and dropped before the mask is restored: a second
    /// SIGTERM while the daemon shut down (Ctrl-C twice) would otherwise be delivered then and
    /// end the process by it (status 143, not 0).
    deinit {
        while case .some(.some) = try? Syscall.nextSignal(fileDescriptor) {}
        Syscall.close(fileDescriptor)
        Syscall.restoreSignalMask(previousMask)
    }

    /// The next pending signal's number and sender, nil when none is pending.
    func next() throws(SystemError) -> (number: Int32, sender: SignalSender)? {
        try Syscall.nextSignal(fileDescriptor)
    }

    /// Runs `body` with `signal` unblocked for the calling thread, and blocks it again: a
    /// `raise(signal)` in `body` then takes the signal's default action (SIGTSTP: the process
    /// stops, and `body` returns once it is continued). The signal read from the signalfd is
    /// no longer pending, so the unblocking delivers nothing by itself. When the mask cannot be
    /// read, `body` does not run: raised while blocked, the signal would only come back here.
    func whileUnblocked(_ signal: Int32, _ body: () -> Void) {
        // Blocking nothing returns the mask in force.
        guard let blocked = try? Syscall.blockSignals(Syscall.signalSet([])) else { return }
        var unblocked = blocked
        sigdelset(&unblocked, signal)
        Syscall.restoreSignalMask(unblocked)
        body()
        Syscall.restoreSignalMask(blocked)
    }
}
