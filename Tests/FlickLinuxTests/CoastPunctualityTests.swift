import FlickCore
import Testing
@testable import FlickLinux

/// The log line at a coast's end on how punctually the timer drove it (`CoastPunctuality`).
@Suite("Coast punctuality")
struct CoastPunctualityTests {
    /// A coast at 120 frames/s whose timer woke `delays` µs after each deadline and wrote each
    /// frame `work` µs later.
    static func coast(delays: [Int64], work: [Int64]) -> CoastPunctuality {
        var punctuality = CoastPunctuality()
        let release = Instant(microseconds: 5_000_000)
        for (index, (delay, spent)) in zip(delays, work).enumerated() {
            let deadline = release + Duration(microseconds: 8333 * Int64(index + 1))
            let woke = deadline + Duration(microseconds: delay)
            punctuality.record(deadline: deadline, woke: woke, written: woke + Duration(microseconds: spent))
        }
        return punctuality
    }

    @Test("it lists the opening's first three delays, the largest of all and the longest write")
    func summary() {
        // The opening on time, then one wake-up 4.1 ms late (a loaded machine) in mid-coast.
        let punctuality = Self.coast(delays: [410, 300, 220, 150, 4100, 90], work: [350, 120, 80, 60, 200, 40])
        #expect(punctuality.wakeUps == 6)
        #expect(punctuality.summary == """
            the coast's timer woke 6 times: the first 0.41, 0.30 and 0.22 ms after their deadlines, \
            at most 4.10 ms after; each frame written at most 0.35 ms after the wake-up
            """)
    }

    @Test("a late opening shows in the first delays, not only in the largest")
    func lateOpening() {
        // Guest runs: the make-up frame 14 ms late, the baseline and model's first frame 6 ms.
        let punctuality = Self.coast(delays: [14_000, 6_000, 6_000, 200], work: [300, 300, 300, 300])
        #expect(punctuality.summary?.contains("the first 14.00, 6.00 and 6.00 ms after their deadlines, at most 14.00 ms after") == true,
                "\(punctuality.summary ?? "nil")")
    }

    @Test("a coast stopped before its first timed frame logs nothing; one timed frame is told as once")
    func shortCoasts() {
        #expect(CoastPunctuality().summary == nil)
        let once = Self.coast(delays: [1234], work: [56])
        #expect(once.summary == "the coast's timer woke once: 1.23 ms after its deadline; each frame written at most 0.06 ms after the wake-up")
        let twice = Self.coast(delays: [10, 20], work: [1, 1])
        #expect(twice.summary?.hasPrefix("the coast's timer woke 2 times: the first 0.01 and 0.02 ms after their deadlines") == true,
                "\(twice.summary ?? "nil")")
    }

    @Test("a wake-up before its deadline counts as on time; a clock that went back counts no work")
    func clamped() {
        let punctuality = Self.coast(delays: [-500], work: [-80])
        #expect(punctuality.latestDelay == .zero)
        #expect(punctuality.longestWork == .zero)
        #expect(punctuality.summary == "the coast's timer woke once: 0.00 ms after its deadline; each frame written at most 0.00 ms after the wake-up")
    }

    @Test("reset forgets the coast that ended")
    func reset() {
        var punctuality = Self.coast(delays: [9000, 9000], work: [900, 900])
        punctuality.reset()
        #expect(punctuality.summary == nil)
        #expect(punctuality.latestDelay == .zero && punctuality.longestWork == .zero)
    }

    @Test("milliseconds are rounded to hundredths", arguments: [
        (Int64(0), "0.00"), (4, "0.00"), (5, "0.01"), (99, "0.10"), (12_000, "12.00"), (1_234_567, "1234.57"),
    ])
    func milliseconds(microseconds: Int64, text: String) {
        #expect(CoastPunctuality.milliseconds(Duration(microseconds: microseconds)) == text)
    }
}
