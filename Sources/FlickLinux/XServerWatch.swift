import CXInput
import FlickCore

/// The X server's touchpad settings as they change: XInput 2's property events for the
/// properties `XInputDevices` reads (libinput's natural scrolling; the synaptics driver's
/// scrolling distance and coasting), on every device, present and future. An `xinput set-prop`
/// in a window manager's start-up script, Xfce's settings daemon applying a change or giving a
/// new device its settings, Plasma's on X11: each changes such a property in the X server,
/// which is what `DesktopSettings` reads, so the watch says when to read it again.
///
/// Rationale: libX11 and libXi are loaded with dlopen, as for the reads (`XInputDevices.read`),
/// only on a session whose X server flickd asks, and never on Wayland (docs/DESIGN.md,
/// "Following the X server's settings").
/// Opening connects and waits for the X server's answers, up to `openTimeout`, so it happens
/// on `DesktopQuery`'s helper thread; reading and closing never block.
final class XServerWatch: DesktopWatch, @unchecked Sendable {
    /// The property watched on a pad libinput drives: the one `XInputDevices` reads.
    static let property = "libinput Natural Scrolling Enabled"
    /// Those watched on a pad the synaptics driver drives (`XInputDevices`).
    static let synapticsProperties = ["Synaptics Scrolling Distance", "Synaptics Coasting Speed"]

    private let watch: OpaquePointer
    let fileDescriptor: Int32
    let source: String

    /// The longest an opening waits for the X server, as for one read
    /// (`DesktopSettings.xServerTimeout`): a connection and a few questions.
    static let openTimeout = DesktopSettings.xServerTimeout

    /// Connects to `display` (as `DISPLAY` spells it) and selects the property events of every
    /// device; blocks while the X server answers, at most `timeout`. Throws why it cannot.
    ///
    /// Xlib's connection has no timeout, so a server that accepts and never answers (stopped,
    /// hung) would hold the caller for as long: the connection is made on a thread of its own,
    /// and one left behind at the deadline ends by itself when the server answers (closing
    /// what it opened). While one waits, the next opening waits for it first, so such a server
    /// holds one thread, not one per ask.
    init(display: String, timeout: Duration = openTimeout) throws(DesktopSettings.Miss) {
        var why = [CChar](repeating: 0, count: 256)
        let milliseconds = Int32(clamping: max(1, timeout.microseconds / 1000))
        guard let watch = flickd_xwatch_open(display, ([Self.property] + Self.synapticsProperties).joined(separator: "\n"), milliseconds, &why, why.count) else {
            throw DesktopSettings.Miss(why: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.watch = watch
        fileDescriptor = flickd_xwatch_fd(watch)
        source = "the X server \(display)'s device properties"
    }

    deinit { flickd_xwatch_close(watch) }

    func receive() -> DesktopChange {
        switch flickd_xwatch_receive(watch) {
        case 0: return .none
        case 1...: return .touchpads
        default: return .closed
        }
    }
}
