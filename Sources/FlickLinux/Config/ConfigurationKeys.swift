import FlickCore

extension ConfigurationLoader {
    /// Every key of the configuration file, in the order `config/flickd.toml` lists them.
    ///
    /// The ranges are the ones documented on `Configuration`; the defaults are read from
    /// `Configuration.defaults`, never repeated here.
    public static let keys: [ConfigurationKey] = [
        .number("scroll.speed", 0.1...1000, symbol: "speed", unit: "hi-res wheel units per mm",
                "Hi-res wheel units (120 = one detent) per millimetre of finger travel.",
                get: { $0.scroll.speed }, set: { $0.scroll.speed = $1 }),
        .booleanOrChoice("scroll.natural", [NaturalScrolling.auto.rawValue],
                 "Touchpads scroll naturally (content follows the fingers): true, false, or \"auto\" to follow the desktop; touchscreens always do.",
                 get: { configuration in
                     switch configuration.scroll.natural {
                     case .auto: return .string(NaturalScrolling.auto.rawValue)
                     case .on: return .boolean(true)
                     case .off: return .boolean(false)
                     }
                 },
                 set: { configuration, value in
                     switch value {
                     case .boolean(let natural): configuration.scroll.natural = natural ? .on : .off
                     case .string(let name): if let natural = NaturalScrolling(rawValue: name) { configuration.scroll.natural = natural }
                     case .number, .integer: break
                     }
                 }),

        .number("coast.deceleration_rate", 0.9...0.9999, symbol: "rate", unit: "velocity factor per ms",
                named: [.init(name: "normal", value: 0.998), .init(name: "fast", value: 0.99)],
                "How much of its velocity a coast keeps each millisecond; higher glides longer.",
                get: { $0.coast.decelerationRate }, set: { $0.coast.decelerationRate = $1 }),
        .number("coast.min_speed", 0...10000, symbol: "speed", unit: "mm/s",
                "Releases slower than this do not coast.",
                get: { $0.coast.minSpeed }, set: { $0.coast.minSpeed = $1 }),
        .number("coast.max_speed", 1...100000, symbol: "speed", unit: "mm/s",
                "Faster releases are clamped to this speed, keeping their direction.",
                get: { $0.coast.maxSpeed }, set: { $0.coast.maxSpeed = $1 }),
        .number("coast.max_duration", 50...60000, symbol: "duration", unit: "ms",
                "The longest a coast may last.",
                get: { $0.coast.maxDuration.configMilliseconds },
                set: { $0.coast.maxDuration = .configMilliseconds($1) }),
        .number("coast.tick_rate", 10...1000, symbol: "rate", unit: "wheel events per second",
                "With output.mode = \"wheel\": how often a coast sends wheel events (the touchpad output runs at a fixed 125 Hz).",
                get: { $0.coast.tickRate }, set: { $0.coast.tickRate = $1 }),
        .boolean("coast.boost",
                 "A new flick in the same direction during a fast coast adds the coast's velocity.",
                 get: { $0.coast.boost }, set: { $0.coast.boost = $1 }),
        .number("coast.axis_lock", 0...45, symbol: "angle", unit: "degrees",
                "A release within this angle of an axis coasts along that axis only; 0 disables.",
                get: { $0.coast.axisLockDegrees }, set: { $0.coast.axisLockDegrees = $1 }),

        .choice("velocity.estimator", VelocityEstimatorKind.allCases.map(\.rawValue),
                "How the release velocity is estimated: lsq2 (least-squares fit) or lookback (70 ms back).",
                get: { $0.velocity.estimator.rawValue },
                set: { configuration, name in
                    if let kind = VelocityEstimatorKind(rawValue: name) { configuration.velocity.estimator = kind }
                }),

        .boolean("touchpad.enabled", "Coast after touchpad scrolls.",
                 get: { $0.touchpad.enabled }, set: { $0.touchpad.enabled = $1 }),
        .integer("touchpad.fingers", 2...4, symbol: "fingers", unit: "fingers",
                 "How many fingers make a touchpad scroll.",
                 get: { $0.touchpad.fingers }, set: { $0.touchpad.fingers = $1 }),
        .number("touchpad.lift_window", 0...500, symbol: "window", unit: "ms",
                "After the first finger lifts, the others must lift within this time for the scroll to coast (touchscreen drags of more than one finger too).",
                get: { $0.touchpad.liftWindow.configMilliseconds },
                set: { $0.touchpad.liftWindow = .configMilliseconds($1) }),
        .number("touchpad.lift_travel", 0...50, symbol: "travel", unit: "mm",
                "A finger left on the pad that travels more than this after the first lift, beyond where the flick carries it, is pointer motion: no coast (touchscreen drags too).",
                get: { $0.touchpad.liftTravel }, set: { $0.touchpad.liftTravel = $1 }),

        .boolean("touchscreen.enabled", "Coast after touchscreen drags.",
                 get: { $0.touchscreen.enabled }, set: { $0.touchscreen.enabled = $1 }),
        .integer("touchscreen.fingers", 1...4, symbol: "fingers", unit: "fingers",
                 "How many fingers make a touchscreen drag.",
                 get: { $0.touchscreen.fingers }, set: { $0.touchscreen.fingers = $1 }),

        .boolean("stop.touch", "A touch on a touch device whose flicks are not read (a disabled touchscreen) stops a coast.",
                 get: { $0.stop.touch }, set: { $0.stop.touch = $1 }),
        .boolean("stop.button", "A mouse, pointing-stick or touchpad button press stops a coast.",
                 get: { $0.stop.button }, set: { $0.stop.button = $1 }),
        .boolean("stop.key", "A key press stops a coast, and a release with Ctrl, Shift, Alt or Super held does not coast (Ctrl would turn it into zoom); keys are never recorded.",
                 get: { $0.stop.key }, set: { $0.stop.key = $1 }),

        .choice("output.mode", OutputMode.allCases.map(\.rawValue),
                "How a coast reaches the apps: touchpad (two virtual fingers keep moving) or wheel (hi-res wheel events).",
                get: { $0.output.mode.rawValue },
                set: { configuration, name in
                    if let mode = OutputMode(rawValue: name) { configuration.output.mode = mode }
                }),
    ]

    /// The keys only `output.mode = "wheel"` reads: the touchpad output moves its fingers like
    /// the real ones (no `scroll.speed` scale) at its own fixed frame rate
    /// (`VirtualFingers.framePeriod`, 125 Hz; no `coast.tick_rate`). Their documentation says so.
    public static let wheelOutputOnlyKeys: [String] = ["scroll.speed", "coast.tick_rate"]

    /// The name of the per-device sections: `[[device]]`.
    public static let deviceSection = "device"

    /// One key of a `[[device]]` section other than its settings sections.
    public struct DeviceKey: Sendable {
        /// The key as written (`vendor`).
        public let name: String
        /// One line saying what it does.
        public let summary: String
    }

    /// The keys of a `[[device]]` section besides the sections it may override (`[device.coast]`
    /// and the others take every key of the top-level section of the same name).
    public static let deviceKeys: [DeviceKey] = [
        .init(name: "name", summary: "The rule is for devices whose kernel name contains this text (ignoring case)."),
        .init(name: "vendor", summary: "The rule is for devices with this vendor id: 0x06cb or \"06cb\"."),
        .init(name: "product", summary: "The rule is for devices with this product id: 0x0007 or \"0007\"."),
        .init(name: "enabled", summary: "false: flickd leaves matching devices alone. Default true."),
        .init(name: "resolution", summary: "Device units per millimetre, for devices that report none or a wrong one."),
    ]

    /// Accepted `resolution` of a `[[device]]` section, in device units per millimetre.
    public static let deviceResolutionRange: ClosedRange<Double> = 1...1000

    /// The sections of the file, in order: `scroll`, `coast`, `velocity`, `touchpad`,
    /// `touchscreen`, `stop`, `output`.
    public static var sections: [String] {
        var seen: [String] = []
        for key in keys where !seen.contains(key.section) { seen.append(key.section) }
        return seen
    }

    /// Sections that apply to the whole daemon and so cannot appear in a `[[device]]` section:
    /// `[stop]` (what stops a coast is not a property of the device the coast came from) and
    /// `[output]` (there is one output device for every source).
    public static let daemonSections: Set<String> = ["stop", "output"]

    /// The sections a `[[device]]` section may override (`[device.coast]`, ...).
    public static var deviceSections: [String] { sections.filter { !daemonSections.contains($0) } }

    /// The key called `name` (`coast.boost`), or nil.
    public static func key(named name: String) -> ConfigurationKey? {
        keys.first { $0.name == name }
    }
}
