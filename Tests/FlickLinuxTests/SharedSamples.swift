import FlickTestSupport
import Testing

// The shared samples are not part of the repository (Tests/README.md): tests that need them
// carry one of these traits, so that without them they are reported as skipped, with where
// they were looked for, instead of passing on nothing.
extension Trait where Self == ConditionTrait {
    /// Runs the test only when the shared evemu recordings are there.
    static var needsSharedRecordings: Self {
        .enabled(if: Fixtures.hasSharedRecordings, Comment(rawValue: Fixtures.sharedAbsentReason))
    }

    /// Runs the test only when the shared device descriptions are there.
    static var needsSharedDevices: Self {
        .enabled(if: Fixtures.hasSharedDevices, Comment(rawValue: Fixtures.sharedAbsentReason))
    }
}
