import FlickCore

/// A two-finger flick on a pad whose kernel state, when flickd opens it, has its current MT slot
/// at 1 and a finger resting in slot 0.
///
/// The kernel sends ABS_MT_SLOT only when the slot changes, so the first finger to land after the
/// open, in slot 1, comes with no ABS_MT_SLOT: a reader that takes slot 0 as current puts it there,
/// the resting finger's lift (ABS_MT_SLOT 0, tracking id -1) then lifts it, and its motion goes to a
/// slot the reader never saw land. The flick that follows reads as one finger.
public enum SlotAtOpenStory {
    /// The kernel's current MT slot when the device is opened (libevdev's at open).
    public static let slotAtOpen = 1

    /// One frame: its time (ms) and its events, up to and including its SYN_REPORT.
    public typealias Frame = (milliseconds: Int64, events: [InputEvent])

    /// The frames after the open, timed from the first: a finger lands (slot 1), the resting one
    /// lifts (slot 0), a second finger lands (slot 0), both move 20 mm down over 96 ms and lift.
    public static func framesAfterOpen(description: DeviceDescription) -> [Frame] {
        frames(description: description).after
    }

    /// The frames before the open, 100 ms apart, timed from 300 ms before the first one after
    /// it: finger 0 lands in slot 0 and rests, finger 1 lands in slot 1 and lifts; then the
    /// frames after the open.
    public static func frames(description: DeviceDescription) -> (before: [Frame], after: [Frame]) {
        var writer = FingerFrameWriter(description: description)
        func frame(_ fingers: [Vector?]) -> [InputEvent] {
            var events: [InputEvent] = []
            writer.frame(fingers) { events.append($0) }
            return events
        }
        let resting = Vector(x: 30, y: 40)
        let before: [Frame] = [
            (-300, frame([resting, nil, nil])),
            (-200, frame([resting, Vector(x: 50, y: 40), nil])),
            (-100, frame([resting, nil, nil])),
        ]
        var frames: [Frame] = []
        frames.append((0, frame([resting, Vector(x: 40, y: 10), nil])))
        frames.append((8, frame([nil, Vector(x: 40, y: 10), nil])))
        frames.append((16, frame([nil, Vector(x: 40, y: 10), Vector(x: 20, y: 10)])))
        let steps = 12
        for step in 1...steps {
            let y = 10 + 20 * Double(step) / Double(steps)
            frames.append((16 + 8 * Int64(step), frame([nil, Vector(x: 40, y: y), Vector(x: 20, y: y)])))
        }
        frames.append((16 + 8 * Int64(steps) + 8, frame([nil, nil, nil])))
        return (before, frames)
    }
}
