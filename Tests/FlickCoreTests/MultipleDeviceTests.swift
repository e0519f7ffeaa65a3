import Foundation
import Testing
@testable import FlickCore
import FlickFingerStories
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

    @Test func aDisabledTouchpadsTouchStopsACoast() throws {
        // touchpad.enabled = false: the pad never coasts, but a hand on it still means "stop".
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        configuration.touchpad.enabled = false
        let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
        let screenID: DeviceID = 99
        let screen = try Fixtures.device("touch-screen")
        pad.engine.addDevice(screenID, description: screen)
        var writer = FingerFrameWriter(description: screen, clampsToAxes: false)
        writer.frame([Vector(x: 100, y: 60)]) { _ = pad.engine.handle($0, from: screenID, at: pad.now) }
        for step in 1...12 {
            pad.advance(to: pad.now + .milliseconds(8))
            writer.frame([Vector(x: 100, y: 60 + Double(step) * 2)]) { _ = pad.engine.handle($0, from: screenID, at: pad.now) }
        }
        writer.frame([nil]) { _ = pad.engine.handle($0, from: screenID, at: pad.now) }
        #expect(pad.coasts.count == 1 && pad.engine.isCoasting, "the touchscreen's flick coasts")
        pad.wait(.milliseconds(100))
        FingerStories.twoFingers(pad)
        #expect(!pad.engine.isCoasting)
        #expect(pad.coastEndReasons == [.touch])
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(2))
        #expect(pad.coasts.count == 1, "the disabled pad's own flick does not coast")
    }

    @Test("a flick on the touchpad is not boosted by the touchscreen's coast it stopped, and one on the touchscreen is")
    func boostOnlyFromTheSameDevice() throws {
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        for second in ["touchpad", "touchscreen"] {
            let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
            let screenID: DeviceID = 99
            let screen = try Fixtures.device("touch-screen")
            pad.engine.addDevice(screenID, description: screen)
            var writer = FingerFrameWriter(description: screen, clampsToAxes: false)
            func screenFlick() {
                writer.frame([Vector(x: 100, y: 60)]) { _ = pad.engine.handle($0, from: screenID, at: pad.now) }
                for step in 1...12 {
                    pad.advance(to: pad.now + .milliseconds(8))
                    writer.frame([Vector(x: 100, y: 60 + Double(step) * 2)]) { _ = pad.engine.handle($0, from: screenID, at: pad.now) }
                }
                writer.frame([nil]) { _ = pad.engine.handle($0, from: screenID, at: pad.now) }
            }
            // A flick down on the touchscreen coasts (the content follows the finger, down) ...
            screenFlick()
            #expect(pad.coasts.count == 1 && pad.engine.isCoasting)
            pad.wait(.milliseconds(100))
            // ... and the next flick, fingers down too, stops it and is released 100 ms later.
            if second == "touchpad" {
                FingerStories.twoFingers(pad)
                pad.move(by: Vector(x: 0, y: 24), over: .milliseconds(96))
                pad.lift()
            } else {
                screenFlick()
            }
            #expect(pad.coastEndReasons.first == .touch)
            let coasts = pad.coasts
            #expect(coasts.count == 2)
            // A touchpad scrolling traditionally moves its content up for fingers moving down:
            // the touchscreen's glide must not speed up the one that reverses it.
            #expect(coasts.last?.boosted == (second == "touchscreen"), "\(second): \(coasts.map(\.boosted))")
        }
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
        #expect(pad.coastEndReasons == [.reconfigured], "\(pad.coastEndReasons)")
        #expect(pad.engine.configuration == faster)
    }
}
