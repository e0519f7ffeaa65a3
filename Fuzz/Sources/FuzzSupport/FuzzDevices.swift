import FlickCore
import FlickTools

/// The real devices fuzz inputs and soak streams are played on (`DeviceTable`, generated from
/// ../shared): protocol B pads with 2 and 5 slots, a semi-multitouch pad, a single-touch pad, a
/// protocol A touchscreen, protocol B touchscreens, and the devices of the shared recordings.
public enum FuzzDevices {
    /// The descriptions, in table order (an input names a device by its index).
    public static let all: [DeviceDescription] = DeviceTable.entries.map { entry in
        do {
            return try Recording.load(text: entry.evemu).description
        } catch {
            fatalError("DeviceTable entry \(entry.origin) does not parse: \(error)")
        }
    }

    /// Where each description comes from, in table order.
    public static var origins: [String] { DeviceTable.entries.map(\.origin) }

    /// The index of the table entry equal to `description`, if any.
    public static func index(of description: DeviceDescription) -> Int? {
        all.firstIndex(of: description)
    }
}
