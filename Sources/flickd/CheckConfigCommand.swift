import FlickCore
import FlickLinux

struct CheckConfigCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "check-config",
        abstract: "Check a configuration file and print every problem in it.",
        discussion: """
            FILE may also be given as --config FILE, as the other commands take it. Without \
            it, checks the file flickd would read: \
            $XDG_CONFIG_HOME/flickd/config.toml (~/.config/flickd/config.toml), else \
            /etc/flickd/config.toml. Each problem is printed as FILE:LINE: the key, the value, \
            the allowed range and the default, with a suggestion for a misspelt key. A TOML \
            syntax error (or a file that is not UTF-8) is the one problem printed: the file \
            cannot be read past it, so check again once it is fixed. Every key is documented \
            in the example file \(documentedConfiguration).

            An empty file is valid: flickd starts with the built-in defaults. A running flickd \
            does not reload one, though (it may be half-written), and keeps its settings; the \
            output says so. A comment line in it means the defaults on a reload too.

            With output.mode = "touchpad" (the default) it also warns when coasts can glide \
            farther than flickd's virtual touchpad holds, about 0.87 m along an axis: their \
            fingers stop at its edge, still moving. coast.deceleration_rate = 0.999 gets there, \
            and so does a coast.max_speed above about 1739 mm/s at the default rate; the warning \
            names the fastest release that fits, for the top level and for each [[device]] \
            section with coast settings of its own.

            Exit status: 0 when the file is valid, with warnings or without (or there is none \
            and the built-in defaults apply); 1 when it has problems or cannot be read; 64 when \
            the command line cannot be run (an unknown option, a missing value).
            """,
        argument: CommandArgument(valueName: "FILE", help: "The configuration file to check.", isRequired: false),
        options: [
            CommandOption(name: "config", valueName: "FILE", help: "The configuration file to check, as with `flickd run --config FILE` (the same as <FILE>; give one of the two)."),
        ]
    )

    /// The positional FILE.
    var file: String?
    /// `--config FILE`.
    var config: String?

    init(_ arguments: ParsedArguments) {
        file = arguments.argument
        config = arguments.value("config")
    }

    func run() throws {
        if file != nil && config != nil {
            throw UsageError(message: "Give the file to check once: as <FILE> or as --config <FILE>, not both",
                             command: Self.commandDescription)
        }
        let location = ConfigurationLocation(explicit: file ?? config)
        guard let path = location.resolve() else {
            print("no configuration file (looked for \(location.searched)); the built-in defaults apply")
            return
        }
        do {
            let text = try ConfigurationLoader.readText(path: path)
            let configuration = try ConfigurationLoader.parse(text: text, path: path)
            let changed = ConfigurationLoader.keys.filter { $0.value(in: configuration) != $0.defaultValue }
            var summary = changed.isEmpty ? "every setting at its default"
                : changed.map { "\($0.name) = \($0.value(in: configuration))" }.joined(separator: ", ")
            if !configuration.devices.isEmpty {
                let n = configuration.devices.count
                summary += "; \(n) [[device]] section\(n == 1 ? "" : "s")"
            }
            print("\(path): OK (\(summary))")
            if ConfigurationSource.isBlank(text) {
                // Valid at start, as here; a reload refuses it (ConfigurationSource.reload).
                print("\(path): the file is empty: flickd starts with the built-in defaults, but a running flickd "
                    + "takes an empty file for a half-written one and keeps its settings; for the defaults on a reload too, "
                    + "leave a comment line in it")
            }
            // Warnings: the file is valid and flickd runs with it.
            for warning in configuration.deviceRuleWarnings() + configuration.touchpadGlideWarnings() {
                print("\(path): \(warning)")
            }
        } catch {
            StandardError.write("\(error)\n")
            throw ExitCode.failure
        }
    }
}
