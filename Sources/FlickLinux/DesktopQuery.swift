import Glibc

/// Asks the desktop for its touchpad natural-scrolling setting off the event loop.
///
/// `DesktopSettings.naturalScrolling()` may run `gsettings`, which can take up to
/// `DesktopSettings.gsettingsTimeout` (a slow session bus, a cold dconf). Each `ask()` runs the
/// probe on a short-lived helper thread; the answer is kept here and one byte written to a pipe
/// whose read end (`fileDescriptor`) is in the daemon's epoll set, so the loop goes on handling
/// events and applies the answer when it arrives. An answer to an older ask that finishes after
/// a newer one started is dropped.
///
/// Rationale: a thread rather than a non-blocking child in epoll keeps the probe as it is
/// (KDE files and gsettings, with its timeout) and is started only at start and on reloads, so
/// an idle daemon makes no wake-ups and nothing is allocated per event.
public final class DesktopQuery: @unchecked Sendable {
    /// What the desktop said.
    public typealias Answer = DesktopSettings.Answer?

    /// Readable when an answer waits: give it to epoll, then call `receive()`.
    public let fileDescriptor: Int32
    private let writeEnd: Int32
    private let probe: @Sendable () -> Answer
    /// Guards `asked` and `answer`, which the loop and the helper threads share.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// The newest ask's number.
    private var asked: UInt64 = 0
    /// The answer to the newest ask once it has come (the outer optional).
    private var answer: Answer?

    /// A query asking `probe` (by default this session's desktop).
    public init(probe: @escaping @Sendable () -> Answer = { DesktopSettings.naturalScrolling() }) throws(SystemError) {
        let ends = try Syscall.makePipe()
        Syscall.setNonBlocking(ends.read)
        Syscall.setNonBlocking(ends.write)
        fileDescriptor = ends.read
        writeEnd = ends.write
        self.probe = probe
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
        Syscall.close(fileDescriptor)
        Syscall.close(writeEnd)
    }

    /// Starts asking; returns at once. False when no thread could be started (then nothing
    /// will arrive, and the setting in use stays).
    @discardableResult
    public func ask() -> Bool {
        let number = locked {
            asked += 1
            answer = nil
            return asked
        }
        // The thread keeps the query (and so the pipe) alive until it has written.
        let job = Unmanaged.passRetained(Job(query: self, number: number)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
            job.query.answer(job.number)
            return nil
        }, job)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(job).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// The answer to the newest ask, once it has come; nil while it has not (or was taken).
    /// Empties the pipe.
    public func receive() -> Answer? {
        var byte: UInt8 = 0
        while Glibc.read(fileDescriptor, &byte, 1) > 0 {}
        return locked {
            defer { answer = nil }
            return answer
        }
    }

    /// On the helper thread: asks, keeps the answer if no newer ask started, wakes the loop.
    private func answer(_ number: UInt64) {
        let found = probe()
        let current = locked {
            guard asked == number else { return false }
            answer = .some(found)
            return true
        }
        guard current else { return }
        var byte: UInt8 = 1
        // A full pipe already says an answer waits.
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    private final class Job {
        let query: DesktopQuery
        let number: UInt64
        init(query: DesktopQuery, number: UInt64) {
            self.query = query
            self.number = number
        }
    }
}

extension Syscall {
    /// Sets O_NONBLOCK on `fd`.
    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
}
