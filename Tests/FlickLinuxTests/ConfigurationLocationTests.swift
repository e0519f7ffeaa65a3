import Testing
@testable import FlickLinux

/// The one rule for which file the commands read: `--config`, then the user's file
/// (XDG_CONFIG_HOME, else HOME), then /etc's, then the built-in defaults.
@Suite struct ConfigurationLocationTests {
    /// An environment holding only `variables`.
    static func environment(_ variables: [String: String]) -> (String) -> String? { { variables[$0] } }

    @Test func theSearchPathFollowsXDGConfigHomeThenHome() {
        let both = ConfigurationLocation(explicit: nil, environment: Self.environment(["XDG_CONFIG_HOME": "/x", "HOME": "/home/ada"]))
        #expect(both.searchPath == ["/x/flickd/config.toml", "/etc/flickd/config.toml"])
        let home = ConfigurationLocation(explicit: nil, environment: Self.environment(["HOME": "/home/ada"]))
        #expect(home.searchPath == ["/home/ada/.config/flickd/config.toml", "/etc/flickd/config.toml"])
        let relative = ConfigurationLocation(explicit: nil, environment: Self.environment(["XDG_CONFIG_HOME": "conf", "HOME": "/home/ada"]))
        #expect(relative.searchPath.first == "/home/ada/.config/flickd/config.toml", "a relative XDG_CONFIG_HOME is ignored, as the spec says")
        let none = ConfigurationLocation(explicit: nil, environment: Self.environment(["HOME": ""]))
        #expect(none.searchPath == ["/etc/flickd/config.toml"])
    }

    @Test func theFirstExistingFileWinsElseTheDefaults() {
        let location = ConfigurationLocation(explicit: nil, environment: Self.environment(["HOME": "/home/ada"]))
        let user = "/home/ada/.config/flickd/config.toml"
        #expect(location.resolve { _ in true } == user)
        #expect(location.resolve { $0 == ConfigurationLocation.systemPath } == ConfigurationLocation.systemPath)
        #expect(location.resolve { _ in false } == nil, "nil: the built-in defaults")
        #expect(location.watchedPaths == [user, ConfigurationLocation.systemPath])
        #expect(location.searched == "\(user), /etc/flickd/config.toml")
    }

    @Test func anExplicitFileIsTheOnlyOneEvenWhenMissing() {
        let location = ConfigurationLocation(explicit: "my.toml", environment: Self.environment(["HOME": "/home/ada"]))
        var asked: [String] = []
        #expect(location.resolve { asked.append($0); return false } == "my.toml", "reading it reports that it is missing")
        #expect(asked.isEmpty, "nothing is searched")
        #expect(location.watchedPaths == ["my.toml"])
    }

    @Test func replaySearchesNothing() {
        #expect(ConfigurationLocation.explicitOnly(nil).resolve { _ in true } == nil)
        #expect(ConfigurationLocation.explicitOnly("r.toml").resolve { _ in false } == "r.toml")
    }

    @Test func theDaemonsSourceAndTheDoctorFollowTheSameRule() throws {
        let directory = ConfigScratchDirectory()
        let (user, system) = (directory.file("user.toml"), directory.file("system.toml"))
        directory.write("system.toml", "[scroll]\nspeed = 30\n")
        let location = ConfigurationLocation(explicit: nil, searchPath: [user, system])
        let source = ConfigurationSource(location: location)
        #expect(try source.load().scroll.speed == 30)
        #expect(source.path == system && location.resolve() == system)
    }
}
