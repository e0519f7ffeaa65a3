import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// A machine described in a few fields, for `Doctor`. The default is a laptop where everything
/// flickd needs is in place: uinput loaded and writable, one touchpad the user can read, the
/// user in `input` in this session, the service enabled and running, no configuration file.
struct FakeSystem: SystemProbe {
    var files: Set<String> = ["/sys/module/uinput", "/dev/uinput", "/dev/input"]
    var uinputError: SystemError?
    var nodes: [InputNode] = [
        InputNode(devnode: "/dev/input/event4", syspath: "/sys/devices/platform/i8042/serio1/input/input5/event4",
                  name: "SynPS/2 Synaptics TouchPad", kind: .touchpad),
        InputNode(devnode: "/dev/input/event3", syspath: "/sys/devices/platform/i8042/serio0/input/input3/event3",
                  name: "AT Translated Set 2 keyboard", kind: .keyboard),
    ]
    var readErrors: [String: SystemError] = [:]
    var user: UserAccount? = UserAccount(uid: 1000, name: "ada", primaryGroup: 1000)
    var inputGID: UInt32? = 105
    var database: [UInt32] = [1000, 105]
    var process: [UInt32] = [1000, 105]
    /// What `systemctl` answers, by its arguments joined with spaces; a missing entry means
    /// systemctl is not installed.
    var commands: [String: CommandResult] = [
        "systemctl --user is-enabled flickd": CommandResult(status: 0, output: "enabled\n"),
        "systemctl --user is-active flickd": CommandResult(status: 0, output: "active\n"),
    ]
    var fileContents: [String: String] = [:]
    var searchPath = ["/home/ada/.config/flickd/config.toml", "/etc/flickd/config.toml"]
    var desktop: DesktopSettings.Answer? = DesktopSettings.Answer(false, "GNOME gsettings org.gnome.desktop.peripherals.touchpad natural-scroll")
    /// Why no desktop setting was found, when `desktop` is nil.
    var desktopMiss = "XDG_CURRENT_DESKTOP=GNOME; gsettings did not answer within 5 s (killed)"

    func exists(_ path: String) -> Bool { files.contains(path) || fileContents[path] != nil || fileBytes[path] != nil }
    /// Symbolic links whose target is missing: entries that do not exist.
    var danglingLinks: Set<String> = []
    func hasEntry(_ path: String) -> Bool { exists(path) || danglingLinks.contains(path) }
    func uinputAccess() -> SystemError? { uinputError }
    func readAccess(_ path: String) -> SystemError? { readErrors[path] }
    /// The group each node is read through (`readingGroup`): the touchpad is root:input 0660.
    var readingGroups: [String: UInt32] = ["/dev/input/event4": 105]
    func readingGroup(_ path: String) -> UInt32? { readingGroups[path] }
    /// The group /dev/uinput is opened through (`writingGroup`): none, by default (flickd's
    /// udev rule gives the seat's user an ACL entry).
    var writingGroups: [String: UInt32] = [:]
    func writingGroup(_ path: String) -> UInt32? { writingGroups[path] }
    func inputNodes() -> [InputNode] { nodes }
    func currentUser() -> UserAccount? { user }
    /// The uinput group's id (a udev rule's `GROUP="uinput"`); nil: none.
    var uinputGID: UInt32?
    func groupID(named name: String) -> UInt32? { name == "input" ? inputGID : name == "uinput" ? uinputGID : nil }
    func databaseGroups(of user: UserAccount) -> [UInt32] { database }
    func processGroups() -> [UInt32] { process }
    func run(_ arguments: [String]) -> CommandResult? { commands[arguments.joined(separator: " ")] }
    func readFile(_ path: String) -> Result<String, SystemError> {
        fileContents[path].map { .success($0) } ?? .failure(SystemError(errno: ENOENT, call: "open", path: path))
    }
    /// Files that are not UTF-8 text, read by `readBytes` before `fileContents`.
    var fileBytes: [String: [UInt8]] = [:]
    /// Paths read from the real file system (a FIFO a test made), by `readBytes`.
    var realPaths: Set<String> = []
    func readBytes(_ path: String) -> Result<[UInt8], SystemError> {
        if realPaths.contains(path) { return LiveSystem().readBytes(path) }
        return fileBytes[path].map { .success($0) } ?? readFile(path).map { Array($0.utf8) }
    }
    var configurationSearchPath: [String] { searchPath }
    /// The working directory doctor runs in; nil for one removed.
    var currentDirectory: String? = "/home/ada"
    func workingDirectory() -> String? { currentDirectory }
    /// Symbolic links' targets, by path (`/proc/PID/cwd`).
    var links: [String: String] = [:]
    func linkTarget(_ path: String) -> String? { links[path] }
    /// How many times the desktop was asked.
    let desktopAsks = Counter()
    func desktopNaturalScrolling() -> DesktopSettings.Finding {
        desktopAsks.count += 1
        return desktop.map { .found($0) } ?? .none(why: desktopMiss)
    }

    /// libinput's quirks files, by path (none by default).
    var quirksFiles: [(path: String, text: String)] = []
    func libinputQuirks() -> LibinputQuirks { LibinputQuirks(files: quirksFiles) }

    /// The X session doctor runs in (`sessionXServer`): nil for none asked (Wayland, GNOME).
    var xServer: (display: String, authority: String?)?
    func sessionXServer() -> (display: String, authority: String?)? { xServer }
    /// This session's `XDG_CURRENT_DESKTOP`.
    var desktopName: String? = "GNOME"
    func sessionDesktop() -> String? { desktopName }
    /// `KDE_FULL_SESSION=true` in this session (Plasma's own).
    var plasmaSession = false
    func sessionIsPlasmas() -> Bool { plasmaSession }
    /// This session's sway, where its `SWAYSOCK` is the sway serving its display (`sessionSway`).
    var sway: (socket: String, waylandDisplay: String?)?
    func sessionSway() -> (socket: String, waylandDisplay: String?)? { sway }
    /// Why a watch on the X server's device properties would not open; nil: it opens.
    var xServerWatchFailure: String?
    func watchXServer(_ display: String) -> String? { xServerWatchFailure }

    /// The checks a doctor makes of this machine.
    func checks(config: String? = nil) -> [Doctor.Check] { Doctor(probe: self, configurationPath: config).run() }
}

let denied = SystemError(errno: EACCES, call: "open")

extension Array where Element == Doctor.Check {
    /// The checks titled `title`.
    func titled(_ title: String) -> [Doctor.Check] { filter { $0.title == title } }
    /// The one check titled `title`.
    func one(_ title: String) throws -> Doctor.Check {
        let found = titled(title)
        #expect(found.count == 1, "one \"\(title)\" check, got:\n\(found.map(\.text).joined(separator: "\n"))")
        return try #require(found.first)
    }
    var report: String { map(\.text).joined(separator: "\n") }
}

/// A count a value type's copies share.
final class Counter {
    var count = 0
}
