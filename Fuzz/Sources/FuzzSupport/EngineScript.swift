import FlickCore
import FlickTools

/// What one engine input stream does: which devices are plugged in, the configuration, and
/// the steps in order. The engine fuzzer decodes it from bytes; the soak builds it directly.
public struct EngineScript: Sendable {
    /// The devices plugged in; device `i` of the script has `DeviceID(i + 1)`.
    public var devices: [DeviceDescription]
    /// The configuration the engine starts with.
    public var configuration: Configuration
    /// The steps, in order.
    public var steps: [Step]

    /// A script on `devices` under `configuration`.
    public init(devices: [DeviceDescription], configuration: Configuration, steps: [Step] = []) {
        self.devices = devices
        self.configuration = configuration
        self.steps = steps
    }

    /// One thing that happens, at `time` on the kernel's clock (which may step backwards or
    /// jump: the harness ticks the engine at its deadlines up to `time` first).
    public struct Step: Sendable {
        public var time: Instant
        public var action: Action

        public init(time: Instant, action: Action) {
            self.time = time
            self.action = action
        }
    }

    /// What a step does.
    public enum Action: Sendable {
        /// An evdev event from script device `device`.
        case event(device: Int, InputEvent)
        /// Something outside the touch devices stops the coast (a button, a key, shutdown).
        case stop(StopReason)
        /// The event loop wakes `lateness` after the engine's deadline (negative: before it),
        /// as after a stall or with timer jitter. Nothing when no coast runs.
        case tick(lateness: Duration)
        /// Script device `device` is unplugged, or plugged back in when it was unplugged.
        case toggleDevice(Int)
        /// Events of script device `device` were dropped (SYN_DROPPED seen by the daemon).
        case abandon(Int)
        /// The configuration is reloaded.
        case reconfigure(Configuration)
        /// The desktop's natural-scrolling setting changes.
        case desktopNaturalScrolling(Bool)
        /// The wheel output the engine returned last (from the handled event or the tick just
        /// before this step) did not reach the apps: the daemon's `Engine.notWritten(_:)` after a
        /// write that failed, or for the release's step when a modifier is held at the release
        /// (then followed by `stop(.key)` at the same time). Nothing when that call returned no
        /// wheel output or another call came since.
        case notWritten
    }

    /// The latest instant a step may have: about what the recording parsers accept
    /// (999 999 999 999.999999 s), so that times stay where real input can put them.
    public static let latestTime = Instant(microseconds: 1_000_000_000_000_000_000)

    /// `time` moved by `delta`, kept within 0...latestTime.
    public static func clamp(_ time: Instant, plus delta: Int64) -> Instant {
        let (sum, overflow) = time.microseconds.addingReportingOverflow(delta)
        if overflow { return delta > 0 ? latestTime : .zero }
        return Instant(microseconds: min(max(sum, 0), latestTime.microseconds))
    }
}

// MARK: - Byte encoding (the engine fuzzer's input format)

/// The engine fuzzer's input format.
///
/// ```
/// header   6 bytes  count, d0, d1, d2, configA, configB
///                   devices: 1 + (count & 3) % 3 of them, device i = table entry d_i % table size;
///                   configuration: ConfigurationVariant(configA, configB, count >> 2)
/// steps    8 bytes  op, a, v0, v1, v2, v3, t0, t1   (a last partial step is ignored)
///   op & 3          script device (modulo the device count)
///   op >> 2         0...47  event: EventTable.codes[kind % 32], value v0...v3 (Int32, LE)
///                   48...54 raw event: type a % 32, code v0 | v1 << 8, value Int16(v2 | v3 << 8)
///                   55      the wheel output returned last was not written (a failed write;
///                           with a stop step (key) at the same time: a modifier held at the release)
///                   56...58 stop: reason [button, key, touch, shutdown, button, key, touch,
///                           sessionInactive][a % 8]
///                   59      tick off schedule by Int32(v0...v3) µs (late > 0, early < 0)
///                   60      unplug / plug back the device
///                   61      abandon the device's gesture (SYN_DROPPED)
///                   62      reconfigure: ConfigurationVariant(a, v0, v1)
///                   63      desktop natural scrolling = a & 1
///   t0 | t1 << 8    time since the previous step: t1 < 0xF0: t × 10 µs (0...614 ms);
///                   0xF0: t0 ms backwards; 0xF1: t0 s backwards; 0xF2: t0 × 1000 s forwards;
///                   0xF3: 2^(t0 % 63) µs forwards; 0xF4...0xFF: t0 ms forwards
/// ```
/// Times start at 1 s and stay within 0...`EngineScript.latestTime`.
///
/// Inputs made before the third configuration byte (`count >> 2`) and `sessionInactive` keep
/// their meaning when their count byte is below 4 (the seed writer's is 0) and no stop step
/// has `a % 8 == 7` (that was `shutdown`); others decode to other devices or configurations.
/// Steps with `op >> 2 == 55` were raw events before `notWritten` took that opcode (the seed
/// writer's raw events are 48, so no committed seed had one).
extension EngineScript {
    /// Bytes per step.
    public static let stepSize = 8
    /// Bytes of the header.
    public static let headerSize = 6
    /// The time of the first step's predecessor.
    public static let startTime = Instant(microseconds: 1_000_000)

    /// Decodes fuzzer input (any bytes decode to some script).
    public init(bytes: UnsafeRawBufferPointer) {
        func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }
        let table = FuzzDevices.all.count
        let count = 1 + Int(byte(0) & 3) % 3
        devices = (0..<count).map { FuzzDevices.all[Int(byte(1 + $0)) % table] }
        configuration = ConfigurationVariant(a: byte(4), b: byte(5), c: byte(0) >> 2).configuration
        steps = []
        var time = Self.startTime
        var offset = Self.headerSize
        steps.reserveCapacity(max(0, bytes.count - offset) / Self.stepSize)
        while offset + Self.stepSize <= bytes.count {
            let op = bytes[offset], a = bytes[offset + 1]
            let v = (bytes[offset + 2], bytes[offset + 3], bytes[offset + 4], bytes[offset + 5])
            let t0 = bytes[offset + 6], t1 = bytes[offset + 7]
            offset += Self.stepSize

            time = Self.clamp(time, plus: Self.delta(t0, t1))
            let device = Int(op & 3) % count
            let word = UInt32(v.0) | UInt32(v.1) << 8 | UInt32(v.2) << 16 | UInt32(v.3) << 24
            let action: Action
            switch op >> 2 {
            case 0...47:
                let (type, code) = EventTable.codes[Int(op >> 2) % EventTable.codes.count]
                action = .event(device: device, InputEvent(type: type, code: code, value: Int32(bitPattern: word)))
            case 48...54:
                let code = UInt16(v.0) | UInt16(v.1) << 8
                let value = Int32(Int16(bitPattern: UInt16(v.2) | UInt16(v.3) << 8))
                action = .event(device: device, InputEvent(type: UInt16(a % 32), code: code, value: value))
            case 55:
                action = .notWritten
            case 56...58:
                action = .stop([StopReason.button, .key, .touch, .shutdown, .button, .key, .touch, .sessionInactive][Int(a % 8)])
            case 59:
                action = .tick(lateness: Duration(microseconds: Int64(Int32(bitPattern: word))))
            case 60:
                action = .toggleDevice(device)
            case 61:
                action = .abandon(device)
            case 62:
                action = .reconfigure(ConfigurationVariant(a: a, b: v.0, c: v.1).configuration)
            default:
                action = .desktopNaturalScrolling(a & 1 == 1)
            }
            steps.append(Step(time: time, action: action))
        }
    }

    /// The time step encoded by `t0`, `t1`, in microseconds.
    static func delta(_ t0: UInt8, _ t1: UInt8) -> Int64 {
        switch t1 {
        case 0..<0xF0: return (Int64(t0) | Int64(t1) << 8) * 10
        case 0xF0: return -Int64(t0) * 1000
        case 0xF1: return -Int64(t0) * 1_000_000
        case 0xF2: return Int64(t0) * 1_000_000_000
        case 0xF3: return Int64(1) << Int64(t0 % 63)
        default: return Int64(t0) * 1000
        }
    }

    /// Encodes the events of a one-device script as fuzzer input (for seeds): `configA`,
    /// `configB` and `configC` (0...63) are the header's configuration bytes. Events whose code is not in
    /// `EventTable.codes` become raw events with their value cut to 16 bits; time steps are
    /// rounded to 10 µs. Other actions are left out.
    public static func encode(device: Int, configA: UInt8, configB: UInt8, configC: UInt8 = 0,
                              events: [TimedEvent]) -> [UInt8] {
        precondition(configC < 64, "the header holds 6 bits of configC")
        var bytes: [UInt8] = [configC << 2, UInt8(device), 0, 0, configA, configB]
        var previous: Instant?
        for timed in events {
            var step = [UInt8](repeating: 0, count: stepSize)
            let event = timed.event
            if let kind = EventTable.codes.firstIndex(where: { $0 == (event.type, event.code) }) {
                let value = UInt32(bitPattern: event.value)
                step[0] = UInt8(kind) << 2
                step[2...5] = [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
            } else {
                let value = UInt16(bitPattern: Int16(clamping: event.value))
                step[0] = 48 << 2
                step[1] = UInt8(event.type % 32)
                step[2...5] = [UInt8(event.code & 0xff), UInt8(event.code >> 8), UInt8(value & 0xff), UInt8(value >> 8)]
            }
            // The first event comes at startTime; the others keep their spacing.
            let (t0, t1) = encodeDelta(previous.map { (timed.time - $0).microseconds } ?? 0)
            previous = timed.time
            step[6] = t0
            step[7] = t1
            bytes += step
        }
        return bytes
    }

    /// The two time bytes of a step `delta` µs after the one before (the closest encodable).
    public static func encodeDeltaBytes(_ delta: Int64) -> [UInt8] {
        let (t0, t1) = encodeDelta(delta)
        return [t0, t1]
    }

    /// The closest encodable time step to `delta` µs.
    static func encodeDelta(_ delta: Int64) -> (UInt8, UInt8) {
        if delta >= 0 && delta <= 0xEFFF * 10 {
            let t = UInt16((delta + 5) / 10)
            return (UInt8(t & 0xff), UInt8(t >> 8))
        }
        if delta < 0 {
            return delta >= -255_000 ? (UInt8((-delta + 500) / 1000), 0xF0) : (UInt8(min(255, (-delta) / 1_000_000)), 0xF1)
        }
        return delta < 1_000_000_000 ? (UInt8(min(255, delta / 1000)), 0xF4) : (UInt8(min(255, delta / 1_000_000_000)), 0xF2)
    }
}

/// The event codes a step names by number, weighted by position: kinds 0...15 come twice in
/// 0...47 (`op >> 2` modulo 32).
public enum EventTable {
    public static let codes: [(type: UInt16, code: UInt16)] = [
        (EventCode.synchronization, EventCode.synReport),        // 0
        (EventCode.absolute, EventCode.absMTSlot),               // 1
        (EventCode.absolute, EventCode.absMTTrackingID),         // 2
        (EventCode.absolute, EventCode.absMTPositionX),          // 3
        (EventCode.absolute, EventCode.absMTPositionY),          // 4
        (EventCode.absolute, EventCode.absX),                    // 5
        (EventCode.absolute, EventCode.absY),                    // 6
        (EventCode.key, EventCode.touch),                        // 7
        (EventCode.key, EventCode.toolFinger),                   // 8
        (EventCode.key, EventCode.toolDoubleTap),                // 9
        (EventCode.key, EventCode.toolTripleTap),                // 10
        (EventCode.key, EventCode.toolQuadTap),                  // 11
        (EventCode.key, EventCode.toolQuintTap),                 // 12
        (EventCode.absolute, EventCode.absMTToolType),           // 13
        (EventCode.absolute, EventCode.absPressure),             // 14
        (EventCode.absolute, EventCode.absMTPressure),           // 15
        (EventCode.absolute, EventCode.absMTTouchMajor),         // 16
        (EventCode.synchronization, EventCode.synMTReport),      // 17
        (EventCode.synchronization, EventCode.synDropped),       // 18
        (EventCode.key, EventCode.buttonLeft),                   // 19
        (EventCode.key, EventCode.buttonRight),                  // 20
        (EventCode.miscellaneous, 0x05),                         // 21 MSC_TIMESTAMP
        (EventCode.absolute, EventCode.absMTDistance),           // 22
        (EventCode.absolute, 0x1c),                              // 23 ABS_TOOL_WIDTH
        (EventCode.key, EventCode.toolPen),                      // 24
        (EventCode.absolute, 0x31),                              // 25 ABS_MT_TOUCH_MINOR
        (EventCode.absolute, 0x32),                              // 26 ABS_MT_WIDTH_MAJOR
        (EventCode.absolute, 0x34),                              // 27 ABS_MT_ORIENTATION
        (EventCode.key, EventCode.buttonMiddle),                 // 28
        (EventCode.relative, EventCode.relX),                    // 29
        (EventCode.key, 29),                                     // 30 KEY_LEFTCTRL
        (EventCode.synchronization, EventCode.synConfig),        // 31
    ]
}

/// A configuration chosen by three bytes: the defaults, the limits of every range the loader
/// accepts, and the combinations that matter (all values are ones `flickd.toml` may hold).
///
/// ```
/// a: bit 0 touchscreen.enabled; bit 1 coast.boost = false; bits 2-3 scroll.natural
///    [auto, on, off, auto]; bits 4-5 coast.tick_rate [120, 60, 1000, 10];
///    bits 6-7 coast.max_duration ms [5000, 50, 800, 60000]
/// b: bits 0-1 coast.deceleration_rate [0.998, 0.99, 0.9, 0.9999]; bit 2 velocity.estimator
///    lookback; bits 3-4 touchpad.fingers [2, 3, 4, 2]; bit 5 touchscreen.fingers 2;
///    bit 6 coast.axis_lock 0 (else 20, or 45 with bit 7); bit 7 the far ends: min_speed 0,
///    max_speed 100000, scroll.speed 1000, lift_window 500 ms, lift_travel 50 mm
/// c: bit 0 output.mode = "touchpad" (else "wheel", which inputs made before this byte ran);
///    bit 1 stop.touch = false; bit 2 stop.button = false; bit 3 touchpad.enabled = false;
///    bits 4-5 [none; a [[device]] section for names containing "touch" (deceleration 0.9,
///    scroll.speed 0.1, natural on, 3 touchpad fingers, 4 touchscreen fingers, resolution 1000);
///    sections turning "screen" devices off and, for "pad", touchpad.enabled = false,
///    touchscreen.enabled, resolution 1; the low ends: scroll.speed 0.1, max_speed 1,
///    min_speed 0]; bit 6 min_speed 10000 (its top) with max_speed 100000; bit 7 the low ends
///    of lift_window (0 ms) and lift_travel (0 mm). The header gives bits 0-5 only.
/// ```
public struct ConfigurationVariant: Hashable, Sendable {
    public var a: UInt8
    public var b: UInt8
    public var c: UInt8

    public init(a: UInt8, b: UInt8, c: UInt8 = 0) {
        self.a = a
        self.b = b
        self.c = c
    }

    public var configuration: Configuration {
        var c = Configuration()
        c.touchscreen.enabled = a & 1 != 0
        c.coast.boost = a & 2 == 0
        c.scroll.natural = [NaturalScrolling.auto, .on, .off, .auto][Int(a >> 2 & 3)]
        c.coast.tickRate = [120, 60, 1000, 10][Int(a >> 4 & 3)]
        c.coast.maxDuration = .milliseconds([5000, 50, 800, 60000][Int(a >> 6 & 3)])
        c.coast.decelerationRate = [0.998, 0.99, 0.9, 0.9999][Int(b & 3)]
        c.velocity.estimator = b & 4 != 0 ? .lookback : .lsq2
        c.touchpad.fingers = [2, 3, 4, 2][Int(b >> 3 & 3)]
        c.touchscreen.fingers = b & 32 != 0 ? 2 : 1
        let extreme = b & 128 != 0
        c.coast.axisLockDegrees = b & 64 != 0 ? 0 : (extreme ? 45 : 20)
        if extreme {
            c.coast.minSpeed = 0
            c.coast.maxSpeed = 100_000
            c.scroll.speed = 1000
            c.touchpad.liftWindow = .milliseconds(500)
            c.touchpad.liftTravel = 50
        }
        let more = self.c
        c.output.mode = more & 1 != 0 ? .touchpad : .wheel
        c.stop.touch = more & 2 == 0
        c.stop.button = more & 4 == 0
        c.touchpad.enabled = more & 8 == 0
        if more >> 4 & 3 == 3 {
            c.scroll.speed = 0.1
            c.coast.maxSpeed = 1
            c.coast.minSpeed = 0
        }
        if more & 64 != 0 {
            c.coast.minSpeed = 10_000
            c.coast.maxSpeed = 100_000
        }
        if more & 128 != 0 {
            c.touchpad.liftWindow = .zero
            c.touchpad.liftTravel = 0
        }
        // Sections last: a section's settings are the top level's with its own on top.
        switch more >> 4 & 3 {
        case 1:
            var own = c
            own.coast.decelerationRate = 0.9
            own.scroll.speed = 0.1
            own.scroll.natural = .on
            own.touchpad.fingers = 3
            own.touchscreen.fingers = 4
            c.devices = [DeviceRule(name: "touch", resolution: 1000, configuration: own)]
        case 2:
            var own = c
            own.touchpad.enabled = false
            own.touchscreen.enabled = true
            c.devices = [DeviceRule(name: "screen", enabled: false, configuration: c),
                         DeviceRule(name: "pad", resolution: 1, configuration: own)]
        default:
            break
        }
        return c
    }
}
