import Glibc

/// Where flickd looks for its configuration file.
///
/// In order: `--config FILE`; `$XDG_CONFIG_HOME/flickd/config.toml` (`~/.config/...` when
/// XDG_CONFIG_HOME is unset); `/etc/flickd/config.toml`; else the built-in defaults.
public enum ConfigurationLocation {
    /// The system-wide file.
    public static let systemPath = "/etc/flickd/config.toml"

    /// The per-user file, from XDG_CONFIG_HOME or HOME; nil when neither is set.
    public static var userPath: String? {
        if let xdg = environment("XDG_CONFIG_HOME"), xdg.hasPrefix("/") {
            return xdg + "/flickd/config.toml"
        }
        if let home = environment("HOME"), !home.isEmpty {
            return home + "/.config/flickd/config.toml"
        }
        return nil
    }

    /// The files searched, in order, when no `--config` is given.
    public static var searchPath: [String] {
        (userPath.map { [$0] } ?? []) + [systemPath]
    }

    /// The file to read: `explicit` when given, else the first file of `searchPath` that
    /// exists, else nil (the built-in defaults apply).
    public static func resolve(explicit: String?) -> String? {
        if let explicit { return explicit }
        return searchPath.first { Syscall.exists($0) }
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
