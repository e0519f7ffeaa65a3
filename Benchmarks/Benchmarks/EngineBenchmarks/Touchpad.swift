import FlickCore

/// The touchpad the benchmarks scroll on: libinput's "Synaptics TM3053-004" (RMI4), as in
/// Tests/Fixtures/devices/synaptics-rmi4.device, written out here so the benchmark reads no files.
///
/// A clickpad with 5 protocol-B slots, 1940 × 1062 units at 20 units/mm (97 mm × 53 mm).
enum Touchpad {
    /// `ABS_MT_TOUCH_MINOR` and `ABS_MT_ORIENTATION`: declared by the device, unused by flickd.
    static let absMTTouchMinor: UInt16 = 0x31
    static let absMTOrientation: UInt16 = 0x34

    /// Device units per millimetre on both axes.
    static let unitsPerMillimetre = 20.0

    /// The device's capabilities, as the daemon would read them with libevdev.
    static let description = DeviceDescription(
        name: "Synaptics TM3053-004",
        bustype: 29, vendor: 1739, product: 0,
        properties: [EventCode.propPointer, EventCode.propButtonPad],
        keys: [
            EventCode.buttonLeft, EventCode.toolFinger, EventCode.toolQuintTap, EventCode.touch,
            EventCode.toolDoubleTap, EventCode.toolTripleTap, EventCode.toolQuadTap,
        ],
        absoluteAxes: [
            EventCode.absX: AxisInfo(minimum: 0, maximum: 1940, resolution: 20),
            EventCode.absY: AxisInfo(minimum: 0, maximum: 1062, resolution: 20),
            EventCode.absPressure: AxisInfo(minimum: 0, maximum: 255),
            EventCode.absMTSlot: AxisInfo(minimum: 0, maximum: 4),
            EventCode.absMTTouchMajor: AxisInfo(minimum: 0, maximum: 15),
            absMTTouchMinor: AxisInfo(minimum: 0, maximum: 15),
            absMTOrientation: AxisInfo(minimum: 0, maximum: 1),
            EventCode.absMTPositionX: AxisInfo(minimum: 0, maximum: 1940, resolution: 20),
            EventCode.absMTPositionY: AxisInfo(minimum: 0, maximum: 1062, resolution: 20),
            EventCode.absMTToolType: AxisInfo(minimum: 0, maximum: 2),
            EventCode.absMTTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            EventCode.absMTPressure: AxisInfo(minimum: 0, maximum: 255),
        ]
    )

    /// The same pad speaking multitouch protocol A without tracking ids (as older drivers such as
    /// hid-multitouch's predecessors and some vendor drivers do): every contact in every frame,
    /// each closed by SYN_MT_REPORT, no ABS_MT_SLOT or ABS_MT_TRACKING_ID. The engine pairs each
    /// frame's contacts with the last frame's by position.
    static let protocolADescription: DeviceDescription = {
        var description = Touchpad.description
        description.name = "Synaptics TM3053-004 (protocol A)"
        description.absoluteAxes[EventCode.absMTSlot] = nil
        description.absoluteAxes[EventCode.absMTTrackingID] = nil
        return description
    }()

    /// A position in millimetres from the top-left corner, in device units.
    static func units(_ millimetres: Double) -> Int32 {
        Int32((millimetres * unitsPerMillimetre).rounded())
    }
}
