import Glibc
import Testing
@testable import FlickLinux

/// A terminal's hang-up as flickd's SIGHUP handling reads it (`StartingTerminal`), on a pty of
/// the test's own: the terminal emulator holds the master side, flickd's streams are the slave;
/// closing the window closes the master.
@Suite struct StartingTerminalTests {
    /// A new pty: its master side and its slave side, both open. Through /dev/ptmx and its
    /// ioctls: posix_openpt and ptsname are not in Swift's Glibc module.
    static func pty() throws -> (master: Int32, slave: Int32) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0, "open /dev/ptmx: errno \(errno)")
        // TIOCSPTLCK (_IOW('T', 0x31, int)) with 0 unlocks the slave; TIOCGPTN
        // (_IOR('T', 0x30, unsigned int)) gives its number under /dev/pts.
        var unlock: Int32 = 0, number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0,
                     "the pty's ioctls: errno \(errno)")
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0, "open /dev/pts/\(number): errno \(errno)")
        return (master, slave)
    }

    @Test("a terminal whose window is open has not hung up; once the window closes (its pty master closed) it has")
    func aClosedWindowHangsUpItsTerminal() throws {
        let (master, slave) = try Self.pty()
        defer { close(slave) }
        let terminal = StartingTerminal(descriptors: [slave], session: getsid(0))
        #expect(!terminal.hasHungUp())
        close(master)
        #expect(terminal.hasHungUp())
    }

    @Test("no terminal at start (a service, `nohup`): never hung up, every SIGHUP reloads")
    func noTerminalNeverHangsUp() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        close(ends[1])
        #expect(!StartingTerminal(descriptors: [], session: getsid(0)).hasHungUp())
        // A descriptor that is no terminal fails with ENOTTY, not EIO: no hang-up either.
        #expect(!StartingTerminal(descriptors: [ends[0]], session: getsid(0)).hasHungUp())
    }

    @Test("a terminal of another session (flickd started with setsid): not taken at start, never hung up when its window closes")
    func aTerminalOfAnotherSessionNeverHangsUp() throws {
        // The test's pty is no session's controlling terminal, as flickd's terminal is not
        // after `setsid flickd run`: tcgetsid says ENOTTY.
        let (master, slave) = try Self.pty()
        defer { close(slave) }
        let terminal = StartingTerminal.current(of: [slave])
        #expect(terminal.descriptors.isEmpty && terminal.session == getsid(0), "\(terminal)")
        close(master)
        #expect(!terminal.hasHungUp())
        #expect(!terminal.isHangUp(from: SignalSender(code: Int32(SI_KERNEL), processID: 0)))
    }

    @Test("a closed terminal's SIGHUP ends flickd only from the kernel or the session's leader; anyone else's reloads")
    func onlyTheHangUpsOwnSenders() throws {
        let (master, slave) = try Self.pty()
        defer { close(slave) }
        let leader: pid_t = 4242
        let terminal = StartingTerminal(descriptors: [slave], session: leader)
        let kernel = SignalSender(code: Int32(SI_KERNEL), processID: 0)
        let shell = SignalSender(code: Int32(SI_USER), processID: leader)
        let otherShell = SignalSender(code: Int32(SI_USER), processID: 4343)
        #expect(![kernel, shell, otherShell].contains { terminal.isHangUp(from: $0) }, "the window is open: each reloads")
        close(master)
        #expect(terminal.isHangUp(from: kernel) && terminal.isHangUp(from: shell), "the hang-up's own SIGHUPs")
        #expect(!terminal.isHangUp(from: otherShell), "kill -HUP from another shell reloads")
    }
}
