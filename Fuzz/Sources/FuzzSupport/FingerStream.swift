import FlickCore
import FlickTools

/// A scripted touch: fingers land side by side, move together at one velocity, and lift one
/// after the other. Positions in millimetres from the device's top-left corner.
public struct Flick: Sendable {
    /// How many fingers (1...5).
    public var fingers: Int
    /// Where the first finger lands, mm.
    public var start: Vector
    /// Horizontal distance between neighbouring fingers, mm.
    public var spacing: Double
    /// Velocity of all fingers while they move, mm/s.
    public var velocity: Vector
    /// How long they move.
    public var motion: Duration
    /// Time between frames.
    public var frameInterval: Duration
    /// Still time between the end of the motion and the first lift.
    public var pause: Duration
    /// Time from the first finger's lift to the last one's.
    public var liftSpread: Duration

    public init(fingers: Int, start: Vector, spacing: Double = 18, velocity: Vector, motion: Duration,
                frameInterval: Duration = .milliseconds(10), pause: Duration = .zero, liftSpread: Duration = .milliseconds(8)) {
        self.fingers = fingers
        self.start = start
        self.spacing = spacing
        self.velocity = velocity
        self.motion = motion
        self.frameInterval = frameInterval
        self.pause = pause
        self.liftSpread = liftSpread
    }
}

/// Writes the evdev events a device of a given description sends for a `Flick`: multitouch
/// protocol B (slots and tracking ids; semi-multitouch pads the same way), protocol A
/// (`SYN_MT_REPORT` after each contact) or single-touch (`ABS_X`/`ABS_Y`), with `BTN_TOUCH` and
/// the `BTN_TOOL_*` finger count where the device has them.
public struct FingerStream {
    private let description: DeviceDescription
    private let geometry: DeviceGeometry
    private let slots: Int
    private var nextTrackingID: Int32 = 100

    public init(description: DeviceDescription) {
        self.description = description
        geometry = DeviceGeometry(description: description, kind: description.kind ?? .touchpad)
        slots = description.slotCount
    }

    /// The events of `flick` from `time` on; `time` becomes the time of the last event.
    public mutating func events(for flick: Flick, at time: inout Instant) -> [TimedEvent] {
        var out: [TimedEvent] = []
        let fingers = max(1, min(5, flick.fingers))
        let ids = (0..<fingers).map { _ -> Int32 in
            nextTrackingID = nextTrackingID == 65535 ? 1 : nextTrackingID + 1
            return nextTrackingID
        }
        var down = Array(repeating: false, count: fingers)
        var previousCount = 0
        func position(_ finger: Int, after elapsed: Duration) -> Vector {
            let t = min(elapsed, flick.motion).seconds
            return Vector(x: flick.start.x + Double(finger) * flick.spacing + flick.velocity.x * t,
                          y: flick.start.y + flick.velocity.y * t)
        }

        func frame(at now: Instant, elapsed: Duration, lifting: Set<Int>) {
            func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
                out.append(TimedEvent(time: now, event: InputEvent(type: type, code: code, value: value)))
            }
            let active = (0..<fingers).filter { !lifting.contains($0) && (down[$0] || elapsed == .zero) }
            if slots > 0 {
                for finger in 0..<min(fingers, slots) {
                    let isNew = !down[finger] && active.contains(finger)
                    let lifts = lifting.contains(finger) && down[finger]
                    guard active.contains(finger) || lifts else { continue }
                    emit(EventCode.absolute, EventCode.absMTSlot, Int32(finger))
                    if lifts {
                        emit(EventCode.absolute, EventCode.absMTTrackingID, -1)
                        continue
                    }
                    if isNew { emit(EventCode.absolute, EventCode.absMTTrackingID, ids[finger]) }
                    let p = position(finger, after: elapsed)
                    emit(EventCode.absolute, EventCode.absMTPositionX, units(p.x, axis: EventCode.absMTPositionX, scale: geometry.x))
                    emit(EventCode.absolute, EventCode.absMTPositionY, units(p.y, axis: EventCode.absMTPositionY, scale: geometry.y))
                }
            } else if description.usesProtocolA {
                for finger in active {
                    let p = position(finger, after: elapsed)
                    emit(EventCode.absolute, EventCode.absMTPositionX, units(p.x, axis: EventCode.absMTPositionX, scale: geometry.x))
                    emit(EventCode.absolute, EventCode.absMTPositionY, units(p.y, axis: EventCode.absMTPositionY, scale: geometry.y))
                    emit(EventCode.synchronization, EventCode.synMTReport, 0)
                }
                if active.isEmpty { emit(EventCode.synchronization, EventCode.synMTReport, 0) }
            }
            let count = active.count
            if count != previousCount {
                if (previousCount == 0) != (count == 0), description.keys.contains(EventCode.touch) {
                    emit(EventCode.key, EventCode.touch, count > 0 ? 1 : 0)
                }
                if let old = Self.toolKey(previousCount), description.keys.contains(old) { emit(EventCode.key, old, 0) }
                if let new = Self.toolKey(count), description.keys.contains(new) { emit(EventCode.key, new, 1) }
            }
            if let first = active.first, description.absoluteAxes[EventCode.absX] != nil {
                let p = position(first, after: elapsed)
                emit(EventCode.absolute, EventCode.absX, units(p.x, axis: EventCode.absX, scale: geometry.x))
                emit(EventCode.absolute, EventCode.absY, units(p.y, axis: EventCode.absY, scale: geometry.y))
            }
            emit(EventCode.synchronization, EventCode.synReport, 0)
            for finger in active { down[finger] = true }
            for finger in lifting { down[finger] = false }
            previousCount = count
        }

        let interval = max(flick.frameInterval, Duration(microseconds: 100))
        let begin = time
        var elapsed = Duration.zero
        while elapsed <= flick.motion + flick.pause {
            frame(at: begin + elapsed, elapsed: elapsed, lifting: [])
            elapsed = elapsed + interval
        }
        // Lifts: finger i at first lift + spread·i/(n−1), one frame per distinct time.
        let firstLift = begin + elapsed
        var finger = 0
        while finger < fingers {
            let offset = fingers == 1 ? Duration.zero
                : Duration(microseconds: flick.liftSpread.microseconds * Int64(finger) / Int64(fingers - 1))
            var group: Set<Int> = [finger]
            var next = finger + 1
            while next < fingers,
                  flick.liftSpread.microseconds * Int64(next) / Int64(max(1, fingers - 1)) == offset.microseconds {
                group.insert(next)
                next += 1
            }
            frame(at: firstLift + offset, elapsed: elapsed + offset, lifting: group)
            finger = next
        }
        time = out.last?.time ?? time
        return out
    }

    /// `millimetres` from the axis's start in device units, kept within the axis.
    private func units(_ millimetres: Double, axis code: UInt16, scale: AxisScale) -> Int32 {
        let axis = description.absoluteAxes[code] ?? AxisInfo(minimum: 0, maximum: 1000)
        let value = Double(axis.minimum) + millimetres * scale.unitsPerMillimetre
        let low = Double(min(axis.minimum, axis.maximum)), high = Double(max(axis.minimum, axis.maximum))
        guard value.isFinite else { return axis.minimum }
        return Int32(min(max(value, low), high).rounded())
    }

    private static func toolKey(_ count: Int) -> UInt16? {
        switch count {
        case 1: return EventCode.toolFinger
        case 2: return EventCode.toolDoubleTap
        case 3: return EventCode.toolTripleTap
        case 4: return EventCode.toolQuadTap
        case 5: return EventCode.toolQuintTap
        default: return nil
        }
    }
}
