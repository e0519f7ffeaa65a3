import FlickCore

/// What a configuration makes of each input device, as `flickd devices` prints it: the node,
/// its name, what udev says it is and, for a touch device, its vendor and product ids, size,
/// resolution and slots, then whether flickd uses it and why (not).
///
/// Decided as the daemon decides (`Daemon.open`): the same admission by the engine, the devices
/// opened through the same `DeviceSource`, with one thing only the desktop tells the daemon left
/// out: a touchpad whose X driver glides by itself (synaptics' coasting) is listed as used,
/// where the daemon only stops coasts with it (`flickd doctor` names it under "touchpad
/// driver"). The text is built here, not printed, so that tests can read it for scripted devices.
public enum DeviceListing {
    /// The text for some nodes, and the devices that could not be opened.
    public struct Listing {
        /// Every node's lines, each ending in a newline.
        public var text: String
        /// The nodes whose open failed, in order, with the error.
        public var failures: [(node: InputNode, error: SystemError)]

        /// Why `flickd devices` fails (exit status 1), nil when every device flickd would open
        /// could be opened: for a permission error the fix (`InputAccessError`); else each
        /// device and its error.
        public var failure: String? {
            guard !failures.isEmpty else { return nil }
            // The input group fixes every refused device: its explanation once, first.
            var lines = failures.first(where: { $0.error.isPermissionDenied }).map { ["\(InputAccessError($0.error))"] } ?? []
            for (node, error) in failures where !error.isPermissionDenied {
                lines.append("cannot open \(node.devnode) (\(node.printedName)): \(error.reason)")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The first line of the listing: the configuration file the devices are decided with
    /// (`path`, found by `location`), or the built-in defaults and where no file was found.
    public static func configurationLine(path: String?, location: ConfigurationLocation) -> String {
        "configuration: " + (path ?? "the built-in defaults (no file at \(location.searched))")
    }

    /// The listing of `nodes` under `configuration`, opening them through `source`.
    public static func list(_ nodes: [InputNode], from source: any DeviceSource, configuration: Configuration) -> Listing {
        // A throwaway engine gives the same admission the daemon's would.
        let engine = Engine(configuration: configuration)
        var listing = Listing(text: "", failures: [])
        for (index, node) in nodes.enumerated() {
            listing.text += "\(node.devnode)  \(QuotedText.quoted(node.name))\n"
            listing.text += field("kind", node.kind.rawValue)
            var fields = ""
            if let error = describe(node, id: DeviceID(index + 1), engine: engine, source: source, into: &fields) {
                fields += field("used", "unknown: cannot open it (\(error.reason))")
                listing.failures.append((node, error))
            }
            listing.text += fields
        }
        return listing
    }

    /// Appends to `text` what flickd does with `node`; returns the error when it cannot be
    /// opened. Devices are opened as the daemon opens them (`DeviceMonitor.open`: a touch
    /// device without a resolution gets libinput's).
    private static func describe(_ node: InputNode, id: DeviceID, engine: Engine, source: any DeviceSource,
                                 into text: inout String) -> SystemError? {
        if Daemon.isVirtualDeviceName(node.name) {
            text += field("used", "no: flickd's own virtual device (its output)")
            return nil
        }
        switch node.kind {
        case .other:
            // A touchpad or the like that flickd leaves alone says why (libinput ignores it, another seat's).
            text += field("used", "no: \(node.exclusion.map { "\($0)" } ?? "not a touchpad, touchscreen, mouse or keyboard")")
            return nil
        case .mouse, .keyboard:
            // The daemon opens a mouse or keyboard only to stop coasts with it, by the same rule.
            guard let press = node.stopPress(under: engine.configuration.stop) else {
                // Every setting off: what it would stop with under the defaults.
                let settings = node.kind == .keyboard ? "stop.key is" : node.hasKeys ? "stop.button and stop.key are" : "stop.button is"
                text += field("used", "no: \(settings) false (\(node.stopPress(under: Configuration.Stop()) ?? "a press") does not stop a coast)")
                return nil
            }
            // Opened only to show whether the daemon could; nothing is read.
            do { _ = try source.open(node) } catch { return error }
            text += field("used", "to stop a coast: \(press) stops it")
            return nil
        case .touchpad, .touchscreen:
            let kind = node.kind.touchKind ?? .touchpad
            let device: any InputDevice
            do { device = try source.open(node) } catch { return error }
            let description = device.describe()
            // As the daemon: udev's tag decides the kind of a device that reports positions.
            let admission = engine.addDevice(id, description: description, kind: kind)
            // The scale the engine reads the device with: a [[device]] resolution wins over the
            // device's own and libinput's (a device not read gets the one it would be read with).
            let (_, section) = engine.configuration.resolved(for: DeviceIdentity(description))
            let override = section.flatMap { engine.configuration.devices[$0 - 1].resolution }
            let geometry: DeviceGeometry
            if case .used(_, let used) = admission {
                geometry = used
            } else {
                geometry = DeviceGeometry(description: description, kind: kind, resolutionOverride: override)
            }
            text += field("ids", ids(description))
            text += field("size", "\(oneDecimal(geometry.x.lengthMillimetres)) × \(oneDecimal(geometry.y.lengthMillimetres)) mm")
            let resolution = "\(oneDecimal(geometry.x.unitsPerMillimetre)) × \(oneDecimal(geometry.y.unitsPerMillimetre)) units/mm"
            if let section, override != nil {
                text += field("resolution", "\(resolution), from [[device]] section \(section)")
            } else if geometry.x.isEstimated || geometry.y.isEstimated {
                let guess = kind == .touchpad ? "libinput's guess for a 69 × 50 mm pad" : "flickd's guess of a 13.3-inch panel"
                text += field("resolution", "\(resolution), estimated: \(guess) (the device reports 0, and no libinput quirk gives one; a [[device]] resolution sets it)")
            } else if let hint = device.sizeHint {
                text += field("resolution", "\(resolution), libinput's (the device reports 0): \(hint.source)")
            } else {
                text += field("resolution", resolution)
            }
            let slots = description.slotCount
            text += field("slots", slots > 0 ? "\(slots)" : "none (\(description.usesProtocolA ? "multitouch protocol A" : "single touch"))")
            switch admission {
            case .used(let kind, _):
                text += field("used", "yes: \(kind.rawValue) flicks coast")
            case .stopOnly(_, let why):
                if let stopper = engine.configuration.stop.stopper(ofUnreadDeviceWithButtons: description.hasPointerButtons) {
                    text += field("used", "to stop a coast: \(stopper) stops it (\(why))")
                } else {
                    // The daemon closes it again: nothing it does matters.
                    let off = Daemon.unreadDeviceStops(buttons: description.hasPointerButtons)
                    text += field("used", "no: \(why), and \(off) (\(description.hasPointerButtons ? "neither a touch nor a press of its buttons stops" : "a touch does not stop") a coast)")
                }
            case .ignored(let why):
                text += field("used", "no: \(why)")
            }
            return nil
        }
    }

    /// `vendor 0x0002, product 0x0007`, as a `[[device]]` section's `vendor` and `product` take them.
    static func ids(_ description: DeviceDescription) -> String {
        func hex(_ id: UInt16) -> String {
            let digits = String(id, radix: 16)
            return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        return "vendor \(hex(description.vendor)), product \(hex(description.product))"
    }

    /// `    name:        value`, the values in one column.
    static func field(_ name: String, _ value: String) -> String {
        let label = name + ":"
        return "    " + label + String(repeating: " ", count: max(1, 13 - label.count)) + value + "\n"
    }

    /// `value` with one decimal, e.g. 68.5.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
