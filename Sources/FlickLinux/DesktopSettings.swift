import CShim
import FlickCore
import Glibc

/// The desktop's own touchpad settings, read where that is cheap and reliable: whether its
/// touchpads scroll naturally, which `scroll.natural = "auto"` follows (a coast must go the way
/// the scroll before it went).
///
/// Where it looks, by `XDG_CURRENT_DESKTOP`:
/// - **Any X11 session but GNOME's** (`isX11`): the X server itself, which holds what its
///   libinput driver applies to each touchpad (natural scrolling, and the scroll distance that
///   is its speed), real and virtual, whoever set it (Xfce, Plasma
///   on X11, a start-up script's `xinput set-prop`): its devices' properties, read over a
///   connection of flickd's own with a 2 s timeout (`XInputDevices`); and a change
///   there is heard as the X server makes it (`openServerWatch()`). Where it has no touchpad
///   with those settings (or libX11 and libXi cannot be loaded), the places below; where it
///   timed out or could not be reached, none of them: the search is `unanswered`, and the
///   daemon keeps what the X server said before. GNOME applies its one setting to every touchpad.
/// - **KDE Plasma**: `NaturalScroll` in the touchpad's `[Libinput][vendor][product][name]` group
///   of `$XDG_CONFIG_HOME/kcminputrc` (Wayland, Plasma 5.x and 6), or `naturalScroll` in
///   `touchpadxlibinputrc` (the X11 touchpad module, one group per touchpad); the session type's
///   file first. kcminputrc also holds mice, so only groups named like a touchpad or holding a
///   touchpad-only key (`TapToClick`, `DisableWhileTyping`, ...) give the desktop-wide value.
///   On Wayland with the desktop saying it is KDE, KWin applies every group to its own device
///   (`PerDeviceNaturalScrolling`), whatever the name, and that is read too; kcminputrc alone,
///   which always answers, even when it has no group or does not exist. No entry: KWin's
///   `[Libinput][Defaults][Touchpad]` group's, else libinput's default for the pad: off, but on
///   for Apple's pads (`LibinputQuirks.naturalScrollingByDefault`). Each file
///   is read as KConfig reads it: the one in each `$XDG_CONFIG_DIRS` directory (`/etc/xdg`)
///   first, the user's over them, but not over what one of them locked (`[$i]`, `KConfig`).
/// - **GNOME** and desktops built on its settings (Budgie, Pantheon, anything listing GNOME):
///   `gsettings get org.gnome.desktop.peripherals.touchpad natural-scroll`, run with a 5 s
///   timeout when gsettings is on the PATH. gsettings rather than dconf's files: the user's
///   dconf database is a binary GVariant file, the keyfiles in /etc/dconf hold only system
///   defaults, and only gsettings also knows the schema's default (natural, on GNOME).
/// - **sway**, found by its IPC socket (`$SWAYSOCK`, else a live `sway-ipc.UID.PID.sock` in
///   `$XDG_RUNTIME_DIR`; never one that serves another Wayland display than `$WAYLAND_DISPLAY`,
///   another session's or a nested sway, and none on an X11 session: `notThisSessionsSway`)
///   when the desktop is neither GNOME nor KDE, and first, whatever the
///   desktop's name, when `$SWAYSOCK` itself names a socket a sway listens on (`swayNamed`):
///   its `get_inputs` (what `swaymsg -t get_inputs` prints), asked over that socket with a
///   1 s timeout. sway applies `input` rules by identifier or by type, so it answers per
///   device, with what each touchpad has now (`libinput.natural_scroll`); and it tells when
///   that changes, and a sway that starts later is waited for (`watchChanges()`). A sway that
///   did not answer makes the search `unanswered`, as the X server's silence does.
/// - **Unset desktop**: the KDE files if they exist (Plasma writes them only when its touchpad
///   settings were changed), never gsettings: GNOME's schemas are installed on most systems, and
///   their default would claim natural scrolling for a desktop that has none.
/// - **Any other desktop** (Hyprland, niri, COSMIC, ...): nothing more. A KDE file there is left
///   from an earlier Plasma login, not the setting the compositor applies.
///
/// Rationale: a wrong guess makes every coast run backwards, so only a setting a desktop in
/// use actually wrote (or, on GNOME, its effective value) counts; otherwise nil, and "auto"
/// means false, libinput's default. A daemon started outside the desktop session (a system
/// service) sees no desktop and reads nothing: the log says so, and `true`/`false` fix it.
public enum DesktopSettings {
    /// What the desktop said about its touchpads' natural scrolling.
    public struct Answer: Sendable, Equatable {
        /// The setting `scroll.natural = "auto"` follows: the desktop's (GNOME), or its first
        /// real touchpad's (KDE Plasma).
        public var value: Bool
        /// Where it was read, for the log: `"GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll"`.
        /// The probe escapes the control characters of what the desktop named in it (a device's
        /// name, a KDE group) as `\u001B`: it stays one line, with nothing for a terminal to act on.
        public var source: String
        /// Each device's own setting, where the desktop keeps one per device and flickd can read
        /// it (KDE Plasma on Wayland, sway, an X server); nil elsewhere.
        public var perDevice: PerDeviceNaturalScrolling?

        public init(_ value: Bool, _ source: String, perDevice: PerDeviceNaturalScrolling? = nil) {
            self.value = value
            self.source = source
            self.perDevice = perDevice
        }
    }

    /// What asking the desktop gave: its answer, or where flickd looked and why each place
    /// gave nothing, for the log (`"XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within
    /// 5 s (killed)"`).
    public enum Finding: Sendable, Equatable {
        case found(Answer)
        /// The places looked in have no setting.
        case none(why: String)
        /// No setting either, but a place that keeps one did not answer (gsettings, sway or the
        /// X server timed out, could not be reached or said nothing readable): what it said
        /// before may still hold.
        case unanswered(why: String)

        /// The answer; nil when none was found.
        public var answer: Answer? {
            if case .found(let answer) = self { return answer }
            return nil
        }

        /// Where the search looked and why each place gave nothing; nil when it found an answer.
        public var why: String? {
            switch self {
            case .found: return nil
            case .none(let why), .unanswered(let why): return why
            }
        }
    }

    /// The GSettings schema and key GNOME keeps the touchpad's natural scrolling in.
    public static let gnomeSchema = "org.gnome.desktop.peripherals.touchpad"
    /// The key in `gnomeSchema`.
    public static let gnomeKey = "natural-scroll"
    /// The longest `gsettings` may take before it is killed and ignored. It starts a process
    /// that reaches dconf over the session bus, which on a busy machine (a login, a loaded
    /// test guest) can take more than a second: at a 1 s limit, flickd in the guest once read
    /// no setting at its start and ran on the fallback until GNOME's setting next changed. The
    /// daemon waits for it on `DesktopQuery`'s thread, so the limit holds up no event.
    public static let gsettingsTimeout = Duration.seconds(5)
    /// The longest one ask of the X server may take: a connection and a few questions.
    public static let xServerTimeout = Duration.seconds(2)
    /// The longest sway may take to answer `GET_INPUTS` on its socket, which it does at once
    /// unless busy starting (then the probe asks again, see `naturalScrolling(waitingFor:)`).
    public static let swayTimeout = Duration.milliseconds(1000)

    /// Whether the desktop's touchpads scroll naturally, and where that was read
    /// (`"GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll"`); when no
    /// setting was found, where flickd looked and why it found none.
    /// `waitingFor`: on sway or an X server, when one of these devices is not among the inputs
    /// yet (they add a device a moment after the kernel does, flickd's virtual touchpad
    /// included), or sway did not answer in time (busy starting; an X server that did not is
    /// not asked again), ask again every 250 ms, up to 8 more times, before
    /// answering with what it said last. The daemon names its touchpads
    /// and, with the touchpad output, its virtual one; `flickd doctor` waits for none.
    public static func naturalScrolling(waitingFor devices: [DeviceIdentity] = []) -> Finding {
        var environment = Environment.current()
        environment.waitingFor = devices
        environment.waits = devices.isEmpty ? 0 : 8
        return search(in: environment)
    }

    /// What `scroll.natural = "auto"` means for `configuration` now, and the line to log.
    /// The desktop is asked (through `probe`) only when a setting is `auto`, at the top level or
    /// in a `[[device]]` section; `desktop` is nil when it was not asked.
    public static func naturalScrollingDecision(
        for configuration: Configuration, probe: () -> Finding
    ) -> (desktop: Bool?, message: String) {
        guard configuration.followsDesktopNaturalScrolling else {
            let value = configuration.naturalScrolling(for: nil, kind: .touchpad, desktop: nil).isNatural
            // With the touchpad output the desktop scrolls the virtual pad as it does the real
            // one (`Engine.glide`): the explicit value decides touchscreen coasts, not a pad's.
            let applies = configuration.output.mode == .touchpad
                ? "for touchscreen coasts; a touchpad's glide on \(VirtualTouchpad.name) goes the way the desktop's own setting scrolls it"
                : "the desktop's setting is not read"
            return (nil, "natural scrolling: \(value) (scroll.natural = \(value) in the configuration\(configuration.output.mode == .touchpad ? ", " : "; ")\(applies))")
        }
        // What the desktop said is built escaped where it is read; the reasons of a miss carry
        // text from elsewhere too (the X library's error, a path from the environment).
        switch probe() {
        case .none(let why), .unanswered(let why):
            return (false, "natural scrolling: auto → false (no desktop setting found: \(QuotedText.controlsEscaped(why))); set scroll.natural = true if coasts run against your scrolling")
        case .found(let found):
            return (found.value, "natural scrolling: auto → \(found.value) (\(QuotedText.controlsEscaped(found.source)))")
        }
    }

    // MARK: The probe, with its inputs injectable

    /// What the probe reads: the session's variables, files, and gsettings.
    struct Environment {
        /// `XDG_CURRENT_DESKTOP`: `GNOME`, `ubuntu:GNOME`, `KDE`, ...
        var currentDesktop: String?
        /// `XDG_SESSION_TYPE`: `wayland` or `x11`.
        var sessionType: String?
        /// `KDE_FULL_SESSION=true`: Plasma's own session start set it (and hands it to the
        /// systemd user manager), so KWin is the compositor; `XDG_CURRENT_DESKTOP=KDE` alone is
        /// also set on other compositors for Qt's and the KDE portal's sake.
        var kdeFullSession = false
        /// `$XDG_CONFIG_HOME`, else `$HOME/.config`; nil when neither is set.
        var configHome: String?
        /// `$XDG_CONFIG_DIRS`, else `/etc/xdg`: the system-wide configuration directories, the
        /// first the most important, below `configHome` (KDE's files cascade through them).
        var configDirs: [String] = ["/etc/xdg"]
        /// A file's text; nil when it cannot be read.
        var readFile: (String) -> String?
        /// The standard output of `gsettings get <schema> <key>` when it exits with 0; else why
        /// not (no gsettings on the PATH, its exit status, its timeout).
        var gsettingsGet: (_ schema: String, _ key: String) -> ProgramOutput.Run
        /// The IPC socket of the sway this session runs (`SwayInputs.socketPath`, which passes
        /// over one `swayServesThisSession` says is another display's); nil: none.
        var swaySocket: String?
        /// `$XDG_RUNTIME_DIR`, where a sway that starts later binds its socket; nil: unset.
        var runtimeDirectory: String?
        /// `$SWAYSOCK` as set, whether a sway listens there or not (a sway started with it set
        /// binds there); nil: unset.
        var swaysock: String?
        /// Whether the sway listening on the socket given is this session's compositor: in
        /// `current()`, the one serving `$WAYLAND_DISPLAY` (`SwayInputs.servingDisplay`): true
        /// (or busy), false (another compositor serves that display), nil when that cannot be
        /// told (no `$WAYLAND_DISPLAY`, no compositor there to ask). An environment built
        /// otherwise (a test's) asks nothing and takes it for this session's.
        var swayServesThisSession: (_ socket: String) -> Bool? = { _ in true }
        /// sway's inputs as JSON (its `get_inputs` reply, asked over `swaySocket`); why not when
        /// sway cannot be reached or does not answer in time.
        var swayInputs: (_ socket: String) -> Result<String, SwayIPC.Failure> = { _ in .failure(.timedOut) }
        /// `$DISPLAY` and `$WAYLAND_DISPLAY` (see `isX11`).
        var display: String?
        var waylandDisplay: String?
        /// The X server's pointer devices on `display` and their properties
        /// (`XInputDevices.read`); why not when it cannot be asked (no X server, its timeout,
        /// no libXi).
        var xServerDevices: (_ display: String) -> Result<[XInputDevices.Device], Miss> = { _ in .failure(Miss(why: "not asked")) }
        /// The devices sway should list, how many times to ask it again while it does not (see
        /// `naturalScrolling(waitingFor:)`), and the pause between two asks.
        var waitingFor: [DeviceIdentity] = []
        var waits = 0
        var pause: (Duration) -> Void = { _ in }

        /// The variables that say which session this is (`XDG_CURRENT_DESKTOP`,
        /// `XDG_SESSION_TYPE`, `DISPLAY`, `WAYLAND_DISPLAY`), from this process's environment;
        /// nothing is read or asked (no sway socket is tried), and nothing can be.
        static func session() -> Environment {
            var environment = Environment(currentDesktop: variable("XDG_CURRENT_DESKTOP"), sessionType: variable("XDG_SESSION_TYPE"),
                                          configHome: nil, readFile: { _ in nil }, gsettingsGet: { _, _ in .failed("not asked") },
                                          display: variable("DISPLAY"), waylandDisplay: variable("WAYLAND_DISPLAY"))
            environment.kdeFullSession = variable("KDE_FULL_SESSION") == "true"
            return environment
        }

        /// This process's environment.
        static func current() -> Environment {
            let home = variable("HOME")
            let xdgConfig = variable("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            let runtimeDirectory = variable("XDG_RUNTIME_DIR").flatMap { $0.hasPrefix("/") ? $0 : nil }
            var environment = session()
            environment.configHome = xdgConfig ?? home.map { $0 + "/.config" }
            let configDirs = (variable("XDG_CONFIG_DIRS") ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            environment.configDirs = configDirs.isEmpty ? ["/etc/xdg"] : configDirs
            environment.readFile = { path in try? TextFile.read(path) }
            environment.gsettingsGet = { schema, key in
                guard let gsettings = ProgramOutput.find("gsettings") else { return .failed("gsettings is not on the PATH") }
                return ProgramOutput.run(gsettings, ["get", schema, key], timeout: gsettingsTimeout)
            }
            let waylandSocket = SwayInputs.waylandSocket(display: variable("WAYLAND_DISPLAY"), runtimeDirectory: runtimeDirectory)
            environment.swayServesThisSession = { socket in
                waylandSocket.flatMap { SwayInputs.servingDisplay(swaySocket: socket, waylandSocket: $0) }
            }
            environment.swaySocket = SwayInputs.socketPath(swaysock: variable("SWAYSOCK"), runtimeDirectory: runtimeDirectory,
                                                           servesThisSession: environment.swayServesThisSession)
            environment.runtimeDirectory = runtimeDirectory
            environment.swaysock = variable("SWAYSOCK")
            environment.swayInputs = { socket in SwayInputs.ask(socket: socket, timeout: swayTimeout) }
            environment.xServerDevices = { display in XInputDevices.read(display: display, timeout: xServerTimeout) }
            environment.pause = { duration in Syscall.sleep(duration) }
            return environment
        }

        private static func variable(_ name: String) -> String? {
            guard let value = getenv(name) else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
    }

    /// A watch on the session's desktop for changes to its touchpads' settings (the X
    /// server's, which blocks while it opens, is `openServerWatch()`): on Xfce under
    /// X11, its `pointers` channel's file (`xfcePointersFile`); on a desktop
    /// that is neither KDE nor GNOME, sway's input events, and a sway starting in the runtime
    /// directory when none runs (`SwaySessionWatch`); KDE Plasma's files (the user's and the
    /// system directories', `kdeCascade`), and GNOME's dconf
    /// database, `$XDG_CONFIG_HOME/dconf/user` (`DesktopFilesWatch`). nil when there is neither
    /// a sway to reach nor a runtime directory, no configuration directory, or inotify fails.
    /// `logger` hears about directories that cannot be watched and sway's comings and goings.
    ///
    /// Rationale for GNOME: it applies its one setting to the virtual touchpad as to the real
    /// one, so a touchpad's glide does not depend on flickd's answer there; a touchscreen's
    /// glide and the wheel output's do (see `Engine.desktopNaturalScrolling`). dconf's service
    /// writes every change of any setting by renaming a new database over `user`; gsettings,
    /// asked again on the query's thread, says whether the touchpad's key changed.
    public static func watchChanges(logger: Logger) -> (any DesktopWatch)? {
        watchChanges(in: .current(), logger: logger)
    }

    static func watchChanges(in environment: Environment, logger: Logger) -> (any DesktopWatch)? {
        let (isKDE, isGNOME) = desktops(environment)
        if isX11(environment), let path = xfcePointersFile(environment) {
            return try? DesktopFilesWatch(paths: [path], logger: logger)
        }
        // No sway on an X11 session: one running is another session's, or nested in this one.
        if (!isKDE && !isGNOME) || swayNamed(environment), !hasOnlyXDisplay(environment) {
            let socket = environment.swaySocket.flatMap { notThisSessionsSway(at: $0, environment) == nil ? $0 : nil }
            return try? SwaySessionWatch(socket: socket, runtimeDirectory: environment.runtimeDirectory, swaysock: environment.swaysock,
                                         servesThisSession: environment.swayServesThisSession, logger: logger)
        }
        if isGNOME, let configHome = environment.configHome {
            return try? DesktopFilesWatch(paths: [configHome + "/dconf/user"], logger: logger)
        }
        guard isKDE, let files = kdeFiles(environment) else { return nil }
        return try? DesktopFilesWatch(paths: files.flatMap { kdeCascade($0.path, environment) }, logger: logger)
    }

    /// The X server's watch on each touchpad's natural scrolling (`XServerWatch`) on a session
    /// whose X server flickd asks (`askedXDisplay`), or why it could not be opened; nil on any
    /// other session. Blocks while the X server answers: `DesktopQuery` calls it on its helper
    /// thread. It is kept beside `watchChanges`'s watch (on Xfce its `pointers` file, saved
    /// seconds after the X server has the change).
    public static func openServerWatch() -> ServerWatchOpening? {
        guard let display = askedXDisplay(.session()) else { return nil }
        do {
            return .opened(try XServerWatch(display: display))
        } catch {
            return .failed(why: error.why)
        }
    }

    /// A watch for an X server starting at the display flickd asks (`XServerStartWatch`): when
    /// the X server's watch ended with its server, or could not be opened; nil on any other
    /// session, for a display reached over the network, or when `/tmp/.X11-unix` cannot be
    /// watched (said on `logger` at debug).
    public static func watchServerStart(logger: Logger) -> (any DesktopWatch)? {
        guard let display = askedXDisplay(.session()), let socket = xServerSocket(display: display) else { return nil }
        do {
            return try XServerStartWatch(socket: socket)
        } catch {
            logger.debug("natural scrolling: cannot wait for an X server to start at \(socket): \(error)")
            return nil
        }
    }

    /// The socket an X server at `display` binds in the file system: `/tmp/.X11-unix/X0` for
    /// `:0`, `:0.1` or `unix:0`; nil for a display reached over the network (`host:10.0`, as
    /// ssh's forwarding sets it) or spelt otherwise.
    static func xServerSocket(display: String) -> String? {
        var rest = Substring(display)
        if rest.hasPrefix("unix:") { rest = rest.dropFirst(5) } else if rest.hasPrefix(":") { rest = rest.dropFirst() } else { return nil }
        let number = rest.prefix { $0 != "." }
        let screen = rest.dropFirst(number.count + 1)
        func digits(_ text: Substring) -> Bool { text.allSatisfy { $0 >= "0" && $0 <= "9" } }
        guard !number.isEmpty, digits(number), digits(screen) else { return nil }
        return "/tmp/.X11-unix/X" + number
    }

    /// Whether `XDG_CURRENT_DESKTOP` names KDE or a GNOME-family desktop; sway is looked for on
    /// any other (and on these when `swayNamed`).
    private static func desktops(_ environment: Environment) -> (isKDE: Bool, isGNOME: Bool) {
        let desktops = (environment.currentDesktop ?? "").lowercased().split(separator: ":").map(String.init)
        return (desktops.contains("kde"), desktops.contains { $0.containsText("gnome") || $0 == "pantheon" })
    }

    /// Whether `$SWAYSOCK` itself names the socket a sway listens on (`swaySocket` is it), not
    /// merely a socket found by name in the runtime directory, and that sway serves this
    /// session's Wayland display (`swayServesThisSession`): then sway runs this session,
    /// whatever `XDG_CURRENT_DESKTOP` says, but for Plasma's own session (`KDE_FULL_SESSION`).
    ///
    /// Rationale: sway sessions set `XDG_CURRENT_DESKTOP=KDE` (for Qt and the KDE portal) or
    /// `...:GNOME`; asked by the name, flickd read a kcminputrc left from a Plasma login or
    /// gsettings' default, and a glide could run against the finger. sway sets `SWAYSOCK` for
    /// its children; a live socket there is sway's word, if that sway is the compositor of
    /// `$WAYLAND_DISPLAY`. sway's `50-systemd-user.conf` imports `SWAYSOCK` into the user
    /// manager, which all the user's sessions share: a Plasma or GNOME session on another VT
    /// then sees a live `SWAYSOCK` of a sway that is not its compositor. A `sway-ipc` socket
    /// found by name alone may be another session's sway too, and does not outrank the
    /// desktop's name.
    static func swayNamed(_ environment: Environment) -> Bool {
        guard !environment.kdeFullSession, let swaysock = environment.swaysock, !swaysock.isEmpty,
              environment.swaySocket == swaysock
        else { return false }
        return environment.swayServesThisSession(swaysock) == true
    }

    /// Why the sway at `socket` is not this session's compositor, so that it is neither asked
    /// nor followed, on any desktop; nil when it is, or that cannot be told. On an X11 session
    /// (`hasOnlyXDisplay`) no sway is; elsewhere, one that serves another Wayland display than
    /// `$WAYLAND_DISPLAY` (`swayServesThisSession` false) is not.
    ///
    /// Rationale: sway's `50-systemd-user.conf` imports `SWAYSOCK` into the user manager the
    /// user's sessions share, and a sway nested in this session binds a `sway-ipc` socket of
    /// this user too. Asked on a desktop that is neither KDE nor GNOME (Hyprland on another VT),
    /// that sway's per-device settings were taken for the ones in force: the virtual fingers
    /// could move against the real ones, and a nested sway's "no touchpad but flickd's"
    /// replaced a good answer kept from before.
    static func notThisSessionsSway(at socket: String, _ environment: Environment) -> String? {
        if hasOnlyXDisplay(environment) {
            return "the sway at \(socket) is not this X11 session's compositor ($DISPLAY=\(environment.display ?? ""), no $WAYLAND_DISPLAY)"
        }
        guard environment.swayServesThisSession(socket) == false else { return nil }
        return "the sway at \(socket) serves another Wayland display than this session's ($WAYLAND_DISPLAY=\(environment.waylandDisplay ?? "?"))"
    }

    /// Whether the session has an X display and no Wayland one: an X11 session, whatever
    /// `XDG_SESSION_TYPE` says.
    private static func hasOnlyXDisplay(_ environment: Environment) -> Bool {
        environment.waylandDisplay == nil && environment.display != nil
    }

    /// Xfce's `pointers` channel as its settings store saves it, a few seconds after each change
    /// (`$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml/pointers.xml`), on an Xfce session;
    /// nil elsewhere. Rationale: Xfce's settings daemon applies a change to the X server at once,
    /// so when the file is written the X server has the new setting to read (seen in the test
    /// guest: the property at once, the file 5 s later).
    static func xfcePointersFile(_ environment: Environment) -> String? {
        let desktops = (environment.currentDesktop ?? "").lowercased().split(separator: ":")
        guard desktops.contains("xfce"), let configHome = environment.configHome else { return nil }
        return configHome + "/xfce4/xfconf/xfce-perchannel-xml/pointers.xml"
    }

    /// The X display flickd asks for each touchpad's settings in `environment`'s session: an
    /// X11 session's (`isX11`) that is not GNOME's, whose one setting is read from gsettings;
    /// nil elsewhere.
    static func askedXDisplay(_ environment: Environment) -> String? {
        !desktops(environment).isGNOME && isX11(environment) ? environment.display : nil
    }

    /// Whether the session is X11's: `XDG_SESSION_TYPE=x11`, or an X display without a Wayland
    /// one where the session type is unset or `tty` (`startx` from a console login). A Wayland
    /// session's `DISPLAY` is Xwayland's, whose devices are not the touchpads.
    static func isX11(_ environment: Environment) -> Bool {
        switch environment.sessionType?.lowercased() {
        case "x11": return environment.display != nil
        case nil, "tty": return environment.display != nil && environment.waylandDisplay == nil
        default: return false
        }
    }

    static func naturalScrolling(in environment: Environment) -> Answer? {
        search(in: environment).answer
    }

    /// The desktop's answer (see `naturalScrolling(waitingFor:)`), or where the search looked
    /// and why each place gave nothing.
    static func search(in environment: Environment) -> Finding {
        let (isKDE, isGNOME) = desktops(environment)
        var misses: [String] = []
        var unanswered = false
        var perDeviceUnanswered = false
        func look(_ place: (Environment) -> Result<Answer, Miss>, keepsPerDevice: Bool = false) -> Answer? {
            switch place(environment) {
            case .success(let answer): return answer
            case .failure(let miss):
                misses.append(miss.why)
                unanswered = unanswered || miss.unanswered
                // libX11 or libXi missing: the X server was never asked and never will be, so
                // there is no earlier answer to keep, and the files below are the best there is.
                if keepsPerDevice && miss.unanswered && !XInputDevices.librariesMissing(miss.why) { perDeviceUnanswered = true }
                return nil
            }
        }
        func nothing() -> Finding {
            let desktop = environment.currentDesktop.map { "XDG_CURRENT_DESKTOP=\($0)" } ?? "XDG_CURRENT_DESKTOP unset"
            let why = ([desktop] + misses).joined(separator: "; ")
            return unanswered ? .unanswered(why: why) : .none(why: why)
        }
        if askedXDisplay(environment) != nil, let found = look(x11NaturalScrolling, keepsPerDevice: true) { return .found(found) }
        if (!isKDE && !isGNOME) || swayNamed(environment), let found = look(swayNaturalScrolling, keepsPerDevice: true) {
            return .found(found)
        }
        // Rationale: the X server or sway, which hold each touchpad's setting in force, timed out
        // or could not be reached; a KDE file left from an earlier Plasma login would answer
        // with no per-device settings, and replace the good answer they gave before (the daemon
        // keeps that only for an unanswered search).
        if perDeviceUnanswered { return nothing() }
        // KDE's files only on KDE, or where no desktop is named: on another (Hyprland, niri,
        // COSMIC) a file left from an earlier Plasma login is not the setting in force.
        let desktopUnset = (environment.currentDesktop ?? "").trimmingWhitespace.isEmpty
        if isKDE || desktopUnset, let found = look({ kdeNaturalScrolling(in: $0, kwin: isKDE) }) { return .found(found) }
        if isGNOME, let found = look(gnomeNaturalScrolling) { return .found(found) }
        return nothing()
    }

    /// Why a place the search looked in gave no answer; `unanswered`: it keeps a setting but
    /// did not answer (see `Finding.unanswered`).
    struct Miss: Error, Equatable {
        var why: String
        var unanswered = false
    }

    /// GNOME's answer, from gsettings.
    private static func gnomeNaturalScrolling(in environment: Environment) -> Result<Answer, Miss> {
        switch environment.gsettingsGet(gnomeSchema, gnomeKey) {
        case .failed(let why):
            return .failure(Miss(why: why, unanswered: true))
        case .output(let output):
            guard let value = parseGSettingsBoolean(output) else {
                return .failure(Miss(why: "gsettings printed \(QuotedText.quoted(String(output.trimmingWhitespace.prefix(80)))), not true or false"))
            }
            return .success(Answer(value, "GNOME gsettings \(gnomeSchema) \(gnomeKey)"))
        }
    }

    /// sway's answer: the first real touchpad's setting, and every touchpad's (see
    /// `SwayInputs`). A session with sway and no touchpad answers libinput's default. A miss
    /// when no sway runs or it never gave a readable answer.
    private static func swayNaturalScrolling(in environment: Environment) -> Result<Answer, Miss> {
        guard let socket = environment.swaySocket else {
            return .failure(Miss(why: "no sway running (no sway-ipc socket at $SWAYSOCK or in $XDG_RUNTIME_DIR)"))
        }
        if let why = notThisSessionsSway(at: socket, environment) { return .failure(Miss(why: why)) }
        return perDeviceAnswer(environment) {
            let json: String
            switch environment.swayInputs(socket) {
            case .success(let reply): json = reply
            case .failure(let failure): return .failure(Miss(why: failure.why("get_inputs", at: socket, within: swayTimeout), unanswered: true))
            }
            return SwayInputs.touchpads(json).map { .success($0) }
                ?? .failure(Miss(why: "sway's get_inputs reply at \(socket) could not be read", unanswered: true))
        }
    }

    /// The X server's answer on an X11 session: what its libinput or synaptics driver applies
    /// to each touchpad, real and virtual, and whether the driver glides by itself (see
    /// `XInputDevices`); and the scrolling speed of each touchpad the libinput driver drives
    /// (`XInputDevices.scrollFactor`, from its scroll distance), none for the synaptics
    /// driver's. A miss when the server cannot be reached (or libXi cannot be loaded), or when
    /// it has no touchpad driven by either (Xwayland), so that the desktop's own files are read
    /// then.
    private static func x11NaturalScrolling(in environment: Environment) -> Result<Answer, Miss> {
        guard let display = environment.display else { return .failure(Miss(why: "no X display ($DISPLAY unset)")) }
        let source = XInputDevices.source(display: display)
        // Rationale: an X server that failed an ask is not asked again. One that is hung (or
        // stopped) keeps the connection thread of the ask that gave up, and every later ask waits
        // its full 2 s for that thread: 8 more asks held the query's thread ~20 s. One that is
        // still starting is the start watch's (`XServerStartWatch`). A listing without a device
        // waited for (and one without any touchpad: the virtual one may not be added yet) is
        // asked again, as on sway.
        let found = perDeviceAnswer(environment, asksAgainAfterMiss: false) {
            var entries: [PerDeviceNaturalScrolling.Entry] = []
            var scrollFactors: [PerDeviceNaturalScrolling.ScrollFactor] = []
            switch environment.xServerDevices(display) {
            case .failure(let miss): return .failure(miss)
            case .success(let devices):
                for device in devices {
                    guard let entry = XInputDevices.touchpad(device) else { continue }
                    entries.append(entry)
                    if entry.xDriver == XInputDevices.libinput, let factor = XInputDevices.scrollFactor(device) {
                        scrollFactors.append(.init(device: entry.device, factor: factor))
                    }
                }
            }
            var perDevice = PerDeviceNaturalScrolling(entries: entries, source: source, unlisted: nil)
            perDevice.scrollFactors = scrollFactors
            return .success(perDevice)
        }
        guard case .success(let answer) = found, answer.perDevice?.entries.isEmpty ?? false else { return found }
        return .failure(Miss(why: "the X server at \(display) has no touchpad with libinput's or the synaptics driver's settings"))
    }

    /// The answer of a desktop that lists its touchpads with their settings (sway, an X
    /// server): `ask`ed again every 250 ms while a device of `environment.waitingFor` is not
    /// listed (and, with `asksAgainAfterMiss`, while an ask gives no listing), up to
    /// `environment.waits` more times, then the last listing. Its first real
    /// touchpad's setting is the desktop's; one with no touchpad but flickd's answers
    /// libinput's default. A miss when no ask gave a listing (the last ask's reason).
    private static func perDeviceAnswer(_ environment: Environment, asksAgainAfterMiss: Bool = true,
                                        _ ask: () -> Result<PerDeviceNaturalScrolling, Miss>) -> Result<Answer, Miss> {
        var waits = environment.waits
        var listing: PerDeviceNaturalScrolling?
        var miss = Miss(why: "not asked")
        while true {
            switch ask() {
            case .success(let found):
                listing = found
                if !environment.waitingFor.contains(where: { found.natural(for: $0) == nil }) { waits = 0 }
            case .failure(let reason):
                miss = reason
                if !asksAgainAfterMiss { waits = 0 }
            }
            guard waits > 0 else { break }
            waits -= 1
            environment.pause(.milliseconds(250))
        }
        guard let perDevice = listing else { return .failure(miss) }
        guard let first = perDevice.entries.first(where: { $0.device != VirtualTouchpad.identity }) else {
            return .success(Answer(PerDeviceNaturalScrolling.unsetDefault, "\(perDevice.source): no touchpad but flickd's", perDevice: perDevice))
        }
        // The name is the device's own (its firmware's, through sway or the X server): escaped.
        return .success(Answer(first.natural, QuotedText.controlsEscaped("\(perDevice.source), \(first.device.name)"), perDevice: perDevice))
    }

    /// KDE Plasma's touchpad files, the session type's first: `kcminputrc` (Wayland) and
    /// `touchpadxlibinputrc` (X11). nil without a config directory.
    private static func kdeFiles(_ environment: Environment) -> [(path: String, isKcminputrc: Bool)]? {
        guard let configHome = environment.configHome else { return nil }
        let wayland = (path: configHome + "/kcminputrc", isKcminputrc: true)
        let x11 = (path: configHome + "/touchpadxlibinputrc", isKcminputrc: false)
        return isX11Session(environment) ? [x11, wayland] : [wayland, x11]
    }

    /// The files KConfig reads for the user's KDE file at `path`, the least important first: the
    /// one of the same name in each `$XDG_CONFIG_DIRS` directory, the last listed first, then the
    /// user's. A change to any of them (a package's new `/etc/xdg/kcminputrc`) may change the answer.
    private static func kdeCascade(_ path: String, _ environment: Environment) -> [String] {
        let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
        return environment.configDirs.reversed().map { $0 + "/" + name } + [path]
    }

    /// Whether KDE's X11 files apply: the session says x11, or it is X's without saying so
    /// (`isX11`: `startx` from a console).
    private static func isX11Session(_ environment: Environment) -> Bool {
        environment.sessionType?.lowercased() == "x11" || isX11(environment)
    }

    /// KDE Plasma's answer from its files. `kwin`: the desktop says it is KDE, so that on
    /// Wayland its compositor, KWin, applies kcminputrc's groups per device (`kwinNaturalScrolling`).
    /// Elsewhere (an X11 session, or no desktop named) a kcminputrc may be left from an earlier
    /// Plasma login, and applying KWin's rule to a compositor that applies one setting to every
    /// pad would make the virtual fingers move against the real ones: only its touchpad's value
    /// counts.
    private static func kdeNaturalScrolling(in environment: Environment, kwin: Bool) -> Result<Answer, Miss> {
        guard let files = kdeFiles(environment) else {
            return .failure(Miss(why: "no KDE files to read ($XDG_CONFIG_HOME and $HOME unset)"))
        }
        if kwin && !isX11Session(environment), let kcminputrc = files.first(where: \.isKcminputrc) {
            let answer = kwinNaturalScrolling(kcminputrc.path, environment)
            // With no [Libinput] group at all, the answer is libinput's default for every pad:
            // right under KWin, but XDG_CURRENT_DESKTOP=KDE is set on other compositors too
            // (Hyprland, sway: for Qt and the KDE portal), which give every pad their own one
            // setting; there, an Apple pad's glide would run against the finger. So only in
            // Plasma's own session (KDE_FULL_SESSION).
            let anyGroup = answer.perDevice.map { !$0.entries.isEmpty || $0.defaultsGroup != nil } ?? false
            guard anyGroup || environment.kdeFullSession else {
                return .failure(Miss(why: "XDG_CURRENT_DESKTOP=KDE without KDE_FULL_SESSION=true, and no [Libinput] group in \(answer.perDevice?.source ?? kcminputrc.path): KWin is not known to run"))
            }
            return .success(answer)
        }
        var read: [String] = []
        for (path, isKcminputrc) in files {
            // KConfig reads the file of each system directory, the least important first, and the
            // user's last (`kdeCascade`).
            let cascade = kdeCascade(path, environment).compactMap { file in environment.readFile(file).map { (file, $0) } }
            guard !cascade.isEmpty else { continue }
            read.append(contentsOf: cascade.map { $0.0 })
            let parse = isKcminputrc ? kcminputrcNaturalScrolling(in:) : touchpadxlibinputrcNaturalScrolling(in:)
            // The desktop-wide value is the first touchpad's of the most important file that has
            // one: the user's, then the system directories' in their order; an entry a less
            // important file locked stays in that file's groups, and the user's is not read.
            let config = KConfig(cascade: cascade.map { $0.1 })
            guard let (file, found) = cascade.indices.reversed().lazy.compactMap({ index in
                parse(config.groups.filter { $0.file == index }).map { (cascade[index].0, $0) }
            }).first else {
                continue
            }
            // The group names a device as KConfig wrote it, its \xNN escapes read back.
            return .success(Answer(found.value, QuotedText.controlsEscaped("KDE \(file) \(found.group) \(found.key)")))
        }
        if read.isEmpty {
            return .failure(Miss(why: "no KDE touchpad file (\(files.map(\.path).joined(separator: ", ")))"))
        }
        return .failure(Miss(why: "no touchpad's natural scrolling in \(read.joined(separator: ", "))"))
    }

    /// KWin's settings on Wayland, from the kcminputrc at `path` and the system's under it: KWin
    /// applies each `[Libinput]` group to its own device, whatever the device's name, and to a
    /// device without one its defaults group's, else libinput's default for the device (off,
    /// on for Apple's pads). So there is always an answer, per device: with no kcminputrc at all
    /// (a fresh install; Plasma writes it once a setting is changed), every device, flickd's
    /// virtual pad included, keeps libinput's default. Taking no file for no answer made the
    /// glide of an Apple pad, natural by default, run against the finger. The X11 module's
    /// `touchpadxlibinputrc` is not read: left from an X11 login, KWin does not apply it.
    private static func kwinNaturalScrolling(_ path: String, _ environment: Environment) -> Answer {
        // Read as KConfig reads them (its locks kept); the per-device parser takes a device's
        // last entry.
        let cascade = kdeCascade(path, environment).compactMap { file in environment.readFile(file).map { (file, $0) } }
        let config = KConfig(cascade: cascade.map { $0.1 })
        let source = cascade.isEmpty ? "\(path), not written yet" : cascade.map { $0.0 }.joined(separator: ", ")
        let perDevice = PerDeviceNaturalScrolling(kcminputrc: config, file: source)
        // The desktop-wide value is the first touchpad's of the most important file that has one.
        if let (file, found) = cascade.indices.reversed().lazy.compactMap({ index in
            kcminputrcNaturalScrolling(in: config.groups.filter { $0.file == index }).map { (cascade[index].0, $0) }
        }).first {
            // The group names a device as KConfig wrote it, its \xNN escapes read back.
            return Answer(found.value, QuotedText.controlsEscaped("KDE \(file) \(found.group) \(found.key)"), perDevice: perDevice)
        }
        // No group is named like a touchpad or holds a touchpad-only key (a pad named
        // "Synaptics TM3276-022" or "bcm5974" whose natural scrolling alone was changed; only
        // flickd's own pad has a group; no group, or no file): the desktop-wide value is what a
        // device without a group gets.
        let listed = perDevice.entries.map { "\($0.device.name): \($0.natural)" }.joined(separator: ", ")
        let unlisted = perDevice.unlisted ?? PerDeviceNaturalScrolling.unsetDefault
        let where_ = perDevice.unlistedIsLibinputDefault ? "libinput's default: off, on for Apple's pads"
            : perDevice.defaultsGroup.map { "KWin's \($0), \(unlisted)" } ?? "\(unlisted)"
        let what = cascade.isEmpty ? "no touchpad setting changed" : "no group named like a touchpad"
        // The names are the devices' as KConfig wrote them, their \xNN escapes read back.
        return Answer(unlisted,
                      QuotedText.controlsEscaped("KDE \(perDevice.source): \(what) (\(where_), where a device has no group)\(listed.isEmpty ? "" : "; " + listed)"),
                      perDevice: perDevice)
    }

    // MARK: Parsers

    /// `gsettings get` output: `true` or `false` and a newline. Anything else (an error text,
    /// a different type) is nil.
    static func parseGSettingsBoolean(_ output: String) -> Bool? {
        switch output.trimmingWhitespace {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// Words in a kcminputrc device name that make it a touchpad.
    static let touchpadWords = ["touchpad", "trackpad", "clickpad", "glidepoint"]
    /// kcminputrc keys only the touchpad settings write (lowercased).
    static let touchpadOnlyKeys: Set<String> = [
        "taptoclick", "tapanddrag", "tapdraglock", "disablewhiletyping", "lmrtapbuttonmap", "clickmethod",
    ]

    /// The first touchpad's `NaturalScroll` in a kcminputrc: its value, group and key.
    static func kcminputrcNaturalScrolling(_ text: String) -> (value: Bool, group: String, key: String)? {
        kcminputrcNaturalScrolling(in: KConfig(text: text).groups)
    }

    /// The first touchpad's `NaturalScroll` among a kcminputrc's `groups`.
    static func kcminputrcNaturalScrolling(in groups: [KConfig.Group]) -> (value: Bool, group: String, key: String)? {
        for group in groups where group.path.first == "Libinput" && group.path.count >= 4 {
            let name = group.path[group.path.count - 1].lowercased()
            // flickd's own touchpad gets a group once its settings were changed: not the user's pad.
            if PerDeviceNaturalScrolling.device(ofGroup: group.path) == VirtualTouchpad.identity { continue }
            let isTouchpad = touchpadWords.contains { name.containsText($0) }
                || group.entries.contains { touchpadOnlyKeys.contains($0.key.lowercased()) }
            guard isTouchpad, let entry = group.entries.last(where: { $0.key.lowercased() == "naturalscroll" }),
                  let value = KConfig.boolean(entry.value) else { continue }
            return (value, group.header, entry.key)
        }
        return nil
    }

    /// The first touchpad's `naturalScroll` in a touchpadxlibinputrc (one group per touchpad,
    /// named by the device), flickd's own pad's passed over as in kcminputrc.
    static func touchpadxlibinputrcNaturalScrolling(_ text: String) -> (value: Bool, group: String, key: String)? {
        touchpadxlibinputrcNaturalScrolling(in: KConfig(text: text).groups)
    }

    /// The first touchpad's `naturalScroll` among a touchpadxlibinputrc's `groups`.
    static func touchpadxlibinputrcNaturalScrolling(in groups: [KConfig.Group]) -> (value: Bool, group: String, key: String)? {
        for group in groups where !group.path.isEmpty {
            // flickd's own touchpad gets a group once its settings were changed: not the user's pad.
            if group.path.last == VirtualTouchpad.name { continue }
            guard let entry = group.entries.last(where: { $0.key.lowercased() == "naturalscroll" }),
                  let value = KConfig.boolean(entry.value) else { continue }
            return (value, group.header, entry.key)
        }
        return nil
    }
}

/// A desktop's natural-scrolling setting for each device, where it keeps one per device and
/// flickd can read it:
/// - KDE Plasma on Wayland. KWin applies the `NaturalScroll` entry of the
///   `[Libinput][vendor][product][name]` group of kcminputrc (ids in decimal) to that one device,
///   and to a device without one KWin's defaults group's, else libinput's default for it (off;
///   on for Apple's pads), flickd's virtual touchpad included until its settings are changed in
///   System Settings.
/// - sway, which lists every input it has with the settings in force: a device it does not list
///   is one it has not seen, whose setting is unknown.
/// - An X server on an X11 session, likewise (`XInputDevices`).
public struct PerDeviceNaturalScrolling: Sendable, Equatable {
    /// One device's entry: the device its group names (with both ids) and its setting.
    public struct Entry: Sendable, Equatable {
        public var device: DeviceIdentity
        public var natural: Bool
        /// Why the device's driver glides by itself (the synaptics X driver's coasting, see
        /// `XInputDevices`), so that its flicks start no coast of flickd's; nil: it does not.
        public var driverGlides: String?
        /// The X input driver that drives the device, where the X server was read
        /// (`XInputDevices`: "libinput" or "synaptics"); nil elsewhere.
        public var xDriver: String?

        public init(device: DeviceIdentity, natural: Bool, driverGlides: String? = nil, xDriver: String? = nil) {
            self.device = device
            self.natural = natural
            self.driverGlides = driverGlides
            self.xDriver = xDriver
        }
    }

    /// The devices with a setting, in the desktop's order.
    public var entries: [Entry]
    /// Where they were read (a file, or sway's inputs), for messages.
    public var source: String
    /// What a device without an entry gets: KWin's defaults group's, else `unsetDefault`, on
    /// KDE; nil (unknown) on sway.
    public var unlisted: Bool?
    /// KDE: the group of KWin's defaults `unlisted` comes from (`[Libinput][Defaults][Touchpad]`);
    /// nil when kcminputrc has none.
    public var defaultsGroup: String?
    /// KDE: a device without an entry keeps libinput's default for it, as no defaults group sets
    /// one: off (`unlisted`), but on for the pads libinput scrolls naturally by default (Apple's),
    /// which `natural(for:libinputDefault:)` asks about.
    public var unlistedIsLibinputDefault = false

    /// One device's scrolling speed: what the desktop multiplies its scrolls by (KWin's
    /// `ScrollFactor`, sway's `scroll_factor`; under X, the libinput driver's default scroll
    /// distance over the device's).
    public struct ScrollFactor: Sendable, Equatable {
        public var device: DeviceIdentity
        public var factor: Double

        public init(device: DeviceIdentity, factor: Double) {
            self.device = device
            self.factor = factor
        }
    }

    /// The devices with a scrolling speed of their own, in the desktop's order (KWin: a group
    /// holding `ScrollFactor`, with or without `NaturalScroll`; sway: every touchpad it lists;
    /// an X server: every touchpad its libinput driver drives, 15 over the pad's
    /// `libinput Scrolling Pixel Distance`, see `XInputDevices.scrollFactor`; none for the
    /// synaptics driver's).
    public var scrollFactors: [ScrollFactor] = []
    /// What a device without a scrolling speed of its own gets: KWin's defaults group's
    /// `ScrollFactor`, else `unsetScrollFactor`, on KDE; nil (unknown) elsewhere (sway, an X
    /// server).
    public var unlistedScrollFactor: Double?

    /// A device the desktop disabled, and how it says so (`"sway disables it (events
    /// disabled)"`).
    public struct Disabled: Sendable, Equatable {
        public var device: DeviceIdentity
        public var why: String

        public init(device: DeviceIdentity, why: String) {
            self.device = device
            self.why = why
        }
    }

    /// The touchpads the desktop disabled (sway's `events disabled`, KWin's `Enabled=false` in
    /// the device's kcminputrc group), in the desktop's order.
    ///
    /// Rationale: the desktop hands a disabled pad's events to no app, but flickd reads the
    /// kernel's device: its flicks coasted, scrolling what the pad itself could not.
    public var disabled: [Disabled] = []

    /// libinput's default for most devices, off.
    public static let unsetDefault = false
    /// The scrolling speed KWin and sway give a device without a factor: scrolls as libinput made them.
    public static let unsetScrollFactor = 1.0

    public init(entries: [Entry], source: String, unlisted: Bool? = unsetDefault) {
        self.entries = entries
        self.source = source
        self.unlisted = unlisted
    }

    /// The entries of a kcminputrc's `[Libinput]` groups that hold a `NaturalScroll`; a device
    /// without one gets KWin's defaults for touchpads (`kwinDefaults`).
    init(kcminputrc text: String, file: String) {
        self.init(kcminputrc: KConfig(text: text), file: file)
    }

    /// The same, from kcminputrc's cascade as KConfig reads it (`KConfig(cascade:)`).
    init(kcminputrc config: KConfig, file: String) {
        var entries: [Entry] = []
        var scrollFactors: [ScrollFactor] = []
        for group in config.groups {
            guard let device = Self.device(ofGroup: group.path) else { continue }
            // Each key on its own: a group may set the speed and leave the direction to the defaults.
            if let entry = group.entries.last(where: { $0.key.lowercased() == "naturalscroll" }),
               let natural = KConfig.boolean(entry.value) {
                entries.append(Entry(device: device, natural: natural))
            }
            if let factor = Self.scrollFactor(in: group.entries) {
                scrollFactors.append(ScrollFactor(device: device, factor: factor))
            }
        }
        let defaults = Self.kwinDefaults(config)
        self.init(entries: entries, source: file, unlisted: defaults?.natural ?? Self.unsetDefault)
        // KWin's `Enabled` per device, its last value in the cascade.
        var enabled: [(device: DeviceIdentity, header: String, on: Bool)] = []
        for group in config.groups {
            guard let device = Self.device(ofGroup: group.path),
                  let entry = group.entries.last(where: { $0.key.lowercased() == "enabled" }),
                  let on = KConfig.boolean(entry.value) else { continue }
            enabled.removeAll { $0.device == device }
            enabled.append((device, group.header, on))
        }
        // The group names the device as KConfig wrote it: escaped where it is logged.
        disabled = enabled.filter { !$0.on }.map { Disabled(device: $0.device, why: "KDE disables it (\($0.header) Enabled=false)") }
        defaultsGroup = defaults?.group
        unlistedIsLibinputDefault = defaults?.natural == nil
        self.scrollFactors = scrollFactors
        unlistedScrollFactor = defaults?.scrollFactor ?? Self.unsetScrollFactor
    }

    /// The last `ScrollFactor` among a group's `entries` that KWin can read (a number: KConfig
    /// reads a `qreal` as Qt's `toDouble`, which takes no unit or comma); nil when none.
    static func scrollFactor(in entries: [(key: String, value: String)]) -> Double? {
        guard let entry = entries.last(where: { $0.key.lowercased() == "scrollfactor" }),
              let factor = Double(entry.value), factor.isFinite else { return nil }
        return factor
    }

    /// The group of KWin's defaults that applies to a touchpad, when kcminputrc has one, and the
    /// `NaturalScroll` and `ScrollFactor` it gives (nil when it has none: libinput's default
    /// direction, a factor of 1). KWin takes `[Libinput][Defaults][Touchpad]`, else
    /// `[Libinput][Defaults][Pointer]` (a touchpad is a pointer), else `[Libinput][Defaults]`
    /// itself, and a device's own group over it.
    static func kwinDefaults(_ config: KConfig) -> (group: String, natural: Bool?, scrollFactor: Double?)? {
        for path in [["Libinput", "Defaults", "Touchpad"], ["Libinput", "Defaults", "Pointer"], ["Libinput", "Defaults"]] {
            // KConfig has a group that has subgroups too; its own entries are those headed by it.
            guard config.groups.contains(where: { $0.path.starts(with: path) }) else { continue }
            let entries = config.groups.filter { $0.path == path }.flatMap(\.entries)
            let value = entries.last { $0.key.lowercased() == "naturalscroll" }.flatMap { KConfig.boolean($0.value) }
            return (path.map { "[\($0)]" }.joined(), value, scrollFactor(in: entries))
        }
        return nil
    }

    /// The device a kcminputrc group `[Libinput][vendor][product][name]` is for; nil for other groups.
    static func device(ofGroup path: [String]) -> DeviceIdentity? {
        guard path.count >= 4, path[0] == "Libinput", let vendor = UInt16(path[1]), let product = UInt16(path[2])
        else { return nil }
        return DeviceIdentity(name: path[path.count - 1], vendor: vendor, product: product)
    }

    /// The setting the desktop gives the device `identity`; nil when its ids are unknown (then
    /// its entry cannot be named) or the desktop does not list it (`unlisted`). A device left at
    /// libinput's default (`unlistedIsLibinputDefault`) gets `libinputDefault()`: whether
    /// libinput scrolls it naturally by default (`InputDevice.naturalScrollingByDefault`).
    public func natural(for identity: DeviceIdentity, libinputDefault: () -> Bool = { false }) -> Bool? {
        guard identity.vendor != nil, identity.product != nil else { return nil }
        if let entry = entries.last(where: { $0.device == identity }) { return entry.natural }
        guard let unlisted else { return nil }
        return unlistedIsLibinputDefault ? libinputDefault() : unlisted
    }

    /// The scrolling speed the desktop gives the device `identity` (`scrollFactors`, else
    /// `unlistedScrollFactor`); nil when its ids are unknown or the desktop keeps none for it
    /// that flickd can read (sway or the X server has not listed it; the synaptics X driver's
    /// pads; an older sway or libinput X driver without the setting).
    public func scrollFactor(for identity: DeviceIdentity) -> Double? {
        guard identity.vendor != nil, identity.product != nil else { return nil }
        return scrollFactors.last { $0.device == identity }?.factor ?? unlistedScrollFactor
    }

    /// The scrolling speed the desktop gives flickd's virtual touchpad; nil when unknown.
    public var virtualTouchpadScrollFactor: Double? { scrollFactor(for: VirtualTouchpad.identity) }

    /// Why the driver of the device `identity` glides by itself; nil when it does not, or the
    /// device is not listed or cannot be named.
    public func driverGlides(for identity: DeviceIdentity) -> String? {
        guard identity.vendor != nil, identity.product != nil else { return nil }
        return entries.last { $0.device == identity }?.driverGlides
    }

    /// Why flickd starts no coast from the flicks of the device `identity`: its driver glides by
    /// itself (`driverGlides(for:)`), or the desktop disabled it (`disabled`); nil when neither,
    /// or the device cannot be named.
    public func noCoast(for identity: DeviceIdentity) -> String? {
        guard identity.vendor != nil, identity.product != nil else { return nil }
        return driverGlides(for: identity) ?? disabled.last { $0.device == identity }.map { QuotedText.controlsEscaped($0.why) }
    }

    /// Whether the synaptics X driver drives flickd's virtual touchpad. It scrolls that pad by a
    /// distance it computes from the pad's size, and on the 1000 mm pad that overflowed: a glide
    /// through it scrolls next to nothing (docs/APPS.md, "The synaptics X driver").
    public var synapticsDrivesVirtualTouchpad: Bool {
        entries.last { $0.device == VirtualTouchpad.identity }?.xDriver == XInputDevices.synaptics
    }

    /// The setting the desktop gives flickd's virtual touchpad; nil when unknown (sway has not
    /// added it yet).
    public var virtualTouchpad: Bool? { natural(for: VirtualTouchpad.identity) }
}

/// The part of KDE's INI dialect the touchpad files use: `[a][b]` group headers, `key=value`
/// entries, `key[$i]` and `key[locale]` suffixes, `#` comments; and how KConfig reads a cascade
/// of them, its `[$i]` locks included.
struct KConfig {
    struct Group {
        /// The bracketed parts of the header: `[Libinput][1739][52934][Name]` → 4 parts.
        var path: [String]
        /// The header as written, for messages.
        var header: String
        /// The entries in file order, keys without suffixes.
        var entries: [(key: String, value: String)]
        /// Which file of the cascade the group was read from: its index, the least important
        /// file's 0.
        var file = 0
    }

    /// The groups in file order, file after file; entries before any header are in a group
    /// with no parts.
    var groups: [Group] = []

    init(text: String) {
        self.init(cascade: [text])
    }

    /// The files of a cascade (`/etc/xdg`'s, then the user's), the least important first, as
    /// KConfig reads them: each file's entries over the ones before, but none over an entry
    /// KConfig keeps immutable. That is an entry written `key[$i]=`, and each entry of a group
    /// headed `[group][$i]`, whose entries in the later files are then not read at all; a
    /// `[$i]` line of its own (at the top of a file: every group after it is locked so) also
    /// leaves the more important files unread.
    ///
    /// Rationale: an administrator locks a setting in `/etc/xdg/kcminputrc` (KDE's "Kiosk"),
    /// and KWin applies the locked value whatever the user's file says. Read as plain
    /// entries, the user's `NaturalScroll=false` won over a locked `NaturalScroll[$i]=true`,
    /// and every glide ran backwards.
    init(cascade texts: [String]) {
        // Locked groups by path; locked entries by group path and lowercased key (the key is
        // found lowercased, see `entries`' readers).
        var lockedGroups: Set<[String]> = []
        var lockedKeys: Set<[String]> = []
        for (file, text) in texts.enumerated() {
            var fileLocked = false
            var groupLocked = false
            var skipping = false
            var newlyLocked: [[String]] = []
            var current = Group(path: [], header: "", entries: [], file: file)
            for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                let line = rawLine.trimmingWhitespace
                if line.isEmpty || line.hasPrefix("#") { continue }
                if line.hasPrefix("[") {
                    groups.append(current)
                    let (path, locked) = Self.header(line)
                    if locked && path.isEmpty { fileLocked = true }
                    groupLocked = fileLocked || locked
                    // A group locked by an earlier file: its entries here are not read. One this
                    // file locks is locked for the files after it.
                    skipping = lockedGroups.contains(path)
                    if groupLocked { newlyLocked.append(path) }
                    current = Group(path: path, header: path.map { "[\($0)]" }.joined(), entries: [], file: file)
                    continue
                }
                guard !skipping, let equals = line.firstIndex(of: "=") else { continue }
                let (key, keyLocked) = Self.key(line[..<equals])
                let id = current.path + [key.lowercased()]
                if lockedKeys.contains(id) { continue }
                current.entries.append((key, line[line.index(after: equals)...].trimmingWhitespace))
                if groupLocked || keyLocked { lockedKeys.insert(id) }
            }
            groups.append(current)
            lockedGroups.formUnion(newlyLocked)
            if fileLocked { break }
        }
        groups.removeAll { $0.path.isEmpty && $0.entries.isEmpty }
    }

    /// An entry's key without its suffixes (`NaturalScroll[$i]` → `NaturalScroll`), and whether
    /// one of them is an option bracket holding `i` (`[$i]`, `[$ie]`): immutable.
    private static func key(_ text: Substring) -> (key: String, locked: Bool) {
        guard let bracket = text.firstIndex(of: "[") else { return (text.trimmingWhitespace, false) }
        let suffixes = text[bracket...].split(separator: "[").map { $0.prefix { $0 != "]" } }
        return (String(text[..<bracket]).trimmingWhitespace, suffixes.contains { $0.hasPrefix("$") && $0.contains("i") })
    }

    /// `[a][b c][$i]` → (["a", "b c"], true): the parts (`$` markers dropped), each unescaped,
    /// and whether the last is `$i`, KConfig's lock (a header of no parts but it: the file's).
    /// KConfig writes a `]` in a group's name as `\x5d` (and `[` as `\x5b`, `\` as `\\`), so
    /// that a device named "Foo [BT] Touchpad" has the group `[Foo \x5bBT\x5d Touchpad]`.
    private static func header(_ line: String) -> (path: [String], locked: Bool) {
        var parts: [String] = []
        var last: String?
        var current: String?
        for character in line {
            if current == nil {
                if character == "[" { current = "" }
            } else if character == "]" {
                if let part = current {
                    if !part.hasPrefix("$") { parts.append(unescaped(part)) }
                    last = part
                }
                current = nil
            } else {
                current?.append(character)
            }
        }
        return (parts, last == "$i")
    }

    /// KConfig's escapes in a name: `\xNN` (a byte), `\\`, `\n`, `\t`, `\r`, `\s` (a space);
    /// anything else as written.
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < utf8.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            switch utf8[index + 1] {
            case UInt8(ascii: "x") where index + 3 < utf8.count:
                if let high = hex(utf8[index + 2]), let low = hex(utf8[index + 3]) {
                    bytes.append(high << 4 | low)
                    index += 4
                    continue
                }
                bytes.append(byte)
                index += 1
                continue
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "n"): bytes.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "t"): bytes.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "r"): bytes.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "s"): bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
                index += 1
                continue
            }
            index += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A KConfig boolean: `true`/`on`/`yes`/`1` or `false`/`off`/`no`/`0`, any case.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "on", "yes", "1": return true
        case "false", "off", "no", "0": return false
        default: return nil
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs, carriage returns and newlines.
    var trimmingWhitespace: String {
        let blanks: Set<Character> = [" ", "\t", "\r", "\n"]
        guard let first = firstIndex(where: { !blanks.contains($0) }),
              let last = lastIndex(where: { !blanks.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}

// MARK: Running a program for its output

extension Duration {
    /// For a log: whole seconds as `5 s`, anything else in milliseconds (`250 ms`).
    var spoken: String {
        microseconds % 1_000_000 == 0 ? "\(microseconds / 1_000_000) s" : "\(microseconds / 1000) ms"
    }
}

/// Runs a short-lived program and collects its standard output, with a deadline.
enum ProgramOutput {
    /// Output beyond this is dropped (a settings value is a few bytes).
    static let maximumBytes = 65536

    /// The first executable `name` in `$PATH` (`/usr/local/bin:/usr/bin:/bin` when unset).
    static func find(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = directory + "/" + name
            if Syscall.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// How a run went: the program's standard output, or why there is none, for a log
    /// (`"gsettings did not answer within 5 s"`).
    enum Run: Equatable, Sendable {
        case output(String)
        case failed(String)
    }

    /// The standard output of `executable arguments...` if it exits with status 0 within
    /// `timeout`, or with a status that cannot be known (reaped already: SIGCHLD ignored) once
    /// it closed its output; else why not (it is killed at the deadline). Standard input and
    /// error are /dev/null; the child starts with no blocked signals, whatever the daemon
    /// blocks. `reap` waits for the child (`Syscall.exitStatus`) and `kill` signals it
    /// (`Syscall.sendSignal`); tests pass their own.
    static func run(_ executable: String, _ arguments: [String], timeout: Duration,
                    reap: (pid_t, _ wait: Bool) throws(SystemError) -> Int32? = Syscall.exitStatus(of:wait:),
                    kill: (Int32, pid_t) -> Void = Syscall.sendSignal(_:to:)) -> Run {
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        let deadline = Syscall.monotonicNow() + timeout
        let pipe: (read: Int32, write: Int32)
        let child: pid_t
        do {
            pipe = try Syscall.makePipe()
        } catch {
            return .failed("\(name) could not be started: \(error)")
        }
        do {
            child = try Syscall.spawn(executable, arguments: arguments, standardOutput: pipe.write)
        } catch {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
            return .failed("\(name) could not be started: \(error)")
        }
        Syscall.close(pipe.write)
        defer { Syscall.close(pipe.read) }

        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { chunk.deallocate() }
        var finished = false
        while !finished {
            let left = deadline - Syscall.monotonicNow()
            guard left > .zero, (try? Syscall.waitReadable(pipe.read, timeout: left)) == true else { break }
            guard let count = try? Syscall.read(pipe.read, into: chunk) else { break }
            if count == 0 { finished = true } else if bytes.count < maximumBytes { bytes.append(contentsOf: chunk[0..<count]) }
        }
        // At the end of its output a program is exiting; give it until the deadline, then kill.
        // One that cannot be waited for (ECHILD: the kernel reaped it as it exited, which it does
        // while SIGCHLD is ignored, as a parent may leave it for flickd; waitpid's one other
        // failure, EINVAL, these arguments cannot cause) has exited, its status unknown, and
        // its PID may be another process's by now: it is never killed.
        var status: Int32?
        var reaped = false
        while status == nil, !reaped, Syscall.monotonicNow() < deadline {
            do {
                status = try reap(child, false)
            } catch {
                reaped = true
            }
            if status == nil && !reaped { usleep(2000) }
        }
        if status == nil && !reaped {
            kill(SIGKILL, child)
            _ = try? reap(child, true)
            return .failed("\(name) did not answer within \(timeout.spoken) (killed)")
        }
        if let status, status != 0 {
            return .failed(status >= 256 ? "\(name) was ended by signal \(status - 256)" : "\(name) exited with status \(status)")
        }
        guard finished else { return .failed("\(name) did not close its output within \(timeout.spoken)") }
        return .output(String(decoding: bytes, as: UTF8.self))
    }
}

extension Syscall {
    /// Whether `path` is a file this process may execute.
    static func isExecutable(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        return Glibc.access(path, X_OK) == 0
    }

    /// A pipe whose two ends close on exec, from their creation on (`pipe2(O_CLOEXEC)`): the
    /// probes spawn on a thread of their own, and a child spawned between a `pipe` and its
    /// `fcntl` would keep the other ends open.
    static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard cshim_pipe_cloexec(&ends) == 0 else { throw SystemError(errno: Glibc.errno, call: "pipe2") }
        return (ends[0], ends[1])
    }

    /// Starts `path` with `arguments` and this process's environment; its standard output is
    /// `standardOutput`, its standard input and error /dev/null. Its signal mask is emptied and
    /// the signals the daemon handles are reset to their defaults.
    static func spawn(_ path: String, arguments: [String], standardOutput: Int32) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = signalSet([])
        var defaults = signalSet([SIGTERM, SIGINT, SIGHUP, SIGPIPE])
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let words = [path] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, environ)
        if result != 0 { throw SystemError(errno: result, call: "posix_spawn", path: path) }
        return child
    }

    /// Waits up to `timeout` for `fd` to be readable (or closed at the other end).
    static func waitReadable(_ fd: Int32, timeout: Duration) throws(SystemError) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: max(0, (timeout.microseconds + 999) / 1000))
        while true {
            let result = Glibc.poll(&entry, 1, milliseconds)
            if result >= 0 { return result > 0 }
            if Glibc.errno == EINTR { continue }
            throw SystemError(errno: Glibc.errno, call: "poll")
        }
    }

    /// The exit status of `child` once it has ended (256 + signal number when a signal ended
    /// it); nil while it runs, when not `wait`ing.
    static func exitStatus(of child: pid_t, wait: Bool) throws(SystemError) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(child, &status, wait ? 0 : WNOHANG)
            if result == 0 { return nil }
            if result > 0 {
                let signal = status & 0x7f
                return signal == 0 ? (status >> 8) & 0xff : 256 + signal
            }
            if Glibc.errno == EINTR { continue }
            throw SystemError(errno: Glibc.errno, call: "waitpid")
        }
    }

    /// Sends `signal` to `child`; a child already gone is not an error worth reporting.
    static func sendSignal(_ signal: Int32, to child: pid_t) {
        _ = Glibc.kill(child, signal)
    }
}

/// A touchpad's scrolling speed against the virtual touchpad's, as the desktop gives them, in
/// words for the daemon's log and `flickd doctor`: the engine moves the virtual fingers
/// `ratio` times as fast as the real ones (`Engine.glideSpeedRatio`).
struct GlideSpeedText: Equatable {
    /// The desktop's factor for the real pad and for the virtual one.
    var source: Double
    var virtual: Double
    /// `Engine.glideSpeedRatio(source:virtual:)`: negative when the fingers are turned round,
    /// 0 when the pad glides nothing.
    var ratio: Double

    /// nil when either factor is unknown, or one the engine takes for unknown (not finite). A
    /// negative one (a hand-edited ScrollFactor=-1, which reverses that pad in KWin) turns the
    /// fingers round where the other pad's is positive.
    init?(source: Double?, virtual: Double?) {
        guard let source, let virtual, source.isFinite, virtual.isFinite else { return nil }
        self.source = source
        self.virtual = virtual
        ratio = Engine.glideSpeedRatio(source: source, virtual: virtual)
    }

    /// `2.0×`, `0.5×`, `1.25×`: to the hundredth, at least one decimal.
    static func times(_ factor: Double) -> String {
        guard factor.isFinite, abs(factor) < 1e12 else { return "\(factor)×" }
        let hundredths = Int64((factor * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100, fraction = abs(hundredths) % 100
        let decimals = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0" : "") + "\(fraction)"
        return "\(sign)\(whole).\(decimals)×"
    }

    /// Whether both pads scroll at the same speed: the fingers move as fast as the real ones.
    var same: Bool { ratio == 1 && source == virtual }

    /// Whether the desktop scrolls nothing with the real pad (its factor is 0): its releases
    /// start no glide.
    var glidesNothing: Bool { ratio == 0 }

    /// What a pad the desktop scrolls by nothing does.
    static let nothing = "the desktop scrolls nothing with it, so its releases do not glide"

    /// How fast the virtual fingers move against the real ones, and why: `"2.0× as fast, so
    /// that the glide keeps your speed"`; where the ratio was clamped, that the glide then runs
    /// slower (or faster) than the scrolls; where one factor is negative, that they are turned
    /// round (unless `way` is false: the caller says which way they move).
    func pace(way: Bool) -> String {
        if same { return "as fast as yours" }
        // A real pad at 0 glides nothing, whatever the virtual pad's factor (sway's `input
        // type:touchpad scroll_factor 0` sets both).
        if glidesNothing { return "not at all: \(Self.nothing)" }
        if virtual == 0 { return "at any speed, but the desktop scrolls the virtual touchpad by nothing: glides do not show" }
        let size = abs(ratio), exact = abs(source / virtual)
        let turned = way && ratio < 0 ? " and turned round (a negative factor reverses one of the pads)" : ""
        if exact > size { return "\(Self.times(size)) as fast\(turned), the most flickd matches: glides run slower than your scrolls" }
        if exact < size { return "\(Self.times(size)) as fast\(turned), the least flickd matches: glides run faster than your scrolls" }
        return "\(Self.times(size)) as fast\(turned), so that the glide keeps your speed"
    }

    /// `pace(way: true)`.
    var pace: String { pace(way: true) }

    /// The daemon's per-pad log clause: `"the desktop scrolls it at 2.0×, flickd virtual
    /// touchpad at 1.0×: the virtual fingers move 2.0× as fast, so that the glide keeps your
    /// speed"`; whether a negative factor turns them round is said unless `way` is false.
    func sentence(way: Bool) -> String {
        let factors = "the desktop scrolls it at \(Self.times(source)), \(VirtualTouchpad.name) at \(Self.times(virtual))"
        return glidesNothing ? "\(factors): \(Self.nothing)" : "\(factors): the virtual fingers move \(pace(way: way))"
    }

    /// `sentence(way: true)`.
    var sentence: String { sentence(way: true) }

    /// Where the fingers' faster motion runs the glides of this pad's faster releases, under its
    /// `configuration`, into the edge of the virtual touchpad though `ratio` is not 1 (the
    /// configuration's own limit, `Configuration.touchpadGlideSpeedLimit()`, is warned of as
    /// it loads): `"glides from releases faster than 869 mm/s on it stop at the edge of flickd's
    /// virtual touchpad"`; nil when the ratio's size is 1 (turned round or not, the fingers
    /// move as fast as the configuration's own glide) or 0, or every release fits.
    func edge(_ configuration: Configuration) -> String? {
        guard abs(ratio) != 1, ratio != 0, let limit = configuration.touchpadGlideSpeedLimit(speedRatio: ratio) else { return nil }
        return "glides from releases faster than \(Int64(limit.rounded(.down))) mm/s on it stop at the edge of flickd's virtual touchpad"
    }
}
