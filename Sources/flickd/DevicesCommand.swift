import FlickCore
import FlickLinux

struct DevicesCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "devices",
        abstract: "List the input devices and whether flickd will use them.",
        discussion: """
            For every /dev/input/event* node: its name, what udev says it is (touchpad, \
            touchscreen, mouse, keyboard or other), and for touch devices their size in \
            millimetres, resolution (estimated when the device reports none), number of \
            multitouch slots, and whether flickd will read their flicks, and if not, why. Mice \
            and keyboards are only watched for a press that stops a coast.

            Exit status: 0 when every device could be read; 1 when a device could not be opened \
            (the fix is printed) or there are no input devices at all.
            """,
        options: [
            CommandOption(name: "config", valueName: "FILE", help: "Decide with the settings in FILE (TOML), as `flickd run --config FILE` would."),
        ]
    )

    var config: String?

    init(_ arguments: ParsedArguments) {
        config = arguments.value("config")
    }

    func run() throws {
        let configuration: Configuration
        do {
            // Only --config, as documented (the search path is not read here).
            configuration = try loadConfiguration(path: ConfigurationLocation.explicitOnly(config).resolve())
        } catch {
            fail("the configuration has errors:\n\(error)")
        }
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

        // A throwaway engine gives the same admission the daemon's would.
        let engine = Engine(configuration: configuration)
        var denied: SystemError?
        for (index, node) in nodes.enumerated() {
            print("\(node.devnode)  \"\(node.name)\"")
            field("kind", node.kind.rawValue)
            if let error = describe(node, id: DeviceID(index + 1), engine: engine, monitor: monitor) {
                field("used", "unknown: cannot open it (\(error.reason))")
                if error.isPermissionDenied { denied = denied ?? error }
            }
        }
        if let denied {
            fail("\(InputAccessError(denied))")
        }
    }

    /// Prints what flickd does with `node`; returns the error when it cannot be opened.
    /// Devices are opened as the daemon opens them (`DeviceMonitor.open`: a touch device without a
    /// resolution gets libinput's).
    private func describe(_ node: InputNode, id: DeviceID, engine: Engine, monitor: DeviceMonitor) -> SystemError? {
        if Daemon.isVirtualDeviceName(node.name) {
            field("used", "no: flickd's own virtual device (its output)")
            return nil
        }
        switch node.kind {
        case .other:
            field("used", "no: not a touchpad, touchscreen, mouse or keyboard")
            return nil
        case .mouse, .keyboard:
            // Opened only to show whether the daemon could; nothing is read.
            do { _ = try monitor.open(node) } catch { return error }
            field("used", node.kind == .mouse ? "to stop a coast: a button press stops it"
                                              : "to stop a coast: a key press stops it")
            return nil
        case .touchpad, .touchscreen:
            let kind = node.kind.touchKind ?? .touchpad
            let device: any InputDevice
            do { device = try monitor.open(node) } catch { return error }
            let description = device.describe()
            let geometry = DeviceGeometry(description: description, kind: kind)
            field("size", "\(oneDecimal(geometry.x.lengthMillimetres)) × \(oneDecimal(geometry.y.lengthMillimetres)) mm")
            let resolution = "\(oneDecimal(geometry.x.unitsPerMillimetre)) × \(oneDecimal(geometry.y.unitsPerMillimetre)) units/mm"
            if geometry.x.isEstimated || geometry.y.isEstimated {
                let guess = kind == .touchpad ? "libinput's guess for a 69 × 50 mm pad" : "flickd's guess of a 13.3-inch panel"
                field("resolution", "\(resolution), estimated: \(guess) (the device reports 0, and no libinput quirk gives one)")
            } else if let hint = device.sizeHint {
                field("resolution", "\(resolution), libinput's (the device reports 0): \(hint.source)")
            } else {
                field("resolution", resolution)
            }
            let slots = description.slotCount
            field("slots", slots > 0 ? "\(slots)" : "none (\(description.usesProtocolA ? "multitouch protocol A" : "single touch"))")
            switch engine.addDevice(id, description: description) {
            case .used(let kind, _):
                field("used", "yes: \(kind.rawValue) flicks coast")
            case .stopOnly(_, let why):
                field("used", "to stop a coast: a touch stops it (\(why))")
            case .ignored(let why):
                field("used", "no: \(why)")
            }
            return nil
        }
    }

    private func field(_ name: String, _ value: String) {
        let label = name + ":"
        print("    " + label + String(repeating: " ", count: max(1, 13 - label.count)) + value)
    }

    /// `value` with one decimal, e.g. 68.5.
    private func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
