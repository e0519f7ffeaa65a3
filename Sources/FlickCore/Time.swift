/// A point in time on the kernel's monotonic clock, in microseconds.
///
/// The core never reads a clock: every instant comes from an event timestamp or from the
/// caller (the daemon's event loop, a replay, a test).
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since an arbitrary origin (CLOCK_MONOTONIC's, in the daemon).
    public var microseconds: Int64

    /// An instant `microseconds` after the clock's origin.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// An instant from an evdev timestamp (`input_event.time`: seconds and microseconds).
    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    /// The clock's origin.
    public static let zero = Instant(microseconds: 0)

    /// This instant in seconds, for the physics.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }
    public static func + (a: Instant, d: Duration) -> Instant { Instant(microseconds: a.microseconds &+ d.microseconds) }
    public static func - (a: Instant, d: Duration) -> Instant { Instant(microseconds: a.microseconds &- d.microseconds) }
    public static func - (a: Instant, b: Instant) -> Duration { Duration(microseconds: a.microseconds &- b.microseconds) }

    public var description: String {
        let ms = Double(microseconds) / 1000
        return "t=\(ms)ms"
    }
}

/// A span of time in microseconds (may be negative when time went backwards).
public struct Duration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The span in microseconds.
    public var microseconds: Int64

    /// A span of `microseconds`.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// A span of whole milliseconds.
    public static func milliseconds(_ ms: Int64) -> Duration { Duration(microseconds: ms &* 1000) }

    /// A span of (possibly fractional) seconds, rounded to the microsecond.
    public static func seconds(_ s: Double) -> Duration {
        guard s.isFinite else { return Duration(microseconds: s > 0 ? Int64.max / 4 : 0) }
        let us = (s * 1_000_000).rounded()
        if us >= Double(Int64.max / 4) { return Duration(microseconds: Int64.max / 4) }
        if us <= Double(Int64.min / 4) { return Duration(microseconds: Int64.min / 4) }
        return Duration(microseconds: Int64(us))
    }

    /// No time at all.
    public static let zero = Duration(microseconds: 0)

    /// The span in seconds, for the physics.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// The span in milliseconds.
    public var milliseconds: Double { Double(microseconds) / 1000 }

    public static func < (a: Duration, b: Duration) -> Bool { a.microseconds < b.microseconds }
    public static func + (a: Duration, b: Duration) -> Duration { Duration(microseconds: a.microseconds &+ b.microseconds) }
    public static func - (a: Duration, b: Duration) -> Duration { Duration(microseconds: a.microseconds &- b.microseconds) }
    public static func * (a: Duration, n: Int64) -> Duration { Duration(microseconds: a.microseconds &* n) }

    public var description: String { "\(milliseconds)ms" }
}
