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
    /// Contact pressure (device units) of the first finger, on devices with a pressure axis;
    /// the others press a little harder, and it wobbles by up to 2 from frame to frame. nil
    /// writes no pressure.
    public var pressure: Int32?

    /// A flick of `fingers` fingers (see the properties).
    public init(fingers: Int, start: Vector, spacing: Double = 18, velocity: Vector, motion: Duration,
                frameInterval: Duration = .milliseconds(10), pause: Duration = .zero, liftSpread: Duration = .milliseconds(8),
                pressure: Int32? = nil) {
        self.pressure = pressure
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

/// The evdev events a device sends for a `Flick`, written by `FingerFrameWriter` (protocol B,
/// semi-multitouch, protocol A or single-touch, with `BTN_TOUCH` and the `BTN_TOOL_*` finger
/// count where the device has them). Used by the fuzz targets, the soak and the benchmarks.
public struct FingerStream {
    private var writer: FingerFrameWriter

    /// A stream of the device `description`.
    public init(description: DeviceDescription) {
        writer = FingerFrameWriter(description: description)
    }

    /// The events of `flick` from `time` on; `time` becomes the time of the last event.
    public mutating func events(for flick: Flick, at time: inout Instant) -> [TimedEvent] {
        var out: [TimedEvent] = []
        let fingers = max(1, min(5, flick.fingers))
        func position(_ finger: Int, after elapsed: Duration) -> Vector {
            let t = min(elapsed, flick.motion).seconds
            return Vector(x: flick.start.x + Double(finger) * flick.spacing + flick.velocity.x * t,
                          y: flick.start.y + flick.velocity.y * t)
        }
        var down = Array(repeating: true, count: fingers)
        var frameNumber = 0
        func frame(at now: Instant, elapsed: Duration) {
            let positions = (0..<fingers).map { down[$0] ? position($0, after: elapsed) : nil }
            // A real finger's pressure wobbles a little from frame to frame.
            let pressures = flick.pressure.map { p in (0..<fingers).map { p + Int32(frameNumber % 3 + 2 * $0) } }
            writer.frame(positions, pressures: pressures) { out.append(TimedEvent(time: now, event: $0)) }
            frameNumber += 1
        }

        let interval = max(flick.frameInterval, Duration(microseconds: 100))
        let begin = time
        var elapsed = Duration.zero
        while elapsed <= flick.motion + flick.pause {
            frame(at: begin + elapsed, elapsed: elapsed)
            elapsed = elapsed + interval
        }
        // Lifts: finger i at first lift + spread·i/(n−1), one frame per distinct time.
        let firstLift = begin + elapsed
        var finger = 0
        while finger < fingers {
            let offset = fingers == 1 ? Duration.zero
                : Duration(microseconds: flick.liftSpread.microseconds * Int64(finger) / Int64(fingers - 1))
            var next = finger
            while next < fingers,
                  fingers == 1 || flick.liftSpread.microseconds * Int64(next) / Int64(fingers - 1) == offset.microseconds {
                down[next] = false
                next += 1
            }
            frame(at: firstLift + offset, elapsed: elapsed + offset)
            finger = next
        }
        time = out.last?.time ?? time
        return out
    }
}
