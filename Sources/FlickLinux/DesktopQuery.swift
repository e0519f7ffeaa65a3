import FlickCore
import Glibc

/// Asks the desktop for its touchpad natural-scrolling setting off the event loop.
///
/// `DesktopSettings.naturalScrolling(waitingFor:)` may run `gsettings`, which can take up to
/// `DesktopSettings.gsettingsTimeout` (a slow session bus, a cold dconf), or ask sway, up to
/// `DesktopSettings.swayTimeout` an ask (a busy sway), and on sway wait up to 2 s for new
/// devices to be listed. The probe runs on one helper thread, started by the first `ask()` and
/// kept for the query's life: it sleeps on a condition variable until asked, probes, keeps the
/// answer here and writes one byte to a pipe whose read end (`fileDescriptor`) is in the
/// daemon's epoll set, so the loop goes on handling events and applies the answer when it
/// arrives. Asks that come while a probe runs are served
/// by one more probe after it; an answer to an older ask is dropped.
///
/// An ask may also want the watch that blocks while it opens (the X server's, `XServerWatch`):
/// the helper thread opens it after the probe, so that the answer does not wait for it, and
/// hands it over through the same pipe (`takeServerWatch()`); a change made between the
/// probe's read and the watch's start is heard by neither, so the loop asks once more when it
/// takes a new watch.
///
/// Rationale: a thread rather than a non-blocking child in epoll keeps the probe as it is
/// (KDE files and gsettings, with its timeout); it makes no wake-ups while idle and nothing is
/// allocated per event. One thread kept rather than one per ask: a thread's exit runs glibc's
/// per-thread clean-up (resolver and RPC state), code in pages of libc that nothing else in
/// flickd touches, about 128 KiB resident (docs/PERFORMANCE.md); its stack and malloc arena
/// stay allocated after an exit anyway.
public final class DesktopQuery: @unchecked Sendable {
    /// What the desktop said, or why it said nothing.
    public typealias Answer = DesktopSettings.Finding

    /// The helper thread's stack: its probes (files, a JSON reply, a child process's output)
    /// need far less. Rationale: glibc's default, 8 MB, is backed by a 2 MB transparent huge
    /// page once the thread reaches it on a kernel with THP "always" (Debian's): 2 MB of
    /// resident memory for the daemon's life. A stack under 2 MB holds no huge page.
    static let stackSize = 1024 * 1024

    /// Readable when an answer waits: give it to epoll, then call `receive()`.
    public let fileDescriptor: Int32
    private let state: State
    /// Whether the helper thread runs (only the loop's thread reads and writes this).
    private var started = false
    /// How many times `ask` was called. For tests: an ask shows here as soon as the loop makes
    /// it, where the probe that answers it may still be to come on the helper thread.
    var asks: UInt64 { state.locked { state.asked } }

    /// Makes a watch that tells when the desktop's touchpad settings change (sway's input
    /// events and starts, KDE's files, GNOME's dconf database); nil where there is none.
    /// Called on the loop's thread, with the daemon's logger, at each ask while no watch is
    /// open.
    public let watchChanges: (Logger) -> (any DesktopWatch)?

    /// Makes a watch that tells when an X server starts at the session's display
    /// (`XServerStartWatch`); nil where there is none. Called on the loop's thread, with the
    /// daemon's logger, when the X server's watch ended or could not be opened.
    public let watchServerStart: (Logger) -> (any DesktopWatch)?

    /// Whether the answer says which touchpads' drivers glide by themselves (an X11 session
    /// whose X server flickd asks: the synaptics driver's coasting), which matters whatever
    /// `scroll.natural` says.
    public let tellsDriverGlides: Bool

    /// A query asking `probe` (by default this session's desktop); its argument is the ask's
    /// `devices`. `watchChanges` as above (by default this session's,
    /// `DesktopSettings.watchChanges`). `openServerWatch` opens the watch that may block, on the
    /// helper thread, for an ask that wants it; nil where there is none (by default this
    /// session's X server's, `DesktopSettings.openServerWatch`). `watchServerStart` as above
    /// (by default `DesktopSettings.watchServerStart`). `tellsDriverGlides` as above (nil:
    /// whether this session is X11's and not GNOME's).
    public init(probe: @escaping @Sendable (_ devices: [DeviceIdentity]) -> Answer = {
        DesktopSettings.naturalScrolling(waitingFor: $0)
    }, watchChanges: @escaping (Logger) -> (any DesktopWatch)? = DesktopSettings.watchChanges,
       openServerWatch: @escaping @Sendable () -> ServerWatchOpening? = DesktopSettings.openServerWatch,
       watchServerStart: @escaping (Logger) -> (any DesktopWatch)? = DesktopSettings.watchServerStart,
       tellsDriverGlides: Bool? = nil) throws(SystemError) {
        self.watchChanges = watchChanges
        self.watchServerStart = watchServerStart
        self.tellsDriverGlides = tellsDriverGlides ?? (DesktopSettings.askedXDisplay(.session()) != nil)
        let ends = try Syscall.makePipe()
        Syscall.setNonBlocking(ends.read)
        Syscall.setNonBlocking(ends.write)
        fileDescriptor = ends.read
        state = State(readEnd: ends.read, writeEnd: ends.write, probe: probe, openServerWatch: openServerWatch)
    }

    /// Tells the helper thread to end once its probe, if any, returns; the pipe is closed when
    /// both are gone.
    deinit {
        state.locked {
            state.stopping = true
            pthread_cond_signal(state.wake)
        }
    }

    /// Starts asking; returns at once. False when the helper thread could not be started (then
    /// nothing will arrive, and the setting in use stays). `devices`: the touchpads, real and
    /// virtual, whose own settings the answer should hold (on sway the probe waits for sway to
    /// list them). `openingServerWatch`: the loop has no server watch and wants one; it is
    /// opened after the probe and comes after the answer (`takeServerWatch()`).
    @discardableResult
    public func ask(devices: [DeviceIdentity] = [], openingServerWatch: Bool = false) -> Bool {
        state.locked {
            state.asked += 1
            state.devices = devices
            state.answer = nil
            if openingServerWatch { state.serverWatchWanted = true }
            pthread_cond_signal(state.wake)
        }
        guard !started else { return true }
        // The thread keeps the state (and so the pipe) alive until it ends.
        let context = Unmanaged.passRetained(state).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Self.stackSize)
        let result = pthread_create(&thread, &attributes, { context in
            Unmanaged<State>.fromOpaque(context!).takeRetainedValue().serve()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<State>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        started = true
        return true
    }

    /// The answer to the newest ask, once it has come; nil while it has not (or was taken).
    /// Empties the pipe.
    public func receive() -> Answer? {
        var byte: UInt8 = 0
        while Glibc.read(fileDescriptor, &byte, 1) > 0 {}
        return state.locked {
            defer { state.answer = nil }
            return state.answer
        }
    }

    /// The server watch an ask wanted, once the helper thread has tried to open it: the watch
    /// or why there is none; nil while it has not, or where there is none to open. Call it
    /// whenever `fileDescriptor` is readable, with `receive()`.
    public func takeServerWatch() -> ServerWatchOpening? {
        state.locked {
            defer { state.serverWatch = nil }
            // An ask that wanted a watch and is not served yet is served by this one: the helper
            // thread would find none waiting and open a second, which the loop closes.
            if case .opened = state.serverWatch { state.serverWatchWanted = false }
            return state.serverWatch
        }
    }

    /// What the loop and the helper thread share, under `lock`.
    private final class State: @unchecked Sendable {
        let readEnd: Int32
        let writeEnd: Int32
        let probe: @Sendable ([DeviceIdentity]) -> Answer
        let openServerWatch: @Sendable () -> ServerWatchOpening?
        let lock: UnsafeMutablePointer<pthread_mutex_t>
        let wake: UnsafeMutablePointer<pthread_cond_t>
        /// The newest ask's number, and the newest the helper thread has probed for.
        var asked: UInt64 = 0
        var probed: UInt64 = 0
        /// The newest ask's `devices`.
        var devices: [DeviceIdentity] = []
        /// The answer to the newest ask once it has come (the outer optional).
        var answer: Answer?
        /// An ask wants the server watch, and the watch opened for it (until the loop takes it).
        var serverWatchWanted = false
        var serverWatch: ServerWatchOpening?
        /// The query is gone: the helper thread ends.
        var stopping = false

        init(readEnd: Int32, writeEnd: Int32, probe: @escaping @Sendable ([DeviceIdentity]) -> Answer,
             openServerWatch: @escaping @Sendable () -> ServerWatchOpening?) {
            self.readEnd = readEnd
            self.writeEnd = writeEnd
            self.probe = probe
            self.openServerWatch = openServerWatch
            lock = .allocate(capacity: 1)
            pthread_mutex_init(lock, nil)
            wake = .allocate(capacity: 1)
            pthread_cond_init(wake, nil)
        }

        deinit {
            pthread_cond_destroy(wake)
            wake.deallocate()
            pthread_mutex_destroy(lock)
            lock.deallocate()
            Syscall.close(readEnd)
            Syscall.close(writeEnd)
        }

        /// The helper thread: waits for an ask, probes, keeps the answer if no newer ask came
        /// meanwhile and wakes the loop; ends when the query is gone.
        func serve() {
            while true {
                let ask: (number: UInt64, devices: [DeviceIdentity], opening: Bool)? = locked {
                    while !stopping && probed == asked {
                        pthread_cond_wait(wake, lock)
                    }
                    if stopping { return nil }
                    probed = asked
                    // A watch the loop has not taken yet serves this ask too; a failure to
                    // open one is tried again.
                    var pending = false
                    if case .opened = serverWatch { pending = true }
                    let opening = serverWatchWanted && !pending
                    serverWatchWanted = false
                    return (asked, devices, opening)
                }
                guard let (number, devices, opening) = ask else { return }
                let found = probe(devices)
                let current = locked {
                    guard asked == number, !stopping else { return false }
                    answer = .some(found)
                    return true
                }
                if current { wakeLoop() }
                // After the answer, which a flick at start should not wait for.
                if opening, let watch = openServerWatch() {
                    locked { serverWatch = watch }
                    wakeLoop()
                }
            }
        }

        /// Tells the loop something waits (an answer, a watch); a full pipe already says so.
        private func wakeLoop() {
            var byte: UInt8 = 1
            _ = Glibc.write(writeEnd, &byte, 1)
        }

        func locked<T>(_ body: () -> T) -> T {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            return body()
        }
    }
}

extension Syscall {
    /// Sets O_NONBLOCK on `fd`.
    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
}
