import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// A thumb resting in a clickpad's bottom button area (libinput's software buttons), ready to
/// click, while two fingers scroll above it. Coordinates are millimetres from the top-left corner.
@Suite struct ButtonAreaStories {
    /// The Synaptics RMI4 clickpad (INPUT_PROP_BUTTONPAD) is 97 × 53 mm: its button area is
    /// the bottom 15 % (8 mm; 10 mm on a pad taller than 67 mm), from 45 mm down.
    static let pad = "synaptics-rmi4"

    @Test func theClickpadHasAButtonArea() throws {
        let description = try Fixtures.device(Self.pad)
        #expect(description.properties.contains(EventCode.propButtonPad))
    }

    /// The thumb rests at the bottom; two fingers land above it and flick: a two-finger scroll,
    /// and it coasts.
    @Test func aThumbRestingInTheButtonAreaIsNoFinger() throws {
        let pad = try FingerScript(device: Self.pad)
        pad.down(Vector(x: 60, y: 50))                          // the thumb, 0
        pad.wait(.milliseconds(300))
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))    // fingers 1 and 2
        pad.move(over: .milliseconds(100)) { $0 == 0 ? .zero : Vector(x: 0, y: 20) }
        pad.lift(1, 2)
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "\(pad.noCoastReasons)\n\(pad.transcript)")
        #expect((pad.coasts.first?.releaseVelocity.y ?? 0) > 150, "the fingers' 200 mm/s, not diluted by the thumb")
        #expect(pad.verticalTotal < 0, "fingers down scroll down")
        pad.lift(0)
        pad.wait(.seconds(1))
        #expect(pad.noCoastReasons.isEmpty, "the thumb's lift ends no gesture: \(pad.noCoastReasons)")
    }

    /// A thumb that lands in the button area and moves up out of it with the others is a
    /// finger: three fingers, not a scroll.
    @Test func aThumbLeavingTheButtonAreaCounts() throws {
        let pad = try FingerScript(device: Self.pad)
        pad.down(Vector(x: 60, y: 50))
        pad.wait(.milliseconds(300))
        pad.down(Vector(x: 20, y: 40), Vector(x: 40, y: 40))
        pad.move(by: Vector(x: 0, y: -20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(2))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
        #expect(pad.noCoastReasons.last == .tooManyFingers(3), "\(pad.noCoastReasons)")
    }

    /// Fingers that landed above the button area and flick down into it are still the
    /// scroll's: only a contact that lands there rests.
    @Test func fingersFlickingIntoTheButtonAreaStillCoast() throws {
        let pad = try FingerScript(device: Self.pad)
        pad.down(Vector(x: 20, y: 28), Vector(x: 40, y: 28))
        pad.move(by: Vector(x: 0, y: 22), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "\(pad.noCoastReasons)\n\(pad.transcript)")
    }

    /// The same two-finger flick with the thumb resting on the middle of the pad instead: a
    /// third finger, as before.
    @Test func aThumbRestingAboveTheButtonAreaCounts() throws {
        let pad = try FingerScript(device: Self.pad)
        pad.down(Vector(x: 60, y: 40))
        pad.wait(.milliseconds(300))
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(over: .milliseconds(100)) { $0 == 0 ? .zero : Vector(x: 0, y: 20) }
        pad.lift(1, 2)
        pad.wait(.seconds(2))
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
    }
}
