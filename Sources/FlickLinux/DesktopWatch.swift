/// Tells when the desktop's touchpad settings may have changed, so that `scroll.natural =
/// "auto"` and the virtual touchpad's mirrored direction follow a change without a reload.
/// The daemon keeps one in its epoll set (`DesktopSettings.watchChanges`).
public protocol DesktopWatch: AnyObject {
    /// Readable when something came: give it to epoll, then call `receive()`.
    var fileDescriptor: Int32 { get }
    /// What is watched, for the log: `"sway's input events"`.
    var source: String { get }
    /// Reads what came and says what it means.
    func receive() -> DesktopChange
}

/// What a `DesktopWatch` saw since it was last read.
public enum DesktopChange: Equatable, Sendable {
    /// Nothing about the touchpads' settings (another input, a keyboard layout, another file).
    case none
    /// A touchpad was added or its settings may have changed: ask the desktop again.
    case touchpads
    /// The desktop started (a new sway): ask it.
    case started
    /// The watch ended (it broke, or has nothing left to watch): drop it; the next ask opens
    /// another.
    case closed
}

/// What opening a watch that may block gave (`DesktopQuery`'s `openServerWatch`, run on its
/// helper thread): the watch, or why there is none.
public enum ServerWatchOpening {
    case opened(any DesktopWatch)
    case failed(why: String)
}

/// A desktop's settings files, watched through inotify (`ConfigWatcher`: the directory, so a
/// file saved by renaming a new one over it is seen): KDE Plasma's touchpad files
/// (`kcminputrc`, `touchpadxlibinputrc`), which System Settings writes when a touchpad setting
/// is changed, as KWin applies them per device; GNOME's dconf database, rewritten for any of
/// its settings.
public final class DesktopFilesWatch: DesktopWatch {
    private let watcher: ConfigWatcher
    public var fileDescriptor: Int32 { watcher.fileDescriptor }
    public var source: String { watcher.paths.joined(separator: ", ") }

    /// Watches `paths`; a directory that cannot be watched is logged on `logger`.
    public init(paths: [String], logger: Logger) throws(SystemError) {
        watcher = try ConfigWatcher(paths: paths, logger: logger,
                                    purpose: .init(what: "touchpad setting changes", otherwise: "a reload reads the desktop's settings again"))
    }

    public func receive() -> DesktopChange {
        do {
            return try watcher.receive().isEmpty ? .none : .touchpads
        } catch {
            return .closed
        }
    }
}
