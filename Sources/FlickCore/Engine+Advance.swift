/// A tick that `Engine.advance(to:notBefore:_:)` ran.
public struct EngineTick: Sendable {
    /// What the tick wrote.
    public let output: WheelOutput
    /// When it ran: at its deadline, or at `notBefore` (or the previous tick's time) when the
    /// deadline was earlier than that.
    public let time: Instant
    /// The deadline it ran for (`nextDeadline` just before it ran).
    public let deadline: Instant
}

extension Engine {
    /// Lets virtual time run to `time`: runs, in order, every tick that falls due on the way,
    /// each at its deadline but never before `notBefore` (ticks cannot go back past events
    /// already handled), and passes each one to `onTick` right after it ran (before the next).
    ///
    /// What the daemon's event loop does with its timer, for replays, tests, fuzzing and
    /// benchmarks. Returns the time of the last tick run, or `notBefore` when none ran. With
    /// `time` = `.end` it runs the coast out. An error `onTick` throws stops the loop there and
    /// is passed on. Allocates nothing of its own.
    @discardableResult
    public func advance<Failure: Error>(
        to time: Instant, notBefore: Instant = .zero,
        _ onTick: (EngineTick) throws(Failure) -> Void
    ) throws(Failure) -> Instant {
        var latest = notBefore
        while let deadline = nextDeadline, deadline <= time {
            let at = max(deadline, latest)
            let output = tick(at: at)
            latest = at
            try onTick(EngineTick(output: output, time: at, deadline: deadline))
        }
        return latest
    }

    /// `advance(to:notBefore:_:)` with nothing to do per tick (the output is dropped).
    @discardableResult
    public func advance(to time: Instant, notBefore: Instant = .zero) -> Instant {
        advance(to: time, notBefore: notBefore) { (_: EngineTick) in }
    }
}

extension Instant {
    /// The end of virtual time: `advance(to: .end)` runs a coast out.
    public static let end = Instant(microseconds: .max)
}
