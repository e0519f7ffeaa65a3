import Testing
@testable import FlickCore

/// The one release decision (`ReleaseDecision`), driven directly: the gates, the boost, axis
/// lock, the clamp and the wheel direction, with the default `[coast]` settings
/// (min 50 mm/s, max 1500 mm/s, axis lock 20°, boost on).
@Suite struct ReleaseDecisionTests {
    let settings = Configuration.Coast()
    let now = Instant(microseconds: 10_000_000)

    func decide(_ velocity: Vector?, travel: Double = 20, stopped: (velocity: Vector, time: Instant)? = nil,
                settings: Configuration.Coast? = nil) -> ReleaseDecision {
        ReleaseDecision(velocity: velocity, travel: travel, stoppedCoast: stopped, at: now, settings: settings ?? self.settings)
    }

    func coast(_ decision: ReleaseDecision, sourceLocation: SourceLocation = #_sourceLocation) -> ReleaseCoast? {
        guard case .coast(let coast) = decision else {
            Issue.record("expected a coast, got \(decision)", sourceLocation: sourceLocation)
            return nil
        }
        return coast
    }

    @Test func aTapDoesNotCoastWhateverItsSpeed() {
        // 0.9 mm of travel is under the 1 mm minimum: a tap, even at 400 mm/s.
        #expect(decide(Vector(x: 0, y: 400), travel: 0.9) == .noCoast(.noMotion))
        #expect(decide(Vector(x: 0, y: 400), travel: ReleaseDecision.minimumTravel) != .noCoast(.noMotion))
    }

    @Test func fingersThatStoppedDoNotCoast() {
        #expect(decide(nil) == .noCoast(.fingersStopped), "no velocity: the history was cut by a pause")
        #expect(decide(Vector(x: 0, y: 0)) == .noCoast(.fingersStopped))
    }

    @Test func aVelocityThatIsNotFiniteIsABug() {
        #expect(decide(Vector(x: .nan, y: 100)) == .invalid)
        #expect(decide(Vector(x: 0, y: .infinity)) == .invalid)
    }

    @Test func slowerThanMinSpeedDoesNotCoast() {
        // 30, 40 → 50 mm/s: exactly min_speed coasts, just below it does not.
        #expect(decide(Vector(x: 30, y: 39.9)) == .noCoast(.tooSlow(speed: Vector(x: 30, y: 39.9).length)))
        #expect(coast(decide(Vector(x: 30, y: 40)))?.velocity == Vector(x: 30, y: 40))
    }

    @Test func fasterThanMaxSpeedIsClampedKeepingItsDirection() throws {
        // 1800, 2400 → 3000 mm/s at 53° from vertical (outside the axis lock): clamped to 1500.
        let decided = try #require(coast(decide(Vector(x: 1800, y: 2400))))
        #expect(abs(decided.velocity.length - 1500) < 1e-9)
        #expect(abs(decided.velocity.x - 900) < 1e-9 && abs(decided.velocity.y - 1200) < 1e-9)
        #expect(decided.releaseVelocity == Vector(x: 1800, y: 2400), "the estimate is reported as it was")
        #expect(!decided.boosted)
    }

    @Test func nearAnAxisTheMinorAxisIsDropped() throws {
        // 15° from vertical: locked to vertical; 15° from horizontal: locked to horizontal.
        let nearVertical = try #require(coast(decide(Vector(x: 26.8, y: 100))))
        #expect(nearVertical.velocity == Vector(x: 0, y: 100))
        let nearHorizontal = try #require(coast(decide(Vector(x: -100, y: 26.8))))
        #expect(nearHorizontal.velocity == Vector(x: -100, y: 0))
        // 30° from vertical is outside 20°: both axes stay.
        let diagonal = try #require(coast(decide(Vector(x: 57.7, y: 100))))
        #expect(diagonal.velocity == Vector(x: 57.7, y: 100))
        // axis_lock = 0 turns it off.
        var off = settings
        off.axisLockDegrees = 0
        #expect(try #require(coast(decide(Vector(x: 1, y: 100), settings: off))).velocity == Vector(x: 1, y: 100))
    }

    @Test func aFlickInTheSameDirectionSoonAfterAStoppedCoastIsBoosted() throws {
        let stopped = (velocity: Vector(x: 0, y: 300), time: now - .milliseconds(200))
        let decided = try #require(coast(decide(Vector(x: 0, y: 400), stopped: stopped)))
        #expect(decided.boosted)
        #expect(decided.velocity == Vector(x: 0, y: 700))
        // The boosted sum is still clamped.
        let fast = try #require(coast(decide(Vector(x: 0, y: 1400), stopped: stopped)))
        #expect(fast.boosted && fast.velocity.x == 0 && abs(fast.velocity.y - 1500) < 1e-9)
    }

    @Test func noBoostTheOtherWayTooLateTooSlowOrTurnedOff() throws {
        let down = Vector(x: 0, y: 400)
        let cases: [(String, (velocity: Vector, time: Instant), Configuration.Coast)] = [
            ("opposite direction", (Vector(x: 0, y: -300), now - .milliseconds(200)), settings),
            ("60° apart", (Vector(x: 260, y: 150), now - .milliseconds(200)), settings),
            ("after the 750 ms window", (Vector(x: 0, y: 300), now - .milliseconds(751)), settings),
            ("stopped coast below min_speed", (Vector(x: 0, y: 49), now - .milliseconds(200)), settings),
            ("coast.boost = false", (Vector(x: 0, y: 300), now - .milliseconds(200)), { var s = settings; s.boost = false; return s }()),
        ]
        for (name, stopped, settings) in cases {
            let decided = try #require(coast(decide(down, stopped: stopped, settings: settings)))
            #expect(!decided.boosted && decided.velocity == down, "\(name)")
        }
    }

    @Test func theWheelDirectionFollowsTheScrollingConvention() {
        // Fingers moving down and right at (30, 100) mm/s, scroll.speed 10 units/mm.
        let decided = ReleaseCoast(releaseVelocity: Vector(x: 30, y: 100), velocity: Vector(x: 30, y: 100), boosted: false)
        // Traditional: the fingers move the view: down → scroll down (REL_WHEEL < 0), right → right.
        let traditional = decided.wheelVelocity(natural: false, unitsPerMillimetre: 10)
        #expect(traditional.vertical == -1000 && traditional.horizontal == 300)
        // Natural: the content follows the fingers.
        let natural = decided.wheelVelocity(natural: true, unitsPerMillimetre: 10)
        #expect(natural.vertical == 1000 && natural.horizontal == -300)
    }
}
