import CXInput

/// The X server's touchpad settings as they change: XInput 2's property events for libinput's
/// natural-scrolling property, on every device, present and future. An `xinput set-prop` in a
/// window manager's start-up script, Xfce's settings daemon applying a change or giving a new
/// device its settings, Plasma's on X11: each changes that property in the X server, which is
/// what `DesktopSettings` reads (`XInputDevices`), so the watch says when to read it again.
///
/// Rationale: flickd asks the X server with the `xinput` program so that the daemon links no X
/// library; a watch needs a connection that stays open, so here libX11 and libXi (the
/// libraries xinput itself runs on) are loaded with dlopen, only on a session whose X server
/// flickd asks, and never on Wayland (docs/DESIGN.md, "Following the X server's settings").
/// Opening connects and waits for the X server's answers, so it happens on `DesktopQuery`'s
/// helper thread; reading never blocks.
final class XServerWatch: DesktopWatch, @unchecked Sendable {
    /// The property watched: the one `XInputDevices` reads.
    static let property = "libinput Natural Scrolling Enabled"

    private let watch: OpaquePointer
    let fileDescriptor: Int32
    let source: String

    /// Connects to `display` (as `DISPLAY` spells it) and selects the property events of every
    /// device; blocks while the X server answers. Throws why it cannot.
    init(display: String) throws(DesktopSettings.Miss) {
        var why = [CChar](repeating: 0, count: 256)
        guard let watch = flickd_xwatch_open(display, Self.property, &why, why.count) else {
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
