import FlickCore
import Foundation
import Glibc
import Synchronization
import Testing
@testable import FlickLinux

/// The daemon's loop with a watcher: a saved file reloads it, once per burst, and a bad,
/// emptied or deleted file keeps the running settings. The reload closure of `reload(starting:then:)`
/// sends SIGTERM, so each loop ends after its one reload (about `Daemon.reloadDelay` of real
/// time); the tests of a burst and of an unchanged file run on past it.
@Suite("Daemon live reload", .serialized)
struct DaemonLiveReloadTests {
    /// Runs a daemon following `directory/config.toml` (read with `ConfigurationSource`), with
    /// `change` made to the file first; returns the engine's configuration after the reload and
    /// the log.
    static func reload(
        starting text: String, then change: (ConfigScratchDirectory) -> Void
    ) throws -> (configuration: Configuration, reloads: Int, log: [String], path: String) {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", text)
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        let engine = Engine(configuration: try source.load())
        let log = CollectedLog()
        let watcher = try ConfigWatcher(paths: source.watchedPaths, logger: log.logger)
        var reloads = 0
        let daemon = try Daemon(engine: engine, wheel: RecordingWheel(), monitor: nil, logger: log.logger,
                                configurationWatcher: watcher) {
            reloads += 1
            defer { raise(SIGTERM) }
            return try source.reload()
        }
        change(directory)
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        return (engine.configuration, reloads, log.lines, directory.file("config.toml"))
    }

    /// Two saves less than `Daemon.reloadDelay` apart, the second read by the loop in a wake-up
    /// of its own, after the first's: one reload, of the second save's settings.
    @Test func aSavedFileIsAppliedOnceForABurstOfEvents() throws {
        // A machine too loaded to make the second save in time voids an attempt; it is tried again.
        for _ in 1...10 {
            guard let result = try Self.burstOfTwoSaves() else { continue }
            #expect(result.reloads == 1, "\(result.log)")
            #expect(result.configuration.scroll.speed == 48)
            // Every change of the burst is named once, in order, on the one reload's line.
            #expect(result.log.contains { $0.hasSuffix("config.toml written, \(result.path) replaced: configuration reloaded") }, "\(result.log)")
            return
        }
        Issue.record("in ten attempts the second save never came within \(Daemon.reloadDelay - Self.burstMargin) of the first: too loaded a machine")
    }

    @Test func aFileWithErrorsKeepsTheRunningSettingsAndSaysWhy() throws {
        let result = try Self.reload(starting: "[scroll]\nspeed = 30\n") { directory in
            directory.write("config.toml", "[scroll]\nspeed = 5000\n")
        }
        #expect(result.reloads == 1)
        #expect(result.configuration.scroll.speed == 30)
        let line = result.log.first { $0.contains("keeping the running configuration") } ?? "none in \(result.log)"
        #expect(line.hasPrefix("error: "))
        #expect(line.contains("config.toml:2: scroll.speed = 5000 is out of range (0.1 <= speed <= 1000); 90 is the default"), "\(line)")
    }

    @Test func anEmptiedFileKeepsTheRunningSettings() throws {
        let result = try Self.reload(starting: "[scroll]\nspeed = 30\n") { directory in
            directory.write("config.toml", "")
        }
        #expect(result.configuration.scroll.speed == 30)
        #expect(result.log.contains { $0.contains("keeping the running configuration") && $0.contains("the file is empty") }, "\(result.log)")
    }

    @Test func aDeletedFileKeepsTheRunningSettings() throws {
        let result = try Self.reload(starting: "[scroll]\nspeed = 30\n") { directory in
            directory.remove("config.toml")
        }
        #expect(result.configuration.scroll.speed == 30)
        #expect(result.log.contains { $0.contains("config.toml removed: keeping the running configuration") && $0.contains("the file is gone") },
                "\(result.log)")
    }

    /// The rehearsal lines of `log` (`Daemon.rehearse`): one after READY=1, one per reload
    /// that changes what it plays.
    static func rehearsals(_ log: [String]) -> [String] {
        log.filter { $0.contains("rehearsed the first coast") }
    }

    @Test func aReloadThatTurnsTouchscreensOnRehearsesTheirDragToo() throws {
        let result = try Self.reload(starting: "[scroll]\nspeed = 30\n") { directory in
            directory.write("config.toml", "[scroll]\nspeed = 30\n[touchscreen]\nenabled = true\nfingers = 2\n")
        }
        #expect(result.configuration.touchscreen.enabled)
        let rehearsals = Self.rehearsals(result.log)
        #expect(rehearsals.count == 2, "\(result.log)")
        #expect(rehearsals.first?.contains("(a touchpad flick: coasted, ") == true, "\(rehearsals)")
        #expect(rehearsals.last?.contains("(a touchpad flick: coasted, ") == true, "\(rehearsals)")
        #expect(rehearsals.last?.contains("; a touchscreen drag: coasted, ") == true, "\(rehearsals)")
    }

    @Test func aReloadThatChangesNoFlickRehearsesNothingMore() throws {
        let result = try Self.reload(starting: "[scroll]\nspeed = 30\n") { directory in
            directory.write("config.toml", "[scroll]\nspeed = 48\n")
        }
        #expect(result.configuration.scroll.speed == 48)
        #expect(Self.rehearsals(result.log).count == 1, "only the one after READY=1: \(result.log)")
    }

    /// A save that changes no setting, mid-glide: the settings are not applied again, which
    /// would stop the coast (`reconfigured`); the glide runs on until the run ends.
    @Test func anUnchangedFileAppliesNothing() throws {
        let directory = ConfigScratchDirectory()
        let text = "[scroll]\nspeed = 30\n"
        directory.write("config.toml", text)
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        let devices = try DaemonEventPathTests.source()
        let outputs = DaemonDeviceTests.Outputs()
        let log = CollectedLog()
        let watcher = try ConfigWatcher(paths: source.watchedPaths, logger: log.logger)
        var reloads = 0
        let daemon = try Daemon(engine: Engine(configuration: try source.load(), stallLimit: DaemonEventPathTests.noStall),
                                output: nil, makeOutput: outputs.make, monitor: devices, logger: log.logger,
                                configurationWatcher: watcher) {
            reloads += 1
            return try source.reload()
        }
        devices.play([{
            let pad = devices.devices[DaemonEventPathTests.pad]!
            pad.feed(DaemonEventPathTests.flick(on: pad.description, releasedAt: Syscall.monotonicNow()))
            let virtual = outputs.touchpads[0]
            virtual.afterWrite = { [unowned virtual] _ in
                // Mid-glide (a glide from this flick lasts over a second): saved again, the same.
                if virtual.frames.count == 3 { directory.write("config.toml", text + "# saved again\n") }
            }
            return []
        }])
        var coastingAtTheReload: Bool?
        log.onLine = { line in
            if line.hasSuffix("the settings are unchanged") {
                coastingAtTheReload = DaemonEventPathTests.coastEnds(log).isEmpty
                raise(SIGTERM)
            }
        }
        defer {
            for pad in outputs.touchpads { pad.afterWrite = nil }
            log.onLine = nil
        }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        #expect(reloads == 1, "\(log.lines)")
        #expect(coastingAtTheReload == true, "the file read while the glide ran: \(log.lines)")
        #expect(DaemonEventPathTests.coastEnds(log) == ["shutdown"], "the glide ran on until the run ended: \(log.lines)")
    }
}

extension DaemonLiveReloadTests {
    /// What a test's thread and the daemon's loop share in `burstOfTwoSaves`.
    final class Burst: Sendable {
        struct State {
            /// The loop is about to run.
            var started = false
            var firstSave: Instant?
            var secondSave: Instant?
            /// When each reload ran.
            var reloads: [Instant] = []
        }
        let state = Mutex(State())
        let finished = DispatchSemaphore(value: 0)
    }

    /// How much sooner than `Daemon.reloadDelay` after the first save the second must come:
    /// the first save's reload is due `reloadDelay` after the loop read it, which is later.
    static let burstMargin = Duration.milliseconds(30)

    /// Writes `text` to `path` the way `>` does.
    static func save(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        var text = text
        text.withUTF8 { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
        close(fd)
    }

    /// Runs a daemon following config.toml (speed 30). Once its loop runs, a thread of the test
    /// saves speed 35, waits for the loop to have read that save (nothing left to read on the
    /// watcher's descriptor, which only the loop reads), then saves speed 48 as editors do (a
    /// new file renamed over), and ends the run `reloadDelay` + 0.25 s after the first reload,
    /// time for a second to come. Returns how many reloads ran and the engine's settings; nil
    /// when the second save came too late to make a burst with the first (a loaded machine).
    static func burstOfTwoSaves() throws -> (reloads: Int, configuration: Configuration, log: [String], path: String)? {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let path = directory.file("config.toml"), temporary = directory.file(".config.toml.swp")
        let source = ConfigurationSource(explicitPath: path)
        let engine = Engine(configuration: try source.load())
        let log = CollectedLog()
        let watcher = try ConfigWatcher(paths: source.watchedPaths, logger: log.logger)
        let burst = Burst()
        let daemon = try Daemon(engine: engine, wheel: RecordingWheel(), monitor: nil, logger: log.logger,
                                configurationWatcher: watcher) {
            burst.state.withLock { $0.reloads.append(Syscall.monotonicNow()) }
            return try source.reload()
        }
        // The rehearsal after READY=1 is the last line before the loop.
        log.onLine = { line in if line.contains("rehearsed the first coast") { burst.state.withLock { $0.started = true } } }
        defer { log.onLine = nil }
        let (inotify, daemonThread) = (watcher.fileDescriptor, pthread_self())
        Thread.detachNewThread {
            defer { burst.finished.signal() }
            let giveUp = Syscall.monotonicNow() + .seconds(5)
            func wait(until condition: () -> Bool) {
                while !condition() && Syscall.monotonicNow() < giveUp { usleep(1000) }
            }
            wait { burst.state.withLock { $0.started } }
            save("[scroll]\nspeed = 35\n", to: path)
            burst.state.withLock { $0.firstSave = Syscall.monotonicNow() }
            wait {
                var entry = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
                return poll(&entry, 1, 0) == 0
            }
            save("[scroll]\nspeed = 48\n", to: temporary)
            precondition(rename(temporary, path) == 0)
            burst.state.withLock { $0.secondSave = Syscall.monotonicNow() }
            wait { !burst.state.withLock { $0.reloads.isEmpty } }
            usleep(useconds_t((Daemon.reloadDelay + .milliseconds(250)).microseconds))
            pthread_kill(daemonThread, SIGTERM)
        }
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        burst.finished.wait()
        let state = burst.state.withLock { $0 }
        guard let first = state.firstSave, let second = state.secondSave,
              second - first < Daemon.reloadDelay - burstMargin else { return nil }
        return (state.reloads.count, engine.configuration, log.lines, path)
    }
}

extension DaemonLiveReloadTests {
    /// The output switched to the wheel in the file, whose device cannot be made: the touchpad
    /// runs on, and the next save of the same file tries the wheel again (it is a change from
    /// what runs, not "unchanged").
    @Test func anOutputThatCouldNotBeMadeIsTriedAgainOnTheNextSave() throws {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "[output]\nmode = \"touchpad\"\n")
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        let engine = Engine(configuration: try source.load())
        let log = CollectedLog()
        let watcher = try ConfigWatcher(paths: source.watchedPaths, logger: log.logger)
        let devices = ScriptedDevices()
        devices.present = [try devices.node(5, .touchpad, name: "SynPS/2 Synaptics TouchPad", fixture: "synaptics-t440")]
        let outputs = DaemonDeviceTests.Outputs()
        var reloads = 0
        let daemon = try Daemon(engine: engine, output: nil, makeOutput: outputs.make, monitor: devices, logger: log.logger,
                                configurationWatcher: watcher) {
            reloads += 1
            let read = try source.reload()
            if reloads == 1 {
                outputs.failure = DaemonDeviceTests.NoUinput()
                directory.write("config.toml", "[output]\nmode = \"wheel\"  # saved again\n")
            } else {
                outputs.failure = nil
                raise(SIGTERM)
            }
            return read
        }
        directory.write("config.toml", "[output]\nmode = \"wheel\"\n")
        let watchdog = DaemonWatchdog(seconds: 10)
        try daemon.run()
        watchdog.cancel()
        #expect(reloads == 2)
        #expect(log.lines.contains { $0.hasPrefix("error: keeping the touchpad output: ") }, "\(log.lines)")
        #expect(!log.lines.contains { $0.contains("the settings are unchanged") }, "\(log.lines)")
        #expect(outputs.made == [.touchpad, .wheel, .wheel], "made at start, failed, made on the second save")
        #expect(engine.output == .wheel)
    }
}
