import Testing
@testable import FlickCore

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
        // Two fingers 20 mm down over 100 ms; the left one lifts, 150 ms later the right one.
        pad.down(Vector(x: 40, y: 30), Vector(x: 60, y: 30))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift(0)
        pad.wait(.milliseconds(150))
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
}
