import FlickCore
import Glibc

/// The address of a Unix socket: a path in the file system, or a name in the abstract
/// namespace (written with a leading `@`, as `$NOTIFY_SOCKET` and `ss` spell it).
struct UnixSocketAddress: Sendable, CustomStringConvertible {
    /// The address as given: `/run/user/1000/systemd/notify` or `@/org/freedesktop/...`.
    let description: String
    private let address: sockaddr_un
    /// The meaningful length of `address` for `sendto`.
    private let length: socklen_t

    /// The address `text` names; nil when it is neither an absolute path nor `@name`, or does
    /// not fit in `sun_path` (108 bytes).
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@"),
              !bytes.contains(0)
        else { return nil }
        let isAbstract = first == UInt8(ascii: "@")
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs its terminating NUL to fit; an abstract name is exactly its bytes.
        guard bytes.count <= capacity - (isAbstract ? 0 : 1), !(isAbstract && bytes.count < 2) else {
            return nil
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: bytes)
            // The abstract namespace is marked by a leading NUL in place of the '@'.
            if isAbstract { path[0] = 0 }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        self.address = address
        self.length = socklen_t(pathOffset + bytes.count + (isAbstract ? 0 : 1))
        self.description = text
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

/// Tells the service manager how the daemon is doing, through the socket in `$NOTIFY_SOCKET`:
/// the sd_notify(3) protocol, spoken without libsystemd.
///
/// Each notification is one datagram of newline-separated `NAME=value` fields. systemd starts a
/// `Type=notify` service, sets `$NOTIFY_SOCKET`, and considers it started only when `READY=1`
/// arrives; `RELOADING=1` and `STOPPING=1` show in `systemctl status` while they last, and
/// `STATUS=` is the one-line status it prints. A notification that cannot be sent is logged
/// (the first failure of each kind: READY, RELOADING, STOPPING, STATUS) and otherwise ignored:
/// the daemon's work does not depend on it.
public final class ServiceNotifier {
    /// The environment variable systemd passes the socket's address in.
    public static let environmentVariable = "NOTIFY_SOCKET"

    private let socket: Int32
    private let address: UnixSocketAddress
    private let logger: Logger
    /// The kinds of notification whose failures were logged: each kind's first failure is
    /// logged, so that a failed READY=1 shows even after a status that could not be sent.
    private var reportedFailures: Set<Kind> = []

    /// What a notification tells, for its failure's log line.
    private enum Kind: String {
        case ready = "READY=1", reloading = "RELOADING=1", stopping = "STOPPING=1", status = "STATUS"
    }

    /// A notifier sending to `address` (an absolute path, or `@name` for the abstract
    /// namespace); a READY, RELOADING or STOPPING that may wait waits up to `sendTimeout` for
    /// room in the service manager's queue. Throws `SystemError` with `EINVAL` for an address
    /// of another form (systemd 254's `vsock:` addresses are not supported), or when the socket
    /// cannot be created.
    public init(address text: String, logger: Logger, sendTimeout: Duration = stateChangeWait) throws(SystemError) {
        guard let address = UnixSocketAddress(text) else {
            throw SystemError(errno: EINVAL, call: "\(Self.environmentVariable)", path: text)
        }
        self.address = address
        self.logger = logger
        // A status is sent from between coast frames: a stalled service manager whose queue is
        // full must not hold the glide (and a virtual finger down) until it reads, so a status
        // it cannot take now is dropped and logged. READY, RELOADING and STOPPING must arrive
        // (a lost READY=1 gets the service killed at its start timeout, or leaves a reload
        // unfinished): they wait for room up to `sendTimeout`, unless the caller says a glide
        // runs (`waiting: false`), which a wait would stall.
        socket = try Syscall.unixDatagramSocket(sendTimeout: sendTimeout)
    }

    /// The longest READY, RELOADING or STOPPING waits for room in the service manager's queue
    /// unless the notifier was made with another `sendTimeout`.
    public static let stateChangeWait = Duration.seconds(1)

    deinit { Syscall.close(socket) }

    /// The notifier for `$NOTIFY_SOCKET`; nil when it is unset or empty (flickd was not started
    /// by a service manager waiting for it). A bad address is logged and gives nil.
    public static func fromEnvironment(logger: Logger) -> ServiceNotifier? {
        guard let value = getenv(environmentVariable).map({ String(cString: $0) }), !value.isEmpty else {
            return nil
        }
        do {
            return try ServiceNotifier(address: value, logger: logger)
        } catch {
            logger.warning("cannot tell the service manager when flickd is ready: \(error)")
            return nil
        }
    }

    /// Startup (or a reload) is complete: `READY=1`, with `status` when given. `waiting`: for
    /// room in a full queue, up to the send timeout; false while a glide runs, when a READY the
    /// service manager cannot take at once is dropped (and logged) rather than stall it.
    /// Returns whether it was sent.
    @discardableResult
    public func ready(status: String? = nil, waiting: Bool = true) -> Bool {
        notify(["READY=1"] + Self.statusField(status), kind: .ready, waiting: waiting)
    }

    /// A reload of the configuration begins at `time` (CLOCK_MONOTONIC): `RELOADING=1` and
    /// `MONOTONIC_USEC=`, which systemd 253's `Type=notify-reload` requires. Follow it with
    /// `ready()` when the reload is done, whether or not it succeeded. `waiting` as for `ready`.
    /// Returns whether it was sent.
    @discardableResult
    public func reloading(at time: Instant, waiting: Bool = true) -> Bool {
        notify(["RELOADING=1", "MONOTONIC_USEC=\(time.microseconds)"], kind: .reloading, waiting: waiting)
    }

    /// The daemon is shutting down: `STOPPING=1`, waiting for room up to the send timeout (the
    /// daemon stops its glide first).
    public func stopping() {
        notify(["STOPPING=1"], kind: .stopping, waiting: true)
    }

    /// What became of a status.
    public enum StatusOutcome: Sendable, Equatable {
        /// The service manager has it.
        case sent
        /// Its queue was full (EAGAIN, ENOBUFS): there may be room later.
        case queueFull
        /// Any other failure (nothing listens at the address: ENOENT, ECONNREFUSED): sending it
        /// again would fail again.
        case failed
    }

    /// A one-line status for `systemctl status`: `STATUS=`, never waiting for room. Returns
    /// whether it was sent, and if not whether it is worth sending again (only a full queue
    /// is: a socket nobody listens on stays so, and a retry at every wake-up would cost a
    /// failing sendto each evdev batch and glide frame).
    @discardableResult
    public func status(_ text: String) -> StatusOutcome {
        var failure: SystemError?
        guard !notify(Self.statusField(text), kind: .status, waiting: false, failure: &failure) else { return .sent }
        switch failure?.errno {
        case EAGAIN, EWOULDBLOCK, ENOBUFS: return .queueFull
        default: return .failed
        }
    }

    /// Called with each datagram before it is sent, for tests counting the attempts.
    var onSend: ((String) -> Void)?

    /// The datagram for `fields`: one `NAME=value` per line.
    static func message(_ fields: [String]) -> String {
        fields.joined(separator: "\n")
    }

    /// `STATUS=text` with line breaks turned into spaces (a field is one line); empty for nil.
    static func statusField(_ text: String?) -> [String] {
        guard let text else { return [] }
        let oneLine = String(text.map { $0.isNewline ? " " : $0 })
        return ["STATUS=\(oneLine)"]
    }

    /// Sends `fields` as one datagram, `waiting` for room or not; logs the first failure of
    /// each `kind`. Returns whether it was sent.
    @discardableResult
    private func notify(_ fields: [String], kind: Kind, waiting: Bool) -> Bool {
        var failure: SystemError?
        return notify(fields, kind: kind, waiting: waiting, failure: &failure)
    }

    /// `notify`, giving the error of a send that failed in `failure`.
    private func notify(_ fields: [String], kind: Kind, waiting: Bool, failure: inout SystemError?) -> Bool {
        do {
            try send(Self.message(fields), waiting: waiting)
            return true
        } catch {
            failure = error
            guard reportedFailures.insert(kind).inserted else { return false }
            logger.warning("cannot notify the service manager of \(kind.rawValue): \(error) (later failures of \(kind.rawValue) are not logged)")
            return false
        }
    }

    /// Sends `message` as one datagram, `waiting` for room (up to the send timeout) or not.
    func send(_ message: String, waiting: Bool = true) throws(SystemError) {
        onSend?(message)
        var message = message
        // withUTF8 rethrows untyped errors: carry the typed one out in a Result.
        let outcome = message.withUTF8 { bytes in
            Result { () throws(SystemError) in
                let sent = try Syscall.send(socket, UnsafeRawBufferPointer(bytes), to: address, waiting: waiting)
                if sent != bytes.count { throw SystemError(errno: EMSGSIZE, call: "sendto", path: address.description) }
            }
        }
        try outcome.get()
    }
}
