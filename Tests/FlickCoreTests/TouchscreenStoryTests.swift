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

    /// Finger A drags up and lifts in the same frame as finger B lands (`touchscreen.fingers` =
    /// 1, so the count stays 1); B drags right at 300 mm/s for 40 ms and lifts. B's release is
    /// B's alone: A's upward tail is not in its fit.
    @Test(arguments: ["touch-screen", "protocol-a-touch-screen"])
    func liftAndLandInOneFrame(device: String) throws {
        let description = try Fixtures.device(device)
        let engine = Engine(configuration: Self.enabled())
        engine.addDevice(1, description: description)
        var coasts: [CoastPlan] = []
        engine.onReport = { if case .coastStarted(_, _, let plan) = $0 { coasts.append(plan) } }
        var writer = FingerFrameWriter(description: description)
        var now = Instant(microseconds: 1_000_000)
        func frame(_ fingers: [Vector?]) {
            let next = now + .milliseconds(8)
            engine.advance(to: next, notBefore: now)
            now = next
            writer.frame(fingers) { _ = engine.handle($0, from: 1, at: now) }
        }
        // A: 40 mm up over 96 ms (≈ 417 mm/s).
        for step in 0...12 { frame([Vector(x: 100, y: 120 - 40 * Double(step) / 12), nil]) }
        // A lifts as B lands, 60 mm to the left.
        frame([nil, Vector(x: 40, y: 100)])
        // B: 12 mm right over 40 ms (300 mm/s), then lifts.
        for step in 1...5 { frame([nil, Vector(x: 40 + 12 * Double(step) / 5, y: 100)]) }
        frame([nil, nil])
        engine.advance(to: now + .seconds(6), notBefore: now)
        let coast = try #require(coasts.first, "\(device): no coast")
        #expect(coasts.count == 1, "\(device): \(coasts.map(\.releaseVelocity))")
        #expect(abs(coast.releaseVelocity.x - 300) < 30 && abs(coast.releaseVelocity.y) < 30,
                "\(device): B flicked right at 300 mm/s; released at \(coast.releaseVelocity) mm/s")
    }
}
