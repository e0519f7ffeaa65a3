import Testing
@testable import FlickCore
import FlickFingerStories
import FlickTestSupport

/// `scroll.natural`: `auto` follows what the daemon found on the desktop
/// (`Engine.desktopNaturalScrolling`), `true` and `false` decide alone, touchscreens are always
/// natural. Fingers move down 20 mm over 100 ms (200 mm/s) and lift: traditional scrolling
/// scrolls down (REL_WHEEL < 0), natural scrolling up (> 0).
@Suite struct NaturalScrollingTests {
    /// The vertical wheel total after a two-finger flick down on a T440 touchpad with
    /// `natural`, on a desktop whose own setting is `desktop`.
    static func flickDown(natural: NaturalScrolling, desktop: Bool, rules: (DeviceDescription) -> [DeviceRule] = { _ in [] })
        throws -> Int64
    {
        var configuration = Configuration()
        configuration.scroll.natural = natural
        let description = try Fixtures.device("synaptics-t440")
        configuration.devices = rules(description)
        let pad = FingerScript(description: description, configuration: configuration)
        pad.engine.desktopNaturalScrolling = desktop
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.coasts.count == 1, "no coast:\n\(pad.transcript)")
        return pad.verticalTotal
    }

    @Test func theDefaultIsAuto() {
        #expect(Configuration.defaults.scroll.natural == .auto)
        #expect(Engine().desktopNaturalScrolling == false, "libinput's default until the desktop says otherwise")
    }

    @Test func autoFollowsTheDesktop() throws {
        #expect(try Self.flickDown(natural: .auto, desktop: false) < 0, "traditional desktop: fingers down scroll down")
        #expect(try Self.flickDown(natural: .auto, desktop: true) > 0, "natural desktop: content follows the fingers down")
    }

    @Test func trueAndFalseWinOverTheDesktop() throws {
        #expect(try Self.flickDown(natural: .on, desktop: false) > 0)
        #expect(try Self.flickDown(natural: .off, desktop: true) < 0)
        #expect(try Self.flickDown(natural: true, desktop: false) > 0, "a Bool literal is .on")
    }

    /// A desktop that keeps the setting per device (KDE Plasma on Wayland): the pad's own
    /// setting wins over the desktop-wide one, for `auto` only.
    @Test func aDeviceOwnDesktopSettingWinsForAuto() throws {
        func flick(_ natural: NaturalScrolling, desktop: Bool, own: Bool?) throws -> Int64 {
            var configuration = Configuration()
            configuration.scroll.natural = natural
            let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
            pad.engine.desktopNaturalScrolling = desktop
            pad.engine.setDesktopNaturalScrolling(own, for: pad.device)
            pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.lift()
            pad.wait(.seconds(6))
            return pad.verticalTotal
        }
        #expect(try flick(.auto, desktop: false, own: true) > 0, "its own setting: natural")
        #expect(try flick(.auto, desktop: true, own: false) < 0, "its own setting: traditional")
        #expect(try flick(.auto, desktop: true, own: nil) > 0, "none of its own: the desktop's")
        #expect(try flick(.off, desktop: true, own: true) < 0, "an explicit setting wins")
    }

    @Test func naturalTurnsHorizontalCoastsToo() throws {
        var configuration = Configuration()
        configuration.scroll.natural = .auto
        let pad = try FingerScript(device: "synaptics-t440", configuration: configuration)
        pad.engine.desktopNaturalScrolling = true
        pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
        pad.move(by: Vector(x: 25, y: 0), over: .milliseconds(100))
        pad.lift()
        pad.wait(.seconds(6))
        #expect(pad.horizontalTotal < 0, "natural: fingers right move the content right, the view left")
    }

    /// A `[[device]]` section's `scroll.natural` applies to its device only.
    @Test func aDeviceSectionDecidesForItsDevice() throws {
        func rule(_ natural: NaturalScrolling) -> (DeviceDescription) -> [DeviceRule] {
            { description in
                var settings = Configuration()
                settings.scroll.natural = natural
                return [DeviceRule(name: String(description.name.prefix(8)).uppercased(), configuration: settings)]
            }
        }
        #expect(try Self.flickDown(natural: .off, desktop: false, rules: rule(.on)) > 0)
        #expect(try Self.flickDown(natural: .on, desktop: true, rules: rule(.auto)) > 0, "auto in the section: the desktop's")
        #expect(try Self.flickDown(natural: .on, desktop: false, rules: rule(.auto)) < 0)
    }

    /// The direction is decided when the device is added, and again when the desktop's setting
    /// or the configuration changes later (not per event): each next flick follows the change.
    @Test func laterChangesDecideTheNextFlick() throws {
        let pad = try FingerScript(device: "synaptics-t440")
        func flickDown() -> Int64 {
            let before = pad.verticalTotal
            pad.down(Vector(x: 20, y: 10), Vector(x: 40, y: 10))
            pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
            pad.lift()
            pad.wait(.seconds(6))
            return pad.verticalTotal - before
        }
        #expect(flickDown() < 0, "auto, no desktop answer yet: traditional")
        pad.engine.desktopNaturalScrolling = true
        #expect(flickDown() > 0, "the desktop turned natural scrolling on")
        var off = Configuration()
        off.scroll.natural = .off
        pad.engine.apply(off, at: pad.now)
        #expect(flickDown() < 0, "a reload with scroll.natural = false wins over the desktop")
        pad.engine.apply(.defaults, at: pad.now)
        #expect(flickDown() > 0, "back to auto: the desktop's setting, still natural")
        #expect(pad.coasts.count == 4, "\(pad.transcript)")
    }

    /// Dragging up on a touchscreen moves the content up whatever the settings say.
    @Test(arguments: [(NaturalScrolling.off, false), (.auto, false), (.auto, true), (.on, true)])
    func touchscreensAreAlwaysNatural(natural: NaturalScrolling, desktop: Bool) throws {
        var configuration = Configuration()
        configuration.touchscreen.enabled = true
        configuration.scroll.natural = natural
        let screen = try FingerScript(device: "touch-screen", configuration: configuration)
        screen.engine.desktopNaturalScrolling = desktop
        screen.down(Vector(x: 100, y: 120))
        screen.move(by: Vector(x: 0, y: -40), over: .milliseconds(100))
        screen.lift()
        screen.wait(.seconds(6))
        #expect(screen.coasts.count == 1)
        #expect(screen.verticalTotal < 0, "natural = \(natural), desktop \(desktop): the view scrolls down")
    }
}
