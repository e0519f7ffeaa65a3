import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// A touchpad whose driver glides by itself (the synaptics X driver's coasting): its flicks
/// start no coast, its touches still stop one, and the driver's glide turned off gives it back.
@Suite struct DriverGlides {
    static let why = "the synaptics X driver glides by itself"

    /// A flick fast enough to coast on any pad that coasts.
    static func flick(_ pad: FingerScript) {
        FingerStories.twoFingers(pad)
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.milliseconds(100))
    }

    @Test func aPadWhoseDriverGlidesStartsNoCoastAndGetsItBack() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        let admission = try #require(pad.engine.setDriverGlides(Self.why, for: pad.device))
        guard case .stopOnly(.touchpad, Self.why) = admission else {
            Issue.record("admission \(admission)")
            return
        }
        #expect(pad.engine.setDriverGlides(Self.why, for: pad.device) == nil, "no change, nothing to say")
        Self.flick(pad)
        #expect(!pad.engine.isCoasting && pad.coasts.isEmpty, "\(pad.transcript)")

        // The driver's glide turned off: flicks coast again.
        guard case .used(.touchpad, _)? = pad.engine.setDriverGlides(nil, for: pad.device) else {
            Issue.record("not used again")
            return
        }
        Self.flick(pad)
        #expect(pad.engine.isCoasting)
        #expect(pad.coasts.count == 1)
    }

    /// A finger landing in slot 0 of a T440, as its frame's events.
    static let landing: [(UInt16, UInt16, Int32)] = [
        (EventCode.absolute, EventCode.absMTSlot, 0), (EventCode.absolute, EventCode.absMTTrackingID, 7),
        (EventCode.absolute, EventCode.absMTPositionX, 3000), (EventCode.absolute, EventCode.absMTPositionY, 3000),
        (EventCode.key, EventCode.touch, 1), (EventCode.key, EventCode.toolFinger, 1),
        (EventCode.synchronization, EventCode.synReport, 0)]
    /// The other pad of `coastingBesideAnotherPad`.
    static let other: DeviceID = 42

    /// A T440 under `configuration` coasting from a flick, beside a second one (`other`) whose
    /// driver glides, read only to stop coasts; nil, with an issue, when that one is used.
    static func coastingBesideAnotherPad(_ configuration: Configuration = .defaults) throws -> FingerScript? {
        let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
        guard case .stopOnly? = pad.engine.addDevice(other, description: try Fixtures.device("synaptics-t440"), driverGlides: why) as DeviceAdmission? else {
            Issue.record("added as used")
            return nil
        }
        flick(pad)
        #expect(pad.engine.isCoasting)
        return pad
    }

    @Test func itsTouchStillStopsACoastFromAnotherPad() throws {
        guard let pad = try Self.coastingBesideAnotherPad() else { return }
        for (type, code, value) in Self.landing {
            _ = pad.engine.handle(InputEvent(type: type, code: code, value: value), from: Self.other, at: pad.now)
        }
        #expect(!pad.engine.isCoasting)
        #expect(pad.coastEndReasons == [.touch])
    }

    /// With `stop.touch` off, a pad read only to stop coasts stops one with its own button,
    /// even pressed in the frame its finger lands in (a clickpad's click), and not with a touch.
    @Test func withoutTouchStopsOnlyItsButtonStopsACoastFromAnotherPad() throws {
        var configuration = Configuration.defaults
        configuration.stop.touch = false
        let land = Self.landing
        let click: [(UInt16, UInt16, Int32)] = [(EventCode.key, EventCode.buttonLeft, 1), (EventCode.synchronization, EventCode.synReport, 0)]
        for (name, events) in [("a touch, then a click", land + click), ("a click in the landing frame", click.dropLast() + land)] {
            guard let pad = try Self.coastingBesideAnotherPad(configuration) else { return }
            let other = Self.other
            var stoppedAt: Int?
            for (i, (type, code, value)) in events.enumerated() {
                _ = pad.engine.handle(InputEvent(type: type, code: code, value: value), from: other, at: pad.now)
                if stoppedAt == nil && !pad.engine.isCoasting { stoppedAt = i }
            }
            #expect(stoppedAt == events.count - 1, "\(name): stopped at the click's frame, not before")
            #expect(pad.coastEndReasons == [.button], "\(name)")
        }
    }

    @Test func aDisabledKindSaysSoFirst() throws {
        var configuration = Configuration.defaults
        configuration.touchpad.enabled = false
        let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
        #expect(pad.engine.setDriverGlides(Self.why, for: pad.device) == nil, "already stop-only, for touchpad.enabled")
        guard case .stopOnly(_, "touchpad.enabled is false")? = pad.engine.admission(of: pad.device) else {
            Issue.record("\(String(describing: pad.engine.admission(of: pad.device)))")
            return
        }
    }
}
