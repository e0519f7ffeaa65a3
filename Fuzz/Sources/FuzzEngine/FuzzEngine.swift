import FlickCore
import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

/// FLICKD_FUZZ_STATS=1: print what each input did (coasts, ticks, ...), to check seeds.
private let printStatistics = getenv("FLICKD_FUZZ_STATS") != nil

/// libFuzzer target `engine`: the bytes are an `EngineScript` (format in EngineScript.swift:
/// devices among real descriptions, a configuration, then events, stops, late ticks, unplugs
/// and reloads with times that may step back or jump), run by `EngineHarness`, which checks the
/// engine's invariants after every call. A broken invariant traps, so libFuzzer reports it as a
/// crash with the input that caused it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let script = EngineScript(bytes: UnsafeRawBufferPointer(start: start, count: count))
    do {
        let statistics = try EngineHarness.run(script)
        if printStatistics {
            let line = "engine: \(script.devices.map(\.name)) \(statistics.steps) steps, \(statistics.coasts) coasts (\(statistics.coastsRunOut) ran out), \(statistics.ticks) ticks, \(statistics.nonEmptyOutputs) outputs (\(statistics.unwrittenOutputs) not written, in \(statistics.coastsWithUnwritten) coasts)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
    } catch {
        fatalError("engine invariant broken: \(error)")
    }
    return 0
}
