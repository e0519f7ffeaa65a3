import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// The syscall wrappers `LiveSystem` uses, on things every Linux machine has.
@Suite struct LiveSystemTests {
    @Test func runCapturesOutputAndStatus() throws {
        let result = try #require(LiveSystem().run(["sh", "-c", "echo out; echo err >&2; exit 3"]))
        #expect(result.status == 3)
        #expect(result.output == "out\nerr\n")
    }

    @Test func runReportsAMissingProgram() {
        #expect(LiveSystem().run(["flickd-no-such-program-\(getpid())"]) == nil)
    }

    @Test func runGivesTheChildNoStandardInput() throws {
        let result = try #require(LiveSystem().run(["cat"]))
        #expect(result.status == 0 && result.output.isEmpty, "cat reads /dev/null and ends at once")
    }

    @Test func accessAndGroupsAnswer() throws {
        let system = LiveSystem()
        #expect(system.writeAccess("/no/such/file")?.isMissing == true)
        #expect(system.readAccess("/no/such/file")?.isMissing == true)
        #expect(system.processGroups().contains(getegid()))
        #expect(system.groupID(named: "flickd-no-such-group") == nil)
    }

    @Test(.enabled(if: getpwuid(getuid()) != nil, "this uid has no passwd entry (a container's arbitrary uid): no user to check"))
    func theCurrentUserAndTheirGroupsAnswer() throws {
        let system = LiveSystem()
        let user = try #require(system.currentUser(), "the passwd database has uid \(getuid())")
        #expect(user.uid == getuid())
        #expect(system.databaseGroups(of: user).contains(user.primaryGroup))
    }

    @Test func textFileWriteRoundTrips() throws {
        let path = NSTemporaryDirectory() + "flickd-doctor-test-\(getpid()).txt"
        defer { unlink(path) }
        try TextFile.write("first, longer text\n", to: path)
        try TextFile.write("ünïcode ✓\n", to: path)
        #expect(try TextFile.read(path) == "ünïcode ✓\n", "replaced, not appended")
        #expect(throws: SystemError.self) { try TextFile.write("x", to: "/no/such/dir/file") }
    }
}
