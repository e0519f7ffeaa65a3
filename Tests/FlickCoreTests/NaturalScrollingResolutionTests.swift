import Testing
@testable import FlickCore
import FlickTestSupport

/// The one `scroll.natural` resolver (daemon and doctor): the matching `[[device]]` section
/// first, `"auto"` is the desktop's answer (false without one), touchscreens always natural;
/// and it agrees with the direction the engine coasts in.
@Suite struct NaturalScrollingResolutionTests {
    static let pad = DeviceIdentity(name: "SynPS/2 Synaptics TouchPad", vendor: 0x0002, product: 0x0007)

    static func configuration(top: NaturalScrolling, section: NaturalScrolling?, vendor: UInt16? = nil) -> Configuration {
        var configuration = Configuration()
        configuration.scroll.natural = top
        var other = Configuration()
        other.scroll.natural = .on
        configuration.devices = [DeviceRule(name: "mouse", configuration: other)]
        if let section {
            var settings = Configuration()
            settings.scroll.natural = section
            configuration.devices.append(DeviceRule(name: "synaptics", vendor: vendor, configuration: settings))
        }
        return configuration
    }

    @Test func theTopLevelSettingWithoutASection() {
        let off = Self.configuration(top: .off, section: nil)
        #expect(off.naturalScrolling(for: Self.pad, kind: .touchpad, desktop: true) == .init(isNatural: false, source: .setting(section: nil)))
        let auto = Self.configuration(top: .auto, section: nil)
        #expect(auto.naturalScrolling(for: Self.pad, kind: .touchpad, desktop: true) == .init(isNatural: true, source: .desktop(section: nil)))
        #expect(auto.naturalScrolling(for: Self.pad, kind: .touchpad, desktop: nil) == .init(isNatural: false, source: .noDesktopSetting(section: nil)))
        #expect(auto.naturalScrolling(for: nil, kind: .touchpad, desktop: false).explanation == "scroll.natural = \"auto\", the desktop's setting")
    }

    @Test func theMatchingSectionDecidesAndIsNamed() {
        let on = Self.configuration(top: .off, section: .on)
        let resolution = on.naturalScrolling(for: Self.pad, kind: .touchpad, desktop: false)
        #expect(resolution == .init(isNatural: true, source: .setting(section: 2)))
        #expect(resolution.explanation == "scroll.natural = true in [[device]] 2")
        let auto = Self.configuration(top: .on, section: .auto)
        #expect(auto.naturalScrolling(for: Self.pad, kind: .touchpad, desktop: false) == .init(isNatural: false, source: .desktop(section: 2)))
        #expect(auto.followsDesktopNaturalScrolling && !Self.configuration(top: .on, section: .off).followsDesktopNaturalScrolling)
    }

    @Test func aSectionNamingAnIdMatchesOnlyWhenTheIdIsKnown() {
        let configuration = Self.configuration(top: .off, section: .on, vendor: 0x0002)
        #expect(configuration.naturalScrolling(for: Self.pad, kind: .touchpad, desktop: nil).isNatural)
        let unknown = DeviceIdentity(name: Self.pad.name)
        #expect(configuration.naturalScrolling(for: unknown, kind: .touchpad, desktop: nil) == .init(isNatural: false, source: .setting(section: nil)))
    }

    @Test func touchscreensAlwaysFollowTheFingers() {
        let configuration = Self.configuration(top: .off, section: .off)
        #expect(configuration.naturalScrolling(for: Self.pad, kind: .touchscreen, desktop: false) == .init(isNatural: true, source: .touchscreen))
    }

    /// Whether content follows the fingers, written out by hand: the device's section wins where
    /// it has one, else the top level; "auto" is the desktop's answer. Indexed by
    /// [top][section][desktop false, desktop true].
    static let expectedNatural: [NaturalScrolling: [NaturalScrolling?: (Bool, Bool)]] = [
        .auto: [nil: (false, true), .auto: (false, true), .on: (true, true), .off: (false, false)],
        .on: [nil: (true, true), .auto: (false, true), .on: (true, true), .off: (false, false)],
        .off: [nil: (false, false), .auto: (false, true), .on: (true, true), .off: (false, false)],
    ]

    /// For every setting and desktop answer, the resolver and the engine's coast both say the
    /// direction written in `expectedNatural`.
    @Test(arguments: [NaturalScrolling.auto, .on, .off], [NaturalScrolling?.none, .auto, .on, .off])
    func agreesWithTheEngine(top: NaturalScrolling, section: NaturalScrolling?) throws {
        let description = try Fixtures.device("synaptics-t440")
        let row = try #require(Self.expectedNatural[top]?[section])
        for desktop in [false, true] {
            let natural = desktop ? row.1 : row.0
            var configuration = Configuration()
            configuration.scroll.natural = top
            if let section {
                var settings = Configuration()
                settings.scroll.natural = section
                configuration.devices = [DeviceRule(name: description.name, configuration: settings)]
            }
            let resolved = configuration.naturalScrolling(for: DeviceIdentity(description), kind: .touchpad, desktop: desktop)
            let total = try NaturalScrollingTests.flickDown(natural: top, desktop: desktop) { _ in configuration.devices }
            let context = "top \(top), section \(String(describing: section)), desktop \(desktop)"
            #expect(total != 0, "\(context): the flick wrote nothing")
            #expect((total > 0) == natural, "\(context): engine \(total), expected natural \(natural)")
            #expect(resolved.isNatural == natural, "\(context): resolver \(resolved), expected natural \(natural)")
        }
    }
}
