import Testing
import FlickCore
import FlickFingerStories
import FlickTestSupport

/// SYN_DROPPED is handled in one place, the engine's `handle`: the SYN_DROPPED event itself
/// stops the device's coast and abandons its gesture at once, before the resynchronisation's
/// SYN_REPORT arrives (libevdev sends none when nothing changed).
@Suite struct ResynchronizationTests {
    static let dropped = InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0)

    @Test func synDroppedStopsTheDevicesCoastAtOnce() throws {
        // Flick down at 200 mm/s, lift, 50 ms into the coast the kernel drops events.
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(50))
        #expect(pad.engine.isCoasting, "\(pad.transcript)")
        let output = pad.engine.handle(Self.dropped, from: pad.device, at: pad.now)
        #expect(output.isEmpty)
        #expect(!pad.engine.isCoasting, "no SYN_REPORT needed: \(pad.transcript)")
        #expect(pad.coastEndReasons == [.resynchronized])
        #expect(pad.engine.nextDeadline == nil)
    }

    @Test func synDroppedFromAnotherDeviceLeavesTheCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(50))
        pad.engine.addDevice(pad.device + 1, description: pad.description)
        _ = pad.engine.handle(Self.dropped, from: pad.device + 1, at: pad.now)
        #expect(pad.engine.isCoasting, "\(pad.transcript)")
        #expect(pad.coastEndReasons.isEmpty)
    }

    /// A finger lands on another device while its events are lost: libevdev's resynchronising
    /// frame is the one that brings it (no later frame is a new touch), and it stops the coast.
    @Test func aTouchLandingWhileAnotherDevicesEventsWereLostStopsTheCoast() throws {
        for lost in [false, true] {
            let pad = try FingerScript(device: "synaptics-t440")
            pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.lift()
            pad.wait(.milliseconds(50))
            #expect(pad.engine.isCoasting)
            let other = pad.device + 1
            pad.engine.addDevice(other, description: pad.description)
            if lost { _ = pad.engine.handle(Self.dropped, from: other, at: pad.now) }
            for (type, code, value) in DriverGlides.landing {
                _ = pad.engine.handle(InputEvent(type: type, code: code, value: value), from: other, at: pad.now)
            }
            #expect(!pad.engine.isCoasting, "events lost: \(lost)")
            #expect(pad.coastEndReasons == [.touch], "events lost: \(lost)")
        }
    }

    /// SYN_DROPPED mid-scroll; the fingers lift in the next frame (no resynchronising frame
    /// in between): the gesture was abandoned, so the lift is no release, and the engine says
    /// so (a no-coast report, as a protocol A device's abandoned gesture gets at its lift).
    /// Without the SYN_DROPPED (`lost` false) the same scroll coasts.
    @Test(arguments: [true, false])
    func aScrollWhoseEventsWereLostDoesNotCoastEvenWhenItsFingersLiftRightAfter(lost: Bool) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        if lost { _ = pad.engine.handle(Self.dropped, from: pad.device, at: pad.now) }
        pad.lift()
        pad.wait(.seconds(2))
        if lost {
            #expect(pad.coasts.isEmpty && pad.output.isEmpty, "\(pad.transcript)")
            #expect(pad.noCoastReasons == [.abandoned], "the gesture ended as abandoned, said once:\n\(pad.transcript)")
        } else {
            #expect(pad.coasts.count == 1 && pad.noCoastReasons.isEmpty, "the control scroll coasts:\n\(pad.transcript)")
        }
    }

    /// Two fingers scroll; events are lost while they lift and land again (new tracking ids in
    /// both slots, the same places); they scroll on and lift. The reader hands libevdev's delta
    /// on as one frame (`EvdevDevice.drain`: libevdev splits it in two, the ended slots first):
    /// that frame is flagged, and the fingers it brings are ignored until they lift.
    /// (EvdevReadTests runs the same story through the reader, as libevdev answers.)
    @Test func fingersThatLandedAgainWhileEventsWereLostAreIgnoredUntilTheyLift() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 30, y: 10), Vector(x: 50, y: 10))
        pad.move(by: Vector(x: 0, y: 10), over: .milliseconds(50))
        pad.wait(.milliseconds(8))
        let a = EventCode.absolute, slot = EventCode.absMTSlot, id = EventCode.absMTTrackingID
        let delta: [(UInt16, UInt16, Int32)] = [
            (EventCode.synchronization, EventCode.synDropped, 0),
            (a, slot, 0), (a, id, -1), (a, slot, 1), (a, id, -1), (EventCode.key, EventCode.toolDoubleTap, 0),
            (EventCode.key, EventCode.toolDoubleTap, 1), (a, slot, 0), (a, id, 500), (a, slot, 1), (a, id, 501),
            (EventCode.synchronization, EventCode.synReport, 0),
        ]
        for (type, code, value) in delta {
            _ = pad.engine.handle(InputEvent(type: type, code: code, value: value), from: pad.device, at: pad.now)
        }
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(80))
        pad.lift()
        pad.wait(.seconds(3))
        #expect(pad.coasts.isEmpty && pad.output.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons == [.abandoned], "\(pad.transcript)")
    }
}
