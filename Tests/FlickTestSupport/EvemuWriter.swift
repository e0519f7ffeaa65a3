import FlickCore
import FlickTools

/// Writes a device and its events as an evemu recording (the format `EvemuParser` reads and
/// `flickd replay` takes), for the recordings the tests synthesize themselves.
public enum EvemuWriter {
    /// The evemu text of `events` (times as they are, microseconds) on `description`.
    /// `comment` lines go at the top, after `# EVEMU 1.3`.
    public static func text(description: DeviceDescription, events: [TimedEvent], comment: [String] = []) -> String {
        var lines = ["# EVEMU 1.3"] + comment.map { "# " + $0 }
        lines.append("N: " + description.name)
        lines.append("I: " + [description.bustype, description.vendor, description.product, 1].map { hex($0, width: 4) }.joined(separator: " "))
        lines += bitmask(prefix: "P:", bits: Set(description.properties))
        // B: 00 is EV_SYN's bitmask, which evdev (and so evemu) fills with the device's event
        // types, not with SYN_* codes: EV_SYN always, EV_KEY and EV_ABS where it has them.
        var types: Set<UInt16> = [EventCode.synchronization]
        if !description.keys.isEmpty { types.insert(EventCode.key) }
        if !description.absoluteAxes.isEmpty { types.insert(EventCode.absolute) }
        lines += bitmask(prefix: "B: 00", bits: types)
        lines += bitmask(prefix: "B: 01", bits: description.keys)
        lines += bitmask(prefix: "B: 03", bits: Set(description.absoluteAxes.keys))
        for (code, axis) in description.absoluteAxes.sorted(by: { $0.key < $1.key }) {
            lines.append("A: \(hex(code, width: 2)) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)")
        }
        for timed in events {
            let microseconds = timed.time.microseconds
            let fraction = String(microseconds % 1_000_000)
            let time = "\(microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
            let name = EventNames.codeName(type: timed.event.type, code: timed.event.code)
            lines.append("E: \(time) \(hex(timed.event.type, width: 4)) \(hex(timed.event.code, width: 4)) \(timed.event.value)\t# \(name)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func hex(_ value: UInt16, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// `prefix` lines of 8 bitmask bytes each, as many as the highest bit needs (at least one).
    private static func bitmask(prefix: String, bits: Set<UInt16>) -> [String] {
        let byteCount = max(8, ((Int(bits.max() ?? 0) / 8) / 8 + 1) * 8)
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for bit in bits { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
        return stride(from: 0, to: byteCount, by: 8).map { start in
            prefix + " " + bytes[start..<start + 8].map { hex(UInt16($0), width: 2) }.joined(separator: " ")
        }
    }
}
