import Foundation
import Testing
import FlickCore
import FlickTestSupport

@Suite struct FixtureTests {
    @Test func everyDeviceFixtureLoadsAndIsTheKindItStates() throws {
        let names = Fixtures.allDeviceNames()
        #expect(names.count >= 14, "found \(names.count) device fixtures in \(Fixtures.devicesDirectory)")
        for name in names {
            let device = try Fixtures.device(name)
            #expect(!device.name.isEmpty)
            #expect(device.hasPosition, "\(name) has no position axes")
            let expected = try Fixtures.expectedKind(name)
            #expect(device.kind == expected, "\(name): expected \(expected), got \(String(describing: device.kind))")
        }
    }

    @Test func theFixturesCoverEveryWayOfReportingFingers() throws {
        let devices = try Fixtures.allDeviceNames().map(Fixtures.device)
        #expect(devices.contains { $0.slotCount > 2 && !$0.isSemiMultitouch }, "protocol B")
        #expect(devices.contains { $0.slotCount == 2 && $0.maximumToolFingerCount > 2 && !$0.isSemiMultitouch },
                "fewer slots than fingers")
        #expect(devices.contains { $0.isSemiMultitouch }, "semi-MT")
        #expect(devices.contains { $0.usesProtocolA }, "protocol A")
        #expect(devices.contains { $0.slotCount == 0 && !$0.usesProtocolA }, "single-touch")
        #expect(devices.contains { $0.kind == .touchpad && DeviceGeometry(description: $0, kind: .touchpad).x.isEstimated },
                "a touchpad with resolution 0")
        #expect(devices.contains { $0.kind == .touchscreen }, "a touchscreen")
    }

    @Test func aFixtureWithAMistakeNamesItsLine() {
        let text = "name Pad\nkind touchpad\naxis ABS_X 0 100\nkeys BTN_TOUCH BTN_NOPE\n"
        #expect(throws: Fixtures.FixtureError.self) { try Fixtures.parseDevice(text: text, path: "bad.device") }
        do {
            _ = try Fixtures.parseDevice(text: text, path: "bad.device")
        } catch let error as Fixtures.FixtureError {
            #expect(error.description == "bad.device:4: unknown key BTN_NOPE")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(.needsSharedDevices)
    func everySharedDeviceLoadsAndIsTheKindLibinputSays() throws {
        let names = Fixtures.sharedDeviceNames()
        #expect(names.count >= 20, "found \(names.count) device samples in \(Fixtures.sharedDevicesDirectory)")
        for name in names {
            let device = try Fixtures.sharedDevice(name)
            #expect(device.hasPosition, "\(name) has no position axes")
            let expected = try Fixtures.sharedExpectedKind(name)
            #expect(device.kind == expected, "\(name): expected \(String(describing: expected)), got \(String(describing: device.kind))")
        }
    }

    @Test(.needsSharedDevices)
    func fixturesStateWhatTheSharedSampleOfTheSameNameStates() throws {
        // Typos in the hand-written fixtures show here, where the samples are present.
        let shared = Set(Fixtures.sharedDeviceNames())
        let compared = Fixtures.allDeviceNames().filter(shared.contains)
        #expect(!compared.isEmpty, "no fixture has a sample of its name in \(Fixtures.sharedDevicesDirectory): nothing compared")
        for name in compared {
            #expect(try Fixtures.device(name) == Fixtures.sharedDevice(name), "\(name)")
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

    @Test(.needsSharedRecordings)
    func recordingsAreFoundAndPaired() {
        let paths = Fixtures.recordingPaths()
        #expect(!paths.isEmpty, "no recording in \(Fixtures.recordingsDirectory)")
        let synaptics = paths.first { $0.hasSuffix("SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events") }
        #expect(synaptics.flatMap(Fixtures.descriptionPath(forRecording:))?.hasSuffix("/SynPS2_Synaptics_TouchPad.desc") == true)
    }
}
