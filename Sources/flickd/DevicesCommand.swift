import FlickCore
import FlickLinux

struct DevicesCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "devices",
        abstract: "List the input devices and whether flickd will use them.",
        discussion: """
            The first line names the configuration the devices are decided with: the file \
            `flickd run` reads, or --config FILE. Then, for every /dev/input/event* node: its \
            name, what udev says it is (touchpad, touchscreen, mouse, keyboard or other), and \
            for touch devices their vendor and product ids (as a [[device]] section's vendor and \
            product take them), their size in millimetres and resolution as flickd reads them (a [[device]] section's \
            resolution, else the device's, else libinput's quirk, else an estimate), number of \
            multitouch slots, and whether flickd will read their flicks, and if not, why. (Under \
            the synaptics X driver, whose own glide makes flickd stand aside for that pad, \
            only the running daemon and `flickd doctor` know it.) Mice \
            and keyboards are only watched for a press that stops a coast, and not even opened \
            when stop.button or stop.key is false (a mouse whose node has keyboard keys too is \
            opened while either is true). A device libinput ignores (udev's \
            LIBINPUT_IGNORE_DEVICE, or no ID_INPUT=1) or that udev assigns to another seat \
            than seat0 (ID_SEAT) \
            is other: flickd leaves it alone, as libinput does.

            Exit status: 0 when every device flickd would open could be opened; 1 when one \
            could not (for lack of permission, the fix is printed; otherwise the error), when \
            there are no input devices at all, or when the configuration file has errors or \
            cannot be read (they are printed; under sudo, the file is root's or /etc's, not \
            your own); 64 when the command line cannot be run (an \
            unknown option, a missing value).
            """,
        options: [
            CommandOption(name: "config", valueName: "FILE", help: "Decide with the settings in FILE (TOML), as `flickd run --config FILE` would. Default: the file `flickd run` reads ($XDG_CONFIG_HOME/flickd/config.toml (~/.config/flickd/config.toml), else /etc/flickd/config.toml, else the built-in defaults)."),
        ]
    )

    var config: String?

    init(_ arguments: ParsedArguments) {
        config = arguments.value("config")
    }

    func run() throws {
        // The file `flickd run` would read: the devices are decided as the daemon decides them.
        let location = ConfigurationLocation(explicit: config)
        let path = location.resolve()
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(path: path)
        } catch {
            fail("\(ConfigurationError.lead(for: error)):\n\(error)")
        }
        print(DeviceListing.configurationLine(path: path, location: location))
        let monitor: DeviceMonitor
        let nodes: [InputNode]
        do {
            monitor = try DeviceMonitor()
            nodes = monitor.inputNodes()
        } catch {
            fail("cannot list the input devices: \(error)")
        }
        guard !nodes.isEmpty else {
            if DeviceMonitor.hasInputDirectory {
                fail("no input devices: /dev/input has no event nodes that udev knows of.")
            }
            fail("""
                this machine has no /dev/input, so there are no input devices to read (a \
                container, or a virtual machine without input devices). flickd must run on the \
                machine whose touchpad or touchscreen it serves.
                """)
        }

        // A quirks file libinput cannot parse: libinput uses none of them, and nor does flickd.
        var quirksProblems: [String] = []
        monitor.quirks.report = { quirksProblems.append($0) }
        let listing = DeviceListing.list(nodes, from: monitor, configuration: configuration)
        print(listing.text, terminator: "")
        for problem in quirksProblems { print("libinput quirks: \(problem)") }
        if let failure = listing.failure { fail(failure) }
    }
}
