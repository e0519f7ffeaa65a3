import Foundation
import Testing
@testable import FlickCore
import FlickTestSupport

/// Scripted finger stories on the device fixtures of Tests/Fixtures/devices.
///
/// Coordinates are millimetres from the top-left corner; y grows towards the user. With the
/// default (traditional) scrolling, fingers moving down scroll down: REL_WHEEL < 0.
@Suite struct FingerStories {
    /// Two-finger touchpads of every kind: 2 slots + DOUBLETAP, many slots, semi-MT,
    /// resolution 0, single touch.
    static let touchpads = ["synaptics-t440", "synaptics-rmi4", "alps-dualpoint", "elantech-touchpad", "apple-appletouch",
                            "acer-hawaii-touchpad", "wacom-intuos5-finger"]

    /// Two fingers at the middle of the pad, 20 mm apart.
    static func twoFingers(_ pad: FingerScript) {
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
    }

    @Test(arguments: touchpads)
    func flickDownCoastsDownOnTheVerticalAxisOnly(device: String) throws {
        let pad = try FingerScript(device: device)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))  // 200 mm/s
        let release = pad.now + pad.frameInterval
        pad.advance(to: release)
        pad.lift()
        pad.wait(.seconds(6))
        let plan = try #require(pad.coasts.first, "no coast on \(device):\n\(pad.transcript)")
        #expect(abs(plan.releaseVelocity.y - 200) < 20, "\(device): release velocity \(plan.releaseVelocity)")
        #expect(pad.verticalTotal < 0, "fingers down scroll down (REL_WHEEL < 0) on \(device)")
        #expect(pad.horizontalTotal == 0, "vertical flick stays vertical on \(device)")
        #expect(abs(Double(pad.verticalTotal) - plan.destinationHiRes.vertical.rounded()) <= 1,
                "emitted \(pad.verticalTotal) vs destination \(plan.destinationHiRes.vertical)")
        #expect(pad.output.first?.time == release, "first wheel event comes with the release frame")
        #expect(pad.verticalDetents == pad.verticalTotal / 120)
        #expect(pad.coastEndReasons == [.finished])
    }

    @Test(arguments: touchpads)
    func staggeredLiftCoasts(device: String) throws {
        let pad = try FingerScript(device: device)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: -25), over: .milliseconds(120))
        pad.lift(1)
        pad.wait(.milliseconds(15))
        pad.lift(0)
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "\(device): \(pad.transcript)")
        #expect(pad.verticalTotal > 0, "fingers up scroll up on \(device)")
        #expect(pad.horizontalTotal == 0)
    }

    @Test(arguments: touchpads)
    func pauseThenLiftDoesNotCoast(device: String) throws {
        let pad = try FingerScript(device: device)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.wait(.milliseconds(150))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(device): \(pad.transcript)")
        #expect(pad.output.isEmpty)
        #expect(pad.noCoastReasons.last == .fingersStopped)
    }

    @Test func pauseWithRepeatedFramesThenLiftDoesNotCoast() throws {
        // Pads that keep reporting a resting finger send zero-length frames while it rests.
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        for _ in 0..<15 { pad.stationaryFrame() }
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
    }

    @Test(arguments: touchpads)
    func slowReleaseDoesNotCoast(device: String) throws {
        let pad = try FingerScript(device: device)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 6), over: .milliseconds(300))  // 20 mm/s
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(device): \(pad.transcript)")
        guard case .tooSlow(let speed) = pad.noCoastReasons.last else {
            Issue.record("expected tooSlow, got \(pad.noCoastReasons)")
            return
        }
        #expect(abs(speed - 20) < 3)
    }

    @Test(arguments: ["synaptics-rmi4", "synaptics-t440", "alps-3fg"])
    func pinchDoesNotCoast(device: String) throws {
        let pad = try FingerScript(device: device)
        Self.twoFingers(pad)
        pad.spread(by: 12, over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(device): \(pad.transcript)")
        #expect(pad.noCoastReasons.last == .pinch)
    }

    @Test(arguments: ["synaptics-rmi4", "synaptics-t440", "apple-appletouch", "alps-dualpoint"])
    func threeFingerSwipeDoesNotCoast(device: String) throws {
        let pad = try FingerScript(device: device)
        pad.down(Vector(x: 20, y: 10), Vector(x: 30, y: 10))
        pad.wait(.milliseconds(8))
        pad.down(Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 25), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(device): \(pad.transcript)")
        #expect(pad.noCoastReasons.last == .tooManyFingers(3))
    }

    @Test func singleFingerPointerMotionDoesNotCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 30, y: 20))
        pad.move(by: Vector(x: 0, y: 30), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty)
        #expect(pad.noCoastReasons.last == .tooFewFingers(1))
    }

    @Test func twoFingerTapDoesNotCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 0.3), over: .milliseconds(16))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty)
        #expect(pad.noCoastReasons.last == .noMotion)
    }

    @Test func fingerStaysAndMovesIsPointerMotion() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift(1)
        pad.move(by: Vector(x: 10, y: 0), over: .milliseconds(30))
        pad.lift(0)
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons.last == .fingerStayed)
    }

    @Test func fingerStaysLongerThanTheLiftWindow() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift(1)
        pad.wait(.milliseconds(80))
        pad.lift(0)
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons.last == .fingerStayed)
    }

    @Test(arguments: touchpads)
    func newTouchMidCoastStopsIt(device: String) throws {
        let pad = try FingerScript(device: device)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(200))
        let touch = pad.now
        let emittedBefore = pad.verticalTotal
        pad.down(Vector(x: 30, y: 20))
        pad.wait(.seconds(5))
        #expect(pad.coasts.count == 1)
        #expect(emittedBefore != 0, "the coast was running")
        #expect(pad.verticalTotal == emittedBefore, "nothing after the touch on \(device)")
        #expect((pad.lastOutputTime ?? .zero) < touch)
        #expect(pad.coastEndReasons == [.touch])
        #expect(!pad.engine.isCoasting && pad.engine.nextDeadline == nil)
    }

    @Test func stopCallEndsTheCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(100))
        pad.engine.stop(at: pad.now, reason: .key)
        let total = pad.verticalTotal
        pad.wait(.seconds(5))
        #expect(pad.verticalTotal == total)
        #expect(pad.coastEndReasons == [.key])
    }

    @Test func repeatedFlicksBoost() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        var releases: [CoastPlan] = []
        for _ in 0..<3 {
            Self.twoFingers(pad)
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.lift()
            releases = pad.coasts
            pad.wait(.milliseconds(150))
        }
        pad.wait(.seconds(8))
        #expect(releases.count == 3)
        #expect(!releases[0].boosted)
        #expect(releases[1].boosted && releases[2].boosted)
        #expect(releases[1].velocity.y > releases[0].velocity.y * 1.5, "\(releases.map(\.velocity))")
        #expect(releases[2].velocity.y > releases[1].velocity.y)
        #expect(releases.allSatisfy { $0.velocity.length <= Configuration.defaults.coast.maxSpeed + 1e-9 })
    }

    @Test func oppositeFlickDoesNotBoost() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(150))
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: -20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 2)
        #expect(pad.coasts.last?.boosted == false)
        #expect(pad.coasts.last!.velocity.y < 0)
    }

    @Test func boostOffDoesNotBoost() throws {
        var config = Configuration()
        config.coast.boost = false
        let pad = try FingerScript(device: "synaptics-rmi4", configuration: config)
        for _ in 0..<2 {
            Self.twoFingers(pad)
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.lift()
            pad.wait(.milliseconds(150))
        }
        #expect(pad.coasts.map(\.boosted) == [false, false])
    }

    @Test func horizontalFlickCoastsHorizontallyOnly() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 25, y: 3), over: .milliseconds(100))  // 7° off the axis: locked
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1)
        #expect(pad.horizontalTotal > 0, "fingers right scroll right")
        #expect(pad.verticalTotal == 0)
    }

    @Test func diagonalFlickKeepsBothAxes() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 15, y: 15), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.horizontalTotal > 0 && pad.verticalTotal < 0)
        #expect(abs(pad.horizontalTotal + pad.verticalTotal) <= 2, "45°: equal amounts")
    }

    @Test func naturalScrollingInverts() throws {
        var config = Configuration()
        config.scroll.natural = true
        let pad = try FingerScript(device: "synaptics-t440", configuration: config)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.verticalTotal > 0, "natural: content follows the fingers down, the view scrolls up")
    }

    @Test func speedClampKeepsDirection() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 60), over: .milliseconds(24))  // 2500 mm/s
        pad.lift()
        pad.wait(.seconds(8))
        let plan = try #require(pad.coasts.first)
        #expect(plan.releaseVelocity.y > 2000)
        #expect(abs(plan.velocity.y - Configuration.defaults.coast.maxSpeed) < 1e-6)
        #expect(plan.velocity.x == 0)
    }

    @Test func touchpadDisabledNeverCoastsButStillStops() throws {
        var config = Configuration()
        config.touchpad.enabled = false
        let pad = try FingerScript(device: "synaptics-t440", configuration: config)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(2))
        #expect(pad.coasts.isEmpty && pad.output.isEmpty)
    }

    @Test func threeFingerScrollWhenConfigured() throws {
        var config = Configuration()
        config.touchpad.fingers = 3
        let pad = try FingerScript(device: "synaptics-rmi4", configuration: config)
        pad.down(Vector(x: 20, y: 10), Vector(x: 30, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1)
    }

    @Test func lookbackEstimatorCoastsToo() throws {
        var config = Configuration()
        config.velocity.estimator = .lookback
        let pad = try FingerScript(device: "synaptics-t440", configuration: config)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        let plan = try #require(pad.coasts.first)
        #expect(abs(plan.releaseVelocity.y - 200) < 20)
    }
}

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

/// `[[device]]` sections: settings for particular devices.
@Suite struct DeviceRules {
    static func flick(_ pad: FingerScript) {
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
    }

    @Test func matchingRuleOverridesSettings() throws {
        var config = Configuration()
        var fast = Configuration()
        fast.coast.decelerationRate = 0.99
        config.devices = [DeviceRule(name: "synaptics", configuration: fast)]  // t440 is "SynPS/2 Synaptics TouchPad"
        let pad = try FingerScript(device: "synaptics-t440", configuration: config)
        Self.flick(pad)
        let plan = try #require(pad.coasts.first)
        // d = 0.99: X = v/10.05 instead of v/2.002.
        let expected = -plan.velocity.y * config.scroll.speed / (-1000 * log(0.99))
        #expect(abs(plan.destinationHiRes.vertical - expected) < 1e-6, "\(plan.destinationHiRes.vertical) vs \(expected)")
    }

    @Test func nonMatchingRuleLeavesTheDeviceAlone() throws {
        var config = Configuration()
        var fast = Configuration()
        fast.coast.decelerationRate = 0.99
        config.devices = [DeviceRule(vendor: 0x1234, configuration: fast)]
        let pad = try FingerScript(device: "synaptics-t440", configuration: config)
        Self.flick(pad)
        let plan = try #require(pad.coasts.first)
        let expected = -plan.velocity.y * config.scroll.speed / (-1000 * log(0.998))
        #expect(abs(plan.destinationHiRes.vertical - expected) < 1e-6)
    }

    @Test func disabledDeviceIsIgnored() throws {
        var config = Configuration()
        config.devices = [DeviceRule(vendor: 2, product: 7, enabled: false, configuration: Configuration())]
        let pad = try FingerScript(device: "synaptics-t440", configuration: config)
        Self.flick(pad)
        #expect(pad.coasts.isEmpty && pad.output.isEmpty)
        guard case .ignored = pad.engine.admission(of: pad.device) else {
            Issue.record("expected ignored, got \(String(describing: pad.engine.admission(of: pad.device)))")
            return
        }
    }

    @Test func resolutionOverrideChangesTheScale() throws {
        // elantech-touchpad reports resolution 0; say it has 10 units/mm.
        var config = Configuration()
        config.devices = [DeviceRule(name: "Elantech", resolution: 10, configuration: Configuration())]
        let engine = Engine(configuration: config)
        let admission = engine.addDevice(1, description: try Fixtures.device("elantech-touchpad"))
        guard case .used(_, let geometry) = admission else {
            Issue.record("not used: \(admission)")
            return
        }
        #expect(geometry.x.unitsPerMillimetre == 10 && !geometry.x.isEstimated)
    }
}

@Suite struct PausesBeforeTheLift {
    @Test func travelThenALongGapThenLiftIsAStop() throws {
        // Frames 8 ms apart, then one last frame 60 ms later (the history restarts there), then
        // the lift: the fingers had stopped, which the engine says instead of "a tap".
        let pad = try FingerScript(device: "synaptics-rmi4")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.frameInterval = .milliseconds(60)
        pad.move(by: Vector(x: 0, y: 0.5), over: .milliseconds(60))
        pad.frameInterval = .milliseconds(8)
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty)
        #expect(pad.noCoastReasons.last == .fingersStopped, "\(pad.noCoastReasons)")
    }
}

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
