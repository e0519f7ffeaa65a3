import CXInput
import Glibc
import FlickCore

/// The X server's touchpad settings as they change: XInput 2's property events for the
/// properties `XInputDevices` reads (libinput's natural scrolling and scroll distance; the
/// synaptics driver's scrolling distance and coasting), on every device, present and future.
/// An `xinput set-prop`
/// in a window manager's start-up script, Xfce's settings daemon applying a change or giving a
/// new device its settings, Plasma's on X11: each changes such a property in the X server,
/// which is what `DesktopSettings` reads, so the watch says when to read it again.
///
/// Rationale: libX11 and libXi are loaded with dlopen, as for the reads (`XInputDevices.read`),
/// only on a session whose X server flickd asks, and never on Wayland (docs/DESIGN.md,
/// "Following the X server's settings").
/// Opening connects and waits for the X server's answers, up to `openTimeout`, so it happens
/// on `DesktopQuery`'s helper thread; reading and closing never block.
final class XServerWatch: DesktopWatch, @unchecked Sendable {
    /// The properties watched on a pad libinput drives, those of its settings `XInputDevices`
    /// reads: its natural scrolling, and its scroll distance (its scrolling speed,
    /// `XInputDevices.scrollFactor`).
    static let property = XInputDevices.naturalScrolling
    static let scrollDistanceProperty = XInputDevices.scrollPixelDistance
    /// Those watched on a pad the synaptics driver drives (`XInputDevices`).
    static let synapticsProperties = [XInputDevices.scrollingDistance, XInputDevices.coastingSpeed]
    /// Every property watched: four, the most `flickd_xwatch_open` takes (the fixed array in
    /// the C shim; a fifth would have to raise it).
    static let properties = [property, scrollDistanceProperty] + synapticsProperties

    private let watch: OpaquePointer
    let fileDescriptor: Int32
    let source: String

    /// The longest an opening waits for the X server, as for one read
    /// (`DesktopSettings.xServerTimeout`): a connection and a few questions.
    static let openTimeout = DesktopSettings.xServerTimeout

    /// Connects to `display` (as `DISPLAY` spells it) and selects the property events of every
    /// device; blocks while the X server answers, at most `timeout`. Throws why it cannot.
    ///
    /// Xlib's connection has no timeout, so a server that accepts and never answers (stopped,
    /// hung) would hold the caller for as long: the connection is made on a thread of its own,
    /// and one left behind at the deadline ends by itself when the server answers (closing
    /// what it opened). While one waits, the next opening waits for it first, so such a server
    /// holds one thread, not one per ask.
    init(display: String, timeout: Duration = openTimeout) throws(DesktopSettings.Miss) {
        var why = [CChar](repeating: 0, count: 256)
        let milliseconds = Int32(clamping: max(1, timeout.microseconds / 1000))
        guard let watch = flickd_xwatch_open(display, Self.properties.joined(separator: "\n"), milliseconds, &why, why.count) else {
            throw DesktopSettings.Miss(why: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.watch = watch
        fileDescriptor = flickd_xwatch_fd(watch)
        source = "the X server \(display)'s device properties"
    }

    deinit { flickd_xwatch_close(watch) }

    func receive() -> DesktopChange {
        switch flickd_xwatch_receive(watch) {
        case 0: return .none
        case 1...: return .touchpads
        default: return .closed
        }
    }
}

/// A watch that can say why it ended (`.closed`), for the log.
public protocol ExplainsItsEnd: AnyObject {
    /// Why the watch ended ("/tmp/.X11-unix was removed"); nil while it has not.
    var whyEnded: String? { get }
}

/// Waits for an X server to start at the session's display, so that the X server's watch
/// (`XServerWatch`) is opened again: after the server it followed went away and another starts
/// at the same display (a `startx` session left and started again while the user manager, and
/// flickd, run on), or when none answered flickd's first ask (flickd started before X).
/// inotify on the socket's directory (`/tmp/.X11-unix`) sees the socket (`X0` for `:0`)
/// appear. An X server binds it before it has set up its screens and input devices, and
/// answers a connection only then, so the watch says `.started` `firstWait` after it
/// appeared, and again after twice the wait before, `tries` times in all (0.5, 1, 2, 4 and
/// 8 s: the last 15.5 s after), each a cue for the daemon to try the server's watch; the
/// daemon drops this one when that opens. A socket there when the watch is made starts the
/// tries at once (a server still starting, or one that did not answer). `.closed` when the
/// directory goes (removed or renamed) or its events cannot be read; `whyEnded` says which.
///
/// Rationale: no kernel hot-plug comes with an X server's start (its devices' nodes stay), so
/// without this the new server's settings, and every `xinput set-prop` after, waited for a
/// reload (found in the fifty-third session's review).
public final class XServerStartWatch: DesktopWatch, ExplainsItsEnd {
    /// How many `.started` a socket's appearance gives.
    public static let tries = 5
    /// The wait before the first.
    public static let firstWait = Duration.milliseconds(500)

    public var fileDescriptor: Int32 { poll.fileDescriptor }
    public var source: String { "\(ConfigWatcher.join(directory, name)) for an X server to start" }

    private let directory: String
    private let name: String
    private let poll: EventPoll
    private let inotify: Int32
    private let timer: DeadlineTimer
    private let firstWait: Duration
    /// `.started` still to come after the one the timer is armed for, and the wait before the next.
    private var triesLeft = 0
    private var wait = Duration.zero
    private let buffer = ReadBuffer(byteCount: 4096)
    /// Why the watch ended, once `receive()` said `.closed`.
    public private(set) var whyEnded: String?

    private enum Token {
        static let directory: UInt64 = 1
        static let timer: UInt64 = 2
    }

    /// Watches for `socket` (`/tmp/.X11-unix/X0`) to appear. Throws when its directory cannot
    /// be watched (it does not exist), or epoll, a timerfd or inotify cannot be had.
    public convenience init(socket: String, firstWait: Duration = XServerStartWatch.firstWait) throws(SystemError) {
        try self.init(socket: socket, firstWait: firstWait, now: Syscall.monotonicNow())
    }

    /// The watch made at `now` on the monotonic clock (tests pass one long past: the timer,
    /// armed for it, fires at once).
    init(socket: String, firstWait: Duration, now: Instant) throws(SystemError) {
        (directory, name) = ConfigWatcher.split(socket)
        self.firstWait = firstWait
        poll = try EventPoll()
        timer = try DeadlineTimer()
        try poll.add(timer.fileDescriptor, token: Token.timer)
        let fd = try Syscall.inotifyCreate()
        do throws(SystemError) {
            // The directory's own removal and renaming too (`.closed`): a rename keeps the
            // watch on it, and tells nothing unless asked for.
            _ = try Syscall.inotifyAddWatch(fd, path: directory,
                                            mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR))
            try poll.add(fd, token: Token.directory)
        } catch {
            Syscall.close(fd)
            throw error
        }
        inotify = fd
        if access(socket, F_OK) == 0 { startTrying(at: now) }
    }

    deinit { Syscall.close(inotify) }

    /// From the first wait on, `tries` cues to come.
    private func startTrying(at time: Instant) {
        triesLeft = Self.tries - 1
        wait = firstWait * 2
        try? timer.arm(at: time + firstWait)
    }

    /// `.started` when it is time to try the server (the socket appeared, or the last try's
    /// wait passed); `.closed` when the directory went; `.none` otherwise.
    public func receive() -> DesktopChange { receive(at: Syscall.monotonicNow()) }

    /// `receive()` at `time` on the monotonic clock.
    func receive(at time: Instant) -> DesktopChange {
        if whyEnded != nil { return .closed }
        var appeared = false
        var gone: String?
        do {
            try Syscall.readInotifyEvents(inotify, buffer: buffer.bytes) { _, mask, entry in
                // An overflow may have hidden the socket's creation.
                if entry == name || mask & UInt32(IN_Q_OVERFLOW) != 0 { appeared = true }
                if mask & UInt32(IN_MOVE_SELF) != 0 {
                    gone = "\(directory) was renamed"
                } else if mask & UInt32(IN_IGNORED | IN_DELETE_SELF) != 0, gone == nil {
                    gone = "\(directory) was removed"
                }
            }
        } catch {
            gone = "its events cannot be read: \(error)"
        }
        if let gone {
            whyEnded = gone
            return .closed
        }
        if appeared { startTrying(at: time) }
        guard (try? timer.acknowledge()) == true else { return .none }
        if triesLeft > 0 {
            triesLeft -= 1
            try? timer.arm(at: time + wait)
            wait = wait * 2
        }
        return .started
    }
}
