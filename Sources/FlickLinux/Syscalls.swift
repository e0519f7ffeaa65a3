import CShim
import FlickCore
import Glibc

/// A system call that failed: which call, on which file, and the `errno` it set.
///
/// Every syscall flickd makes goes through `Syscall`, which retries `EINTR` and turns a
/// failure into this error; code above it never sees a raw errno.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The errno value (`EACCES`, `ENODEV`, ...), always positive.
    public var errno: Int32
    /// The call that failed, e.g. `"open"` or `"epoll_wait"`.
    public var call: String
    /// The file the call was about, when there is one.
    public var path: String?

    /// The failure of `call` (on `path`) with `errno`.
    public init(errno: Int32, call: String, path: String? = nil) {
        self.errno = errno
        self.call = call
        self.path = path
    }

    /// The C library's text for the errno, e.g. "Permission denied".
    public var reason: String { String(cString: strerror(errno)) }

    /// `"open /dev/uinput: No such file or directory"`.
    public var description: String {
        if let path { return "\(call) \(path): \(reason)" }
        return "\(call): \(reason)"
    }

    /// The caller lacks permission (`EACCES`, `EPERM`).
    public var isPermissionDenied: Bool { errno == EACCES || errno == EPERM }

    /// The file or device is not there (`ENOENT`, `ENODEV`, `ENXIO`).
    public var isMissing: Bool { errno == ENOENT || errno == ENODEV || errno == ENXIO }

    /// The call would have blocked (`EAGAIN`).
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}

/// Thin wrappers around the syscalls flickd makes. Each retries `EINTR` and throws
/// `SystemError` for a failure. Nothing here allocates on success.
enum Syscall {
    /// Runs `body` until it does not fail with EINTR; a negative result is a failure described
    /// by `errno`.
    @inline(__always)
    static func retrying<Result: BinaryInteger>(
        _ call: String, path: String? = nil, _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemError(errno: code, call: call, path: path)
        }
    }

    /// For library calls that return `-errno` instead of setting errno (libevdev).
    static func check(_ result: Int32, _ call: String, path: String? = nil) throws(SystemError) {
        if result < 0 { throw SystemError(errno: -result, call: call, path: path) }
    }

    // MARK: Files

    /// `open(path, flags)`; returns the new file descriptor.
    static func open(_ path: String, flags: Int32) throws(SystemError) -> Int32 {
        try retrying("open", path: path) { Glibc.open(path, flags) }
    }

    /// Whether `path` exists (`access(path, F_OK)`): a symbolic link only when what it leads to does.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether there is a directory entry at `path` (`lstat`): a symbolic link counts,
    /// wherever it leads.
    static func hasEntry(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// What the symbolic link at `path` holds (`readlink`); nil when `path` is none.
    static func symbolicLinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count) }
        return count >= 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// The bytes of `path`'s extended attribute `name` (`system.posix_acl_access`, where udev's
    /// uaccess puts the seat user's entry), up to `limit`; nil without one, or when it cannot be
    /// read.
    static func extendedAttribute(_ path: String, _ name: String, limit: Int = 1024) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: limit)
        let size = bytes.withUnsafeMutableBytes { getxattr(path, name, $0.baseAddress, $0.count) }
        return size > 0 ? Array(bytes[..<size]) : nil
    }

    /// `close(fd)`. Never retried and never fails: on Linux the descriptor is released even
    /// when close reports an error, so there is nothing a caller could do.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// `read(fd, buffer)`; returns the byte count (0 at end of file).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try retrying("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// `write(fd, buffer)`; returns the byte count written.
    static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try retrying("write") { Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    // MARK: epoll

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    static func epollCreate() throws(SystemError) -> Int32 {
        try retrying("epoll_create1") { epoll_create1(cshim_epoll_cloexec) }
    }

    /// Watches `fd` for input (or `events`); `token` comes back from `epollWait` when it is ready.
    static func epollAdd(_ epoll: Int32, _ fd: Int32, token: UInt64, events: UInt32 = cshim_epollin) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        _ = try retrying("epoll_ctl") { epoll_ctl(epoll, cshim_epoll_ctl_add, fd, &event) }
    }

    /// Stops watching `fd`.
    static func epollRemove(_ epoll: Int32, _ fd: Int32) throws(SystemError) {
        var event = epoll_event()  // ignored, but kernels before 2.6.9 wanted it non-null
        _ = try retrying("epoll_ctl") { epoll_ctl(epoll, cshim_epoll_ctl_del, fd, &event) }
    }

    /// `epoll_wait`: blocks until one of the watched descriptors is ready, or for
    /// `timeoutMilliseconds` (-1: no timeout). Returns how many entries of `events` were filled.
    static func epollWait(
        _ epoll: Int32, into events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32
    ) throws(SystemError) -> Int {
        Int(try retrying("epoll_wait") {
            epoll_wait(epoll, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        })
    }

    // MARK: Memory

    /// Gives the heap's free pages back to the kernel (`malloc_trim(0)`). glibc keeps freed
    /// memory until more than 128 KiB lie free at the top of the heap, so the peak of a
    /// configuration reload (the file's text, the parser's tree, the log lines) would otherwise
    /// stay resident: 132 KiB (docs/PERFORMANCE.md). Call it after such one-off work, never per
    /// event.
    static func releaseFreeHeap() {
        _ = malloc_trim(0)
    }

    /// Gives `advice` (`MADV_RANDOM`, `MADV_DONTNEED`) for the pages from `start` to `end`.
    static func adviseMemory(from start: UInt, to end: UInt, _ advice: Int32) throws(SystemError) {
        let pointer = UnsafeMutableRawPointer(bitPattern: start)
        try check(madvise(pointer, Int(end - start), advice), "madvise")
    }

    /// Drops the page-cache pages of the file at `path` that no process maps
    /// (`posix_fadvise(POSIX_FADV_DONTNEED)` over the whole file).
    static func dropCachedPages(of path: String) throws(SystemError) {
        let fd = try open(path, flags: O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        // posix_fadvise returns the error number instead of setting errno.
        let result = posix_fadvise(fd, 0, 0, cshim_posix_fadv_dontneed)
        if result != 0 { throw SystemError(errno: result, call: "posix_fadvise", path: path) }
    }

    // MARK: Clock and timerfd

    /// The current time on CLOCK_MONOTONIC, the clock evdev timestamps and timerfd use.
    static func monotonicNow() -> Instant {
        var now = timespec()
        // Cannot fail for CLOCK_MONOTONIC with a valid pointer.
        _ = clock_gettime(cshim_clock_monotonic, &now)
        return Instant(microseconds: Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)
    }

    /// How long the machine has been suspended since it booted: CLOCK_BOOTTIME, which counts a
    /// suspend, less CLOCK_MONOTONIC, which does not. Both are slewed alike, so nothing else
    /// moves the difference.
    ///
    /// CLOCK_BOOTTIME is read between two reads of CLOCK_MONOTONIC and measured against their
    /// midpoint: a thread preempted between two plain reads would make the difference short by
    /// the time it waited, and the next reading would seem to have grown by that much (a
    /// "suspend" that stops the coast). Where the two monotonic reads lie more than 0.1 ms
    /// apart the reading is taken again, up to three times, keeping the closest pair.
    static func suspendedSinceBoot() -> Duration {
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
        func reading() -> (difference: Int64, spread: Int64) {
            var before = timespec(), boot = timespec(), after = timespec()
            // Cannot fail for these clocks with valid pointers.
            _ = clock_gettime(cshim_clock_monotonic, &before)
            _ = clock_gettime(cshim_clock_boottime, &boot)
            _ = clock_gettime(cshim_clock_monotonic, &after)
            let spread = nanoseconds(after) - nanoseconds(before)
            return (nanoseconds(boot) - (nanoseconds(before) + spread / 2), spread)
        }
        var best = reading()
        for _ in 1..<3 where best.spread > 100_000 {
            let again = reading()
            if again.spread < best.spread { best = again }
        }
        return Duration(microseconds: max(0, best.difference / 1000))
    }

    /// Sleeps for `duration`, through interruptions. Only for helper threads (the desktop
    /// probe): the event loop never sleeps.
    static func sleep(_ duration: Duration) {
        let microseconds = max(0, duration.microseconds)
        var request = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// A non-blocking CLOCK_MONOTONIC timerfd.
    static func timerCreate() throws(SystemError) -> Int32 {
        try retrying("timerfd_create") {
            timerfd_create(cshim_clock_monotonic, cshim_tfd_nonblock | cshim_tfd_cloexec)
        }
    }

    /// Arms the timerfd to fire once at the absolute `deadline` (TFD_TIMER_ABSTIME), or
    /// disarms it when `deadline` is nil. A deadline in the past fires at once.
    static func timerSet(_ fd: Int32, deadline: Instant?) throws(SystemError) {
        var spec = itimerspec()  // it_interval stays zero: one-shot
        if let deadline {
            // An all-zero it_value would disarm the timer, so the earliest deadline is 1 µs.
            let microseconds = max(deadline.microseconds, 1)
            spec.it_value.tv_sec = Int(microseconds / 1_000_000)
            spec.it_value.tv_nsec = Int(microseconds % 1_000_000) * 1000
        }
        _ = try retrying("timerfd_settime") { timerfd_settime(fd, cshim_tfd_timer_abstime, &spec, nil) }
    }

    /// Reads a timerfd: the number of expirations since the last read, 0 when it has not fired.
    static func timerExpirations(_ fd: Int32) throws(SystemError) -> UInt64 {
        var count: UInt64 = 0
        do throws(SystemError) {
            _ = try withUnsafeMutableBytes(of: &count) { (buffer) throws(SystemError) in
                try read(fd, into: buffer)
            }
        } catch where error.wouldBlock {
            return 0
        }
        return count
    }

    // MARK: Signals

    /// A signal set holding `signals`.
    static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }

    /// Blocks `set` for this thread (the daemon has only one), so the signals wait for a
    /// signalfd instead of running a handler. Returns the mask to restore.
    static func blockSignals(_ set: sigset_t) throws(SystemError) -> sigset_t {
        var set = set
        var previous = sigset_t()
        _ = try retrying("sigprocmask") { sigprocmask(SIG_BLOCK, &set, &previous) }
        return previous
    }

    /// Restores the signal mask `blockSignals` returned.
    static func restoreSignalMask(_ mask: sigset_t) {
        var mask = mask
        _ = sigprocmask(SIG_SETMASK, &mask, nil)
    }

    /// A non-blocking signalfd receiving the (blocked) signals in `set`.
    static func signalCreate(_ set: sigset_t) throws(SystemError) -> Int32 {
        var set = set
        return try retrying("signalfd") { signalfd(-1, &set, cshim_sfd_nonblock | cshim_sfd_cloexec) }
    }

    /// Gives SIGCHLD its default disposition (`SIG_DFL`), whatever this process inherited.
    /// Cannot fail for SIGCHLD.
    static func defaultChildSignal() {
        _ = Glibc.signal(SIGCHLD, SIG_DFL)
    }

    /// Reads one signal from a signalfd, with its sender (for the SIGHUP of a hung-up terminal,
    /// `StartingTerminal`); nil when none is pending.
    static func nextSignal(_ fd: Int32) throws(SystemError) -> (number: Int32, sender: SignalSender)? {
        var info = signalfd_siginfo()
        do throws(SystemError) {
            let count = try withUnsafeMutableBytes(of: &info) { (buffer) throws(SystemError) in
                try read(fd, into: buffer)
            }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return nil }
        } catch where error.wouldBlock {
            return nil
        }
        return (Int32(bitPattern: info.ssi_signo), SignalSender(code: info.ssi_code, processID: pid_t(bitPattern: info.ssi_pid)))
    }
}

extension Syscall {
    // MARK: Sockets

    /// `socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)` with `SO_SNDTIMEO` = `sendTimeout`: a
    /// Unix datagram socket whose waiting sends give up with EAGAIN after `sendTimeout` when the
    /// receiver's queue stays full (at least 1 µs: zero would mean never).
    static func unixDatagramSocket(sendTimeout: Duration) throws(SystemError) -> Int32 {
        let fd = try retrying("socket") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        // A zero SO_SNDTIMEO waits for ever: the shortest wait is a microsecond.
        let microseconds = max(sendTimeout.microseconds, 1)
        var timeout = timeval(tv_sec: Int(microseconds / 1_000_000), tv_usec: Int(microseconds % 1_000_000))
        guard setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            let error = SystemError(errno: errno, call: "setsockopt(SO_SNDTIMEO)")
            close(fd)
            throw error
        }
        return fd
    }

    /// `sendto(fd, message, MSG_NOSIGNAL, address)`: sends `message` as one datagram to the
    /// Unix socket `address`; `waiting`: for room in the receiver's queue up to the socket's
    /// send timeout, else not at all (`MSG_DONTWAIT`: EAGAIN at once). Returns the byte count sent.
    static func send(
        _ fd: Int32, _ message: UnsafeRawBufferPointer, to address: UnixSocketAddress, waiting: Bool
    ) throws(SystemError) -> Int {
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        return try retrying("sendto", path: address.description) {
            address.withSockaddr { pointer, length in
                sendto(fd, message.baseAddress, message.count, flags, pointer, length)
            }
        }
    }

    // MARK: File identity

    /// The device and inode numbers of the open file `fd` (`fstat`).
    static func fileIdentity(_ fd: Int32) throws(SystemError) -> FileIdentity {
        var status = stat()
        _ = try retrying("fstat") { fstat(fd, &status) }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether `fd` is a terminal (`isatty`).
    static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}



// MARK: Access, users and processes (for `flickd doctor` and `flickd plot`)

extension Syscall {
    /// `access(path, mode)`: whether the real user may use `path` as `mode` says (`R_OK`,
    /// `W_OK`, `F_OK`). Throws the reason when not (`EACCES`, `ENOENT`, `EROFS`...).
    static func checkAccess(_ path: String, mode: Int32) throws(SystemError) {
        _ = try retrying("access", path: path) { Glibc.access(path, mode) }
    }

    /// The supplementary groups of this process and its effective group (`getgroups`,
    /// `getegid`): what it may actually use, fixed when the login session started.
    static func processGroups() -> [UInt32] {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let filled = count > 0 ? groups.withUnsafeMutableBufferPointer { getgroups(count, $0.baseAddress) } : 0
        return Array(groups.prefix(Int(max(filled, 0)))) + [getegid()]
    }

    /// The real user of this process from the account database (`getpwuid_r`): uid, login
    /// name and primary group; nil when the database has no entry for it.
    static func currentUser() -> (uid: UInt32, name: String, primaryGroup: UInt32)? {
        let uid = getuid()
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var size = 4096
        while size <= 1 << 20 {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            let status = getpwuid_r(uid, &entry, buffer, size, &result)
            if status == ERANGE { size *= 4; continue }
            guard status == 0, result != nil, let name = entry.pw_name else { return nil }
            return (uid, String(cString: name), entry.pw_gid)
        }
        return nil
    }

    /// The id of the group called `name` (`getgrnam_r`); nil when there is no such group.
    static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var size = 4096
        while size <= 1 << 22 {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            let status = getgrnam_r(name, &entry, buffer, size, &result)
            if status == ERANGE { size *= 4; continue }
            guard status == 0, result != nil else { return nil }
            return entry.gr_gid
        }
        return nil
    }

    /// Every group the account database puts `user` in, its primary group included
    /// (`getgrouplist`): what a new login session would get.
    static func databaseGroups(user: String, primaryGroup: UInt32) -> [UInt32] {
        var count: Int32 = 64
        while count <= 65536 {
            var groups = [gid_t](repeating: 0, count: Int(count))
            var filled = count
            let status = groups.withUnsafeMutableBufferPointer {
                getgrouplist(user, primaryGroup, $0.baseAddress, &filled)
            }
            if status >= 0 { return Array(groups.prefix(Int(filled))) }
            count = max(filled, count * 2)
        }
        return [primaryGroup]
    }

    /// Runs `arguments[0]` (searched in PATH) with the rest as its arguments, standard output
    /// and standard error together into one pipe, standard input from /dev/null; waits for it.
    /// Returns its exit status (nil when a signal ended it) and what it printed.
    /// Throws when it cannot be started (`ENOENT`: not installed).
    static func run(_ arguments: [String]) throws(SystemError) -> (status: Int32?, output: String) {
        guard let program = arguments.first else { throw SystemError(errno: EINVAL, call: "posix_spawnp") }
        let (readEnd, writeEnd) = try makePipe()
        defer { Syscall.close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDERR_FILENO)
        // The child keeps only its copies on 1 and 2 (dup2 clears close-on-exec), so the read
        // end sees EOF when it exits.
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        // posix_spawnp returns the error number instead of setting errno.
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        Syscall.close(writeEnd)
        guard spawned == 0 else { throw SystemError(errno: spawned, call: "posix_spawnp", path: program) }

        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        while let n = try? read(readEnd, into: chunk), n > 0 {
            bytes.append(contentsOf: chunk[0..<n])
        }
        var status: Int32 = 0
        _ = try retrying("waitpid", path: program) { waitpid(pid, &status, 0) }
        // WIFEXITED / WEXITSTATUS, which Swift cannot import (they are macros).
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : nil, String(decoding: bytes, as: UTF8.self))
    }

    /// Creates or truncates `path` (mode 0644 before the umask) and writes all of `bytes`.
    static func writeFile(_ path: String, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        let fd = try retrying("open", path: path) { Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        defer { Syscall.close(fd) }
        var rest = bytes
        while !rest.isEmpty {
            let written = try retrying("write", path: path) { Glibc.write(fd, rest.baseAddress, rest.count) }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }
}

/// SIGCHLD, the signal a child's end sends flickd.
public enum ChildSignal {
    /// Sets SIGCHLD back to its default, for `flickd run` to call first thing. Ignored (SIG_IGN,
    /// which exec keeps from the parent), it has the kernel reap flickd's children as they exit:
    /// waitpid on the desktop probe's gsettings then fails with ECHILD, its status lost and its
    /// PID free for another process.
    public static func setDefault() {
        Syscall.defaultChildSignal()
    }
}

/// A buffer for reads into, allocated once and freed with its owner. As a stored property it is
/// freed also when the owner's initializer throws before the owner is whole (no `deinit` runs then).
final class ReadBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(byteCount: Int) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 8)
    }

    deinit { bytes.deallocate() }
}
