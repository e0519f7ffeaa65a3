import CEvdev
import FlickCore
import Glibc

/// Where the daemon writes the virtual fingers: the uinput `VirtualTouchpad`, or a recorder in
/// tests.
public protocol TouchSink: AnyObject {
    /// Writes `frame` as one SYN_REPORT frame (a landing over fingers still down is written
    /// as a lift frame and the landing, in one write). A motion frame whose positions round to
    /// the ones last written writes nothing, and so does one after a landing the kernel did not
    /// take (there are no touches of its glide to move).
    func write(_ frame: TouchFrame) throws(SystemError)
    /// Writes `frame` as `write(_:)` does and returns how many events reached the kernel: 0
    /// when nothing was written, which says nothing of whether the device takes writes (a
    /// motion frame that changes no device unit, or one withheld after a failed landing).
    /// Sinks that do not count return 1 for every frame they take.
    func writeEvents(of frame: TouchFrame) throws(SystemError) -> Int
    /// The sysfs path of the input device this sink created (to skip it when enumerating
    /// devices); nil when there is none.
    var syspath: String? { get }
    /// Its event node (`/dev/input/eventN`); nil when there is none.
    var devnode: String? { get }
    /// Destroys the device (the kernel and libinput end any touch on it). Further writes fail.
    func close()
}

extension TouchSink {
    public var devnode: String? { nil }

    public func writeEvents(of frame: TouchFrame) throws(SystemError) -> Int {
        try write(frame)
        return 1
    }
}

/// flickd's touchpad output (`output.mode = "touchpad"`): a uinput multitouch touchpad
/// (protocol B, two slots) whose two fingers carry the coast.
///
/// udev tags it `ID_INPUT_TOUCHPAD` (absolute X/Y, BTN_TOOL_FINGER, no INPUT_PROP_DIRECT) and
/// libinput reads its two-finger motion as finger scrolling, normalised by the declared
/// resolution, so the glide reaches the apps exactly as the finger phase did. Its surface is
/// `VirtualPad` (1000 mm square at 100 units/mm).
public final class VirtualTouchpad: TouchSink {
    /// The device's name, as udev, libinput and `flickd devices` see it.
    public static let name = "flickd virtual touchpad"

    /// What desktops and `[[device]]` sections know it by: its name, vendor and product 0.
    public static let identity = DeviceIdentity(name: name, vendor: UinputDevice.vendor, product: UinputDevice.product)

    /// Bus type `BUS_VIRTUAL`.
    public static let busType = UinputDevice.busType

    /// Keys declared: BTN_LEFT and BTN_RIGHT (a touchpad with two physical buttons, never
    /// pressed: without BUTTONPAD libinput sets up no click areas or thumb detection, and with
    /// a right button it does not warn), BTN_TOUCH and the finger-count tools.
    public static let keys: [UInt16] = [
        EventCode.buttonLeft, EventCode.buttonRight, EventCode.touch, EventCode.toolFinger,
        EventCode.toolDoubleTap, EventCode.toolTripleTap,
    ]

    /// Slots declared (protocol B); two are used.
    public static let slotCount: Int32 = 2

    /// The most events one lift frame holds: per finger slot, tracking id -1; BTN_TOUCH and
    /// the tool up; SYN_REPORT.
    static let liftFrameLength = 2 * 2 + 2 + 1
    /// The most events one landing frame holds: per finger slot, tracking id, x, y; BTN_TOUCH
    /// and the tool down; ABS_X, ABS_Y; SYN_REPORT.
    static let landingFrameLength = 2 * 4 + 2 + 2 + 1
    /// The most events one write holds: a landing over fingers still down is a lift frame and
    /// a landing frame, written together.
    static let maximumWriteLength = liftFrameLength + landingFrameLength

    private let device: UinputDevice
    /// What the device holds now, in device units, to write only what changed.
    private(set) var state = Encoder()

    public var syspath: String? { device.syspath }
    /// The device node libinput reads, e.g. `/dev/input/event9`; nil if the kernel did not say.
    public var devnode: String? { device.devnode }

    /// Creates the device through `/dev/uinput`. Throws `VirtualWheelError` (the same causes
    /// and fixes as for the wheel) when uinput is missing or not writable.
    public init() throws(VirtualWheelError) {
        device = try UinputDevice(template: Self.makeTemplate(), name: Self.name, frameCapacity: Self.maximumWriteLength)
    }

    /// A touchpad that creates no device: its frames, encoded and written as this type's are, go
    /// to `/dev/null` (`Rehearsal`).
    init(discarding: ()) throws(SystemError) {
        device = try UinputDevice(discardingFrameCapacity: Self.maximumWriteLength)
    }

    public func close() { device.close() }

    public func write(_ touch: TouchFrame) throws(SystemError) {
        _ = try writeEvents(of: touch)
    }

    public func writeEvents(of touch: TouchFrame) throws(SystemError) -> Int {
        let device = device
        return try state.write(touch, into: device.frame) { count throws(SystemError) in
            try device.writeFrame(count: count)
        }
    }

    /// Turns touch frames into evdev events, remembering what the device holds.
    struct Encoder {
        /// Tracking id of the next landing's first finger (the second gets the next one).
        var nextTrackingID: Int32 = 1
        var down = false
        /// The touches down are a glide the caller has left: a landing after them was not
        /// written. Its motion frames are for touches the kernel does not have; written to the
        /// old ones they would jump (libinput discards that as a touch jump, then scrolls on
        /// without the new glide's opening). They are not written; the next lift or landing
        /// ends the old touches.
        var superseded = false
        var positions: (Int32, Int32, Int32, Int32) = (-1, -1, -1, -1)

        /// Encodes `touch` into `frame`, hands the count to `write` (which writes that many
        /// events to the kernel, none when the count is 0) and returns the count. What the device
        /// holds changes only once the kernel took the frame: after a failed lift the next
        /// landing lifts the fingers still down there first, and after a failed landing no
        /// motion is written until a lift or landing is (`superseded`).
        mutating func write(_ touch: TouchFrame, into frame: UnsafeMutablePointer<input_event>,
                            by write: (Int) throws(SystemError) -> Void) throws(SystemError) -> Int {
            var next = self
            let count = next.encode(touch, into: frame)
            do throws(SystemError) {
                try write(count)
            } catch {
                if touch.action == .land { superseded = down }
                throw error
            }
            self = next
            return count
        }

        /// Fills `frame` (room for `maximumWriteLength` events) with `touch`'s events and
        /// returns how many; 0 when nothing changes. One SYN_REPORT frame, or two when a landing
        /// finds fingers still down (a lift frame, then the landing). The kernel stamps the time.
        mutating func encode(_ touch: TouchFrame, into frame: UnsafeMutablePointer<input_event>) -> Int {
            var count = 0
            func append(_ type: UInt16, _ code: UInt16, _ value: Int32) {
                frame[count] = input_event(time: timeval(), type: type, code: code, value: value)
                count += 1
            }
            let abs = EventCode.absolute
            // Undoes all a landing sets: both slots' touches end, BTN_TOUCH and the tool go up.
            func appendLift() {
                append(abs, EventCode.absMTSlot, 0)
                append(abs, EventCode.absMTTrackingID, -1)
                append(abs, EventCode.absMTSlot, 1)
                append(abs, EventCode.absMTTrackingID, -1)
                append(EventCode.key, EventCode.touch, 0)
                append(EventCode.key, EventCode.toolDoubleTap, 0)
            }
            let x0 = VirtualPad.units(touch.first.x), y0 = VirtualPad.units(touch.first.y)
            let x1 = VirtualPad.units(touch.second.x), y1 = VirtualPad.units(touch.second.y)
            switch touch.action {
            case .land:
                superseded = false
                if down {
                    // Down still: a lift the kernel did not take (a failed write, the lift half
                    // of a glide's lift-then-land among them). New tracking ids over live ones
                    // would not end those touches: the kernel passes the change on, but libevdev
                    // (which libinput and the X drivers read through) discards a tracking id
                    // that changes from one valid id to another ("double tracking ID"), so the
                    // old touches would stay down and jump to the landing. Lift them in a frame
                    // of their own first. The two frames may carry the same kernel time; that is
                    // no matter to libinput, which ends the gesture as soon as a frame has no
                    // finger down (the scroll stops) and starts a new one with the landing.
                    appendLift()
                    append(EventCode.synchronization, EventCode.synReport, 0)
                }
                down = true
                let id = nextTrackingID
                // Tracking ids are 16-bit in the kernel; stay positive.
                nextTrackingID = id >= 32000 ? 1 : id + 2
                append(abs, EventCode.absMTSlot, 0)
                append(abs, EventCode.absMTTrackingID, id)
                append(abs, EventCode.absMTPositionX, x0)
                append(abs, EventCode.absMTPositionY, y0)
                append(abs, EventCode.absMTSlot, 1)
                append(abs, EventCode.absMTTrackingID, id + 1)
                append(abs, EventCode.absMTPositionX, x1)
                append(abs, EventCode.absMTPositionY, y1)
                append(EventCode.key, EventCode.touch, 1)
                append(EventCode.key, EventCode.toolDoubleTap, 1)
                append(abs, EventCode.absX, x0)
                append(abs, EventCode.absY, y0)
            case .move:
                guard down, !superseded, (x0, y0, x1, y1) != positions else { return 0 }
                append(abs, EventCode.absMTSlot, 0)
                append(abs, EventCode.absMTPositionX, x0)
                append(abs, EventCode.absMTPositionY, y0)
                append(abs, EventCode.absMTSlot, 1)
                append(abs, EventCode.absMTPositionX, x1)
                append(abs, EventCode.absMTPositionY, y1)
                append(abs, EventCode.absX, x0)
                append(abs, EventCode.absY, y0)
            case .lift:
                guard down else { return 0 }
                down = false
                superseded = false
                appendLift()
            }
            positions = (x0, y0, x1, y1)
            append(EventCode.synchronization, EventCode.synReport, 0)
            return count
        }
    }

    /// A libevdev description of the device, for uinput to copy. The caller frees it.
    static func makeTemplate() -> OpaquePointer {
        let template = UinputDevice.template(name: name)
        libevdev_enable_property(template, UInt32(EventCode.propPointer))
        for key in keys {
            libevdev_enable_event_code(template, UInt32(EventCode.key), UInt32(key), nil)
        }
        let resolution = Int32(VirtualPad.unitsPerMillimetre)
        func axis(_ code: UInt16, maximum: Int32, resolution: Int32) {
            var info = input_absinfo(value: 0, minimum: 0, maximum: maximum, fuzz: 0, flat: 0, resolution: resolution)
            libevdev_enable_event_code(template, UInt32(EventCode.absolute), UInt32(code), &info)
        }
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            axis(code, maximum: VirtualPad.maximumUnits, resolution: resolution)
        }
        axis(EventCode.absMTSlot, maximum: slotCount - 1, resolution: 0)
        axis(EventCode.absMTTrackingID, maximum: 65535, resolution: 0)
        return template
    }
}
