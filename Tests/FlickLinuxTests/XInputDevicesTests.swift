import FlickCore
import Foundation
import Testing
@testable import FlickLinux

/// An X11 session's touchpads, read from the X server with xinput: the parsers on xinput's
/// output (as Xorg 21 with the libinput driver prints it in the test guest), and the search on
/// a session whose xinput is the test.
@Suite struct XInputDevicesTests {
    typealias FakeSession = DesktopSettingsTests.FakeSession

    static let list = """
        ⎡ Virtual core pointer                    \tid=2\t[master pointer  (3)]
        ⎜   ↳ Virtual core XTEST pointer              \tid=4\t[slave  pointer  (2)]
        ⎜   ↳ SynPS/2 Synaptics TouchPad              \tid=7\t[slave  pointer  (2)]
        ⎜   ↳ flickd virtual touchpad                 \tid=8\t[slave  pointer  (2)]
        ⎣ Virtual core keyboard                   \tid=3\t[master keyboard (2)]
            ↳ Virtual core XTEST keyboard             \tid=5\t[slave  keyboard (3)]
            ↳ AT Raw Set 2 keyboard                   \tid=6\t[slave  keyboard (3)]
        ∼ Logitech USB Optical Mouse                  \tid=9\t[floating slave]

        """

    /// `xinput list-props` of a touchpad (trimmed).
    static func touchpadProperties(_ name: String, natural: Int, ids: String) -> String {
        """
        Device '\(name)':
        \tDevice Enabled (118):\t1
        \tCoordinate Transformation Matrix (120):\t1.000000, 0.000000, 0.000000, 0.000000, 1.000000, 0.000000, 0.000000, 0.000000, 1.000000
        \tlibinput Tapping Enabled (254):\t0
        \tlibinput Tapping Enabled Default (255):\t0
        \tlibinput Natural Scrolling Enabled (262):\t\(natural)
        \tlibinput Natural Scrolling Enabled Default (263):\t\(1 - natural)
        \tlibinput Scroll Method Enabled (267):\t1, 0, 0
        \tDevice Node (242):\t"/dev/input/event1"
        \tDevice Product ID (243):\t\(ids)
        \tlibinput Drag Lock Buttons (281):\t<no items>

        """
    }

    static let xtestPointer = """
        Device 'Virtual core XTEST pointer':
        \tDevice Enabled (118):\t1
        \tXTEST Device (238):\t1

        """

    /// A mouse: natural scrolling, but no tapping.
    static let mouse = """
        Device 'Logitech USB Optical Mouse':
        \tlibinput Natural Scrolling Enabled (262):\t1
        \tDevice Product ID (243):\t1133, 49244

        """

    /// The session of the test guest's Xorg, with the real pad's natural scrolling `natural`
    /// and the virtual one's `virtual` (nil: not added yet).
    static func xServer(natural: Int, virtual: Int?) -> [String: String] {
        var answers = ["list": list, "list-props 4": xtestPointer, "list-props 9": mouse,
                       "list-props 7": touchpadProperties("SynPS/2 Synaptics TouchPad", natural: natural, ids: "2, 7")]
        if let virtual { answers["list-props 8"] = touchpadProperties(VirtualTouchpad.name, natural: virtual, ids: "0, 0") }
        return answers
    }

    static let t440 = DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)

    @Test func theSlavePointersAreRead() {
        #expect(XInputDevices.pointerIDs(list: Self.list) == [4, 7, 8, 9], "masters and keyboards are not")
        #expect(XInputDevices.pointerIDs(list: "") == [])
        #expect(XInputDevices.pointerIDs(list: "unable to connect to X server\n") == [])
    }

    @Test func aTouchpadIsADeviceWithLibinputsTapping() throws {
        let pad = try #require(XInputDevices.touchpad(listProps: Self.touchpadProperties("SynPS/2 Synaptics TouchPad", natural: 1, ids: "2, 7")))
        #expect(pad == .init(device: Self.t440, natural: true), "the setting, not its default")
        #expect(XInputDevices.touchpad(listProps: Self.touchpadProperties("x", natural: 0, ids: "1, 2"))?.natural == false)
        #expect(XInputDevices.touchpad(listProps: Self.mouse) == nil, "no tapping: a mouse")
        #expect(XInputDevices.touchpad(listProps: Self.xtestPointer) == nil)
        #expect(XInputDevices.touchpad(listProps: Self.touchpadProperties("x", natural: 1, ids: "70000, 2")) == nil, "ids out of range")
        let cut = String(Self.touchpadProperties("x", natural: 1, ids: "2, 7").prefix(150))
        #expect(XInputDevices.touchpad(listProps: cut) == nil, "a cut listing has no setting to give")
    }

    /// The X server's per-device settings on an X11 session that is not GNOME's: the real pad
    /// scrolls naturally (set by Xfce, a script, ...) and the virtual one at libinput's default.
    @Test func anX11SessionAsksTheXServerPerDevice() throws {
        let session = FakeSession()
        session.display = ":0"
        session.xinput = [XInputDevicesTests.xServer(natural: 1, virtual: 0)]
        for desktop in ["XFCE", "KDE", nil, "i3"] {
            session.xinputRuns = []
            let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: desktop, session: "x11")))
            #expect(found.value == true)
            #expect(found.source == "X server :0 (xinput list-props), SynPS/2 Synaptics TouchPad")
            #expect(found.perDevice?.natural(for: Self.t440) == true)
            #expect(found.perDevice?.virtualTouchpad == false)
            #expect(found.perDevice?.natural(for: DeviceIdentity(name: "other", vendor: 1, product: 1)) == nil, "unlisted: unknown")
            #expect(session.xinputRuns == ["list", "list-props 4", "list-props 7", "list-props 8", "list-props 9"])
        }
        // startx from a console: XDG_SESSION_TYPE=tty, or unset.
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil, session: "tty"))?.perDevice != nil)
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil, session: nil))?.perDevice != nil)
    }

    /// GNOME applies one setting to every touchpad; a Wayland session's X display is
    /// Xwayland's, which has no libinput devices: the X server is not asked.
    @Test func gnomeAndWaylandSessionsDoNotAskTheXServer() {
        let session = FakeSession()
        session.display = ":0"
        session.xinput = [XInputDevicesTests.xServer(natural: 1, virtual: 0)]
        session.gsettings = "false\n"
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "GNOME", session: "x11"))?.source
                == "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "wayland")) == nil)
        session.waylandDisplay = "wayland-0"
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil, session: nil)) == nil)
        session.display = nil
        session.waylandDisplay = nil
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11")) == nil, "no DISPLAY")
        #expect(session.xinputRuns.isEmpty)
    }

    /// The X server adds a device a moment after the kernel: the daemon's ask waits for the
    /// virtual touchpad as it does on sway.
    @Test func theAskWaitsForTheVirtualTouchpad() throws {
        let session = FakeSession()
        session.display = ":0"
        session.xinput = [XInputDevicesTests.xServer(natural: 1, virtual: nil), XInputDevicesTests.xServer(natural: 1, virtual: nil),
                          XInputDevicesTests.xServer(natural: 1, virtual: 1)]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11", waits: 8,
                                                                                          waitingFor: [Self.t440, VirtualTouchpad.identity])))
        #expect(found.perDevice?.virtualTouchpad == true)
        #expect(session.pauses == [.milliseconds(250), .milliseconds(250)])
    }

    /// Without an answer from the X server the desktop's files are read, and the log says why.
    @Test func noAnswerFromTheXServerSaysWhy() {
        let session = FakeSession()
        session.display = ":0"
        #expect(DesktopSettings.search(in: session.environment(desktop: "XFCE", session: "x11"))
                == .none(why: "XDG_CURRENT_DESKTOP=XFCE; xinput is not on the PATH; no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR); no KDE touchpad file (/home/u/.config/touchpadxlibinputrc, /home/u/.config/kcminputrc)"))
        session.xinput = [["list": XInputDevicesTests.list, "list-props 4": XInputDevicesTests.xtestPointer]]
        #expect(DesktopSettings.search(in: session.environment(desktop: "KDE", session: "x11"))
                == .none(why: "XDG_CURRENT_DESKTOP=KDE; the X server at :0 has no touchpad with libinput's settings; no KDE touchpad file (/home/u/.config/touchpadxlibinputrc, /home/u/.config/kcminputrc)"))
        session.files["/home/u/.config/touchpadxlibinputrc"] = DesktopSettingsTests.touchpadxlibinputrc
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE", session: "x11"))?.source
                == "KDE /home/u/.config/touchpadxlibinputrc [SynPS/2 Synaptics TouchPad] naturalScroll")
    }

    /// Xfce's settings daemon applies a change to the X server at once and its settings store
    /// saves the `pointers` channel a few seconds later: on an Xfce X11 session that file is
    /// watched, and its save makes the daemon ask the X server again.
    @Test func xfcesPointersChannelIsWatched() throws {
        let home = try TemporaryDirectory("flickd-xfcewatch")
        let session = FakeSession()
        session.display = ":0"
        var environment = session.environment(desktop: "XFCE", session: "x11")
        environment.configHome = home.path
        // xfconf makes its directory at a session's first save, long before a change.
        let directory = home.path + "/xfce4/xfconf/xfce-perchannel-xml"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let watch = try #require(DesktopSettings.watchChanges(in: environment, logger: SwayIPCTests.quiet))
        #expect(watch.source == directory + "/pointers.xml")
        try "<channel name=\"xfwm4\"/>".write(toFile: directory + "/xfwm4.xml", atomically: true, encoding: .utf8)
        #expect(watch.receive() == .none, "another channel")
        try "<channel name=\"pointers\"/>".write(toFile: directory + "/pointers.xml", atomically: true, encoding: .utf8)
        #expect(watch.receive() == .touchpads)
        environment.sessionType = "wayland"
        #expect(!(DesktopSettings.watchChanges(in: environment, logger: SwayIPCTests.quiet) is DesktopFilesWatch),
                "Xfce on Wayland: its X server is Xwayland's, not asked")
    }

    /// An X server with only flickd's touchpad (a touchscreen machine): libinput's default
    /// for the real pads, and the virtual pad's own setting.
    @Test func onlyTheVirtualTouchpad() throws {
        let session = FakeSession()
        session.display = ":0"
        session.xinput = [["list": XInputDevicesTests.list,
                           "list-props 8": XInputDevicesTests.touchpadProperties(VirtualTouchpad.name, natural: 1, ids: "0, 0")]]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11")))
        #expect(found.value == false)
        #expect(found.source == "X server :0 (xinput list-props): no touchpad but flickd's")
        #expect(found.perDevice?.virtualTouchpad == true)
    }
}
