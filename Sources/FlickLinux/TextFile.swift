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
        // A raw buffer rather than [UInt8].withUnsafeMutableBytes, whose rethrows would turn the
        // typed SystemError into any Error.
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try Syscall.read(fd, into: chunk)
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maximumBytes { throw SystemError(errno: EFBIG, call: "read", path: path) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension TextFile {
    /// Writes `text` (UTF-8) to `path`, replacing what was there.
    public static func write(_ text: String, to path: String) throws(SystemError) {
        var text = text
        // withUTF8 rethrows as `any Error`, so the typed error is carried out by hand.
        let failure: SystemError? = text.withUTF8 { bytes in
            do throws(SystemError) {
                try Syscall.writeFile(path, UnsafeRawBufferPointer(bytes))
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }
}
