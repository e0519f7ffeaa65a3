import FlickCore
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// sway's per-device natural scrolling: its `get_inputs` reply read with json-c, its socket
/// found, and the answer `scroll.natural = "auto"` and the virtual touchpad get.
@Suite struct SwayInputsTests {
    /// A reply shaped like sway 1.7's (`swaymsg -t get_inputs --raw`), trimmed: a keyboard, the
    /// real pad made natural by an identifier rule, flickd's pad left at libinput's default, a
    /// pointing stick, and a second touchpad whose libinput offers no natural scrolling.
    static func reply(virtualPad: Bool = true, realNatural: Bool = true) -> String {
        var inputs = [
            #"{"identifier": "1:1:AT_Translated_Set_2_keyboard", "name": "AT Translated Set 2 keyboard", "vendor": 1, "product": 1, "type": "keyboard", "xkb_active_layout_name": "English (US)", "libinput": {"send_events": "enabled"}}"#,
            #"{"identifier": "2:7:SynPS/2_Synaptics_TouchPad", "name": "SynPS/2 Synaptics TouchPad", "vendor": 2, "product": 7, "type": "touchpad", "libinput": {"send_events": "enabled", "tap": "enabled", "natural_scroll": "\#(realNatural ? "enabled" : "disabled")", "scroll_method": "two_finger", "dwt": "enabled"}}"#,
            #"{"identifier": "2:10:TPPS/2_IBM_TrackPoint", "name": "TPPS/2 IBM TrackPoint", "vendor": 2, "product": 10, "type": "pointer", "libinput": {"natural_scroll": "enabled"}}"#,
            #"{"identifier": "1267:12410:ELAN_Touchpad", "name": "ELAN Touchpad", "vendor": 1267, "product": 12410, "type": "touchpad", "libinput": {"send_events": "enabled"}}"#,
        ]
        if virtualPad {
            inputs.append(#"{"identifier": "0:0:flickd_virtual_touchpad", "name": "\#(VirtualTouchpad.name)", "vendor": 0, "product": 0, "type": "touchpad", "libinput": {"send_events": "enabled", "tap": "disabled", "natural_scroll": "disabled"}}"#)
        }
        return "[" + inputs.joined(separator: ",\n") + "]"
    }

    static let realPad = DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)

    @Test func touchpadsAndTheirNaturalScrollingAreRead() throws {
        let found = try #require(SwayInputs.touchpads(Self.reply()))
        #expect(found.entries.map(\.device) == [Self.realPad, VirtualTouchpad.identity],
                "only touchpads that have the setting; the pointing stick's is not a touchpad's")
        #expect(found.natural(for: Self.realPad) == true)
        #expect(found.virtualTouchpad == false)
        #expect(found.natural(for: DeviceIdentity(name: "ELAN Touchpad", vendor: 1267, product: 12410)) == nil,
                "a touchpad without the setting is unknown, not libinput's default")
        #expect(found.natural(for: DeviceIdentity(name: "Other", vendor: 9, product: 9)) == nil,
                "sway lists every device it has: one it does not list is unknown")
        #expect(try #require(SwayInputs.touchpads(Self.reply(virtualPad: false))).virtualTouchpad == nil)
    }

    /// sway's `input <pad> events disabled`: the pad's flicks start no coast of flickd's.
    @Test func aTouchpadSwayDisablesIsSaid() throws {
        let disabled = Self.reply().replacingOccurrences(of: #""type": "touchpad", "libinput": {"send_events": "enabled", "tap": "enabled""#,
                                                         with: #""type": "touchpad", "libinput": {"send_events": "disabled", "tap": "enabled""#)
        let found = try #require(SwayInputs.touchpads(disabled))
        #expect(found.noCoast(for: Self.realPad) == "sway disables it (events disabled)")
        #expect(found.natural(for: Self.realPad) == true, "its settings are read as before")
        #expect(found.noCoast(for: VirtualTouchpad.identity) == nil)
        #expect(try #require(SwayInputs.touchpads(Self.reply())).noCoast(for: Self.realPad) == nil)
        let onExternalMouse = disabled.replacingOccurrences(of: #""send_events": "disabled""#, with: #""send_events": "disabled_on_external_mouse""#)
        #expect(try #require(SwayInputs.touchpads(onExternalMouse)).noCoast(for: Self.realPad) == nil,
                "disabled only while a mouse is plugged in, which sway does not say")
    }

    @Test func aReplyThatIsNotAnInputListIsNoAnswer() {
        for text in ["", "[", "{}", #"{"success": false, "error": "Unknown command"}"#, "null", "42", "[1, 2"] {
            #expect(SwayInputs.touchpads(text) == nil, "\(text)")
        }
        #expect(SwayInputs.touchpads("[]")?.entries == [], "a sway without inputs is an answer")
        let odd = #"[{"type": "touchpad", "name": "X", "vendor": 70000, "product": 1, "libinput": {"natural_scroll": "enabled"}}, {"type": "touchpad", "name": 5, "vendor": 1, "product": 1, "libinput": {"natural_scroll": "enabled"}}, {"type": "touchpad", "name": "Y", "vendor": 1, "product": 1, "libinput": {"natural_scroll": "maybe"}}]"#
        #expect(SwayInputs.touchpads(odd)?.entries == [], "ids out of range, a name that is no string, an unknown value")
    }

    @Test func theSessionsSwayIsAnsweredPerDevice() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.gsettings = "true\n"
        session.sway = [Self.reply()]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "sway")))
        #expect(found.value == true, "auto follows the first real touchpad, not flickd's")
        #expect(found.source == "\(SwayInputs.source), SynPS/2 Synaptics TouchPad")
        #expect(found.perDevice?.virtualTouchpad == false)
        #expect(session.asked.isEmpty, "GNOME's schema default says nothing about sway")
        session.sway = [Self.reply(realNatural: false)]
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil))?.value == false,
                "no XDG_CURRENT_DESKTOP: a running sway still answers")
    }

    @Test func swayComesBeforeAStaleKdeFileButNotBeforeADesktopThatSaysWhatItIs() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.gsettings = "false\n"
        session.files["/home/u/.config/kcminputrc"] = DesktopSettingsTests.kcminputrc
        session.sway = [Self.reply()]
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "sway"))?.source.hasPrefix(SwayInputs.source) == true)
        // A sway found only by name in the runtime directory (`$SWAYSOCK` names none) may be
        // another session's: the desktop's name decides (see the test below for `$SWAYSOCK`).
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.source.hasPrefix("KDE") == true)
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "GNOME"))?.source.hasPrefix("GNOME") == true)
        // With no desktop named, a KDE file is read where no sway runs; a sway that did not
        // answer leaves the search unanswered (what sway said before holds). On a desktop named
        // sway the KDE file is never read.
        session.sway = ["not json"]
        #expect(DesktopSettings.search(in: session.environment(desktop: nil)).answer == nil,
                "a reply that cannot be read: unanswered, no stale file instead")
        session.sway = []
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: nil, waits: 8))?.source.hasPrefix("KDE") == true)
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "sway", waits: 8)) == nil)
        #expect(session.pauses.isEmpty, "no sway socket: nothing to wait for")
    }

    /// sway sessions set XDG_CURRENT_DESKTOP=KDE (for Qt and the KDE portal) or ...:GNOME. A
    /// sway listening where `$SWAYSOCK` says is this session's compositor: it is asked first,
    /// whatever the name. Before, a kcminputrc left from a Plasma login (here: not natural) or
    /// gsettings' default answered, and the glide ran against the finger.
    @Test func aSwayAtSwaysockIsAskedWhateverTheDesktopIsCalled() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.gsettings = "false\n"
        session.files["/home/u/.config/kcminputrc"] = "[Libinput][2][7][SynPS/2 Synaptics TouchPad]\nNaturalScroll=false\n"
        session.sway = [Self.reply()]
        session.swaysockSet = true
        session.kdeFullSession = false  // sway's session names KDE, but Plasma did not start it
        for desktop in ["KDE", "sway:GNOME", "ubuntu:GNOME"] {
            let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: desktop)), "\(desktop)")
            #expect(found.source.hasPrefix(SwayInputs.source), "\(desktop): \(found.source)")
            #expect(found.value == true && found.perDevice?.virtualTouchpad == false, "\(desktop)")
        }
        #expect(session.asked.isEmpty, "gsettings is not asked")
        // sway silent: what it said before holds (unanswered), no KDE file instead.
        session.sway = [DesktopSettingsTests.FakeSession.noReply]
        if case .unanswered = DesktopSettings.search(in: session.environment(desktop: "KDE")) {} else {
            Issue.record("sway at SWAYSOCK did not answer: unanswered")
        }
        // No sway: KDE is read as before.
        session.sway = []
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.source
                == "KDE /home/u/.config/kcminputrc [Libinput][2][7][SynPS/2 Synaptics TouchPad] NaturalScroll")
    }

    /// sway's `50-systemd-user.conf` imports `SWAYSOCK` into the user manager the user's
    /// sessions share; a Plasma or GNOME session on another VT then finds it live while that
    /// sway runs. That sway is not the compositor of `$WAYLAND_DISPLAY`, or Plasma says it
    /// runs (`KDE_FULL_SESSION=true`): the desktop's name decides, as without a sway.
    @Test func anotherSessionsSwayAtSwaysockDoesNotOutrankTheDesktop() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.gsettings = "false\n"
        session.files["/home/u/.config/kcminputrc"] = "[Libinput][2][7][SynPS/2 Synaptics TouchPad]\nNaturalScroll=false\n"
        session.sway = [Self.reply()]
        session.swaysockSet = true
        let kde = "KDE /home/u/.config/kcminputrc [Libinput][2][7][SynPS/2 Synaptics TouchPad] NaturalScroll"
        // Plasma's own session, even with a sway at SWAYSOCK that would serve its display.
        session.kdeFullSession = true
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.source == kde)
        #expect(session.swayAsks == 0, "sway is not asked")
        // The sway at SWAYSOCK listens on another Wayland display than this session's.
        session.kdeFullSession = false
        session.swayServesThisSession = false
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.source == kde)
        let gnome = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "ubuntu:GNOME")))
        #expect(gnome.source.hasPrefix("GNOME"), "\(gnome.source)")
        #expect(session.swayAsks == 0, "sway is not asked")
        // The same sway serving this session's display: sway answers.
        session.swayServesThisSession = true
        #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "KDE"))?.source.hasPrefix(SwayInputs.source) == true)
    }

    /// sway's `50-systemd-user.conf` imports `SWAYSOCK` into the user manager the user's
    /// sessions share, and a sway nested in this session binds a socket of this user too. The
    /// same user in Hyprland on another VT (`WAYLAND_DISPLAY=wayland-2`) found that sway live,
    /// and as Hyprland is neither KDE nor GNOME, sway was asked: flickd followed its per-device
    /// settings, and the virtual fingers could move against the real ones. A sway that serves
    /// another display is asked on no desktop; one of which that cannot be told is asked as
    /// before; on an X11 session no sway is its compositor, and none is asked.
    @Test func aSwayServingAnotherDisplayIsNotAskedOnAnyDesktop() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.sway = [Self.reply()]
        session.waylandDisplay = "wayland-2"
        session.swayServesThisSession = false
        for swaysockSet in [true, false] {
            session.swaysockSet = swaysockSet
            for desktop in ["Hyprland", "sway", nil] as [String?] {
                let finding = DesktopSettings.search(in: session.environment(desktop: desktop))
                #expect(finding.answer == nil, "\(desktop ?? "unset"), SWAYSOCK \(swaysockSet)")
                #expect(finding.why?.contains("the sway at /run/user/1000/sway-ipc.1000.500.sock serves another Wayland display than this session's ($WAYLAND_DISPLAY=wayland-2)") == true,
                        "\(finding)")
            }
        }
        #expect(session.swayAsks == 0, "sway is not asked")
        // Which display it serves cannot be told (no compositor answers at $WAYLAND_DISPLAY), or
        // it is this one's: asked.
        for serves in [nil, true] as [Bool?] {
            session.swayServesThisSession = serves
            #expect(DesktopSettings.naturalScrolling(in: session.environment(desktop: "Hyprland"))?.source.hasPrefix(SwayInputs.source) == true)
        }
        #expect(session.swayAsks == 2)
        // An X11 session (no $WAYLAND_DISPLAY): the X server has no touchpad, and a sway found,
        // whatever it serves, is not this session's compositor.
        session.swayServesThisSession = nil
        session.waylandDisplay = nil
        session.display = ":0"
        session.xServer = [[]]
        for (desktop, type) in [("i3", "x11"), (nil, nil)] as [(String?, String?)] {
            let finding = DesktopSettings.search(in: session.environment(desktop: desktop, session: type))
            #expect(finding.answer == nil, "\(desktop ?? "unset"): \(finding)")
            #expect(finding.why?.contains("the sway at /run/user/1000/sway-ipc.1000.500.sock is not this X11 session's compositor") == true, "\(finding)")
        }
        #expect(session.swayAsks == 2, "sway is not asked")
    }

    /// Which process listens on a socket, as the kernel says it (`SO_PEERCRED`): both this
    /// test's sockets are this process's, so they count as one compositor's; a Wayland socket
    /// nobody listens on serves nothing.
    @Test func theSameProcessListensOnBothSockets() throws {
        let runtime = try TemporaryDirectory("flickd-sway")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        let wayland = try ListeningSocket(runtime.path + "/wayland-1")
        defer { sway.close(); wayland.close() }
        #expect(SwayInputs.listener(of: sway.path) == .process(getpid()))
        #expect(SwayInputs.servesDisplay(swaySocket: sway.path, waylandSocket: wayland.path))
        #expect(!SwayInputs.servesDisplay(swaySocket: sway.path, waylandSocket: runtime.path + "/wayland-0"), "no compositor there")
        #expect(SwayInputs.listener(of: runtime.path + "/wayland-0") == .none)
        #expect(SwayInputs.servingDisplay(swaySocket: sway.path, waylandSocket: wayland.path) == true)
        #expect(SwayInputs.servingDisplay(swaySocket: sway.path, waylandSocket: runtime.path + "/wayland-0") == nil,
                "no compositor there: cannot be told")
        #expect(SwayInputs.servingDisplay(swaySocket: runtime.path + "/sway-ipc.gone.sock", waylandSocket: wayland.path) == nil)
        // $WAYLAND_DISPLAY as libwayland reads it: a name in the runtime directory, or a path.
        #expect(SwayInputs.waylandSocket(display: "wayland-1", runtimeDirectory: runtime.path) == wayland.path)
        #expect(SwayInputs.waylandSocket(display: wayland.path, runtimeDirectory: nil) == wayland.path)
        #expect(SwayInputs.waylandSocket(display: "wayland-1", runtimeDirectory: nil) == nil)
        #expect(SwayInputs.waylandSocket(display: nil, runtimeDirectory: runtime.path) == nil)
    }

    /// sway's listen backlog full (sway stalled a moment, or flickd's probes unaccepted): the
    /// socket is a sway's all the same, and the ask fails as unanswered, so that the daemon
    /// keeps what sway said last. Before, it was "no sway running", and the daemon dropped it.
    @Test func aSwayWithItsBacklogFullListensAndDidNotAnswer() throws {
        let runtime = try TemporaryDirectory("flickd-sway")
        let sway = try ListeningSocket(runtime.path + "/sway-ipc.\(getuid()).\(getpid()).sock")
        defer { sway.close() }
        var waiting: [Int32] = []
        defer { waiting.forEach { close($0) } }
        while waiting.count < 64, let fd = try? Syscall.connectUnixStream(to: sway.path) { waiting.append(fd) }
        try #require(waiting.count < 64, "the backlog filled")
        #expect(SwayInputs.listens(sway.path))
        #expect(SwayInputs.socketPath(swaysock: sway.path, runtimeDirectory: nil) == sway.path)
        // Who it is cannot be asked then: taken for this session's sway (asked, and unanswered),
        // not for another session's, whose leftover KDE or GNOME setting would replace its answer.
        let wayland = try ListeningSocket(runtime.path + "/wayland-1")
        defer { wayland.close() }
        #expect(SwayInputs.listener(of: sway.path) == .busy)
        #expect(SwayInputs.servesDisplay(swaySocket: sway.path, waylandSocket: wayland.path))
        #expect(SwayInputs.servingDisplay(swaySocket: sway.path, waylandSocket: wayland.path) == true)

        let session = DesktopSettingsTests.FakeSession()
        var environment = session.environment(desktop: "sway")
        environment.swayServesThisSession = { SwayInputs.servingDisplay(swaySocket: $0, waylandSocket: wayland.path) }
        environment.swaySocket = SwayInputs.socketPath(swaysock: nil, runtimeDirectory: runtime.path,
                                                       servesThisSession: environment.swayServesThisSession)
        environment.swayInputs = { SwayInputs.ask(socket: $0, timeout: .seconds(1)) }
        #expect(DesktopSettings.search(in: environment)
                == .unanswered(why: "XDG_CURRENT_DESKTOP=sway; sway at \(sway.path) did not accept the connection for get_inputs: its listen backlog is full (busy)"))
    }

    @Test func theDaemonWaitsForSwayToListTheVirtualTouchpad() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.sway = [Self.reply(virtualPad: false), Self.reply(virtualPad: false), Self.reply()]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "sway", waits: 8)))
        #expect(found.perDevice?.virtualTouchpad == false)
        #expect(session.swayAsks == 3)
        #expect(session.pauses == [.milliseconds(250), .milliseconds(250)])

        let never = DesktopSettingsTests.FakeSession()
        never.sway = [Self.reply(virtualPad: false)]
        let without = try #require(DesktopSettings.naturalScrolling(in: never.environment(desktop: "sway", waits: 8)))
        #expect(without.perDevice?.virtualTouchpad == nil, "after 2 s: answered without it")
        #expect(without.value == true)
        #expect(never.swayAsks == 9)

        let doctor = DesktopSettingsTests.FakeSession()
        doctor.sway = [Self.reply(virtualPad: false)]
        _ = DesktopSettings.naturalScrolling(in: doctor.environment(desktop: "sway"))
        #expect(doctor.swayAsks == 1 && doctor.pauses.isEmpty, "without waits one ask")
    }

    @Test func aSwayBusyStartingIsAskedAgainAndASilentOneKeepsItsLastAnswer() throws {
        let busy = DesktopSettingsTests.FakeSession()
        busy.sway = [DesktopSettingsTests.FakeSession.noReply, DesktopSettingsTests.FakeSession.noReply, Self.reply()]
        let found = try #require(DesktopSettings.naturalScrolling(in: busy.environment(desktop: "sway", waits: 8)))
        #expect(found.perDevice?.virtualTouchpad == false)
        #expect(busy.swayAsks == 3)

        let silent = DesktopSettingsTests.FakeSession()
        silent.sway = [Self.reply(virtualPad: false), DesktopSettingsTests.FakeSession.noReply]
        let last = try #require(DesktopSettings.naturalScrolling(in: silent.environment(desktop: "sway", waits: 8)))
        #expect(last.value == true && last.perDevice?.virtualTouchpad == nil, "the one answer it gave")
        #expect(silent.swayAsks == 9)

        let never = DesktopSettingsTests.FakeSession()
        never.sway = [DesktopSettingsTests.FakeSession.noReply]
        #expect(DesktopSettings.naturalScrolling(in: never.environment(desktop: "sway", waits: 8)) == nil)
        #expect(never.swayAsks == 9)
    }

    @Test func aTouchpadPluggedInIsWaitedForToo() throws {
        let session = DesktopSettingsTests.FakeSession()
        let elan = DeviceIdentity(name: "ELAN Touchpad", vendor: 1267, product: 12410)
        let listed = Self.reply().replacingOccurrences(of: #""ELAN Touchpad", "vendor": 1267, "product": 12410, "type": "touchpad", "libinput": {"send_events": "enabled"}"#,
                                                       with: #""ELAN Touchpad", "vendor": 1267, "product": 12410, "type": "touchpad", "libinput": {"natural_scroll": "enabled"}"#)
        session.sway = [Self.reply(), listed]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "sway", waits: 8, waitingFor: [Self.realPad, elan])))
        #expect(found.perDevice?.natural(for: elan) == true)
        #expect(session.swayAsks == 2 && session.pauses.count == 1)
    }

    @Test func onlyFlickdsPadGivesLibinputsDefaultForAuto() throws {
        let session = DesktopSettingsTests.FakeSession()
        session.sway = ["[" + String(Self.reply().split(separator: "\n").last!)]
        let found = try #require(DesktopSettings.naturalScrolling(in: session.environment(desktop: "sway")))
        #expect(found.value == false)
        #expect(found.source.containsText("no touchpad but flickd's"))
    }

    @Test func theSocketIsSwaysockOrALiveOneOfThisUser() throws {
        let runtime = try TemporaryDirectory("flickd-sway")
        let directory = runtime.path
        for name in ["sway-ipc.1000.400.sock", "sway-ipc.1000.500.sock", "sway-ipc.1001.600.sock", "sway-ipc.1000.x.sock"] {
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: nil)
        }
        // A sway listens where 400 crashed is not; 600 is another user's.
        let listening = Set(["1000.500", "1000.x", "1000.swaysock", "1001.600"].map { directory + "/sway-ipc.\($0).sock" })
        func find(_ swaysock: String?, _ runtime: String?) -> String? {
            let found = SwayInputs.socketPath(swaysock: swaysock, runtimeDirectory: runtime, user: 1000,
                                              isListening: { listening.contains($0) })
            return found.map { String($0.dropFirst(directory.count + 1)) }
        }
        #expect(find(nil, directory) == "sway-ipc.1000.500.sock", "400 crashed; 600 is another user's")
        #expect(find(directory + "/sway-ipc.1000.swaysock.sock", directory) == "sway-ipc.1000.swaysock.sock",
                "SWAYSOCK, where a sway listens")
        #expect(find(directory + "/sway-ipc.1000.400.sock", directory) == "sway-ipc.1000.500.sock",
                "a SWAYSOCK left by an earlier sway")
        #expect(find(directory + "/gone.sock", directory) == "sway-ipc.1000.500.sock")
        #expect(find("", nil) == nil)
        #expect(find(nil, "relative/dir") == nil)
        #expect(SwayInputs.socketPath(swaysock: nil, runtimeDirectory: directory, user: 1000, isListening: { _ in false }) == nil)

        // Which display each serves, where it can be told: a sway nested in this session (or
        // another session's) may sort first, or be the one at SWAYSOCK. Before, the first live
        // socket was taken, and its "no touchpad but flickd's" replaced a good answer.
        func serving(_ swaysock: String?, _ serves: [String: Bool]) -> String? {
            let found = SwayInputs.socketPath(swaysock: swaysock.map { directory + "/" + $0 }, runtimeDirectory: directory, user: 1000,
                                              isListening: { listening.contains($0) },
                                              servesThisSession: { serves[String($0.dropFirst(directory.count + 1))] })
            return found.map { String($0.dropFirst(directory.count + 1)) }
        }
        let nested = "sway-ipc.1000.500.sock", own = "sway-ipc.1000.x.sock", swaysock = "sway-ipc.1000.swaysock.sock"
        #expect(serving(nil, [nested: false, own: true]) == own, "the nested sway sorts first")
        #expect(serving(nil, [nested: false]) == own, "one that cannot be told over one known to be another display's")
        #expect(serving(nil, [nested: false, own: false]) == nil)
        #expect(serving(swaysock, [swaysock: false, own: true]) == own, "SWAYSOCK another session's")
        #expect(serving(swaysock, [nested: true]) == nested, "the sway known to serve this display over one that cannot be told")
        #expect(serving(swaysock, [:]) == swaysock, "nothing can be told: SWAYSOCK, as before")
        #expect(serving(nil, [:]) == nested, "nothing can be told: the first live one, as before")

        let sway = try ListeningSocket(directory + "/sway-ipc.1000.listening.sock")
        #expect(SwayInputs.listens(sway.path))
        #expect(!SwayInputs.listens(directory + "/sway-ipc.1000.400.sock"), "a file, not a socket")
        sway.close()
        #expect(!SwayInputs.listens(sway.path))
    }
}
