import Foundation
import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// Touchscreens: a drag of `touchscreen.fingers` fingers released while moving coasts, and the
/// content follows the finger.
@Suite struct TouchscreenStories {
    static func enabled() -> Configuration {
        var c = Configuration()
        c.touchscreen.enabled = true
        return c
    }

    @Test(arguments: ["protocol-a-touch-screen", "touch-screen", "calibrated-touchscreen", "wacom-cintiq-13hdt-finger"])
    func dragUpCoastsNaturally(device: String) throws {
        let screen = try FingerScript(device: device, configuration: Self.enabled())
        screen.down(Vector(x: 100, y: 120))
        screen.move(by: Vector(x: 0, y: -40), over: .milliseconds(100))
        screen.lift()
        screen.wait(.seconds(6))
        #expect(screen.coasts.count == 1, "\(device): \(screen.transcript)")
        #expect(screen.verticalTotal < 0, "dragging up moves the content up: the view scrolls down")
        #expect(screen.horizontalTotal == 0)
    }

    @Test func disabledByDefault() throws {
        let screen = try FingerScript(device: "touch-screen")
        screen.down(Vector(x: 100, y: 120))
        screen.move(by: Vector(x: 0, y: -40), over: .milliseconds(100))
        screen.lift()
        screen.wait(.seconds(2))
        #expect(screen.coasts.isEmpty && screen.output.isEmpty)
        guard case .stopOnly = screen.engine.admission(of: screen.device) else {
            Issue.record("a disabled touchscreen still stops coasts")
            return
        }
    }

    @Test func twoFingerDragIsNotAOneFingerFlick() throws {
        let screen = try FingerScript(device: "protocol-a-touch-screen", configuration: Self.enabled())
        screen.down(Vector(x: 100, y: 120), Vector(x: 130, y: 120))
        screen.move(by: Vector(x: 0, y: -40), over: .milliseconds(100))
        screen.lift()
        screen.wait(.seconds(2))
        #expect(screen.coasts.isEmpty)
        #expect(screen.noCoastReasons.last == .tooManyFingers(2))
    }
}
