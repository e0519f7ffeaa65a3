import FlickCore

/// Runs a recording through the engine on the recording's own timestamps, as the daemon would
/// have: every event fed with its time, and the engine ticked whenever it asks (no more often
/// than `coast.tick_rate`) between events and after the last one until the coast ends.
public struct Replay {
    /// One wheel event the daemon would have written.
    public struct Emitted: Hashable, Sendable {
        /// Seconds since the recording's first event.
        public var time: Double
        /// `EV_REL` code (REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES, REL_WHEEL, REL_HWHEEL).
        public var code: UInt16
        /// Event value.
        public var value: Int32
    }

    /// A released scroll that coasted.
    public struct CoastRecord: Sendable {
        /// Seconds since the recording's first event.
        public var time: Double
        public var plan: CoastPlan
    }

    /// A gesture that did not coast, and why.
    public struct NoCoastRecord: Sendable {
        /// Seconds since the recording's first event.
        public var time: Double
        /// Estimated release velocity (mm/s), when one was estimated.
        public var velocity: Vector?
        public var reason: NoCoastReason
    }

    /// Every wheel event, in order.
    public private(set) var emitted: [Emitted] = []
    /// Gestures that began (fingers touched an idle device).
    public private(set) var gestures = 0
    /// Coasts started, in order.
    public private(set) var coasts: [CoastRecord] = []
    /// Gestures that ended without a coast, in order.
    public private(set) var noCoasts: [NoCoastRecord] = []
    /// Why each coast ended, in order.
    public private(set) var coastEnds: [(time: Double, reason: StopReason)] = []
    /// Whether the device was read, and why not.
    public private(set) var admission: DeviceAdmission = .ignored(why: "not replayed")

    /// Replays `recording` under `configuration`.
    public init(_ recording: Recording, configuration: Configuration) {
        let engine = Engine(configuration: configuration)
        let device: DeviceID = 1
        let start = recording.events.first?.time ?? .zero
        var latest = start
        func seconds(_ t: Instant) -> Double { (t - start).seconds }

        var gestures = 0
        var coasts: [CoastRecord] = []
        var noCoasts: [NoCoastRecord] = []
        var ends: [(Double, StopReason)] = []
        engine.onReport = { report in
            switch report {
            case .gestureBegan: gestures += 1
            case .coastStarted(_, let time, let plan): coasts.append(CoastRecord(time: seconds(time), plan: plan))
            case .noCoast(_, let time, let velocity, let reason):
                noCoasts.append(NoCoastRecord(time: seconds(time), velocity: velocity, reason: reason))
            case .coastEnded(let time, let reason, _): ends.append((seconds(time), reason))
            case .bug: break
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

        self.emitted = emitted
        self.gestures = gestures
        self.coasts = coasts
        self.noCoasts = noCoasts
        self.coastEnds = ends
    }

    /// Total value written per code (REL_WHEEL_HI_RES, ...).
    public var totals: [(code: UInt16, total: Int64)] {
        [EventCode.relWheelHiRes, EventCode.relHorizontalWheelHiRes, EventCode.relWheel, EventCode.relHorizontalWheel].map { code in
            (code, emitted.reduce(Int64(0)) { $1.code == code ? $0 + Int64($1.value) : $0 })
        }
    }
}
