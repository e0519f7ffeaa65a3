import CEvdev
import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// The virtual touchpad without /dev/uinput: what it declares and how frames are encoded.
@Suite("Virtual touchpad")
struct VirtualTouchpadTests {
    @Test("the template is a two-slot protocol-B touchpad with a resolution, which flickd never reads")
    func template() {
        let template = VirtualTouchpad.makeTemplate()
        defer { libevdev_free(template) }
        let description = EvdevDevice.describe(template)
        #expect(description.name == "flickd virtual touchpad")
        #expect(description.bustype == 0x06)
        #expect(description.kind == .touchpad, "what udev and libinput will call it")
        #expect(description.slotCount == 2)
        #expect(description.properties.contains(EventCode.propPointer))
        #expect(!description.properties.contains(EventCode.propDirect))
        for key in [EventCode.touch, EventCode.toolFinger, EventCode.toolDoubleTap, EventCode.toolTripleTap, EventCode.buttonLeft] {
            #expect(description.keys.contains(key), "EV_KEY \(key)")
        }
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            let axis = description.absoluteAxes[code]
            #expect(axis?.resolution == 100 && axis?.maximum == 100_000, "ABS \(code): \(String(describing: axis))")
        }
        #expect(description.absoluteAxes[EventCode.absMTTrackingID] != nil)
        #expect(Daemon.isVirtualDeviceName(description.name), "the daemon skips it as input")
        #expect(Daemon.isVirtualDeviceName(VirtualWheel.name))
        #expect(!Daemon.isVirtualDeviceName("SynPS/2 Synaptics TouchPad"))
    }

    func encode(_ frames: [TouchFrame]) -> [[InputEvent]] {
        var encoder = VirtualTouchpad.Encoder()
        let buffer = UnsafeMutablePointer<input_event>.allocate(capacity: VirtualTouchpad.maximumWriteLength)
        defer { buffer.deallocate() }
        return frames.map { frame in
            let count = encoder.encode(frame, into: buffer)
            return (0..<count).map { InputEvent(type: buffer[$0].type, code: buffer[$0].code, value: buffer[$0].value) }
        }
    }

    @Test("a frame the kernel did not take changes nothing of what the device is known to hold")
    func aFailedWriteKeepsTheState() throws {
        let touchpad = try VirtualTouchpad(discarding: ())
        let a = Vector(x: 491, y: 400), b = Vector(x: 509, y: 400)
        try touchpad.write(TouchFrame(action: .land, first: a, second: b))
        #expect(touchpad.state.down)
        touchpad.close()  // every write fails from here on
        #expect(throws: SystemError.self) { try touchpad.write(TouchFrame(action: .lift, first: a, second: b)) }
        #expect(touchpad.state.down, "the lift was not written: the fingers are still down")
        #expect(touchpad.state.nextTrackingID == 3)

        // The next landing over fingers still down lifts them in a frame of its own before the
        // slots get new tracking ids: libevdev would discard an id changing from 1 to 3 and
        // keep the old touches down.
        var encoder = touchpad.state
        let buffer = UnsafeMutablePointer<input_event>.allocate(capacity: VirtualTouchpad.maximumWriteLength)
        defer { buffer.deallocate() }
        let count = encoder.encode(TouchFrame(action: .land, first: a, second: b), into: buffer)
        let events = (0..<count).map { InputEvent(type: buffer[$0].type, code: buffer[$0].code, value: buffer[$0].value) }
        let ids = events.filter { $0.code == EventCode.absMTTrackingID && $0.type == EventCode.absolute }.map(\.value)
        #expect(ids == [-1, -1, 3, 4], "every slot ends before it begins again")
        let abs = EventCode.absolute, key = EventCode.key, syn = InputEvent(type: 0, code: 0, value: 0)
        func e(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: type, code: code, value: value) }
        #expect(events == [
            e(abs, EventCode.absMTSlot, 0), e(abs, EventCode.absMTTrackingID, -1),
            e(abs, EventCode.absMTSlot, 1), e(abs, EventCode.absMTTrackingID, -1),
            e(key, EventCode.touch, 0), e(key, EventCode.toolDoubleTap, 0), syn,
            e(abs, EventCode.absMTSlot, 0), e(abs, EventCode.absMTTrackingID, 3),
            e(abs, EventCode.absMTPositionX, 49100), e(abs, EventCode.absMTPositionY, 40000),
            e(abs, EventCode.absMTSlot, 1), e(abs, EventCode.absMTTrackingID, 4),
            e(abs, EventCode.absMTPositionX, 50900), e(abs, EventCode.absMTPositionY, 40000),
            e(key, EventCode.touch, 1), e(key, EventCode.toolDoubleTap, 1),
            e(abs, EventCode.absX, 49100), e(abs, EventCode.absY, 40000), syn,
        ], "a lift frame, then the landing frame, in one write")
        #expect(count == VirtualTouchpad.maximumWriteLength, "the longest write there is")
        #expect(encoder.down && encoder.nextTrackingID == 5)
    }

    @Test("after a failed lift and a failed landing, the glide's motion is not written to the old touches; the next lift or landing ends them")
    func noMotionForALandingNotTaken() throws {
        var encoder = VirtualTouchpad.Encoder()
        let buffer = UnsafeMutablePointer<input_event>.allocate(capacity: VirtualTouchpad.maximumWriteLength)
        defer { buffer.deallocate() }
        var failing = false
        var written: [[InputEvent]] = []
        // Writes `frame` as `VirtualTouchpad.writeEvents(of:)` does, to a kernel that takes it
        // unless `failing`; the count of events written.
        func write(_ frame: TouchFrame) throws(SystemError) -> Int {
            try encoder.write(frame, into: buffer) { count throws(SystemError) in
                if failing { throw SystemError(errno: EIO, call: "write", path: "/dev/uinput") }
                if count > 0 { written.append((0..<count).map { InputEvent(type: buffer[$0].type, code: buffer[$0].code, value: buffer[$0].value) }) }
            }
        }
        let a = Vector(x: 491, y: 400), b = Vector(x: 509, y: 400)
        let down = Vector(x: 0, y: 30)
        // A glide lands and moves 30 mm down; its lift fails, and so does the next landing, 100 mm up.
        #expect(try write(TouchFrame(action: .land, first: a, second: b)) == VirtualTouchpad.landingFrameLength)
        #expect(try write(TouchFrame(action: .move, first: a + down, second: b + down)) > 0)
        failing = true
        #expect(throws: SystemError.self) { _ = try write(TouchFrame(action: .lift, first: a + down, second: b + down)) }
        let up = Vector(x: 0, y: -100)
        #expect(throws: SystemError.self) { _ = try write(TouchFrame(action: .land, first: a + up, second: b + up)) }
        #expect(encoder.down, "the kernel still holds the first glide's touches")
        // The kernel takes writes again: the new glide's motion has no touches of its own there.
        failing = false
        written = []
        let step = Vector(x: 0, y: -1.8)
        #expect(try write(TouchFrame(action: .move, first: a + up + step, second: b + up + step)) == 0)
        #expect(try write(TouchFrame(action: .move, first: a + up + step * 2, second: b + up + step * 2)) == 0)
        #expect(written.isEmpty, "no jump of the old touches 130 mm up: \(written)")
        // Its lift ends the old touches.
        #expect(try write(TouchFrame(action: .lift, first: a + up + step * 2, second: b + up + step * 2))
                == VirtualTouchpad.liftFrameLength)
        #expect(!encoder.down)
        // A landing after a failed one over fingers still down lifts them first, and its glide moves.
        encoder = VirtualTouchpad.Encoder()
        _ = try write(TouchFrame(action: .land, first: a, second: b))
        failing = true
        #expect(throws: SystemError.self) { _ = try write(TouchFrame(action: .land, first: a + up, second: b + up)) }
        failing = false
        #expect(try write(TouchFrame(action: .move, first: a + up + step, second: b + up + step)) == 0)
        #expect(try write(TouchFrame(action: .land, first: a + up, second: b + up)) == VirtualTouchpad.maximumWriteLength)
        #expect(try write(TouchFrame(action: .move, first: a + up + step, second: b + up + step)) > 0, "the landed glide moves")
    }

    @Test("the touchpad says how many events a frame wrote: none for a motion that changes no unit")
    func writeCountsEvents() throws {
        let touchpad = try VirtualTouchpad(discarding: ())
        defer { touchpad.close() }
        let a = Vector(x: 491, y: 400), b = Vector(x: 509, y: 400), step = Vector(x: 0, y: 1.2)
        #expect(try touchpad.writeEvents(of: TouchFrame(action: .land, first: a, second: b)) == VirtualTouchpad.landingFrameLength)
        #expect(try touchpad.writeEvents(of: TouchFrame(action: .move, first: a + step, second: b + step)) == 9)
        #expect(try touchpad.writeEvents(of: TouchFrame(action: .move, first: a + step, second: b + step)) == 0)
        #expect(try touchpad.writeEvents(of: TouchFrame(action: .lift, first: a + step, second: b + step)) == VirtualTouchpad.liftFrameLength)
    }

    @Test("land, move, an unchanged move, lift: slots, tracking ids, BTN_TOUCH and DOUBLETAP, SYN_REPORT")
    func frames() {
        let a = Vector(x: 491, y: 400), b = Vector(x: 509, y: 400)
        let down = Vector(x: 0, y: 1.2)
        let events = encode([
            TouchFrame(action: .land, first: a, second: b),
            TouchFrame(action: .move, first: a + down, second: b + down),
            TouchFrame(action: .move, first: a + down + Vector(x: 0, y: 0.004), second: b + down),
            TouchFrame(action: .lift, first: a + down, second: b + down),
        ])
        let abs = EventCode.absolute, key = EventCode.key, syn = InputEvent(type: 0, code: 0, value: 0)
        func e(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: type, code: code, value: value) }
        #expect(events[0] == [
            e(abs, EventCode.absMTSlot, 0), e(abs, EventCode.absMTTrackingID, 1),
            e(abs, EventCode.absMTPositionX, 49100), e(abs, EventCode.absMTPositionY, 40000),
            e(abs, EventCode.absMTSlot, 1), e(abs, EventCode.absMTTrackingID, 2),
            e(abs, EventCode.absMTPositionX, 50900), e(abs, EventCode.absMTPositionY, 40000),
            e(key, EventCode.touch, 1), e(key, EventCode.toolDoubleTap, 1),
            e(abs, EventCode.absX, 49100), e(abs, EventCode.absY, 40000), syn,
        ])
        #expect(events[1] == [
            e(abs, EventCode.absMTSlot, 0), e(abs, EventCode.absMTPositionX, 49100), e(abs, EventCode.absMTPositionY, 40120),
            e(abs, EventCode.absMTSlot, 1), e(abs, EventCode.absMTPositionX, 50900), e(abs, EventCode.absMTPositionY, 40120),
            e(abs, EventCode.absX, 49100), e(abs, EventCode.absY, 40120), syn,
        ])
        #expect(events[2].isEmpty, "0.004 mm is less than half a unit: nothing to write")
        #expect(events[3] == [
            e(abs, EventCode.absMTSlot, 0), e(abs, EventCode.absMTTrackingID, -1),
            e(abs, EventCode.absMTSlot, 1), e(abs, EventCode.absMTTrackingID, -1),
            e(key, EventCode.touch, 0), e(key, EventCode.toolDoubleTap, 0), syn,
        ])
        #expect(events[0].count == VirtualTouchpad.landingFrameLength && events[3].count == VirtualTouchpad.liftFrameLength)
    }

    @Test("a move or lift with no fingers down writes nothing; a second landing gets new tracking ids")
    func outOfOrder() {
        let p = Vector(x: 500, y: 500)
        let events = encode([
            TouchFrame(action: .move, first: p, second: p), TouchFrame(action: .lift, first: p, second: p),
            TouchFrame(action: .land, first: p, second: p), TouchFrame(action: .lift, first: p, second: p),
            TouchFrame(action: .land, first: p, second: p),
        ])
        #expect(events[0].isEmpty && events[1].isEmpty)
        #expect(events[2][1].value == 1 && events[4][1].value == 3)
    }

    @Test("positions off the surface are clamped to it")
    func clamp() {
        #expect(VirtualPad.units(-5) == 0)
        #expect(VirtualPad.units(5000) == VirtualPad.maximumUnits)
        #expect(VirtualPad.units(.nan) == VirtualPad.maximumUnits / 2)
    }
}
