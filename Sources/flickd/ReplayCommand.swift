import FlickCore
import FlickTools
import FlickLinux

struct ReplayCommand: FlickdCommand {
    static let commandDescription = CommandDescription(
        name: "replay",
        abstract: "Run a recorded touch session through the engine and print its coasts as wheel events.",
        discussion: """
            FILE is an evemu recording (evemu-record; the device description embedded, or given \
            with --desc) or a `libinput record` YAML file. The events run through the engine on \
            the recording's own timestamps, ticking as the daemon would at coast.tick_rate, with \
            the configuration from --config (else the built-in defaults). Nothing is written to \
            any device. Of a `libinput record` file holding several devices (--all), the touch \
            device with the most evdev frames is replayed (or the one --device names), and the \
            other touch devices are named on a "# also in the recording, not replayed" line.

            A device that reports no resolution is measured as libinput measured it: with the \
            AttrResolutionHint or AttrSizeHint among the quirks a `libinput record` file lists \
            (those of the machine it was recorded on), else as a 69 x 50 mm touchpad; this \
            machine's quirks files are not read, so a replay gives the same on any machine. A \
            [[device]] resolution in --config wins over both. An evemu recording lists no quirks: \
            on the machine it was recorded on, `libinput quirks list /dev/input/eventN` shows \
            the hint libinput applies, and a [[device]] resolution gives it to the replay.

            The coasts are printed as the wheel output writes them (output.mode = "wheel", \
            scaled by scroll.speed), whatever output.mode says: the gestures, which of them coast \
            and their release velocities are the same with either output, and the default virtual \
            touchpad carries the same coasts as finger motion, which libinput and the apps \
            scale themselves. Each output line is one wheel event: seconds since the \
            recording's first event, the code (REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES, REL_WHEEL, \
            REL_HWHEEL) and the value. REL_WHEEL > 0 scrolls up; REL_HWHEEL > 0 scrolls right; \
            120 hi-res units are one wheel detent. A summary follows: gestures seen, coasts \
            started with their release velocity, the reason each other gesture did not coast, \
            and the totals per code.

            With --json, each event is one JSON object per line, \
            {"time": 0.512, "code": "REL_WHEEL_HI_RES", "value": -37}, and the last line is \
            {"summary": {...}}, which names the device replayed first: \
            "device": {"name": "...", "node": "/dev/input/event5"} (the node null for evemu).

            To report a bug: record the device with `sudo libinput record /dev/input/eventN > \
            session.yml` while doing the gesture, and attach the file with the output of \
            `flickd replay session.yml`.

            Exit status: 0 on success; 1 when a file cannot be read or is malformed (the message \
            names the file and line); 64 when the command line cannot be run (an unknown \
            option, a missing value).
            """,
        argument: CommandArgument(valueName: "FILE", help: "The recording: evemu (.events) or libinput record (.yml).", isRequired: true),
        options: [
            CommandOption(name: "desc", valueName: "FILE", help: "An evemu device description (.desc) for a recording without one."),
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

    func run() throws {
        let configuration: Configuration
        do {
            // Only --config: the same recording replays the same on any machine.
            configuration = try loadConfiguration(path: ConfigurationLocation.explicitOnly(configFile).resolve())
        } catch {
            StandardError.write("flickd: \(error)\n")
            throw ExitCode.failure
        }

        let text = try readOrExit(file)
        let descriptionText = try descriptionFile.map { try readOrExit($0) }
        let recording: Recording
        do {
            recording = try Recording.load(text: text, description: descriptionText, device: device)
        } catch {
            let where_ = error.part == .description ? (descriptionFile ?? file) : file
            StandardError.write("flickd: \(where_):\(error.line): \(error.message)\n")
            throw ExitCode.failure
        }

        let replay = Replay(recording, configuration: configuration)
        if json {
            printJSON(replay, recording: recording)
        } else {
            printText(replay, recording: recording)
        }
    }

    private func readOrExit(_ path: String) throws -> String {
        do {
            return try TextFile.read(path)
        } catch {
            StandardError.write("flickd: cannot read \(path): \(error.reason)\n")
            throw ExitCode.failure
        }
    }

    /// Where the size came from when the device reports no resolution.
    private func sizeNote(_ geometry: DeviceGeometry, kind: DeviceKind, recording: Recording) -> String {
        if geometry.x.isEstimated {
            let guess = kind == .touchpad ? "libinput's 69 x 50 mm guess" : "a 13.3-inch panel"
            return " (size estimated: no resolution and no libinput quirk in the recording: \(guess); a [[device]] resolution in --config sets it)"
        }
        let recorded = recording.description.absoluteAxes[EventCode.absMTPositionX] ?? recording.description.absoluteAxes[EventCode.absX]
        // A [[device]] resolution in --config wins over the quirk, and needs no note.
        if let quirk = recording.resolutionQuirk, let recorded, Double(recorded.resolution) == geometry.x.unitsPerMillimetre {
            return " (no resolution from the kernel: the recording's libinput quirk \(quirk))"
        }
        return ""
    }

    private func printText(_ replay: Replay, recording: Recording) {
        switch replay.admission {
        case .used(let kind, let geometry):
            print("# \(recording.description.name): \(kind.rawValue), \(DecimalText.fixed(geometry.x.lengthMillimetres, 1)) x \(DecimalText.fixed(geometry.y.lengthMillimetres, 1)) mm\(sizeNote(geometry, kind: kind, recording: recording))")
        case .stopOnly(let kind, let why):
            print("# \(recording.description.name): \(kind.rawValue), not read for gestures: \(why)")
        case .ignored(let why):
            print("# \(recording.description.name): ignored: \(why)")
        }
        for other in recording.otherTouchDevices {
            print("# also in the recording, not replayed: \(other)")
        }
        for event in replay.emitted {
            print("\(DecimalText.fixed(event.time, 6)) \(EventNames.codeName(type: EventCode.relative, code: event.code)) \(event.value)")
        }
        print("# gestures: \(replay.gestures), coasts: \(replay.coasts.count)")
        for coast in replay.coasts {
            let v = coast.plan.releaseVelocity
            print("# \(DecimalText.fixed(coast.time, 3)) s: coast, release \(DecimalText.fixed(v.length, 1)) mm/s (x \(DecimalText.fixed(v.x, 1)), y \(DecimalText.fixed(v.y, 1)))\(coast.plan.boosted ? ", boosted" : ""), destination \(DecimalText.fixed(coast.plan.destinationHiRes.vertical, 0)) / \(DecimalText.fixed(coast.plan.destinationHiRes.horizontal, 0)) hi-res (vertical / horizontal), \(DecimalText.fixed(coast.plan.duration.seconds, 2)) s")
        }
        for none in replay.noCoasts {
            let speed = none.velocity.map { ", release \(DecimalText.fixed($0.length, 1)) mm/s" } ?? ""
            print("# \(DecimalText.fixed(none.time, 3)) s: no coast: \(none.reason)\(speed)")
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
                + "\"duration_s\": \(DecimalText.fixed(c.plan.duration.seconds, 3))}"
        }
        let none = replay.noCoasts.map { n in
            var fields = "{\"time\": \(DecimalText.fixed(n.time, 6)), \"reason\": \(QuotedText.quoted(n.reason.description))"
            if let v = n.velocity {
                fields += ", \"release_velocity_mm_s\": \(vector(v)), \"release_speed_mm_s\": \(DecimalText.fixed(v.length, 1))"
            }
            return fields + "}"
        }
        let totals = replay.totals.map { "\"\(EventNames.codeName(type: EventCode.relative, code: $0.code))\": \($0.total)" }
        let device = "{\"name\": \(QuotedText.quoted(recording.description.name)), \"node\": \(recording.node.map(QuotedText.quoted) ?? "null")}"
        print("{\"summary\": {\"device\": \(device), \"gestures\": \(replay.gestures), \"coasts\": [\(coasts.joined(separator: ", "))], "
              + "\"no_coast\": [\(none.joined(separator: ", "))], \"totals\": {\(totals.joined(separator: ", "))}}}")
    }
}
