import Glibc

/// Reading whole text files (configs, recordings), through the syscall wrappers.
public enum TextFile {
    /// Files larger than this are refused: nothing flickd reads is that big, and a mistaken
    /// path (a device node, a huge log) must not eat the memory.
    public static let maximumBytes = 64 << 20

    /// The contents of `path` as UTF-8 (invalid bytes become U+FFFD).
    public static func read(_ path: String) throws(SystemError) -> String {
        let fd = try Syscall.open(path, flags: O_RDONLY | O_CLOEXEC)
        defer { Syscall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try chunk.withUnsafeMutableBytes { buffer throws(SystemError) in
                try Syscall.read(fd, into: buffer)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maximumBytes { throw SystemError(errno: EFBIG, call: "read", path: path) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
