import Testing
@testable import FlickCore
@testable import FlickTools
import FlickFingerStories
import FlickTestSupport

/// Findings of the fuzzers and the property soak (Fuzz/, scripts/fuzz, scripts/soak), each
/// kept as a script of what the fingers did.
@Suite struct FuzzRegressions {
    /// Soak (seed 1, stream 335): under `coast.deceleration_rate = 0.9` and `scroll.speed = 0.1`
    /// a 200 mm/s flick heads for 0.19 hi-res units, so it is at rest on its first step. Its
    /// plan said it lasted −8.333 ms (the model starts one tick period before the release),
    /// which `flickd replay` and `--verbose` printed.
    @Test func aCoastAtRestOnItsFirstStepLastsZeroNotLess() throws {
        var configuration = Configuration()
        configuration.coast.decelerationRate = 0.9
        configuration.scroll.speed = 0.1
        let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
        // Two fingers down at (40, 30) and (60, 30) mm, 20 mm down over 100 ms, the left one
        // lifts, 8 ms later the right one.
        pad.down(Vector(x: 40, y: 30), Vector(x: 60, y: 30))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift(0)
        pad.wait(.milliseconds(8))
        pad.lift(1)
        pad.wait(.seconds(1))
        #expect(pad.coasts.count == 1)
        for plan in pad.coasts {
            #expect(plan.duration == .zero, "plan lasts \(plan.duration), destination \(plan.destinationHiRes)")
            #expect(plan.totalHiRes == (0, 0))
        }
        #expect(pad.verticalTotal == 0 && pad.horizontalTotal == 0)
    }

    /// Soak (seed 1, stream 868): with `coast.tick_rate = 10` (a 100 ms period),
    /// `coast.max_duration = 50` and `touchpad.lift_window = 500`, a second finger lifting
    /// 150 ms after the first puts the model's start 100 ms before the release, so the coast is
    /// cut at `max_duration` 50 ms before its release frame; the plan said −50 ms.
    @Test func aCoastCutBeforeItsReleaseFrameLastsZero() throws {
        var configuration = Configuration()
        configuration.coast.tickRate = 10
        configuration.coast.maxDuration = .milliseconds(50)
        configuration.touchpad.liftWindow = .milliseconds(500)
        let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
        // Two fingers 20 mm down over 100 ms; the left one lifts, and the right one carries on
        // with the flick (15 mm, slower than it) until it lifts 150 ms later. Still that long, it
        // would be a hand that had stopped: no coast.
        pad.down(Vector(x: 40, y: 30), Vector(x: 60, y: 30))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift(0)
        pad.move(by: Vector(x: 0, y: 15), over: .milliseconds(150))
        pad.lift(1)
        pad.wait(.seconds(1))
        #expect(pad.coasts.count == 1)
        for plan in pad.coasts {
            #expect(plan.duration >= .zero && plan.duration <= configuration.coast.maxDuration, "plan lasts \(plan.duration)")
            #expect(pad.verticalTotal == plan.totalHiRes.vertical)
        }
    }

    /// A 200 kB `libinput record` file whose devices are 100 000 nested `[` (closed again)
    /// overflowed the stack in the flow-collection reader: `flickd replay` died of SIGSEGV.
    /// Deep block nesting (indentation) recursed the same way. libinput record nests a few
    /// levels; more than 64 is an error at its line.
    @Test(arguments: [100_000, 65])
    func deeplyNestedBracketsAreAnErrorNotAStackOverflow(depth: Int) {
        let text = "version: 1\ndevices: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        #expect(throws: RecordingError.self) { try Recording.load(text: text) }
        do {
            _ = try Recording.load(text: text)
        } catch {
            #expect(error.line == 2 && error.message.contains("nested"), "\(error)")
        }
    }

    @Test func deeplyIndentedBlocksAreAnErrorNotAStackOverflow() {
        var text = "version: 1\ndevices:\n"
        for level in 0..<2000 { text += String(repeating: " ", count: level) + "- \n" }
        do {
            _ = try Recording.load(text: text)
            Issue.record("2000 nested blocks were read")
        } catch {
            #expect(error.message.contains("nested"), "\(error)")
        }
    }

    /// What libinput record writes is nowhere near the limit.
    @Test func sixtyFourLevelsAreRead() throws {
        let text = "version: 1\nx: " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "\ndevices: []\n"
        #expect(throws: RecordingError.self) { try Recording.load(text: text) }
        do {
            _ = try Recording.load(text: text)
        } catch {
            #expect(error.message.contains("non-empty list"), "the depth is fine; the empty device list is not: \(error)")
        }
    }

    /// Soak (seed 1, stream 399102): a finger already on a touchscreen when a touchpad flick
    /// starts a coast, then flicked and lifted during that coast, starts a coast of its own. The
    /// first coast, cut short, was reported as `finished` (at rest) though it wrote 135 of its
    /// 163 units; it now ends `replaced`.
    @Test func aCoastReplacedByAReleaseOnAnotherDeviceIsNotReportedFinished() throws {
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        let engine = Engine(configuration: configuration)
        let pad: DeviceID = 1, screen: DeviceID = 2
        engine.addDevice(pad, description: try Fixtures.device("synaptics-t440"))
        engine.addDevice(screen, description: try Fixtures.device("touch-screen"))
        var ends: [(reason: StopReason, emitted: (Int64, Int64))] = []
        var plans: [CoastPlan] = []
        engine.onReport = { report in
            if case .coastStarted(_, _, let plan) = report { plans.append(plan) }
            if case .coastEnded(_, let reason, let emitted) = report { ends.append((reason, emitted)) }
        }
        var now = Instant(microseconds: 1_000_000)
        func frame(_ device: DeviceID, after milliseconds: Int64, _ events: [(UInt16, UInt16, Int32)]) {
            let time = now + .milliseconds(milliseconds)
            engine.advance(to: time)
            now = time
            for (type, code, value) in events + [(EventCode.synchronization, EventCode.synReport, 0)] {
                _ = engine.handle(InputEvent(type: type, code: code, value: value), from: device, at: time)
            }
        }
        let absolute = EventCode.absolute, key = EventCode.key
        // One finger on the screen (100 units/mm) at (100, 100) mm; it stays still for now.
        frame(screen, after: 0, [(absolute, EventCode.absMTSlot, 0), (absolute, EventCode.absMTTrackingID, 1),
                                 (absolute, EventCode.absMTPositionX, 10_000), (absolute, EventCode.absMTPositionY, 10_000),
                                 (key, EventCode.touch, 1)])
        // Two fingers on the pad (42 units/mm), 20 mm down over 100 ms, both lift: a coast.
        frame(pad, after: 10, [(absolute, EventCode.absMTSlot, 0), (absolute, EventCode.absMTTrackingID, 10),
                               (absolute, EventCode.absMTPositionX, 2000), (absolute, EventCode.absMTPositionY, 2500),
                               (absolute, EventCode.absMTSlot, 1), (absolute, EventCode.absMTTrackingID, 11),
                               (absolute, EventCode.absMTPositionX, 2840), (absolute, EventCode.absMTPositionY, 2500),
                               (key, EventCode.touch, 1), (key, EventCode.toolDoubleTap, 1)])
        for step in 1...10 {
            let y = Int32(2500 + 84 * step)
            frame(pad, after: 10, [(absolute, EventCode.absMTSlot, 0), (absolute, EventCode.absMTPositionY, y),
                                   (absolute, EventCode.absMTSlot, 1), (absolute, EventCode.absMTPositionY, y)])
        }
        frame(pad, after: 8, [(absolute, EventCode.absMTSlot, 0), (absolute, EventCode.absMTTrackingID, -1),
                              (absolute, EventCode.absMTSlot, 1), (absolute, EventCode.absMTTrackingID, -1),
                              (key, EventCode.touch, 0), (key, EventCode.toolDoubleTap, 0)])
        #expect(plans.count == 1 && engine.isCoasting)
        // 100 ms into that coast the screen finger moves 20 mm down over 80 ms and lifts.
        frame(screen, after: 100, [])
        for step in 1...8 {
            frame(screen, after: 10, [(absolute, EventCode.absMTPositionY, Int32(10_000 + 250 * step))])
        }
        frame(screen, after: 8, [(absolute, EventCode.absMTTrackingID, -1), (key, EventCode.touch, 0)])
        #expect(plans.count == 2)
        #expect(ends.first?.reason == .replaced, "the first coast ended \(String(describing: ends.first))")
        if let first = ends.first, let plan = plans.first {
            #expect(abs(first.emitted.0) < abs(plan.totalHiRes.vertical), "it was cut short")
        }
    }
}
