/// Identifies one input device to the engine; the daemon picks the numbers.
public typealias DeviceID = Int32

/// Wheel output for one moment: what the daemon writes to its uinput device in one frame.
///
/// Sign convention (the kernel's): `vertical*` > 0 is the wheel turned away from the user,
/// which scrolls **up**; `horizontal*` > 0 scrolls **right**.
public struct WheelOutput: Hashable, Sendable, CustomStringConvertible {
    /// `REL_WHEEL_HI_RES`: 120 units = one detent; > 0 scrolls up.
    public var verticalHiRes: Int32 = 0
    /// `REL_HWHEEL_HI_RES`: 120 units = one detent; > 0 scrolls right.
    public var horizontalHiRes: Int32 = 0
    /// `REL_WHEEL`: legacy whole detents, one per accumulated 120 hi-res units, same sign.
    public var verticalDetents: Int32 = 0
    /// `REL_HWHEEL`: legacy whole detents, one per accumulated 120 hi-res units, same sign.
    public var horizontalDetents: Int32 = 0

    /// No wheel movement.
    public init() {}

    /// Output with the given values.
    public init(verticalHiRes: Int32, horizontalHiRes: Int32, verticalDetents: Int32 = 0, horizontalDetents: Int32 = 0) {
        self.verticalHiRes = verticalHiRes
        self.horizontalHiRes = horizontalHiRes
        self.verticalDetents = verticalDetents
        self.horizontalDetents = horizontalDetents
    }

    /// True when nothing is to be written.
    public var isEmpty: Bool {
        verticalHiRes == 0 && horizontalHiRes == 0 && verticalDetents == 0 && horizontalDetents == 0
    }

    /// Calls `body` with each non-zero (`EV_REL` code, value) in the order the daemon writes
    /// them: REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES, REL_WHEEL, REL_HWHEEL. The kernel's HID driver
    /// (`hidinput_handle_scroll`) emits REL_WHEEL before REL_WHEEL_HI_RES instead; the order
    /// within one SYN_REPORT frame is no matter to libinput, which reads the frame whole.
    /// Allocates nothing.
    @inlinable
    public func forEachEvent(_ body: (_ code: UInt16, _ value: Int32) throws -> Void) rethrows {
        if verticalHiRes != 0 { try body(EventCode.relWheelHiRes, verticalHiRes) }
        if horizontalHiRes != 0 { try body(EventCode.relHorizontalWheelHiRes, horizontalHiRes) }
        if verticalDetents != 0 { try body(EventCode.relWheel, verticalDetents) }
        if horizontalDetents != 0 { try body(EventCode.relHorizontalWheel, horizontalDetents) }
    }

    public var description: String {
        "wheel(v120: \(verticalHiRes), h120: \(horizontalHiRes), v: \(verticalDetents), h: \(horizontalDetents))"
    }
}

/// A velocity or displacement in the plane of a touch device, in its unit (mm, mm/s, ...).
///
/// Device coordinates: x grows to the right, y grows downwards (towards the user).
public struct Vector: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal component; > 0 is rightwards.
    public var x: Double
    /// Vertical component; > 0 is downwards.
    public var y: Double

    /// The vector (x, y).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// (0, 0).
    public static let zero = Vector(x: 0, y: 0)

    /// Euclidean length.
    public var length: Double { (x * x + y * y).squareRoot() }

    public static func + (a: Vector, b: Vector) -> Vector { Vector(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Vector, b: Vector) -> Vector { Vector(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Vector, s: Double) -> Vector { Vector(x: a.x * s, y: a.y * s) }
    public static func / (a: Vector, s: Double) -> Vector { Vector(x: a.x / s, y: a.y / s) }
    /// Dot product.
    public static func • (a: Vector, b: Vector) -> Double { a.x * b.x + a.y * b.y }

    public var description: String { "(\(x), \(y))" }
}

infix operator • : MultiplicationPrecedence

/// Why a running coast was stopped from outside the gesture that started it.
public enum StopReason: String, Sendable, Hashable {
    /// A finger touched a touch device.
    case touch
    /// A mouse or touchpad button was pressed.
    case button
    /// A key went down on a keyboard.
    case key
    /// The device the coast came from went away.
    case deviceRemoved = "device-removed"
    /// The device's event stream was resynchronised after SYN_DROPPED.
    case resynchronized
    /// The next tick came far too late, or the daemon saw the machine suspended during the
    /// coast: the coast is dropped rather than emitted as one jump or played after the resume.
    case stall
    /// The configuration changed.
    case reconfigured
    /// The daemon is shutting down.
    case shutdown
    /// The daemon is about to stop for job control (SIGTSTP, Ctrl-Z under `flickd run`): as for
    /// `.shutdown`, the virtual fingers rest, settle and lift first.
    case jobControl = "job-control"
    /// Another user's session became the active one on the seat: the daemon pauses.
    case sessionInactive = "session-inactive"
    /// A release on another device started a coast of its own (the fingers on it had touched
    /// down before this coast began, so no new touch stopped it).
    case replaced
    /// `coast.max_duration` cut the coast with output still to write: the wheel output short
    /// of its destination rounded, the virtual fingers further than 0.05 mm from rest. A coast
    /// whose output wrote everything before then ends as `finished`.
    case maxDuration = "max-duration"
    /// The virtual fingers reached the margin of the virtual touchpad (`output.mode = "touchpad"`).
    case edge
    /// The coast's output came to rest: the wheel wrote its destination rounded (its model
    /// then 60 units short, `CoastExtent`), the virtual fingers came within 0.05 mm of rest.
    case finished
}

/// Why a release did not start a coast.
public enum NoCoastReason: Hashable, Sendable, CustomStringConvertible {
    /// The release was slower than `coast.min_speed` (speed in mm/s).
    case tooSlow(speed: Double)
    /// The fingers had stopped before lifting (newest motion older than the stop window).
    case fingersStopped
    /// A finger stayed on the device after the first lift (longer than `touchpad.lift_window`
    /// or travelling further than `touchpad.lift_travel`): pointer motion, not a flick.
    case fingerStayed
    /// The contacts spread or pinched more than they moved together.
    case pinch
    /// More fingers than a scroll takes touched the device (a 3+ finger swipe).
    case tooManyFingers(Int)
    /// Fewer fingers than a scroll takes (single-finger pointer motion, or a tap).
    case tooFewFingers(Int)
    /// Too little motion to estimate a velocity (a tap).
    case noMotion
    /// The gesture was abandoned (SYN_DROPPED resync, device removed).
    case abandoned
    /// The desktop scrolls nothing with the touchpad (its scroll factor is 0: sway's
    /// `scroll_factor 0`, KWin's `ScrollFactor=0`), so its glide on the virtual touchpad would
    /// move nothing either (`output.mode = "touchpad"`).
    case scrollsNothing

    public var description: String {
        switch self {
        case .tooSlow(let speed): return "too slow (\(Int(speed.rounded())) mm/s)"
        case .fingersStopped: return "fingers had stopped before lifting"
        case .fingerStayed: return "a finger stayed on the device"
        case .pinch: return "pinch or spread, not a scroll"
        case .tooManyFingers(let n): return "\(n) fingers, not a scroll"
        case .tooFewFingers(let n): return "\(n) finger\(n == 1 ? "" : "s"), not a scroll"
        case .noMotion: return "no motion (a tap)"
        case .abandoned: return "gesture abandoned"
        case .scrollsNothing: return "the desktop scrolls nothing with this touchpad (scroll factor 0)"
        }
    }
}

/// A coast the engine started.
public struct CoastPlan: Hashable, Sendable {
    /// Release velocity as estimated from the fingers, mm/s in device coordinates.
    public var releaseVelocity: Vector
    /// The velocity the coast starts with after clamping, axis lock and boost, mm/s.
    public var velocity: Vector
    /// True when a previous coast's velocity was added (fling boost).
    public var boosted: Bool
    /// Where the coast will come to rest, hi-res wheel units (vertical > 0 scrolls up).
    public var destinationHiRes: (vertical: Double, horizontal: Double)
    /// What the coast will emit in all unless stopped, hi-res units: the destination rounded
    /// when the output (the model plus its 60-unit lead) reaches it within `coast.max_duration`,
    /// else where the output is at that time, rounded (`CoastExtent`).
    public var totalHiRes: (vertical: Int64, horizontal: Int64)
    /// How long the coast will run after the release.
    public var duration: Duration
    /// How far the coast will carry the content unless stopped, mm on the source device: the
    /// model's `v0/k`, or where it is at `coast.max_duration`.
    public var travelMillimetres: Double = 0

    public static func == (a: CoastPlan, b: CoastPlan) -> Bool {
        a.releaseVelocity == b.releaseVelocity && a.velocity == b.velocity && a.boosted == b.boosted
            && a.destinationHiRes == b.destinationHiRes && a.totalHiRes == b.totalHiRes && a.duration == b.duration
            && a.travelMillimetres == b.travelMillimetres
    }

    public func hash(into h: inout Hasher) {
        h.combine(releaseVelocity)
        h.combine(velocity)
        h.combine(duration)
    }
}

/// What the engine decided, for logs (`--verbose`) and `flickd replay --json`'s summary.
public enum EngineReport: Sendable {
    /// A gesture of `fingers` fingers began on `device`.
    case gestureBegan(device: DeviceID, time: Instant, fingers: Int)
    /// A scroll gesture was released and started a coast.
    case coastStarted(device: DeviceID, time: Instant, plan: CoastPlan)
    /// A gesture ended without a coast.
    case noCoast(device: DeviceID, time: Instant, velocity: Vector?, reason: NoCoastReason)
    /// A coast ended.
    case coastEnded(time: Instant, reason: StopReason, emittedHiRes: (vertical: Int64, horizontal: Int64))
    /// An impossible input reached a state machine; it was reset to idle. A bug in flickd.
    case bug(device: DeviceID, message: String)
}

/// Whether the engine reads a device, and why not.
public enum DeviceAdmission: Hashable, Sendable {
    /// The device's gestures are read; `geometry` says how its units become millimetres.
    case used(kind: DeviceKind, geometry: DeviceGeometry)
    /// The device is watched only for touches that stop a coast (its kind is disabled).
    case stopOnly(kind: DeviceKind, why: String)
    /// The device is not a touch device flickd understands.
    case ignored(why: String)
}

/// Where the engine gets how a touchpad tells its touches and palms by pressure
/// (`Engine.addDevice`, `ContactTracker`'s `touchPressure`).
///
/// Rationale: libinput's thresholds depend on the pad's quirks (Elantech's AttrPressureRange
/// 10:8 against the axis's default 30 on 0...255; Apple's pads read by touch size), which only
/// the machine the pad is on has. `libinput record` lists them with the device (its `quirks:`,
/// every quirk that applied there, already resolved), and `flickd replay` reads those as the
/// daemon reads the quirks files (`LibinputQuirks.PressureQuirks`), an empty list as
/// libinput's defaults (`given`). A recording that lists none (evemu, or a `libinput record`
/// that could not read its quirks) counts every contact (`everyContact`): read by the
/// description alone, the recorded Elantech fingers pressing 9 to 16 on a Samsung 700Z3A,
/// which libinput counted, were no fingers, and its scroll was lost.
public enum PressureReading: Hashable, Sendable {
    /// libinput's rule from the description alone, without quirks
    /// (`TouchPressure.libinput(for:kind:)`): right on a pad no quirk covers (the finger
    /// stories' fixtures), wrong where one does.
    case description
    /// As given: the daemon's, from the pad's quirks (`InputDevice.touchPressure`), or a
    /// replay's, from the quirks its recording lists; nil: every contact touches, as on a pad
    /// libinput reads by touch size or whose pressure is a force.
    case given(TouchPressure?)

    /// Every contact the device reports touches: no rule (a replay of a recording that lists no
    /// quirks of the machine it was made on, such as evemu's).
    public static let everyContact = PressureReading.given(nil)
}
