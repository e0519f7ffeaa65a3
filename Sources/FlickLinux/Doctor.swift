import FlickCore
import Glibc

/// What `Doctor` asks of the system. `LiveSystem` asks this machine; tests give a fake one.
public protocol SystemProbe {
    /// Whether `path` exists.
    func exists(_ path: String) -> Bool
    /// Whether there is a directory entry at `path`, a symbolic link wherever it leads (the
    /// configuration file's search, as `ConfigurationLocation.resolve()`).
    func hasEntry(_ path: String) -> Bool
    /// Nil when /dev/uinput opens as the daemon opens it to create its device (read-write,
    /// `UinputDevice.checkAccess`); else why not.
    func uinputAccess() -> SystemError?
    /// Nil when `path` opens read-only; else why not.
    func readAccess(_ path: String) -> SystemError?
    /// The group through which this user reads `path` (a touch device's node): the file's
    /// group, where neither its others' bits, its owner's (this user's file) nor an ACL entry
    /// for this user (udev's uaccess) lets the user read it; nil where no group is needed, or
    /// where that cannot be told.
    func readingGroup(_ path: String) -> UInt32?
    /// The group through which this user opens `path` read-write (/dev/uinput, as the daemon
    /// opens it): the file's group, where neither its others' bits, its owner's nor an ACL
    /// entry for this user (udev's uaccess) lets the user read and write it; nil where no
    /// group is needed, or where that cannot be told.
    func writingGroup(_ path: String) -> UInt32?
    /// The evdev nodes udev knows of.
    func inputNodes() -> [InputNode]
    /// The real user, from the account database; nil when it has no entry.
    func currentUser() -> UserAccount?
    /// The id of the group called `name`; nil when there is none.
    func groupID(named name: String) -> UInt32?
    /// Every group the account database puts `user` in: what a new login would get.
    func databaseGroups(of user: UserAccount) -> [UInt32]
    /// The groups this process has: what it got when its login session started.
    func processGroups() -> [UInt32]
    /// Runs a command (`arguments[0]` searched in PATH) and waits for it; nil when it cannot
    /// be started (not installed).
    func run(_ arguments: [String]) -> CommandResult?
    /// The text of the file at `path`.
    func readFile(_ path: String) -> Result<String, SystemError>
    /// The bytes of the file at `path` (the configuration, whose text must be UTF-8).
    func readBytes(_ path: String) -> Result<[UInt8], SystemError>
    /// What the symbolic link at `path` holds (a process's `/proc/PID/cwd`); nil when none.
    func linkTarget(_ path: String) -> String?
    /// Where the configuration is looked for without `--config`, in order.
    var configurationSearchPath: [String] { get }
    /// This process's working directory, absolute; nil when it cannot be told (removed).
    func workingDirectory() -> String?
    /// Whether the desktop's touchpads scroll naturally, and where that was read; or, when no
    /// desktop setting was found, where flickd looked and why it found none.
    func desktopNaturalScrolling() -> DesktopSettings.Finding
    /// libinput's quirks files (`LibinputQuirks.system`), for which touchpads it scrolls
    /// naturally by default (Apple's pads).
    func libinputQuirks() -> LibinputQuirks
    /// This session's X display and X cookie file (`XAUTHORITY`, else `~/.Xauthority`, as X
    /// clients look) where flickd would ask the X server for each touchpad's settings (an X11
    /// session that is not GNOME's); nil elsewhere.
    func sessionXServer() -> (display: String, authority: String?)?
    /// This session's `XDG_CURRENT_DESKTOP`; nil when unset.
    func sessionDesktop() -> String?
    /// Whether this session is Plasma's own: `KDE_FULL_SESSION=true`, which Plasma's start sets.
    func sessionIsPlasmas() -> Bool
    /// This session's `SWAYSOCK` and `WAYLAND_DISPLAY` where its `SWAYSOCK` names the socket of
    /// the sway serving its Wayland display (`DesktopSettings.swayNamed`): sway's settings are
    /// read then, whatever `XDG_CURRENT_DESKTOP` says; nil elsewhere.
    func sessionSway() -> (socket: String, waylandDisplay: String?)?
    /// Opens and closes a watch on the X server `display`'s device properties, as the daemon
    /// keeps one (`XServerWatch`): nil when it opened, else why not.
    func watchXServer(_ display: String) -> String?
}

/// A user account: what `getpwuid` says about the user running flickd.
public struct UserAccount: Hashable, Sendable {
    /// The user id (0 is root).
    public var uid: UInt32
    /// The login name.
    public var name: String
    /// The primary group's id.
    public var primaryGroup: UInt32

    /// The account `name` (`uid`), whose primary group is `primaryGroup`.
    public init(uid: UInt32, name: String, primaryGroup: UInt32) {
        self.uid = uid
        self.name = name
        self.primaryGroup = primaryGroup
    }
}

/// How a command ended and what it printed (standard output and error together).
public struct CommandResult: Hashable, Sendable {
    /// The exit status; nil when a signal ended it.
    public var status: Int32?
    /// Standard output and standard error, interleaved.
    public var output: String

    /// A command that exited with `status` after printing `output`.
    public init(status: Int32?, output: String) {
        self.status = status
        self.output = output
    }
}

/// This machine, through the syscall wrappers, udev and `systemctl`.
public struct LiveSystem: SystemProbe {
    /// This machine.
    public init() {}

    public func exists(_ path: String) -> Bool { Syscall.exists(path) }

    public func hasEntry(_ path: String) -> Bool { Syscall.hasEntry(path) }

    /// Nil when this user may write `path` (`access(W_OK)`); else why not. Doctor asks
    /// `uinputAccess()`, which opens /dev/uinput as the daemon does.
    public func writeAccess(_ path: String) -> SystemError? {
        do { try Syscall.checkAccess(path, mode: W_OK) } catch { return error }
        return nil
    }

    public func uinputAccess() -> SystemError? {
        do { try UinputDevice.checkAccess(name: VirtualTouchpad.name) } catch { return error.underlying }
        return nil
    }

    public func readAccess(_ path: String) -> SystemError? {
        do {
            Syscall.close(try Syscall.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC))
        } catch {
            return error
        }
        return nil
    }

    public func readingGroup(_ path: String) -> UInt32? { group(of: path, granting: 0o4) }

    public func writingGroup(_ path: String) -> UInt32? { group(of: path, granting: 0o6) }

    /// The group through which this user gets `permissions` (read 4, write 2, as in a mode's
    /// digit) on `path`: `readingGroup`, `writingGroup`.
    private func group(of path: String, granting permissions: mode_t) -> UInt32? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & permissions != permissions, status.st_uid != getuid() else { return nil }
        if let acl = Syscall.extendedAttribute(path, "system.posix_acl_access"),
           Doctor.aclLets(acl, uid: getuid(), permissions: UInt16(permissions)) { return nil }
        // With an ACL the group bits are its mask: the file's group gets through it, at most.
        return (status.st_mode >> 3) & permissions == permissions ? status.st_gid : nil
    }

    public func inputNodes() -> [InputNode] {
        (try? DeviceMonitor())?.inputNodes() ?? []
    }

    public func currentUser() -> UserAccount? {
        Syscall.currentUser().map { UserAccount(uid: $0.uid, name: $0.name, primaryGroup: $0.primaryGroup) }
    }

    public func groupID(named name: String) -> UInt32? { Syscall.groupID(named: name) }

    public func databaseGroups(of user: UserAccount) -> [UInt32] {
        Syscall.databaseGroups(user: user.name, primaryGroup: user.primaryGroup)
    }

    public func processGroups() -> [UInt32] { Syscall.processGroups() }

    public func run(_ arguments: [String]) -> CommandResult? {
        guard let result = try? Syscall.run(arguments) else { return nil }
        return CommandResult(status: result.status, output: result.output)
    }

    public func readFile(_ path: String) -> Result<String, SystemError> {
        do { return .success(try TextFile.read(path)) } catch { return .failure(error) }
    }

    public func readBytes(_ path: String) -> Result<[UInt8], SystemError> {
        do { return .success(try TextFile.readBytes(path)) } catch { return .failure(error) }
    }

    public func linkTarget(_ path: String) -> String? { Syscall.symbolicLinkTarget(path) }

    public var configurationSearchPath: [String] { ConfigurationLocation(explicit: nil).searchPath }

    public func workingDirectory() -> String? {
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return String(validatingCString: directory)
    }

    public func desktopNaturalScrolling() -> DesktopSettings.Finding { DesktopSettings.naturalScrolling() }

    public func libinputQuirks() -> LibinputQuirks { LibinputQuirks.system() }

    public func sessionXServer() -> (display: String, authority: String?)? {
        DesktopSettings.askedXDisplay(.session()).map { display in
            let variable = { (name: String) in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
            return (display, Doctor.cookieFile(authority: variable("XAUTHORITY"), home: variable("HOME")))
        }
    }

    public func sessionDesktop() -> String? { DesktopSettings.Environment.session().currentDesktop }

    public func sessionIsPlasmas() -> Bool { DesktopSettings.Environment.session().kdeFullSession }

    public func sessionSway() -> (socket: String, waylandDisplay: String?)? {
        let environment = DesktopSettings.Environment.current()
        guard DesktopSettings.swayNamed(environment), let socket = environment.swaysock else { return nil }
        return (socket, environment.waylandDisplay)
    }

    public func watchXServer(_ display: String) -> String? {
        do {
            _ = try XServerWatch(display: display)
            return nil
        } catch {
            return error.why
        }
    }
}

/// `flickd doctor`: checks everything flickd needs, each with a verdict and, when something
/// is wrong, the command that fixes it.
public struct Doctor {
    /// One thing checked.
    public struct Check: Hashable, Sendable {
        /// A check's verdict.
        public enum Status: Hashable, Sendable {
            /// Fine.
            case ok
            /// Worth knowing, but flickd works.
            case warning
            /// Stops flickd from working.
            case failure

            /// ✓, ! or ✗.
            public var symbol: String {
                switch self {
                case .ok: return "✓"
                case .warning: return "!"
                case .failure: return "✗"
                }
            }
        }

        /// What was checked, e.g. "uinput module".
        public var title: String
        /// The verdict.
        public var status: Status
        /// What was found, in one line.
        public var detail: String
        /// The shell command that fixes it, when there is one.
        public var fix: String?

        /// The check `title` with `status`, `detail` and `fix`.
        public init(title: String, status: Status, detail: String, fix: String? = nil) {
            self.title = title
            self.status = status
            self.detail = detail
            self.fix = fix
        }

        /// `✗ title: detail`, then `    fix: command` on the next line when there is a fix.
        public var text: String {
            var text = "\(status.symbol) \(title): \(detail)"
            if let fix { text += "\n    fix: \(fix)" }
            return text
        }
    }

    /// The group whose members may read /dev/input/event* on most distributions.
    public static let inputGroup = "input"

    /// Fixes, as printed.
    public enum Fix {
        /// Loads uinput now and at every boot (from any directory: no file of the source tree).
        public static let loadUinput = UinputDevice.loadModule
        /// Opens /dev/uinput to the user with flickd's udev rule.
        public static let uinputRule = UinputDevice.installUdevRule
        /// Applies flickd's udev rule, installed already, to /dev/uinput now.
        public static let applyUinputRule = UinputDevice.applyUdevRule
        /// Loads uinput now, where flickd's modules-load file (installed) loads it at boot.
        public static let loadUinputNow = UinputDevice.loadModuleNow
        /// Joins the input group (effective from the next login that starts a new user manager:
        /// `logInAgain`).
        public static let joinInputGroup = "sudo usermod -aG input $USER, then " + logInAgain
        /// Picks up a group added since login: the session and the systemd user manager keep
        /// the groups they started with, and the manager outlives a quick logout
        /// (`restartUserManager`).
        public static let logInAgain = restartUserManager
        /// Starts the service now and at every login.
        public static let enableService = "systemctl --user enable --now flickd"
        /// Says why the service stopped, where starting it again would only fail again.
        public static let readJournal = "journalctl --user -u flickd -e"
        /// Starts a failed service again, past the start limit systemd stopped it at.
        public static let restartFailed = "systemctl --user reset-failed flickd && systemctl --user restart flickd"
        /// Starts the service in a session that does not start graphical-session.target, now
        /// and at every login (README, "Running as a service").
        public static let startWithSession =
            "systemctl --user start flickd, and add that command to your session's startup (its autostart programs, ~/.xinitrc before the window manager, or an exec line in i3's or sway's config)"
        /// Restarts the systemd user manager, which keeps the groups it started with: it
        /// outlives a quick logout (logind's UserStopDelaySec, 10 s) and, with lingering on, every logout.
        public static let restartUserManager =
            "log out of every session, wait 10 seconds for the systemd user manager to stop, and log back in; or reboot (the only way where lingering keeps the manager running: Linger=yes in `loginctl show-user $USER`)"
        /// Starts the kernel installed since boot, where the running one's modules are gone.
        public static let reboot = "reboot (into the kernel installed since boot, whose modules are there)"
    }

    private let probe: any SystemProbe
    private let explicitConfiguration: String?
    /// libinput's quirks, read when a touchpad's default direction is first asked.
    private let quirks: QuirksOnDemand

    /// A doctor asking `probe`, checking the configuration at `configurationPath` (`--config`,
    /// relative to the working directory) or else the first file of the search path that exists.
    public init(probe: any SystemProbe = LiveSystem(), configurationPath: String? = nil) {
        self.probe = probe
        quirks = QuirksOnDemand(load: probe.libinputQuirks)
        // Named from the root: the fix (`flickd check-config FILE`) runs from any directory.
        explicitConfiguration = configurationPath.map { path in
            guard !path.hasPrefix("/"), let directory = probe.workingDirectory() else { return path }
            return (directory.hasSuffix("/") ? directory : directory + "/") + path
        }
    }

    /// Every check, in the order a fix is best applied.
    public func run() -> [Check] {
        let user = probe.currentUser()
        let group = inputGroupState(user: user)
        // The configuration before the touch devices, whose verdict counts only the devices
        // flickd coasts on; its check keeps its place below.
        let service = serviceEnvironment()
        let (configurationCheck, configuration, configurationFile, configurationText) = configuration(service: service)
        let touch = touchDevices(configuration, file: configurationFile, text: configurationText)
        var checks: [Check] = []
        if let user, user.uid == 0 {
            checks.append(Check(title: "user", status: .warning,
                                detail: "running as root, which may open every device: run `flickd doctor` as the user whose session flickd serves to see what that user can do"))
        }
        let uinput = uinputState()
        checks.append(uinputModule(uinput))
        checks.append(uinputWritable(uinput))
        checks += touchChecks(touch, group: group, user: user)
        checks.append(groupCheck(group, user: user, touch: touch))
        checks.append(self.service())
        if let seat = seatCheck(user: user) { checks.append(seat) }
        if let groups = serviceGroups(service, uinput: uinput, touch: touch, user: user) { checks.append(groups) }
        if let service {
            checks.append(serviceDesktop(service))
            if let display = serviceDisplay(service) { checks.append(display) }
        }
        checks.append(configurationCheck)
        // Asked once for the three checks that use it: it may run gsettings, up to 5 s.
        let desktop = probe.desktopNaturalScrolling()
        checks.append(naturalScrolling(configuration, touch: touch, desktop: desktop))
        checks += deviceNaturalScrolling(configuration, touch: touch, desktop: desktop.answer)
        checks += driverGlides(touch: touch, desktop: desktop.answer)
        checks += disabledPads(configuration, touch: touch, desktop: desktop.answer)
        if let changes = xServerChanges() { checks.append(changes) }
        checks.append(output(configuration, touch: touch, desktop: desktop))
        if let tag = virtualTouchpadTag(configuration) { checks.append(tag) }
        checks += glideLength(configuration)
        checks += quirksProblems()
        return checks
    }

    /// A warning for each quirks file libinput cannot parse: libinput then uses none of its
    /// quirks (no size or resolution hints, no natural scrolling by default on Apple's
    /// touchpads), and flickd follows it.
    private func quirksProblems() -> [Check] {
        quirks.quirks.problems.map { problem in
            Check(title: "libinput quirks", status: .warning, detail: problem,
                  fix: "correct or remove that line; `libinput quirks validate` checks every file")
        }
    }

    /// Whether this user's session is the active one on seat0, where logind records it: a
    /// user's flickd pauses while another user's is (`SeatWatch`). Nil for root, and where
    /// logind's record says nothing.
    private func seatCheck(user: UserAccount?) -> Check? {
        guard let user, user.uid != 0, case .success(let text) = probe.readFile(SeatWatch.seat0) else { return nil }
        switch SeatWatch.activity(of: text, uid: user.uid) {
        case .active:
            return Check(title: "session", status: .ok, detail: "this user's session is the active one on seat0")
        case .inactive(let uid):
            return Check(title: "session", status: .warning,
                         detail: "another user's session (uid \(uid)) is the active one on seat0: flickd pauses, with no device open, until this user's is again")
        case .nobody:
            // A text console with no login in front: logind gives /dev/uinput to no one, which
            // explains a refusal the uinput check reports.
            return Check(title: "session", status: .warning,
                         detail: "no session is active on seat0 (a text console with no login in front?): logind gives /dev/uinput to no one until one is; flickd makes its virtual device when this user's session is in front again")
        case .unknown:
            return nil
        }
    }

    /// On an X11 session where flickd asks the X server for each touchpad's settings: whether a
    /// watch on its device properties opens here, as the daemon keeps one to follow a change
    /// (an `xinput set-prop`, the desktop's settings) at once. nil where no X server is asked.
    private func xServerChanges() -> Check? {
        guard let display = probe.sessionXServer()?.display else { return nil }
        let title = "X server changes"
        guard let why = probe.watchXServer(display) else {
            return Check(title: title, status: .ok,
                         detail: "flickd hears the X server \(display)'s device-property changes (XInput 2): a touchpad setting changed with `xinput set-prop` or in the desktop's settings is followed at once")
        }
        let detail = "flickd cannot watch the X server \(display) for changes (\(why)), so a touchpad setting changed with `xinput set-prop` or in the desktop's settings is read only when flickd next asks (`systemctl --user reload flickd`, a touchpad plugged in)"
        if XInputDevices.librariesMissing(why) {
            return Check(title: title, status: .warning, detail: detail,
                         fix: "install libX11 and libXi (Debian's libx11-6 and libxi6), then: systemctl --user restart flickd")
        }
        return Check(title: title, status: .warning, detail: detail)
    }

    /// True when one of `checks` stops flickd from working.
    public static func blocks(_ checks: [Check]) -> Bool {
        checks.contains { $0.status == .failure }
    }

    // MARK: uinput

    /// What the uinput checks found, asked once: opening /dev/uinput may load the module.
    private struct UinputState {
        /// /dev/uinput exists.
        var node: Bool
        /// The module is loaded or built into the kernel (`UinputDevice.moduleInKernel`).
        var inKernel: Bool
        /// Why /dev/uinput does not open as the daemon opens it; nil when it does or is missing.
        var openError: SystemError?
        /// The running kernel's module directory, gone since boot (`UinputDevice.modulesGoneSinceBoot`).
        var modulesGone: String?
        /// A static node: /dev/uinput with no module behind it, made at boot by systemd's
        /// kmod-static-nodes. Opening it loads the module, where the opener may open it;
        /// `udevadm trigger` cannot reach it (no device in sysfs).
        var staticNode: Bool { node && !inKernel }
    }

    private func uinputState() -> UinputState {
        let node = probe.exists("/dev/uinput")
        // Asked before the open below, which may load the module.
        let inKernel = UinputDevice.moduleInKernel(exists: probe.exists, readFile: probe.readFile)
        let modulesGone = UinputDevice.modulesGoneSinceBoot(exists: probe.exists, readFile: probe.readFile)
        return UinputState(node: node, inKernel: inKernel, openError: node ? probe.uinputAccess() : nil, modulesGone: modulesGone)
    }

    /// The fix that loads uinput now: once, where flickd's modules-load file (installed)
    /// loads it at boot, else now and at every boot; a reboot where nothing can load it now.
    private func loadUinputFix(_ uinput: UinputState) -> String {
        if uinput.modulesGone != nil { return Fix.reboot }
        return UinputDevice.installedFile(UinputDevice.modulesLoadFiles, exists: probe.exists) == nil ? Fix.loadUinput : Fix.loadUinputNow
    }

    private func uinputModule(_ uinput: UinputState) -> Check {
        let title = "uinput module"
        if probe.exists("/sys/module/uinput") {
            return Check(title: title, status: .ok, detail: "loaded (/sys/module/uinput)")
        }
        if let builtIn = UinputDevice.builtInList(readFile: probe.readFile) {
            return Check(title: title, status: .ok, detail: "built into the kernel (\(builtIn) lists uinput.ko)")
        }
        if uinput.node {
            // systemd's kmod-static-nodes makes the nodes of modules not loaded yet at boot, from
            // their devname aliases; the first open of one loads its module, where the opener
            // may open it (root's alone, unless flickd's rule was there at boot: static_node=).
            let node = "/dev/uinput is a static node (made at boot by systemd's kmod-static-nodes)"
            let gone = uinput.modulesGone.map { ": \(UinputDevice.modulesGoneCause($0))" } ?? ""
            if let error = uinput.openError, error.isPermissionDenied {
                return Check(title: title, status: .failure,
                             detail: "not loaded: \(node), whose first open would load the module, but this user cannot open it (\(error.reason))\(gone.isEmpty ? "; the fix loads it" : gone)",
                             fix: loadUinputFix(uinput))
            }
            if let error = uinput.openError, error.isMissing {
                return Check(title: title, status: .failure,
                             detail: "not loaded: \(node), and the kernel could not load the module when it was opened (\(error.reason))\(gone.isEmpty ? "; `sudo modprobe uinput` loads it or says why" : gone)",
                             fix: loadUinputFix(uinput))
            }
            return Check(title: title, status: .ok,
                         detail: "not loaded yet: \(node), and the kernel loads the module when flickd first opens it")
        }
        if let installed = UinputDevice.installedFile(UinputDevice.modulesLoadFiles, exists: probe.exists) {
            // Writing the file again to /etc would change nothing, and would shadow the package's.
            return Check(title: title, status: .failure,
                         detail: "not loaded: no /sys/module/uinput and no /dev/uinput, so flickd cannot create its virtual touchpad or wheel, though flickd's modules-load file is installed (\(installed)): \(UinputDevice.installedModuleCauses)",
                         fix: Fix.loadUinputNow)
        }
        return Check(title: title, status: .failure,
                     detail: "not loaded: no /sys/module/uinput and no /dev/uinput, so flickd cannot create its virtual touchpad or wheel (the fix's second command loads it at every boot; scripts/install and the package do both)",
                     fix: Fix.loadUinput)
    }

    private func uinputWritable(_ uinput: UinputState) -> Check {
        let title = "/dev/uinput writable"
        guard uinput.node else {
            // Built into the kernel, uinput has no module to load, and `modprobe` makes no node.
            if uinput.inKernel {
                let how = probe.exists("/sys/module/uinput") ? "loaded" : "built into the kernel"
                return Check(title: title, status: .failure,
                             detail: "uinput is \(how) but there is no /dev/uinput node (a container without the host's /dev?); flickd must run where the device node is")
            }
            return Check(title: title, status: .failure, detail: "there is no /dev/uinput until the uinput module is loaded",
                         fix: "sudo modprobe uinput")
        }
        // Opened as the daemon opens it to create its device, not judged by access(W_OK).
        guard let error = uinput.openError else {
            return Check(title: title, status: .ok, detail: "yes (opens read-write, as flickd opens it)")
        }
        let installed = UinputDevice.installedFile(UinputDevice.udevRuleFiles, exists: probe.exists)
        if error.isPermissionDenied, uinput.staticNode, let gone = uinput.modulesGone {
            // The rule, installed, gives the static node to the seat's user at the next boot
            // (static_node=); nothing applies it before, nor loads the module.
            let cause = "uinput is not loaded and /dev/uinput is the static node made at boot, root's alone; \(UinputDevice.modulesGoneCause(gone))"
            if let installed {
                return Check(title: title, status: .failure,
                             detail: "no (\(error.reason)), though flickd's udev rule is installed (\(installed)): \(cause)", fix: Fix.reboot)
            }
            return Check(title: title, status: .failure,
                         detail: "no (\(error.reason)): \(cause); flickd's udev rule gives /dev/uinput to the user at the seat from then on (the fix writes it; scripts/install and the package install it)",
                         fix: "\(UinputDevice.writeUdevRule), then \(Fix.reboot)")
        }
        // Where uinput is not in the kernel, udev cannot handle the static node (`udevadm trigger
        // /dev/uinput` says "No such device"): the fix loads the module first, whose "add" event
        // applies the rule.
        let loadFirst = uinput.staticNode ? UinputDevice.loadModuleFirst : ""
        let staticNode = "uinput is not loaded, and /dev/uinput is the static node made at boot, root's alone, which udev hands over only once the module loads (the fix loads it first)"
        if error.isPermissionDenied, let installed {
            // Writing the rule again to /etc would not help, would shadow the package's and
            // outlive its purge: the rule is there, and the cause is elsewhere.
            let why = uinput.staticNode ? "\(staticNode); should it stay denied: \(UinputDevice.installedRuleCauses)"
                : "\(UinputDevice.installedRuleCauses) (the fix applies the rule now)"
            return Check(title: title, status: .failure,
                         detail: "no (\(error.reason)), though flickd's udev rule is installed (\(installed)): \(why); or give /dev/uinput to a group you are in",
                         fix: loadFirst + Fix.applyUinputRule)
        }
        if error.isPermissionDenied {
            let why = uinput.staticNode ? "\(staticNode); then " : ""
            return Check(title: title, status: .failure,
                         detail: "no (\(error.reason)): \(why)flickd's udev rule gives /dev/uinput to the user at the seat (the fix writes it; scripts/install and the package install it), or give it to a group you are in",
                         fix: loadFirst + Fix.uinputRule)
        }
        if error.isMissing, uinput.staticNode {
            let why = uinput.modulesGone.map(UinputDevice.modulesGoneCause) ?? "`sudo modprobe uinput` loads it or says why"
            return Check(title: title, status: .failure,
                         detail: "no (\(error.reason)): /dev/uinput is the static node made at boot, and the kernel could not load uinput behind it; \(why)",
                         fix: loadUinputFix(uinput))
        }
        return Check(title: title, status: .failure, detail: "no: \(error)")
    }

    // MARK: Touch devices

    /// The touch devices found, and the errors opening them.
    private struct TouchDevices {
        var hasInputDirectory: Bool
        var nodes: [(node: InputNode, error: SystemError?)]
        /// The devices flickd does not coast on, by devnode, with the setting that says so;
        /// none where the configuration is broken.
        var idle: [String: IdleSetting] = [:]
        /// The configuration file read, or the one `flickd run` would read first where there is
        /// none, for a fix that changes a setting.
        var configurationFile: String?
        /// A device could not be opened for lack of permission.
        var denied: Bool { nodes.contains { $0.error?.isPermissionDenied == true } }
        /// Whether flickd coasts on `node`.
        func coasts(_ node: InputNode) -> Bool { idle[node.devnode] == nil }
        /// No device flickd coasts on can be read: it has nothing to coast on. A readable
        /// touchscreen that does not coast (the default) is no help.
        var blocked: Bool { !nodes.contains { $0.error == nil && coasts($0.node) } }
        /// Blocked, and a device flickd would coast on is denied: what a group would fix.
        var deniedBlocks: Bool { blocked && nodes.contains { $0.error?.isPermissionDenied == true && coasts($0.node) } }
        /// flickd coasts on none of the devices, readable or not: only the configuration
        /// gives it one.
        var noneCoasts: Bool { !nodes.isEmpty && !nodes.contains { coasts($0.node) } }
    }

    /// A setting that keeps flickd from coasting on a device: `key = false`, where the daemon
    /// takes it from (a `[[device]]` section, by its number from 1, or the top level).
    private struct IdleSetting: Hashable, CustomStringConvertible {
        /// `touchpad.enabled`, `touchscreen.enabled`, or a section's `enabled`.
        var key: String
        var section: Int?

        /// `touchscreen.enabled = false`, `enabled = false in [[device]] 1`.
        var description: String { "\(key) = false" + (section.map { " in [[device]] \($0)" } ?? "") }

        /// What sets it the other way, in the configuration `file`.
        func enabling(in file: String?) -> String {
            let named = file.map { " (\($0))" } ?? ""
            return "set \(key) = true" + (section.map { " in [[device]] \($0) of" } ?? " in") + " the configuration\(named)"
        }
    }

    /// `text`: the configuration's, which says which keys a `[[device]]` section sets itself.
    private func touchDevices(_ configuration: Configuration?, file: String?, text: String?) -> TouchDevices {
        guard probe.exists("/dev/input") else { return TouchDevices(hasInputDirectory: false, nodes: []) }
        let nodes = probe.inputNodes().filter { $0.kind.touchKind != nil && !Daemon.isVirtualDeviceName($0.name) }
        var idle: [String: IdleSetting] = [:]
        // Every device idle is kept too: a touchscreen alone, which does not coast by default,
        // or touchpad.enabled = false, leaves flickd nothing to coast on (`touchChecks`).
        if let configuration {
            let sectionKeys = text.map(Self.sectionKeys) ?? [:]
            for node in nodes { idle[node.devnode] = notCoasting(node, configuration, sectionKeys: sectionKeys) }
        }
        return TouchDevices(hasInputDirectory: true, nodes: nodes.map { ($0, probe.readAccess($0.devnode)) }, idle: idle,
                            configurationFile: file)
    }

    /// Why flickd does not coast on `node` under `configuration`: the setting that says so,
    /// resolved as the daemon resolves it (the first matching `[[device]]` section's before the
    /// top level's); nil when it coasts. A section that does not set the key itself (not in
    /// `sectionKeys`) takes the top level's, which is then the one named, and the one to change.
    private func notCoasting(_ node: InputNode, _ configuration: Configuration, sectionKeys: [Int: Set<String>]) -> IdleSetting? {
        let (settings, section) = configuration.resolved(for: identity(of: node))
        if let section, !configuration.devices[section - 1].enabled { return IdleSetting(key: "enabled", section: section) }
        let (key, enabled) = node.kind == .touchpad ? ("touchpad.enabled", settings.touchpad.enabled)
            : ("touchscreen.enabled", settings.touchscreen.enabled)
        guard !enabled else { return nil }
        return IdleSetting(key: key, section: section.flatMap { sectionKeys[$0]?.contains(key) == true ? $0 : nil })
    }

    /// The `touchpad.enabled` and `touchscreen.enabled` each `[[device]]` section (by its number
    /// from 1) sets itself, in the configuration `text` (already read as valid): the parsed
    /// sections hold the top level's values where they set none.
    static func sectionKeys(_ text: String) -> [Int: Set<String>] {
        guard let sections = (try? TOMLDocument(text: text))?.root["device"]?.array else { return [:] }
        var keys: [Int: Set<String>] = [:]
        for (offset, section) in sections.enumerated() {
            guard let table = section.table else { continue }
            for kind in ["touchpad", "touchscreen"] where table[kind]?.table?["enabled"] != nil {
                keys[offset + 1, default: []].insert(kind + ".enabled")
            }
        }
        return keys
    }

    private func touchChecks(_ touch: TouchDevices, group: InputGroupState, user: UserAccount?) -> [Check] {
        let title = "touch devices"
        guard touch.hasInputDirectory else {
            return [Check(title: title, status: .failure,
                          detail: "this machine has no /dev/input (a container, or a virtual machine without input devices): flickd must run on the machine whose touchpad or touchscreen it serves")]
        }
        guard !touch.nodes.isEmpty else {
            return [Check(title: title, status: .failure,
                          detail: "none: udev tags no /dev/input/event* node as a touchpad or touchscreen (`flickd devices` lists what there is; is udev running?)")]
        }
        return touch.nodes.map { node, error in
            deviceCheck(node, error: error, touch: touch, group: group, user: user)
        } + (touch.noneCoasts ? [noneCoasts(touch)] : [])
    }

    /// flickd coasts on no device here: it runs and does nothing, as with no device found, and
    /// so a failure too. The fix is the setting, not a group.
    private func noneCoasts(_ touch: TouchDevices) -> Check {
        var settings: [IdleSetting] = []
        for (node, _) in touch.nodes {
            if let setting = touch.idle[node.devnode], !settings.contains(setting) { settings.append(setting) }
        }
        let byDefault = settings.contains(IdleSetting(key: "touchscreen.enabled", section: nil))
            ? "; a touchscreen does not coast by default" : ""
        return Check(title: "touch devices", status: .failure,
                     detail: "flickd coasts on none of them (\(settings.map(\.description).joined(separator: ", "))\(byDefault)), so it has nothing to coast on",
                     fix: settings.map { $0.enabling(in: touch.configurationFile) }.joined(separator: "; or "))
    }

    /// The line of the touch device `node`: readable, or why not and what fixes it.
    private func deviceCheck(_ node: InputNode, error: SystemError?, touch: TouchDevices, group: InputGroupState,
                             user: UserAccount?) -> Check {
        let title = "touch devices"
        let name = "\(node.devnode) \(QuotedText.quoted(node.name)) (\(node.kind.rawValue))"
        guard let error else {
            let idle = touch.idle[node.devnode].map { ", but flickd does not coast on it (\($0))" } ?? ""
            return Check(title: title, status: .ok, detail: "\(name): readable\(idle)")
        }
        // Only a failure for a device flickd coasts on, where it can read no other such device.
        let status: Check.Status = touch.blocked && touch.coasts(node) ? .failure : .warning
        if error.isPermissionDenied {
            let denied = "\(name): cannot be read (\(error.reason))"
            // The group is no fix for root, which the input group's check does not ask to join.
            if user?.uid == 0 { return Check(title: title, status: status, detail: denied) }
            // The fix the input group's check gives, where joining the group is one.
            switch group {
            case .notMember:
                return Check(title: title, status: status, detail: denied, fix: Fix.joinInputGroup)
            case .pendingLogin:
                return Check(title: title, status: status, detail: denied, fix: Fix.logInAgain)
            case .noGroup:
                return Check(title: title, status: status,
                             detail: "\(denied); this system has no input group: a udev rule must give the device to this user (TAG+=\"uaccess\")")
            case .inSession:
                return Check(title: title, status: status,
                             detail: "\(denied), though this session has the input group: the node is not the group's to read (`ls -l \(node.devnode)` shows its owner, group and mode)")
            case .unknownUser:
                return Check(title: title, status: status, detail: denied)
            }
        }
        return Check(title: title, status: status, detail: "\(name): cannot be opened (\(error.reason))")
    }

    // MARK: Groups

    /// Whether the user is in the input group, in the account database and in this session.
    enum InputGroupState: Equatable {
        /// There is no input group on this system.
        case noGroup
        /// The account database has no entry for this user.
        case unknownUser
        /// This session has the group.
        case inSession(gid: UInt32)
        /// The database has the user in the group, but this session started before that.
        case pendingLogin
        /// The user is not in the group.
        case notMember
    }

    private func inputGroupState(user: UserAccount?) -> InputGroupState {
        guard let gid = probe.groupID(named: Self.inputGroup) else { return .noGroup }
        if probe.processGroups().contains(gid) { return .inSession(gid: gid) }
        guard let user else { return .unknownUser }
        return probe.databaseGroups(of: user).contains(gid) ? .pendingLogin : .notMember
    }

    private func groupCheck(_ state: InputGroupState, user: UserAccount?, touch: TouchDevices) -> Check {
        // A failure only where the touch devices' verdict is one for want of permission.
        let devicesDenied = touch.deniedBlocks
        let title = "input group"
        let who = user?.name ?? "this user"
        if let user, user.uid == 0, state != .noGroup {
            return Check(title: title, status: .ok, detail: "not needed by root (the user flickd runs as needs it)")
        }
        switch state {
        case .inSession(let gid):
            return Check(title: title, status: .ok, detail: "\(who) is a member (gid \(gid)) and this session has it")
        case .noGroup:
            return Check(title: title, status: devicesDenied ? .failure : .warning,
                         detail: "this system has no input group: the touch devices must be readable some other way (a udev rule with TAG+=\"uaccess\")")
        case .unknownUser:
            return Check(title: title, status: devicesDenied ? .failure : .warning,
                         detail: "the account database has no entry for uid \(getuidDescription(user)); cannot tell the groups it should have")
        case .pendingLogin:
            return Check(title: title, status: devicesDenied ? .failure : .warning,
                         detail: "\(who) was added to input after this session started: programs started in it, flickd's service too, lack the group until the next login",
                         fix: Fix.logInAgain)
        case .notMember:
            if touch.denied {
                return Check(title: title, status: devicesDenied ? .failure : .warning,
                             detail: "\(who) is not a member, and reading touch devices takes it", fix: Fix.joinInputGroup)
            }
            return Check(title: title, status: .warning,
                         detail: "\(who) is not a member; reading touch devices usually takes it (flickd only reads them, never grabs them)",
                         fix: Fix.joinInputGroup)
        }
    }

    private func getuidDescription(_ user: UserAccount?) -> String {
        user.map { String($0.uid) } ?? "of this process"
    }

    // MARK: Service

    /// `systemctl --user is-enabled` answers meaning the unit starts with the user manager at
    /// every login. Not "enabled-runtime" nor "linked-runtime" (links in /run, gone at the
    /// next boot), "linked" (the unit file linked in, not enabled) nor "indirect" (not enabled
    /// itself): with those a running flickd does not start at the next login.
    private static let enabledStates: Set<String> = ["enabled", "static", "alias", "generated", "transient"]

    private func service() -> Check {
        let title = "flickd service"
        guard let enabled = probe.run(["systemctl", "--user", "is-enabled", "flickd"]) else {
            return Check(title: title, status: .warning,
                         detail: "systemctl is not installed: start `flickd run` with your session some other way")
        }
        let active = probe.run(["systemctl", "--user", "is-active", "flickd"])
        let enabledWord = Self.firstLine(enabled.output)
        let activeWord = active.map { Self.firstLine($0.output) } ?? ""
        // systemd before 253 says a missing unit in words on stderr: "Failed to get unit file
        // state for flickd.service: No such file or directory". Not "Failed to connect to bus:
        // No such file or directory" (no bus socket in XDG_RUNTIME_DIR), which says nothing of it.
        let notInstalled = enabledWord == "not-found"
            || (enabled.output.containsText("Failed to get unit file state") && enabled.output.containsText("No such file or directory"))
        if let noManager = [enabled, active].compactMap({ $0 }).first(where: { Self.lacksUserManager($0.output) }) {
            let unit = notInstalled ? "; flickd.service is not installed either (scripts/install installs it)" : ""
            return Check(title: title, status: .warning,
                         detail: "no systemd user manager to ask (\(Self.firstLine(noManager.output)))\(unit): where flickd runs as a user service, run `flickd doctor` in that user's desktop session")
        }
        if notInstalled {
            return Check(title: title, status: .failure,
                         detail: "flickd.service is not installed for systemd --user (scripts/install installs it; then the command below starts it)",
                         fix: Fix.enableService)
        }
        if enabledWord == "masked" || enabledWord == "masked-runtime" {
            // `enable --now` refuses a masked unit; a mask in /run (`mask --runtime`) is lifted
            // by `unmask --runtime`.
            let runtime = enabledWord == "masked-runtime" ? " --runtime" : ""
            return Check(title: title, status: .failure, detail: "\(enabledWord): systemd will not start it",
                         fix: "systemctl --user unmask\(runtime) flickd && \(Fix.enableService)")
        }
        let isEnabled = Self.enabledStates.contains(enabledWord)
        switch (isEnabled, activeWord) {
        case (true, "active"):
            return Check(title: title, status: .ok, detail: "enabled and running")
        case (_, "failed"):
            // A restart before the cause is fixed fails as it did, and right after the unit's
            // start limit (StartLimitBurst=5 in 60 s) systemd refuses it until reset-failed.
            return Check(title: title, status: .failure,
                         detail: "\(isEnabled ? "enabled" : "not enabled") and failed: `\(Fix.readJournal)` says why; once that is fixed, `\(Fix.restartFailed)` starts it again (reset-failed clears the start limit systemd stops at after 5 failed starts in a minute)",
                         fix: Fix.readJournal + ", then: \(Fix.restartFailed)" + (isEnabled ? "" : " && systemctl --user enable flickd"))
        case (_, "activating"):
            // Between Restart=on-failure's tries (the unit's RestartSec) systemd says
            // "activating" too, sub-state auto-restart: starting it again would fail as it did;
            // the journal says why.
            let sub = probe.run(["systemctl", "--user", "show", "--property=SubState", "--value", "flickd"]).map { Self.firstLine($0.output) }
            if let sub, sub.hasPrefix("start") {
                return Check(title: title, status: .warning,
                             detail: "\(isEnabled ? "enabled" : "not enabled") and starting (\(sub)): run `flickd doctor` again in a few seconds")
            }
            return Check(title: title, status: .failure,
                         detail: "\(isEnabled ? "enabled" : "not enabled") and activating: systemd is starting it, or restarting it after it failed (Restart=on-failure, up to its start limit); `\(Fix.readJournal)` says why it stopped",
                         fix: Fix.readJournal + (isEnabled ? "" : ", then: systemctl --user enable flickd"))
        case (_, "reloading"), (_, "deactivating"), (_, "refreshing"):
            // Passing states: reading its configuration again (`systemctl --user reload`), or
            // stopping; what follows is what counts.
            return Check(title: title, status: .warning,
                         detail: "\(isEnabled ? "enabled" : enabledWord.isEmpty ? "not enabled" : enabledWord) and \(activeWord): run `flickd doctor` again in a few seconds")
        case (false, "active"):
            let word = enabledWord.isEmpty || enabledWord == "disabled" ? "" : " (\(enabledWord))"
            return Check(title: title, status: .warning,
                         detail: "running but not enabled\(word): it will not start at the next login",
                         fix: "systemctl --user enable flickd")
        case (true, "inactive"):
            // The unit is WantedBy=graphical-session.target: a session that never starts the
            // target (Xfce on Debian 12, i3, startx, sway without its systemd integration)
            // never starts flickd, and `enable --now` would last this session only.
            if let target = graphicalTargetMissing() {
                return Check(title: title, status: .failure,
                             detail: "enabled, inactive: this session does not start graphical-session.target (\(target)), which starts flickd (its unit is WantedBy= it), so flickd starts at no login; have the session's startup start it",
                             fix: Fix.startWithSession)
            }
            return Check(title: title, status: .failure, detail: "enabled, inactive", fix: Fix.enableService)
        case (false, "inactive"):
            // Enabling it would not start it at a login either in such a session: `enable --now`
            // would start it for this session only.
            let word = enabledWord.isEmpty ? "not enabled" : enabledWord
            if let target = graphicalTargetMissing() {
                return Check(title: title, status: .failure,
                             detail: "\(word), inactive: this session does not start graphical-session.target (\(target)), which starts flickd once it is enabled (its unit is WantedBy= it), so `\(Fix.enableService)` would start it for this session only; have the session's startup start it",
                             fix: Fix.startWithSession)
            }
            return Check(title: title, status: .failure, detail: "\(word), inactive", fix: Fix.enableService)
        default:
            let state = activeWord.isEmpty ? "not running" : activeWord
            return Check(title: title, status: .failure,
                         detail: "\(isEnabled ? "enabled" : enabledWord.isEmpty ? "not enabled" : enabledWord), \(state)",
                         fix: Fix.enableService)
        }
    }

    /// graphical-session.target's state where this session does not start it (Xfce on Debian 12,
    /// i3, startx, sway without its systemd integration); nil where it is active or systemctl
    /// does not say.
    private func graphicalTargetMissing() -> String? {
        guard let target = probe.run(["systemctl", "--user", "is-active", "graphical-session.target"]).map({ Self.firstLine($0.output) }),
              !target.isEmpty, target != "active", !target.containsText("Failed") else { return nil }
        return target
    }

    /// A process id, its environment's variables, and the file its `--config` names (an
    /// absolute path; nil without one).
    private typealias ServiceEnvironment = (pid: Int, variables: [Substring: Substring], configFile: String?, groups: [UInt32]?)

    /// The running service's process id, environment (its `/proc/PID/environ`, the PID from
    /// systemd) and `--config` (its `/proc/PID/cmdline`, a relative file joined to its working
    /// directory, or to `/proc/PID/cwd` when that directory was removed); nil when it does not
    /// run or its environment cannot be read. A user manager started before the desktop session
    /// has the session's variables only once the session imports them, and a service started
    /// before that keeps what it had.
    private func serviceEnvironment() -> ServiceEnvironment? {
        guard let shown = probe.run(["systemctl", "--user", "show", "--property=MainPID", "--value", "flickd"]),
              let pid = Int(Self.firstLine(shown.output)), pid > 0,
              case .success(let environ) = probe.readFile("/proc/\(pid)/environ") else { return nil }
        var variables: [Substring: Substring] = [:]
        for entry in environ.split(separator: "\0") {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            variables[entry[..<equals]] = entry[entry.index(after: equals)...]
        }
        var configFile: String?
        if case .success(let commandLine) = probe.readFile("/proc/\(pid)/cmdline"),
           let file = Self.configOption(in: commandLine.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)) {
            if file.hasPrefix("/") {
                configFile = file
            } else if let directory = probe.linkTarget("/proc/\(pid)/cwd") {
                // A working directory removed since reads "/dir (deleted)", a path that names
                // nothing: the kernel still resolves the file through the link itself.
                let base = directory.hasSuffix(" (deleted)") ? "/proc/\(pid)/cwd" : directory
                configFile = (base.hasSuffix("/") ? base : base + "/") + file
            }
        }
        // The groups it runs with: its user manager's, from when that started.
        var groups: [UInt32]?
        if case .success(let status) = probe.readFile("/proc/\(pid)/status") { groups = Self.statusGroups(status) }
        return (pid, variables, configFile, groups)
    }

    /// Whether the running service has the groups through which this session reads the touch
    /// devices it reads (the input group, mostly) and opens /dev/uinput (a group that a udev
    /// rule gives it, `GROUP="uinput", MODE="0660"`). A user added with usermod who logs in
    /// again quickly gets them in the new session, doctor's too, but the systemd user manager,
    /// which outlives a quick logout (UserStopDelaySec, 10 s) or any logout (lingering), keeps
    /// the groups it started with, and so does every flickd it starts: it logs "cannot open",
    /// or fails its start-time check of /dev/uinput. Where flickd does not run (that start
    /// failed), the user manager's own groups, which it would start flickd with. nil where
    /// nothing needs a group, where neither's groups can be read, or for root.
    private func serviceGroups(_ service: ServiceEnvironment?, uinput: UinputState, touch: TouchDevices, user: UserAccount?) -> Check? {
        guard user?.uid != 0 else { return nil }
        let title = "service groups"
        let holder: (who: String, groups: [UInt32], running: Bool)
        if let service, let groups = service.groups {
            holder = ("flickd (pid \(service.pid))", groups, true)
        } else if service == nil, let user, let manager = userManager(of: user) {
            holder = ("the systemd user manager (pid \(manager.pid)), which starts flickd,", manager.groups, false)
        } else {
            return nil
        }
        let readable = touch.nodes.filter { $0.error == nil }.map(\.node)
        let needing = readable.compactMap { node in probe.readingGroup(node.devnode).map { (node: node, gid: $0) } }
        // /dev/uinput as this session opens it: the daemon opens it first, and stops without it.
        let uinputGID = uinput.node && uinput.openError == nil ? probe.writingGroup("/dev/uinput") : nil
        guard !needing.isEmpty || uinputGID != nil else { return nil }
        let inputGID = probe.groupID(named: Self.inputGroup)
        let uinputGroupGID = probe.groupID(named: "uinput")
        func name(_ gid: UInt32) -> String {
            if gid == inputGID { return "the \(Self.inputGroup) group (gid \(gid))" }
            return gid == uinputGroupGID ? "the uinput group (gid \(gid))" : "group \(gid)"
        }
        let missing = needing.filter { !holder.groups.contains($0.gid) }
        let uinputMissing = uinputGID.map { !holder.groups.contains($0) } ?? false
        var gids: [UInt32] = []
        for gid in needing.map(\.gid) + (uinputGID.map { [$0] } ?? []) where !gids.contains(gid) { gids.append(gid) }
        guard !missing.isEmpty || uinputMissing else {
            let parts = gids.map { gid in
                var takers: [String] = []
                if needing.contains(where: { $0.gid == gid }) { takers.append("the touch devices") }
                if gid == uinputGID { takers.append("/dev/uinput") }
                return "\(name(gid)), which \(takers.joined(separator: " and ")) take\(takers == ["/dev/uinput"] ? "s" : "")"
            }
            return Check(title: title, status: .ok, detail: "\(holder.who) has \(parts.joined(separator: "; and "))")
        }
        var lacking: [UInt32] = []
        for gid in missing.map(\.gid) + (uinputMissing ? uinputGID.map { [$0] } ?? [] : []) where !lacking.contains(gid) { lacking.append(gid) }
        let nodes = missing.map(\.node.devnode) + (uinputMissing ? ["/dev/uinput"] : [])
        let who = user?.name ?? "this user"
        let opener = holder.running ? "it" : "the flickd it starts"
        let since = holder.running ? "the systemd user manager that started it began" : "it began"
        let uinputEffect = uinputMissing ? " (flickd opens /dev/uinput when it starts, and stops without it)" : ""
        // It still coasts on a device that needs no group, or one whose group it has.
        let stillCoasts = readable.contains { node in touch.coasts(node) && !missing.contains { $0.node.devnode == node.devnode } }
        let status: Check.Status = uinputMissing || !stillCoasts ? .failure : .warning
        return Check(title: title, status: status,
                     detail: "\(holder.who) runs without \(lacking.map(name).joined(separator: " and ")), which this session has and \(nodes.joined(separator: ", ")) take\(nodes.count == 1 ? "s" : ""), so \(opener) cannot open \(nodes.count == 1 ? "it" : "them")\(uinputEffect): \(since) before \(who) joined \(lacking.count == 1 ? "the group" : "them") and keeps the groups it started with (a quick logout and login, or lingering, keeps it running; restarting flickd does not help)",
                     fix: Fix.restartUserManager)
    }

    /// The systemd user manager's process id and supplementary groups: `user@UID.service`'s
    /// main process, asked of the system manager; nil where that cannot be told.
    private func userManager(of user: UserAccount) -> (pid: Int, groups: [UInt32])? {
        guard let shown = probe.run(["systemctl", "show", "--property=MainPID", "--value", "user@\(user.uid).service"]),
              let pid = Int(Self.firstLine(shown.output)), pid > 0,
              case .success(let status) = probe.readFile("/proc/\(pid)/status"),
              let groups = Self.statusGroups(status) else { return nil }
        return (pid, groups)
    }

    /// The value of `--config FILE` or `--config=FILE` in a command line (`arguments[0]` the
    /// program), as `flickd run` reads it: the last one given, none after `--`.
    static func configOption(in arguments: [String]) -> String? {
        var found: String?
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { break }
            if word == "--config", index + 1 < arguments.count {
                found = arguments[index + 1]
                index += 1
            } else if word.hasPrefix("--config=") {
                found = String(word.dropFirst("--config=".count))
            }
            index += 1
        }
        return found.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the running service has this session's `XDG_CURRENT_DESKTOP`, by which
    /// `scroll.natural = "auto"` picks where to read the desktop's touchpad setting (GNOME's
    /// gsettings, KDE's files, sway, the X server), and, in Plasma's own session, its
    /// `KDE_FULL_SESSION=true`, by which a kcminputrc without groups is taken for KWin's
    /// per-device defaults. In a sway session named KDE or GNOME (for Qt, for the portals), its
    /// `SWAYSOCK` and `WAYLAND_DISPLAY` too, by which sway's settings outrank the name's
    /// (`DesktopSettings.swayNamed`). The session's desktop unset: nothing to compare.
    private func serviceDesktop(_ service: ServiceEnvironment) -> Check {
        let title = "service desktop"
        let its = service.variables["XDG_CURRENT_DESKTOP"].map(String.init)
        guard let session = probe.sessionDesktop() else {
            return Check(title: title, status: .ok,
                         detail: "this session sets no XDG_CURRENT_DESKTOP: nothing to compare flickd's (pid \(service.pid)) with")
        }
        // Plasma's session marks itself; a service without the mark reads a kcminputrc with no
        // groups as no setting, where KWin gives each pad libinput's default.
        let plasmaMissing = probe.sessionIsPlasmas() && service.variables["KDE_FULL_SESSION"].map(String.init) != "true"
        // Under another name sway is looked for anyway, by its socket in the runtime directory.
        let sway = Self.namesKDEOrGNOME(session) ? probe.sessionSway() : nil
        var swayImports: [String] = []
        if let sway {
            if service.variables["SWAYSOCK"].map(String.init) != sway.socket { swayImports.append("SWAYSOCK") }
            if let display = sway.waylandDisplay, service.variables["WAYLAND_DISPLAY"].map(String.init) != display {
                swayImports.append("WAYLAND_DISPLAY")
            }
        }
        let imports = (["XDG_CURRENT_DESKTOP"] + (plasmaMissing ? ["KDE_FULL_SESSION"] : []) + swayImports).joined(separator: " ")
        guard its == session else {
            let has = its.map { "XDG_CURRENT_DESKTOP=\($0)" } ?? "no XDG_CURRENT_DESKTOP"
            return Check(title: title, status: .warning,
                         detail: "flickd (pid \(service.pid)) runs with \(has), this session's is \(session), so natural scrolling \"auto\" may look for the setting in the wrong place; to make it last, have your session's start-up import \(imports) into the user manager (`systemctl --user import-environment`) before flickd starts",
                         fix: "systemctl --user import-environment \(imports) && systemctl --user restart flickd")
        }
        if plasmaMissing {
            return Check(title: title, status: .warning,
                         detail: "flickd (pid \(service.pid)) runs with this session's XDG_CURRENT_DESKTOP=\(session) but without its KDE_FULL_SESSION=true, so with no touchpad group in kcminputrc it does not take KWin's per-device defaults (an Apple pad's glide may run backwards); to make it last, have your session's start-up import KDE_FULL_SESSION into the user manager before flickd starts",
                         fix: "systemctl --user import-environment KDE_FULL_SESSION && systemctl --user restart flickd")
        }
        if let sway, !swayImports.isEmpty {
            let has = swayImports.map { name in service.variables[Substring(name)].map { "\(name)=\($0)" } ?? "no \(name)" }
            let ours = "SWAYSOCK=\(sway.socket)" + (sway.waylandDisplay.map { ", WAYLAND_DISPLAY=\($0)" } ?? "")
            let names = swayImports.joined(separator: " ")
            return Check(title: title, status: .warning,
                         detail: "flickd (pid \(service.pid)) runs with this session's XDG_CURRENT_DESKTOP=\(session) but with \(has.joined(separator: " and ")), where this session is sway's (\(ours)), so natural scrolling \"auto\" reads the setting where \(session) keeps it rather than sway's; to make it last, have your session's start-up import \(names) into the user manager (sway's 50-systemd-user.conf does) before flickd starts",
                         fix: "systemctl --user import-environment \(names) && systemctl --user restart flickd")
        }
        return Check(title: title, status: .ok, detail: "flickd (pid \(service.pid)) runs with this session's XDG_CURRENT_DESKTOP=\(session)")
    }

    /// Whether `XDG_CURRENT_DESKTOP` names KDE or a GNOME-family desktop, where sway's settings
    /// are read only by its `SWAYSOCK` (`DesktopSettings`, which asks the name the same way).
    static func namesKDEOrGNOME(_ desktop: String) -> Bool {
        desktop.lowercased().split(separator: ":").contains { $0 == "kde" || $0.containsText("gnome") || $0 == "pantheon" }
    }

    /// On an X11 session where flickd asks the X server for each touchpad's natural scrolling:
    /// whether the running service has this session's `DISPLAY` (and `XAUTHORITY`, when the
    /// session sets one). flickd without them finds no X server: on a desktop that keeps
    /// settings per device its glide may run backwards. nil where no X server is asked.
    private func serviceDisplay(_ service: ServiceEnvironment) -> Check? {
        guard let session = probe.sessionXServer() else { return nil }
        let pid = service.pid
        let title = "service display"
        let fix = "systemctl --user import-environment DISPLAY XAUTHORITY && systemctl --user restart flickd"
        let lasting = "; to make it last, have your session's start-up run `systemctl --user import-environment DISPLAY XAUTHORITY` (or `dbus-update-activation-environment --systemd DISPLAY XAUTHORITY`) before flickd starts"
        let effect = "so it cannot ask the X server for each touchpad's natural scrolling, and where the desktop keeps it per device (Xfce, Plasma, an xinput start-up script) its glide may run against your scrolls"
        guard let display = service.variables["DISPLAY"].map(String.init), !display.isEmpty else {
            return Check(title: title, status: .warning,
                         detail: "flickd (pid \(pid)) runs without DISPLAY (this session's is \(session.display)), \(effect)\(lasting)",
                         fix: fix)
        }
        guard display == session.display else {
            return Check(title: title, status: .warning,
                         detail: "flickd (pid \(pid)) runs with DISPLAY=\(display), this session's is \(session.display), \(effect)\(lasting)",
                         fix: fix)
        }
        let cookie = Self.cookieFile(authority: service.variables["XAUTHORITY"].map(String.init),
                                     home: service.variables["HOME"].map(String.init))
        if let authority = session.authority, cookie != authority {
            let its = cookie.map { "reads its X cookie from \($0)" } ?? "has no X cookie file (neither XAUTHORITY nor HOME)"
            return Check(title: title, status: .warning,
                         detail: "flickd (pid \(pid)) \(its), this session's is \(authority): the X server may refuse it, \(effect)\(lasting)",
                         fix: fix)
        }
        return Check(title: title, status: .ok,
                     detail: "flickd (pid \(pid)) runs with this session's DISPLAY=\(display): it asks the X server for each touchpad's natural scrolling")
    }

    /// The file an X client reads its cookie from: `XAUTHORITY`, else `.Xauthority` in `HOME`.
    static func cookieFile(authority: String?, home: String?) -> String? {
        if let authority, !authority.isEmpty { return authority }
        return home.flatMap { $0.isEmpty ? nil : $0 + "/.Xauthority" }
    }

    /// Whether a POSIX access ACL (the `system.posix_acl_access` attribute: a 4-byte version,
    /// then entries of a 16-bit tag, 16-bit permissions and 32-bit id, little-endian) lets user
    /// `uid` read: an ACL_USER entry for it with read, within the mask when there is one.
    static func aclLetsRead(_ bytes: [UInt8], uid: UInt32) -> Bool { aclLets(bytes, uid: uid, permissions: 0o4) }

    /// Whether that ACL gives user `uid` every one of `permissions` (read 4, write 2): an
    /// ACL_USER entry for it with them, within the mask when there is one.
    static func aclLets(_ bytes: [UInt8], uid: UInt32, permissions wanted: UInt16) -> Bool {
        let user: UInt16 = 0x02, mask: UInt16 = 0x10
        var userHas = false
        var maskHas = true
        var offset = 4
        while offset + 8 <= bytes.count {
            let tag = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
            let permissions = UInt16(bytes[offset + 2]) | UInt16(bytes[offset + 3]) << 8
            let id = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + 4 + $1]) << (8 * UInt32($1)) }
            if tag == user && id == uid { userHas = permissions & wanted == wanted }
            if tag == mask { maskHas = permissions & wanted == wanted }
            offset += 8
        }
        return userHas && maskHas
    }

    /// The supplementary groups on the `Groups:` line of a `/proc/PID/status`; nil without one.
    static func statusGroups(_ status: String) -> [UInt32]? {
        for line in status.split(separator: "\n") where line.hasPrefix("Groups:") {
            return line.dropFirst("Groups:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { UInt32($0) }
        }
        return nil
    }

    /// The first line of `text`, trimmed.
    private static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first ?? ""
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = line.firstIndex(where: { !isBlank($0) }),
              let end = line.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(line[start...end])
    }

    /// systemctl could not reach a user manager (no session bus, no XDG_RUNTIME_DIR).
    private static func lacksUserManager(_ output: String) -> Bool {
        output.containsText("Failed to connect to bus") || output.containsText("Failed to connect to user scope bus")
            || output.containsText("$DBUS_SESSION_BUS_ADDRESS") || output.containsText("XDG_RUNTIME_DIR")
    }

    // MARK: Configuration

    /// `path` as a shell word: as it is when it has no special characters, else in single quotes.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@%,".contains($0) }
        if plain && !path.isEmpty { return path }
        return "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The configuration check, and the configuration when it is valid. The file is `--config`'s
    /// of doctor, else the one the running service reads: its own `--config`, else found with
    /// its `XDG_CONFIG_HOME` and `HOME`, which may differ from this shell's; without a running
    /// service, the one `flickd run` here would read. With the file read, or where there is
    /// none the first one searched: where a setting a fix names goes.
    private func configuration(service: ServiceEnvironment?) -> (Check, Configuration?, file: String?, text: String?) {
        let title = "configuration"
        let searchPath = service.map { service in
            ConfigurationLocation.searchPath { service.variables[Substring($0)].map(String.init) }
        } ?? probe.configurationSearchPath
        let location = ConfigurationLocation(explicit: explicitConfiguration ?? service?.configFile, searchPath: searchPath)
        guard let path = location.resolve(exists: probe.hasEntry) else {
            // The first file searched is where a setting is best written.
            return (Check(title: title, status: .ok,
                          detail: "no file (looked for \(location.searched)): the built-in defaults apply"),
                    .defaults, location.searchPath.first, nil)
        }
        let fix = "flickd check-config \(Self.shellQuoted(path))"
        let bytes: [UInt8]
        switch probe.readBytes(path) {
        case .success(let contents): bytes = contents
        case .failure(let error):
            // Not a regular file (a FIFO, a directory): say what it is rather than the errno's text.
            let kind = error.errno == EISDIR || error.errno == TextFile.notRegularFile ? TextFile.kind(of: path) : nil
            let why = kind.map { "it is \($0), not a regular file" } ?? TextFile.reason(for: error)
            return (Check(title: title, status: .failure, detail: "cannot read \(path): \(why)", fix: fix), nil, path, nil)
        }
        do {
            let text = try ConfigurationLoader.text(of: bytes, path: path)
            let configuration = try ConfigurationLoader.parse(text: text, path: path)
            guard !ConfigurationSource.isBlank(text) else {
                // The defaults at start; a reload takes it for a half-written file (ConfigurationSource.reload).
                return (Check(title: title, status: .ok,
                              detail: "\(path) is empty: the built-in defaults at start, but a running flickd keeps its settings when the file is emptied (leave a comment line in it for the defaults on a reload too)"),
                        configuration, path, text)
            }
            return (Check(title: title, status: .ok, detail: "\(path) is valid"), configuration, path, text)
        } catch let error as ConfigurationError {
            let count = error.problems.count
            let first = error.problems.first.map { ", the first: \($0)" } ?? ""
            return (Check(title: title, status: .failure,
                          detail: "\(path) has \(count) problem\(count == 1 ? "" : "s")\(first)", fix: fix), nil, path, nil)
        } catch {
            return (Check(title: title, status: .failure, detail: "\(path): \(error)", fix: fix), nil, path, nil)
        }
    }

    // MARK: Natural scrolling

    /// The output in use (`output.mode`), and in touchpad mode where the desktop's settings for
    /// the virtual touchpad may differ from the real pad's.
    private func output(_ configuration: Configuration?, touch: TouchDevices, desktop finding: DesktopSettings.Finding) -> Check {
        let title = "output"
        let desktop = finding.answer
        guard let configuration else {
            return Check(title: title, status: .warning, detail: "unknown until the configuration is fixed")
        }
        switch configuration.output.mode {
        case .wheel:
            return Check(title: title, status: .ok,
                         detail: "wheel: coasts are hi-res wheel events on \"\(VirtualWheel.name)\", scaled by scroll.speed")
        case .touchpad:
            let base = "touchpad: coasts move two fingers on \"\(VirtualTouchpad.name)\"; a desktop with one setting for every touchpad (natural scrolling, scrolling speed) applies it to this one as to your pad, and flickd does not invert it again"
            if let found = desktop, let perDevice = found.perDevice {
                // Only where some touchpad's flicks go through it: one whose driver glides is left to that glide.
                if perDevice.synapticsDrivesVirtualTouchpad,
                   perDevice.entries.contains(where: { $0.device != VirtualTouchpad.identity && $0.driverGlides == nil }) {
                    return Check(title: title, status: .warning,
                                 detail: "touchpad: coasts move two fingers on \"\(VirtualTouchpad.name)\"; but the synaptics X driver drives it (\(perDevice.source)) and scrolls it by next to nothing (a distance it computes from the pad's size), so glides through it do not show",
                                 fix: "set output.mode = \"wheel\" ([output] in the configuration), then: systemctl --user reload flickd; or let libinput drive the touchpads (remove xserver-xorg-input-synaptics)")
                }
                // A setting for every touchpad (sway's `input type:touchpad events disabled`) or
                // one for it by name disables the virtual pad too: its glides reach no app.
                if let disabled = perDevice.disabled.last(where: { $0.device == VirtualTouchpad.identity }) {
                    return Check(title: title, status: .failure,
                                 detail: "touchpad: coasts move two fingers on \"\(VirtualTouchpad.name)\"; but \(QuotedText.controlsEscaped(disabled.why)) (\(perDevice.source)), so glides through it reach no app",
                                 fix: "enable \"\(VirtualTouchpad.name)\" in the desktop's settings (sway: input \"0:0:flickd_virtual_touchpad\" events enabled), or set output.mode = \"wheel\" ([output] in the configuration), then: systemctl --user reload flickd")
                }
                return Check(title: title, status: .ok,
                             detail: perDeviceDirections(perDevice, desktop: found.value, configuration: configuration, touch: touch))
            }
            if let found = desktop, found.source.containsText("kcminputrc") || found.source.containsText("touchpadxlibinputrc") {
                return Check(title: title, status: .warning,
                             detail: "\(base); but KDE Plasma keeps touchpad settings per device (\(found.source)), so the virtual touchpad has its own natural-scrolling setting and coasts may run against your scrolls",
                             fix: found.source.containsText("touchpadxlibinputrc")
                                ? "while flickd runs, open System Settings › Touchpad, pick \"\(VirtualTouchpad.name)\" and set Natural scrolling as for your touchpad; flickd reads each touchpad's setting from the X server instead where it reaches it (the checks \"service display\" and \"X server changes\" say why not)"
                                : "while flickd runs, open System Settings › Touchpad, pick \"\(VirtualTouchpad.name)\" and set Natural scrolling as for your touchpad (or set output.mode = \"wheel\")")
            }
            if let why = finding.why, XInputDevices.librariesMissing(why) {
                // An X11 session that is not GNOME's, where flickd would have asked the X server.
                return Check(title: title, status: .warning,
                             detail: "\(base); but on X11 a desktop may keep touchpad settings per device (Xfce, Plasma, an xinput start-up script), and flickd reads them from the X server with libX11 and libXi, which cannot be loaded: coasts may run against your scrolls",
                             fix: "install libX11 and libXi (Debian's libx11-6 and libxi6; Arch: libx11 and libxi) and restart flickd: systemctl --user restart flickd")
            }
            return Check(title: title, status: .ok,
                         detail: "\(base) (desktops that keep settings per device and that flickd cannot read need the same settings for \"\(VirtualTouchpad.name)\"; on X11 flickd reads them from the X server)")
        }
    }

    /// A warning for each `[[device]]` section that never applies, an earlier one matching every
    /// device it matches (`Configuration.deviceRuleWarnings()`). With the touchpad output, a
    /// warning where coasts can glide farther than the virtual
    /// touchpad holds and stop at its edge (`Configuration.touchpadGlideWarnings()`, as `flickd
    /// check-config` says it): for the top level and for each `[[device]]` section with coast
    /// settings of its own. None where every coast fits, or with the wheel output.
    private func glideLength(_ configuration: Configuration?) -> [Check] {
        guard let configuration else { return [] }
        return configuration.deviceRuleWarnings().map { Check(title: "device sections", status: .warning, detail: $0) }
            + configuration.touchpadGlideWarnings().map { Check(title: "glide length", status: .warning, detail: $0) }
    }

    /// On a desktop that keeps natural scrolling per device and says what it gives each: the
    /// virtual touchpad's setting against each real touchpad's, and which way the fingers move;
    /// where it says each one's scrolling speed too (KWin, sway, an X server's libinput
    /// driver), how fast they move.
    private func perDeviceDirections(_ perDevice: PerDeviceNaturalScrolling, desktop: Bool,
                                     configuration: Configuration, touch: TouchDevices) -> String {
        func words(_ natural: Bool) -> String { natural ? "natural" : "traditional" }
        guard let virtual = perDevice.virtualTouchpad else {
            // sway lists only the devices it has: the virtual touchpad is there while flickd runs
            // with a touchpad or touchscreen open.
            return "touchpad: coasts move two fingers on \"\(VirtualTouchpad.name)\"; the desktop keeps natural scrolling per device (\(perDevice.source)) and does not list that device now (is flickd running? it creates the device when it opens a touchpad or touchscreen); flickd reads its setting then and moves the fingers so that the glide keeps your direction"
        }
        let virtualFactor = perDevice.virtualTouchpadScrollFactor
        var detail = "touchpad: coasts move two fingers on \"\(VirtualTouchpad.name)\"; the desktop keeps natural scrolling per device (\(perDevice.source)) and scrolls it \(words(virtual))"
        if let virtualFactor { detail += " at \(GlideSpeedText.times(virtualFactor))" }
        let pads = touch.nodes.map(\.node).filter { $0.kind == .touchpad }
        if pads.isEmpty { return detail + "; no touchpad to compare it with" }
        var speedsRead = virtualFactor != nil
        for node in pads {
            let identity = self.identity(of: node)
            // The desktop's setting for the pad where it gives one (the engine's rule:
            // `scroll.natural` does not change a touchpad's glide), else as configured.
            let natural = perDevice.natural(for: identity, libinputDefault: libinputDefault(node))
                ?? configuration.naturalScrolling(for: identity, kind: .touchpad, desktop: desktop).isNatural
            // Its speed against the virtual pad's, as the daemon matches it (`Engine.glideSpeedRatio`).
            let speed = GlideSpeedText(source: perDevice.scrollFactor(for: identity), virtual: virtualFactor)
            if speed == nil { speedsRead = false }
            detail += "; \(node.devnode) \(QuotedText.quoted(node.name)) scrolls \(words(natural))"
            if let speed, !speed.same { detail += " at \(GlideSpeedText.times(speed.source))" }
            detail += ": "
            if let speed, speed.glidesNothing {
                detail += GlideSpeedText.nothing
                continue
            }
            // A negative factor on one of the two pads turns the fingers round once more.
            let turned = (speed?.ratio ?? 1) < 0
            let against = (natural != virtual) != turned
            detail += against ? "the virtual fingers move against yours\(turned ? " (a negative factor reverses one of the pads)" : ""), so the glide keeps your direction"
                              : "the virtual fingers move as yours did"
            if let speed, !speed.same { detail += (against ? ", and " : ", ") + speed.pace(way: false) }
            // Faster fingers reach the virtual pad's edge sooner: from what release, as the daemon logs it.
            if let speed, let edge = speed.edge(configuration.resolved(for: identity).configuration) { detail += " (\(edge))" }
        }
        if speedsRead { return detail }
        // A speed the desktop keeps per device that flickd cannot read (the synaptics X driver's
        // scrolling distance; a sway that does not list its factor) is the virtual pad's own.
        return detail + "; a scrolling speed the desktop keeps per device is the virtual touchpad's own too: give \"\(VirtualTouchpad.name)\" your touchpad's, or glides run faster or slower than your scrolls"
    }

    /// One check per touchpad a `[[device]]` section matches: its own `scroll.natural`,
    /// resolved as the daemon resolves it, against the desktop's setting.
    private func deviceNaturalScrolling(_ configuration: Configuration?, touch: TouchDevices, desktop: DesktopSettings.Answer?) -> [Check] {
        guard let configuration, !configuration.devices.isEmpty else { return [] }
        let touchpads = touch.nodes.map(\.node).filter { $0.kind == .touchpad }
        guard !touchpads.isEmpty else { return [] }
        func words(_ natural: Bool) -> String { natural ? "natural" : "traditional" }
        return touchpads.compactMap { node in
            let identity = self.identity(of: node)
            let resolution = configuration.naturalScrolling(for: identity, kind: .touchpad,
                                                            desktop: desktop?.perDevice?.natural(for: identity, libinputDefault: libinputDefault(node)) ?? desktop?.value)
            guard case .setting(let section?) = resolution.source else {
                // "auto" follows the desktop, as the check above says; no section: the top level's.
                if case .desktop(let section?) = resolution.source, let desktop {
                    return Check(title: "natural scrolling", status: .ok,
                                 detail: "\(node.devnode) \(QuotedText.quoted(node.name)): \(words(resolution.isNatural)): scroll.natural = \"auto\" in [[device]] \(section) follows the desktop (\(desktop.source))")
                }
                if case .noDesktopSetting(let section?) = resolution.source {
                    return Check(title: "natural scrolling", status: .ok,
                                 detail: "\(node.devnode) \(QuotedText.quoted(node.name)): traditional: scroll.natural = \"auto\" in [[device]] \(section) found no desktop setting")
                }
                return nil
            }
            let label = "\(node.devnode) \(QuotedText.quoted(node.name)): \(words(resolution.isNatural)): scroll.natural = \(resolution.isNatural) in [[device]] \(section)"
            guard let desktop else {
                return Check(title: "natural scrolling", status: .ok, detail: "\(label) (no desktop setting found to compare)")
            }
            // The desktop's setting for this pad where it keeps one per device.
            let desktopValue = desktop.perDevice?.natural(for: identity, libinputDefault: libinputDefault(node)) ?? desktop.value
            if desktopValue == resolution.isNatural {
                return Check(title: "natural scrolling", status: .ok, detail: "\(label), as the desktop (\(desktop.source))")
            }
            if configuration.output.mode == .touchpad {
                // The virtual pad gets the desktop's setting as this one does: its glide keeps
                // the direction whatever the section says (`Engine.glide`).
                return Check(title: "natural scrolling", status: .ok,
                             detail: "\(label), but the desktop scrolls \(words(desktopValue)) (\(desktop.source)); not used with the touchpad output, whose glide follows the desktop's setting (with the wheel output coasts would run against your scrolls: set scroll.natural = \"auto\" in that section)")
            }
            return Check(title: "natural scrolling", status: .warning,
                         detail: "\(label), but the desktop scrolls \(words(desktopValue)) (\(desktop.source)): coasts on this touchpad will run against your scrolls; set scroll.natural = \"auto\" in that section")
        }
    }

    /// One check per touchpad whose driver glides by itself (the synaptics X driver's
    /// coasting, read from the X server): flickd leaves its flicks to that glide.
    private func driverGlides(touch: TouchDevices, desktop: DesktopSettings.Answer?) -> [Check] {
        guard let perDevice = desktop?.perDevice else { return [] }
        return touch.nodes.map(\.node).filter { $0.kind == .touchpad }.compactMap { node in
            guard let why = perDevice.driverGlides(for: identity(of: node)) else { return nil }
            return Check(title: "touchpad driver", status: .warning,
                         detail: "\(node.devnode) \(QuotedText.quoted(node.name)): \(why) (\(perDevice.source)), so flickd starts no coast of its own on it: a second glide on top of the driver's would stop it",
                         fix: "to have flickd's glide on it instead, let libinput drive it: remove the synaptics driver (Debian: apt remove xserver-xorg-input-synaptics; Arch: pacman -R xf86-input-synaptics) and log in again")
        }
    }

    /// With the touchpad output, whether flickd's udev rule in force tags the virtual touchpad
    /// external (`UinputDevice.touchpadRule`): a rule file from before that line, or none (uinput
    /// given by a group), leaves it internal to libinput, which pairs it with the laptop's keyboard
    /// (a key ends its scroll while the fingers move) and its lid and tablet-mode switches (which
    /// hide glides). Judged on the file udev reads first; a warning: flickd works otherwise.
    private func virtualTouchpadTag(_ configuration: Configuration?) -> Check? {
        guard (configuration?.output.mode ?? .touchpad) == .touchpad else { return nil }
        let title = "virtual touchpad tag"
        let effect = "libinput takes \"\(VirtualTouchpad.name)\" for the laptop's own touchpad: a key typed during a glide ends its scroll while the fingers still move, and in tablet mode or with the lid shut glides do not show"
        let restart = "sudo udevadm control --reload && systemctl --user restart flickd"
        guard let installed = UinputDevice.installedFile(UinputDevice.udevRuleFiles, exists: probe.exists) else {
            return Check(title: title, status: .warning,
                         detail: "no flickd udev rule is installed (\(UinputDevice.udevRuleFiles.joined(separator: ", "))), so \(effect)",
                         fix: "\(UinputDevice.writeUdevRule) && \(restart)")
        }
        func tags(_ file: String) -> Bool {
            guard case .success(let text) = probe.readFile(file) else { return false }
            return text.split(separator: "\n").contains { line in
                !line.drop { $0 == " " || $0 == "\t" }.hasPrefix("#") && line.containsText(#"ENV{ID_INPUT_TOUCHPAD_INTEGRATION}="external""#)
            }
        }
        guard case .success = probe.readFile(installed) else { return nil }
        if tags(installed) {
            return Check(title: title, status: .ok, detail: "external (\(installed))")
        }
        let fix: String
        if installed.hasPrefix("/usr/lib/") {
            // The package's own file is as old as the package: another version's flickd runs.
            fix = "install the flickd package of this flickd's version, then: systemctl --user restart flickd"
        } else if let packaged = UinputDevice.udevRuleFiles.first(where: { $0 != installed && probe.exists($0) }), tags(packaged) {
            // An old copy in /etc shadows the package's current one: written again, it would
            // go on shadowing it and outlive the package's purge.
            fix = "sudo rm \(installed) && \(restart)"
        } else {
            fix = "\(UinputDevice.writeUdevRule) && \(restart)"
        }
        return Check(title: title, status: .warning,
                     detail: "\(installed) is from before flickd tagged its virtual touchpad external, so \(effect)", fix: fix)
    }

    /// One check per touchpad the desktop disabled (sway's `events disabled`, Plasma's "Device
    /// enabled" off): the daemon starts no coast from its flicks, which reach no app either.
    /// None where the configuration has the daemon not ask the desktop (`Daemon.asksDesktop`: the
    /// wheel output with `scroll.natural` set, off X11): it does not see the pad disabled then.
    private func disabledPads(_ configuration: Configuration?, touch: TouchDevices, desktop: DesktopSettings.Answer?) -> [Check] {
        guard let perDevice = desktop?.perDevice else { return [] }
        if let configuration, !Daemon.asksDesktop(configuration, onXServer: probe.sessionXServer() != nil) { return [] }
        return touch.nodes.map(\.node).filter { $0.kind == .touchpad }.compactMap { node in
            let identity = identity(of: node)
            guard identity.vendor != nil, identity.product != nil,
                  let disabled = perDevice.disabled.last(where: { $0.device == identity }) else { return nil }
            return Check(title: "touchpad disabled", status: .warning,
                         detail: "\(node.devnode) \(QuotedText.quoted(node.name)): \(QuotedText.controlsEscaped(disabled.why)) (\(perDevice.source)), so flickd starts no coast from its flicks; its touches still stop a coast",
                         fix: "to scroll with it, enable it in the desktop's settings (sway: input IDENTIFIER events enabled; Plasma: System Settings, Touchpad, Device enabled)")
        }
    }

    /// Whether libinput scrolls `node` naturally by default, asked only where the desktop
    /// leaves the pad at that default (`PerDeviceNaturalScrolling.natural(for:libinputDefault:)`).
    private func libinputDefault(_ node: InputNode) -> () -> Bool {
        {
            guard node.kind == .touchpad, let bustype = sysfsID(node, "bustype"), let vendor = sysfsID(node, "vendor"),
                  let product = sysfsID(node, "product") else { return false }
            let device = LibinputQuirks.Device(name: node.name, bustype: bustype, vendor: vendor, product: product,
                                               version: sysfsID(node, "version") ?? 0, udevType: "touchpad")
            return quirks.quirks.naturalScrollingByDefault(for: device) != nil
        }
    }

    /// The id `name` (`vendor`, `product`, `bustype`, `version`) of `node`'s device in sysfs;
    /// nil when it cannot be read.
    private func sysfsID(_ node: InputNode, _ name: String) -> UInt16? {
        guard !node.syspath.isEmpty, case .success(let text) = probe.readFile(node.syspath + "/device/id/" + name) else { return nil }
        return UInt16(text.filter { !$0.isWhitespace }, radix: 16)
    }

    /// What `[[device]]` sections match `node` by: its name, and its ids from sysfs when
    /// they can be read.

    private func identity(of node: InputNode) -> DeviceIdentity {
        DeviceIdentity(name: node.name, vendor: sysfsID(node, "vendor"), product: sysfsID(node, "product"))
    }

    /// Whether some touchscreen here coasts: its `touchscreen.enabled` resolved as the daemon
    /// resolves it, a matching `[[device]]` section's before the top level's.
    private func touchscreenCoasts(_ configuration: Configuration?, touch: TouchDevices) -> Bool {
        guard let configuration else { return false }
        return touch.nodes.map(\.node).contains { node in
            node.kind == .touchscreen && configuration.resolved(for: identity(of: node)).configuration.touchscreen.enabled
        }
    }

    /// Whether coasts will go the way the desktop scrolls: `scroll.natural` against the
    /// desktop's own touchpad setting (`DesktopSettings`). Never a failure: flickd works either
    /// way, but a mismatch makes every coast run backwards.
    ///
    /// With no desktop setting found and `"auto"`, a warning, unless nothing would use the
    /// guess: with the touchpad output and no touchscreen that coasts, a touchpad's coast moves
    /// the virtual fingers as the real ones moved, and a desktop with one setting for every
    /// touchpad (Weston, and most compositors flickd cannot read) scrolls both alike.
    private func naturalScrolling(_ configuration: Configuration?, touch: TouchDevices, desktop finding: DesktopSettings.Finding) -> Check {
        let title = "natural scrolling"
        let desktop = finding.answer
        // Where the search looked, and why it found nothing there.
        var why = ""
        if let reason = finding.why { why = ": \(reason)" }
        func words(_ natural: Bool) -> String { natural ? "natural" : "traditional" }
        guard let setting = configuration?.scroll.natural else {
            let found = desktop.map { "the desktop scrolls \(words($0.value)) (\($0.source))" } ?? "no desktop setting found\(why)"
            return Check(title: title, status: .warning,
                         detail: "\(found); not compared with scroll.natural until the configuration is fixed")
        }
        switch (setting, desktop) {
        case (.auto, let found?):
            return Check(title: title, status: .ok,
                         detail: "\(words(found.value)): scroll.natural = \"auto\" follows the desktop (\(found.source))")
        case (.auto, nil):
            let searched = "scroll.natural = \"auto\" found no desktop setting\(why)"
            let touchpadOutput = configuration?.output.mode == .touchpad
            let touchscreenCoasts = self.touchscreenCoasts(configuration, touch: touch)
            if touchpadOutput && !touchscreenCoasts {
                return Check(title: title, status: .ok,
                             detail: "not needed: \(searched); with the touchpad output a touchpad's virtual fingers move as yours did, so a desktop with one setting for every touchpad keeps your direction either way (the wheel output and touchscreen coasts would need scroll.natural = true if your touchpad scrolls naturally)")
            }
            return Check(title: title, status: .warning,
                         detail: "traditional: \(searched); if your touchpad scrolls naturally, set scroll.natural = true or \(touchpadOutput ? "touchscreen coasts" : "coasts") run backwards")
        case (.on, nil), (.off, nil):
            return Check(title: title, status: .ok,
                         detail: "\(words(setting == .on)): scroll.natural = \(setting == .on) (no desktop setting found to compare\(why))")
        case (.on, let found?), (.off, let found?):
            let natural = setting == .on
            if natural == found.value {
                return Check(title: title, status: .ok,
                             detail: "\(words(natural)): scroll.natural = \(natural), as the desktop (\(found.source))")
            }
            let touchscreenCoasts = self.touchscreenCoasts(configuration, touch: touch)
            if configuration?.output.mode == .touchpad && !touchscreenCoasts {
                // The engine's rule: a touchpad's glide through the virtual pad follows the
                // desktop's setting, which it gives both pads; nothing uses scroll.natural here.
                return Check(title: title, status: .ok,
                             detail: "scroll.natural = \(natural), but the desktop scrolls \(words(found.value)) (\(found.source)); not used: with the touchpad output a touchpad's glide follows the desktop's setting (with the wheel output or touchscreen coasts, coasts would run against your scrolls: set scroll.natural = \"auto\")")
            }
            return Check(title: title, status: .warning,
                         detail: "scroll.natural = \(natural), but the desktop scrolls \(words(found.value)) (\(found.source)): coasts will run against your scrolls; set scroll.natural = \"auto\"")
        }
    }
}
