import Glibc
import Testing
@testable import FlickLinux

/// Following logind's seat0 file is a safety feature beside flickd's work: a watch that cannot
/// be made is a warning, and flickd runs on.
@Suite struct SeatWatchTests {
    /// The user's inotify instances used up (fs.inotify.max_user_instances, 128 on most
    /// systems, shared by every program of the user): flickd starts all the same, and says what
    /// it will not notice.
    @Test func noInotifyLeftIsAWarningAndFlickdRunsOn() throws {
        let directory = ConfigScratchDirectory()
        directory.write("seat0", "ACTIVE=2\nACTIVE_UID=1000\n")
        let log = CollectedLog()
        let seat = SeatWatch.forUser(1000, path: directory.file("seat0"), logger: log.logger) { _, _, _ throws(SystemError) in
            throw SystemError(errno: EMFILE, call: "inotify_init1")
        }
        #expect(seat == nil)
        #expect(log.lines == [
            "warning: the seat's active session is not followed (inotify_init1: Too many open files: the user's inotify instances (fs.inotify.max_user_instances) or flickd's file descriptors (its open-files limit, LimitNOFILE= or ulimit -n) are used up); flickd will not pause while another user's session is active on seat0: it goes on reading the input devices, and that user's flicks coast through its virtual device",
        ])

        // With inotify the watch is made; for root, or without logind's seats directory, none is.
        #expect(SeatWatch.forUser(1000, path: directory.file("seat0"), logger: log.logger)?.current() == .active)
        #expect(SeatWatch.forUser(0, path: directory.file("seat0"), logger: log.logger) == nil)
        #expect(SeatWatch.forUser(1000, path: directory.file("seats/seat0"), logger: log.logger) == nil)
        #expect(log.lines.count == 1, "no warning for those")
    }

    /// The user's inotify watches used up (fs.inotify.max_user_watches, which editors' and
    /// IDEs' file watchers exhaust): a seat watch without its directory's watch would never
    /// tell of a switch, so it is none, with the seat's warning (not the configuration's).
    @Test func noWatchLeftIsTheSameWarning() throws {
        let directory = ConfigScratchDirectory()
        directory.write("seat0", "ACTIVE=2\nACTIVE_UID=1000\n")
        let log = CollectedLog()
        let seat = SeatWatch.forUser(1000, path: directory.file("seat0"), logger: log.logger) { path, uid, logger throws(SystemError) in
            try SeatWatch(path: path, uid: uid, logger: logger) { _, directory, _ throws(SystemError) in
                throw SystemError(errno: ENOSPC, call: "inotify_add_watch", path: directory)
            }
        }
        #expect(seat == nil)
        #expect(log.lines == [
            "warning: the seat's active session is not followed (inotify_add_watch \(directory.path): No space left on device: the user's inotify watches are used up, fs.inotify.max_user_watches); flickd will not pause while another user's session is active on seat0: it goes on reading the input devices, and that user's flicks coast through its virtual device",
        ])
    }
    /// logind's record as it writes it: ACTIVE_UID names the user in front, and is left out while
    /// no session is active (a text console with no login): that is `.nobody` where this user
    /// has a session on the seat (UIDS), not `.unknown`, which is kept for no record at all (no
    /// logind), one that cannot be read, and a seat none of whose sessions is this user's.
    @Test func theRecordSaysWhoIsInFrontOrThatNobodyIs() {
        let seat = "# This is private data. Do not parse.\nIS_SEAT0=1\nCAN_MULTI_SESSION=1\n"
        #expect(SeatWatch.activity(of: seat + "ACTIVE=2\nACTIVE_UID=1000\nSESSIONS=2\nUIDS=1000\n", uid: 1000) == .active)
        #expect(SeatWatch.activity(of: seat + "ACTIVE=7\nACTIVE_UID=1001\nSESSIONS=2 7\n", uid: 1000) == .inactive(uid: 1001))
        #expect(SeatWatch.activity(of: seat + "SESSIONS=2\nUIDS=1000\n", uid: 1000) == .nobody)
        #expect(SeatWatch.activity(of: seat + "SESSIONS=2 7\nUIDS=1001 1000\n", uid: 1000) == .nobody)
        #expect(SeatWatch.activity(of: seat + "SESSIONS=7\nUIDS=1001\n", uid: 1000) == .unknown, "not this user's seat")
        #expect(SeatWatch.activity(of: seat + "SESSIONS=\nUIDS=\n", uid: 1000) == .unknown, "no session at all")
        #expect(SeatWatch.activity(of: "", uid: 1000) == .unknown)
        #expect(SeatWatch.activity(of: nil, uid: 1000) == .unknown)
        #expect(SeatWatch.activity(of: seat + "ACTIVE_UID=me\n", uid: 1000) == .unknown)
    }

    /// The same through the file: none there is `.unknown`, one without ACTIVE_UID listing this
    /// user `.nobody`.
    @Test func aFileWithoutAnActiveUserIsNobodyAndNoFileIsUnknown() throws {
        let directory = ConfigScratchDirectory()
        let seat = try SeatWatch(path: directory.file("seat0"), uid: 1000, logger: CollectedLog().logger)
        #expect(seat.current() == .unknown)
        directory.write("seat0", "IS_SEAT0=1\nCAN_MULTI_SESSION=1\nSESSIONS=2\nUIDS=1000\n")
        #expect(seat.current() == .nobody)
    }

    /// doctor run over ssh while a text console with no login is in front names that, beside
    /// the uinput check's refusal it explains; with no record it says nothing.
    @Test func doctorSaysNoSessionIsActiveOnTheSeat() throws {
        var system = FakeSystem()
        #expect(system.checks().first { $0.title == "session" } == nil, "no record: nothing said")
        system.fileContents[SeatWatch.seat0] = "IS_SEAT0=1\nCAN_MULTI_SESSION=1\nSESSIONS=2\nUIDS=1000\n"
        let check = try #require(system.checks().first { $0.title == "session" })
        #expect(check.status == .warning && check.detail.hasPrefix("no session is active on seat0"), "\(check.detail)")
    }
}
