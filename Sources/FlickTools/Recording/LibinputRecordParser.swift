import FlickCore

/// Reads `libinput record` output: the YAML users attach to libinput and flickd bug reports.
///
/// The parts flickd uses, for the device it replays:
/// ```
/// version: 1
/// ndevices: 1
/// devices:
/// - node: /dev/input/event7
///   evdev:
///     name: "SynPS/2 Synaptics TouchPad"
///     id: [17, 2, 7, 433]            # bus, vendor, product, version
///     codes:
///       1: [272, 325, 330, 333]      # EV_KEY codes (type and codes may also be names)
///       3: [0, 1, 47, 53, 54, 57]
///     absinfo:
///       53: [1472, 5472, 8, 0, 48]   # min, max, fuzz, flat, resolution
///     properties: [0, 2]
///   events:
///   - evdev:
///     - [  0,      0,   3,  57,   12] # sec, usec, type, code, value
///     - [  0,      0,   0,   0,    0] # ------------ SYN_REPORT (0) ----------
/// ```
/// A device's `quirks:` list (`- AttrResolutionHint=31x31`, the libinput quirks of the machine
/// it was recorded on) gives a device that reports no resolution the one libinput gave it
/// there, as the daemon's reading of the quirks files does; the list is kept
/// (`Recording.quirks`) for the replay to read the pad's pressure as libinput did there.
/// `libinput: version:` is kept too (`Recording.libinputVersion`), and says how that libinput
/// measured an axis range for a size (`LibinputAxisRange`: counted inclusively from 1.25) on a
/// device without resolution, for its size hint and the 69 × 50 mm guess.
/// Everything else (`system:`, `udev:`, `hid:`, `libinput:` events, and libinput's
/// `{time: ..., type: ...}` events where they land in an `evdev:` list) is skipped.
/// `codes:` entries may also be mappings (`1: {272: ..., 330: ...}`, keys are the codes).
/// Times are as recorded: `libinput record` starts its clock at the first event, of whichever
/// device (`read(text:device:)` gives the earliest). With several devices an event can come
/// before that start; libinput writes such a time as an unsigned
/// wrap (`[18446744073709, 550616]` is 1 ms before), which is read as the negative time it is,
/// as is a negative second count (`[-1, 999000]`).
///
/// A file may hold several devices (`libinput record` given several nodes, or `--all`), each
/// with its own events on one clock. The replayed device is the touch device (a touchpad or
/// touchscreen, `DeviceDescription.kind`) with the most evdev frames (SYN_REPORTs; `hid:` and
/// `libinput:` entries count for nothing), the first listed of equals, wherever it is in the
/// list: a keyboard, or a touchscreen idle or touched once, listed before the touchpad is not
/// replayed in its place.
/// Other touch devices are named in `Recording.otherTouchDevices`; a file with no touch device
/// replays one libinput rejects (`DeviceDescription.rangeProblem`), else its first device,
/// which the replay then reports as not read. `ndevices:`, when present, must count the devices
/// listed: a file cut between two devices is an error, not a replay of the wrong one, and so
/// is a device without its `events:` (libinput writes it, empty if need be). A key
/// twice in a device entry is an error too (YAML would keep the first): `--autorestart` ends a
/// device's events with `# Closing after Ns inactivity` and no newline, and the next device's
/// `- node:` on that line is read as a line of its own (`YAMLDocument`).
public enum LibinputRecordParser {
    /// The format version this parser reads.
    public static let supportedVersion = 1

    /// Parses `libinput record` YAML `text`, using its busiest touch device (see above), or the
    /// device recorded from `node` (`/dev/input/event5`, as its `- node:` line says) when given.
    /// - Throws: `RecordingError` naming the line of the first problem, or the `devices:` line
    ///   when no device is `node`'s.
    public static func parse(text: String, device node: String? = nil) throws(RecordingError) -> Recording {
        try read(text: text, device: node).recording
    }

    /// `parse(text:device:)`, and the time of the earliest evdev event of any device in the
    /// file, the one the recording's clock counts from (nil when no device has one). With
    /// `--all` a keyboard's key press may start the recording seconds before the touchpad's
    /// first frame; an event before the start is negative (see above). Another device's
    /// malformed events are not read (as before) and give no time.
    ///
    /// `isOwnDevice` tells flickd's own virtual devices by name (`Daemon.isVirtualDeviceName`,
    /// which this module cannot see): `libinput record --all` taken while flickd runs lists
    /// them, and the daemon never reads them. They are never chosen to replay (the virtual
    /// touchpad's glides, frame after frame, often outnumber the real pad's), nor listed among
    /// the other devices, whose touches would seem to stop each coast they themselves write;
    /// `--device` naming one still replays it.
    ///
    /// `udevRule` is the daemon's judgement of a device by its udev properties (`UdevRule`):
    /// where given, a device whose recorded `udev: properties:` the daemon would not read as a
    /// touchpad or touchscreen (LIBINPUT_IGNORE_DEVICE, no ID_INPUT=1, ID_INPUT_MOUSE alone) is
    /// no touch device to choose, and the one replayed carries its judgement (`Recording.udev`)
    /// for the replay to admit it as the daemon would. A device listing no properties is read
    /// by its tags and capabilities, as before.
    public static func read(text: String, device node: String? = nil,
                            isOwnDevice: (String) -> Bool = { _ in false },
                            udevRule: UdevRule? = nil) throws(RecordingError) -> (recording: Recording, start: Instant?) {
        guard let root = try YAMLDocument.parse(TextLines.withoutByteOrderMark(text)) else {
            throw RecordingError(line: 1, message: "empty libinput record file")
        }
        guard case .mapping = root.value else {
            throw RecordingError(line: root.line, message: "expected the top-level keys of libinput record (version, devices), found \(root.kindName)")
        }
        if let version = root["version"] {
            let number = try integer(version, "version")
            guard number == Int64(supportedVersion) else {
                throw RecordingError(line: version.line, message: "unsupported libinput record version \(number); flickd reads version \(supportedVersion)")
            }
        }
        guard let devices = root["devices"] else {
            throw RecordingError(line: root.line, message: "no \"devices:\" list: not a libinput record file?")
        }
        guard case .sequence(let list) = devices.value, !list.isEmpty else {
            throw RecordingError(line: devices.line, message: "\"devices:\" must be a non-empty list, found \(devices.kindName)")
        }
        // Before the count: a device run into the one before it reads as that one's second
        // keys, and the count's advice would lose it.
        for device in list { try requireUniqueKeys(device) }
        if let count = root["ndevices"] {
            let number = try integer(count, "ndevices")
            guard number == Int64(list.count) else {
                throw RecordingError(line: count.line, message: "ndevices: \(number), but the \"devices:\" list (from line \(devices.line)) holds \(list.count): the file is cut short or was edited; make ndevices the number of devices listed")
            }
        }
        // As the recording's libinput measured an axis range for a size (`LibinputAxisRange`),
        // as the daemon learns it of the installed one (`LibinputQuirks.applied`).
        var libinputVersion: String?
        if case .scalar(let version)? = root["libinput"]?["version"]?.value { libinputVersion = version }
        let axisRange = axisRange(ofLibinput: libinputVersion)
        var described: [(node: YAMLNode, description: DeviceDescription, udevKind: DeviceKind?)] = []
        var judged: [UdevJudgement?] = []
        for device in list {
            guard case .mapping = device.value else {
                throw RecordingError(line: device.line, message: "a device must be a mapping (node, evdev, events), found \(device.kindName)")
            }
            guard let evdev = device["evdev"] else {
                throw RecordingError(line: device.line, message: "the device has no \"evdev:\" description")
            }
            var description = try deviceDescription(evdev)
            if ResolutionHint.couldApply(to: description) { description.libinputAxisRange = axisRange }
            // libinput record writes every device's events: (empty when it had none), after its
            // description; a file without it ends inside the device.
            guard device["events"] != nil else {
                let node = nodeName(device) ?? "listed here"
                throw RecordingError(line: device.line, message: "the device \(node) has no \"events:\" list, which libinput record always writes: the recording was cut short?")
            }
            described.append((device, description, udevKind(device["udev"])))
            judged.append(udevRule.flatMap { rule in udevProperties(device["udev"]).map(rule) })
        }
        // A keyboard or mouse recorded alongside (`--all`) carries no gesture: the touch device
        // is the one the report is about, the one with the most event frames, the first listed
        // of equals (`max` keeps the first): an idle touchscreen, or one touched once, often comes
        // first in node order. With none that has events, a device libinput rejects for an axis
        // of no width (the pad the user recorded, most likely), else the first device is replayed
        // and reported as not read, which says more than an error would.
        // The kind the daemon reads each as (udev's tag where it reports positions); flickd's
        // own devices are none the daemon reads.
        // Nor does it read a device udev marks LIBINPUT_IGNORE_DEVICE (a touchscreen silenced
        // for phantom touches): libinput does not open it.
        // With the daemon's rule, any device it leaves alone (no ID_INPUT=1 too), and a device
        // its udev properties call neither a touchpad nor a touchscreen is none it reads touches of.
        let ignored = Set(described.indices.filter { libinputIgnores(described[$0].node["udev"]) || judged[$0]?.exclusion != nil })
        let touch = described.indices.filter {
            Recording.kind(of: described[$0].description, udevKind: described[$0].udevKind) != nil
                && judged[$0].map { $0.touchKind != nil } ?? true
                && !isOwnDevice(described[$0].description.name) && !ignored.contains($0)
        }
        let chosen: Int
        if let node {
            guard let index = described.firstIndex(where: { nodeName($0.node) == node }) else {
                let listed = described.compactMap { nodeName($0.node) }
                throw RecordingError(line: devices.line, message: "no device \(node) in the recording; it lists \(listed.isEmpty ? "no device node" : listed.joined(separator: ", "))")
            }
            chosen = index
        } else {
            let frames = described.map { frameCount($0.node["events"]) }
            let busiest = touch.filter { frames[$0] > 0 }.max { frames[$0] < frames[$1] }
            chosen = busiest ?? touch.first
                ?? described.indices.first { described[$0].description.rangeProblem != nil } ?? 0
        }
        let device = described[chosen].node
        var description = described[chosen].description
        let others = touch.filter { $0 != chosen }.map { index in
            RecordedDevice(name: described[index].description.name, node: nodeName(described[index].node))
        }
        var quirk: String?
        if let (hint, text) = resolutionHint(device["quirks"]), let filled = hint.applied(to: description) {
            description = filled
            quirk = text
        }
        var events: [TimedEvent] = []
        if let eventList = device["events"] {
            events = try readEvents(eventList)
        }
        var recording = Recording(description: description, events: events, resolutionQuirk: quirk)
        recording.udevKind = described[chosen].udevKind
        recording.quirks = quirkList(device["quirks"])
        recording.touchpadTags = touchpadTags(device["udev"])
        recording.libinputVersion = libinputVersion
        recording.udev = judged[chosen]
        recording.otherTouchDevices = others
        // Another device's malformed events were never an error: it is not the one replayed.
        recording.otherDevices = described.indices.filter {
            $0 != chosen && !isOwnDevice(described[$0].description.name) && !ignored.contains($0)
        }.map { index in
            let (node, description, udevKind) = described[index]
            let events = node["events"].flatMap { try? readEvents($0) } ?? []
            var input = RecordedInput(device: RecordedDevice(name: description.name, node: nodeName(node)), description: description, events: events)
            input.udevKind = udevKind
            input.quirks = quirkList(node["quirks"])
            input.touchpadTags = touchpadTags(node["udev"])
            input.udev = judged[index]
            return input
        }
        recording.node = nodeName(device)
        let starts = described.compactMap { earliestTime($0.node["events"]) }
        return (recording, starts.min())
    }

    /// The time of the earliest well-formed evdev event of a device's `events:` list, nil when
    /// it has none: of a device not replayed only the times are wanted, and its events were
    /// never an error.
    private static func earliestTime(_ events: YAMLNode?) -> Instant? {
        guard case .sequence(let frames)? = events?.value else { return nil }
        var earliest: Instant?
        for frame in frames {
            guard case .sequence(let items)? = frame["evdev"]?.value else { continue }
            for item in items where !isLibinputEvent(item) {
                guard let time = try? event(item).time else { continue }
                earliest = min(earliest ?? time, time)
            }
        }
        return earliest
    }

    /// The touch kind udev tagged a device with when it was recorded, from its `udev:
    /// properties:` list (`- ID_INPUT_TOUCHPAD=1`), as the daemon reads the tag: a touchpad
    /// before a touchscreen, a value other than "1" unset. nil without either tag or without
    /// the list (a file of another tool, an edited one).
    private static func udevKind(_ udev: YAMLNode?) -> DeviceKind? {
        guard case .sequence(let entries)? = udev?["properties"]?.value else { return nil }
        var set: Set<String> = []
        for entry in entries {
            guard case .scalar(let text) = entry.value else { continue }
            if text == "ID_INPUT_TOUCHPAD=1" || text == "ID_INPUT_TOUCHSCREEN=1" { set.insert(text) }
        }
        if set.contains("ID_INPUT_TOUCHPAD=1") { return .touchpad }
        if set.contains("ID_INPUT_TOUCHSCREEN=1") { return .touchscreen }
        return nil
    }

    /// The device's recorded `udev: properties:` (`NAME=value`) by name, the first of a name
    /// kept; nil without the list.
    private static func udevProperties(_ udev: YAMLNode?) -> [String: String]? {
        guard case .sequence(let entries)? = udev?["properties"]?.value else { return nil }
        var properties: [String: String] = [:]
        for entry in entries {
            guard case .scalar(let text) = entry.value, let equals = text.firstIndex(of: "=") else { continue }
            let name = String(text[..<equals])
            if properties[name] == nil { properties[name] = String(text[text.index(after: equals)...]) }
        }
        return properties
    }

    /// How the daemon on a machine with libinput `version` (`1.26.0`, as `libinput: version:`
    /// names it) measures an axis range for a size: `.inclusive` from 1.24 (`LibinputAxisRange`;
    /// libinput itself from 1.25, but 1.24's quirks files read as 1.25's, and the daemon takes
    /// them so: `LibinputQuirks.libinputAxisRange`), `.difference` before and where the version
    /// is not known. A patch of 900 or more is the next minor release's
    /// candidate (`1.24.901` is 1.25's), as the daemon's reading of recorded quirks takes it
    /// (`LibinputQuirks.PressureQuirks.release`, which this module cannot see).
    static func axisRange(ofLibinput version: String?) -> LibinputAxisRange {
        guard let parts = version?.split(separator: ".", omittingEmptySubsequences: false), parts.count >= 2,
              let major = Int(parts[0]), var minor = Int(parts[1]) else { return .difference }
        if parts.count >= 3, let patch = Int(parts[2].prefix { $0.isNumber }), patch >= 900 { minor += 1 }
        return major > 1 || (major == 1 && minor >= 24) ? .inclusive : .difference
    }

    /// Whether the device's recorded `udev: properties:` set `LIBINPUT_IGNORE_DEVICE` to
    /// anything but "0", as the daemon reads it (`InputNode.Exclusion.libinputIgnores`).
    private static func libinputIgnores(_ udev: YAMLNode?) -> Bool {
        guard case .sequence(let entries)? = udev?["properties"]?.value else { return false }
        return entries.contains { entry in
            guard case .scalar(let text) = entry.value, text.hasPrefix("LIBINPUT_IGNORE_DEVICE=") else { return false }
            return text != "LIBINPUT_IGNORE_DEVICE=0"
        }
    }

    /// The device's recorded `ID_INPUT_TOUCHPAD_INTEGRATION` (`internal`, `external`) and
    /// `ID_INPUT_TABLET`, from its `udev: properties:` list; none where it lists none.
    private static func touchpadTags(_ udev: YAMLNode?) -> TouchpadTags {
        guard case .sequence(let entries)? = udev?["properties"]?.value else { return TouchpadTags() }
        let prefix = "ID_INPUT_TOUCHPAD_INTEGRATION="
        var tags = TouchpadTags()
        for entry in entries {
            guard case .scalar(let text) = entry.value else { continue }
            if text.hasPrefix(prefix), tags.integration == nil { tags.integration = String(text.dropFirst(prefix.count)) }
            if text == "ID_INPUT_TABLET=1" { tags.isTablet = true }
        }
        return tags
    }

    /// A device entry's `node:` (`/dev/input/event5`), when it has one.
    private static func nodeName(_ device: YAMLNode) -> String? {
        guard case .scalar(let text)? = device["node"]?.value else { return nil }
        return text
    }

    /// The evdev frames of a device's `events:` list: its SYN_REPORTs, the frames libinput
    /// reads. `hid:` and `libinput:` entries, which a touchscreen's hidraw node or libinput's
    /// own events add, are no touches.
    private static func frameCount(_ events: YAMLNode?) -> Int {
        guard case .sequence(let entries)? = events?.value else { return 0 }
        func isZero(_ node: YAMLNode) -> Bool {
            if case .scalar(let text) = node.value { return parseInteger(text) == 0 } else { return false }
        }
        var count = 0
        for entry in entries {
            guard case .sequence(let items)? = entry["evdev"]?.value else { continue }
            for item in items {
                if case .sequence(let fields) = item.value, fields.count == 5, isZero(fields[2]), isZero(fields[3]) { count += 1 }
            }
        }
        return count
    }

    /// Throws for a key twice in one mapping of `node` or below: libinput record writes none,
    /// and YAML would read the first and drop the second (a device's lines run into the one
    /// before, an edit). Only device entries are checked: they are where a lost line costs.
    private static func requireUniqueKeys(_ node: YAMLNode) throws(RecordingError) {
        switch node.value {
        case .mapping(let entries):
            var seen: [String: Int] = [:]
            for (key, value) in entries {
                let line = value.keyLine ?? value.line
                if let first = seen[key] {
                    throw RecordingError(line: line, message: "\"\(key)\" twice in one mapping (first on line \(first)): libinput record writes each key once; were two devices' lines run together, or the file edited?")
                }
                seen[key] = line
                try requireUniqueKeys(value)
            }
        case .sequence(let items):
            for item in items { try requireUniqueKeys(item) }
        case .scalar, .null:
            break
        }
    }

    /// A device's `quirks:` entries: nil without the key, empty where it lists none (libinput
    /// record writes the key and no entry when no quirk applies). Entries that are not text
    /// (an edited file) are skipped.
    private static func quirkList(_ quirks: YAMLNode?) -> [String]? {
        guard let quirks else { return nil }
        guard case .sequence(let entries) = quirks.value else { return [] }
        return entries.compactMap { entry in
            if case .scalar(let text) = entry.value { return text } else { return nil }
        }
    }

    /// The resolution hint among a device's recorded quirks, and its line: a resolution hint
    /// before a size hint, as libinput reads them; nil when there is neither (or no list).
    private static func resolutionHint(_ quirks: YAMLNode?) -> (ResolutionHint, String)? {
        guard let quirks, case .sequence(let entries) = quirks.value else { return nil }
        var resolution: (ResolutionHint, String)?
        var size: (ResolutionHint, String)?
        for entry in entries {
            guard case .scalar(let text) = entry.value, let equals = text.firstIndex(of: "="),
                  let hint = ResolutionHint(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
            else { continue }
            if case .resolution = hint { resolution = (hint, text) } else { size = (hint, text) }
        }
        return resolution ?? size
    }

    // MARK: Description

    private static func deviceDescription(_ evdev: YAMLNode) throws(RecordingError) -> DeviceDescription {
        guard case .mapping = evdev.value else {
            throw RecordingError(line: evdev.line, message: "\"evdev:\" must be a mapping, found \(evdev.kindName)")
        }
        var description = DeviceDescription(name: "")
        if let name = evdev["name"] {
            guard case .scalar(let text) = name.value else {
                throw RecordingError(line: name.line, message: "name must be a string, found \(name.kindName)")
            }
            description.name = text
        }
        if let id = evdev["id"] {
            let fields = try list(id, "id")
            guard fields.count == 4 else {
                throw RecordingError(line: id.line, message: "id must be [bus, vendor, product, version], found \(fields.count) value(s)")
            }
            description.bustype = try uint16(fields[0], "bus")
            description.vendor = try uint16(fields[1], "vendor")
            description.product = try uint16(fields[2], "product")
            _ = try uint16(fields[3], "version")
        }
        if let codes = evdev["codes"] {
            guard case .mapping(let types) = codes.value else {
                throw RecordingError(line: codes.line, message: "codes must map event types to their codes, found \(codes.kindName)")
            }
            for (typeKey, value) in types {
                let type = try eventType(typeKey, line: value.line)
                for code in try codeList(value, type: type) where type == EventCode.key {
                    description.keys.insert(code)
                }
            }
        }
        if let absinfo = evdev["absinfo"] {
            guard case .mapping(let axes) = absinfo.value else {
                throw RecordingError(line: absinfo.line, message: "absinfo must map axis codes to [min, max, fuzz, flat, resolution], found \(absinfo.kindName)")
            }
            for (codeKey, value) in axes {
                let code = try code(codeKey, type: EventCode.absolute, line: value.line)
                let fields = try list(value, "absinfo of \(codeKey)")
                guard fields.count == 4 || fields.count == 5 else {
                    throw RecordingError(line: value.line, message: "absinfo of \(codeKey) must be [min, max, fuzz, flat, resolution], found \(fields.count) value(s)")
                }
                let numbers = try fields.map { (field: YAMLNode) throws(RecordingError) in try int32(field, "absinfo of \(codeKey)") }
                description.absoluteAxes[code] = AxisInfo(
                    minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                    resolution: numbers.count == 5 ? numbers[4] : 0)
            }
        }
        if let properties = evdev["properties"] {
            if case .null = properties.value {} else {
                for property in try list(properties, "properties") {
                    guard case .scalar(let text) = property.value else {
                        throw RecordingError(line: property.line, message: "a property must be a number or an INPUT_PROP_ name, found \(property.kindName)")
                    }
                    if let bit = EventNames.property(named: text) {
                        description.properties.insert(bit)
                    } else {
                        let bit = try integer(property, "property")
                        guard bit >= 0, bit <= Int64(EventNames.maximumProperty) else {
                            throw RecordingError(line: property.line, message: "property \(bit) is beyond INPUT_PROP_MAX (31)")
                        }
                        description.properties.insert(UInt16(bit))
                    }
                }
            }
        }
        return description
    }

    /// The codes of one `codes:` entry: a list of codes or a mapping keyed by code.
    private static func codeList(_ node: YAMLNode, type: UInt16) throws(RecordingError) -> [UInt16] {
        switch node.value {
        case .sequence(let items):
            var codes: [UInt16] = []
            for item in items {
                guard case .scalar(let text) = item.value else {
                    throw RecordingError(line: item.line, message: "an event code must be a number or a name, found \(item.kindName)")
                }
                codes.append(try code(text, type: type, line: item.line))
            }
            return codes
        case .mapping(let entries):
            var codes: [UInt16] = []
            for (key, value) in entries { codes.append(try code(key, type: type, line: value.line)) }
            return codes
        case .null:
            return []
        case .scalar:
            throw RecordingError(line: node.line, message: "the codes of \(EventNames.typeName(type)) must be a list, found \(node.kindName)")
        }
    }

    private static func eventType(_ text: String, line: Int) throws(RecordingError) -> UInt16 {
        if let type = EventNames.type(named: text) { return type }
        guard let number = parseInteger(text), number >= 0, number <= Int64(EventNames.maximumType) else {
            throw RecordingError(line: line, message: "\"\(text)\" is not an event type (0...31 or an EV_ name)")
        }
        return UInt16(number)
    }

    private static func code(_ text: String, type: UInt16, line: Int) throws(RecordingError) -> UInt16 {
        if let named = EventNames.lookup(text) {
            guard named.type == type else {
                throw RecordingError(line: line, message: "\(text) is not a code of \(EventNames.typeName(type))")
            }
            return named.code
        }
        guard let number = parseInteger(text), let code = UInt16(exactly: number) else {
            throw RecordingError(line: line, message: "\"\(text)\" is not an event code of \(EventNames.typeName(type))")
        }
        return code
    }

    // MARK: Events

    private static func readEvents(_ node: YAMLNode) throws(RecordingError) -> [TimedEvent] {
        if case .null = node.value { return [] }
        guard case .sequence(let frames) = node.value else {
            throw RecordingError(line: node.line, message: "events must be a list of \"- evdev:\" frames, found \(node.kindName)")
        }
        var events: [TimedEvent] = []
        for frame in frames {
            guard case .mapping = frame.value else {
                throw RecordingError(line: frame.line, message: "an events entry must be \"- evdev:\" (or another event source), found \(frame.kindName)")
            }
            // libinput:, hidraw: and other sources are not kernel events: skip them.
            guard let evdev = frame["evdev"] else { continue }
            if case .null = evdev.value { continue }
            for item in try list(evdev, "evdev") where !isLibinputEvent(item) {
                events.append(try event(item))
            }
        }
        return events
    }

    /// Whether `node` is one of libinput's own events (`{time: 0.190000, type: GESTURE_HOLD_BEGIN,
    /// ...}`): with several devices and `--with-libinput`, libinput record can print them into
    /// an `evdev:` list, where they are skipped as in a `libinput:` one. Its device notices
    /// carry no time (`{type: DEVICE_REMOVED, seat: seat0, logical_seat: default}`): those
    /// two types are enough.
    private static func isLibinputEvent(_ node: YAMLNode) -> Bool {
        guard case .mapping = node.value, let type = node["type"] else { return false }
        if node["time"] != nil { return true }
        guard case .scalar(let name) = type.value else { return false }
        return name == "DEVICE_ADDED" || name == "DEVICE_REMOVED"
    }

    /// One `[sec, usec, type, code, value]`.
    private static func event(_ node: YAMLNode) throws(RecordingError) -> TimedEvent {
        guard case .sequence(let fields) = node.value else {
            throw RecordingError(line: node.line, message: "an event must be [sec, usec, type, code, value], found \(node.kindName)")
        }
        guard fields.count == 5 else {
            throw RecordingError(line: node.line, message: "an event must be [sec, usec, type, code, value], found \(fields.count) value(s)")
        }
        let seconds = try integer(fields[0], "seconds")
        let microseconds = try integer(fields[1], "microseconds")
        guard microseconds >= 0, microseconds < 1_000_000 else {
            throw RecordingError(line: node.line, message: "microseconds \(microseconds) out of range (0...999999)")
        }
        let time: Instant
        // A range test, not abs(seconds): abs traps on Int64.min, which has no positive twin.
        if (-maximumSeconds...maximumSeconds).contains(seconds) {
            // A negative second count is a time before the start, microseconds on from it.
            time = Instant(seconds: seconds, microseconds: microseconds)
        } else if let before = timeBeforeStart(seconds: seconds, microseconds: microseconds) {
            time = before
        } else {
            throw RecordingError(line: node.line, message: "seconds \(seconds) out of range (-\(maximumSeconds)...\(maximumSeconds))")
        }
        let type = try uint16(fields[2], "type")
        guard type <= EventNames.maximumType else {
            throw RecordingError(line: node.line, message: "event type \(type) is beyond EV_MAX (31)")
        }
        let code = try uint16(fields[3], "code")
        let value = try int32(fields[4], "value")
        return TimedEvent(time: time, event: InputEvent(type: type, code: code, value: value))
    }

    /// Largest number of seconds, either way from the start, an event may be: far beyond any
    /// recording, small enough that the microsecond count cannot overflow.
    private static let maximumSeconds: Int64 = 999_999_999_999

    /// The time of an event that came before the recording's start, as `libinput record` writes
    /// it: with several devices, an event another device's earlier one started the clock after
    /// is stamped with its time less the start computed unsigned, so 1 ms before the start
    /// is `[18446744073709, 550616]` (2⁶⁴ − 1000 µs). nil when `seconds` and `microseconds`
    /// are not such a wrapped time of at most `maximumSeconds` before the start.
    private static func timeBeforeStart(seconds: Int64, microseconds: Int64) -> Instant? {
        guard seconds > 0 else { return nil }
        let (scaled, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000)
        let (total, carry) = scaled.addingReportingOverflow(UInt64(microseconds))
        guard !overflow, !carry else { return nil }
        let signed = Int64(bitPattern: total)
        guard signed < 0, signed >= -maximumSeconds * 1_000_000 else { return nil }
        return Instant(microseconds: signed)
    }

    // MARK: Scalars

    private static func list(_ node: YAMLNode, _ what: String) throws(RecordingError) -> [YAMLNode] {
        guard case .sequence(let items) = node.value else {
            throw RecordingError(line: node.line, message: "\(what) must be a list, found \(node.kindName)")
        }
        return items
    }

    /// A decimal integer, or hexadecimal with `0x`; nil for anything else or on overflow.
    private static func parseInteger(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)[...]
        if bytes.starts(with: Array("0x".utf8)) || bytes.starts(with: Array("0X".utf8)) {
            return TextLines.hexadecimal(bytes.dropFirst(2)).flatMap { Int64(exactly: $0) }
        }
        return TextLines.decimal(bytes)
    }

    private static func integer(_ node: YAMLNode, _ what: String) throws(RecordingError) -> Int64 {
        if case .scalar(let text) = node.value, parseInteger(text) == nil, isDigits(text) {
            throw RecordingError(line: node.line, message: "\(what) \(text) is too large (beyond 64 bits)")
        }
        guard case .scalar(let text) = node.value, let number = parseInteger(text) else {
            throw RecordingError(line: node.line, message: "\(what) must be an integer, found \(node.kindName)")
        }
        return number
    }

    /// Whether `text` is written as an integer (decimal with an optional sign, or `0x` hex),
    /// whatever its size.
    private static func isDigits(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.starts(with: Array("0x".utf8)) || bytes.starts(with: Array("0X".utf8)) {
            bytes = bytes.dropFirst(2)
            return !bytes.isEmpty && bytes.allSatisfy { TextLines.hexadecimal([$0][...]) != nil }
        }
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        return !bytes.isEmpty && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func uint16(_ node: YAMLNode, _ what: String) throws(RecordingError) -> UInt16 {
        let number = try integer(node, what)
        guard let value = UInt16(exactly: number) else {
            throw RecordingError(line: node.line, message: "\(what) \(number) out of range (0...65535)")
        }
        return value
    }

    private static func int32(_ node: YAMLNode, _ what: String) throws(RecordingError) -> Int32 {
        let number = try integer(node, what)
        guard let value = Int32(exactly: number) else {
            throw RecordingError(line: node.line, message: "\(what) \(number) does not fit in 32 bits")
        }
        return value
    }
}
