import Glibc

/// What `flickd run` settles before its daemon starts: the daemon's signals held from the first
/// moment, and whether a /dev/uinput that refuses this user fails the start or waits for this
/// user's session.
public enum StartupChecks {
    /// The signals the daemon reads from its signalfd (`Daemon`): SIGTERM and SIGINT stop it,
    /// SIGHUP reloads the configuration, SIGTSTP lifts the virtual fingers and stops it.
    public static let daemonSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGTSTP]

    /// Blocks `daemonSignals` from now on. Until the daemon's signalfd exists (configuration
    /// read, /dev/uinput tried, devices scanned) they would take their default action: a SIGHUP
    /// would end flickd with 129, which systemd takes for a clean end and does not restart, and
    /// SIGTERM with 143 instead of the 0 promised. Held, they stay pending and the signalfd reads
    /// them: SIGTERM stops the daemon as soon as its loop runs (status 0), SIGHUP reloads after
    /// READY. Programs flickd starts get an empty mask (`Syscall.spawn`).
    public static func holdDaemonSignals() {
        // sigprocmask fails only for a bad pointer or `how`; neither can happen here.
        _ = try? Syscall.blockSignals(Syscall.signalSet(daemonSignals))
    }

    /// What the start does about /dev/uinput.
    public enum OutputAccess: Equatable, Sendable {
        /// It opens for writing: the virtual device can be created when it is needed.
        case granted
        /// It refused this user (`refusal`) while user `uid`'s session is the active one on the
        /// seat: the udev rule gives /dev/uinput to the user of the session in front (uaccess).
        /// The daemon starts paused and creates its device when this user's session is back.
        /// `uid` nil: no session is active on the seat (a text console with no login in front),
        /// and logind gives /dev/uinput to no one; the daemon runs (no other user's flicks can
        /// come) and creates its device when this user's session is in front again.
        case awaitingSession(uid: UInt32?, refusal: VirtualWheelError)
    }

    /// Tries /dev/uinput with `check` (`OutputDevice.checkAccess(for:)`), knowing the seat's
    /// `activity` (nil: not followed, as for root or without logind).
    ///
    /// A refusal of permission while another user's session is in front is no reason to fail:
    /// a flickd started then (restarted after a crash, by `systemctl --user restart` over ssh,
    /// by an upgrade) would exit 1 again at every restart until systemd gave up, and nothing
    /// would scroll when this user came back. Nor while no session is in front (logind's record
    /// names no active user: a switch to a text console with no login), which takes the ACL
    /// from this user just the same. Without the record (no logind: a container) a refusal is
    /// a permission the installation lacks, and fails the start.
    /// - Throws: `check`'s error when the seat is this user's or not known (the reason and the
    ///   fix, at once), or when it is not a refusal of permission (a missing uinput module is
    ///   missing whoever is in front).
    public static func checkOutputAccess(seat activity: SeatWatch.Activity?,
                                         check: () throws(VirtualWheelError) -> Void) throws(VirtualWheelError) -> OutputAccess {
        do {
            try check()
            return .granted
        } catch {
            guard error.cause == .permissionDenied else { throw error }
            switch activity {
            case .inactive(let uid)?: return .awaitingSession(uid: uid, refusal: error)
            case .nobody?: return .awaitingSession(uid: nil, refusal: error)
            case .active?, .unknown?, nil: throw error
            }
        }
    }
}

extension StartupChecks.OutputAccess: CustomStringConvertible {
    /// The notice `flickd run` logs.
    public var description: String {
        switch self {
        case .granted:
            return "/dev/uinput can be written"
        case .awaitingSession(let uid?, let refusal):
            return "/dev/uinput refuses this user while another user's session is active on the seat (uid \(uid)): \(refusal.underlying.reason); logind gives it to the user in front, so flickd creates its \(refusal.device) when this user's session is back"
        case .awaitingSession(nil, let refusal):
            return "/dev/uinput refuses this user while no session is active on the seat (a text console with no login in front?): \(refusal.underlying.reason); logind gives it to the user in front, so flickd creates its \(refusal.device) when this user's session is in front again"
        }
    }
}
