import ArgumentParser

struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config", abstract: "TODO")
    func run() throws {}
}
