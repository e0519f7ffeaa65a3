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
}
