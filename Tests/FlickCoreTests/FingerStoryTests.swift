import Foundation
import Testing
@testable import FlickCore
import FlickFingerStories
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

    /// Protocol A names no contact: the tracker matches them by their order in the frame while
    /// the count stays the same. A finger lifting is no new touch, so three fingers lifting one
    /// a frame still coast, as on a slotted device.
    @Test(arguments: ["protocol-a-touch-screen", "touch-screen"])
    func threeFingersLiftingOneAFrameCoastOnATouchscreen(device: String) throws {
        var configuration = Configuration.defaults
        configuration.touchscreen.enabled = true
        configuration.touchscreen.fingers = 3
        let screen = try FingerScript(device: device, configuration: configuration)
        screen.down(Vector(x: 40, y: 60), Vector(x: 60, y: 60), Vector(x: 80, y: 60))
        screen.move(by: Vector(x: 0, y: -25), over: .milliseconds(120))
        screen.lift(2)
        screen.wait(screen.frameInterval)
        screen.lift(1)
        screen.wait(screen.frameInterval)
        screen.lift(0)
        screen.wait(.seconds(6))
        #expect(screen.coasts.count == 1, "\(device): \(screen.noCoastReasons)\n\(screen.transcript)")
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

    /// Pads that keep reporting a resting finger send zero-length frames while it rests; with
    /// `resting` false the same flick lifts at once and coasts.
    @Test(arguments: [true, false])
    func pauseWithRepeatedFramesThenLiftDoesNotCoast(resting: Bool) throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        if resting { for _ in 0..<15 { pad.stationaryFrame() } }
        pad.lift()
        pad.wait(.seconds(1))
        if resting {
            #expect(pad.coasts.isEmpty, "\(pad.transcript)")
            #expect(pad.noCoastReasons == [.fingersStopped], "\(pad.transcript)")
        } else {
            #expect(pad.coasts.count == 1 && pad.noCoastReasons.isEmpty, "the control flick coasts:\n\(pad.transcript)")
        }
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

    /// A scroll down and a flick back up to where it landed: the fingers end where they began,
    /// but they travelled 15 mm, no tap. The tap rule reads the farthest they got.
    @Test func aFlickBackToWhereTheScrollBeganCoasts() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 15), over: .milliseconds(150))   // 100 mm/s down
        pad.move(by: Vector(x: 0, y: -15), over: .milliseconds(75))   // 200 mm/s back up
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "\(pad.noCoastReasons)\n\(pad.transcript)")
        #expect((pad.coasts.first?.releaseVelocity.y ?? 0) < -100, "coasts up, the flick's way")
        #expect(pad.noCoastReasons.isEmpty)
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

    /// Fingers leave a flick 10–30 ms apart, still moving: the one left carries on along the
    /// flick (here 4 mm in 20 ms of a 200 mm/s flick) and the scroll coasts. Moving back, or on
    /// much faster than the flick, it is the finger's own motion.
    @Test func theLastFingerCarryingOnWithTheFlickStillCoasts() throws {
        func flick(thenLastFingerMoves delta: Vector) throws -> FingerScript {
            let pad = try FingerScript(device: "synaptics-rmi4")
            Self.twoFingers(pad)
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.lift(1)
            pad.move(by: delta, over: .milliseconds(20))
            pad.lift(0)
            pad.wait(.seconds(6))
            return pad
        }
        let along = try flick(thenLastFingerMoves: Vector(x: 0, y: 4))
        #expect(along.coasts.count == 1, "\(along.noCoastReasons)\n\(along.transcript)")
        #expect(along.verticalTotal < 0, "fingers down scroll down")
        let back = try flick(thenLastFingerMoves: Vector(x: 0, y: -4))
        #expect(back.coasts.isEmpty && back.noCoastReasons.last == .fingerStayed, "\(back.transcript)")
        let faster = try flick(thenLastFingerMoves: Vector(x: 0, y: 12))
        #expect(faster.coasts.isEmpty && faster.noCoastReasons.last == .fingerStayed, "\(faster.transcript)")
    }

    /// A finger that leaves the scroll for a moment (lifted and put back, or skipping a frame
    /// or two) and comes back: the two fingers scroll afresh from there, and their flick coasts.
    @Test func aFingerPutBackStartsAFreshScroll() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 10), over: .milliseconds(50))
        pad.lift(1)
        pad.wait(.milliseconds(8))
        pad.down(Vector(x: 40, y: 21))  // the second finger back, where it was going
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "\(pad.noCoastReasons)\n\(pad.transcript)")
        #expect((pad.coasts.first?.releaseVelocity.y ?? 0) > 100, "coasts down, the flick's way")
        #expect(pad.noCoastReasons.isEmpty)
        #expect(pad.verticalTotal < 0, "fingers down scroll down")
    }

    /// Three fingers land (a swipe), one lifts and the other two go on and flick: still the
    /// swipe (libinput holds a started gesture's finger-count change), no coast.
    @Test func aThreeFingerTouchDroppingToTwoDoesNotCoast() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10), Vector(x: 60, y: 10))
        pad.move(by: Vector(x: 0, y: 3), over: .milliseconds(40))
        pad.lift(2)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons == [.tooManyFingers(3)])
    }

    /// Two fingers tap: they drift 1.2 mm as they settle and back as they lift. A tap, not a
    /// flick: the farthest point counts only from `outAndBackDistance` on.
    @Test func aTapThatDriftsOutAndBackDoesNotCoast() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 1.2), over: .milliseconds(16))
        for _ in 0..<5 { pad.stationaryFrame() }
        pad.move(by: Vector(x: 0, y: -1.2), over: .milliseconds(16))
        pad.lift()
        pad.wait(.seconds(2))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons == [.noMotion], "\(pad.noCoastReasons)")
    }

    /// The end of a fast three-finger swipe: its fingers leave one by one, still moving, the
    /// second 16 ms after the first, or 64 ms (later than the lift window), the last 16 ms after
    /// that. The two left for a moment are the swipe's end, not a scroll's flick (with the
    /// second finger 64 ms late they coasted at the swipe's speed when taken for a scroll).
    @Test(arguments: [(millimetres: 4.0, milliseconds: 16), (millimetres: 15.0, milliseconds: 64)])
    func aSwipesFingersLeavingOneByOneDoNotCoast(secondLift: (millimetres: Double, milliseconds: Int64)) throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10), Vector(x: 60, y: 10))
        pad.move(by: Vector(x: 0, y: 25), over: .milliseconds(100))
        pad.lift(2)
        pad.move(by: Vector(x: 0, y: secondLift.millimetres), over: .milliseconds(secondLift.milliseconds))
        pad.lift(1)
        pad.move(by: Vector(x: 0, y: 4), over: .milliseconds(16))
        pad.lift(0)
        pad.wait(.seconds(2))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons == [.tooManyFingers(3)])
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

    /// A pad with physical buttons below its surface: pressing one with no finger on the pad
    /// is a click, which stops the coast like a mouse's; releasing it, or a button while
    /// `stop.button` is off, does not.
    @Test(arguments: ["elantech-touchpad", "alps-3fg"])
    func aPadsOwnButtonStopsTheCoast(device: String) throws {
        func flick(_ configuration: Configuration = .defaults, then act: (FingerScript) -> Void) throws -> FingerScript {
            let pad = try FingerScript(device: device, configuration: configuration)
            Self.twoFingers(pad)
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.lift()
            pad.wait(.milliseconds(100))
            act(pad)
            pad.wait(.seconds(5))
            return pad
        }
        var pressedAt = Instant.zero
        var total: Int64 = 0
        let pressed = try flick { pad in
            pressedAt = pad.now
            total = pad.verticalTotal
            pad.button(EventCode.buttonLeft, down: true)
        }
        #expect(total != 0, "the coast was running")
        #expect(pressed.coastEndReasons == [.button])
        #expect(pressed.verticalTotal == total, "nothing after the press")
        #expect((pressed.lastOutputTime ?? .zero) < pressedAt)

        let extra = try flick { $0.button(0x101, down: true) }  // BTN_1, an older Synaptics pad's extra button
        #expect(extra.coastEndReasons == [.button])

        let released = try flick { $0.button(EventCode.buttonRight, down: false) }
        #expect(released.coastEndReasons == [.finished], "a release is no click")
        let tool = try flick { $0.button(EventCode.toolPen, down: true) }
        #expect(tool.coastEndReasons == [.finished], "a tool is no button")

        var off = Configuration()
        off.stop.button = false
        let ignored = try flick(off) { $0.button(EventCode.buttonLeft, down: true) }
        #expect(ignored.coastEndReasons == [.finished], "stop.button = false")

        // Another pad clicked in the frame after its kernel dropped events: its contacts
        // cannot be trusted, but a key that went down is a press.
        let other = try flick { pad in
            let second: DeviceID = 42
            pad.engine.addDevice(second, description: pad.description)
            for event in [InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0),
                          InputEvent(type: EventCode.key, code: EventCode.buttonLeft, value: 1),
                          InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0)] {
                _ = pad.engine.handle(event, from: second, at: pad.now)
            }
        }
        #expect(other.coastEndReasons == [.button], "a press after dropped events on another pad")
    }

    /// A pad read for nothing (a `[[device]]` section turns it off) is clicked, then a reload
    /// admits it: the click is long over, so the pad's first frame afterwards (a finger resting
    /// there, no landing) does not stop another pad's coast as a click.
    @Test func aClickWhileIgnoredIsNoClickAfterAReload() throws {
        let ignored: DeviceID = 42
        let other = try Fixtures.device("elantech-touchpad")
        var off = Configuration.defaults
        off.devices = [DeviceRule(name: other.name, enabled: false, configuration: .defaults)]
        let pad = try FingerScript(device: "synaptics-t440", configuration: off)
        pad.engine.addDevice(ignored, description: other)
        for event in [InputEvent(type: EventCode.key, code: EventCode.buttonLeft, value: 1),
                      InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0),
                      InputEvent(type: EventCode.key, code: EventCode.buttonLeft, value: 0),
                      InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0)] {
            _ = pad.engine.handle(event, from: ignored, at: pad.now)
        }
        pad.wait(.milliseconds(500))
        pad.engine.apply(.defaults, at: pad.now)
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(100))
        #expect(pad.engine.isCoasting)
        _ = pad.engine.handle(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0),
                              from: ignored, at: pad.now)
        pad.wait(.seconds(5))
        #expect(pad.coastEndReasons == [.finished], "the click came before the reload")
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

    /// (That its touch still stops a coast: MultipleDevices.aDisabledTouchpadsTouchStopsACoast.)
    @Test func touchpadDisabledNeverCoasts() throws {
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

    /// Two fingers flick at 200 mm/s and stop dead; five frames later the last frame reports
    /// them a unit back (0.03 mm: 1 unit of this 42 units/mm pad), and they lift. An exact
    /// repeat read as a stop; the unit of jitter made the fit coast up at 77 mm/s.
    @Test func jitterAfterTheFingersStoppedDoesNotCoastBack() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        for _ in 0..<5 { pad.stationaryFrame() }
        pad.move(by: Vector(x: 0, y: -0.03), over: .milliseconds(8))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.output.isEmpty)
        #expect(pad.noCoastReasons == [.fingersStopped], "\(pad.noCoastReasons)")
    }

    /// Two fingers flick at 200 mm/s, then creep 0.4 mm in 40 ms (10 mm/s) and lift. The fit
    /// turned back and the look-back average over 70 ms, reaching into the flick, coasted at
    /// 91 mm/s. The last 40 ms support 10 mm/s: the release is held to twice that, too slow.
    @Test func creepingAfterTheFlickDoesNotCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.move(by: Vector(x: 0, y: 0.4), over: .milliseconds(40))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        guard case .tooSlow(let speed) = pad.noCoastReasons.last else {
            Issue.record("expected tooSlow, got \(pad.noCoastReasons)")
            return
        }
        // Twice the creep, within a unit (0.024 mm in 40 ms) of the pad's rounding.
        #expect(speed <= 2 * (10 + 0.6), "twice the creep at most: \(speed)")
    }

    /// The stop rule at a staggered lift: two fingers flick at 200 mm/s and stop; 24 ms later
    /// one lifts (the velocity is frozen: a moving release), the other stays still 40 ms
    /// (frames with no motion: pressure only) and lifts within the lift window. The hand had
    /// stopped 80 ms before the last lift; judged only at the first lift, it coasted at 200 mm/s.
    @Test func aStaggeredLiftAfterTheHandStoppedDoesNotCoast() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        for _ in 0..<3 { pad.stationaryFrame() }
        pad.wait(pad.frameInterval)
        pad.lift(0)
        for _ in 0..<5 { pad.stationaryFrame() }
        pad.wait(pad.frameInterval)
        pad.lift(1)
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons == [.fingersStopped], "\(pad.noCoastReasons)")
    }

    /// The rest before the first lift is judged there (24 ms: still moving); the finger left
    /// behind lifts 20 ms later without moving, a stagger within a flick's: 44 ms still in all,
    /// within the stop window and the allowance for still frames as the fingers leave: it coasts.
    @Test func stillFramesAsTheFingersLeaveThenAStaggeredLiftCoasts() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        for _ in 0..<2 { pad.stationaryFrame() }
        pad.wait(pad.frameInterval)
        pad.lift(0)
        pad.stationaryFrame()
        pad.wait(.milliseconds(12))
        pad.lift(1)
        pad.wait(.seconds(1))
        #expect(pad.coasts.count == 1, "\(pad.transcript)")
    }

    /// A hand still 32 ms before the first lift (judged moving there) and 32 ms more before the
    /// second: 64 ms still, over the stop window and the leaving allowance: it had stopped.
    @Test func aShorterStaggerAfterTheHandStoppedDoesNotCoastEither() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        Self.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        for _ in 0..<3 { pad.stationaryFrame() }
        pad.wait(pad.frameInterval)
        pad.lift(0)
        for _ in 0..<3 { pad.stationaryFrame() }
        pad.wait(pad.frameInterval)
        pad.lift(1)
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons == [.fingersStopped], "\(pad.noCoastReasons)")
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
