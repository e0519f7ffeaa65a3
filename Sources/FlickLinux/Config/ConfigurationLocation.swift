import Glibc

/// Where a command looks for its configuration file: the one rule `run`, `devices`, `replay`, `plot`,
/// `check-config` and `doctor` share.
///
/// In order: `--config FILE`; `$XDG_CONFIG_HOME/flickd/config.toml` (`~/.config/...` when
/// XDG_CONFIG_HOME is unset or not absolute); `/etc/flickd/config.toml`; else the built-in
/// defaults. `replay` searches nothing (`explicitOnly`): a recording replays the same on any
/// machine unless a file is named.
public struct ConfigurationLocation: Hashable, Sendable {
    /// The system-wide file.
    public static let systemPath = "/etc/flickd/config.toml"

    /// `--config FILE`, when given: then nothing is searched.
    public var explicitPath: String?
    /// The files searched, in order, without `--config`.
    public var searchPath: [String]

    /// `explicitPath`, else the first existing file of `searchPath`.
    public init(explicit explicitPath: String?, searchPath: [String]) {
        self.explicitPath = explicitPath
        self.searchPath = searchPath
    }

    /// `explicitPath`, else the documented search path for `environment` (a variable's value,
    /// nil when unset; by default this process's).
    public init(explicit explicitPath: String?, environment: (String) -> String? = Self.processEnvironment) {
        self.init(explicit: explicitPath, searchPath: Self.searchPath(environment: environment))
    }

    /// `explicitPath` only; without it the built-in defaults (what `flickd replay` uses).
    public static func explicitOnly(_ explicitPath: String?) -> ConfigurationLocation {
        ConfigurationLocation(explicit: explicitPath, searchPath: [])
    }

    /// The per-user file, from XDG_CONFIG_HOME (when absolute) or HOME; nil when neither is set.
    public static func userPath(environment: (String) -> String?) -> String? {
        if let xdg = environment("XDG_CONFIG_HOME"), xdg.hasPrefix("/") {
            return xdg + "/flickd/config.toml"
        }
        if let home = environment("HOME"), !home.isEmpty {
            return home + "/.config/flickd/config.toml"
        }
        return nil
    }

    /// The files searched without `--config`: the user's file, then the system's.
    public static func searchPath(environment: (String) -> String?) -> [String] {
        (userPath(environment: environment).map { [$0] } ?? []) + [systemPath]
    }

    /// The file to read now: `explicitPath` when given (whether it exists or not: reading it
    /// reports the error), else the first file of `searchPath` that `exists`, else nil (the
    /// built-in defaults apply).
    public func resolve(exists: (String) -> Bool) -> String? {
        if let explicitPath { return explicitPath }
        return searchPath.first(where: exists)
    }

    /// The file to read now on this machine (see `resolve(exists:)`). A symbolic link whose
    /// target is missing counts as there: reading it says so, where passing it over would run
    /// the next file's settings or the defaults as if the user had written none.
    public func resolve() -> String? { resolve { Syscall.hasEntry($0) } }

    /// The files whose creation, change or removal may change which settings apply: the
    /// `--config` file, or every file of the search path.
    public var watchedPaths: [String] { explicitPath.map { [$0] } ?? searchPath }

    /// What was searched, for messages about finding no file: `a, b`.
    public var searched: String { searchPath.joined(separator: ", ") }

    /// A variable of this process's environment; nil when unset.
    public static func processEnvironment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
