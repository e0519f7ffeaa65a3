/// What kind of touch device a description is, which decides how its gestures are read.
public enum DeviceKind: String, Sendable, Hashable {
    /// An indirect pointing surface: a scroll is `touchpad.fingers` fingers moving together.
    case touchpad
    /// A touchscreen (`INPUT_PROP_DIRECT`, or touch without a finger tool: `DeviceDescription.kind`):
    /// a drag of `touchscreen.fingers` fingers.
    case touchscreen
}

/// One absolute axis as the kernel describes it (`struct input_absinfo`).
public struct AxisInfo: Hashable, Sendable {
    /// Smallest value the axis reports, in device units.
    public var minimum: Int32
    /// Largest value the axis reports, in device units.
    public var maximum: Int32
    /// Noise filter width, in device units.
    public var fuzz: Int32
    /// Dead zone, in device units.
    public var flat: Int32
    /// Device units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    /// An axis spanning `minimum...maximum` with `resolution` units per millimetre.
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// The axis range in device units, whichever way round the kernel gives its ends (an
    /// axis with `minimum > maximum` spans the same); at least 1, so that it divides.
    public var span: Int64 { max(1, abs(Int64(maximum) - Int64(minimum))) }

    /// The axis range as the libinput that reads the device divides it into a size (an
    /// `AttrSizeHint`, or the 69 × 50 mm guess for a touchpad): `span`, or one more where that
    /// libinput counts the values an inclusive range holds; at least 1.
    public func libinputRange(_ measure: LibinputAxisRange) -> Int64 {
        switch measure {
        case .difference: span
        // libinput's abs((int)absinfo_range(a)), absinfo_range being max − min + 1.
        case .inclusive: max(1, abs(Int64(maximum) - Int64(minimum) + 1))
        }
    }
}

/// How a libinput release measures an axis range where it turns a size in millimetres into
/// whole units per millimetre (evdev.c's `evdev_fix_abs_resolution` for an `AttrSizeHint`,
/// evdev-mt-touchpad.c's `tp_init_default_resolution` for the 69 × 50 mm guess). libinput 1.25
/// (commit 4effe6b1, "the kernel range is inclusive min and max") changed it; the two differ
/// by a few per cent on a small range (ALPS 0...2000 guessed 69 mm wide: 28 or 29 units/mm).
public enum LibinputAxisRange: Hashable, Sendable {
    /// `maximum − minimum`: libinput 1.24 and earlier (Debian 12's 1.22). Also where the
    /// installed libinput is not known (a replay, a test): flickd's measure before it knew both.
    case difference
    /// `maximum − minimum + 1`: libinput 1.25 and later.
    case inclusive
}

/// A touch device's capabilities: what flickd needs to read its events.
///
/// Built from libevdev by the daemon, from a recording's header by `flickd replay`, and from
/// the device fixtures (Tests/Fixtures/devices) in tests.
public struct DeviceDescription: Hashable, Sendable {
    /// The kernel's device name.
    public var name: String
    /// Bus type (`BUS_USB` = 3, `BUS_I8042` = 0x11, ...).
    public var bustype: UInt16
    /// USB/PS2 vendor id.
    public var vendor: UInt16
    /// Product id.
    public var product: UInt16
    /// Version id (libinput's quirks can match it).
    public var version: UInt16
    /// `INPUT_PROP_*` bits the device sets.
    public var properties: Set<UInt16>
    /// `EV_KEY` codes the device can send.
    public var keys: Set<UInt16>
    /// `EV_ABS` axes the device has, by code.
    public var absoluteAxes: [UInt16: AxisInfo]
    /// How the libinput that reads the device measures an axis range when it gives a device
    /// without a resolution one (`LibinputAxisRange`): the daemon learns it from libinput's
    /// quirks files (`LibinputQuirks.applied`); `.difference` where it is not known.
    public var libinputAxisRange: LibinputAxisRange

    /// A description; only `absoluteAxes` matter for reading touches.
    public init(
        name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
        properties: Set<UInt16> = [], keys: Set<UInt16> = [], absoluteAxes: [UInt16: AxisInfo] = [:],
        libinputAxisRange: LibinputAxisRange = .difference
    ) {
        self.libinputAxisRange = libinputAxisRange
        self.name = name
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.keys = keys
        self.absoluteAxes = absoluteAxes
    }

    /// Whether the device reports positions at all (ABS_X/ABS_Y or their MT forms), and libinput
    /// takes it (see `rangeProblem`).
    public var hasPosition: Bool {
        guard rangeProblem == nil else { return false }
        return (absoluteAxes[EventCode.absX] != nil && absoluteAxes[EventCode.absY] != nil)
            || (absoluteAxes[EventCode.absMTPositionX] != nil && absoluteAxes[EventCode.absMTPositionY] != nil)
    }

    /// Whether it has pointer buttons of its own (BTN_LEFT ... BTN_TASK: a touchpad's physical
    /// buttons), not only the touch and tool keys every touch device has.
    public var hasPointerButtons: Bool { keys.contains(where: EventCode.isPointerButton) }

    /// Why libinput rejects the device as a kernel bug (evdev.c's `evdev_reject_device`), so
    /// that no desktop scrolls with it; nil when it does not. In libinput's order: it has only
    /// one of ABS_X and ABS_Y, or of ABS_MT_POSITION_X and ABS_MT_POSITION_Y; a resolution on
    /// only one axis of either pair ("kernel has only x or y resolution, not both"); or one of
    /// its absolute axes has `minimum == maximum`, a range of no width ("device has min == max
    /// on ABS_X"). As libinput, it passes over the MT pair of a device that is not multitouch
    /// (ABS_MT_SLOT - 1 beside ABS_MT_SLOT: libevdev gives it no slots), and over ABS_MISC,
    /// ABS_MT_SLOT and ABS_MT_TOOL_TYPE, and an axis from ABS_MISC up to ABS_MT_SLOT with 0 for
    /// both ends (libinput only turns that one off). libinput's REL_X-without-REL_Y rule is not
    /// mirrored: a description holds no relative axes. Such a device is not a touch device
    /// (`kind` is nil): a flick on it scrolls nothing, and a glide would come from nowhere (on a
    /// pad with one resolution, flickd read the other axis by a guess of its own).
    public var rangeProblem: String? {
        let positions: [UInt16: String] = [EventCode.absX: "ABS_X", EventCode.absY: "ABS_Y",
                                           EventCode.absMTPositionX: "ABS_MT_POSITION_X", EventCode.absMTPositionY: "ABS_MT_POSITION_Y"]
        let rejected = "libinput rejects such a device as a kernel bug, so no desktop scrolls with it"
        let fakeMultitouch = absoluteAxes[EventCode.absMTSlot] != nil && absoluteAxes[EventCode.absMTSlot - 1] != nil
        var pairs: [(x: UInt16, y: UInt16)] = [(EventCode.absX, EventCode.absY)]
        if !fakeMultitouch { pairs.append((EventCode.absMTPositionX, EventCode.absMTPositionY)) }
        for pair in pairs {
            let (x, y) = (absoluteAxes[pair.x], absoluteAxes[pair.y])
            if (x == nil) != (y == nil) {
                let (has, lacks) = x == nil ? (pair.y, pair.x) : (pair.x, pair.y)
                return "\(positions[has]!) without \(positions[lacks]!): no position can be read from it (\(rejected))"
            }
        }
        for pair in pairs {
            guard let x = absoluteAxes[pair.x], let y = absoluteAxes[pair.y], (x.resolution == 0) != (y.resolution == 0) else { continue }
            return "\(positions[pair.x]!) has resolution \(x.resolution) and \(positions[pair.y]!) \(y.resolution): "
                + "the kernel gives only one of x and y a resolution (\(rejected))"
        }
        for code in absoluteAxes.keys.sorted() {
            guard let axis = absoluteAxes[code], axis.minimum == axis.maximum else { continue }
            switch code {
            case EventCode.absMisc, EventCode.absMTSlot, EventCode.absMTToolType:
                continue
            case EventCode.absMisc..<EventCode.absMTSlot where axis.minimum == 0:
                continue
            default:
                if let name = positions[code] {
                    return "\(name) has min == max (\(axis.minimum)): no position can be read from it (libinput rejects such a device as a kernel bug)"
                }
                let hex = String(code, radix: 16)
                return "absolute axis 0x\(hex.count < 2 ? "0" + hex : hex) has min == max (\(axis.minimum)): \(rejected)"
            }
        }
        return nil
    }

    /// Why libinput refuses the device where it reads it as a touchpad (udev's ID_INPUT_TOUCHPAD,
    /// or a finger tool on an indirect device: `kind`); nil when it takes it. Its touchpad code
    /// (evdev-mt-touchpad.c's `tp_pass_sanity_check`, alike in 1.22 and later) needs ABS_X,
    /// BTN_TOUCH and BTN_TOOL_FINGER; without one it logs "device failed touchpad sanity
    /// checks" and adds no device, so no desktop scrolls with it and a glide would come from
    /// nowhere. libinput's touchscreen path (the fallback dispatch) has no such check.
    public var touchpadSanityProblem: String? {
        var missing: [String] = []
        // libinput gives a device with MT positions but neither ABS_X nor ABS_Y (an Android-style
        // driver's) ABS_X and ABS_Y copied from them before this check (`evdev_fix_android_mt`),
        // unless it is fake MT (ABS_MT_SLOT - 1 beside ABS_MT_SLOT: libevdev gives it no slots).
        let fakeMultitouch = absoluteAxes[EventCode.absMTSlot] != nil && absoluteAxes[EventCode.absMTSlot - 1] != nil
        let androidMultitouch = absoluteAxes[EventCode.absY] == nil && !fakeMultitouch
            && absoluteAxes[EventCode.absMTPositionX] != nil && absoluteAxes[EventCode.absMTPositionY] != nil
        if absoluteAxes[EventCode.absX] == nil && !androidMultitouch { missing.append("ABS_X") }
        if !keys.contains(EventCode.touch) { missing.append("BTN_TOUCH") }
        if !keys.contains(EventCode.toolFinger) { missing.append("BTN_TOOL_FINGER") }
        guard let last = missing.popLast() else { return nil }
        let lacks = missing.isEmpty ? last : missing.joined(separator: ", ") + " and " + last
        return "a touchpad without \(lacks): it fails libinput's touchpad sanity checks, so no desktop scrolls with it"
    }

    /// The kind of touch device this is, or nil when it is neither a touchpad nor a touchscreen
    /// (a mouse, a tablet's pen, a joystick, an accelerometer), or one libinput rejects
    /// (`rangeProblem`).
    ///
    /// What udev's input_id (test_pointers) tags it, ID_INPUT_TOUCHPAD or
    /// ID_INPUT_TOUCHSCREEN, and so what libinput reads it as: a pen or stylus makes a tablet,
    /// even on a screen (a pen digitizer sets INPUT_PROP_DIRECT and BTN_TOUCH); a finger tool
    /// on an indirect device a touchpad; else touch or INPUT_PROP_DIRECT a touchscreen, with MT
    /// positions, or with ABS_X/ABS_Y and no mouse button (with one, an absolute mouse, as
    /// VMware's). A touchscreen need not say it is direct: the old single-touch USB screens
    /// (usbtouchscreen: eGalax, 3M MicroTouch) declare only BTN_TOUCH, ABS_X and ABS_Y.
    public var kind: DeviceKind? {
        guard rangeProblem == nil else { return nil }
        let has = { (code: UInt16) in absoluteAxes[code] != nil }
        let single = has(EventCode.absX) && has(EventCode.absY)
        // udev takes a device that claims ABS_MT_SLOT - 1 beside ABS_MT_SLOT to claim every
        // axis, its MT ones meaning nothing.
        let multi = has(EventCode.absMTPositionX) && has(EventCode.absMTPositionY)
            && !(has(EventCode.absMTSlot) && has(EventCode.absMTSlot - 1))
        guard single || multi else { return nil }
        // An accelerometer: udev says so before anything else.
        if properties.contains(Self.propAccelerometer) || (keys.isEmpty && single && has(Self.absZ)) { return nil }
        // A tablet: libinput reads its pen with its tablet code, never as touches.
        if keys.contains(EventCode.toolPen) || keys.contains(Self.buttonStylus) { return nil }
        let direct = properties.contains(EventCode.propDirect)
        // Some pads (old ALPS ones) declare BTN_TOUCH and never send it: the finger tool decides.
        if keys.contains(EventCode.toolFinger) && !direct { return .touchpad }
        guard keys.contains(EventCode.touch) || direct else { return nil }
        if multi { return .touchscreen }
        return keys.contains(where: Self.isMouseButton) ? nil : .touchscreen
    }

    /// INPUT_PROP_ACCELEROMETER.
    private static let propAccelerometer: UInt16 = 0x06
    /// ABS_Z.
    private static let absZ: UInt16 = 0x02
    /// BTN_STYLUS: a pen's barrel button.
    private static let buttonStylus: UInt16 = 0x14b
    /// Whether `code` is a mouse button as udev counts them: BTN_MOUSE (BTN_LEFT) up to, not
    /// including, BTN_JOYSTICK.
    private static func isMouseButton(_ code: UInt16) -> Bool { (0x110..<0x120).contains(code) }

    /// Number of multitouch slots (protocol B), 0 when the device has none.
    public var slotCount: Int {
        guard let slot = absoluteAxes[EventCode.absMTSlot] else { return 0 }
        return Int(max(0, min(Int64(slot.maximum) + 1, 64)))
    }

    /// Multitouch protocol A: MT positions but no slots (contacts separated by SYN_MT_REPORT).
    public var usesProtocolA: Bool {
        slotCount == 0 && absoluteAxes[EventCode.absMTPositionX] != nil
    }

    /// Semi-multitouch: the two slots are the corners of a bounding box, not two fingers.
    public var isSemiMultitouch: Bool { properties.contains(EventCode.propSemiMT) }

    /// The largest finger count the device can announce through BTN_TOOL_* (1 when none).
    public var maximumToolFingerCount: Int {
        if keys.contains(EventCode.toolQuintTap) { return 5 }
        if keys.contains(EventCode.toolQuadTap) { return 4 }
        if keys.contains(EventCode.toolTripleTap) { return 3 }
        if keys.contains(EventCode.toolDoubleTap) { return 2 }
        return 1
    }
}

/// libinput's hint for a touch device that reports no resolution, from a quirks file (a
/// section's `AttrResolutionHint` or `AttrSizeHint`), as libinput applies it: only where x and
/// y both report resolution 0.
public enum ResolutionHint: Hashable, Sendable {
    /// `AttrResolutionHint=XxY`: units per millimetre on x and y.
    case resolution(x: Int32, y: Int32)
    /// `AttrSizeHint=WxH`: the surface's width and height in millimetres.
    case size(width: Int32, height: Int32)

    /// The hint a quirks line gives (`AttrResolutionHint`, `31x31`); nil for another key or a
    /// value that is not two positive whole numbers.
    public init?(key: String, value: String) {
        let parts = value.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int32(parts[0]), let b = Int32(parts[1]), a > 0, b > 0 else { return nil }
        switch key {
        case "AttrResolutionHint": self = .resolution(x: a, y: b)
        case "AttrSizeHint": self = .size(width: a, height: b)
        default: return nil
        }
    }

    /// The x and y axis pairs (MT and single-touch) of `description` that report resolution
    /// 0 on both axes: the ones a hint fills in.
    static func unresolvedPairs(of description: DeviceDescription) -> [(x: UInt16, y: UInt16)] {
        let pairs: [(x: UInt16, y: UInt16)] = [(EventCode.absMTPositionX, EventCode.absMTPositionY),
                                               (EventCode.absX, EventCode.absY)]
        return pairs.filter { pair in
            guard let x = description.absoluteAxes[pair.x], let y = description.absoluteAxes[pair.y] else { return false }
            return x.resolution == 0 && y.resolution == 0
        }
    }

    /// Whether a hint could change `description`: it lacks a resolution on x and y.
    public static func couldApply(to description: DeviceDescription) -> Bool {
        !unresolvedPairs(of: description).isEmpty
    }

    /// `description` with the resolution this hint gives it (a size is divided into each axis
    /// range in whole units, as libinput does, the range measured as its
    /// `libinputAxisRange` says); nil when the device reports a resolution, or the hint would
    /// give an axis less than one unit per millimetre.
    public func applied(to description: DeviceDescription) -> DeviceDescription? {
        let unresolved = Self.unresolvedPairs(of: description)
        guard !unresolved.isEmpty else { return nil }
        var result = description
        for pair in unresolved {
            guard var x = result.absoluteAxes[pair.x], var y = result.absoluteAxes[pair.y] else { continue }
            switch self {
            case .resolution(let rx, let ry):
                x.resolution = rx
                y.resolution = ry
            case .size(let width, let height):
                let measure = description.libinputAxisRange
                x.resolution = Int32(clamping: x.libinputRange(measure) / Int64(width))
                y.resolution = Int32(clamping: y.libinputRange(measure) / Int64(height))
            }
            guard x.resolution > 0, y.resolution > 0 else { return nil }
            result.absoluteAxes[pair.x] = x
            result.absoluteAxes[pair.y] = y
        }
        return result
    }
}

/// How device units on one axis become millimetres.
public struct AxisScale: Hashable, Sendable {
    /// Device units per millimetre (always > 0).
    public var unitsPerMillimetre: Double
    /// True when the device reported resolution 0 and the value is an estimate.
    public var isEstimated: Bool
    /// The axis length in millimetres.
    public var lengthMillimetres: Double
}

/// The physical geometry of a touch device: the scale of both axes.
public struct DeviceGeometry: Hashable, Sendable {
    /// Horizontal axis.
    public var x: AxisScale
    /// Vertical axis.
    public var y: AxisScale

    /// Assumed size of a touchpad that reports resolution 0, in millimetres (width, height).
    ///
    /// Rationale in docs/DESIGN.md: a common laptop touchpad size, the same assumption libinput
    /// makes for such pads, so speeds feel alike on devices with and without resolution. As in
    /// libinput, the units per millimetre are the axis range divided by it, truncated to a
    /// whole number, so the size comes out slightly larger.
    public static let assumedTouchpadSize = (width: 69.0, height: 50.0)

    /// Assumed size of a touchscreen that reports resolution 0, in millimetres: a 13.3-inch
    /// 16:9 laptop panel, landscape (294 mm along x), or portrait (294 mm along y) where y
    /// has the longer range. Equal ranges (an eGalax screen's 0...2047 on both) say nothing of
    /// the shape: such a panel is taken as landscape.
    public static let assumedTouchscreenSize = (width: 294.0, height: 165.0)

    /// The geometry of `description`, estimating missing resolutions for a device of `kind`.
    /// `resolutionOverride` (units/mm, both axes) wins over what the device reports.
    public init(description: DeviceDescription, kind: DeviceKind, resolutionOverride: Double? = nil) {
        func axis(_ mtCode: UInt16, _ code: UInt16) -> AxisInfo {
            description.absoluteAxes[mtCode] ?? description.absoluteAxes[code] ?? AxisInfo(minimum: 0, maximum: 1000)
        }
        var assumed = kind == .touchpad ? Self.assumedTouchpadSize : Self.assumedTouchscreenSize
        if kind == .touchscreen,
           axis(EventCode.absMTPositionY, EventCode.absY).span > axis(EventCode.absMTPositionX, EventCode.absX).span {
            // A portrait panel: its longer range lies along y. Read as landscape, one of
            // 0...1200 × 0...1920 measured 4.1 units/mm across and 11.6 down, and a drag's
            // speed depended on its direction; turned, 7.3 and 6.5 (1080 × 1920: one scale).
            assumed = (width: Self.assumedTouchscreenSize.height, height: Self.assumedTouchscreenSize.width)
        }
        func scale(_ mtCode: UInt16, _ code: UInt16, assumedLength: Double) -> AxisScale {
            let axis = axis(mtCode, code)
            let span = Double(axis.span)
            if let resolutionOverride, resolutionOverride > 0 {
                return AxisScale(unitsPerMillimetre: resolutionOverride, isEstimated: false,
                                 lengthMillimetres: span / resolutionOverride)
            }
            if axis.resolution > 0 {
                let r = Double(axis.resolution)
                return AxisScale(unitsPerMillimetre: r, isEstimated: false, lengthMillimetres: span / r)
            }
            if kind == .touchpad {
                // libinput gives such a pad whole units per millimetre (the range, measured
                // as that libinput measures it, divided by 69 or 50 and truncated): the
                // virtual touchpad must use the same scale.
                let range = Double(axis.libinputRange(description.libinputAxisRange))
                let r = max(1, (range / assumedLength).rounded(.down))
                return AxisScale(unitsPerMillimetre: r, isEstimated: true, lengthMillimetres: span / r)
            }
            return AxisScale(unitsPerMillimetre: span / assumedLength, isEstimated: true,
                             lengthMillimetres: assumedLength)
        }
        x = scale(EventCode.absMTPositionX, EventCode.absX, assumedLength: assumed.width)
        y = scale(EventCode.absMTPositionY, EventCode.absY, assumedLength: assumed.height)
    }
}
