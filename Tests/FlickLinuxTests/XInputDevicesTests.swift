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
        #expect(pad == .init(device: Self.t440, natural: true, xDriver: XInputDevices.libinput), "the setting, not its default")
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
                == .none(why: "XDG_CURRENT_DESKTOP=KDE; the X server at :0 has no touchpad with libinput's or the synaptics driver's settings; no KDE touchpad file (/home/u/.config/touchpadxlibinputrc, /home/u/.config/kcminputrc)"))
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
    /// `xinput list-props` of a pad the synaptics X driver drives, as Xorg 21 with Debian's
    /// xserver-xorg-input-synaptics 1.9.2 printed it in the test guest for the virtual T440
    /// (trimmed), with its scrolling distance and coasting speed `distance` and `coasting`.
    static func synapticsProperties(distance: String = "99, 99", coasting: String = "20.000000, 50.000000") -> String {
        """
        Device 'SynPS/2 Synaptics TouchPad':
        \tDevice Enabled (120):\t1
        \tDevice Accel Profile (249):\t1
        \tSynaptics Edges (253):\t1310, 4826, 2220, 4636
        \tSynaptics Finger (254):\t25, 30, 0
        \tSynaptics Scrolling Distance (262):\t\(distance)
        \tSynaptics Edge Scrolling (263):\t0, 0, 0
        \tSynaptics Two-Finger Scrolling (264):\t1, 0
        \tSynaptics Move Speed (265):\t1.000000, 1.750000, 0.040331, 0.000000
        \tSynaptics Coasting Speed (277):\t\(coasting)
        \tSynaptics Capabilities (282):\t1, 0, 0, 1, 1, 1, 1
        \tDevice Product ID (245):\t2, 7
        \tDevice Node (244):\t"/dev/input/event1"

        """
    }

    /// flickd's virtual touchpad under the synaptics driver, as printed in the same run: no
    /// `Device Product ID` (the driver sets it only for ids it knows, not 0 and 0), and a
    /// scrolling distance the driver computed from the device's size and overflowed.
    static let synapticsVirtualPad = """
        Device 'flickd virtual touchpad':
        \tDevice Enabled (120):\t1
        \tSynaptics Scrolling Distance (262):\t-42949672, -42949672
        \tSynaptics Two-Finger Scrolling (264):\t1, 0
        \tSynaptics Coasting Speed (277):\t20.000000, 50.000000
        \tDevice Node (244):\t"/dev/input/event2"

        """

    @Test func aPadTheSynapticsDriverDrivesGlidesByItselfWhileItCoasts() throws {
        let pad = try #require(XInputDevices.touchpad(listProps: Self.synapticsProperties()))
        #expect(pad.device == Self.t440)
        #expect(pad.natural == false)
        #expect(pad.driverGlides == "the synaptics X driver glides by itself (Synaptics Coasting Speed 20)")
        #expect(pad.xDriver == XInputDevices.synaptics)
        #expect(XInputDevices.touchpad(listProps: Self.synapticsProperties(distance: "-99, -99"))?.natural == true,
                "a negative vertical distance: natural")
        #expect(XInputDevices.touchpad(listProps: Self.synapticsProperties(coasting: "0.000000, 50.000000"))?.driverGlides == nil,
                "coasting off")
        #expect(XInputDevices.touchpad(listProps: Self.synapticsProperties(coasting: "7.500000, 50.000000"))?.driverGlides
                == "the synaptics X driver glides by itself (Synaptics Coasting Speed 7.5)")
        #expect(XInputDevices.touchpad(listProps: Self.synapticsProperties(distance: "x")) == nil, "an unreadable distance: no entry")
        let virtual = try #require(XInputDevices.touchpad(listProps: Self.synapticsVirtualPad))
        #expect(virtual.device == VirtualTouchpad.identity, "no ids printed: 0 and 0")
    }

    /// An Xorg session whose touchpads the synaptics driver drives: the real pad's glide is
    /// the driver's, which the answer says for that pad.
    @Test func anX11SessionWithTheSynapticsDriver() throws {
        let session = FakeSession()
        session.display = ":0"
        session.xinput = [["list": Self.list, "list-props 4": Self.xtestPointer, "list-props 9": Self.mouse,
                           "list-props 7": Self.synapticsProperties(), "list-props 8": Self.synapticsVirtualPad]]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11")))
        #expect(found.value == false)
        #expect(found.perDevice?.driverGlides(for: Self.t440) == "the synaptics X driver glides by itself (Synaptics Coasting Speed 20)")
        #expect(found.perDevice?.driverGlides(for: DeviceIdentity(name: "other", vendor: 1, product: 1)) == nil)
        #expect(found.perDevice?.driverGlides(for: DeviceIdentity(name: Self.t440.name, vendor: nil, product: nil)) == nil,
                "a device without ids cannot be named")
        #expect(found.perDevice?.virtualTouchpad != nil, "the virtual pad is listed: the ask does not wait for it")
        #expect(found.perDevice?.synapticsDrivesVirtualTouchpad == true)
        session.xinput = [Self.xServer(natural: 1, virtual: 0)]
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11"))?.perDevice?
                    .synapticsDrivesVirtualTouchpad == false, "libinput drives it")
    }
}
