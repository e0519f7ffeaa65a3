import Glibc

/// Whether this user's session is the one in front of the screen: the active session of
/// seat0, as systemd-logind writes it in `/run/systemd/seats/seat0` (`ACTIVE_UID=`).
///
/// After a switch to another user, a flickd left running would go on reading the touchpads
/// (the input group stays) and writing through its virtual device, already open: the other
/// user's flicks would coast through it, twice when that user runs flickd too. The daemon
/// pauses while another user is active (its devices closed, a coast stopped) and opens them
/// again when this user is back. With no active session in the record (a text console with no
/// login in front: logind writes seat0 without ACTIVE_UID) no other user's flicks can come, and
/// flickd runs as before; likewise without the record (no logind), where nothing is known. Not
/// created for root (`flickd run` as root follows no one's session). The devices udev assigns
/// to another seat (`ID_SEAT`) are never read, whoever is active there
/// (`InputNode.Exclusion.otherSeat`).
public final class SeatWatch {
    /// What the seat file says about this user.
    public enum Activity: Equatable, Sendable {
        /// This user's session is the seat's active one.
        case active
        /// Another user's is (`uid`).
        case inactive(uid: UInt32)
        /// The file names no active user but lists this user among the seat's (`UIDS`): no
        /// session is in front (a text console with no login, between a logout and the next
        /// login), and this user's may come back. logind then gives /dev/uinput's uaccess ACL
        /// to no one.
        case nobody
        /// No file (no logind), or one that cannot be read, whose `ACTIVE_UID` is not a number,
        /// or that names no active user and no session of this user on the seat (a headless
        /// machine reached over ssh, a session pam_systemd did not register): nothing says this
        /// user will be in front.
        case unknown
    }

    /// The file logind keeps for seat0, the seat whose devices flickd reads.
    public static let seat0 = "/run/systemd/seats/" + InputNode.followedSeat

    /// The watch on the file's directory, for the daemon's epoll set.
    public var fileDescriptor: Int32 { watcher.fileDescriptor }
    private let watcher: ConfigWatcher
    private let path: String
    private let uid: UInt32

    /// Follows `path` (logind's seat0 file) for user `uid`. Throws when inotify, or a watch on
    /// the file's directory, cannot be made: a watch that never tells would leave flickd
    /// believing the seat's session never changes.
    public convenience init(path: String = seat0, uid: UInt32 = getuid(), logger: Logger) throws(SystemError) {
        try self.init(path: path, uid: uid, logger: logger, addWatch: Syscall.inotifyAddWatch)
    }

    /// `init(path:uid:logger:)` with the watch's `addWatch` (tests pass one that fails).
    init(path: String, uid: UInt32, logger: Logger, addWatch: @escaping ConfigWatcher.AddWatch) throws(SystemError) {
        self.path = path
        self.uid = uid
        watcher = try ConfigWatcher(paths: [path], logger: logger,
                                    purpose: .init(what: "changes of the seat's active session", otherwise: "flickd does not pause for another user's session"),
                                    requireWatch: true, addWatch: addWatch)
    }

    /// The watch of seat0 for this process's user; nil for root, which follows no one's session,
    /// and where logind keeps no seats (it makes the folder at its start, before any session):
    /// a watch there would wait on /run, woken by every file made in it. Nil too when the watch
    /// cannot be made (no inotify instance left: the user's fs.inotify.max_user_instances, or
    /// the process's descriptors, are used up), with a warning on `logger`: following the seat guards against another user's
    /// flicks, and flickd runs on without it, as without logind. Likewise when the directory
    /// cannot be watched (the user's fs.inotify.max_user_watches used up, which editors' file
    /// watchers do).
    public static func forThisUser(logger: Logger) -> SeatWatch? {
        forUser(getuid(), logger: logger)
    }

    /// `forThisUser` for user `uid` and the seat file at `path`; `watch` makes the watch
    /// (`init(path:uid:logger:)`; tests pass one that fails).
    static func forUser(_ uid: UInt32, path: String = seat0, logger: Logger,
                        watch: (String, UInt32, Logger) throws(SystemError) -> SeatWatch = SeatWatch.init(path:uid:logger:)) -> SeatWatch? {
        guard uid != 0, Syscall.exists(ConfigWatcher.split(path).directory) else { return nil }
        do {
            return try watch(path, uid, logger)
        } catch {
            let limit = error.errno == ENOSPC ? ": the user's inotify watches are used up, fs.inotify.max_user_watches"
                // inotify_init1's EMFILE is either limit: the user's instances, or the process's
                // descriptors (RLIMIT_NOFILE).
                : error.errno == EMFILE ? ": the user's inotify instances (fs.inotify.max_user_instances) or flickd's file descriptors (its open-files limit, LimitNOFILE= or ulimit -n) are used up" : ""
            logger.warning("the seat's active session is not followed (\(error)\(limit)); flickd will not pause while another user's session is active on seat0: it goes on reading the input devices, and that user's flicks coast through its virtual device")
            return nil
        }
    }

    /// What the file says now.
    public func current() -> Activity {
        Self.activity(of: try? TextFile.read(path), uid: uid)
    }

    /// Reads the watch's pending events; what the file says now when it was touched, else nil.
    public func receive() -> Activity? {
        // A failed read leaves the events unread; asking the file then costs nothing wrong.
        guard let changes = try? watcher.receive() else { return current() }
        return changes.isEmpty ? nil : current()
    }

    /// What seat file `text` (`KEY=value` lines; nil: no file) says about user `uid`.
    static func activity(of text: String?, uid: UInt32) -> Activity {
        guard let text else { return .unknown }
        for line in text.split(separator: "\n") where line.hasPrefix("ACTIVE_UID=") {
            guard let active = UInt32(line.dropFirst("ACTIVE_UID=".count).trimmingWhitespace) else { return .unknown }
            return active == uid ? .active : .inactive(uid: active)
        }
        // logind leaves ACTIVE_UID (and ACTIVE) out while no session is active on the seat, and
        // lists the users with a session on it in UIDS.
        for line in text.split(separator: "\n") where line.hasPrefix("UIDS=") {
            let uids = line.dropFirst("UIDS=".count).split(separator: " ").compactMap { UInt32($0.trimmingWhitespace) }
            return uids.contains(uid) ? .nobody : .unknown
        }
        return .unknown
    }
}
