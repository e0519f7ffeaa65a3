/// What a frame meant to the gesture on one device.
enum GestureOutcome {
    /// Nothing to report.
    case none
    /// Fingers touched down on an idle device.
    case began(fingers: Int)
    /// A scroll was released: `velocity` (mm/s) was estimated from the history before the first
    /// finger lifted; `newestMotion` is the time of the newest sample used. nil velocity: too
    /// little history to estimate.
    case released(velocity: Vector?, newestMotion: Instant, travel: Double)
    /// The gesture ended (all fingers up) and was not a scroll.
    case ended(reason: NoCoastReason, velocity: Vector?)
}

/// Reads the gestures of one device: which touches are scrolls, and when and how fast a scroll
/// was released.
///
/// A scroll is exactly `fingers` fingers moving together. It is released when they lift: all in
/// one frame, or the rest within `liftWindow` of the first without travelling more than
/// `liftTravel` beyond where the flick carries them. The release velocity is frozen before the
/// first lift, because the centroid jumps when one finger leaves before the other.
///
/// A touch that is not a scroll (a finger stayed, too many fingers) becomes one again when a
/// finger landing brings the count back to exactly the scroll's fingers (one put back, or one
/// that skipped a frame or two); fingers lifting down to that count do not.
struct GestureRecognizer {
    enum State {
        /// No finger on the device.
        case idle
        /// Fewer fingers than a scroll takes; a scroll may still start if more land.
        case waiting(mostFingers: Int)
        /// Exactly the scroll's fingers are down and the history is being recorded. `locked`:
        /// they have clearly moved together, so later spreading no longer makes it a pinch.
        case scrolling(locked: Bool)
        /// Some but not all of the scroll's fingers lifted at `since`; the velocity was frozen then.
        case lifting(since: Instant, velocity: Vector?, newestMotion: Instant, travel: Vector)
        /// Not a scroll, until every finger is up, or a finger landing makes the count a scroll's.
        case ignoring(reason: NoCoastReason)
    }

    /// Contacts spreading apart more than this (mm) and more than they move together is a pinch.
    static let pinchDistance = 3.0
    /// Contacts moving together this far (mm), twice as far as they spread, is surely a scroll.
    static let scrollLockDistance = 5.0

    private(set) var state = State.idle
    var requiredFingers: Int
    var liftWindow: Duration
    var liftTravel: Double
    var estimator: VelocityEstimator
    private var history = TouchHistory(capacity: 64)
    /// The gesture's accumulated position (mm), the sum of the fingers' common motion.
    private var position = Vector.zero
    /// The farthest (mm) the gesture has been from where it landed.
    private var farthest = 0.0
    /// Where (mm, in `position`'s terms) the movement the history holds began: where the fingers
    /// landed, or where they rested before a pause restarted the history.
    private var movementStart = Vector.zero
    /// The farthest (mm) the movement the history holds has gone from `movementStart`.
    private var movementFarthest = 0.0
    /// Whether a pause restarted the history since the fingers landed.
    private var restarted = false
    /// After the first lift: the fingers still down's travel (mm since the first lift) when they
    /// last moved beyond `VelocityEstimator.restRadius`, and when that was (the history's newest
    /// motion until they do).
    private var liftRest = Vector.zero
    private var liftMotion = Instant.zero
    /// How much longer than the stop window the hand may be still at the last lift of a
    /// staggered lift and still coast: pads send still frames as the fingers leave (two or three
    /// at 125 Hz), and the first lift's rule already let up to 40 ms of them pass. A hand still
    /// for longer than the stop window and this together, counted from its newest motion, stopped.
    static let leavingAllowance = Duration.milliseconds(20)
    /// How far a gesture must have gone, when it ends near where it landed, for its travel to
    /// count as the farthest point's: a scroll that flicks back to where it began travels far,
    /// while two fingers tapping may drift a millimetre or two as they settle and lift.
    static let outAndBackDistance = 3.0

    /// The travel a tap is told by (`ReleaseDecision`'s minimum travel): the net displacement,
    /// or the farthest point where that is at least `outAndBackDistance`. Not the path length,
    /// which a resting pair's jitter adds up over a long touch.
    private var releaseTravel: Double { Self.travel(net: position.length, farthest: farthest) }

    /// The travel (as `releaseTravel`) of a movement `net` mm from its start that got `farthest`
    /// mm from it.
    static func travel(net: Double, farthest: Double) -> Double {
        farthest >= outAndBackDistance ? max(net, farthest) : net
    }

    /// The release velocity at `time` from the history (which the estimator trims).
    ///
    /// After a pause restarted the history, the movement since is judged on its own: one that
    /// travelled less than `ReleaseDecision.minimumTravel` is no flick, and the fingers read as
    /// stopped (velocity 0) rather than as a tap, for the gesture as a whole travelled. Counted
    /// from the landing, the scroll before the pause let two frames after it (0.2 and 0.5 mm)
    /// pass the tap gate and coast at their 62.5 mm/s.
    private mutating func releaseVelocity(at time: Instant) -> Vector? {
        let velocity = estimator.estimate(&history, release: time)
        if restarted, velocity != nil,
           Self.travel(net: (position - movementStart).length, farthest: movementFarthest) < ReleaseDecision.minimumTravel {
            return .zero
        }
        return velocity
    }

    init(requiredFingers: Int, liftWindow: Duration, liftTravel: Double, estimator: VelocityEstimator) {
        self.requiredFingers = max(1, requiredFingers)
        self.liftWindow = liftWindow
        self.liftTravel = liftTravel
        self.estimator = estimator
    }

    /// Forgets the gesture in progress; if fingers are down, waits until they are all up (and
    /// their lift ends it as abandoned). Returns whether a gesture was under way.
    @discardableResult
    mutating func abandon(fingersDown: Bool) -> Bool {
        let underWay: Bool
        if case .idle = state { underWay = false } else { underWay = true }
        state = fingersDown ? .ignoring(reason: .abandoned) : .idle
        history.removeAll()
        return underWay
    }

    /// Reads one frame.
    mutating func handle(_ frame: FrameSummary) -> GestureOutcome {
        let fingers = frame.fingerCount
        switch state {
        case .idle:
            // A touch begins a gesture; what it is depends on how many fingers it has.
            guard fingers > 0 else { return .none }
            enter(fingers: fingers, at: frame.time)
            return .began(fingers: fingers)

        case .waiting(let most):
            if fingers == 0 {
                // Never reached the scroll's finger count: pointer motion or a tap.
                state = .idle
                return .ended(reason: .tooFewFingers(max(most, 1)), velocity: nil)
            }
            if fingers >= requiredFingers {
                enter(fingers: fingers, at: frame.time)
            } else {
                state = .waiting(mostFingers: max(most, fingers))
            }
            return .none

        case .scrolling(let locked):
            if fingers > requiredFingers {
                // Another finger joined: a swipe of more fingers, never a scroll.
                state = .ignoring(reason: .tooManyFingers(fingers))
                return .none
            }
            if fingers == requiredFingers {
                if frame.newTouch {
                    // A finger landed as one lifted, in the same frame (the count unchanged: a
                    // touchscreen's next drag, a finger put back as another left): a new gesture,
                    // read afresh from here. Its release must not be fitted over the lifted
                    // finger's motion; and the lifted one's release would coast under a finger
                    // that landed, which stops a coast at once.
                    enter(fingers: fingers, at: frame.time)
                    return .none
                }
                record(frame)
                // The tracker measures the contacts' motion from the frame they landed in, the
                // frame that entered this state.
                let together = frame.togetherMillimetres
                let apart = frame.apartMillimetres
                if !locked {
                    if apart > Self.pinchDistance && apart > together {
                        // The fingers moved apart (or around) more than together: pinch or rotate.
                        state = .ignoring(reason: .pinch)
                    } else if together > Self.scrollLockDistance && together > 2 * apart {
                        state = .scrolling(locked: true)
                    }
                }
                return .none
            }
            // The first finger(s) lifted: freeze the velocity from the history before this frame,
            // whose centroid may already have jumped.
            let velocity = releaseVelocity(at: frame.time)
            let newest = history.newest?.time ?? frame.time
            if fingers == 0 {
                state = .idle
                return .released(velocity: velocity, newestMotion: newest, travel: releaseTravel)
            }
            liftRest = .zero
            liftMotion = newest
            state = .lifting(since: frame.time, velocity: velocity, newestMotion: newest, travel: .zero)
            return .none

        case .lifting(let since, let velocity, let newest, let travel):
            let moved = travel + frame.translation
            let strayed = Self.ownMotion(moved, velocity: velocity, since: frame.time - since).length > liftTravel
            if (moved - liftRest).length > VelocityEstimator.restRadius {
                liftRest = moved
                liftMotion = frame.time
            }
            if fingers == 0 {
                state = .idle
                if frame.time - since > liftWindow || strayed {
                    return .ended(reason: .fingerStayed, velocity: velocity)
                }
                if velocity != nil && frame.time - liftMotion > VelocityEstimator.stopWindow + Self.leavingAllowance {
                    // The stop rule, at the last lift: the hand (the fingers left behind, beyond
                    // jitter) had been still since its newest motion for longer than the stop
                    // window and the leaving allowance, so it had stopped, whatever the velocity
                    // frozen at the first lift says. Judged only at the first lift, a hand that
                    // stopped, lifted one finger 32 ms later and the other 32 ms after that
                    // coasted at the speed it had before it stopped.
                    return .released(velocity: .zero, newestMotion: newest, travel: releaseTravel)
                }
                return .released(velocity: velocity, newestMotion: newest, travel: releaseTravel)
            }
            if frame.newTouch && fingers >= requiredFingers {
                // A finger came back (one skipped a frame or two, or was lifted and put down
                // again): a new gesture of this many fingers, read afresh from here.
                enter(fingers: fingers, at: frame.time)
                return .none
            }
            if frame.newTouch || strayed || frame.time - since > liftWindow {
                // A finger stayed or moved on: pointer motion, until the count is a scroll's again.
                state = .ignoring(reason: .fingerStayed)
                return .none
            }
            state = .lifting(since: since, velocity: velocity, newestMotion: newest, travel: moved)
            return .none

        case .ignoring(let reason):
            if fingers == 0 {
                state = .idle
                return .ended(reason: reason, velocity: nil)
            }
            guard fingers == requiredFingers else { return .none }
            switch reason {
            case .fingerStayed where frame.newTouch, .tooManyFingers where frame.newTouch:
                // A finger landed and the count is a scroll's: a new gesture, read afresh.
                enter(fingers: fingers, at: frame.time)
            default:
                // A swipe's fingers lifting down to a scroll's count stay the swipe: libinput
                // holds a started gesture's finger-count change for 100 ms, and a swipe's last
                // fingers leave later than the lift window, still moving (they coasted at the
                // speed of the swipe, after its workspace switch). A pinch stays one, an
                // abandoned gesture stays abandoned, until every finger is up.
                break
            }
            return .none
        }
    }

    /// What fingers still down after the first lift moved by themselves: `moved` (mm since the
    /// first lift, `elapsed` ago) less what the flick carries them along its frozen `velocity`
    /// in that time. Fingers of a flick leave 10–30 ms apart (DESIGN_NOTES §2), still moving:
    /// at 200 mm/s one travels 2–6 mm before it lifts. Sideways, backwards or faster is their own.
    static func ownMotion(_ moved: Vector, velocity: Vector?, since elapsed: Duration) -> Vector {
        guard let velocity, velocity.length > 0, elapsed > .zero else { return moved }
        let direction = velocity / velocity.length
        let carried = min(max(moved • direction, 0), velocity.length * elapsed.seconds)
        return moved - direction * carried
    }

    /// Starts reading a gesture of `fingers` fingers.
    private mutating func enter(fingers: Int, at time: Instant) {
        if fingers > requiredFingers {
            state = .ignoring(reason: .tooManyFingers(fingers))
        } else if fingers < requiredFingers {
            state = .waiting(mostFingers: fingers)
        } else {
            // Exactly the scroll's fingers: start a fresh history here.
            state = .scrolling(locked: requiredFingers == 1)
            history.removeAll()
            position = .zero
            farthest = 0
            movementStart = .zero
            movementFarthest = 0
            restarted = false
            history.append(TouchSample(time: time, position: position))
        }
    }

    /// Adds a frame of the scroll to the history. A frame whose motion was dropped whole (every
    /// contact jumped) adds no sample: where the fingers were then is unknown, and the next
    /// frame's motion covers it.
    private mutating func record(_ frame: FrameSummary) {
        if frame.motionDropped { return }
        if let newest = history.newest {
            let gap = frame.time - newest.time
            if gap > VelocityEstimator.stopWindow || gap < .zero {
                // A long pause (or time going backwards) starts a new movement, from where the
                // fingers rested.
                history.removeAll()
                movementStart = position
                movementFarthest = 0
                restarted = true
            }
        }
        position = position + frame.translation
        farthest = max(farthest, position.length)
        movementFarthest = max(movementFarthest, (position - movementStart).length)
        history.append(TouchSample(time: frame.time, position: position))
    }
}
