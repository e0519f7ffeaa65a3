import Testing
import FlickCore
import FlickTestSupport

/// The one finger→evdev writer of the tests, fuzz targets and benchmarks writes each device
/// protocol as the kernel does.
@Suite struct FingerFrameWriterTests {
    /// A 100 mm × 50 mm pad at 10 units/mm, with `slots` protocol B slots (0: protocol A),
    /// the single-touch axes, BTN_TOUCH and the finger-count keys up to three.
    static func pad(slots: Int32, properties: Set<UInt16> = [EventCode.propPointer]) -> DeviceDescription {
        var axes: [UInt16: AxisInfo] = [
            EventCode.absX: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventCode.absY: AxisInfo(minimum: 0, maximum: 500, resolution: 10),
            EventCode.absMTPositionX: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            EventCode.absMTPositionY: AxisInfo(minimum: 0, maximum: 500, resolution: 10),
        ]
        if slots > 0 {
            axes[EventCode.absMTSlot] = AxisInfo(minimum: 0, maximum: slots - 1)
            axes[EventCode.absMTTrackingID] = AxisInfo(minimum: 0, maximum: 65535)
        }
        return DeviceDescription(
            name: "test pad", properties: properties,
            keys: [EventCode.touch, EventCode.toolFinger, EventCode.toolDoubleTap, EventCode.toolTripleTap],
            absoluteAxes: axes)
    }

    /// One frame as (type, code, value) triples, for readable failures.
    static func frame(_ writer: inout FingerFrameWriter, _ fingers: [Vector?]) -> [[Int32]] {
        var events: [[Int32]] = []
        writer.frame(fingers) { events.append([Int32($0.type), Int32($0.code), $0.value]) }
        return events
    }

    static let abs = Int32(EventCode.absolute), key = Int32(EventCode.key), syn = Int32(EventCode.synchronization)
    static let slot = Int32(EventCode.absMTSlot), id = Int32(EventCode.absMTTrackingID)
    static let mtX = Int32(EventCode.absMTPositionX), mtY = Int32(EventCode.absMTPositionY)
    static let x = Int32(EventCode.absX), y = Int32(EventCode.absY)
    static let report = [syn, Int32(EventCode.synReport), 0]

    @Test func protocolBSendsOnlyWhatChanged() {
        var writer = FingerFrameWriter(description: Self.pad(slots: 5))
        let landing = Self.frame(&writer, [Vector(x: 10, y: 20), Vector(x: 30, y: 20)])
        #expect(landing == [
            [Self.abs, Self.slot, 0], [Self.abs, Self.id, 101], [Self.abs, Self.mtX, 100], [Self.abs, Self.mtY, 200],
            [Self.abs, Self.slot, 1], [Self.abs, Self.id, 102], [Self.abs, Self.mtX, 300], [Self.abs, Self.mtY, 200],
            [Self.abs, Self.x, 100], [Self.abs, Self.y, 200],
            [Self.key, Int32(EventCode.touch), 1], [Self.key, Int32(EventCode.toolDoubleTap), 1], Self.report,
        ])
        // Only the second finger moves, only down: its slot is still selected.
        let move = Self.frame(&writer, [Vector(x: 10, y: 20), Vector(x: 30, y: 21)])
        #expect(move == [[Self.abs, Self.mtY, 210], Self.report])
        let lift = Self.frame(&writer, [Vector(x: 10, y: 20), nil])
        #expect(lift == [[Self.abs, Self.id, -1], [Self.key, Int32(EventCode.toolFinger), 1],
                         [Self.key, Int32(EventCode.toolDoubleTap), 0], Self.report])
    }

    @Test func fewerSlotsThanFingersCountTheRestInBTNTool() {
        var writer = FingerFrameWriter(description: Self.pad(slots: 2))
        let events = Self.frame(&writer, [Vector(x: 10, y: 10), Vector(x: 30, y: 10), Vector(x: 50, y: 10)])
        #expect(events.filter { $0[1] == Self.id }.count == 2, "two slots: two tracking ids")
        #expect(events.contains([Self.key, Int32(EventCode.toolTripleTap), 1]), "\(events)")
    }

    @Test func semiMultitouchReportsTheBoundingBox() {
        var writer = FingerFrameWriter(description: Self.pad(slots: 2, properties: [EventCode.propPointer, EventCode.propSemiMT]))
        let events = Self.frame(&writer, [Vector(x: 40, y: 10), Vector(x: 20, y: 30)])
        #expect(Array(events.prefix(8)) == [
            [Self.abs, Self.slot, 0], [Self.abs, Self.id, 101], [Self.abs, Self.mtX, 200], [Self.abs, Self.mtY, 100],
            [Self.abs, Self.slot, 1], [Self.abs, Self.id, 102], [Self.abs, Self.mtX, 400], [Self.abs, Self.mtY, 300],
        ])
    }

    @Test func protocolAListsEveryContactEachFrame() {
        var writer = FingerFrameWriter(description: Self.pad(slots: 0))
        let mtReport = [Self.syn, Int32(EventCode.synMTReport), 0]
        let still = [Vector(x: 10, y: 10), Vector(x: 30, y: 10)]
        _ = Self.frame(&writer, still)
        let again = Self.frame(&writer, still)
        #expect(again == [[Self.abs, Self.mtX, 100], [Self.abs, Self.mtY, 100], mtReport,
                          [Self.abs, Self.mtX, 300], [Self.abs, Self.mtY, 100], mtReport, Self.report])
        let lift = Self.frame(&writer, [nil, nil])
        #expect(lift.first == mtReport, "an empty SYN_MT_REPORT says no contacts: \(lift)")
    }

    @Test func positionsStayWithinTheAxesUnlessAsked() {
        var clamped = FingerFrameWriter(description: Self.pad(slots: 5))
        var free = FingerFrameWriter(description: Self.pad(slots: 5), clampsToAxes: false)
        let beyond: [Vector?] = [Vector(x: 120, y: -5)]
        #expect(Self.frame(&clamped, beyond).prefix(4).map { $0[2] } == [0, 101, 1000, 0])
        #expect(Self.frame(&free, beyond).prefix(4).map { $0[2] } == [0, 101, 1200, -50])
    }
}
