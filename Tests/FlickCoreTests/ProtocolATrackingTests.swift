import FlickCore
import Testing
import FlickTestSupport

/// Multitouch protocol A lists every contact in every frame, in no fixed order; where the
/// device sends tracking ids, they, not the order, say which contact is which.
@Suite("Protocol A contacts named by tracking id")
struct ProtocolATrackingTests {
    /// One frame: each contact as (tracking id or nil, x, y) in device units, SYN_MT_REPORT
    /// after each, SYN_REPORT at the end.
    static func frame(_ tracker: inout ContactTracker, at milliseconds: Int64,
                      _ contacts: [(id: Int32?, x: Int32, y: Int32)]) -> FrameSummary? {
        let time = Instant(microseconds: milliseconds * 1000)
        var events: [InputEvent] = []
        for contact in contacts {
            if let id = contact.id { events.append(InputEvent(type: EventCode.absolute, code: EventCode.absMTTrackingID, value: id)) }
            events.append(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionX, value: contact.x))
            events.append(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionY, value: contact.y))
            events.append(InputEvent(type: EventCode.synchronization, code: EventCode.synMTReport, value: 0))
        }
        events.append(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0))
        var summary: FrameSummary?
        for event in events { summary = tracker.handle(event, at: time) ?? summary }
        return summary
    }

    @Test func contactsListedInAnotherOrderAreTheSameContacts() throws {
        let description = try Fixtures.device("protocol-a-touch-screen")
        var tracker = ContactTracker(description: description, kind: .touchscreen)
        let step = 100 / tracker.geometry.x.unitsPerMillimetre  // mm of 100 units

        let landed = try #require(Self.frame(&tracker, at: 0, [(5, 1000, 9000), (7, 3000, 9000)]))
        #expect(landed.newTouch && landed.fingerCount == 2)
        let moved = try #require(Self.frame(&tracker, at: 10, [(5, 1100, 9000), (7, 3100, 9000)]))
        #expect(!moved.newTouch)
        #expect(abs(moved.translation.x - step) < 1e-9)

        // The same two contacts, listed the other way round, each moved 100 units on.
        let swapped = try #require(Self.frame(&tracker, at: 20, [(7, 3200, 9000), (5, 1200, 9000)]))
        #expect(!swapped.newTouch, "no finger landed")
        #expect(abs(swapped.translation.x - step) < 1e-9, "translation \(swapped.translation)")
        #expect(swapped.apartMillimetres < 1e-9, "they moved together, not apart: \(swapped.apartMillimetres)")

        // Contact 5 lifts: no touch, and the one left goes on moving.
        let lifted = try #require(Self.frame(&tracker, at: 30, [(7, 3300, 9000)]))
        #expect(!lifted.newTouch && lifted.fingerCount == 1)
        #expect(abs(lifted.translation.x - step) < 1e-9)

        // A new id is a new touch, wherever it is listed.
        let landedAgain = try #require(Self.frame(&tracker, at: 40, [(9, 500, 9000), (7, 3400, 9000)]))
        #expect(landedAgain.newTouch && landedAgain.fingerCount == 2)
        #expect(abs(landedAgain.translation.x - step) < 1e-9, "contact 7's motion, not 9's landing")
    }

    /// Two contacts lift and one lands in the same frame: the count falls, yet a finger landed.
    @Test func aLandingAmidLiftsIsATouch() throws {
        let description = try Fixtures.device("protocol-a-touch-screen")
        var tracker = ContactTracker(description: description, kind: .touchscreen)
        _ = Self.frame(&tracker, at: 0, [(1, 1000, 9000), (2, 3000, 9000), (3, 5000, 9000)])
        _ = Self.frame(&tracker, at: 10, [(1, 1100, 9000), (2, 3100, 9000), (3, 5100, 9000)])
        let frame = try #require(Self.frame(&tracker, at: 20, [(3, 5200, 9000), (4, 8000, 9000)]))
        #expect(frame.newTouch, "contact 4 landed")
        #expect(frame.fingerCount == 2)
        let step = 100 / tracker.geometry.x.unitsPerMillimetre  // mm of 100 units
        #expect(abs(frame.translation.x - step) < 1e-9 && frame.translation.y == 0,
                "contact 3 moved on 100 units, contact 4 only landed: translation \(frame.translation)")
    }
}
