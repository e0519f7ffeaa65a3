import FlickCore

/// How punctually the daemon's timer drove one coast, for a log line at its end.
///
/// Each wake-up of the timer while a coast runs is recorded with two spans:
/// - how long after its deadline the daemon woke: the system's scheduling (a loaded machine,
///   a CPU in a deep idle state, an emulator);
/// - how long after waking the frame was written: flickd's own work.
/// A glide that stutters or opens late then says which of the two held it up.
///
/// Fixed size: recording a wake-up allocates nothing.
struct CoastPunctuality {
    /// Timer wake-ups recorded since the coast began.
    private(set) var wakeUps = 0
    /// The first three wake-ups' delays after their deadlines, which the summary lists one by
    /// one: the coast's opening, which decides how the glide continues the finger.
    private var firstDelays = InlineArray<3, Duration>(repeating: .zero)
    /// The largest delay after a deadline.
    private(set) var latestDelay = Duration.zero
    /// The largest span from a wake-up to its frame's write.
    private(set) var longestWork = Duration.zero

    /// Records one wake-up: the timer's `deadline`, the instant the daemon `woke` for it, and
    /// the instant its frame was `written` (or the wake-up's work ended, when it wrote nothing).
    mutating func record(deadline: Instant, woke: Instant, written: Instant) {
        let delay = max(woke - deadline, .zero)
        if wakeUps < firstDelays.count { firstDelays[wakeUps] = delay }
        wakeUps += 1
        latestDelay = max(latestDelay, delay)
        longestWork = max(longestWork, max(written - woke, .zero))
    }

    /// Forgets what was recorded, for the next coast.
    mutating func reset() { self = CoastPunctuality() }

    /// One line on the coast that ended, or nil when the timer never drove it (a coast stopped
    /// by a touch before its first timed frame). Spans in milliseconds to 0.01 ms, e.g.
    /// "the coast's timer woke 87 times: the first 0.41, 0.30 and 0.22 ms after their
    /// deadlines, at most 4.10 ms after; each frame written at most 0.35 ms after the wake-up".
    var summary: String? {
        guard wakeUps > 0 else { return nil }
        let shown = min(wakeUps, firstDelays.count)
        var first = ""
        for index in 0..<shown {
            if index > 0 { first += index == shown - 1 ? " and " : ", " }
            first += Self.milliseconds(firstDelays[index])
        }
        let times = wakeUps == 1 ? "once: \(first) ms after its deadline" : """
            \(wakeUps) times: the first \(first) ms after their deadlines, at most \
            \(Self.milliseconds(latestDelay)) ms after
            """
        return "the coast's timer woke \(times); each frame written at most \(Self.milliseconds(longestWork)) ms after the wake-up"
    }

    /// `span` in milliseconds with two decimals ("0.41", "12.00"), without Foundation.
    static func milliseconds(_ span: Duration) -> String {
        let hundredths = (span.microseconds + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
