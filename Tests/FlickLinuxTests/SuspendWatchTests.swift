import FlickCore
import Glibc
import Testing
@testable import FlickLinux

/// A suspend during a coast: CLOCK_MONOTONIC stops while the machine sleeps, so only the time
/// suspended since boot tells a quick resume.
@Suite struct SuspendWatchTests {
    @Test("the time suspended growing between two looks is a suspend; the same time, or a look before the start, is none")
    func growthIsASuspend() {
        var watch = SuspendWatch()
        let start = Duration.milliseconds(90_000)
        let suspend = SuspendWatch.threshold + .milliseconds(300)  // a 350 ms s2idle
        var looks: [Bool] = []
        looks.append(watch.slept(start))  // not started: nothing to compare with
        watch.start(start)
        looks.append(watch.slept(start))
        looks.append(watch.slept(start + SuspendWatch.threshold))  // within the margin
        looks.append(watch.slept(start + suspend))  // too short for the engine's stall limit
        looks.append(watch.slept(start + suspend))  // told once
        #expect(looks == [false, false, false, true, false])
        // A suspend between two coasts is none during the next: it starts from now.
        watch.start(.milliseconds(200_000))
        let next = watch.slept(.milliseconds(200_000))
        #expect(!next)
    }

    @Test("this machine's time suspended since boot: CLOCK_BOOTTIME less CLOCK_MONOTONIC, and still between two reads")
    func thisMachine() {
        // The two clocks read around the call bound it: the boot time before less the monotonic
        // time after is at most the difference it reads, the boot time after less the monotonic
        // time before at least. They hold however late the reads come: a loaded machine widens
        // them by its delay, not by the hours between two clocks, or a unit's factor of 1000 on
        // a machine that has slept.
        let monotonicBefore = nanoseconds(CLOCK_MONOTONIC)
        let bootBefore = nanoseconds(CLOCK_BOOTTIME)
        let first = Syscall.suspendedSinceBoot()
        let monotonicAfter = nanoseconds(CLOCK_MONOTONIC)
        let bootAfter = nanoseconds(CLOCK_BOOTTIME)
        let least = max(0, bootBefore - monotonicAfter) / 1000, most = max(0, bootAfter - monotonicBefore) / 1000
        #expect(least <= first.microseconds && first.microseconds <= most, "\(least) µs ≤ \(first.microseconds) µs ≤ \(most) µs")
        let second = Syscall.suspendedSinceBoot()
        #expect(second - first < SuspendWatch.threshold, "\(first) then \(second)")
    }
}
