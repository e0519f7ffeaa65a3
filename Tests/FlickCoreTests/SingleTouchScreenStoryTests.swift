import Testing
import FlickCore
import FlickFingerStories
import FlickTestSupport

/// A single-touch USB screen that does not say it is direct (usbtouchscreen: BTN_TOUCH, ABS_X,
/// ABS_Y, resolution 0): udev and libinput read it as a touchscreen, and so does flickd, which
/// ignored it as "not a touchpad or touchscreen".
@Suite struct SingleTouchScreenStories {
    static func enabled() -> Configuration {
        var c = Configuration()
        c.touchscreen.enabled = true
        return c
    }

    /// One finger drags up 40 mm in 100 ms and lifts: a coast, the content following the
    /// finger, as on any touchscreen (`touchscreen.fingers` = 1).
    @Test(arguments: [false, true])
    func aOneFingerFlickCoasts(pressure: Bool) throws {
        let screen = FingerScript(description: DeviceDescriptionTests.usbTouchscreen(pressure: pressure),
                                  configuration: Self.enabled())
        guard case .used(kind: .touchscreen, _) = screen.engine.admission(of: screen.device) else {
            Issue.record("not read as a touchscreen: \(String(describing: screen.engine.admission(of: screen.device)))")
            return
        }
        screen.down(Vector(x: 100, y: 120))
        screen.move(by: Vector(x: 0, y: -40), over: .milliseconds(100))
        screen.lift()
        screen.wait(.seconds(6))
        #expect(screen.coasts.count == 1, "\(screen.transcript)")
        #expect(screen.verticalTotal < 0, "dragging up moves the content up: the view scrolls down")
        #expect(screen.horizontalTotal == 0)
    }

    /// A tap (down and up without moving) is no flick; two taps in a row neither.
    @Test func aTapDoesNotCoast() throws {
        let screen = FingerScript(description: DeviceDescriptionTests.usbTouchscreen(), configuration: Self.enabled())
        for _ in 0..<2 {
            screen.down(Vector(x: 100, y: 120))
            screen.wait(.milliseconds(60))
            screen.lift()
            screen.wait(.milliseconds(200))
        }
        #expect(screen.coasts.isEmpty && screen.output.isEmpty, "\(screen.transcript)")
    }
}
