/// The whole engine: raw evdev events in, smooth-scroll wheel output out.
///
/// One engine serves every device: there is one virtual wheel and one coast at a time. It
/// never reads a clock: every call takes the time, and `nextDeadline` says when it wants to be
/// called again. Not thread-safe: the daemon calls it from its one event-loop thread.
///
/// Handling an event or a tick does not allocate (devices are set up in `addDevice`).
public final class Engine {
    /// The configuration in force.
    public private(set) var configuration: Configuration

    /// Called with each decision the engine makes (gesture began, coast started or not, coast
    /// ended). Must not call back into the engine.
    public var onReport: ((EngineReport) -> Void)?

    /// Which output the daemon writes, and so which one the engine computes: `.wheel` (the
    /// default here, for replays and tests) returns wheel output from `handle` and `tick`;
    /// `.touchpad` returns none and calls `onTouchFrame` with the virtual fingers' frames. The
    /// daemon sets it from `output.mode` (`setOutput(_:at:)`), once the virtual fingers are up.
    /// Changing it stops a coast; fingers still down are forgotten (the daemon destroys their
    /// device, which ends their touches). Set here, without a time, a running coast ends at the
    /// last `tick` (or its release, when none came since): use `setOutput(_:at:)` while one may run.
    public var output: OutputMode {
        get { currentOutput }
        set {
            // The later of the coast's last tick and the engine's: the touchpad output's coast
            // is never ticked itself.
            var latest = coast?.lastTick ?? Instant(microseconds: 0)
            if let lastTickTime, lastTickTime > latest { latest = lastTickTime }
            setOutput(newValue, at: latest)
        }
    }

    /// Changes `output` at `time`: a running coast ends then (`.reconfigured`), as its report says.
    ///
    /// Rationale: the touchpad output's coast is bookkeeping that is never ticked, so its own
    /// last tick is the release: ended there, a glide switched off 500 ms later read as one
    /// that ended at once.
    public func setOutput(_ mode: OutputMode, at time: Instant) {
        guard mode != currentOutput else { return }
        // Stopped under the old output, whose bookkeeping it is (`finish`).
        if coast != nil { stop(at: time, reason: .reconfigured) }
        currentOutput = mode
        fingers.abandon()
        legacyRemainder = (0, 0)
        lastCoastJustEnded = false
    }

    private var currentOutput: OutputMode = .wheel
    /// The time of the last `tick`, for `output`'s setter, which is given none.
    private var lastTickTime: Instant?

    /// Called with each frame for the virtual touchpad and the time it is for, while `output`
    /// is `.touchpad`, from `handle` (a landing with the release), `tick`, and `stop` for
    /// `.sessionInactive` (the lift). Must not call back into the engine, except
    /// `touchFrameWritten(at:)`.
    public var onTouchFrame: ((TouchFrame, Instant) -> Void)?

    /// The desktop's touchpad natural-scrolling setting, used where `scroll.natural` is `auto`
    /// (the daemon reads it from GNOME, KDE or sway). Default false: libinput's default. Setting it
    /// decides every device's direction again (a running coast keeps its own).
    public var desktopNaturalScrolling: Bool = false {
        didSet {
            guard desktopNaturalScrolling != oldValue else { return }
            for state in devices.values { decideDirection(state) }
        }
    }

    /// The desktop's natural-scrolling setting for the virtual touchpad itself, where the
    /// desktop keeps settings per device and the daemon can read them (KDE Plasma on Wayland);
    /// nil: the desktop gives it the same setting as the touchpad a coast comes from. When the
    /// two differ, the virtual fingers move against the real ones so that the content keeps
    /// the real pad's direction.
    public var virtualTouchpadNaturalScrolling: Bool?

    /// The desktop's scrolling speed for the virtual touchpad itself (KWin's `ScrollFactor`,
    /// sway's `scroll_factor`: what it multiplies a pad's scroll by), where it keeps one per
    /// device and the daemon can read it; nil: unknown, taken as the source pad's (no scaling).
    /// A glide moves the virtual fingers `glideSpeedRatio` times as fast as the release, so
    /// that the content goes on at the speed the real pad scrolled it (a touchscreen counts as
    /// a pad at 1: its content followed the finger at no factor).
    public var virtualTouchpadScrollFactor: Double?

    /// The range the size of `glideSpeedRatio` is kept in (but for 0). A factor set for one pad
    /// 10 times the other's is a misconfiguration more likely than a wish; beyond it the fingers
    /// would spend the glide at their top speed (`VirtualFingers.maximumSpeed`) or crawl under a
    /// device unit a frame.
    public static let glideSpeedRatios: ClosedRange<Double> = 0.1...10

    /// How much faster than the release the virtual fingers move for a touchpad whose desktop
    /// scrolling speed is `source` while the virtual pad's is `virtual` (a touchscreen: `source`
    /// 1): `|source / virtual|`, kept in `glideSpeedRatios`, negative when the two have opposite
    /// signs (KWin's `ScrollFactor=-1` reverses a pad: the fingers then move the other way, so
    /// that the content keeps the real pad's direction); 0 when `source` is 0 (the desktop
    /// scrolls nothing with that pad: its releases glide nothing either, whatever the virtual
    /// pad's); 1 when either is unknown or not finite, or the virtual pad's is 0 (it scrolls
    /// nothing at any speed).
    public static func glideSpeedRatio(source: Double?, virtual: Double?) -> Double {
        // The real pad first: at 0 the user's own scrolls on it moved nothing, and a glide that
        // ran (invisibly, on a virtual pad at 0 too) would only hold fingers down for nothing.
        if source == 0 { return 0 }
        guard let source, let virtual, source.isFinite, virtual.isFinite, virtual != 0 else { return 1 }
        let size = min(max(abs(source / virtual), glideSpeedRatios.lowerBound), glideSpeedRatios.upperBound)
        return (source < 0) == (virtual < 0) ? size : -size
    }

    /// A tick this much later than it was due means the machine stalled (suspend): the coast
    /// ends rather than jump.
    public static let stallLimit = Duration.milliseconds(500)
    /// This engine's stall limit: `stallLimit`, unless a test that drives the engine on the
    /// real clock under load gives it a longer one (a descheduled test is no suspend).
    public let stallLimit: Duration

    private final class Device {
        let description: DeviceDescription
        let kind: DeviceKind?
        /// Why a device read as a touchpad is not one libinput takes
        /// (`DeviceDescription.touchpadSanityProblem`): `kind` is nil then.
        let refusal: String?
        let resolutionOverride: Double?
        /// The settings for this device (a matching `[[device]]` section's, else the global ones).
        var settings: Configuration
        /// The matching `[[device]]` section, if any.
        var rule: DeviceRule?
        /// The desktop's own natural-scrolling setting for this device, where it keeps one per
        /// device; nil: `Engine.desktopNaturalScrolling`.
        var desktopNaturalScrolling: Bool?
        /// The desktop's own scrolling speed for this device, where it keeps one per device
        /// (`Engine.setDesktopScrollFactor`); nil: unknown.
        var desktopScrollFactor: Double?
        /// Why the driver the desktop reads this device with glides by itself (the synaptics X
        /// driver's coasting), so that its flicks start no coast here; nil: it does not.
        var driverGlides: String?
        var tracker: ContactTracker?
        /// nil when the device only stops coasts (its kind is disabled) or is ignored.
        var recognizer: GestureRecognizer?
        /// Whether the desktop scrolls this device naturally when it is a touchpad, and so the
        /// source pad's direction for the virtual touchpad's fingers:
        /// `Configuration.naturalScrolling(for:kind:desktop:)`, decided in `decideDirection`
        /// when the device is added, the configuration or a desktop setting changes, never per event.
        var touchpadScrollsNaturally = false
        /// Whether the content follows the fingers on this device: always on a touchscreen,
        /// else `touchpadScrollsNaturally`.
        var contentFollowsFingers = false
        /// A button of the device's own (a pad's physical left/right/middle button) went down
        /// in the frame being read: it stops a coast when the frame ends without a new touch.
        var buttonPressed = false
        /// The device's current MT slot while it has no tracker (it is ignored), for the
        /// tracker it gets when a reload admits it: the slot at open, then each ABS_MT_SLOT.
        var currentSlot = 0
        /// What the slots held at open, for the tracker `addDevice` gives it (stale after that).
        var slotsAtOpen: [SlotAtOpen] = []
        /// How a touchpad's pressure tells touches and palms (`addDevice`), kept for every
        /// tracker the device gets (a reload that admits it again builds a new one).
        var touchPressure: TouchPressure?

        init(description: DeviceDescription, kind: DeviceKind?, resolutionOverride: Double?, configuration: Configuration) {
            self.description = description
            // libinput adds no device for a touchpad that fails its sanity checks, whatever
            // made it one (udev's tag or its capabilities): nothing scrolls with it there.
            let refusal = kind == .touchpad ? description.touchpadSanityProblem : nil
            self.kind = refusal == nil ? kind : nil
            self.refusal = refusal
            self.resolutionOverride = resolutionOverride
            (settings, rule) = configuration.resolved(for: description)
        }

        /// The resolution to use: the caller's override, else the device section's.
        var resolution: Double? { resolutionOverride ?? rule?.resolution }
    }

    private var devices: [DeviceID: Device] = [:]
    private var coast: Coast?
    /// The virtual touchpad's fingers (`output` `.touchpad`): they may stay down resting after
    /// the coast ended, until their lift.
    private var fingers = VirtualFingers()
    /// The last coast a touch stopped: the device it came from, its velocity then (mm/s, that
    /// device's coordinates) and when, for a boost.
    private var stoppedCoast: (source: DeviceID, velocity: Vector, time: Instant)?
    /// Hi-res units the running coast returned that did not reach the apps (`notWritten`).
    private var unwrittenHiRes: (vertical: Int64, horizontal: Int64) = (0, 0)
    /// Hi-res units of wheel output not yet sent as a legacy detent (under 120 each way), left
    /// by the coasts before the running one: the next coast in the same direction on an axis
    /// goes on from them, one that reverses starts afresh (`Coast.carryLegacy(_:)`).
    ///
    /// Rationale: readers of the legacy events only (wlroots 0.15, sway 1.7) see whole detents;
    /// a remainder that belonged to each coast lost up to 119 units at every end, and small
    /// flicks, each under 120, never scrolled there at all. The kernel's HID wheel handling
    /// likewise keeps it until the direction reverses. It is kept across idle time and from
    /// one source device to the next: the reader sees one virtual wheel, and whatever the pace,
    /// what a hi-res reader scrolled reaches it in whole detents, at most one detent behind
    /// (a timeout would drop it between the usual flicks, seconds apart). It is dropped when
    /// `output` changes: the wheel may be another device to the reader by the time it is back.
    private var legacyRemainder: (vertical: Int64, horizontal: Int64) = (0, 0)
    /// The last wheel coast has ended and no coast has started since: output it returned in
    /// the call that ended it (its last step) may still be reported not written, and then
    /// counts against `legacyRemainder` as units not written count in `finish`.
    private var lastCoastJustEnded = false

    /// An engine with `configuration`.
    public init(configuration: Configuration = .defaults, stallLimit: Duration = Engine.stallLimit) {
        self.configuration = configuration
        self.stallLimit = stallLimit
    }

    // MARK: Devices

    /// Starts reading `device`. `kind`: what udev tags it (ID_INPUT_TOUCHPAD or
    /// ID_INPUT_TOUCHSCREEN), which wins over the kind its capabilities suggest
    /// (`DeviceDescription.kind`) when it reports positions (`hasPosition`); nil: that one (a
    /// replay, which has no udev). A touchpad libinput refuses
    /// (`DeviceDescription.touchpadSanityProblem`) is ignored, whichever decided its kind. `resolutionOverride` (units/mm) replaces a missing or wrong
    /// resolution; `driverGlides` as `setDriverGlides`; `currentSlot` is the device's current
    /// MT slot when it was opened (libevdev's), where its next MT event goes unless an
    /// ABS_MT_SLOT comes first; `slotsAtOpen` what its slots held then (`ContactTracker.init`).
    /// `touchPressure`: how a touchpad's contacts touch by pressure (`PressureReading`: the
    /// daemon's come from the pad's quirks; by default every contact touches, as a replay without
    /// the recording machine's quirks reads them); not used on a touchscreen, where libinput
    /// reads no pressure.
    /// Returns whether its gestures will be read, and why not.
    ///
    /// Rationale: libinput reads a device as udev tags it (a touchpad only where it passes
    /// libinput's touchpad sanity checks), and the desktop's settings for it
    /// (natural scrolling, libinput's quirks) follow that tag: a touch panel that looks like a
    /// touchpad (a finger tool, not direct), which an hwdb entry tags a touchscreen, scrolls
    /// there with one finger, its content following it.
    @discardableResult
    public func addDevice(_ device: DeviceID, description: DeviceDescription, kind: DeviceKind? = nil,
                          resolutionOverride: Double? = nil, driverGlides: String? = nil, currentSlot: Int = 0,
                          slotsAtOpen: [SlotAtOpen] = [], touchPressure: PressureReading = .everyContact) -> DeviceAdmission {
        let state = Device(description: description, kind: description.hasPosition ? kind ?? description.kind : description.kind,
                           resolutionOverride: resolutionOverride, configuration: configuration)
        state.driverGlides = driverGlides
        if state.kind == .touchpad {
            switch touchPressure {
            case .description: state.touchPressure = TouchPressure.libinput(for: description, kind: .touchpad)
            case .given(let given): state.touchPressure = given
            }
        }
        state.currentSlot = currentSlot
        state.slotsAtOpen = slotsAtOpen
        devices[device] = state
        decideDirection(state)
        defer { state.slotsAtOpen = [] }
        return admit(state)
    }

    /// Sets the desktop's own natural-scrolling setting for `device`, where the desktop keeps
    /// one per device and the daemon can read it; nil: the desktop-wide
    /// `desktopNaturalScrolling`. Used where `scroll.natural` is `auto`, and with the touchpad
    /// output, compared with `virtualTouchpadNaturalScrolling` whatever `scroll.natural` is.
    public func setDesktopNaturalScrolling(_ natural: Bool?, for device: DeviceID) {
        guard let state = devices[device] else { return }
        state.desktopNaturalScrolling = natural
        decideDirection(state)
    }

    /// Sets the desktop's own scrolling speed for `device` (KWin's `ScrollFactor`, sway's
    /// `scroll_factor`), where it keeps one per device and the daemon can read it; nil: unknown.
    /// With the touchpad output, a glide from this touchpad moves the virtual fingers
    /// `glideSpeedRatio(source: factor, virtual: virtualTouchpadScrollFactor)` times as fast.
    public func setDesktopScrollFactor(_ factor: Double?, for device: DeviceID) {
        devices[device]?.desktopScrollFactor = factor
    }

    /// Says that the driver the desktop reads `device` with glides by itself, and why (nil: it
    /// does not): its flicks then start no coast, as a second glide on top of the driver's
    /// would, and its touches still stop one. Returns the device's new admission when this
    /// changed it, else nil. A gesture in progress on it is dropped; a coast it started runs on.
    public func setDriverGlides(_ why: String?, for device: DeviceID) -> DeviceAdmission? {
        guard let state = devices[device], state.driverGlides != why else { return nil }
        let before = admission(for: state)
        state.driverGlides = why
        let after = admission(for: state)
        guard after != before else { return nil }
        return admit(state)
    }

    /// Decides which way `state`'s content moves, with the one resolver the daemon's log and
    /// `flickd doctor` use too: a touchpad by the desktop's setting for it where the desktop
    /// keeps one, else by the desktop-wide one.
    private func decideDirection(_ state: Device) {
        let kind = state.kind ?? .touchpad
        let desktop = kind == .touchpad ? state.desktopNaturalScrolling ?? desktopNaturalScrolling : desktopNaturalScrolling
        let identity = DeviceIdentity(state.description)
        state.touchpadScrollsNaturally = configuration.naturalScrolling(for: identity, kind: .touchpad, desktop: desktop).isNatural
        state.contentFollowsFingers = configuration.naturalScrolling(for: identity, kind: kind, desktop: desktop).isNatural
    }

    /// Forgets `device`; a coast it started ends.
    public func removeDevice(_ device: DeviceID, at time: Instant) {
        guard devices.removeValue(forKey: device) != nil else { return }
        if coast?.source == device { stop(at: time, reason: .deviceRemoved) }
        // A hand on it is gone with it.
        fingers.handLifted(from: device)
    }

    /// Whether `device` is read for gestures, watched for touches only, or ignored.
    public func admission(of device: DeviceID) -> DeviceAdmission? {
        guard let state = devices[device] else { return nil }
        return admission(for: state)
    }

    private func admission(for state: Device) -> DeviceAdmission {
        guard let kind = state.kind else {
            if let problem = state.description.rangeProblem ?? state.refusal { return .ignored(why: problem) }
            return .ignored(why: state.description.hasPosition ? "not a touchpad or touchscreen" : "reports no touch positions")
        }
        if state.rule?.enabled == false {
            return .ignored(why: "turned off by a [[device]] section of the configuration")
        }
        let geometry = DeviceGeometry(description: state.description, kind: kind, resolutionOverride: state.resolution)
        let configuration = state.settings
        switch kind {
        case .touchpad where !configuration.touchpad.enabled:
            return .stopOnly(kind: kind, why: "touchpad.enabled is false")
        case .touchscreen where !configuration.touchscreen.enabled:
            return .stopOnly(kind: kind, why: "touchscreen.enabled is false")
        default:
            if let why = state.driverGlides { return .stopOnly(kind: kind, why: why) }
            return .used(kind: kind, geometry: geometry)
        }
    }

    /// Sets up tracking for `state` under the current configuration.
    private func admit(_ state: Device) -> DeviceAdmission {
        let result = admission(for: state)
        let configuration = state.settings
        switch result {
        case .used(let kind, _):
            let tracker = Self.tracker(for: state, kind: kind)
            state.tracker = tracker
            let fingers = kind == .touchpad ? configuration.touchpad.fingers : configuration.touchscreen.fingers
            state.recognizer = GestureRecognizer(
                requiredFingers: fingers, liftWindow: configuration.touchpad.liftWindow,
                liftTravel: configuration.touchpad.liftTravel,
                estimator: VelocityEstimator(kind: configuration.velocity.estimator))
            // Fingers down now began under the old settings: no gesture until they are all up.
            if tracker.fingerCount > 0 { state.recognizer?.abandon(fingersDown: true) }
        case .stopOnly(let kind, _):
            state.tracker = Self.tracker(for: state, kind: kind)
            state.recognizer = nil
        case .ignored:
            if let tracker = state.tracker { state.currentSlot = tracker.currentSlot }
            state.tracker = nil
            state.recognizer = nil
        }
        return result
    }

    /// The tracker for `state` read as `kind`: the one it has, rescaled (a reload keeps what it
    /// knows of the kernel's state), or a new one.
    private static func tracker(for state: Device, kind: DeviceKind) -> ContactTracker {
        guard var tracker = state.tracker else {
            return ContactTracker(description: state.description, kind: kind, resolutionOverride: state.resolution,
                                  currentSlot: state.currentSlot, slotsAtOpen: state.slotsAtOpen,
                                  touchPressure: kind == .touchpad ? state.touchPressure : nil)
        }
        tracker.rescale(description: state.description, kind: kind, resolutionOverride: state.resolution)
        return tracker
    }

    /// Replaces the configuration. A running coast is stopped (its physics would change under
    /// it) and gestures in progress are dropped.
    public func apply(_ configuration: Configuration, at time: Instant) {
        stop(at: time, reason: .reconfigured)
        stoppedCoast = nil
        self.configuration = configuration
        for state in devices.values {
            (state.settings, state.rule) = configuration.resolved(for: state.description)
            decideDirection(state)
            _ = admit(state)
        }
    }

    // MARK: Events

    /// Feeds one raw event from `device`, stamped `time` by the kernel. Frames are processed at
    /// SYN_REPORT. Returns wheel output to write now: usually empty; the first step of a coast
    /// comes with the frame that releases it.
    ///
    /// SYN_DROPPED (the kernel lost events) is handled here and only here: the gesture on
    /// `device` is abandoned and a coast it started stops at once, and the frame that completes
    /// the resynchronisation (flagged by the tracker) abandons it again with what it then knows.
    public func handle(_ event: InputEvent, from device: DeviceID, at time: Instant) -> WheelOutput {
        guard let state = devices[device] else { return WheelOutput() }
        if event.type == EventCode.synchronization && event.code == EventCode.synDropped {
            // Whatever the fingers did since the last frame is unknown: never coast on it. With
            // none down there is no gesture to abandon (nor one to report as abandoned when the
            // resynchronisation's frame finds them still up); fingers that landed meanwhile come
            // in that frame, flagged, and are ignored until they lift.
            abandon(state, device: device, fingersDown: (state.tracker?.fingerCount ?? 0) > 0, at: time)
        }
        let fingersBefore = state.tracker?.fingerCount ?? 0
        guard state.tracker != nil else {
            if event.type == EventCode.absolute && event.code == EventCode.absMTSlot { state.currentSlot = Int(event.value) }
            return WheelOutput()
        }
        // Kept until the frame ends (a device read for nothing keeps none: a flag left from
        // before a reload admitted it would read as a click in its first frame).
        if event.type == EventCode.key, event.value == 1, EventCode.isPointerButton(event.code) {
            state.buttonPressed = true
        }
        guard let frame = state.tracker?.handle(event, at: time) else { return WheelOutput() }
        let buttonPressed = state.buttonPressed
        state.buttonPressed = false

        // A touch on a device whose flicks are read always stops a coast (it may be the next
        // flick); on one read only to stop coasts, as `stop.touch` says.
        let touchStops = state.recognizer != nil || configuration.stop.touch
        if buttonPressed && coast != nil && configuration.stop.button && (frame.resynchronized || !frame.newTouch || !touchStops) {
            // A pad's own button pressed with no finger landing (a pad with physical buttons
            // below it): a click, as on a mouse; a key that went down is one even in a frame
            // whose contacts cannot be trusted. A clickpad's press comes under a finger, whose
            // landing is the touch that stops the coast (below), unless its touches do not.
            stop(at: time, reason: .button)
        }
        if frame.newTouch && coast != nil && touchStops {
            // A finger on a touch device stops the coast at once, like a hand on a wheel; also
            // one that landed while events were lost (with slots the resynchronised frame brings
            // it; without them, the first frame that lists the contacts again, where a finger
            // that moved on in the meantime reads as one landing too).
            let source = coast?.source
            stop(at: time, reason: .touch)
            // Only the release of the gesture that caught the coast is boosted, and only on the
            // coast's own device: a touch on another one leaves no boost for any later release.
            if source != device { stoppedCoast = nil }
        }
        if frame.resynchronized {
            // The frame after SYN_DROPPED, or one that contradicts itself: never coast on it.
            abandon(state, device: device, fingersDown: frame.fingerCount > 0, at: time)
            // A hand that lifted while events were lost no longer holds resting fingers'
            // settle frames back (they would wait for the longest hold instead).
            if state.kind == .touchpad && frame.fingerCount != 2 { fingers.handLifted(from: device) }
            return WheelOutput()
        }
        if state.kind == .touchpad {
            // Two fingers on a touchpad (libinput's scroll) hold resting fingers' settle frames
            // back; once they scroll, their events, not settle frames, end what the apps saw of
            // the glide.
            if frame.fingerCount != 2 {
                fingers.handLifted(from: device)
            } else if fingersBefore == 2, frame.togetherMillimetres >= VirtualFingers.handScrollDistance {
                // Moved since both landed (a landing frame measures the fingers there before).
                fingers.handScrolls()
            } else {
                fingers.handDown(on: device, at: time)
            }
        }
        guard let outcome = state.recognizer?.handle(frame) else { return WheelOutput() }
        switch outcome {
        case .none:
            return WheelOutput()
        case .began(let fingers):
            onReport?(.gestureBegan(device: device, time: time, fingers: fingers))
            return WheelOutput()
        case .ended(let reason, let velocity):
            forgetStoppedCoast(of: device)
            onReport?(.noCoast(device: device, time: time, velocity: velocity, reason: reason))
            return WheelOutput()
        case .released(let velocity, let newestMotion, let travel):
            return release(on: device, state: state, velocity: velocity, newestMotion: newestMotion, travel: travel, at: time)
        }
    }

    /// Drops the gesture in progress on `device` without coasting and stops a coast it started
    /// (events were lost, or a frame contradicted itself).
    private func abandon(_ state: Device, device: DeviceID, fingersDown: Bool, at time: Instant) {
        if coast?.source == device { stop(at: time, reason: .resynchronized) }
        // The gesture that caught a coast ends without coasting: its boost goes with it.
        forgetStoppedCoast(of: device)
        let underWay = state.recognizer?.abandon(fingersDown: fingersDown) ?? false
        // With fingers still down their lift says so; with none, this is the gesture's end.
        if underWay && !fingersDown {
            onReport?(.noCoast(device: device, time: time, velocity: nil, reason: .abandoned))
        }
    }

    /// Forgets the coast a touch on `device` stopped: the gesture of that touch ended without
    /// coasting (a tap, a touch of another finger count, a slow or abandoned release), and the
    /// boost belongs to the release of that gesture only.
    private func forgetStoppedCoast(of device: DeviceID) {
        if stoppedCoast?.source == device { stoppedCoast = nil }
    }

    // MARK: Coasting

    /// Decides whether a released scroll coasts (`ReleaseDecision`), and starts the coast.
    private func release(on device: DeviceID, state: Device, velocity: Vector?,
                         newestMotion: Instant, travel: Double, at time: Instant) -> WheelOutput {
        let configuration = state.settings
        let kind = state.kind ?? .touchpad
        let settings = configuration.coast
        let decided: ReleaseCoast
        // Only a coast from the same device boosts: another device's velocity is in its own
        // coordinates, and the content may follow its fingers the other way (a touchscreen's
        // does, a touchpad's may not).
        let boosting = stoppedCoast.flatMap { $0.source == device ? (velocity: $0.velocity, time: $0.time) : nil }
        switch ReleaseDecision(velocity: velocity, travel: travel, stoppedCoast: boosting, at: time, settings: settings) {
        case .noCoast(let reason):
            forgetStoppedCoast(of: device)
            onReport?(.noCoast(device: device, time: time, velocity: velocity, reason: reason))
            return WheelOutput()
        case .invalid:
            forgetStoppedCoast(of: device)
            onReport?(.bug(device: device, message: "release velocity is not finite"))
            return WheelOutput()
        case .coast(let coast):
            decided = coast
        }
        // The desktop's scrolling speed for the source pad against the virtual pad's: the
        // virtual pad's multiplies the fingers' motion, so they move faster by the real pad's
        // over it. A touchscreen's content followed the finger itself, at no pad's factor: a
        // pad at 1 (the virtual pad's own factor still applies to its glide).
        let speedRatio = output == .touchpad
            ? Self.glideSpeedRatio(source: kind == .touchpad ? state.desktopScrollFactor : 1, virtual: virtualTouchpadScrollFactor)
            : 1
        if speedRatio == 0 {
            // The desktop scrolls nothing with this pad (sway's `scroll_factor 0`, KWin's
            // `ScrollFactor=0`): the user's own scrolls on it moved nothing, so no glide does
            // either, and no fingers land on the virtual pad (a running coast goes on, as after
            // any release that does not coast).
            forgetStoppedCoast(of: device)
            onReport?(.noCoast(device: device, time: time, velocity: velocity, reason: .scrollsNothing))
            return WheelOutput()
        }
        // A boost is used once: the next release starts afresh.
        stoppedCoast = nil
        let released = decided.releaseVelocity
        let v = decided.velocity
        let boosted = decided.boosted
        let (vertical, horizontal) = decided.wheelVelocity(natural: state.contentFollowsFingers,
                                                           unitsPerMillimetre: configuration.scroll.speed)

        stop(at: time, reason: .replaced)
        if output == .touchpad {
            // The desktop applies its own settings to both pads: where it gives this pad one
            // that flickd can read, that one is compared with the virtual pad's, whatever
            // `scroll.natural` says (it does not change a touchpad's glide).
            let sourceNatural = kind == .touchpad ? state.desktopNaturalScrolling ?? state.touchpadScrollsNaturally
                                                  : state.touchpadScrollsNaturally
            // Likewise its scrolling speed (`speedRatio`, above).
            return glide(from: device, kind: kind, settings: configuration, sourceNatural: sourceNatural,
                         speedRatio: speedRatio, released: released, velocity: v, boosted: boosted, at: time)
        }
        let period = Duration.seconds(1 / max(1, settings.tickRate))
        // The model starts one period before the release (never before the newest motion), so
        // the first step is written with the release frame itself instead of a period later.
        let origin = max(newestMotion, time - period)
        var started = Coast(source: device, origin: min(origin, time), vertical: vertical, horizontal: horizontal,
                            millimetresPerSecond: v, deceleration: Deceleration(ratePerMillisecond: settings.decelerationRate),
                            maxDuration: settings.maxDuration, period: period)
        // The output may end before the release frame (its total within the first period, or
        // cut by a max_duration shorter than it): such a coast lasts no time, not less.
        let plan = CoastPlan(releaseVelocity: released, velocity: v, boosted: boosted,
                             destinationHiRes: started.destination, totalHiRes: started.total,
                             duration: max(.zero, started.outputEnd - time),
                             travelMillimetres: Deceleration(ratePerMillisecond: settings.decelerationRate)
                                 .position(after: settings.maxDuration.seconds, velocity: v.length))
        onReport?(.coastStarted(device: device, time: time, plan: plan))
        coastsStarted &+= 1
        started.carryLegacy(legacyRemainder)
        let (output, ended) = started.advance(to: time)
        unwrittenHiRes = (0, 0)
        lastCoastJustEnded = false
        coast = started
        if ended { finish(at: time, reason: started.settles ? .finished : .maxDuration) }
        return output
    }

    /// Starts the virtual fingers with velocity `v` (mm/s on the source, after boost, axis lock
    /// and clamp); `sourceNatural`: whether the desktop scrolls the source's kind of touchpad
    /// naturally; `speedRatio`: how much faster than `v` the fingers move, negative the other
    /// way (`glideSpeedRatio`, never 0 here). The wheel `Coast` is kept for its bookkeeping
    /// (boost, the plan), never ticked: it keeps `v`, the source's velocity, which a boost
    /// compares with the next release's.
    ///
    /// A ratio above 1 (in size) lengthens the glide on the pad as it speeds it: the fingers' top speed
    /// (`VirtualFingers.maximumSpeed`) and the surface's margins bound it as they bound any
    /// glide (a faster start ramps to the top speed and catches up with the model within
    /// `maximumCatchUp`; a longer path lands at the margin behind and stops at the one ahead).
    private func glide(from device: DeviceID, kind: DeviceKind, settings configuration: Configuration, sourceNatural: Bool,
                       speedRatio: Double, released: Vector, velocity v: Vector, boosted: Bool, at time: Instant) -> WheelOutput {
        let settings = configuration.coast
        // The desktop applies its touchpad setting to the virtual pad too: with the same
        // setting as the source pad's, the virtual fingers move as the real ones did; with a
        // setting of its own that differs (per-device desktops), against them. A touchscreen's
        // content follows the fingers; on a pad that is natural scrolling, so the fingers move
        // the other way when the virtual pad scrolls traditionally.
        let virtualNatural = virtualTouchpadNaturalScrolling ?? sourceNatural
        let followsFingers = kind == .touchpad ? virtualNatural == sourceNatural : virtualNatural
        // A negative ratio (one of the pads reversed by its factor) turns them round once more.
        let onPad = (followsFingers ? v : v * -1) * speedRatio
        let deceleration = Deceleration(ratePerMillisecond: settings.decelerationRate)
        let period = Duration.seconds(1 / max(1, settings.tickRate))
        let bookkeeping = Coast(source: device, origin: time, vertical: 0, horizontal: 0, millimetresPerSecond: v,
                                deceleration: deceleration, maxDuration: settings.maxDuration, period: period)
        let start = fingers.start(velocity: onPad, deceleration: deceleration, maxDuration: settings.maxDuration,
                                    at: time)
        let duration = fingers.nextDeadline.map { _ in GlideExtent(speed: onPad.length, deceleration: deceleration,
                                                                   maxDuration: settings.maxDuration).duration } ?? .zero
        let plan = CoastPlan(releaseVelocity: released, velocity: v, boosted: boosted,
                             destinationHiRes: (0, 0), totalHiRes: (0, 0), duration: duration,
                             travelMillimetres: deceleration.position(after: settings.maxDuration.seconds, velocity: v.length))
        onReport?(.coastStarted(device: device, time: time, plan: plan))
        coastsStarted &+= 1
        unwrittenHiRes = (0, 0)
        lastCoastJustEnded = false
        coast = bookkeeping
        if let lift = start.lift { onTouchFrame?(lift, time) }
        if let landing = start.landing { onTouchFrame?(landing, time) }
        return WheelOutput()
    }

    /// The wheel output due at `time` (call at or after `nextDeadline`; earlier is harmless).
    public func tick(at time: Instant) -> WheelOutput {
        lastTickTime = time
        if output == .touchpad { return tickFingers(at: time) }
        guard var running = coast else { return WheelOutput() }
        if time - running.nextDeadline > stallLimit {
            // The machine was asleep: a jump of everything missed would surprise more than a stop.
            stop(at: time, reason: .stall)
            return WheelOutput()
        }
        let (output, ended) = running.advance(to: time)
        coast = running
        if ended { finish(at: time, reason: running.settles ? .finished : .maxDuration) }
        return output
    }

    /// Moves or lifts the virtual fingers (`output` `.touchpad`).
    private func tickFingers(at time: Instant) -> WheelOutput {
        if fingers.isGliding, let due = fingers.nextDeadline,
           time - due > stallLimit || fingers.landingDelay.map({ $0 > stallLimit }) == true {
            // The machine was asleep: freeze rather than jump; the settle frames follow (the first at once).
            // A release handled that late (after a suspend, a stopped process: the kernel kept
            // its events) glides no more than the wheel's coast would: its landing's write put
            // the first frame's deadline after it, so only the landing's delay tells. The fingers
            // that landed rest and lift.
            stop(at: time, reason: .stall)
        }
        let (frame, ended) = fingers.advance(to: time)
        if let frame { onTouchFrame?(frame, time) }
        switch ended {
        case nil: break
        case .settled?: finish(at: time, reason: .finished)
        case .cut?: finish(at: time, reason: .maxDuration)
        case .edge?: finish(at: time, reason: .edge)
        }
        return WheelOutput()
    }

    /// When the engine next needs `tick(at:)`; nil when idle.
    public var nextDeadline: Instant? {
        switch output {
        case .wheel: return coast?.nextDeadline
        case .touchpad: return fingers.nextDeadline
        }
    }

    /// The daemon wrote the last touch frame at `time` (read after the write): the next motion
    /// frame keeps a full frame period from it (see `VirtualFingers.frameWritten(at:)`).
    public func touchFrameWritten(at time: Instant) {
        fingers.frameWritten(at: time)
    }

    /// True while fingers are down on the virtual touchpad (moving, or resting before the lift).
    public var hasFingersDown: Bool { fingers.isDown }

    /// True while a coast is running.
    public var isCoasting: Bool { coast != nil }

    /// How many coasts releases have started (wheel coasts and glides; wraps): compared before
    /// and after a `handle`, whether that event started one, even one that also ended in it
    /// (a short coast whose whole output comes with its release), when `isCoasting` is false
    /// again.
    public private(set) var coastsStarted = 0

    /// Says that `output`, returned for the running coast, did not reach the apps (a write that
    /// failed; the release's first step, dropped when a modifier held at the release stops the
    /// coast): the report of the coast's end does not count it. It is not written again later
    /// (a late jump would be worse than the loss).
    ///
    /// The output may be the coast's last: the call that returned it (the tick that ran it out,
    /// a release whose coast ends in its first step) also ended the coast. Its end is already
    /// reported, counting that output as written (that count cannot be taken back), but the
    /// legacy detent remainder it left is dropped on each axis the output moved, as for any
    /// coast with units not written (see `finish`).
    public func notWritten(_ output: WheelOutput) {
        guard coast != nil else {
            guard lastCoastJustEnded else { return }
            if output.verticalHiRes != 0 { legacyRemainder.vertical = 0 }
            if output.horizontalHiRes != 0 { legacyRemainder.horizontal = 0 }
            return
        }
        unwrittenHiRes.vertical += Int64(output.verticalHiRes)
        unwrittenHiRes.horizontal += Int64(output.horizontalHiRes)
    }

    /// Stops a running coast at once: no further motion (the virtual fingers' settle frames and
    /// lift follow from `tick`). For `.sessionInactive` the fingers, gliding or resting, lift
    /// at once instead: `onTouchFrame` gets the lift from here.
    public func stop(at time: Instant, reason: StopReason) {
        // Shutting down (or stopping), resting fingers settle and lift without waiting for a hand.
        if reason == .shutdown || reason == .jobControl { fingers.handLifted(from: nil) }
        if let running = coast {
            if reason == .touch {
                stoppedCoast = (running.source, running.velocity(at: time), time)
            }
            // The fingers stop moving now and lift once still long enough (never while moving).
            fingers.freeze(at: time)
            finish(at: time, reason: reason)
        }
        if reason == .sessionInactive && fingers.isDown {
            // The session whose apps the rest and the settle frames are for no longer reads the
            // device (logind revoked its access at the switch); written later, they would reach
            // the compositor of the session now in front, which opens the device with two
            // fingers down and could take their lift for a two-finger tap. Lifted now, the device
            // is at rest before that compositor reads it.
            let lift = fingers.liftNow()
            if output == .touchpad, let lift { onTouchFrame?(lift, time) }
        }
    }

    private func finish(at time: Instant, reason: StopReason) {
        guard let running = coast else { return }
        coast = nil
        // The touchpad output's coast is bookkeeping only: it wrote no wheel events. What a
        // coast left under a detent counts towards the next only where all of it reached the
        // apps: an axis with units not written (a failed write, the release's step dropped for
        // a modifier) carries nothing, or legacy readers would get a detent early.
        let unwritten = unwrittenHiRes
        if output == .wheel {
            let left = running.legacyRemainder
            legacyRemainder = (unwritten.vertical == 0 ? left.vertical : 0, unwritten.horizontal == 0 ? left.horizontal : 0)
            lastCoastJustEnded = true
        }
        unwrittenHiRes = (0, 0)
        onReport?(.coastEnded(time: time, reason: reason,
                              emittedHiRes: (running.emittedVertical - unwritten.vertical,
                                             running.emittedHorizontal - unwritten.horizontal)))
    }
}
