import CEvdev
import CShim
import FlickCore
import Glibc

/// One `/dev/input/eventN` node, read passively through libevdev.
///
/// Opened read-only and non-blocking, never grabbed: libinput and the desktop go on reading
/// the same device. Event times are on CLOCK_MONOTONIC, the clock of the daemon's timer.
public final class EvdevDevice {
    /// What one read from the device produced, in the order the kernel sent it.
    public enum Reading {
        /// One event, stamped by the kernel.
        case event(InputEvent, at: Instant)
        /// The kernel's buffer overflowed and events were lost: a gesture in progress should be
        /// abandoned. Comes just before the SYN_DROPPED event itself, which is followed by
        /// libevdev's delta from the last known state to the device's current state as one
        /// frame, ending with its only SYN_REPORT (also when nothing changed), all as ordinary
        /// `.event`s.
        case resynchronized(at: Instant)
    }

    /// Why a drain of the device ended.
    public enum DrainEnd: Equatable {
        /// Every available event was read; wait for the descriptor to become ready again.
        case drained
        /// `maximumEventsPerRead` answers were read, and more may wait: in the kernel's buffer,
        /// or in libevdev's own queue, which epoll does not see (each libevdev read first moves
        /// all the kernel has into it). Read again once the loop has served the rest.
        case more
        /// The device was unplugged (ENODEV): close it.
        case vanished
        /// Reading failed in another way: close the device.
        case failed(SystemError)
    }

    /// The device node, e.g. `/dev/input/event5`.
    public let path: String
    /// The descriptor to watch for input.
    public let fileDescriptor: Int32
    private let evdev: OpaquePointer
    /// libinput's quirks and what udev says the device is, when they should fill in a missing
    /// resolution as libinput does (`DeviceMonitor.open` sets them for touch devices).
    public var quirks: (quirks: QuirksOnDemand, kind: DeviceKind)?

    /// Opens `path` read-only and non-blocking (never grabbed). Throws when the node cannot be
    /// opened (`isPermissionDenied`, `isMissing`) or is not an evdev device.
    public init(path: String) throws(SystemError) {
        let fd = try Syscall.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        var handle: OpaquePointer?
        let created = libevdev_new_from_fd(fd, &handle)
        guard created == 0, let handle else {
            Syscall.close(fd)
            throw SystemError(errno: created < 0 ? -created : ENOMEM, call: "libevdev_new_from_fd", path: path)
        }
        // Kernel timestamps on the daemon's clock, so they compare with timer deadlines.
        let clockSet = libevdev_set_clock_id(handle, cshim_clock_monotonic)
        guard clockSet == 0 else {
            libevdev_free(handle)
            Syscall.close(fd)
            throw SystemError(errno: clockSet < 0 ? -clockSet : EINVAL, call: "EVIOCSCLOCKID", path: path)
        }
        evdev = handle
        self.path = path
        fileDescriptor = fd
    }

    deinit {
        libevdev_free(evdev)
        Syscall.close(fileDescriptor)
    }

    /// Whether key `code` is down, as libevdev knows it: from the state read at open and after
    /// a resynchronisation, and every event read since.
    public func isKeyDown(_ code: UInt16) -> Bool {
        libevdev_get_event_value(evdev, UInt32(EV_KEY), UInt32(code)) != 0
    }

    /// libevdev's current MT slot: from the state read at open and every event read since.
    public var currentSlot: Int { max(0, Int(libevdev_get_current_slot(evdev))) }

    /// What each MT slot holds, as libevdev knows it (from the state read at open and every
    /// event read since): the tracking id, position, tool type, distance and pressure the kernel
    /// will not send again until they change. Empty for a device without slots. Allocates: read
    /// at open.
    public var slots: [SlotAtOpen] {
        let count = libevdev_get_num_slots(evdev)
        // Without tracking ids, libevdev answers 0 for each: that would read as contacts down.
        guard count > 0, libevdev_has_event_code(evdev, UInt32(EV_ABS), UInt32(ABS_MT_TRACKING_ID)) != 0 else { return [] }
        func value(_ slot: Int32, _ code: Int32) -> Int32 {
            libevdev_get_slot_value(evdev, UInt32(slot), UInt32(code))
        }
        return (0..<count).map { slot in
            SlotAtOpen(trackingID: value(slot, ABS_MT_TRACKING_ID),
                       x: value(slot, ABS_MT_POSITION_X), y: value(slot, ABS_MT_POSITION_Y),
                       toolType: value(slot, ABS_MT_TOOL_TYPE), distance: value(slot, ABS_MT_DISTANCE),
                       pressure: value(slot, ABS_MT_PRESSURE))
        }
    }

    /// The device's capabilities: name, ids, properties, keys and absolute axes.
    ///
    /// Built on demand (it allocates): only touch devices and `flickd devices` need it.
    /// A touch device without a resolution gets libinput's (`quirks`).
    public func describe() -> DeviceDescription { described().description }

    /// The libinput quirk that gave the device its resolution; nil when none did.
    public var sizeHint: LibinputQuirks.Hint? { described().hint }

    /// The quirk by which libinput scrolls this touchpad naturally by default; nil when it
    /// does not, or the device has no quirks (`InputDevice.naturalScrollingByDefault`).
    public var naturalScrollingByDefault: String? {
        guard let quirks else { return nil }
        return quirks.quirks.naturalScrollingByDefault(Self.describe(evdev), kind: quirks.kind)
    }

    /// How libinput reads this touchpad's pressure, with its quirks
    /// (`LibinputQuirks.touchPressure`); nil for a touchscreen, a device opened without quirks,
    /// or one whose pressure libinput does not read. Reads the quirks files (allocates): asked
    /// once, at open.
    public var touchPressure: TouchPressure? {
        guard let quirks, quirks.kind == .touchpad else { return nil }
        return quirks.quirks.quirks.touchPressure(for: Self.describe(evdev), kind: .touchpad, in: LibinputQuirks.systemFiles(),
                                                  integration: touchpadIntegration)
    }

    /// udev's `ID_INPUT_TOUCHPAD_INTEGRATION` for the device (`InputNode.touchpadIntegration`),
    /// set by whoever opens it from udev; nil when unknown.
    public var touchpadIntegration: String?

    /// The capabilities as the kernel has them now: `describe()` keeps what libevdev read at
    /// open, while udev may have set an axis since (a hwdb entry applied on "change"). A second
    /// libevdev reads them from the same descriptor (ioctls only: no event is read).
    public func describeAgain() -> DeviceDescription? {
        var handle: OpaquePointer?
        guard libevdev_new_from_fd(fileDescriptor, &handle) == 0, let handle else { return nil }
        defer { libevdev_free(handle) }
        let description = Self.describe(handle)
        guard let quirks else { return description }
        return quirks.quirks.applied(to: description, kind: quirks.kind).0
    }

    private func described() -> (description: DeviceDescription, hint: LibinputQuirks.Hint?) {
        let description = Self.describe(evdev)
        guard let quirks else { return (description, nil) }
        return quirks.quirks.applied(to: description, kind: quirks.kind)
    }

    /// The most answers of libevdev (events, and the ends of resynchronisations) one read takes
    /// outside a resynchronisation: the kernel's buffer for a reader holds 8 packets of the
    /// device's events (1024 events for a 15-slot pad, 256 for a 2-slot one: docs/RELIABILITY.md),
    /// so a read that goes past this is reading a device that writes as fast as flickd reads (a
    /// uinput device flooding). The read ends there (`DrainEnd.more`) and the loop serves its
    /// timers, signals and other devices before it reads the device again; without the cap such
    /// a device held the loop for as long as it wrote, and a coast stopped being written.
    public static let maximumEventsPerRead = 8192

    /// Reads every event available now, in order, handing each to `handle`, up to
    /// `maximumEventsPerRead` of them.
    ///
    /// On SYN_DROPPED, `handle` gets `.resynchronized`, then the SYN_DROPPED event and
    /// libevdev's state delta as ordinary events, as one frame: a single SYN_REPORT, at its end.
    /// Does not allocate.
    public func readAvailable(_ handle: (Reading) -> Void) -> DrainEnd {
        Self.drain(path: path, handle) { flags, event in libevdev_next_event(evdev, flags, &event) }
    }

    /// The loop of `readAvailable` over `next`, which reads one event as `libevdev_next_event`
    /// does (tests give a script of its answers).
    ///
    /// The delta is handed on as one frame, closed by one SYN_REPORT where libevdev's sync ends
    /// (its EAGAIN): the frame the engine's trackers flag as following SYN_DROPPED must be the
    /// whole delta. libevdev splits its delta in two frames when a touch ended or changed
    /// tracking id while events were lost (its sync_state and terminate_slots: those slots'
    /// ABS_MT_TRACKING_ID -1 and the BTN_TOOL_* they leave, closed by a SYN_REPORT; then the
    /// keys, axes and restarted slots, closed by another); the second frame's new tracking ids
    /// then read as fingers landing, unflagged, and a gesture whose landing was lost coasted.
    /// Its SYN_REPORTs are held back and one, stamped like the last of them, closes the delta.
    ///
    /// libevdev ends its delta with a SYN_REPORT only when the delta holds an event: when the
    /// resynchronisation found nothing changed (events lost with the fingers up and up again)
    /// there is none, and the frame that the engine's trackers flag as following SYN_DROPPED
    /// would be the next real one, the landing of the next gesture, which is then never
    /// coasted. A SYN_REPORT stamped like the SYN_DROPPED closes such an empty delta, so the
    /// resynchronisation always ends with its own frame.
    static func drain(path: String, _ handle: (Reading) -> Void,
                      next: (_ flags: UInt32, _ event: inout input_event) -> Int32) -> DrainEnd {
        let normal = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        let sync = LIBEVDEV_READ_FLAG_SYNC.rawValue
        let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
        let syncStatus = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
        let report = InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0)
        var event = input_event()
        var flags = normal
        // While resynchronising: the time of the delta's closing SYN_REPORT (the SYN_DROPPED's
        // until libevdev sends one, then the last libevdev sent).
        var closedAt = Instant.zero
        // libevdev's answers so far: events, and the ends of deltas.
        var answers = 0
        while true {
            // Never within a resynchronisation: libevdev drops the rest of its delta when the
            // next read asks for normal events.
            if flags == normal && answers >= maximumEventsPerRead { return .more }
            let status = next(flags, &event)
            answers += 1
            let time = Instant(seconds: Int64(event.time.tv_sec), microseconds: Int64(event.time.tv_usec))
            let read = InputEvent(type: event.type, code: event.code, value: event.value)
            switch status {
            case success:
                handle(.event(read, at: time))
            case syncStatus where flags == normal:
                // `event` is the SYN_DROPPED itself: pass it on, then drain the delta.
                handle(.resynchronized(at: time))
                handle(.event(read, at: time))
                flags = sync
                closedAt = time
            case syncStatus where read == report:
                // Held back: the delta's frame ends where the delta does. (libevdev 1.13 may
                // answer a few real events after its delta with the sync status too: terminate_slots
                // queues BTN_TOOL_* events for codes the device lacks, which are dropped without
                // counting down the delta. They join the flagged frame, so a touch that landed
                // right then is ignored until it lifts: rare, and no coast comes of it.)
                closedAt = time
            case syncStatus:
                handle(.event(read, at: time))
            case -EAGAIN where flags == sync:
                // The delta is complete; normal events may follow.
                handle(.event(report, at: closedAt))
                flags = normal
            case -EAGAIN:
                return .drained
            case -ENODEV:
                return .vanished
            default:
                return .failed(SystemError(errno: -status, call: "libevdev_next_event", path: path))
            }
        }
    }

    /// The description of a libevdev device (opened, or built with `libevdev_new` in tests).
    static func describe(_ evdev: OpaquePointer) -> DeviceDescription {
        var properties = Set<UInt16>()
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(evdev, property) != 0 {
            properties.insert(UInt16(property))
        }
        var keys = Set<UInt16>()
        if libevdev_has_event_type(evdev, UInt32(EV_KEY)) != 0 {
            for code in 0..<UInt32(KEY_CNT) where libevdev_has_event_code(evdev, UInt32(EV_KEY), code) != 0 {
                keys.insert(UInt16(code))
            }
        }
        var axes = [UInt16: AxisInfo]()
        if libevdev_has_event_type(evdev, UInt32(EV_ABS)) != 0 {
            for code in 0..<UInt32(ABS_CNT) {
                guard libevdev_has_event_code(evdev, UInt32(EV_ABS), code) != 0,
                      let info = libevdev_get_abs_info(evdev, code)?.pointee else { continue }
                axes[UInt16(code)] = AxisInfo(
                    minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
                    resolution: info.resolution)
            }
        }
        return DeviceDescription(
            name: String(cString: libevdev_get_name(evdev)),
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(evdev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(evdev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(evdev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(evdev)),
            properties: properties, keys: keys, absoluteAxes: axes)
    }
}
