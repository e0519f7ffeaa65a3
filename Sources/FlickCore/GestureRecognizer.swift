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

        case .scrolling(let locked):
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
                        state = .scrolling(locked: true)
                    }
                }
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
            if frame.newTouch || strayed || frame.time - since > liftWindow {
                // A finger stayed, moved on, or came back: pointer motion or a new gesture.
                state = .ignoring(reason: .fingerStayed)
                return .none
            }
            state = .lifting(since: since, velocity: velocity, newestMotion: newest, travel: moved)
            return .none

        case .ignoring(let reason):
            guard fingers == 0 else { return .none }
            state = .idle
            return .ended(reason: reason, velocity: nil)
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
