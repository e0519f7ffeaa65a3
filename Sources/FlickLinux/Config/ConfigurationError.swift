/// Everything wrong with a configuration file, collected in one pass.
///
/// Its description prints one problem a line, each with a location and a way out:
/// ```
/// flickd.toml:12: coast.deceleration_rate = 1.5 is out of range (0.9 <= rate <= 0.9999); 0.998 is the default
/// flickd.toml:15: unknown key coast.max_sped; did you mean coast.max_speed?
/// ```
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One problem at one place in the file.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// The file, as given to the loader.
        public var path: String
        /// 1-based line, nil when the problem has no single line (an unreadable file, or a key
        /// the parser gave no position).
        public var line: Int?
        /// 1-based column, given for TOML syntax errors only.
        public var column: Int?
        /// The full dotted key concerned (`coast.boost`), or the section name; nil for syntax
        /// and file errors.
        public var key: String?
        /// What is wrong and what would be right, without the location.
        public var message: String

        /// A problem at `path:line[:column]`.
        public init(path: String, line: Int?, column: Int? = nil, key: String?, message: String) {
            self.path = path
            self.line = line
            self.column = column
            self.key = key
            self.message = message
        }

        /// `path:line:column: message`, with the parts that are known.
        public var description: String {
            var location = path
            if let line { location += ":\(line)" }
            if let line = line, let column, line > 0 { location += ":\(column)" }
            return location + ": " + message
        }
    }

    /// The problems, in line order (problems without a line first).
    public var problems: [Problem]
    /// Whether the file could not be read at all (missing, unreadable, no regular file): its
    /// one problem says why, and a caller does not call it a file with errors.
    public var isUnreadable: Bool

    /// An error holding `problems`, sorted by line; `unreadable` when the file could not be read.
    public init(problems: [Problem], unreadable: Bool = false) {
        self.problems = problems.enumerated().sorted { a, b in
            let (lineA, lineB) = (a.element.line ?? 0, b.element.line ?? 0)
            return lineA != lineB ? lineA < lineB : a.offset < b.offset
        }.map(\.element)
        isUnreadable = unreadable
    }

    /// How a command leads the problems of `error` (from loading a configuration): "the
    /// configuration has errors", or, for a file that could not be read (or an error of
    /// another kind), "cannot use the configuration".
    public static func lead(for error: any Error) -> String {
        guard let error = error as? ConfigurationError, !error.isUnreadable else { return "cannot use the configuration" }
        return "the configuration has errors"
    }

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
