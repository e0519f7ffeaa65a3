import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// A configuration path that names no regular file: a FIFO, a directory, a device. Its open
/// must not wait (a FIFO's blocking open waits for a writer: check-config, doctor and the
/// daemon's reload hung), and the error says what the path is.
@Suite struct ConfigFileKindTests {
    /// A FIFO made by mkfifo with nothing writing to it: the read returns at once, refused.
    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("ff.toml")
        #expect(mkfifo(path, 0o600) == 0)
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.description == "\(path): cannot read the configuration file: it is a FIFO (a named pipe), not a regular file")
        #expect(error.problems.first?.line == nil)
        // What doctor reads the configuration with, and the daemon's reload.
        #expect(throws: SystemError.self) { try TextFile.readBytes(path) }
        let source = ConfigurationSource(explicitPath: path)
        let kept = try #require(throws: ConfigurationError.self) { try source.reload() }
        #expect(kept == error)
    }

    @Test func aDirectoryOrADeviceIsNamedForWhatItIs() throws {
        let directory = ConfigScratchDirectory()
        let folder = directory.file("config.toml")
        directory.makeDirectory("config.toml")
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: folder) }
        #expect(error.description == "\(folder): cannot read the configuration file: it is a directory, not a regular file")
        // Read to the size limit, /dev/zero was "File too large".
        let zero = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: "/dev/zero") }
        #expect(zero.description == "/dev/zero: cannot read the configuration file: it is a character device, not a regular file")
    }

    /// A configuration over the 64 MiB flickd reads is named with the limit, not the system's
    /// "File too large". A sparse file: no 65 MiB is written.
    @Test func aFileOverTheLimitIsNamedWithTheLimit() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        #expect(ftruncate(fd, 65 << 20) == 0)
        close(fd)
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.description == "\(path): cannot read the configuration file: it is larger than 64 MiB, the most flickd reads")
    }

    /// /dev/null is the conventional empty file (`--config /dev/null`: the built-in defaults),
    /// as it always read.
    @Test func devNullIsAnEmptyFile() throws {
        #expect(try ConfigurationLoader.load(path: "/dev/null") == .defaults)
        #expect(try ConfigurationLoader.readText(path: "/dev/null") == "")
    }
}
