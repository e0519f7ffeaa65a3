import FlickCore

/// The configuration file a running daemon follows: which file its settings came from, and
/// reading it again after a change (inotify) or SIGHUP.
///
/// `load()`, at start, reads the file `ConfigurationLocation` picks: `--config FILE`, else the
/// first of the search path that exists, else none (the built-in defaults). An empty file is
/// the defaults, as `flickd check-config` says (adding that a reload would refuse it).
///
/// `reload()` picks the file again, so a file created since start (one in ~/.config/flickd
/// where there was none, or shadowing /etc's) is read. It throws, and the daemon keeps the
/// running configuration, when:
/// - the file has problems (syntax, unknown keys, values out of range), as always;
/// - the file the running settings came from is gone, and no file before it in the search
///   path is there. An editor that saves by renaming a new file over the old one, or by
///   deleting and rewriting it, makes it vanish for a moment; reverting to the defaults (or to
///   /etc's file) then would flip the settings in the middle of a save. A file really deleted
///   keeps its settings until flickd restarts, or until a file that comes before it appears
///   (/etc's deleted, then ~/.config's written), and the log says so;
/// - the file is empty or blank. `>` in a shell and editors that truncate before writing leave
///   an empty file that inotify may report before the text arrives; reading it as "the
///   defaults" would do the same flip. A file that means the defaults can say so with one
///   comment line.
/// Rationale: a half-saved file must never change the running settings; an explicit file is
/// cheap to write.
public final class ConfigurationSource {
    /// Where the file is looked for.
    public let location: ConfigurationLocation
    /// `--config FILE`, when given.
    public var explicitPath: String? { location.explicitPath }
    /// The files searched, in order, without `--config`.
    public var searchPath: [String] { location.searchPath }
    /// The file the running configuration came from; nil while the built-in defaults run
    /// because there was no file.
    public private(set) var path: String?

    /// Follows the file `location` picks.
    public init(location: ConfigurationLocation) {
        self.location = location
    }

    /// Follows `explicitPath`, or the first file of `searchPath` that exists.
    public convenience init(explicitPath: String?, searchPath: [String]) {
        self.init(location: ConfigurationLocation(explicit: explicitPath, searchPath: searchPath))
    }

    /// Follows `explicitPath`, or the first file of this process's search path that exists.
    public convenience init(explicitPath: String?) {
        self.init(location: ConfigurationLocation(explicit: explicitPath))
    }

    /// The files whose creation, change or removal may change the configuration: the
    /// `--config` file, or every file of the search path.
    public var watchedPaths: [String] { location.watchedPaths }

    /// The file to read now: `explicitPath`, else the first of `searchPath` that exists.
    public func resolve() -> String? { location.resolve() }

    /// The configuration at start: the resolved file's, or the defaults without one.
    /// - Throws: `ConfigurationError`: the file cannot be read, or its problems.
    public func load() throws -> Configuration {
        guard let file = resolve() else {
            path = nil
            return .defaults
        }
        let configuration = try ConfigurationLoader.load(path: file)
        path = file
        return configuration
    }

    /// The configuration after a change or SIGHUP.
    /// - Throws: `ConfigurationError`, saying why the running configuration should stay: the
    ///   file's problems, the file in use being gone, or an empty file.
    public func reload() throws -> Configuration {
        let resolved = resolve()
        // A file that comes before the one gone would have been read with it there: it is no
        // stand-in in the middle of a save.
        if let path, !Syscall.hasEntry(path), !comesFirst(resolved, before: path) {
            throw Self.keep(path, "the file is gone (deleted, or renamed away by an editor); the running settings stay until it is back (restart flickd to run without it)")
        }
        guard let file = resolved else { return .defaults }  // there was none and still is none
        let text = try ConfigurationLoader.readText(path: file)
        if Self.isBlank(text) {
            throw Self.keep(file, "the file is empty (perhaps half-written); the running settings stay. For the built-in defaults, leave a comment line in it")
        }
        let configuration = try ConfigurationLoader.parse(text: text, path: file)
        path = file
        return configuration
    }

    /// Whether `file` is earlier in the search path than `path` (never with `--config`, the
    /// only file).
    private func comesFirst(_ file: String?, before path: String) -> Bool {
        guard explicitPath == nil, let file, let index = searchPath.firstIndex(of: file),
              let pathIndex = searchPath.firstIndex(of: path) else { return false }
        return index < pathIndex
    }

    /// Whether `text` is empty or blank: spaces, tabs, line breaks, a byte order mark. Such a
    /// file is the defaults at start (`load()`), and refused by `reload()`.
    public static func isBlank(_ text: String) -> Bool {
        // Scalars, not Characters: "\r\n" is one Character, equal to none of these. A byte order
        // mark alone is as blank as nothing.
        text.unicodeScalars.allSatisfy { " \t\n\r\u{FEFF}".unicodeScalars.contains($0) }
    }

    private static func keep(_ path: String, _ message: String) -> ConfigurationError {
        ConfigurationError(problems: [.init(path: path, line: nil, key: nil, message: message)])
    }
}
