import ArgumentParser

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "TODO")
    func run() throws {}
}
