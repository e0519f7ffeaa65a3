/// One raw evdev event (`struct input_event` without its timestamp, which travels beside it).
public struct InputEvent: Hashable, Sendable {
    /// Event type (`EV_SYN`, `EV_KEY`, `EV_ABS`, ...).
    public var type: UInt16
    /// Event code within the type (`ABS_MT_SLOT`, `BTN_TOUCH`, ...).
    public var code: UInt16
    /// Event value.
    public var value: Int32

    /// An event of `type`, `code` and `value`.
    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The subset of the kernel's `input-event-codes.h` that flickd understands.
///
/// FlickCore cannot import the C header, so the values are written out here; they are part of
/// the kernel's stable ABI.
public enum EventCode {
    // Types
    public static let synchronization: UInt16 = 0x00  // EV_SYN
    public static let key: UInt16 = 0x01              // EV_KEY
    public static let relative: UInt16 = 0x02         // EV_REL
    public static let absolute: UInt16 = 0x03         // EV_ABS
    public static let miscellaneous: UInt16 = 0x04    // EV_MSC

    // EV_SYN codes
    public static let synReport: UInt16 = 0           // SYN_REPORT
    public static let synConfig: UInt16 = 1           // SYN_CONFIG
    public static let synMTReport: UInt16 = 2         // SYN_MT_REPORT
    public static let synDropped: UInt16 = 3          // SYN_DROPPED

    // EV_KEY codes
    public static let buttonLeft: UInt16 = 0x110      // BTN_LEFT
    public static let buttonRight: UInt16 = 0x111     // BTN_RIGHT
    public static let buttonMiddle: UInt16 = 0x112    // BTN_MIDDLE
    /// Whether an EV_KEY code is a pointer button, BTN_LEFT ... BTN_TASK (a touchpad's
    /// physical buttons, a mouse's), or BTN_0 ... BTN_9 (the extra buttons of older Synaptics
    /// pads): not a tool or BTN_TOUCH, which a touch device sends with every touch.
    public static func isPointerButton(_ code: UInt16) -> Bool {
        (buttonLeft...0x117).contains(code) || (0x100...0x109).contains(code)  // BTN_LEFT ... BTN_TASK, BTN_0 ... BTN_9
    }
    public static let toolPen: UInt16 = 0x140         // BTN_TOOL_PEN
    public static let toolFinger: UInt16 = 0x145      // BTN_TOOL_FINGER
    public static let toolQuintTap: UInt16 = 0x148    // BTN_TOOL_QUINTTAP
    public static let touch: UInt16 = 0x14a           // BTN_TOUCH
    public static let toolDoubleTap: UInt16 = 0x14d   // BTN_TOOL_DOUBLETAP
    public static let toolTripleTap: UInt16 = 0x14e   // BTN_TOOL_TRIPLETAP
    public static let toolQuadTap: UInt16 = 0x14f     // BTN_TOOL_QUADTAP

    // EV_REL codes
    public static let relX: UInt16 = 0x00             // REL_X
    public static let relY: UInt16 = 0x01             // REL_Y
    public static let relHorizontalWheel: UInt16 = 0x06   // REL_HWHEEL
    public static let relWheel: UInt16 = 0x08             // REL_WHEEL
    public static let relWheelHiRes: UInt16 = 0x0b        // REL_WHEEL_HI_RES
    public static let relHorizontalWheelHiRes: UInt16 = 0x0c  // REL_HWHEEL_HI_RES

    // EV_ABS codes
    public static let absX: UInt16 = 0x00             // ABS_X
    public static let absY: UInt16 = 0x01             // ABS_Y
    public static let absPressure: UInt16 = 0x18      // ABS_PRESSURE
    public static let absMisc: UInt16 = 0x28          // ABS_MISC
    public static let absMTSlot: UInt16 = 0x2f        // ABS_MT_SLOT
    public static let absMTTouchMajor: UInt16 = 0x30  // ABS_MT_TOUCH_MAJOR
    public static let absMTPositionX: UInt16 = 0x35   // ABS_MT_POSITION_X
    public static let absMTPositionY: UInt16 = 0x36   // ABS_MT_POSITION_Y
    public static let absMTToolType: UInt16 = 0x37    // ABS_MT_TOOL_TYPE
    public static let absMTTrackingID: UInt16 = 0x39  // ABS_MT_TRACKING_ID
    public static let absMTPressure: UInt16 = 0x3a    // ABS_MT_PRESSURE
    public static let absMTDistance: UInt16 = 0x3b    // ABS_MT_DISTANCE

    // ABS_MT_TOOL_TYPE values
    public static let mtToolFinger: Int32 = 0         // MT_TOOL_FINGER
    public static let mtToolPen: Int32 = 1            // MT_TOOL_PEN
    public static let mtToolPalm: Int32 = 2           // MT_TOOL_PALM

    // INPUT_PROP_* bits
    public static let propPointer: UInt16 = 0x00      // INPUT_PROP_POINTER
    public static let propDirect: UInt16 = 0x01       // INPUT_PROP_DIRECT
    public static let propButtonPad: UInt16 = 0x02    // INPUT_PROP_BUTTONPAD
    public static let propSemiMT: UInt16 = 0x03       // INPUT_PROP_SEMI_MT
}
