import FlickCore

/// Runs a recording through the engine on the recording's own timestamps, as the daemon would
/// have: every event fed with its time, and the engine ticked whenever it asks (no more often
/// than `coast.tick_rate`) between events and after the last one until the coast ends.
public struct Replay {
    /// One wheel event the daemon would have written.
    public struct Emitted: Hashable, Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`).
        public var time: Double
        /// `EV_REL` code (REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES, REL_WHEEL, REL_HWHEEL).
        public var code: UInt16
        /// Event value.
        public var value: Int32
    }

    /// A released scroll that coasted.
    public struct CoastRecord: Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`).
        public var time: Double
        public var plan: CoastPlan
        /// How it ended: the replay runs every coast out, so only a coast still running when
        /// the engine stopped reporting (none does) has none.
        public var end: CoastEnd?
        /// True when a modifier key (Ctrl, Shift, Alt, Super) was held on the replayed device's
        /// own node at the release: the daemon wrote none of the coast and stopped it there
        /// (`stop.key`), as it would reach the apps as Ctrl + scroll.
        public var modifierHeld = false
    }

    /// How a coast ended: a coast cut short (a touch, a button, `coast.max_duration`, events
    /// the recording says were lost)
    /// wrote less than its plan's destination, and this says why.
    public struct CoastEnd: Hashable, Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`).
        public var time: Double
        public var reason: StopReason
        /// REL_WHEEL_HI_RES units the coast wrote (> 0 scrolls up).
        public var verticalHiRes: Int64
        /// REL_HWHEEL_HI_RES units the coast wrote (> 0 scrolls right).
        public var horizontalHiRes: Int64
    }

    /// Where the recording's clock steps back: evemu stamps events with the wall clock
    /// (CLOCK_REALTIME), which an NTP step or a clock set by hand moves back, while the daemon
    /// reads the kernel's monotonic stamps, which never go back. The replay joins the parts:
    /// every event from the step on is shifted to come `bridgeSeconds` after the one before it.
    public struct ClockStep: Hashable, Sendable {
        /// The first event stamped earlier than the one before it: its number (from 1) among
        /// the replayed device's events in file order (the evemu file's Nth `E:` line).
        public var event: Int
        /// How far back the clock went there (s, > 0), as the replay joins the parts: the event
        /// came this much earlier than `bridgeSeconds` after the one before; the events from
        /// it on are replayed this much later than stamped.
        public var seconds: Double
        /// The time taken to pass between the event before the step and the one after (s):
        /// the interval between the two frames before the step, the device's frame rate then
        /// (0 when there were none), for the recording cannot tell.
        public var bridgeSeconds: Double
        /// How many times in all the clock steps back (each joined the same way).
        public var count: Int
    }

    /// A gesture that did not coast, and why.
    public struct NoCoastRecord: Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`).
        public var time: Double
        /// Estimated release velocity (mm/s), when one was estimated.
        public var velocity: Vector?
        public var reason: NoCoastReason
    }

    /// A gesture still under way when the recording ends: its fingers were down after the last
    /// event, so it neither coasted nor ended without a coast (a recording stopped, or cut,
    /// mid-gesture).
    public struct UnfinishedGesture: Hashable, Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`): its last event.
        public var time: Double
        /// Fingers on the device after the recording's last whole frame.
        public var fingers: Int

        /// Why it did not coast, as the replay prints it among the gestures that did not.
        public var reason: String {
            fingers > 0 ? "the recording ends with \(fingers) finger\(fingers == 1 ? "" : "s") down" : "the recording ends mid-gesture"
        }
    }

    /// A touch, key or button press on a device of the recording that is not replayed (a
    /// keyboard or a second touch device of `libinput record --all`), during a coast: the
    /// daemon, which reads every device, would have stopped the coast there, or, for a modifier
    /// key held when the coast started, not have started it.
    public struct UnreplayedStop: Hashable, Sendable {
        /// Seconds since the recording's start (`Replay.init`'s `start`): the press or touch,
        /// or for a modifier held, the coast's start.
        public var time: Double
        /// The coast it falls in: its index in `coasts`.
        public var coast: Int
        /// `.touch`, `.button` or `.key`, as the daemon would have stopped it.
        public var reason: StopReason
        /// The setting under which the daemon stops there (`stop.touch`, `stop.key`,
        /// `stop.button`); nil for a touch on a device whose flicks are read, which stops a
        /// coast whatever `stop.touch` says (it may be the next flick).
        public var setting: String?
        /// True for a modifier key (Ctrl, Shift, Alt, Super) held down when the coast started:
        /// the daemon starts no coast then (it would reach the apps as Ctrl + scroll, zoom).
        public var modifierHeld: Bool
        /// The device it came from.
        public var device: RecordedDevice
    }

    /// Every wheel event, in order.
    public private(set) var emitted: [Emitted] = []
    /// Gestures that began (fingers touched an idle device).
    public private(set) var gestures = 0
    /// Coasts started, in order.
    public private(set) var coasts: [CoastRecord] = []
    /// Gestures that ended without a coast, in order.
    public private(set) var noCoasts: [NoCoastRecord] = []
    /// The gesture under way when the recording ends, nil when there is none. Every gesture of
    /// `gestures` is one of `coasts`, one of `noCoasts`, or this one.
    public private(set) var unfinished: UnfinishedGesture?
    /// Why each coast ended, in order.
    public private(set) var coastEnds: [(time: Double, reason: StopReason)] = []
    /// The first place the recording's clock steps back, nil when it never does.
    public private(set) var clockStep: ClockStep?
    /// For each coast that the input of a device not replayed would have stopped (or not
    /// started), the first such input, in the coasts' order. Only the replayed device's input
    /// runs through the engine: this says where the daemon would have done otherwise.
    public private(set) var unreplayedStops: [UnreplayedStop] = []
    /// Whether the device was read, and why not.
    public private(set) var admission: DeviceAdmission = .ignored(why: "not replayed")
    /// How the replayed touchpad's contacts touched and were palms by pressure, as
    /// `pressureRule` gave it (`Engine.addDevice`'s `touchPressure`); nil where every contact
    /// touched, and for a device not read as a touchpad.
    public private(set) var touchPressure: TouchPressure?

    /// How the replay reads the pressure of a recorded touchpad (`PressureReading`), given its
    /// description, the quirks its recording listed (`Recording.quirks`, nil without them) and
    /// its recorded udev tags (`Recording.touchpadTags`: external, a tablet's).
    /// The daemon's reading of the quirks (`LibinputQuirks`) is not in this module: the
    /// command gives it.
    public typealias PressureRule = (_ description: DeviceDescription, _ recordedQuirks: [String]?, _ tags: TouchpadTags) -> PressureReading

    /// Replays `recording` under `configuration`. Times are seconds since `start`, the
    /// recording's earliest event of any device (`Recording.loadWithClockStart`); nil: the
    /// replayed device's first event, the recording's first for evemu, which records one. A
    /// clock that steps back is joined up (`ClockStep`), so the first event is the earliest.
    /// `pressureRule` says how a touchpad's contacts touch by pressure, for the replayed device
    /// and for the other touchpads whose touches would have stopped a coast; by default every
    /// contact touches, whatever the recording lists (`PressureReading.everyContact`).
    public init(_ recording: Recording, configuration: Configuration, start: Instant? = nil,
                pressureRule: PressureRule = { _, _, _ in .everyContact }) {
        let engine = Engine(configuration: configuration)
        let device: DeviceID = 1
        let (times, step) = Self.monotonicTimes(recording.events)
        clockStep = step
        let start = start ?? times.first ?? .zero
        var latest = start
        func seconds(_ t: Instant) -> Double { (t - start).seconds }

        var gestures = 0
        var coasts: [CoastRecord] = []
        var noCoasts: [NoCoastRecord] = []
        var ends: [(Double, StopReason)] = []
        // A gesture begins on an idle device and ends in one coast or no-coast report (or a
        // bug report, which resets the engine's reading of the device to idle).
        var underWay = false
        engine.onReport = { report in
            switch report {
            case .gestureBegan:
                gestures += 1
                underWay = true
            case .coastStarted(_, let time, let plan):
                coasts.append(CoastRecord(time: seconds(time), plan: plan))
                underWay = false
            case .noCoast(_, let time, let velocity, let reason):
                noCoasts.append(NoCoastRecord(time: seconds(time), velocity: velocity, reason: reason))
                underWay = false
            case .coastEnded(let time, let reason, let written):
                ends.append((seconds(time), reason))
                // One coast runs at a time: the one ending is the last started.
                if let last = coasts.indices.last, coasts[last].end == nil {
                    coasts[last].end = CoastEnd(time: seconds(time), reason: reason,
                                                verticalHiRes: written.vertical, horizontalHiRes: written.horizontal)
                }
            case .bug: underWay = false
            }
        }
        // As the daemon reads it: udev's tag, where the recording lists one, decides its kind.
        let pressure = pressureRule(recording.description, recording.quirks, recording.touchpadTags)
        if let why = recording.udev?.whyNoGestures {
            // udev's properties, read by the daemon's rule, say it reads no touches of it (a
            // device libinput ignores, or one tagged a mouse): it never reaches the engine.
            admission = .ignored(why: why)
        } else {
            admission = engine.addDevice(device, description: recording.description, kind: recording.udevKind,
                                         slotsAtOpen: Self.slotsBeforeRecording(recording.description, reading: pressure), touchPressure: pressure)
        }
        touchPressure = Self.resolved(pressure, description: recording.description, admission: admission)
        let stop = configuration.stop
        let read: Bool
        switch admission {
        case .used, .stopOnly: read = true
        case .ignored: read = false
        }
        // The modifiers held on the device's own node, as libevdev's key state tells the daemon:
        // from the recording's start (a key held before it is not known).
        var modifiersHeld: Set<UInt16> = []

        var emitted: [Emitted] = []
        func write(_ output: WheelOutput, at time: Instant) {
            output.forEachEvent { code, value in emitted.append(Emitted(time: seconds(time), code: code, value: value)) }
        }
        for (timed, time) in zip(recording.events, times) {
            latest = engine.advance(to: time, notBefore: latest) { write($0.output, at: $0.time) }
            latest = max(latest, time)
            let event = timed.event
            guard read else { continue }
            if event.type == EventCode.key && Self.modifierKeys.contains(event.code) {
                if event.value == 0 { modifiersHeld.remove(event.code) } else { modifiersHeld.insert(event.code) }
            }
            // As the daemon does (`Daemon.dispatch`): a keyboard key on the touch device's own
            // node (a Goodix touchscreen's KEY_LEFTMETA, a combo keyboard's keys) stops a coast
            // under stop.key, before the event is handled.
            if engine.isCoasting, stop.key, event.type == EventCode.key, event.value == 1, !Self.isButton(event.code) {
                engine.stop(at: time, reason: .key)
            }
            let coastsBefore = engine.coastsStarted
            let output = engine.handle(event, from: device, at: time)
            // A coast started with a modifier held on the node would reach the apps as Ctrl +
            // scroll (zoom): the daemon writes none of it and stops it at once, its end a key.
            if engine.coastsStarted != coastsBefore, stop.key, !modifiersHeld.isEmpty {
                engine.notWritten(output)
                if !engine.isCoasting, let last = coasts.indices.last, var end = coasts[last].end, end.time == seconds(time) {
                    // Its whole output came with its release and it ended there: nothing of it was
                    // written, and it ended for the key (`Daemon.logHeldEnd`).
                    end.reason = .key
                    end.verticalHiRes -= Int64(output.verticalHiRes)
                    end.horizontalHiRes -= Int64(output.horizontalHiRes)
                    coasts[last].end = end
                    if let lastEnd = ends.indices.last { ends[lastEnd].1 = .key }
                }
                engine.stop(at: time, reason: .key)
                if let last = coasts.indices.last { coasts[last].modifierHeld = true }
                continue
            }
            write(output, at: time)
        }
        // The recording ends; the coast (if any) runs out on its own, ticked as the daemon would.
        engine.advance(to: .end, notBefore: latest) { write($0.output, at: $0.time) }

        if underWay, let last = times.last {
            unfinished = UnfinishedGesture(time: seconds(last), fingers: Self.fingersDown(after: recording, times: times, admission: admission,
                                                                                          touchPressure: touchPressure))
        }

        self.emitted = emitted
        self.gestures = gestures
        self.coasts = coasts
        self.noCoasts = noCoasts
        self.coastEnds = ends
        unreplayedStops = Self.unreplayedStops(recording.otherDevices, coasts: coasts, configuration: configuration,
                                               pressureRule: pressureRule, seconds: seconds)
    }

    /// The pressure rule the engine's tracker of a device admitted as `admission` uses, as
    /// `Engine.addDevice` resolves `reading`: only a touchpad's.
    private static func resolved(_ reading: PressureReading, description: DeviceDescription, admission: DeviceAdmission) -> TouchPressure? {
        switch admission {
        case .used(.touchpad, _), .stopOnly(.touchpad, _): break
        default: return nil
        }
        switch reading {
        case .description: return TouchPressure.libinput(for: description, kind: .touchpad)
        case .given(let given): return given
        }
    }

    /// What the replay takes the slots of a touchpad read by `reading` to hold before the
    /// recording: no contact, and a pressure that touches (`TouchPressure.Thresholds.high`).
    /// `libinput record` writes no slot's state, and the kernel drops an ABS_MT_PRESSURE equal to
    /// the slot's last: a first touch landing with the pressure its slot held before has no
    /// pressure event, and read from 0 it would be light until its pressure changed, a finger
    /// libinput counted left out. Until its first pressure event, a slot's contact touches.
    /// (The daemon reads the slots' values when it opens the device: `SlotAtOpen`.)
    static func slotsBeforeRecording(_ description: DeviceDescription, reading: PressureReading) -> [SlotAtOpen] {
        let pressure: TouchPressure?
        switch reading {
        case .description: pressure = TouchPressure.libinput(for: description, kind: .touchpad)
        case .given(let given): pressure = given
        }
        guard let touch = pressure?.touch, touch.axis == EventCode.absMTPressure, description.slotCount > 0 else { return [] }
        return Array(repeating: SlotAtOpen(trackingID: -1, x: 0, y: 0, pressure: touch.high), count: description.slotCount)
    }

    /// Ctrl, Shift, Alt and Super (Meta), left and right: the keys the daemon starts no coast
    /// under (`Daemon.modifierKeys`).
    static let modifierKeys: Set<UInt16> = [29, 97, 42, 54, 56, 100, 125, 126]

    /// Whether `code` is a button, not a key (BTN_MISC ... BTN_GEAR_UP, the d-pad's, the
    /// trigger-happy ones), as the daemon tells them (`Daemon.isButton`).
    static func isButton(_ code: UInt16) -> Bool {
        (0x100..<0x160).contains(code) || (0x220..<0x224).contains(code) || (0x2c0..<0x2e8).contains(code)
    }

    /// The first input of `devices` (not replayed) that the daemon would have stopped each
    /// coast on, by its stop rules: a finger landing on a touch device (always on one whose
    /// flicks are read, else as `stop.touch` says; never on one it ignores), a key press
    /// (`stop.key`, also on a touch device's own node), a mouse's button press (`stop.button`),
    /// and a modifier key held when the coast starts (`stop.key`). Whether a touch device's
    /// flicks are read, read only to stop coasts, or ignored is the engine's admission of it
    /// (its kind as udev tagged it, `touchpad.enabled`, a [[device]] section's `enabled` and
    /// settings), asked of an engine of its own that reads none of its events. Where the
    /// recording lists a device's udev properties, the daemon's judgement of them
    /// (`RecordedInput.udev`) says what it opens the device for: a keyboard's keys, a mouse's
    /// buttons (and keys, with keys of its own), a touch device's touches, keys and own clicks
    /// (a click with no finger landing stops under `stop.button`, as `Engine.handle` does);
    /// a device tagged none of these (a power button, a tablet's pad) nothing.
    ///
    /// A touchpad whose contacts touch by pressure (`pressureRule`) lands when the engine's
    /// tracker of it counts a new touch, as the daemon stops there: a contact resting too lightly,
    /// which libinput does not count, stops nothing. Other touch devices land with each new
    /// contact (a tracking id, BTN_TOUCH).
    private static func unreplayedStops(_ devices: [RecordedInput], coasts: [CoastRecord], configuration: Configuration,
                                        pressureRule: PressureRule, seconds: (Instant) -> Double) -> [UnreplayedStop] {
        guard !devices.isEmpty, !coasts.isEmpty else { return [] }
        let stop = configuration.stop
        var presses: [(time: Double, reason: StopReason, setting: String?, device: RecordedDevice)] = []
        var modifiersDown: [(from: Double, to: Double, device: RecordedDevice)] = []
        let probe = Engine(configuration: configuration)
        for (index, other) in devices.enumerated() {
            // Where the recording lists its udev properties, the daemon's judgement of them
            // (`UdevJudgement`) says what it opens the device as; else its tags and capabilities.
            let judged = other.udev
            let kind = judged.map { $0.touchKind == nil } == true ? nil : Recording.kind(of: other.description, udevKind: other.udevKind)
            // The engine's own rule (`Engine.handle`): a touch on a device whose flicks are read
            // always stops a coast, on one read only to stop them as `stop.touch` says, on one
            // ignored never.
            let touchSetting: String??
            let reading = pressureRule(other.description, other.quirks, other.touchpadTags)
            let admission = kind == nil ? nil : probe.addDevice(DeviceID(index + 1), description: other.description, kind: other.udevKind,
                                                                touchPressure: reading)
            let opened: Bool
            switch admission {
            case .used?: touchSetting = .some(nil); opened = true
            case .stopOnly?: touchSetting = stop.touch ? .some("stop.touch") : nil; opened = true
            case .ignored?: touchSetting = nil; opened = false
            case nil: touchSetting = nil; opened = false
            }
            // What of a device that is not a touch device stops a coast, as the daemon opens it
            // (`InputNode.stoppingPresses`) and reads it (`Daemon.dispatch`): a mouse is opened for
            // its buttons (and keys, with keys of its own), a keyboard for its keys; once open any
            // button stops under stop.button, any key under stop.key. Without the udev properties:
            // any key, and a pointer's buttons.
            let buttonsStop: Bool, keysStop: Bool, modifiersCount: Bool
            if kind != nil {
                // A touch device's key presses reach the daemon when it is opened; its own buttons
                // go to the engine (below).
                buttonsStop = false
                keysStop = opened || judged == nil
                modifiersCount = opened || judged == nil
            } else if let judged {
                switch judged.kind {
                case .mouse:
                    let open = stop.button || (judged.hasKeys && stop.key)
                    (buttonsStop, keysStop, modifiersCount) = (open, open, open && judged.hasKeys)
                case .keyboard:
                    (buttonsStop, keysStop, modifiersCount) = (stop.key, stop.key, stop.key)
                case .touchpad, .touchscreen, .other:
                    (buttonsStop, keysStop, modifiersCount) = (false, false, false)
                }
            } else {
                (buttonsStop, keysStop, modifiersCount) = (other.description.hasPointerButtons, true, true)
            }
            var tracker = admission.flatMap { admission in
                resolved(reading, description: other.description, admission: admission).map {
                    ContactTracker(description: other.description, kind: .touchpad,
                                   slotsAtOpen: slotsBeforeRecording(other.description, reading: .given($0)), touchPressure: $0)
                }
            }
            var pressed: [UInt16: Double] = [:]
            // A click on a touch device the engine reads, in the frame under way, and whether a
            // finger landed in it (`Engine.handle`: a click with no landing stops as a button).
            var clicked = false
            var landedInFrame = false
            for timed in other.events {
                let event = timed.event
                let time = seconds(timed.time)
                if opened, event.type == EventCode.key, event.value == 1, EventCode.isPointerButton(event.code) { clicked = true }
                let landing: Bool
                var frameEnded = false
                var resynchronized = false
                if tracker != nil {
                    let frame = tracker?.handle(event, at: timed.time)
                    landing = frame?.newTouch ?? false
                    if let frame { frameEnded = true; resynchronized = frame.resynchronized; landedInFrame = frame.newTouch }
                } else {
                    landing = (event.type == EventCode.key && event.code == EventCode.touch && event.value == 1)
                        || (event.type == EventCode.absolute && event.code == EventCode.absMTTrackingID && event.value >= 0)
                    if landing { landedInFrame = true }
                    frameEnded = event.type == EventCode.synchronization && event.code == 0
                }
                if frameEnded {
                    if clicked && stop.button && (resynchronized || !landedInFrame || touchSetting == nil) {
                        presses.append((time, .button, "stop.button", other.device))
                    }
                    clicked = false
                    landedInFrame = false
                }
                if let setting = touchSetting, landing { presses.append((time, .touch, setting, other.device)) }
                guard event.type == EventCode.key else { continue }
                if modifiersCount && modifierKeys.contains(event.code) {
                    if event.value == 0, let from = pressed.removeValue(forKey: event.code) {
                        modifiersDown.append((from, time, other.device))
                    } else if event.value == 1 {
                        pressed[event.code] = time
                    }
                }
                guard event.value == 1 else { continue }
                if isButton(event.code) {
                    if kind == nil && buttonsStop && stop.button { presses.append((time, .button, "stop.button", other.device)) }
                } else if keysStop && stop.key {
                    presses.append((time, .key, "stop.key", other.device))
                }
            }
            modifiersDown += pressed.map { ($0.value, .infinity, other.device) }
        }
        presses.sort { $0.time < $1.time }
        var stops: [UnreplayedStop] = []
        for (index, coast) in coasts.enumerated() {
            let end = coast.end?.time ?? .infinity
            if stop.key, let held = modifiersDown.filter({ $0.from <= coast.time && coast.time < $0.to }).min(by: { $0.from < $1.from }) {
                stops.append(UnreplayedStop(time: coast.time, coast: index, reason: .key, setting: "stop.key", modifierHeld: true, device: held.device))
            } else if let press = presses.first(where: { $0.time >= coast.time && $0.time < end }) {
                stops.append(UnreplayedStop(time: press.time, coast: index, reason: press.reason, setting: press.setting,
                                            modifierHeld: false, device: press.device))
            }
        }
        return stops
    }

    /// The fingers on the device after the last whole frame of `recording`, as the engine's
    /// tracker counted them: the engine does not tell, and a second reading of the events is
    /// needed only for a recording that ends mid-gesture.
    private static func fingersDown(after recording: Recording, times: [Instant], admission: DeviceAdmission,
                                    touchPressure: TouchPressure?) -> Int {
        let kind: DeviceKind
        switch admission {
        case .used(let used, _), .stopOnly(let used, _): kind = used
        case .ignored: return 0
        }
        var tracker = ContactTracker(description: recording.description, kind: kind,
                                     slotsAtOpen: slotsBeforeRecording(recording.description, reading: .given(touchPressure)),
                                     touchPressure: touchPressure)
        var fingers = 0
        for (timed, time) in zip(recording.events, times) {
            if let frame = tracker.handle(timed.event, at: time) { fingers = frame.fingerCount }
        }
        return fingers
    }

    /// The events' times as a clock that never goes back would have stamped them, and where
    /// the recorded clock stepped back (nil when it never did). The daemon reads monotonic
    /// stamps: fed as recorded, a flick released after the step would start its coast seconds
    /// before the ticks already run, and end at its first tick as a stall.
    static func monotonicTimes(_ events: [TimedEvent]) -> (times: [Instant], step: ClockStep?) {
        var times: [Instant] = []
        times.reserveCapacity(events.count)
        var shift = Duration.zero
        var step: ClockStep?
        // The last two distinct times (shifted): their interval bridges a step.
        var last: Instant?
        var beforeLast: Instant?
        for (index, timed) in events.enumerated() {
            var time = timed.time + shift
            if let previous = last, time < previous {
                let bridge = beforeLast.map { previous - $0 } ?? .zero
                let back = (previous - time) + bridge
                shift = shift + back
                time = previous + bridge
                if step == nil {
                    step = ClockStep(event: index + 1, seconds: back.seconds, bridgeSeconds: bridge.seconds, count: 1)
                } else {
                    step?.count += 1
                }
            }
            if time != last {
                beforeLast = last
                last = time
            }
            times.append(time)
        }
        return (times, step)
    }

    /// What of `geometry`'s size was estimated (no resolution reported, none given): "size"
    /// for both axes, "width" (x) or "height" (y) for one, nil for neither. The text and the
    /// JSON output both go by it, so they say the same of a device with one axis estimated.
    public static func estimatedPart(of geometry: DeviceGeometry) -> String? {
        switch (geometry.x.isEstimated, geometry.y.isEstimated) {
        case (true, true): return "size"
        case (true, false): return "width"
        case (false, true): return "height"
        case (false, false): return nil
        }
    }

    /// Total value written per code (REL_WHEEL_HI_RES, ...).
    public var totals: [(code: UInt16, total: Int64)] {
        [EventCode.relWheelHiRes, EventCode.relHorizontalWheelHiRes, EventCode.relWheel, EventCode.relHorizontalWheel].map { code in
            (code, emitted.reduce(Int64(0)) { $1.code == code ? $0 + Int64($1.value) : $0 })
        }
    }
}

extension Recording {
    /// `load(text:description:device:)`, and the time the recording's clock counts from, which
    /// a replay's times are seconds since: the earliest event of any device of a `libinput
    /// record` file (a keyboard's key press may come seconds before the touchpad's first
    /// frame; an event before libinput's start is negative), nil for evemu, which records one
    /// device: its first event.
    /// `isOwnDevice` tells flickd's own virtual devices by name, and `udevRule` judges a device
    /// by its recorded udev properties as the daemon does (`LibinputRecordParser.read`).
    public static func loadWithClockStart(text: String, description: String? = nil, device: String? = nil,
                                          isOwnDevice: (String) -> Bool = { _ in false },
                                          udevRule: UdevRule? = nil) throws(RecordingError)
        -> (recording: Recording, start: Instant?) {
        // As load decides: an empty text is no libinput record file, whatever its comment says.
        guard TextLines.emptiness(text) == nil, format(of: text) == .libinputRecord else {
            return (try load(text: text, description: description, device: device), nil)
        }
        return try LibinputRecordParser.read(text: text, device: device, isOwnDevice: isOwnDevice, udevRule: udevRule)
    }
}
