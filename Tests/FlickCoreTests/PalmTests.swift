import Testing
@testable import FlickCore

/// Contacts the kernel marks as palms (`ABS_MT_TOOL_TYPE` = `MT_TOOL_PALM`) are not fingers:
/// they neither count nor move a gesture, and their landing is no new touch.
///
/// The tool type is the slot's state, as the kernel keeps it: the input core drops an
/// `ABS_MT_TOOL_TYPE` event whose value equals the slot's current one, so a palm that lands
/// again in the slot a palm left sends a tracking id and positions only.
@Suite struct PalmTests {
    /// A pad with five slots, 100 × 100 mm at 10 units/mm, that reports the tool type.
    static let pad = DeviceDescription(
        name: "palm-reporting pad", keys: [EventCode.touch, EventCode.toolFinger, EventCode.toolDoubleTap],
        absoluteAxes: [
            EventCode.absMTSlot: AxisInfo(minimum: 0, maximum: 4),
            EventCode.absMTTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            EventCode.absMTPositionX: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventCode.absMTPositionY: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventCode.absMTToolType: AxisInfo(minimum: 0, maximum: 2),
            EventCode.absX: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventCode.absY: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
        ])

    static func abs(_ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(type: EventCode.absolute, code: code, value: value)
    }

    /// Feeds `events` and a SYN_REPORT at `milliseconds`; the frame's summary.
    static func frame(_ tracker: inout ContactTracker, at milliseconds: Int64, _ events: [InputEvent]) -> FrameSummary? {
        let time = Instant(microseconds: milliseconds * 1000)
        for event in events { _ = tracker.handle(event, at: time) }
        return tracker.handle(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0), at: time)
    }

    /// A finger rests in slot 1 (at 50, 50 mm); a palm lands in slot 0 at 10 ms.
    static func fingerAndPalm() throws -> ContactTracker {
        var tracker = ContactTracker(description: pad, kind: .touchpad)
        _ = frame(&tracker, at: 0, [abs(EventCode.absMTSlot, 1), abs(EventCode.absMTTrackingID, 1),
                                     abs(EventCode.absMTToolType, EventCode.mtToolFinger),
                                     abs(EventCode.absMTPositionX, 500), abs(EventCode.absMTPositionY, 500)])
        let palm = try #require(frame(&tracker, at: 10, [abs(EventCode.absMTSlot, 0), abs(EventCode.absMTTrackingID, 2),
                                                         abs(EventCode.absMTToolType, EventCode.mtToolPalm),
                                                         abs(EventCode.absMTPositionX, 100), abs(EventCode.absMTPositionY, 900)]))
        #expect(!palm.newTouch, "a palm landing is no new touch")
        #expect(palm.fingerCount == 1, "the palm is not counted: \(palm.fingerCount) fingers")
        // The palm lifts at 20 ms.
        _ = frame(&tracker, at: 20, [abs(EventCode.absMTTrackingID, -1)])
        return tracker
    }

    @Test("a palm that lands again in its slot, with no tool type event, is still a palm")
    func palmLandsAgainInItsSlot() throws {
        var tracker = try Self.fingerAndPalm()
        // 30 ms: slot 0 gets a new tracking id; the kernel dropped the unchanged MT_TOOL_PALM.
        let again = try #require(Self.frame(&tracker, at: 30, [Self.abs(EventCode.absMTTrackingID, 3),
                                                               Self.abs(EventCode.absMTPositionX, 120),
                                                               Self.abs(EventCode.absMTPositionY, 880)]))
        #expect(!again.newTouch, "the palm's second landing was read as a new touch")
        #expect(again.fingerCount == 1, "the palm's second landing was counted: \(again.fingerCount) fingers")
        // 40 ms: it moves 10 mm; the resting finger's frame has no motion.
        let moved = try #require(Self.frame(&tracker, at: 40, [Self.abs(EventCode.absMTPositionY, 780)]))
        #expect(moved.translation == .zero, "the palm's motion moved the gesture: \(moved.translation)")
    }

    @Test("a finger that lands in the slot a palm left is a finger")
    func fingerLandsInThePalmsSlot() throws {
        var tracker = try Self.fingerAndPalm()
        // 30 ms: slot 0 gets a new tracking id with MT_TOOL_FINGER, a change the kernel passes on.
        let finger = try #require(Self.frame(&tracker, at: 30, [Self.abs(EventCode.absMTTrackingID, 3),
                                                                Self.abs(EventCode.absMTToolType, EventCode.mtToolFinger),
                                                                Self.abs(EventCode.absMTPositionX, 300),
                                                                Self.abs(EventCode.absMTPositionY, 500)]))
        #expect(finger.newTouch, "a finger landing is a new touch")
        #expect(finger.fingerCount == 2, "\(finger.fingerCount) fingers")
    }

    @Test("a reload keeps the slots' state: a palm that lands again after it is still a palm, and fingers down then make no gesture")
    func reloadKeepsTheSlots() throws {
        let engine = Engine(configuration: .defaults)
        var began: [Int] = []
        engine.onReport = { if case .gestureBegan(_, _, let fingers) = $0 { began.append(fingers) } }
        _ = engine.addDevice(1, description: Self.pad)
        func frame(_ milliseconds: Int64, _ events: [InputEvent]) {
            let time = Instant(microseconds: milliseconds * 1000)
            for event in events + [InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0)] {
                _ = engine.handle(event, from: 1, at: time)
            }
        }
        // A palm lands in slot 0 and lifts; flickd reloads its configuration.
        frame(0, [Self.abs(EventCode.absMTSlot, 0), Self.abs(EventCode.absMTTrackingID, 1),
                  Self.abs(EventCode.absMTToolType, EventCode.mtToolPalm),
                  Self.abs(EventCode.absMTPositionX, 100), Self.abs(EventCode.absMTPositionY, 900)])
        frame(10, [Self.abs(EventCode.absMTTrackingID, -1)])
        engine.apply(.defaults, at: Instant(microseconds: 20_000))
        // It lands again in slot 0: a tracking id and positions, no tool type (unchanged).
        frame(30, [Self.abs(EventCode.absMTTrackingID, 2), Self.abs(EventCode.absMTPositionX, 120),
                   Self.abs(EventCode.absMTPositionY, 880)])
        frame(40, [Self.abs(EventCode.absMTPositionY, 780)])
        #expect(began.isEmpty, "the palm began a gesture of \(began) fingers after the reload")
        // A finger lands in slot 1 and a reload comes while both rest: no gesture until they lift.
        frame(50, [Self.abs(EventCode.absMTSlot, 1), Self.abs(EventCode.absMTTrackingID, 3),
                   Self.abs(EventCode.absMTToolType, EventCode.mtToolFinger),
                   Self.abs(EventCode.absMTPositionX, 500), Self.abs(EventCode.absMTPositionY, 500)])
        #expect(began == [1])
        engine.apply(.defaults, at: Instant(microseconds: 60_000))
        // The finger moves: the kernel's current slot is still 1, so no ABS_MT_SLOT comes.
        frame(70, [Self.abs(EventCode.absMTPositionY, 600)])
        frame(80, [Self.abs(EventCode.absMTPositionY, 700)])
        #expect(began == [1], "a gesture began mid-touch after the reload: \(began)")
    }
}
