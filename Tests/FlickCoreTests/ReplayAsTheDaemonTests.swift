import Testing
@testable import FlickCore
@testable import FlickTools
import FlickTestSupport
import FlickFingerStories

/// A replay gives the daemon's own decisions where the recording holds what the daemon reads:
/// the recording's libinput measures a pad without resolution, and keys on the replayed
/// device's own node stop a coast, or start none.
@Suite struct ReplayAsTheDaemonTests {
    // MARK: The recording's libinput measures the pad

    /// The two-finger scroll's pad (`LibinputRecordSamples.twoFingerScroll`) with no resolution,
    /// x on 0...2000 and y on 0...1500, recorded by libinput `version`, with `quirk` listed.
    static func padWithoutResolution(version: String, quirk: String? = nil, xMaximum: Int = 2000) -> String {
        var text = LibinputRecordSamples.twoFingerScroll
            .replacingOccurrences(of: "version: \"1.25.0\"", with: "version: \"\(version)\"")
            .replacingOccurrences(of: "0: [1266, 5676, 0, 0, 45]", with: "0: [0, \(xMaximum), 0, 0, 0]")
            .replacingOccurrences(of: "53: [1266, 5676, 0, 0, 45]", with: "53: [0, \(xMaximum), 0, 0, 0]")
            .replacingOccurrences(of: "1: [1096, 4758, 0, 0, 68]", with: "1: [0, 1500, 0, 0, 0]")
            .replacingOccurrences(of: "54: [1096, 4758, 0, 0, 68]", with: "54: [0, 1500, 0, 0, 0]")
        if let quirk {
            text = text.replacingOccurrences(of: "- ModelLenovoT450Touchpad=1", with: "- \(quirk)\n  - ModelLenovoT450Touchpad=1")
        }
        return text
    }

    static func unitsPerMillimetreX(_ text: String) throws -> Double? {
        let replay = Replay(try LibinputRecordParser.parse(text: text), configuration: .defaults)
        guard case .used(_, let geometry) = replay.admission else { return nil }
        return geometry.x.unitsPerMillimetre
    }

    /// A pad on 0...2000 without resolution, guessed 69 mm wide: the daemon counts 2001 values
    /// (29 units/mm) on libinput 1.24 and later (libinput itself from 1.25; the daemon reads
    /// 1.24's quirks files as 1.25's), the difference, 2000 (28), before, as it measures by the
    /// installed libinput (`LibinputQuirks.applied`). 1.23.901 is 1.24's candidate.
    @Test(arguments: [("1.26.0", 29.0), ("1.25.0", 29.0), ("1.24.0", 29.0), ("1.23.901", 29.0), ("1.23.0", 28.0), ("1.22.1", 28.0)])
    func theGuessCountsTheRangeAsTheRecordingsLibinput(version: String, units: Double) throws {
        let text = Self.padWithoutResolution(version: version)
        let recording = try LibinputRecordParser.parse(text: text)
        #expect(recording.description.libinputAxisRange == (units == 29 ? .inclusive : .difference))
        #expect(try Self.unitsPerMillimetreX(text) == units)
    }

    /// AttrSizeHint=100x55 on x 0...1199: 1200 values make 12 units/mm from libinput 1.24 (as
    /// the daemon counts), 1199 make 11 before.
    @Test func aSizeHintCountsTheRangeAsTheRecordingsLibinput() throws {
        let new = try LibinputRecordParser.parse(text: Self.padWithoutResolution(version: "1.26.0", quirk: "AttrSizeHint=100x55", xMaximum: 1199))
        #expect(new.description.absoluteAxes[EventCode.absMTPositionX]?.resolution == 12, "\(new.description.absoluteAxes)")
        #expect(new.resolutionQuirk == "AttrSizeHint=100x55")
        let old = try LibinputRecordParser.parse(text: Self.padWithoutResolution(version: "1.23.0", quirk: "AttrSizeHint=100x55", xMaximum: 1199))
        #expect(old.description.absoluteAxes[EventCode.absMTPositionX]?.resolution == 11, "\(old.description.absoluteAxes)")
    }

    // MARK: Keys on the replayed device's own node

    /// Two fingers land at 0 s, move 20 mm down over 104 ms and lift: a flick whose coast
    /// runs well past 0.3 s.
    static func flick() throws -> FingerScript {
        let pad = try FingerScript(device: "elantech-touchpad")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(104))
        pad.lift()
        return pad
    }

    /// `pad`'s events with a key frame of `code` going to `value` at each of `keys`' times (s
    /// from the first event), merged in time order after the events of the same time, through
    /// an evemu file as recorded.
    static func recording(_ pad: FingerScript, keys: [(seconds: Double, code: UInt16, value: Int32)]) throws -> Recording {
        var events = pad.sent
        // The replay counts from the first event (the script's clock starts at 1 s).
        let start = events.first?.time ?? .zero
        for key in keys {
            let time = Instant(microseconds: start.microseconds + Int64((key.seconds * 1_000_000).rounded()))
            let frame = [TimedEvent(time: time, event: InputEvent(type: EventCode.key, code: key.code, value: key.value)),
                         TimedEvent(time: time, event: InputEvent(type: EventCode.synchronization, code: 0, value: 0))]
            let at = events.firstIndex { $0.time > time } ?? events.endIndex
            events.insert(contentsOf: frame, at: at)
        }
        return try Recording.load(text: EvemuWriter.text(description: pad.description, events: events))
    }

    /// KEY_A pressed on the pad's own node at 0.2 s, in the flick's coast: the daemon stops the
    /// coast there (stop.key), as a keyboard's press does; with stop.key off it runs out.
    @Test func aKeyOnTheReplayedNodeStopsTheCoast() throws {
        let pad = try Self.flick()
        let recording = try Self.recording(pad, keys: [(0.2, 30, 1), (0.25, 30, 0)])
        let replay = Replay(recording, configuration: .defaults)
        let coast = try #require(replay.coasts.first, "\(replay.noCoasts.map(\.reason))")
        let end = try #require(coast.end)
        #expect(end.reason == .key && abs(end.time - 0.2) < 1e-9, "\(end)")
        #expect(replay.emitted.allSatisfy { $0.time <= 0.2 }, "\(replay.emitted.map(\.time))")

        var noKeys = Configuration.defaults
        noKeys.stop.key = false
        #expect(Replay(recording, configuration: noKeys).coasts.first?.end?.reason == .finished)
    }

    /// KEY_LEFTCTRL held on the pad's own node from 0.02 s through the release (a Goodix
    /// touchscreen's Super key comes so): the daemon starts no coast, for Ctrl + scroll would
    /// zoom. The coast is reported ended by the key at the release, nothing written. Released
    /// at 0.05 s, before the lift, it holds nothing back.
    @Test func aModifierHeldOnTheReplayedNodeAtTheReleaseStartsNoCoast() throws {
        let pad = try Self.flick()
        let held = Replay(try Self.recording(pad, keys: [(0.02, 29, 1)]), configuration: .defaults)
        #expect(held.emitted.isEmpty, "\(held.emitted)")
        let coast = try #require(held.coasts.first)
        #expect(coast.modifierHeld)
        let end = try #require(coast.end)
        #expect(end.reason == .key && end.time == coast.time && end.verticalHiRes == 0 && end.horizontalHiRes == 0, "\(end)")

        let released = Replay(try Self.recording(pad, keys: [(0.02, 29, 1), (0.05, 29, 0)]), configuration: .defaults)
        #expect(released.coasts.first?.end?.reason == .finished && !released.emitted.isEmpty, "\(released.coasts.map(\.end))")
        #expect(released.coasts.first?.modifierHeld == false)
    }
}
