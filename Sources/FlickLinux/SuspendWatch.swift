import FlickCore

/// Tells whether the machine was suspended during a coast.
///
/// Evdev's stamps and the coast's deadlines are on CLOCK_MONOTONIC, which stops while the
/// machine sleeps. A resume that takes longer than the engine's stall limit (500 ms) shows as
/// a late tick and ends the coast; a quicker one (s2idle) shows as nothing, and the rest of
/// the coast would play after the lid opens, long after the flick. The time spent suspended
/// (`Syscall.suspendedSinceBoot`) grows only by a suspend: a coast stops when it grew.
struct SuspendWatch {
    /// Growth of the time suspended that counts as a suspend. Nothing else moves it; the margin
    /// only keeps the two clock reads' rounding out.
    static let threshold = Duration.milliseconds(50)

    /// The time suspended since boot at the last look; nil before `start`.
    private var last: Duration?

    /// Starts watching, `suspended` being the time suspended since boot now.
    mutating func start(_ suspended: Duration) {
        last = suspended
    }

    /// Whether the machine was suspended since the last look, `suspended` being the time
    /// suspended since boot now.
    mutating func slept(_ suspended: Duration) -> Bool {
        defer { last = suspended }
        guard let last else { return false }
        return suspended - last > Self.threshold
    }
}
