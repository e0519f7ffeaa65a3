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
///   model (`round(X)`, or `round(x(max_duration))` when it does not settle in time); a stopped
///   coast wrote no more than that and in the same direction; the legacy detents are the
///   hi-res total / 120; the engine's own count of what it wrote matches;
/// - the engine reports no bug and no non-finite velocity; it coasts exactly when it has a
///   deadline; every coast ends by itself within `max_duration / tick period` ticks, plus one
///   for each tick the script made before its deadline (the engine takes an early tick as the
///   last one, so the next deadline moves up by less than a period).
public final class EngineHarness {
    public private(set) var statistics = HarnessStatistics()

    private let engine: Engine
    private let descriptions: [DeviceDescription]
    private var configuration: Configuration
    private var plugged: [Bool]
    /// The event loop's clock: never goes back, unlike the kernel's event stamps.
    private var clock: Instant

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
        var ticks = 0
        var earlyTicks = 0
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
            try settle(output, outputBelongsToNewCoast: true, at: time, context: "handle(\(event), device \(index)) at \(time)")
        case .stop(let reason):
            if coast != nil { statistics.stopsWhileCoasting += 1 }
            engine.stop(at: time, reason: reason)
            try settle(WheelOutput(), outputBelongsToNewCoast: false, at: time, context: "stop(\(reason)) at \(time)")
            if coast != nil || engine.isCoasting { throw fail("still coasting after stop(\(reason)) at \(time)") }
        case .tick(let lateness):
            guard let deadline = engine.nextDeadline else { return }
            let at = max(clock, EngineScript.clamp(deadline, plus: lateness.microseconds))
            try check(engine.tick(at: at), at: at, deadline: deadline)
        case .toggleDevice(let index):
            if plugged[index] {
                engine.removeDevice(Self.id(index), at: time)
            } else {
                engine.addDevice(Self.id(index), description: descriptions[index])
            }
            plugged[index].toggle()
            try settle(WheelOutput(), outputBelongsToNewCoast: false, at: time, context: "unplug/plug device \(index) at \(time)")
        case .abandon(let index):
            // What the daemon passes on when the kernel lost events: the SYN_DROPPED itself.
            let dropped = InputEvent(type: EventCode.synchronization, code: EventCode.synDropped, value: 0)
            let output = engine.handle(dropped, from: Self.id(index), at: time)
            try settle(output, outputBelongsToNewCoast: false, at: time, context: "SYN_DROPPED (device \(index)) at \(time)")
        case .reconfigure(let configuration):
            engine.apply(configuration, at: time)
            self.configuration = configuration
            try settle(WheelOutput(), outputBelongsToNewCoast: false, at: time, context: "apply(configuration) at \(time)")
            if coast != nil { throw fail("still coasting after a reload at \(time)") }
        case .desktopNaturalScrolling(let natural):
            engine.desktopNaturalScrolling = natural
        }
    }

    /// Lets the coast run out, ticking on time from now on.
    public func finish() throws(HarnessFailure) {
        let latest = try engine.advance(to: .end, notBefore: clock) { (tick) throws(HarnessFailure) in
            try check(tick.output, at: tick.time, deadline: tick.deadline)
        }
        clock = max(clock, latest)
        if coast != nil { throw fail("a coast never reported its end") }
    }

    /// Checks the tick the engine just ran at `time` for `deadline` (the reports it made are still in `notes`, so `coast`
    /// is the coast that ran when it was called).
    private func check(_ output: WheelOutput, at time: Instant, deadline: Instant) throws(HarnessFailure) {
        statistics.ticks += 1
        clock = max(clock, time)
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
        try settle(output, outputBelongsToNewCoast: false, at: time, context: context())
        if stalled, coast != nil || reasons != [.stall] {
            throw fail("\(context()): a tick \((time - deadline).milliseconds) ms late did not end the coast as a stall (\(reasons))")
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
            notes.append(.started(Coast(device: device, start: time, plan: plan, settings: settings, natural: natural)))
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
    private func settle(_ output: WheelOutput, outputBelongsToNewCoast: Bool, at time: Instant,
                        context: @autoclosure () -> String) throws(HarnessFailure) {
        if let problem = reportProblem { throw fail("\(context()): \(problem)") }
        if !output.isEmpty { statistics.nonEmptyOutputs += 1 }
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
            case .started(let started):
                if let running = current {
                    throw fail("\(context()): a coast started while the one from \(running.start) had not ended")
                }
                try check(started.plan, of: started, context: context())
                current = started
                currentIsNew = true
                statistics.coasts += 1
            case .ended(let endTime, let reason, let emitted):
                guard var ended = current else { throw fail("\(context()): a coast ended (\(reason)) with none running") }
                if !attributed && currentIsNew == outputBelongsToNewCoast {
                    add(output, to: &ended)
                    attributed = true
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
        }
        coast = current
        try checkCoasting(context: context())
    }

    private func checkCoasting(context: @autoclosure () -> String) throws(HarnessFailure) {
        if engine.isCoasting != (coast != nil) {
            throw fail("\(context()): engine.isCoasting is \(engine.isCoasting) but the reports say \(coast != nil)")
        }
        if engine.isCoasting != (engine.nextDeadline != nil) {
            throw fail("\(context()): isCoasting \(engine.isCoasting) but nextDeadline \(String(describing: engine.nextDeadline))")
        }
    }

    private func add(_ output: WheelOutput, to coast: inout Coast) {
        coast.vertical += Int64(output.verticalHiRes)
        coast.horizontal += Int64(output.horizontalHiRes)
        coast.verticalDetents += Int64(output.verticalDetents)
        coast.horizontalDetents += Int64(output.horizontalDetents)
    }

    /// The model for a coast at `plan.velocity`: destination and total per axis, hi-res units.
    private static func model(_ plan: CoastPlan, settings: Configuration, natural: Bool)
        -> (destination: (Double, Double), total: (Double, Double)) {
        let rate = min(max(settings.coast.decelerationRate, 0.5), 0.99999)
        let k = -1000 * log(rate)
        let v = plan.velocity
        let vertical = (natural ? v.y : -v.y) * settings.scroll.speed
        let horizontal = (natural ? -v.x : v.x) * settings.scroll.speed
        let destination = (vertical / k, horizontal / k)
        // Settles when the faster axis is within half a unit of rest: T = ln(k·0.5/|v|)/−k.
        let fastest = max(abs(vertical), abs(horizontal))
        let ratio = k * 0.5 / fastest
        let settle = fastest > 0 && ratio < 1 ? log(ratio) / -k : 0
        let limit = settings.coast.maxDuration.seconds
        if settle <= limit { return (destination, destination) }
        let reached = -expm1(-k * limit)
        return (destination, (destination.0 * reached, destination.1 * reached))
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
        guard emitted == (coast.vertical, coast.horizontal) else {
            throw fail("\(what()): the engine says it wrote \(emitted), the outputs add up to \((coast.vertical, coast.horizontal))")
        }
        guard coast.verticalDetents == coast.vertical / 120, coast.horizontalDetents == coast.horizontal / 120 else {
            throw fail("\(what()): detents \((coast.verticalDetents, coast.horizontalDetents)) for hi-res \((coast.vertical, coast.horizontal))")
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
