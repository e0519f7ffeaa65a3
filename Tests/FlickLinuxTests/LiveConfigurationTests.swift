import Glibc
import Testing
import FlickCore
@testable import FlickLinux

/// The one type a running daemon asks for its settings: loaded at start, read again on a
/// change, the last good settings kept when a read fails.
@Suite struct LiveConfigurationTests {
    @Test func loadsTheFileTheLocationPicksAndKeepsTheLastGoodSettings() throws {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: directory.file("config.toml"), searchPath: []))
        let live = try LiveConfiguration(source: source, watch: false, logger: Logger(label: "test"))
        #expect(live.current.scroll.speed == 30 && live.path == directory.file("config.toml"))
        #expect(live.watcher == nil && live.settleTimer == nil)

        directory.write("config.toml", "[scroll]\nspeed = 5000\n")
        guard case .kept(let error) = live.reload(unlessUnchanged: true) else {
            Issue.record("a bad file was taken")
            return
        }
        #expect("\(error)".contains("config.toml:2: scroll.speed = 5000 is out of range"), "\(error)")
        #expect(live.current.scroll.speed == 30, "the last good settings stay")

        directory.write("config.toml", "[scroll]\nspeed = 30 # same\n")
        guard case .unchanged = live.reload(unlessUnchanged: true) else {
            Issue.record("an unchanged file was not reported as unchanged")
            return
        }
        directory.write("config.toml", "[scroll]\nspeed = 40\n")
        guard case .changed(let new) = live.reload(unlessUnchanged: true) else {
            Issue.record("a new file was not taken")
            return
        }
        #expect(new.scroll.speed == 40 && live.current.scroll.speed == 40)
    }

    @Test("a change arms the settle timer settleDelay after it, a later change moves it on, and the reload names both")
    func aBurstSettlesAfterItsLastChange() throws {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: directory.file("config.toml"), searchPath: []))
        let live = try LiveConfiguration(source: source, watch: true, logger: Logger(label: "test"))
        let timer = try #require(live.settleTimer)
        // Times long past on the monotonic clock: once armed, the timer has fired.
        let t0 = Instant(microseconds: 1_000_000)
        directory.write("config.toml", "[scroll]\nspeed = 35\n")
        try live.receiveChanges(at: t0)
        #expect(timer.deadline == t0 + LiveConfiguration.settleDelay)
        directory.replace("config.toml", "[scroll]\nspeed = 48\n")
        try live.receiveChanges(at: t0 + .milliseconds(100))
        #expect(timer.deadline == t0 + .milliseconds(100) + LiveConfiguration.settleDelay, "the wait starts again")
        try live.receiveChanges(at: t0 + .milliseconds(120))
        #expect(timer.deadline == t0 + .milliseconds(100) + LiveConfiguration.settleDelay, "no change, no new wait")
        let trigger = try #require(try live.settled(at: t0 + .milliseconds(250)))
        #expect(trigger == "\(directory.file("config.toml")) written, \(directory.file("config.toml")) replaced", "\(trigger)")
        #expect(try live.settled(at: t0 + .milliseconds(260)) == nil, "one reload for the burst")
    }

    /// `directory`'s config.toml (speed 30), loaded and followed: its path, the live
    /// configuration and its settle timer.
    static func following(_ directory: ConfigScratchDirectory) throws -> (path: String, live: LiveConfiguration, timer: DeadlineTimer) {
        let path = directory.file("config.toml")
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: path, searchPath: []))
        let live = try LiveConfiguration(source: source, watch: true, logger: Logger(label: "test"))
        return (path, live, try #require(live.settleTimer))
    }

    /// A file linked in complete, its first name then removed (Python's atomicwrites): no
    /// close comes under its name, and it is read once it has stayed the same for
    /// `unclosedQuiet`; one still being written waits while it grows, and its close is read
    /// at the settle delay.
    @Test func aFileCreatedWithoutACloseIsReadOnceItIsQuiet() throws {
        let directory = ConfigScratchDirectory()
        let (path, live, timer) = try Self.following(directory)
        let t0 = Instant(microseconds: 1_000_000)
        #expect(unlink(path) == 0)
        _ = try live.watcher?.receive()

        directory.write("config.toml.tmp", "[scroll]\nspeed = 35\n")
        #expect(link(directory.file("config.toml.tmp"), path) == 0)
        #expect(unlink(directory.file("config.toml.tmp")) == 0)
        try live.receiveChanges(at: t0)
        #expect(timer.deadline == t0 + LiveConfiguration.settleDelay)
        let first = t0 + LiveConfiguration.settleDelay
        #expect(try live.settled(at: first) == nil, "looked at once: not yet known to be quiet")
        #expect(timer.deadline == first + LiveConfiguration.unclosedQuiet)
        let trigger = try #require(try live.settled(at: first + LiveConfiguration.unclosedQuiet), "unchanged since: read")
        #expect(trigger == "\(path) created (no close seen)", "\(trigger)")

        // Created and still open: it grows between the looks, then its close comes.
        #expect(unlink(path) == 0)
        _ = try live.watcher?.receive()
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        #expect(write(fd, "[scroll]\n", 9) == 9)
        let t1 = t0 + .seconds(10)
        try live.receiveChanges(at: t1)
        #expect(try live.settled(at: t1 + LiveConfiguration.settleDelay) == nil)
        #expect(write(fd, "speed = 40\n", 11) == 11)
        let t2 = t1 + LiveConfiguration.settleDelay + LiveConfiguration.unclosedQuiet
        #expect(try live.settled(at: t2) == nil, "it grew: still being written")
        #expect(timer.deadline == t2 + LiveConfiguration.unclosedQuiet)
        close(fd)
        try live.receiveChanges(at: t2 + .milliseconds(10))
        #expect(timer.deadline == t2 + .milliseconds(10) + LiveConfiguration.settleDelay, "the close: the settle delay")
        let closed = try #require(try live.settled(at: t2 + .milliseconds(10) + LiveConfiguration.settleDelay))
        #expect(closed == "\(path) written", "the close says more than the creation: \(closed)")
    }

    /// A file removed and then created again, still open, in the same burst (`rm` then a slow
    /// `cat >`): its last change is the creation, which waits to be quiet or closed; the removal
    /// pending beside it, or a second creation event, does not make it read half-written.
    @Test func aRemovalBeforeACreationWithoutACloseStillWaits() throws {
        let directory = ConfigScratchDirectory()
        let (path, live, timer) = try Self.following(directory)
        let t0 = Instant(microseconds: 1_000_000)
        #expect(unlink(path) == 0)
        try live.receiveChanges(at: t0)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(write(fd, "[scroll]\n", 9) == 9)
        try live.receiveChanges(at: t0 + .milliseconds(20))
        let first = t0 + .milliseconds(20) + LiveConfiguration.settleDelay
        #expect(timer.deadline == first)
        #expect(try live.settled(at: first) == nil, "created and not closed: not read at the settle delay")
        #expect(timer.deadline == first + LiveConfiguration.unclosedQuiet)

        // The writer goes on; the kernel reports nothing new (no close yet): still not quiet.
        #expect(write(fd, "speed = 40\n", 11) == 11)
        #expect(try live.settled(at: first + LiveConfiguration.unclosedQuiet) == nil, "it grew")
        let quiet = first + LiveConfiguration.unclosedQuiet + LiveConfiguration.unclosedQuiet
        let trigger = try #require(try live.settled(at: quiet), "unchanged for a second: read")
        #expect(trigger == "\(path) removed, \(path) created (no close seen)", "\(trigger)")
    }

    /// The watcher's batches keep each change at its last place.
    @Test func aChangeRepeatedKeepsItsLastPlace() {
        typealias Change = ConfigWatcher.Change
        let created = Change(path: "/c/config.toml", kind: .createdUnclosed)
        let written = Change(path: "/c/config.toml", kind: .written)
        let removed = Change(path: "/c/config.toml", kind: .removed)
        let batch = [created, written, removed, created]
        #expect(ConfigWatcher.latest(batch) == [written, removed, created])
        #expect(ConfigWatcher.closingCreations(ConfigWatcher.latest(batch)) == [written, removed, created],
                "the last creation is the file's last word")
        #expect(ConfigWatcher.closingCreations([created, written]) == [written], "its close says more")
    }

    /// A save, and SIGHUP in its settle delay: the reload reads the save, and the delay ending
    /// after it reloads nothing more (it reloaded the same save again: a second RELOADING=1,
    /// READY=1, and its errors logged twice).
    @Test func aReloadInASavesSettleDelayIsItsOnlyReload() throws {
        let directory = ConfigScratchDirectory()
        let (_, live, timer) = try Self.following(directory)
        let t0 = Instant(microseconds: 1_000_000)
        directory.write("config.toml", "[scroll]\nspeed = 35\n")
        try live.receiveChanges(at: t0)
        #expect(timer.deadline == t0 + LiveConfiguration.settleDelay)
        guard case .changed(let new) = live.reload(unlessUnchanged: false) else {
            Issue.record("SIGHUP did not read the save")
            return
        }
        #expect(new.scroll.speed == 35)
        #expect(timer.deadline == nil, "nothing left to settle")
        #expect(try live.settled(at: t0 + .milliseconds(200)) == nil, "the save was read already")

        // The next save settles as any does.
        directory.write("config.toml", "[scroll]\nspeed = 40\n")
        try live.receiveChanges(at: t0 + .seconds(1))
        let trigger = try #require(try live.settled(at: t0 + .seconds(1) + LiveConfiguration.settleDelay))
        #expect(trigger == "\(directory.file("config.toml")) written", "\(trigger)")
    }

    /// An editor saves while flickd reads the file at start, right after the read: the watch,
    /// made before the read, reports the save, and it is reloaded when it settles. (Watched
    /// only after the read, the save was seen by nothing: the old text ran until the next save.)
    @Test func aSaveDuringTheReadAtStartIsReloaded() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: path, searchPath: []))
        let live = try LiveConfiguration(source: source, watch: true, logger: Logger(label: "test")) { source in
            let configuration = try source.load()
            directory.write("config.toml", "[scroll]\nspeed = 40\n")
            return configuration
        }
        #expect(live.current.scroll.speed == 30, "the text read")
        let timer = try #require(live.settleTimer)
        let t0 = Instant(microseconds: 1_000_000)
        try live.receiveChanges(at: t0)
        #expect(timer.deadline == t0 + LiveConfiguration.settleDelay, "the save is seen")
        let trigger = try #require(try live.settled(at: t0 + LiveConfiguration.settleDelay), "the save settles")
        #expect(trigger == "\(path) written", "\(trigger)")
        guard case .changed(let new) = live.reload(unlessUnchanged: true) else {
            Issue.record("the save was not taken")
            return
        }
        #expect(new.scroll.speed == 40)
    }

    @Test func aFileWithProblemsAtStartIsAnError() {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "[coast]\ntick_rate = 5\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: directory.file("config.toml"), searchPath: []))
        #expect(throws: ConfigurationError.self) { try LiveConfiguration(source: source, watch: false, logger: Logger(label: "test")) }
    }
}

extension LiveConfigurationTests {
    /// A directory above the file's renamed, and another made in its place with the file in it
    /// (`mv ~/.config ~/.config.old`, then a fresh one): nothing tells the watcher, whose watch
    /// stays on the renamed directory. A reload (SIGHUP, or any save seen) looks at the way
    /// again and watches the directory the name leads to now.
    @Test func aReloadWatchesTheDirectoryTheNameLeadsToNow() throws {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("config")
        directory.makeDirectory("config/flickd")
        let path = directory.file("config/flickd/config.toml")
        directory.write("config/flickd/config.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: path, searchPath: []))
        let live = try LiveConfiguration(source: source, watch: true, logger: Logger(label: "test"))
        let watcher = try #require(live.watcher)

        directory.rename("config", "config.old")
        directory.makeDirectory("config")
        directory.makeDirectory("config/flickd")
        directory.write("config/flickd/config.toml", "[scroll]\nspeed = 40\n")
        #expect(try watcher.receive() == [], "no event reaches the watch on the renamed directory")

        guard case .changed(let new) = live.reload(unlessUnchanged: true) else {
            Issue.record("the new file was not taken")
            return
        }
        #expect(new.scroll.speed == 40)
        directory.write("config/flickd/config.toml", "[scroll]\nspeed = 45\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)], "the new directory is watched")
        directory.write("config.old/flickd/config.toml", "[scroll]\nspeed = 50\n")
        #expect(try watcher.receive() == [], "the renamed one no longer is")
        #expect(watcher.watchedDirectories == [directory.file("config/flickd")])
    }
}
