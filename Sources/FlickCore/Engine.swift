/// The whole engine: raw evdev events in, smooth-scroll wheel output out.
///
/// One engine serves every device (there is one virtual wheel and one coast at a time).
/// It never reads a clock: every call takes the time, and `nextDeadline` says when it wants
/// to be called again. Not thread-safe: the daemon calls it from its one event-loop thread.
public final class Engine {
    /// The configuration in force.
    public private(set) var configuration: Configuration

    /// Called with each decision the engine makes (gesture began, coast started or not, coast
    /// ended). Must not call back into the engine.
    public var onReport: ((EngineReport) -> Void)?

    /// An engine with `configuration`.
    public init(configuration: Configuration = .defaults) {
        self.configuration = configuration
    }

    /// Replaces the configuration. A running coast is stopped (its physics would change under it).
    public func apply(_ configuration: Configuration, at time: Instant) {
        self.configuration = configuration
    }

    /// Starts reading `device`. `resolutionOverride` (units/mm) replaces a missing or wrong
    /// resolution. Returns whether its gestures will be read, and why not.
    @discardableResult
    public func addDevice(_ device: DeviceID, description: DeviceDescription, resolutionOverride: Double? = nil) -> DeviceAdmission {
        .ignored(why: "not implemented")
    }

    /// Forgets `device`; a coast it started ends.
    public func removeDevice(_ device: DeviceID, at time: Instant) {}

    /// Feeds one raw event from `device`, stamped `time` by the kernel. Frames are processed at
    /// SYN_REPORT. Returns wheel output to write now (usually empty; the first step of a coast
    /// comes with the release frame).
    public func handle(_ event: InputEvent, from device: DeviceID, at time: Instant) -> WheelOutput {
        WheelOutput()
    }

    /// Drops the gesture in progress on `device` without coasting (after SYN_DROPPED) and stops
    /// a coast it started.
    public func abandonGesture(on device: DeviceID, at time: Instant) {}

    /// The wheel output due at `time` (call at or after `nextDeadline`).
    public func tick(at time: Instant) -> WheelOutput { WheelOutput() }

    /// When the engine next needs `tick(at:)`; nil when idle.
    public var nextDeadline: Instant? { nil }

    /// True while a coast is running.
    public var isCoasting: Bool { false }

    /// Stops a running coast at once: no further output.
    public func stop(at time: Instant, reason: StopReason) {}
}
