import CJSON
import FlickCore
import Glibc

/// sway's touchpads, their natural scrolling and their scrolling speed, from its IPC: what
/// `swaymsg -t get_inputs --raw` prints, a JSON array with one object per input, e.g.
/// `{"identifier": "2:7:SynPS/2_Synaptics_TouchPad", "name": "SynPS/2 Synaptics TouchPad",
/// "vendor": 2, "product": 7, "type": "touchpad", "scroll_factor": 1.0,
/// "libinput": {"natural_scroll": "enabled", ...}}`. `scroll_factor` (sway-ipc(7)) is the
/// input's own, beside `libinput`: sway multiplies each scroll event by it, 1.0 unless an
/// `input` rule set one, and lists it for every pointer, touchpads included.
///
/// Rationale: sway applies `input` rules by identifier (`input "2:7:SynPS/2_Synaptics_TouchPad"
/// natural_scroll enabled`) or by type, and flickd's virtual touchpad has an identifier of its
/// own, so a rule for the real pad alone leaves the virtual one at libinput's default and every
/// glide would run backwards. sway's answer is the settings in force per device, whatever the
/// config files, includes and runtime `swaymsg input` commands did to get there; reading the
/// config files would miss the last and repeat sway's rule matching. The reply is JSON, read
/// with json-c (the parser sway itself uses).
public enum SwayInputs {
    /// Where the answer came from, for messages.
    public static let source = "sway: get_inputs"

    /// sway's inputs as JSON, asked over the IPC socket `socket`: the `get_inputs` reply
    /// (what `swaymsg -t get_inputs --raw` prints); why not when sway cannot be reached, closed
    /// the connection, answered otherwise or has not answered within `timeout`.
    public static func ask(socket: String, timeout: Duration) -> Result<String, SwayIPC.Failure> {
        SwayIPC.request(socket: socket, type: SwayIPC.MessageType.getInputs, timeout: timeout)
    }

    /// Whether `json`, the payload of sway's `input` event, says a touchpad was added or its
    /// libinput settings changed (`"change": "added"` or `"libinput_config"`); the other
    /// changes (an input removed, a keyboard's layout) leave the touchpads' settings as they
    /// were.
    public static func touchpadChanged(_ json: String) -> Bool {
        guard let root = json_tokener_parse(json) else { return false }
        defer { json_object_put(root) }
        guard let change = string(root, "change"), change == "added" || change == "libinput_config",
              let input = member(root, "input") else { return false }
        return string(input, "type") == "touchpad"
    }

    /// The touchpads in `json`, sway's `get_inputs` reply, with the natural scrolling and the
    /// scrolling speed (`scroll_factor`) each has now (sway lists only the devices it has, so an
    /// unlisted one is unknown); nil when `json` is not such a reply. Touchpads without the
    /// natural-scrolling setting (libinput says they cannot scroll naturally) have no entry;
    /// a touchpad without a readable `scroll_factor` (an older sway) has no factor.
    public static func touchpads(_ json: String) -> PerDeviceNaturalScrolling? {
        guard let root = json_tokener_parse(json) else { return nil }
        defer { json_object_put(root) }
        guard json_object_is_type(root, json_type_array) != 0 else { return nil }
        var entries: [PerDeviceNaturalScrolling.Entry] = []
        var scrollFactors: [PerDeviceNaturalScrolling.ScrollFactor] = []
        var disabled: [PerDeviceNaturalScrolling.Disabled] = []
        for index in 0..<json_object_array_length(root) {
            guard let input = json_object_array_get_idx(root, index),
                  string(input, "type") == "touchpad",
                  let name = string(input, "name"),
                  let vendor = integer(input, "vendor").flatMap(UInt16.init(exactly:)),
                  let product = integer(input, "product").flatMap(UInt16.init(exactly:)) else { continue }
            let device = DeviceIdentity(name: name, vendor: vendor, product: product)
            if let factor = number(input, "scroll_factor") {
                scrollFactors.append(.init(device: device, factor: factor))
            }
            // `events disabled`: sway hands the pad's events to no app. (`disabled_on_external_mouse`
            // depends on a mouse being plugged in, which sway does not say: left as enabled.)
            if let libinput = member(input, "libinput"), string(libinput, "send_events") == "disabled" {
                disabled.append(.init(device: device, why: "sway disables it (events disabled)"))
            }
            guard let libinput = member(input, "libinput"),
                  let natural = string(libinput, "natural_scroll"),
                  natural == "enabled" || natural == "disabled" else { continue }
            entries.append(.init(device: device, natural: natural == "enabled"))
        }
        var perDevice = PerDeviceNaturalScrolling(entries: entries, source: source, unlisted: nil)
        perDevice.scrollFactors = scrollFactors
        perDevice.disabled = disabled
        return perDevice
    }

    /// The IPC socket of the sway this session runs. Of the sockets a sway listens on,
    /// `$SWAYSOCK` first, then each `sway-ipc.UID.*.sock` of this user in `runtimeDirectory`
    /// (`$XDG_RUNTIME_DIR`) in name order: the first that serves this session's Wayland display
    /// (`servesThisSession` true), else the first of which that cannot be told (nil); one that
    /// serves another display (false) is another session's sway, or one nested in this session,
    /// and is never taken. A user service started before sway, or whose `SWAYSOCK` (imported
    /// into the user manager) names an earlier sway's socket, finds it the second way.
    ///
    /// Rationale: whether a sway listens is asked of the socket itself (`isListening`: a
    /// connection is accepted), not of the PID in its name: a crashed sway leaves its socket
    /// behind, a PID is reused, and a sway started with a `SWAYSOCK` that names a socket no
    /// longer there binds at that name, its predecessor's PID and all. Which display it serves
    /// is asked too (`servingDisplay`): sway's `50-systemd-user.conf` imports `SWAYSOCK` into
    /// the user manager the user's sessions share, and a sway nested in this session (or one on
    /// another VT) may sort first; its touchpads' settings are not the ones in force here, and
    /// following them made the virtual fingers move against the real ones.
    public static func socketPath(swaysock: String?, runtimeDirectory: String?, user: uid_t = getuid(),
                                  isListening: (String) -> Bool = listens,
                                  servesThisSession: (String) -> Bool? = { _ in nil }) -> String? {
        var untold: String?
        // True when `path` is the one: a live sway serving this session's display.
        func serves(_ path: String) -> Bool {
            guard isListening(path) else { return false }
            switch servesThisSession(path) {
            case true?: return true
            case nil: if untold == nil { untold = path }
            case false?: break
            }
            return false
        }
        if let swaysock, !swaysock.isEmpty, serves(swaysock) { return swaysock }
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else { return untold }
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(runtimeDirectory + "/sway-ipc.\(user).*.sock", 0, nil, &found) == 0 else { return untold }
        for index in 0..<Int(found.gl_pathc) {
            guard let entry = found.gl_pathv[index] else { continue }
            let path = String(cString: entry)
            if path != swaysock, serves(path) { return path }
        }
        return untold
    }

    /// Whether something listens on the Unix stream socket at `path`: a connection is made
    /// (and closed at once), or refused only because the listen backlog is full (EAGAIN).
    ///
    /// Rationale: a full backlog is a sway that runs but has not accepted its last few clients
    /// (stalled a moment, or flickd's own earlier probes unread). Taken for no sway, the ask
    /// said "no sway running" instead of "did not answer", the daemon dropped the answer it
    /// kept, and with `natural_scroll enabled` every glide ran against the finger until sway's
    /// next event; `$SWAYSOCK` could also be passed over for another socket found by name.
    public static func listens(_ path: String) -> Bool {
        do {
            Syscall.close(try Syscall.connectUnixStream(to: path))
            return true
        } catch {
            return error.wouldBlock
        }
    }

    /// The socket of the Wayland compositor at `display` (`$WAYLAND_DISPLAY`): `display` when it
    /// is a path, else `display` in `runtimeDirectory` (`$XDG_RUNTIME_DIR`), as libwayland finds
    /// it; nil when either is missing.
    public static func waylandSocket(display: String?, runtimeDirectory: String?) -> String? {
        guard let display, !display.isEmpty else { return nil }
        if display.hasPrefix("/") { return display }
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else { return nil }
        return runtimeDirectory + "/" + display
    }

    /// Who listens on a Unix stream socket (`listener(of:)`).
    enum Listener: Equatable {
        /// The process, as the kernel tells a connection to it (`SO_PEERCRED`: the listener's
        /// process at its listen).
        case process(pid_t)
        /// Someone, whose listen backlog is full (EAGAIN): a sway stalled a moment, or one that
        /// has not accepted flickd's own earlier probes yet.
        case busy
        /// No one: no connection can be made, or the kernel gives no process id (0: a listener
        /// outside flickd's PID namespace, as in a container sharing the runtime directory).
        case none
    }

    /// Who listens on the Unix stream socket at `path`.
    static func listener(of path: String) -> Listener {
        let fd: Int32
        do {
            fd = try Syscall.connectUnixStream(to: path)
        } catch {
            return error.wouldBlock ? .busy : .none
        }
        defer { Syscall.close(fd) }
        guard let process = try? Syscall.peerProcess(fd), process > 0 else { return .none }
        return .process(process)
    }

    /// Whether the sway listening at `swaySocket` is the compositor of the Wayland display at
    /// `waylandSocket`: one process listens on both. False when either cannot be reached, or
    /// the kernel names no process (`servingDisplay` nil); true when the sway's backlog is
    /// full (it cannot be asked who it is, and is asked for its inputs then, which fails as
    /// unanswered: the daemon keeps what sway said last rather than take a leftover KDE or
    /// GNOME setting for it).
    ///
    /// Rationale: sway's `50-systemd-user.conf` imports `SWAYSOCK` into the user manager,
    /// shared by the user's sessions; a Plasma or GNOME session started later on another VT
    /// imports its own `WAYLAND_DISPLAY` but leaves that `SWAYSOCK`, live while that sway runs.
    /// Its `WAYLAND_DISPLAY` is then KWin's or mutter's, not the sway's. A process id is asked
    /// of each socket rather than read from sway's socket name, which a sway started with
    /// `SWAYSOCK` set keeps from its predecessor.
    static func servesDisplay(swaySocket: String, waylandSocket: String) -> Bool {
        servingDisplay(swaySocket: swaySocket, waylandSocket: waylandSocket) ?? false
    }

    /// Whether the sway listening at `swaySocket` serves the Wayland display at `waylandSocket`,
    /// where that can be told: true when one process listens on both, or the sway's backlog is
    /// full (taken for this session's, see `servesDisplay`); false when each socket names its
    /// process and they differ (another compositor serves the display: the sway is another
    /// session's, or nested); nil when a listener cannot be reached or named (no compositor at
    /// the display, one busy, a listener outside flickd's PID namespace).
    static func servingDisplay(swaySocket: String, waylandSocket: String) -> Bool? {
        switch listener(of: swaySocket) {
        case .none: return nil
        case .busy: return true
        case .process(let sway):
            guard case .process(let compositor) = listener(of: waylandSocket) else { return nil }
            return compositor == sway
        }
    }

    private static func member(_ object: OpaquePointer, _ key: String) -> OpaquePointer? {
        var value: OpaquePointer?
        guard json_object_object_get_ex(object, key, &value) != 0 else { return nil }
        return value
    }

    private static func string(_ object: OpaquePointer, _ key: String) -> String? {
        guard let value = member(object, key), json_object_is_type(value, json_type_string) != 0,
              let text = json_object_get_string(value) else { return nil }
        return String(cString: text)
    }

    /// A number member, written as a double (`1.000000`, as sway writes it) or an integer; nil
    /// when missing, of another type, or not finite.
    private static func number(_ object: OpaquePointer, _ key: String) -> Double? {
        guard let value = member(object, key),
              json_object_is_type(value, json_type_double) != 0 || json_object_is_type(value, json_type_int) != 0 else { return nil }
        let number = json_object_get_double(value)
        return number.isFinite ? number : nil
    }

    private static func integer(_ object: OpaquePointer, _ key: String) -> Int64? {
        guard let value = member(object, key), json_object_is_type(value, json_type_int) != 0 else { return nil }
        return json_object_get_int64(value)
    }
}

extension Syscall {
    /// The process id of the peer of the connected Unix socket `fd` (`SO_PEERCRED`).
    static func peerProcess(_ fd: Int32) throws(SystemError) -> pid_t {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: Glibc's module leaves it out
        // (it needs _GNU_SOURCE); its three 32-bit fields are read as such.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<Int32>.size * 3)
        _ = try retrying("getsockopt(SO_PEERCRED)") {
            withUnsafeMutableBytes(of: &credentials) { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        }
        return credentials.pid
    }
}
