import ArgumentParser

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "TODO")
    func run() throws {}
}
