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
        let trigger = try #require(try live.settled())
        #expect(trigger == "\(directory.file("config.toml")) written, \(directory.file("config.toml")) replaced", "\(trigger)")
        #expect(try live.settled() == nil, "one reload for the burst")
    }

    @Test func aFileWithProblemsAtStartIsAnError() {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "[coast]\ntick_rate = 5\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: directory.file("config.toml"), searchPath: []))
        #expect(throws: ConfigurationError.self) { try LiveConfiguration(source: source, watch: false, logger: Logger(label: "test")) }
    }
}
