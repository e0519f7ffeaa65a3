@main
struct Flickd: MainCommand {
    static let abstract = "Kinetic scrolling for every app: touchpad and touchscreen flicks glide on."
    static let version = "flickd 0.1.0"
    static var subcommands: [any FlickdCommand.Type] {
        [RunCommand.self, DevicesCommand.self, ReplayCommand.self, CheckConfigCommand.self, PlotCommand.self, DoctorCommand.self]
    }
    static var defaultSubcommand: any FlickdCommand.Type { RunCommand.self }
}
