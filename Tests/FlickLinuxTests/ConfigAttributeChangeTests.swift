import Glibc
import Testing
import FlickCore
@testable import FlickLinux

/// A change of the file's mode, owner or times (`chmod`, `touch`) is followed like a save: it
/// may make an unreadable file readable. With the text the same, the reload it brings finds
/// the settings unchanged, which the daemon logs and applies nothing for (no coast stopped).
@Suite struct ConfigAttributeChangeTests {
    @Test func aChmodReloadsAndFindsTheSettingsUnchanged() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(location: ConfigurationLocation(explicit: path, searchPath: []))
        let live = try LiveConfiguration(source: source, watch: true, logger: Logger(label: "test"))
        // A time long past on the monotonic clock: once armed, the timer has fired.
        let t0 = Instant(microseconds: 1_000_000)

        #expect(chmod(path, 0o600) == 0)
        try live.receiveChanges(at: t0)
        let trigger = try #require(try live.settled(at: t0 + LiveConfiguration.settleDelay))
        #expect(trigger == "\(path) attributes changed")
        guard case .unchanged(let same) = live.reload(unlessUnchanged: true) else {
            Issue.record("a chmod that leaves the text as it was changed the settings")
            return
        }
        #expect(same.scroll.speed == 30)
    }
}
