import CEvdev
import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// The virtual wheel without /dev/uinput: what it declares, how a frame is encoded, and the
/// explanation when uinput is missing or closed to the user.
@Suite("Virtual wheel")
struct VirtualWheelTests {
    @Test("declares both wheel resolutions and what udev needs to call it a mouse")
    func capabilities() {
        let declared = Set(VirtualWheel.capabilities)
        let rel = EventCode.relative
        for code in [EventCode.relWheel, EventCode.relHorizontalWheel, EventCode.relWheelHiRes,
                     EventCode.relHorizontalWheelHiRes, EventCode.relX, EventCode.relY] {
            #expect(declared.contains(InputCapability(type: rel, code: code)), "EV_REL \(code)")
        }
        for code in [EventCode.buttonLeft, EventCode.buttonRight, EventCode.buttonMiddle] {
            #expect(declared.contains(InputCapability(type: EventCode.key, code: code)), "EV_KEY \(code)")
        }
        #expect(declared.count == VirtualWheel.capabilities.count, "no duplicates")
    }

    @Test("the uinput template carries the name, BUS_VIRTUAL and every capability")
    func template() {
        let template = VirtualWheel.makeTemplate()
        defer { libevdev_free(template) }
        let description = EvdevDevice.describe(template)
        #expect(description.name == "flickd virtual wheel")
        #expect(description.bustype == 0x06)
        #expect(description.keys == [EventCode.buttonLeft, EventCode.buttonRight, EventCode.buttonMiddle])
        #expect(description.absoluteAxes.isEmpty)
        #expect(description.kind == nil, "the engine must never read its own wheel as a touch device")
        for capability in VirtualWheel.capabilities {
            #expect(libevdev_has_event_code(template, UInt32(capability.type), UInt32(capability.code)) == 1)
        }
        #expect(libevdev_has_event_type(template, UInt32(EV_ABS)) == 0)
    }

    /// The events one frame of `output` becomes, as (type, code, value).
    func encoded(_ output: WheelOutput) -> [InputEvent] {
        let frame = UnsafeMutablePointer<input_event>.allocate(capacity: VirtualWheel.maximumFrameLength)
        defer { frame.deallocate() }
        let count = VirtualWheel.encode(output, into: frame)
        return (0..<count).map { InputEvent(type: frame[$0].type, code: frame[$0].code, value: frame[$0].value) }
    }

    @Test("empty output writes nothing")
    func emptyFrame() {
        #expect(encoded(WheelOutput()).isEmpty)
    }

    @Test("a full frame: hi-res codes, legacy detents, then SYN_REPORT")
    func fullFrame() {
        let output = WheelOutput(verticalHiRes: 150, horizontalHiRes: -30, verticalDetents: 1, horizontalDetents: -1)
        #expect(encoded(output) == [
            InputEvent(type: EventCode.relative, code: EventCode.relWheelHiRes, value: 150),
            InputEvent(type: EventCode.relative, code: EventCode.relHorizontalWheelHiRes, value: -30),
            InputEvent(type: EventCode.relative, code: EventCode.relWheel, value: 1),
            InputEvent(type: EventCode.relative, code: EventCode.relHorizontalWheel, value: -1),
            InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0),
        ])
    }

    @Test("only the codes that moved are written")
    func partialFrame() {
        #expect(encoded(WheelOutput(verticalHiRes: -15, horizontalHiRes: 0)) == [
            InputEvent(type: EventCode.relative, code: EventCode.relWheelHiRes, value: -15),
            InputEvent(type: EventCode.synchronization, code: EventCode.synReport, value: 0),
        ])
    }

    @Test("missing uinput: the explanation names modprobe")
    func missingText() {
        let error = VirtualWheelError(SystemError(errno: ENOENT, call: "libevdev_uinput_create_from_device", path: "/dev/uinput"))
        #expect(error.cause == .uinputMissing)
        #expect(error.description.contains("sudo modprobe uinput"))
        #expect(error.description.contains("No such file or directory"))
        #expect(!error.description.contains("\n"), "one paragraph")
        #expect(VirtualWheelError(SystemError(errno: ENODEV, call: "open")).cause == .uinputMissing)
    }

    @Test("no permission: the explanation names the udev rule and the input group")
    func permissionText() {
        let error = VirtualWheelError(SystemError(errno: EACCES, call: "libevdev_uinput_create_from_device", path: "/dev/uinput"))
        #expect(error.cause == .permissionDenied)
        #expect(error.description.contains("70-flickd-uinput.rules"))
        #expect(error.description.contains("uaccess"))
        #expect(error.description.contains("input group"))
        #expect(!error.description.contains("\n"), "one paragraph")
    }

    @Test("on a machine without /dev/uinput, creating the wheel says uinput is missing",
          .enabled(if: !Syscall.exists("/dev/uinput"), "needs a machine without /dev/uinput"))
    func createWithoutUinput() {
        #expect {
            _ = try VirtualWheel()
        } throws: { error in
            (error as? VirtualWheelError)?.cause == .uinputMissing
        }
    }

    @Test("input access: the explanation names the input group and the node")
    func inputAccessText() {
        let text = InputAccessError(SystemError(errno: EACCES, call: "open", path: "/dev/input/event4")).description
        #expect(text.contains("/dev/input/event4"))
        #expect(text.contains("Permission denied"))
        #expect(text.contains("usermod -aG input"))
        #expect(!text.contains("\n"), "one paragraph")
        #expect(!text.contains("uaccess"), "not a rule for every keyboard of the machine (README)")
        let touchpad = InputAccessError(SystemError(errno: EACCES, call: "open", path: "/dev/input/event4"), kind: .touchpad)
        #expect(touchpad.description.hasPrefix("cannot read /dev/input/event4 (Permission denied): this touchpad gets no glide. "))
    }
}
