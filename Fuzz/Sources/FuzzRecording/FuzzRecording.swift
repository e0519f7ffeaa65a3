import FlickCore
import FlickTools
import FuzzSupport

/// libFuzzer target `recording`: the recording parsers (evemu, with and without a separate
/// `.desc`, and `libinput record` YAML) and a replay of whatever parses.
///
/// Input: the recording text; when it holds a NUL byte, the text before it is the recording
/// and the text after it a separate evemu description (`Recording.load(text:description:)`).
/// Invalid UTF-8 is replaced, as `flickd replay` does when it reads a file.
///
/// Whatever parses is replayed twice: by `Replay` (what `flickd replay` prints), which must
/// end every coast it starts, and by `EngineHarness`, which checks the engine's invariants on
/// the recorded events (touchscreens enabled, so that they coast too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let text: String
    var description: String?
    if let nul = bytes.firstIndex(of: 0) {
        text = String(decoding: bytes[..<nul], as: UTF8.self)
        description = String(decoding: bytes[(nul + 1)...], as: UTF8.self)
    } else {
        text = String(decoding: bytes, as: UTF8.self)
    }

    let recording: Recording
    do {
        recording = try Recording.load(text: text, description: description)
    } catch {
        // A rejected file must say where: a line that exists (or the one after the last), or
        // line 0, the file as a whole, only for a text with no line of content (empty, blank
        // lines and comments).
        let rejected = error.part == .recording ? text : description ?? ""
        let lines = rejected.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        if error.line == 0 {
            if hasContent(rejected) { fatalError("error names the whole file (line 0) of a text with content: \(error)") }
        } else if error.line < 1 || error.line > lines {
            fatalError("error names line \(error.line) of a text with \(lines) lines: \(error)")
        }
        return 0
    }

    var configuration = Configuration()
    configuration.touchscreen.enabled = true
    let replay = Replay(recording, configuration: configuration)
    if replay.coasts.count != replay.coastEnds.count {
        fatalError("replay started \(replay.coasts.count) coasts and ended \(replay.coastEnds.count)")
    }

    let harness = EngineHarness(devices: [recording.description], configuration: configuration,
                                start: recording.events.first?.time ?? .zero)
    do {
        for timed in recording.events {
            try harness.perform(EngineScript.Step(time: timed.time, action: .event(device: 0, timed.event)))
        }
        try harness.finish()
    } catch {
        fatalError("engine invariant broken on a parsed recording: \(error)")
    }
    return 0
}

/// Whether `text` has a line that is neither blank nor a comment, read as the recording readers
/// read lines: split at LF only, one CR before it dropped, spaces and tabs blank, a UTF-8 byte
/// order mark skipped at the start.
func hasContent(_ text: String) -> Bool {
    var bytes = ArraySlice(text.utf8)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).contains { line in
        let withoutReturn = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        let trimmed = withoutReturn.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return !trimmed.isEmpty && trimmed.first != UInt8(ascii: "#")
    }
}
