import FlickCore
@testable import FlickLinux
import Foundation
import Glibc
import Testing

/// What `flickd run` settles before its daemon starts: /dev/uinput refused while another user's
/// session is in front, and signals that come before the daemon's signalfd.
@Suite("Start-up checks", .serialized)
struct StartupChecksTests {
    /// logind's uaccess ACL on /dev/uinput is another user's: open(2) says EACCES.
    static let refused = VirtualWheelError(SystemError(errno: EACCES, call: "open", path: "/dev/uinput"), device: VirtualTouchpad.name)
    /// No uinput module: ENOENT, whoever is in front.
    static let missing = VirtualWheelError(SystemError(errno: ENOENT, call: "open", path: "/dev/uinput"), device: VirtualTouchpad.name)

    /// A uinput check that fails with `error`.
    static func failing(_ error: VirtualWheelError) -> () throws(VirtualWheelError) -> Void {
        { () throws(VirtualWheelError) in throw error }
    }

    // MARK: /dev/uinput and the seat

    /// flickd restarted (after a crash, over ssh, by an upgrade) while user 1001's session is in
    /// front: /dev/uinput is 1001's, and the start goes on to wait for this user's session.
    @Test func aRefusedUinputWhileAnotherUsersSessionIsInFrontIsNoError() throws {
        let access = try StartupChecks.checkOutputAccess(seat: .inactive(uid: 1001), check: Self.failing(Self.refused))
        #expect(access == .awaitingSession(uid: 1001, refusal: Self.refused))
        #expect("\(access)" == "/dev/uinput refuses this user while another user's session is active on the seat (uid 1001): Permission denied; logind gives it to the user in front, so flickd creates its flickd virtual touchpad when this user's session is back")
    }

    /// The user switched to a text console with no login (getty): logind writes seat0 without
    /// ACTIVE_UID and takes /dev/uinput's ACL from everyone. flickd (re)started then goes on,
    /// with a notice, to make its device when this user's session is in front again. Before,
    /// it exited 1 at every restart until systemd gave up.
    @Test func aRefusedUinputWhileNoSessionIsInFrontIsNoError() throws {
        let access = try StartupChecks.checkOutputAccess(seat: .nobody, check: Self.failing(Self.refused))
        #expect(access == .awaitingSession(uid: nil, refusal: Self.refused))
        #expect("\(access)" == "/dev/uinput refuses this user while no session is active on the seat (a text console with no login in front?): Permission denied; logind gives it to the user in front, so flickd creates its flickd virtual touchpad when this user's session is in front again")
    }

    /// This user's session in front, or nothing known of the seat (root, no logind): a refusal
    /// fails the start at once, with the reason and the fix.
    @Test(arguments: [SeatWatch.Activity.active, .unknown, nil])
    func aRefusedUinputFailsTheStartWhenTheSeatIsNotAnotherUsers(seat: SeatWatch.Activity?) {
        #expect(throws: Self.refused) { try StartupChecks.checkOutputAccess(seat: seat, check: Self.failing(Self.refused)) }
        #expect("\(Self.refused)".hasPrefix("cannot create the virtual touchpad: no permission to write /dev/uinput (Permission denied)."))
    }

    /// A missing uinput module is missing for every user: the start fails whoever is in front.
    @Test(arguments: [SeatWatch.Activity.inactive(uid: 1001), .active, .nobody, nil])
    func aMissingUinputFailsTheStartWhoeverIsInFront(seat: SeatWatch.Activity?) {
        #expect(throws: Self.missing) { try StartupChecks.checkOutputAccess(seat: seat, check: Self.failing(Self.missing)) }
    }

    @Test(arguments: [SeatWatch.Activity.inactive(uid: 1001), .active, .nobody, .unknown, nil])
    func aWritableUinputIsGrantedWhoeverIsInFront(seat: SeatWatch.Activity?) throws {
        #expect(try StartupChecks.checkOutputAccess(seat: seat, check: {}) == .granted)
    }

    /// The whole start while user 1001 is in front: the check lets it go on, the daemon is READY
    /// paused with no device made, and when this user (1000) is back in front (logind's ACL now
    /// theirs) it opens the touchpad and makes its virtual one.
    @Test func aStartWhileAnotherUsersSessionIsInFrontIsReadyPausedAndGoesOnWhenThisUsersIsBack() throws {
        let directory = ConfigScratchDirectory()
        directory.write("seat0", "ACTIVE=5\nACTIVE_UID=1001\n")
        let seat = try SeatWatch(path: directory.file("seat0"), uid: 1000, logger: CollectedLog().logger)
        let access = try StartupChecks.checkOutputAccess(seat: seat.current(), check: Self.failing(Self.refused))
        #expect(access == .awaitingSession(uid: 1001, refusal: Self.refused))

        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [pad]
        var statuses: [[String]] = []
        var madeWhilePaused: [OutputMode] = []
        let outputs = DaemonDeviceTests.Outputs()
        source.play([
            {
                statuses.append(listener.received())
                madeWhilePaused = outputs.made
                directory.replace("seat0", "ACTIVE=2\nACTIVE_UID=1000\n")
                return []
            },
            { [] },
            {
                statuses.append(listener.received())
                raise(SIGTERM)
                return []
            },
        ])
        try DaemonDeviceTests.daemon(source, outputs, log: log, seat: seat, notifier: notifier).run()
        #expect(statuses == [["READY=1\nSTATUS=paused: another user's session is active on the seat"], ["STATUS=reading 1 touch device"]],
                "\(statuses)")
        #expect(madeWhilePaused == [], "nothing is made while paused: \(madeWhilePaused)")
        #expect(outputs.made == [.touchpad], "made when this user is back: \(outputs.made)")
        #expect(log.lines.contains { $0.hasPrefix("notice: another user's session is active on the seat (uid 1001): flickd waits") }, "\(log.lines)")
    }

    /// The whole start while a text console with no login is in front (seat0 without
    /// ACTIVE_UID, /dev/uinput refused): the check lets it go on, the daemon is READY with the
    /// touchpad open and no virtual one made; when this user (1000) logs in again in front
    /// (logind's ACL now theirs) the virtual touchpad is made. Before, the start failed.
    @Test func aStartWhileNoSessionIsInFrontIsReadyAndMakesTheOutputWhenThisUsersIsBack() throws {
        let directory = ConfigScratchDirectory()
        directory.write("seat0", "IS_SEAT0=1\nCAN_MULTI_SESSION=1\nSESSIONS=2\nUIDS=1000\n")
        let seat = try SeatWatch(path: directory.file("seat0"), uid: 1000, logger: CollectedLog().logger)
        let access = try StartupChecks.checkOutputAccess(seat: seat.current(), check: Self.failing(Self.refused))
        #expect(access == .awaitingSession(uid: nil, refusal: Self.refused))

        let listener = try NotifySocketListener(abstract: false)
        let log = CollectedLog()
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        let source = ScriptedDevices()
        let pad = try source.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")
        source.present = [pad]
        var statuses: [[String]] = []
        var madeWhileNobodyIsInFront = -1
        let outputs = DaemonDeviceTests.Outputs()
        outputs.failure = Self.refused
        source.play([
            {
                statuses.append(listener.received())
                madeWhileNobodyIsInFront = outputs.touchpads.count
                outputs.failure = nil
                directory.replace("seat0", "IS_SEAT0=1\nCAN_MULTI_SESSION=1\nACTIVE=2\nACTIVE_UID=1000\nSESSIONS=2\nUIDS=1000\n")
                return []
            },
            { [] },
            {
                raise(SIGTERM)
                return []
            },
        ])
        try DaemonDeviceTests.daemon(source, outputs, log: log, seat: seat, notifier: notifier).run()
        #expect(statuses.first?.first?.hasPrefix("READY=1\n") == true, "\(statuses)")
        #expect(madeWhileNobodyIsInFront == 0, "nothing made while nobody is in front: \(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("error: ") && $0.contains("Permission denied") }, "said once: \(log.lines)")
        #expect(!log.lines.contains { $0.contains("another user's session") }, "not paused: \(log.lines)")
        #expect(outputs.made == [.touchpad, .touchpad], "made when this user's session is in front: \(log.lines)")
        #expect(outputs.touchpads.count == 1, "\(log.lines)")
    }

    // MARK: Signals before the daemon's signalfd

    /// `flickd run` with a configuration that has errors, its stderr a full pipe: it writes
    /// nothing before its first log line, which is after the signals are held, and that line
    /// waits in write(2) before any daemon exists. SIGHUP or SIGTERM then stays pending (the
    /// daemon would read it): flickd ends by its own exit, 1 with the configuration's
    /// errors, once the pipe is read. (It was ended by the signal: 129 for SIGHUP, which systemd
    /// does not restart, 143 for SIGTERM.) A configuration with errors keeps the test from
    /// starting a daemon on a machine where it could.
    @Test(arguments: [SIGHUP, SIGTERM, SIGINT])
    func aSignalDuringTheStartWaitsForTheDaemon(signal: Int32) throws {
        let config = NSTemporaryDirectory() + "flickd-startup-\(getpid())-\(signal).toml"
        try "[coast]\nboost = 3\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let stderr = try FullPipe()
        defer { stderr.closeReadEnd() }

        // A clean start, as systemd's: nothing blocked or ignored, whatever this thread holds
        // (a daemon test run on it, a runner that ignores SIGHUP).
        let pid = try Self.spawn(FlickdBinary.url.path, ["run", "--config", config], standardError: stderr.writeEnd)
        stderr.closeWriteEnd()

        let writing = ProcessProbe(pid: pid).waitUntilWritingStandardError(within: ChildProcess.limitSeconds)
        if !writing { kill(pid, SIGKILL) }
        #expect(writing, "flickd never waited in its first write to stderr")
        #expect(kill(pid, signal) == 0)
        let written = stderr.readToEnd(within: ChildProcess.limitSeconds)
        var status: Int32 = 0
        try #require(waitpid(pid, &status, 0) == pid, "waitpid: errno \(errno)")
        // WIFEXITED, WEXITSTATUS and WTERMSIG, which Swift cannot import (macros).
        let ending = status & 0x7f == 0 ? "exit \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
        #expect(ending == "exit 1", "\(ending)")
        #expect(written.contains("error: the configuration has errors; nothing was started:\n\(config):2: "), "\(written)")
    }

    /// Starts `path` with `arguments` and the tests' environment for a child flickd, standard
    /// input and output /dev/null, standard error `standardError`; no signal blocked, the
    /// daemon's at their defaults.
    static func spawn(_ path: String, _ arguments: [String], standardError: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardError, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = Syscall.signalSet([])
        var defaults = Syscall.signalSet(StartupChecks.daemonSignals)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = ChildProcess.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for word in argv + environment { free(word) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environment)
        try #require(result == 0, "posix_spawn \(path): errno \(result)")
        return pid
    }
}

/// A pipe whose buffer is full: a blocking write to it waits until the other end reads.
final class FullPipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32
    /// The bytes that fill it.
    private var filler = 0

    init() throws {
        // Close-on-exec: a child another test starts meanwhile must not hold the write end.
        (readEnd, writeEnd) = try Syscall.makePipe()
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        // Pages first, then single bytes: a write too large for the room left takes nothing.
        let page = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        for chunk in [page.count, 1] {
            while true {
                let count = write(writeEnd, page, chunk)
                if count <= 0 { break }
                filler += count
            }
        }
        // The reader's write (the child's) must wait, not fail with EAGAIN: the flag is the
        // open file's, shared with the child.
        _ = fcntl(writeEnd, F_SETFL, flags)
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    func closeReadEnd() {
        closeWriteEnd()
        close(readEnd)
    }

    /// Everything written after the filler, read until every writer has closed its end (or
    /// `limit` seconds pass with nothing to read).
    func readToEnd(within limit: Double) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(limit * 1000)) == 1 else {
                Issue.record("the pipe was not closed within \(limit) s")
                break
            }
            let count = read(readEnd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes.dropFirst(filler), as: UTF8.self)
    }
}

/// A child process seen through /proc/PID: whether it sleeps in write(2) to its stderr.
struct ProcessProbe {
    let pid: pid_t

    /// write's system call number, as /proc/PID/syscall shows it.
    #if arch(x86_64)
    static let write = "1"
    #else
    static let write = "64"  // the generic table's (arm64, riscv64)
    #endif

    /// Polls every 100 µs, for up to `limit` seconds, until the process sleeps (state S) in
    /// write(2) to descriptor 2; false when it ended or the time ran out first.
    func waitUntilWritingStandardError(within limit: Double) -> Bool {
        let deadline = Syscall.monotonicNow() + .milliseconds(Int64(limit * 1000))
        while Syscall.monotonicNow() < deadline {
            switch state {
            case nil, "Z"?: return false
            case "S"? where isWritingStandardError: return true
            default: break
            }
            usleep(100)
        }
        return false
    }

    /// The process's state (R, S, D, Z...); nil once it is gone.
    private var state: Character? {
        guard let stat = Self.text("/proc/\(pid)/stat"), let nameEnd = stat.lastIndex(of: ")") else { return nil }
        // "PID (comm) S ...": the state follows the name, which may hold spaces and ')'.
        return stat[stat.index(after: nameEnd)...].first { $0 != " " }
    }

    /// Whether the system call it is in (the kernel shows one only for a process not running)
    /// is write(2) to descriptor 2.
    private var isWritingStandardError: Bool {
        guard let call = Self.text("/proc/\(pid)/syscall") else { return false }
        let words = call.split(separator: " ")
        return words.count > 1 && words[0] == Self.write && words[1] == "0x2"
    }

    private static func text(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}
