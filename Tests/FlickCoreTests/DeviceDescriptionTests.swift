import Testing
import FlickCore
import FlickTools
import FlickTestSupport

/// How a device's axis ranges become its size, and which ranges leave nothing to read.
@Suite struct DeviceDescriptionTests {
    /// The T440 clickpad with no resolution on its position axes, each axis as `axis` makes it.
    private func unresolvedT440(_ axis: (AxisInfo) -> AxisInfo) throws -> DeviceDescription {
        var device = try Fixtures.device("synaptics-t440")
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            guard var info = device.absoluteAxes[code] else { continue }
            info.resolution = 0
            device.absoluteAxes[code] = axis(info)
        }
        return device
    }

    /// A kernel that gives an axis's ends the other way round (min 5112, max 1024) describes a
    /// pad of the same width: it was read as 1 unit wide, so a pad without a resolution
    /// measured 1 unit per mm and every finger's travel was taken 40 times too long.
    @Test func anAxisWhoseEndsAreReversedSpansTheSame() throws {
        #expect(AxisInfo(minimum: 5112, maximum: 1024).span == 4088)
        #expect(AxisInfo(minimum: 1024, maximum: 5112).span == 4088)
        let upright = try unresolvedT440 { $0 }
        let reversed = try unresolvedT440 { AxisInfo(minimum: $0.maximum, maximum: $0.minimum) }
        #expect(reversed.kind == .touchpad)
        let expected = DeviceGeometry(description: upright, kind: .touchpad)
        let actual = DeviceGeometry(description: reversed, kind: .touchpad)
        #expect(actual == expected, "expected \(expected), actual \(actual)")
        // libinput's 69 x 50 mm guess, in whole units per mm: 4088 / 69 → 59, 2808 / 50 → 56.
        #expect(actual.x.unitsPerMillimetre == 59 && actual.y.unitsPerMillimetre == 56)
        // A size hint divides the same span.
        let hinted = ResolutionHint.size(width: 100, height: 70).applied(to: reversed)
        #expect(hinted?.absoluteAxes[EventCode.absMTPositionX]?.resolution == 40, "4088 / 100")
    }

    /// A position axis with min == max reports no position: libinput rejects such a device, and
    /// flickd ignores it, saying why, instead of reading it as a 1 x 1 mm pad.
    @Test(arguments: [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY])
    func aPositionAxisWithoutARangeIsIgnoredWithItsReason(code: UInt16) throws {
        var device = try Fixtures.device("synaptics-t440")
        device.absoluteAxes[code] = AxisInfo(minimum: 3000, maximum: 3000, resolution: 42)
        let name = [EventCode.absX: "ABS_X", EventCode.absY: "ABS_Y",
                    EventCode.absMTPositionX: "ABS_MT_POSITION_X", EventCode.absMTPositionY: "ABS_MT_POSITION_Y"][code]!
        #expect(device.rangeProblem?.hasPrefix("\(name) has min == max (3000)") == true,
                "\(String(describing: device.rangeProblem))")
        #expect(!device.hasPosition)
        #expect(device.kind == nil)

        let engine = Engine()
        #expect(engine.addDevice(1, description: device) == .ignored(why: device.rangeProblem!),
                "the daemon's log says why too")
        let replay = Replay(Recording(description: device, events: []), configuration: Configuration())
        #expect(replay.admission == .ignored(why: device.rangeProblem!), "\(replay.admission)")
    }

    /// Other axes without a range: libinput rejects the device for most (a pressure axis of
    /// 0...0), and only turns off one from ABS_MISC up to ABS_MT_SLOT that is 0...0; it passes
    /// over ABS_MT_SLOT and ABS_MT_TOOL_TYPE.
    @Test func otherAxesWithoutARangeAreJudgedAsLibinputJudgesThem() throws {
        var device = try Fixtures.device("synaptics-t440")
        device.absoluteAxes[EventCode.absMTPressure] = AxisInfo(minimum: 0, maximum: 0)
        #expect(device.rangeProblem == "absolute axis 0x3a has min == max (0): libinput rejects such a device as a kernel bug, so no desktop scrolls with it")
        #expect(device.kind == nil)
        #expect(Engine().addDevice(1, description: device) == .ignored(why: device.rangeProblem!))

        for (code, value) in [(EventCode.absMisc, Int32(5)), (0x2e, 0), (EventCode.absMTToolType, 2), (EventCode.absMTSlot, 0)] {
            var passed = try Fixtures.device("synaptics-t440")
            passed.absoluteAxes[code] = AxisInfo(minimum: value, maximum: value)
            #expect(passed.rangeProblem == nil, "axis \(code)")
            #expect(passed.kind == .touchpad, "axis \(code)")
            guard case .used = Engine().addDevice(1, description: passed) else {
                Issue.record("axis \(code): the pad is not used")
                continue
            }
        }
        var rejected = try Fixtures.device("synaptics-t440")
        rejected.absoluteAxes[0x2e] = AxisInfo(minimum: 4, maximum: 4)
        #expect(rejected.rangeProblem?.hasPrefix("absolute axis 0x2e has min == max (4)") == true, "not 0: rejected")
    }
}
