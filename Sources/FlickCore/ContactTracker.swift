/// How a device reports its contacts.
public enum ContactProtocol: Hashable, Sendable {
    /// Multitouch protocol B: slots with tracking ids (`slots` of them). Semi-MT pads use it
    /// too, with the two slots as the corners of a bounding box.
    case slotted(slots: Int)
    /// Multitouch protocol A: every frame lists all contacts, separated by SYN_MT_REPORT.
    case unslotted
    /// Single touch: ABS_X/ABS_Y and BTN_TOUCH; the finger count, if any, from BTN_TOOL_*.
    case singleTouch
}

/// One tracked contact, in device units.
struct Contact {
    /// Whether this slot holds a contact this frame.
    var active = false
    /// Changes whenever the slot's contact is a different finger (or its meaning changed),
    /// so motion is only measured between frames of the same contact.
    var identity: UInt32 = 0
    var x: Int32 = 0
    var y: Int32 = 0
    /// The contact was reported as a palm (ABS_MT_TOOL_TYPE = MT_TOOL_PALM).
    var isPalm = false
    /// The contact hovers above the surface (ABS_MT_DISTANCE > 0; atmel_mxt_ts keeps the slot
    /// and its tracking id while a finger hovers): not touching.
    var isHovering = false
    /// ABS_MT_PRESSURE (device units): the slot's, kept like the tool type (the input core drops
    /// an unchanged value, so a touch landing with its slot's last pressure sends none).
    var pressure: Int32 = 0
    /// On a pad that tells touches by pressure (`TouchPressure`): the contact has not pressed
    /// hard enough to touch yet, or pressed less than the low threshold since (libinput's
    /// TOUCH_HOVERING). A light thumb resting while a finger points is no finger.
    var isLight = false
    /// The contact's pressure went over the palm threshold (`TouchPressure.palmThreshold`): a palm
    /// until it lifts, whatever its pressure does (libinput's PALM_PRESSURE cannot be released).
    var isPressurePalm = false

    /// Whether the contact is a finger touching the device.
    var touches: Bool { active && !isPalm && !isHovering && !isLight && !isPressurePalm }
}

/// How one contact has moved, as the touch-jump filter reads it (`ContactTracker.jumpGrowthMillimetres`).
struct ContactMotion {
    /// Where the contact is with the jumps dropped taken out (mm): its motion, and how far it
    /// moved since the gesture's fingers landed, are measured on this.
    var position = Vector.zero
    /// Its last step, taken or dropped, as mm per `ContactTracker.jumpReferenceInterval`
    /// (libinput's `last_delta_mm`).
    var normalizedStep = 0.0
    /// When its position last changed (it landed then at the latest): its steps are measured
    /// over the time since. A pad may report positions only every other frame (hid-multitouch
    /// pads whose frames between carry only MSC_TIMESTAMP or pressure), and a button's frame
    /// moves no contact: such a frame is no step of 0 mm.
    var lastChange = Instant.zero
    /// Where it was reported (mm) before the jump last dropped, and when: the next step is also
    /// measured from there, and taken when it does not grow much over the steps around it
    /// (`ContactTracker.step`). A jump that comes back is then no motion, and real motion that
    /// looked like a jump (a finger landing already fast) is counted in full a frame late.
    var heldPosition: Vector?
    var heldTime = Instant.zero
    /// `normalizedStep` before the jump held.
    var heldStep = 0.0
    /// The last frame, since the jump held, whose mean motion other contacts made without this
    /// one (`heldTime` when none): they stood for its motion until then.
    var coveredUntil = Instant.zero
}

/// What one MT slot of a device held when it was opened (libevdev's state then): the values the
/// kernel will not send again until they change (the input core drops an unchanged value).
public struct SlotAtOpen: Hashable, Sendable {
    /// ABS_MT_TRACKING_ID: -1 when the slot holds no contact.
    public var trackingID: Int32
    /// ABS_MT_POSITION_X and ABS_MT_POSITION_Y, device units.
    public var x: Int32
    public var y: Int32
    /// ABS_MT_TOOL_TYPE (MT_TOOL_PALM: a palm); 0 when the device has none.
    public var toolType: Int32
    /// ABS_MT_DISTANCE (> 0: hovering); 0 when the device has none.
    public var distance: Int32
    /// ABS_MT_PRESSURE, device units; 0 when the device has none.
    public var pressure: Int32

    /// A slot holding `trackingID` (-1: none) at (`x`, `y`), of `toolType`, `distance` above,
    /// pressing with `pressure`.
    public init(trackingID: Int32, x: Int32, y: Int32, toolType: Int32 = 0, distance: Int32 = 0, pressure: Int32 = 0) {
        self.trackingID = trackingID
        self.x = x
        self.y = y
        self.toolType = toolType
        self.distance = distance
        self.pressure = pressure
    }
}

/// How a touchpad tells a finger touching it from one resting lightly on it, and from a palm, by
/// pressure, as libinput does (`tp_init_pressure`, `tp_unhover_pressure`,
/// `tp_init_palmdetect_pressure` in evdev-mt-touchpad.c).
///
/// A contact starts touching when its pressure reaches `touch.high` and stops when it falls below
/// `touch.low` (hysteresis); until it touches it is no finger: not counted, its motion not read.
/// A contact whose pressure exceeds `palmThreshold` is a palm until it lifts. libinput does this
/// on touchpads only (a touchscreen's touches are its contacts), and not on pads it reads by touch
/// size (Apple's, `AttrTouchSizeRange`) or whose pressure is a force (pressure pads).
public struct TouchPressure: Hashable, Sendable {
    /// Pressure thresholds of touch detection, device units of `axis`.
    public struct Thresholds: Hashable, Sendable {
        /// ABS_MT_PRESSURE on pads read by slots, ABS_PRESSURE on single-touch and semi-MT pads
        /// (libinput reads those as single-touch pads).
        public var axis: UInt16
        /// A contact touches once its pressure is at least this.
        public var high: Int32
        /// A touching contact stops touching when its pressure is below this.
        public var low: Int32

        /// Touches begin at `high` and end below `low` on `axis`.
        public init(axis: UInt16, high: Int32, low: Int32) {
            self.axis = axis
            self.high = high
            self.low = low
        }
    }

    /// Touch detection by pressure; nil: every contact touches.
    public var touch: Thresholds?
    /// ABS_MT_PRESSURE above which a contact is a palm, device units; nil: none is.
    public var palmThreshold: Int32?

    /// libinput's palm pressure threshold where no quirk sets one (`tp_read_palm_pressure_prop`).
    public static let defaultPalmThreshold: Int32 = 130

    /// Touch detection by `touch`, palms above `palmThreshold`.
    public init(touch: Thresholds?, palmThreshold: Int32?) {
        self.touch = touch
        self.palmThreshold = palmThreshold
    }

    /// What libinput uses on `description` read as `kind`, given what its quirks say:
    /// `pressureRange` (`AttrPressureRange=high:low`; 0:0 turns detection off), `palmThreshold`
    /// (`AttrPalmPressureThreshold`; 0 turns it off, as in libinput 1.31), `touchSizeRange`
    /// (`AttrTouchSizeRange` applies: libinput then detects touches by size, not pressure), and
    /// whether the pad is external (libinput detects no palm on an external pad). nil when it
    /// uses neither.
    ///
    /// Without a quirk the thresholds come from the axis, as "approximately the synaptics
    /// defaults": high = minimum + 0.12 × range, low = minimum + 0.10 × range (truncated, as C
    /// assigns them to an int). A quirk's range outside the axis is discarded, and so is
    /// detection. A pressure axis with a resolution (or INPUT_PROP_PRESSUREPAD) is a force, not
    /// a contact size: libinput then reads no pressure at all.
    public static func libinput(for description: DeviceDescription, kind: DeviceKind,
                                pressureRange: (high: Int32, low: Int32)? = nil, palmThreshold: Int32? = nil,
                                touchSizeRange: Bool = false, isExternal: Bool = false) -> TouchPressure? {
        guard kind == .touchpad else { return nil }
        let mtPressure = description.absoluteAxes[EventCode.absMTPressure]
        if description.properties.contains(Self.propPressurePad) || (mtPressure?.resolution ?? 0) != 0 { return nil }
        // libinput reads a semi-MT pad as a single-touch one (`tp_init_slots`), and protocol A
        // through mtdev, which gives it slots.
        let multitouch = (description.slotCount > 0 && !description.isSemiMultitouch) || description.usesProtocolA
        let axisCode = multitouch ? EventCode.absMTPressure : EventCode.absPressure
        var touch: Thresholds?
        if !touchSizeRange, let axis = description.absoluteAxes[axisCode] {
            let high: Int64, low: Int64
            if let pressureRange {
                (high, low) = (Int64(pressureRange.high), Int64(pressureRange.low))
            } else {
                let range = Double(Int64(axis.maximum) - Int64(axis.minimum))
                high = Int64((Double(axis.minimum) + 0.12 * range).rounded(.towardZero))
                low = Int64((Double(axis.minimum) + 0.10 * range).rounded(.towardZero))
            }
            let bounds = Int64(axis.minimum)...Int64(axis.maximum)
            let off = pressureRange.map { $0.high == 0 && $0.low == 0 } ?? false
            if !off && bounds.contains(high) && bounds.contains(low) {
                touch = Thresholds(axis: axisCode, high: Int32(high), low: Int32(low))
            }
        }
        var palm: Int32?
        if multitouch && mtPressure != nil && !isExternal {
            let threshold = palmThreshold ?? Self.defaultPalmThreshold
            palm = threshold != 0 ? threshold : nil
        }
        guard touch != nil || palm != nil else { return nil }
        return TouchPressure(touch: touch, palmThreshold: palm)
    }

    /// INPUT_PROP_PRESSUREPAD (Linux 6.2).
    static let propPressurePad: UInt16 = 0x07
}

/// What one frame (all events up to SYN_REPORT) says about the fingers on a device.
public struct FrameSummary: Hashable, Sendable {
    /// When the frame was reported.
    public var time: Instant
    /// Fingers on the device: tracked contacts that touch (not palms, not hovering), or more
    /// when BTN_TOOL_* counts more than the contacts can hold.
    public var fingerCount: Int
    /// Mean motion of the contacts present in this frame and the previous one, millimetres.
    public var translation: Vector
    /// True when a contact appeared that was not there in the previous frame.
    public var newTouch: Bool
    /// True when what the frame says about the fingers is unreliable: it follows SYN_DROPPED,
    /// or it contradicts itself (every key up while slots still hold contacts: the input core
    /// releasing the keys of a device being removed). A gesture in progress is abandoned.
    public var resynchronized: Bool
    /// Since the frame where the finger count last changed (the gesture's fingers all landed),
    /// over the contacts present then and now: how far they moved together (length of the mean
    /// displacement, mm).
    public var togetherMillimetres: Double
    /// Over the same contacts: how far they moved apart from that common motion (mean distance
    /// of each displacement from the mean, mm; pinch, spread, rotation).
    public var apartMillimetres: Double
    /// True when every contact there in the last frame and this one jumped (a touchpad's firmware
    /// reporting it far from where it is: `ContactTracker.jumpGrowthMillimetres`): the frame says
    /// nothing of their motion (`translation` is zero), and the next frame's translation covers
    /// this one's too.
    public var motionDropped = false
}

/// Turns a device's raw events into frames of contacts (positions in millimetres).
///
/// Handles multitouch protocol B (slots), protocol A (SYN_MT_REPORT), single-touch pads,
/// semi-MT pads (bounding box) and pads with fewer slots than fingers (BTN_TOOL_*TAP).
/// Storage is allocated once; handling an event never allocates.
public struct ContactTracker {
    /// How the device reports contacts.
    public let contactProtocol: ContactProtocol
    /// Millimetre scale of the device's axes.
    public private(set) var geometry: DeviceGeometry
    private let origin: (x: Int32, y: Int32)
    private let isSemiMultitouch: Bool
    /// Fingers the contacts can report: BTN_TOOL_* adds fingers only beyond this many (see
    /// `finishFrame`).
    private let contactCapacity: Int

    private var contacts: [Contact]
    private var previous: [Contact]
    private var slot = 0
    private var nextIdentity: UInt32 = 1
    /// BTN_TOOL_FINGER...QUINTTAP state as a bit set (bit n-1 = n fingers).
    private var toolBits: UInt8 = 0
    private var previousToolCount = 0
    private var touchKeyDown = false
    /// Some devices declare BTN_TOUCH and never send it; it only counts once it has been seen.
    private var touchKeyUsed = false
    // Protocol A: the contact being described before its SYN_MT_REPORT, and the frame's count.
    private var staged = Contact()
    private var stagedHasPosition = false
    private var stagedCount = 0
    /// Protocol A: the frame had a SYN_MT_REPORT (an empty one says no contacts are left).
    private var reportedContacts = false
    private var dropped = false
    private var baseline: [Contact]
    /// Protocol A: where a frame's contacts are put in order of the last frame's, by tracking id
    /// or by position.
    private var arranged: [Contact]
    /// Protocol A without tracking ids: pairs a frame's contacts with the last frame's.
    private var matcher: ContactMatcher
    /// When the last frame's contact positions were reported, for how far a contact can have
    /// moved since.
    private var previousFrameTime: Instant?
    /// Protocol A without tracking ids: each place's contact's velocity over the last two frames
    /// that listed it (mm/s; zero for one that just landed), for where it will be next.
    private var velocities: [Vector]
    /// Protocol A: events were lost since the contacts were last listed (SYN_DROPPED, contacts
    /// kept over the resynchronisation), so where they went is unknown until a frame lists them.
    private var contactsUnverified = false
    /// Touch jumps are dropped (touchpads: libinput checks only those).
    private var filtersJumps: Bool
    /// Each place's contact's motion, for the jump filter and for `baselinePositions`.
    private var motions: [ContactMotion]
    /// `motions`' positions when `markBaseline()` last ran.
    private var baselinePositions: [Vector]
    /// How pressure tells touches and palms (touchpads); nil: it does not.
    public let touchPressure: TouchPressure?
    /// ABS_PRESSURE: the pressure of a single-touch or semi-MT pad's one touch.
    private var singlePressure: Int32 = 0
    /// Single-touch and semi-MT pads read by pressure: the touch has pressed hard enough, and
    /// not let up below the low threshold since.
    private var singleTouchPressed = false

    /// Touch jumps (touchpads only): a contact's step, normalised to `jumpReferenceInterval`,
    /// this much (mm) longer than its last one is not finger motion (a finger does not gain
    /// 583 mm/s in one 12 ms frame) but the firmware reporting the contact elsewhere for a frame
    /// (ALPS pads sending 4095/0; what libinput logs as "Touch jump detected and discarded"):
    /// its motion in that frame is dropped. libinput's `tp_detect_jumps` rule and figure.
    /// libinput also takes any step over 20 mm per 12 ms (1667 mm/s) for a jump; flickd does not:
    /// flicks that fast are real (`coast.max_speed` may be set above it), and a jump from a
    /// steady motion is a sudden growth all the same.
    public static let jumpGrowthMillimetres = 7.0
    /// Touch jumps: the frame interval steps are normalised to (libinput measured its figures on
    /// a touchpad reporting every 12 ms).
    public static let jumpReferenceInterval = Duration.milliseconds(12)
    /// Touch jumps: frames further apart than this (2.5 reference intervals) are irregular, and
    /// their steps are not checked (nothing tells a jump from motion over such a gap).
    public static let jumpLongestInterval = Duration(microseconds: 30_000)

    /// Largest number of contacts tracked at once on unslotted devices.
    public static let unslottedCapacity = 10

    /// Protocol A without tracking ids: the largest change of a finger's velocity from one frame to
    /// the next taken for the same finger, mm/s. A contact of the last frame farther from one of this
    /// frame than this speed covers in the time between them (plus `contactSlackMillimetres`),
    /// counted from where it was or where its last velocity would have taken it, whichever is
    /// nearer, is not the same finger: the one lifted and the other landed. A finger flicking at
    /// 4 m/s moves on; a finger landing 40 mm from a resting one as it lifts is a landing where
    /// frames come less than 11.7 ms apart (at 60 Hz the gate is 55 mm: it reads as a move).
    public static let fastestContactMillimetresPerSecond = 3000.0
    /// Protocol A without tracking ids: distance a contact may be from its place in the last frame
    /// whatever the time between them (sensor noise, a centroid shifting as a finger rolls), mm.
    public static let contactSlackMillimetres = 5.0
    /// Protocol A without tracking ids: the longest time between frames that widens how far a
    /// contact may have moved. Fingers down are reported every few milliseconds; a longer gap
    /// (contacts kept over a resynchronisation) must not let any landing pass for a finger that
    /// was there before.
    public static let longestContactGap = Duration.milliseconds(50)
    /// Protocol A without tracking ids: the shortest time between two frames over which a
    /// contact's velocity is measured for where it goes next.
    public static let shortestVelocitySpan = Duration.milliseconds(4)

    /// A tracker for `description`, reading it as a device of `kind`. `currentSlot` is the
    /// slot the kernel's next MT event goes to when no ABS_MT_SLOT comes first (the kernel
    /// sends one only when the slot changes): libevdev's current slot when the device was
    /// opened, or the last ABS_MT_SLOT read since. `slotsAtOpen`: what each slot held then
    /// (libevdev's state), so that a contact already down counts (as a finger down before, not
    /// a new touch), and a contact landing later whose position or tool type equals the slot's
    /// last (the kernel sends no event for it) is read where, and as what, it is.
    ///
    /// `touchPressure`: how the device tells touches by pressure (`TouchPressure.libinput`); nil:
    /// every contact the device reports touches.
    public init(description: DeviceDescription, kind: DeviceKind, resolutionOverride: Double? = nil, currentSlot: Int = 0,
                slotsAtOpen: [SlotAtOpen] = [], touchPressure: TouchPressure? = nil) {
        self.touchPressure = touchPressure
        geometry = DeviceGeometry(description: description, kind: kind, resolutionOverride: resolutionOverride)
        let slots = description.slotCount
        if slots > 0 {
            contactProtocol = .slotted(slots: slots)
        } else if description.usesProtocolA {
            contactProtocol = .unslotted
        } else {
            contactProtocol = .singleTouch
        }
        let xAxis = description.absoluteAxes[EventCode.absMTPositionX] ?? description.absoluteAxes[EventCode.absX]
        let yAxis = description.absoluteAxes[EventCode.absMTPositionY] ?? description.absoluteAxes[EventCode.absY]
        origin = (xAxis?.minimum ?? 0, yAxis?.minimum ?? 0)
        isSemiMultitouch = description.isSemiMultitouch
        let capacity: Int
        switch contactProtocol {
        case .slotted(let n): capacity = n
        case .unslotted: capacity = Self.unslottedCapacity
        case .singleTouch: capacity = 1
        }
        switch contactProtocol {
        // Semi-MT slots are a bounding box: the keys say how many fingers (libinput too reads
        // semi-MT pads as single-touch ones with BTN_TOOL_*).
        case .slotted(let n): contactCapacity = description.isSemiMultitouch ? 1 : n
        // A protocol A frame without contacts listed (a key alone) must not lift the fingers the
        // keys still count; these drivers set the keys themselves, from the contacts they list.
        case .unslotted: contactCapacity = 0
        case .singleTouch: contactCapacity = 1
        }
        contacts = Array(repeating: Contact(), count: capacity)
        filtersJumps = kind == .touchpad
        motions = Array(repeating: ContactMotion(), count: capacity)
        baselinePositions = Array(repeating: .zero, count: capacity)
        if case .slotted = contactProtocol, contacts.indices.contains(currentSlot) { slot = currentSlot }
        previous = contacts
        baseline = contacts
        arranged = contacts
        matcher = ContactMatcher(capacity: contactProtocol == .unslotted ? capacity : 0)
        velocities = Array(repeating: .zero, count: contactProtocol == .unslotted ? capacity : 0)
        guard case .slotted = contactProtocol, !slotsAtOpen.isEmpty else { return }
        for (i, held) in zip(contacts.indices, slotsAtOpen) {
            contacts[i].active = held.trackingID >= 0
            contacts[i].x = held.x
            contacts[i].y = held.y
            contacts[i].isPalm = held.toolType == EventCode.mtToolPalm
            contacts[i].isHovering = held.distance > 0
            contacts[i].pressure = held.pressure
            // libinput begins a touch down at open as any other: by its pressure.
            if let touch = touchPressure?.touch, touch.axis == EventCode.absMTPressure {
                contacts[i].isLight = held.pressure < touch.high
            }
            if let palm = touchPressure?.palmThreshold { contacts[i].isPressurePalm = held.pressure > palm }
            if contacts[i].active { contacts[i].identity = newIdentity() }
            previous[i] = contacts[i]
        }
        // Contacts down at open are fingers down before the first frame: matched in it, never
        // new touches (a gesture under way at open is the engine's to leave unread: it abandons
        // the gesture of a tracker that starts with fingers down).
        for i in contacts.indices where contacts[i].touches {
            motions[i].position = millimetres(contacts[i])
            previousFingerCount += 1
        }
        markBaseline()
    }

    /// Reads the same device with a new resolution override from now on, keeping what it
    /// knows of the kernel's state: the current slot, the contacts and their tool types, the keys.
    /// (A new tracker would take slot 0 as current, while the kernel sends no ABS_MT_SLOT until
    /// the slot changes; and it would read a palm landing again, with no tool type event, as a finger.)
    mutating func rescale(description: DeviceDescription, kind: DeviceKind, resolutionOverride: Double?) {
        geometry = DeviceGeometry(description: description, kind: kind, resolutionOverride: resolutionOverride)
        filtersJumps = kind == .touchpad
    }

    /// How many fingers the last frame had down.
    var fingerCount: Int { previousFingerCount }

    /// The slot the device's next MT event goes to unless an ABS_MT_SLOT comes first.
    var currentSlot: Int { slot }

    /// Fingers BTN_TOOL_* announces (0 when none of them is down).
    private var toolCount: Int {
        toolBits == 0 ? 0 : 8 - toolBits.leadingZeroBitCount
    }

    /// Feeds one event; returns a summary when the event completes a frame (SYN_REPORT).
    public mutating func handle(_ event: InputEvent, at time: Instant) -> FrameSummary? {
        switch event.type {
        case EventCode.absolute:
            handleAbsolute(event)
        case EventCode.key:
            handleKey(event)
        case EventCode.synchronization:
            switch event.code {
            case EventCode.synReport:
                return finishFrame(at: time)
            case EventCode.synMTReport:
                commitStagedContact()
            case EventCode.synDropped:
                dropped = true
                // Protocol A: a frame cut short by the lost events lists only some contacts.
                staged = Contact()
                stagedHasPosition = false
                stagedCount = 0
                reportedContacts = false
            default:
                break
            }
        default:
            break
        }
        return nil
    }

    private mutating func newIdentity() -> UInt32 {
        nextIdentity &+= 1
        return nextIdentity
    }

    private mutating func handleAbsolute(_ event: InputEvent) {
        switch (contactProtocol, event.code) {
        case (.slotted, EventCode.absMTSlot):
            slot = Int(event.value)
        case (.slotted, EventCode.absMTTrackingID):
            guard contacts.indices.contains(slot) else { return }
            if event.value < 0 {
                contacts[slot].active = false
            } else {
                // The tool type is the slot's, not the touch's: it stays (a palm landing again
                // in its slot sends no MT_TOOL_PALM: the input core drops an unchanged value).
                contacts[slot].active = true
                contacts[slot].identity = newIdentity()
            }
        case (.slotted, EventCode.absMTPositionX):
            if contacts.indices.contains(slot) { contacts[slot].x = event.value }
        case (.slotted, EventCode.absMTPositionY):
            if contacts.indices.contains(slot) { contacts[slot].y = event.value }
        case (.slotted, EventCode.absMTToolType):
            if contacts.indices.contains(slot) { contacts[slot].isPalm = event.value == EventCode.mtToolPalm }
        case (.slotted, EventCode.absMTDistance):
            // Like the tool type, the slot's: the input core drops an unchanged value.
            if contacts.indices.contains(slot) { contacts[slot].isHovering = event.value > 0 }
        case (.slotted, EventCode.absMTPressure):
            if contacts.indices.contains(slot) { contacts[slot].pressure = event.value }
        case (.unslotted, EventCode.absMTPressure):
            staged.pressure = event.value
        case (.unslotted, EventCode.absMTPositionX):
            staged.x = event.value
            stagedHasPosition = true
        case (.unslotted, EventCode.absMTPositionY):
            staged.y = event.value
            stagedHasPosition = true
        case (.unslotted, EventCode.absMTTrackingID):
            // Protocol A tracking ids are optional; when present they name the contact.
            staged.identity = UInt32(truncatingIfNeeded: event.value) &+ 0x8000_0000
        case (.unslotted, EventCode.absMTToolType):
            staged.isPalm = event.value == EventCode.mtToolPalm
        case (.unslotted, EventCode.absMTDistance):
            staged.isHovering = event.value > 0
        case (.singleTouch, EventCode.absX):
            contacts[0].x = event.value
        case (.singleTouch, EventCode.absY):
            contacts[0].y = event.value
        case (_, EventCode.absPressure):
            singlePressure = event.value
        default:
            break
        }
    }

    private mutating func handleKey(_ event: InputEvent) {
        let bit: UInt8
        switch event.code {
        case EventCode.touch:
            touchKeyDown = event.value != 0
            touchKeyUsed = true
            return
        case EventCode.toolFinger: bit = 1
        case EventCode.toolDoubleTap: bit = 2
        case EventCode.toolTripleTap: bit = 4
        case EventCode.toolQuadTap: bit = 8
        case EventCode.toolQuintTap: bit = 16
        default: return
        }
        if event.value != 0 { toolBits |= bit } else { toolBits &= ~bit }
    }

    private mutating func commitStagedContact() {
        defer {
            staged = Contact()
            stagedHasPosition = false
        }
        reportedContacts = true
        guard stagedHasPosition, stagedCount < contacts.count else { return }
        var contact = staged
        contact.active = true
        // Without a tracking id (identity 0) the contact is matched by its position, when the
        // frame is done.
        contacts[stagedCount] = contact
        stagedCount += 1
    }

    private mutating func finishFrame(at time: Instant) -> FrameSummary {
        // Protocol A: the contacts were not reported in this frame but kept from the last one.
        var keptContacts = false
        switch contactProtocol {
        case .unslotted:
            if dropped && !reportedContacts {
                // libevdev's resynchronisation replays no MT state for a device without slots
                // (only ABS_X/ABS_Y and keys, no SYN_MT_REPORT): this frame says nothing of the
                // contacts, so they stay as they were (the frame is flagged all the same) rather
                // than all lifting (mtdev too leaves its contacts alone on a frame without MT
                // events). Only a BTN_TOUCH seen up says they lifted while the events were lost.
                // The next frame that lists them pairs only a contact still within the slack of
                // its place: a finger that moved on while events were lost reads as a new touch
                // (nothing tells it from one that lifted and landed).
                let lifted = touchKeyUsed && !touchKeyDown
                keptContacts = !lifted
                contactsUnverified = !lifted
                for i in contacts.indices {
                    contacts[i] = previous[i]
                    if lifted { contacts[i].active = false }
                }
            } else {
                // A protocol A frame lists every contact; a frame without any lists none.
                for i in stagedCount..<contacts.count { contacts[i].active = false }
                if contacts[0..<stagedCount].contains(where: { $0.identity != 0 }) {
                    // Tracking ids name the contacts, in whatever order the frame lists them.
                    arrangeByTrackingID()
                } else {
                    // Without them, where the contacts are says which is which.
                    arrangeByPosition(at: time)
                }
                contactsUnverified = false
            }
            stagedCount = 0
            reportedContacts = false
        case .singleTouch:
            let down = touchKeyUsed ? touchKeyDown : toolBits != 0
            if down && !contacts[0].active { contacts[0].identity = newIdentity() }
            contacts[0].active = down
        case .slotted:
            break
        }

        var tools = toolCount
        if touchKeyUsed && !touchKeyDown { tools = 0 }
        applyPressure(tools: tools)
        // When the announced finger count changes on a bounding-box or single-position device,
        // its reported positions change meaning: motion across that frame is not finger motion.
        let rebased = tools != previousToolCount && (isSemiMultitouch || contactProtocol == .singleTouch)
        if rebased {
            for i in contacts.indices where contacts[i].active { contacts[i].identity = newIdentity() }
        }

        var tracked = 0
        var newTouch = false
        var sum = Vector.zero
        var matched = 0
        var jumped = 0
        let interval = previousFrameTime.map { time - $0 } ?? .zero
        for i in contacts.indices {
            let now = contacts[i]
            guard now.touches else { continue }
            tracked += 1
            let before = previous[i]
            // A contact that hovered and touches again is a new touch, as in libinput.
            if before.touches && before.identity == now.identity {
                if let step = step(ofContactAt: i, to: millimetres(now), from: millimetres(before),
                                   moved: now.x != before.x || now.y != before.y, over: interval, at: time) {
                    sum = sum + step
                    matched += 1
                } else {
                    jumped += 1
                }
            } else {
                motions[i] = ContactMotion(position: millimetres(now), lastChange: time)
                if !rebased { newTouch = true }
            }
        }
        let motionDropped = matched == 0 && jumped > 0
        if jumped > 0 && matched > 0 {
            // The contacts still held were left out of this frame's mean motion: the others'
            // motion stands for theirs up to now.
            for i in contacts.indices where contacts[i].touches && motions[i].heldPosition != nil {
                motions[i].coveredUntil = time
            }
        }
        // The kernel's pointer emulation (input_mt_report_pointer_emulation) counts every slot
        // with a tracking id in BTN_TOOL_*, palms and hovering contacts included. As libinput
        // does, the keys only add fingers the contacts cannot hold (a pad with two slots and
        // BTN_TOOL_TRIPLETAP); otherwise the contacts that touch are the fingers.
        let toolsCount = tools > contactCapacity
        var fingers = toolsCount ? max(tracked, tools) : tracked
        // More fingers than contacts on a pad read by pressure: libinput takes them all to press
        // hard enough while one contact does, and none while none does (`tp_unhover_pressure`).
        if toolsCount && tracked == 0 && touchPressure?.touch != nil { fingers = 0 }
        if touchKeyUsed && !touchKeyDown && contactProtocol != .unslotted { fingers = 0 }
        // BTN_TOUCH and every BTN_TOOL_* up while slots still hold contacts: drivers derive these
        // keys from the slots in the same frame (input_mt_report_pointer_emulation), so this is
        // the input core releasing the keys of a device being unplugged (input_dev_release_keys),
        // an RCU grace period before its node reports ENODEV. The fingers did not lift: a scroll
        // in progress must not coast on it.
        var slotted = false
        if case .slotted = contactProtocol { slotted = true }
        // The raw tool keys, not `tools` (zeroed when BTN_TOUCH is up): a hovering finger keeps
        // BTN_TOOL_FINGER down and its slot while BTN_TOUCH goes up, and that is a real lift.
        let keysReleasedUnderContacts = slotted && tracked > 0 && toolBits == 0 && fingers == 0 && previousFingerCount > 0
        if toolsCount && tools > previousToolCount && previousToolCount > 0 { newTouch = true }
        if fingers > 0 && previousFingerCount == 0 { newTouch = true }

        let motion = motionSinceBaseline()
        let summary = FrameSummary(
            time: time, fingerCount: fingers,
            translation: matched > 0 ? sum / Double(matched) : .zero,
            newTouch: newTouch, resynchronized: dropped || keysReleasedUnderContacts,
            togetherMillimetres: motion.together, apartMillimetres: motion.apart,
            motionDropped: motionDropped)
        // A gesture's fingers land in a frame where the count changes: the next frames' motion
        // is measured from there. A resynchronisation's frame may replace every contact with the
        // count unchanged (fingers lifted and landed again while events were lost, libevdev's
        // delta handed on as one frame): measured from the old contacts, the new ones would
        // never move. A finger landing as another lifts (the count unchanged) starts a gesture
        // afresh too (`GestureRecognizer`).
        if fingers != previousFingerCount || dropped || newTouch { markBaseline() }
        dropped = false
        previousToolCount = tools
        previousFingerCount = fingers
        for i in contacts.indices { previous[i] = contacts[i] }
        // Contacts kept over a resynchronisation are where they were when last reported: how far
        // they can have moved is counted from then.
        if !keptContacts { previousFrameTime = time }
        return summary
    }

    private var previousFingerCount = 0

    /// Marks which contacts touch by their pressure, and which are palms by it
    /// (`TouchPressure`), as libinput's `tp_unhover_pressure` and `tp_palm_detect` do each frame:
    ///
    ///     light contact:    touches once pressure ≥ high
    ///     touching contact: light again once pressure < low
    ///     any contact:      a palm, until it lifts, once pressure > palm threshold
    ///
    /// A contact that landed (a new tracking id, or a protocol A contact not in the last frame)
    /// starts light. With more fingers announced (BTN_TOOL_*) than a pad's several slots hold,
    /// libinput ends no touch by pressure: the slots' contacts stand for fingers whose pressure it
    /// does not know. Single-touch and semi-MT pads have one touch, by ABS_PRESSURE.
    private mutating func applyPressure(tools: Int) {
        guard let touchPressure else { return }
        if let touch = touchPressure.touch {
            if touch.axis == EventCode.absPressure {
                let any = contacts.contains { $0.active }
                if !any {
                    singleTouchPressed = false
                } else if !singleTouchPressed {
                    singleTouchPressed = singlePressure >= touch.high
                } else if singlePressure < touch.low {
                    singleTouchPressed = false
                }
                for i in contacts.indices { contacts[i].isLight = !singleTouchPressed }
            } else {
                let overflow = tools > contactCapacity && contactCapacity > 1
                for i in contacts.indices where contacts[i].active {
                    let same = previous[i].active && previous[i].identity == contacts[i].identity
                    var light = same ? previous[i].isLight : true
                    if light {
                        if contacts[i].pressure >= touch.high { light = false }
                    } else if !overflow && contacts[i].pressure < touch.low {
                        light = true
                    }
                    contacts[i].isLight = light
                }
                // libinput then begins every light touch while one touches: the fingers beyond
                // the slots are taken to press as hard as the one that does.
                if overflow && contacts.contains(where: { $0.active && !$0.isLight }) {
                    for i in contacts.indices where contacts[i].active { contacts[i].isLight = false }
                }
            }
        }
        if let palm = touchPressure.palmThreshold {
            for i in contacts.indices where contacts[i].active {
                let same = previous[i].active && previous[i].identity == contacts[i].identity
                contacts[i].isPressurePalm = (same && previous[i].isPressurePalm) || contacts[i].pressure > palm
            }
        }
    }

    /// Protocol A with tracking ids: puts each of the frame's `stagedCount` contacts where the
    /// last frame had the contact of the same id, so that motion, touches and lifts are read per
    /// contact however the frame orders them (it need not keep an order); a contact with an id
    /// not seen in the last frame, or with none, takes a free place and is a new touch.
    private mutating func arrangeByTrackingID() {
        // Ids name the contacts: no velocity read by position carries over.
        for j in velocities.indices { velocities[j] = .zero }
        var taken: UInt32 = 0  // places of `arranged` filled (capacity <= 32)
        var placed: UInt32 = 0  // contacts of the frame put in their last frame's place
        for i in 0..<stagedCount where contacts[i].identity != 0 {
            for j in previous.indices where taken & (1 << j) == 0
                && previous[j].active && previous[j].identity == contacts[i].identity {
                arranged[j] = contacts[i]
                taken |= 1 << j
                placed |= 1 << i
                break
            }
        }
        placeTheRest(taken: taken, placed: placed)
    }

    /// Protocol A without tracking ids: pairs each of the frame's `stagedCount` contacts with a
    /// contact of the last frame, as mtdev (which libinput reads protocol A devices through) does,
    /// and puts it in that contact's place, as the same finger. The pairing is the one with the
    /// least total squared distance from where each contact of the last frame was or was headed,
    /// whichever is nearer,
    ///
    ///     expected(j) = before(j) + velocity(j) × min(Δt, longestContactGap)
    ///     d(i, j) = min(|now(i) − before(j)|, |now(i) − expected(j)|)
    ///     minimise  Σ d(i, pair(i))²  over pairings with the most pairs,
    ///
    /// (velocity: over the last two consecutive frames that listed the contact, when they are
    /// at least `shortestVelocitySpan` apart, else the one before is kept; zero for one that
    /// just landed, or when Δt > longestContactGap), where no pair is farther apart than a finger's velocity can change
    /// between the two frames:
    ///
    ///     gate = fastestContactMillimetresPerSecond × min(Δt, longestContactGap) + contactSlackMillimetres
    ///
    /// (mtdev has no such gate; without it a finger lifting as another lands elsewhere in the same
    /// frame reads as one finger jumping there). After lost events (SYN_DROPPED) the first frame
    /// that lists the contacts is paired with no velocity and a gate of the slack alone: only a
    /// contact still where it was is the same finger. A contact paired with none is a finger that
    /// landed; a contact of the last frame left unpaired lifted, and those that stay keep their
    /// identity, and their motion, whatever order the frame lists them in.
    private mutating func arrangeByPosition(at time: Instant) {
        var columns = 0
        for j in previous.indices where previous[j].active {
            matcher.places[columns] = j
            columns += 1
        }
        let rows = stagedCount
        let size = max(rows, columns)
        guard rows > 0 && columns > 0 else {
            // All lifted, or all landed: no contact has a velocity yet.
            placeTheRest(taken: 0, placed: 0)
            for j in velocities.indices { velocities[j] = .zero }
            return
        }
        let elapsed = max(previousFrameTime.map { time - $0 } ?? .zero, .zero)
        let interval = min(elapsed, Self.longestContactGap)
        // After lost events the contacts may have gone anywhere, lifted and landed: only one that
        // is still where it was listed last is the same finger.
        let verified = !dropped && !contactsUnverified
        // A velocity says where a contact goes next only over a frame's time (a device may stop
        // reporting contacts that rest, and one that moved fast may have stopped since).
        let predicting = verified && elapsed <= Self.longestContactGap
        let gate = verified ? Self.fastestContactMillimetresPerSecond * interval.seconds + Self.contactSlackMillimetres
                            : Self.contactSlackMillimetres
        let gateSquared = gate * gate
        // Leaving a contact unpaired (or pairing it past the gate) costs more than any pairing
        // within the gate: the pairing with the most pairs wins, then the nearest.
        let unpaired = Double(size) * gateSquared + 1
        for row in 0..<size {
            for column in 0..<size {
                var cost = unpaired
                if row < rows && column < columns {
                    // The nearer of where the contact was and where it was headed: a velocity read
                    // wrong (noise over a short interval, a pairing that was a lift and a landing)
                    // never refuses a finger that stayed.
                    let j = matcher.places[column]
                    let now = millimetres(contacts[row]), before = millimetres(previous[j])
                    let still = now - before
                    var squared = still.x * still.x + still.y * still.y
                    if predicting {
                        let headed = now - (before + velocities[j] * interval.seconds)
                        squared = min(squared, headed.x * headed.x + headed.y * headed.y)
                    }
                    if squared <= gateSquared { cost = squared }
                }
                matcher.setCost(cost, row: row, column: column)
            }
        }
        var taken: UInt32 = 0
        var placed: UInt32 = 0
        // A pairing that cannot be solved (a cost not finite: never with a valid geometry) pairs
        // nothing: every contact reads as landing.
        let solved = matcher.solve(size: size)
        for row in 0..<rows where solved {
            let column = matcher.columnOfRow[row]
            guard column < columns && matcher.cost(row: row, column: column) < unpaired else { continue }
            let j = matcher.places[column]
            arranged[j] = contacts[row]
            arranged[j].identity = previous[j].identity
            taken |= 1 << j
            placed |= 1 << row
        }
        placeTheRest(taken: taken, placed: placed)
        // Each contact's velocity since the last frame, for the next frame's pairing; none for
        // one that landed, or across lost events. Over less than `shortestVelocitySpan` (a frame
        // repeated at once) noise would make a velocity of anything: the last one stays.
        for j in velocities.indices {
            guard predicting && taken & (1 << j) != 0 && previous[j].active && contacts[j].identity == previous[j].identity else {
                velocities[j] = .zero
                continue
            }
            if interval >= Self.shortestVelocitySpan {
                velocities[j] = (millimetres(contacts[j]) - millimetres(previous[j])) / interval.seconds
            }
        }
    }

    /// Protocol A: after the contacts of the frame that are the last frame's (`placed`) were put in
    /// their places of `arranged` (`taken`), puts the others in free places as new contacts, and
    /// makes `arranged` the frame's contacts.
    private mutating func placeTheRest(taken: UInt32, placed: UInt32) {
        var taken = taken
        var free = 0
        for i in 0..<stagedCount where placed & (1 << i) == 0 {
            while taken & (1 << free) != 0 { free += 1 }
            arranged[free] = contacts[i]
            if arranged[free].identity == 0 { arranged[free].identity = newIdentity() }
            taken |= 1 << free
        }
        for j in contacts.indices {
            contacts[j] = arranged[j]
            contacts[j].active = taken & (1 << j) != 0
        }
    }

    private func millimetres(_ c: Contact) -> Vector {
        Vector(x: Double(Int64(c.x) - Int64(origin.x)) / geometry.x.unitsPerMillimetre,
               y: Double(Int64(c.y) - Int64(origin.y)) / geometry.y.unitsPerMillimetre)
    }

    /// The motion (mm) of the contact at place `i` from `before` (the last frame, `interval`
    /// ago) to `now` (`moved`: its position changed); nil when the step is a touch jump, dropped.
    ///
    /// libinput's rule (`tp_detect_jumps`), on touchpads: with the step normalised to a 12 ms
    /// frame,
    ///
    ///     s = |now − before| × 12 ms / (time since the contact's position last changed)
    ///     jump when s − s_last > 7 mm   (s_last: the contact's last s, jump or not)
    ///
    /// judged, as in libinput, only when the contact moved: a frame where it did not (a pad
    /// reporting positions every other frame, a button's frame) is no step of 0 mm that would
    /// make the next real one a jump. Unchecked when the frames are 0 or more than 30 ms apart
    /// (irregular frames); a contact still for longer than that is measured over the last frame
    /// (its motion starts there: a jump after a rest is still a jump). libinput's other rule,
    /// s > 20 mm, is left out (`jumpGrowthMillimetres`).
    ///
    /// Where libinput then measures the next step from the jumped position (a jump out and back
    /// reads as a jump and a move back), the step after a jump is also measured from where the
    /// contact was before it, and taken unless it grows more than the jump threshold over both
    /// the step before the jump and the step from the jumped spot: out and back is no motion
    /// (the step from the jumped spot is the long way back); motion fast enough to look like a
    /// jump (a finger landing at speed) is counted in full, a frame late, even when rounding
    /// and uneven frame times make it a hair faster than the step from the jumped spot; and a
    /// finger that really went there and stays (a step of 0 from there) moves on from there.
    /// A held contact that did not move, or a frame read with the jump's own time (or earlier),
    /// keeps the hold and adds no motion. A contact measured from before its jump adds to the
    /// frame's mean motion only its share since the others' motion last stood for it
    /// (`ContactMotion.coveredUntil`): all of it when every contact jumped.
    private mutating func step(ofContactAt i: Int, to now: Vector, from before: Vector, moved: Bool,
                               over interval: Duration, at time: Instant) -> Vector? {
        var motion = motions[i]
        defer { motions[i] = motion }
        let held = motion.heldPosition
        guard moved else { return held == nil ? .zero : nil }
        if held != nil && interval <= .zero { return nil }
        let sinceChange = time - motion.lastChange
        let span = sinceChange <= Self.jumpLongestInterval ? sinceChange : interval
        motion.lastChange = time
        let step = now - before
        let checked = filtersJumps && !dropped && interval > .zero && interval <= Self.jumpLongestInterval
            && span > .zero
        guard checked else {
            motion.heldPosition = nil
            motion.position = motion.position + step
            return step
        }
        let reference = Self.jumpReferenceInterval.seconds
        let normalized = step.length * reference / span.seconds
        if let held {
            let fromHeld = now - held
            let heldSpan = time - motion.heldTime
            let normalizedFromHeld = fromHeld.length * reference / heldSpan.seconds
            if normalizedFromHeld - max(motion.heldStep, normalized) <= Self.jumpGrowthMillimetres {
                motion.heldPosition = nil
                motion.normalizedStep = normalizedFromHeld
                motion.position = motion.position + fromHeld
                return fromHeld * ((time - motion.coveredUntil).seconds / heldSpan.seconds)
            }
        }
        let isJump = normalized - motion.normalizedStep > Self.jumpGrowthMillimetres
        if isJump {
            if held == nil {
                motion.heldPosition = before
                motion.heldTime = time - span
                motion.heldStep = motion.normalizedStep
                motion.coveredUntil = motion.heldTime
            }
            motion.normalizedStep = normalized
            return nil
        }
        motion.normalizedStep = normalized
        motion.heldPosition = nil
        motion.position = motion.position + step
        return step
    }

    /// Remembers where each contact is now, to measure how they move relative to each other.
    private mutating func markBaseline() {
        for i in contacts.indices {
            baseline[i] = contacts[i]
            baselinePositions[i] = motions[i].position
        }
    }

    /// Since `markBaseline()`, over the contacts still present: how far they moved together
    /// (length of the mean displacement, mm) and how far they moved apart from that common
    /// motion (mean distance of each displacement from the mean, mm; pinch, spread, rotation).
    /// Touch jumps dropped are not motion: a glitch is neither a scroll nor a pinch.
    private func motionSinceBaseline() -> (together: Double, apart: Double) {
        var sum = Vector.zero
        var n = 0
        for i in contacts.indices where isSameContact(i) {
            sum = sum + motions[i].position - baselinePositions[i]
            n += 1
        }
        guard n > 0 else { return (0, 0) }
        let mean = sum / Double(n)
        var apart = 0.0
        for i in contacts.indices where isSameContact(i) {
            apart += (motions[i].position - baselinePositions[i] - mean).length
        }
        return (mean.length, apart / Double(n))
    }

    private func isSameContact(_ i: Int) -> Bool {
        contacts[i].touches && baseline[i].touches && baseline[i].identity == contacts[i].identity
    }
}

/// Minimum-cost assignment between the rows and columns of a square cost matrix of up to
/// `capacity` (Kuhn–Munkres, the Hungarian method, with row and column potentials; O(n³)).
/// Storage is allocated once; solving never allocates.
struct ContactMatcher {
    /// Largest matrix solved.
    let capacity: Int
    /// The last frame's places (indices into its contacts) that the columns stand for.
    var places: [Int]
    /// After `solve`: the column each row is assigned to.
    private(set) var columnOfRow: [Int]
    /// Row-major, `capacity` wide.
    private var costs: [Double]
    // One-based as in the method's usual statement; index 0 is the virtual start column.
    private var rowPotential: [Double]
    private var columnPotential: [Double]
    private var rowOfColumn: [Int]
    private var way: [Int]
    private var slack: [Double]
    private var used: [Bool]

    init(capacity: Int) {
        self.capacity = capacity
        places = Array(repeating: 0, count: capacity)
        columnOfRow = Array(repeating: 0, count: capacity)
        costs = Array(repeating: 0, count: capacity * capacity)
        rowPotential = Array(repeating: 0, count: capacity + 1)
        columnPotential = Array(repeating: 0, count: capacity + 1)
        rowOfColumn = Array(repeating: 0, count: capacity + 1)
        way = Array(repeating: 0, count: capacity + 1)
        slack = Array(repeating: 0, count: capacity + 1)
        used = Array(repeating: false, count: capacity + 1)
    }

    /// The cost of assigning `row` to `column` (both from 0).
    func cost(row: Int, column: Int) -> Double { costs[row * capacity + column] }

    mutating func setCost(_ cost: Double, row: Int, column: Int) { costs[row * capacity + column] = cost }

    /// Assigns each of the first `size` rows (1...capacity) a different one of the first `size`
    /// columns, with the least total cost. False, with no assignment, when a cost is not finite.
    mutating func solve(size: Int) -> Bool {
        for j in 0...size {
            rowPotential[j] = 0
            columnPotential[j] = 0
            rowOfColumn[j] = 0
            way[j] = 0
        }
        for row in 1...size {
            // Adds `row` along the cheapest augmenting path (Dijkstra over reduced costs).
            rowOfColumn[0] = row
            var column = 0
            for j in 0...size {
                slack[j] = .infinity
                used[j] = false
            }
            repeat {
                used[column] = true
                let i = rowOfColumn[column]
                var delta = Double.infinity
                var next = 0
                for j in 1...size where !used[j] {
                    let reduced = costs[(i - 1) * capacity + (j - 1)] - rowPotential[i] - columnPotential[j]
                    if reduced < slack[j] {
                        slack[j] = reduced
                        way[j] = column
                    }
                    if slack[j] < delta {
                        delta = slack[j]
                        next = j
                    }
                }
                // Only a cost that is not finite leaves no column to go to.
                guard next != 0 else { return false }
                for j in 0...size {
                    if used[j] {
                        rowPotential[rowOfColumn[j]] += delta
                        columnPotential[j] -= delta
                    } else {
                        slack[j] -= delta
                    }
                }
                column = next
            } while rowOfColumn[column] != 0
            repeat {
                let previous = way[column]
                rowOfColumn[column] = rowOfColumn[previous]
                column = previous
            } while column != 0
        }
        for j in 1...size { columnOfRow[rowOfColumn[j] - 1] = j - 1 }
        return true
    }
}
