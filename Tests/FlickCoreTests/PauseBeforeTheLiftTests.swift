import Foundation
import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

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

    /// A scroll of 20 mm, a rest of 300 ms with no frames (the history restarts after it), then
    /// two frames of 0.2 mm and ±0.5 mm, and the lift. The tap gate counted the scroll before
    /// the pause, and the two frames coasted at their 62.5 mm/s; 0.7 mm since the pause is no
    /// flick: the fingers had stopped.
    @Test(arguments: [0.5, -0.5])
    func twoFramesAfterAPauseDoNotCoast(last: Double) throws {
        let pad = try FingerScript(device: "synaptics-t440")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(104))
        pad.wait(.milliseconds(300))
        pad.move(by: Vector(x: 0, y: 0.2), over: .milliseconds(8))
        pad.move(by: Vector(x: 0, y: last), over: .milliseconds(8))
        pad.lift()
        pad.wait(.seconds(1))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons == [.fingersStopped], "\(pad.noCoastReasons)")
    }

    /// The control: after the same pause, a flick of its own (10 mm in 48 ms) coasts.
    @Test func aFlickAfterAPauseCoasts() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(104))
        pad.wait(.milliseconds(300))
        pad.move(by: Vector(x: 0, y: 10), over: .milliseconds(48))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "\(pad.noCoastReasons)\n\(pad.transcript)")
    }
}
