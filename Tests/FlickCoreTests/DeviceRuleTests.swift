import Foundation
import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

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
