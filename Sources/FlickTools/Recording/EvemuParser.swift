import FlickCore

/// Reads evemu recordings (`evemu-record` and `evemu-describe` output).
///
/// The format, one item per line:
/// - `N: <name>` device name; `I: <bus> <vendor> <product> <version>` in hex;
/// - `P: <byte> ...` the `INPUT_PROP_*` bitmask, 8 bytes a line, further `P:` lines continue it;
/// - `B: <type> <byte> ...` the code bitmask of one event type, 8 bytes a line, further lines
///   for the same type continue it;
/// - `A: <code> <min> <max> <fuzz> <flat> [<resolution>]` an absolute axis, code in hex;
///   files from evemu before 1.0 have no resolution column (read as 0);
/// - `L: <code> <value>` / `S: <code> <value>` LED and switch states (read and ignored);
/// - `E: <sec>.<usec> <type> <code> <value>` an event: usec six digits as evemu writes it
///   (1 to 6 read as evemu reads them, a count: `12.5` is 12 s and 5 µs), type and code in hex,
///   value in decimal, optionally followed by a `# EV_ABS / ABS_X 123` comment (evemu 1.3);
/// - `#` comments and blank lines anywhere.
///
/// Tolerated: CRLF line ends, blanks around fields, description lines anywhere in the file, a
/// UTF-8 byte order mark before the first line.
/// Strict: every malformed line is an error naming it; a last line without a newline is
/// reported as a truncated file, since evemu always ends its lines, unless it is visibly whole:
/// an `E:` line whose comment has begun (evemu 1.3 writes one after every value), or a
/// SYN_REPORT (its value 0 however much of `0000` is left). A description cut at a line end is
/// caught by what evemu always writes: `B:` lines after `N:`, `I:` and `P:`, an `A:` line for
/// every axis its `B: 03` line lists, and a `B: 01` / `B: 03` line when its `B: 00` line lists
/// EV_KEY / EV_ABS. Without that check a `.desc` that lost its last `A:` lines replays as a
/// device without slots or pressure, and gives another answer rather than an error.
public enum EvemuParser {
    /// Parses evemu `text`. The device description is the one embedded in `text` (`N:`, `I:`,
    /// ... lines) or, when it has none, the one in `description` (the text of a `.desc` file).
    ///
    /// When both have one, the embedded description wins: it was written by the same
    /// `evemu-record` run as the events, while a separate `.desc` may come from another kernel
    /// or firmware of the same model (the shared ALPS recordings differ in their axis ranges).
    /// `description` is still checked and its errors reported.
    /// - Throws: `RecordingError` for the first malformed line, or when neither text describes
    ///   the device: line 0 when `description` is empty (or blank lines and comments), the first
    ///   `E:` line of a `description` that has events.
    public static func parse(text: String, description: String? = nil) throws(RecordingError) -> Recording {
        var recording = Reader(part: .recording)
        try recording.read(TextLines.withoutByteOrderMark(text))

        var separate: DeviceDescription?
        if let description {
            if let emptiness = TextLines.emptiness(description) {
                throw RecordingError(line: 0, message: "\(emptiness) (no evemu description lines: N:, I:, A: ...)", part: .description)
            }
            var reader = Reader(part: .description)
            try reader.read(TextLines.withoutByteOrderMark(description))
            if !reader.events.isEmpty {
                // The recording and its description given the wrong way round is the likely
                // cause when the recording has no events itself.
                let swapped = recording.events.isEmpty ? "; were FILE and --desc swapped?" : ""
                throw RecordingError(line: reader.firstEventLine ?? 1,
                                     message: "--desc FILE must be a description only, without E: lines (this one has \(reader.events.count), the first on this line)\(swapped)",
                                     part: .description)
            }
            separate = reader.description
        }

        guard let device = recording.description ?? separate else {
            let hint = description == nil
                ? "no device description: the events have no N:/I:/A: lines and no .desc was given"
                : "no device description: neither the events nor the .desc have N:/I:/A: lines"
            throw RecordingError(line: 1, message: hint)
        }
        var result = Recording(description: device, events: recording.events)
        result.describedSeparately = recording.description == nil
        return result
    }

    /// The state of one pass over one text.
    private struct Reader {
        let part: RecordingError.Part
        var name: String?
        var nameLine = 0
        var id: (bustype: UInt16, vendor: UInt16, product: UInt16)?
        var properties: Set<UInt16> = []
        var keys: Set<UInt16> = []
        var axes: [UInt16: AxisInfo] = [:]
        /// Bytes seen so far of each type's bitmask, so further `B:` lines continue it.
        var bitmaskBytes: [UInt16: Int] = [:]
        var propertyBytes = 0
        /// The event types the `B: 00` lines list (EV_SYN's bitmask is the device's types),
        /// and the first such line.
        var eventTypes: Set<UInt16> = []
        var eventTypesLine: Int?
        /// The axes the `B: 03` lines list, and the first such line.
        var listedAxes: Set<UInt16> = []
        var listedAxesLine: Int?
        var sawDescriptionLine = false
        /// The last line that described the device (`N:`, `I:`, `P:`, `B:`, `A:`).
        var lastDescriptionLine = 0
        var events: [TimedEvent] = []
        var firstEventLine: Int?

        init(part: RecordingError.Part) { self.part = part }

        /// The description, when any description line was seen.
        var description: DeviceDescription? {
            guard sawDescriptionLine else { return nil }
            return DeviceDescription(
                name: name ?? "", bustype: id?.bustype ?? 0, vendor: id?.vendor ?? 0, product: id?.product ?? 0,
                properties: properties, keys: keys, absoluteAxes: axes)
        }

        mutating func read(_ text: String) throws(RecordingError) {
            let lines = TextLines.split(text)
            for line in lines {
                do {
                    try readLine(line)
                } catch {
                    if !line.isTerminated {
                        throw RecordingError(line: line.number,
                                             message: TextLines.truncationError(line: line.number, detail: error.message),
                                             part: part)
                    }
                    throw error
                }
            }
            if let last = lines.last, !last.isTerminated, !last.trimmed.isEmpty, !Self.isWholeEvent(last.trimmed) {
                throw RecordingError(line: last.number, message: TextLines.truncationError(line: last.number, detail: nil),
                                     part: part)
            }
            try checkCompleteness()
        }

        /// Fails when the description lacks a line evemu always writes: a `B:` line at all
        /// (evemu writes one for every event type, after `N:`, `I:` and `P:`), a `B: 01` /
        /// `B: 03` line for EV_KEY / EV_ABS when `B: 00` lists them, an `A:` line for each axis
        /// `B: 03` lists. A text cut at a line end lacks them, and parses without any other error.
        /// Only EV_KEY and EV_ABS are checked: they are what flickd reads, and hand-written
        /// descriptions (the tests' own) may list other types without their lines.
        private func checkCompleteness() throws(RecordingError) {
            if sawDescriptionLine && bitmaskBytes.isEmpty {
                // Without it the device has no keys and no axes: it would replay as one that
                // reports no touch positions, an answer instead of an error.
                throw RecordingError(line: lastDescriptionLine,
                                     message: "the description ends before its B: lines (evemu writes a B: line for every event type): cut short?",
                                     part: part)
            }
            if let eventTypesLine {
                for type in [EventCode.key, EventCode.absolute] where eventTypes.contains(type) && bitmaskBytes[type] == nil {
                    throw RecordingError(line: eventTypesLine,
                                         message: "B: 00 lists \(EventNames.typeName(type)) but there is no B: \(Self.hexByte(type)) line (evemu writes one for every type B: 00 lists): cut short?",
                                         part: part)
                }
            }
            guard let listedAxesLine else { return }
            // Codes beyond ABS_MAX cannot have an A: line (readAxis refuses them); evemu lists none.
            if let missing = listedAxes.filter({ $0 <= 0x3f && axes[$0] == nil }).min() {
                throw RecordingError(line: listedAxesLine,
                                     message: "B: 03 lists \(EventNames.codeName(type: EventCode.absolute, code: missing)) (0x\(Self.hexByte(missing))) but there is no A: line for it (evemu writes one for every axis B: 03 lists): cut short?",
                                     part: part)
            }
        }

        private static func hexByte(_ value: UInt16) -> String {
            let digits = String(value, radix: 16)
            return digits.count < 2 ? "0" + digits : digits
        }

        /// Whether `line` (trimmed, and already read without error) is an `E:` line that cannot
        /// have lost its end: four fields and the start of the comment evemu 1.3 writes after
        /// them, or an EV_SYN SYN_REPORT of value 0, which no cut of a longer value can be.
        static func isWholeEvent(_ line: ArraySlice<UInt8>) -> Bool {
            guard line.starts(with: Array("E:".utf8)) else { return false }
            let fields = TextLines.fields(line.dropFirst(2))
            if fields.count > 4, fields[4].first == UInt8(ascii: "#") { return true }
            guard fields.count == 4 else { return false }
            return TextLines.hexadecimal(fields[1]) == 0 && TextLines.hexadecimal(fields[2]) == 0 && TextLines.decimal(fields[3]) == 0
        }

        private func fail(_ line: TextLine, _ message: String) -> RecordingError {
            RecordingError(line: line.number, message: message, part: part)
        }

        private mutating func readLine(_ line: TextLine) throws(RecordingError) {
            let content = line.trimmed
            guard let first = content.first, first != UInt8(ascii: "#") else { return }
            guard content.count >= 2, content[content.startIndex + 1] == UInt8(ascii: ":") else {
                throw fail(line, "expected an evemu line (\"E: ...\", \"A: ...\", ...), found \(TextLines.quote(content))")
            }
            let rest = content.dropFirst(2)
            switch first {
            case UInt8(ascii: "E"): try readEvent(line, rest)
            case UInt8(ascii: "N"): try readName(line, rest)
            case UInt8(ascii: "I"): try readID(line, rest)
            case UInt8(ascii: "P"): try readProperties(line, rest)
            case UInt8(ascii: "B"): try readBitmask(line, rest)
            case UInt8(ascii: "A"): try readAxis(line, rest)
            case UInt8(ascii: "L"), UInt8(ascii: "S"): try readState(line, rest)
            default:
                throw fail(line, "unknown evemu line kind \"\(String(decoding: content.prefix(2), as: UTF8.self))\"; expected N:, I:, P:, B:, A:, L:, S: or E:")
            }
        }

        /// The fields of a data line, without a trailing `# comment`.
        private func dataFields(_ rest: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
            var fields: [ArraySlice<UInt8>] = []
            for field in TextLines.fields(rest) {
                if field.first == UInt8(ascii: "#") { break }
                fields.append(field)
            }
            return fields
        }

        private func hex16(_ line: TextLine, _ field: ArraySlice<UInt8>, _ what: String) throws(RecordingError) -> UInt16 {
            guard field.count <= 4, let value = TextLines.hexadecimal(field), let result = UInt16(exactly: value) else {
                throw fail(line, "\(what) \(TextLines.quote(field)) is not a hexadecimal number of at most 4 digits")
            }
            return result
        }

        private func int32(_ line: TextLine, _ field: ArraySlice<UInt8>, _ what: String) throws(RecordingError) -> Int32 {
            guard let value = TextLines.decimal(field), let result = Int32(exactly: value) else {
                throw fail(line, "\(what) \(TextLines.quote(field)) is not a decimal 32-bit integer")
            }
            return result
        }

        private mutating func readName(_ line: TextLine, _ rest: ArraySlice<UInt8>) throws(RecordingError) {
            // The name is the rest of the line: it may hold blanks and even '#'.
            if name != nil {
                throw fail(line, "second N: line (the first was line \(nameLine)); one file describes one device")
            }
            name = String(decoding: TextLines.trim(rest), as: UTF8.self)
            nameLine = line.number
            sawDescriptionLine = true
            lastDescriptionLine = line.number
        }

        private mutating func readID(_ line: TextLine, _ rest: ArraySlice<UInt8>) throws(RecordingError) {
            let fields = dataFields(rest)
            guard fields.count == 4 else {
                throw fail(line, "I: needs 4 hexadecimal fields (bus vendor product version), found \(fields.count)")
            }
            id = (try hex16(line, fields[0], "bus"), try hex16(line, fields[1], "vendor"), try hex16(line, fields[2], "product"))
            _ = try hex16(line, fields[3], "version")
            sawDescriptionLine = true
            lastDescriptionLine = line.number
        }

        /// Sets the bits of `bytes` (hex fields), which start at byte `offset` of a bitmask.
        private func bits(_ line: TextLine, _ bytes: ArraySlice<ArraySlice<UInt8>>, offset: Int) throws(RecordingError) -> [UInt16] {
            var codes: [UInt16] = []
            for (index, field) in bytes.enumerated() {
                guard field.count <= 2, let byte = TextLines.hexadecimal(field) else {
                    throw fail(line, "bitmask byte \(TextLines.quote(field)) is not two hexadecimal digits")
                }
                for bit in 0..<8 where byte & (1 << UInt64(bit)) != 0 {
                    let code = (offset + index) * 8 + bit
                    guard let code16 = UInt16(exactly: code) else {
                        throw fail(line, "bitmask is longer than any event code")
                    }
                    codes.append(code16)
                }
            }
            return codes
        }

        private mutating func readProperties(_ line: TextLine, _ rest: ArraySlice<UInt8>) throws(RecordingError) {
            let fields = dataFields(rest)
            guard !fields.isEmpty else { throw fail(line, "P: needs at least one bitmask byte") }
            properties.formUnion(try bits(line, fields[...], offset: propertyBytes))
            propertyBytes += fields.count
            sawDescriptionLine = true
            lastDescriptionLine = line.number
        }

        private mutating func readBitmask(_ line: TextLine, _ rest: ArraySlice<UInt8>) throws(RecordingError) {
            let fields = dataFields(rest)
            guard fields.count >= 2 else {
                throw fail(line, "B: needs an event type and at least one bitmask byte, found \(fields.count) field(s)")
            }
            let type = try hex16(line, fields[0], "event type")
            guard type <= EventNames.maximumType else {
                throw fail(line, "event type 0x\(String(type, radix: 16)) is beyond EV_MAX (0x1f)")
            }
            let offset = bitmaskBytes[type, default: 0]
            let codes = try bits(line, fields.dropFirst(), offset: offset)
            bitmaskBytes[type] = offset + fields.count - 1
            switch type {
            case EventCode.key: keys.formUnion(codes)
            case EventCode.absolute:
                listedAxes.formUnion(codes)
                if listedAxesLine == nil { listedAxesLine = line.number }
            case 0:
                eventTypes.formUnion(codes)
                if eventTypesLine == nil { eventTypesLine = line.number }
            default: break
            }
            sawDescriptionLine = true
            lastDescriptionLine = line.number
        }

        private mutating func readAxis(_ line: TextLine, _ rest: ArraySlice<UInt8>) throws(RecordingError) {
            let fields = dataFields(rest)
            guard fields.count == 5 || fields.count == 6 else {
                throw fail(line, "A: needs an axis code and 4 or 5 numbers (min max fuzz flat [resolution]), found \(max(0, fields.count - 1)) number(s)")
            }
            let code = try hex16(line, fields[0], "axis code")
            guard code <= 0x3f else {
                throw fail(line, "axis code 0x\(String(code, radix: 16)) is beyond ABS_MAX (0x3f)")
            }
            let minimum = try int32(line, fields[1], "min")
            let maximum = try int32(line, fields[2], "max")
            let fuzz = try int32(line, fields[3], "fuzz")
            let flat = try int32(line, fields[4], "flat")
            let resolution = fields.count == 6 ? try int32(line, fields[5], "resolution") : 0
            axes[code] = AxisInfo(minimum: minimum, maximum: maximum, fuzz: fuzz, flat: flat, resolution: resolution)
            sawDescriptionLine = true
            lastDescriptionLine = line.number
        }

        private mutating func readState(_ line: TextLine, _ rest: ArraySlice<UInt8>) throws(RecordingError) {
            let fields = dataFields(rest)
            guard fields.count == 2 else {
                throw fail(line, "L:/S: needs a code and a value, found \(fields.count) field(s)")
            }
            _ = try hex16(line, fields[0], "code")
            _ = try int32(line, fields[1], "value")
        }

        private mutating func readEvent(_ line: TextLine, _ rest: ArraySlice<UInt8>) throws(RecordingError) {
            let fields = dataFields(rest)
            guard fields.count == 4 else {
                throw fail(line, "E: needs 4 fields (sec.usec type code value), found \(fields.count)")
            }
            let time = fields[0]
            guard let dot = time.firstIndex(of: UInt8(ascii: ".")) else {
                throw fail(line, "time \(TextLines.quote(time)) is not seconds.microseconds")
            }
            let secondsText = time[..<dot]
            let microsecondsText = time[(dot + 1)...]
            guard let seconds = TextLines.decimal(secondsText), seconds >= 0, seconds <= Self.maximumSeconds,
                  secondsText.first != UInt8(ascii: "-"), secondsText.first != UInt8(ascii: "+") else {
                throw fail(line, "time \(TextLines.quote(time)): seconds must be a non-negative integer of at most 12 digits")
            }
            // evemu reads the time with "%lu.%06u": up to 6 digits, a count of microseconds
            // ("12.5" is 12 s and 5 µs, as evemu-play replays it), not a decimal fraction.
            guard (1...6).contains(microsecondsText.count), let microseconds = TextLines.decimal(microsecondsText),
                  microsecondsText.first != UInt8(ascii: "-"), microsecondsText.first != UInt8(ascii: "+") else {
                throw fail(line, "time \(TextLines.quote(time)): microseconds must be 1 to 6 digits")
            }
            let type = try hex16(line, fields[1], "event type")
            guard type <= EventNames.maximumType else {
                throw fail(line, "event type 0x\(String(type, radix: 16)) is beyond EV_MAX (0x1f)")
            }
            let code = try hex16(line, fields[2], "event code")
            let value = try int32(line, fields[3], "value")
            if firstEventLine == nil { firstEventLine = line.number }
            events.append(TimedEvent(time: Instant(seconds: seconds, microseconds: microseconds),
                                     event: InputEvent(type: type, code: code, value: value)))
        }

        /// Largest accepted seconds field: far beyond any uptime or epoch time, small enough that
        /// the microsecond count cannot overflow.
        static let maximumSeconds: Int64 = 999_999_999_999
    }
}
