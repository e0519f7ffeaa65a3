import FlickCore
import FlickTools
import FlickTestSupport
import Foundation
import FuzzSupport

/// The property soak: `--count` random and mutated event streams through the engine, each
/// checked by `EngineHarness` (see its invariants), then a summary with counts and time.
///
/// Usage: Soak [--count N] [--seed S] [--recordings DIR] [--only K [--print]]
///        Soak --write-engine-seeds DIR [--recordings DIR]
///
/// Stream K of seed S is the same on every run: `--only K` runs it alone and prints its
/// failure in full. Exits 1 when any stream breaks an invariant.
@main
struct Soak {
    static func main() {
        var count: UInt64 = 1_000_000
        var seed: UInt64 = 1
        var only: UInt64?
        var recordingsDirectory: String?
        var seedsDirectory: String?
        var printScript = false
        var arguments = CommandLine.arguments.dropFirst()
        func value(_ option: String) -> String {
            guard let v = arguments.popFirst() else { usage("\(option) needs a value") }
            return v
        }
        func number(_ option: String) -> UInt64 {
            guard let n = UInt64(value(option)) else { usage("\(option) takes a whole number") }
            return n
        }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--count": count = number(argument)
            case "--seed": seed = number(argument)
            case "--only": only = number(argument)
            case "--recordings": recordingsDirectory = value(argument)
            case "--write-engine-seeds": seedsDirectory = value(argument)
            case "--print": printScript = true
            default: usage("unknown argument \(argument)")
            }
        }
        let recordings = recordingsDirectory.map(loadRecordings) ?? []
        if let seedsDirectory {
            writeEngineSeeds(to: seedsDirectory, recordings: recordings)
            return
        }
        if printScript {
            guard let only else { usage("--print needs --only K") }
            var generator = StreamGenerator(seed: seed, number: only, recordings: recordings)
            printSteps(generator.script().script)
        }
        exit(run(count: count, seed: seed, only: only, recordings: recordings) ? 0 : 1)
    }

    static func usage(_ message: String) -> Never {
        FileHandle.standardError.write(Data("soak: \(message)\nusage: Soak [--count N] [--seed S] [--recordings DIR] [--only K] | --write-engine-seeds DIR [--recordings DIR]\n".utf8))
        exit(64)
    }

    /// The real recordings in `directory` (`*.events`, with their `.desc` where there is one).
    static func loadRecordings(_ directory: String) -> [Recording] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        var recordings: [Recording] = []
        for file in files where file.hasSuffix(".events") {
            let path = directory + "/" + file
            let stem = file.split(separator: ".").first.map(String.init) ?? file
            let description = try? String(contentsOfFile: directory + "/" + stem + ".desc", encoding: .utf8)
            do {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                recordings.append(try Recording.load(text: text, description: description))
            } catch {
                usage("cannot read the recording \(path): \(error)")
            }
        }
        if recordings.isEmpty { usage("no recordings (*.events) in \(directory)") }
        return recordings
    }

    /// Runs the soak; prints progress every 10%, the failures, and the summary.
    static func run(count: UInt64, seed: UInt64, only: UInt64?, recordings: [Recording]) -> Bool {
        let numbers: [UInt64] = only.map { [$0] } ?? []
        let total = only == nil ? count : 1
        print("soak: \(total) stream(s), seed \(seed), \(recordings.count) recordings, \(FuzzDevices.all.count) devices")
        var statistics = HarnessStatistics()
        var kinds: [StreamGenerator.Kind: UInt64] = [:]
        var failures: [(UInt64, String)] = []
        let clock = ContinuousClock()
        let started = clock.now
        var index: UInt64 = 0
        while index < total {
            let number = numbers.isEmpty ? index : numbers[0]
            var generator = StreamGenerator(seed: seed, number: number, recordings: recordings)
            let (script, kind) = generator.script()
            kinds[kind, default: 0] += 1
            do {
                statistics.add(try EngineHarness.run(script))
            } catch {
                failures.append((number, error.message))
                let shown = only == nil && error.message.count > 600 ? String(error.message.prefix(600)) + "..." : error.message
                print("FAIL stream \(number) (\(kind.rawValue)): \(shown)")
            }
            index += 1
            if only == nil, total >= 10, index % (total / 10) == 0 {
                let seconds = (clock.now - started).seconds
                print("  \(index)/\(total) streams, \(statistics.coasts) coasts, \(failures.count) failures, \(String(format: "%.1f", seconds)) s")
            }
        }
        let seconds = (clock.now - started).seconds
        print("""
            soak: \(total) streams (\(StreamGenerator.Kind.allCases.map { "\(kinds[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", "))) in \(String(format: "%.1f", seconds)) s (\(String(format: "%.0f", Double(total) / max(seconds, 1e-9))) streams/s)
              steps \(statistics.steps), events \(statistics.events), ticks \(statistics.ticks), non-empty outputs \(statistics.nonEmptyOutputs)
              coasts \(statistics.coasts): \(statistics.coastsRunOut) ran out (totals checked exactly against the plan and the model), \(statistics.coastsStopped) stopped
              stop calls during a coast \(statistics.stopsWhileCoasting), stalled ticks \(statistics.stalls)
              wheel outputs not written \(statistics.unwrittenOutputs), in \(statistics.coastsWithUnwritten) coasts
              virtual touchpad: \(statistics.landings) landings, \(statistics.touchFrames) frames
              failures \(failures.count)
            """)
        if !failures.isEmpty {
            print("soak: FAILED; rerun one with: scripts/soak --seed \(seed) --only \(failures[0].0)")
        }
        return failures.isEmpty
    }

    /// Prints a script one step a line, for turning a failure into a test.
    static func printSteps(_ script: EngineScript) {
        for (index, device) in script.devices.enumerated() {
            print("device \(index): \(device.name) (\(device.kind.map(\.rawValue) ?? "not a touch device"))")
        }
        print("configuration: \(script.configuration)")
        for step in script.steps {
            switch step.action {
            case .event(let device, let event):
                print("\(step.time) device \(device) \(EventNames.typeName(event.type)) \(EventNames.codeName(type: event.type, code: event.code)) \(event.value)")
            default:
                print("\(step.time) \(step.action)")
            }
        }
    }

    /// Writes the engine fuzzer's seed corpus: a scripted flick on every device of the table
    /// (and a double flick, boosted, on the first three), each with the wheel output (`flick-`)
    /// and the touchpad output (`glide-`, configuration byte c bit 0), a glide stopped by
    /// `sessionInactive` and one caught by a touch, on the first device a release whose step is
    /// not written (a modifier held) and a coast whose writes fail, and the start of each real
    /// recording whose device is in the table.
    static func writeEngineSeeds(to directory: String, recordings: [Recording]) {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written = 0
        func write(_ name: String, _ bytes: [UInt8]) {
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
            written += 1
        }
        for (index, description) in FuzzDevices.all.enumerated() {
            let touchscreen = description.kind == .touchscreen
            var stream = FingerStream(description: description)
            var time = EngineScript.startTime
            let flick = Flick(fingers: touchscreen ? 1 : 2, start: Vector(x: 20, y: 12),
                              velocity: Vector(x: 0, y: 160), motion: .milliseconds(90))
            var events = stream.events(for: flick, at: &time)
            // touchscreen.enabled (configA bit 0) so that touchscreens coast too.
            write("flick-\(index).bin", EngineScript.encode(device: index, configA: 1, configB: 0, events: events))
            write("glide-\(index).bin", EngineScript.encode(device: index, configA: 1, configB: 0, configC: 1, events: events))
            if index == 0 {
                // The session switches away 300 ms into the glide: the fingers lift at once.
                var bytes = EngineScript.encode(device: index, configA: 1, configB: 0, configC: 1, events: events)
                bytes += [56 << 2, 7, 0, 0, 0, 0] + Array(EngineScript.encodeDeltaBytes(300_000))
                write("glide-session-inactive-\(index).bin", bytes)
            }
            if index == 0 {
                // A modifier held at the release: its first step is not written and the coast
                // stops (a stop step, key, at the same time); then, 500 ms later, a flick that
                // must not go on from it. And a coast whose writes fail from 100 ms on, ten times.
                var again = stream
                var at = time + .milliseconds(500)
                let second = again.events(for: flick, at: &at)
                var bytes = EngineScript.encode(device: index, configA: 1, configB: 0, events: events)
                bytes += [55 << 2, 0, 0, 0, 0, 0, 0, 0] + [56 << 2, 1, 0, 0, 0, 0, 0, 0]
                var steps = Array(EngineScript.encode(device: index, configA: 1, configB: 0, events: second)
                    .dropFirst(EngineScript.headerSize))
                steps.replaceSubrange(6..<8, with: EngineScript.encodeDeltaBytes((second[0].time - events[events.count - 1].time).microseconds))
                write("flick-modifier-\(index).bin", bytes + steps)
                var failing = EngineScript.encode(device: index, configA: 1, configB: 0, events: events)
                failing += [55 << 2, 0, 0, 0, 0, 0] + EngineScript.encodeDeltaBytes(100_000)
                for _ in 0..<9 { failing += [55 << 2, 0, 0, 0, 0, 0] + EngineScript.encodeDeltaBytes(8_333) }
                write("flick-write-failed-\(index).bin", failing)
            }
            if index < 3 {
                let single = events
                time = time + .milliseconds(200)
                events += stream.events(for: flick, at: &time)
                write("double-flick-\(index).bin", EngineScript.encode(device: index, configA: 1, configB: 0, events: events))
                write("double-glide-\(index).bin", EngineScript.encode(device: index, configA: 1, configB: 0, configC: 1, events: events))
                if index == 0 {
                    // The second flick after the first glide has ended, its fingers resting or
                    // up; and under a [[device]] section (c bits 4-5 = 1).
                    var later = single
                    var at = time + .milliseconds(400)
                    later += stream.events(for: flick, at: &at)
                    write("late-double-glide-\(index).bin", EngineScript.encode(device: index, configA: 1, configB: 0, configC: 1, events: later))
                    // Three fingers, as the section asks (its resolution, 1000 units/mm, makes
                    // the flick fast).
                    var three = FingerStream(description: description)
                    var from = EngineScript.startTime
                    let threeFingers = Flick(fingers: 3, start: Vector(x: 20, y: 12), velocity: Vector(x: 0, y: 160),
                                             motion: .milliseconds(90))
                    write("glide-section-\(index).bin", EngineScript.encode(device: index, configA: 1, configB: 0, configC: 1 | 16,
                                                                            events: three.events(for: threeFingers, at: &from)))
                }
            }
        }
        // The start of each recording whose device is in the table (the shared recordings are
        // slow drags and taps: they do not coast, but their frames are real).
        for (number, recording) in recordings.enumerated() {
            guard let device = FuzzDevices.index(of: recording.description) else { continue }
            let events = Array(recording.events.prefix(400))
            write("recording-\(number).bin", EngineScript.encode(device: device, configA: 1, configB: 0, events: events))
        }
        print("soak: wrote \(written) engine seeds to \(directory)")
    }
}

extension Swift.Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
