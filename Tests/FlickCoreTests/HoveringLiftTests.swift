import Foundation
import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

@Suite struct HoveringLift {
    @Test func touchUpWhileTheFingersStillHoverIsALift() throws {
        // Pads that sense hovering fingers (atmel-hover: ABS_MT_DISTANCE) report BTN_TOUCH up
        // while the slots and BTN_TOOL_DOUBLETAP stay: the fingers left the surface. That is a
        // lift, unlike a device being unplugged (every key up, slots untouched).
        let pad = try FingerScript(device: "atmel-hover")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.advance(to: pad.now + pad.frameInterval)
        _ = pad.engine.handle(InputEvent(type: EventCode.key, code: EventCode.touch, value: 0), from: pad.device, at: pad.now)
        _ = pad.engine.handle(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0), from: pad.device, at: pad.now)
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "\(pad.noCoastReasons)")
    }
}
