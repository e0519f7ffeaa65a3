import Glibc

/// Reading whole text files (configs, recordings), through the syscall wrappers.
public enum TextFile {
    /// Files larger than this are refused: nothing flickd reads is that big, and a mistaken
    /// path (a device node, a huge log) must not eat the memory.
    public static let maximumBytes = 64 << 20

    /// The contents of `path` as UTF-8 (invalid bytes become U+FFFD). Any file that reads:
    /// a recording may come through a pipe (`flickd replay <(...)`), whose open waits for a writer.
    /// At most `maximumBytes`: a regular file over it is refused by its size, unread.
    public static func read(_ path: String) throws(SystemError) -> String {
        let fd = try Syscall.open(path, flags: O_RDONLY | O_CLOEXEC)
        defer { Syscall.close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0 { try refuseOversized(status, path: path) }
        return String(decoding: try readAll(fd, path: path), as: UTF8.self)
    }

    /// Standard input to its end as UTF-8 (invalid bytes become U+FFFD), at most
    /// `maximumBytes`: `flickd replay -`. Read from descriptor 0 itself, not reopened as
    /// /dev/stdin, which fails for a socket.
    public static func readStandardInput() throws(SystemError) -> String {
        String(decoding: try readAll(STDIN_FILENO, path: "standard input"), as: UTF8.self)
    }

    /// Why a read of `TextFile` failed, for a message after the file's name ("cannot read
    /// big.yml: ..."): the C library's text for the errno, but for a file over
    /// `maximumBytes`, whose EFBIG (which no open or read of the system's gives) reads "File
    /// too large" without saying what limit it passed.
    public static func reason(for error: SystemError) -> String {
        guard error.errno == EFBIG else { return error.reason }
        return "it is larger than \(maximumBytes >> 20) MiB, the most flickd reads"
    }

    /// The bytes of the regular file at `path` (the configuration's reader: check-config, doctor,
    /// the daemon's start and reload), at most `maximumBytes`; /dev/null reads as an empty file.
    ///
    /// The open does not block (O_NONBLOCK): a FIFO's would wait for a writer, and held
    /// check-config, doctor and the daemon's SIGHUP reload. Anything else that is no regular
    /// file is refused after the open (`notRegularFile`): a FIFO, a socket or a device (reading
    /// /dev/zero to the size limit, or a tty, helps no one), and a directory. A socket, and a
    /// device node with no driver behind it, cannot be opened at all (ENXIO, ENODEV: "No such
    /// device or address"): refused the same. A regular file over `maximumBytes` is refused by
    /// its size, before any of it is read.
    /// - Throws: `SystemError`: the open or read failed, or `path` is no regular file, with
    ///   errno EISDIR for a directory, else `notRegularFile`; `kind(of:)` names it. EFBIG for a
    ///   file over `maximumBytes` (`reason(for:)`).
    public static func readBytes(_ path: String) throws(SystemError) -> [UInt8] {
        let fd: Int32
        do throws(SystemError) {
            fd = try Syscall.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            // The open fails before the fstat below could say what the path is.
            if error.errno == ENXIO || error.errno == ENODEV, kind(of: path) != nil {
                throw SystemError(errno: notRegularFile, call: "open", path: path)
            }
            throw error
        }
        defer { Syscall.close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError(errno: errno, call: "fstat", path: path) }
        if status.st_mode & S_IFMT != S_IFREG && !isNullDevice(status) {
            throw SystemError(errno: status.st_mode & S_IFMT == S_IFDIR ? EISDIR : notRegularFile, call: "open", path: path)
        }
        try refuseOversized(status, path: path)
        return try readAll(fd, path: path)
    }

    /// Throws EFBIG when `status` is a regular file's over `maximumBytes`: read first, it
    /// would take that much memory before the limit was seen. A file that grows while it is
    /// read is still stopped by `readAll`.
    private static func refuseOversized(_ status: stat, path: String) throws(SystemError) {
        if status.st_mode & S_IFMT == S_IFREG && status.st_size > maximumBytes {
            throw SystemError(errno: EFBIG, call: "read", path: path)
        }
    }

    /// The errno `readBytes` throws for a path that is neither a regular file nor a directory
    /// (EINVAL, as no errno says "a FIFO"): `kind(of:)` names what it is.
    public static let notRegularFile = EINVAL

    /// What `path` is when it is no regular file, as a message names it ("a FIFO (a named
    /// pipe)", "a directory", "a character device"...); nil for a regular file or a path that
    /// cannot be looked at. A symbolic link is followed, as an open follows it.
    public static func kind(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (a named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a file"
        }
    }

    /// Whether `status` is /dev/null's (a character device with its number): an empty file by
    /// convention (`--config /dev/null` for the built-in defaults).
    private static func isNullDevice(_ status: stat) -> Bool {
        var null = stat()
        return status.st_mode & S_IFMT == S_IFCHR && stat("/dev/null", &null) == 0
            && null.st_mode & S_IFMT == S_IFCHR && null.st_rdev == status.st_rdev
    }

    /// The bytes of the open `fd` (of `path`, for messages) to its end, at most `maximumBytes`.
    private static func readAll(_ fd: Int32, path: String) throws(SystemError) -> [UInt8] {
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
