import FlickCore
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

    @Test("this machine's time suspended since boot: none or positive, and still between two reads")
    func thisMachine() {
        let first = Syscall.suspendedSinceBoot()
        let second = Syscall.suspendedSinceBoot()
        #expect(first >= .zero)
        #expect(second - first < SuspendWatch.threshold, "\(first) then \(second)")
    }
}
