import FlickCore
import Foundation
import Testing
@testable import FlickLinux

/// An X11 session's touchpads, read from the X server's devices and their properties: the
/// touchpads told from other devices (with the properties Xorg 21 with the libinput and
/// synaptics drivers gave them in the test guest), and the search on a session whose X server
/// is the test's. (The reads themselves, against a real X server: `XServerWatchTests`.)
@Suite struct XInputDevicesTests {
    typealias FakeSession = DesktopSettingsTests.FakeSession
    typealias Device = XInputDevices.Device

    /// A touchpad the libinput driver drives; with `distance`, its `libinput Scrolling Pixel
    /// Distance` (every libinput X driver since 0.27 gives a pad one, 15 by default).
    static func touchpad(_ name: String, natural: Double, ids: [Double], distance: Double? = nil) -> Device {
        var device = Device(name: name, properties: [XInputDevices.tapping: [0], XInputDevices.naturalScrolling: [natural],
                                                     XInputDevices.productID: ids])
        device.properties[XInputDevices.scrollPixelDistance] = distance.map { [$0] }
        return device
    }

    static let xtestPointer = Device(name: "Virtual core XTEST pointer", properties: [:])

    /// A mouse: natural scrolling, but no tapping.
    static let mouse = Device(name: "Logitech USB Optical Mouse",
                              properties: [XInputDevices.naturalScrolling: [1], XInputDevices.productID: [1133, 49244]])

    /// The session of the test guest's Xorg, with the real pad's natural scrolling `natural`
    /// and the virtual one's `virtual` (nil: not added yet).
    static func xServer(natural: Double, virtual: Double?) -> [Device] {
        [xtestPointer, touchpad("SynPS/2 Synaptics TouchPad", natural: natural, ids: [2, 7])]
            + (virtual.map { [touchpad(VirtualTouchpad.name, natural: $0, ids: [0, 0])] } ?? []) + [mouse]
    }

    static let t440 = DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)

    @Test func aTouchpadIsADeviceWithLibinputsTapping() throws {
        let pad = try #require(XInputDevices.touchpad(Self.touchpad("SynPS/2 Synaptics TouchPad", natural: 1, ids: [2, 7])))
        #expect(pad == .init(device: Self.t440, natural: true, xDriver: XInputDevices.libinput))
        #expect(XInputDevices.touchpad(Self.touchpad("x", natural: 0, ids: [1, 2]))?.natural == false)
        #expect(XInputDevices.touchpad(Self.mouse) == nil, "no tapping: a mouse")
        #expect(XInputDevices.touchpad(Self.xtestPointer) == nil)
        #expect(XInputDevices.touchpad(Self.touchpad("x", natural: 1, ids: [70000, 2])) == nil, "ids out of range")
        #expect(XInputDevices.touchpad(Self.touchpad("x", natural: 1, ids: [2])) == nil, "one id")
        #expect(XInputDevices.touchpad(Self.touchpad("x", natural: 2, ids: [2, 7])) == nil, "not a boolean")
        var noSetting = Self.touchpad("x", natural: 1, ids: [2, 7])
        noSetting.properties[XInputDevices.naturalScrolling] = nil
        #expect(XInputDevices.touchpad(noSetting) == nil, "a pad without the setting has none to give")
    }

    /// The X server's per-device settings on an X11 session that is not GNOME's: the real pad
    /// scrolls naturally (set by Xfce, a script, ...) and the virtual one at libinput's default.
    @Test func anX11SessionAsksTheXServerPerDevice() throws {
        let session = FakeSession()
        session.display = ":0"
        session.xServer = [XInputDevicesTests.xServer(natural: 1, virtual: 0)]
        for desktop in ["XFCE", "KDE", nil, "i3"] {
            session.xServerAsks = []
            let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: desktop, session: "x11")))
            #expect(found.value == true)
            #expect(found.source == "X server :0 (XInput device properties), SynPS/2 Synaptics TouchPad")
            #expect(found.perDevice?.natural(for: Self.t440) == true)
            #expect(found.perDevice?.virtualTouchpad == false)
            #expect(found.perDevice?.natural(for: DeviceIdentity(name: "other", vendor: 1, product: 1)) == nil, "unlisted: unknown")
            #expect(session.xServerAsks == [":0"], "one ask")
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
        session.xServer = [XInputDevicesTests.xServer(natural: 1, virtual: 0)]
        session.gsettings = "false\n"
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "GNOME", session: "x11"))?.source
                == "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "wayland")) == nil)
        session.waylandDisplay = "wayland-0"
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil, session: nil)) == nil)
        session.display = nil
        session.waylandDisplay = nil
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11")) == nil, "no DISPLAY")
        #expect(session.xServerAsks.isEmpty)
    }

    /// The X server adds a device a moment after the kernel: the daemon's ask waits for the
    /// virtual touchpad as it does on sway.
    @Test func theAskWaitsForTheVirtualTouchpad() throws {
        let session = FakeSession()
        session.display = ":0"
        session.xServer = [XInputDevicesTests.xServer(natural: 1, virtual: nil), XInputDevicesTests.xServer(natural: 1, virtual: nil),
                           XInputDevicesTests.xServer(natural: 1, virtual: 1)]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11", waits: 8,
                                                                                          waitingFor: [Self.t440, VirtualTouchpad.identity])))
        #expect(found.perDevice?.virtualTouchpad == true)
        #expect(session.pauses == [.milliseconds(250), .milliseconds(250)])
    }

    /// An X server that fails an ask (hung, stopped, slower than 2 s, or none at all) is not
    /// asked again while the daemon waits for its touchpads: a hung one holds every later ask
    /// 2 s more (they wait for the first ask's connection), so 8 more asks held the query's
    /// thread ~20 s. A server still starting is the start watch's.
    @Test func anXServerThatFailsIsAskedOnce() {
        let session = FakeSession()
        session.display = ":0"
        session.xServerFailure = "the X server :0 did not answer within 2 s"
        let finding = DesktopSettings.search(in: session.environment(desktop: "XFCE", session: "x11", waits: 8,
                                                                     waitingFor: [Self.t440, VirtualTouchpad.identity]))
        if case .unanswered = finding {} else { Issue.record("expected unanswered, got \(finding)") }
        #expect(session.xServerAsks.count == 1, "one ask, not 1 + 8")
        #expect(session.pauses.isEmpty, "no pause after a miss")
        // One with no touchpad yet (a touchscreen machine, flickd's pad not added yet) is a
        // listing without the device waited for: asked again, as before.
        session.xServerAsks = []
        session.xServer = [[Self.xtestPointer, Self.mouse],
                           [Self.xtestPointer, Self.mouse, Self.touchpad(VirtualTouchpad.name, natural: 1, ids: [0, 0])]]
        let found = DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11", waits: 8))
        #expect(found?.perDevice?.virtualTouchpad == true)
        #expect(session.xServerAsks.count == 2)
        #expect(session.pauses == [.milliseconds(250)])
    }

    /// An X server that cannot be reached leaves the search unanswered (no weaker file replaces
    /// what it said before; Xfce has no KDE files to read anyway); one with no touchpad has the
    /// desktop's files read; and the log says why.
    @Test func noAnswerFromTheXServerSaysWhy() {
        let session = FakeSession()
        session.display = ":0"
        #expect(DesktopSettings.search(in: session.environment(desktop: "XFCE", session: "x11"))
                == .unanswered(why: "XDG_CURRENT_DESKTOP=XFCE; cannot connect to the X server :0; no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR)"))
        session.xServer = [[XInputDevicesTests.xtestPointer, XInputDevicesTests.mouse]]
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
        session.xServer = [[XInputDevicesTests.xtestPointer, XInputDevicesTests.touchpad(VirtualTouchpad.name, natural: 1, ids: [0, 0])]]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11")))
        #expect(found.value == false)
        #expect(found.source == "X server :0 (XInput device properties): no touchpad but flickd's")
        #expect(found.perDevice?.virtualTouchpad == true)
    }
    /// A pad the synaptics X driver drives, with the properties Xorg 21 with Debian's
    /// xserver-xorg-input-synaptics 1.9.2 gave the virtual T440 in the test guest (those read),
    /// with its scrolling distance and coasting speed `distance` and `coasting`.
    static func synapticsPad(distance: [Double] = [99, 99], coasting: [Double] = [20, 50]) -> Device {
        Device(name: "SynPS/2 Synaptics TouchPad",
               properties: [XInputDevices.scrollingDistance: distance, XInputDevices.coastingSpeed: coasting,
                            XInputDevices.productID: [2, 7]])
    }

    /// flickd's virtual touchpad under the synaptics driver, as it was in the same run: no
    /// `Device Product ID` (the driver sets it only for ids it knows, not 0 and 0), and a
    /// scrolling distance the driver computed from the device's size and overflowed.
    static let synapticsVirtualPad = Device(
        name: "flickd virtual touchpad",
        properties: [XInputDevices.scrollingDistance: [-42949672, -42949672], XInputDevices.coastingSpeed: [20, 50]])

    @Test func aPadTheSynapticsDriverDrivesGlidesByItselfWhileItCoasts() throws {
        let pad = try #require(XInputDevices.touchpad(Self.synapticsPad()))
        #expect(pad.device == Self.t440)
        #expect(pad.natural == false)
        #expect(pad.driverGlides == "the synaptics X driver glides by itself (Synaptics Coasting Speed 20)")
        #expect(pad.xDriver == XInputDevices.synaptics)
        #expect(XInputDevices.touchpad(Self.synapticsPad(distance: [-99, -99]))?.natural == true,
                "a negative vertical distance: natural")
        #expect(XInputDevices.touchpad(Self.synapticsPad(coasting: [0, 50]))?.driverGlides == nil,
                "coasting off")
        #expect(XInputDevices.touchpad(Self.synapticsPad(coasting: [7.5, 50]))?.driverGlides
                == "the synaptics X driver glides by itself (Synaptics Coasting Speed 7.5)")
        #expect(XInputDevices.touchpad(Self.synapticsPad(distance: [])) == nil, "no distance read: no entry")
        let virtual = try #require(XInputDevices.touchpad(Self.synapticsVirtualPad))
        #expect(virtual.device == VirtualTouchpad.identity, "no ids printed: 0 and 0")
    }

    /// An Xorg session whose touchpads the synaptics driver drives: the real pad's glide is
    /// the driver's, which the answer says for that pad.
    @Test func anX11SessionWithTheSynapticsDriver() throws {
        let session = FakeSession()
        session.display = ":0"
        session.xServer = [[Self.xtestPointer, Self.synapticsPad(), Self.synapticsVirtualPad, Self.mouse]]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11")))
        #expect(found.value == false)
        #expect(found.perDevice?.driverGlides(for: Self.t440) == "the synaptics X driver glides by itself (Synaptics Coasting Speed 20)")
        #expect(found.perDevice?.driverGlides(for: DeviceIdentity(name: "other", vendor: 1, product: 1)) == nil)
        #expect(found.perDevice?.driverGlides(for: DeviceIdentity(name: Self.t440.name, vendor: nil, product: nil)) == nil,
                "a device without ids cannot be named")
        #expect(found.perDevice?.virtualTouchpad != nil, "the virtual pad is listed: the ask does not wait for it")
        #expect(found.perDevice?.synapticsDrivesVirtualTouchpad == true)
        session.xServer = [Self.xServer(natural: 1, virtual: 0)]
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11"))?.perDevice?
                    .synapticsDrivesVirtualTouchpad == false, "libinput drives it")
    }

    // MARK: Scrolling speed

    /// The X session of the test guest's Xorg with the libinput driver: the real pad's scroll
    /// distance `real` and the virtual pad's `virtual` (nil: the device has no such property),
    /// both scrolling traditionally.
    static func xServer(realDistance real: Double?, virtualDistance virtual: Double?) -> [Device] {
        [xtestPointer, touchpad("SynPS/2 Synaptics TouchPad", natural: 0, ids: [2, 7], distance: real),
         touchpad(VirtualTouchpad.name, natural: 0, ids: [0, 0], distance: virtual), mouse]
    }

    /// The search on Xfce's X11 session with `devices`, as the daemon asks it.
    static func x11Answer(_ devices: [Device]) throws -> PerDeviceNaturalScrolling {
        let session = FakeSession()
        session.display = ":0"
        session.xServer = [devices]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "XFCE", session: "x11")))
        return try #require(found.perDevice)
    }

    /// The real pad's glide speed as the daemon gives it to the engine: its factor against the
    /// virtual pad's (`Engine.glideSpeedRatio`); nil where `GlideSpeedText` has none to say
    /// (either unknown: the engine then does not scale the glide).
    static func glideSpeed(_ perDevice: PerDeviceNaturalScrolling) -> GlideSpeedText? {
        GlideSpeedText(source: perDevice.scrollFactor(for: t440), virtual: perDevice.virtualTouchpadScrollFactor)
    }

    /// `xinput set-prop 7 "libinput Scrolling Pixel Distance" 30` on the real pad: it scrolls
    /// half as fast as one at the default 15, and the virtual pad is still at 15, so the
    /// virtual fingers move half as fast as the finger did, and the glide goes on at the speed
    /// the content scrolled under it (before, they moved as fast: the glide ran twice as fast).
    @Test func aRealPadsLargerScrollDistanceSlowsTheVirtualFingers() throws {
        #expect(XInputDevices.scrollFactor(Self.touchpad("x", natural: 0, ids: [2, 7], distance: 30)) == 0.5)
        #expect(XInputDevices.scrollFactor(Self.touchpad("x", natural: 0, ids: [2, 7], distance: 10)) == 1.5)
        let perDevice = try Self.x11Answer(Self.xServer(realDistance: 30, virtualDistance: 15))
        #expect(perDevice.scrollFactor(for: Self.t440) == 0.5)
        #expect(perDevice.virtualTouchpadScrollFactor == 1)
        let speed = try #require(Self.glideSpeed(perDevice))
        #expect(speed.ratio == 0.5)
        #expect(speed.sentence == "the desktop scrolls it at 0.5×, flickd virtual touchpad at 1.0×: the virtual fingers move 0.5× as fast, so that the glide keeps your speed")
        #expect(perDevice.scrollFactor(for: DeviceIdentity(name: Self.mouse.name, vendor: 1133, product: 49244)) == nil, "not a touchpad")
        // The virtual pad given the real pad's distance: the fingers move as fast as yours.
        let matched = try Self.x11Answer(Self.xServer(realDistance: 30, virtualDistance: 30))
        #expect(Self.glideSpeed(matched)?.ratio == 1)
        // Or the other way round: the virtual pad slower than the real one, the fingers faster.
        let faster = try Self.x11Answer(Self.xServer(realDistance: 15, virtualDistance: 45))
        #expect(Self.glideSpeed(faster)?.ratio == 3)
    }

    /// Both pads at the driver's default: both speeds are read (1.0), and the glide is not
    /// scaled (doctor and the log say nothing of speed).
    @Test func bothPadsAtTheDefaultDistanceScrollAlike() throws {
        let perDevice = try Self.x11Answer(Self.xServer(realDistance: 15, virtualDistance: 15))
        #expect(perDevice.scrollFactor(for: Self.t440) == 1)
        #expect(perDevice.virtualTouchpadScrollFactor == 1)
        let speed = try #require(Self.glideSpeed(perDevice))
        #expect(speed.ratio == 1 && speed.same)
    }

    /// A pad without the property (an X driver older than libinput's 0.27, or a value that is
    /// no distance): its speed is unknown, and the other pad's alone scales nothing.
    @Test func aPadWithoutTheScrollDistanceHasAnUnknownSpeed() throws {
        let noVirtual = try Self.x11Answer(Self.xServer(realDistance: 30, virtualDistance: nil))
        #expect(noVirtual.scrollFactor(for: Self.t440) == 0.5, "the real pad's is read")
        #expect(noVirtual.virtualTouchpadScrollFactor == nil)
        #expect(Self.glideSpeed(noVirtual) == nil)
        let noReal = try Self.x11Answer(Self.xServer(realDistance: nil, virtualDistance: 30))
        #expect(noReal.scrollFactor(for: Self.t440) == nil)
        #expect(noReal.virtualTouchpadScrollFactor == 0.5, "the virtual pad's is read")
        #expect(Self.glideSpeed(noReal) == nil)
        var zero = Self.touchpad("x", natural: 0, ids: [2, 7], distance: 0)
        #expect(XInputDevices.scrollFactor(zero) == nil, "no distance")
        zero.properties[XInputDevices.scrollPixelDistance] = [15, 15]
        #expect(XInputDevices.scrollFactor(zero) == nil, "not one value")
    }

    /// A real pad the synaptics driver drives beside a virtual pad libinput drives: the
    /// synaptics pad's scrolling distance is in its own units, so its speed is unknown (even
    /// should it carry a `libinput Scrolling Pixel Distance` too), and the glide is not scaled.
    @Test func aPadTheSynapticsDriverDrivesHasAnUnknownSpeed() throws {
        var synaptics = Self.synapticsPad()
        synaptics.properties[XInputDevices.scrollPixelDistance] = [30]
        let perDevice = try Self.x11Answer([Self.xtestPointer, synaptics,
                                            Self.touchpad(VirtualTouchpad.name, natural: 0, ids: [0, 0], distance: 15)])
        #expect(perDevice.driverGlides(for: Self.t440) != nil, "the synaptics driver's pad")
        #expect(perDevice.scrollFactor(for: Self.t440) == nil)
        #expect(perDevice.virtualTouchpadScrollFactor == 1, "the virtual pad's is read")
        #expect(Self.glideSpeed(perDevice) == nil)
    }
}
