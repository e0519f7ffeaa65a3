import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// The loop's own descriptors failing to read: the coast's timer and the signals, without which
/// the daemon cannot run, end the loop with the error after the virtual fingers lift; the reload
/// timer, without which only SIGHUP reloads, leaves the epoll set. None may stay in it readable:
/// epoll would report it at every wait, a busy loop that logs each time.
@Suite("Daemon loop faults", .serialized)
struct DaemonLoopFaultTests {
    /// Fails the reads of one of the loop's descriptors once armed: at most 1000 times, then
    /// raises SIGTERM and lets them read again, so that a loop that spins on the failure ends.
    final class Fault {
        let read: Daemon.LoopRead
        var armed = false
        private(set) var count = 0
        static let spinLimit = 1000

        init(_ read: Daemon.LoopRead) { self.read = read }

        func take(_ read: Daemon.LoopRead) -> SystemError? {
            guard armed, read == self.read else { return nil }
            count += 1
            if count == Self.spinLimit { raise(SIGTERM) }
            return count <= Self.spinLimit ? SystemError(errno: EIO, call: "read") : nil
        }
    }

    /// Runs a touchpad flick with `fault` armed at the glide's third motion frame (`then` runs
    /// there too); returns the virtual touchpad, the loop's error and the log.
    static func glide(failing fault: Fault, then: @escaping () -> Void = {}) throws
        -> (touchpad: RecordingTouchpad, error: SystemError?, log: CollectedLog)
    {
        let source = try DaemonEventPathTests.source()
        let log = CollectedLog()
        let outputs = DaemonDeviceTests.Outputs()
        var moves = 0
        let error = try DaemonEventPathTests.runTouchpadFlick(
            source, configuration: DaemonEventPathTests.touchpadConfiguration, log: log, outputs: outputs,
            setUp: { $0.readFault = fault.take }
        ) { frame, _ in
            guard frame.action == .move else { return }
            moves += 1
            if moves == 3 {
                fault.armed = true
                then()
            }
        }
        return (try #require(outputs.touchpads.first), error, log)
    }

    @Test("the coast's timer cannot be read mid-glide: read once, the virtual fingers lift, the touchpad goes and the loop ends with the error")
    func anUnreadableTimerEndsTheLoop() throws {
        let fault = Fault(.timer)
        let (touchpad, error, log) = try Self.glide(failing: fault)
        #expect(error?.errno == EIO, "the loop ended with the error: \(String(describing: error))")
        #expect(fault.count == 1, "read once, not spun on")
        #expect(touchpad.closed && touchpad.frames.last?.action == .lift, "\(touchpad.frames.map(\.action))")
        #expect(log.lines.contains { $0.hasPrefix("error: cannot read the timer (") && $0.hasSuffix("and stops") }, "\(log.lines)")
    }

    @Test("the signals cannot be read mid-glide (a SIGHUP waits): read once, the virtual fingers lift, the touchpad goes and the loop ends with the error")
    func unreadableSignalsEndTheLoop() throws {
        let fault = Fault(.signals)
        let (touchpad, error, log) = try Self.glide(failing: fault) { raise(SIGHUP) }
        #expect(error?.errno == EIO, "the loop ended with the error: \(String(describing: error))")
        #expect(fault.count == 1, "read once, not spun on")
        #expect(touchpad.closed && touchpad.frames.last?.action == .lift, "\(touchpad.frames.map(\.action))")
        #expect(log.lines.contains { $0.hasPrefix("error: cannot read signals (") && $0.hasSuffix("and stops") }, "\(log.lines)")
    }

    @Test("the reload timer cannot be read: the file's changes are no longer followed, said once, and the loop goes on until SIGTERM")
    func anUnreadableReloadTimerLeavesTheLoop() throws {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        let log = CollectedLog()
        let watcher = try ConfigWatcher(paths: source.watchedPaths, logger: log.logger)
        var reloads = 0
        let daemon = try Daemon(engine: Engine(configuration: try source.load()), wheel: RecordingWheel(), monitor: nil,
                                logger: log.logger, configurationWatcher: watcher) {
            reloads += 1
            return try source.reload()
        }
        let fault = Fault(.reloadTimer)
        fault.armed = true
        // A second of the loop after the first failure, then SIGTERM.
        var end: DaemonWatchdog?
        daemon.readFault = { read in
            let error = fault.take(read)
            if fault.count == 1, end == nil { end = DaemonWatchdog(seconds: 1) }
            return error
        }
        directory.write("config.toml", "[scroll]\nspeed = 35\n")
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        end?.cancel()
        #expect(fault.count == 1, "read once, not spun on")
        #expect(reloads == 0, "\(log.lines)")
        #expect(log.lines.filter { $0.hasPrefix("error: configuration changes are no longer followed: cannot read the reload timer (") }.count == 1,
                "\(log.lines)")
    }
}

/// SIGHUP from a terminal whose window was closed (its shell passes the kernel's SIGHUP on to
/// its jobs) ends `flickd run` as SIGTERM does; any other SIGHUP (`systemctl reload`, `kill
/// -HUP`) reloads. Reloading then would leave flickd running unseen, and a flickd.service
/// started later would glide every flick twice.
extension DaemonLoopFaultTests {
    /// What a SIGHUP at a touchpad glide's third motion frame did, decided by `terminal`: the
    /// virtual touchpad, how many reloads ran (each ends the run with SIGTERM), the
    /// notifications the service manager got, the log, and the senders the hook was given.
    static func hangUp(_ terminal: StartingTerminal) throws
        -> (touchpad: RecordingTouchpad, reloads: Int, notifications: [String], log: CollectedLog, senders: [SignalSender])
    {
        var senders: [SignalSender] = []
        let run = try glide(atThirdFrame: { raise(SIGHUP) }) { daemon in
            daemon.terminalHungUp = { sender in
                senders.append(sender)
                return terminal.isHangUp(from: sender)
            }
        }
        return (run.touchpad, run.reloads, run.notifications, run.log, senders)
    }

    /// A touchpad glide on a daemon `prepare`d by the test, `atThirdFrame` done as its third
    /// motion frame is written: the virtual touchpad, how many reloads ran (each ends the run
    /// with SIGTERM), the notifications the service manager got, and the log.
    static func glide(atThirdFrame: @escaping () -> Void, prepare: (Daemon) -> Void) throws
        -> (touchpad: RecordingTouchpad, reloads: Int, notifications: [String], log: CollectedLog)
    {
        let source = try DaemonEventPathTests.source()
        let log = CollectedLog()
        let outputs = DaemonDeviceTests.Outputs()
        let listener = try NotifySocketListener(abstract: false)
        let notifier = try ServiceNotifier(address: listener.address, logger: log.logger)
        var moves = 0
        source.play([{
            let pad = source.devices[DaemonEventPathTests.pad]!
            pad.feed(DaemonEventPathTests.flick(on: pad.description, releasedAt: Syscall.monotonicNow()))
            outputs.touchpads[0].afterWrite = { frame in
                guard frame.action == .move else { return }
                moves += 1
                if moves == 3 { atThirdFrame() }
            }
            return []
        }])
        var reloads = 0
        let configuration = DaemonEventPathTests.touchpadConfiguration
        let daemon = try DaemonDeviceTests.daemon(source, outputs, log: log, configuration: configuration, notifier: notifier,
                                                  stallLimit: DaemonEventPathTests.noStall) {
            reloads += 1
            raise(SIGTERM)
            return configuration
        }
        prepare(daemon)
        let watchdog = DaemonWatchdog(seconds: 10)
        defer {
            for pad in outputs.touchpads { pad.afterWrite = nil }
            watchdog.cancel()
        }
        try daemon.run()
        return (try #require(outputs.touchpads.first), reloads, listener.received(), log)
    }

    /// A terminal of the session led by `leader` whose window has closed: a pty's slave whose
    /// master is closed (kept open until the test process ends, a few descriptors).
    static func closedTerminal(sessionLeader leader: pid_t) throws -> StartingTerminal {
        let (master, slave) = try StartingTerminalTests.pty()
        close(master)
        return StartingTerminal(descriptors: [slave], session: leader)
    }

    /// The SIGHUP the test raises comes from this process, by tgkill: `SI_TKILL`, this pid.
    static let raised = SignalSender(code: Int32(SI_TKILL), processID: getpid())
    /// A process that is not this one: the leader of a session in which this one's raise() is
    /// another sender's SIGHUP.
    static let someoneElse: pid_t = getpid() == 1 ? 2 : 1

    @Test("SIGHUP mid-glide from flickd's session leader once its terminal has closed (the shell passing the hang-up on): no reload; the virtual fingers settle and lift, STOPPING=1 once, and run() returns")
    func aClosedTerminalsHangUpShutsDown() throws {
        let (touchpad, reloads, notifications, log, senders) = try Self.hangUp(Self.closedTerminal(sessionLeader: getpid()))
        let actions = touchpad.frames.map(\.action)
        #expect(senders == [Self.raised], "the hook is told who sent the SIGHUP: \(senders)")
        #expect(reloads == 0, "\(log.lines)")
        #expect(touchpad.closed && actions.last == .lift, "lifted before the touchpad went: \(actions)")
        #expect(actions.filter { $0 == .move }.count == 3 + VirtualFingers.settleFrames, "the settle frames before the lift: \(actions)")
        #expect(DaemonEventPathTests.coastEnds(log) == ["shutdown"], "\(log.lines)")
        #expect(log.lines.contains("info: SIGHUP: the terminal flickd was started in has closed: shutting down"), "\(log.lines)")
        #expect(notifications.filter { $0 == "STOPPING=1" }.count == 1 && notifications.last == "STOPPING=1", "\(notifications)")
        #expect(!notifications.contains { $0.hasPrefix("RELOADING=1") }, "\(notifications)")
    }

    @Test("SIGHUP mid-glide from another process once the terminal has closed (`kill -HUP` from another shell, systemctl reload): the configuration is read again")
    func anotherSendersHangUpReloadsAfterTheTerminalClosed() throws {
        let (_, reloads, notifications, log, senders) = try Self.hangUp(Self.closedTerminal(sessionLeader: Self.someoneElse))
        #expect(senders == [Self.raised], "\(senders)")
        #expect(reloads == 1, "\(log.lines)")
        #expect(log.lines.contains("info: SIGHUP: configuration reloaded"), "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("has closed") }, "\(log.lines)")
        #expect(notifications.contains { $0.hasPrefix("RELOADING=1") } && notifications.last == "STOPPING=1", "\(notifications)")
    }

    @Test("SIGHUP mid-glide with no terminal closed (systemctl reload): the configuration is read again, and the daemon runs on (until the reload's SIGTERM)")
    func aHangUpWithoutAClosedTerminalReloads() throws {
        let (_, reloads, notifications, log, _) = try Self.hangUp(StartingTerminal(descriptors: [], session: getpid()))
        #expect(reloads == 1, "\(log.lines)")
        #expect(log.lines.contains("info: SIGHUP: configuration reloaded"), "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("has closed") }, "\(log.lines)")
        #expect(notifications.contains { $0.hasPrefix("RELOADING=1") } && notifications.last == "STOPPING=1", "\(notifications)")
    }
}

/// The terminal's window closed with no SIGHUP for flickd while it is open (Konsole and xterm
/// signal the shell and wait for it to exit before they close the terminal; a job in the
/// background gets none): the hang-up itself, seen on the terminal's descriptor, ends `flickd
/// run` as SIGTERM does.
extension DaemonLoopFaultTests {
    @Test("the starting terminal closed mid-glide, no signal sent: the virtual fingers settle and lift, STOPPING=1 once, no reload, and run() returns")
    func aTerminalThatClosesWithoutASignalShutsDown() throws {
        let (master, slave) = try StartingTerminalTests.pty()
        defer { close(slave) }
        var masterOpen = true
        defer { if masterOpen { close(master) } }
        // The window closes at the third frame: its terminal emulator closes the pty's master.
        let (touchpad, reloads, notifications, log) = try Self.glide(atThirdFrame: { close(master); masterOpen = false }) { daemon in
            daemon.startingTerminal = StartingTerminal(descriptors: [slave], session: getsid(0))
        }
        let actions = touchpad.frames.map(\.action)
        #expect(reloads == 0, "\(log.lines)")
        #expect(touchpad.closed && actions.last == .lift, "lifted before the touchpad went: \(actions)")
        #expect(DaemonEventPathTests.coastEnds(log) == ["shutdown"], "\(log.lines)")
        #expect(log.lines.contains("info: the terminal flickd was started in has closed: shutting down"), "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("SIGTERM") }, "ended by the hang-up, not the watchdog: \(log.lines)")
        #expect(notifications.filter { $0 == "STOPPING=1" }.count == 1 && notifications.last == "STOPPING=1", "\(notifications)")
    }

    @Test("a terminal still open wakes nothing: the daemon runs on until SIGTERM")
    func anOpenTerminalIsNotAHangUp() throws {
        let (master, slave) = try StartingTerminalTests.pty()
        defer { close(master); close(slave) }
        let source = try DaemonEventPathTests.source()
        let log = CollectedLog()
        let outputs = DaemonDeviceTests.Outputs()
        source.play([{
            // Typed into the terminal: input for flickd's standard input, which it never reads.
            // Waited for on the terminal's side, so that it is there before the next wake-up.
            _ = write(master, "x\n", 2)
            var typed = pollfd(fd: slave, events: Int16(POLLIN), revents: 0)
            _ = poll(&typed, 1, 2000)
            return []
        }, {
            raise(SIGTERM)
            return []
        }])
        let daemon = try DaemonDeviceTests.daemon(source, outputs, log: log)
        daemon.startingTerminal = StartingTerminal(descriptors: [slave], session: getsid(0))
        let watchdog = DaemonWatchdog(seconds: 10)
        defer { watchdog.cancel() }
        try daemon.run()
        #expect(log.lines.contains("info: SIGTERM: shutting down"), "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("has closed") }, "\(log.lines)")
    }
}
