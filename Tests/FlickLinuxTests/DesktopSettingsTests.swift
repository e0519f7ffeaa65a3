import FlickCore
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// The desktop's natural-scrolling setting, from fixture texts: nothing here depends on the
/// desktop of the machine running the tests.
@Suite struct DesktopSettingsTests {
    /// Plasma 6 on Wayland: KWin keeps every libinput device in kcminputrc, mice too. The
    /// touchpad's "Mouse" interface comes first and disagrees.
    static let kcminputrc = """
        [$Version]
        update_info=kcminputrc.upd:delete-cursor-old-default-size

        [Keyboard]
        NumLock=2

        [Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Mouse]
        NaturalScroll=true
        ScrollFactor=0.75

        [Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]
        ClickMethod=2
        NaturalScroll=false
        TapToClick=true

        [Libinput][2][10][TPPS/2 Elan TrackPoint]
        PointerAccelerationProfile=2

        [Mouse]
        X11LibInputXAccelProfileFlat=true
        """

    /// Plasma on X11: the touchpad module's own file, one group per touchpad.
    static let touchpadxlibinputrc = """
        [SynPS/2 Synaptics TouchPad]
        clickMethodAreas=false
        clickMethodClickfinger=true
        naturalScroll=true
        tapToClick=true
        """

    // MARK: Parsers

    @Test func kcminputrcTakesTheTouchpadNotTheMouse() throws {
        let found = try #require(DesktopSettings.kcminputrcNaturalScrolling(Self.kcminputrc))
        #expect(found.value == false)
        #expect(found.group == "[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]")
        #expect(found.key == "NaturalScroll")
    }

    @Test func kcminputrcKnowsATouchpadByItsTouchpadOnlyKeys() throws {
        let text = """
            [Libinput][1267][12410][ELAN1200:00 04F3:3090]
            DisableWhileTyping=false
            NaturalScroll[$i]=true
            """
        let found = try #require(DesktopSettings.kcminputrcNaturalScrolling(text))
        #expect(found.value == true, "the [$i] (immutable) suffix is not part of the key")
    }

    @Test func kcminputrcPerDeviceEntries() throws {
        let text = Self.kcminputrc + """

            [Libinput][0][0][flickd virtual touchpad]
            NaturalScroll=true
            """
        let perDevice = PerDeviceNaturalScrolling(kcminputrc: text, file: "kcminputrc")
        #expect(perDevice.entries.map(\.device.name) == ["SYNA801A:00 06CB:CEC6 Mouse", "SYNA801A:00 06CB:CEC6 Touchpad", VirtualTouchpad.name])
        let touchpad = DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Touchpad", vendor: 1739, product: 52934)
        #expect(perDevice.natural(for: touchpad) == false)
        #expect(perDevice.natural(for: DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Mouse", vendor: 1739, product: 52934)) == true)
        #expect(perDevice.natural(for: DeviceIdentity(name: "Other Touchpad", vendor: 1, product: 2)) == false,
                "no entry: libinput's default")
        #expect(perDevice.natural(for: DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Touchpad")) == nil,
                "without ids its group cannot be named")
        #expect(perDevice.virtualTouchpad == true)
        #expect(PerDeviceNaturalScrolling(kcminputrc: Self.kcminputrc, file: "kcminputrc").virtualTouchpad == false,
                "the virtual pad has no group until its settings are changed")
        // The desktop-wide value is the user's pad's, never flickd's own.
        let first = "[Libinput][0][0][flickd virtual touchpad]\nNaturalScroll=true\nTapToClick=true\n"
            + "[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]\nNaturalScroll=false\n"
        #expect(DesktopSettings.kcminputrcNaturalScrolling(first)?.value == false)
    }

    @Test func kcminputrcWithoutATouchpadEntryFindsNothing() {
        #expect(DesktopSettings.kcminputrcNaturalScrolling("") == nil)
        #expect(DesktopSettings.kcminputrcNaturalScrolling("[Libinput][1133][49271][Logitech USB Optical Mouse]\nNaturalScroll=true\n") == nil,
                "a mouse's setting is not the touchpad's")
        #expect(DesktopSettings.kcminputrcNaturalScrolling("[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]\nTapToClick=true\n") == nil,
                "never changed: Plasma writes nothing, and the default (off) applies")
        #expect(DesktopSettings.kcminputrcNaturalScrolling("[Libinput][1][2][X Touchpad]\nNaturalScroll=maybe\n") == nil)
    }

    @Test func touchpadxlibinputrcGroupsAreTouchpads() throws {
        let found = try #require(DesktopSettings.touchpadxlibinputrcNaturalScrolling(Self.touchpadxlibinputrc))
        #expect(found.value == true)
        #expect(found.group == "[SynPS/2 Synaptics TouchPad]")
        #expect(found.key == "naturalScroll")
        #expect(DesktopSettings.touchpadxlibinputrcNaturalScrolling("[SynPS/2 Synaptics TouchPad]\ntapToClick=true\n") == nil)
        // flickd's own pad gets a group once its settings were changed in the X11 module, as in
        // kcminputrc: not the user's pad. Before, its value was taken for the desktop's.
        let virtualFirst = "[\(VirtualTouchpad.name)]\nnaturalScroll=true\n[SynPS/2 Synaptics TouchPad]\nnaturalScroll=false\n"
        #expect(DesktopSettings.touchpadxlibinputrcNaturalScrolling(virtualFirst)?.value == false)
        #expect(DesktopSettings.touchpadxlibinputrcNaturalScrolling(virtualFirst)?.group == "[SynPS/2 Synaptics TouchPad]")
    }

    @Test func kconfigBooleansAndHeaders() {
        #expect(KConfig.boolean("true") == true && KConfig.boolean("On") == true && KConfig.boolean("1") == true)
        #expect(KConfig.boolean("false") == false && KConfig.boolean("no") == false && KConfig.boolean("0") == false)
        #expect(KConfig.boolean("") == nil)
        let config = KConfig(text: "top=1\n# comment\n[a][b c][$i]\n  key = value with spaces  \r\n")
        #expect(config.groups.map(\.path) == [[], ["a", "b c"]])
        #expect(config.groups[1].entries.map(\.key) == ["key"])
        #expect(config.groups[1].entries.map(\.value) == ["value with spaces"])
    }

    @Test func gsettingsPrintsTrueOrFalse() {
        #expect(DesktopSettings.parseGSettingsBoolean("true\n") == true)
        #expect(DesktopSettings.parseGSettingsBoolean("false\n") == false)
        #expect(DesktopSettings.parseGSettingsBoolean("") == nil)
        #expect(DesktopSettings.parseGSettingsBoolean("No such schema “org.gnome.desktop.peripherals.touchpad”\n") == nil)
        #expect(DesktopSettings.parseGSettingsBoolean("uint32 1\n") == nil)
    }

    // MARK: Which desktop is asked

    /// A session on `desktop` whose files are `files` and whose gsettings prints `gsettings`;
    /// `asked` counts gsettings runs.
    final class FakeSession {
        var files: [String: String] = [:]
        /// gsettings' output; nil: it failed, as `gsettingsFailure` says.
        var gsettings: String?
        var gsettingsFailure = "gsettings is not on the PATH"
        var asked: [String] = []
        /// sway's replies to `get_inputs`, one per ask (the last repeats); empty: no sway;
        /// `noReply`: swaymsg failed or timed out.
        var sway: [String] = []
        static let noReply = "(no reply)"
        var swayAsks = 0
        /// `$SWAYSOCK` names the socket sway listens on (else it was found by name in the
        /// runtime directory).
        var swaysockSet = false
        /// The sway at `swaySocket` is the compositor of `$WAYLAND_DISPLAY` (false: it is another
        /// session's, whose `SWAYSOCK` the user manager kept, or a nested one; nil: that cannot
        /// be told).
        var swayServesThisSession: Bool? = true
        var pauses: [FlickCore.Duration] = []
        /// `$DISPLAY`, `$WAYLAND_DISPLAY`, and the X server's devices, one list per ask (the
        /// last repeats); empty: the ask fails as `xServerFailure` says. `xServerAsks`: the
        /// displays asked.
        var display: String?
        var waylandDisplay: String?
        var xServer: [[XInputDevices.Device]] = []
        var xServerFailure = "cannot connect to the X server :0"
        var xServerAsks: [String] = []
        /// `KDE_FULL_SESSION=true` (Plasma's own session); false: XDG_CURRENT_DESKTOP=KDE set on
        /// another compositor.
        var kdeFullSession = true

        func environment(desktop: String?, session: String? = "wayland", waits: Int = 0,
                         waitingFor: [DeviceIdentity] = [VirtualTouchpad.identity]) -> DesktopSettings.Environment {
            var environment = DesktopSettings.Environment(
                currentDesktop: desktop, sessionType: session, configHome: "/home/u/.config",
                readFile: { [unowned self] in files[$0] },
                gsettingsGet: { [unowned self] schema, key in
                    asked.append("\(schema) \(key)")
                    return gsettings.map { .output($0) } ?? .failed(gsettingsFailure)
                })
            environment.swaySocket = sway.isEmpty ? nil : "/run/user/1000/sway-ipc.1000.500.sock"
            environment.swaysock = swaysockSet ? "/run/user/1000/sway-ipc.1000.500.sock" : nil
            environment.swayServesThisSession = { [unowned self] socket in
                #expect(socket == "/run/user/1000/sway-ipc.1000.500.sock")
                return swayServesThisSession
            }
            environment.swayInputs = { [unowned self] socket in
                #expect(socket == "/run/user/1000/sway-ipc.1000.500.sock")
                swayAsks += 1
                let reply = sway[min(swayAsks, sway.count) - 1]
                return reply == Self.noReply ? .failure(.timedOut) : .success(reply)
            }
            environment.display = display
            environment.waylandDisplay = waylandDisplay
            environment.kdeFullSession = kdeFullSession
            environment.xServerDevices = { [unowned self] display in
                xServerAsks.append(display)
                guard !xServer.isEmpty else { return .failure(DesktopSettings.Miss(why: xServerFailure, unanswered: true)) }
                return .success(xServer[min(xServerAsks.count, xServer.count) - 1])
            }
            environment.waits = waits
            environment.waitingFor = waitingFor
            environment.pause = { [unowned self] in pauses.append($0) }
            return environment
        }
    }

    /// Where flickd asks the X server (and doctor checks that the service has its display).
    @Test func theXServerIsAskedOnX11SessionsButGnomes() {
        let session = FakeSession()
        session.display = ":0"
        #expect(DesktopSettings.askedXDisplay(session.environment(desktop: "XFCE", session: "x11")) == ":0")
        #expect(DesktopSettings.askedXDisplay(session.environment(desktop: nil, session: nil)) == ":0", "startx: no session type")
        #expect(DesktopSettings.askedXDisplay(session.environment(desktop: "GNOME", session: "x11")) == nil)
        #expect(DesktopSettings.askedXDisplay(session.environment(desktop: "sway", session: "wayland")) == nil, "Xwayland's")
        session.waylandDisplay = "wayland-1"
        #expect(DesktopSettings.askedXDisplay(session.environment(desktop: nil, session: nil)) == nil)
        session.display = nil
        #expect(DesktopSettings.askedXDisplay(session.environment(desktop: "XFCE", session: "x11")) == nil)
    }

    @Test func gnomeAsksGsettings() throws {
        let session = FakeSession()
        session.gsettings = "false\n"
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "ubuntu:GNOME")))
        #expect(found.value == false)
        #expect(found.source == "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")
        #expect(session.asked == ["org.gnome.desktop.peripherals.touchpad natural-scroll"])
        session.gsettings = "true\n"
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "GNOME"))?.value == true)
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "Budgie:GNOME"))?.value == true)
        session.gsettings = nil  // no gsettings, or it failed
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "GNOME")) == nil)
    }

    /// A place that keeps a setting but did not answer makes the search `unanswered` (what it
    /// said before may hold); places without a setting make it `none`.
    @Test func aPlaceThatDidNotAnswerIsToldFromOneWithNoSetting() {
        let session = FakeSession()
        session.gsettingsFailure = "gsettings did not answer within 5 s (killed)"
        #expect(DesktopSettings.search(in: session.environment(desktop: "GNOME"))
                == .unanswered(why: "XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed)"))
        session.sway = [FakeSession.noReply]
        if case .unanswered = DesktopSettings.search(in: session.environment(desktop: "sway")) {} else {
            Issue.record("sway did not answer: unanswered")
        }
        session.sway = []
        if case .none = DesktopSettings.search(in: session.environment(desktop: "sway")) {} else {
            Issue.record("no sway: none")
        }
        // Plasma on X11 without its files (KWin on Wayland always answers: see
        // `kwinWithoutATouchpadGroupLeavesEachDeviceAtLibinputsDefault`).
        #expect(DesktopSettings.search(in: session.environment(desktop: "KDE", session: "x11"))
                == .none(why: "XDG_CURRENT_DESKTOP=KDE; no KDE touchpad file (/home/u/.config/touchpadxlibinputrc, /home/u/.config/kcminputrc)"))
        session.display = ":0"
        if case .unanswered = DesktopSettings.search(in: session.environment(desktop: "XFCE", session: "x11")) {} else {
            Issue.record("the X server could not be asked: unanswered")
        }
    }

    /// With nothing found, the log says where flickd looked and why each place gave nothing.
    @Test func noSettingSaysWhereItLookedAndWhy() {
        let session = FakeSession()
        session.gsettingsFailure = "gsettings did not answer within 5 s (killed)"
        #expect(DesktopSettings.search(in: session.environment(desktop: "GNOME"))
                == .unanswered(why: "XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed)"))
        session.gsettings = "uint32 7\n"
        #expect(DesktopSettings.search(in: session.environment(desktop: "GNOME"))
                == .none(why: "XDG_CURRENT_DESKTOP=GNOME; gsettings printed \"uint32 7\", not true or false"))

        // Plasma on X11 (on Wayland KWin's kcminputrc always answers).
        #expect(DesktopSettings.search(in: session.environment(desktop: "KDE", session: "x11"))
                == .none(why: "XDG_CURRENT_DESKTOP=KDE; no KDE touchpad file (/home/u/.config/touchpadxlibinputrc, /home/u/.config/kcminputrc)"))
        session.files["/home/u/.config/kcminputrc"] = "[Mouse]\nNaturalScroll=true\n"
        #expect(DesktopSettings.search(in: session.environment(desktop: "KDE", session: "x11"))
                == .none(why: "XDG_CURRENT_DESKTOP=KDE; no touchpad's natural scrolling in /home/u/.config/kcminputrc"))
        session.files = [:]

        #expect(DesktopSettings.search(in: session.environment(desktop: nil))
                == .none(why: "XDG_CURRENT_DESKTOP unset; no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR); no KDE touchpad file (/home/u/.config/kcminputrc, /home/u/.config/touchpadxlibinputrc)"))
        session.sway = [FakeSession.noReply]
        #expect(DesktopSettings.search(in: session.environment(desktop: "sway"))
                == .unanswered(why: "XDG_CURRENT_DESKTOP=sway; sway at /run/user/1000/sway-ipc.1000.500.sock did not answer get_inputs within 1 s"))
        session.sway = ["{\"not\": \"a list\"}"]
        #expect(DesktopSettings.search(in: session.environment(desktop: "sway"))
                == .unanswered(why: "XDG_CURRENT_DESKTOP=sway; sway's get_inputs reply at /run/user/1000/sway-ipc.1000.500.sock could not be read"))
        #expect(session.asked.count == 2, "gsettings asked on GNOME only")
    }

    @Test func kdeReadsItsFilesAndNeverGsettings() throws {
        let session = FakeSession()
        session.gsettings = "true\n"
        session.files["/home/u/.config/kcminputrc"] = Self.kcminputrc
        session.files["/home/u/.config/touchpadxlibinputrc"] = Self.touchpadxlibinputrc
        let wayland = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(wayland.value == false)
        #expect(wayland.source == "KDE /home/u/.config/kcminputrc [Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad] NaturalScroll")
        let x11 = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE", session: "x11")))
        #expect(x11.value == true, "on X11 the touchpad module's file comes first")
        #expect(x11.source == "KDE /home/u/.config/touchpadxlibinputrc [SynPS/2 Synaptics TouchPad] naturalScroll")
        // KWin applies kcminputrc per device on Wayland; the X11 module's file is one setting.
        #expect(wayland.perDevice?.source == "/home/u/.config/kcminputrc")
        #expect(wayland.perDevice?.entries.count == 2)
        #expect(x11.perDevice == nil)
        session.files["/home/u/.config/touchpadxlibinputrc"] = nil
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE", session: "x11"))?.perDevice == nil,
                "a kcminputrc read in an X11 session is not applied per device")
        session.files = [:]
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE", session: "x11")) == nil)
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.perDevice != nil,
                "KWin on Wayland: libinput's default for every device, not GNOME's")
        #expect(session.asked.isEmpty, "GNOME's schema default says nothing about Plasma")
    }

    /// KWin's defaults: `[Libinput][Defaults][Touchpad]` (else `[Pointer]`, else `[Defaults]`
    /// itself) gives every touchpad without a group of its own its setting, flickd's virtual
    /// pad included; a device's own group wins.
    @Test func kwinsDefaultsGroupGivesTouchpadsWithoutAGroupTheirSetting() throws {
        let pad = DeviceIdentity(name: "ELAN0504:01 04F3:3142 Touchpad", vendor: 1267, product: 12610)
        let own = "[Libinput][1267][12610][ELAN0504:01 04F3:3142 Touchpad]\nNaturalScroll=false\n"
        let touchpad = PerDeviceNaturalScrolling(kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n" + own, file: "kcminputrc")
        #expect(touchpad.virtualTouchpad == true)
        #expect(touchpad.natural(for: pad) == false, "its own group wins")
        #expect(touchpad.defaultsGroup == "[Libinput][Defaults][Touchpad]")
        let pointer = PerDeviceNaturalScrolling(kcminputrc: "[Libinput][Defaults][Pointer]\nNaturalScroll=true\n", file: "kcminputrc")
        #expect(pointer.virtualTouchpad == true, "a touchpad is a pointer")
        let both = PerDeviceNaturalScrolling(kcminputrc: "[Libinput][Defaults][Pointer]\nNaturalScroll=true\n[Libinput][Defaults][Touchpad]\nTapToClick=true\n",
                                             file: "kcminputrc")
        #expect(both.virtualTouchpad == false, "the touchpad group comes first, and without the key libinput's default applies")
        let plain = PerDeviceNaturalScrolling(kcminputrc: "[Libinput][Defaults]\nNaturalScroll=true\n", file: "kcminputrc")
        #expect(plain.virtualTouchpad == true)
        let none = PerDeviceNaturalScrolling(kcminputrc: own, file: "kcminputrc")
        #expect(none.virtualTouchpad == false && none.defaultsGroup == nil)

        // Without a setting from KWin's defaults a pad stays at libinput's default for it: on
        // for Apple's pads (asked of the device), off for the rest.
        let apple = DeviceIdentity(name: "bcm5974", vendor: 0x05ac, product: 0x0273)
        #expect(none.natural(for: apple, libinputDefault: { true }) == true)
        #expect(none.natural(for: apple) == false)
        #expect(both.natural(for: apple, libinputDefault: { true }) == true, "the defaults group sets no NaturalScroll")
        #expect(none.natural(for: pad, libinputDefault: { true }) == false, "its own group wins")
        let off = PerDeviceNaturalScrolling(kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=false\n", file: "kcminputrc")
        #expect(off.natural(for: apple, libinputDefault: { true }) == false, "KWin's defaults group wins over libinput's")
        #expect(touchpad.natural(for: apple, libinputDefault: { false }) == true)
        let sway = PerDeviceNaturalScrolling(entries: [], source: "sway", unlisted: nil)
        #expect(sway.natural(for: apple, libinputDefault: { true }) == nil, "a device sway does not list is unknown")
    }

    /// KConfig escapes a `[`, a `]` and a `\` in a group's name: a device named with brackets
    /// is found by its name as the kernel gives it.
    @Test func kconfigsEscapesInAGroupNameAreRead() {
        let text = #"[Libinput][1133][16505][Foo \x5bBT\x5d Touchpad \\ 2]"# + "\nNaturalScroll=true\n"
        let perDevice = PerDeviceNaturalScrolling(kcminputrc: text, file: "kcminputrc")
        #expect(perDevice.natural(for: DeviceIdentity(name: #"Foo [BT] Touchpad \ 2"#, vendor: 1133, product: 16505)) == true,
                "\(perDevice.entries)")
        #expect(KConfig.unescaped(#"a\x41\sb\q\x4"#) == #"aA b\q\x4"#, "unknown or cut escapes stay as written")
    }

    /// KConfig's cascade: the system's kcminputrc (`$XDG_CONFIG_DIRS`, /etc/xdg) under the user's.
    /// A distribution's defaults there reach the virtual pad; the user's own file overrides them.
    @Test func kdeReadsTheSystemsKcminputrcUnderTheUsers() throws {
        let session = FakeSession()
        session.files["/etc/xdg/kcminputrc"] = "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n"
        let system = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(system.value == true, "\(system.source)")
        #expect(system.perDevice?.virtualTouchpad == true)
        #expect(system.source.contains("/etc/xdg/kcminputrc") && system.source.contains("[Libinput][Defaults][Touchpad]"), "\(system.source)")
        session.files["/home/u/.config/kcminputrc"] = "[Libinput][Defaults][Touchpad]\nNaturalScroll=false\n"
        let user = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(user.value == false && user.perDevice?.virtualTouchpad == false, "the user's file wins: \(user.source)")
        var other = session.environment(desktop: "KDE")
        other.configDirs = ["/etc/xdg/plasma", "/etc/xdg"]
        session.files["/etc/xdg/plasma/kcminputrc"] = "[Libinput][Defaults][Touchpad]\nNaturalScroll=false\n"
        session.files["/home/u/.config/kcminputrc"] = nil
        #expect(DesktopSettings.naturalScrolling(in: other)?.perDevice?.virtualTouchpad == false, "the first directory is the more important")

        // The same touchpad's group in both files: the user's value is the desktop's.
        let group = "[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]\n"
        session.files = ["/etc/xdg/kcminputrc": group + "NaturalScroll=true\n",
                         "/home/u/.config/kcminputrc": "TopLevelKey=1\n" + group + "NaturalScroll=false\n"]
        let both = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(both.value == false && both.source.hasPrefix("KDE /home/u/.config/kcminputrc "), "\(both.source)")
        #expect(both.perDevice?.natural(for: DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Touchpad", vendor: 1739, product: 52934)) == false)
        // A system file's group only: found there, and named.
        session.files["/home/u/.config/kcminputrc"] = "TopLevelKey=1\n"
        let system2 = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(system2.value == true && system2.source.hasPrefix("KDE /etc/xdg/kcminputrc "), "\(system2.source)")
    }

    /// Keys before a file's first group belong to no group, not to the group before them in an
    /// earlier file of the cascade.
    @Test func aFilesFirstKeysAreInNoGroup() {
        let text = "[Libinput][1][2][A Touchpad]\nNaturalScroll=true\n[$]\nNaturalScroll=false\n"
        #expect(KConfig(text: text).groups.first { $0.path == ["Libinput", "1", "2", "A Touchpad"] }?.entries.count == 1)
        let cascade = KConfig(cascade: ["[Libinput][1][2][A Touchpad]\nNaturalScroll=true\n", "NaturalScroll=false\n"])
        #expect(cascade.groups.map(\.path) == [["Libinput", "1", "2", "A Touchpad"], []])
        #expect(cascade.groups.map(\.file) == [0, 1])
    }

    /// KWin's `Enabled=false` in a pad's group (System Settings' "Device enabled", or the
    /// touchpad toggle key): KWin hands the pad's events to no app, so its flicks start no
    /// coast of flickd's. The last value in the cascade counts.
    @Test func aTouchpadKWinDisablesIsSaid() throws {
        let pad = "[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]"
        let identity = DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Touchpad", vendor: 1739, product: 52934)
        let off = PerDeviceNaturalScrolling(kcminputrc: pad + "\nEnabled=false\n", file: "kcminputrc")
        #expect(off.noCoast(for: identity) == "KDE disables it (\(pad) Enabled=false)")
        #expect(off.natural(for: identity) == false, "no NaturalScroll: the default, as before")
        #expect(PerDeviceNaturalScrolling(kcminputrc: pad + "\nEnabled=true\n", file: "kcminputrc").noCoast(for: identity) == nil)
        let again = PerDeviceNaturalScrolling(kcminputrc: KConfig(cascade: [pad + "\nEnabled=false\n", pad + "\nEnabled=true\n"]), file: "kcminputrc")
        #expect(again.noCoast(for: identity) == nil, "the user's file enables it again")
        #expect(off.noCoast(for: DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Touchpad")) == nil, "without ids it cannot be named")
    }

    /// KConfig's locks (KDE's "Kiosk"): an entry written `key[$i]=`, a group headed
    /// `[group][$i]`, or a file with a `[$i]` line at its top, in a less important file of the
    /// cascade (/etc/xdg), keeps its value over the user's file, and KWin applies that value.
    /// Before, the lock was read past: with `NaturalScroll[$i]=true` in /etc/xdg/kcminputrc and
    /// the user's `NaturalScroll=false`, KWin scrolled naturally, flickd took false, and every
    /// glide ran backwards.
    @Test func aLockInTheSystemsKcminputrcHoldsOverTheUsersFile() throws {
        let pad = "[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]"
        let identity = DeviceIdentity(name: "SYNA801A:00 06CB:CEC6 Touchpad", vendor: 1739, product: 52934)
        for (system, what) in [(pad + "\nNaturalScroll[$i]=true\n", "the key locked"),
                               (pad + "[$i]\nNaturalScroll=true\n", "the group locked"),
                               ("[$i]\n" + pad + "\nNaturalScroll=true\n", "the file locked")] {
            let session = FakeSession()
            session.files = ["/etc/xdg/kcminputrc": system, "/home/u/.config/kcminputrc": pad + "\nNaturalScroll=false\nTapToClick=true\n"]
            let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")), "\(what)")
            #expect(found.value == true && found.source.hasPrefix("KDE /etc/xdg/kcminputrc "), "\(what): \(found.source)")
            #expect(found.perDevice?.natural(for: identity) == true, "\(what)")
            // Plasma on X11 reads kcminputrc as its second file, through the same cascade.
            let x11 = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE", session: "x11")), "\(what)")
            #expect(x11.value == true, "\(what), X11: \(x11.source)")
        }
        // KWin's defaults group locked: the user's defaults do not reach a pad without a group
        // of its own (here flickd's).
        let session = FakeSession()
        session.files = ["/etc/xdg/kcminputrc": "[Libinput][Defaults][Touchpad][$i]\nNaturalScroll=true\n",
                         "/home/u/.config/kcminputrc": "[Libinput][Defaults][Touchpad]\nNaturalScroll=false\n"]
        let locked = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(locked.value == true && locked.perDevice?.virtualTouchpad == true, "\(locked.source)")
        // The control: unlocked, the user's file wins.
        session.files["/etc/xdg/kcminputrc"] = "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n"
        let open = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(open.value == false && open.perDevice?.virtualTouchpad == false, "\(open.source)")

        // A locked key leaves its group's other keys open; the lock holds from the file that
        // sets it on, so one in the user's file, read last, changes nothing.
        let config = KConfig(cascade: [pad + "\nNaturalScroll[$i]=true\nTapToClick=false\n",
                                       pad + "\nnaturalscroll=false\nTapToClick=true\n",
                                       pad + "[$i]\nTapToClick=false\n"])
        #expect(config.groups.map { $0.entries.map { "\($0.key)=\($0.value)" } }
                == [["NaturalScroll=true", "TapToClick=false"], ["TapToClick=true"], ["TapToClick=false"]])
    }

    @Test func kdeWithOnlyTheVirtualPadsGroupGivesTheRealPadsLibinputsDefault() throws {
        let session = FakeSession()
        session.files["/home/u/.config/kcminputrc"] = """
            [Mouse]
            cursorSize=24

            [Libinput][0][0][\(VirtualTouchpad.name)]
            NaturalScroll=true
            """
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")),
                                 "the virtual pad's own setting is an answer: KWin applies it to that pad")
        #expect(found.value == false, "a touchpad without a group gets libinput's default")
        #expect(found.perDevice?.virtualTouchpad == true)
        #expect(found.perDevice?.natural(for: DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)) == false)
        #expect(found.source.containsText("no group named like a touchpad"))
        // On X11 the file is stale and not applied per device: no answer from it.
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE", session: "x11")) == nil)
    }

    /// A pad named without a touchpad word ("Synaptics TM3276-022", "bcm5974") whose natural
    /// scrolling alone was changed in System Settings: KWin writes only that key to its group,
    /// and applies it to that pad; the virtual pad, without a group, gets libinput's default.
    @Test func kdeAppliesAGroupNamedUnlikeATouchpadToItsDevice() throws {
        let session = FakeSession()
        session.files["/home/u/.config/kcminputrc"] = "[Libinput][1739][52934][Synaptics TM3276-022]\nNaturalScroll=true\n"
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")),
                                 "KWin applies the group to its device whatever its name")
        #expect(found.perDevice?.natural(for: DeviceIdentity(name: "Synaptics TM3276-022", vendor: 1739, product: 52934)) == true)
        #expect(found.perDevice?.virtualTouchpad == false)
        #expect(found.value == false, "the desktop-wide value is libinput's default")
        #expect(found.source.containsText("Synaptics TM3276-022: true"))
        // A mouse's Libinput group alone is per device too: the touchpads, without one, get
        // libinput's default.
        session.files["/home/u/.config/kcminputrc"] = "[Libinput][1133][49271][Logitech USB Optical Mouse]\nNaturalScroll=true\n"
        let mouse = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(mouse.value == false)
        #expect(mouse.perDevice?.natural(for: DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)) == false)
        #expect(mouse.perDevice?.virtualTouchpad == false)
    }

    /// KWin on Wayland with no `[Libinput]` group, or no kcminputrc at all (a fresh install,
    /// where no touchpad setting was ever changed): KWin leaves every device at libinput's
    /// default, natural on an Apple pad, traditional on the virtual one. Before, this gave no
    /// per-device answer, the virtual pad was taken to scroll as the source did, and an Apple
    /// pad's glide ran against the finger. A `touchpadxlibinputrc` left from an X11 login is
    /// not KWin's on Wayland and is not read.
    /// XDG_CURRENT_DESKTOP=KDE is also set on Hyprland or sway for Qt's sake: with no
    /// [Libinput] group to show KWin's rule, only Plasma's own session (KDE_FULL_SESSION) gets
    /// libinput's per-device defaults; elsewhere no answer, and the fingers move as the user's
    /// did (an Apple pad's glide ran backwards there, every pad having the compositor's one
    /// setting). A group written by Plasma's settings is KWin's rule either way.
    @Test func kdeNamedWithoutPlasmasSessionAnswersOnlyFromAGroup() throws {
        let session = FakeSession()
        session.kdeFullSession = false
        session.files = [:]
        let none = DesktopSettings.search(in: session.environment(desktop: "KDE"))
        guard case .none(let why) = none else { Issue.record("no answer without KWin: \(none)"); return }
        #expect(why.contains("without KDE_FULL_SESSION=true"), "\(why)")
        session.files = ["/home/u/.config/kcminputrc": "[Libinput][2][7][SynPS/2 Synaptics TouchPad]\nNaturalScroll=true\n"]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(found.perDevice != nil && found.value == true, "\(found)")
        session.kdeFullSession = true
        session.files = [:]
        let plasma = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")))
        #expect(plasma.perDevice != nil, "\(plasma)")
    }

    @Test func kwinWithoutATouchpadGroupLeavesEachDeviceAtLibinputsDefault() throws {
        let apple = DeviceIdentity(name: "bcm5974", vendor: 0x05ac, product: 0x0273)
        let synaptics = DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)
        let session = FakeSession()
        for files in [[:], ["/home/u/.config/kcminputrc": "[Mouse]\ncursorSize=24\n"],
                      ["/home/u/.config/touchpadxlibinputrc": Self.touchpadxlibinputrc]] as [[String: String]] {
            session.files = files
            let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE")), "\(files)")
            let perDevice = try #require(found.perDevice, "\(files): KWin applies libinput's default per device")
            #expect(perDevice.natural(for: apple, libinputDefault: { true }) == true, "\(files): an Apple pad is natural by default")
            #expect(perDevice.natural(for: synaptics) == false)
            #expect(perDevice.virtualTouchpad == false)
            #expect(found.value == false, "\(files): the desktop-wide value is libinput's default, not the X11 file's")
            #expect(found.source.containsText("libinput's default"), "\(found.source)")
        }
        session.files = [:]
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.source
                == "KDE /home/u/.config/kcminputrc, not written yet: no touchpad setting changed (libinput's default: off, on for Apple's pads, where a device has no group)")
    }

    /// A kcminputrc left from an earlier Plasma login, read where no desktop is named (a
    /// compositor that sets no XDG_CURRENT_DESKTOP), which applies one setting to every pad: its
    /// touchpad's value is the answer, never KWin's per-device rule, under which the virtual
    /// fingers would move against the real ones. A desktop named otherwise (Hyprland, niri,
    /// COSMIC, sway) does not read it at all: it is not the setting that compositor applies.
    /// Before, a leftover NaturalScroll=true made "auto" natural there.
    @Test func aKcminputrcOnAnotherCompositorIsNotAppliedPerDevice() throws {
        let session = FakeSession()
        session.files["/home/u/.config/kcminputrc"] = "[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]\nNaturalScroll=true\n"
        for desktop in [nil, ""] as [String?] {
            let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: desktop)))
            #expect(found.value == true)
            #expect(found.perDevice == nil, "\(desktop ?? "unset"): not KWin")
        }
        for desktop in ["Hyprland", "niri", "COSMIC", "sway"] {
            #expect(DesktopSettings.search(in: session.environment(desktop: desktop))
                    == .none(why: "XDG_CURRENT_DESKTOP=\(desktop); no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR)"),
                    "\(desktop): the file is not read")
        }
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.perDevice?.virtualTouchpad == false)
        // startx from a console: the session type is tty, the display X's. The X server could
        // not be reached (XInputDevices.read marks every failure unanswered): the search is
        // unanswered, and no KDE file stands in for the X server's per-device settings.
        var startx = session.environment(desktop: "KDE", session: "tty")
        startx.display = ":0"
        startx.xServerDevices = { _ in .failure(DesktopSettings.Miss(why: "cannot connect", unanswered: true)) }
        if case .unanswered = DesktopSettings.search(in: startx) {} else {
            Issue.record("the X server did not answer: unanswered, not a KDE file")
        }
    }

    /// The X server or sway, which hold each touchpad's setting in force, timed out or could
    /// not be reached (a busy login): the search is unanswered, so that the daemon keeps what
    /// they said before. Before, a KDE file left from an earlier Plasma login answered instead,
    /// with no per-device settings, and replaced the good answer.
    @Test func aPerDevicePlaceThatDidNotAnswerIsNotReplacedByALeftoverFile() {
        let session = FakeSession()
        session.files["/home/u/.config/kcminputrc"] = "[Libinput][1739][52934][SYNA801A:00 06CB:CEC6 Touchpad]\nNaturalScroll=true\n"
        session.files["/home/u/.config/touchpadxlibinputrc"] = Self.touchpadxlibinputrc
        session.display = ":0"
        let noSway = "; no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR)"
        for (desktop, why) in [("XFCE", "XDG_CURRENT_DESKTOP=XFCE; cannot connect to the X server :0" + noSway),
                               ("KDE", "XDG_CURRENT_DESKTOP=KDE; cannot connect to the X server :0"),
                               (nil, "XDG_CURRENT_DESKTOP unset; cannot connect to the X server :0" + noSway)] as [(String?, String)] {
            #expect(DesktopSettings.search(in: session.environment(desktop: desktop, session: "x11")) == .unanswered(why: why),
                    "\(desktop ?? "unset"): the X server did not answer")
        }
        session.display = nil
        session.sway = [FakeSession.noReply]
        #expect(DesktopSettings.search(in: session.environment(desktop: nil))
                == .unanswered(why: "XDG_CURRENT_DESKTOP unset; sway at /run/user/1000/sway-ipc.1000.500.sock did not answer get_inputs within 1 s"))

        // libX11 or libXi cannot be loaded: the X server will never answer, and Plasma's own
        // file is the best there is.
        session.sway = []
        session.display = ":0"
        session.xServerFailure = "libXi.so.6: cannot open shared object file: No such file or directory"
        let found = DesktopSettings.search(in: session.environment(desktop: "KDE", session: "x11")).answer
        #expect(found?.value == true)
        #expect(found?.source == "KDE /home/u/.config/touchpadxlibinputrc [SynPS/2 Synaptics TouchPad] naturalScroll")
    }

    @Test func anUnknownDesktopReadsOnlyFilesADesktopWrote() {
        let session = FakeSession()
        session.gsettings = "true\n"
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil)) == nil)
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "sway")) == nil)
        #expect(session.asked.isEmpty, "gsettings would answer with GNOME's default on any machine with its schemas")
        session.files["/home/u/.config/touchpadxlibinputrc"] = Self.touchpadxlibinputrc
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil))?.value == true)
    }

    // MARK: What the daemon logs

    @Test func autoAsksTheDesktopAndSaysWhatItFound() {
        let found = DesktopSettings.naturalScrollingDecision(for: .defaults) { .found(DesktopSettings.Answer(true, "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")) }
        #expect(found.desktop == true)
        #expect(found.message == "natural scrolling: auto → true (GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll)")
        let none = DesktopSettings.naturalScrollingDecision(for: .defaults) { .none(why: "XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed)") }
        #expect(none.desktop == false)
        #expect(none.message == "natural scrolling: auto → false (no desktop setting found: XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed)); set scroll.natural = true if coasts run against your scrolling",
                "the log says why nothing was found")
    }

    /// What the desktop names and prints (a device's name from its firmware, through sway, the
    /// X server or a KDE file; gsettings' output) reaches the log line with its control
    /// characters escaped: a CR LF and `<0>` would start a journal line of priority 0, an ESC
    /// sequence would act on the terminal showing the log.
    @Test func whatTheDesktopSaysReachesTheLogEscaped() throws {
        let name = "Evil\r\n<0>pad\u{1B}[2J"
        let escaped = #"Evil\u000D\u000A<0>pad\u001B[2J"#
        func said(_ finding: DesktopSettings.Finding, _ where_: String) -> String {
            let message = DesktopSettings.naturalScrollingDecision(for: .defaults) { finding }.message
            #expect(!message.unicodeScalars.contains(where: QuotedText.isControl), "\(where_): \(message.debugDescription)")
            if let source = finding.answer?.source {
                #expect(!source.unicodeScalars.contains(where: QuotedText.isControl), "\(where_), as doctor shows it: \(source.debugDescription)")
            }
            return message
        }

        let swaySession = FakeSession()
        swaySession.sway = [#"[{"identifier": "1:2:Evil", "name": "Evil\r\n<0>pad\u001b[2J", "vendor": 1, "product": 2, "#
            + #""type": "touchpad", "libinput": {"natural_scroll": "enabled"}}]"#]
        let sway = said(DesktopSettings.search(in: swaySession.environment(desktop: "sway")), "sway")
        #expect(sway == "natural scrolling: auto → true (sway: get_inputs, \(escaped))")

        let xSession = FakeSession()
        xSession.display = ":0"
        xSession.xServer = [[XInputDevices.Device(name: name, properties: [
            XInputDevices.naturalScrolling: [1], XInputDevices.tapping: [1], XInputDevices.productID: [1, 2]])]]
        let x = said(DesktopSettings.search(in: xSession.environment(desktop: "XFCE", session: "x11")), "X server")
        #expect(x.contains(escaped), "\(x)")

        // KConfig writes a control character in a group's name as \xNN; flickd reads it back.
        let kde = FakeSession()
        kde.files["/home/u/.config/kcminputrc"] = #"[Libinput][1][2][Evil\x0d\x0a<0>Touchpad\x1b\x5b2J]"# + "\nNaturalScroll=true\n"
        let group = said(DesktopSettings.search(in: kde.environment(desktop: "KDE")), "a KDE group named like a touchpad")
        #expect(group.contains(#"[Evil\u000D\u000A<0>Touchpad\u001B[2J]"#), "\(group)")
        kde.files["/home/u/.config/kcminputrc"] = #"[Libinput][1][2][Evil\x0d\x0a<0>pad\x1b\x5b2J]"# + "\nNaturalScroll=true\n"
        let listed = said(DesktopSettings.search(in: kde.environment(desktop: "KDE")), "KWin's per-device groups")
        #expect(listed.contains(escaped + ": true"), "\(listed)")

        let gnome = FakeSession()
        gnome.gsettings = "\u{1B}[2J\r\n<0>forged\n"
        let printed = said(DesktopSettings.search(in: gnome.environment(desktop: "GNOME")), "gsettings")
        #expect(printed.contains(#"gsettings printed "\u001B[2J\r\n<0>forged", not true or false"#), "\(printed)")
    }

    @Test func explicitSettingsSkipTheProbe() {
        var configuration = Configuration()
        configuration.scroll.natural = .on
        var probed = 0
        let decision = DesktopSettings.naturalScrollingDecision(for: configuration) { probed += 1; return .found(DesktopSettings.Answer(false, "x")) }
        #expect(probed == 0)
        #expect(decision.desktop == nil)
        #expect(decision.message == "natural scrolling: true (scroll.natural = true in the configuration, for touchscreen coasts; a touchpad's glide on flickd virtual touchpad goes the way the desktop's own setting scrolls it)",
                "the touchpad output: the desktop scrolls the virtual pad as the real one")
        var wheel = configuration
        wheel.output.mode = .wheel
        #expect(DesktopSettings.naturalScrollingDecision(for: wheel) { .none(why: "not asked") }.message
                == "natural scrolling: true (scroll.natural = true in the configuration; the desktop's setting is not read)")

        // A device section left on auto still needs the desktop's answer.
        var section = Configuration()
        section.scroll.natural = .auto
        configuration.devices = [DeviceRule(name: "Synaptics", configuration: section)]
        #expect(DesktopSettings.naturalScrollingDecision(for: configuration) { probed += 1; return .found(DesktopSettings.Answer(true, "x")) }.desktop == true)
        #expect(probed == 1)
    }

    // MARK: Running gsettings

    @Test func programOutputIsCollected() throws {
        let sh = try #require(ProgramOutput.find("sh"))
        #expect(ProgramOutput.find("flickd-no-such-program") == nil)
        #expect(ProgramOutput.run(sh, ["-c", "echo true"], timeout: .seconds(5)) == .output("true\n"))
        #expect(ProgramOutput.run(sh, ["-c", "echo partial; exit 1"], timeout: .seconds(5)) == .failed("sh exited with status 1"),
                "a failure is no answer")
        #expect(ProgramOutput.run(sh, ["-c", "kill -9 $$"], timeout: .seconds(5)) == .failed("sh was ended by signal 9"))
        let missing = ProgramOutput.run("/nonexistent/gsettings", [], timeout: .seconds(5))
        #expect(missing != .output(""))
        if case .failed(let why) = missing { #expect(why.hasPrefix("gsettings could not be started: ")) } else { Issue.record("\(missing)") }
    }

    @Test func aHungProgramIsKilledAtTheDeadline() throws {
        let sh = try #require(ProgramOutput.find("sh"))
        // Killed, not waited for: a `sleep 10` that ended by itself would answer .output("").
        // exec: the program killed is the sleep itself, not a shell that leaves it running.
        #expect(ProgramOutput.run(sh, ["-c", "exec sleep 10"], timeout: .milliseconds(20)) == .failed("sh did not answer within 20 ms (killed)"))
    }

    /// Under a parent that ignores SIGCHLD the kernel reaps flickd's children as they exit, and
    /// waitpid fails with ECHILD: the program has exited, its status unknown, and its PID may be
    /// another process's already. What it printed to its end is its answer; nothing is polled
    /// until the deadline, and nothing is killed.
    @Test func aChildReapedAlreadyHasExitedAndIsNotKilled() throws {
        let sh = try #require(ProgramOutput.find("sh"))
        var signals: [Int32] = []
        let run = ProgramOutput.run(sh, ["-c", "echo true"], timeout: .seconds(5), reap: { child, _ throws(SystemError) in
            // The kernel's reaping, as an ignored SIGCHLD makes it.
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
            throw SystemError(errno: ECHILD, call: "waitpid")
        }, kill: { signal, _ in signals.append(signal) })
        #expect(run == .output("true\n"))
        #expect(signals.isEmpty, "no signal sent to a PID that may be another process's")
    }

    /// The daemon blocks SIGTERM, SIGINT and SIGHUP for its signalfd; gsettings must not
    /// inherit that mask.
    @Test func theChildStartsWithNoBlockedSignals() throws {
        let sh = try #require(ProgramOutput.find("sh"))
        let previous = try Syscall.blockSignals(Syscall.signalSet([SIGTERM, SIGHUP]))
        defer { Syscall.restoreSignalMask(previous) }
        let output = ProgramOutput.run(sh, ["-c", "grep SigBlk /proc/self/status"], timeout: .seconds(5))
        #expect(output == .output("SigBlk:\t0000000000000000\n"))
    }
}

/// Log lines, for checking what the daemon said.
final class CollectedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] { lock.withLock { storage } }
    /// Runs with each line as it is logged.
    var onLine: ((String) -> Void)?

    var logger: Logger {
        Logger(label: "flickd-test") { _ in CollectingHandler(log: self) }
    }

    fileprivate func append(_ line: String) {
        lock.withLock { storage.append(line) }
        onLine?(line)
    }

    private struct CollectingHandler: LogHandler {
        let log: CollectedLog
        var logLevel: Logger.Level = .debug
        func log(event: LogEvent) {
            log.append("\(event.level): \(event.message)")
        }
    }
}
