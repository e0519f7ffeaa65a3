import FlickCore

#if canImport(Glibc)
import Glibc
#endif

/// An invariant of the engine that did not hold, with what happened.
public struct HarnessFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// What a harness saw, summed over the scripts it ran.
public struct HarnessStatistics: Sendable {
    public var steps = 0
    public var events = 0
    public var ticks = 0
    public var nonEmptyOutputs = 0
    public var coasts = 0
    /// Coasts that ran to rest or to `coast.max_duration`: their totals were checked exactly.
    public var coastsRunOut = 0
    /// Coasts stopped from outside (touch, button, key, stall, unplug, reload, ...).
    public var coastsStopped = 0
    /// `engine.stop` calls made while a coast ran.
    public var stopsWhileCoasting = 0
    /// Ticks more than `Engine.stallLimit` late.
    public var stalls = 0
    /// Frames written to the virtual touchpad (`output.mode = "touchpad"`), and its landings.
    public var touchFrames = 0
    public var landings = 0
    /// Wheel outputs reported not written (`Engine.notWritten(_:)`) while their coast ran, and
    /// the coasts that ended with some.
    public var unwrittenOutputs = 0
    public var coastsWithUnwritten = 0
    /// Coasts' last steps (the output of the call that ended the coast) reported not written.
    public var unwrittenLastSteps = 0

    public init() {}

    public mutating func add(_ other: HarnessStatistics) {
        steps += other.steps
        events += other.events
        ticks += other.ticks
        nonEmptyOutputs += other.nonEmptyOutputs
        coasts += other.coasts
        coastsRunOut += other.coastsRunOut
        coastsStopped += other.coastsStopped
        stopsWhileCoasting += other.stopsWhileCoasting
        stalls += other.stalls
        touchFrames += other.touchFrames
        landings += other.landings
        unwrittenOutputs += other.unwrittenOutputs
        coastsWithUnwritten += other.coastsWithUnwritten
        unwrittenLastSteps += other.unwrittenLastSteps
    }
}

/// Runs an `EngineScript` through an `Engine` as the daemon would (ticking at the engine's
/// deadlines with `Engine.advance(to:notBefore:_:)`) and checks after every call:
///
/// - output only ever belongs to a running coast: a handled event writes only the first step
///   of the coast it starts; a tick writes only for the coast running when it was called;
///   after a stop nothing is written until a new coast starts;
/// - nothing is written for a deadline later than `coast.max_duration` after the release, and
///   a tick later than `Engine.stallLimit` writes nothing and ends the coast (`stall`);
/// - plans are finite, no faster than `coast.max_speed`, no slower than `coast.min_speed` at
///   release, last no longer than `coast.max_duration`, and head for the model's destination
///   `X = v·speed/k` for the velocity they report;
/// - a coast that runs out writes exactly its plan's `totalHiRes`, which is within 1 unit of the
///   model (`round(X)` when its output, the model plus a 60-unit lead, writes it within
///   `max_duration`, else `round(x(max_duration) + lead)`, at most `round(X)`); a stopped coast
///   wrote no more than that and in the same direction; the legacy detents are the whole 120s
///   of the hi-res total on top of what earlier coasts left under a detent (kept on an axis the
///   coast moves the same way or not at all, dropped on one it reverses, and when the output
///   changes); the engine's own count of what it wrote matches;
/// - wheel output reported not written (`Engine.notWritten(_:)`, the script's `notWritten`: the
///   output of the call just before, as the daemon reports a failed write or the release's step
///   dropped for a modifier) still counts towards the coast's plan (it is never written again),
///   but not towards what the engine says the coast wrote at its end, which is exactly the rest;
///   and an axis with units not written leaves nothing under a detent for the next coast, also
///   when they were the coast's last step (reported after the call that ended the coast, whose
///   end counted them as written);
/// - the engine reports no bug and no non-finite velocity; it coasts exactly when it has a
///   deadline; every coast ends by itself within `max_duration / tick period` ticks, plus one
///   for each tick the script made before its deadline (the engine takes an early tick as the
///   last one, so the next deadline moves up by less than a period).
///
/// With `output.mode = "touchpad"` the engine's output is set as the daemon sets it (at the
/// start; at a reload, or once the virtual fingers have lifted when a reload leaves the touchpad
/// while they are down), every frame is reported written (`touchFrameWritten(at:)`), and:
///
/// - no wheel output; the frames follow land, move…, lift: a landing only with the start of a
///   coast in the same call (after a lift in that call when fingers were down), motion only from
///   a tick, a lift from a tick only after `VirtualFingers.restBeforeLift` without a frame, and
///   from `stop` only for `sessionInactive` (which lifts fingers that are down at once); nothing
///   after a lift until a landing; each frame for the time of the call that wrote it; the two
///   fingers `VirtualPad.fingerSpacingMillimetres` apart and `VirtualPad.marginMillimetres` in
///   from every edge;
/// - `hasFingersDown` is what the frames say; `nextDeadline` is nil exactly when no finger is
///   down; a coast runs only with fingers down; a tick more than `Engine.stallLimit` late for a
///   glide ends its coast as a stall and writes no motion beyond a settle frame;
/// - the fingers lift by themselves: within `(coast.max_duration + 1 s) / framePeriod` ticks
///   (plus 16, plus one per early tick) of the last coast's start, and always by `finish()`.
public final class EngineHarness {
    public private(set) var statistics = HarnessStatistics()

    private let engine: Engine
    private let descriptions: [DeviceDescription]
    private var configuration: Configuration
    private var plugged: [Bool]
    /// The event loop's clock: never goes back, unlike the kernel's event stamps.
    private var clock: Instant
    /// An `output.mode` a reload asked for while the virtual fingers were down (the daemon's
    /// `pendingOutput`): set once they have lifted.
    private var pendingOutput: OutputMode?

    /// What one call to the engine was, for the frames it may write.
    private enum Call: Equatable {
        case event, tick, stop(StopReason), other
    }
    /// The frames written during the call being checked, and the time each was for.
    private var frames: [(frame: TouchFrame, time: Instant)] = []
    /// The virtual touchpad as its frames left it: fingers down, where, and the last frame's time.
    private var fingersDown = false
    private var fingerPositions = (first: VirtualPad.centre, second: VirtualPad.centre)
    private var lastFrameTime = Instant.zero
    /// Ticks since the last coast started (touchpad output), early ones among them, and that
    /// coast's `max_duration`: the bound on how long the fingers take to lift.
    private var fingerTicks = 0
    private var earlyFingerTicks = 0
    private var fingerMaxDuration = Duration.zero
    /// What the wheel coasts so far left under a legacy detent on each axis (|value| < 120): the
    /// next coast goes on from it on an axis it moves the same way, from zero on one it reverses;
    /// an axis it does not move keeps it. Dropped when the output changes.
    private var legacyRemainder: (vertical: Int64, horizontal: Int64) = (0, 0)
    /// The non-empty wheel output of the last call to the engine, and the coast it belongs to
    /// (`Coast.serial`): what a `notWritten` step reports. Nil after any other call.
    private var lastOutput: (output: WheelOutput, owner: Int)?
    private var coastsStarted = 0

    /// A running coast as the harness follows it.
    private struct Coast {
        var device: DeviceID
        var start: Instant
        var plan: CoastPlan
        var settings: Configuration
        var natural: Bool
        var vertical: Int64 = 0
        var horizontal: Int64 = 0
        var verticalDetents: Int64 = 0
        var horizontalDetents: Int64 = 0
        /// Of `vertical`, `horizontal`: what was reported not written.
        var unwritten: (vertical: Int64, horizontal: Int64) = (0, 0)
        /// Which coast of the script this is, from 1.
        var serial = 0
        var ticks = 0
        var earlyTicks = 0
        /// Started with the touchpad output: the plan's wheel totals are zero, and nothing is written as wheel output.
        var touchpad = false
        /// What earlier coasts left under a legacy detent that this one goes on from, hi-res units.
        var legacyStart: (vertical: Int64, horizontal: Int64) = (0, 0)
    }

    /// A coast start or end the engine reported during one call.
    private enum Note {
        case started(Coast)
        case ended(time: Instant, reason: StopReason, emitted: (vertical: Int64, horizontal: Int64))
    }

    private var coast: Coast?
    private var notes: [Note] = []
    private var reportProblem: String?

    /// A harness for `script`'s devices and configuration (nothing runs yet).
    public init(devices: [DeviceDescription], configuration: Configuration, start: Instant = EngineScript.startTime) {
        engine = Engine(configuration: configuration)
        descriptions = devices
        self.configuration = configuration
        plugged = Array(repeating: true, count: devices.count)
        clock = start
        engine.onReport = { [unowned self] report in self.note(report) }
        // As the daemon: the output of `output.mode`, each frame read as written when it comes
        // (the daemon reads its clock after the write; here the loop's clock).
        engine.output = configuration.output.mode
        engine.onTouchFrame = { [unowned self] frame, time in
            self.frames.append((frame, time))
            self.engine.touchFrameWritten(at: max(self.clock, time))
        }
        frames.reserveCapacity(4)
        for (index, description) in devices.enumerated() {
            engine.addDevice(Self.id(index), description: description)
        }
    }

    /// Runs a whole script on a fresh engine and lets its last coast run out.
    public static func run(_ script: EngineScript) throws(HarnessFailure) -> HarnessStatistics {
        let harness = EngineHarness(devices: script.devices, configuration: script.configuration)
        for step in script.steps { try harness.perform(step) }
        try harness.finish()
        return harness.statistics
    }

    static func id(_ index: Int) -> DeviceID { DeviceID(index + 1) }

    // MARK: Steps

    /// Performs one step: ticks the engine at its deadlines up to the step's time, then the step.
    public func perform(_ step: EngineScript.Step) throws(HarnessFailure) {
        statistics.steps += 1
        // The ticks that fell due before the step, each checked before the next runs.
        let latest = try engine.advance(to: step.time, notBefore: clock) { (tick) throws(HarnessFailure) in
            try check(tick.output, at: tick.time, deadline: tick.deadline)
        }
        clock = max(clock, latest, step.time)
        let time = step.time
        switch step.action {
        case .event(let index, let event):
            statistics.events += 1
            let output = engine.handle(event, from: Self.id(index), at: time)
            try settle(output, outputBelongsToNewCoast: true, at: time, call: .event, context: "handle(\(event), device \(index)) at \(time)")
        case .stop(let reason):
            if coast != nil { statistics.stopsWhileCoasting += 1 }
            let wereDown = engine.hasFingersDown
            engine.stop(at: time, reason: reason)
            let lifted = frames.contains { $0.frame.action == .lift }
            try settle(WheelOutput(), outputBelongsToNewCoast: false, at: time, call: .stop(reason), context: "stop(\(reason)) at \(time)")
            if coast != nil || engine.isCoasting { throw fail("still coasting after stop(\(reason)) at \(time)") }
            if reason == .sessionInactive && (engine.hasFingersDown || wereDown != lifted) {
                throw fail("stop(sessionInactive) at \(time): fingers were down \(wereDown), a lift was written \(lifted), down now \(engine.hasFingersDown)")
            }
        case .tick(let lateness):
            guard let deadline = engine.nextDeadline else { return }
            let at = max(clock, EngineScript.clamp(deadline, plus: lateness.microseconds))
            clock = at
            try check(engine.tick(at: at), at: at, deadline: deadline)
        case .toggleDevice(let index):
            if plugged[index] {
                engine.removeDevice(Self.id(index), at: time)
            } else {
                engine.addDevice(Self.id(index), description: descriptions[index])
            }
            plugged[index].toggle()
            try settle(WheelOutput(), outputBelongsToNewCoast: false, at: time, call: .other, context: "unplug/plug device \(index) at \(time)")
        case .abandon(let index):
            // What the daemon passes on when the kernel lost events: the SYN_DROPPED itself.
            let dropped = InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0)
            let output = engine.handle(dropped, from: Self.id(index), at: time)
            try settle(output, outputBelongsToNewCoast: false, at: time, call: .event, context: "SYN_DROPPED (device \(index)) at \(time)")
        case .reconfigure(let configuration):
            engine.apply(configuration, at: time)
            self.configuration = configuration
            // As the daemon's reload: leaving the touchpad waits for its fingers to lift.
            pendingOutput = nil
            if configuration.output.mode != engine.output && engine.output == .touchpad && engine.hasFingersDown {
                pendingOutput = configuration.output.mode
            } else {
                try switchOutput(to: configuration.output.mode, at: time)
            }
            try settle(WheelOutput(), outputBelongsToNewCoast: false, at: time, call: .other, context: "apply(configuration) at \(time)")
            if coast != nil { throw fail("still coasting after a reload at \(time)") }
        case .desktopNaturalScrolling(let natural):
            engine.desktopNaturalScrolling = natural
            lastOutput = nil
        case .notWritten:
            guard let last = lastOutput else { break }
            let (output, owner) = (last.output, last.owner)
            // The daemon reports an output once, right after the call that returned it, while
            // the coast it belongs to runs, or just after that coast ended in that call (its
            // last step): its end is reported already, counting the output as written, but what
            // it left under a detent is not carried on an axis the output moved. Nothing else
            // can be running then.
            if let running = coast, running.serial != owner {
                throw fail("notWritten at \(time): the output \(output) of coast \(owner) with coast \(running.serial) running")
            }
            engine.notWritten(output)
            if var running = coast {
                running.unwritten.vertical += Int64(output.verticalHiRes)
                running.unwritten.horizontal += Int64(output.horizontalHiRes)
                coast = running
                statistics.unwrittenOutputs += 1
            } else {
                if output.verticalHiRes != 0 { legacyRemainder.vertical = 0 }
                if output.horizontalHiRes != 0 { legacyRemainder.horizontal = 0 }
                statistics.unwrittenLastSteps += 1
            }
            try settle(WheelOutput(), outputBelongsToNewCoast: false, at: time, call: .other, context: "notWritten(\(output)) at \(time)")
        }
        try switchPendingOutput(at: time)
    }

    /// Sets the engine's output to `mode`, as the daemon does when it has replaced the device.
    private func switchOutput(to mode: OutputMode, at time: Instant) throws(HarnessFailure) {
        guard engine.output != mode else { return }
        // The daemon never leaves the touchpad with fingers down (they would be forgotten).
        if fingersDown || engine.hasFingersDown { throw fail("output switched to \(mode) at \(time) with fingers down") }
        engine.output = mode
        legacyRemainder = (0, 0)
    }

    /// The daemon's end of a wake-up: a pending output once the virtual fingers are up.
    private func switchPendingOutput(at time: Instant) throws(HarnessFailure) {
        guard let pending = pendingOutput, !engine.hasFingersDown else { return }
        pendingOutput = nil
        try switchOutput(to: pending, at: time)
        try checkCoasting(context: "output \(pending) after the fingers lifted at \(time)")
    }

    /// Lets the coast run out, ticking on time from now on.
    public func finish() throws(HarnessFailure) {
        let latest = try engine.advance(to: .end, notBefore: clock) { (tick) throws(HarnessFailure) in
            try check(tick.output, at: tick.time, deadline: tick.deadline)
        }
        clock = max(clock, latest)
        if coast != nil { throw fail("a coast never reported its end") }
        if engine.hasFingersDown || fingersDown {
            throw fail("the virtual fingers are still down once time ran out (engine \(engine.hasFingersDown), frames \(fingersDown))")
        }
        try switchPendingOutput(at: clock)
    }

    /// Checks the tick the engine just ran at `time` for `deadline` (the reports it made are still in `notes`, so `coast`
    /// is the coast that ran when it was called).
    private func check(_ output: WheelOutput, at time: Instant, deadline: Instant) throws(HarnessFailure) {
        statistics.ticks += 1
        clock = max(clock, time)
        if engine.output == .touchpad {
            try checkFingers(output, at: time, deadline: deadline)
            try switchPendingOutput(at: time)
            return
        }
        guard var running = coast else { throw fail("a deadline (\(deadline)) with no coast running") }
        running.ticks += 1
        if time < deadline { running.earlyTicks += 1 }
        let period = Duration.seconds(1 / max(1, running.settings.coast.tickRate)).microseconds
        let limit = running.settings.coast.maxDuration.microseconds / max(1, period) + 8 + Int64(running.earlyTicks)
        if running.ticks > limit {
            throw fail("coast from \(running.start) still running after \(running.ticks) ticks, \(running.earlyTicks) of them early (max_duration \(running.settings.coast.maxDuration), period \(period) µs)")
        }
        coast = running
        let stalled = time - deadline > Engine.stallLimit
        if stalled { statistics.stalls += 1 }
        let context = { "tick(at: \(time)) for deadline \(deadline)" }
        if !output.isEmpty {
            if stalled { throw fail("\(context()): \(output) from a tick \((time - deadline).milliseconds) ms late (stall limit \(Engine.stallLimit))") }
            if deadline - running.start > running.settings.coast.maxDuration {
                throw fail("\(context()): \(output) \((deadline - running.start).milliseconds) ms after the coast began at \(running.start) (max_duration \(running.settings.coast.maxDuration))")
            }
        }
        let reasons = notes.compactMap { note -> StopReason? in
            if case .ended(_, let reason, _) = note { return reason } else { return nil }
        }
        try settle(output, outputBelongsToNewCoast: false, at: time, call: .tick, context: context())
        if stalled, coast != nil || reasons != [.stall] {
            throw fail("\(context()): a tick \((time - deadline).milliseconds) ms late did not end the coast as a stall (\(reasons))")
        }
    }

    /// `check(_:at:deadline:)` for the touchpad output: the tick moved, settled or lifted the
    /// virtual fingers.
    private func checkFingers(_ output: WheelOutput, at time: Instant, deadline: Instant) throws(HarnessFailure) {
        let context = { "tick(at: \(time)) for deadline \(deadline)" }
        if !fingersDown { throw fail("\(context()): a deadline with no virtual finger down") }
        fingerTicks += 1
        if time < deadline { earlyFingerTicks += 1 }
        let period = VirtualFingers.framePeriod.microseconds
        let limit = (fingerMaxDuration + .seconds(1)).microseconds / period + 16 + Int64(earlyFingerTicks)
        if fingerTicks > limit {
            throw fail("\(context()): the virtual fingers still down after \(fingerTicks) ticks since the last coast began, \(earlyFingerTicks) of them early (max_duration \(fingerMaxDuration))")
        }
        // A glide's tick this late stops it (the machine slept): no jump of motion.
        let stalled = coast != nil && time - deadline > Engine.stallLimit
        if stalled { statistics.stalls += 1 }
        let before = fingerPositions
        let reasons = notes.compactMap { note -> StopReason? in
            if case .ended(_, let reason, _) = note { return reason } else { return nil }
        }
        let written = frames
        try settle(output, outputBelongsToNewCoast: false, at: time, call: .tick, context: context())
        guard stalled else { return }
        if coast != nil || reasons != [.stall] {
            throw fail("\(context()): a tick \((time - deadline).milliseconds) ms late did not end the glide as a stall (\(reasons))")
        }
        for (frame, _) in written where frame.action == .move {
            let moved = max((frame.first - before.first).length, (frame.second - before.second).length)
            if moved > VirtualFingers.settleDistance * (1 + 1e-6) {
                throw fail("\(context()): a tick \((time - deadline).milliseconds) ms late moved the fingers \(moved) mm (\(frame))")
            }
        }
    }

    // MARK: Checks

    private func note(_ report: EngineReport) {
        switch report {
        case .gestureBegan:
            break
        case .coastStarted(let device, let time, let plan):
            let index = Int(device) - 1
            guard descriptions.indices.contains(index), let kind = descriptions[index].kind else {
                reportProblem = reportProblem ?? "coast started on device \(device), which is not a touch device"
                return
            }
            let settings = configuration.resolved(for: descriptions[index]).configuration
            let natural = configuration.naturalScrolling(for: DeviceIdentity(descriptions[index]), kind: kind,
                                                         desktop: engine.desktopNaturalScrolling).isNatural
            notes.append(.started(Coast(device: device, start: time, plan: plan, settings: settings, natural: natural,
                                        touchpad: engine.output == .touchpad)))
        case .coastEnded(let time, let reason, let emitted):
            notes.append(.ended(time: time, reason: reason, emitted: emitted))
        case .noCoast(let device, let time, let velocity, let reason):
            if let velocity, !(velocity.x.isFinite && velocity.y.isFinite) {
                reportProblem = reportProblem ?? "noCoast on device \(device) at \(time) (\(reason)) with non-finite velocity \(velocity)"
            }
            if case .tooSlow(let speed) = reason, !speed.isFinite {
                reportProblem = reportProblem ?? "noCoast on device \(device) at \(time): tooSlow(speed: \(speed))"
            }
        case .bug(let device, let message):
            reportProblem = reportProblem ?? "the engine reported a bug on device \(device): \(message)"
        }
    }

    /// Applies the coast starts and ends reported during one call, and the call's output.
    /// `outputBelongsToNewCoast`: the output is the first step of a coast the call started
    /// (handle), else of the coast that ran when the call began (tick).
    private func settle(_ output: WheelOutput, outputBelongsToNewCoast: Bool, at time: Instant, call: Call,
                        context: @autoclosure () -> String) throws(HarnessFailure) {
        if let problem = reportProblem { throw fail("\(context()): \(problem)") }
        lastOutput = nil
        if !output.isEmpty { statistics.nonEmptyOutputs += 1 }
        if engine.output == .touchpad && !output.isEmpty { throw fail("\(context()): wheel output \(output) with the touchpad output") }
        try checkFrames(call: call, at: time, context: context())
        if notes.isEmpty && output.isEmpty {
            try checkCoasting(context: context())
            return
        }
        let calls = notes
        notes = []

        var current = coast
        var currentIsNew = false
        var attributed = output.isEmpty
        for note in calls {
            switch note {
            case .started(var started):
                if !started.touchpad {
                    func carried(_ remainder: Int64, _ total: Int64) -> Int64 { remainder.signum() * total.signum() < 0 ? 0 : remainder }
                    started.legacyStart = (carried(legacyRemainder.vertical, started.plan.totalHiRes.vertical),
                                           carried(legacyRemainder.horizontal, started.plan.totalHiRes.horizontal))
                }
                if let running = current {
                    throw fail("\(context()): a coast started while the one from \(running.start) had not ended")
                }
                try check(started.plan, of: started, context: context())
                coastsStarted += 1
                started.serial = coastsStarted
                current = started
                currentIsNew = true
                statistics.coasts += 1
                if started.touchpad {
                    fingerTicks = 0
                    earlyFingerTicks = 0
                    fingerMaxDuration = started.settings.coast.maxDuration
                }
            case .ended(let endTime, let reason, let emitted):
                guard var ended = current else { throw fail("\(context()): a coast ended (\(reason)) with none running") }
                if !attributed && currentIsNew == outputBelongsToNewCoast {
                    add(output, to: &ended)
                    attributed = true
                    lastOutput = (output, ended.serial)
                }
                try check(ended, endedAt: endTime, reason: reason, emitted: emitted, context: context())
                current = nil
                currentIsNew = false
            }
        }
        if !attributed {
            guard var owner = current, currentIsNew == outputBelongsToNewCoast else {
                throw fail("\(context()): wrote \(output) with no coast running")
            }
            add(output, to: &owner)
            current = owner
            lastOutput = (output, owner.serial)
        }
        coast = current
        try checkCoasting(context: context())
    }

    private func checkCoasting(context: @autoclosure () -> String) throws(HarnessFailure) {
        if engine.isCoasting != (coast != nil) {
            throw fail("\(context()): engine.isCoasting is \(engine.isCoasting) but the reports say \(coast != nil)")
        }
        if engine.hasFingersDown != fingersDown {
            throw fail("\(context()): engine.hasFingersDown is \(engine.hasFingersDown) but the frames say \(fingersDown)")
        }
        switch engine.output {
        case .wheel:
            if engine.isCoasting != (engine.nextDeadline != nil) {
                throw fail("\(context()): isCoasting \(engine.isCoasting) but nextDeadline \(String(describing: engine.nextDeadline))")
            }
        case .touchpad:
            // Fingers down move, settle or wait to lift: each of those has a deadline.
            if engine.hasFingersDown != (engine.nextDeadline != nil) {
                throw fail("\(context()): hasFingersDown \(engine.hasFingersDown) but nextDeadline \(String(describing: engine.nextDeadline))")
            }
            if engine.isCoasting && !engine.hasFingersDown {
                throw fail("\(context()): a coast with no virtual finger down")
            }
        }
    }

    /// Checks the frames the call just wrote, in order, and follows the virtual touchpad.
    private func checkFrames(call: Call, at time: Instant, context: @autoclosure () -> String) throws(HarnessFailure) {
        guard !frames.isEmpty else { return }
        let written = frames
        frames.removeAll(keepingCapacity: true)
        if engine.output != .touchpad { throw fail("\(context()): touch frames \(written) with the wheel output") }
        let started = notes.contains { if case .started = $0 { return true } else { return false } }
        let low = VirtualPad.marginMillimetres - 1e-6, high = VirtualPad.sideMillimetres - VirtualPad.marginMillimetres + 1e-6
        for (frame, frameTime) in written {
            statistics.touchFrames += 1
            func what() -> String { "\(context()): frame \(frame) at \(frameTime)" }
            if frameTime != time { throw fail("\(what()): for another time than the call's") }
            for point in [frame.first, frame.second] {
                guard point.x.isFinite, point.y.isFinite, (low...high).contains(point.x), (low...high).contains(point.y) else {
                    throw fail("\(what()): off the surface or within its margin (\(VirtualPad.marginMillimetres) mm)")
                }
            }
            let spacing = (frame.first - frame.second).length
            if abs(spacing - VirtualPad.fingerSpacingMillimetres) > 1e-6 {
                throw fail("\(what()): the fingers are \(spacing) mm apart")
            }
            switch frame.action {
            case .land:
                if fingersDown { throw fail("\(what()): a landing with the fingers down") }
                if call != .event || !started { throw fail("\(what()): a landing without the start of a coast") }
                fingersDown = true
                statistics.landings += 1
            case .move:
                if !fingersDown { throw fail("\(what()): motion with no finger down") }
                if call != .tick { throw fail("\(what()): motion from \(call), not a tick") }
            case .lift:
                if !fingersDown { throw fail("\(what()): a lift with no finger down") }
                switch call {
                case .tick:
                    // At rest long enough: no toolkit glide, no two-finger tap.
                    if frameTime - lastFrameTime < VirtualFingers.restBeforeLift {
                        throw fail("\(what()): a lift \((frameTime - lastFrameTime).milliseconds) ms after the frame before (rest before lift \(VirtualFingers.restBeforeLift))")
                    }
                case .stop(.sessionInactive), .event:
                    // At once: the session is gone; or lifted to land again with room ahead.
                    break
                default:
                    throw fail("\(what()): a lift from \(call)")
                }
                fingersDown = false
            }
            if frame.action != .lift {
                fingerPositions = (frame.first, frame.second)
            }
            lastFrameTime = frameTime
        }
        if case .event = call, started, written.contains(where: { $0.frame.action == .lift }),
           !written.contains(where: { $0.frame.action == .land }) {
            throw fail("\(context()): a release lifted the fingers without landing them again (\(written))")
        }
    }

    private func add(_ output: WheelOutput, to coast: inout Coast) {
        coast.vertical += Int64(output.verticalHiRes)
        coast.horizontal += Int64(output.horizontalHiRes)
        coast.verticalDetents += Int64(output.verticalDetents)
        coast.horizontalDetents += Int64(output.horizontalDetents)
    }

    /// The model for a coast at `plan.velocity`: destination and total per axis, hi-res units.
    /// How far the wheel output runs ahead of the model, hi-res units (the engine's
    /// `Coast.leadHiRes`, not public).
    private static let leadHiRes = 60.0

    /// The model for a coast at `plan.velocity`: destination and total per axis, hi-res units.
    ///
    /// Each axis's output is `x(t) = (v/k)(1 − e^(−kt))` plus the lead (60 units its way, at
    /// most `D = round(v/k)`), never past `D`: it has written `D` once `x` is within the lead and
    /// half a unit of it, at `t_D = −ln(1 − k·(D ∓ ½ ∓ lead)/v)/k` (0 when the lead alone covers
    /// `D`). The coast writes `D` on each axis when every axis gets there within `max_duration`;
    /// else each axis writes `round(x(max_duration) + lead)`, at most `D`.
    private static func model(_ plan: CoastPlan, settings: Configuration, natural: Bool)
        -> (destination: (Double, Double), total: (Double, Double)) {
        let rate = min(max(settings.coast.decelerationRate, 0.5), 0.99999)
        let k = -1000 * log(rate)
        let v = plan.velocity
        let limit = settings.coast.maxDuration.seconds
        func axis(_ velocity: Double) -> (destination: Double, whole: Double, written: Double, cut: Double) {
            let x = velocity / k
            let d = x.rounded()
            guard velocity != 0, d != 0 else { return (x, 0, 0, 0) }
            let sign: Double = d > 0 ? 1 : -1
            let lead = sign * min(leadHiRes, abs(d))
            let fraction = k * (d - sign * 0.5 - lead) / velocity
            let written = fraction <= 0 ? 0 : fraction < 1 ? -log1p(-fraction) / k : .infinity
            let cut = sign * min(sign * (x * -expm1(-k * limit) + lead), abs(d))
            return (x, d, written, cut.rounded())
        }
        let vertical = axis((natural ? v.y : -v.y) * settings.scroll.speed)
        let horizontal = axis((natural ? -v.x : v.x) * settings.scroll.speed)
        let destination = (vertical.destination, horizontal.destination)
        if max(vertical.written, horizontal.written) <= limit { return (destination, (vertical.whole, horizontal.whole)) }
        return (destination, (vertical.cut, horizontal.cut))
    }

    private func check(_ plan: CoastPlan, of coast: Coast, context: String) throws(HarnessFailure) {
        let settings = coast.settings.coast
        let numbers = [plan.velocity.x, plan.velocity.y, plan.releaseVelocity.x, plan.releaseVelocity.y,
                       plan.destinationHiRes.vertical, plan.destinationHiRes.horizontal]
        guard numbers.allSatisfy(\.isFinite) else { throw fail("\(context): non-finite plan \(plan)") }
        if plan.velocity.length > settings.maxSpeed * (1 + 1e-9) {
            throw fail("\(context): coast at \(plan.velocity.length) mm/s, faster than max_speed \(settings.maxSpeed)")
        }
        if plan.releaseVelocity.length < settings.minSpeed * (1 - 1e-9) {
            throw fail("\(context): release at \(plan.releaseVelocity.length) mm/s coasted, slower than min_speed \(settings.minSpeed)")
        }
        if plan.duration < .zero || plan.duration > settings.maxDuration {
            throw fail("\(context): plan lasts \(plan.duration), outside 0...max_duration \(settings.maxDuration)")
        }
        if coast.touchpad {
            // The fingers carry the coast: the wheel's destination and total are not computed.
            guard plan.destinationHiRes == (0, 0), plan.totalHiRes == (0, 0) else {
                throw fail("\(context): a glide's plan with wheel output \(plan)")
            }
            return
        }
        let model = Self.model(plan, settings: coast.settings, natural: coast.natural)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }
        guard near(plan.destinationHiRes.vertical, model.destination.0), near(plan.destinationHiRes.horizontal, model.destination.1) else {
            throw fail("\(context): plan heads for \(plan.destinationHiRes) but the model for \(plan.velocity) mm/s gives \(model.destination)")
        }
        guard abs(Double(plan.totalHiRes.vertical) - model.total.0) <= 1, abs(Double(plan.totalHiRes.horizontal) - model.total.1) <= 1 else {
            throw fail("\(context): plan total \(plan.totalHiRes) is more than 1 unit from the model's \(model.total)")
        }
    }

    private func check(_ coast: Coast, endedAt time: Instant, reason: StopReason,
                       emitted: (vertical: Int64, horizontal: Int64), context: String) throws(HarnessFailure) {
        let what = { "\(context): coast from \(coast.start) ended (\(reason))" }
        // What reached the apps: the outputs less those reported not written.
        let written = (coast.vertical - coast.unwritten.vertical, coast.horizontal - coast.unwritten.horizontal)
        guard emitted == written else {
            throw fail("\(what()): the engine says it wrote \(emitted), the outputs add up to \((coast.vertical, coast.horizontal)), \(coast.unwritten) of it not written")
        }
        if coast.unwritten != (0, 0) { statistics.coastsWithUnwritten += 1 }
        // Legacy detents: whole 120s of what this coast wrote on top of what earlier ones left.
        let legacy = (coast.legacyStart.vertical + coast.vertical, coast.legacyStart.horizontal + coast.horizontal)
        guard coast.verticalDetents == legacy.0 / 120, coast.horizontalDetents == legacy.1 / 120 else {
            throw fail("\(what()): detents \((coast.verticalDetents, coast.horizontalDetents)) for hi-res \((coast.vertical, coast.horizontal)) on top of \(coast.legacyStart) left by earlier coasts")
        }
        // The engine's detents went on counting what was not written (its outputs are the
        // coast's own), but an axis with units that did not reach the apps carries nothing: the
        // next coast would give legacy readers a detent early.
        if !coast.touchpad {
            legacyRemainder = (coast.unwritten.vertical == 0 ? legacy.0 % 120 : 0,
                               coast.unwritten.horizontal == 0 ? legacy.1 % 120 : 0)
        }
        let total = coast.plan.totalHiRes
        switch reason {
        case .finished, .maxDuration:
            statistics.coastsRunOut += 1
            guard (coast.vertical, coast.horizontal) == total else {
                throw fail("\(what()): wrote \((coast.vertical, coast.horizontal)), the plan said \(total)")
            }
        default:
            statistics.coastsStopped += 1
            func within(_ written: Int64, _ planned: Int64) -> Bool {
                written == 0 || (written.signum() == planned.signum() && abs(written) <= abs(planned))
            }
            guard within(coast.vertical, total.vertical), within(coast.horizontal, total.horizontal) else {
                throw fail("\(what()): wrote \((coast.vertical, coast.horizontal)), beyond or against the plan's \(total)")
            }
        }
    }

    private func fail(_ message: String) -> HarnessFailure {
        HarnessFailure(message: message + " [configuration \(configuration)]")
    }
}
