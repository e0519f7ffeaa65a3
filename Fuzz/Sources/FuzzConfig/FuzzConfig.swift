import FlickCore
import FlickLinux
import FlickTestSupport
import FuzzSupport

/// libFuzzer target `config`: `ConfigurationLoader.parse` (toml++ through the CTOMLBridge
/// target, the key table, key lines, did-you-mean suggestions, `[[device]]` sections) on any
/// text.
///
/// Checks: a rejected file gives at least one problem, each naming a line of the file (or
/// none); an accepted configuration has every key within the range the key table documents,
/// reads back the same when its values are written out again by the key table, and drives the
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

    for settings in [configuration] + configuration.devices.map(\.configuration) {
        checkRanges(settings)
    }
    checkRoundTrip(configuration)
    drive(configuration)
    return 0
}

/// Every number in range and finite, as the key table says.
func checkRanges(_ configuration: Configuration) {
    for key in ConfigurationLoader.keys {
        let value = key.value(in: configuration)
        let number: Double
        switch value {
        case .number(let n): number = n
        case .integer(let n): number = Double(n)
        case .boolean, .string: continue
        }
        guard number.isFinite, key.range.map({ $0.contains(number) }) ?? true else {
            fatalError("accepted \(key.name) = \(value), outside \(key.rangeText)")
        }
    }
}

/// The top-level settings written out by the key table read back the same.
func checkRoundTrip(_ configuration: Configuration) {
    var sections: [String: [String]] = [:]
    for key in ConfigurationLoader.keys {
        sections[key.section, default: []].append("\(key.key) = \(key.value(in: configuration))")
    }
    let written = sections.sorted { $0.key < $1.key }.map { "[\($0.key)]\n" + $0.value.joined(separator: "\n") }
        .joined(separator: "\n\n") + "\n"
    var expected = configuration
    expected.devices = []
    do {
        let again = try ConfigurationLoader.parse(text: written, path: "written.toml")
        if again != expected {
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
