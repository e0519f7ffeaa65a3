import Foundation
import Testing
@testable import FlickCore
import FlickTestSupport

/// Several devices on one engine.
@Suite struct MultipleDevices {
    @Test func touchOnAnotherDeviceStopsTheCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        let screen: DeviceID = 99
        pad.engine.addDevice(screen, description: try Fixtures.device("touch-screen"))
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(100))
        #expect(pad.engine.isCoasting)
        // A finger on the (disabled) touchscreen: BTN_TOUCH and a tracking id.
        let t = pad.now
        _ = pad.engine.handle(InputEvent(type: EventCode.absolute, code: EventCode.absMTSlot, value: 0), from: screen, at: t)
        _ = pad.engine.handle(InputEvent(type: EventCode.absolute, code: EventCode.absMTTrackingID, value: 5), from: screen, at: t)
        _ = pad.engine.handle(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionX, value: 500), from: screen, at: t)
        _ = pad.engine.handle(InputEvent(type: EventCode.key, code: EventCode.touch, value: 1), from: screen, at: t)
        _ = pad.engine.handle(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0), from: screen, at: t)
        #expect(!pad.engine.isCoasting)
        #expect(pad.coastEndReasons == [.touch])
    }

    @Test func removingTheSourceDeviceEndsTheCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(50))
        pad.engine.removeDevice(pad.device, at: pad.now)
        #expect(!pad.engine.isCoasting && pad.engine.nextDeadline == nil)
        #expect(pad.coastEndReasons == [.deviceRemoved])
    }

    @Test func synDroppedAbandonsTheGesture() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        _ = pad.engine.handle(InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0), from: pad.device, at: pad.now)
        _ = pad.engine.handle(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0), from: pad.device, at: pad.now)
        pad.lift()
        pad.wait(.seconds(2))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons.last == .abandoned)
    }

    @Test func unpluggedMidScrollDoesNotCoast() throws {
        // Two fingers scrolling fast when the pad is unplugged: the input core releases its keys
        // in one last frame (BTN_TOUCH and BTN_TOOL_DOUBLETAP up, the slots untouched), and the
        // node reports ENODEV some milliseconds later.
        let pad = try FingerScript(device: "synaptics-t440")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.wait(.milliseconds(4))
        var output: [WheelOutput] = []
        for (type, code) in [(EventCode.key, EventCode.touch), (EventCode.key, EventCode.toolDoubleTap),
                             (EventCode.synchronization, EventCode.synReport)] {
            output.append(pad.engine.handle(InputEvent(type: type, code: code, value: 0), from: pad.device, at: pad.now))
        }
        #expect(!pad.engine.isCoasting, "\(pad.transcript)")
        pad.engine.removeDevice(pad.device, at: pad.now + .milliseconds(20))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(output.allSatisfy { $0.isEmpty }, "wheel output on unplug: \(output)")
    }

    @Test func stallEndsTheCoastWithoutAJump() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(50))
        let total = pad.verticalTotal
        let out = pad.engine.tick(at: pad.now + .seconds(3))
        #expect(out.isEmpty)
        #expect(pad.verticalTotal == total)
        #expect(!pad.engine.isCoasting)
        #expect(pad.coastEndReasons == [.stall])
    }

    @Test func reconfigureStopsTheCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(50))
        var faster = Configuration()
        faster.coast.decelerationRate = 0.99
        pad.engine.apply(faster, at: pad.now)
        #expect(!pad.engine.isCoasting)
        #expect(pad.engine.configuration == faster)
    }
}
