import Foundation
import Testing
@testable import FlickCore
@testable import FlickTools
import FlickFingerStories
import FlickTestSupport

/// Random and mutated event streams: the engine never crashes, never produces a non-finite
/// plan, never writes outside a coast, and never coasts past `coast.max_duration`.
@Suite struct EngineProperties {
    /// Event codes a touch device sends, weighted towards the ones that matter.
    static let codes: [(UInt16, UInt16)] = [
        (EventCode.absolute, EventCode.absMTSlot), (EventCode.absolute, EventCode.absMTTrackingID),
        (EventCode.absolute, EventCode.absMTPositionX), (EventCode.absolute, EventCode.absMTPositionY),
        (EventCode.absolute, EventCode.absMTPositionX), (EventCode.absolute, EventCode.absMTPositionY),
        (EventCode.absolute, EventCode.absX), (EventCode.absolute, EventCode.absY),
        (EventCode.absolute, EventCode.absMTToolType), (EventCode.absolute, EventCode.absPressure),
        (EventCode.key, EventCode.touch), (EventCode.key, EventCode.toolFinger), (EventCode.key, EventCode.toolDoubleTap),
        (EventCode.key, EventCode.toolTripleTap), (EventCode.key, EventCode.toolQuintTap), (EventCode.key, EventCode.buttonLeft),
        (EventCode.synchronization, EventCode.synReport), (EventCode.synchronization, EventCode.synReport),
        (EventCode.synchronization, EventCode.synReport), (EventCode.synchronization, EventCode.synMTReport),
        (EventCode.synchronization, EventCode.synDropped),
    ]

    /// Feeds `events` and checks every invariant; returns the number of coasts.
    @discardableResult
    static func check(_ events: [TimedEvent], description: DeviceDescription, configuration: Configuration,
                      context: String) -> Int {
        let engine = Engine(configuration: configuration)
        var coastStart: Instant?
        var coasts = 0
        var failures: [String] = []
        engine.onReport = { report in
            switch report {
            case .coastStarted(_, let time, let plan):
                coastStart = time
                coasts += 1
                let numbers = [plan.velocity.x, plan.velocity.y, plan.releaseVelocity.x, plan.releaseVelocity.y,
                               plan.destinationHiRes.vertical, plan.destinationHiRes.horizontal]
                if !numbers.allSatisfy(\.isFinite) { failures.append("non-finite plan \(plan.velocity)") }
                if plan.velocity.length > configuration.coast.maxSpeed * (1 + 1e-9) {
                    failures.append("coast faster than max_speed: \(plan.velocity.length)")
                }
            case .coastEnded:
                coastStart = nil
            case .bug(_, let message):
                failures.append("bug: \(message)")
            default:
                break
            }
        }
        engine.addDevice(1, description: description)
        func verify(_ out: WheelOutput, at time: Instant) {
            guard !out.isEmpty else { return }
            // Output is only ever part of a coast that is running (or ends with this very call).
            guard let start = coastStart ?? lastStart else {
                failures.append("output \(out) at \(time) with no coast")
                return
            }
            if time - start > configuration.coast.maxDuration {
                failures.append("output at \(time), \((time - start).milliseconds) ms after the coast began")
            }
        }
        var lastStart: Instant?
        var now = Instant.zero
        for timed in events {
            while let deadline = engine.nextDeadline, deadline <= timed.time {
                lastStart = coastStart
                let at = max(deadline, now)
                verify(engine.tick(at: at), at: at)
                now = at
            }
            now = max(now, timed.time)
            lastStart = nil
            let out = engine.handle(timed.event, from: 1, at: timed.time)
            lastStart = coastStart
            verify(out, at: timed.time)
        }
        var guardCount = 0
        while let deadline = engine.nextDeadline, guardCount < 100_000 {
            lastStart = coastStart
            verify(engine.tick(at: max(deadline, now)), at: max(deadline, now))
            now = max(deadline, now)
            guardCount += 1
        }
        #expect(engine.nextDeadline == nil, "the coast ends by itself: \(context)")
        #expect(failures.isEmpty, "\(context): \(failures.prefix(5))")
        return coasts
    }

    @Test func randomStreams() throws {
        var rng = SplitMix64(seed: 7)
        let devices = Fixtures.allDeviceNames()
        var config = Configuration()
        config.touchscreen.enabled = true
        var coasts = 0
        for round in 0..<300 {
            let description = try Fixtures.device(devices[round % devices.count])
            var events: [TimedEvent] = []
            var time = Instant(microseconds: Int64.random(in: 0...1_000_000_000, using: &rng))
            if round % 2 == 0 {
                // Every other round starts with a two-finger flick, so that the random events
                // that follow also meet a coast that is running.
                let flick = FingerScript(description: description, configuration: config)
                flick.down(Vector(x: 25, y: 20), Vector(x: 45, y: 20))
                let dy = Double.random(in: 10...20, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
                flick.move(by: Vector(x: 0, y: dy), over: .milliseconds(100))
                flick.lift()
                let offset = time - flick.sent[0].time
                events = flick.sent.map { TimedEvent(time: $0.time + offset, event: $0.event) }
                time = events[events.count - 1].time
            }
            for _ in 0..<1500 {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0: time = time - .milliseconds(Int64.random(in: 1...5000, using: &rng))  // backwards
                case 1: time = time + .seconds(Double.random(in: 1...100_000, using: &rng))  // huge gap
                default: time = time + Duration(microseconds: Int64.random(in: 0...20_000, using: &rng))
                }
                let (type, code) = Self.codes.randomElement(using: &rng)!
                let value: Int32
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: value = Int32.random(in: Int32.min...Int32.max, using: &rng)
                case 1: value = -1
                default: value = Int32.random(in: 0...3000, using: &rng)
                }
                events.append(TimedEvent(time: time, event: InputEvent(type: type, code: code, value: value)))
            }
            coasts += Self.check(events, description: description, configuration: config, context: "random round \(round)")
        }
        // The invariants about coasts are checked only while one runs: some rounds must coast.
        #expect(coasts >= 50, "only \(coasts) random streams coasted (the seeded flicks make over 100)")
    }

    @Test(.needsSharedRecordings)
    func mutatedRecordings() throws {
        var rng = SplitMix64(seed: 11)
        var config = Configuration()
        config.touchscreen.enabled = true
        var coasts = 0
        for path in Fixtures.recordingPaths() {
            let recording = try RecordingReplays.load(path)
            for round in 0..<20 {
                var events = recording.events
                for _ in 0..<(events.count / 20) {
                    let i = Int.random(in: 0..<events.count, using: &rng)
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: events.remove(at: i)
                    case 1: events.insert(events[i], at: i)
                    case 2: events[i].event.value = events[i].event.value &+ Int32.random(in: -500...500, using: &rng)
                    case 3: events[i].time = events[i].time + .milliseconds(Int64.random(in: -100...100, using: &rng))
                    case 4: events[i].event.value = Int32.random(in: Int32.min...Int32.max, using: &rng)
                    default: events.swapAt(i, Int.random(in: 0..<events.count, using: &rng))
                    }
                }
                if round % 4 == 0 { events = Array(events.prefix(Int.random(in: 0...events.count, using: &rng))) }
                coasts += Self.check(events, description: recording.description, configuration: config,
                                     context: "\(URL(fileURLWithPath: path).lastPathComponent) round \(round)")
            }
        }
        #expect(coasts > 0, "the mutated recordings still coast sometimes")
    }

    @Test func scriptedFlicksWithRandomParametersMatchTheModel() throws {
        // For random flick speeds and tick timings, what is emitted always equals the model's
        // destination for the velocity the engine reported (within 1 unit).
        var rng = SplitMix64(seed: 3)
        var coasted = 0
        for round in 0..<200 {
            var config = Configuration()
            config.coast.tickRate = [60, 120, 144, 250, 1000].randomElement(using: &rng)!
            config.coast.decelerationRate = Double.random(in: 0.99...0.999, using: &rng)
            config.scroll.speed = Double.random(in: 5...60, using: &rng)
            let pad = try FingerScript(device: ["synaptics-rmi4", "synaptics-t440", "apple-appletouch"][round % 3], configuration: config)
            pad.frameInterval = .milliseconds(Int64.random(in: 6...14, using: &rng))
            pad.down(Vector(x: 25, y: 20), Vector(x: 45, y: 20))
            let dy = Double.random(in: -20...20, using: &rng)
            pad.move(by: Vector(x: Double.random(in: -3...3, using: &rng), y: dy), over: .milliseconds(Int64.random(in: 40...160, using: &rng)))
            pad.lift()
            pad.wait(.seconds(10))
            #expect(pad.coasts.count <= 1)
            for plan in pad.coasts {
                coasted += 1
                // The model for the reported velocity, computed here: traditional scrolling (the
                // default, no desktop setting), so fingers down scroll down (vertical = −v_y) and
                // fingers right scroll right; X = v·scroll.speed/k with k = −1000·ln d. The output
                // runs 60 units ahead of the model, never past D = round(X): it has written D once
                // the model is 60.5 short of it, at t = −ln(1 − k·(|D| − 60.5)/|v|)/k (0 for
                // |D| ≤ 60). When both axes get there within max_duration the coast writes D,
                // else max_duration cuts it where the output is then: x(limit) plus 60, at most D.
                let k = -1000 * log(config.coast.decelerationRate)
                let limit = config.coast.maxDuration.seconds
                let velocity = (vertical: -plan.velocity.y * config.scroll.speed, horizontal: plan.velocity.x * config.scroll.speed)
                func written(_ v: Double) -> (total: Double, seconds: Double) {
                    let d = (v / k).rounded()
                    guard abs(d) > 60.5 else { return (d, 0) }
                    return (d, -log(1 - k * (abs(d) - 60.5) / abs(v)) / k)
                }
                func cut(_ v: Double, _ d: Double) -> Double {
                    let ahead = v / k * (1 - exp(-k * limit)) + (d >= 0 ? min(60, d) : max(-60, d))
                    return (d >= 0 ? min(ahead, d) : max(ahead, d)).rounded()
                }
                let wv = written(velocity.vertical), wh = written(velocity.horizontal)
                let settles = max(wv.seconds, wh.seconds) <= limit
                let vertical = settles ? wv.total : cut(velocity.vertical, wv.total)
                let horizontal = settles ? wh.total : cut(velocity.horizontal, wh.total)
                #expect(pad.verticalTotal != 0 || pad.horizontalTotal != 0, "round \(round): a coast that wrote nothing\n\(pad.transcript)")
                #expect(abs(Double(pad.verticalTotal) - vertical.rounded()) <= 1, "round \(round): vertical \(pad.verticalTotal) vs \(vertical)")
                #expect(abs(Double(pad.horizontalTotal) - horizontal.rounded()) <= 1, "round \(round): horizontal \(pad.horizontalTotal) vs \(horizontal)")
                #expect(pad.verticalTotal == plan.totalHiRes.vertical && pad.horizontalTotal == plan.totalHiRes.horizontal)
            }
        }
        // Most random flicks are fast enough to coast; the rest (|dy| small) check nothing.
        #expect(coasted >= 120, "only \(coasted) of 200 random flicks coasted")
    }
}
