import FlickLinux

#if canImport(Glibc)
import Glibc
#endif

// flickd's own command-line parsing: subcommands with long options, flags and at most one
// positional argument, `--help`, `help SUBCOMMAND` and `--version`.
//
// Rationale (docs/DESIGN.md, "The command line"): swift-argument-parser imports
// FoundationEssentials, which would be the only Foundation left in the binary; flickd's
// command line is small enough to parse here.

/// An option (`--config FILE`) or, without a value name, a flag (`--verbose`).
struct CommandOption {
    /// The long name without the dashes: `config`.
    var name: String
    /// What the value is called in the help (`FILE`); nil for a flag.
    var valueName: String?
    /// One sentence for the help.
    var help: String
    /// Whether the value `-` means standard output (or input), as the command reads it
    /// (`plot --out -`); where it does not, a FILE value `-` is refused (`dashRefused`).
    var takesDash = false

    /// `--config <FILE>` or `--verbose`.
    var synopsis: String { "--\(name)" + (valueName.map { " <\($0)>" } ?? "") }
}

/// A positional argument (`FILE`).
struct CommandArgument {
    /// What it is called in the help: `FILE`.
    var valueName: String
    /// One sentence for the help.
    var help: String
    /// Whether the command needs it.
    var isRequired: Bool
    /// Whether `-` means standard input, as the command reads it (`replay -`); where it does
    /// not, a FILE argument `-` is refused (`dashRefused`).
    var takesDash = false
}

/// What a subcommand accepts and how its help reads.
struct CommandDescription {
    /// The subcommand's name: `check-config`.
    var name: String
    /// One line for the list of subcommands and the help's overview.
    var abstract: String
    /// The help's long text (paragraphs; wrapped to the terminal's 80 columns).
    var discussion: String = ""
    var argument: CommandArgument? = nil
    var options: [CommandOption] = []

    /// `flickd replay <FILE> [--desc <FILE>] [--json]`.
    var usage: String {
        var parts = ["flickd", name]
        if let argument { parts.append(argument.isRequired ? "<\(argument.valueName)>" : "[<\(argument.valueName)>]") }
        parts += options.map { "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }
}

/// The values given to one subcommand.
struct ParsedArguments {
    /// The positional argument, if given.
    var argument: String?
    /// Option values by name (the last one given wins).
    var values: [String: String] = [:]
    /// The flags given.
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A subcommand of flickd.
protocol FlickdCommand {
    static var commandDescription: CommandDescription { get }
    init(_ arguments: ParsedArguments)
    /// Runs the command. Throwing `ExitCode.failure` exits with status 1 (the command has
    /// already said why).
    func run() throws
}

/// How a command ends other than by returning.
enum ExitCode: Error {
    /// Status 1: the command failed and has printed why.
    case failure
}

/// A command line that cannot be run: exits with status 64 (EX_USAGE), as argument parsers
/// conventionally do. Thrown by the parser, or by a command's `run` for a combination the
/// parser cannot judge (check-config's FILE and --config both given).
struct UsageError: Error {
    var message: String
    var command: CommandDescription?
}

enum CommandLineParser {
    /// Status for a command line that cannot be run (sysexits.h EX_USAGE).
    static let usageStatus: Int32 = 64
    /// The help's width in columns and the indent of the option descriptions.
    static let width = 80, descriptionColumn = 26

    /// What to do with a command line.
    enum Action {
        case run(any FlickdCommand)
        case print(String)
    }

    /// Parses `arguments` (without the program name) for `main`. `notUTF8` holds the positions
    /// in `arguments` of words that were not UTF-8 (`processArguments()`): refused as a file
    /// name or any other value.
    static func parse(_ arguments: [String], notUTF8: Set<Int> = [], main: MainCommand.Type) throws(UsageError) -> Action {
        var rest = arguments[...]
        if let first = rest.first {
            switch first {
            case "--version": return .print(main.version)
            case "-h", "--help": return .print(mainHelp(main))
            case "help":
                rest = rest.dropFirst()
                guard let name = rest.first else { return .print(mainHelp(main)) }
                // `help` names one subcommand: a word after it would be ignored, unread.
                if let extra = rest.dropFirst().first {
                    throw UsageError(message: "Unexpected argument '\(extra)' after 'help \(name)': help takes one subcommand's name",
                                     command: nil)
                }
                // `help help`, `help --help`: help's own help is the overview, which says how to use it.
                if name == "help" || name == "--help" || name == "-h" { return .print(mainHelp(main)) }
                guard let command = subcommand(named: name, main) else { throw unknownSubcommand(name, main) }
                return .print(help(command.commandDescription))
            default: break
            }
        }
        if let first = rest.first, let named = subcommand(named: first, main) {
            return try parse(rest.dropFirst(), for: named, defaulted: false, notUTF8: notUTF8, main: main)
        }
        // No subcommand named: the default one's. A first word that is no option cannot be its
        // argument when it takes none: a subcommand misspelt, not an argument of `run`'s.
        let command = main.defaultSubcommand
        if let first = rest.first, !first.hasPrefix("-"), command.commandDescription.argument == nil {
            throw unknownSubcommand(first, main)
        }
        do {
            return try parse(rest, for: command, defaulted: true, notUTF8: notUTF8, main: main)
        } catch {
            // `flickd --verbose devices`: the option was read as the default subcommand's, and
            // the subcommand after it is the mistake to name, not an argument or option of that one.
            if let later = misplacedSubcommand(in: rest, options: command.commandDescription.options, main: main) {
                let description = later.commandDescription
                throw UsageError(message: "Options come after the subcommand: write '\(description.name)' first", command: description)
            }
            throw error
        }
    }

    /// The subcommand of `main` called `name`, if there is one.
    private static func subcommand(named name: String, _ main: MainCommand.Type) -> (any FlickdCommand.Type)? {
        main.subcommands.first { $0.commandDescription.name == name }
    }

    /// The first subcommand named among `words`, a command line read as the default
    /// subcommand's with `options`: not an option's value (`--config plot` names a file), nor
    /// a word after `--`.
    private static func misplacedSubcommand(in words: ArraySlice<String>, options: [CommandOption],
                                            main: MainCommand.Type) -> (any FlickdCommand.Type)? {
        var rest = words
        while let word = rest.popFirst(), word != "--" {
            if let named = subcommand(named: word, main) { return named }
            // A value given apart, as `parse` takes one.
            if options.contains(where: { "--\($0.name)" == word && $0.valueName != nil }),
               let next = rest.first, !next.hasPrefix("--") {
                rest = rest.dropFirst()
            }
        }
        return nil
    }

    /// `name` is no subcommand: the nearest one, if it is a likely typo, and the list.
    private static func unknownSubcommand(_ name: String, _ main: MainCommand.Type) -> UsageError {
        // `help` is a subcommand too (`flickd help plot`), if not one listed in the help's table.
        let names = main.subcommands.map { $0.commandDescription.name } + ["help"]
        let suggestion = Suggestion.closest(to: name, among: names)
        let list = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        return UsageError(message: "Unknown subcommand '\(name)'. " + (suggestion.map { "Did you mean '\($0)'? " } ?? "")
                              + "The subcommands are \(list)",
                          command: nil)
    }

    /// Parses `words`, the command line after the subcommand's name, for `command`; `defaulted`
    /// when the command line named none and `command` is the default one.
    private static func parse(_ words: ArraySlice<String>, for command: any FlickdCommand.Type, defaulted: Bool,
                              notUTF8: Set<Int>, main: MainCommand.Type) throws(UsageError) -> Action {
        var rest = words
        let description = command.commandDescription
        var parsed = ParsedArguments()
        var onlyArguments = false
        while let word = rest.first {
            let position = rest.startIndex
            rest = rest.dropFirst()
            if onlyArguments || !word.hasPrefix("-") || word == "-" {
                guard let argument = description.argument, parsed.argument == nil else {
                    // `flickd -- devices`: after "--" a word is an argument, never a subcommand,
                    // and the default subcommand takes none; a typo it is not.
                    if defaulted, description.argument == nil, onlyArguments {
                        let named = subcommand(named: word, main)?.commandDescription
                        throw UsageError(message: "Unexpected argument '\(word)' after '--'"
                                             + (named == nil ? "" : ": write the subcommand first"),
                                         command: named)
                    }
                    // After options given to the default subcommand (`flickd --verbose chek-config`).
                    if defaulted, description.argument == nil { throw unknownSubcommand(word, main) }
                    throw UsageError(message: "Unexpected argument '\(word)'", command: description)
                }
                guard !word.isEmpty else {
                    throw UsageError(message: "The argument '<\(argument.valueName)>' is empty", command: description)
                }
                guard !notUTF8.contains(position) else {
                    throw notUTF8Error("The argument '<\(argument.valueName)>'", word, valueName: argument.valueName, command: description)
                }
                if word == "-", !argument.takesDash, argument.valueName.hasPrefix("FILE") {
                    throw dashRefused("The argument '<\(argument.valueName)>'", command: description)
                }
                parsed.argument = word
                continue
            }
            switch word {
            case "--": onlyArguments = true; continue
            case "-h", "--help": return .print(help(description))
            case "--version": return .print(main.version)
            default: break
            }
            // "--name" only: one dash or three are no option's.
            var name = word.hasPrefix("--") && !word.hasPrefix("---") ? word.dropFirst(2) : ""
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            guard !name.isEmpty, let option = description.options.first(where: { $0.name == name }) else {
                let known = description.options.map(\.name)
                // Suggested from the word's letters, however many dashes it had.
                let typed = word.drop { $0 == "-" }.prefix { $0 != "=" }
                let suggestion = typed.isEmpty ? nil : known.first { $0.hasPrefix(typed) || typed.hasPrefix($0) }
                throw UsageError(message: "Unknown option '\(word)'" + (suggestion.map { ". Did you mean '--\($0)'?" } ?? ""),
                                 command: description)
            }
            guard option.valueName != nil else {
                guard inlineValue == nil else {
                    throw UsageError(message: "The flag '--\(option.name)' does not take a value", command: description)
                }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            var valuePosition = position
            if let inlineValue {
                value = inlineValue
            } else if let next = rest.first {
                valuePosition = rest.startIndex
                // `--config --verbose`: the value was forgotten, and the next option is no file name.
                guard !next.hasPrefix("--") else {
                    throw UsageError(message: "Missing value for '\(option.synopsis)' before '\(next)' "
                                         + "(a value that starts with '--' is written --\(option.name)=VALUE)",
                                     command: description)
                }
                value = next
                rest = rest.dropFirst()
            } else {
                throw UsageError(message: "Missing value for '\(option.synopsis)'", command: description)
            }
            // An empty file name would only come back as an error about a file named "".
            guard !value.isEmpty else {
                throw UsageError(message: "The value of '\(option.synopsis)' is empty", command: description)
            }
            guard !notUTF8.contains(valuePosition) else {
                throw notUTF8Error("The value of '\(option.synopsis)'", value, valueName: option.valueName ?? "", command: description)
            }
            if value == "-", !option.takesDash, option.valueName?.hasPrefix("FILE") == true {
                throw dashRefused("The value of '\(option.synopsis)'", command: description)
            }
            parsed.values[option.name] = value
        }
        if let argument = description.argument, argument.isRequired, parsed.argument == nil {
            throw UsageError(message: "Missing expected argument '<\(argument.valueName)>'", command: description)
        }
        return .run(command.init(parsed))
    }

    /// `what` (an argument or an option's value) was not UTF-8, as `shown` (`processArguments()`).
    ///
    /// Rationale: flickd's file names are Swift strings from here to the syscalls (the
    /// configuration's reader, the reload's watch, the messages), which cannot hold bytes that
    /// are not UTF-8; such a name would name another file. Refused, it costs a rename or a link
    /// on the rare machine with such names; carried as bytes, every layer would.
    private static func notUTF8Error(_ what: String, _ shown: String, valueName: String,
                                     command: CommandDescription) -> UsageError {
        let hint = valueName.hasPrefix("FILE")
            ? "; flickd takes file names as UTF-8 text only: give a UTF-8 name (`ln -s` makes one for an existing file)" : ""
        return UsageError(message: "\(what) is not UTF-8: '\(shown)'\(hint)", command: command)
    }

    /// `what`, a file name, was `-`, which this command does not read as standard input or
    /// output: it would name a file called "-", which `./-` names when that is meant.
    private static func dashRefused(_ what: String, command: CommandDescription) -> UsageError {
        UsageError(message: "\(what) is '-', which flickd \(command.name) does not take for standard input or output: "
                       + "give a file's name (./- for a file named '-')",
                   command: command)
    }

    /// The process's arguments after the program's name, and the positions among them of those
    /// that are not UTF-8, shown with each byte that is not written `\xE9`. Read from `argv`:
    /// `CommandLine.arguments` replaces such bytes with U+FFFD, and the parser must not take
    /// what is left for a file name.
    static func processArguments() -> (words: [String], notUTF8: Set<Int>) {
        var words: [String] = []
        var notUTF8: Set<Int> = []
        // argc is 0 for a program started with no argv at all (execve with {NULL}, allowed
        // before Linux 5.18): no arguments, not a trap.
        for index in stride(from: 1, to: Int(CommandLine.argc), by: 1) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            if let word = String(validatingCString: pointer) {
                words.append(word)
            } else {
                notUTF8.insert(words.count)
                words.append(escaped(Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))))
            }
        }
        return (words, notUTF8)
    }

    /// `bytes` as text, each byte that is no part of a UTF-8 character written `\xE9` (as
    /// bash's `$'...'` writes it).
    static func escaped(_ bytes: [UInt8]) -> String {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<offset + length] {
                    let hex = String(byte, radix: 16, uppercase: true)
                    text += "\\x" + (hex.count == 1 ? "0" : "") + hex
                }
                offset += length
            case .emptyInput:
                return text
            }
        }
    }

    /// The top-level help: overview, usage, options and the subcommands.
    static func mainHelp(_ main: MainCommand.Type) -> String {
        var text = wrap("OVERVIEW: " + main.abstract) + "\n\nUSAGE: flickd <subcommand>\n\nOPTIONS:\n"
        text += row("--version", "Show the version.") + row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in main.subcommands {
            let name = command.commandDescription.name + (command == main.defaultSubcommand ? " (default)" : "")
            text += row(name, command.commandDescription.abstract)
        }
        return text + "\n  See 'flickd help <subcommand>' for detailed help.\n"
    }

    /// A subcommand's help: overview, discussion, usage, arguments and options.
    static func help(_ command: CommandDescription) -> String {
        var text = wrap("OVERVIEW: " + command.abstract) + "\n\n"
        if !command.discussion.isEmpty { text += wrap(command.discussion) + "\n\n" }
        text += wrap("USAGE: " + command.usage, indent: 2) + "\n\n"
        if let argument = command.argument {
            text += "ARGUMENTS:\n" + row("<\(argument.valueName)>", argument.help) + "\n"
        }
        text += "OPTIONS:\n"
        for option in command.options { text += row(option.synopsis, option.help) }
        text += row("--version", "Show the version.") + row("-h, --help", "Show help information.")
        return text
    }

    /// What a usage error prints on stderr.
    static func errorText(_ error: UsageError) -> String {
        var text = "Error: \(error.message)\n"
        if let command = error.command {
            text += "Usage: \(command.usage)\n  See 'flickd \(command.name) --help' for more information.\n"
        } else {
            text += "  See 'flickd --help' for more information.\n"
        }
        return text
    }

    /// `  name      description`, the description wrapped in its column.
    private static func row(_ name: String, _ description: String) -> String {
        let lead = "  " + name
        let lines = wrapLines(description, width: width - descriptionColumn)
        let pad = String(repeating: " ", count: descriptionColumn)
        var text: String
        if lead.count + 2 <= descriptionColumn {
            text = lead + String(repeating: " ", count: descriptionColumn - lead.count) + (lines.first ?? "") + "\n"
        } else {
            text = lead + "\n" + pad + (lines.first ?? "") + "\n"
        }
        for line in lines.dropFirst() { text += pad + line + "\n" }
        return text
    }

    /// `text` with each of its lines wrapped at `width`; a wrapped line goes on at the
    /// original line's own indent plus `indent`.
    static func wrap(_ text: String, indent: Int = 0) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let leading = line.prefix { $0 == " " }.count
            let pad = String(repeating: " ", count: leading)
            let more = String(repeating: " ", count: indent)
            return wrapLines(String(line.dropFirst(leading)), width: width - leading)
                .enumerated().map { pad + ($0.offset == 0 ? "" : more) + $0.element }
                .joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word gets a
    /// line of its own).
    private static func wrapLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}

/// The top-level command: its name, version, subcommands and the one run without a name.
protocol MainCommand {
    static var abstract: String { get }
    static var version: String { get }
    static var subcommands: [any FlickdCommand.Type] { get }
    static var defaultSubcommand: any FlickdCommand.Type { get }
}

extension MainCommand {
    /// Parses the process's arguments and runs the subcommand; exits with its status.
    static func main() {
        catchBrokenPipe()
        exit(status())
    }

    /// Makes a write to a closed pipe (`flickd replay big.yml | head -1`) fail with EPIPE, which
    /// `exit` reports as any failed write is reported (status 1), rather than kill the process
    /// with SIGPIPE (status 141, the "A failed write" promise of the help broken).
    ///
    /// Rationale: a handler that does nothing, not SIG_IGN: an ignored signal stays ignored
    /// across exec, so every program flickd starts (doctor's systemctl, the desktop's
    /// gsettings) would inherit it unless each spawn reset it; a caught one is reset to the
    /// default by exec itself. glibc's `signal` restarts the calls it interrupts (SA_RESTART).
    /// (`flickd run` then ignores it outright, `StandardError.ignoreBrokenPipe`, and resets it
    /// for the programs it starts itself.)
    private static func catchBrokenPipe() {
        _ = signal(SIGPIPE) { _ in }
    }

    /// Parses the process's arguments and runs the subcommand: the status to exit with.
    private static func status() -> Int32 {
        do {
            let arguments = CommandLineParser.processArguments()
            switch try CommandLineParser.parse(arguments.words, notUTF8: arguments.notUTF8, main: Self.self) {
            case .print(let text):
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
                return 0
            case .run(let command):
                do {
                    try command.run()
                    return 0
                } catch ExitCode.failure {
                    return 1
                } catch let error as UsageError {
                    StandardError.write(CommandLineParser.errorText(error))
                    return CommandLineParser.usageStatus
                } catch {
                    StandardError.write("Error: \(error)\n")
                    return 1
                }
            }
        } catch {
            StandardError.write(CommandLineParser.errorText(error))
            return CommandLineParser.usageStatus
        }
    }

    /// Exits with status 1 (the caller has printed why).
    static func exitWithFailure() -> Never {
        exit(1)
    }

    /// Exits with `status` once standard output is written out: output that could not be
    /// written (a full disk, `> /dev/full`) fails the command, status 1 where it would have
    /// been 0, and standard error says why. Every way out of flickd's commands comes here.
    static func exit(_ status: Int32) -> Never {
        do throws(SystemError) {
            try StandardOutput.flush()
        } catch {
            StandardError.write("flickd: cannot write the output: \(error.reason)\n")
            Glibc.exit(status == 0 ? 1 : status)
        }
        Glibc.exit(status)
    }
}

/// Swift's `print` for flickd's commands, which print text: written the same way, to the same
/// stdio buffer, but through `StandardOutput`, which remembers why a write failed for the exit
/// (`MainCommand.exit`) to report.
func print(_ text: String, terminator: String = "\n") {
    StandardOutput.write(text + terminator)
}

/// Two command types are the same type.
private func == (a: any FlickdCommand.Type, b: any FlickdCommand.Type) -> Bool {
    ObjectIdentifier(a) == ObjectIdentifier(b)
}
