import ArgumentParser

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "TODO")
    func run() throws {}
}
