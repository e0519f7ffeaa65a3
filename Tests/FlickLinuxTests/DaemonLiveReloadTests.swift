import FlickCore
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// The daemon's loop with a watcher: a saved file reloads it, once per burst, and a bad,
/// emptied or deleted file keeps the running settings. The reload closure sends SIGTERM, so
/// each loop ends after its one reload (about `Daemon.reloadDelay` of real time).
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

    @Test func aSavedFileIsAppliedOnceForABurstOfEvents() throws {
        let result = try Self.reload(starting: "[scroll]\nspeed = 30\n") { directory in
            directory.write("config.toml", "[scroll]\nspeed = 35\n")
            directory.replace("config.toml", "[scroll]\nspeed = 48\n")
        }
        #expect(result.reloads == 1)
        #expect(result.configuration.scroll.speed == 48)
        // Every change of the burst is named once, in order, on the one reload's line.
        #expect(result.log.contains { $0.hasSuffix("config.toml written, \(result.path) replaced: configuration reloaded") }, "\(result.log)")
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

    @Test func anUnchangedFileAppliesNothing() throws {
        let result = try Self.reload(starting: "[scroll]\nspeed = 30\n") { directory in
            directory.write("config.toml", "[scroll]\nspeed = 30  # same\n")
        }
        #expect(result.reloads == 1)
        #expect(result.log.contains { $0.contains("the settings are unchanged") }, "\(result.log)")
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
