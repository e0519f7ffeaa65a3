import FlickCore

/// Runs a recording through the engine on the recording's own timestamps, as the daemon would
/// have: every event fed with its time, and the engine ticked whenever it asks (no more often
/// than `coast.tick_rate`) between events and after the last one until the coast ends.
public struct Replay {
    /// One wheel event the daemon would have written.
    public struct Emitted: Hashable, Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`).
        public var time: Double
        /// `EV_REL` code (REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES, REL_WHEEL, REL_HWHEEL).
        public var code: UInt16
        /// Event value.
        public var value: Int32
    }

    /// A released scroll that coasted.
    public struct CoastRecord: Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`).
        public var time: Double
        public var plan: CoastPlan
    }

    /// A gesture that did not coast, and why.
    public struct NoCoastRecord: Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`).
        public var time: Double
        /// Estimated release velocity (mm/s), when one was estimated.
        public var velocity: Vector?
        public var reason: NoCoastReason
    }

    /// A gesture still under way when the recording ends: its fingers were down after the last
    /// event, so it neither coasted nor ended without a coast (a recording stopped, or cut,
    /// mid-gesture).
    public struct UnfinishedGesture: Hashable, Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`): its last event.
        public var time: Double
        /// Fingers on the device after the recording's last whole frame.
        public var fingers: Int

        /// Why it did not coast, as the replay prints it among the gestures that did not.
        public var reason: String {
            fingers > 0 ? "the recording ends with \(fingers) finger\(fingers == 1 ? "" : "s") down" : "the recording ends mid-gesture"
        }
    }

    /// Every wheel event, in order.
    public private(set) var emitted: [Emitted] = []
    /// Gestures that began (fingers touched an idle device).
    public private(set) var gestures = 0
    /// Coasts started, in order.
    public private(set) var coasts: [CoastRecord] = []
    /// Gestures that ended without a coast, in order.
    public private(set) var noCoasts: [NoCoastRecord] = []
    /// The gesture under way when the recording ends, nil when there is none. Every gesture of
    /// `gestures` is one of `coasts`, one of `noCoasts`, or this one.
    public private(set) var unfinished: UnfinishedGesture?
    /// Why each coast ended, in order.
    public private(set) var coastEnds: [(time: Double, reason: StopReason)] = []
    /// Whether the device was read, and why not.
    public private(set) var admission: DeviceAdmission = .ignored(why: "not replayed")

    /// Replays `recording` under `configuration`. Times are seconds since `start`, the
    /// recording's first event of any device (`Recording.loadWithClockStart`); nil: the
    /// replayed device's first event, the recording's first for evemu, which records one.
    public init(_ recording: Recording, configuration: Configuration, start: Instant? = nil) {
        let engine = Engine(configuration: configuration)
        let device: DeviceID = 1
        let start = start ?? recording.events.first?.time ?? .zero
        var latest = start
        func seconds(_ t: Instant) -> Double { (t - start).seconds }

        var gestures = 0
        var coasts: [CoastRecord] = []
        var noCoasts: [NoCoastRecord] = []
        var ends: [(Double, StopReason)] = []
        // A gesture begins on an idle device and ends in one coast or no-coast report (or a
        // bug report, which resets the engine's reading of the device to idle).
        var underWay = false
        engine.onReport = { report in
            switch report {
            case .gestureBegan:
                gestures += 1
                underWay = true
            case .coastStarted(_, let time, let plan):
                coasts.append(CoastRecord(time: seconds(time), plan: plan))
                underWay = false
            case .noCoast(_, let time, let velocity, let reason):
                noCoasts.append(NoCoastRecord(time: seconds(time), velocity: velocity, reason: reason))
                underWay = false
            case .coastEnded(let time, let reason, _): ends.append((seconds(time), reason))
            case .bug: underWay = false
            }
        }
        admission = engine.addDevice(device, description: recording.description)

        var emitted: [Emitted] = []
        func write(_ output: WheelOutput, at time: Instant) {
            output.forEachEvent { code, value in emitted.append(Emitted(time: seconds(time), code: code, value: value)) }
        }
        for timed in recording.events {
            // Recordings can step backwards in time; the engine sees them as they are.
            latest = engine.advance(to: timed.time, notBefore: latest) { write($0.output, at: $0.time) }
            latest = max(latest, timed.time)
            write(engine.handle(timed.event, from: device, at: timed.time), at: timed.time)
        }
        // The recording ends; the coast (if any) runs out on its own, ticked as the daemon would.
        engine.advance(to: .end, notBefore: latest) { write($0.output, at: $0.time) }

        if underWay, let last = recording.events.last {
            unfinished = UnfinishedGesture(time: seconds(last.time), fingers: Self.fingersDown(after: recording, admission: admission))
        }

        self.emitted = emitted
        self.gestures = gestures
        self.coasts = coasts
        self.noCoasts = noCoasts
        self.coastEnds = ends
    }

    /// The fingers on the device after the last whole frame of `recording`, as the engine's
    /// tracker counted them: the engine does not tell, and a second reading of the events is
    /// needed only for a recording that ends mid-gesture.
    private static func fingersDown(after recording: Recording, admission: DeviceAdmission) -> Int {
        let kind: DeviceKind
        switch admission {
        case .used(let used, _), .stopOnly(let used, _): kind = used
        case .ignored: return 0
        }
        var tracker = ContactTracker(description: recording.description, kind: kind)
        var fingers = 0
        for timed in recording.events {
            if let frame = tracker.handle(timed.event, at: timed.time) { fingers = frame.fingerCount }
        }
        return fingers
    }

    /// Total value written per code (REL_WHEEL_HI_RES, ...).
    public var totals: [(code: UInt16, total: Int64)] {
        [EventCode.relWheelHiRes, EventCode.relHorizontalWheelHiRes, EventCode.relWheel, EventCode.relHorizontalWheel].map { code in
            (code, emitted.reduce(Int64(0)) { $1.code == code ? $0 + Int64($1.value) : $0 })
        }
    }
}

extension Recording {
    /// `load(text:description:device:)`, and the time the recording's clock counts from, which
    /// a replay's times are seconds since: the earliest event of any device of a `libinput
    /// record` file (a keyboard's key press may come seconds before the touchpad's first
    /// frame; an event before libinput's start is negative), nil for evemu, which records one
    /// device: its first event.
    public static func loadWithClockStart(text: String, description: String? = nil, device: String? = nil) throws(RecordingError)
        -> (recording: Recording, start: Instant?) {
        // As load decides: an empty text is no libinput record file, whatever its comment says.
        guard TextLines.emptiness(text) == nil, format(of: text) == .libinputRecord else {
            return (try load(text: text, description: description, device: device), nil)
        }
        return try LibinputRecordParser.read(text: text, device: device)
    }
}
