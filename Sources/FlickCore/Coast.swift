/// A coast in progress: the closed-form exponential model sampled at whatever times the caller
/// asks, emitted as whole hi-res wheel units with the remainder carried.
///
/// Each tick emits `round(x(t_n)) − round(x(t_{n−1}))`, so the total after any sequence of
/// ticks is `round(x(t_last))`, whatever the tick rate; when the coast settles the total is
/// exactly `round(X)`. Legacy detents come from an accumulator: one per 120 hi-res units, going
/// on from what earlier coasts left (`carryLegacy(_:)`).
///
/// The output runs `lead` units ahead of the model (at most `leadHiRes`, never past the total):
/// libinput 1.20–1.28 holds back hi-res wheel motion after a pause until 60 units have
/// accumulated, and starts over after 500 ms without an event. With the lead, the first event
/// (with the release frame) passes at once, and the coast reaches its total while the model is
/// still 60 units short, moving at `60·k` units/s or more, so its last events never come far
/// enough apart to be held back: nothing is lost. When it ends is `CoastExtent`'s rule.
struct Coast {
    /// The device whose gesture started this coast.
    let source: DeviceID
    /// Time zero of the model.
    let origin: Instant
    /// Initial wheel velocities, hi-res units per second (vertical > 0 scrolls up).
    let vertical: Double
    let horizontal: Double
    /// Initial velocity in the source's device coordinates, mm/s (for boost).
    let millimetresPerSecond: Vector
    let deceleration: Deceleration
    /// When the coast ends: when the output has written the destination (`settles`), or cut at
    /// `coast.max_duration` with the output still moving (`CoastExtent`).
    let end: Instant
    let settles: Bool
    /// What the coast emits in all unless stopped, hi-res units (`CoastExtent`).
    let total: (vertical: Int64, horizontal: Int64)
    /// `coast.max_duration` after the origin: no tick is asked for later.
    let cutoff: Instant
    /// Shortest interval between ticks.
    let period: Duration

    private(set) var emittedVertical: Int64 = 0
    private(set) var emittedHorizontal: Int64 = 0
    private var legacyVertical: Int64 = 0
    private var legacyHorizontal: Int64 = 0
    private(set) var lastTick: Instant

    /// Half a hi-res unit: closer than this to rest, nothing more can be emitted.
    static let restDistance = 0.5
    /// How far the output runs ahead of the model, hi-res units: libinput's hold-back threshold.
    static let leadHiRes = 60.0

    init(source: DeviceID, origin: Instant, vertical: Double, horizontal: Double,
         millimetresPerSecond: Vector, deceleration: Deceleration, maxDuration: Duration, period: Duration) {
        self.source = source
        self.origin = origin
        self.vertical = vertical
        self.horizontal = horizontal
        self.millimetresPerSecond = millimetresPerSecond
        self.deceleration = deceleration
        self.period = period
        let extent = CoastExtent(vertical: vertical, horizontal: horizontal, deceleration: deceleration,
                                 maxDuration: maxDuration)
        settles = extent.settles
        end = origin + extent.duration
        total = (extent.totalVertical, extent.totalHorizontal)
        cutoff = origin + maxDuration
        lastTick = origin
    }

    /// Where the coast comes to rest, hi-res units.
    var destination: (vertical: Double, horizontal: Double) {
        (deceleration.destination(velocity: vertical), deceleration.destination(velocity: horizontal))
    }

    /// The coast's velocity at `time`, mm/s in device coordinates.
    func velocity(at time: Instant) -> Vector {
        millimetresPerSecond * deceleration.remainingFraction(after: (time - origin).seconds)
    }

    /// True when every unit the coast will ever emit has been emitted: with the lead, before
    /// the model comes to rest; a coast cut at `coast.max_duration` at its end.
    var isAtRest: Bool {
        let goal = total
        return emittedVertical == goal.vertical && emittedHorizontal == goal.horizontal
    }

    /// When the output has emitted its total unless stopped: the later axis's last half-unit
    /// crossing (the model plus the lead reaching the total), no later than `end`.
    var outputEnd: Instant {
        let goal = total
        guard let v = lastCrossing(velocity: vertical, total: goal.vertical),
              let h = lastCrossing(velocity: horizontal, total: goal.horizontal) else { return end }
        return min(origin + Duration.seconds(max(v, h)), end)
    }

    /// Seconds after the origin at which one axis's output crosses the half unit before its
    /// total (0 for an axis that emits nothing; nil when the model never gets there, cut).
    private func lastCrossing(velocity: Double, total: Int64) -> Double? {
        guard total != 0 else { return 0 }
        let boundary = Double(total) - (total > 0 ? 0.5 : -0.5) - Self.lead(total: total)
        return deceleration.time(toReach: boundary, velocity: velocity)
    }

    /// What is left under a legacy detent on each axis, hi-res units (|value| < 120), for the
    /// next coast.
    var legacyRemainder: (vertical: Int64, horizontal: Int64) { (legacyVertical, legacyHorizontal) }

    /// Goes on from `remainder`, what earlier coasts left under a legacy detent, on each axis
    /// this coast moves the same way; an axis it moves the other way starts from zero, as the
    /// kernel's HID wheel handling resets on a reversal (a remainder the other way would
    /// swallow up to 119 units of this coast), and one it does not move keeps it. Call before
    /// the first `advance`.
    mutating func carryLegacy(_ remainder: (vertical: Int64, horizontal: Int64)) {
        legacyVertical = Self.carried(remainder.vertical, total: total.vertical)
        legacyHorizontal = Self.carried(remainder.horizontal, total: total.horizontal)
    }

    private static func carried(_ remainder: Int64, total: Int64) -> Int64 {
        remainder.signum() * total.signum() < 0 ? 0 : remainder
    }

    /// Emits the movement from the last tick to `time`. Returns the output and whether the
    /// coast has ended (at rest, or at its maximum duration).
    mutating func advance(to time: Instant) -> (output: WheelOutput, ended: Bool) {
        guard time >= lastTick else { return (WheelOutput(), false) }
        lastTick = time
        let targetVertical: Double
        let targetHorizontal: Double
        let ended = time >= end
        if ended && settles {
            (targetVertical, targetHorizontal) = destination
        } else {
            let t = ((ended ? end : time) - origin).seconds
            targetVertical = deceleration.position(after: t, velocity: vertical)
            targetHorizontal = deceleration.position(after: t, velocity: horizontal)
        }
        var output = WheelOutput()
        let goal = total
        let dv = Self.step(to: Self.led(targetVertical, total: goal.vertical), emitted: &emittedVertical)
        let dh = Self.step(to: Self.led(targetHorizontal, total: goal.horizontal), emitted: &emittedHorizontal)
        output.verticalHiRes = dv
        output.horizontalHiRes = dh
        output.verticalDetents = Self.detents(adding: dv, to: &legacyVertical)
        output.horizontalDetents = Self.detents(adding: dh, to: &legacyHorizontal)
        return (output, ended || isAtRest)
    }

    /// The lead for an axis whose coast emits `total` in all: `leadHiRes` in its direction, at
    /// most the total.
    static func lead(total: Int64) -> Double {
        let t = Double(total)
        return t >= 0 ? min(leadHiRes, t) : max(-leadHiRes, t)
    }

    /// `model` moved ahead by the lead, never past `total`.
    static func led(_ model: Double, total: Int64) -> Double {
        let t = Double(total)
        let ahead = model + lead(total: total)
        return t >= 0 ? min(ahead, t) : max(ahead, t)
    }

    /// The whole units between what was emitted and `target`, clamped to what one event holds.
    private static func step(to target: Double, emitted: inout Int64) -> Int32 {
        guard target.isFinite else { return 0 }
        let goal = Int64(max(-1e15, min(1e15, target)).rounded())
        let delta = max(Int64(Int32.min), min(Int64(Int32.max), goal - emitted))
        emitted += delta
        return Int32(delta)
    }

    /// Legacy wheel detents: one per 120 accumulated hi-res units, same sign.
    private static func detents(adding units: Int32, to accumulator: inout Int64) -> Int32 {
        accumulator += Int64(units)
        let whole = accumulator / 120
        accumulator -= whole * 120
        return Int32(clamping: whole)
    }

    /// When output next changes: the earliest time one axis crosses the next half unit, but not
    /// sooner than one period after the last tick, and no later than the end. A coast that
    /// settles ends at its last crossing, which keeps the period too, unless `coast.max_duration`
    /// comes sooner: only that may cut a period short.
    var nextDeadline: Instant {
        var soonest = end
        let goal = total
        if let t = crossing(velocity: vertical, emitted: emittedVertical, total: goal.vertical), t < soonest { soonest = t }
        if let t = crossing(velocity: horizontal, emitted: emittedHorizontal, total: goal.horizontal), t < soonest { soonest = t }
        let earliest = lastTick + period
        return soonest < earliest ? min(earliest, settles ? cutoff : end) : soonest
    }

    /// When one axis's output (the model plus the lead) crosses the next half unit past what it
    /// emitted; nil once it emitted its total.
    private func crossing(velocity: Double, emitted: Int64, total: Int64) -> Instant? {
        guard velocity != 0, emitted != total else { return nil }
        let boundary = Double(emitted) + (velocity > 0 ? 0.5 : -0.5) - Self.lead(total: total)
        guard let t = deceleration.time(toReach: boundary, velocity: velocity) else { return nil }
        // Never before the crossing: `Duration.seconds` rounds to the nearest microsecond, and a
        // tick that early rounds to the unit already written and writes nothing.
        var after = Duration.seconds(t)
        if Double(after.microseconds) < t * 1_000_000 { after = after + Duration(microseconds: 1) }
        return origin + after
    }
}

/// How long a wheel coast's output runs, whether it comes to rest, and what it writes in all:
/// the one end rule, used by the engine's coasts and by `flickd plot`.
///
/// Each axis's output is the model `x(t) = (v0/k)(1 − e^(−kt))` plus the lead (`Coast.lead`,
/// 60 units), so it has written the whole destination rounded, `D = round(v0/k)`, once the
/// model is within the lead and half a unit of it: at `t_D = −ln(1 − k·(D ∓ ½ ∓ lead)/v0)/k`
/// (0 when the lead alone covers `D`). The coast settles when every axis gets there no later
/// than `maxDuration`, and ends at the later axis's `t_D`; otherwise `maxDuration` cuts it
/// while its output still moves, each axis having written `round(x(maxDuration) + lead)` (at
/// most `D`). Judged on the model alone (within half a unit of rest), a coast whose output had
/// written everything seconds earlier counted as cut, and one cut by a short `max_duration`
/// went silent up to 60 units of the model before it.
public struct CoastExtent: Hashable, Sendable {
    /// From the model's time zero to the end.
    public let duration: Duration
    /// True when the output writes the whole destination; false when `maxDuration` cuts it.
    public let settles: Bool
    /// What the output writes in all unless stopped, hi-res units (vertical > 0 scrolls up).
    public let totalVertical: Int64
    /// What the output writes in all on the horizontal axis, hi-res units (> 0 scrolls right).
    public let totalHorizontal: Int64

    /// The extent of a coast starting at `vertical` and `horizontal` hi-res units per second.
    public init(vertical: Double, horizontal: Double, deceleration: Deceleration, maxDuration: Duration) {
        let v = Self.axis(velocity: vertical, deceleration: deceleration)
        let h = Self.axis(velocity: horizontal, deceleration: deceleration)
        let written = Duration.seconds(max(v.seconds, h.seconds))
        settles = written <= maxDuration
        if settles {
            duration = written
            (totalVertical, totalHorizontal) = (v.destination, h.destination)
        } else {
            duration = maxDuration
            let t = maxDuration.seconds
            totalVertical = Int64(Coast.led(deceleration.position(after: t, velocity: vertical), total: v.destination).rounded())
            totalHorizontal = Int64(Coast.led(deceleration.position(after: t, velocity: horizontal), total: h.destination).rounded())
        }
    }

    /// The extent of a coast along one axis at `hiResUnitsPerSecond` (`flickd plot`'s).
    public init(hiResUnitsPerSecond: Double, deceleration: Deceleration, maxDuration: Duration) {
        self.init(vertical: hiResUnitsPerSecond, horizontal: 0, deceleration: deceleration, maxDuration: maxDuration)
    }

    /// Where the output of one axis is after `seconds` of a coast at `velocity` that writes
    /// `total` in all: the model plus the lead, never past the total.
    public static func output(after seconds: Double, velocity: Double, total: Int64, deceleration: Deceleration) -> Double {
        Coast.led(deceleration.position(after: seconds, velocity: velocity), total: total)
    }

    /// One axis: its destination rounded, and when its output has written it, seconds after
    /// the origin (infinite when it never does: a destination too far to be finite).
    private static func axis(velocity: Double, deceleration: Deceleration) -> (destination: Int64, seconds: Double) {
        let x = deceleration.destination(velocity: velocity)
        guard x.isFinite, velocity != 0 else { return (0, 0) }
        let destination = Int64(max(-1e15, min(1e15, x)).rounded())
        guard destination != 0 else { return (0, 0) }
        let boundary = Double(destination) - (destination > 0 ? 0.5 : -0.5) - Coast.lead(total: destination)
        return (destination, deceleration.time(toReach: boundary, velocity: velocity) ?? .infinity)
    }
}

/// How long the virtual fingers' glide (`output.mode = "touchpad"`) moves and whether it comes
/// to rest: `VirtualFingers`'s own end rule (`modelEnd`), for the engine's plan and `flickd plot`.
///
/// The glide's model `x(t) = (v0/k)(1 − e^(−kt))` (mm on the virtual pad) ends within
/// `VirtualFingers.restDistance` (0.05 mm) of its rest `v0/k`, or is cut at `maxDuration`;
/// neither depends on `scroll.speed`. A glide that would reach the virtual pad's margin stops
/// there sooner (`Ending.edge`), which this does not cover.
public struct GlideExtent: Hashable, Sendable {
    /// From the glide model's time zero to the end of the motion.
    public let duration: Duration
    /// True when the fingers come to rest; false when `maxDuration` cuts the glide.
    public let settles: Bool
    /// How far the model has carried the fingers then, mm (the landing's make-up not included).
    public let millimetres: Double

    /// The extent of a glide at `speed` mm/s (≥ 0).
    public init(speed: Double, deceleration: Deceleration, maxDuration: Duration) {
        let model = VirtualFingers.modelEnd(speed: speed, deceleration: deceleration, maxDuration: maxDuration)
        settles = model.settles
        duration = settles ? Duration.seconds(model.settleTime) : maxDuration
        millimetres = model.distance
    }
}
