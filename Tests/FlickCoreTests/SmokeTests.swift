import Testing
@testable import FlickCore

@Test func instantArithmetic() {
    let t = Instant(seconds: 1, microseconds: 500)
    #expect((t + .milliseconds(2)).microseconds == 1_002_500)
}
