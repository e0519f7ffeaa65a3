import FlickCore

/// Writes the evdev events a device sends for where its fingers are, one frame at a time, the
/// way its kernel driver would: multitouch protocol B (slots and tracking ids, only what changed
/// since the last frame), semi-multitouch (the corners of the fingers' bounding box in two
/// slots), protocol A (every contact, each closed by `SYN_MT_REPORT`) or single-touch; the legacy
/// `ABS_X`/`ABS_Y` (and `ABS_PRESSURE`) following the first finger; `BTN_TOUCH` and the
/// `BTN_TOOL_*` finger count; `SYN_REPORT`. Only the axes and keys the device declares are written.
///
/// The one finger→evdev writer of the tests (`FingerScript`), the fuzz targets and soak
/// (`FingerStream`) and the benchmarks. Positions are in millimetres from the device's top-left
/// corner, turned into device units with the device's geometry and kept within its axes.
public struct FingerFrameWriter {
    /// The device written for.
    public let description: DeviceDescription
    /// What the engine reads it as (a touchpad when the description says neither).
    public let kind: DeviceKind
    /// Its size and units per millimetre.
    public let geometry: DeviceGeometry
    /// Whether positions are kept within the device's axes (as a real sensor's are); when
    /// false, a finger past an edge reports a position beyond the axis.
    public let clampsToAxes: Bool

    /// What a slot last reported (device units; pressure nil when none was written).
    private struct Contact: Equatable {
        var id: Int32
        var x: Int32
        var y: Int32
        var pressure: Int32?
    }

    private var slotOfFinger: [Int: Int] = [:]
    private var trackingID: Int32 = 100
    private var lastSlot = -1
    private var sentSlots: [Int: Contact] = [:]
    private var sentKeys: [UInt16: Int32] = [:]
    private var sentAxes: [UInt16: Int32] = [:]

    /// A writer for `description`, read as `kind` (default: what the description says, else a
    /// touchpad), keeping positions within the axes when `clampsToAxes`.
    public init(description: DeviceDescription, kind: DeviceKind? = nil, clampsToAxes: Bool = true) {
        self.description = description
        self.clampsToAxes = clampsToAxes
        self.kind = kind ?? description.kind ?? .touchpad
        geometry = DeviceGeometry(description: description, kind: self.kind)
        defaultPressure = self.kind == .touchpad ? Self.fingerPressure(description) : nil
    }

    /// What a finger presses when a frame gives it no pressure: on a touchpad with a pressure
    /// axis, `fingerPressure`; nil (none written) elsewhere.
    public let defaultPressure: Int32?

    /// A finger's plausible pressure on the touchpad `description`: a quarter of its pressure
    /// axis (ABS_MT_PRESSURE, else ABS_PRESSURE), about 64 on 0...255, kept between libinput's
    /// touch threshold (12 % of the axis) and its palm threshold (130), so that a pad read by
    /// pressure (`TouchPressure.libinput`) counts the finger as libinput would; nil without a
    /// pressure axis.
    ///
    /// Rationale: the engine reads a touchpad's pressure as libinput does, and a contact that
    /// never reports one presses 0: no finger. Real fingers report a pressure on every pad with
    /// the axis; a test that means another writes it.
    public static func fingerPressure(_ description: DeviceDescription) -> Int32? {
        guard let axis = description.absoluteAxes[EventCode.absMTPressure] ?? description.absoluteAxes[EventCode.absPressure] else { return nil }
        let minimum = Int64(axis.minimum), range = Int64(axis.maximum) - Int64(axis.minimum)
        let touch = minimum + (range * 12 + 99) / 100
        let quarter = min(minimum + range / 4, Int64(TouchPressure.defaultPalmThreshold) - 10)
        return Int32(clamping: min(max(quarter, touch), Int64(axis.maximum)))
    }

    /// Writes one frame, up to and including its `SYN_REPORT`, through `emit`.
    ///
    /// `fingers[i]` is finger `i`'s position (mm), nil while it is not on the device; a finger
    /// keeps its number from landing to lift. `pressures[i]` is finger `i`'s contact pressure
    /// (device units), written where the device has a pressure axis; a finger without one (nil,
    /// or past the array's end) presses `defaultPressure`, none on a device without it.
    public mutating func frame(_ fingers: [Vector?], pressures: [Int32]? = nil, _ emit: (InputEvent) -> Void) {
        let down = fingers.indices.filter { fingers[$0] != nil }
        func pressure(_ finger: Int) -> Int32? {
            guard let pressures, pressures.indices.contains(finger) else { return defaultPressure }
            return pressures[finger]
        }
        let slots = description.slotCount
        if slots > 0 && description.isSemiMultitouch {
            // Semi-MT: the corners of the fingers' bounding box, not the fingers.
            let points = down.map { fingers[$0]! }
            if points.isEmpty {
                sendSlot(0, nil, emit)
                sendSlot(1, nil, emit)
            } else {
                let lo = position(Vector(x: points.map(\.x).min()!, y: points.map(\.y).min()!), mt: true)
                let hi = position(Vector(x: points.map(\.x).max()!, y: points.map(\.y).max()!), mt: true)
                let p = pressure(down[0])
                sendSlot(0, Contact(id: sentSlots[0]?.id ?? newTrackingID(), x: lo.x, y: lo.y, pressure: p), emit)
                if points.count >= 2 {
                    sendSlot(1, Contact(id: sentSlots[1]?.id ?? newTrackingID(), x: hi.x, y: hi.y, pressure: p), emit)
                } else {
                    sendSlot(1, nil, emit)
                }
            }
        } else if slots > 0 {
            for (finger, slot) in slotOfFinger.sorted(by: { $0.value < $1.value }) where !fingers.indices.contains(finger) || fingers[finger] == nil {
                sendSlot(slot, nil, emit)
                slotOfFinger[finger] = nil
            }
            for finger in down {
                let slot: Int
                if let held = slotOfFinger[finger] {
                    slot = held
                } else {
                    // A pad with fewer slots than fingers reports the extra ones only in BTN_TOOL_*.
                    let used = Set(slotOfFinger.values)
                    guard let free = (0..<slots).first(where: { !used.contains($0) }) else { continue }
                    slotOfFinger[finger] = free
                    slot = free
                }
                let u = position(fingers[finger]!, mt: true)
                sendSlot(slot, Contact(id: sentSlots[slot]?.id ?? newTrackingID(), x: u.x, y: u.y, pressure: pressure(finger)), emit)
            }
        } else if description.usesProtocolA {
            // Protocol A has no state: every frame lists every contact.
            for finger in down {
                let u = position(fingers[finger]!, mt: true)
                emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionX, value: u.x))
                emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionY, value: u.y))
                if let p = pressure(finger), description.absoluteAxes[EventCode.absMTPressure] != nil {
                    emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTPressure, value: p))
                }
                emit(InputEvent(type: EventCode.synchronization, code: EventCode.synMTReport, value: 0))
            }
            if down.isEmpty { emit(InputEvent(type: EventCode.synchronization, code: EventCode.synMTReport, value: 0)) }
        }
        // The single-touch axes follow the first finger (the kernel's pointer emulation on MT devices).
        if let first = down.first {
            let u = position(fingers[first]!, mt: false)
            setAxis(EventCode.absX, u.x, emit)
            setAxis(EventCode.absY, u.y, emit)
            if let p = pressure(first) { setAxis(EventCode.absPressure, p, emit) }
        } else if sentAxes[EventCode.absPressure, default: 0] != 0 {
            setAxis(EventCode.absPressure, 0, emit)
        }
        setKey(EventCode.touch, down.isEmpty ? 0 : 1, emit)
        let tools: [UInt16] = [EventCode.toolFinger, EventCode.toolDoubleTap, EventCode.toolTripleTap,
                               EventCode.toolQuadTap, EventCode.toolQuintTap]
        for (n, code) in tools.enumerated() { setKey(code, down.count == n + 1 ? 1 : 0, emit) }
        emit(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0))
    }

    /// Writes what a device sends while its fingers rest: a frame with nothing but a timestamp
    /// (`MSC_TIMESTAMP`, µs), or, for protocol A, the whole frame again (`fingers` as in `frame`).
    public mutating func restingFrame(_ fingers: [Vector?], timestamp microseconds: Int64, _ emit: (InputEvent) -> Void) {
        if description.usesProtocolA {
            frame(fingers, emit)
        } else {
            emit(InputEvent(type: EventCode.miscellaneous, code: Self.mscTimestamp, value: Int32(truncatingIfNeeded: microseconds)))
            emit(InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0))
        }
    }

    /// `MSC_TIMESTAMP`: the device's own clock, µs (flickd does not read it).
    static let mscTimestamp: UInt16 = 0x05

    // MARK: Events

    private mutating func newTrackingID() -> Int32 {
        // Tracking ids wrap within the axis's range, as the kernel's do.
        trackingID = trackingID >= 65535 ? 1 : trackingID + 1
        return trackingID
    }

    /// `p` (mm) in device units on the MT axes (`mt`) or the single-touch ones, within the axis.
    private func position(_ p: Vector, mt: Bool) -> (x: Int32, y: Int32) {
        let xAxis = mt ? EventCode.absMTPositionX : EventCode.absX, yAxis = mt ? EventCode.absMTPositionY : EventCode.absY
        return (units(p.x, axis: description.absoluteAxes[xAxis] ?? description.absoluteAxes[mt ? EventCode.absX : EventCode.absMTPositionX],
                      scale: geometry.x),
                units(p.y, axis: description.absoluteAxes[yAxis] ?? description.absoluteAxes[mt ? EventCode.absY : EventCode.absMTPositionY],
                      scale: geometry.y))
    }

    /// `millimetres` from the axis's start in device units, kept within the axis (a real
    /// sensor reports nothing beyond its edges) when `clampsToAxes`, else within Int32.
    private func units(_ millimetres: Double, axis: AxisInfo?, scale: AxisScale) -> Int32 {
        let axis = axis ?? AxisInfo(minimum: 0, maximum: 1000)
        let value = Double(axis.minimum) + millimetres * scale.unitsPerMillimetre
        let low = clampsToAxes ? Double(min(axis.minimum, axis.maximum)) : Double(Int32.min)
        let high = clampsToAxes ? Double(max(axis.minimum, axis.maximum)) : Double(Int32.max)
        guard value.isFinite else { return axis.minimum }
        return Int32(min(max(value, low), high).rounded())
    }

    /// Writes slot `slot`'s contact (nil: lifted), only what changed since the last frame.
    private mutating func sendSlot(_ slot: Int, _ contact: Contact?, _ emit: (InputEvent) -> Void) {
        let before = sentSlots[slot]
        guard before != contact else { return }
        if lastSlot != slot {
            emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTSlot, value: Int32(slot)))
            lastSlot = slot
        }
        guard let contact else {
            emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTTrackingID, value: -1))
            sentSlots[slot] = nil
            return
        }
        let new = before?.id != contact.id
        if new { emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTTrackingID, value: contact.id)) }
        if new || before?.x != contact.x { emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionX, value: contact.x)) }
        if new || before?.y != contact.y { emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTPositionY, value: contact.y)) }
        if let p = contact.pressure, new || before?.pressure != p, description.absoluteAxes[EventCode.absMTPressure] != nil {
            emit(InputEvent(type: EventCode.absolute, code: EventCode.absMTPressure, value: p))
        }
        sentSlots[slot] = contact
    }

    /// Writes a single-touch axis the device has, when its value changed (the input core drops
    /// repeated values).
    private mutating func setAxis(_ code: UInt16, _ value: Int32, _ emit: (InputEvent) -> Void) {
        guard description.absoluteAxes[code] != nil, sentAxes[code] != value else { return }
        sentAxes[code] = value
        emit(InputEvent(type: EventCode.absolute, code: code, value: value))
    }

    /// Writes a key the device has, when its state changed.
    private mutating func setKey(_ code: UInt16, _ value: Int32, _ emit: (InputEvent) -> Void) {
        guard description.keys.contains(code), sentKeys[code, default: 0] != value else { return }
        sentKeys[code] = value
        emit(InputEvent(type: EventCode.key, code: code, value: value))
    }
}
