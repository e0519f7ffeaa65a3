import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// Touch jumps: a touchpad's firmware reporting a contact far from where it is for a frame (ALPS
/// pads sending 4095/0, Synaptics and Elan pads whose "touch jump" libinput logs and discards).
/// The jump is not finger motion: the release velocity is fitted without it, and a fast flick is
/// not taken for one.
@Suite struct TouchJumpTests {
    /// Two fingers down and still on `device` at `interval` between frames for 200 ms; then one
    /// frame with both 15 mm off (`jump`), one frame back, still frames until they lift
    /// `liftAfter` after the jump.
    static func stillTapWithAJump(device: String = "synaptics-t440", interval: Duration = .milliseconds(8),
                                  jump: Vector = Vector(x: 0, y: 15), liftAfter: Duration) throws -> FingerScript {
        let pad = try FingerScript(device: device)
        pad.frameInterval = interval
        pad.down(Vector(x: 40, y: 30), Vector(x: 60, y: 30))
        pad.move(by: .zero, over: .milliseconds(200))
        let jumpAt = pad.now + interval
        pad.move(by: jump, over: interval)
        pad.move(by: Vector(x: -jump.x, y: -jump.y), over: interval)
        while pad.now + interval < jumpAt + liftAfter { pad.move(by: .zero, over: interval) }
        pad.advance(to: jumpAt + liftAfter)
        pad.lift()
        pad.wait(.seconds(3))
        return pad
    }

    @Test("two still fingers with a 15 mm out-and-back jump, lifted within 40 ms: no coast",
          arguments: [24, 32, 40] as [Int64])
    func stillTapWithAJumpDoesNotCoast(liftAfterMilliseconds: Int64) throws {
        for interval in [Duration.milliseconds(8), Duration(microseconds: 12_500)] {
            let pad = try Self.stillTapWithAJump(interval: interval, liftAfter: .milliseconds(liftAfterMilliseconds))
            #expect(pad.coasts.isEmpty, "frames \(interval), lift \(liftAfterMilliseconds) ms after the jump: \(pad.coasts.map(\.releaseVelocity))")
            #expect(pad.output.isEmpty, "\(pad.output.count) wheel events written")
        }
    }

    @Test("an ALPS-style jump to the axis's corner and back is dropped too")
    func jumpToTheCorner() throws {
        let pad = try Self.stillTapWithAJump(jump: Vector(x: 40, y: -30), liftAfter: .milliseconds(32))
        #expect(pad.coasts.isEmpty, "\(pad.coasts.map(\.releaseVelocity))")
    }

    /// Two fingers scrolling down at 100 mm/s (80 Hz frames) for 200 ms, then one frame with
    /// both 12.5 mm further, then one frame where they are, then `framesAfter` frames, then the
    /// lift (nil: they lift in the frame after the jump).
    @Test("a 100 mm/s scroll with a jump just before the lift releases at about 100 mm/s",
          arguments: [nil, 0, 1, 2, 4] as [Int?])
    func scrollWithAJumpBeforeTheLift(framesAfter: Int?) throws {
        let interval = Duration(microseconds: 12_500)
        let pad = try FingerScript(device: "synaptics-t440")
        pad.frameInterval = interval
        pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        let step = 100 * interval.seconds
        for _ in 1...16 { pad.move(by: Vector(x: 0, y: step), over: interval) }
        pad.move(by: Vector(x: 0, y: step + 12.5), over: interval)
        if let framesAfter {
            pad.move(by: Vector(x: 0, y: step - 12.5), over: interval)
            for _ in 0..<framesAfter { pad.move(by: Vector(x: 0, y: step), over: interval) }
        }
        pad.advance(to: pad.now + interval)
        pad.lift()
        pad.wait(.seconds(6))
        let coast = try #require(pad.coasts.first, "no coast: \(pad.noCoastReasons)")
        #expect(abs(coast.releaseVelocity.y - 100) < 20, "released at \(coast.releaseVelocity) mm/s, \(framesAfter.map(String.init) ?? "no") frames after the jump's return")
        #expect(abs(coast.releaseVelocity.x) < 5)
    }

    @Test("one finger of a scroll jumping for a frame leaves the release at the scroll's speed")
    func oneFingerJumps() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        let step = 200 * pad.frameInterval.seconds
        for _ in 1...8 { pad.move(by: Vector(x: 0, y: step), over: pad.frameInterval) }
        pad.move(over: pad.frameInterval) { i in Vector(x: i == 0 ? 18 : 0, y: step) }
        pad.move(over: pad.frameInterval) { i in Vector(x: i == 0 ? -18 : 0, y: step) }
        pad.move(by: Vector(x: 0, y: step), over: pad.frameInterval)
        pad.lift()
        pad.wait(.seconds(6))
        let coast = try #require(pad.coasts.first, "no coast: \(pad.noCoastReasons)")
        #expect(abs(coast.releaseVelocity.y - 200) < 30, "released at \(coast.releaseVelocity) mm/s")
        #expect(abs(coast.releaseVelocity.x) < 20, "released at \(coast.releaseVelocity) mm/s")
    }

    /// A fast flick: two fingers land and at once move `speed` mm/s down for 120 ms, at
    /// `interval` between frames, then lift.
    static func flick(device: String, fingers: Int, speed: Double, interval: Duration,
                      configuration: Configuration = .defaults) throws -> FingerScript {
        let pad = try FingerScript(device: device, configuration: configuration)
        pad.frameInterval = interval
        if fingers == 1 {
            pad.down(Vector(x: 100, y: 40))
        } else {
            pad.down(Vector(x: 30, y: 10), Vector(x: 50, y: 10))
        }
        pad.move(by: Vector(x: 0, y: speed * 0.12), over: .milliseconds(120))
        pad.lift()
        pad.wait(.seconds(8))
        return pad
    }

    @Test("a fast touchpad flick is not a jump: it coasts at its speed",
          arguments: [(400.0, 12_500), (400.0, 8_000), (800.0, 12_500), (1200.0, 8_000), (2500.0, 12_500)] as [(Double, Int64)])
    func fastTouchpadFlick(speed: Double, intervalMicroseconds: Int64) throws {
        let pad = try Self.flick(device: "synaptics-t440", fingers: 2, speed: speed,
                                 interval: Duration(microseconds: intervalMicroseconds))
        let coast = try #require(pad.coasts.first, "no coast: \(pad.noCoastReasons)")
        #expect(abs(coast.releaseVelocity.y - speed) < speed * 0.05, "released at \(coast.releaseVelocity) mm/s, flicked at \(speed)")
    }

    @Test("a fast touchscreen flick coasts at its speed (libinput checks touchpads only)")
    func fastTouchscreenFlick() throws {
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        configuration.coast.maxSpeed = 5000
        let screen = try Self.flick(device: "touch-screen", fingers: 1, speed: 2500, interval: .milliseconds(8),
                                    configuration: configuration)
        let coast = try #require(screen.coasts.first, "no coast: \(screen.noCoastReasons)")
        #expect(abs(coast.releaseVelocity.y - 2500) < 125, "released at \(coast.releaseVelocity) mm/s")
    }

    /// Two fingers land and at once move `speed` mm/s down on a pad that reports positions only
    /// every other frame (8 ms frames; the frames between carry only MSC_TIMESTAMP, as some
    /// hid-multitouch pads send), for 160 ms, then lift.
    @Test("positions every other frame: a fast scroll is not taken for jumps, and coasts at its speed",
          arguments: [400.0, 1000.0])
    func positionsEveryOtherFrame(speed: Double) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        let interval = Duration.milliseconds(8)
        pad.frameInterval = interval
        pad.down(Vector(x: 30, y: 10), Vector(x: 50, y: 10))
        for _ in 1...10 {
            pad.stationaryFrame()
            pad.move(by: Vector(x: 0, y: speed * 2 * interval.seconds), over: interval)
        }
        pad.lift()
        pad.wait(.seconds(8))
        let coast = try #require(pad.coasts.first, "no coast: \(pad.noCoastReasons)")
        #expect(abs(coast.releaseVelocity.y - speed) < speed * 0.1, "released at \(coast.releaseVelocity) mm/s, moved at \(speed)")
    }

    /// A fast flick as `flick`, two fingers, sampled every 8 ms (each finger where it really
    /// is, rounded to device units by the pad) but each frame read up to 3 ms early or late (a
    /// loaded machine; `seed` picks the pattern), for 120 ms.
    @Test("a fast flick with jittering frame times is counted in full and coasts at its speed",
          arguments: [800.0, 1200.0], [1, 2, 3, 4, 5, 6] as [UInt64])
    func fastFlickWithJitter(speed: Double, seed: UInt64) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        pad.down(Vector(x: 30, y: 10), Vector(x: 50, y: 10))
        let start = pad.now
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        for k in 1...15 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let jitter = Duration(microseconds: Int64((state >> 33) % 6_001) - 3_000)
            let sampled = Duration.milliseconds(8 * Int64(k))
            pad.frameInterval = start + sampled + jitter - pad.now
            let current = try #require(pad.fingers[0])
            pad.move(by: Vector(x: 0, y: 10 + speed * sampled.seconds - current.y), over: pad.frameInterval)
        }
        pad.lift()
        pad.wait(.seconds(8))
        let coast = try #require(pad.coasts.first, "no coast: \(pad.noCoastReasons)")
        #expect(abs(coast.releaseVelocity.y - speed) < speed * 0.06, "released at \(coast.releaseVelocity) mm/s, flicked at \(speed)")
    }

    @Test("a jump whose way back comes in a frame with the jump's own time does not coast")
    func jumpBackAtTheSameTime() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        let padID: DeviceID = 99
        let description = try Fixtures.device("synaptics-t440")
        pad.engine.addDevice(padID, description: description)
        var writer = FingerFrameWriter(description: description, clampsToAxes: false)
        func frame(_ fingers: [Vector?]) { writer.frame(fingers) { _ = pad.engine.handle($0, from: padID, at: pad.now) } }
        let still = [Vector(x: 40, y: 30), Vector(x: 60, y: 30)] as [Vector?]
        frame(still)
        for _ in 1...25 {
            pad.advance(to: pad.now + .milliseconds(8))
            frame(still)
            pad.advance(to: pad.now + .milliseconds(8))
            writer.restingFrame(still, timestamp: pad.now.microseconds) { _ = pad.engine.handle($0, from: padID, at: pad.now) }
        }
        pad.advance(to: pad.now + .milliseconds(8))
        frame(still.map { $0.map { $0 + Vector(x: 0, y: 15) } })
        // The way back, in a frame read with the same time.
        frame(still)
        for _ in 1...3 {
            pad.advance(to: pad.now + .milliseconds(8))
            frame(still)
        }
        frame([nil, nil])
        pad.wait(.seconds(3))
        #expect(pad.coasts.isEmpty, "\(pad.coasts.map(\.releaseVelocity))")
    }
}
