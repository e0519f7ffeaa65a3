import CEvdev
import FlickCore
import FlickFingerStories
import FlickTestSupport
import Glibc
import Testing
@testable import FlickLinux

/// `EvdevDevice.readAvailable`'s loop (`EvdevDevice.drain`) over a script of
/// `libevdev_next_event`'s answers: no /dev/input here, and libevdev reads no device it did not
/// open itself, so the script stands in for libevdev.
@Suite("Reading a device through libevdev")
struct EvdevReadTests {
    /// One answer of `libevdev_next_event`: a status and the event it filled in.
    struct Answer {
        var status: Int32
        var event: InputEvent
        var seconds: Int = 0
        var microseconds: Int = 0

        static func normal(_ type: UInt16, _ code: UInt16, _ value: Int32, at microseconds: Int) -> Answer {
            Answer(status: Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue), event: InputEvent(type: type, code: code, value: value),
                   microseconds: microseconds)
        }

        static func sync(_ type: UInt16, _ code: UInt16, _ value: Int32, at microseconds: Int) -> Answer {
            Answer(status: Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue), event: InputEvent(type: type, code: code, value: value),
                   microseconds: microseconds)
        }

        static func fails(_ errno: Int32) -> Answer {
            Answer(status: -errno, event: InputEvent(type: 0, code: 0, value: 0))
        }
    }

    /// What the loop handed on, each reading as text, the flags it asked with, and how it ended.
    struct Drained {
        var readings: [String] = []
        var flags: [UInt32] = []
        var end: EvdevDevice.DrainEnd = .drained
    }

    static func drain(_ script: [Answer]) -> Drained {
        var drained = Drained()
        var answers = script[...]
        drained.end = EvdevDevice.drain(path: "/dev/input/event7", { reading in
            switch reading {
            case .event(let event, let time):
                drained.readings.append("\(event.type) \(event.code) \(event.value) @\(time.microseconds)")
            case .resynchronized(let time):
                drained.readings.append("resynchronized @\(time.microseconds)")
            }
        }, next: { flags, event in
            drained.flags.append(flags)
            // Past the script: nothing more to read.
            guard let answer = answers.popFirst() else { return -EAGAIN }
            event.type = answer.event.type
            event.code = answer.event.code
            event.value = answer.event.value
            event.time.tv_sec = answer.seconds
            event.time.tv_usec = answer.microseconds
            return answer.status
        })
        return drained
    }

    static let syn = EventCode.synchronization
    static let report = EventCode.synReport
    static let dropped = EventCode.synDropped
    static let absolute = EventCode.absolute
    static let key = EventCode.key
    static let normalFlag = LIBEVDEV_READ_FLAG_NORMAL.rawValue
    static let syncFlag = LIBEVDEV_READ_FLAG_SYNC.rawValue

    /// A device that writes as fast as flickd reads (a uinput device flooding) ends a read after
    /// `maximumEventsPerRead` events, so the loop serves its timers and other devices; the
    /// old loop read it for as long as it wrote. A resynchronisation's delta is not cut.
    @Test("a device that never runs dry ends a read after the cap, never within a resynchronisation")
    func aFloodEndsAtTheCap() {
        let cap = EvdevDevice.maximumEventsPerRead
        var handed = 0
        var asked = 0
        let end = EvdevDevice.drain(path: "/dev/input/event7", { _ in handed += 1 }, next: { _, event in
            asked += 1
            // A bound for the old loop, which would read for ever.
            guard asked <= 4 * cap else { return -EAGAIN }
            event.type = Self.absolute
            return Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
        })
        #expect(end == .more)
        #expect(handed == cap && asked == cap)

        // A SYN_DROPPED after cap - 1 events: its delta is read to its end before the read ends.
        var script = Array(repeating: Answer.normal(Self.absolute, EventCode.absMTPositionY, 300, at: 1000), count: cap - 1)
        script.append(.sync(Self.syn, Self.dropped, 0, at: 2000))
        script += Array(repeating: Answer.sync(Self.absolute, EventCode.absMTPositionX, 5, at: 2000), count: 3)
        script.append(.sync(Self.syn, Self.report, 0, at: 2000))
        script.append(.fails(EAGAIN))
        script.append(.normal(Self.absolute, EventCode.absMTPositionY, 400, at: 3000))
        let drained = Self.drain(script)
        #expect(drained.readings.count == cap - 1 + 2 + 4, "the events, the resynchronisation and SYN_DROPPED, the delta with its SYN_REPORT")
        #expect(drained.readings.last == "\(Self.syn) \(Self.report) 0 @2000")
        #expect(drained.flags.filter { $0 == Self.syncFlag }.count == 5, "the delta read to libevdev's EAGAIN")
    }

    @Test("events are handed on in order until there is nothing more to read")
    func ordinaryEvents() {
        let drained = Self.drain([
            .normal(Self.absolute, EventCode.absMTPositionY, 300, at: 1000),
            .normal(Self.syn, Self.report, 0, at: 1000),
            .normal(Self.absolute, EventCode.absMTPositionY, 310, at: 8000),
            .normal(Self.syn, Self.report, 0, at: 8000),
        ])
        #expect(drained.readings == ["3 54 300 @1000", "0 0 0 @1000", "3 54 310 @8000", "0 0 0 @8000"])
        #expect(drained.flags == Array(repeating: Self.normalFlag, count: 5))
        #expect(drained.end == .drained)
    }

    /// Events lost while nothing changed (the fingers up before and after): libevdev's delta is
    /// empty and it queues no SYN_REPORT, so the loop closes the resynchronisation with one of
    /// its own, stamped like the SYN_DROPPED. Without it the engine's trackers would flag the
    /// next real frame, the landing of the next flick, as the one after SYN_DROPPED.
    @Test("an empty resynchronisation ends with a frame of its own")
    func emptyResynchronisationEndsWithAFrame() {
        let drained = Self.drain([
            .sync(Self.syn, Self.dropped, 0, at: 5000),
            .fails(EAGAIN),  // the delta: empty
            .normal(Self.key, EventCode.touch, 1, at: 9000),
            .normal(Self.syn, Self.report, 0, at: 9000),
        ])
        #expect(drained.readings == ["resynchronized @5000", "0 3 0 @5000", "0 0 0 @5000", "1 330 1 @9000", "0 0 0 @9000"])
        #expect(drained.flags == [Self.normalFlag, Self.syncFlag, Self.normalFlag, Self.normalFlag, Self.normalFlag])
        #expect(drained.end == .drained)
    }

    @Test("a delta that ends with libevdev's SYN_REPORT gets no second one")
    func deltaKeepsItsOwnFrame() {
        let drained = Self.drain([
            .sync(Self.syn, Self.dropped, 0, at: 5000),
            .sync(Self.key, EventCode.touch, 0, at: 6000),
            .sync(Self.syn, Self.report, 0, at: 6000),
            .fails(EAGAIN),
        ])
        #expect(drained.readings == ["resynchronized @5000", "0 3 0 @5000", "1 330 0 @6000", "0 0 0 @6000"])
        #expect(drained.flags == [Self.normalFlag, Self.syncFlag, Self.syncFlag, Self.syncFlag, Self.normalFlag])
    }

    /// libevdev's delta when two fingers lifted and landed again while events were lost (its
    /// sync_state: terminate_slots ends the slots whose tracking id changed in a frame of their
    /// own, BTN_TOOL_DOUBLETAP up, then the keys and the restarted slots in a second frame).
    /// The kernel's current slot is 1, the last the delta names: no closing ABS_MT_SLOT.
    static func relandedDelta(at microseconds: Int) -> [Answer] {
        let slot = EventCode.absMTSlot, id = EventCode.absMTTrackingID, doubleTap = EventCode.toolDoubleTap
        return [
            .sync(syn, dropped, 0, at: microseconds),
            .sync(absolute, slot, 0, at: microseconds), .sync(absolute, id, -1, at: microseconds),
            .sync(absolute, slot, 1, at: microseconds), .sync(absolute, id, -1, at: microseconds),
            .sync(key, doubleTap, 0, at: microseconds),
            .sync(syn, report, 0, at: microseconds),
            .sync(key, doubleTap, 1, at: microseconds),
            .sync(absolute, slot, 0, at: microseconds), .sync(absolute, id, 500, at: microseconds),
            .sync(absolute, slot, 1, at: microseconds), .sync(absolute, id, 501, at: microseconds),
            .sync(syn, report, 0, at: microseconds),
            .fails(EAGAIN),
        ]
    }

    /// libevdev splits a delta in two frames when a touch ended or changed tracking id while
    /// events were lost; the engine's trackers flag only the frame after SYN_DROPPED, so the
    /// loop hands the delta on as one frame, its one SYN_REPORT at the end, stamped like
    /// libevdev's last. The old loop handed on both SYN_REPORTs.
    @Test("a delta libevdev splits in two frames is handed on as one")
    func aSplitDeltaIsOneFrame() {
        var script = Self.relandedDelta(at: 5000)
        // libevdev stamps its delta with the time of the last event it read; here the frames
        // differ, to show which stamp the closing SYN_REPORT takes.
        script[6].microseconds = 5100
        script[12].microseconds = 5200
        script.append(.normal(Self.absolute, EventCode.absMTPositionY, 310, at: 9000))
        script.append(.normal(Self.syn, Self.report, 0, at: 9000))
        let drained = Self.drain(script)
        #expect(drained.readings == [
            "resynchronized @5000", "0 3 0 @5000",
            "3 47 0 @5000", "3 57 -1 @5000", "3 47 1 @5000", "3 57 -1 @5000", "1 333 0 @5000",
            "1 333 1 @5000", "3 47 0 @5000", "3 57 500 @5000", "3 47 1 @5000", "3 57 501 @5000",
            "0 0 0 @5200",
            "3 54 310 @9000", "0 0 0 @9000",
        ], "\(drained.readings)")
        #expect(drained.flags.filter { $0 == Self.syncFlag }.count == 13, "the delta read to libevdev's EAGAIN")
        #expect(drained.end == .drained)
    }

    /// Two fingers scroll; events are lost while they lift and land again (new tracking ids, the
    /// same places); they scroll on and lift. The landing was lost, so the gesture is not one to
    /// coast: the loop hands on libevdev's delta as one frame, which the tracker flags, and the
    /// fingers are ignored until they lift. The old loop handed on libevdev's second frame on
    /// its own, unflagged: two fingers landing, whose scroll then coasted. Without the lost
    /// events (`lost` false) the same scroll coasts.
    @Test("a scroll whose fingers lifted and landed again while events were lost does not coast",
          arguments: [true, false])
    func aScrollRelandedWhileEventsWereLostDoesNotCoast(lost: Bool) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 30, y: 10), Vector(x: 50, y: 10))
        pad.move(by: Vector(x: 0, y: 10), over: .milliseconds(50))
        pad.wait(.milliseconds(8))
        if lost {
            for event in Self.events(Self.drain(Self.relandedDelta(at: 0))) {
                _ = pad.engine.handle(event, from: pad.device, at: pad.now)
            }
        }
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(80))
        pad.lift()
        pad.wait(.seconds(3))
        if lost {
            #expect(pad.coasts.isEmpty && pad.output.isEmpty, "\(pad.transcript)")
            #expect(pad.noCoastReasons == [.abandoned], "\(pad.transcript)")
        } else {
            #expect(pad.coasts.count == 1 && pad.noCoastReasons.isEmpty, "the control scroll coasts:\n\(pad.transcript)")
        }
    }

    /// A glide on the virtual touchpad stopped by a hand; events are lost while the hand lifts
    /// and lands again (new tracking ids, the count unchanged: the delta is one frame); the
    /// hand then scrolls. The scroll is seen as the hand's: the resting virtual fingers drop
    /// their settle frames (`VirtualFingers.handScrolls`), as without the loss, rather than
    /// writing them in the middle of the hand's scroll once the hand's hold (1 s) ran out.
    @Test("a hand that landed again while events were lost and scrolls is seen scrolling", arguments: [true, false])
    func aHandRelandedWhileEventsWereLostScrolls(lost: Bool) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        var frames: [(time: Instant, frame: TouchFrame)] = []
        pad.engine.output = .touchpad
        pad.engine.onTouchFrame = { frame, time in frames.append((time, frame)) }
        pad.down(Vector(x: 30, y: 10), Vector(x: 50, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(80))
        pad.lift()
        pad.wait(.milliseconds(150))
        #expect(pad.coasts.count == 1, "\(pad.transcript)")
        pad.down(Vector(x: 30, y: 20), Vector(x: 50, y: 20))
        pad.wait(.milliseconds(100))
        let hand = pad.now
        if lost {
            for event in Self.events(Self.drain(Self.relandedDelta(at: 0))) {
                _ = pad.engine.handle(event, from: pad.device, at: pad.now)
            }
        }
        pad.move(by: Vector(x: 0, y: 30), over: .milliseconds(1500))
        pad.lift()
        pad.wait(.seconds(2))
        let moves = frames.filter { $0.time > hand && $0.frame.action == .move }
        #expect(moves.isEmpty, "no settle frame during the hand's scroll: \(moves.map { ($0.time, $0.frame.first) })")
        #expect(frames.last?.frame.action == .lift)
    }

    /// The events the loop handed on (not the `.resynchronized` notes), in order.
    static func events(_ drained: Drained) -> [InputEvent] {
        drained.readings.compactMap { text in
            let fields = text.split(separator: " ")
            guard let type = UInt16(fields[0]) else { return nil }
            return InputEvent(type: type, code: UInt16(fields[1])!, value: Int32(fields[2])!)
        }
    }

    @Test("a device unplugged during the resynchronisation vanishes; another error fails the read")
    func endsOfARead() {
        let vanished = Self.drain([.sync(Self.syn, Self.dropped, 0, at: 5000), .fails(ENODEV)])
        #expect(vanished.end == .vanished)
        #expect(vanished.readings == ["resynchronized @5000", "0 3 0 @5000"], "no frame made up for a device that is gone")
        let failed = Self.drain([.normal(Self.syn, Self.report, 0, at: 1), .fails(EIO)])
        #expect(failed.end == .failed(SystemError(errno: EIO, call: "libevdev_next_event", path: "/dev/input/event7")))
    }

    /// The engine, given what the loop hands on for events lost with no finger down and nothing
    /// changed, coasts the next flick; given the SYN_DROPPED alone (the delta without its frame),
    /// it abandons that flick at its landing.
    @Test("a flick after events were lost with no finger down coasts", arguments: [true, false])
    func flickAfterAnIdleOverrun(closed: Bool) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.wait(.milliseconds(100))
        // What the loop hands on: the SYN_DROPPED and the frame closing the empty delta.
        let events = Self.drain([.sync(Self.syn, Self.dropped, 0, at: 0)]).readings.dropFirst().map { text in
            let fields = text.split(separator: " ")
            return InputEvent(type: UInt16(fields[0])!, code: UInt16(fields[1])!, value: Int32(fields[2])!)
        }
        #expect(events == [InputEvent(type: Self.syn, code: Self.dropped, value: 0), InputEvent(type: Self.syn, code: Self.report, value: 0)])
        for event in events.prefix(closed ? 2 : 1) {
            _ = pad.engine.handle(event, from: pad.device, at: pad.now)
        }
        pad.wait(.milliseconds(500))
        pad.down(Vector(x: 30, y: 10), Vector(x: 50, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(80))
        pad.lift()
        pad.wait(.seconds(3))
        if closed {
            #expect(pad.coasts.count == 1 && pad.noCoastReasons.isEmpty, "\(pad.transcript)")
        } else {
            #expect(pad.coasts.isEmpty && pad.noCoastReasons == [.abandoned], "\(pad.transcript)")
        }
    }
}
