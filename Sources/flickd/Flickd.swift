import ArgumentParser

@main
struct Flickd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickd",
        abstract: "Kinetic scrolling for every app: touchpad and touchscreen flicks glide on.",
        version: "flickd 0.1.0",
        subcommands: [RunCommand.self, DevicesCommand.self, ReplayCommand.self, CheckConfigCommand.self, PlotCommand.self, DoctorCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
