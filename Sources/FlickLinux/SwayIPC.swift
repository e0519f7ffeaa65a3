import FlickCore
import Glibc

/// sway's IPC protocol (sway-ipc(7)), as much of it as flickd speaks: over the Unix stream
/// socket sway names in `$SWAYSOCK`, every message, both ways, is the 6 bytes `i3-ipc`, the
/// payload's length and the message's type (each a 32-bit integer in the host's byte order),
/// then the payload (JSON, except in a request that needs none). A reply has its request's
/// type; an event, on a connection subscribed to it, has its type with the high bit set.
public enum SwayIPC {
    /// The bytes every message starts with.
    public static let magic = Array("i3-ipc".utf8)
    /// The header's length: the magic, the payload's length, the type (bytes).
    public static let headerLength = 14
    /// A payload longer than this is taken as a broken stream rather than waited for (bytes).
    /// sway's `get_inputs` reply is about 1.5 KiB per input.
    public static let maximumPayload = 16 << 20

    /// The message types flickd sends or reads.
    public enum MessageType {
        /// `SUBSCRIBE`: the payload is a JSON array of event names.
        public static let subscribe: UInt32 = 2
        /// `GET_INPUTS`: the reply is a JSON array with one object per input.
        public static let getInputs: UInt32 = 100
        /// The `input` event: an input was added or removed, or its settings changed.
        public static let inputEvent: UInt32 = 0x8000_0015
    }

    /// One message: its type and payload.
    public struct Message: Equatable, Sendable {
        public var type: UInt32
        public var payload: [UInt8]

        public init(type: UInt32, payload: [UInt8]) {
            self.type = type
            self.payload = payload
        }

        /// The payload as text (sway's JSON is UTF-8).
        public var text: String { String(decoding: payload, as: UTF8.self) }
    }

    /// The bytes of a message of `type` carrying `payload`.
    public static func encode(type: UInt32, payload: String = "") -> [UInt8] {
        let body = Array(payload.utf8)
        var bytes = magic
        withUnsafeBytes(of: UInt32(body.count)) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { bytes.append(contentsOf: $0) }
        return bytes + body
    }

    /// Cuts a stream's bytes, as they arrive in pieces, into messages.
    public struct Decoder: Sendable {
        private var buffer: [UInt8] = []

        /// The stream is not sway's protocol: it does not start with the magic, or announces a
        /// payload over `maximumPayload`.
        public struct Malformed: Error, Equatable {}

        public init() {}

        /// Adds bytes read from the stream.
        public mutating func append(_ bytes: UnsafeRawBufferPointer) {
            buffer.append(contentsOf: bytes)
        }

        /// The next whole message, taken out of the buffer; nil until one has arrived whole.
        public mutating func next() throws(Malformed) -> Message? {
            // A wrong start is known as soon as it arrives.
            let start = min(buffer.count, magic.count)
            guard buffer[..<start].elementsEqual(magic[..<start]) else { throw Malformed() }
            guard buffer.count >= headerLength else { return nil }
            let (length, type) = buffer.withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: magic.count, as: UInt32.self),
                 raw.loadUnaligned(fromByteOffset: magic.count + 4, as: UInt32.self))
            }
            guard length <= maximumPayload else { throw Malformed() }
            let end = headerLength + Int(length)
            guard buffer.count >= end else { return nil }
            let message = Message(type: type, payload: Array(buffer[headerLength..<end]))
            buffer.removeSubrange(0..<end)
            return message
        }
    }

    /// Why a request got no reply, for messages.
    public enum Failure: Error, Equatable, Sendable {
        /// No connection was made: nothing listens there (refused, no socket), or sway's listen
        /// backlog is full (`wouldBlock`: it runs, busy, its clients unread).
        case unreachable(SystemError)
        /// sway closed the connection (or it broke) before a whole reply came: it exited, or
        /// drops what it cannot serve.
        case closed
        /// No whole reply within the wait.
        case timedOut
        /// A reply of another type than the request's.
        case wrongType(UInt32)
        /// What came is not sway's protocol.
        case malformed

        /// What happened to the request named `request` (`"get_inputs"`) at `socket`, waited
        /// for up to `timeout`: `"sway at /run/user/1000/sway-ipc.1000.500.sock did not answer
        /// get_inputs within 1 s"`.
        public func why(_ request: String, at socket: String, within timeout: Duration) -> String {
            switch self {
            case .unreachable(let error) where error.wouldBlock:
                return "sway at \(socket) did not accept the connection for \(request): its listen backlog is full (busy)"
            case .unreachable(let error):
                return "sway at \(socket) could not be reached for \(request) (\(error.call): \(error.reason))"
            case .closed:
                return "sway at \(socket) closed the connection without answering \(request)"
            case .timedOut:
                return "sway at \(socket) did not answer \(request) within \(timeout.spoken)"
            case .wrongType(let type):
                return "sway at \(socket) answered \(request) with a message of type \(type)"
            case .malformed:
                return "what came from \(socket) in answer to \(request) is not sway's IPC protocol"
            }
        }
    }

    /// Sends one request of `type` to the sway listening on `socket` and returns its reply's
    /// payload; why not when sway cannot be reached, answers something else, or has not
    /// answered whole within `timeout`.
    public static func request(socket: String, type: UInt32, payload: String = "", timeout: Duration) -> Result<String, Failure> {
        let deadline = Syscall.monotonicNow() + timeout
        let fd: Int32
        do {
            fd = try Syscall.connectUnixStream(to: socket)
        } catch {
            return .failure(.unreachable(error))
        }
        defer { Syscall.close(fd) }
        var decoder = Decoder()
        do {
            try write(encode(type: type, payload: payload), to: fd, before: deadline)
        } catch {
            return .failure(error.errno == ETIMEDOUT ? .timedOut : .closed)
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            do {
                if let message = try decoder.next() {
                    return message.type == type ? .success(message.text) : .failure(.wrongType(message.type))
                }
            } catch { return .failure(.malformed) }
            guard Syscall.waitReadable(fd, until: deadline) else { return .failure(.timedOut) }
            guard let count = try? Syscall.read(fd, into: &chunk), count > 0 else { return .failure(.closed) }
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// Writes all of `bytes` to the non-blocking `fd`, waiting for room until `deadline`
    /// (`ETIMEDOUT` after it).
    static func write(_ bytes: [UInt8], to fd: Int32, before deadline: Instant) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            do {
                written += try Syscall.send(fd, bytes, from: written)
            } catch where error.wouldBlock {
                guard Syscall.waitWritable(fd, until: deadline) else {
                    throw SystemError(errno: ETIMEDOUT, call: "send")
                }
            }
        }
    }
}

/// Tells when sway's touchpad settings change: a connection to sway's IPC subscribed to its
/// `input` events. sway sends one when an input is added or removed and when its libinput
/// settings change (a `swaymsg input ...` command, or `swaymsg reload` applying edited rules,
/// which sends one per input).
///
/// Rationale: sway keeps natural scrolling per device, and flickd mirrors the real pad's
/// setting onto its virtual one (see `SwayInputs`); an answer kept from before a change would
/// make every glide run against the finger until the next reload. The events are sway's own
/// word that something changed, with nothing to poll.
public final class SwayInputWatch: DesktopWatch {
    /// The connection, non-blocking: give it to epoll, then call `receive()` when it is readable.
    public let fileDescriptor: Int32
    public var source: String { "sway's input events" }
    /// Whether sway has said anything on the connection yet (its answer to the subscription
    /// comes first): a sway that binds its socket listens at once, but reads it only once it has
    /// started its outputs and inputs, seconds later under emulation.
    public private(set) var answered = false
    private var decoder = SwayIPC.Decoder()

    /// Connects to the sway listening on `socket` and subscribes to its input events.
    public convenience init(socket: String) throws(SystemError) {
        let fd = try Syscall.connectUnixStream(to: socket)
        try self.init(connected: fd)
    }

    /// Watches the connected stream socket `fd` (taken over: closed with the watch), after
    /// subscribing on it to sway's input events.
    init(connected fd: Int32) throws(SystemError) {
        Syscall.setNonBlocking(fd)
        do {
            // The subscription fits in an empty socket's buffer: it never waits.
            try SwayIPC.write(SwayIPC.encode(type: SwayIPC.MessageType.subscribe, payload: #"["input"]"#),
                              to: fd, before: Syscall.monotonicNow())
        } catch {
            Syscall.close(fd)
            throw error
        }
        fileDescriptor = fd
    }

    deinit { Syscall.close(fileDescriptor) }

    /// Reads everything sway sent: `.touchpads` when a touchpad was added or its libinput
    /// settings changed; `.none` for anything else (another input, a keyboard's layout, the
    /// answer to the subscription); `.closed` when sway closed the connection (it exited) or
    /// sent what is not its protocol.
    public func receive() -> DesktopChange {
        var change = DesktopChange.none
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            do {
                count = try Syscall.read(fileDescriptor, into: &chunk)
            } catch {
                return error.wouldBlock ? change : .closed
            }
            if count == 0 { return .closed }
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            do {
                while let message = try decoder.next() {
                    answered = true
                    if message.type == SwayIPC.MessageType.inputEvent, SwayInputs.touchpadChanged(message.text) {
                        change = .touchpads
                    }
                }
            } catch {
                return .closed
            }
        }
    }
}

/// Follows the sway of this session through its life: connected to its IPC while it runs
/// (`SwayInputWatch`: a touchpad added or reconfigured), and, while none runs, watching
/// `$XDG_RUNTIME_DIR` with inotify for the `sway-ipc.UID.PID.sock` a starting sway binds (and
/// `$SWAYSOCK`'s directory for its name: a sway started with `SWAYSOCK` set binds there).
/// When one appears it connects, and says `.started` once that sway has answered the
/// subscription, so the daemon asks the new sway for its touchpads when it reads its socket;
/// when sway exits it goes back to waiting. Both sources sit in an epoll set of
/// its own, whose descriptor is the one the daemon watches.
///
/// Rationale: flickd runs as a user service, which may start with the user manager before
/// sway does (`default.target`), and outlives a sway that is restarted or a session that is
/// left and entered again. Without this it read sway's per-device settings only at the next
/// reload, and a glide could run against the finger until then. sway binds its socket a
/// moment before it listens on it; a refused connection is tried again after `retryInterval`,
/// then at twice the wait before up to a second apart, `retries` times (at 100 ms: waits of
/// 100, 200, 400 and 800 ms, then 16 of 1 s, the last try 17.5 s after the refusal), the one
/// to the sway found when the watch is made too. It also listens seconds before it reads (it sets
/// up its outputs and inputs first; up to about 5 s in the emulated guest), and its listen
/// backlog is 3, which unread connections fill: asked as soon as it connected, sway let
/// every get_inputs of the ask go unanswered, and the daemon settled on "no desktop setting"
/// while sway was still starting (seen in a CI run). Its answer to the subscription is the
/// first sign that it reads. A sway that was running when the watch was made but answered
/// only after an ask's wait (`answerWait`, sway's timeout) was starting too, and is said to
/// have started then.
public final class SwaySessionWatch: DesktopWatch {
    /// How often a sway socket that refused the connection is tried again, after the watch
    /// was made or after a socket appeared.
    public static let retries = 20

    public var fileDescriptor: Int32 { poll.fileDescriptor }
    /// What the watch follows: sway's socket, or the directories it waits in for a sway to
    /// start; once it has ended (`.closed`), the last of these it followed.
    public var source: String { following ?? followed }

    /// What the watch follows now; nil when nothing (it has ended, or is about to).
    private var following: String? {
        if let socket = connection?.socket { return "sway's input events (\(socket))" }
        let waiting = directories.values.map(\.path).sorted().joined(separator: ", ")
        return waiting.isEmpty ? nil : "\(waiting) for a sway to start"
    }

    /// The last thing `following` named, for the log line of a watch that ended: before, it
    /// said "? for a sway to start".
    private var followed = "sway's IPC"

    /// A directory a starting sway binds its socket in, and the names it binds there.
    private struct Place {
        var path: String
        /// The runtime directory: `sway-ipc.UID.*.sock`.
        var isRuntime: Bool
        /// `$SWAYSOCK`'s file name, when it lies here.
        var swaysockName: String?
    }

    private let poll: EventPoll
    /// The inotify descriptor watching the places; nil when there is none.
    private let inotify: Int32?
    /// The places watched, by watch descriptor; one goes when its directory does.
    private var directories: [Int32: Place] = [:]
    private let retry: DeadlineTimer
    private let runtimeDirectory: String?
    private let swaysock: String?
    private let user: uid_t
    /// Whether the sway at a socket serves this session's Wayland display (`SwayInputs.socketPath`).
    private let servesThisSession: (String) -> Bool?
    private let retryInterval: Duration
    private let logger: Logger
    private var connection: (watch: SwayInputWatch, socket: String)?
    private var firstAnswer = FirstAnswer.heard
    private let answerWait: Duration
    /// Tries still to be armed on the retry timer.
    private var retriesLeft = 0
    /// The wait before the next try: `retryInterval`, doubled after each, up to `longestRetryWait`.
    private var retryWait = Duration.zero
    /// The longest wait between two tries.
    static let longestRetryWait = Duration.seconds(1)
    private let buffer = ReadBuffer(byteCount: 4096)

    /// What sway's first answer on the connection means.
    private enum FirstAnswer {
        /// Nothing: it came already, or there is no connection.
        case heard
        /// A sway that started while watched: it reads now; ask it.
        case started
        /// The sway running when the watch was made: news only after `deadline` (it was
        /// starting, and the daemon's ask at that time may have gone unanswered).
        case startedIfAfter(Instant)
    }

    private enum Token {
        static let directory: UInt64 = 1
        static let connection: UInt64 = 2
        static let retry: UInt64 = 3
    }

    /// Connects to the sway listening on `socket`, if given and it answers, and watches
    /// `runtimeDirectory`, and the directory of `swaysock` (`$SWAYSOCK` as set, live or not), for
    /// the next sway: one that `servesThisSession` says serves another Wayland display than
    /// this session's is not followed (`SwayInputs.socketPath`). Without inotify it follows the sway it connected to, and warns on `logger`
    /// that a later one is not waited for. Throws when it can do neither (inotify's error when
    /// that failed), or epoll or a timerfd cannot be had.
    public convenience init(socket: String?, runtimeDirectory: String?, swaysock: String? = nil, user: uid_t = getuid(),
                            servesThisSession: @escaping (String) -> Bool? = { _ in nil },
                            retryInterval: Duration = .milliseconds(100), answerWait: Duration = DesktopSettings.swayTimeout,
                            logger: Logger) throws(SystemError) {
        try self.init(socket: socket, runtimeDirectory: runtimeDirectory, swaysock: swaysock, user: user,
                      servesThisSession: servesThisSession, retryInterval: retryInterval, answerWait: answerWait,
                      now: Syscall.monotonicNow(), logger: logger)
    }

    /// The watch made at `now` on the monotonic clock (tests pass one long past: the retry
    /// timer, armed for it, fires at once), with its inotify instance from `makeInotify`
    /// (tests pass one that fails).
    init(socket: String?, runtimeDirectory: String?, swaysock: String? = nil, user: uid_t = getuid(),
         servesThisSession: @escaping (String) -> Bool? = { _ in nil },
         retryInterval: Duration = .milliseconds(100), answerWait: Duration = DesktopSettings.swayTimeout,
         now: Instant, inotify makeInotify: () throws(SystemError) -> Int32 = Syscall.inotifyCreate, logger: Logger) throws(SystemError) {
        self.runtimeDirectory = runtimeDirectory
        self.swaysock = swaysock.flatMap { $0.hasPrefix("/") ? $0 : nil }
        self.user = user
        self.servesThisSession = servesThisSession
        self.retryInterval = retryInterval
        self.answerWait = answerWait
        self.logger = logger
        poll = try EventPoll()
        retry = try DeadlineTimer()
        try poll.add(retry.fileDescriptor, token: Token.retry)
        var places: [Place] = runtimeDirectory.map { [Place(path: $0, isRuntime: true)] } ?? []
        if let swaysock = self.swaysock {
            let (directory, name) = ConfigWatcher.split(swaysock)
            if let index = places.firstIndex(where: { $0.path == directory }) {
                places[index].swaysockName = name
            } else {
                places.append(Place(path: directory, isRuntime: false, swaysockName: name))
            }
        }
        var inotify: Int32?
        var inotifyFailure: SystemError?
        if !places.isEmpty {
            do throws(SystemError) {
                let fd = try makeInotify()
                for place in places {
                    // A directory that cannot be watched (gone, no permission) is one place less.
                    guard let watch = try? Syscall.inotifyAddWatch(fd, path: place.path,
                                                                   mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)) else { continue }
                    // `$SWAYSOCK`'s directory may be the runtime directory spelt otherwise
                    // (`/run/user/1000//sway.sock`, a symlink): inotify gives the same watch,
                    // which then serves both places' names.
                    if var same = directories[watch] {
                        same.isRuntime = same.isRuntime || place.isRuntime
                        same.swaysockName = same.swaysockName ?? place.swaysockName
                        directories[watch] = same
                    } else {
                        directories[watch] = place
                    }
                }
                if directories.isEmpty || (try? poll.add(fd, token: Token.directory)) == nil {
                    directories = [:]
                    Syscall.close(fd)
                } else {
                    inotify = fd
                }
            } catch {
                // No instance left (the user's fs.inotify.max_user_instances): the sway running
                // now can still be followed.
                inotifyFailure = error
            }
        }
        self.inotify = inotify
        if let socket {
            connect(socket)
            if connection != nil { firstAnswer = .startedIfAfter(now + answerWait) }
        }
        guard connection != nil || inotify != nil else {
            throw inotifyFailure ?? SystemError(errno: ECONNREFUSED, call: "connect", path: socket)
        }
        if let inotifyFailure {
            logger.warning("natural scrolling: a sway that starts after this one is not waited for (\(inotifyFailure)); the desktop is asked again at each reload")
        }
        followed = following ?? followed
        if connection == nil {
            // A sway already bound, not listening yet or with its backlog full (starting, the
            // probe's asks unread): its socket will not appear again for inotify to tell, so
            // it is tried again as one that just appeared.
            startRetrying()
            armRetry(after: now)
        }
    }

    /// From the first, shortest wait on, `retries` tries to come.
    private func startRetrying() {
        retriesLeft = Self.retries
        retryWait = retryInterval
    }

    /// Arms the timer for the next try, `retryWait` after `time`, if one is left. Counted here,
    /// where it is armed, so the watch's start and a socket's appearance make as many tries.
    private func armRetry(after time: Instant) {
        guard retriesLeft > 0 else { return }
        retriesLeft -= 1
        try? retry.arm(at: time + retryWait)
        retryWait = min(retryWait * 2, max(retryInterval, Self.longestRetryWait))
    }

    /// When the retry timer fires next; nil while it is not armed.
    var retryDeadline: Instant? { retry.deadline }

    deinit {
        if let inotify { Syscall.close(inotify) }
    }

    /// Reads what came: `.touchpads` when the running sway says a touchpad was added or
    /// reconfigured; `.started` when a new sway, connected to, first answered (the one
    /// running at the start only when it answered late); `.closed` when nothing is
    /// left to watch (sway exited and there is no runtime directory to wait in, the
    /// directory itself went, or, without inotify, the last try found no sway); `.none`
    /// otherwise (sway exiting included: the watch waits for the next one).
    public func receive() -> DesktopChange { receive(at: Syscall.monotonicNow()) }

    /// `receive()` at `time` on the monotonic clock (tests pass one: the retry timer, armed
    /// for instants long past, has fired at once).
    func receive(at time: Instant) -> DesktopChange {
        followed = following ?? followed
        var change = DesktopChange.none
        var lookAgain = false
        if let connection {
            switch connection.watch.receive() {
            case .touchpads, .started: change = .touchpads
            case .none: break
            case .closed:
                try? poll.remove(connection.watch.fileDescriptor)
                self.connection = nil
                firstAnswer = .heard
                lookAgain = reconnect(after: connection, at: time)
            }
            if self.connection?.watch === connection.watch, connection.watch.answered {
                switch firstAnswer {
                case .heard: break
                case .started: change = .started
                case .startedIfAfter(let deadline): if time > deadline { change = .started }
                }
                firstAnswer = .heard
            }
        }
        var look = false
        if let inotify, !directories.isEmpty {
            let prefix = "sway-ipc.\(user)."
            do {
                try Syscall.readInotifyEvents(inotify, buffer: buffer.bytes) { watch, mask, name in
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 { look = true }
                    guard let place = directories[watch] else { return }
                    if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { directories[watch] = nil }
                    if name == place.swaysockName || (place.isRuntime && name.hasPrefix(prefix) && name.hasSuffix(".sock")) {
                        look = true
                    }
                }
            } catch {
                directories = [:]
            }
        }
        // Without inotify a sway being tried again (its backlog was full) is still followed.
        if directories.isEmpty && connection == nil && (inotify != nil || retryDeadline == nil) { return .closed }
        if look { startRetrying() }
        if (try? retry.acknowledge()) == true || lookAgain { look = true }
        if look && connection == nil {
            if let socket = SwayInputs.socketPath(swaysock: swaysock, runtimeDirectory: runtimeDirectory, user: user,
                                                  servesThisSession: servesThisSession) {
                connect(socket)
            }
            if connection != nil {
                try? retry.arm(at: nil)
                firstAnswer = .started
                return change
            }
            armRetry(after: time)
        }
        // Without inotify nothing but the retry timer wakes a watch with no connection: with
        // the last try gone by, it ends, and the daemon makes a new one at its next ask (a
        // reload, a touchpad plugged in). Left, it followed nothing until flickd restarted.
        if directories.isEmpty && connection == nil && retryDeadline == nil { return .closed }
        return change
    }

    /// After `ended`'s connection closed: a sway that had answered on it is connected to
    /// again at once, and said to have started when it answers (the daemon then asks it, for
    /// what changed while the connection was down). sway drops a client it cannot write to
    /// (its buffer for the client full: flickd stopped while keyboard layouts changed) and runs
    /// on; one that exited refuses (its socket closed or gone), and a connection that reached
    /// it in its last moment ends unanswered. Without this the watch waited for a new socket
    /// that never came, and followed nothing until flickd restarted. One that never answered
    /// is not tried again: it was exiting, or it accepts and drops (no loop). A sway whose
    /// listen backlog is full (EAGAIN: busy, its clients unread) runs on: it is tried again
    /// as one that just appeared. True when the sway that answered is gone: another may run
    /// already (started while this one ran: its socket's appearance was heard while connected,
    /// and will not come again), so the caller looks for one at once, and tries again as for
    /// a socket that just appeared.
    private func reconnect(after ended: (watch: SwayInputWatch, socket: String), at time: Instant) -> Bool {
        guard ended.watch.answered else {
            logger.debug("natural scrolling: sway's IPC (\(ended.socket)) ended; waiting for a sway to start")
            return false
        }
        let failure = connect(ended.socket)
        if connection != nil {
            firstAnswer = .started
            // The sway that was there, or a new one bound at the same path (`$SWAYSOCK`).
            logger.info("natural scrolling: flickd's connection to sway's IPC (\(ended.socket)) ended, and a sway listens there still: connected again")
            return false
        } else if failure?.wouldBlock == true {
            startRetrying()
            armRetry(after: time)
            return false
        }
        logger.debug("natural scrolling: sway's IPC (\(ended.socket)) ended; looking for another sway")
        startRetrying()
        return true
    }

    /// Connects to the sway at `socket`; why not, when it cannot.
    @discardableResult
    private func connect(_ socket: String) -> SystemError? {
        do throws(SystemError) {
            let watch = try SwayInputWatch(socket: socket)
            try poll.add(watch.fileDescriptor, token: Token.connection)
            connection = (watch, socket)
            return nil
        } catch {
            logger.debug("natural scrolling: cannot follow sway's input events at \(socket) (\(error))")
            return error
        }
    }
}

extension Syscall {
    /// `socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK)` connected to `path`.
    static func connectUnixStream(to path: String) throws(SystemError) -> Int32 {
        guard let address = UnixSocketAddress(path) else { throw SystemError(errno: EINVAL, call: "connect", path: path) }
        let fd = try retrying("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
        // A Unix socket connects at once or not at all (EAGAIN: the listener's backlog is full).
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let error = SystemError(errno: Glibc.errno, call: "connect", path: path)
            close(fd)
            throw error
        }
        return fd
    }

    /// `send(fd, bytes[offset...], MSG_NOSIGNAL)`: a peer gone is an error (EPIPE), not
    /// SIGPIPE. Returns the byte count sent.
    static func send(_ fd: Int32, _ bytes: [UInt8], from offset: Int) throws(SystemError) -> Int {
        try retrying("send") {
            bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// `read(fd, chunk)` into the whole of `chunk`; returns the byte count (0 at the end).
    static func read(_ fd: Int32, into chunk: inout [UInt8]) throws(SystemError) -> Int {
        try retrying("read") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
    }

    /// Waits until `fd` is readable (or at its end) or `deadline` passes; true when readable.
    static func waitReadable(_ fd: Int32, until deadline: Instant) -> Bool {
        wait(fd, for: Int16(POLLIN), until: deadline)
    }

    /// Waits until `fd` has room to write or `deadline` passes; true when it has.
    static func waitWritable(_ fd: Int32, until deadline: Instant) -> Bool {
        wait(fd, for: Int16(POLLOUT), until: deadline)
    }

    private static func wait(_ fd: Int32, for events: Int16, until deadline: Instant) -> Bool {
        while true {
            let left = deadline - monotonicNow()
            guard left > .zero else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(clamping: (left.microseconds + 999) / 1000)
            let result = Glibc.poll(&entry, 1, milliseconds)
            if result > 0 { return true }
            if result < 0 && Glibc.errno != EINTR { return false }
        }
    }
}
