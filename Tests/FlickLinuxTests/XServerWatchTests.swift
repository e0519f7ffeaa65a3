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
        let result = try ChildProcess.run("/usr/bin/env", ["DISPLAY=\(display)", Self.xinput, "set-prop", "--type=int", "--format=8",
                                                           "Virtual core XTEST pointer", name, String(value)])
        #expect(result.status == 0, "\(result)")
    }

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

/// The X server's watch against a real X server: libX11 and libXi loaded with dlopen, XInput
/// 2's property events, and a server that goes away.
@Suite("X server watch", .serialized)
struct XServerWatchTests {
    @Test(.enabled(if: VirtualXServer.available, "needs Xvfb and xinput (Debian's xvfb and xinput packages)"))
    func aChangeOfNaturalScrollingIsReportedOthersAreNotAndALostServerCloses() throws {
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

        // The X server ends (the session logs out): the watch closes, the process goes on.
        server.end()
        #expect(readable(watch.fileDescriptor))
        #expect(watch.receive() == .closed)
        #expect(watch.receive() == .closed)
    }

    @Test func noXServerIsAMissWithTheDisplay() {
        #expect(throws: DesktopSettings.Miss(why: "cannot connect to the X server :65000")) {
            try XServerWatch(display: ":65000")
        }
    }
}
