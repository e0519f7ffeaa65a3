import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// Multitouch protocol A without tracking ids: every frame lists every contact, in no fixed
/// order, and nothing names them. Which contact is which is read from where they are: each is
/// paired with the nearest of the last frame's within the distance a finger can move between
/// two frames; one paired with none landed, one left over lifted.
@Suite("Protocol A contacts matched by position")
struct ProtocolAMatchingTests {
    static let device = "protocol-a-touch-screen"

    static func tracker() throws -> ContactTracker {
        ContactTracker(description: try Fixtures.device(device), kind: .touchscreen)
    }

    /// Device units of a position in millimetres on `geometry`'s axes (origin 0 on the fixture).
    static func units(_ p: Vector, _ geometry: DeviceGeometry) -> (x: Int32, y: Int32) {
        (Int32((p.x * geometry.x.unitsPerMillimetre).rounded()), Int32((p.y * geometry.y.unitsPerMillimetre).rounded()))
    }

    /// The events of one frame: each contact (mm) closed by SYN_MT_REPORT, in the order given (a
    /// lone SYN_MT_REPORT when there are none), BTN_TOUCH when `touch` says, SYN_REPORT.
    static func events(_ contacts: [Vector], touch: Bool? = nil, geometry: DeviceGeometry) -> [InputEvent] {
        var events: [InputEvent] = []
        for contact in contacts {
            let u = units(contact, geometry)
            events.append(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionX, value: u.x))
            events.append(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionY, value: u.y))
            events.append(InputEvent(type: EventCode.synchronization, code: EventCode.synMTReport, value: 0))
        }
        if contacts.isEmpty { events.append(InputEvent(type: EventCode.synchronization, code: EventCode.synMTReport, value: 0)) }
        if let touch { events.append(InputEvent(type: EventCode.key, code: EventCode.touch, value: touch ? 1 : 0)) }
        events.append(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0))
        return events
    }

    /// One frame at `milliseconds`, contacts in mm in the order given.
    static func frame(_ tracker: inout ContactTracker, at milliseconds: Int64, _ contacts: [Vector],
                      touch: Bool? = nil) -> FrameSummary? {
        feed(&tracker, at: milliseconds, events(contacts, touch: touch, geometry: tracker.geometry))
    }

    /// One frame at `microseconds`, contacts in mm in the order given.
    static func frame(_ tracker: inout ContactTracker, atMicroseconds microseconds: Int64, _ contacts: [Vector]) -> FrameSummary? {
        let time = Instant(microseconds: microseconds)
        var summary: FrameSummary?
        for event in events(contacts, geometry: tracker.geometry) { summary = tracker.handle(event, at: time) ?? summary }
        return summary
    }

    static func feed(_ tracker: inout ContactTracker, at milliseconds: Int64, _ events: [InputEvent]) -> FrameSummary? {
        let time = Instant(microseconds: milliseconds * 1000)
        var summary: FrameSummary?
        for event in events { summary = tracker.handle(event, at: time) ?? summary }
        return summary
    }

    /// The frame libevdev makes after SYN_DROPPED for a device without slots: the lost events'
    /// SYN_DROPPED, then only the legacy axes and keys that changed, no SYN_MT_REPORT.
    static func resynchronization(at position: Vector, touch: Bool?, geometry: DeviceGeometry) -> [InputEvent] {
        let u = units(position, geometry)
        var events = [InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0),
                      InputEvent(type: EventCode.absolute, code: EventCode.absX, value: u.x),
                      InputEvent(type: EventCode.absolute, code: EventCode.absY, value: u.y)]
        if let touch { events.append(InputEvent(type: EventCode.key, code: EventCode.touch, value: touch ? 1 : 0)) }
        events.append(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0))
        return events
    }

    static func near(_ a: Vector, _ b: Vector) -> Bool { (a - b).length < 0.02 }

    // MARK: Tracker

    /// Two fingers down; in one frame the first lifts and a finger lands 50 mm beyond the second,
    /// listed where the first was.
    @Test func aFingerLiftingAsAnotherLandsIsATouch() throws {
        var tracker = try Self.tracker()
        _ = Self.frame(&tracker, at: 0, [Vector(x: 40, y: 100), Vector(x: 80, y: 100)])
        _ = Self.frame(&tracker, at: 10, [Vector(x: 40, y: 101), Vector(x: 80, y: 101)])
        let frame = try #require(Self.frame(&tracker, at: 20, [Vector(x: 80, y: 102), Vector(x: 130, y: 100)]))
        #expect(frame.newTouch, "a finger landed at 130 mm")
        #expect(frame.fingerCount == 2)
        #expect(Self.near(frame.translation, Vector(x: 0, y: 1)), "only the finger that stayed moves: \(frame.translation)")
    }

    /// One finger speeding up to 4.5 m/s across the screen, 10 ms frames: past the first frames
    /// its steps are longer than 3000 mm/s × 10 ms + 5 mm, yet it moves as it did: the same
    /// finger, every step its motion, no landing.
    @Test func aFingerFasterThanTheGateStaysTheSameFinger() throws {
        var tracker = try Self.tracker()
        var x = 20.0
        _ = Self.frame(&tracker, at: 0, [Vector(x: x, y: 80)])
        for (index, step) in [10.0, 25.0, 40.0, 45.0, 45.0, 45.0].enumerated() {
            x += step
            let frame = try #require(Self.frame(&tracker, at: Int64(index + 1) * 10, [Vector(x: x, y: 80)]))
            #expect(!frame.newTouch && frame.fingerCount == 1, "step \(index): \(step) mm")
            #expect(Self.near(frame.translation, Vector(x: step, y: 0)), "step \(index): translation \(frame.translation)")
        }
    }

    /// A resting finger whose position jitters by a few mm in a frame that comes a fraction of a
    /// millisecond after the last (noise over no time is no velocity), then stays: the same finger
    /// throughout, never a lift and a landing.
    @Test(arguments: [(1.5, 300), (2.5, 500), (4.0, 1000)] as [(Double, Int64)])
    func noiseOverAShortIntervalIsNoVelocity(jitter: Double, microseconds: Int64) throws {
        var tracker = try Self.tracker()
        _ = Self.frame(&tracker, atMicroseconds: 0, [Vector(x: 100, y: 80)])
        _ = Self.frame(&tracker, atMicroseconds: 10_000, [Vector(x: 100, y: 80)])
        let jittered = try #require(Self.frame(&tracker, atMicroseconds: 10_000 + microseconds, [Vector(x: 100 + jitter, y: 80)]))
        #expect(!jittered.newTouch)
        let after = try #require(Self.frame(&tracker, atMicroseconds: 20_000 + microseconds, [Vector(x: 100 + jitter, y: 80)]))
        #expect(!after.newTouch && after.fingerCount == 1, "\(jitter) mm in \(microseconds) µs, then still")
        #expect(Self.near(after.translation, .zero), "\(after.translation)")
    }

    /// The same jitter, then 10 ms later the finger lifted and another landed where that
    /// jitter, taken as a velocity, would have carried it (35–50 mm on, beyond the gate of
    /// 3000 mm/s × 10 ms + 5 mm from where it was): a landing, not the finger moving there.
    @Test(arguments: [(1.5, 300), (2.5, 500), (4.0, 1000)] as [(Double, Int64)])
    func noiseOverAShortIntervalPredictsNothing(jitter: Double, microseconds: Int64) throws {
        var tracker = try Self.tracker()
        _ = Self.frame(&tracker, atMicroseconds: 0, [Vector(x: 100, y: 80)])
        _ = Self.frame(&tracker, atMicroseconds: 10_000, [Vector(x: 100, y: 80)])
        _ = Self.frame(&tracker, atMicroseconds: 10_000 + microseconds, [Vector(x: 100 + jitter, y: 80)])
        let headed = 100 + jitter + jitter * 10_000 / Double(microseconds)
        let landed = try #require(Self.frame(&tracker, atMicroseconds: 20_000 + microseconds, [Vector(x: headed, y: 80)]))
        #expect(landed.newTouch, "\(jitter) mm in \(microseconds) µs, then a finger at \(headed) mm")
        #expect(Self.near(landed.translation, .zero), "\(landed.translation)")
    }

    /// A flick at 4.5 m/s whose last frame the device repeats 1 ms later, unchanged: the next
    /// 45 mm step is still the same finger moving on.
    @Test func aFrameRepeatedAtOnceKeepsTheVelocity() throws {
        var tracker = try Self.tracker()
        var x = 20.0
        _ = Self.frame(&tracker, atMicroseconds: 0, [Vector(x: x, y: 80)])
        var t: Int64 = 0
        for step in [10.0, 25.0, 40.0, 45.0] {
            t += 10_000
            x += step
            _ = Self.frame(&tracker, atMicroseconds: t, [Vector(x: x, y: 80)])
        }
        let repeated = try #require(Self.frame(&tracker, atMicroseconds: t + 1_000, [Vector(x: x, y: 80)]))
        #expect(!repeated.newTouch)
        let next = try #require(Self.frame(&tracker, atMicroseconds: t + 10_000, [Vector(x: x + 45, y: 80)]))
        #expect(!next.newTouch, "the finger moved on")
        #expect(Self.near(next.translation, Vector(x: 45, y: 0)), "\(next.translation)")
    }

    /// Two fingers rest 30 mm apart; in one frame the first lifts and a finger lands 16 mm from
    /// it (within the gate: read as the first finger moving, as nothing tells them apart). That
    /// reading's velocity must not pair the two crosswise in the next, still, frame: they keep
    /// apart as they are (16 mm → their spread reads 8 mm from where they landed, not more).
    @Test func aLandingReadAsAMoveDoesNotSwapTheFingersAfter() throws {
        var tracker = try Self.tracker()
        _ = Self.frame(&tracker, at: 0, [Vector(x: 50, y: 80), Vector(x: 80, y: 80)])
        _ = Self.frame(&tracker, at: 10, [Vector(x: 50, y: 80), Vector(x: 80, y: 80)])
        let replaced = try #require(Self.frame(&tracker, at: 20, [Vector(x: 66, y: 80), Vector(x: 80, y: 80)]))
        #expect(!replaced.newTouch && replaced.fingerCount == 2)
        let still = try #require(Self.frame(&tracker, at: 30, [Vector(x: 66, y: 80), Vector(x: 80, y: 80)]))
        #expect(Self.near(still.translation, .zero), "nothing moved: \(still.translation)")
        #expect(abs(still.apartMillimetres - 8) < 0.05, "spread since the fingers landed: \(still.apartMillimetres)")
    }

    /// A finger rests, the screen loses events, and a finger is listed 60 mm away a second later:
    /// where the contacts went while events were lost is unknown, so it is a landing, not the
    /// resting finger moving 60 mm; one listed where the finger rested is the same finger.
    @Test func afterLostEventsOnlyAContactStillThereIsTheSameFinger() throws {
        for (distance, landed) in [(60.0, true), (2.0, false)] {
            var tracker = try Self.tracker()
            _ = Self.frame(&tracker, at: 0, [Vector(x: 100, y: 80)])
            _ = Self.frame(&tracker, at: 10, [Vector(x: 100, y: 80)])
            let kept = try #require(Self.feed(&tracker, at: 20, Self.resynchronization(at: Vector(x: 100, y: 80), touch: nil, geometry: tracker.geometry)))
            #expect(kept.resynchronized && kept.fingerCount == 1 && !kept.newTouch)
            let frame = try #require(Self.frame(&tracker, at: 1020, [Vector(x: 100 + distance, y: 80)]))
            #expect(frame.newTouch == landed, "\(distance) mm away")
            #expect(Self.near(frame.translation, landed ? .zero : Vector(x: distance, y: 0)), "\(distance) mm: \(frame.translation)")
        }
        // SYN_DROPPED straight before a frame that lists the contacts: the same.
        var tracker = try Self.tracker()
        _ = Self.frame(&tracker, at: 0, [Vector(x: 100, y: 80)])
        _ = Self.frame(&tracker, at: 10, [Vector(x: 100, y: 80)])
        let dropped = [InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0)]
            + Self.events([Vector(x: 130, y: 80)], geometry: tracker.geometry)
        let frame = try #require(Self.feed(&tracker, at: 20, dropped))
        #expect(frame.newTouch && frame.resynchronized, "30 mm away after lost events: a landing")
    }

    /// Three fingers down; in one frame two lift and one lands: the count falls, yet a finger landed.
    @Test func aLandingAmidTwoLiftsIsATouch() throws {
        var tracker = try Self.tracker()
        _ = Self.frame(&tracker, at: 0, [Vector(x: 40, y: 100), Vector(x: 80, y: 100), Vector(x: 120, y: 100)])
        _ = Self.frame(&tracker, at: 10, [Vector(x: 40, y: 101), Vector(x: 80, y: 101), Vector(x: 120, y: 101)])
        let frame = try #require(Self.frame(&tracker, at: 20, [Vector(x: 120, y: 102), Vector(x: 200, y: 60)]))
        #expect(frame.newTouch, "a finger landed at (200, 60) mm")
        #expect(frame.fingerCount == 2)
        #expect(Self.near(frame.translation, Vector(x: 0, y: 1)), "translation \(frame.translation)")
    }

    /// Three fingers drag down 1 mm a frame and lift one by one, the first listed first: the ones
    /// left are the same fingers, still moving; no finger landed.
    @Test func aStaggeredLiftKeepsTheFingersThatStayMoving() throws {
        var tracker = try Self.tracker()
        let xs = [40.0, 80.0, 120.0]
        _ = Self.frame(&tracker, at: 0, xs.map { Vector(x: $0, y: 100) })
        _ = Self.frame(&tracker, at: 10, xs.map { Vector(x: $0, y: 101) })
        let oneLifted = try #require(Self.frame(&tracker, at: 20, xs.dropFirst().map { Vector(x: $0, y: 102) }))
        #expect(!oneLifted.newTouch && oneLifted.fingerCount == 2)
        #expect(Self.near(oneLifted.translation, Vector(x: 0, y: 1)), "translation \(oneLifted.translation)")
        let twoLifted = try #require(Self.frame(&tracker, at: 30, [Vector(x: 120, y: 103)]))
        #expect(!twoLifted.newTouch && twoLifted.fingerCount == 1)
        #expect(Self.near(twoLifted.translation, Vector(x: 0, y: 1)), "translation \(twoLifted.translation)")
        let last = try #require(Self.frame(&tracker, at: 40, []))
        #expect(!last.newTouch && last.fingerCount == 0)
    }

    /// Three fingers drag down 1 mm a frame (10 ms: 100 mm/s); the device lists them in a
    /// different order every frame.
    @Test func contactsListedInAnotherOrderEachFrameAreTheSameContacts() throws {
        var tracker = try Self.tracker()
        let xs = [40.0, 60.0, 80.0]
        let orders = [[0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0], [0, 2, 1], [1, 0, 2]]
        _ = Self.frame(&tracker, at: 0, xs.map { Vector(x: $0, y: 100) })
        for (n, order) in orders.enumerated() {
            let y = 101 + Double(n)
            let frame = try #require(Self.frame(&tracker, at: 10 * Int64(n + 1), order.map { Vector(x: xs[$0], y: y) }))
            #expect(!frame.newTouch && frame.fingerCount == 3, "frame \(n + 1), order \(order)")
            #expect(Self.near(frame.translation, Vector(x: 0, y: 1)), "frame \(n + 1): translation \(frame.translation)")
            #expect(abs(frame.togetherMillimetres - (y - 100)) < 0.02, "frame \(n + 1): together \(frame.togetherMillimetres)")
            #expect(frame.apartMillimetres < 0.02, "frame \(n + 1): they moved together, not apart: \(frame.apartMillimetres)")
        }
    }

    /// Two fingers 10 mm apart move right 6 mm a frame (600 mm/s), listed the other way round
    /// every other frame. Each finger's new place is nearer the other finger's old one (4 mm)
    /// than its own (6 mm): pairing the nearest first would swap them; the least total distance
    /// keeps them.
    @Test func fingersCloseTogetherMovingFastKeepTheirPlaces() throws {
        var tracker = try Self.tracker()
        _ = Self.frame(&tracker, at: 0, [Vector(x: 40, y: 100), Vector(x: 50, y: 100)])
        for n in 1...6 {
            let x = 40 + 6 * Double(n)
            let fingers = [Vector(x: x, y: 100), Vector(x: x + 10, y: 100)]
            let frame = try #require(Self.frame(&tracker, at: 10 * Int64(n), n % 2 == 1 ? fingers.reversed() : fingers))
            #expect(!frame.newTouch && frame.fingerCount == 2, "frame \(n)")
            #expect(Self.near(frame.translation, Vector(x: 6, y: 0)), "frame \(n): translation \(frame.translation)")
            #expect(frame.apartMillimetres < 0.02, "frame \(n): they moved together, not apart: \(frame.apartMillimetres)")
        }
    }

    /// The assignment is the cheapest of all, checked against every permutation of random
    /// matrices up to 6 × 6.
    @Test func theMatcherFindsTheCheapestAssignment() {
        var random = SplitMix64(seed: 0x5EED_A551)
        var matcher = ContactMatcher(capacity: ContactTracker.unslottedCapacity)
        for size in 1...6 {
            for _ in 0..<50 {
                var costs: [[Double]] = []
                for row in 0..<size {
                    costs.append((0..<size).map { _ in Double(Int.random(in: 0...20, using: &random)) })
                    for column in 0..<size { matcher.setCost(costs[row][column], row: row, column: column) }
                }
                let solved = matcher.solve(size: size)
                #expect(solved)
                let columns = (0..<size).map { matcher.columnOfRow[$0] }
                #expect(Set(columns).count == size, "each row its own column: \(columns)")
                let total = (0..<size).reduce(0.0) { $0 + costs[$1][columns[$1]] }
                #expect(total == Self.cheapest(costs), "\(costs): \(columns) costs \(total)")
            }
        }
    }

    /// The least total cost over every assignment of rows to columns.
    static func cheapest(_ costs: [[Double]], row: Int = 0, used: Set<Int> = []) -> Double {
        guard row < costs.count else { return 0 }
        var best = Double.infinity
        for column in costs.indices where !used.contains(column) {
            best = min(best, costs[row][column] + cheapest(costs, row: row + 1, used: used.union([column])))
        }
        return best
    }

    /// Two fingers drag down; the kernel drops events; libevdev's resynchronisation says nothing of
    /// a protocol A device's contacts (no SYN_MT_REPORT): they are still down, not lifted, and the
    /// next frame is no touch. Only BTN_TOUCH up in the resynchronisation says they lifted.
    @Test func aResynchronisationWithoutContactsKeepsThem() throws {
        var tracker = try Self.tracker()
        let geometry = tracker.geometry
        _ = Self.frame(&tracker, at: 0, [Vector(x: 40, y: 100), Vector(x: 80, y: 100)], touch: true)
        _ = Self.frame(&tracker, at: 10, [Vector(x: 40, y: 101), Vector(x: 80, y: 101)])
        // Events of two frames lost (the fingers moved on to y = 103); the legacy axes follow the first.
        let resynchronized = try #require(Self.feed(&tracker, at: 30, Self.resynchronization(at: Vector(x: 40, y: 103), touch: nil, geometry: geometry)))
        #expect(resynchronized.resynchronized)
        #expect(resynchronized.fingerCount == 2, "no contact was said to lift")
        #expect(!resynchronized.newTouch)
        let next = try #require(Self.frame(&tracker, at: 40, [Vector(x: 40, y: 104), Vector(x: 80, y: 104)]))
        #expect(!next.resynchronized)
        #expect(!next.newTouch, "the same fingers, still dragging")
        #expect(next.fingerCount == 2)
        #expect(Self.near(next.translation, Vector(x: 0, y: 3)), "motion since the last frame that listed them: \(next.translation)")

        // Events lost again, and with them the fingers' lift: BTN_TOUCH comes back up.
        let lifted = try #require(Self.feed(&tracker, at: 60, Self.resynchronization(at: Vector(x: 40, y: 104), touch: false, geometry: geometry)))
        #expect(lifted.resynchronized && lifted.fingerCount == 0)
        let landed = try #require(Self.frame(&tracker, at: 500, [Vector(x: 40, y: 104)], touch: true))
        #expect(landed.newTouch && landed.fingerCount == 1)
    }

    // MARK: Engine

    static func screen(fingers: Int = 1) throws -> FingerScript {
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        configuration.touchscreen.fingers = fingers
        return try FingerScript(device: device, configuration: configuration)
    }

    /// Sends one protocol A frame (contacts in mm, in the order given) to `screen`'s engine at
    /// `time`, after running the engine's ticks up to then.
    static func send(_ screen: FingerScript, at time: Instant, _ contacts: [Vector], touch: Bool? = nil) {
        screen.advance(to: time)
        for event in events(contacts, touch: touch, geometry: screen.geometry) {
            _ = screen.engine.handle(event, from: screen.device, at: time)
        }
    }

    /// A finger rests 200 ms; in one frame it lifts and a finger lands 40 mm away, which lifts
    /// 20 ms later: a touch and a tap, not a 40 mm flick in 10 ms.
    @Test func aFingerReplacedInOneFrameIsNoFlick() throws {
        let screen = try Self.screen()
        var t = screen.now
        Self.send(screen, at: t, [Vector(x: 100, y: 120)], touch: true)
        for _ in 0..<20 {
            t = t + .milliseconds(10)
            Self.send(screen, at: t, [Vector(x: 100, y: 120)])
        }
        t = t + .milliseconds(10)
        Self.send(screen, at: t, [Vector(x: 100, y: 80)])
        t = t + .milliseconds(10)
        Self.send(screen, at: t, [Vector(x: 100, y: 80)])
        t = t + .milliseconds(10)
        Self.send(screen, at: t, [], touch: false)
        screen.wait(.seconds(6))
        #expect(screen.coasts.isEmpty, "\(screen.transcript)")
        #expect(screen.noCoastReasons == [.noMotion], "\(screen.transcript)")
    }

    /// A one-finger drag up on a protocol A screen loses events halfway: the drag goes on for
    /// 100 ms after the resynchronisation and lifts. The gesture was abandoned; what follows the
    /// resynchronisation is the same finger, not a new drag that could coast. Without the loss
    /// (`lost` false: the same frames, no resynchronisation) the drag coasts.
    @Test(arguments: [true, false])
    func aDragWhoseEventsWereLostDoesNotCoastOnWhatFollows(lost: Bool) throws {
        let screen = try Self.screen()
        var t = screen.now
        var y = 150.0
        Self.send(screen, at: t, [Vector(x: 100, y: y)], touch: true)
        for _ in 0..<10 {
            t = t + .milliseconds(10)
            y -= 4
            Self.send(screen, at: t, [Vector(x: 100, y: y)])
        }
        t = t + .milliseconds(20)
        y -= 8
        if lost {
            screen.advance(to: t)
            for event in Self.resynchronization(at: Vector(x: 100, y: y), touch: nil, geometry: screen.geometry) {
                _ = screen.engine.handle(event, from: screen.device, at: t)
            }
        } else {
            Self.send(screen, at: t, [Vector(x: 100, y: y)])
        }
        for _ in 0..<10 {
            t = t + .milliseconds(10)
            y -= 4
            Self.send(screen, at: t, [Vector(x: 100, y: y)])
        }
        t = t + .milliseconds(10)
        Self.send(screen, at: t, [], touch: false)
        screen.wait(.seconds(6))
        if lost {
            #expect(screen.coasts.isEmpty, "\(screen.transcript)")
            #expect(screen.noCoastReasons == [.abandoned], "\(screen.transcript)")
        } else {
            #expect(screen.coasts.count == 1 && screen.noCoastReasons.isEmpty, "the control drag coasts:\n\(screen.transcript)")
        }
    }

    /// A one-finger flick across the screen speeding up to 4.5 m/s (10 ms frames) coasts, at the
    /// speed the finger left at.
    @Test func aFlickFasterThanTheGateCoasts() throws {
        let screen = try Self.screen()
        screen.frameInterval = .milliseconds(10)
        var t = screen.now
        var x = 20.0
        Self.send(screen, at: t, [Vector(x: x, y: 80)], touch: true)
        for step in [10.0, 25.0, 40.0, 45.0, 45.0, 45.0] {
            t = t + .milliseconds(10)
            x += step
            Self.send(screen, at: t, [Vector(x: x, y: 80)])
        }
        t = t + .milliseconds(10)
        Self.send(screen, at: t, [], touch: false)
        screen.wait(.seconds(6))
        try #require(screen.coasts.count == 1, "\(screen.transcript)")
        let velocity = screen.coasts[0].releaseVelocity
        #expect(velocity.x > 3000 && abs(velocity.y) < 1e-6, "release velocity \(velocity)")
    }

    /// Two fingers 30 mm apart flick up (touchscreen.fingers = 2), slowly and fast, listed in the
    /// same order every frame and in alternating order: each flick coasts, content following the
    /// fingers up.
    @Test(arguments: [false, true], [40.0, 120.0])
    func aTwoFingerFlickCoasts(alternating: Bool, millimetres: Double) throws {
        let screen = try Self.screen(fingers: 2)
        screen.frameInterval = .milliseconds(8)
        var t = screen.now
        var y = 150.0
        Self.send(screen, at: t, [Vector(x: 100, y: y), Vector(x: 130, y: y)], touch: true)
        let steps = 10
        for step in 0..<steps {
            t = t + .milliseconds(8)
            y -= millimetres / Double(steps)
            let fingers = [Vector(x: 100, y: y), Vector(x: 130, y: y)]
            Self.send(screen, at: t, alternating && step % 2 == 0 ? fingers.reversed() : fingers)
        }
        t = t + .milliseconds(8)
        Self.send(screen, at: t, [], touch: false)
        screen.wait(.seconds(6))
        let label = "alternating: \(alternating), \(millimetres) mm in 80 ms"
        try #require(screen.coasts.count == 1, "\(label)\n\(screen.transcript)")
        let velocity = screen.coasts[0].releaseVelocity
        #expect(velocity.y < 0 && abs(velocity.x) < 1e-6, "\(label): release velocity \(velocity)")
        #expect(abs(velocity.y + millimetres / 0.08) < 0.1 * millimetres / 0.08, "\(label): release velocity \(velocity)")
    }
}
