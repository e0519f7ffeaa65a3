import FlickCore

/// One evdev event with the time the kernel stamped on it.
public struct TimedEvent: Hashable, Sendable {
    /// When the event happened (the recording's clock: evemu keeps the kernel's timestamps,
    /// `libinput record` starts at zero).
    public var time: Instant
    /// The event.
    public var event: InputEvent

    /// An event at `time`.
    public init(time: Instant, event: InputEvent) {
        self.time = time
        self.event = event
    }
}

/// A recorded touch session: the device it was recorded on and its events in file order.
///
/// Read from evemu files (`evemu-record`, `.events` with an embedded or separate `.desc`) and
/// from `libinput record` YAML, which is what users attach to bug reports.
public struct Recording: Hashable, Sendable {
    /// The recorded device's capabilities.
    public var description: DeviceDescription
    /// The events, in file order (not sorted: a recording whose clock jumped stays as it was).
    public var events: [TimedEvent]
    /// The touch kind udev tagged the device with where it was recorded (ID_INPUT_TOUCHPAD or
    /// ID_INPUT_TOUCHSCREEN, from a `libinput record` file's `udev:` properties), which the
    /// daemon reads it as when it reports positions (`Engine.addDevice`'s `kind`); nil when
    /// the recording lists neither tag (evemu lists none): its capabilities decide.
    public var udevKind: DeviceKind?
    /// What udev's properties where it was recorded told libinput of the touchpad: whether it
    /// is external, and a tablet's (`TouchpadTags`); none where the recording lists no
    /// properties (evemu).
    public var touchpadTags = TouchpadTags()
    /// The libinput quirk that gave `description` its resolution where the device reports none
    /// (`AttrResolutionHint=31x31`): `libinput record` lists the quirks of the machine it ran
    /// on, and the recording is read as libinput read it there. nil when none applied.
    public var resolutionQuirk: String?
    /// The quirks `libinput record` listed for the device (its `quirks:` entries, `Key=value`,
    /// in file order): every libinput quirk that applied to it on the machine it was recorded
    /// on, already resolved there. Empty where the list is (no quirk applied: libinput's
    /// defaults held); nil where the device has no `quirks:` key (evemu, which lists none, or
    /// a `libinput record` that could not read its quirks files).
    public var quirks: [String]?
    /// The version of the libinput that recorded the file (`libinput: version: "1.25.0"`), nil
    /// where it names none (evemu).
    public var libinputVersion: String?
    /// The touch devices of a `libinput record` file holding several that were not replayed
    /// (in file order): only the one with the most evdev frames is, or the one `--device` names.
    /// Empty for a file with one touch device, and for evemu, which records one device.
    public var otherTouchDevices: [RecordedDevice] = []
    /// Every device of a `libinput record` file that was not replayed (in file order), with
    /// its events: the replay reads only the replayed device's, and uses these to say which of
    /// their touches and key or button presses the daemon would have stopped a coast on
    /// (`Replay.unreplayedStops`). A device whose events are malformed has none here. Empty
    /// for evemu, which records one device.
    public var otherDevices: [RecordedInput] = []
    /// The node the replayed device was recorded from (`/dev/input/event5`), as a `libinput
    /// record` file names it; nil for evemu, which names none.
    public var node: String?
    /// What the daemon makes of the replayed device by the udev properties the recording lists
    /// for it (`UdevJudgement`), nil where it lists none (evemu) or no rule was given.
    public var udev: UdevJudgement?
    /// Whether `description` was read from the separate evemu description (`.desc`) given
    /// beside the events, which have none of their own. False for an evemu recording that
    /// describes its device itself (a `.desc` given with it is checked, not used) and for
    /// `libinput record`, which always does.
    public var describedSeparately = false

    /// A recording of `events` on the device described by `description`.
    public init(description: DeviceDescription, events: [TimedEvent], resolutionQuirk: String? = nil) {
        self.description = description
        self.events = events
        self.resolutionQuirk = resolutionQuirk
    }

    /// The file formats flickd reads.
    public enum Format: String, Hashable, Sendable {
        /// evemu: `N:`/`I:`/`P:`/`B:`/`A:` description lines and `E:` event lines.
        case evemu
        /// `libinput record` YAML (`version: 1`, `ndevices:`, `devices:`).
        case libinputRecord
    }

    /// The kind the daemon reads a device described by `description` as, which udev tagged
    /// `udevKind`: the tag where the device reports positions, else its capabilities' kind, as
    /// `Engine.addDevice` decides.
    public static func kind(of description: DeviceDescription, udevKind: DeviceKind?) -> DeviceKind? {
        description.hasPosition ? udevKind ?? description.kind : description.kind
    }

    /// Which format `text` is in, judged by its first line that is neither blank nor a comment
    /// (a `# libinput record` comment also marks YAML); nil when that line fits neither. A
    /// byte order mark before the first line is skipped, here and by the readers.
    /// Text with no such line is taken as evemu (`load` reports it as empty).
    public static func format(of text: String) -> Format? {
        for line in TextLines.split(TextLines.withoutByteOrderMark(text)) {
            let content = line.trimmed
            if content.isEmpty { continue }
            if content.first == UInt8(ascii: "#") {
                if content.starts(with: Array("# libinput record".utf8)) { return .libinputRecord }
                continue
            }
            // evemu lines are one capital letter and a colon: "E: 0.000000 ...".
            if content.count >= 2, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(content[content.startIndex]),
               content[content.startIndex + 1] == UInt8(ascii: ":") {
                return .evemu
            }
            for key in ["version:", "ndevices:", "libinput:", "system:", "devices:", "---"] {
                if content.starts(with: Array(key.utf8)) { return .libinputRecord }
            }
            return nil
        }
        return .evemu
    }

    /// Whether some line of `text` is neither blank nor a comment (a byte order mark before the
    /// first line skipped): false for an empty file, one of comments, and one cut in a comment,
    /// which hold no recording of either format to choose a device in.
    public static func hasContentLine(_ text: String) -> Bool {
        TextLines.split(TextLines.withoutByteOrderMark(text)).contains { line in
            let content = line.trimmed
            return !content.isEmpty && content.first != UInt8(ascii: "#")
        }
    }

    /// Reads a recording in either format, telling them apart with `format(of:)`.
    ///
    /// `description` is the text of an evemu `.desc` file, used when `text` is evemu without an
    /// embedded description (`describedSeparately` says whether it was); it is ignored for
    /// `libinput record` YAML, which always has one.
    /// `device` is the node of the device to replay of a `libinput record` file
    /// (`LibinputRecordParser.parse(text:device:)`); evemu records one device and takes none.
    /// - Throws: `RecordingError` naming the line at fault, or line 0 when `text` is empty or
    ///   holds only blank lines and comments: no recording at all, whatever `description` is.
    public static func load(text: String, description: String? = nil, device: String? = nil) throws(RecordingError) -> Recording {
        if let emptiness = TextLines.emptiness(text) {
            throw RecordingError(line: 0, message: "\(emptiness) (neither evemu lines nor libinput record YAML)")
        }
        switch format(of: text) {
        case .evemu:
            // Comments cut at the end of the file are no evemu recording to choose in: the
            // reader reports the cut, as it does without a device.
            if device != nil, hasContentLine(text) {
                throw RecordingError(line: 1, message: "--device chooses among the devices of a libinput record file; an evemu recording holds one")
            }
            return try EvemuParser.parse(text: text, description: description)
        case .libinputRecord:
            return try LibinputRecordParser.parse(text: text, device: device)
        case nil:
            let line = TextLines.split(text).first { !$0.trimmed.isEmpty && $0.trimmed.first != UInt8(ascii: "#") }
            throw RecordingError(
                line: line?.number ?? 1,
                message: "not a recording: expected evemu lines (\"N:\", \"E:\", ...) or libinput record YAML (\"version: 1\")")
        }
    }
}

/// Why a recording could not be read, with the 1-based line at fault.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which text the line number refers to.
    public enum Part: Hashable, Sendable {
        /// The recording itself (the `.events` or `.yml` text).
        case recording
        /// The separate evemu description (`.desc`) text.
        case description
    }

    /// The 1-based line number in `part`, or 0 when the fault is the file as a whole (an
    /// empty file).
    public var line: Int
    /// What is wrong, and where useful what was expected.
    public var message: String
    /// Which text `line` is in.
    public var part: Part

    /// An error at `line` of `part`.
    public init(line: Int, message: String, part: Part = .recording) {
        self.line = line
        self.message = message
        self.part = part
    }

    /// `line 57: ...`, or `description line 3: ...` for the separate `.desc` text; without
    /// the line for line 0 (`description: ...` for the `.desc`).
    public var description: String {
        switch (part, line) {
        case (.recording, 0): return message
        case (.recording, _): return "line \(line): \(message)"
        case (.description, 0): return "description: \(message)"
        case (.description, _): return "description line \(line): \(message)"
        }
    }
}

/// A device of a recording, as a `libinput record` file names it.
public struct RecordedDevice: Hashable, Sendable, CustomStringConvertible {
    /// The device's name (`SynPS/2 Synaptics TouchPad`), as recorded: it may hold any
    /// character, control characters too.
    public var name: String
    /// The node it was recorded from (`/dev/input/event9`), nil when the file names none.
    public var node: String?

    /// The device `name`, recorded from `node`.
    public init(name: String, node: String?) {
        self.name = name
        self.node = node
    }

    /// `NAME (/dev/input/eventN)`, or the name alone without a node; nothing escaped.
    public var description: String { node.map { "\(name) (\($0))" } ?? name }
}

/// The udev properties by which libinput decides whether a touchpad keeps its palm detection,
/// from a `libinput record` file's `udev: properties:` list (`tp_init_palmdetect`).
public struct TouchpadTags: Hashable, Sendable {
    /// `ID_INPUT_TOUCHPAD_INTEGRATION` (`internal`, `external`): whether libinput read the pad as
    /// external; nil where it is not listed.
    public var integration: String?
    /// `ID_INPUT_TABLET=1` beside `ID_INPUT_TOUCHPAD`: the touch part of a tablet (libwacom tags
    /// Wacom's so), which keeps its palm detection even when external.
    public var isTablet: Bool

    /// The tags; by default none.
    public init(integration: String? = nil, isTablet: Bool = false) {
        self.integration = integration
        self.isTablet = isTablet
    }
}

/// A device of a recording that was not replayed, and its events.
public struct RecordedInput: Hashable, Sendable {
    /// Its name and node.
    public var device: RecordedDevice
    /// Its capabilities.
    public var description: DeviceDescription
    /// Its evdev events, in file order, on the recording's clock.
    public var events: [TimedEvent]
    /// The touch kind udev tagged it with (`Recording.udevKind`), nil when none.
    public var udevKind: DeviceKind?
    /// What its udev properties tell of it as a touchpad (`Recording.touchpadTags`).
    public var touchpadTags = TouchpadTags()
    /// The quirks `libinput record` listed for it (`Recording.quirks`), nil without the list.
    public var quirks: [String]?
    /// What the daemon makes of it by its recorded udev properties (`Recording.udev`), nil
    /// where the recording lists none or no rule was given.
    public var udev: UdevJudgement?

    /// `device`, described by `description`, with `events`.
    public init(device: RecordedDevice, description: DeviceDescription, events: [TimedEvent]) {
        self.device = device
        self.description = description
        self.events = events
    }
}

/// What the daemon makes of a device by its udev properties (`InputNode.judge`, in FlickLinux,
/// which this module cannot see: `flickd replay` gives the rule, `UdevRule`): the kind it opens
/// it as, and why it leaves alone one udev calls a touch device, mouse or keyboard.
public struct UdevJudgement: Hashable, Sendable {
    /// The kind the daemon opens a device as (`InputNode.Kind`).
    public enum Kind: String, Hashable, Sendable {
        /// Read for gestures (`ID_INPUT_TOUCHPAD`).
        case touchpad
        /// Read for gestures (`ID_INPUT_TOUCHSCREEN`).
        case touchscreen
        /// Read for button presses (`stop.button`), and key presses with `hasKeys`.
        case mouse
        /// Read for key presses (`stop.key`).
        case keyboard
        /// Not opened: a power button, a tablet's pad, a device libinput ignores.
        case other
    }

    /// The kind; `.other` for a device left alone (`exclusion`).
    public var kind: Kind
    /// Why the daemon leaves alone a device udev gives a kind (`InputNode.Exclusion`'s words:
    /// "libinput ignores it (LIBINPUT_IGNORE_DEVICE)"); nil otherwise.
    public var exclusion: String?
    /// Whether a mouse's node has keyboard keys too (`ID_INPUT_KEYBOARD` beside `ID_INPUT_MOUSE`).
    public var hasKeys: Bool

    /// A judgement.
    public init(kind: Kind, exclusion: String? = nil, hasKeys: Bool = false) {
        self.kind = kind
        self.exclusion = exclusion
        self.hasKeys = hasKeys
    }

    /// The touch kind the daemon reads the device's gestures as, nil for any other.
    public var touchKind: DeviceKind? {
        switch kind {
        case .touchpad: return .touchpad
        case .touchscreen: return .touchscreen
        case .mouse, .keyboard, .other: return nil
        }
    }

    /// Why the daemon reads no gestures of the device, nil for a touchpad or touchscreen it reads.
    public var whyNoGestures: String? {
        if let exclusion { return exclusion }
        switch kind {
        case .touchpad, .touchscreen: return nil
        case .mouse: return "udev tags it a mouse, not a touchpad or touchscreen (no ID_INPUT_TOUCHPAD or ID_INPUT_TOUCHSCREEN): the daemon reads none of its touches"
        case .keyboard: return "udev tags it a keyboard, not a touchpad or touchscreen (no ID_INPUT_TOUCHPAD or ID_INPUT_TOUCHSCREEN): the daemon reads none of its touches"
        case .other: return "udev tags it neither a touchpad nor a touchscreen (no ID_INPUT_TOUCHPAD or ID_INPUT_TOUCHSCREEN): the daemon does not open it"
        }
    }
}

/// The daemon's judgement of a device by the udev properties a `libinput record` file lists for
/// its node (`udev: properties:`, `NAME=value`; only the node's own, not its parent's).
public typealias UdevRule = (_ properties: [String: String]) -> UdevJudgement
