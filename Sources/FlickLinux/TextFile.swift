import Glibc

/// Reading whole text files (configs, recordings), through the syscall wrappers.
public enum TextFile {
    /// Files larger than this are refused: nothing flickd reads is that big, and a mistaken
    /// path (a device node, a huge log) must not eat the memory.
    public static let maximumBytes = 64 << 20

    /// The contents of `path` as UTF-8 (invalid bytes become U+FFFD).
    public static func read(_ path: String) throws(SystemError) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// The bytes of `path`, at most `maximumBytes`.
    public static func readBytes(_ path: String) throws(SystemError) -> [UInt8] {
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
        return bytes
    }

    /// Where `bytes` stop being UTF-8: the offset of the first byte of the first sequence that
    /// is not a well-formed scalar (a stray byte, a truncated or overlong sequence, a
    /// surrogate), or nil when all of it is UTF-8.
    public static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
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
