import ArgumentParser
import FlickCore
import FlickLinux

@main
struct Flickd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "flickd", abstract: "Kinetic scrolling for every app.")
    func run() throws {}
}
