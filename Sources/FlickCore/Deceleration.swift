import RealModule

/// The exponential deceleration model of a coast (DESIGN_NOTES §1).
///
/// With a rate `d` per millisecond and `k = −1000·ln d` (per second), a coast released at
/// velocity `v0` moves as
///
///     v(t) = v0·e^(−k·t)
///     x(t) = (v0/k)·(1 − e^(−k·t))
///     X    = v0/k                              (where it comes to rest)
///     T(ε) = ln(k·ε/|v0|) / (−k)               (when it is within ε of X)
///
/// Source idea: the scroll-view physics of iOS (`UIScrollView.DecelerationRate`, "normal"
/// 0.998 and "fast" 0.99), written in closed form so that the distance never depends on how
/// often it is sampled.
public struct Deceleration: Hashable, Sendable {
    /// Velocity factor per millisecond, 0 < rate < 1.
    public let ratePerMillisecond: Double
    /// The decay constant `k = −1000·ln d`, per second (> 0).
    public let decayPerSecond: Double

    /// The model for `ratePerMillisecond` (clamped into 0.5...0.99999 so that k stays finite
    /// and positive).
    public init(ratePerMillisecond: Double) {
        let d = ratePerMillisecond.isFinite ? min(max(ratePerMillisecond, 0.5), 0.99999) : 0.998
        self.ratePerMillisecond = d
        decayPerSecond = -1000 * Double.log(d)
    }

    /// The fraction of the release velocity left after `seconds`: `e^(−k·t)`.
    public func remainingFraction(after seconds: Double) -> Double {
        Double.exp(-decayPerSecond * max(0, seconds))
    }

    /// Distance travelled `seconds` after release at `velocity`: `x(t) = (v0/k)·(1 − e^(−k·t))`.
    public func position(after seconds: Double, velocity: Double) -> Double {
        velocity / decayPerSecond * -Double.expMinusOne(-decayPerSecond * max(0, seconds))
    }

    /// Velocity `seconds` after release at `velocity`: `v(t) = v0·e^(−k·t)`.
    public func velocity(after seconds: Double, velocity: Double) -> Double {
        velocity * remainingFraction(after: seconds)
    }

    /// Where a coast released at `velocity` comes to rest: `X = v0/k`.
    public func destination(velocity: Double) -> Double { velocity / decayPerSecond }

    /// Seconds until a coast released at `velocity` is within `epsilon` (a distance, same
    /// unit as the velocity's) of its destination: `T = ln(k·ε/|v0|)/(−k)`; 0 when it already is.
    public func settleTime(velocity: Double, epsilon: Double) -> Double {
        let speed = abs(velocity)
        guard speed > 0, epsilon > 0 else { return 0 }
        let ratio = decayPerSecond * epsilon / speed
        guard ratio < 1 else { return 0 }
        return Double.log(ratio) / -decayPerSecond
    }

    /// Seconds after release at which the position first reaches `distance` (same sign as
    /// `velocity`), or nil when the coast never gets that far: `t = −ln(1 − k·x/v0)/k`.
    public func time(toReach distance: Double, velocity: Double) -> Double? {
        guard velocity != 0 else { return nil }
        let fraction = decayPerSecond * distance / velocity
        guard fraction < 1 else { return nil }
        guard fraction > 0 else { return 0 }
        return -Double.log(onePlus: -fraction) / decayPerSecond
    }
}
