import FlickCore
import FlickTools
import FlickTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Makes random engine scripts for the soak: scripted flicks with random physics, random
/// event noise, and windows of real recordings, with random mutations, stops at random times
/// (often while a coast runs), late ticks, unplugs and reloads, wheel output not written (a
/// failed write, a modifier held at the release), under random configurations
/// from the whole range the configuration file accepts.
public struct StreamGenerator {
    /// The kinds of stream.
    public enum Kind: String, CaseIterable, Sendable {
        case flicks, noise, recording
    }

    private var rng: SplitMix64
    private let recordings: [Recording]

    /// A generator for stream `number` of a soak seeded `seed`; `recordings` are the real
    /// recordings to cut windows from (none: those streams are flicks instead).
    public init(seed: UInt64, number: UInt64, recordings: [Recording]) {
        rng = SplitMix64(seed: seed ^ (number &* 0x2545_F491_4F6C_DD1D))
        _ = rng.next()
        self.recordings = recordings
    }

    // MARK: Random values

    private mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    private mutating func uniform(_ low: Double, _ high: Double) -> Double { Double.random(in: low...high, using: &rng) }
    private mutating func integer(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    private mutating func logUniform(_ low: Double, _ high: Double) -> Double {
        exp(Double.random(in: log(low)...log(high), using: &rng))
    }

    // MARK: Configurations

    /// A configuration from anywhere in the accepted ranges, leaning towards the defaults: either
    /// output, stops off, touchpads off, `[[device]]` sections.
    public mutating func configuration() -> Configuration {
        if chance(0.25) {
            return ConfigurationVariant(a: UInt8.random(in: 0...255, using: &rng), b: UInt8.random(in: 0...255, using: &rng),
                                        c: UInt8.random(in: 0...255, using: &rng)).configuration
        }
        var c = settings()
        c.output.mode = chance(0.5) ? .touchpad : .wheel
        c.stop.touch = chance(0.85)
        c.stop.button = chance(0.85)
        c.stop.key = chance(0.85)
        if chance(0.25) {
            // Sections for names that some devices of the table have (and some not), each with
            // settings of its own; now and then one that turns its devices off.
            let names = ["touch", "pad", "screen", "synaptics", "elantech", "alps", "generic", "atmel", "ep0430"]
            for _ in 0..<integer(1...3) {
                var own = settings()
                own.output = c.output
                own.stop = c.stop
                c.devices.append(DeviceRule(name: names.randomElement(using: &rng)!, enabled: chance(0.85),
                                            resolution: chance(0.7) ? nil : logUniform(1, 1000), configuration: own))
            }
        }
        return c
    }

    /// The settings a `[[device]]` section may hold too, from anywhere in their ranges.
    private mutating func settings() -> Configuration {
        var c = Configuration()
        c.scroll.speed = chance(0.7) ? uniform(5, 60) : chance(0.9) ? logUniform(0.1, 1000) : [0.1, 1000].randomElement(using: &rng)!
        c.scroll.natural = [NaturalScrolling.auto, .on, .off].randomElement(using: &rng)!
        c.coast.decelerationRate = chance(0.5) ? [0.998, 0.99].randomElement(using: &rng)! : uniform(0.9, 0.9999)
        c.coast.maxSpeed = chance(0.7) ? 1500 : chance(0.9) ? logUniform(1, 100_000) : [1, 100_000].randomElement(using: &rng)!
        // min_speed's range is 0...10000, and below max_speed.
        let fastestMinimum = min(10_000, c.coast.maxSpeed * 0.99)
        c.coast.minSpeed = chance(0.7) ? min(50, c.coast.maxSpeed / 2)
            : chance(0.9) ? uniform(0, fastestMinimum) : [0, fastestMinimum].randomElement(using: &rng)!
        c.coast.maxDuration = .milliseconds(Int64(chance(0.9) ? (chance(0.6) ? 5000 : uniform(50, 5000)) : uniform(50, 60000)))
        c.coast.tickRate = chance(0.6) ? 120 : uniform(10, 1000).rounded()
        c.coast.boost = chance(0.8)
        c.coast.axisLockDegrees = chance(0.6) ? 20 : uniform(0, 45)
        c.velocity.estimator = chance(0.7) ? .lsq2 : .lookback
        c.touchpad.fingers = chance(0.8) ? 2 : integer(2...4)
        c.touchpad.liftWindow = .milliseconds(Int64(chance(0.7) ? 50 : integer(0...500)))
        c.touchpad.liftTravel = chance(0.7) ? 2 : uniform(0, 50)
        c.touchpad.enabled = chance(0.9)
        c.touchscreen.enabled = chance(0.6)
        c.touchscreen.fingers = chance(0.8) ? 1 : integer(1...4)
        return c
    }

    // MARK: Scripts

    /// The next script and its kind.
    public mutating func script() -> (script: EngineScript, kind: Kind) {
        let roll = integer(0...9)
        let kind: Kind = roll < 5 ? .flicks : roll < 7 ? .noise : (recordings.isEmpty ? .flicks : .recording)
        var script: EngineScript
        switch kind {
        case .flicks: script = flicks()
        case .noise: script = noise()
        case .recording: script = recordingWindow()
        }
        if chance(0.3) { mutate(&script) }
        return (script, kind)
    }

    private mutating func devices() -> [DeviceDescription] {
        let count = chance(0.7) ? 1 : integer(2...3)
        return (0..<count).map { _ in FuzzDevices.all.randomElement(using: &rng)! }
    }

    /// One to six flicks, with pauses, stops at random times, late ticks, unplugs and reloads
    /// in between.
    private mutating func flicks() -> EngineScript {
        var script = EngineScript(devices: devices(), configuration: configuration())
        var streams = script.devices.map { FingerStream(description: $0) }
        var time = Instant(microseconds: Int64(integer(0...1_000_000_000)) * 1000)
        for _ in 0..<integer(1...6) {
            let device = integer(0...(script.devices.count - 1))
            let description = script.devices[device]
            let geometry = DeviceGeometry(description: description, kind: description.kind ?? .touchpad)
            let width = geometry.x.lengthMillimetres, height = geometry.y.lengthMillimetres
            let wanted = description.kind == .touchscreen ? script.configuration.touchscreen.fingers : script.configuration.touchpad.fingers
            let fingers = chance(0.8) ? wanted : integer(1...5)
            let speed = logUniform(5, 4000)
            let angle = chance(0.6) ? Double(integer(0...3)) * Double.pi / 2 + uniform(-0.2, 0.2) : uniform(0, 2 * Double.pi)
            let velocity = Vector(x: speed * cos(angle), y: speed * sin(angle))
            let flick = Flick(
                fingers: fingers, start: Vector(x: uniform(0, width * 0.6), y: uniform(0, height)),
                spacing: uniform(8, 25), velocity: velocity, motion: .milliseconds(Int64(integer(20...400))),
                frameInterval: Duration(microseconds: Int64(integer(4000...20000))),
                pause: chance(0.8) ? .zero : .milliseconds(Int64(integer(0...200))),
                liftSpread: .milliseconds(Int64(chance(0.7) ? integer(0...20) : integer(0...300))))
            for timed in streams[device].events(for: flick, at: &time) {
                script.steps.append(.init(time: timed.time, action: .event(device: device, timed.event)))
            }
            // A modifier held at the release: its first step is not written and the coast stops.
            if chance(0.08), let release = script.steps.last?.time {
                script.steps.append(.init(time: release, action: .notWritten))
                script.steps.append(.init(time: release, action: .stop(.key)))
            }
            // Often something happens while the coast runs.
            // Mostly early in the coast, where it writes the most, sometimes past its end.
            let u = uniform(0, 1)
            let after = Duration(microseconds: Int64(1.2 * u * u * Double(script.configuration.coast.maxDuration.microseconds)))
            if chance(0.6) {
                let reason = [StopReason.button, .key, .touch, .shutdown, .sessionInactive].randomElement(using: &rng)!
                script.steps.append(.init(time: time + after, action: .stop(reason)))
            }
            if chance(0.05) { script.steps.append(.init(time: time + after, action: .tick(lateness: .milliseconds(Int64(integer(-50...2000)))))) }
            if chance(0.03) { script.steps.append(.init(time: time + after, action: .toggleDevice(device))) }
            if chance(0.03) { script.steps.append(.init(time: time + after, action: .abandon(device))) }
            if chance(0.03) { script.steps.append(.init(time: time + after, action: .reconfigure(configuration()))) }
            if chance(0.03) { script.steps.append(.init(time: time + after, action: .desktopNaturalScrolling(chance(0.5)))) }
            if chance(0.15) {
                // Writes that fail (the virtual wheel gone, a full buffer): one, or a run of them.
                let failing = Duration(microseconds: Int64(uniform(0, 1) * Double(script.configuration.coast.maxDuration.microseconds)))
                var at = time + failing
                for _ in 0..<(chance(0.5) ? 1 : integer(2...30)) {
                    script.steps.append(.init(time: at, action: .notWritten))
                    at = at + Duration(microseconds: Int64(integer(0...20_000)))
                }
            }
            // The next flick: often within the boost window, sometimes much later.
            time = time + .milliseconds(Int64(chance(0.6) ? integer(30...750) : integer(750...8000)))
            if script.steps.last.map({ $0.time > time }) == true { time = script.steps.last!.time }
        }
        return script
    }

    /// Random events, weighted towards the codes touch devices send, with time that steps
    /// backwards or jumps now and then.
    private mutating func noise() -> EngineScript {
        var script = EngineScript(devices: devices(), configuration: configuration())
        var time = Instant(microseconds: Int64(integer(0...1_000_000)) * 1000)
        for _ in 0..<integer(10...400) {
            switch integer(0...99) {
            case 0: time = EngineScript.clamp(time, plus: -Int64(integer(1...5000)) * 1000)
            case 1: time = EngineScript.clamp(time, plus: Int64(integer(1...100_000)) * 1_000_000)
            default: time = time + Duration(microseconds: Int64(integer(0...20_000)))
            }
            let (type, code) = EventTable.codes[integer(0...(EventTable.codes.count - 1))]
            let value: Int32
            switch integer(0...9) {
            case 0: value = Int32.random(in: Int32.min...Int32.max, using: &rng)
            case 1: value = -1
            default: value = Int32(integer(0...3000))
            }
            let device = integer(0...(script.devices.count - 1))
            script.steps.append(.init(time: time, action: .event(device: device, InputEvent(type: type, code: code, value: value))))
            if chance(0.01) { script.steps.append(.init(time: time, action: .stop(.button))) }
            if chance(0.01) { script.steps.append(.init(time: time, action: .notWritten)) }
        }
        return script
    }

    /// A window of a real recording (up to 1500 events), on its own device.
    private mutating func recordingWindow() -> EngineScript {
        let recording = recordings.randomElement(using: &rng)!
        var configuration = configuration()
        if chance(0.8) { configuration.touchscreen.enabled = true }
        var script = EngineScript(devices: [recording.description], configuration: configuration)
        let count = recording.events.count
        let length = min(count, integer(50...1500))
        let start = integer(0...(count - length))
        for timed in recording.events[start..<(start + length)] {
            script.steps.append(.init(time: timed.time, action: .event(device: 0, timed.event)))
        }
        if chance(0.4), let first = script.steps.first?.time, let last = script.steps.last?.time, last > first {
            for _ in 0..<integer(1...4) {
                let at = first + Duration(microseconds: Int64.random(in: 0...(last - first).microseconds, using: &rng))
                let index = script.steps.firstIndex { $0.time > at } ?? script.steps.count
                script.steps.insert(.init(time: at, action: .stop([.button, .key, .touch, .sessionInactive].randomElement(using: &rng)!)), at: index)
            }
        }
        if chance(0.2), let first = script.steps.first?.time, let last = script.steps.last?.time, last > first {
            for _ in 0..<integer(1...20) {
                let at = first + Duration(microseconds: Int64.random(in: 0...(last - first).microseconds, using: &rng))
                let index = script.steps.firstIndex { $0.time > at } ?? script.steps.count
                script.steps.insert(.init(time: at, action: .notWritten), at: index)
            }
        }
        return script
    }

    /// Removes, repeats, changes and swaps events, as a flaky device or a lossy link would.
    private mutating func mutate(_ script: inout EngineScript) {
        guard !script.steps.isEmpty else { return }
        for _ in 0..<max(1, script.steps.count / 20) {
            let i = integer(0...(script.steps.count - 1))
            switch integer(0...5) {
            case 0: script.steps.remove(at: i)
            case 1: script.steps.insert(script.steps[i], at: i)
            case 2:
                if case .event(let device, var event) = script.steps[i].action {
                    event.value = event.value &+ Int32(integer(-500...500))
                    script.steps[i].action = .event(device: device, event)
                }
            case 3: script.steps[i].time = EngineScript.clamp(script.steps[i].time, plus: Int64(integer(-100...100)) * 1000)
            case 4:
                if case .event(let device, var event) = script.steps[i].action {
                    event.value = Int32.random(in: Int32.min...Int32.max, using: &rng)
                    script.steps[i].action = .event(device: device, event)
                }
            default: script.steps.swapAt(i, integer(0...(script.steps.count - 1)))
            }
            if script.steps.isEmpty { return }
        }
    }
}
