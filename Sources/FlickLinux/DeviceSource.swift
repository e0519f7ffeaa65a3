import FlickCore

/// Where the daemon's input devices come from: the nodes that exist now, the ones plugged in
/// and removed later, and how one is opened.
///
/// `DeviceMonitor` is the real one (udev lists and reports the nodes, libevdev opens them);
/// unit tests give the daemon a scripted one, since a test host has no `/dev/input`.
public protocol DeviceSource: AnyObject {
    /// Every evdev node that exists now, in the order to open them.
    func inputNodes() -> [InputNode]
    /// Starts reporting nodes added and removed; returns the descriptor that becomes readable
    /// when `receiveChanges(_:)` has something to report. Calling it again returns the same one.
    func startMonitoring() throws(SystemError) -> Int32
    /// Reports every pending change, in order, without blocking.
    func receiveChanges(_ report: (DeviceMonitor.Change) -> Void)
    /// Opens `node` for reading, passively (never grabbed). Throws when it cannot be opened
    /// (`isPermissionDenied`, `isMissing`) or is not an evdev device.
    func open(_ node: InputNode) throws(SystemError) -> any InputDevice
}

/// An open input device the daemon reads: an `EvdevDevice`, or a test's stand-in.
public protocol InputDevice: AnyObject {
    /// The descriptor that becomes readable when events are waiting.
    var fileDescriptor: Int32 { get }
    /// The device's capabilities (allocates: read once, when the device is opened).
    func describe() -> DeviceDescription
    /// The device's capabilities as the kernel has them now (an axis range or resolution set
    /// since the open), read without reading its events; nil when they cannot be asked.
    func describeAgain() -> DeviceDescription?
    /// Reads every event available now, in order, handing each to `handle` (see
    /// `EvdevDevice.readAvailable(_:)`).
    func readAvailable(_ handle: (EvdevDevice.Reading) -> Void) -> EvdevDevice.DrainEnd
    /// The libinput quirk that gave the device the resolution `describe()` holds, where the
    /// device reports none (`LibinputQuirks`); nil otherwise.
    var sizeHint: LibinputQuirks.Hint? { get }
    /// The libinput quirk by which libinput scrolls the device naturally by default (Apple's
    /// touchpads, `LibinputQuirks.naturalScrollingByDefault`); nil: libinput's default is off.
    /// Reads the quirks files when they were not read yet: asked only where the desktop does
    /// not say how the pad scrolls.
    var naturalScrollingByDefault: String? { get }
    /// Whether key `code` (EV_KEY) is down, as of the last event read (`readAvailable`) or the
    /// state read at open or after a resynchronisation.
    func isKeyDown(_ code: UInt16) -> Bool
    /// The MT slot the device's next MT event goes to unless an ABS_MT_SLOT comes first (the
    /// kernel sends one only when the slot changes), as of the last event read or the state
    /// read at open; 0 for a device without slots.
    var currentSlot: Int { get }
    /// What each MT slot holds as of the state read at open (tracking id, position, tool type,
    /// distance, pressure: what the kernel will not send again until it changes); empty for a device
    /// without slots or tracking ids. Allocates: read at open.
    var slots: [SlotAtOpen] { get }
    /// How libinput tells this touchpad's touches and palms by pressure, its quirks applied
    /// (`ContactTracker`'s `touchPressure`); nil where it does not. Allocates: read at open.
    var touchPressure: TouchPressure? { get }
}

extension InputDevice {
    public var sizeHint: LibinputQuirks.Hint? { nil }
    public var naturalScrollingByDefault: String? { nil }
    public var slots: [SlotAtOpen] { [] }
    public var touchPressure: TouchPressure? { nil }
}

extension EvdevDevice: InputDevice {}

extension DeviceMonitor: DeviceSource {
    /// Opens `node` with libevdev; a touchpad or touchscreen gets libinput's quirks (read when
    /// the first one without a resolution is described), so that a missing resolution is
    /// filled in as libinput fills it.
    public func open(_ node: InputNode) throws(SystemError) -> any InputDevice {
        let device = try EvdevDevice(path: node.devnode)
        if let kind = node.kind.touchKind { device.quirks = (quirks, kind) }
        device.touchpadIntegration = node.touchpadIntegration
        return device
    }
}
