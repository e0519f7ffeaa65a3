import Testing
import FlickCore
import FlickTools
import FlickTestSupport

/// The quirks a `libinput record` file lists for each device are kept for the replay, which
/// reads the pad's pressure with them (`Replay.PressureRule`): nil without a `quirks:` key,
/// empty where the list is.
@Suite struct RecordedQuirksTests {
    @Test func theQuirksListAndTheLibinputVersionAreKept() throws {
        let sample = LibinputRecordSamples.twoFingerScroll
        let listed = try Recording.load(text: sample)
        #expect(listed.quirks == ["ModelLenovoT450Touchpad=1"])
        #expect(listed.libinputVersion == "1.25.0")
        let empty = try Recording.load(text: sample.replacingOccurrences(of: "  - ModelLenovoT450Touchpad=1\n", with: ""))
        #expect(empty.quirks == [])
        let none = try Recording.load(text: sample.replacingOccurrences(of: "  quirks:\n  - ModelLenovoT450Touchpad=1\n", with: ""))
        #expect(none.quirks == nil)
        // The devices not replayed keep theirs.
        let all = try Recording.load(text: LibinputRecordSamples.withDevices(
            after: [LibinputRecordSamples.touchscreen.replacingOccurrences(of: "  events:\n", with: "  quirks:\n  - AttrPalmSizeThreshold=1\n  events:\n")],
            count: 2))
        #expect(all.otherDevices.map(\.quirks) == [["AttrPalmSizeThreshold=1"]])
        // evemu lists none.
        let evemu = try Recording.load(text: EvemuWriter.text(description: try Fixtures.device("elantech-touchpad"), events: []))
        #expect(evemu.quirks == nil && evemu.libinputVersion == nil)
    }

    /// The rule the replay is given decides how the pad's contacts touch: fingers pressing 12
    /// are fingers from 10, none from 30; by default every contact is one.
    @Test func theReplayReadsThePressureTheRuleGives() throws {
        let text = LibinputRecordSamples.twoFingerScroll.replacingOccurrences(of: "3,  58,      60]", with: "3,  58,      12]")
        let recording = try Recording.load(text: text)
        func rule(high: Int32, low: Int32) -> Replay.PressureRule {
            { description, quirks, _ in
                #expect(description.name == "SynPS/2 Synaptics TouchPad" && quirks == ["ModelLenovoT450Touchpad=1"])
                return .given(TouchPressure(touch: .init(axis: EventCode.absMTPressure, high: high, low: low), palmThreshold: 130))
            }
        }
        let light = Replay(recording, configuration: .defaults, pressureRule: rule(high: 10, low: 8))
        #expect(light.coasts.count == 1 && light.touchPressure?.touch?.high == 10)
        let firm = Replay(recording, configuration: .defaults, pressureRule: rule(high: 30, low: 25))
        #expect(firm.gestures == 0 && firm.coasts.isEmpty)
        let every = Replay(recording, configuration: .defaults)
        #expect(every.coasts.count == 1 && every.touchPressure == nil)
        // libinput's rule from the description alone: 30:25 on 0...255.
        let described = Replay(recording, configuration: .defaults, pressureRule: { _, _, _ in .description })
        #expect(described.coasts.isEmpty && described.touchPressure?.touch?.high == 30)
    }

    /// A recording that ends with the fingers down counts them as the pressure rule does: of a
    /// finger pressing 12 and one pressing 60, only the firm one is a finger from 30.
    @Test func theFingersDownAtTheEndAreCountedByPressure() throws {
        let cut = LibinputRecordSamples.twoFingerScroll.range(of: "  - evdev:\n    - [  0,  84133")!.lowerBound
        var text = String(LibinputRecordSamples.twoFingerScroll[..<cut])
        text.replaceSubrange(text.range(of: "3,  58,      60]")!, with: "3,  58,      12]")
        let recording = try Recording.load(text: text)
        let firm = Replay(recording, configuration: .defaults, pressureRule: { _, _, _ in
            .given(TouchPressure(touch: .init(axis: EventCode.absMTPressure, high: 30, low: 25), palmThreshold: nil))
        })
        #expect(firm.unfinished?.fingers == 1, "\(String(describing: firm.unfinished))")
        let every = Replay(recording, configuration: .defaults)
        #expect(every.unfinished?.fingers == 2, "\(String(describing: every.unfinished))")
    }
}
