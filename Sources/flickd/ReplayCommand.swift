import FlickCore
import FlickTools
import FlickLinux

struct ReplayCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "replay",
        abstract: "Run a recorded touch session through the engine and print its coasts as wheel events.",
        discussion: """
            FILE is an evemu recording (evemu-record; the device description embedded, or given \
            with --desc) or a `libinput record` YAML file. --desc is used only for an evemu \
            recording without a description of its own: with a `libinput record` file, which \
            describes its devices itself, it is not read; with an evemu recording that has one, \
            it is read and checked but the recording's wins (it is the device that recorded). \
            Either way a warning on standard error says it is not used. The \
            events run through the engine on the recording's own timestamps, ticking as the \
            daemon would at coast.tick_rate, with the configuration from --config (else the \
            built-in defaults). Nothing is written to any device. Of a `libinput record` file holding several devices (--all), the touch \
            device with the most evdev frames is replayed (or the one --device names), and the \
            other touch devices are named on a "# also in the recording, not replayed" line. \
            Only the replayed device's input runs through the engine: the other devices' \
            touches and key and button presses, on which the daemon stops a coast (stop.touch, \
            stop.key, stop.button), and a modifier key held at a release, under which it starts \
            none, are not replayed. Where one falls in a coast, a warning on standard error names \
            it and the coast runs on as printed. flickd's own virtual devices, which a recording \
            taken while flickd runs lists, are never replayed nor warned of: the daemon does not \
            read them. A touch device is read as udev tagged it where the recording lists the \
            tag (ID_INPUT_TOUCHPAD, ID_INPUT_TOUCHSCREEN), as the daemon reads it. A device \
            whose recorded udev properties the daemon would read no touches of (LIBINPUT_IGNORE_DEVICE \
            set, no ID_INPUT=1, tagged only a mouse or keyboard) is not chosen; the only device \
            of a file, or named by --device, it is reported as ignored, with why, and nothing of \
            it coasts. The other devices' presses are warned of as the daemon opens each by its \
            recorded udev tags: a keyboard (ID_INPUT_KEYBOARD) for its keys, a mouse \
            (ID_INPUT_MOUSE) for its buttons (and keys, with ID_INPUT_KEYBOARD too), a touch \
            device for its touches, its keys and its own clicks; one tagged none of these (a \
            power button, a tablet's pad) never. A key pressed on the replayed device's own node \
            (a touchscreen's Super key, a keyboard and touchpad on one node) stops a coast \
            (stop.key), and a modifier key held there at a release starts none, as in the daemon: \
            that coast is printed with nothing written, ended by a key.

            A device that reports no resolution is measured as libinput measured it: with the \
            AttrResolutionHint or AttrSizeHint among the quirks a `libinput record` file lists \
            (those of the machine it was recorded on), else by its kind: a touchpad as 69 x 50 mm, \
            a touchscreen as a 13.3-inch panel (294 x 165 mm, or 165 x 294 mm upright where its y \
            range is the longer), each axis range counted as the daemon counts it on the \
            recording's libinput (from libinput 1.24, maximum - minimum + 1, as libinput counts \
            from 1.25; before, and where the file names no version, as evemu does not, \
            maximum - minimum); the first line says that the size was estimated. This machine's quirks files are not read, so a replay gives the same \
            on any machine. A [[device]] resolution in --config wins over both. An evemu recording lists no quirks: \
            on the machine it was recorded on, `libinput quirks list /dev/input/eventN` shows \
            the hint libinput applies, and a [[device]] resolution gives it to the replay.

            A touchpad's contacts are counted by pressure as libinput counted them on the \
            machine it was recorded on, with the quirks a `libinput record` file lists for it \
            (AttrPressureRange, AttrPalmPressureThreshold, AttrTouchSizeRange, the axes and \
            properties a quirk takes away, ModelPressurePad), as the daemon reads them from the \
            quirks files: a contact is a finger once it presses the high threshold, and a palm \
            above the palm threshold. An empty list is libinput's defaults. A recording that \
            lists no quirks (evemu, or a libinput record that could not read them) counts every \
            contact. A "# pressure:" line says which, and the thresholds.

            The coasts are printed as the wheel output writes them (output.mode = "wheel", \
            scaled by scroll.speed), whatever output.mode says: the gestures, which of them coast \
            and their release velocities are the same with either output, and the default virtual \
            touchpad carries the same coasts as finger motion, which libinput and the apps \
            scale themselves. Each output line is one wheel event: seconds since the \
            recording's earliest event, of whichever device (a libinput record file's own times, \
            shifted where an event came before the file's zero), the code (REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES, REL_WHEEL, \
            REL_HWHEEL) and the value. REL_WHEEL > 0 scrolls up; REL_HWHEEL > 0 scrolls right; \
            120 hi-res units are one wheel detent. A summary follows: gestures seen, coasts \
            started with their release velocity and planned destination, each followed by a \
            "coast ended" line with why it ended and the hi-res units it wrote (finished; or cut \
            short, short of its destination: touch, button, resynchronized (the recording's \
            SYN_DROPPED: the kernel lost events), max-duration; key, for a key on the replayed \
            device's own node; a stall or another device's coast, which stop the daemon's, do \
            not come in a replay), the \
            reason each other gesture did not coast, and the totals per code.

            No desktop is asked: where scroll.natural is "auto" (the default), the replay \
            assumes traditional scrolling for a touchpad (fingers moving down scroll down: \
            REL_WHEEL < 0), whatever the desktop the recording was made under was set to; a \
            --config with scroll.natural set to true or false (or a [[device]] section's) gives \
            that direction instead. A touchscreen's content follows the fingers either way.

            The daemon reads the kernel's monotonic timestamps, which never go back; evemu \
            stamps events with the wall clock, which an NTP step or a clock set by hand moves \
            back. Where the recording's clock steps back, a "# the recording's clock steps back" \
            line names the first event stamped before the one preceding it (counted from 1, \
            the Nth E: line) and by how much, and the replay joins the parts: the events from \
            there on are shifted to follow the one before at the frame interval before the \
            step (the recording cannot tell how long it really was), so the times printed never \
            go back and the first event is the earliest.

            A recording with no events (a description alone) replays \
            to nothing, and a "# the recording holds no events" line says so. Device names are \
            printed as recorded, but quoted and escaped as in JSON when empty or holding a \
            control character.

            With --json, each event is one JSON object per line, \
            {"time": 0.512, "code": "REL_WHEEL_HI_RES", "value": -37}, and the last line is \
            {"summary": {...}}, which names the device replayed first: \
            "device": {"name": "...", "node": "/dev/input/event5"} (the node null for evemu); \
            then how it was read, "admission": {"state": "used", "kind": "touchpad", \
            "why": null, "size_mm": {"x": 69.6, "y": 50.0, "estimated": true, "quirk": null}} \
            (state "stop_only" or "ignored" with why it was not read for gestures, and size_mm \
            null; quirk the recording's libinput quirk that gave the size); "pressure", for a \
            touchpad, {"rule": "recorded_quirks", "quirks": ["AttrPressureRange=10:8"], "touch": \
            {"axis": "ABS_MT_PRESSURE", "high": 10, "low": 8}, "palm_threshold": 130} (touch and \
            palm_threshold null where libinput reads none; rule "every_contact", with quirks \
            null, where the recording lists no quirks), null for any other device; "events", how many \
            the recording holds (0 for a description alone); "also_in_recording", the touch \
            devices not replayed as [{"name": "...", "node": "..."}]; "clock_steps_back", null \
            or {"event": 57, "seconds": 10.0, "bridge_seconds": 0.008, "count": 1} (count: how \
            many steps back in all, each joined so); then "gestures", "coasts" (each with "end": \
            {"time": ..., "reason": "touch", "written_hi_res": {"vertical": ..., \
            "horizontal": ...}}), "no_coast" and "totals" as in the text; "unreplayed_stops", \
            the warnings' input: [{"coast_time": ..., "time": ..., "reason": "key", \
            "setting": "stop.key" (null for a touch on a device whose flicks are read, which \
            stops a coast whatever stop.touch says), "modifier_held": false, "device": {"name": "...", "node": "..."}}].

            To report a bug: record the device with `sudo libinput record /dev/input/eventN > \
            session.yml` while doing the gesture, and attach the file with the output of \
            `flickd replay session.yml`.

            Exit status: 0 on success, a recording with no events too; 1 when a file cannot be \
            read, is empty or is malformed (the message names the file, and the line at fault), \
            or standard output cannot be written; \
            64 when the command line cannot be run (an unknown option, a missing value, --device \
            with an evemu recording).
            """,
        argument: CommandArgument(valueName: "FILE", help: "The recording: evemu (.events) or libinput record (.yml); - reads it from standard input.", isRequired: true, takesDash: true),
        options: [
            CommandOption(name: "desc", valueName: "FILE", help: "An evemu device description (.desc) for a recording without one; with any other, not used (a warning says so)."),
            CommandOption(name: "config", valueName: "FILE", help: "Configuration file (TOML); default: the built-in defaults."),
            CommandOption(name: "device", valueName: "NODE", help: "Of a libinput record file holding several devices, replay the one recorded from NODE (/dev/input/eventN, as its \"- node:\" line names it) instead of the busiest touch device."),
            CommandOption(name: "json", help: "Print one JSON object per line instead of text."),
        ]
    )

    var file: String
    var descriptionFile: String?
    var configFile: String?
    var device: String?
    var json = false

    init(_ arguments: ParsedArguments) {
        file = arguments.argument ?? ""  // required: the parser has checked it is there
        descriptionFile = arguments.value("desc")
        configFile = arguments.value("config")
        device = arguments.value("device")
        json = arguments.flag("json")
    }

    /// How messages name a recording: `-` is standard input.
    static func named(_ path: String) -> String { path == "-" ? "standard input" : path }

    func run() throws {
        let text = try readOrExit(file)
        let format = Recording.format(of: text)
        // A file of blank lines and comments (an interrupted recording, maybe cut in a comment)
        // is no evemu recording, whatever `format(of:)` falls back to: loading it says what it
        // is, as `Recording.load` decides. Judged before the configuration is read: a command
        // line that cannot be run is a usage error (64) whatever else is wrong.
        if device != nil, format == .evemu, Recording.hasContentLine(text) {
            throw UsageError(message: "--device chooses among the devices of a libinput record file; \(Self.named(file)) is an evemu recording, which holds one",
                             command: Self.commandDescription)
        }

        let configuration: Configuration
        do {
            // Only --config: the same recording replays the same on any machine.
            configuration = try loadConfiguration(path: ConfigurationLocation.explicitOnly(configFile).resolve())
        } catch {
            // Led as run, devices and plot lead it.
            StandardError.write("flickd: \(ConfigurationError.lead(for: error)); nothing was replayed:\n\(error)\n")
            throw ExitCode.failure
        }
        // Only evemu reads a separate description: a libinput record file describes its devices
        // itself, and a --desc that is not there must not stop its replay.
        let descriptionText = format == .evemu ? try descriptionFile.map { try readOrExit($0) } : nil
        let recording: Recording
        let start: Instant?
        do {
            (recording, start) = try Recording.loadWithClockStart(text: text, description: descriptionText, device: device,
                                                                  isOwnDevice: Daemon.isVirtualDeviceName, udevRule: Self.udevRule)
        } catch {
            let path = Self.named(error.part == .description ? (descriptionFile ?? file) : file)
            let place = error.line == 0 ? path : "\(path):\(error.line)"
            StandardError.write("flickd: \(place): \(Self.printable(error.message))\n")
            throw ExitCode.failure
        }
        if let descriptionFile, !recording.describedSeparately {
            let why = format == .libinputRecord
                ? "is not read: \(Self.named(file)) is a libinput record file, which describes its devices itself"
                : "is not used: \(Self.named(file)) has a description of its own (N:, I:, A: lines), which wins"
            StandardError.write("flickd: warning: --desc \(descriptionFile) \(why)\n")
        }

        // As libinput read each touchpad's pressure where it was recorded: with the quirks the
        // recording lists, read as the daemon reads the quirks files; without them, every contact.
        let version = recording.libinputVersion
        let replay = Replay(recording, configuration: configuration, start: start) { description, quirks, tags in
            guard let quirks else { return .everyContact }
            return .given(LibinputQuirks.PressureQuirks(recorded: quirks, libinputVersion: version)
                .touchPressure(for: description, kind: .touchpad, integration: tags.integration, isTablet: tags.isTablet))
        }
        for stop in replay.unreplayedStops {
            let coast = DecimalText.fixed(replay.coasts[stop.coast].time, 3)
            let device = "\(Self.shown(stop.device.name))\(stop.device.node.map { " (\(Self.shown($0)))" } ?? "")"
            if stop.modifierHeld {
                StandardError.write("flickd: warning: a modifier key was held on \(device), which is not replayed, when the coast of \(coast) s started: the daemon would not have started it (stop.key)\n")
            } else {
                let what = stop.reason == .touch ? "a touch on" : stop.reason == .button ? "a button press on" : "a key press on"
                // A touch on a device whose flicks are read stops a coast whatever stop.touch says.
                let rule = stop.setting ?? "its flicks are read: any touch on it stops a coast"
                StandardError.write("flickd: warning: \(what) \(device), which is not replayed, at \(DecimalText.fixed(stop.time, 3)) s would have stopped the coast of \(coast) s there (\(rule))\n")
            }
        }
        if json {
            printJSON(replay, recording: recording)
        } else {
            printText(replay, recording: recording)
        }
    }

    /// The daemon's judgement of a device by the udev properties a recording lists for its node
    /// (`InputNode.judge`): its kind, and why it leaves alone one libinput ignores.
    static func udevRule(_ properties: [String: String]) -> UdevJudgement {
        let node = InputNode(devnode: "", syspath: "", name: "", property: { properties[$0] })
        let kind: UdevJudgement.Kind = switch node.kind {
        case .touchpad: .touchpad
        case .touchscreen: .touchscreen
        case .mouse: .mouse
        case .keyboard: .keyboard
        case .other: .other
        }
        return UdevJudgement(kind: kind, exclusion: node.exclusion?.description, hasKeys: node.hasKeys)
    }

    private func readOrExit(_ path: String) throws -> String {
        do {
            return try path == "-" ? TextFile.readStandardInput() : TextFile.read(path)
        } catch {
            StandardError.write("flickd: cannot read \(Self.named(path)): \(TextFile.reason(for: error))\n")
            throw ExitCode.failure
        }
    }

    /// The recording's libinput quirk that gave the device its size (it reports no
    /// resolution), nil when none did: a [[device]] resolution in --config wins over the quirk.
    private func sizingQuirk(_ geometry: DeviceGeometry, recording: Recording) -> String? {
        let recorded = recording.description.absoluteAxes[EventCode.absMTPositionX] ?? recording.description.absoluteAxes[EventCode.absX]
        guard Replay.estimatedPart(of: geometry) == nil, let quirk = recording.resolutionQuirk, let recorded,
              Double(recorded.resolution) == geometry.x.unitsPerMillimetre else { return nil }
        return quirk
    }

    /// Where the size came from when the device reports no resolution.
    private func sizeNote(_ geometry: DeviceGeometry, kind: DeviceKind, recording: Recording) -> String {
        if let part = Replay.estimatedPart(of: geometry) {
            // A panel's guess is upright or not by its ranges: the size printed says which.
            let guess = kind == .touchpad ? "libinput's 69 x 50 mm guess" : "a 13.3-inch panel"
            let axis = part == "width" ? " on x" : part == "height" ? " on y" : ""
            return " (\(part) estimated: no resolution\(axis) and no libinput quirk in the recording: \(guess); a [[device]] resolution in --config sets it)"
        }
        if let quirk = sizingQuirk(geometry, recording: recording) {
            return " (no resolution from the kernel: the recording's libinput quirk \(Self.shown(quirk)))"
        }
        return ""
    }

    /// Whether the replayed device is read as a touchpad, the only kind whose pressure counts.
    private static func isTouchpad(_ admission: DeviceAdmission) -> Bool {
        switch admission {
        case .used(.touchpad, _), .stopOnly(.touchpad, _): return true
        default: return false
        }
    }

    /// The recorded quirks libinput read for the pad's pressure (`PressureQuirks.readForPressure`),
    /// as listed: not every entry of a pressure key (`AttrEventCode=-BTN_RIGHT;`, a pre-1.31
    /// `AttrInputProp`) says something of it, nor a palm threshold on a pad without palm
    /// detection (external), nor a touch size range on one with fewer than 5 slots.
    private static func pressureQuirks(_ quirks: [String], recording: Recording) -> [String] {
        LibinputQuirks.PressureQuirks.readForPressure(quirks, libinputVersion: recording.libinputVersion,
                                                      description: recording.description,
                                                      integration: recording.touchpadTags.integration,
                                                      isTablet: recording.touchpadTags.isTablet)
    }

    /// The "# pressure:" line of a touchpad: how its contacts were counted, and by which of the
    /// recording's quirks; nil for any other device.
    private func pressureNote(_ replay: Replay, recording: Recording) -> String? {
        guard Self.isTouchpad(replay.admission) else { return nil }
        guard let quirks = recording.quirks else {
            return "# pressure: every contact counts: the recording lists no libinput quirks (evemu lists none), so libinput's pressure thresholds where it was made are unknown"
        }
        let listed = Self.pressureQuirks(quirks, recording: recording)
        let source = "libinput's rule with the recorded quirks (\(listed.isEmpty ? "none of pressure: the axis's defaults" : listed.map(Self.shown).joined(separator: ", ")))"
        guard let pressure = replay.touchPressure else {
            return "# pressure: \(source): every contact counts (libinput reads no pressure on this pad)"
        }
        let touch = pressure.touch.map {
            "a finger from \(EventNames.codeName(type: EventCode.absolute, code: $0.axis)) \($0.high) until below \($0.low)"
        } ?? "every contact a finger"
        let palm = pressure.palmThreshold.map { "a palm above \($0)" } ?? "no palm by pressure"
        return "# pressure: \(source): \(touch); \(palm)"
    }

    /// The JSON summary's "pressure" value (`pressureNote`'s).
    private func pressureJSON(_ replay: Replay, recording: Recording) -> String {
        guard Self.isTouchpad(replay.admission) else { return "null" }
        guard let quirks = recording.quirks else {
            return "{\"rule\": \"every_contact\", \"quirks\": null, \"touch\": null, \"palm_threshold\": null}"
        }
        let listed = Self.pressureQuirks(quirks, recording: recording).map(QuotedText.quoted).joined(separator: ", ")
        let touch = replay.touchPressure?.touch.map {
            "{\"axis\": \"\(EventNames.codeName(type: EventCode.absolute, code: $0.axis))\", \"high\": \($0.high), \"low\": \($0.low)}"
        } ?? "null"
        let palm = replay.touchPressure?.palmThreshold.map { "\($0)" } ?? "null"
        return "{\"rule\": \"recorded_quirks\", \"quirks\": [\(listed)], \"touch\": \(touch), \"palm_threshold\": \(palm)}"
    }

    /// Text from the recording (a device name, node or quirk) as the text output shows it: as
    /// it is, or quoted and escaped as the JSON output writes it (`QuotedText`) when it is
    /// empty or holds a control character, so that it can neither start an output line of its
    /// own nor send the terminal an escape sequence.
    static func shown(_ text: String) -> String {
        text.isEmpty || text.unicodeScalars.contains(where: QuotedText.isControl) ? QuotedText.quoted(text) : text
    }

    /// An error message with each control character escaped (`\u001B`): the messages quote
    /// the recording's text, which may hold any.
    static func printable(_ message: String) -> String { QuotedText.controlsEscaped(message) }

    private func printText(_ replay: Replay, recording: Recording) {
        let name = Self.shown(recording.description.name)
        switch replay.admission {
        case .used(let kind, let geometry):
            print("# \(name): \(kind.rawValue), \(DecimalText.fixed(geometry.x.lengthMillimetres, 1)) x \(DecimalText.fixed(geometry.y.lengthMillimetres, 1)) mm\(sizeNote(geometry, kind: kind, recording: recording))")
        case .stopOnly(let kind, let why):
            print("# \(name): \(kind.rawValue), not read for gestures: \(Self.printable(why))")
        case .ignored(let why):
            print("# \(name): ignored: \(Self.printable(why))")
        }
        for other in recording.otherTouchDevices {
            print("# also in the recording, not replayed: \(Self.shown(other.name))\(other.node.map { " (\(Self.shown($0)))" } ?? "")")
        }
        if recording.events.isEmpty {
            print("# the recording holds no events (a device description alone): nothing to replay")
        }
        if let step = replay.clockStep {
            let more = step.count > 1 ? "; it steps back \(step.count) times in all, each joined so" : ""
            print("# the recording's clock steps back \(DecimalText.fixed(step.seconds, 3)) s at event \(step.event): replayed with the events from there on \(DecimalText.fixed(step.bridgeSeconds, 3)) s after the one before (the frame interval before the step), as a clock that never goes back would stamp them\(more)")
        }
        if let note = pressureNote(replay, recording: recording) { print(note) }
        for event in replay.emitted {
            print("\(DecimalText.fixed(event.time, 6)) \(EventNames.codeName(type: EventCode.relative, code: event.code)) \(event.value)")
        }
        print("# gestures: \(replay.gestures), coasts: \(replay.coasts.count)")
        for coast in replay.coasts {
            let v = coast.plan.releaseVelocity
            print("# \(DecimalText.fixed(coast.time, 3)) s: coast, release \(DecimalText.fixed(v.length, 1)) mm/s (x \(DecimalText.fixed(v.x, 1)), y \(DecimalText.fixed(v.y, 1)))\(coast.plan.boosted ? ", boosted" : ""), destination \(DecimalText.fixed(coast.plan.destinationHiRes.vertical, 0)) / \(DecimalText.fixed(coast.plan.destinationHiRes.horizontal, 0)) hi-res (vertical / horizontal), \(DecimalText.fixed(coast.plan.duration.seconds, 2)) s")
            // A coast cut short wrote less than its destination: the totals need the reason.
            if let end = coast.end {
                let held = coast.modifierHeld ? " (a modifier key was held on the device at the release: the daemon writes none of the coast, stop.key)" : ""
                print("# \(DecimalText.fixed(end.time, 3)) s: coast ended: \(end.reason.rawValue), \(end.verticalHiRes) / \(end.horizontalHiRes) hi-res written\(held)")
            }
        }
        for none in replay.noCoasts {
            let speed = none.velocity.map { ", release \(DecimalText.fixed($0.length, 1)) mm/s" } ?? ""
            print("# \(DecimalText.fixed(none.time, 3)) s: no coast: \(none.reason)\(speed)")
        }
        if let unfinished = replay.unfinished {
            print("# \(DecimalText.fixed(unfinished.time, 3)) s: no coast: \(unfinished.reason)")
        }
        let totals = replay.totals.map { "\(EventNames.codeName(type: EventCode.relative, code: $0.code)) \($0.total)" }
        print("# totals: " + totals.joined(separator: ", "))
    }

    private func printJSON(_ replay: Replay, recording: Recording) {
        for event in replay.emitted {
            print("{\"time\": \(DecimalText.fixed(event.time, 6)), \"code\": \"\(EventNames.codeName(type: EventCode.relative, code: event.code))\", \"value\": \(event.value)}")
        }
        func vector(_ v: Vector) -> String { "{\"x\": \(DecimalText.fixed(v.x, 1)), \"y\": \(DecimalText.fixed(v.y, 1))}" }
        let coasts = replay.coasts.map { c in
            "{\"time\": \(DecimalText.fixed(c.time, 6)), \"release_velocity_mm_s\": \(vector(c.plan.releaseVelocity)), "
                + "\"release_speed_mm_s\": \(DecimalText.fixed(c.plan.releaseVelocity.length, 1)), "
                + "\"coast_velocity_mm_s\": \(vector(c.plan.velocity)), \"boosted\": \(c.plan.boosted), "
                + "\"destination_hi_res\": {\"vertical\": \(DecimalText.fixed(c.plan.destinationHiRes.vertical, 1)), \"horizontal\": \(DecimalText.fixed(c.plan.destinationHiRes.horizontal, 1))}, "
                + "\"duration_s\": \(DecimalText.fixed(c.plan.duration.seconds, 3)), "
                + "\"end\": \(c.end.map { "{\"time\": \(DecimalText.fixed($0.time, 6)), \"reason\": \(QuotedText.quoted($0.reason.rawValue)), \"written_hi_res\": {\"vertical\": \($0.verticalHiRes), \"horizontal\": \($0.horizontalHiRes)}}" } ?? "null")}"
        }
        var none = replay.noCoasts.map { n in
            var fields = "{\"time\": \(DecimalText.fixed(n.time, 6)), \"reason\": \(QuotedText.quoted(n.reason.description))"
            if let v = n.velocity {
                fields += ", \"release_velocity_mm_s\": \(vector(v)), \"release_speed_mm_s\": \(DecimalText.fixed(v.length, 1))"
            }
            return fields + "}"
        }
        if let unfinished = replay.unfinished {
            none.append("{\"time\": \(DecimalText.fixed(unfinished.time, 6)), \"reason\": \(QuotedText.quoted(unfinished.reason))}")
        }
        let totals = replay.totals.map { "\"\(EventNames.codeName(type: EventCode.relative, code: $0.code))\": \($0.total)" }
        let device = "{\"name\": \(QuotedText.quoted(recording.description.name)), \"node\": \(recording.node.map(QuotedText.quoted) ?? "null")}"
        let admission: String
        switch replay.admission {
        case .used(let kind, let geometry):
            let size = "{\"x\": \(DecimalText.fixed(geometry.x.lengthMillimetres, 1)), \"y\": \(DecimalText.fixed(geometry.y.lengthMillimetres, 1)), "
                + "\"estimated\": \(Replay.estimatedPart(of: geometry) != nil), "
                + "\"quirk\": \(sizingQuirk(geometry, recording: recording).map(QuotedText.quoted) ?? "null")}"
            admission = "{\"state\": \"used\", \"kind\": \(QuotedText.quoted(kind.rawValue)), \"why\": null, \"size_mm\": \(size)}"
        case .stopOnly(let kind, let why):
            admission = "{\"state\": \"stop_only\", \"kind\": \(QuotedText.quoted(kind.rawValue)), \"why\": \(QuotedText.quoted(why)), \"size_mm\": null}"
        case .ignored(let why):
            admission = "{\"state\": \"ignored\", \"kind\": null, \"why\": \(QuotedText.quoted(why)), \"size_mm\": null}"
        }
        let clockStep = replay.clockStep.map { step in
            "{\"event\": \(step.event), \"seconds\": \(DecimalText.fixed(step.seconds, 6)), \"bridge_seconds\": \(DecimalText.fixed(step.bridgeSeconds, 6)), \"count\": \(step.count)}"
        } ?? "null"
        let unreplayed = replay.unreplayedStops.map { stop in
            "{\"coast_time\": \(DecimalText.fixed(replay.coasts[stop.coast].time, 6)), \"time\": \(DecimalText.fixed(stop.time, 6)), "
                + "\"reason\": \(QuotedText.quoted(stop.reason.rawValue)), \"setting\": \(stop.setting.map(QuotedText.quoted) ?? "null"), "
                + "\"modifier_held\": \(stop.modifierHeld), "
                + "\"device\": {\"name\": \(QuotedText.quoted(stop.device.name)), \"node\": \(stop.device.node.map(QuotedText.quoted) ?? "null")}}"
        }
        let others = recording.otherTouchDevices.map { other in
            "{\"name\": \(QuotedText.quoted(other.name)), \"node\": \(other.node.map(QuotedText.quoted) ?? "null")}"
        }
        let pressure = pressureJSON(replay, recording: recording)
        print("{\"summary\": {\"device\": \(device), \"admission\": \(admission), \"pressure\": \(pressure), \"events\": \(recording.events.count), "
              + "\"also_in_recording\": [\(others.joined(separator: ", "))], \"clock_steps_back\": \(clockStep), "
              + "\"gestures\": \(replay.gestures), \"coasts\": [\(coasts.joined(separator: ", "))], "
              + "\"no_coast\": [\(none.joined(separator: ", "))], \"totals\": {\(totals.joined(separator: ", "))}, "
              + "\"unreplayed_stops\": [\(unreplayed.joined(separator: ", "))]}}")
    }
}
