import CXInput
import FlickCore
import FlickTestSupport
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// A real X server of the test's own (Xvfb, Debian's xvfb package), on a display it picks,
/// ended with the test.
private final class VirtualXServer {
    static let path = "/usr/bin/Xvfb"
    static let xinput = "/usr/bin/xinput"
    static var available: Bool { access(path, X_OK) == 0 && access(xinput, X_OK) == 0 }

    private let process = Process()
    /// `:N`, as DISPLAY spells it.
    let display: String

    /// With `tcp`, the server listens on TCP (port 6000 + N, local hosts only, as X servers
    /// allow by default) too.
    init(tcp: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: Self.path)
        // -displayfd: the server picks a free display and writes its number there once it
        // accepts connections, so nothing waits on a guess.
        // -noreset: a server whose last client leaves resets, dropping the properties set.
        process.arguments = ["-displayfd", "1", "-noreset", tcp ? "-listen" : "-nolisten", "tcp", "-screen", "0", "320x240x24"]
        let number = Pipe()
        process.standardOutput = number
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A server that never says its display would hold the whole run: it has 30 s.
        let deadline = Syscall.monotonicNow() + .seconds(30)
        var text = ""
        var late = false
        while !text.hasSuffix("\n") {
            let left = deadline - Syscall.monotonicNow()
            guard left > .zero, (try? Syscall.waitReadable(number.fileHandleForReading.fileDescriptor, timeout: left)) == true else {
                late = true
                break
            }
            let data = number.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw SystemError(errno: late ? ETIMEDOUT : EINVAL, call: "Xvfb -displayfd", path: text)
        }
        display = ":\(value)"
    }

    /// Sets an 8-bit integer property on the XTEST pointer, making it when it is not there
    /// (as a touchpad driver's property changes).
    func setProperty(_ name: String, _ value: Int) throws {
        try setProperty(name, ["--type=int", "--format=8"], [String(value)])
    }

    /// Sets a property of `type` (xinput's options) to `values` on the XTEST pointer.
    func setProperty(_ name: String, _ type: [String], _ values: [String]) throws {
        let result = try ChildProcess.run("/usr/bin/env", ["DISPLAY=\(display)", Self.xinput, "set-prop"] + type
                                          + ["Virtual core XTEST pointer", name] + values)
        #expect(result.status == 0, "\(result)")
    }

    /// Stops the server (SIGSTOP): it still accepts connections, as the kernel does that for
    /// it, and answers nothing, as a hung X server.
    func pause() { kill(process.processIdentifier, SIGSTOP) }

    /// Lets a stopped server go on (SIGCONT).
    func resume() { kill(process.processIdentifier, SIGCONT) }

    /// Kills the server: SIGKILL, as the test runner's threads block SIGTERM (the daemon tests'
    /// signalfd) and the server inherits that mask.
    func end() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { if process.isRunning { end() } }
}

/// An X display that is lost while a client uses it: it forwards one connection to `server`
/// until the server has answered the connection's setup and `cut` bytes more, then closes it.
/// With no `cut` the display is lost before the requests Xlib's XOpenDisplay makes next. Listens
/// on the abstract socket libxcb tries first for `:N`, so nothing is written to /tmp/.X11-unix.
private final class LostAfterSetup: @unchecked Sendable {
    let display: String
    private let listener: Int32
    private let upstream: String
    private let cut: Int
    private let done = DispatchSemaphore(value: 0)
    private var answered = 0
    /// The server's answers after the setup's, and their byte order.
    private var afterSetup: ArraySlice<UInt8> = []
    private var littleEndian = true

    init(forwardingTo server: VirtualXServer, cut: Int = 0) throws {
        upstream = "/tmp/.X11-unix/X" + server.display.dropFirst()
        self.cut = cut
        var bound: (fd: Int32, number: Int)?
        for number in (6000..<6100).shuffled() {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if Self.withAddress("/tmp/.X11-unix/X\(number)", { bind(fd, $0, $1) }) == 0, listen(fd, 1) == 0 {
                bound = (fd, number)
                break
            }
            close(fd)
        }
        let found = try #require(bound, "no free abstract X socket in :6000...:6099")
        listener = found.fd
        display = ":\(found.number)"
        Thread.detachNewThread { [self] in
            forwardOne()
            done.signal()
        }
    }

    /// How many bytes of the server's answers after the setup's it forwarded, once the
    /// connection has ended (the cut, or the client closing it first); nil when it has not
    /// ended within 10 s.
    func answeredAfterSetup() -> Int? {
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        done.signal()
        return answered
    }

    /// Where each of the server's messages after the setup's ends, as offsets from the setup's
    /// end, once the connection has ended; nil when it has not ended within 10 s. A reply is 32
    /// bytes and 4 × its length (bytes 4...7) more, as is a generic event (XInput 2's); an
    /// error or another event is 32 bytes.
    func messageEnds() -> [Int]? {
        guard answeredAfterSetup() != nil else { return nil }
        var ends: [Int] = []
        var start = afterSetup.startIndex
        while start + 8 <= afterSetup.endIndex {
            let word = afterSetup[(start + 4)..<(start + 8)].map(Int.init)
            let units = littleEndian ? word[0] | word[1] << 8 | word[2] << 16 | word[3] << 24
                                     : word[0] << 24 | word[1] << 16 | word[2] << 8 | word[3]
            let type = afterSetup[start] & 0x7f
            let length = type == 1 || type == 35 ? 32 + 4 * units : 32
            start += length
            ends.append(start - afterSetup.startIndex)
        }
        return ends
    }

    deinit { close(listener) }

    /// Calls `body` with the abstract socket address `name`.
    private static func withAddress(_ name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [0] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    private func forwardOne() {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer {
            close(server)
            close(client)
        }
        guard Self.withAddress(upstream, { connect(server, $0, $1) }) == 0 else { return }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 10_000) > 0 else { return }
            if fds[0].revents != 0 {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { return }
                if answer.isEmpty, buffer[0] == UInt8(ascii: "B") { littleEndian = false }
                guard write(server, buffer, count) == count else { return }
            }
            if fds[1].revents != 0 {
                var count = read(server, &buffer, buffer.count)
                guard count > 0 else { return }
                // The setup's answer: 8 bytes, then bytes 6 and 7's count of 4-byte units.
                var setup: Int?
                if answer.count + count >= 8 {
                    let head = answer + buffer[..<max(0, 8 - answer.count)]
                    let units = littleEndian ? Int(head[6]) | Int(head[7]) << 8 : Int(head[6]) << 8 | Int(head[7])
                    setup = 8 + 4 * units
                }
                let limit = setup.map { $0 + cut } ?? Int.max
                count = min(count, limit - answer.count)
                answer += buffer[..<count]
                guard write(client, buffer, count) == count else { return }
                if let setup {
                    answered = max(0, answer.count - setup)
                    afterSetup = answer[min(setup, answer.count)...]
                }
                if answer.count >= limit { return }
            }
        }
    }
}

/// Where to cut a server's answers after the setup, `ends` its messages' ends (`messageEnds()`),
/// up to `last`: at 0, at each message's end and 4 bytes after it (inside the next one's
/// header), and at 16 offsets drawn with a fixed seed. With FLICKD_FULL_CUTS=1 in the
/// environment, at every 4th byte instead: each cut opens a display of its own, seconds in all.
private func cuts(ends: [Int], through last: Int, seed: UInt64) -> [Int] {
    if ProcessInfo.processInfo.environment["FLICKD_FULL_CUTS"] == "1" {
        return Array(stride(from: 0, through: last, by: 4))
    }
    var generator = SplitMix64(seed: seed)
    let drawn = (0..<16).map { _ in Int.random(in: 0...last, using: &generator) }
    return Set([0] + ends.flatMap { [$0, $0 + 4] } + drawn).filter { $0 <= last }.sorted()
}

/// Whether `fd` becomes readable within 5 s: a real X server's event is waited for, not slept on.
private func readable(_ fd: Int32) -> Bool {
    (try? Syscall.waitReadable(fd, timeout: .seconds(5))) == true
}

/// What a thread's body gave, read once it has signalled.
private final class Outcome<T>: @unchecked Sendable { var value: T? }

/// `body`'s result when it returns within 10 s on a thread of its own; nil when it does not (it
/// is then left blocked, until its X server is resumed or killed at the test's end).
private func returns<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        outcome.value = body()
        done.signal()
    }
    return done.wait(timeout: .now() + 10) == .success ? outcome.value : nil
}

/// `returns(body)`, expected to come when `body` gives up at its `deadline`: no sooner. How
/// much later is not judged (a loaded machine may run the thread late); one that does not give
/// up returns nil after `returns`' 10 s, and the answer expected of it is then missing.
private func returnsAt<T: Sendable>(_ deadline: Duration, _ body: @escaping @Sendable () -> T,
                                    sourceLocation: SourceLocation = #_sourceLocation) -> T? {
    let start = Syscall.monotonicNow()
    let result = returns(body)
    let elapsed = Syscall.monotonicNow() - start
    #expect(elapsed >= deadline, "returned after \(elapsed); its deadline was \(deadline)", sourceLocation: sourceLocation)
    return result
}

/// The X server's watch and reads against a real X server: libX11 and libXi loaded with
/// dlopen, XInput 2's devices, properties and property events, and a server that goes away.
@Suite("X server watch", .serialized)
struct XServerWatchTests {
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func aChangeOfTheWatchedPropertiesIsReportedOthersAreNotAndALostServerCloses() throws {
        let server = try VirtualXServer()
        let watch = try XServerWatch(display: server.display)
        #expect(watch.source == "the X server \(server.display)'s device properties")
        #expect(watch.receive() == .none, "nothing has changed yet")

        try server.setProperty(XServerWatch.property, 1)
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)
        try server.setProperty(XServerWatch.property, 0)
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)

        try server.setProperty("libinput Tapping Enabled", 1)
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .none, "another property is not the touchpads' direction")

        // The synaptics driver's: its direction, and whether it glides by itself.
        try server.setProperty("Synaptics Coasting Speed", ["--type=float"], ["0", "50"])
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)
        try server.setProperty("Synaptics Scrolling Distance", ["--type=int", "--format=32"], ["-99", "-99"])
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)
        try server.setProperty("Synaptics Finger", ["--type=int", "--format=32"], ["25", "30", "0"])
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .none)

        // The X server ends (the session logs out): the watch closes, the process goes on.
        server.end()
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .closed)
        #expect(watch.receive() == .closed)
    }

    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func aServerThatStopsAnsweringHoldsNobodyPastTheDeadline() throws {
        let server = try VirtualXServer()
        defer { server.end() }
        final class Held: @unchecked Sendable { var watch: XServerWatch? }
        let held = Held()
        held.watch = try XServerWatch(display: server.display)
        server.pause()

        // Closing does not wait for a last answer that does not come.
        #expect(returns { held.watch = nil; return true } == true, "closing waited for the stopped server")

        // Opening gives up at its deadline; the next waits for the connection left behind
        // (one thread held, not one per try) and gives up at its own. The stopped server cannot
        // answer at all, so a short deadline makes no false pass.
        let short = Duration.milliseconds(30)
        let display = server.display
        let opening = { @Sendable () -> String? in
            do throws(DesktopSettings.Miss) {
                _ = try XServerWatch(display: display, timeout: short)
                return "opened"
            } catch {
                return error.why
            }
        }
        #expect(returnsAt(short, opening) == "the X server \(display) did not answer within 30 ms")
        #expect(returnsAt(short, opening) == "the X server \(display) has still not answered an earlier connection")
        // A read shares that one thread, and gives up as the opening does.
        func reading(within timeout: Duration) -> @Sendable () -> String? {
            {
                switch XInputDevices.read(display: display, timeout: timeout) {
                case .success: return "read"
                case .failure(let miss): return miss.why
                }
            }
        }
        #expect(returnsAt(short, reading(within: short)) == "the X server \(display) has still not answered an earlier connection")

        // The server answers again: the connection left behind ends by itself, and a new watch
        // opens and hears a change. A server just resumed gets deadlines it can keep.
        server.resume()
        let watch = try #require(returns { try? XServerWatch(display: display, timeout: .seconds(5)) } ?? nil)
        try server.setProperty(XServerWatch.property, 1)
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)
        #expect(returns(reading(within: .seconds(5))) == "read")
        server.pause()
        #expect(returnsAt(short, reading(within: short)) == "the X server \(display) did not answer within 30 ms", "a read's own deadline")
        server.resume()
    }

    /// What the X server holds for each pointer device, read over a connection of flickd's
    /// own: the XTEST pointer given a touchpad driver's properties (integers of 8 and 32 bits,
    /// floats), as a driver would.
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func theDevicesAndTheirPropertiesAreReadOverAConnectionOfItsOwn() throws {
        let server = try VirtualXServer()
        defer { server.end() }
        let pointer = "Virtual core XTEST pointer"
        func xtestPointer() throws -> XInputDevices.Device {
            let devices = try XInputDevices.read(display: server.display).get()
            #expect(!devices.contains { $0.name == "Virtual core pointer" || $0.name == "Virtual core XTEST keyboard" },
                    "masters and keyboards are not read: \(devices.map(\.name))")
            return try #require(devices.first { $0.name == pointer }, "\(devices)")
        }
        #expect(try xtestPointer() == .init(name: pointer, properties: [:]), "none of the properties yet")
        #expect(XInputDevices.touchpad(try xtestPointer()) == nil)

        try server.setProperty(XInputDevices.tapping, 0)
        try server.setProperty(XInputDevices.productID, ["--type=int", "--format=32"], ["2", "7"])
        try server.setProperty(XInputDevices.naturalScrolling, 1)
        let libinput = try xtestPointer()
        #expect(libinput.properties == [XInputDevices.tapping: [0], XInputDevices.productID: [2, 7], XInputDevices.naturalScrolling: [1]])
        #expect(XInputDevices.touchpad(libinput) == .init(device: DeviceIdentity(name: pointer, vendor: 2, product: 7), natural: true,
                                                          xDriver: XInputDevices.libinput))

        try server.setProperty(XInputDevices.scrollingDistance, ["--type=int", "--format=32"], ["-99", "-98"])
        try server.setProperty(XInputDevices.coastingSpeed, ["--type=float"], ["7.5", "50"])
        let synaptics = try xtestPointer()
        #expect(synaptics.properties[XInputDevices.scrollingDistance] == [-99, -98], "signed")
        #expect(synaptics.properties[XInputDevices.coastingSpeed] == [7.5, 50])
        let pad = try #require(XInputDevices.touchpad(synaptics))
        #expect(pad.natural && pad.xDriver == XInputDevices.synaptics)
        #expect(pad.driverGlides == "the synaptics X driver glides by itself (Synaptics Coasting Speed 7.5)")
    }

    /// `xinput set-prop ID "libinput Scrolling Pixel Distance" 30`, as a start-up script slows
    /// a pad down: the watch hears it (the daemon reads the X server again), and the read gives
    /// the device's distance, a speed of 15/30. (xinput makes the property an INTEGER where the
    /// libinput driver makes it a CARDINAL; the reader takes both, at 32 bits.)
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func aScrollDistanceSetIsHeardAndRead() throws {
        let server = try VirtualXServer()
        defer { server.end() }
        let watch = try XServerWatch(display: server.display)
        try server.setProperty(XInputDevices.scrollPixelDistance, ["--type=int", "--format=32"], ["30"])
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads, "a pad's speed changed")
        let devices = try XInputDevices.read(display: server.display).get()
        let pointer = try #require(devices.first { $0.name == "Virtual core XTEST pointer" }, "\(devices)")
        #expect(pointer.properties[XInputDevices.scrollPixelDistance] == [30])
        #expect(XInputDevices.scrollFactor(pointer) == 0.5)
        // The watch takes four properties at most: the last of them is still heard.
        #expect(XServerWatch.properties.last == XInputDevices.coastingSpeed)
        try server.setProperty(XInputDevices.coastingSpeed, ["--type=float"], ["0", "50"])
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)
    }

    /// An X server lost while XOpenDisplay still runs (after the connection's setup, before
    /// the display is handed back): Xlib's default for a lost connection is then exit(1), which
    /// a server ending at the wrong moment made of a test run in this suite. Both the watch's
    /// opening and a read give a miss instead, and the process goes on.
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func aServerLostWhileTheDisplayOpensIsAMiss() throws {
        let server = try VirtualXServer()
        defer { server.end() }
        let lost = try LostAfterSetup(forwardingTo: server)
        #expect(XInputDevices.read(display: lost.display) == .failure(DesktopSettings.Miss(why: "the X server \(lost.display) closed the connection", unanswered: true)))
        let again = try LostAfterSetup(forwardingTo: server)
        #expect(throws: DesktopSettings.Miss(why: "the X server \(again.display) closed the connection")) {
            try XServerWatch(display: again.display)
        }
        #expect(XInputDevices.read(display: server.display).map { !$0.isEmpty } == .success(true), "the next read is whole")
    }

    /// A display on another host, `localhost:N`: libxcb resolves the name (getaddrinfo, with
    /// the NSS modules it loads) and connects over TCP, all on the opening thread's small
    /// stack.
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func aDisplayOverTCPIsReadAndWatched() throws {
        let server = try VirtualXServer(tcp: true)
        defer { server.end() }
        let display = "localhost" + server.display
        try server.setProperty(XInputDevices.tapping, 1)
        let devices = try XInputDevices.read(display: display).get()
        #expect(devices.first { $0.name == "Virtual core XTEST pointer" }?.properties == [XInputDevices.tapping: [1]], "\(devices)")
        let watch = try XServerWatch(display: display)
        #expect(watch.source == "the X server \(display)'s device properties")
        try server.setProperty(XServerWatch.property, 1)
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)
    }

    /// With the exit handler (libX11 1.7 and later), an X server lost at any message's end of an
    /// opening's or a read's answers, or 4 bytes after it, is a miss, and the process goes on:
    /// libXi does not survive every lost connection it returns from (a server lost before
    /// XIQueryVersion's first answer made it read a NULL pointer, the SIGSEGV of a sanitizer run
    /// of this suite), so an opening's calls run inside an escape.
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func aServerLostAtAnyAnswerOfAnOpeningIsAMissWithTheExitHandler() throws {
        let server = try VirtualXServer()
        defer { server.end() }
        let counted = try LostAfterSetup(forwardingTo: server, cut: 1 << 40)
        let whole = try XInputDevices.read(display: counted.display).get()
        let answers = try #require(counted.answeredAfterSetup())
        let ends = try #require(counted.messageEnds())
        for cut in ends.flatMap({ [$0, $0 + 4] }) where cut < answers - 32 {
            let lost = try LostAfterSetup(forwardingTo: server, cut: cut)
            let read = XInputDevices.read(display: lost.display)
            #expect(read == .failure(DesktopSettings.Miss(why: "the X server \(lost.display) closed the connection", unanswered: true)),
                    "cut after \(cut) of \(answers) bytes: \(read)")
        }
        let countedWatch = try LostAfterSetup(forwardingTo: server, cut: 1 << 40)
        _ = try XServerWatch(display: countedWatch.display)
        let watchAnswers = try #require(countedWatch.answeredAfterSetup())
        let watchEnds = try #require(countedWatch.messageEnds())
        for cut in watchEnds.flatMap({ [$0, $0 + 4] }) where cut < watchAnswers - 32 {
            let lost = try LostAfterSetup(forwardingTo: server, cut: cut)
            #expect(throws: DesktopSettings.Miss(why: "the X server \(lost.display) closed the connection"),
                    "cut after \(cut) of \(watchAnswers) bytes") {
                try XServerWatch(display: lost.display)
            }
        }
        #expect(try XInputDevices.read(display: server.display).get() == whole, "the next read is whole")
    }

    /// A libX11 without the I/O error exit handler (before 1.7: RHEL 8's, Ubuntu 20.04's) ends
    /// the process on a lost connection unless its I/O error handler leaves Xlib, so there every
    /// Xlib call runs inside an escape. In a process of its own (the mode is the process's) made
    /// to escape every call as on such a libX11: reads and a watch work, and an X server lost at
    /// any byte of an opening's, a read's or a watch's answers, or while a watch is closed, is a
    /// miss or a closed watch, never the process's end.
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func withoutTheExitHandlerALostServerIsAMissWherever() async {
        await #expect(processExitsWith: .success) {
            flickd_xlib_escape_every_call()
            let server = try VirtualXServer()
            defer { server.end() }
            try server.setProperty(XInputDevices.tapping, 1)
            let whole = try XInputDevices.read(display: server.display).get()
            #expect(whole.first { $0.name == "Virtual core XTEST pointer" }?.properties == [XInputDevices.tapping: [1]], "\(whole)")
            do {
                let watch = try XServerWatch(display: server.display)
                try server.setProperty(XServerWatch.property, 1)
                #expect(readable(watch.fileDescriptor))
                #expect(watch.receive() == .touchpads)
                // Closed here while its server answers: the close is cut short (the reading side
                // is shut first), and the process goes on.
            }
            let now = try XInputDevices.read(display: server.display).get()
            #expect(now.first { $0.name == "Virtual core XTEST pointer" }?.properties
                        == [XInputDevices.tapping: [1], XInputDevices.naturalScrolling: [1]], "a read after the close: \(now)")

            // How much the server answers a whole read after the setup, then a read cut within
            // it (`cuts`): each a miss, until the cut comes after the read's last answer (the
            // last 32 bytes answer the close's XSync: the read is whole then).
            let counted = try LostAfterSetup(forwardingTo: server, cut: 1 << 40)
            #expect(try XInputDevices.read(display: counted.display).get() == now)
            let answers = try #require(counted.answeredAfterSetup())
            let ends = try #require(counted.messageEnds())
            #expect(answers > 100, "XOpenDisplay's requests and the read's")
            #expect(ends.last == answers && ends.dropLast().last == answers - 32, "the messages' ends, the XSync's last: \(ends)")
            for cut in cuts(ends: ends, through: answers + 4, seed: 1) {
                let lost = try LostAfterSetup(forwardingTo: server, cut: cut)
                let read = XInputDevices.read(display: lost.display)
                let miss = DesktopSettings.Miss(why: "the X server \(lost.display) closed the connection", unanswered: true)
                if cut < answers - 32 {
                    #expect(read == .failure(miss), "cut after \(cut) of \(answers) bytes: \(read)")
                } else if cut > answers - 32 {
                    #expect(read == .success(now), "cut after \(cut) of \(answers) bytes: \(read)")
                } else {
                    // Cut right after the read's last answer: Xlib may see the end with it.
                    #expect(read == .success(now) || read == .failure(miss), "cut after \(cut) of \(answers) bytes: \(read)")
                }
            }
            // The same for a watch's opening. Its close shuts the reading side, so whether the
            // answer to the close's XSync (32 bytes) was counted depends on the kernel: a cut in
            // the last 32 bytes is a miss or an opened watch.
            let countedWatch = try LostAfterSetup(forwardingTo: server, cut: 1 << 40)
            _ = try XServerWatch(display: countedWatch.display)
            let watchAnswers = try #require(countedWatch.answeredAfterSetup())
            let watchEnds = try #require(countedWatch.messageEnds())
            #expect(watchAnswers > 100)
            #expect(watchEnds.last == watchAnswers, "the messages' ends: \(watchEnds)")
            for cut in cuts(ends: watchEnds, through: watchAnswers - 1, seed: 2) {
                let lost = try LostAfterSetup(forwardingTo: server, cut: cut)
                let miss = DesktopSettings.Miss(why: "the X server \(lost.display) closed the connection")
                do throws(DesktopSettings.Miss) {
                    _ = try XServerWatch(display: lost.display)
                    #expect(cut >= watchAnswers - 32, "opened, cut after \(cut) of \(watchAnswers) bytes")
                } catch {
                    #expect(error == miss, "cut after \(cut) of \(watchAnswers) bytes")
                }
            }

            // A watched server that ends: the watch closes, and the process goes on (to end
            // with 0, as this test expects).
            let watched = try VirtualXServer()
            let watch = try XServerWatch(display: watched.display)
            watched.end()
            #expect(readable(watch.fileDescriptor))
            #expect(watch.receive() == .closed)
            #expect(watch.receive() == .closed)
        }
    }

    @Test func noXServerIsAMissWithTheDisplay() {
        #expect(throws: DesktopSettings.Miss(why: "cannot connect to the X server :65000")) {
            try XServerWatch(display: ":65000")
        }
        #expect(XInputDevices.read(display: ":65000") == .failure(DesktopSettings.Miss(why: "cannot connect to the X server :65000", unanswered: true)))
    }

    /// The C layer's NULL display is $DISPLAY; with none set, its messages say so (in a process
    /// of its own: the environment is the process's).
    @Test func noDisplayAtAllIsNamedInTheMessage() async {
        await #expect(processExitsWith: .success) {
            unsetenv("DISPLAY")
            func text(_ why: [CChar]) -> String {
                String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            var why = [CChar](repeating: 0, count: 256)
            var devices = [flickd_xdevice](repeating: flickd_xdevice(), count: 1)
            #expect(flickd_xread(nil, "", 2000, &devices, 1, &why, why.count) == -1)
            #expect(text(why) == "cannot connect to the X server (no DISPLAY)")
            why = [CChar](repeating: 0, count: 256)
            #expect(flickd_xwatch_open(nil, "", 2000, &why, why.count) == nil)
            #expect(text(why) == "cannot connect to the X server (no DISPLAY)")
        }
    }

    /// An X server's socket in the file system, for each way DISPLAY names a local display;
    /// none for one reached over the network.
    @Test func theSocketOfADisplay() {
        #expect(DesktopSettings.xServerSocket(display: ":0") == "/tmp/.X11-unix/X0")
        #expect(DesktopSettings.xServerSocket(display: ":12.1") == "/tmp/.X11-unix/X12")
        #expect(DesktopSettings.xServerSocket(display: "unix:3") == "/tmp/.X11-unix/X3")
        for display in ["localhost:10.0", "host:0", ":", ":x", ":0.a", ":١", ""] {
            #expect(DesktopSettings.xServerSocket(display: display) == nil, "\(display)")
        }
    }

    /// The X server's socket appears (a server starts at the display): the start watch cues
    /// the daemon `tries` times, the first after `firstWait`, then at twice the wait before
    /// (here all long past: at once); nothing else in the directory cues it. A socket there
    /// when the watch is made cues it too; the directory's removal ends the watch.
    @Test func anXServerStartingIsCuedFiveTimes() throws {
        let directory = try TemporaryDirectory("flickd-x11-unix")
        let past = Instant(seconds: 1, microseconds: 0)
        let watch = try XServerStartWatch(socket: directory.path + "/X5", firstWait: .milliseconds(500), now: past)
        #expect(watch.source == directory.path + "/X5 for an X server to start")
        #expect(!Self.startReadable(watch, within: .milliseconds(50)))
        for other in ["X50", "X5-lock", ".X5-lock", "X6"] {
            #expect(Self.touch(directory.path + "/" + other))
        }
        #expect(Self.startReadable(watch, within: .seconds(5)))
        #expect(watch.receive(at: past) == .none, "not the display's socket")

        #expect(Self.touch(directory.path + "/X5"))
        var cues = 0
        while Self.startReadable(watch, within: .milliseconds(500)), cues < 10 {
            if watch.receive(at: past) == .started { cues += 1 }
        }
        #expect(cues == XServerStartWatch.tries)

        let there = try XServerStartWatch(socket: directory.path + "/X5", firstWait: .milliseconds(500), now: past)
        #expect(Self.startReadable(there, within: .seconds(5)))
        #expect(there.receive(at: past) == .started, "a socket there at the start")

        let path = directory.path
        try FileManager.default.removeItem(atPath: path)
        #expect(Self.startReadable(watch, within: .seconds(5)))
        #expect(watch.receive(at: past) == .closed)
        #expect(watch.whyEnded == path + " was removed")
        #expect(throws: SystemError.self, "no directory to watch") {
            try XServerStartWatch(socket: path + "/X5")
        }
    }

    /// The socket's directory renamed (a clean-up moving the old `/tmp/.X11-unix` aside): the
    /// watch is on the renamed one, where no server will bind, so it ends as for a removal.
    @Test func aRenamedSocketDirectoryEndsTheStartWatch() throws {
        let parent = try TemporaryDirectory("flickd-x11-tmp")
        let path = parent.path + "/.X11-unix"
        #expect(mkdir(path, 0o700) == 0)
        let past = Instant(seconds: 1, microseconds: 0)
        let watch = try XServerStartWatch(socket: path + "/X5", firstWait: .milliseconds(500), now: past)
        #expect(!Self.startReadable(watch, within: .milliseconds(50)))
        #expect(rename(path, parent.path + "/.X11-unix.old") == 0)
        #expect(Self.startReadable(watch, within: .seconds(5)), "told at once")
        #expect(watch.whyEnded == nil)
        #expect(watch.receive(at: past) == .closed)
        #expect(watch.whyEnded == path + " was renamed")
        #expect(watch.receive(at: past) == .closed, "ended for good")
    }

    /// Creates an empty file at `path` and closes it (an open file would keep its directory's
    /// removal from being told until it is closed).
    static func touch(_ path: String) -> Bool {
        let fd = creat(path, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    static func startReadable(_ watch: XServerStartWatch, within limit: Duration) -> Bool {
        Syscall.waitReadable(watch.fileDescriptor, until: Syscall.monotonicNow() + limit)
    }
}
