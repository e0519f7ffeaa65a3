import Testing
@testable import FlickCore
import FlickTestSupport
import FlickFingerStories

/// Touchpads that tell touches by pressure (libinput's `tp_unhover_pressure`): a contact resting
/// too lightly is no finger, and one pressing like a palm is a palm. A light thumb resting while
/// two fingers flick, or while one finger points, must not change the finger count libinput
/// sees, nor make flickd coast where libinput never scrolled.
@Suite struct PressureTests {
    /// What a touchpad's frames made of a gesture: each frame's finger count, and whether a
    /// scroll was released (a coast may follow).
    struct Run {
        var fingerCounts: [Int] = []
        var released = false
    }

    /// Plays `frames` (each: the fingers' positions in mm, nil when up, and their pressures) on
    /// `device`, `interval` apart from t = 1 s, through the tracker (reading pressure as libinput
    /// does when `byPressure`) and a two-finger gesture recognizer.
    static func play(_ frames: [(fingers: [Vector?], pressures: [Int32])], device: String = "synaptics-rmi4",
                     byPressure: Bool = true, interval: Duration = .milliseconds(10)) throws -> Run {
        let description = try Fixtures.device(device)
        let pressure = byPressure ? TouchPressure.libinput(for: description, kind: .touchpad) : nil
        var tracker = ContactTracker(description: description, kind: .touchpad, touchPressure: pressure)
        var recognizer = GestureRecognizer(requiredFingers: 2, liftWindow: .milliseconds(50), liftTravel: 2,
                                           estimator: VelocityEstimator(kind: .lsq2))
        var writer = FingerFrameWriter(description: description, kind: .touchpad)
        var run = Run()
        var time = Instant(seconds: 1, microseconds: 0)
        for frame in frames {
            var summaries: [FrameSummary] = []
            writer.frame(frame.fingers, pressures: frame.pressures) { event in
                if let summary = tracker.handle(event, at: time) { summaries.append(summary) }
            }
            for summary in summaries {
                run.fingerCounts.append(summary.fingerCount)
                if case .released = recognizer.handle(summary) { run.released = true }
            }
            time = time + interval
        }
        return run
    }

    /// Finger 0 lands at (30 mm, 20 mm) pressing `moving`, and moves down at 300 mm/s for 150 ms
    /// (10 ms frames) while finger 1 rests at (60 mm, 20 mm) pressing `resting`; both lift in the
    /// same frame.
    static func pointingBesideARestingThumb(moving: Int32 = 100, resting: Int32) -> [(fingers: [Vector?], pressures: [Int32])] {
        var frames: [(fingers: [Vector?], pressures: [Int32])] = []
        for n in 0...15 {
            frames.append(([Vector(x: 30, y: 20 + 3 * Double(n)), Vector(x: 60, y: 20)], [moving, resting]))
        }
        frames.append(([nil, nil], []))
        frames.append(([nil, nil], []))
        return frames
    }

    @Test("one finger pointing at 300 mm/s beside a thumb resting at pressure 20, both lifted in one frame: one finger, no coast")
    func lightThumbIsNoFinger() throws {
        let run = try Self.play(Self.pointingBesideARestingThumb(resting: 20))
        #expect(run.fingerCounts.max() == 1, "finger counts \(run.fingerCounts)")
        #expect(!run.released, "libinput saw one finger pointing: nothing to coast")
    }

    @Test("the same with the thumb pressing 40 (over the 30 threshold): two fingers, as libinput reads them")
    func firmThumbIsAFinger() throws {
        let run = try Self.play(Self.pointingBesideARestingThumb(resting: 40))
        #expect(run.fingerCounts.max() == 2, "finger counts \(run.fingerCounts)")
    }

    @Test("without pressure detection (a touchscreen, or the old tracker) the light thumb counts")
    func withoutPressureTheThumbCounts() throws {
        let run = try Self.play(Self.pointingBesideARestingThumb(resting: 20), byPressure: false)
        #expect(run.fingerCounts.max() == 2, "finger counts \(run.fingerCounts)")
        #expect(run.released, "read as two fingers, the pointing finger's motion is a scroll released")
    }

    /// Two fingers at (40 mm, 20 mm) and (60 mm, 20 mm) pressing 80 flick down at 200 mm/s for
    /// 150 ms; from 50 ms, a third contact rests at (20 mm, 50 mm) pressing `third`; the two
    /// lift together, then the third 30 ms later.
    static func flickWithAThirdContact(third: Int32) -> [(fingers: [Vector?], pressures: [Int32])] {
        var frames: [(fingers: [Vector?], pressures: [Int32])] = []
        for n in 0...15 {
            let y = 20 + 2 * Double(n)
            let thirdDown = n >= 5 ? Vector(x: 20, y: 50) : nil
            frames.append(([Vector(x: 40, y: y), Vector(x: 60, y: y), thirdDown], [80, 80, third]))
        }
        for _ in 0..<3 { frames.append(([nil, nil, Vector(x: 20, y: 50)], [0, 0, third])) }
        frames.append(([nil, nil, nil], []))
        return frames
    }

    @Test("a light third contact (pressure 15) during a two-finger flick: still two fingers, and it coasts")
    func lightThirdContactDuringAFlick() throws {
        let run = try Self.play(Self.flickWithAThirdContact(third: 15))
        #expect(run.fingerCounts.max() == 2, "finger counts \(run.fingerCounts)")
        #expect(run.released, "a two-finger flick as libinput reads it")
    }

    @Test("a third finger pressing 60 during the flick: too many fingers, no coast (libinput's reading too)")
    func firmThirdFingerStopsTheFlick() throws {
        let run = try Self.play(Self.flickWithAThirdContact(third: 60))
        #expect(run.fingerCounts.max() == 3, "finger counts \(run.fingerCounts)")
        #expect(!run.released)
    }

    @Test("hysteresis: a touch begins at 30 and ends below 25 (rmi4's 0...255 axis)")
    func hysteresis() throws {
        let at = Vector(x: 30, y: 20)
        let pressures: [Int32] = [29, 30, 26, 25, 24, 29, 31]
        let run = try Self.play(pressures.map { ([at], [$0]) })
        #expect(run.fingerCounts == [0, 1, 1, 1, 0, 0, 1], "pressures \(pressures)")
    }

    @Test("a contact pressing over 130 is a palm until it lifts, whatever its pressure does after")
    func palmByPressure() throws {
        let pressures: [Int32] = [80, 140, 80]
        let run = try Self.play(pressures.map { ([Vector(x: 30, y: 20), Vector(x: 60, y: 20)], [60, $0]) })
        #expect(run.fingerCounts == [2, 1, 1], "second contact's pressures \(pressures)")
    }

    @Test("a pad with more fingers than slots: the fingers beyond the slots press as the slots' contacts do")
    func fakeFingersFollowTheSlots() throws {
        // The T440 has two slots: a third finger is only BTN_TOOL_TRIPLETAP.
        let three = [Vector(x: 30, y: 20), Vector(x: 50, y: 20), Vector(x: 70, y: 20)]
        let firm = try Self.play([(three, [60, 60, 60])], device: "synaptics-t440")
        #expect(firm.fingerCounts == [3])
        // A light slot with a firm one: libinput begins every touch, all three fingers count;
        // with every slot light, none does.
        let oneLight = try Self.play([(three, [60, 10, 60])], device: "synaptics-t440")
        #expect(oneLight.fingerCounts == [3])
        let allLight = try Self.play([(three, [10, 10, 10])], device: "synaptics-t440")
        #expect(allLight.fingerCounts == [0])
    }

    @Test("a contact down at open counts by its pressure then")
    func slotsAtOpen() throws {
        let description = try Fixtures.device("synaptics-rmi4")
        let tracker = ContactTracker(
            description: description, kind: .touchpad,
            slotsAtOpen: [SlotAtOpen(trackingID: 5, x: 500, y: 500, pressure: 60),
                          SlotAtOpen(trackingID: 6, x: 900, y: 500, pressure: 10)],
            touchPressure: TouchPressure.libinput(for: description, kind: .touchpad))
        #expect(tracker.fingerCount == 1)
    }

    @Test("libinput's thresholds: from the axis, from a quirk, and where it reads no pressure")
    func thresholds() throws {
        let rmi4 = try Fixtures.device("synaptics-rmi4")
        let mt = EventCode.absMTPressure
        #expect(TouchPressure.libinput(for: rmi4, kind: .touchpad)
                == TouchPressure(touch: .init(axis: mt, high: 30, low: 25), palmThreshold: 130))
        // Elantech's quirk AttrPressureRange=10:8, ALPS's AttrPalmPressureThreshold=180.
        #expect(TouchPressure.libinput(for: rmi4, kind: .touchpad, pressureRange: (10, 8), palmThreshold: 180)
                == TouchPressure(touch: .init(axis: mt, high: 10, low: 8), palmThreshold: 180))
        // 0:0 turns detection off; a range outside the axis is discarded; a palm threshold of 0
        // turns palm detection off (libinput 1.31); external pads detect no palm.
        #expect(TouchPressure.libinput(for: rmi4, kind: .touchpad, pressureRange: (0, 0), palmThreshold: 0) == nil)
        #expect(TouchPressure.libinput(for: rmi4, kind: .touchpad, pressureRange: (300, 8))?.touch == nil)
        #expect(TouchPressure.libinput(for: rmi4, kind: .touchpad, isExternal: true)?.palmThreshold == nil)
        // Read by touch size (Apple's AttrTouchSizeRange): no pressure touches, palms still.
        #expect(TouchPressure.libinput(for: rmi4, kind: .touchpad, touchSizeRange: true)
                == TouchPressure(touch: nil, palmThreshold: 130))
        // A touchscreen: libinput reads no pressure.
        #expect(TouchPressure.libinput(for: rmi4, kind: .touchscreen) == nil)
        // A pressure pad: the axis has a resolution, it measures force.
        var pressurePad = rmi4
        pressurePad.absoluteAxes[mt]?.resolution = 1
        #expect(TouchPressure.libinput(for: pressurePad, kind: .touchpad) == nil)
        // Semi-MT: read as a single-touch pad, by ABS_PRESSURE, with no palm by pressure.
        var semi = rmi4
        semi.properties.insert(EventCode.propSemiMT)
        #expect(TouchPressure.libinput(for: semi, kind: .touchpad)
                == TouchPressure(touch: .init(axis: EventCode.absPressure, high: 30, low: 25), palmThreshold: nil))
    }

    @Test("a semi-MT pad: its one pressure decides for both corners")
    func semiMultitouch() throws {
        // The writer gives both corners finger 0's pressure, and ABS_PRESSURE finger 0's.
        var description = try Fixtures.device("synaptics-rmi4")
        description.properties.insert(EventCode.propSemiMT)
        description.absoluteAxes[EventCode.absMTSlot] = AxisInfo(minimum: 0, maximum: 1)
        let pressure = try #require(TouchPressure.libinput(for: description, kind: .touchpad))
        var tracker = ContactTracker(description: description, kind: .touchpad, touchPressure: pressure)
        var writer = FingerFrameWriter(description: description, kind: .touchpad)
        var counts: [Int] = []
        for p: Int32 in [20, 40, 20] {
            writer.frame([Vector(x: 30, y: 20), Vector(x: 50, y: 20)], pressures: [p, p]) { event in
                if let summary = tracker.handle(event, at: Instant(seconds: 1, microseconds: 0)) { counts.append(summary.fingerCount) }
            }
        }
        #expect(counts == [0, 2, 0])
    }
}

/// The engine reads a touchpad's pressure as libinput does (`Engine.addDevice`'s
/// `touchPressure`; `FingerScript` asks for libinput's rule from the pad's description): the stories of
/// `PressureTests` through the whole engine, on the rmi4 pad (0...255: touches from 30, palms
/// over 130), its fingers pressing the writer's plausible 63 unless the story says otherwise.
@Suite struct EnginePressureTests {
    @Test("one finger points at 300 mm/s beside a thumb resting at pressure 20, both lift in one frame: no coast")
    func aLightThumbBesideAPointingFinger() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        let finger = pad.down(Vector(x: 30, y: 20))[0]
        pad.down(pressing: 20, Vector(x: 60, y: 20))
        pad.move(over: .milliseconds(150)) { $0 == finger ? Vector(x: 0, y: 45) : .zero }
        pad.lift()
        pad.wait(.seconds(3))
        #expect(pad.coasts.isEmpty && pad.output.isEmpty, "libinput saw one finger pointing, never a scroll:\n\(pad.transcript)")
    }

    @Test("the same thumb pressing 40 (a finger to libinput): the two-finger motion coasts, as libinput scrolled it")
    func aFirmThumbIsAFinger() throws {
        let pad = try FingerScript(device: "synaptics-rmi4")
        let finger = pad.down(Vector(x: 30, y: 20))[0]
        pad.down(pressing: 40, Vector(x: 60, y: 20))
        pad.move(over: .milliseconds(150)) { $0 == finger ? Vector(x: 0, y: 45) : .zero }
        pad.lift()
        pad.wait(.seconds(3))
        #expect(pad.coasts.count == 1, "\(pad.transcript)")
    }

    /// Two fingers flick down at 200 mm/s; 50 ms in, a contact lands pressing `third` and
    /// stays 30 ms after the two lift.
    static func flickWithAThirdContact(pressing third: Int32) throws -> FingerScript {
        let pad = try FingerScript(device: "synaptics-rmi4")
        pad.frameInterval = .milliseconds(10)
        pad.down(Vector(x: 40, y: 20), Vector(x: 60, y: 20))
        pad.move(by: Vector(x: 0, y: 10), over: .milliseconds(50))
        let contact = pad.down(pressing: third, Vector(x: 20, y: 50))[0]
        pad.move(over: .milliseconds(100)) { $0 == contact ? .zero : Vector(x: 0, y: 20) }
        pad.lift(0, 1)
        pad.wait(.milliseconds(30))
        pad.lift(contact)
        return pad
    }

    @Test("a light third contact (pressure 15) during a two-finger flick: the flick coasts")
    func aLightThirdContactDuringAFlick() throws {
        let pad = try Self.flickWithAThirdContact(pressing: 15)
        #expect(pad.coasts.count == 1, "a two-finger flick as libinput reads it:\n\(pad.transcript)")
    }

    @Test("a third finger pressing 60 during the flick: three fingers, no coast (libinput's reading too)")
    func aFirmThirdFingerStopsTheFlick() throws {
        let pad = try Self.flickWithAThirdContact(pressing: 60)
        #expect(pad.coasts.isEmpty, "\(pad.transcript)")
    }

    @Test("given no pressure rule (a pad libinput reads by touch size), every contact counts: the light thumb makes a scroll, which coasts")
    func givenNoRuleEveryContactCounts() throws {
        // The daemon's way: what the pad's quirks say, here that libinput reads no pressure.
        let pad = try FingerScript(device: "synaptics-rmi4", touchPressure: .given(nil))
        let finger = pad.down(Vector(x: 30, y: 20))[0]
        pad.down(pressing: 20, Vector(x: 60, y: 20))
        pad.move(over: .milliseconds(150)) { $0 == finger ? Vector(x: 0, y: 45) : .zero }
        pad.lift()
        pad.wait(.seconds(3))
        #expect(pad.coasts.count == 1, "\(pad.transcript)")
    }
}
