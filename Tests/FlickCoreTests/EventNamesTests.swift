import Foundation
import Testing
import FlickCore
import FlickTools
import FlickTestSupport

// MARK: - Event names

@Suite struct EventNamesTests {
    @Test func everyNamedCodeRoundTrips() {
        let entries = EventNames.allEntries
        #expect(entries.count > 150)
        // libevdev names EV_FF's codes 0 and 1 after EV_FF_STATUS's (FF_STATUS_STOPPED), and
        // reads those names as EV_FF_STATUS's: force feedback is nothing flickd reads.
        for entry in entries where entry.type != 0x15 {
            #expect(EventNames.codeName(type: entry.type, code: entry.code) == entry.name)
            let found = EventNames.lookup(entry.name)
            #expect(found?.type == entry.type && found?.code == entry.code, "\(entry.name)")
        }
    }

    @Test func kernelValuesOfTheCodesFlickdReads() {
        #expect(EventNames.lookup("BTN_TOOL_DOUBLETAP")! == (0x01, 0x14d))
        #expect(EventNames.lookup("BTN_TOUCH")! == (0x01, 0x14a))
        #expect(EventNames.lookup("ABS_MT_TRACKING_ID")! == (0x03, 0x39))
        #expect(EventNames.lookup("ABS_MT_TOOL_Y")! == (0x03, 0x3d))
        #expect(EventNames.lookup("REL_HWHEEL_HI_RES")! == (0x02, 0x0c))
        #expect(EventNames.lookup("SYN_MT_REPORT")! == (0x00, 0x02))
        #expect(EventNames.lookup("MSC_TIMESTAMP")! == (0x04, 0x05))
        #expect(EventNames.lookup("BTN_TRIGGER_HAPPY40")! == (0x01, 0x2e7))
        #expect(EventNames.typeName(EventCode.absolute) == "EV_ABS")
        #expect(EventNames.typeName(0x17) == "EV_FF_STATUS")
        #expect(EventNames.type(named: "EV_MSC") == 0x04)
        #expect(EventNames.property(named: "INPUT_PROP_SEMI_MT") == EventCode.propSemiMT)
        #expect(EventNames.property(named: "INPUT_PROP_ACCELEROMETER") == 0x06)
        #expect(EventNames.propertyName(0x02) == "INPUT_PROP_BUTTONPAD")
    }

    @Test func aliasesAreReadButTheCanonicalNameIsPrinted() {
        #expect(EventNames.lookup("BTN_MOUSE")! == (0x01, 0x110))
        #expect(EventNames.lookup("BTN_A")! == (0x01, 0x130))
        #expect(EventNames.codeName(type: 0x01, code: 0x110) == "BTN_LEFT")
        #expect(EventNames.codeName(type: 0x01, code: 0x130) == "BTN_SOUTH")
    }

    @Test func unnamedCodesGetAHexNameThatReadsBack() {
        #expect(EventNames.codeName(type: 0x03, code: 0x2a) == "ABS_0x2a")
        #expect(EventNames.codeName(type: 0x01, code: 0x54) == "KEY_0x54")
        #expect(EventNames.codeName(type: 0x01, code: 0x1e) == "KEY_A")
        #expect(EventNames.codeName(type: 0x05, code: 0x01) == "SW_TABLET_MODE")
        #expect(EventNames.codeName(type: 0x03, code: 0x3f) == "ABS_0x3f", "ABS_MAX is no name of its own")
        #expect(EventNames.codeName(type: 0x1f, code: 0x03) == "EV_0x1f_0x03")
        #expect(EventNames.typeName(0x1f) == "EV_0x1f")
        #expect(EventNames.propertyName(0x10) == "INPUT_PROP_0x10")
        #expect(EventNames.lookup("ABS_0x2a")! == (0x03, 0x2a))
        #expect(EventNames.lookup("KEY_0x54")! == (0x01, 0x54))
        #expect(EventNames.lookup("ABS_0x3f")! == (0x03, 0x3f))
        #expect(EventNames.lookup("FF_0x7f")! == (0x15, 0x7f))
        #expect(EventNames.type(named: "EV_0x1f") == 0x1f)
    }

    @Test func unknownNamesAndCodesBeyondTheMaximumAreRejected() {
        #expect(EventNames.lookup("ABS_NOPE") == nil)
        #expect(EventNames.lookup("ABS_0x40") == nil)       // ABS_MAX is 0x3f
        #expect(EventNames.lookup("ABS_0x") == nil)
        #expect(EventNames.lookup("ABS_0xzz") == nil)
        #expect(EventNames.lookup("") == nil)
        #expect(EventNames.type(named: "EV_0x20") == nil)   // EV_MAX is 0x1f
        #expect(EventNames.property(named: "INPUT_PROP_NOPE") == nil)
    }
}
