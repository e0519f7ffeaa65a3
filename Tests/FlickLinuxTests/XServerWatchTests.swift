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

    init() throws {
        process.executableURL = URL(fileURLWithPath: Self.path)
        // -displayfd: the server picks a free display and writes its number there once it
        // accepts connections, so nothing waits on a guess.
        // -noreset: a server whose last client leaves resets, dropping the properties set.
        process.arguments = ["-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "320x240x24"]
        let number = Pipe()
        process.standardOutput = number
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.hasSuffix("\n") {
            let data = number.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw SystemError(errno: EINVAL, call: "Xvfb -displayfd", path: text)
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

/// The X server's watch against a real X server: libX11 and libXi loaded with dlopen, XInput
/// 2's property events, and a server that goes away.
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
        // (one thread held, not one per try) and gives up at its own.
        let display = server.display
        let opening = { @Sendable () -> String? in
            do throws(DesktopSettings.Miss) {
                _ = try XServerWatch(display: display, timeout: .milliseconds(300))
                return "opened"
            } catch {
                return error.why
            }
        }
        #expect(returns(opening) == "the X server \(display) did not answer within 300 ms")
        #expect(returns(opening) == "the X server \(display) has still not answered an earlier connection")

        // The server answers again: the connection left behind ends by itself, and a new watch
        // opens and hears a change.
        server.resume()
        let watch = try #require(returns { try? XServerWatch(display: display, timeout: .seconds(5)) } ?? nil)
        try server.setProperty(XServerWatch.property, 1)
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .touchpads)
    }

    @Test func noXServerIsAMissWithTheDisplay() {
        #expect(throws: DesktopSettings.Miss(why: "cannot connect to the X server :65000")) {
            try XServerWatch(display: ":65000")
        }
    }
}
