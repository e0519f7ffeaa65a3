import FlickCore

/// The configuration a running daemon follows: the settings in force, and reading them again
/// when the file changes (inotify, once the changes settle) or on SIGHUP.
///
/// It loads the file `ConfigurationSource` picks, watches it with `ConfigWatcher`, waits
/// `settleDelay` after the last change of a burst, and reloads. The daemon puts its two
/// descriptors in its epoll set, asks it for `current`, and is told what a reload produced: new
/// settings to apply, the same settings, or an error (the running settings stay; `current` is
/// still the last good configuration).
public final class LiveConfiguration {
    /// What a reload produced.
    public enum Reload {
        /// New settings, now `current`: apply them.
        case changed(Configuration)
        /// The file was read and says what runs already (a save without changes).
        case unchanged(Configuration)
        /// The file could not be used (`file:line: ...` problems, a file gone or emptied):
        /// `current` stays.
        case kept(any Error)
    }

    /// How long the configuration file must stay unchanged before it is read: an editor's save
    /// (write a temporary file, rename it over, maybe chmod) comes as a burst of events.
    public static let settleDelay = Duration.milliseconds(150)

    /// How long a file created and not closed since (`ConfigWatcher.Change.Kind.createdUnclosed`)
    /// must stay the same, in size and modification time, before it is read: it may be a
    /// file still being written (`cat > config.toml`), whose close is then the change, or one
    /// linked in complete, which nothing closes.
    public static let unclosedQuiet = Duration.seconds(1)

    /// The settings in force: those loaded at start or by the last reload that succeeded.
    public private(set) var current: Configuration
    /// The file `current` came from; nil when it is the built-in defaults for lack of a file,
    /// or when a reload function was given instead of a source.
    public var path: String? { source?.path }

    /// Follows changes to the file; nil without inotify (SIGHUP still reloads).
    public let watcher: ConfigWatcher?
    /// Armed at the last change + `settleDelay`; nil without a watcher.
    let settleTimer: DeadlineTimer?

    private let source: ConfigurationSource?
    private let read: () throws -> Configuration
    /// The changes seen since the last reload, for its log line.
    private var pendingChanges: [ConfigWatcher.Change] = []
    /// While the reload waits on files created and not closed: their size and modification
    /// time when last looked at (nil for a file not there), by path; empty before the first look.
    private var unclosedStates: [String: Syscall.ContentState?] = [:]

    /// Loads the file `source` picks and follows it: `watch` sets up inotify on its paths (a
    /// failing inotify is logged on `logger` and leaves SIGHUP to reload).
    /// - Throws: `ConfigurationError`, the file's problems (nothing else: without inotify or a timer, SIGHUP alone reloads).
    public convenience init(source: ConfigurationSource, watch: Bool = true, logger: Logger) throws {
        try self.init(source: source, watch: watch, logger: logger, load: { try $0.load() })
    }

    /// `init(source:watch:logger:)` reading the file with `load` (tests save the file in it).
    convenience init(source: ConfigurationSource, watch: Bool, logger: Logger,
                     load: (ConfigurationSource) throws -> Configuration) throws {
        // The watch first, then the read: a save between the two would be seen by neither (the
        // read got the old text, the watch came after the event). This way a save during the
        // read is reported, at worst reading the same text once more.
        var following: (watcher: ConfigWatcher, settleTimer: DeadlineTimer)?
        if watch {
            do {
                following = (try ConfigWatcher(paths: source.watchedPaths, logger: logger), try DeadlineTimer())
                logger.debug("following configuration changes in \(following?.watcher.watchedDirectories.joined(separator: ", ") ?? "")")
            } catch {
                logger.warning("configuration changes are not followed (\(error)); SIGHUP reloads")
            }
        }
        let configuration = try load(source)
        self.init(current: configuration, source: source, watcher: following?.watcher,
                  settleTimer: following?.settleTimer, read: source.reload)
    }

    /// Follows `current`, reading new settings with `read` on SIGHUP and, with `watcher`, when
    /// it reports a change (tests, and daemons whose settings come from elsewhere).
    public convenience init(current: Configuration, watcher: ConfigWatcher? = nil,
                            read: @escaping () throws -> Configuration) throws(SystemError) {
        self.init(current: current, source: nil, watcher: watcher,
                  settleTimer: watcher == nil ? nil : try DeadlineTimer(), read: read)
    }

    private init(current: Configuration, source: ConfigurationSource?, watcher: ConfigWatcher?,
                 settleTimer: DeadlineTimer?, read: @escaping () throws -> Configuration) {
        self.current = current
        self.source = source
        self.watcher = watcher
        self.settleTimer = settleTimer
        self.read = read
    }

    /// Reads the watcher's pending events; a change to the file (re)starts the wait for the
    /// burst to settle, from `time`.
    /// - Throws: when the watcher cannot be read; the caller stops watching it.
    func receiveChanges(at time: Instant) throws(SystemError) {
        guard let watcher, let settleTimer else { return }
        let changes = try watcher.receive()
        guard !changes.isEmpty else { return }
        pendingChanges = ConfigWatcher.closingCreations(ConfigWatcher.latest(pendingChanges + changes))
        unclosedStates = [:]
        try settleTimer.arm(at: time + Self.settleDelay)
    }

    /// After the settle timer fired at `time`: what triggered the reload that is due (the
    /// changes, for the log line), or nil when the timer had been disarmed or moved on, or
    /// when a file was created and not closed (its last change) and is not yet quiet, whatever
    /// else changed (the timer is armed again, `unclosedQuiet` on).
    func settled(at time: Instant) throws(SystemError) -> String? {
        guard let settleTimer, try settleTimer.acknowledge() else { return nil }
        let unclosed = pendingChanges.filter { $0.kind == .createdUnclosed }
        if !unclosed.isEmpty {
            let states = Dictionary(unclosed.map { ($0.path, Syscall.contentState($0.path)) }, uniquingKeysWith: { a, _ in a })
            if states != unclosedStates {
                unclosedStates = states
                try settleTimer.arm(at: time + Self.unclosedQuiet)
                return nil
            }
        }
        let trigger = pendingChanges.map(\.description).joined(separator: ", ")
        pendingChanges = []
        unclosedStates = [:]
        return trigger.isEmpty ? "configuration file changed" : trigger
    }

    /// The output that runs when it is not the one read: its device could not be made on a
    /// reload, and the old one runs on. `current` says what is in force, so the next reload of
    /// the same file is a change and tries the new output again.
    public func keepOutput(_ mode: OutputMode) {
        current.output.mode = mode
    }

    /// Reads the settings again. `unlessUnchanged`: settings equal to `current` are
    /// `.unchanged` (a save that changes nothing must not stop a coast); otherwise they are
    /// `.changed` even when equal (SIGHUP applies them again). The watcher first looks at the
    /// way to the file again (`ConfigWatcher.refresh()`): a reload, SIGHUP's above all, also
    /// mends a watch that events could not (a directory above the file renamed and made again).
    /// The changes waiting to settle are read with it: the settle timer is disarmed, so that a
    /// SIGHUP in a save's settle delay reloads it once, not again when the delay ends.
    public func reload(unlessUnchanged: Bool) -> Reload {
        watcher?.refresh()
        pendingChanges = []
        unclosedStates = [:]
        // Disarming also drops an expiry not yet read (timerfd_settime clears it): `settled(at:)`
        // then finds nothing due. Should the timer fail, nothing is pending, and a firing finds
        // an empty trigger: at worst one more reload of the same file.
        try? settleTimer?.arm(at: nil)
        let configuration: Configuration
        do {
            configuration = try read()
        } catch {
            return .kept(error)
        }
        if unlessUnchanged && configuration == current { return .unchanged(configuration) }
        current = configuration
        return .changed(configuration)
    }
}
