import CEvdev
import FlickCore
import Glibc

/// Where the daemon writes wheel output: the uinput `VirtualWheel`, or a recorder in tests.
public protocol WheelSink: AnyObject {
    /// Writes `output` as one frame. Writes nothing when `output` is empty.
    func write(_ output: WheelOutput) throws(SystemError)
    /// The sysfs path of the input device this sink created (to skip it when enumerating
    /// devices); nil when there is none.
    var syspath: String? { get }
    /// Its event node (`/dev/input/eventN`); nil when there is none.
    var devnode: String? { get }
    /// Destroys the device. Further writes fail.
    func close()
}

extension WheelSink {
    public var devnode: String? { nil }
}

/// One event type and code a device declares.
public struct InputCapability: Hashable, Sendable {
    /// Event type (`EV_REL`, `EV_KEY`).
    public var type: UInt16
    /// Event code within the type.
    public var code: UInt16

    /// The capability `type`/`code`.
    public init(type: UInt16, code: UInt16) {
        self.type = type
        self.code = code
    }
}

/// flickd's one output device: a uinput mouse with a high-resolution wheel, which libinput
/// reads like any other mouse (`POINTER_SCROLL_WHEEL` with v120 values).
public final class VirtualWheel: WheelSink {
    /// The device's name, as udev, libinput and `flickd devices` see it.
    public static let name = "flickd virtual wheel"

    /// Bus type `BUS_VIRTUAL`.
    public static let busType = UinputDevice.busType

    /// Everything the device declares.
    ///
    /// The wheel codes are what flickd writes: hi-res codes (120 units = one detent) and the
    /// legacy detent codes that hi-res devices also send. The pointer codes (motion, three
    /// buttons) are never written; they are there because udev's input_id tags a device
    /// `ID_INPUT_MOUSE` only if it has relative X/Y and a left button, and libinput ignores
    /// devices udev did not tag.
    public static let capabilities: [InputCapability] = [
        InputCapability(type: EventCode.relative, code: EventCode.relWheel),
        InputCapability(type: EventCode.relative, code: EventCode.relHorizontalWheel),
        InputCapability(type: EventCode.relative, code: EventCode.relWheelHiRes),
        InputCapability(type: EventCode.relative, code: EventCode.relHorizontalWheelHiRes),
        InputCapability(type: EventCode.relative, code: EventCode.relX),
        InputCapability(type: EventCode.relative, code: EventCode.relY),
        InputCapability(type: EventCode.key, code: EventCode.buttonLeft),
        InputCapability(type: EventCode.key, code: EventCode.buttonRight),
        InputCapability(type: EventCode.key, code: EventCode.buttonMiddle),
    ]

    /// The most events one frame holds: four wheel codes and SYN_REPORT.
    static let maximumFrameLength = 5

    private let device: UinputDevice

    public var syspath: String? { device.syspath }
    /// The device node libinput reads, e.g. `/dev/input/event9`; nil if the kernel did not say.
    public var devnode: String? { device.devnode }

    /// Creates the device through `/dev/uinput`. Throws `VirtualWheelError` explaining the fix
    /// when uinput is missing or not writable.
    public init() throws(VirtualWheelError) {
        device = try UinputDevice(template: Self.makeTemplate(), name: Self.name, frameCapacity: Self.maximumFrameLength)
    }

    /// A wheel that creates no device: its frames, encoded and written as this type's are, go
    /// to `/dev/null` (`Rehearsal`).
    init(discarding: ()) throws(SystemError) {
        device = try UinputDevice(discardingFrameCapacity: Self.maximumFrameLength)
    }

    public func close() { device.close() }

    /// Writes `output` as one frame in one syscall: the hi-res codes, the legacy detent codes,
    /// then SYN_REPORT. Writes nothing when `output` is empty.
    public func write(_ output: WheelOutput) throws(SystemError) {
        try device.writeFrame(count: Self.encode(output, into: device.frame))
    }

    /// Fills `frame` (room for `maximumFrameLength` events) with the events of `output` and
    /// returns how many; 0 for empty output. The kernel stamps the time, so it is left zero.
    static func encode(_ output: WheelOutput, into frame: UnsafeMutablePointer<input_event>) -> Int {
        guard !output.isEmpty else { return 0 }
        var count = 0
        func append(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            frame[count] = input_event(time: timeval(), type: type, code: code, value: value)
            count += 1
        }
        // The one order of the wheel codes, shared with `flickd replay`.
        output.forEachEvent { code, value in append(EventCode.relative, code, value) }
        append(EventCode.synchronization, EventCode.synReport, 0)
        return count
    }

    /// A libevdev description of the device, for uinput to copy. The caller frees it.
    static func makeTemplate() -> OpaquePointer {
        let template = UinputDevice.template(name: name)
        for capability in capabilities {
            // Enabling a code enables its type; EV_SYN is always present.
            libevdev_enable_event_code(template, UInt32(capability.type), UInt32(capability.code), nil)
        }
        return template
    }
}

/// Why a virtual device (the wheel or the touchpad) could not be created, with the fix in one paragraph.
public struct VirtualWheelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Cause: Hashable, Sendable {
        /// `/dev/uinput` does not exist or its module is not loaded.
        case uinputMissing
        /// `/dev/uinput` exists but this user may not write to it.
        case permissionDenied
        /// Anything else the kernel refused.
        case failed
    }

    /// The failed call.
    public var underlying: SystemError
    /// The device that could not be created (`VirtualWheel.name`, `VirtualTouchpad.name`).
    public var device: String

    /// The failure `underlying` creating `device`, classified.
    public init(_ underlying: SystemError, device: String = VirtualWheel.name) {
        self.underlying = underlying
        self.device = device
    }

    /// "virtual wheel", "virtual touchpad".
    private var shortName: String {
        device.hasPrefix("flickd ") ? String(device.dropFirst("flickd ".count)) : device
    }

    /// What is wrong, from the errno.
    public var cause: Cause {
        if underlying.isMissing { return .uinputMissing }
        if underlying.isPermissionDenied { return .permissionDenied }
        return .failed
    }

    public var description: String {
        switch cause {
        case .uinputMissing:
            return """
                cannot create the \(shortName): /dev/uinput is missing (\(underlying.reason)). \
                flickd sends its smooth scrolling through the kernel's uinput module, which is \
                not loaded. \(UinputDevice.moduleAdvice(installedModules: UinputDevice.installedFile(UinputDevice.modulesLoadFiles))) \
                A container or a kernel built without uinput cannot run flickd.
                """
        case .permissionDenied:
            return """
                cannot create the \(shortName): no permission to write /dev/uinput \
                (\(underlying.reason)). \(UinputDevice.permissionAdvice(installedRule: UinputDevice.installedFile(UinputDevice.udevRuleFiles))) \
                Or add yourself to the input group (`sudo usermod -aG input $USER`, then log in \
                again) on systems where /dev/uinput belongs to that group.
                """
        case .failed:
            return """
                cannot create the \(shortName): \(underlying). The kernel refused to \
                create a uinput device; check `dmesg` for the reason, and that /dev/uinput is the \
                uinput module's node (`ls -l /dev/uinput` shows a character device 10, 223).
                """
        }
    }
}
