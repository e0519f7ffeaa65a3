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
/// A touch that is not a scroll (a finger stayed, too many fingers) becomes one again when the
/// count comes back to exactly the scroll's fingers: a finger landing again, or the fingers of a
/// bigger swipe lifting down to the scroll's count (libinput starts a new scroll there too).
struct GestureRecognizer {
    enum State {
        /// No finger on the device.
        case idle
        /// Fewer fingers than a scroll takes; a scroll may still start if more land.
        case waiting(mostFingers: Int)
        /// Exactly the scroll's fingers are down and the history is being recorded. `locked`:
        /// they have clearly moved together, so later spreading no longer makes it a pinch.
        /// `resumed`: the scroll began when the fingers of a gesture that was not one lifted down
        /// to the scroll's count; a first lift within `liftWindow` of that is still that
        /// gesture's end (the fingers of a swipe leave 10–30 ms apart), and ends as it would have.
        case scrolling(locked: Bool, resumed: (reason: NoCoastReason, at: Instant)?)
        /// Some but not all of the scroll's fingers lifted at `since`; the velocity was frozen then.
        case lifting(since: Instant, velocity: Vector?, newestMotion: Instant, travel: Vector)
        /// Not a scroll; nothing happens until every finger is up.
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
    /// The farthest (mm) the gesture has been from where it landed: the travel a tap is told
    /// by. Not the net displacement, which is near zero for a scroll that flicks back to where
    /// it began; not the path length, which a resting pair's jitter adds up over a long touch.
    private var farthest = 0.0

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

        case .scrolling(let locked, let resumed):
            if fingers > requiredFingers {
                // Another finger joined: a swipe of more fingers, never a scroll.
                state = .ignoring(reason: .tooManyFingers(fingers))
                return .none
            }
            if fingers == requiredFingers {
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
                        state = .scrolling(locked: true, resumed: resumed)
                    }
                }
                return .none
            }
            if let resumed, frame.time - resumed.at <= liftWindow {
                // The rest of a swipe's fingers leaving after the first: its end, not a scroll's.
                if fingers == 0 {
                    state = .idle
                    return .ended(reason: resumed.reason, velocity: nil)
                }
                state = .ignoring(reason: resumed.reason)
                return .none
            }
            // The first finger(s) lifted: freeze the velocity from the history before this frame,
            // whose centroid may already have jumped.
            let velocity = estimator.estimate(&history, release: frame.time)
            let newest = history.newest?.time ?? frame.time
            if fingers == 0 {
                state = .idle
                return .released(velocity: velocity, newestMotion: newest, travel: farthest)
            }
            state = .lifting(since: frame.time, velocity: velocity, newestMotion: newest, travel: .zero)
            return .none

        case .lifting(let since, let velocity, let newest, let travel):
            let moved = travel + frame.translation
            let strayed = Self.ownMotion(moved, velocity: velocity, since: frame.time - since).length > liftTravel
            if fingers == 0 {
                state = .idle
                if frame.time - since > liftWindow || strayed {
                    return .ended(reason: .fingerStayed, velocity: velocity)
                }
                return .released(velocity: velocity, newestMotion: newest, travel: farthest)
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
            case .tooManyFingers:
                // A swipe's fingers lifted down to a scroll's count: a scroll from here if they go
                // on, the swipe's end if the rest leave within the lift window.
                enter(fingers: fingers, at: frame.time, resumedFrom: reason)
            default:
                // A pinch stays one, an abandoned gesture stays abandoned, until every finger is up.
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
    /// `resumedFrom`: the gesture it follows in the same touch, whose end the fingers' next lift
    /// may still be (`State.scrolling`).
    private mutating func enter(fingers: Int, at time: Instant, resumedFrom reason: NoCoastReason? = nil) {
        if fingers > requiredFingers {
            state = .ignoring(reason: .tooManyFingers(fingers))
        } else if fingers < requiredFingers {
            state = .waiting(mostFingers: fingers)
        } else {
            // Exactly the scroll's fingers: start a fresh history here.
            state = .scrolling(locked: requiredFingers == 1, resumed: reason.map { ($0, time) })
            history.removeAll()
            position = .zero
            farthest = 0
            history.append(TouchSample(time: time, position: position))
        }
    }

    /// Adds a frame of the scroll to the history.
    private mutating func record(_ frame: FrameSummary) {
        if let newest = history.newest {
            let gap = frame.time - newest.time
            if gap > VelocityEstimator.stopWindow || gap < .zero {
                // A long pause (or time going backwards) starts a new movement.
                history.removeAll()
            }
        }
        position = position + frame.translation
        farthest = max(farthest, position.length)
        history.append(TouchSample(time: frame.time, position: position))
    }
}
