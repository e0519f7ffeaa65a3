/// The surface of flickd's virtual touchpad, shared by the engine (which plans where the
/// fingers go) and the uinput device (which declares it).
///
/// A square 1000 mm across at 100 units/mm. libinput turns finger scrolling into units
/// normalised by the declared resolution, so the content moves per millimetre as it does for
/// a real pad whatever the size or resolution; the size only has to hold the coast's travel
/// (`v0/k`: 75 mm at 150 mm/s, 750 mm at the default `coast.max_speed` of 1500 mm/s) plus the
/// make-up. Fingers land side by side across the motion, centred on the path, at most at the
/// margin behind it: along an axis a glide has 871 mm to the margin ahead, about 0.87 m of the
/// model's travel once the make-up and the settle frames are counted. Settings in the allowed
/// ranges exceed it, and the glide then stops at the margin still moving (`Ending.edge`): with
/// the default `coast.deceleration_rate` of 0.998 any release over about 1739 mm/s (so a
/// `max_speed` above that), and with 0.999 any over about 875 mm/s (at the default `max_speed`
/// of 1500 mm/s it would glide 1.49 m, cut at the default 5 s, and stops at about 630 mm/s).
/// `Configuration.touchpadGlideSpeedLimit()` gives the limit, and `flickd check-config` and
/// `flickd doctor` warn of it.
///
/// The resolution sets the least step the fingers can make: at 100 units/mm a unit scrolls
/// about a pixel (GTK3 and Qt6 showed 2–3.8 px for a unit at 20 units/mm), so a glide's slow
/// end and the settle frames move the content by that much at a time.
public enum VirtualPad {
    /// Width and height of the surface, mm.
    public static let sideMillimetres = 1000.0
    /// Device units per millimetre on both axes (`ABS_X`/`ABS_MT_POSITION_X` resolution).
    public static let unitsPerMillimetre = 100.0
    /// The largest coordinate on each axis, device units (the smallest is 0).
    public static let maximumUnits = Int32(sideMillimetres * unitsPerMillimetre)
    /// Fingers stay at least this far from every edge (mm): libinput treats touches that start
    /// near the left and right edges as palms, and clickpads may have a top-button strip.
    public static let marginMillimetres = 60.0
    /// The distance between the two fingers, mm, side by side across the motion.
    public static let fingerSpacingMillimetres = 18.0
    /// The centre of the surface, mm.
    public static let centre = Vector(x: sideMillimetres / 2, y: sideMillimetres / 2)

    /// `millimetres` on the surface as device units, rounded and kept on the surface.
    public static func units(_ millimetres: Double) -> Int32 {
        guard millimetres.isFinite else { return maximumUnits / 2 }
        let scaled = (millimetres * unitsPerMillimetre).rounded()
        return Int32(min(max(scaled, 0), Double(maximumUnits)))
    }
}

/// One frame of the virtual touchpad: what the daemon writes to it in one SYN_REPORT.
///
/// Positions are on the virtual pad in millimetres (x grows to the right, y downwards).
public struct TouchFrame: Hashable, Sendable, CustomStringConvertible {
    /// What the frame does to the two fingers.
    public enum Action: String, Hashable, Sendable {
        /// Both fingers touch down at `first` and `second`.
        case land
        /// Both fingers, already down, move to `first` and `second`.
        case move
        /// Both fingers lift (positions are where they were).
        case lift
    }

    /// What the frame does.
    public var action: Action
    /// The first finger (slot 0), mm.
    public var first: Vector
    /// The second finger (slot 1), mm.
    public var second: Vector

    /// A frame.
    public init(action: Action, first: Vector, second: Vector) {
        self.action = action
        self.first = first
        self.second = second
    }

    /// The point between the two fingers, mm.
    public var centroid: Vector { (first + second) / 2 }

    public var description: String { "\(action.rawValue) \(first) \(second)" }
}

/// The two fingers of the virtual touchpad that carry a coast (`output.mode = "touchpad"`).
///
/// At a release the fingers land side by side, 18 mm apart across the motion, and move with
/// the coast's model `x(t) = (v0/k)(1 − e^(−kt))`, one frame every `framePeriod`, evenly, after
/// a quick opening (`makeUpInterval(distance:)`, `baselineInterval`, `openingInterval`). The
/// first motion frame moves by `makeUp(speed:)` only: libinput drops the first motion of a new
/// two-finger scroll, so that frame is the one it drops and the model starts after it; the
/// content loses nothing. The second moves a device unit (`baselineStep`): X11 clients
/// take a new device's first scroll event as their starting point, so that event carries next
/// to nothing (GTK does; Qt drops every event the X server handled before Qt handled the device
/// switch, docs/APPS.md). The model's clock starts `lead` early, and the
/// fingers catch up with it at most `maximumCatchUp` times its speed: the handover (landing,
/// dropped frame, reaction time) leaves no hole in the content's motion. Fingers not caught up
/// when the model ends stop where they are. When the model comes
/// to rest (or at `coast.max_duration`) the fingers rest `restBeforeLift`, then lift.
///
/// A stop (touch, key, button, device removed, reconfigure, shutdown) freezes the fingers at
/// once: no more motion; they lift after `restBeforeLift` without motion. Lifting while moving
/// would let GTK start a glide of its own, and a land-and-lift within libinput's tap timeout
/// would be a two-finger tap (a right click): resting 200 ms avoids both. Fingers that stopped
/// while moving (a stop, or a glide cut at `coast.max_duration` or the edge) first rest
/// `restBeforeSettle`, then move one device unit `settleFrames` times, `settleInterval` apart
/// (the settle frames), and rest `restBeforeLift` from the last: chromium and Electron apps
/// estimate a fling of their own at the lift from the last scroll events before it, blind to
/// the rest (`restBeforeSettle`). A hand's two fingers on a touchpad hold the settle frames back
/// (`handDown(on:at:)`, at most `longestHandHold`); once they scroll, the settle frames are dropped
/// (`handScrolls()`): under X11 each would come between the hand's scroll events as two switches
/// of device.
///
/// A release while the fingers are still down (at rest, waiting to lift) continues with the
/// same fingers from where they are: libinput is still in its scroll, so no make-up frame is
/// dropped and no landing's opening comes between. Fingers whose path since the landing never
/// took them `handScrollDistance` from it started no scroll: they continue with a landing's
/// opening (make-up, baseline). Fingers that did started one, and are in it still wherever they
/// are now, back near the landing point included. Two things make such fingers lift and land
/// again, centred on the glide as fingers that were up land (`start`), instead:
/// - the glide goes across the axis libinput locked their scroll to (`ScrollLock`): it zeroes
///   motion off that axis until the new one has lasted about 100 ms (a diagonal until it has
///   gone 5 mm), and the content would stand still right after the release;
/// - each continued glide starts where the last one stopped, so quick flicks one after the
///   other walk the fingers towards the margin: the surface ahead is shorter than the glide.
/// Not within `restBeforeLift` of the landing's write unless the fingers moved
/// `handScrollDistance` from where they landed (a land-and-lift that short could be a
/// two-finger tap): fingers that never moved started no scroll, so no lock holds them either.
///
/// Pure state: every call takes the time. Nothing allocates.
public struct VirtualFingers: Sendable {
    /// Time between two motion frames: 125 Hz, as touchpads report (libinput's touch-jump
    /// filter and the toolkits' velocity trackers expect a pad's steady rate).
    public static let framePeriod = Duration.milliseconds(8)
    /// How long the fingers stay still before lifting. GTK then sees a scroll ending at rest
    /// (no glide of its own), and a touch this long is never a tap (libinput's tap timeout is 180 ms).
    public static let restBeforeLift = Duration.milliseconds(200)
    /// How long fingers that stopped while moving stay still before the first settle frame.
    /// chromium (and Electron apps) on Wayland start a fling of their own at the lift's scroll
    /// stop, from the scroll events before it, each counted with its interval from the event
    /// before as chromium read them: a rest without events does not count, so fingers frozen
    /// mid-glide and lifted after a rest fling the page on at the glide's speed (about 1.6 kpx
    /// from the lift, seen on sway). Older releases average the events of the last 200 ms: a
    /// scroll event after more than 200 ms of rest leaves that window empty, as after a real
    /// hand's rest, whose jitter keeps scrolling by a hair. 250 ms leaves room for events
    /// delivered late. GTK, which keeps 150 ms of scroll history, sees only the settle frames'
    /// events and then `restBeforeLift` of rest.
    public static let restBeforeSettle = Duration.milliseconds(250)
    /// How many settle frames fingers that stopped while moving write before the lift (a
    /// count). Recent chromium fits a line to the last three scroll events before the stop
    /// (and flings at none when the stop comes more than 200 ms after the last one, which
    /// `restBeforeLift` meets only by a hair: one settle frame read late was enough, and
    /// chromium flung the page in up to 2 of 3 tries a run). Three settle frames fill those
    /// three with a crawl of about a pixel each, so the fit gives next to no speed however
    /// chromium's reading delays them.
    public static let settleFrames = 3
    /// The time between two settle frames. 50 ms keeps an older chromium's mean over the last
    /// 200 ms (two settle frames' units in their 100 ms) at 20–40 px/s.
    public static let settleInterval = Duration.milliseconds(50)
    /// libinput starts a two-finger scroll when the fingers have moved about this far since
    /// they landed, mm (`makeUp`): a hand that moved less made no scroll event.
    public static let handScrollDistance = 1.5
    /// The longest a hand's resting two fingers hold the settle frames back (`handDown(on:at:)`):
    /// a hand that scrolls on after catching a glide starts within it; a longer rest writes no
    /// events that a settle frame could come between.
    public static let longestHandHold = Duration.seconds(1)
    /// The longest fingers stay down after their last motion frame with no hand on a touchpad:
    /// frozen while moving, they rest, settle, rest again and lift.
    public static let stillBeforeLift: Duration = restBeforeSettle + settleSpan + restBeforeLift
    /// From the first settle frame to the last.
    static let settleSpan: Duration = settleInterval * Int64(settleFrames - 1)
    /// A settle frame's motion, mm: one device unit along the main axis of the stopped motion
    /// (less cannot be written; libinput makes a scroll event of it, one pixel or less in the apps).
    public static let settleDistance = 1 / VirtualPad.unitsPerMillimetre
    /// How much faster than the frame before a motion frame may move, mm/s. From rest that is a
    /// 2.4 mm frame at 8 ms, 3.6 mm over libinput's 12 ms reference interval: about half the
    /// growth libinput calls a jump, leaving room for the jitter of the kernel's stamps.
    public static let maximumSpeedIncrease = 300.0
    /// The fastest the fingers move, mm/s. libinput also calls a frame a touch jump when it
    /// moves more than 20 mm scaled to its 12 ms reference (1667 mm/s), whatever the frame
    /// before; catching up at `maximumCatchUp` times a release near the default 1500 mm/s
    /// `max_speed` would pass it. 1600 mm/s is 19.2 mm at 12 ms.
    public static let maximumSpeed = 1600.0
    /// libinput does not judge a frame that comes more than 30 ms after the one before for a
    /// touch jump, and judges the next one against the last frame it did judge. A frame this
    /// long after the one before (a timer that woke late) may be such a frame, the kernel's
    /// stamps jittering by some milliseconds: the speed ramp then goes on from the slower of
    /// the two. Counting the late frame's speed had the next frame, at 1200 mm/s in the ramp,
    /// discarded as a jump (seen in the guest).
    public static let unjudgedInterval = Duration.milliseconds(25)

    /// A write that takes longer than this, from computing the frame to the kernel's stamp, was
    /// held up (the process was preempted): the model's clock waits for the excess. Shorter
    /// ones shift the stamps of consecutive frames alike and are not counted.
    public static let heldWrite = Duration.milliseconds(2)

    /// How much faster than the model the fingers may move while they catch up with it (after
    /// the make-up, with the lead, after the ramp of a fast release or a landing written late),
    /// to the model's end: fingers still behind then stop where they are, and the rest of the
    /// travel is dropped (2.4 mm of 152 at 1500 mm/s with `deceleration_rate = 0.99`, 40 mm of
    /// 502 at 1000 mm/s and 0.998 with the landing written 150 ms late), so the glide's last
    /// frames are as slow as the model's.
    public static let maximumCatchUp = 1.3

    /// The least first motion frame of a new landing, mm along the motion. libinput (1.22)
    /// starts a two-finger scroll at the frame in which the fingers have moved about 1.5 mm
    /// since they landed (1.4 mm did not start it, 1.5 mm did, on this pad in the guest) and
    /// drops that frame's motion. A shorter make-up leaves the start, and the drop, to the
    /// baseline frame or the model's first, and X11 clients then take the model's next frame as
    /// their starting point: one frame period more of hole under Xorg. 1.8 mm keeps a margin
    /// over that threshold. The frame moves one period at the release speed when that is more,
    /// up to `maximumMakeUp` (`makeUp(speed:)`).
    public static let makeUp = 1.8
    /// The longest make-up frame, mm: libinput drops the frame whatever its length, so a longer
    /// one only risks its touch-jump filter.
    public static let maximumMakeUp = 2.4
    /// The make-up frame's distance scaled to libinput's 12 ms jump-filter reference, mm: 1.5 mm
    /// under the 7 mm it calls a jump.
    public static let makeUpScaledDistance = 5.5

    /// The opening of a landing is quicker than the frame period: the make-up frame comes
    /// `makeUpInterval(distance:)` after the landing, the baseline frame (`baselineDistance`)
    /// `baselineInterval` after it, and the model's first frame `openingInterval` after that;
    /// then one frame per `framePeriod`. libinput drops the make-up frame and X11 clients take
    /// the baseline frame's scroll as their starting point (the first scroll event of a new
    /// source device moves nothing there), so the first motion an app shows comes about 7 ms
    /// after the landing instead of three frame periods (24 ms). The speed-increase cap keeps
    /// the model's first frame short whatever its interval (0.65 mm in 2 ms from rest), so
    /// libinput's jump filter, which scales a frame to 12 ms, sees it at 4 mm at most.
    public static let baselineInterval = Duration.milliseconds(1)
    public static let openingInterval = Duration.milliseconds(2)
    /// The baseline frame's least motion, mm: one device unit, the least that makes libinput
    /// scroll. Along a diagonal the frame moves a little more (`baselineStep`).
    public static let baselineDistance = 1 / VirtualPad.unitsPerMillimetre

    /// The baseline frame's motion along `direction` (a unit vector) from fingers at `first` and
    /// `second`, mm: `baselineDistance`, or as much more as it takes one finger's position to
    /// round to another device unit on one axis. The frame exists so that X11 clients take a
    /// scroll of next to nothing as their starting point; a frame that changes no unit is not
    /// written at all, and the model's first frame becomes that starting point (the hole the
    /// frame is there to avoid). A unit along a diagonal moves each axis by less than a unit
    /// (0.87 and 0.5 of one at 30°), which rounds to no change from about one position in twenty;
    /// the next rounding boundary ahead is at most `baselineDistance / max(|x|, |y|)` away.
    static func baselineStep(from first: Vector, _ second: Vector, along direction: Vector) -> Double {
        // How far along the motion `position` (mm), moving `component` of it per mm, rounds to
        // another unit: to the half unit ahead of its rounded value, and a hair past it.
        func change(_ position: Double, _ component: Double) -> Double {
            guard abs(component) > 1e-9 else { return .infinity }
            let scaled = position * VirtualPad.unitsPerMillimetre
            let unit = Double(VirtualPad.units(position))
            let units = component > 0 ? unit + 0.5 - scaled : scaled - (unit - 0.5)
            return (max(0, units) + 1e-6) / VirtualPad.unitsPerMillimetre / abs(component)
        }
        let nearest = min(change(first.x, direction.x), change(first.y, direction.y),
                          change(second.x, direction.x), change(second.y, direction.y))
        return max(baselineDistance, nearest)
    }
    /// libinput's touch-jump filter scales a frame's distance to its 12 ms reference interval
    /// and calls a jump more than 7 mm of growth: the make-up frame keeps its scaled distance
    /// at `makeUpScaledDistance`, so it comes 12/5.5 ms per mm of make-up after the landing
    /// (3.9 ms at 1.8 mm), at least 2 ms and never later than a frame period. The interval is
    /// counted from the landing's kernel stamp, so a late timer only lengthens it.
    public static func makeUpInterval(distance: Double) -> Duration {
        let milliseconds = min(framePeriod.seconds * 1000, max(2, distance * 12 / makeUpScaledDistance))
        return Duration(microseconds: Int64((milliseconds * 1000).rounded()))
    }

    /// The first motion frame after a landing at `speed` (mm/s): one frame period of motion at
    /// that speed, from `makeUp` to `maximumMakeUp`. libinput drops the first motion frame of a
    /// new scroll whatever its size (once it is long enough to show the direction); the model's
    /// distance starts after it, so the content loses nothing.
    public static func makeUp(speed: Double) -> Double {
        min(maximumMakeUp, max(makeUp, speed * framePeriod.seconds))
    }
    /// How far ahead of the release the model's clock starts after a landing. Between the real
    /// fingers' last motion and the virtual fingers' first motion that an app shows lie the
    /// landing, the opening frames (the make-up libinput drops, the baseline X11 clients take
    /// as their starting point), flickd's own reaction time and the event's way to the app.
    /// Starting the model this much earlier, the fingers catch up with where the content would
    /// be had the finger gone on, within the speed-increase cap and `maximumCatchUp`, so the
    /// glide continues the finger's speed instead of opening with a hole. The travel is the
    /// model's all the same, where the fingers catch up before its end (`maximumCatchUp`); the
    /// glide ends `lead` sooner.
    public static let lead = Duration.milliseconds(16)

    /// The motion ends when the model is this close to where it comes to rest, mm, and the
    /// fingers stop there. Moving the rest of the way in the last frame was a visible jump at
    /// the end of a slow crawl (five device units where the frames before moved a unit now and
    /// then: 2–4 px in GTK); ending closer would draw the glide out (at the default
    /// deceleration the model takes 0.8 s to close each four fifths of what is left) for motion
    /// no one sees.
    public static let restDistance = 0.05

    /// A glide in progress.
    struct Glide: Sendable {
        /// Time zero of the model (its velocity is `speed` then).
        let origin: Instant
        /// Unit vector of the motion on the pad.
        let direction: Vector
        /// Release speed, mm/s.
        let speed: Double
        let deceleration: Deceleration
        /// Distance added before the model: `makeUp` after a landing, 0 when continuing.
        let makeUp: Double
        /// Where the fingers were when the glide began, mm.
        let firstStart: Vector
        let secondStart: Vector
        /// Model time when the motion ends, and the distance along `direction` then (mm,
        /// make-up included; cut where the fingers would leave the margins).
        let end: Instant
        let finalDistance: Double
        /// True when the motion ends at rest rather than at `coast.max_duration` or the edge.
        let settles: Bool
        /// True when the motion ends at the margin (before rest and before `coast.max_duration`).
        let reachesEdge: Bool
        /// The frames of a landing's opening still to come (none when continuing).
        var opening: Opening
        /// When the next frame is due.
        var nextFrame: Instant
        /// The least time between the next frame and the one before: the opening's intervals,
        /// then `framePeriod`.
        var interval: Duration
        /// When the last frame was computed (its position is the model's at that time).
        var lastFrame: Instant
        /// How far the model's clock is behind the real one: the sum of the hold-ups between
        /// computing a frame and writing it, beyond `heldWrite` each. The kernel stamps a frame
        /// when it is written, so a held-up write followed by a prompt one would show a longer
        /// motion over a shorter interval (a "touch jump" to libinput); running the model on
        /// the written intervals keeps every frame's distance in step with its stamp. An
        /// ordinary write's own duration is not lag: counting it would slow every frame by it
        /// (by about a tenth under emulation, where a write takes about a millisecond).
        var lag: Duration = .zero
        /// Distance along the motion written so far, mm (make-up included).
        var distance = 0.0
        /// Speed of the last motion frame, mm/s, and the model time it was computed at.
        var lastSpeed = 0.0
        var lastModelTime: Instant
        /// `lastSpeed` before the last motion frame, and the kernel's stamp of the frame before
        /// it (`frameWritten(at:)`): a frame whose write was held up past `unjudgedInterval` is
        /// not judged by libinput either, and the ramp goes on from the speed before it.
        var speedBefore = 0.0
        var lastWritten: Instant?
        /// The release's time (its kernel stamp), and how long after it the landing reached the
        /// kernel (flickd's reaction; zero until it is reported, and when continuing).
        let released: Instant
        var landingDelay: Duration = .zero
        /// Continuing resting fingers: how they rested (since when, and the settle frames still
        /// owed for a motion that stopped while moving), given back by a stop before the first
        /// frame moves them (`freeze`). nil after a landing.
        var resumedFrom: (still: Instant, settle: Settle?)?
    }

    /// The frames that open a glide after a landing, in order.
    enum Opening: Sendable {
        /// Next: the make-up frame (`makeUp(speed:)`), which libinput drops.
        case makeUp
        /// Next: the baseline frame (`baselineStep`), the first scroll event libinput makes.
        case baseline
        /// Next: the first frame of a glide that continues fingers already down. They rested
        /// (a stop froze them) for longer than libinput's 30 ms: it does not judge that frame
        /// for a touch jump, and judges the next against the last frame before the rest
        /// (perhaps a crawl's), so the speed ramp starts again after it.
        case resumed
        /// The model's frames.
        case done
    }

    /// The settle frames still to write, after a motion that stopped while moving.
    struct Settle: Sendable {
        /// A unit vector along the main axis of the stopped motion (`settleAxis`).
        let axis: Vector
        /// Settle frames left, the next one included.
        var left: Int

        /// The settle frames of a motion along `direction` that stopped while moving.
        init(stopped direction: Vector) {
            axis = VirtualFingers.settleAxis(direction)
            left = VirtualFingers.settleFrames
        }

        /// The rest before the next one: `restBeforeSettle` before the first, then `settleInterval`.
        var wait: Duration {
            left == VirtualFingers.settleFrames ? VirtualFingers.restBeforeSettle : VirtualFingers.settleInterval
        }
    }

    /// The axes libinput's two-finger scroll lets through once it has locked
    /// (`tp_gesture_apply_scroll_constraints`, libinput 1.22 and later): motion within 30° of
    /// the vertical for 100 ms locks the scroll to the vertical axis (and within 30° of the
    /// horizontal to that one), and the other axis's motion is zeroed until it has gone on for
    /// 100 ms of its own; motion between (30–60° from an axis) for 100 ms, or 5 mm of it, frees
    /// both axes. The lock lasts until the fingers lift. A new scroll zeroes the same off-axis
    /// motion of a glide within 30° of an axis while nothing is locked yet, so a glide of the
    /// locked axis's class loses nothing a landing would not. A scroll shorter than 100 ms has
    /// only part of the way to its lock, which holds a diagonal back all the same: its glide
    /// counts as locked from its first frame on.
    enum ScrollLock: Sendable, Equatable {
        /// Locked to the vertical axis: a glide within 30° of it.
        case vertical
        /// Locked to the horizontal axis: a glide within 30° of it.
        case horizontal
        /// Both axes free: a diagonal glide (libinput's slope between tan 30° and tan 60°).
        case free

        /// The lock a scroll along `direction` comes to.
        init(_ direction: Vector) {
            // libinput's slope thresholds: tan 60° and tan 30°.
            let slope = direction.x != 0 ? abs(direction.y / direction.x) : .infinity
            self = slope >= 1.73 ? .vertical : slope < 0.57 ? .horizontal : .free
        }

        /// Whether a glide along `direction` goes on in a scroll with this lock as it would in
        /// a new one: nothing free, or a glide of the locked axis's class.
        func admits(_ direction: Vector) -> Bool {
            self == .free || self == ScrollLock(direction)
        }
    }

    /// Where the fingers are.
    enum State: Sendable {
        /// No finger down.
        case up
        /// Fingers down and moving with a glide.
        case gliding(Glide)
        /// Fingers down and still since `still`. With `settle` (a motion that stopped while
        /// moving) the next settle frame comes at `still + settle.wait`; without, they lift at
        /// `still + restBeforeLift`.
        case resting(still: Instant, settle: Settle?)
    }

    private(set) var state: State = .up
    /// The touchpad a hand's two fingers are down on and since when (`handDown(on:at:)`); nil
    /// when none are.
    private var hand: (device: DeviceID, since: Instant)?
    /// When the fingers last landed: the landing's kernel stamp once it is reported written
    /// (`frameWritten(at:)`), the release's time until then. The tap guard counts from it, as
    /// the rest before the lift does from the landing's write.
    private(set) var landed: Instant?
    /// Where the first finger last landed, mm.
    private var landingPoint = VirtualPad.centre
    /// Whether the fingers have been `handScrollDistance` or more from where they last landed:
    /// libinput's two-finger scroll started then, and lasts until they lift, however close to
    /// the landing point they come back (a flick that reverses a glide). Their distance from
    /// that point now does not tell: fingers that glided 30 mm down and 29 mm back up are in
    /// a scroll, and a make-up frame there would be scrolled, not dropped (a jump).
    private var scrolled = false
    /// The axes libinput's scroll of these fingers lets through (`ScrollLock`): the first
    /// glide's since their scroll started. Meaningful only while `scrolled`.
    private var scrollLock = ScrollLock.free
    /// Whether the frame `advance(to:)` returned last has not been reported written yet
    /// (`frameWritten(at:)`): only that report moves a rest to the kernel's stamp.
    private var writeOwed = false
    /// Where the fingers are (last written frame), mm.
    public private(set) var first = VirtualPad.centre
    public private(set) var second = VirtualPad.centre
    /// How far ahead of a landing the model starts (`VirtualFingers.lead`).
    public let lead: Duration

    /// Fingers up; a landing's model starts `lead` early (tests pin 0 to read the model plainly).
    public init(lead: Duration = VirtualFingers.lead) {
        self.lead = max(.zero, lead)
    }

    /// True while fingers are down (gliding or resting before the lift).
    public var isDown: Bool {
        switch state {
        case .up: return false
        case .gliding, .resting: return true
        }
    }

    /// True while the fingers move with a coast.
    public var isGliding: Bool {
        switch state {
        case .gliding: return true
        case .up, .resting: return false
        }
    }

    /// How long after the release its landing reached the kernel (`frameWritten(at:)`), while the
    /// fingers that landed for it have not moved yet; nil otherwise. The model runs from the
    /// release, so the fingers would catch up with all of it: `Engine` takes one later than its
    /// stall limit (a release handled after a suspend, a stopped process) for a stall.
    public var landingDelay: Duration? {
        guard case .gliding(let glide) = state, glide.distance == 0, glide.makeUp > 0 else { return nil }
        return glide.landingDelay
    }

    /// When `advance(to:)` next has a frame to write; nil when the fingers are up.
    public var nextDeadline: Instant? {
        switch state {
        case .up: return nil
        case .gliding(let glide): return glide.nextFrame
        case .resting(let still, let settle?):
            return settleDue(still: still, settle: settle)
        case .resting(let still, nil):
            return still + Self.restBeforeLift
        }
    }

    /// How a glide ended, for the engine's report.
    public enum Ending: Sendable, Hashable {
        /// The model came to rest.
        case settled
        /// `coast.max_duration` passed.
        case cut
        /// The fingers reached the margin of the surface.
        case edge
    }

    /// The frames a glide's start writes at once, in order: a lift (fingers down with too
    /// little room ahead, or whose scroll is locked to another axis, land again) and a landing
    /// (the fingers were up, or lifted just now).
    /// Neither when fingers already down continue from where they are.
    public struct Start: Equatable, Sendable {
        public var lift: TouchFrame?
        public var landing: TouchFrame?
    }

    /// Starts a glide at `time` with `velocity` (mm/s on the virtual pad; the direction the
    /// fingers move). Returns the frames to write now: a landing when the fingers were up; none
    /// when fingers already down continue from where they are; a lift and a landing when they
    /// are down but the surface ahead of them is shorter than the glide, or the glide goes
    /// across the axis libinput locked their scroll to (`ScrollLock`).
    public mutating func start(velocity: Vector, deceleration: Deceleration, maxDuration: Duration,
                               at time: Instant) -> Start {
        let speed = velocity.length
        guard speed.isFinite, speed > 0 else { return Start() }
        let direction = velocity / speed
        let settleReach = Self.settleReach(along: direction)
        let model = Self.modelEnd(speed: speed, deceleration: deceleration, maxDuration: maxDuration)
        let settle = model.settleTime
        var settles = model.settles
        var lift: TouchFrame?
        if isDown, let landed, time - landed >= Self.restBeforeLift || scrolled {
            // Continuing, the glide would be cut where the fingers reach the margin (and the
            // next quick flick would find no room at all), or held back by libinput's axis lock
            // for its first 100 ms, its fastest: lift and land again instead, a new scroll with
            // nothing locked. The fingers rest (the release's stop froze them); a toolkit glide
            // the lift may start from the real finger's motion is cancelled by the landing's
            // scroll at once, as after every release. Not within `restBeforeLift` of the landing
            // unless the fingers moved as far as starts libinput's scroll
            // (`handScrollDistance`), more than its tap motion threshold: a shorter touch that
            // moved less could be a two-finger tap (and started no scroll to be locked).
            let room = Self.room(from: first, second, along: direction) - settleReach
            if model.distance > room || (scrolled && !scrollLock.admits(direction)) {
                lift = TouchFrame(action: .lift, first: first, second: second)
                state = .up
            }
        }
        let landing: TouchFrame?
        let makeUp: Double
        let origin: Instant
        let opening: Opening
        let firstInterval: Duration
        // Fingers down that have moved as far as starts libinput's scroll continue it; fingers
        // that have not (stopped before the make-up frame) have no scroll to continue.
        let scrolling = isDown && scrolled
        // The scroll these fingers continue keeps its lock (this glide is of its class, or it is
        // free); a scroll still to start locks to this glide's axis.
        if !scrolling { scrollLock = ScrollLock(direction) }
        var resumedFrom: (still: Instant, settle: Settle?)?
        switch state {
        case .up:
            (first, second) = Self.landing(speed: speed, along: direction, deceleration: deceleration)
            landing = TouchFrame(action: .land, first: first, second: second)
            landed = time
            landingPoint = first
            scrolled = false
        case .resting(let still, let owed):
            landing = nil
            resumedFrom = (still, owed)
        case .gliding(let glide):
            landing = nil
            resumedFrom = glide.resumedFrom
        }
        if scrolling {
            // libinput is still in the scroll these fingers started: continue without a lift.
            makeUp = 0
            origin = time
            opening = .resumed
            firstInterval = Self.framePeriod
        } else {
            // After a landing, or fingers that started no scroll: the frame after moves by the
            // make-up only, which libinput's scroll start drops; the model starts a frame period
            // later, less the lead that covers the handover.
            makeUp = Self.makeUp(speed: speed)
            origin = time + Self.framePeriod - lead
            opening = .makeUp
            firstInterval = Self.makeUpInterval(distance: makeUp)
        }
        let room = Self.glideRoom(from: first, second, along: direction)
        var end = origin + (settles ? Duration.seconds(settle) : maxDuration)
        var finalDistance = makeUp + model.distance
        var reachesEdge = false
        if finalDistance > room {
            // The surface ends first: stop where the fingers reach the margin.
            finalDistance = room
            settles = false
            reachesEdge = true
            let reach = deceleration.time(toReach: max(0, room - makeUp), velocity: speed) ?? maxDuration.seconds
            end = origin + Duration.seconds(reach)
        }
        state = .gliding(Glide(origin: origin, direction: direction, speed: speed, deceleration: deceleration,
                               makeUp: makeUp, firstStart: first, secondStart: second, end: end,
                               finalDistance: finalDistance, settles: settles, reachesEdge: reachesEdge, opening: opening,
                               nextFrame: time + firstInterval, interval: firstInterval,
                               lastFrame: time, lastModelTime: time, released: time, resumedFrom: resumedFrom))
        return Start(lift: lift, landing: landing)
    }

    /// Where fingers that are up land for a glide at `speed` (mm/s) along `direction` (a unit
    /// vector): side by side `fingerSpacingMillimetres` apart across the motion, centred on the
    /// path (the make-up and the travel `v0/k`) so that the whole of it lies on the surface;
    /// a path longer than the surface between the margins starts at the margin behind it.
    static func landing(speed: Double, along direction: Vector, deceleration: Deceleration) -> (first: Vector, second: Vector) {
        let across = Vector(x: -direction.y, y: direction.x) * (VirtualPad.fingerSpacingMillimetres / 2)
        let path = makeUp(speed: speed) + deceleration.destination(velocity: speed)
        let low = VirtualPad.marginMillimetres + VirtualPad.fingerSpacingMillimetres / 2
        let high = VirtualPad.sideMillimetres - low
        var centre = VirtualPad.centre - direction * (min(path, high - low) / 2)
        centre = Vector(x: min(max(centre.x, low), high), y: min(max(centre.y, low), high))
        return (centre - across, centre + across)
    }

    /// How far past where a glide along `direction` is cut its settle frames reach, mm: a unit
    /// each along the main axis, which must stay inside the margins too.
    static func settleReach(along direction: Vector) -> Double {
        Double(settleFrames) * settleDistance / max(abs(direction.x), abs(direction.y))
    }

    /// Where the model of a glide at `speed` (mm/s) ends, mm from its start (without the
    /// make-up): `x(T)` with `T` the settle time (`restDistance` short of `v0/k`: a glide that
    /// comes to rest stops there, so the last frame moves like the ones before it) or
    /// `maxDuration`, whichever comes first; the settle time, s; and whether it comes to rest.
    static func modelEnd(speed: Double, deceleration: Deceleration, maxDuration: Duration)
        -> (distance: Double, settleTime: Double, settles: Bool)
    {
        let settle = deceleration.settleTime(velocity: speed, epsilon: restDistance)
        let settles = Duration.seconds(settle) <= maxDuration
        return (deceleration.position(after: settles ? settle : maxDuration.seconds, velocity: speed), settle, settles)
    }

    /// How far a glide along `direction` may take fingers at `first` and `second`, mm: to the
    /// margin, less the settle frames' reach. A glide longer than this stops there (`Ending.edge`).
    static func glideRoom(from first: Vector, _ second: Vector, along direction: Vector) -> Double {
        max(0, room(from: first, second, along: direction) - settleReach(along: direction))
    }

    /// Whether a glide at `speed` (mm/s) along `direction` that lands (the fingers were up)
    /// stops at the margin: `start`'s plan, make-up included.
    static func landingReachesEdge(speed: Double, along direction: Vector, deceleration: Deceleration,
                                   maxDuration: Duration) -> Bool {
        let fingers = landing(speed: speed, along: direction, deceleration: deceleration)
        let glide = makeUp(speed: speed) + modelEnd(speed: speed, deceleration: deceleration, maxDuration: maxDuration).distance
        return glide > glideRoom(from: fingers.first, fingers.second, along: direction)
    }

    /// The fastest release, mm/s, up to `maxSpeed`, whose glide fits the surface along an axis;
    /// nil when a release at `maxSpeed` fits. Along an axis the surface holds the least (about
    /// 0.87 m: from the margin behind, less the make-up and the settle frames' reach): a
    /// diagonal glide, which axis lock leaves only to releases far from both axes, has more room.
    /// Fingers that continue a glide where they are, within the tap timeout of their landing
    /// (`start`), may have less. Found by bisection: the glide grows with the speed and the room
    /// stays the same once the path starts at the margin.
    public static func fastestFittingSpeed(deceleration: Deceleration, maxDuration: Duration, upTo maxSpeed: Double) -> Double? {
        let axis = Vector(x: 0, y: 1)
        guard maxSpeed.isFinite, maxSpeed > 0,
              landingReachesEdge(speed: maxSpeed, along: axis, deceleration: deceleration, maxDuration: maxDuration)
        else { return nil }
        var fits = 0.0, stops = maxSpeed
        for _ in 0..<64 where stops - fits > 1e-9 {
            let speed = (fits + stops) / 2
            if landingReachesEdge(speed: speed, along: axis, deceleration: deceleration, maxDuration: maxDuration) {
                stops = speed
            } else {
                fits = speed
            }
        }
        return fits
    }

    /// How far both fingers may move along `direction` before one leaves the margins, mm.
    static func room(from first: Vector, _ second: Vector, along direction: Vector) -> Double {
        func axis(_ position: Double, _ step: Double) -> Double {
            let low = VirtualPad.marginMillimetres
            let high = VirtualPad.sideMillimetres - low
            if step > 1e-12 { return max(0, (high - position) / step) }
            if step < -1e-12 { return max(0, (low - position) / step) }
            return .infinity
        }
        return min(axis(first.x, direction.x), axis(first.y, direction.y),
                   axis(second.x, direction.x), axis(second.y, direction.y))
    }

    /// The frame due at `time`, if any, and whether a glide ended with it (and how).
    ///
    /// While gliding: one motion frame per period at the model's position at `time` (a late
    /// tick writes where the model is, once; missed frames are not written in a bunch, which
    /// libinput would take for a touch jump). Resting: the next settle frame once its wait
    /// passed, when due; the lift once `restBeforeLift` passed.
    public mutating func advance(to time: Instant) -> (frame: TouchFrame?, ended: Ending?) {
        let next = frame(at: time)
        writeOwed = next.frame != nil
        return next
    }

    private mutating func frame(at time: Instant) -> (frame: TouchFrame?, ended: Ending?) {
        switch state {
        case .up:
            return (nil, nil)
        case .resting(let still, var settle?):
            guard time >= settleDue(still: still, settle: settle) else { return (nil, nil) }
            first = first + settle.axis * Self.settleDistance
            second = second + settle.axis * Self.settleDistance
            noteMotion()
            settle.left -= 1
            state = .resting(still: time, settle: settle.left > 0 ? settle : nil)
            return (TouchFrame(action: .move, first: first, second: second), nil)
        case .resting(let still, nil):
            guard time >= still + Self.restBeforeLift else { return (nil, nil) }
            // At rest long enough: lifting now starts no toolkit glide and is no tap.
            state = .up
            return (TouchFrame(action: .lift, first: first, second: second), nil)
        case .gliding(var glide):
            guard time >= glide.nextFrame else { return (nil, nil) }
            let modelTime = time - glide.lag
            let ended = modelTime >= glide.end
            let wanted: Double
            let opening = ended ? .done : glide.opening
            switch opening {
            case .makeUp:
                // The first motion frame after a landing is the make-up alone: libinput drops it.
                wanted = min(glide.finalDistance, glide.makeUp)
            case .baseline:
                wanted = min(glide.finalDistance,
                             glide.distance + Self.baselineStep(from: first, second, along: glide.direction))
            case .resumed, .done:
                wanted = ended ? glide.finalDistance : min(glide.finalDistance, Self.distance(glide, at: modelTime))
            }
            // Speed up by at most `maximumSpeedIncrease` per frame: libinput takes a frame much
            // longer than the one before for a touch jump and discards it (seen from 0 to
            // 1500 mm/s in one frame). Below ~300 mm/s this never binds; above, the fingers
            // catch up with the model within a few frames, as it slows.
            // The interval libinput will divide by is the kernel's, from the last frame's stamp:
            // after a held-up write the model's (which takes the hold-up, less `heldWrite`, as
            // lag) can be longer, and a frame at the top speed then came out at 2000 mm/s in
            // 8 ms, over libinput's 20 mm at 12 ms. The shorter of the two bounds the frame.
            var interval = max(Self.framePeriod.seconds / 8,
                               min((modelTime - glide.lastModelTime).seconds, (time - glide.lastFrame).seconds))
            if glide.opening == .resumed {
                // The first frame of a continued glide (its model ended or not) counts from the
                // release's kernel stamp, and libinput judges no frame after the fingers' rest: a
                // release handled late would open with the ramp's speed times the whole delay in
                // one frame (15 mm at 50 ms), a jump in the content. It moves one frame period's
                // worth at most, as the make-up after a landing counts from the landing's write.
                interval = min(interval, Self.framePeriod.seconds)
            }
            // The make-up frame's interval is chosen for its length (`makeUpInterval`).
            var allowed = opening == .makeUp ? Double.infinity
                : min(glide.lastSpeed + Self.maximumSpeedIncrease, Self.maximumSpeed) * interval
            if opening == .done && glide.distance > 0 {
                // Catching up (the lead, a ramp from rest, a late landing) never runs faster
                // than `maximumCatchUp` times the model: the content speeds up a little for a
                // few frames instead of jumping ahead. The last frame too: fingers still behind
                // when the model ends stop where this frame puts them, the rest dropped. Moving
                // it then, after the content had crawled, was a jump up to the top speed, and
                // the lift 200 ms after fast frames let a browser fling (the settle frames are
                // only for glides that stop while moving).
                let modelEnd = min(modelTime, glide.end)
                let t = modelEnd < glide.origin ? 0 : (modelEnd - glide.origin).seconds
                let modelSpeed = glide.deceleration.velocity(after: t, velocity: glide.speed)
                allowed = min(allowed, Self.maximumCatchUp * modelSpeed * interval)
            }
            let step = max(0, min(wanted - glide.distance, allowed))
            let distance = glide.distance + step
            let done = ended
            // libinput judges the frame after the make-up as if the fingers had been at rest (it
            // resets their history when the landing's finger count settles, so a long frame
            // there was seen discarded as a jump at 600 mm/s), and the frame after a resumed
            // glide's first against the frame before the rest: the speed ramp starts again.
            // After a frame libinput may not have judged, it judges against the one before.
            glide.speedBefore = glide.lastSpeed
            if opening == .makeUp || opening == .resumed {
                glide.lastSpeed = 0
            } else if interval > Self.unjudgedInterval.seconds {
                glide.lastSpeed = min(glide.lastSpeed, step / interval)
            } else {
                glide.lastSpeed = step / interval
            }
            glide.lastModelTime = modelTime
            glide.distance = distance
            glide.lastFrame = time
            first = glide.firstStart + glide.direction * distance
            second = glide.secondStart + glide.direction * distance
            noteMotion()
            let frame = TouchFrame(action: .move, first: first, second: second)
            if done {
                // The last motion frame: from here the fingers rest, then lift; a glide cut while
                // moving settles first.
                state = .resting(still: time, settle: glide.settles ? nil : Settle(stopped: glide.direction))
                return (frame, glide.settles ? .settled : glide.reachesEdge ? .edge : .cut)
            }
            switch opening {
            case .makeUp:
                glide.opening = .baseline
                glide.interval = Self.baselineInterval
            case .baseline:
                glide.opening = .done
                glide.interval = Self.openingInterval
            case .resumed:
                glide.opening = .done
                glide.interval = Self.framePeriod
            case .done:
                glide.interval = Self.framePeriod
            }
            glide.nextFrame = glide.nextFrame + glide.interval
            if glide.nextFrame <= time {
                // The tick came more than an interval late: the next frame is one from now.
                glide.nextFrame = time + glide.interval
            }
            state = .gliding(glide)
            return (frame, nil)
        }
    }

    /// Notes a motion frame's new positions: libinput's scroll starts once the fingers are
    /// `handScrollDistance` from where they landed (`scrolled`).
    private mutating func noteMotion() {
        if (first - landingPoint).length >= Self.handScrollDistance { scrolled = true }
    }

    /// Tells the fingers that the last frame reached the kernel at `time` (the kernel stamps a
    /// frame when it is written). The next motion frame comes at least `framePeriod` later:
    /// libinput's touch-jump filter divides a frame's distance by the stamped interval, so a
    /// frame written late and the next one on time would look like a jump and be discarded.
    public mutating func frameWritten(at time: Instant) {
        let owed = writeOwed
        writeOwed = false
        if case .resting(let still, let settle) = state {
            // The frame that began the rest (the last motion frame, a settle frame) reached the
            // kernel only now, however late: the rest counts from its stamp.
            if owed && time > still { state = .resting(still: time, settle: settle) }
            return
        }
        guard case .gliding(var glide) = state else { return }
        // A landing written late delays the handover, which the lead's catch-up absorbs; it
        // is not a motion frame whose interval the next one must match.
        let landing = glide.distance == 0 && glide.makeUp > 0
        if landing {
            glide.landingDelay = max(glide.landingDelay, time - glide.released)
            // The touch began when the kernel stamped the landing: the tap guard counts from
            // there, as the rest before the lift does (a lift written with the landing reports
            // first; the landing's own report is the later one).
            if let landed, time > landed { self.landed = time }
        }
        let held = time - glide.lastFrame
        if held > Self.heldWrite && !landing { glide.lag = glide.lag + (held - Self.heldWrite) }
        if let before = glide.lastWritten, time - before > Self.unjudgedInterval, !landing {
            // Written so late after the frame before that libinput may not judge it (the
            // model's interval, taken when the frame was computed, did not show it).
            glide.lastSpeed = min(glide.lastSpeed, glide.speedBefore)
        }
        glide.lastWritten = time
        glide.lastFrame = time
        if glide.nextFrame < time + glide.interval { glide.nextFrame = time + glide.interval }
        state = .gliding(glide)
    }

    /// Distance along the motion at `time`, mm: the make-up plus the model's `x(t)`.
    static func distance(_ glide: Glide, at time: Instant) -> Double {
        guard time >= glide.origin else { return glide.makeUp }
        return glide.makeUp + glide.deceleration.position(after: (time - glide.origin).seconds, velocity: glide.speed)
    }

    /// The glide's velocity on the pad at `time`, mm/s (zero unless gliding).
    public func velocity(at time: Instant) -> Vector {
        switch state {
        case .up, .resting:
            return .zero
        case .gliding(let glide):
            let modelTime = time - glide.lag
            let t = modelTime < glide.origin ? 0 : (modelTime - glide.origin).seconds
            return glide.direction * glide.deceleration.velocity(after: t, velocity: glide.speed)
        }
    }

    /// Stops a glide at `time`: the fingers stay where the last frame put them. Fingers that
    /// were moving rest `restBeforeSettle`, write the settle frames and rest `restBeforeLift`
    /// before the lift; fingers that had not moved since landing rest `restBeforeLift` and lift.
    /// Nothing is written now.
    public mutating func freeze(at time: Instant) {
        switch state {
        case .up, .resting:
            // Nothing moves: an up pad stays up; resting fingers keep their lift time.
            return
        case .gliding(let glide):
            if glide.distance == 0, let resumed = glide.resumedFrom {
                // Continued resting fingers that have not moved since: they rest as they did,
                // the settle frames of the motion they stopped in still owed.
                state = .resting(still: resumed.still, settle: resumed.settle)
                return
            }
            // Still since the last frame written (the landing, when no motion frame came yet).
            // Stopped while moving: the settle frames come before the lift.
            state = .resting(still: glide.nextFrame - glide.interval,
                             settle: glide.distance > 0 ? Settle(stopped: glide.direction) : nil)
        }
    }

    /// Two fingers came down on touchpad `device` at `time` (a hand, while these fingers may
    /// rest): settle frames still to come wait for them to lift, up to `longestHandHold`. A
    /// hand that caught the glide often scrolls on, and under X11 a settle frame amid its
    /// scroll events is two switches of device, at which the toolkits drop the next events of
    /// the other device (docs/DESIGN.md). Resting fingers write no events, so a settle frame
    /// after the hold costs nothing. One hand holds at a time: the first, until it lifts.
    public mutating func handDown(on device: DeviceID, at time: Instant) {
        if hand == nil { hand = (device, time) }
    }

    /// The hand on `device` (nil: any) lifted, or is no two fingers any more, or its device is
    /// gone: settle frames held back come now, when their rest has passed.
    public mutating func handLifted(from device: DeviceID?) {
        if device == nil || hand?.device == device { hand = nil }
    }

    /// The hand scrolls: the settle frames still to come are not written, and the fingers lift
    /// when they would have after the last. The hand's scroll events are the newest the apps
    /// have, so a browser's fling at the lift comes from them, not from the glide.
    public mutating func handScrolls() {
        hand = nil
        guard case .resting(let still, let settle?) = state else { return }
        let last = still + settle.wait + Self.settleInterval * Int64(settle.left - 1)
        state = .resting(still: last, settle: nil)
    }

    /// When the next settle frame is due: its rest after `still`, and no sooner than
    /// `longestHandHold` after a hand came down while one still holds it.
    func settleDue(still: Instant, settle: Settle) -> Instant {
        let due = still + settle.wait
        guard let hand else { return due }
        return max(due, hand.since + Self.longestHandHold)
    }

    /// The settle frames' direction: the main axis of `direction`, its way. A unit along a
    /// diagonal could round to no device unit on either axis.
    static func settleAxis(_ direction: Vector) -> Vector {
        abs(direction.y) >= abs(direction.x) ? Vector(x: 0, y: direction.y < 0 ? -1 : 1)
            : Vector(x: direction.x < 0 ? -1 : 1, y: 0)
    }

    /// Lifts the fingers at once, wherever they are and however they move, and forgets them:
    /// the lift frame to write, nil when they are up. Only where no one reads what the rest
    /// before the lift is for (`Engine.stop` for `.sessionInactive`).
    public mutating func liftNow() -> TouchFrame? {
        guard isDown else { return nil }
        let frame = TouchFrame(action: .lift, first: first, second: second)
        abandon()
        return frame
    }

    /// Forgets the fingers without a frame: the device they were on is gone (its removal ended
    /// the touches in the kernel and libinput).
    public mutating func abandon() {
        state = .up
        hand = nil
    }
}

extension Configuration {
    /// The fastest release, mm/s, whose glide with `output.mode = "touchpad"` fits flickd's
    /// virtual touchpad, for these `coast` settings (`deceleration_rate`, `max_duration`); nil
    /// when every release up to `coast.max_speed` (the fastest a coast starts) fits. Faster
    /// ones stop at the pad's margin (`VirtualFingers.Ending.edge`), still moving.
    ///
    /// Along an axis, where axis lock puts most glides and the pad holds least (about 0.87 m):
    /// a diagonal glide has more room (`VirtualFingers.fastestFittingSpeed`). Reads neither
    /// `output.mode` nor `devices`: for a `[[device]]` section, ask its configuration (or
    /// `resolved(for:)`'s).
    ///
    /// `speedRatio`: how much faster than the release the fingers move on a pad the desktop
    /// scrolls at another speed than the virtual one (`Engine.glideSpeedRatio`, its size): the
    /// fingers' limit over it, for releases up to `coast.max_speed` (the fingers' up to that
    /// times the ratio); nil for a ratio of 0 (no glide).
    public func touchpadGlideSpeedLimit(speedRatio: Double = 1) -> Double? {
        let ratio = abs(speedRatio)
        guard ratio > 0, ratio.isFinite else { return nil }
        return VirtualFingers.fastestFittingSpeed(deceleration: Deceleration(ratePerMillisecond: coast.decelerationRate),
                                                  maxDuration: coast.maxDuration, upTo: coast.maxSpeed * ratio)
            .map { $0 / ratio }
    }

    /// What `flickd check-config`, `flickd doctor` and the daemon's log say about glides that
    /// stop at the edge of the virtual touchpad: a line for the top-level settings and one for
    /// each enabled `[[device]]` section whose coast settings differ from them (keys named as
    /// in configuration errors, `device[2].coast.max_speed`), each only where
    /// `touchpadGlideSpeedLimit()` is not nil. None with `output.mode = "wheel"`, or when
    /// neither touchpads nor touchscreens coast.
    ///
    ///     with output.mode = "touchpad", glides from releases faster than 874 mm/s stop at
    ///     the edge of flickd's virtual touchpad (coast.deceleration_rate = 0.999 glides 1.49 m
    ///     at coast.max_speed = 1500 mm/s; the pad holds 0.87 m along an axis): lower
    ///     coast.max_speed to 874 or coast.deceleration_rate, or use output.mode = "wheel"
    public func touchpadGlideWarnings() -> [String] {
        guard output.mode == .touchpad else { return [] }
        let top = touchpadGlideWarning(keys: "")
        var warnings = top.map { [$0] } ?? []
        for (index, rule) in devices.enumerated() where rule.enabled {
            let its = rule.configuration.coast
            // The same glide as the top level's, whose line covers it (when there is one: a
            // section may coast where the top level does not, `touchpad.enabled` its own).
            if top != nil && its.decelerationRate == coast.decelerationRate && its.maxSpeed == coast.maxSpeed
                && its.maxDuration == coast.maxDuration { continue }
            if let warning = rule.configuration.touchpadGlideWarning(keys: "device[\(index + 1)].") {
                warnings.append(warning)
            }
        }
        return warnings
    }

    /// The warning for these settings, keys prefixed with `keys`; nil when nothing coasts or
    /// every release fits.
    private func touchpadGlideWarning(keys: String) -> String? {
        guard touchpad.enabled || touchscreen.enabled, let limit = touchpadGlideSpeedLimit() else { return nil }
        let deceleration = Deceleration(ratePerMillisecond: coast.decelerationRate)
        func glide(_ speed: Double) -> Double {
            VirtualFingers.modelEnd(speed: speed, deceleration: deceleration, maxDuration: coast.maxDuration).distance
        }
        // Whole mm/s that fit; metres to the centimetre.
        let fits = String(Int64(limit.rounded(.down)))
        func metres(_ millimetres: Double) -> String {
            let centimetres = Int64((millimetres / 10).rounded())
            let fraction = centimetres % 100
            return "\(centimetres / 100).\(fraction < 10 ? "0" : "")\(fraction) m"
        }
        func plain(_ number: Double) -> String {
            number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        }
        // Two figures a hair apart (a max_speed just over the limit) must not read the same:
        // then in millimetres, the glide's up and the pad's down.
        var glides = metres(glide(coast.maxSpeed)), holds = metres(glide(limit))
        if glides == holds {
            glides = "\(Int64(glide(coast.maxSpeed).rounded(.up))) mm"
            holds = "\(Int64(glide(limit).rounded(.down))) mm"
        }
        // A max_speed at or under min_speed is refused: then only the rate shortens the glides.
        let fix = limit > coast.minSpeed
            ? "lower \(keys)coast.max_speed to \(fits) or \(keys)coast.deceleration_rate"
            : "lower \(keys)coast.deceleration_rate (every coast, from \(keys)coast.min_speed = \(plain(coast.minSpeed)) mm/s on, stops there)"
        return "with output.mode = \"touchpad\", glides from releases faster than \(fits) mm/s stop at the edge of "
            + "flickd's virtual touchpad (\(keys)coast.deceleration_rate = \(plain(coast.decelerationRate)) glides "
            + "\(glides) at \(keys)coast.max_speed = \(plain(coast.maxSpeed)) mm/s; the pad holds "
            + "\(holds) along an axis): \(fix), or use output.mode = \"wheel\""
    }
}
