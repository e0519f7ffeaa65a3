/// Which release-velocity estimator to use (`velocity.estimator`).
public enum VelocityEstimatorKind: String, Sendable, Hashable, CaseIterable {
    /// Quadratic least-squares fit over the newest samples (Android's default).
    case lsq2
    /// Linear interpolation of where the contact was 70 ms before release.
    case lookback
}

/// `output.mode`: how a coast reaches the apps.
public enum OutputMode: String, Sendable, Hashable, CaseIterable {
    /// Two fingers on a virtual touchpad ("flickd virtual touchpad") keep moving with the
    /// coast, so libinput, the compositor and the toolkit treat the glide like the finger
    /// phase (same scale, same natural-scrolling setting). The default.
    case touchpad
    /// Hi-res wheel events on a virtual mouse ("flickd virtual wheel"), scaled by `scroll.speed`.
    case wheel
}

/// `scroll.natural`: whether touchpad content follows the fingers (as on a phone).
///
/// Written in TOML as `"auto"`, `true` or `false`; a Bool literal converts (`true` is `.on`).
public enum NaturalScrolling: String, Sendable, Hashable, CaseIterable, ExpressibleByBooleanLiteral {
    /// Follow the desktop's touchpad setting (GNOME, KDE, sway, an X server), which the daemon reads; traditional
    /// scrolling when it finds none.
    case auto
    /// Natural scrolling whatever the desktop says.
    case on
    /// Traditional scrolling (fingers move the view) whatever the desktop says.
    case off

    /// `true` is `.on`, `false` is `.off`.
    public init(booleanLiteral value: Bool) { self = value ? .on : .off }

    // Which way a device scrolls is decided in one place: `Configuration.naturalScrolling(for:kind:desktop:)`.
}

/// Every setting of the engine, with the built-in defaults.
///
/// `config/flickd.toml` documents each key and must equal these defaults (a test checks it).
/// Ranges are enforced by the config loader, which reports file:line, key, value and range.
public struct Configuration: Hashable, Sendable {
    /// `[scroll]`: how finger travel becomes wheel units.
    public struct Scroll: Hashable, Sendable {
        /// `scroll.speed`: hi-res wheel units (120 = one detent) per millimetre of finger travel.
        /// Range 0.1...1000; default 90 (4/3 mm of travel = one detent: libinput's finger-scrolling
        /// scale; a wheel glide then continues the finger at about its speed in GTK3, at about 0.7
        /// of it in Qt6 and up to 3 times it in GTK4, which scale wheel motion their own way).
        public var speed: Double = 90
        /// `scroll.natural`: whether touchpads scroll "naturally" (content follows the fingers):
        /// `.auto` (the default) follows the desktop's touchpad setting, `.on` and `.off` decide.
        /// Touchscreens always scroll naturally.
        public var natural: NaturalScrolling = .auto
        public init() {}
    }

    /// `[coast]`: the inertial glide after a flick.
    public struct Coast: Hashable, Sendable {
        /// `coast.deceleration_rate`: velocity factor per millisecond, 0 < d < 1
        /// (accepted range 0.9...0.9999; `normal` = 0.998, `fast` = 0.99). Default 0.998.
        public var decelerationRate: Double = 0.998
        /// `coast.min_speed`: releases slower than this (mm/s) do not coast. Range 0...10000; default 50.
        public var minSpeed: Double = 50
        /// `coast.max_speed`: faster releases are clamped to this (mm/s), keeping direction.
        /// Range 1...100000; default 1500.
        public var maxSpeed: Double = 1500
        /// `coast.max_duration`: longest coast, in milliseconds. Range 50...60000; default 5000.
        public var maxDuration: Duration = .milliseconds(5000)
        /// `coast.tick_rate`: wheel events per second while coasting. Range 10...1000; default 120.
        public var tickRate: Double = 120
        /// `coast.boost`: a new flick in the same direction during a fast coast adds the coast's
        /// velocity. Default true.
        public var boost: Bool = true
        /// `coast.axis_lock`: a release within this many degrees of an axis coasts along that
        /// axis only; 0 disables. Range 0...45; default 20.
        public var axisLockDegrees: Double = 20
        public init() {}
    }

    /// `[velocity]`: how the release velocity is estimated.
    public struct Velocity: Hashable, Sendable {
        /// `velocity.estimator`: `lsq2` (default) or `lookback`.
        public var estimator: VelocityEstimatorKind = .lsq2
        public init() {}
    }

    /// `[touchpad]`: which touchpad gestures coast.
    public struct Touchpad: Hashable, Sendable {
        /// `touchpad.enabled`: coast after touchpad scrolls. Default true.
        public var enabled: Bool = true
        /// `touchpad.fingers`: how many fingers make a scroll. Range 2...4; default 2.
        public var fingers: Int = 2
        /// `touchpad.lift_window`: after the first finger lifts, the others must lift within this
        /// many milliseconds for the scroll to coast. Range 0...500; default 50.
        public var liftWindow: Duration = .milliseconds(50)
        /// `touchpad.lift_travel`: a finger left on the pad that travels more than this (mm)
        /// after the first lift is pointer motion, and the scroll does not coast.
        /// Range 0...50; default 2.
        public var liftTravel: Double = 2
        public init() {}
    }

    /// `[touchscreen]`: which touchscreen drags coast.
    public struct Touchscreen: Hashable, Sendable {
        /// `touchscreen.enabled`: coast after touchscreen drags. Default false.
        public var enabled: Bool = false
        /// `touchscreen.fingers`: how many fingers make a drag. Range 1...4; default 1.
        public var fingers: Int = 1
        public init() {}
    }

    /// `[stop]`: what stops a running coast besides a touch on the device it came from.
    public struct Stop: Hashable, Sendable {
        /// `stop.touch`: a finger on a touch device whose flicks are not read (a touchscreen
        /// while `touchscreen.enabled` is false). Default true. (A touch on a device whose
        /// flicks are read always stops a coast: it may be the next flick.)
        public var touch = true
        /// `stop.button`: a mouse, pointing-stick or touchpad button press (a pad's own
        /// physical buttons; a clickpad's press comes under a finger, whose touch stops it
        /// first). A pad whose flicks are not read is read for its buttons even when `touch` is
        /// off. Default true.
        public var button = true
        /// `stop.key`: a key press on a keyboard stops a coast, and a release with a modifier held
        /// (Ctrl, Shift, Alt, Super) does not coast (Ctrl would turn the glide into zoom).
        /// Default true. Keys are only seen as "a key went down" and "a modifier is held", never
        /// recorded.
        public var key = true
        public init() {}

        /// What of a touch device whose flicks are not read stops a coast, in words ("a touch",
        /// "a press of its buttons"); nil when nothing of it does, and it need not be read.
        /// `buttons`: it has pointer buttons of its own (a touchpad with physical buttons).
        public func stopper(ofUnreadDeviceWithButtons buttons: Bool) -> String? {
            switch (touch, button && buttons) {
            case (true, true): return "a touch or a press of its buttons"
            case (true, false): return "a touch"
            case (false, true): return "a press of its buttons"
            case (false, false): return nil
            }
        }
    }

    /// `[output]`: which virtual device carries the coast. Applies to the whole daemon.
    public struct Output: Hashable, Sendable {
        /// `output.mode`: `.touchpad` (default) or `.wheel`.
        public var mode: OutputMode = .touchpad
        public init() {}
    }

    public var scroll = Scroll()
    public var coast = Coast()
    public var velocity = Velocity()
    public var touchpad = Touchpad()
    public var touchscreen = Touchscreen()
    public var stop = Stop()
    public var output = Output()
    /// `[[device]]` sections: settings for particular devices, first match wins.
    public var devices: [DeviceRule] = []

    /// The settings for `description`: the first matching device rule's, else these.
    public func resolved(for description: DeviceDescription) -> (configuration: Configuration, rule: DeviceRule?) {
        guard let rule = devices.first(where: { $0.matches(description) }) else { return (self, nil) }
        var settings = rule.configuration
        settings.devices = []
        return (settings, rule)
    }

    /// What `flickd check-config`, `flickd doctor` and the daemon's log say about `[[device]]`
    /// sections that can never apply: an earlier section matches every device a later one
    /// matches (its name is part of the later one's, and its ids are the later one's or none),
    /// and the first section that matches a device is the one used.
    ///
    ///     device[2] never applies: device[1] comes before it and matches every device it
    ///     matches (the first matching [[device]] section is used); move device[2] above
    ///     device[1], or narrow device[1]
    public func deviceRuleWarnings() -> [String] {
        var warnings: [String] = []
        for (later, rule) in devices.enumerated() {
            guard let earlier = devices[..<later].firstIndex(where: { $0.covers(rule) }) else { continue }
            warnings.append("""
                device[\(later + 1)] never applies: device[\(earlier + 1)] comes before it and matches every device it \
                matches (the first matching [[device]] section is used); move device[\(later + 1)] above \
                device[\(earlier + 1)], or narrow device[\(earlier + 1)]
                """)
        }
        return warnings
    }

    /// The built-in defaults.
    public init() {}

    /// The built-in defaults (same as `Configuration()`).
    public static let defaults = Configuration()
}

/// A `[[device]]` section: which devices it is for, and their settings.
public struct DeviceRule: Hashable, Sendable {
    /// `name`: matches devices whose kernel name contains this text (ignoring case); nil
    /// matches any name.
    public var name: String?
    /// `vendor`: USB/PS2 vendor id to match; nil matches any.
    public var vendor: UInt16?
    /// `product`: product id to match; nil matches any.
    public var product: UInt16?
    /// `enabled`: false makes flickd leave matching devices alone entirely. Default true.
    public var enabled = true
    /// `resolution`: device units per millimetre on both axes, for devices that report none
    /// or a wrong one; nil keeps what the device reports (or the estimate).
    public var resolution: Double?
    /// Every setting for matching devices: the file's top-level settings with the section's
    /// overrides applied.
    public var configuration: Configuration

    /// A rule for devices matching `name`, `vendor` and `product` (nil matches anything).
    public init(name: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil, enabled: Bool = true,
                resolution: Double? = nil, configuration: Configuration) {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.enabled = enabled
        self.resolution = resolution
        self.configuration = configuration
    }

    /// Whether this rule is for `description`.
    public func matches(_ description: DeviceDescription) -> Bool {
        matches(DeviceIdentity(description))
    }
}

/// What `[[device]]` sections match a device by: its kernel name and, when known, its ids.
public struct DeviceIdentity: Hashable, Sendable {
    /// The kernel's name for the device.
    public var name: String
    /// The vendor id; nil when unknown (a section naming a vendor then does not match).
    public var vendor: UInt16?
    /// The product id; nil when unknown (a section naming a product then does not match).
    public var product: UInt16?

    /// The device called `name`, with `vendor` and `product` when known.
    public init(name: String, vendor: UInt16? = nil, product: UInt16? = nil) {
        self.name = name
        self.vendor = vendor
        self.product = product
    }

    /// The identity of a device the engine reads.
    public init(_ description: DeviceDescription) {
        self.init(name: description.name, vendor: description.vendor, product: description.product)
    }
}

extension DeviceRule {
    /// Whether every device `other` matches, this rule matches too: each id it asks for, `other`
    /// asks for alike, and its name (case aside) is part of `other`'s.
    func covers(_ other: DeviceRule) -> Bool {
        if let vendor, vendor != other.vendor { return false }
        if let product, product != other.product { return false }
        if let name {
            guard let theirs = other.name, theirs.lowercased().containsText(name.lowercased()) else { return false }
        }
        return true
    }

    /// Whether this rule is for the device `identity`; an id the rule asks for and the identity
    /// does not know does not match.
    public func matches(_ identity: DeviceIdentity) -> Bool {
        if let vendor, vendor != identity.vendor { return false }
        if let product, product != identity.product { return false }
        if let name, !identity.name.lowercased().containsText(name.lowercased()) { return false }
        return true
    }
}

/// Which way a device's content moves under the fingers, and which setting said so: the one
/// `scroll.natural` resolver the daemon and `flickd doctor` share.
public struct NaturalScrollingResolution: Hashable, Sendable {
    /// Where the direction came from.
    public enum Source: Hashable, Sendable {
        /// A touchscreen's content always follows the fingers.
        case touchscreen
        /// `scroll.natural = true` or `false`, at the top level (`section` nil) or in the
        /// `[[device]]` section numbered `section` (from 1, as in error messages).
        case setting(section: Int?)
        /// `scroll.natural = "auto"` and the desktop's touchpad setting.
        case desktop(section: Int?)
        /// `scroll.natural = "auto"` and no desktop setting known: traditional, libinput's default.
        case noDesktopSetting(section: Int?)
    }

    /// True when the content follows the fingers (natural scrolling).
    public var isNatural: Bool
    /// Which setting decided.
    public var source: Source

    /// `scroll.natural = "auto" in [[device]] 2, the desktop's setting`, for logs and doctor.
    public var explanation: String {
        func place(_ section: Int?) -> String { section.map { " in [[device]] \($0)" } ?? "" }
        switch source {
        case .touchscreen: return "a touchscreen's content follows the fingers"
        case .setting(let section): return "scroll.natural = \(isNatural)\(place(section))"
        case .desktop(let section): return "scroll.natural = \"auto\"\(place(section)), the desktop's setting"
        case .noDesktopSetting(let section): return "scroll.natural = \"auto\"\(place(section)), no desktop setting found"
        }
    }
}

extension Configuration {
    /// The settings for the device `identity`: the first matching `[[device]]` section's (and
    /// its number, from 1), else these.
    public func resolved(for identity: DeviceIdentity) -> (configuration: Configuration, section: Int?) {
        guard let index = devices.firstIndex(where: { $0.matches(identity) }) else { return (self, nil) }
        var settings = devices[index].configuration
        settings.devices = []
        return (settings, index + 1)
    }

    /// Whether the content of device `identity` (a `kind`) follows the fingers, given the
    /// desktop's touchpad setting (`desktop`, nil when none was found), and why. Matches the
    /// engine: touchscreens always; touchpads by the matching section's `scroll.natural`, where
    /// `"auto"` is the desktop's setting, false without one.
    public func naturalScrolling(for identity: DeviceIdentity?, kind: DeviceKind, desktop: Bool?) -> NaturalScrollingResolution {
        if kind == .touchscreen { return NaturalScrollingResolution(isNatural: true, source: .touchscreen) }
        let (settings, section) = identity.map { resolved(for: $0) } ?? (self, nil)
        switch settings.scroll.natural {
        case .on, .off:
            return NaturalScrollingResolution(isNatural: settings.scroll.natural == .on, source: .setting(section: section))
        case .auto:
            guard let desktop else { return NaturalScrollingResolution(isNatural: false, source: .noDesktopSetting(section: section)) }
            return NaturalScrollingResolution(isNatural: desktop, source: .desktop(section: section))
        }
    }

    /// Whether any setting, at the top level or in a `[[device]]` section, is `"auto"`: only
    /// then is the desktop asked.
    public var followsDesktopNaturalScrolling: Bool {
        scroll.natural == .auto || devices.contains { $0.configuration.scroll.natural == .auto }
    }
}
