/// Estimates the release velocity of a gesture from its history (DESIGN_NOTES §2).
///
/// Both estimators first drop the zero-length frames just before lift-off (touchpads repeat
/// the last position while the fingers leave) and answer zero when the fingers had stopped:
/// when they have stayed within `restRadius` of where they lifted for longer than `stopWindow`
/// at release (an exact stop is the case of no motion at all). Whatever they answer is then held
/// to what the fingers' newest motion supports (`supportFactor`, `speedUpStep`).
public struct VelocityEstimator: Sendable {
    /// Which fit to use.
    public var kind: VelocityEstimatorKind

    /// Fingers that have not moved beyond `restRadius` for longer than this at release had
    /// stopped (velocity 0); also the largest gap between samples that still belongs to one
    /// movement, and the span of newest motion a release velocity must be supported by.
    public static let stopWindow = Duration.milliseconds(40)
    /// LSQ2 uses samples no older than this before the newest.
    public static let fitWindow = Duration.milliseconds(100)
    /// LSQ2 uses at most this many newest samples.
    public static let maximumFitSamples = 20
    /// Look-back interpolates where the gesture was this long before the release.
    public static let lookbackWindow = Duration.milliseconds(70)
    /// Resting fingers' jitter (mm): samples within this distance of the newest are fingers at
    /// rest, and fingers that turned back must have gone back further than this. Two units of the
    /// coarsest pads (10 units/mm), eight of a 42 units/mm Synaptics (whose hwdb fuzz is 8).
    public static let restRadius = 0.2
    /// A release velocity is at most this many times the speed the fingers' newest motion
    /// supports: their travel in its direction over the last `stopWindow` before the newest
    /// sample, per second. Fingers speeding up steadily from a standstill (or from moving that
    /// way already) end a window at no more than twice their mean speed over it. Fingers speeding
    /// up faster than steadily end it at more (a flick lifted early in its stroke, its speed
    /// growing as t², at up to three times its mean): their own newest steps support them
    /// (`speedUpStep`).
    public static let supportFactor = 2.0
    /// The shortest step (time between two samples) that measures the fingers' newest speed-up:
    /// a step from the newest sample reaches back to the newest sample at least this much older
    /// (and the step before it as far again). Shorter than a touchpad's frame interval (7–12.5 ms)
    /// by a margin for uneven stamps; longer than frames delivered in a bunch (1–2 ms apart),
    /// whose stamps say nothing of how fast the fingers went (a 240 Hz screen's steps span two
    /// frames).
    public static let speedUpStep = Duration.milliseconds(6)

    /// An estimator of `kind`.
    public init(kind: VelocityEstimatorKind) { self.kind = kind }

    /// The velocity (mm/s, device coordinates) at release time `release`, or nil when the
    /// history holds no usable motion. Trailing zero-length samples are dropped from `history`.
    ///
    /// Three rules keep a quadratic fitted over "fast, then stopped" from answering for fingers
    /// that no longer moved that way (a parabola through a sharp stop curves back at its end):
    /// - Fingers at rest: trailing samples within `restRadius` of the newest count as no motion
    ///   for the stop rule, so a unit of jitter in the last frame reads as the stop an exact
    ///   repeat does. They stay in the fit (only exact repeats leave it): real slow motion there
    ///   is what shows the fit the fingers slowing down.
    /// - Turned back: a fit against the motion's average stands only when the newest steps went
    ///   its way by more than `restRadius`; otherwise the average answers.
    /// - Supported: the answer's speed is at most `supportFactor` times the fingers' travel in
    ///   its direction over the last `stopWindow` before the newest sample, per second, or the
    ///   speed their newest two steps were speeding up to, whichever is more (the latter for a
    ///   fit's answer only). Fingers that crept (10 mm/s after a 200 mm/s flick) give at most
    ///   20 mm/s, not the 91 mm/s the average over the look-back window (reaching into the flick)
    ///   gave; fingers still speeding up as they lift keep the fit's speed.
    public func estimate(_ history: inout TouchHistory, release: Instant) -> Vector? {
        Self.dropTrailingZeroLengthSamples(&history)
        guard history.count >= 2 else { return nil }
        if release - Self.restingSince(history) > Self.stopWindow { return .zero }
        let velocity: Vector
        // Whether a parabola fitted to the newest samples answers: only it measures how fast the
        // fingers were speeding up (`supported`).
        var fitAnswers = false
        switch kind {
        case .lsq2:
            // A parabola fitted to forward motion can turn back at its end when the stamps are
            // uneven (frames stamped in a bunch, then one late: a stalled sender) or the fingers
            // stopped sharply. A release velocity against the motion's average whose newest
            // steps did not go its way by more than jitter is that artefact: the average over the
            // look-back window answers instead, as it does when no parabola fits (samples at only
            // two distinct times). Newest steps that went back with the fit, further than
            // jitter, are the finger turning back before it lifted: the fit stands. The average,
            // like the fit, is the velocity at the newest sample (the stop rule above has already
            // judged the pause before the release).
            let average = Self.lookback(history)
            if let fitted = Self.leastSquaresQuadratic(history) {
                let artefact = fitted • average < 0 && Self.newestRun(history, along: fitted) <= Self.restRadius
                velocity = artefact ? average : fitted
                fitAnswers = !artefact
            } else {
                velocity = average
            }
        case .lookback:
            velocity = Self.lookback(history, release: release)
        }
        return Self.supported(velocity, by: history, speedingUp: fitAnswers)
    }

    /// When the fingers came to rest where they are: the time of the oldest of the trailing
    /// samples that all lie within `restRadius` of the newest (the newest's own time when the
    /// one before it is further).
    static func restingSince(_ history: TouchHistory) -> Instant {
        let newest = history[newest: 0]
        var since = newest.time
        var age = 1
        while age < history.count {
            let sample = history[newest: age]
            if (sample.position - newest.position).length > restRadius { break }
            since = sample.time
            age += 1
        }
        return since
    }

    /// How far (mm) the newest steps went along `direction`: the steps from the newest back
    /// until one goes against it (zero-length steps go neither way).
    static func newestRun(_ history: TouchHistory, along direction: Vector) -> Double {
        let length = direction.length
        guard length > 0 else { return 0 }
        let unit = direction / length
        var run = 0.0
        var age = 1
        while age < history.count {
            let along = (history[newest: age - 1].position - history[newest: age].position) • unit
            if along < 0 { break }
            run += along
            age += 1
        }
        return run
    }

    /// `velocity`, its speed held to what the newest motion supports: the larger of
    ///
    ///     supportFactor · travel / span       (travel: how far the fingers went its way over
    ///                                          the last `stopWindow` before the newest sample,
    ///                                          or since the oldest when the history is shorter;
    ///                                          steps against it count as none)
    ///     speedUp                             (`speedUp(along:in:)`, 0 when none; only
    ///                                          when `speedingUp`: a fit answers)
    ///
    /// Unchanged when the samples span no time.
    ///
    /// The first bounds a fit over "fast, then stopped": after a sharp stop the newest steps are
    /// small, and the parabola, bent by the fast samples before them, curves beyond them. It is
    /// the end speed of fingers speeding up steadily over the window (a constant acceleration
    /// ends at twice its mean), and cuts fingers speeding up faster than that: a minimum-jerk
    /// flick lifted a third of its way in ends at up to three times its mean, 284 mm/s where
    /// the window allowed 238 (samples 8 ms apart at 0, 0.09, 0.64, 1.87, 3.81 mm; the fit says
    /// 274). Such fingers show it in their newest steps, each faster than the one before, which
    /// a stop does not (its newest steps are short); the second bound lets them through. It
    /// vouches for a fit only: the parabola measured that speed-up. The look-back average
    /// measures none (it reaches 70 ms back, into the flick before a stop, and answers for a fit
    /// that turned back there): fingers that stopped, then moved on 0.3 and 0.5 mm as they
    /// lifted, would coast at 75 mm/s on the flick's average where the window holds them to 40.
    static func supported(_ velocity: Vector, by history: TouchHistory, speedingUp: Bool) -> Vector {
        let speed = velocity.length
        guard speed > 0, speed.isFinite else { return velocity }
        let unit = velocity / speed
        let newest = history[newest: 0]
        let start = max(newest.time - stopWindow, history[newest: history.count - 1].time)
        let span = (newest.time - start).seconds
        guard span > 0 else { return velocity }
        var travel = 0.0
        var age = 1
        while age < history.count {
            let newer = history[newest: age - 1], older = history[newest: age]
            if newer.time <= start { break }
            let along = max((newer.position - older.position) • unit, 0)
            // The step that began before the window counts for its part inside it.
            let inside = older.time >= start ? 1 : (newer.time - start).seconds / (newer.time - older.time).seconds
            travel += along * inside
            age += 1
        }
        let steady = supportFactor * travel / span
        let limit = speedingUp ? max(steady, speedUp(along: unit, in: history)) : steady
        return speed > limit ? unit * limit : velocity
    }

    /// The speed (mm/s) along `unit` the fingers' newest two steps were speeding up to, or 0
    /// when they were not: with the newest sample P0, P1 the newest at least `speedUpStep` older
    /// and P2 the newest at least that older than P1, the steps' speeds along `unit`
    ///
    ///     v01 = (P0 − P1)·unit / (t0 − t1),   v12 = (P1 − P2)·unit / (t1 − t2)
    ///
    /// carried on to t0 at the rate between the steps' midpoints (the slope at P0 of the
    /// parabola through the three: what a constant acceleration over them reaches):
    ///
    ///     v01 + (v01 − v12) · (t0 − t1) / (t0 − t2)
    ///
    /// Only when both steps went that way by more than `restRadius` and the newer was the
    /// faster. Rationale: one step by itself proves no speed-up: after a stop, a finger rolling
    /// as it lifts or a unit of jitter moves the newest sample alone (a step from rest, whose
    /// carried-on speed would be 1.5 times its own), so the step before must be motion too, not
    /// jitter. `speedUpStep` keeps frames stamped in a bunch, and a frame delivered just after
    /// another, from measuring a speed over a millisecond or two.
    static func speedUp(along unit: Vector, in history: TouchHistory) -> Double {
        let newest = history[newest: 0]
        var middle = 1
        while middle < history.count && newest.time - history[newest: middle].time < speedUpStep { middle += 1 }
        guard middle < history.count else { return 0 }
        let p1 = history[newest: middle]
        var oldest = middle + 1
        while oldest < history.count && p1.time - history[newest: oldest].time < speedUpStep { oldest += 1 }
        guard oldest < history.count else { return 0 }
        let p2 = history[newest: oldest]
        let newer = (newest.position - p1.position) • unit
        let earlier = (p1.position - p2.position) • unit
        guard newer > restRadius, earlier > restRadius else { return 0 }
        let newerSpan = (newest.time - p1.time).seconds, earlierSpan = (p1.time - p2.time).seconds
        let newerSpeed = newer / newerSpan, earlierSpeed = earlier / earlierSpan
        guard newerSpeed > earlierSpeed else { return 0 }
        return newerSpeed + (newerSpeed - earlierSpeed) * newerSpan / (newerSpan + earlierSpan)
    }

    /// Drops samples at the end that did not move from the sample before them.
    static func dropTrailingZeroLengthSamples(_ history: inout TouchHistory) {
        var drop = 0
        while history.count - drop >= 2 && history[newest: drop].position == history[newest: drop + 1].position {
            drop += 1
        }
        history.removeNewest(drop)
    }

    /// LSQ2: fit `x(τ) = b0 + b1·τ + b2·τ²` by unweighted least squares over the newest
    /// ≤ 20 samples within 100 ms of the newest (τ = sample time − newest time, in seconds);
    /// the velocity at the newest sample is `b1`. With only two samples it falls back to the
    /// straight line through them (as Android lowers the degree when samples are few). Nil when
    /// the samples fit no curve of that degree: two stamped alike, or three or more at fewer
    /// than three distinct times (a recording with coarse stamps).
    ///
    /// Source idea: Android's `VelocityTracker` default strategy (also Flutter's).
    static func leastSquaresQuadratic(_ history: TouchHistory) -> Vector? {
        let newest = history[newest: 0]
        // Sums for the normal equations of the quadratic fit; τ^k sums and τ^k·x, τ^k·y sums.
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var sx0 = 0.0, sx1 = 0.0, sx2 = 0.0
        var sy0 = 0.0, sy1 = 0.0, sy2 = 0.0
        var used = 0
        var times = 0  // distinct sample times (the history is in time order)
        while used < min(history.count, maximumFitSamples) {
            let sample = history[newest: used]
            let age = newest.time - sample.time
            if age > fitWindow || age < .zero { break }
            if used == 0 || sample.time != history[newest: used - 1].time { times += 1 }
            let tau = -age.seconds
            // Positions relative to the newest keep the sums well conditioned.
            let x = sample.position.x - newest.position.x
            let y = sample.position.y - newest.position.y
            let t2 = tau * tau
            s0 += 1; s1 += tau; s2 += t2; s3 += t2 * tau; s4 += t2 * t2
            sx0 += x; sx1 += x * tau; sx2 += x * t2
            sy0 += y; sy1 += y * tau; sy2 += y * t2
            used += 1
        }
        if used < 2 { return .zero }
        if used == 2 {
            let older = history[newest: 1]
            let dt = (newest.time - older.time).seconds
            // Two samples stamped alike give no line either: as for three or more at fewer than
            // three times, not a stop (which would read as fingers that had stopped).
            return dt > 0 ? (newest.position - older.position) / dt : nil
        }
        // Fewer than three times fix no parabola (the determinant below is then zero but for
        // rounding, and the slope it gives is noise).
        if times < 3 { return nil }
        // Solve [s0 s1 s2; s1 s2 s3; s2 s3 s4]·[b0 b1 b2] = [r0 r1 r2] for b1 by Cramer's rule.
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        guard abs(det) > 1e-30 else { return nil }
        func slope(_ r0: Double, _ r1: Double, _ r2: Double) -> Double {
            let detB1 = s0 * (r1 * s4 - s3 * r2) - r0 * (s1 * s4 - s3 * s2) + s2 * (s1 * r2 - r1 * s2)
            return detB1 / det
        }
        let v = Vector(x: slope(sx0, sx1, sx2), y: slope(sy0, sy1, sy2))
        return v.x.isFinite && v.y.isFinite ? v : nil
    }

    /// Look-back: interpolate linearly where the gesture was 70 ms before `release`, and take
    /// the velocity from there to the release point (the newest sample's position: the fingers
    /// have not moved since) over the time to `release`. When the history is shorter, it starts
    /// at the oldest sample. Fingers that paused before the lift (less than the stop window)
    /// give less than their speed: 300 mm/s, then 30 ms still, gives 300·40/70 ≈ 171 mm/s.
    /// Without `release` (LSQ2's fallback), the velocity at the newest sample: the release is
    /// taken to be there.
    ///
    /// Source idea: FlickDynamics (2009), as DESIGN_NOTES §2 gives it: "interpolate linearly
    /// where the touch was 70 ms before release; velocity from that point to the release point".
    static func lookback(_ history: TouchHistory, release: Instant? = nil) -> Vector {
        let newest = history[newest: 0]
        let end = max(release ?? newest.time, newest.time)
        let target = end - lookbackWindow
        var back = history[newest: history.count - 1]
        for age in 1..<history.count {
            let older = history[newest: age]
            if older.time <= target {
                let newer = history[newest: age - 1]
                let span = (newer.time - older.time).seconds
                let f = span > 0 ? (target - older.time).seconds / span : 0
                back = TouchSample(time: target, position: older.position + (newer.position - older.position) * f)
                break
            }
        }
        let dt = (end - back.time).seconds
        guard dt > 0 else { return .zero }
        return (newest.position - back.position) / dt
    }
}
