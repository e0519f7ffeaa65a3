/// Whether a released scroll coasts, and with what velocity: the one release decision, made by
/// the engine for every release and by `flickd plot` for the releases it draws.
///
/// In order: too little travel (a tap) or no velocity → no coast; a velocity that is not finite
/// → `.invalid` (a bug upstream); speed 0 → the fingers had stopped; below `coast.min_speed` →
/// too slow. Otherwise it coasts: a boost adds a just-stopped coast's velocity when the
/// directions agree (Android's and Chromium's fling boost), axis lock zeroes the minor axis near
/// an axis, and the speed is clamped to `coast.max_speed` keeping its direction.
///
/// Pure: it reads no state; the engine passes the coast a touch stopped (for the boost) and
/// forgets it once a release coasts.
public enum ReleaseDecision: Hashable, Sendable {
    /// The release does not coast, and why.
    case noCoast(NoCoastReason)
    /// The release velocity is not finite: a bug upstream; nothing coasts.
    case invalid
    /// The release coasts.
    case coast(ReleaseCoast)

    /// A scroll whose fingers travelled less than this (mm) is a tap: no coast.
    public static let minimumTravel = 1.0
    /// A coast stopped by a touch is remembered this long for a fling boost.
    public static let boostWindow = Duration.milliseconds(750)
    /// Two flicks are "the same direction" for a boost when the angle between them is smaller
    /// than this (cosine of 45°).
    public static let boostMinimumCosine = 0.7071

    /// The decision for a release at `time` with estimated `velocity` (mm/s in device
    /// coordinates; nil when a pause cut the history to one sample) after the fingers travelled
    /// `travel` mm, under `settings`. `stoppedCoast` is the last coast a touch stopped: its
    /// velocity then (mm/s) and when.
    public init(velocity: Vector?, travel: Double, stoppedCoast: (velocity: Vector, time: Instant)?,
                at time: Instant, settings: Configuration.Coast) {
        guard travel >= Self.minimumTravel else {
            self = .noCoast(.noMotion)
            return
        }
        guard let released = velocity else {
            // The fingers travelled, but a pause cut the history down to one sample: they had
            // stopped before lifting.
            self = .noCoast(.fingersStopped)
            return
        }
        let speed = released.length
        guard speed.isFinite else {
            self = .invalid
            return
        }
        if speed == 0 {
            self = .noCoast(.fingersStopped)
            return
        }
        if speed < settings.minSpeed {
            self = .noCoast(.tooSlow(speed: speed))
            return
        }

        var v = released
        var boosted = false
        if settings.boost, let previous = stoppedCoast, time - previous.time <= Self.boostWindow,
           previous.velocity.length >= settings.minSpeed,
           (previous.velocity • v) >= Self.boostMinimumCosine * previous.velocity.length * speed {
            v = v + previous.velocity
            boosted = true
        }
        v = Self.lockToAxis(v, degrees: settings.axisLockDegrees)
        if v.length > settings.maxSpeed { v = v * (settings.maxSpeed / v.length) }
        self = .coast(ReleaseCoast(releaseVelocity: released, velocity: v, boosted: boosted))
    }

    /// Zeroes the minor component of `v` when it is within `degrees` of an axis.
    static func lockToAxis(_ v: Vector, degrees: Double) -> Vector {
        guard degrees > 0 else { return v }
        let limit = degrees * Double.pi / 180
        // The angle from the vertical axis, radians (π/2 when v is horizontal).
        let fromVertical = Double.atan2(y: abs(v.x), x: abs(v.y))
        if fromVertical <= limit { return Vector(x: 0, y: v.y) }
        if Double.pi / 2 - fromVertical <= limit { return Vector(x: v.x, y: 0) }
        return v
    }
}

/// The coast a release starts, as `ReleaseDecision` decided it.
public struct ReleaseCoast: Hashable, Sendable {
    /// The estimated release velocity, mm/s in the source's device coordinates.
    public var releaseVelocity: Vector
    /// The coast's start velocity, mm/s in the source's device coordinates (after boost, axis
    /// lock and clamp; y > 0 is the fingers moving down).
    public var velocity: Vector
    /// True when a just-stopped coast's velocity was added.
    public var boosted: Bool

    /// The start velocity as wheel velocities, hi-res units per second (vertical > 0 scrolls
    /// up, horizontal > 0 scrolls right), at `unitsPerMillimetre` (`scroll.speed`).
    ///
    /// With `natural` (touchscreens, natural scrolling) the content follows the fingers;
    /// otherwise the fingers move the view (fingers down → scroll down → REL_WHEEL < 0).
    public func wheelVelocity(natural: Bool, unitsPerMillimetre: Double) -> (vertical: Double, horizontal: Double) {
        ((natural ? velocity.y : -velocity.y) * unitsPerMillimetre,
         (natural ? -velocity.x : velocity.x) * unitsPerMillimetre)
    }
}
