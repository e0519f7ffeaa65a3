import FlickCore
import FlickLinux
import FlickTestSupport
import FuzzSupport

/// libFuzzer target `config`: `ConfigurationLoader.parse` (toml++ through the CTOMLBridge
/// target, the key table, key lines, did-you-mean suggestions, `[[device]]` sections) on any
/// text.
///
/// Checks: a rejected file gives at least one problem, each naming a line of the file (or
/// none); an accepted configuration, at the top level and in each `[[device]]` section, has
/// every key within the range the key table documents and `coast.min_speed` below
/// `coast.max_speed` (the one rule of two keys), each section's resolution in its range; it
/// reads back the same, device sections and all, when written out again, and drives the
/// engine (with the output its `output.mode` names: the virtual touchpad by default) through a
/// two-finger flick on a touchpad and a drag on a touchscreen with every invariant of
/// `EngineHarness` holding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let configuration: Configuration
    do {
        configuration = try ConfigurationLoader.parse(text: text, path: "fuzz.toml")
    } catch let error as ConfigurationError {
        let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        if error.problems.isEmpty { fatalError("a ConfigurationError without problems") }
        for problem in error.problems {
            if let line = problem.line, line < 1 || line > lines {
                fatalError("problem at line \(line) of a \(lines)-line file: \(problem)")
            }
            if problem.message.isEmpty { fatalError("a problem without a message at \(problem)") }
        }
        return 0
    } catch {
        fatalError("parse threw something other than ConfigurationError: \(error)")
    }

    checkRanges(configuration, as: "")
    for (offset, rule) in configuration.devices.enumerated() {
        let name = "\(ConfigurationLoader.deviceSection)[\(offset + 1)]"
        checkRanges(rule.configuration, as: name + ".")
        if let resolution = rule.resolution, !(resolution.isFinite && ConfigurationLoader.deviceResolutionRange.contains(resolution)) {
            fatalError("accepted \(name).resolution = \(resolution), outside \(ConfigurationLoader.deviceResolutionRange)")
        }
    }
    checkRoundTrip(configuration)
    drive(configuration)
    return 0
}

/// Every number in range and finite, as the key table says, and the minimum coast speed below
/// the maximum; `prefix` (`device[2].`) names the section in a failure.
func checkRanges(_ configuration: Configuration, as prefix: String) {
    for key in ConfigurationLoader.keys {
        let value = key.value(in: configuration)
        let number: Double
        switch value {
        case .number(let n): number = n
        case .integer(let n): number = Double(n)
        case .boolean, .string: continue
        }
        guard number.isFinite, key.range.map({ $0.contains(number) }) ?? true else {
            fatalError("accepted \(prefix)\(key.name) = \(value), outside \(key.rangeText)")
        }
    }
    // The loader refuses min_speed >= max_speed: every coast would start at max_speed.
    let coast = configuration.coast
    guard coast.minSpeed < coast.maxSpeed else {
        fatalError("accepted \(prefix)coast.min_speed = \(coast.minSpeed) not below \(prefix)coast.max_speed = \(coast.maxSpeed)")
    }
}

/// The configuration written out (the top-level settings by the key table, then each
/// `[[device]]` section with its keys and every key of the sections it may override) reads back
/// the same.
func checkRoundTrip(_ configuration: Configuration) {
    var sections: [String: [String]] = [:]
    for key in ConfigurationLoader.keys {
        sections[key.section, default: []].append("\(key.key) = \(key.value(in: configuration))")
    }
    var written = sections.sorted { $0.key < $1.key }.map { "[\($0.key)]\n" + $0.value.joined(separator: "\n") }
        .joined(separator: "\n\n") + "\n"
    let device = ConfigurationLoader.deviceSection
    for rule in configuration.devices {
        written += "\n[[\(device)]]\n"
        if let name = rule.name { written += "name = \(QuotedText.quoted(name))\n" }
        if let vendor = rule.vendor { written += "vendor = 0x\(String(vendor, radix: 16))\n" }
        if let product = rule.product { written += "product = 0x\(String(product, radix: 16))\n" }
        written += "enabled = \(rule.enabled)\n"
        // Double's description is the shortest text that reads back as the same number.
        if let resolution = rule.resolution { written += "resolution = \(resolution)\n" }
        for section in ConfigurationLoader.deviceSections {
            written += "[\(device).\(section)]\n"
            for key in ConfigurationLoader.keys where key.section == section {
                written += "\(key.key) = \(key.value(in: rule.configuration))\n"
            }
        }
    }
    do {
        let again = try ConfigurationLoader.parse(text: written, path: "written.toml")
        if again != configuration {
            fatalError("the configuration written out reads back different:\n\(written)")
        }
    } catch {
        fatalError("the configuration written out does not parse: \(error)\n\(written)")
    }
}

/// A flick on a touchpad and a drag on a touchscreen under `configuration`, its device
/// sections applying where they match.
func drive(_ configuration: Configuration) {
    let touchpad = FuzzDevices.all[0], touchscreen = FuzzDevices.all[4]
    let harness = EngineHarness(devices: [touchpad, touchscreen], configuration: configuration)
    var time = EngineScript.startTime
    do {
        for (device, description) in [touchpad, touchscreen].enumerated() {
            let settings = configuration.resolved(for: description).configuration
            let fingers = description.kind == .touchscreen ? settings.touchscreen.fingers : settings.touchpad.fingers
            var stream = FingerStream(description: description)
            let flick = Flick(fingers: fingers, start: Vector(x: 10, y: 10), velocity: Vector(x: 30, y: 200),
                              motion: .milliseconds(80))
            for timed in stream.events(for: flick, at: &time) {
                try harness.perform(.init(time: timed.time, action: .event(device: device, timed.event)))
            }
            time = time + .milliseconds(100)
        }
        try harness.finish()
    } catch {
        fatalError("engine invariant broken under an accepted configuration: \(error)")
    }
}
