// The floor program: the least a Swift program doing flickd's input and output work holds in
// memory. Built with the flags flickd ships with (scripts/release-flags.sh), it does what flickd
// does up to its first epoll_wait and nothing else: creates the same uinput touchpad through
// libevdev (flickd's default output), finds the input devices flickd opens through libudev
// (touchpads, touchscreens, mice, pointing sticks, keyboards), opens each through libevdev on
// CLOCK_MONOTONIC, listens for hot-plug, and blocks in epoll_wait. Events are read and dropped
// (an unread descriptor would keep epoll_wait returning). No configuration, no logging, no
// engine, no String. SIGTERM ends it (the default action).
//
// Standard output, for scripts/bench-daemon: "ready" once set up, then "opened NODE" for each
// device opened (at start or plugged in later).
import CFloor
import Glibc

/// The evdev device of each open descriptor (descriptors are small integers).
let maximumDescriptor: Int32 = 1024
let evdevByDescriptor = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: Int(maximumDescriptor))
evdevByDescriptor.initialize(repeating: nil, count: Int(maximumDescriptor))

/// Writes `text` (and ` detail`) and a newline to standard output, unbuffered.
func say(_ text: UnsafePointer<CChar>, _ detail: UnsafePointer<CChar>? = nil) {
    write(1, text, strlen(text))
    if let detail {
        write(1, " ", 1)
        write(1, detail, strlen(detail))
    }
    write(1, "\n", 1)
}

func fail(_ call: UnsafePointer<CChar>) -> Never {
    perror(call)
    exit(1)
}

// The uinput touchpad flickd creates at start with `output.mode = "touchpad"` (the default):
// the same codes and axes as VirtualTouchpad.makeTemplate().
guard let template = libevdev_new() else { fail("libevdev_new") }
libevdev_set_name(template, "flickd floor touchpad")
libevdev_set_id_bustype(template, 0x06)
libevdev_set_id_version(template, 1)
libevdev_enable_property(template, UInt32(INPUT_PROP_POINTER))
for key in [BTN_LEFT, BTN_RIGHT, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP] {
    libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(key), nil)
}
@MainActor func axis(_ code: Int32, maximum: Int32, resolution: Int32) {
    var info = input_absinfo(value: 0, minimum: 0, maximum: maximum, fuzz: 0, flat: 0, resolution: resolution)
    libevdev_enable_event_code(template, UInt32(EV_ABS), UInt32(code), &info)
}
for code in [ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y] {
    axis(code, maximum: 20_000, resolution: 20)
}
axis(ABS_MT_SLOT, maximum: 1, resolution: 0)
axis(ABS_MT_TRACKING_ID, maximum: 65535, resolution: 0)
var touchpad: OpaquePointer?
guard libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &touchpad) == 0,
      let touchpad else { fail("libevdev_uinput_create_from_device") }
libevdev_free(template)
/// The virtual touchpad's input device (`/sys/devices/virtual/input/inputN`): its event node is
/// not one of the devices to read.
let ownSyspath = libevdev_uinput_get_syspath(touchpad)

let epoll = epoll_create1(cfloor_epoll_cloexec)
guard epoll >= 0 else { fail("epoll_create1") }

@MainActor func isSet(_ device: OpaquePointer, _ key: UnsafePointer<CChar>) -> Bool {
    guard let value = udev_device_get_property_value(device, key) else { return false }
    return value[0] == 0x31 && value[1] == 0  // "1"
}

/// Opens `device` when it is an evdev node of a kind flickd opens, and watches it.
@MainActor func open(_ device: OpaquePointer) {
    let prefix = "/dev/input/event"
    guard let node = udev_device_get_devnode(device), strncmp(node, prefix, strlen(prefix)) == 0 else { return }
    if let ownSyspath, let syspath = udev_device_get_syspath(device),
       strncmp(syspath, ownSyspath, strlen(ownSyspath)) == 0 { return }
    guard isSet(device, "ID_INPUT_TOUCHPAD") || isSet(device, "ID_INPUT_TOUCHSCREEN")
        || isSet(device, "ID_INPUT_MOUSE") || isSet(device, "ID_INPUT_POINTINGSTICK")
        || isSet(device, "ID_INPUT_KEYBOARD") else { return }
    let fd = Glibc.open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0, fd < maximumDescriptor else {
        if fd >= 0 { close(fd) }
        return
    }
    var evdev: OpaquePointer?
    guard libevdev_new_from_fd(fd, &evdev) == 0, let evdev else {
        close(fd)
        return
    }
    libevdev_set_clock_id(evdev, CLOCK_MONOTONIC)
    var event = epoll_event(events: cfloor_epollin, data: epoll_data_t(fd: fd))
    guard epoll_ctl(epoll, cfloor_epoll_ctl_add, fd, &event) == 0 else { fail("epoll_ctl") }
    evdevByDescriptor[Int(fd)] = evdev
    say("opened", node)
}

/// Reads and drops every pending event of `fd`; closes it when the device is gone.
@MainActor func drain(_ fd: Int32) {
    guard let evdev = evdevByDescriptor[Int(fd)] else { return }
    var event = input_event()
    var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
    while true {
        let status = libevdev_next_event(evdev, flags, &event)
        if status == LIBEVDEV_READ_STATUS_SYNC.rawValue {
            flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
        } else if status == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
            continue
        } else if status == -EAGAIN && flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
            flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        } else if status == -EAGAIN {
            return
        } else {
            var unused = epoll_event()
            epoll_ctl(epoll, cfloor_epoll_ctl_del, fd, &unused)
            libevdev_free(evdev)
            close(fd)
            evdevByDescriptor[Int(fd)] = nil
            return
        }
    }
}

guard let udev = udev_new() else { fail("udev_new") }
// Hot-plug first, then what exists (flickd's order: nothing plugged in between is missed).
guard let monitor = udev_monitor_new_from_netlink(udev, "udev"),
      udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil) >= 0,
      udev_monitor_enable_receiving(monitor) >= 0 else { fail("udev_monitor") }
let monitorDescriptor = udev_monitor_get_fd(monitor)
var monitorEvent = epoll_event(events: cfloor_epollin, data: epoll_data_t(fd: -1))
guard epoll_ctl(epoll, cfloor_epoll_ctl_add, monitorDescriptor, &monitorEvent) == 0 else { fail("epoll_ctl") }
if let enumerate = udev_enumerate_new(udev) {
    udev_enumerate_add_match_subsystem(enumerate, "input")
    udev_enumerate_scan_devices(enumerate)
    var entry = udev_enumerate_get_list_entry(enumerate)
    while let current = entry {
        entry = udev_list_entry_get_next(current)
        if let syspath = udev_list_entry_get_name(current), let device = udev_device_new_from_syspath(udev, syspath) {
            open(device)
            udev_device_unref(device)
        }
    }
    udev_enumerate_unref(enumerate)
}
say("ready")

let capacity: Int32 = 16
let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(capacity))
while true {
    let count = epoll_wait(epoll, events, capacity, -1)
    if count < 0 {
        if errno == EINTR { continue }
        fail("epoll_wait")
    }
    for index in 0..<Int(count) {
        let fd = events[index].data.fd
        if fd == -1 {
            while let device = udev_monitor_receive_device(monitor) {
                if let action = udev_device_get_action(device), strcmp(action, "add") == 0 { open(device) }
                udev_device_unref(device)
            }
        } else {
            drain(fd)
        }
    }
}
