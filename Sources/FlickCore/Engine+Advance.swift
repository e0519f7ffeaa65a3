extension Engine {
    /// Lets virtual time run to `time`: runs, in order, every tick that falls due on the way,
    /// each at its deadline but never before `notBefore` (ticks cannot go back past events
    /// already handled), and passes each tick's output and time to `emit`.
    ///
    /// What the daemon's event loop does with its timer, for replays, tests, fuzzing and
    /// benchmarks. Returns the time of the last tick run, or `notBefore` when none ran. With
    /// `time` = `.end` it runs the coast out.
    @discardableResult
    public func advance(to time: Instant, notBefore: Instant = .zero, _ emit: (WheelOutput, Instant) -> Void = { _, _ in }) -> Instant {
        var latest = notBefore
        while let deadline = nextDeadline, deadline <= time {
            let at = max(deadline, latest)
            emit(tick(at: at), at)
            latest = at
        }
        return latest
    }
}

extension Instant {
    /// The end of virtual time: `advance(to: .end)` runs a coast out.
    public static let end = Instant(microseconds: .max)
}
