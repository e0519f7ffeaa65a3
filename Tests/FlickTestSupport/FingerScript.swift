import Foundation
import FlickCore
import FlickTools

/// Drives an engine the way fingers drive a device, in virtual time, writing the evdev events
/// that device would send (protocol B slots, semi-MT bounding boxes, protocol A reports or
/// single-touch positions, BTN_TOUCH and BTN_TOOL_*).
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
    private var slotOfFinger: [Int: Int] = [:]
    private var trackingID: Int32 = 100
    private var lastSlot = -1
    private var sentSlots: [Int: (id: Int32, x: Int32, y: Int32)] = [:]
    private var sentKeys: [UInt16: Int32] = [:]

    /// Everything the engine wrote, with its time.
    public private(set) var output: [(time: Instant, wheel: WheelOutput)] = []
    /// Everything the engine reported.
    public private(set) var reports: [EngineReport] = []
    /// Every event the device sent, with its time: the recording of the story.
    public private(set) var sent: [TimedEvent] = []

    /// Fingers on `description`, feeding a new engine with `configuration`.
    public init(description: DeviceDescription, configuration: Configuration = .defaults) {
        self.description = description
        let engine = Engine(configuration: configuration)
        self.engine = engine
        kind = description.kind ?? .touchpad
        geometry = DeviceGeometry(description: description, kind: kind)
        engine.onReport = { [unowned self] in self.reports.append($0) }
        engine.addDevice(device, description: description)
    }

    /// Fingers on the repository's device fixture `name` (`Fixtures.device`).
    public convenience init(device name: String, configuration: Configuration = .defaults) throws {
        self.init(description: try Fixtures.device(name), configuration: configuration)
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

    /// Lets `duration` pass, ticking the engine whenever it asks.
    public func wait(_ duration: Duration) {
        advance(to: now + duration)
    }

    /// Sends one frame with the fingers where they are now (a zero-length frame when nothing
    /// moved), after `frameInterval`.
    public func stationaryFrame() {
        advance(to: now + frameInterval)
        if description.usesProtocolA {
            frame()  // protocol A frames always list every contact
        } else {
            // What a resting finger sends: a frame with nothing but a timestamp.
            send(EventCode.miscellaneous, 0x07, Int32(truncatingIfNeeded: now.microseconds))
            send(EventCode.synchronization, EventCode.synReport, 0)
        }
    }

    /// Lets time run to `time`, running every tick the engine asks for on the way.
    public func advance(to time: Instant) {
        now = max(engine.advance(to: time, notBefore: now) { record($0, at: $1) }, time)
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

    private func send(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        sent.append(TimedEvent(time: now, event: InputEvent(type: type, code: code, value: value)))
        record(engine.handle(InputEvent(type: type, code: code, value: value), from: device, at: now), at: now)
    }

    private func units(_ p: Vector) -> (x: Int32, y: Int32) {
        let xMin = (description.absoluteAxes[EventCode.absMTPositionX] ?? description.absoluteAxes[EventCode.absX])?.minimum ?? 0
        let yMin = (description.absoluteAxes[EventCode.absMTPositionY] ?? description.absoluteAxes[EventCode.absY])?.minimum ?? 0
        return (xMin + Int32((p.x * geometry.x.unitsPerMillimetre).rounded()),
                yMin + Int32((p.y * geometry.y.unitsPerMillimetre).rounded()))
    }

    private func setKey(_ code: UInt16, _ value: Int32) {
        guard description.keys.contains(code), sentKeys[code, default: 0] != value else { return }
        sentKeys[code] = value
        send(EventCode.key, code, value)
    }

    private func sendSlot(_ slot: Int, _ contact: (id: Int32, x: Int32, y: Int32)?) {
        let before = sentSlots[slot]
        guard before?.id != contact?.id || before?.x != contact?.x || before?.y != contact?.y else { return }
        if lastSlot != slot {
            send(EventCode.absolute, EventCode.absMTSlot, Int32(slot))
            lastSlot = slot
        }
        if let contact {
            if before?.id != contact.id { send(EventCode.absolute, EventCode.absMTTrackingID, contact.id) }
            if before?.x != contact.x { send(EventCode.absolute, EventCode.absMTPositionX, contact.x) }
            if before?.y != contact.y { send(EventCode.absolute, EventCode.absMTPositionY, contact.y) }
            sentSlots[slot] = contact
        } else {
            send(EventCode.absolute, EventCode.absMTTrackingID, -1)
            sentSlots[slot] = nil
        }
    }

    /// Writes one frame describing the fingers now.
    private func frame() {
        let down = fingers.indices.filter { fingers[$0] != nil }
        switch (description.slotCount, description.usesProtocolA, description.isSemiMultitouch) {
        case (let slots, _, true) where slots > 0:
            // Semi-MT: the corners of the fingers' bounding box.
            let points = down.map { fingers[$0]! }
            if points.isEmpty {
                sendSlot(0, nil)
                sendSlot(1, nil)
            } else {
                let lo = units(Vector(x: points.map(\.x).min()!, y: points.map(\.y).min()!))
                let hi = units(Vector(x: points.map(\.x).max()!, y: points.map(\.y).max()!))
                if sentSlots[0] == nil { trackingID += 1 }
                sendSlot(0, (sentSlots[0]?.id ?? trackingID, lo.x, lo.y))
                if points.count >= 2 {
                    if sentSlots[1] == nil { trackingID += 1 }
                    sendSlot(1, (sentSlots[1]?.id ?? trackingID, hi.x, hi.y))
                } else {
                    sendSlot(1, nil)
                }
            }
        case (let slots, _, false) where slots > 0:
            for (finger, slot) in slotOfFinger where fingers[finger] == nil {
                sendSlot(slot, nil)
                slotOfFinger[finger] = nil
            }
            for finger in down {
                if slotOfFinger[finger] == nil {
                    let used = Set(slotOfFinger.values)
                    guard let free = (0..<slots).first(where: { !used.contains($0) }) else { continue }
                    slotOfFinger[finger] = free
                    trackingID += 1
                    sendSlot(free, (trackingID, 0, 0))
                }
                let u = units(fingers[finger]!)
                let slot = slotOfFinger[finger]!
                sendSlot(slot, (sentSlots[slot]!.id, u.x, u.y))
            }
        case (_, true, _):
            for finger in down {
                let u = units(fingers[finger]!)
                send(EventCode.absolute, EventCode.absMTPositionX, u.x)
                send(EventCode.absolute, EventCode.absMTPositionY, u.y)
                send(EventCode.synchronization, EventCode.synMTReport, 0)
            }
            if down.isEmpty { send(EventCode.synchronization, EventCode.synMTReport, 0) }
        default:
            break
        }
        // Single-touch position: the first finger down (legacy ABS_X/ABS_Y on MT devices too).
        if let first = down.first, description.absoluteAxes[EventCode.absX] != nil {
            let u = units(fingers[first]!)
            send(EventCode.absolute, EventCode.absX, u.x)
            send(EventCode.absolute, EventCode.absY, u.y)
        }
        setKey(EventCode.touch, down.isEmpty ? 0 : 1)
        let tools: [UInt16] = [EventCode.toolFinger, EventCode.toolDoubleTap, EventCode.toolTripleTap,
                               EventCode.toolQuadTap, EventCode.toolQuintTap]
        for (n, code) in tools.enumerated() { setKey(code, down.count == n + 1 ? 1 : 0) }
        send(EventCode.synchronization, EventCode.synReport, 0)
    }
}
