import Testing
import FlickCore

@Suite struct FixtureTests {
    @Test func everyDeviceFixtureLoadsAndIsTheKindLibinputSays() throws {
        let names = Fixtures.allDeviceNames()
        #expect(names.count >= 20, "found \(names.count) device fixtures in \(Fixtures.devicesDirectory)")
        for name in names {
            let device = try Fixtures.device(name)
            #expect(!device.name.isEmpty)
            #expect(device.hasPosition, "\(name) has no position axes")
            let expected = try Fixtures.expectedKind(name)
            #expect(device.kind == expected, "\(name): expected \(String(describing: expected)), got \(String(describing: device.kind))")
        }
    }

    @Test func synapticsT440IsATwoSlotClickpadWithFiveFingerTools() throws {
        let t440 = try Fixtures.device("synaptics-t440")
        #expect(t440.name == "SynPS/2 Synaptics TouchPad")
        #expect((t440.bustype, t440.vendor, t440.product) == (0x11, 2, 7))
        #expect(t440.properties == [EventCode.propPointer, EventCode.propButtonPad, 0x04])
        #expect(t440.slotCount == 2)
        #expect(t440.maximumToolFingerCount == 5)
        #expect(t440.absoluteAxes[EventCode.absMTPositionX] == AxisInfo(minimum: 1024, maximum: 5112, resolution: 42))
    }

    @Test func semiMultitouchAndProtocolAFixturesSayWhatTheyAre() throws {
        #expect(try Fixtures.device("alps-dualpoint").isSemiMultitouch)
        #expect(try Fixtures.device("protocol-a-touch-screen").usesProtocolA)
    }

    @Test func recordingsAreFoundAndPaired() {
        let paths = Fixtures.recordingPaths()
        #expect(paths.count == 10)
        let synaptics = paths.first { $0.hasSuffix("SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events") }
        #expect(synaptics.flatMap(Fixtures.descriptionPath(forRecording:))?.hasSuffix("/SynPS2_Synaptics_TouchPad.desc") == true)
    }
}
