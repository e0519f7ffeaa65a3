import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// Which contacts are fingers, as the kernel reports them on protocol B pads.
///
/// The kernel's pointer emulation (`input_mt_report_pointer_emulation`) counts every slot with a
/// tracking id in BTN_TOUCH and BTN_TOOL_*: palms (`ABS_MT_TOOL_TYPE` = `MT_TOOL_PALM`) and
/// hovering contacts (`ABS_MT_DISTANCE` > 0, atmel_mxt_ts) included. As in libinput, the tool
/// keys only add fingers beyond what the slots can hold (a Synaptics PS/2 pad's two slots and
/// BTN_TOOL_TRIPLETAP); otherwise the slots say how many fingers touch.
@Suite struct KernelFingerCountTests {
    /// Raw events into an engine, in virtual time (starts at 1 s).
    final class Events {
        let engine = Engine(configuration: .defaults)
        let device: DeviceID = 3
        var now = Instant(microseconds: 1_000_000)
        var reports: [(time: Instant, report: EngineReport)] = []

        init(_ description: DeviceDescription) {
            engine.onReport = { [unowned self] in self.reports.append((self.now, $0)) }
            engine.addDevice(device, description: description)
        }

        func abs(_ code: UInt16, _ value: Int32) { send(EventCode.absolute, code, value) }
        func key(_ code: UInt16, _ value: Int32) { send(EventCode.key, code, value) }
        func syn() { send(EventCode.synchronization, EventCode.synReport, 0) }
        func send(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            _ = engine.handle(InputEvent(type: type, code: code, value: value), from: device, at: now)
        }
        func wait(_ milliseconds: Int64) {
            let time = now + .milliseconds(milliseconds)
            now = max(engine.advance(to: time, notBefore: now) { _ in }, time)
        }
        /// Slot `slot` gets tracking id `id` at (`x`, `y`) device units.
        func land(slot: Int32, id: Int32, x: Int32, y: Int32) {
            abs(EventCode.absMTSlot, slot); abs(EventCode.absMTTrackingID, id)
            abs(EventCode.absMTPositionX, x); abs(EventCode.absMTPositionY, y)
        }
        func lift(slot: Int32) { abs(EventCode.absMTSlot, slot); abs(EventCode.absMTTrackingID, -1) }
        /// Slots 0 and 1 move down 2 mm every 8 ms for 12 frames (250 mm/s), from `y` mm.
        func flickDown(from y: Double, unitsPerMillimetre r: Double) {
            var y = y
            for _ in 0..<12 {
                wait(8)
                y += 2
                abs(EventCode.absMTSlot, 0); abs(EventCode.absMTPositionY, Int32(y * r))
                abs(EventCode.absMTSlot, 1); abs(EventCode.absMTPositionY, Int32(y * r))
                syn()
            }
            wait(8)
        }

        var coastStarts: [Instant] {
            reports.compactMap { if case .coastStarted = $0.report { return $0.time } else { return nil } }
        }
        var began: [Int] {
            reports.compactMap { if case .gestureBegan(_, _, let n) = $0.report { return n } else { return nil } }
        }
        var coastEnds: [StopReason] {
            reports.compactMap { if case .coastEnded(_, let reason, _) = $0.report { return reason } else { return nil } }
        }
        var transcript: String { reports.map { "\($0.time): \($0.report)" }.joined(separator: "\n") }
    }

    // synaptics-rmi4: five slots, 20 units/mm, ABS_MT_TOOL_TYPE.
    static let r = 20.0

    /// A palm rests in slot 2 (BTN_TOOL_FINGER), as the kernel reports it.
    static func palmRests(_ pad: Events) {
        pad.land(slot: 2, id: 9, x: Int32(80 * r), y: Int32(45 * r))
        pad.abs(EventCode.absMTToolType, EventCode.mtToolPalm)
        pad.key(EventCode.touch, 1); pad.key(EventCode.toolFinger, 1); pad.syn()
    }

    @Test func twoFingersFlickBesideARestingPalmCoast() throws {
        // palm rests → 300 ms → two fingers land at (30, 10) and (50, 10) mm (BTN_TOOL_TRIPLETAP:
        // the palm's slot counts) → 250 mm/s down for 96 ms → both lift (BTN_TOOL_FINGER: the
        // palm stays) → a coast.
        let pad = Events(try Fixtures.device("synaptics-rmi4"))
        Self.palmRests(pad)
        pad.wait(300)
        #expect(pad.began.isEmpty, "the palm alone began a gesture:\n\(pad.transcript)")
        pad.land(slot: 0, id: 1, x: Int32(30 * Self.r), y: Int32(10 * Self.r))
        pad.land(slot: 1, id: 2, x: Int32(50 * Self.r), y: Int32(10 * Self.r))
        pad.key(EventCode.toolFinger, 0); pad.key(EventCode.toolTripleTap, 1); pad.syn()
        pad.flickDown(from: 10, unitsPerMillimetre: Self.r)
        let release = pad.now
        pad.lift(slot: 0); pad.lift(slot: 1)
        pad.key(EventCode.toolTripleTap, 0); pad.key(EventCode.toolFinger, 1); pad.syn()
        pad.wait(3000)
        #expect(pad.began == [2], "\(pad.transcript)")
        #expect(pad.coastStarts == [release], "\(pad.transcript)")
    }

    @Test func aPalmLandingStopsNoCoast() throws {
        // Two fingers flick and lift → 50 ms into the coast a palm lands (BTN_TOUCH,
        // BTN_TOOL_FINGER) → the coast runs on.
        let pad = Events(try Fixtures.device("synaptics-rmi4"))
        pad.land(slot: 0, id: 1, x: Int32(30 * Self.r), y: Int32(10 * Self.r))
        pad.land(slot: 1, id: 2, x: Int32(50 * Self.r), y: Int32(10 * Self.r))
        pad.key(EventCode.touch, 1); pad.key(EventCode.toolDoubleTap, 1); pad.syn()
        pad.flickDown(from: 10, unitsPerMillimetre: Self.r)
        pad.lift(slot: 0); pad.lift(slot: 1)
        pad.key(EventCode.touch, 0); pad.key(EventCode.toolDoubleTap, 0); pad.syn()
        pad.wait(50)
        #expect(pad.engine.isCoasting, "\(pad.transcript)")
        Self.palmRests(pad)
        pad.wait(8)
        #expect(pad.engine.isCoasting, "the palm stopped the coast:\n\(pad.transcript)")
        #expect(pad.coastEnds.isEmpty, "\(pad.transcript)")
    }

    @Test func threeFingersOnTwoSlotsAreThreeFingers() throws {
        // synaptics-t440 has two slots: the third finger is known only from BTN_TOOL_TRIPLETAP.
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10), Vector(x: 60, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty && pad.noCoastReasons == [.tooManyFingers(3)], "\(pad.transcript)")
    }

    // atmel-hover: ten slots, 10 units/mm, ABS_MT_DISTANCE 0 (touching) or 1 (hovering); the
    // slot, its tracking id, BTN_TOUCH and the BTN_TOOL_* count stay while a finger hovers.

    @Test func fingersRisingToHoverAreALift() throws {
        // Two fingers land at (30, 10) and (50, 10) mm → 250 mm/s down for 96 ms → both rise to
        // hover (distance 1) → 60 ms → out of range. The coast starts at the hover frame.
        let pad = Events(try Fixtures.device("atmel-hover"))
        pad.land(slot: 0, id: 1, x: 300, y: 100); pad.abs(EventCode.absMTDistance, 0)
        pad.land(slot: 1, id: 2, x: 500, y: 100); pad.abs(EventCode.absMTDistance, 0)
        pad.key(EventCode.touch, 1); pad.key(EventCode.toolDoubleTap, 1); pad.syn()
        pad.flickDown(from: 10, unitsPerMillimetre: 10)
        let hover = pad.now
        pad.abs(EventCode.absMTSlot, 0); pad.abs(EventCode.absMTDistance, 1)
        pad.abs(EventCode.absMTSlot, 1); pad.abs(EventCode.absMTDistance, 1); pad.syn()
        pad.wait(60)
        pad.lift(slot: 0); pad.lift(slot: 1)
        pad.key(EventCode.touch, 0); pad.key(EventCode.toolDoubleTap, 0); pad.syn()
        pad.wait(3000)
        #expect(pad.coastStarts == [hover], "\(pad.transcript)")
    }

    @Test func aHoveringFingerStopsNoCoastUntilItTouches() throws {
        // A flick coasts → a finger comes into range above the pad (distance 1): the coast runs
        // on → it touches (distance 0): the coast stops, as a touch.
        let pad = Events(try Fixtures.device("atmel-hover"))
        pad.land(slot: 0, id: 1, x: 300, y: 100); pad.abs(EventCode.absMTDistance, 0)
        pad.land(slot: 1, id: 2, x: 500, y: 100); pad.abs(EventCode.absMTDistance, 0)
        pad.key(EventCode.touch, 1); pad.key(EventCode.toolDoubleTap, 1); pad.syn()
        pad.flickDown(from: 10, unitsPerMillimetre: 10)
        pad.lift(slot: 0); pad.lift(slot: 1)
        pad.key(EventCode.touch, 0); pad.key(EventCode.toolDoubleTap, 0); pad.syn()
        pad.wait(50)
        pad.land(slot: 0, id: 3, x: 400, y: 300); pad.abs(EventCode.absMTDistance, 1)
        pad.key(EventCode.touch, 1); pad.key(EventCode.toolFinger, 1); pad.syn()
        pad.wait(8)
        #expect(pad.engine.isCoasting && pad.began == [2], "the hovering finger touched:\n\(pad.transcript)")
        pad.abs(EventCode.absMTDistance, 0); pad.syn()
        #expect(!pad.engine.isCoasting && pad.coastEnds == [.touch], "\(pad.transcript)")
        #expect(pad.began == [2, 1], "\(pad.transcript)")
    }
}
