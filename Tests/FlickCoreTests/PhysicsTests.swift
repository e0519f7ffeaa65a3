import Testing
@testable import FlickCore

/// The golden numbers of DESIGN_NOTES §1 (v0 = 1000 units/s).
@Suite struct DecelerationGoldenNumbers {
    let normal = Deceleration(ratePerMillisecond: 0.998)
    let fast = Deceleration(ratePerMillisecond: 0.99)

    @Test func destination() {
        #expect(abs(normal.destination(velocity: 1000) - 499.4998) < 0.0001)
        #expect(abs(fast.destination(velocity: 1000) - 99.4992) < 0.0001)
    }

    @Test func settleTimes() {
        #expect(abs(normal.settleTime(velocity: 1000, epsilon: 0.5) - 3.4499) < 0.0001)
        #expect(abs(normal.settleTime(velocity: 1000, epsilon: 1) - 3.1037) < 0.0001)
        #expect(abs(fast.settleTime(velocity: 1000, epsilon: 0.5) - 0.5267) < 0.0001)
        #expect(normal.settleTime(velocity: 0.1, epsilon: 0.5) == 0, "already at rest")
    }

    @Test(arguments: [(0.1, 90.626), (0.5, 315.928), (1.0, 432.035)])
    func positions(seconds: Double, expected: Double) {
        #expect(abs(normal.position(after: seconds, velocity: 1000) - expected) < 0.001)
        #expect(abs(normal.position(after: seconds, velocity: -1000) + expected) < 0.001, "symmetric in sign")
    }

    @Test func velocityDecays() {
        #expect(abs(normal.velocity(after: 1, velocity: 1000) - 1000 * Double(pow998(1000))) < 1e-6)
        #expect(normal.velocity(after: 0, velocity: 1000) == 1000)
    }

    @Test func timeToReachInvertsPosition() throws {
        let t = try #require(normal.time(toReach: 315.928, velocity: 1000))
        #expect(abs(t - 0.5) < 0.0001)
        #expect(normal.time(toReach: 600, velocity: 1000) == nil, "beyond the destination")
    }

    private func pow998(_ n: Int) -> Double {
        var r = 1.0
        for _ in 0..<n { r *= 0.998 }
        return r
    }
}
