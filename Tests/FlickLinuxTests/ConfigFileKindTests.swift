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

    /// A bound AF_UNIX socket: its open fails (ENXIO) before the file's kind is looked at, and
    /// the message was the system's "No such device or address (errno 6)".
    @Test func aSocketIsNamedForWhatItIs() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("sock.toml")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0, "bind \(path): errno \(errno)")

        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.description == "\(path): cannot read the configuration file: it is a socket, not a regular file")
        #expect(error.problems.first?.line == nil)
        // Doctor reads it the same way, and names it from the same errno.
        let refused = try #require(throws: SystemError.self) { try TextFile.readBytes(path) }
        #expect(refused.errno == TextFile.notRegularFile)
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

    /// A regular file over the limit is refused by its size, before any of it is read: it was
    /// read to 64 MiB first (RSS +67 MB). What this thread read is counted by the kernel
    /// (/proc/thread-self/io, rchar); a test without a suspension point stays on one thread.
    /// A sparse file: no gigabyte is written.
    @Test func aFileOverTheLimitIsRefusedWithoutReadingIt() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("huge.toml")
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        #expect(ftruncate(fd, 1 << 30) == 0)
        close(fd)
        let limit = "it is larger than 64 MiB, the most flickd reads"

        let before = try #require(Self.bytesReadByThisThread())
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        let read = try #require(Self.bytesReadByThisThread()) - before
        #expect(error.description == "\(path): cannot read the configuration file: \(limit)")
        #expect(read < 1 << 20, "the configuration's reader read \(read) bytes of a 1 GiB file it refuses")

        // The reader of recordings (`flickd replay FILE`) the same.
        let replayBefore = try #require(Self.bytesReadByThisThread())
        let refused = try #require(throws: SystemError.self) { try TextFile.read(path) }
        let replayRead = try #require(Self.bytesReadByThisThread()) - replayBefore
        #expect(TextFile.reason(for: refused) == limit)
        #expect(replayRead < 1 << 20, "TextFile.read read \(replayRead) bytes of a 1 GiB file it refuses")
    }

    /// The bytes the calling thread has read (`rchar` of /proc/thread-self/io: every read(2),
    /// from any file), or nil where the kernel does not say.
    static func bytesReadByThisThread() -> Int? {
        let fd = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let line = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("rchar:") }
        return line.flatMap { Int($0.dropFirst("rchar:".count).trimmingWhitespace) }
    }

    /// /dev/null is the conventional empty file (`--config /dev/null`: the built-in defaults),
    /// as it always read.
    @Test func devNullIsAnEmptyFile() throws {
        #expect(try ConfigurationLoader.load(path: "/dev/null") == .defaults)
        #expect(try ConfigurationLoader.readText(path: "/dev/null") == "")
    }
}
