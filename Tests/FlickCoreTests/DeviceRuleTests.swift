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

    /// A section after one that matches every device it matches never applies: named by the
    /// warning; sections that each match devices of their own are not.
    @Test func aSectionAfterOneThatCoversItIsWarnedOf() {
        func warned(_ rules: [(name: String?, vendor: UInt16?, product: UInt16?)]) -> [String] {
            var configuration = Configuration()
            configuration.devices = rules.map { DeviceRule(name: $0.name, vendor: $0.vendor, product: $0.product, configuration: Configuration()) }
            return configuration.deviceRuleWarnings().map { String($0.prefix(while: { $0 != ":" })) }
        }
        #expect(warned([("Synaptics", nil, nil), ("Synaptics TM3053", nil, nil)]) == ["device[2] never applies"])
        #expect(warned([("synaptics", nil, nil), ("SYNAPTICS TouchPad", nil, nil)]) == ["device[2] never applies"], "case aside")
        #expect(warned([(nil, 0x06cb, nil), ("TM3053", 0x06cb, 0x0001)]) == ["device[2] never applies"])
        #expect(warned([("Pad", nil, nil), ("ELAN", nil, nil), ("Touch Pad", nil, nil)]) == ["device[3] never applies"])
        // Each matches devices the other does not.
        #expect(warned([("Synaptics TM3053", nil, nil), ("Synaptics", nil, nil)]).isEmpty)
        #expect(warned([("Synaptics", 0x06cb, nil), ("Synaptics TM3053", nil, nil)]).isEmpty, "the later one also matches other vendors")
        #expect(warned([(nil, 0x06cb, nil), (nil, 0x04f3, nil)]).isEmpty)
        #expect(warned([("Pad", nil, 0x0001), ("Pad", nil, nil)]).isEmpty)
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
