import Foundation
import FlickCore
import FlickTestSupport
import FlickTools
import Testing

/// Drives an engine the way fingers drive a device, in virtual time, writing the evdev events
/// that device would send (`FingerFrameWriter`: protocol B slots, semi-MT bounding boxes,
/// protocol A reports or single-touch positions, BTN_TOUCH and BTN_TOOL_*).
///
///     let pad = try FingerScript(device: "synaptics-t440")
///     pad.down(Vector(x: 40, y: 30), Vector(x: 60, y: 30))
///     pad.move(by: Vector(x: 0, y: 20), over: .milliseconds(100))
///     pad.lift()
///     pad.wait(.seconds(5))
public final class FingerScript {
    /// The engine the device feeds (default configuration unless one was given).
    public let engine: Engine
    /// The device the fingers are on.
    public let description: DeviceDescription
    /// What the engine reads it as (a touchpad when the description says neither).
    public let kind: DeviceKind
    /// Its size and units per millimetre, which turn finger millimetres into device units.
    public let geometry: DeviceGeometry
    /// The id the device has in the engine.
    public let device: DeviceID = 7
    /// Virtual time; starts at 1 s.
    public private(set) var now = Instant(microseconds: 1_000_000)
    /// Time between frames while fingers move.
    public var frameInterval = Duration.milliseconds(8)

    /// Finger positions (mm) by finger number; nil once lifted.
    public private(set) var fingers: [Vector?] = []
    /// Pressures (device units) the story gave fingers by number (`down(pressing:_:)`); the others press the writer's plausible finger pressure
    /// (`FingerFrameWriter.defaultPressure`) on a touchpad with a pressure axis.
    public private(set) var pressures: [Int: Int32] = [:]
    /// Writes the device's events for the fingers.
    private var writer: FingerFrameWriter

    /// Everything the engine wrote, with its time.
    public private(set) var output: [(time: Instant, wheel: WheelOutput)] = []
    /// Everything the engine reported.
    public private(set) var reports: [EngineReport] = []
    /// Every event the device sent, with its time: the recording of the story.
    public private(set) var sent: [TimedEvent] = []

    /// Fingers on `description`, feeding a new engine with `configuration`, which reads the
    /// pad's pressure as `touchPressure` says (default: libinput's rule from the description,
    /// right for the fixtures, which no quirk covers; the fingers press the writer's
    /// plausible pressure unless a story says otherwise).
    public init(description: DeviceDescription, configuration: Configuration = .defaults,
                touchPressure: PressureReading = .description) {
        self.description = description
        let engine = Engine(configuration: configuration)
        self.engine = engine
        // Stories may move fingers past the pad's edge: the engine is not told where it is.
        writer = FingerFrameWriter(description: description, clampsToAxes: false)
        kind = writer.kind
        geometry = writer.geometry
        engine.onReport = { [unowned self] report in
            self.reports.append(report)
            // The engine reports an impossible input as a bug and goes on: in a story it is a failure.
            if case .bug(let device, let message) = report {
                Issue.record("the engine reported a bug on device \(device) at \(self.now): \(message)")
            }
        }
        engine.addDevice(device, description: description, touchPressure: touchPressure)
    }

    /// Fingers on the repository's device fixture `name` (`Fixtures.device`).
    public convenience init(device name: String, configuration: Configuration = .defaults,
                            touchPressure: PressureReading = .description) throws {
        self.init(description: try Fixtures.device(name), configuration: configuration, touchPressure: touchPressure)
    }

    // MARK: Finger actions

    /// Puts fingers down at `positions` (mm from the top-left corner), in one frame.
    @discardableResult
    public func down(_ positions: Vector...) -> [Int] {
        var numbers: [Int] = []
        for p in positions {
            fingers.append(p)
            numbers.append(fingers.count - 1)
        }
        frame()
        return numbers
    }

    /// Puts fingers down at `positions` pressing `pressure` (device units: a thumb resting
    /// lightly, a palm), in one frame.
    @discardableResult
    public func down(pressing pressure: Int32, _ positions: Vector...) -> [Int] {
        for n in positions.indices { pressures[fingers.count + n] = pressure }
        for p in positions { fingers.append(p) }
        frame()
        return Array(fingers.count - positions.count..<fingers.count)
    }

    /// Moves every finger on the device by `delta` (mm) in a straight line over `duration`,
    /// one frame per `frameInterval`.
    public func move(by delta: Vector, over duration: Duration) {
        move(over: duration) { _ in delta }
    }

    /// Moves each finger on the device by `delta(finger)` (mm) over `duration`.
    public func move(over duration: Duration, _ delta: (Int) -> Vector) {
        let steps = max(1, Int((duration.seconds / frameInterval.seconds).rounded()))
        let starts = fingers
        for step in 1...steps {
            advance(to: now + frameInterval)
            let f = Double(step) / Double(steps)
            for (i, start) in starts.enumerated() {
                if let start, fingers[i] != nil { fingers[i] = start + delta(i) * f }
            }
            frame()
        }
    }

    /// Moves every finger away from (or, negative, towards) their centroid by `millimetres`.
    public func spread(by millimetres: Double, over duration: Duration) {
        let down = fingers.compactMap { $0 }
        let centre = down.reduce(Vector.zero, +) / Double(max(1, down.count))
        move(over: duration) { i in
            guard let p = self.fingers[i] else { return .zero }
            let away = p - centre
            return away.length > 0 ? away / away.length * millimetres : .zero
        }
    }

    /// Lifts the given fingers (all when none given), in one frame.
    public func lift(_ numbers: Int...) {
        let which = numbers.isEmpty ? Array(fingers.indices) : numbers
        for i in which where fingers.indices.contains(i) { fingers[i] = nil }
        frame()
    }

    /// Presses (`down`) or releases the device's own button `code` (BTN_LEFT: 0x110) in a
    /// frame of its own, the fingers where they are.
    public func button(_ code: UInt16, down: Bool) {
        send(InputEvent(type: EventCode.key, code: code, value: down ? 1 : 0))
        send(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0))
    }

    /// Lets `duration` pass, ticking the engine whenever it asks.
    public func wait(_ duration: Duration) {
        advance(to: now + duration)
    }

    /// Sends one frame with the fingers where they are now (a zero-length frame when nothing
    /// moved), after `frameInterval`.
    public func stationaryFrame() {
        advance(to: now + frameInterval)
        writer.restingFrame(fingers, timestamp: now.microseconds) { send($0) }
    }

    /// Lets time run to `time`, running every tick the engine asks for on the way.
    public func advance(to time: Instant) {
        now = max(engine.advance(to: time, notBefore: now) { record($0.output, at: $0.time) }, time)
    }

    // MARK: Results

    /// Sum of REL_WHEEL_HI_RES written (> 0 scrolls up).
    public var verticalTotal: Int64 { output.reduce(0) { $0 + Int64($1.wheel.verticalHiRes) } }
    /// Sum of REL_HWHEEL_HI_RES written (> 0 scrolls right).
    public var horizontalTotal: Int64 { output.reduce(0) { $0 + Int64($1.wheel.horizontalHiRes) } }
    /// Sum of legacy REL_WHEEL detents.
    public var verticalDetents: Int64 { output.reduce(0) { $0 + Int64($1.wheel.verticalDetents) } }

    /// Coasts started, in order.
    public var coasts: [CoastPlan] {
        reports.compactMap { if case .coastStarted(_, _, let plan) = $0 { return plan } else { return nil } }
    }

    /// Reasons gestures did not coast, in order.
    public var noCoastReasons: [NoCoastReason] {
        reports.compactMap { if case .noCoast(_, _, _, let reason) = $0 { return reason } else { return nil } }
    }

    /// Why coasts ended, in order.
    public var coastEndReasons: [StopReason] {
        reports.compactMap { if case .coastEnded(_, let reason, _) = $0 { return reason } else { return nil } }
    }

    /// Time of the last wheel output, if any.
    public var lastOutputTime: Instant? { output.last?.time }

    /// A readable log of outputs and reports, for failure messages.
    public var transcript: String {
        var lines = output.map { "\($0.time): \($0.wheel)" }
        lines += reports.map { "\($0)" }
        return lines.joined(separator: "\n")
    }

    // MARK: Events

    private func record(_ wheel: WheelOutput, at time: Instant) {
        if !wheel.isEmpty { output.append((time, wheel)) }
    }

    private func send(_ event: InputEvent) {
        sent.append(TimedEvent(time: now, event: event))
        record(engine.handle(event, from: device, at: now), at: now)
    }

    /// Writes one frame describing the fingers now.
    private func frame() {
        guard !pressures.isEmpty else {
            writer.frame(fingers) { send($0) }
            return
        }
        let given = fingers.indices.map { pressures[$0] ?? writer.defaultPressure ?? 0 }
        writer.frame(fingers, pressures: given) { send($0) }
    }
}
