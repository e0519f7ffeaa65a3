import Testing
import FlickCore
import FlickTools
import FlickTestSupport

/// How a device's axis ranges become its size, and which ranges leave nothing to read.
@Suite struct DeviceDescriptionTests {
    /// The T440 clickpad with no resolution on its position axes, each axis as `axis` makes it.
    private func unresolvedT440(_ axis: (AxisInfo) -> AxisInfo) throws -> DeviceDescription {
        var device = try Fixtures.device("synaptics-t440")
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            guard var info = device.absoluteAxes[code] else { continue }
            info.resolution = 0
            device.absoluteAxes[code] = axis(info)
        }
        return device
    }

    /// A kernel that gives an axis's ends the other way round (min 5112, max 1024) describes a
    /// pad of the same width: it was read as 1 unit wide, so a pad without a resolution
    /// measured 1 unit per mm and every finger's travel was taken 40 times too long.
    @Test func anAxisWhoseEndsAreReversedSpansTheSame() throws {
        #expect(AxisInfo(minimum: 5112, maximum: 1024).span == 4088)
        #expect(AxisInfo(minimum: 1024, maximum: 5112).span == 4088)
        let upright = try unresolvedT440 { $0 }
        let reversed = try unresolvedT440 { AxisInfo(minimum: $0.maximum, maximum: $0.minimum) }
        #expect(reversed.kind == .touchpad)
        let expected = DeviceGeometry(description: upright, kind: .touchpad)
        let actual = DeviceGeometry(description: reversed, kind: .touchpad)
        #expect(actual == expected, "expected \(expected), actual \(actual)")
        // libinput's 69 x 50 mm guess, in whole units per mm: 4088 / 69 → 59, 2808 / 50 → 56.
        #expect(actual.x.unitsPerMillimetre == 59 && actual.y.unitsPerMillimetre == 56)
        // A size hint divides the same span.
        let hinted = ResolutionHint.size(width: 100, height: 70).applied(to: reversed)
        #expect(hinted?.absoluteAxes[EventCode.absMTPositionX]?.resolution == 40, "4088 / 100")
    }

    /// A position axis with min == max reports no position: libinput rejects such a device, and
    /// flickd ignores it, saying why, instead of reading it as a 1 x 1 mm pad.
    @Test(arguments: [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY])
    func aPositionAxisWithoutARangeIsIgnoredWithItsReason(code: UInt16) throws {
        var device = try Fixtures.device("synaptics-t440")
        device.absoluteAxes[code] = AxisInfo(minimum: 3000, maximum: 3000, resolution: 42)
        let name = [EventCode.absX: "ABS_X", EventCode.absY: "ABS_Y",
                    EventCode.absMTPositionX: "ABS_MT_POSITION_X", EventCode.absMTPositionY: "ABS_MT_POSITION_Y"][code]!
        #expect(device.rangeProblem?.hasPrefix("\(name) has min == max (3000)") == true,
                "\(String(describing: device.rangeProblem))")
        #expect(!device.hasPosition)
        #expect(device.kind == nil)

        let engine = Engine()
        #expect(engine.addDevice(1, description: device) == .ignored(why: device.rangeProblem!),
                "the daemon's log says why too")
        let replay = Replay(Recording(description: device, events: []), configuration: Configuration())
        #expect(replay.admission == .ignored(why: device.rangeProblem!), "\(replay.admission)")
    }

    /// libinput's touchpad code needs ABS_X, BTN_TOUCH and BTN_TOOL_FINGER
    /// (`tp_pass_sanity_check`); a touchpad without one is refused, by the engine too, and by a
    /// replay, whichever decided it is a touchpad (here its capabilities: a finger tool, indirect).
    /// A pad with MT positions but neither ABS_X nor ABS_Y (an Android-style or uinput driver's)
    /// passes: libinput copies ABS_X and ABS_Y from the MT axes before its sanity check
    /// (`evdev_fix_android_mt`). Without MT positions, or fake MT, it has no ABS_X to copy.
    @Test func aTouchpadWithOnlyMultitouchPositionsIsUsed() throws {
        var device = try Fixtures.device("synaptics-t440")
        device.absoluteAxes[EventCode.absX] = nil
        device.absoluteAxes[EventCode.absY] = nil
        #expect(device.touchpadSanityProblem == nil)
        guard case .used(.touchpad, _) = Engine().addDevice(1, description: device, kind: .touchpad) else {
            Issue.record("an MT-only touchpad is read"); return
        }
        var fake = device
        fake.absoluteAxes[EventCode.absMTSlot - 1] = AxisInfo(minimum: 0, maximum: 1)
        #expect(fake.touchpadSanityProblem?.hasPrefix("a touchpad without ABS_X:") == true, "\(fake.touchpadSanityProblem ?? "nil")")
    }

    @Test func aTouchpadFailingLibinputsSanityCheckIsIgnored() throws {
        let good = try Fixtures.device("synaptics-t440")
        #expect(good.touchpadSanityProblem == nil)
        var device = good
        device.keys.remove(EventCode.touch)
        device.keys.remove(EventCode.toolFinger)
        #expect(device.touchpadSanityProblem
                == "a touchpad without BTN_TOUCH and BTN_TOOL_FINGER: it fails libinput's touchpad sanity checks, so no desktop scrolls with it")
        device.keys.insert(EventCode.toolFinger)
        #expect(device.kind == .touchpad, "udev tags it a touchpad")
        #expect(Engine().addDevice(1, description: device) == .ignored(why: device.touchpadSanityProblem!))
        #expect(Engine().addDevice(1, description: device, kind: .touchpad) == .ignored(why: device.touchpadSanityProblem!))
        let replay = Replay(Recording(description: device, events: []), configuration: Configuration())
        #expect(replay.admission == .ignored(why: device.touchpadSanityProblem!), "\(replay.admission)")
        // libinput's touchscreen path has no such check: a tagged touchscreen is read.
        guard case .used(kind: .touchscreen, _) = Engine(configuration: { var c = Configuration.defaults; c.touchscreen.enabled = true; return c }())
            .addDevice(1, description: device, kind: .touchscreen) else {
            Issue.record("a touchscreen without BTN_TOUCH is not used")
            return
        }
    }

    /// Other axes without a range: libinput rejects the device for most (a pressure axis of
    /// 0...0), and only turns off one from ABS_MISC up to ABS_MT_SLOT that is 0...0; it passes
    /// over ABS_MT_SLOT and ABS_MT_TOOL_TYPE.
    @Test func otherAxesWithoutARangeAreJudgedAsLibinputJudgesThem() throws {
        var device = try Fixtures.device("synaptics-t440")
        device.absoluteAxes[EventCode.absMTPressure] = AxisInfo(minimum: 0, maximum: 0)
        #expect(device.rangeProblem == "absolute axis 0x3a has min == max (0): libinput rejects such a device as a kernel bug, so no desktop scrolls with it")
        #expect(device.kind == nil)
        #expect(Engine().addDevice(1, description: device) == .ignored(why: device.rangeProblem!))

        for (code, value) in [(EventCode.absMisc, Int32(5)), (0x2e, 0), (EventCode.absMTToolType, 2), (EventCode.absMTSlot, 0)] {
            var passed = try Fixtures.device("synaptics-t440")
            passed.absoluteAxes[code] = AxisInfo(minimum: value, maximum: value)
            #expect(passed.rangeProblem == nil, "axis \(code)")
            #expect(passed.kind == .touchpad, "axis \(code)")
            guard case .used = Engine().addDevice(1, description: passed) else {
                Issue.record("axis \(code): the pad is not used")
                continue
            }
        }
        var rejected = try Fixtures.device("synaptics-t440")
        rejected.absoluteAxes[0x2e] = AxisInfo(minimum: 4, maximum: 4)
        #expect(rejected.rangeProblem?.hasPrefix("absolute axis 0x2e has min == max (4)") == true, "not 0: rejected")
    }

    /// A touchpad whose kernel gives a resolution to one position axis only (MT X 12, MT Y 0):
    /// libinput rejects it ("kernel has only x or y MT resolution, not both"), so no desktop
    /// scrolls with it. flickd read it, x by the kernel's scale and y by its own guess, and
    /// glided the virtual pad after flicks the desktop had never scrolled.
    @Test func aResolutionOnOnlyOneAxisIsRejectedAsLibinputRejectsIt() throws {
        func pad(mtX: Int32, mtY: Int32, x: Int32 = 0, y: Int32 = 0) -> DeviceDescription {
            DeviceDescription(name: "Odd pad", keys: [EventCode.toolFinger, EventCode.touch],
                              absoluteAxes: [EventCode.absX: AxisInfo(minimum: 0, maximum: 1280, resolution: x),
                                             EventCode.absY: AxisInfo(minimum: 0, maximum: 704, resolution: y),
                                             EventCode.absMTPositionX: AxisInfo(minimum: 0, maximum: 1280, resolution: mtX),
                                             EventCode.absMTPositionY: AxisInfo(minimum: 0, maximum: 704, resolution: mtY),
                                             EventCode.absMTSlot: AxisInfo(minimum: 0, maximum: 4)])
        }
        let oneMT = pad(mtX: 12, mtY: 0)
        #expect(oneMT.kind == nil)
        let why = try #require(oneMT.rangeProblem)
        #expect(why.hasPrefix("ABS_MT_POSITION_X has resolution 12 and ABS_MT_POSITION_Y 0"), "\(why)")
        #expect(Engine().addDevice(1, description: oneMT) == .ignored(why: why))
        #expect(pad(mtX: 0, mtY: 0, x: 0, y: 12).rangeProblem?.hasPrefix("ABS_X has resolution 0 and ABS_Y 12") == true)
        #expect(pad(mtX: 12, mtY: 12, x: 12, y: 12).kind == .touchpad)
        #expect(pad(mtX: 0, mtY: 0).kind == .touchpad, "none on either: libinput guesses both")
        #expect(pad(mtX: 12, mtY: 12).kind == .touchpad, "each pair is judged alone")
    }

    /// Only one axis of a pair: libinput rejects the device (ABS_X without ABS_Y, or an MT
    /// position without the other), except the MT pair of a device that only claims every axis
    /// (ABS_MT_SLOT - 1 beside ABS_MT_SLOT), which it does not read as multitouch.
    @Test func onlyOneAxisOfAPairIsRejectedAsLibinputRejectsIt() {
        let x = AxisInfo(minimum: 0, maximum: 1280)
        let y = AxisInfo(minimum: 0, maximum: 704)
        let keys: Set<UInt16> = [EventCode.toolFinger, EventCode.touch]
        let withoutY = DeviceDescription(name: "Odd pad", keys: keys,
                                         absoluteAxes: [EventCode.absX: x, EventCode.absMTPositionX: x, EventCode.absMTPositionY: y])
        #expect(withoutY.rangeProblem?.hasPrefix("ABS_X without ABS_Y") == true, "\(String(describing: withoutY.rangeProblem))")
        #expect(withoutY.kind == nil)
        let withoutMTX = DeviceDescription(name: "Odd pad", keys: keys,
                                           absoluteAxes: [EventCode.absX: x, EventCode.absY: y, EventCode.absMTPositionY: y])
        #expect(withoutMTX.rangeProblem?.hasPrefix("ABS_MT_POSITION_Y without ABS_MT_POSITION_X") == true)
        var claimsEverything = withoutMTX
        claimsEverything.absoluteAxes[EventCode.absMTSlot] = AxisInfo(minimum: 0, maximum: 1)
        claimsEverything.absoluteAxes[EventCode.absMTSlot - 1] = AxisInfo(minimum: 0, maximum: 1)
        #expect(claimsEverything.rangeProblem == nil)
        #expect(claimsEverything.kind == .touchpad)
    }

    // MARK: What udev's input_id says the device is

    /// An old USB touchscreen as the kernel's usbtouchscreen driver describes it (eGalax, 3M
    /// MicroTouch, ...): BTN_TOUCH, ABS_X and ABS_Y (ABS_PRESSURE on some), no
    /// INPUT_PROP_DIRECT, no finger tool, no MT axes.
    static func usbTouchscreen(pressure: Bool = false) -> DeviceDescription {
        var axes = [EventCode.absX: AxisInfo(minimum: 0, maximum: 2047), EventCode.absY: AxisInfo(minimum: 0, maximum: 2047)]
        if pressure { axes[EventCode.absPressure] = AxisInfo(minimum: 0, maximum: 255) }
        return DeviceDescription(name: "eGalax Inc. USB TouchController", bustype: 0x03, vendor: 0x0eef, product: 0x0001,
                                 keys: [EventCode.touch], absoluteAxes: axes)
    }

    /// A pen digitizer on a screen, modelled on "Wacom HID 5218 Pen": INPUT_PROP_DIRECT and
    /// BTN_TOUCH as a touchscreen has them, and the pen's tools and barrel buttons.
    static func penDigitizer() -> DeviceDescription {
        DeviceDescription(
            name: "Wacom HID 5218 Pen", bustype: 0x18, vendor: 0x056a, product: 0x5218,
            properties: [EventCode.propDirect],
            keys: [EventCode.toolPen, 0x141, EventCode.touch, 0x14b, 0x14c],  // BTN_TOOL_RUBBER, BTN_STYLUS, BTN_STYLUS2
            absoluteAxes: [EventCode.absX: AxisInfo(minimum: 0, maximum: 25978, resolution: 100),
                           EventCode.absY: AxisInfo(minimum: 0, maximum: 14612, resolution: 100),
                           EventCode.absPressure: AxisInfo(minimum: 0, maximum: 4095),
                           0x1a: AxisInfo(minimum: -9000, maximum: 9000), 0x1b: AxisInfo(minimum: -9000, maximum: 9000)])
    }

    /// udev's input_id tags such a screen ID_INPUT_TOUCHSCREEN (touch, no finger tool, no mouse
    /// button) and libinput reads it as a touch device; flickd opened it as the touchscreen udev
    /// says it is and then ignored it as "not a touchpad or touchscreen" (it asked an indirect
    /// screen for MT positions).
    @Test(arguments: [false, true])
    func aSingleTouchScreenThatDoesNotSayItIsDirectIsATouchscreen(pressure: Bool) {
        let screen = Self.usbTouchscreen(pressure: pressure)
        #expect(screen.kind == .touchscreen)
        guard case .stopOnly = Engine().addDevice(1, description: screen) else {
            Issue.record("the screen is not read (touchscreens are off by default: they only stop coasts)")
            return
        }
    }

    /// udev's other rules around it: with a mouse button and only ABS_X/ABS_Y it is an absolute
    /// mouse (VMware's), direct or not; MT positions make it a touchscreen all the same; without
    /// BTN_TOUCH an indirect device is neither.
    @Test func aMouseButtonMakesASingleTouchScreenAMouse() {
        var mouse = Self.usbTouchscreen()
        mouse.keys.insert(EventCode.buttonLeft)
        #expect(mouse.kind == nil)
        mouse.properties = [EventCode.propDirect]
        #expect(mouse.kind == nil)
        var multitouch = mouse
        multitouch.absoluteAxes[EventCode.absMTPositionX] = AxisInfo(minimum: 0, maximum: 2047)
        multitouch.absoluteAxes[EventCode.absMTPositionY] = AxisInfo(minimum: 0, maximum: 2047)
        #expect(multitouch.kind == .touchscreen)
        var untouched = Self.usbTouchscreen()
        untouched.keys = []
        #expect(untouched.kind == nil)
        untouched.properties = [EventCode.propDirect]
        #expect(untouched.kind == .touchscreen, "direct: udev needs no BTN_TOUCH")
    }

    /// A pen digitizer sets INPUT_PROP_DIRECT and BTN_TOUCH, as a touchscreen does; udev tags
    /// anything with BTN_TOOL_PEN or BTN_STYLUS a tablet, and libinput reads its pen with its
    /// tablet code. flickd read it as a touchscreen: a pen stroke could coast, and the pen
    /// counted as a touch device (a recording's busier one, the one `flickd replay` reads).
    @Test func aPenDigitizerIsATabletNotATouchscreen() throws {
        let pen = Self.penDigitizer()
        #expect(pen.kind == nil)
        #expect(Engine().addDevice(1, description: pen) == .ignored(why: "not a touchpad or touchscreen"))
        var stylusOnly = pen
        stylusOnly.keys.remove(EventCode.toolPen)
        #expect(stylusOnly.kind == nil, "BTN_STYLUS alone makes a tablet too")
        var indirect = pen
        indirect.properties = []
        indirect.keys.insert(EventCode.toolFinger)
        #expect(indirect.kind == nil, "a tablet with a finger tool (a pen tablet's pad) is no touchpad")
        // The same display's finger-touch node is a touchscreen.
        #expect(try Fixtures.device("wacom-cintiq-13hdt-finger").kind == .touchscreen)
    }
}
