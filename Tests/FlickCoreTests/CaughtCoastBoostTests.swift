import Testing
import FlickCore
import FlickFingerStories
import FlickTestSupport

/// A boost belongs to the gesture whose landing stopped the coast: a touch that catches a
/// glide and lifts without coasting (a tap, a touch of too few or too many fingers) uses it
/// up, so the next flick starts afresh.
@Suite struct CaughtCoastBoostTests {
    enum Catch: String, CaseIterable, CustomTestStringConvertible {
        /// Two fingers rest 80 ms and lift: a scroll released with no motion (no coast).
        case twoFingerTap
        /// One finger rests 80 ms and lifts: too few fingers.
        case oneFingerTap
        /// Three fingers rest 80 ms and lift: too many fingers.
        case threeFingerTap
        var testDescription: String { rawValue }
    }

    @Test(arguments: Catch.allCases)
    func aTouchThatCaughtTheCoastAndLiftedWithoutCoastingLeavesNoBoost(catching: Catch) throws {
        // Flick down 20 mm in 100 ms, lift → 150 ms → the catch lands (stops the coast), rests
        // 80 ms and lifts → 250 ms → the same flick again: not boosted.
        let pad = try FingerScript(device: "synaptics-rmi4")
        pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(150))
        switch catching {
        case .twoFingerTap: pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        case .oneFingerTap: pad.down(Vector(x: 40, y: 20))
        case .threeFingerTap: pad.down(Vector(x: 30, y: 20), Vector(x: 50, y: 20), Vector(x: 70, y: 20))
        }
        pad.wait(.milliseconds(80))
        pad.stationaryFrame()
        pad.lift()
        pad.wait(.milliseconds(250))
        pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coastEndReasons.first == .touch, "the catch stopped the coast:\n\(pad.transcript)")
        #expect(pad.coasts.count == 2, "\(pad.transcript)")
        #expect(pad.coasts.map(\.boosted) == [false, false],
                "\(pad.coasts.map { ($0.releaseVelocity, $0.velocity, $0.boosted) })")
    }

    @Test func aCoastCaughtOnAnotherDeviceLeavesNoBoost() throws {
        // Flick down on the pad, lift → 150 ms → a finger lands on a second pad (stops the
        // coast), rests 80 ms and lifts → 250 ms → the same flick on the first pad: not boosted.
        let pad = try FingerScript(device: "synaptics-rmi4")
        let other: DeviceID = 42
        pad.engine.addDevice(other, description: pad.description)
        func send(_ events: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in events {
                _ = pad.engine.handle(InputEvent(type: type, code: code, value: value), from: other, at: pad.now)
            }
        }
        pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(150))
        send([(EventCode.absolute, EventCode.absMTSlot, 0), (EventCode.absolute, EventCode.absMTTrackingID, 7),
              (EventCode.absolute, EventCode.absMTPositionX, 800), (EventCode.absolute, EventCode.absMTPositionY, 400),
              (EventCode.key, EventCode.touch, 1), (EventCode.key, EventCode.toolFinger, 1),
              (EventCode.synchronization, EventCode.synReport, 0)])
        pad.wait(.milliseconds(80))
        send([(EventCode.absolute, EventCode.absMTTrackingID, -1),
              (EventCode.key, EventCode.touch, 0), (EventCode.key, EventCode.toolFinger, 0),
              (EventCode.synchronization, EventCode.synReport, 0)])
        pad.wait(.milliseconds(250))
        pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coastEndReasons.first == .touch, "the other pad's touch stopped the coast:\n\(pad.transcript)")
        #expect(pad.coasts.map(\.boosted) == [false, false], "\(pad.transcript)")
    }
}
