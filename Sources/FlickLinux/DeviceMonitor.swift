import CUdev
import FlickCore
import Glibc

/// One evdev node (`/dev/input/eventN`) as udev describes it.
public struct InputNode: Hashable, Sendable {
    /// What udev says a device is (its `ID_INPUT_*` properties).
    public enum Kind: String, Hashable, Sendable {
        /// `ID_INPUT_TOUCHPAD`: gestures are read.
        case touchpad
        /// `ID_INPUT_TOUCHSCREEN`: gestures are read.
        case touchscreen
        /// `ID_INPUT_MOUSE` or `ID_INPUT_POINTINGSTICK`: watched only for button presses (and
        /// key presses, when its node is a keyboard too: `InputNode.hasKeys`).
        case mouse
        /// `ID_INPUT_KEYBOARD`: watched only for key presses.
        case keyboard
        /// Anything else (power buttons, tablets, joysticks, unclassified), and any device
        /// flickd leaves alone (`InputNode.Exclusion`): not opened.
        case other

        /// The kind of a device with the udev properties `property` looks up (a value of
        /// "1" means set), and `parentProperty` those of its parent input device (`inputN`).
        /// A touchpad or touchscreen wins over mouse and keyboard. A device libinput ignores
        /// (`Exclusion.libinputIgnores`, `Exclusion.notTaggedInput`) is `.other`.
        public static func classify(property: (String) -> String?,
                                    parentProperty: (String) -> String? = { _ in nil }) -> Kind {
            InputNode.judge(property: property, parentProperty: parentProperty).kind
        }

        /// The kind by udev's `ID_INPUT_*` tags alone (`isTagged`: set to "1").
        static func byInputProperties(_ isTagged: (String) -> Bool) -> Kind {
            if isTagged("ID_INPUT_TOUCHPAD") { return .touchpad }
            if isTagged("ID_INPUT_TOUCHSCREEN") { return .touchscreen }
            if isTagged("ID_INPUT_MOUSE") || isTagged("ID_INPUT_POINTINGSTICK") { return .mouse }
            if isTagged("ID_INPUT_KEYBOARD") { return .keyboard }
            return .other
        }

        /// The engine's device kind, for touchpads and touchscreens.
        public var touchKind: DeviceKind? {
            switch self {
            case .touchpad: return .touchpad
            case .touchscreen: return .touchscreen
            case .mouse, .keyboard, .other: return nil
            }
        }
    }

    /// Why a device udev calls a touchpad, touchscreen, mouse or keyboard is left alone (its
    /// kind is then `.other`), as libinput leaves it alone: what flickd's virtual device writes
    /// reaches the desktop through libinput, so flickd reads what the desktop reads.
    public enum Exclusion: Hashable, Sendable, CustomStringConvertible {
        /// udev's `LIBINPUT_IGNORE_DEVICE` is set (to anything but "0"): libinput does not open
        /// it (a game controller's touchpad, a touchscreen whose phantom touches a rule
        /// silences). Read, its swipes would glide on the virtual pad that libinput does read,
        /// and its phantom touches would stop coasts.
        case libinputIgnores
        /// udev does not tag it `ID_INPUT=1` (a rule set it to "0", or removed it, to hide the
        /// device from libinput while its `ID_INPUT_TOUCHPAD` or the like stays): libinput
        /// leaves it alone ("not tagged as supported input device"), as for `libinputIgnores`.
        case notTaggedInput
        /// udev's `ID_SEAT` names another seat than the one flickd follows
        /// (`InputNode.followedSeat`): another user's touchpad, whose flicks would glide into
        /// this user's session. libinput's seat assignment reads `ID_SEAT` alike.
        case otherSeat(String)

        /// Why, as the log and `flickd devices` say it: "libinput ignores it
        /// (LIBINPUT_IGNORE_DEVICE)", "on seat1, not seat0".
        public var description: String {
            switch self {
            case .libinputIgnores: return "libinput ignores it (LIBINPUT_IGNORE_DEVICE)"
            case .notTaggedInput: return "libinput ignores it (udev does not set ID_INPUT=1)"
            case .otherSeat(let seat): return "on \(QuotedText.controlsEscaped(seat)), not \(InputNode.followedSeat)"
            }
        }
    }

    /// The seat whose devices flickd reads: the one `SeatWatch` follows. A device without
    /// `ID_SEAT` is on it, as for libinput and logind.
    public static let followedSeat = "seat0"

    /// The device node, e.g. `/dev/input/event5`.
    public var devnode: String
    /// The node's sysfs path, e.g. `/sys/devices/.../input/input7/event5`.
    public var syspath: String
    /// The device's name (the parent input device's `name` attribute); "" when unknown.
    public var name: String
    /// What udev classified it as.
    public var kind: Kind
    /// Why flickd leaves alone a device udev calls a touchpad, touchscreen, mouse or keyboard
    /// (`kind` is then `.other`); nil otherwise.
    public var exclusion: Exclusion?
    /// Whether a mouse's node has keyboard keys too (`ID_INPUT_KEYBOARD` beside
    /// `ID_INPUT_MOUSE`: Logitech's K400, a keyboard with a pointer on one node): its keys stop
    /// coasts as a keyboard's do.
    public var hasKeys: Bool
    /// udev's `ID_INPUT_TOUCHPAD_INTEGRATION` (`internal`, `external`; systemd's
    /// 70-touchpad.hwdb sets it), which decides whether libinput reads a touchpad as external;
    /// nil when udev sets none.
    public var touchpadIntegration: String?

    /// `name` as a message prints it: its control characters escaped (`\u001B`), so that a
    /// device's name (any bytes a uinput device was given) can neither break a log line nor
    /// send a terminal a command.
    public var printedName: String { QuotedText.controlsEscaped(name) }

    /// What of this mouse or keyboard stops a coast under `stop`, as the daemon opens it and the
    /// log and `flickd devices` say it: "a button press" (stop.button), "a key press"
    /// (stop.key), "a button or key press" (a mouse with keyboard keys under both); nil when
    /// nothing of it does (it is not opened) or it is not a mouse or keyboard.
    public func stopPress(under stop: Configuration.Stop) -> String? {
        switch stoppingPresses(under: stop) {
        case (true, true): return "a button or key press"
        case (true, false): return "a button press"
        case (false, true): return "a key press"
        case (false, false): return nil
        }
    }

    /// Whether this mouse's or keyboard's button presses, and its key presses, stop a coast
    /// under `stop` (`stopPress(under:)` says it).
    func stoppingPresses(under stop: Configuration.Stop) -> (button: Bool, key: Bool) {
        (kind == .mouse && stop.button, (kind == .keyboard || kind == .mouse && hasKeys) && stop.key)
    }

    /// A node; `DeviceMonitor` makes these from udev.
    public init(devnode: String, syspath: String, name: String, kind: Kind, exclusion: Exclusion? = nil, hasKeys: Bool = false,
                touchpadIntegration: String? = nil) {
        self.devnode = devnode
        self.syspath = syspath
        self.name = name
        self.kind = kind
        self.exclusion = exclusion
        self.hasKeys = hasKeys
        self.touchpadIntegration = touchpadIntegration
    }

    /// A node whose udev properties `property` looks up (`parentProperty`: those of its parent
    /// input device), judged as `judge(property:parentProperty:)` does.
    public init(devnode: String, syspath: String, name: String, parentProperty: (String) -> String? = { _ in nil },
                property: (String) -> String?) {
        let (kind, exclusion, hasKeys) = Self.judge(property: property, parentProperty: parentProperty)
        self.init(devnode: devnode, syspath: syspath, name: name, kind: kind, exclusion: exclusion, hasKeys: hasKeys,
                  touchpadIntegration: property("ID_INPUT_TOUCHPAD_INTEGRATION"))
    }

    /// What flickd makes of a device with the udev properties `property` looks up
    /// (`parentProperty`: its parent input device's): its kind by the `ID_INPUT_*` tags, unless
    /// libinput ignores it (`LIBINPUT_IGNORE_DEVICE` set, not "0"; or no `ID_INPUT=1`) or its
    /// `ID_SEAT` (unset: seat0) is not `followedSeat`: then `.other`, and why. A mouse with
    /// `ID_INPUT_KEYBOARD` has keys.
    ///
    /// The tags are read as libinput's evdev_device_get_udev_tags reads them: a tag is set when
    /// its value is exactly "1" on the event node or on its parent (`inputN`); "0", no value or
    /// any other value is not set.
    static func judge(property: (String) -> String?,
                      parentProperty: (String) -> String? = { _ in nil }) -> (kind: Kind, exclusion: Exclusion?, hasKeys: Bool) {
        func isTagged(_ key: String) -> Bool { property(key) == "1" || parentProperty(key) == "1" }
        let kind = Kind.byInputProperties(isTagged)
        guard kind != .other else { return (.other, nil, false) }
        // libinput's evdev_device_create skips a device whose property is set to anything
        // but "0" (an empty value counts as set there too).
        if let ignore = property("LIBINPUT_IGNORE_DEVICE"), ignore != "0" { return (.other, .libinputIgnores, false) }
        if let seat = property("ID_SEAT"), !seat.isEmpty, seat != followedSeat { return (.other, .otherSeat(seat), false) }
        // libinput's evdev_configure_device drops a device without the ID_INPUT tag ("not
        // tagged as supported input device"): the way a udev rule hides a device from libinput
        // (`ENV{ID_INPUT}="0"`) while the tag that says what it is stays.
        if !isTagged("ID_INPUT") { return (.other, .notTaggedInput, false) }
        return (kind, nil, kind == .mouse && isTagged("ID_INPUT_KEYBOARD"))
    }
}

/// Finds the evdev nodes through libudev, and reports nodes added and removed.
///
/// Use `inputNodes()` for what exists now; `startMonitoring()` gives a descriptor for the
/// event loop, and `receiveChanges(_:)` reads it when it is ready.
public final class DeviceMonitor {
    /// libinput's quirks, read when the first touch device without a resolution is described;
    /// set its `report` to hear why libinput, and so flickd, would use none of them.
    public let quirks = QuirksOnDemand()

    /// An evdev node that appeared or went away.
    public enum Change: Hashable, Sendable {
        /// A node was added (udev has finished its rules: permissions and properties are set).
        case added(InputNode)
        /// A node changed (`udevadm trigger`, a rule or its permissions changed): one flickd could
        /// not read, or judged otherwise before, is looked at again.
        case changed(InputNode)
        /// The node at `devnode` was removed; `syspath`, when known (not empty), is the device
        /// that was there (a removal read late may be of one the node no longer belongs to).
        case removed(devnode: String, syspath: String = "")
        /// Events were lost: the socket's receive queue overflowed (ENOBUFS) while flickd was
        /// not reading it, so nodes may have come or gone unreported. List them again.
        case missedEvents
    }

    /// Only nodes under this prefix are evdev event nodes (not the legacy mouseN/jsN ones).
    static let eventNodePrefix = "/dev/input/event"

    private let udev: OpaquePointer
    private var monitor: OpaquePointer?

    /// A libudev context. Throws only when libudev cannot start (out of memory).
    public init() throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError(errno: Glibc.errno, call: "udev_new") }
        self.udev = udev
    }

    deinit {
        if let monitor { udev_monitor_unref(monitor) }
        udev_unref(udev)
    }

    /// Whether this machine has a /dev/input directory at all (containers often do not).
    public static var hasInputDirectory: Bool { Syscall.exists("/dev/input") }

    /// Every evdev node that exists now, sorted by node path. Empty when there is no
    /// /dev/input (a container) or no sysfs.
    public func inputNodes() -> [InputNode] {
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        guard udev_enumerate_add_match_subsystem(enumerate, "input") >= 0,
              udev_enumerate_scan_devices(enumerate) >= 0 else { return [] }
        var nodes: [InputNode] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let syspath = udev_list_entry_get_name(current),
                  let device = udev_device_new_from_syspath(udev, syspath) else { continue }
            defer { udev_device_unref(device) }
            if let node = Self.node(device) { nodes.append(node) }
        }
        return nodes.sorted { Self.naturalOrder($0.devnode, $1.devnode) }
    }

    /// Starts listening for hot-plug (udev's netlink events for subsystem "input") and returns
    /// the descriptor to watch. Calling it again returns the same descriptor.
    public func startMonitoring() throws(SystemError) -> Int32 {
        if let monitor { return udev_monitor_get_fd(monitor) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            throw SystemError(errno: Glibc.errno, call: "udev_monitor_new_from_netlink")
        }
        do throws(SystemError) {
            try Syscall.check(udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil),
                              "udev_monitor_filter_add_match_subsystem_devtype")
            try Syscall.check(udev_monitor_enable_receiving(monitor), "udev_monitor_enable_receiving")
        } catch {
            udev_monitor_unref(monitor)
            throw error
        }
        self.monitor = monitor
        return udev_monitor_get_fd(monitor)
    }

    /// Reads every pending hot-plug event (the descriptor is non-blocking) and reports the
    /// evdev nodes added, changed or removed. Other actions ("bind", "unbind") are ignored. When the
    /// kernel dropped events (the queue overflowed), the events still queued are reported
    /// first, then `.missedEvents` once.
    public func receiveChanges(_ report: (Change) -> Void) {
        guard let monitor else { return }
        var missed = false
        // The overflow is reported once, after the events still queued (the rescan it asks for
        // then sees what they changed); a few more reads drain them. The bound keeps a queue
        // that keeps overflowing from holding the loop.
        var overflows = 0
        while true {
            guard let device = udev_monitor_receive_device(monitor) else {
                if Glibc.errno == ENOBUFS, overflows < 16 {
                    missed = true
                    overflows += 1
                    continue
                }
                break
            }
            defer { udev_device_unref(device) }
            guard let action = udev_device_get_action(device) else { continue }
            switch String(cString: action) {
            case "add":
                if let node = Self.node(device) { report(.added(node)) }
            case "change":
                if let node = Self.node(device) { report(.changed(node)) }
            case "remove":
                if let devnode = Self.eventDevnode(device) {
                    report(.removed(devnode: devnode, syspath: udev_device_get_syspath(device).map { String(cString: $0) } ?? ""))
                }
            default:
                continue
            }
        }
        if missed { report(.missedEvents) }
    }

    /// The device's node path when it is an evdev event node.
    private static func eventDevnode(_ device: OpaquePointer) -> String? {
        guard let devnode = udev_device_get_devnode(device).map({ String(cString: $0) }),
              devnode.hasPrefix(eventNodePrefix) else { return nil }
        return devnode
    }

    /// An `InputNode` for an evdev event node; nil for anything else (the parent `inputN`
    /// devices, legacy mouseN/jsN nodes).
    private static func node(_ device: OpaquePointer) -> InputNode? {
        guard let devnode = eventDevnode(device) else { return nil }
        let syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
        // The name lives on the parent input device (inputN), not the event node.
        let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
        let name = parent.flatMap { udev_device_get_sysattr_value($0, "name") }.map { String(cString: $0) } ?? ""
        // libinput reads the tags on the node and its immediate parent (evdev_device_get_udev_tags).
        let tagParent = udev_device_get_parent(device)
        return InputNode(devnode: devnode, syspath: syspath, name: name, parentProperty: { key in
            tagParent.flatMap { udev_device_get_property_value($0, key) }.map { String(cString: $0) }
        }) { key in
            udev_device_get_property_value(device, key).map { String(cString: $0) }
        }
    }

    /// Orders `/dev/input/event2` before `/dev/input/event10`.
    static func naturalOrder(_ a: String, _ b: String) -> Bool {
        let numberA = Int(a.dropFirst(eventNodePrefix.count))
        let numberB = Int(b.dropFirst(eventNodePrefix.count))
        if let numberA, let numberB, numberA != numberB { return numberA < numberB }
        return a < b
    }
}
