import Glibc
import Testing
import FlickCore
@testable import FlickLinux

/// What a running daemon reads: the file picked again on each reload, and a file gone or
/// emptied keeping the running settings.
@Suite struct ConfigurationSourceTests {
    @Test func noFileMeansTheDefaultsUntilOneIsCreated() throws {
        let directory = ConfigScratchDirectory()
        let (user, system) = (directory.file("user.toml"), directory.file("system.toml"))
        let source = ConfigurationSource(explicitPath: nil, searchPath: [user, system])
        #expect(source.watchedPaths == [user, system])
        #expect(try source.load() == .defaults)
        #expect(source.path == nil)
        #expect(try source.reload() == .defaults)

        directory.write("system.toml", "[scroll]\nspeed = 30\n")
        #expect(try source.reload().scroll.speed == 30)
        #expect(source.path == system)
        directory.write("user.toml", "[scroll]\nspeed = 40\n")
        #expect(try source.reload().scroll.speed == 40, "the user's file comes first")
        #expect(source.path == user)
    }

    @Test func aFileGoneKeepsTheRunningSettingsUntilItIsBack() throws {
        let directory = ConfigScratchDirectory()
        let (user, system) = (directory.file("user.toml"), directory.file("system.toml"))
        directory.write("user.toml", "[scroll]\nspeed = 40\n")
        directory.write("system.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(explicitPath: nil, searchPath: [user, system])
        #expect(try source.load().scroll.speed == 40)

        directory.remove("user.toml")
        let error = try #require(throws: ConfigurationError.self) { try source.reload() }
        #expect(error.description == "\(user): the file is gone (deleted, or renamed away by an editor); the running settings stay until it is back (restart flickd to run without it)")
        #expect(source.path == user, "still the file in use: not /etc's, not the defaults")

        directory.write("user.toml", "[scroll]\nspeed = 45\n")
        #expect(try source.reload().scroll.speed == 45)
    }

    /// /etc's file deleted while a user's file now stands before it: the user's file is read,
    /// as it would be with /etc's still there; only a gone file's stand-ins later in the search
    /// path (or the defaults) wait for a restart.
    @Test func aFileGoneGivesWayToOneBeforeIt() throws {
        let directory = ConfigScratchDirectory()
        let (user, system) = (directory.file("user.toml"), directory.file("system.toml"))
        directory.write("system.toml", "[scroll]\nspeed = 30\n")
        let source = ConfigurationSource(explicitPath: nil, searchPath: [user, system])
        #expect(try source.load().scroll.speed == 30)
        #expect(source.path == system)

        directory.remove("system.toml")
        #expect(throws: ConfigurationError.self, "no file before it: the running settings stay") { try source.reload() }
        directory.write("user.toml", "[scroll]\nspeed = 40\n")
        #expect(try source.reload().scroll.speed == 40)
        #expect(source.path == user)
    }

    @Test func anEmptyFileIsTheDefaultsAtStartButKeepsTheSettingsOnReload() throws {
        let directory = ConfigScratchDirectory()
        directory.write("config.toml", "")
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        #expect(try source.load() == .defaults)

        directory.write("config.toml", "[scroll]\nspeed = 40\n")
        #expect(try source.reload().scroll.speed == 40)
        // Blank as a shell, a Windows editor, or one that writes a byte order mark first leaves it.
        for blank in [" \n\t\n", "\r\n\r\n", "\u{FEFF}", "\u{FEFF}\r\n"] {
            directory.write("config.toml", blank)
            let error = try #require(throws: ConfigurationError.self, "\(blank.unicodeScalars.map { String($0.value, radix: 16) })") {
                try source.reload()
            }
            #expect(error.problems.first?.message.hasPrefix("the file is empty (perhaps half-written); the running settings stay") == true)
        }
        directory.write("config.toml", "# the defaults\n")
        #expect(try source.reload() == .defaults, "a comment says the defaults are meant")
    }

    /// A link left pointing nowhere (a dotfiles folder moved) is the user's file, unreadable:
    /// not a reason to run /etc's settings, or the defaults, as if there were none.
    @Test func aSymbolicLinkToNothingIsReportedNotPassedOver() throws {
        let directory = ConfigScratchDirectory()
        let (user, system) = (directory.file("user.toml"), directory.file("system.toml"))
        directory.write("system.toml", "[scroll]\nspeed = 30\n")
        #expect(symlink(directory.file("moved/flickd.toml"), user) == 0)
        let source = ConfigurationSource(explicitPath: nil, searchPath: [user, system])
        let error = try #require(throws: ConfigurationError.self) { try source.load() }
        #expect(error.description == "\(user): cannot read the configuration file: it is a symbolic link to \(directory.file("moved/flickd.toml")), which does not exist")

        directory.remove("user.toml")
        directory.write("user.toml", "[scroll]\nspeed = 40\n")
        #expect(try source.load().scroll.speed == 40)
        directory.remove("user.toml")
        #expect(symlink(directory.file("moved/flickd.toml"), user) == 0)
        let kept = try #require(throws: ConfigurationError.self, "a reload keeps the running settings") { try source.reload() }
        #expect(kept.description.hasSuffix("which does not exist"), "\(kept)")
        #expect(source.path == user)
    }

    @Test func problemsAndAnExplicitFileThatIsMissing() throws {
        let directory = ConfigScratchDirectory()
        let source = ConfigurationSource(explicitPath: directory.file("config.toml"))
        #expect(source.watchedPaths == [directory.file("config.toml")])
        #expect(throws: ConfigurationError.self) { try source.load() }
        directory.write("config.toml", "[coast]\ntick_rate = 5\n")
        let error = try #require(throws: ConfigurationError.self) { try source.reload() }
        #expect(error.description == "\(directory.file("config.toml")):2: coast.tick_rate = 5 is out of range (10 <= rate <= 1000); 120 is the default")
    }
}
