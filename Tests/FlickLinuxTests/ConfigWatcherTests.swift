import FlickCore
import Foundation
import Glibc
import Testing
@testable import FlickLinux

/// A fresh directory under /tmp for configuration files, removed with its contents when released.
final class ConfigScratchDirectory {
    let path: String

    init() {
        var template = Array("/tmp/flickd-config-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `path/name`.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` the way `>` does: truncate, write, close.
    func write(_ name: String, _ text: String) {
        let fd = open(file(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(file(name))")
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(fd, bytes.baseAddress, bytes.count) }
        close(fd)
    }

    /// Writes `bytes` to `name`: a file that need not be UTF-8.
    func write(_ name: String, bytes: [UInt8]) {
        let fd = open(file(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(file(name))")
        bytes.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Saves `text` to `name` as many editors do: a new file renamed over the old one.
    func replace(_ name: String, _ text: String) {
        write(".\(name).tmp", text)
        rename(".\(name).tmp", name)
    }

    func rename(_ from: String, _ to: String) { precondition(Glibc.rename(file(from), file(to)) == 0) }
    func remove(_ name: String) { precondition(unlink(file(name)) == 0) }
    func makeDirectory(_ name: String) { precondition(mkdir(file(name), 0o755) == 0) }
    func removeDirectory(_ name: String) { precondition(rmdir(file(name)) == 0) }
}

/// Sends SIGTERM to the thread that made it after `seconds`, unless cancelled first: a daemon
/// loop waiting for an event that never comes ends (and its test fails) instead of hanging.
final class DaemonWatchdog {
    private let cancelWrite: Int32

    init(seconds: Int32) {
        // A socket pair, not a pipe: a watchdog that fired has closed its end, and `cancel()`
        // then must fail quietly (MSG_NOSIGNAL) rather than kill the test run with SIGPIPE.
        var ends: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        cancelWrite = ends[1]
        let (cancelRead, target) = (ends[0], pthread_self())
        Thread.detachNewThread {
            var entry = pollfd(fd: cancelRead, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, seconds * 1000) == 0 { pthread_kill(target, SIGTERM) }
            close(cancelRead)
        }
    }

    func cancel() {
        _ = send(cancelWrite, "x", 1, Int32(MSG_NOSIGNAL))
        close(cancelWrite)
    }
}

/// inotify on a temporary directory, read through epoll with a zero timeout: the kernel queues
/// an event before the call that caused it returns, so nothing needs to wait.
@Suite struct ConfigWatcherTests {
    let quiet = Logger(label: "flickd-test") { _ in NoOpLogHandler() }

    /// A watcher on `paths` in an epoll set, as the daemon has it.
    final class Harness {
        let watcher: ConfigWatcher
        let poll: EventPoll

        init(_ paths: [String], logger: Logger) throws {
            watcher = try ConfigWatcher(paths: paths, logger: logger)
            poll = try EventPoll()
            try poll.add(watcher.fileDescriptor, token: 4)
        }

        /// The changes pending now; [] when epoll reports nothing.
        func changes() throws -> [ConfigWatcher.Change] {
            guard try poll.wait(timeoutMilliseconds: 0) > 0 else { return [] }
            #expect(poll.token(at: 0) == 4)
            return try watcher.receive()
        }

        /// Whether the inotify descriptor is readable at all.
        func isReadable() throws -> Bool { try poll.wait(timeoutMilliseconds: 0) > 0 }
    }

    @Test func writingTheFileIsSeenAndOtherFilesAreNot() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        let harness = try Harness([path], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.path])
        #expect(try harness.changes() == [], "nothing happened yet")

        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)], "created, then written: the close is the change")

        directory.write("notes.txt", "unrelated")
        #expect(try harness.isReadable(), "inotify reports the other file")
        #expect(try harness.watcher.receive() == [], "but the watcher drops it by name")
        #expect(try harness.changes() == [])

        directory.write("config.toml", "[scroll]\nspeed = 31\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)])
    }

    /// `cat > config.toml`: the file is created, written a bit at a time and closed at the end.
    /// Until the close it may be half-written: the creation is one with no close seen (read
    /// only once quiet, `LiveConfiguration`), and the close is the change.
    @Test func aNewFileIsSeenWhenClosedNotWhenCreated() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        let harness = try Harness([path], logger: quiet)

        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        let half = "[coast]\nmin_"
        _ = half.withCString { Glibc.write(fd, $0, strlen($0)) }
        #expect(try harness.changes() == [.init(path: path, kind: .createdUnclosed)], "created and half-written, still open")
        close(fd)
        #expect(try harness.changes() == [.init(path: path, kind: .written)])
    }

    /// A link made to a finished file (`ln -s`, `ln`) is the whole file at once: no close follows.
    @Test func aLinkIsSeenWhenMade() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        directory.write("dotfiles.toml", "[coast]\nboost = false\n")
        let harness = try Harness([path], logger: quiet)
        _ = try harness.changes()

        #expect(symlink(directory.file("dotfiles.toml"), path) == 0)
        #expect(try harness.changes() == [.init(path: path, kind: .created)])
        directory.remove("config.toml")
        _ = try harness.changes()
        #expect(link(directory.file("dotfiles.toml"), path) == 0)
        #expect(try harness.changes() == [.init(path: path, kind: .created)], "a hard link")

        // Linked in, the first name removed before the events are read (Python's atomicwrites):
        // one name by then, and no close to come under it.
        directory.remove("config.toml")
        _ = try harness.changes()
        directory.write("config.toml.tmp", "[coast]\nboost = true\n")
        #expect(link(directory.file("config.toml.tmp"), path) == 0)
        directory.remove("config.toml.tmp")
        #expect(try harness.changes() == [.init(path: path, kind: .createdUnclosed)])
    }

    @Test func aFileRenamedOverItIsSeen() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        let harness = try Harness([path], logger: quiet)

        directory.replace("config.toml", "[scroll]\nspeed = 40\n")
        #expect(try harness.changes() == [.init(path: path, kind: .replaced)], "the temporary file itself is not reported")
    }

    @Test func deletingOrRenamingItAwayIsSeen() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        directory.write("config.toml", "")
        let harness = try Harness([path], logger: quiet)

        directory.remove("config.toml")
        #expect(try harness.changes() == [.init(path: path, kind: .removed)])

        directory.write("config.toml", "")
        _ = try harness.changes()
        directory.rename("config.toml", "config.toml.bak")
        #expect(try harness.changes() == [.init(path: path, kind: .removed)])
    }

    /// `chmod 644` on a file flickd could not read ("Permission denied", the settings kept): the
    /// file is readable now, with no save to say so. Another file's mode, or the directory's,
    /// is nothing.
    @Test func aChangeOfPermissionsIsSeen() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        directory.write("config.toml", "[scroll]\nspeed = 30\n")
        directory.write("notes.txt", "unrelated")
        #expect(chmod(path, 0o200) == 0)
        let harness = try Harness([path], logger: quiet)
        _ = try harness.changes()

        #expect(chmod(path, 0o644) == 0)
        #expect(try harness.changes() == [.init(path: path, kind: .attributesChanged)])

        #expect(chmod(directory.file("notes.txt"), 0o600) == 0)
        #expect(chmod(directory.path, 0o750) == 0)
        #expect(try harness.changes() == [])
        #expect(harness.watcher.watchedDirectories == [directory.path])
    }

    /// A file made, its mode set and still being written (`install`, `cp -p`): the mode says
    /// nothing of the text, which is read once quiet or at its close.
    @Test func aChangeOfPermissionsDoesNotEndAWaitForTheClose() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("config.toml")
        let harness = try Harness([path], logger: quiet)

        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        #expect(fchmod(fd, 0o644) == 0)
        #expect(try harness.changes() == [.init(path: path, kind: .createdUnclosed), .init(path: path, kind: .attributesChanged)])
        close(fd)
        #expect(try harness.changes() == [.init(path: path, kind: .written)])

        let created = ConfigWatcher.Change(path: path, kind: .createdUnclosed)
        let chmodded = ConfigWatcher.Change(path: path, kind: .attributesChanged)
        #expect(ConfigWatcher.closingCreations([created, chmodded]) == [created, chmodded])
        #expect(ConfigWatcher.closingCreations([created, chmodded, .init(path: path, kind: .written)])
                == [chmodded, .init(path: path, kind: .written)])
    }

    @Test func aMissingDirectoryIsWaitedForFromItsParent() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("flickd/config.toml")
        let harness = try Harness([path], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.path], "flickd/ does not exist: its parent is watched")

        directory.makeDirectory("flickd")
        #expect(try harness.changes() == [.init(path: path, kind: .directoryAppeared)])
        #expect(harness.watcher.watchedDirectories == [directory.file("flickd")], "now the directory itself")

        directory.write("flickd/config.toml", "[coast]\nboost = false\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)], "created, then written: the close is the change")

        // The whole directory goes: back to waiting in the parent, and it can come back.
        directory.remove("flickd/config.toml")
        directory.removeDirectory("flickd")
        let gone = try harness.changes()
        #expect(!gone.isEmpty && gone.allSatisfy { $0 == .init(path: path, kind: .removed) }, "\(gone)")
        #expect(harness.watcher.watchedDirectories == [directory.path])
        directory.makeDirectory("flickd")
        #expect(try harness.changes() == [.init(path: path, kind: .directoryAppeared)])
        directory.write("flickd/config.toml", "")
        #expect(try harness.changes().last == .init(path: path, kind: .written))
    }

    /// Xfce's channel file in a user's first Xfce session, before xfconf's store has started:
    /// three levels missing.
    @Test func directoriesMissingSeveralLevelsDeepAreWaitedForOneByOne() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("xfce4/xfconf/xfce-perchannel-xml/pointers.xml")
        let harness = try Harness([path], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.path], "the nearest directory that exists")

        directory.makeDirectory("xfce4")
        #expect(try harness.changes() == [], "the file cannot be there yet")
        #expect(harness.watcher.watchedDirectories == [directory.file("xfce4")])
        directory.makeDirectory("xfce4/xfconf")
        #expect(try harness.changes() == [])
        #expect(harness.watcher.watchedDirectories == [directory.file("xfce4/xfconf")])
        directory.makeDirectory("xfce4/xfconf/xfce-perchannel-xml")
        #expect(try harness.changes() == [.init(path: path, kind: .directoryAppeared)])
        #expect(harness.watcher.watchedDirectories == [directory.file("xfce4/xfconf/xfce-perchannel-xml")])

        directory.write("xfce4/xfconf/xfce-perchannel-xml/pointers.xml", "<channel/>")
        #expect(try harness.changes() == [.init(path: path, kind: .written)], "created, then written: the close is the change")

        // Taken down again: the watch climbs back to the directory that is left.
        directory.remove("xfce4/xfconf/xfce-perchannel-xml/pointers.xml")
        directory.removeDirectory("xfce4/xfconf/xfce-perchannel-xml")
        directory.removeDirectory("xfce4/xfconf")
        let gone = try harness.changes()
        #expect(!gone.isEmpty && gone.allSatisfy { $0 == .init(path: path, kind: .removed) }, "\(gone)")
        #expect(harness.watcher.watchedDirectories == [directory.file("xfce4")])
    }

    /// `mkdir -p` makes the levels faster than the watcher reads its events: the levels made
    /// before their parent's watch was in place send nothing, and are found by looking again.
    @Test func levelsMadeAtOnceAreFoundWithoutTheirEvents() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("a/b/c/config.toml")
        let harness = try Harness([path], logger: quiet)
        directory.makeDirectory("a")
        directory.makeDirectory("a/b")
        directory.makeDirectory("a/b/c")
        directory.write("a/b/c/config.toml", "")
        #expect(try harness.changes() == [.init(path: path, kind: .directoryAppeared)], "the file may be there: it is")
        #expect(harness.watcher.watchedDirectories == [directory.file("a/b/c")])

        directory.write("a/b/c/config.toml", "[coast]\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)])
    }

    /// A file made with the name of a directory on the way is not a directory appearing.
    @Test func aFileWithTheDirectorysNameIsNotItsAppearance() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("flickd/config.toml")
        let harness = try Harness([path], logger: quiet)
        directory.write("flickd", "")
        #expect(try harness.changes() == [])
        #expect(harness.watcher.watchedDirectories == [directory.path])
    }

    @Test func theNearestDirectoryIsTheDeepestThatExists() {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("a")
        #expect(ConfigWatcher.nearestDirectory(of: directory.file("a/config.toml")) == directory.file("a"))
        #expect(ConfigWatcher.nearestDirectory(of: directory.file("a/b/c/config.toml")) == directory.file("a"))
        #expect(ConfigWatcher.nearestDirectory(of: directory.file("x/y/config.toml")) == directory.path)
        #expect(ConfigWatcher.nearestDirectory(of: "/config.toml") == "/")
        #expect(ConfigWatcher.isOnTheWay("/a", to: "/a/b") && ConfigWatcher.isOnTheWay("/a/b", to: "/a/b"))
        #expect(!ConfigWatcher.isOnTheWay("/a/b", to: "/a/bc") && !ConfigWatcher.isOnTheWay("/a/b/c", to: "/a/b"))
        #expect(ConfigWatcher.isOnTheWay("/", to: "/etc"))
    }

    @Test func everyCandidateOfTheSearchPathIsWatched() throws {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("user")
        directory.makeDirectory("etc")
        let user = directory.file("user/flickd/config.toml"), system = directory.file("etc/flickd/config.toml")
        directory.makeDirectory("etc/flickd")
        let harness = try Harness([user, system], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.file("etc/flickd"), directory.file("user")])

        directory.write("etc/flickd/config.toml", "")
        #expect(try harness.changes().last == .init(path: system, kind: .written))
        directory.makeDirectory("user/flickd")
        #expect(try harness.changes() == [.init(path: user, kind: .directoryAppeared)])
    }

    /// A file where the directory should be: its parent is watched, for the day it is a directory.
    @Test func aFileInPlaceOfTheDirectoryIsWaitedOutInTheParent() throws {
        let log = CollectedLog()
        let directory = ConfigScratchDirectory()
        directory.write("not-a-directory", "")
        let watcher = try ConfigWatcher(paths: [directory.file("not-a-directory/config.toml"), directory.file("config.toml")],
                                        logger: log.logger)
        #expect(watcher.watchedDirectories == [directory.path])
        #expect(log.lines.isEmpty)
    }

    @Test func pathsSplitIntoDirectoryAndName() {
        #expect(ConfigWatcher.split("/etc/flickd/config.toml") == ("/etc/flickd", "config.toml"))
        #expect(ConfigWatcher.split("/config.toml") == ("/", "config.toml"))
        #expect(ConfigWatcher.split("config.toml") == (".", "config.toml"))
        #expect(ConfigWatcher.split("conf/flickd.toml") == ("conf", "flickd.toml"))
    }

    /// A relative path whose directory is not made yet (`--config sub/config.toml`) is waited
    /// for in the working directory, ".": the directory made there must be named as `split`
    /// names the file's, or its creation is not seen on the way (it was `./sub` against `sub`,
    /// and the file was never followed). The tests do not change the process's working
    /// directory (other suites run beside them), so the names are checked here.
    @Test func aDirectoryMadeInTheWorkingDirectoryIsOnARelativePathsWay() {
        let (fileDirectory, _) = ConfigWatcher.split("sub/deeper/config.toml")
        #expect(ConfigWatcher.join(".", "sub") == "sub")
        #expect(ConfigWatcher.isOnTheWay(ConfigWatcher.join(".", "sub"), to: fileDirectory))
        #expect(ConfigWatcher.isOnTheWay(".", to: fileDirectory))
        #expect(!ConfigWatcher.isOnTheWay(".", to: "/etc/flickd"))
        #expect(!ConfigWatcher.isOnTheWay(ConfigWatcher.join(".", "other"), to: fileDirectory))
        #expect(ConfigWatcher.join("/", "etc") == "/etc" && ConfigWatcher.join("/etc", "flickd") == "/etc/flickd")
    }
}

extension ConfigWatcherTests {
    /// config.toml as a symbolic link into a dotfiles repository (GNU stow): an edit saved to
    /// the link's target is a change of config.toml, and so is one to the next target once the
    /// link is pointed elsewhere; the old target then no longer is.
    @Test func editsToASymbolicLinksTargetAreSeen() throws {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("flickd")
        directory.makeDirectory("dotfiles")
        directory.write("dotfiles/flickd.toml", "")
        directory.write("dotfiles/other.toml", "")
        let path = directory.file("flickd/config.toml")
        #expect(symlink("../dotfiles/flickd.toml", path) == 0, "relative, as stow makes it")
        let harness = try Harness([path], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.file("flickd"), directory.file("flickd/../dotfiles")])

        directory.write("dotfiles/flickd.toml", "[coast]\nboost = false\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)], "written in place")
        directory.write("dotfiles/.flickd.toml.swp", "[coast]\nboost = true\n")
        directory.rename("dotfiles/.flickd.toml.swp", "dotfiles/flickd.toml")
        #expect(try harness.changes() == [.init(path: path, kind: .replaced)], "an editor's save by rename")

        // Pointed at another file: a new link renamed over the old one.
        #expect(symlink("../dotfiles/other.toml", directory.file("flickd/.config.toml.new")) == 0)
        directory.rename("flickd/.config.toml.new", "flickd/config.toml")
        #expect(try harness.changes() == [.init(path: path, kind: .replaced)])
        directory.write("dotfiles/other.toml", "[coast]\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)], "the new target")
        directory.write("dotfiles/flickd.toml", "[coast]\n")
        #expect(try harness.changes() == [], "the old target is no longer config.toml")
    }

    /// A chain of links (config.toml → a link in another directory → the file): each link on
    /// the way and the file at its end are followed.
    @Test func everyLinkOfAChainIsFollowed() throws {
        let directory = ConfigScratchDirectory()
        for name in ["flickd", "stow", "repo"] { directory.makeDirectory(name) }
        directory.write("repo/flickd.toml", "")
        #expect(symlink(directory.file("repo/flickd.toml"), directory.file("stow/config.toml")) == 0)
        #expect(symlink(directory.file("stow/config.toml"), directory.file("flickd/config.toml")) == 0)
        let path = directory.file("flickd/config.toml")
        let harness = try Harness([path], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.file("flickd"), directory.file("repo"), directory.file("stow")])
        directory.write("repo/flickd.toml", "[coast]\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)])
    }
}

extension ConfigWatcherTests {
    /// ~/.config/flickd folded by GNU stow into a link to the dotfiles repository's directory;
    /// `git checkout` of a branch without the file deletes the file and the emptied directory,
    /// and checking out back makes both again. The watch went with the directory and waited
    /// behind the dangling link, where nothing is made, so every later save went unseen: it
    /// waits where the link's target is made.
    @Test func aLinkedDirectoryDeletedAndMadeAgainIsFollowed() throws {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("dotfiles")
        directory.makeDirectory("dotfiles/flickd")
        directory.write("dotfiles/flickd/config.toml", "[coast]\n")
        #expect(symlink("dotfiles/flickd", directory.file("flickd")) == 0, "relative, as stow makes it")
        let path = directory.file("flickd/config.toml")
        let harness = try Harness([path], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.path, directory.file("dotfiles/flickd"), directory.file("flickd")],
                "the link's directory, and the file's through the link and through its target")

        // git checkout of a branch without the file.
        directory.remove("dotfiles/flickd/config.toml")
        directory.removeDirectory("dotfiles/flickd")
        let gone = try harness.changes()
        #expect(!gone.isEmpty && gone.allSatisfy { $0 == .init(path: path, kind: .removed) }, "\(gone)")
        #expect(harness.watcher.watchedDirectories == [directory.path, directory.file("dotfiles")],
                "behind the dangling link, and where its target is made again")

        // And back: the directory and its file made before the watcher reads a thing.
        directory.makeDirectory("dotfiles/flickd")
        directory.write("dotfiles/flickd/config.toml", "[coast]\nboost = false\n")
        #expect(try harness.changes() == [.init(path: path, kind: .directoryAppeared)], "the file may be there: it is")
        #expect(harness.watcher.watchedDirectories == [directory.path, directory.file("dotfiles/flickd"), directory.file("flickd")])
        directory.write("dotfiles/flickd/.config.toml.swp", "[coast]\n")
        directory.rename("dotfiles/flickd/.config.toml.swp", "dotfiles/flickd/config.toml")
        #expect(try harness.changes() == [.init(path: path, kind: .replaced)], "a later save")
    }

    /// A restow pointing the linked directory at another one (a new link renamed over the
    /// old): the file is the new directory's, and the old directory's is no longer it.
    @Test func aLinkedDirectoryPointedElsewhereIsFollowedThere() throws {
        let directory = ConfigScratchDirectory()
        for name in ["dotfiles", "dotfiles/flickd", "other", "other/flickd"] { directory.makeDirectory(name) }
        directory.write("dotfiles/flickd/config.toml", "")
        directory.write("other/flickd/config.toml", "")
        #expect(symlink("dotfiles/flickd", directory.file("flickd")) == 0)
        let path = directory.file("flickd/config.toml")
        let harness = try Harness([path], logger: quiet)

        #expect(symlink("other/flickd", directory.file(".flickd.new")) == 0)
        directory.rename(".flickd.new", "flickd")
        let pointed = try harness.changes()
        #expect(pointed == [.init(path: path, kind: .replaced), .init(path: path, kind: .directoryAppeared)],
                "the link replaced, and with it the file's directory: \(pointed)")
        #expect(harness.watcher.watchedDirectories == [directory.path, directory.file("flickd"), directory.file("other/flickd")])
        directory.write("other/flickd/config.toml", "[coast]\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)], "the new target")
        directory.write("dotfiles/flickd/config.toml", "[coast]\n")
        #expect(try harness.changes() == [], "the old target is no longer the file's directory")
    }

    /// Links on the way, each resolved as the kernel does: a directory link, a link through it,
    /// a chain of directory links.
    @Test func theLinksOnTheWayAreFoundInTurn() {
        let directory = ConfigScratchDirectory()
        for name in ["repo", "repo/flickd", "stow"] { directory.makeDirectory(name) }
        #expect(symlink(directory.file("repo/flickd") + "/", directory.file("stow/flickd")) == 0, "absolute, with a trailing slash")
        #expect(symlink("stow/flickd", directory.file("flickd")) == 0)
        let path = directory.file("flickd/config.toml")
        #expect(ConfigWatcher.firstLinkedDirectory(on: path)! == (directory.file("flickd"), "/config.toml"))
        #expect(ConfigWatcher.firstLinkedDirectory(on: directory.file("repo/flickd/config.toml")) == nil)
        #expect(ConfigWatcher.followedNames(of: [path]).map(\.name)
                == [path, directory.file("flickd"), directory.file("stow/flickd/config.toml"),
                    directory.file("stow/flickd"), directory.file("repo/flickd/config.toml")])
        #expect(ConfigWatcher.followedNames(of: [path]).allSatisfy { $0.file == path })
    }
}

extension ConfigWatcherTests {
    /// Reads and drops every event pending on `watcher`'s descriptor: the events an overflow lost.
    static func discardEvents(_ watcher: ConfigWatcher) {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while buffer.withUnsafeMutableBytes({ read(watcher.fileDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// The watches added, by path, through the watcher's seam.
    final class AddedWatches {
        var watches: [(path: String, watch: Int32, mask: UInt32)] = []
        /// The watches added on directories (the files are watched themselves too).
        var directories: [(path: String, watch: Int32, mask: UInt32)] { watches.filter { $0.mask & UInt32(IN_ONLYDIR) != 0 } }
        func add(_ fd: Int32, _ path: String, _ mask: UInt32) throws(SystemError) -> Int32 {
            let watch = try Syscall.inotifyAddWatch(fd, path: path, mask: mask)
            watches.append((path, watch, mask))
            return watch
        }
    }

    /// The kernel's queue overflowed while the file's directory was deleted and made again:
    /// its deletion (IN_DELETE_SELF, IN_IGNORED) was among the events lost, and the watch kept
    /// looked at nothing, for good. Every watch is set up again.
    @Test func anOverflowWatchesEveryDirectoryAgain() throws {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("flickd")
        let path = directory.file("flickd/config.toml")
        let added = AddedWatches()
        let watcher = try ConfigWatcher(paths: [path], logger: quiet, purpose: .configuration, requireWatch: false, addWatch: added.add)
        #expect(added.directories.map(\.path) == [directory.file("flickd")])
        let overflow: ConfigWatcher.Event = (watch: -1, mask: UInt32(IN_Q_OVERFLOW), name: "")

        directory.removeDirectory("flickd")
        directory.makeDirectory("flickd")
        Self.discardEvents(watcher)
        #expect(try watcher.receive(injecting: [overflow]) == [.init(path: path, kind: .overflowed)])
        #expect(added.directories.map(\.path) == [directory.file("flickd"), directory.file("flickd")], "watched again")
        directory.write("flickd/config.toml", "[coast]\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)])

        // Deleted and made again under the old inode number (ext4 reuses them): the same
        // directory as far as `stat` tells, its watch dropped by the kernel (done here by hand).
        let dropped = try #require(added.directories.last?.watch)
        #expect(inotify_rm_watch(watcher.fileDescriptor, dropped) == 0)
        Self.discardEvents(watcher)
        #expect(try watcher.receive(injecting: [overflow]) == [.init(path: path, kind: .overflowed)])
        #expect(added.directories.count == 3, "watched again")
        directory.write("flickd/config.toml", "[coast]\nboost = false\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)])
    }
}

extension ConfigWatcherTests {
    /// config.toml a hard link to the dotfiles repository's file
    /// (`ln ~/dotfiles/flickd.toml ~/.config/flickd/config.toml`), and vim, which writes a file
    /// with other names in place, saving ~/dotfiles/flickd.toml: the kernel tells the directory
    /// watches only of what is done through their names, and the save went unseen. The file is
    /// watched itself; a change seen both ways is one change.
    @Test func aFileEditedThroughItsOtherNameIsSeen() throws {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("conf")
        directory.makeDirectory("other")
        directory.write("other/real.toml", "[scroll]\nspeed = 30\n")
        let path = directory.file("conf/config.toml")
        #expect(link(directory.file("other/real.toml"), path) == 0)
        let harness = try Harness([path], logger: quiet)
        #expect(harness.watcher.watchedDirectories == [directory.file("conf")])
        #expect(harness.watcher.watchedFiles == [path])

        // Written in place through the other name (open O_TRUNC, write, close).
        directory.write("other/real.toml", "[scroll]\nspeed = 40\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)])
        #expect(chmod(directory.file("other/real.toml"), 0o600) == 0)
        #expect(try harness.changes() == [.init(path: path, kind: .attributesChanged)], "chmod through the other name")

        // Through its own name: its directory and the file both tell, one change.
        directory.write("conf/config.toml", "[scroll]\nspeed = 50\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)])

        // A new file renamed over config.toml: the other name is another file now.
        directory.write("conf/.config.toml.new", "[scroll]\nspeed = 60\n")
        directory.rename("conf/.config.toml.new", "conf/config.toml")
        #expect(try harness.changes() == [.init(path: path, kind: .replaced)], "the old file's lost link is not a change")
        directory.write("other/real.toml", "[scroll]\nspeed = 70\n")
        #expect(try harness.changes() == [], "no longer config.toml")
        directory.write("conf/config.toml", "[scroll]\nspeed = 80\n")
        #expect(try harness.changes() == [.init(path: path, kind: .written)], "the new file")
        #expect(harness.watcher.watchedFiles == [path])
    }

    /// A `watch` seam that does something first, once, for one path: a race or a refusal.
    final class InterferingWatches {
        let path: String
        /// Done before the watch of `path` is added, once; nil: nothing.
        var before: (() -> Void)?
        /// Refuse the watch of `path` with this errno; 0: add it.
        var refusal: Int32 = 0
        var attempts: [String] = []
        init(path: String) { self.path = path }
        func add(_ fd: Int32, _ path: String, _ mask: UInt32) throws(SystemError) -> Int32 {
            attempts.append(path)
            if path == self.path {
                before?()
                before = nil
                if refusal != 0 { throw SystemError(errno: refusal, call: "inotify_add_watch", path: path) }
            }
            return try Syscall.inotifyAddWatch(fd, path: path, mask: mask)
        }
    }

    /// ~/.config/flickd made and removed again between the `stat` that found it and its watch:
    /// the parent that waited for it was dropped first, and the watch on the directory then
    /// failed, and nothing watched the way to the file any more. The parent keeps waiting.
    @Test func aDirectoryRemovedBeforeItsWatchIsWaitedForStill() throws {
        let directory = ConfigScratchDirectory()
        let path = directory.file("flickd/config.toml")
        let seam = InterferingWatches(path: directory.file("flickd"))
        let watcher = try ConfigWatcher(paths: [path], logger: quiet, purpose: .configuration, requireWatch: false, addWatch: seam.add)
        #expect(watcher.watchedDirectories == [directory.path])

        seam.before = { rmdir(directory.file("flickd")) }
        directory.makeDirectory("flickd")
        #expect(try watcher.receive() == [], "made, and gone before it was watched")
        #expect(watcher.watchedDirectories == [directory.path], "the parent waits on")

        directory.makeDirectory("flickd")
        directory.write("flickd/config.toml", "[coast]\n")
        #expect(try watcher.receive().last == .init(path: path, kind: .directoryAppeared), "the file may be there: it is")
        #expect(watcher.watchedDirectories == [directory.file("flickd")])
        directory.write("flickd/config.toml", "[coast]\nboost = false\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)])
    }

    /// A directory on the way that cannot be watched (root's, mode 0700: EACCES) is waited out
    /// from its parent: `chmod 755` on it is seen there, and it is watched then. It was left
    /// unwatched with nothing above it, and the file never followed.
    @Test func aDirectoryThatCannotBeWatchedIsWaitedOutFromItsParent() throws {
        let log = CollectedLog()
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("flickd")
        #expect(chmod(directory.file("flickd"), 0o700) == 0)
        let path = directory.file("flickd/config.toml")
        let seam = InterferingWatches(path: directory.file("flickd"))
        seam.refusal = EACCES
        let watcher = try ConfigWatcher(paths: [path], logger: log.logger, purpose: .configuration, requireWatch: false, addWatch: seam.add)
        #expect(watcher.watchedDirectories == [directory.path])
        #expect(log.lines.count == 1 && log.lines.allSatisfy { $0.contains("cannot watch \(directory.file("flickd"))") }, "\(log.lines)")

        seam.refusal = 0
        #expect(chmod(directory.file("flickd"), 0o755) == 0)
        #expect(try watcher.receive() == [.init(path: path, kind: .directoryAppeared)])
        #expect(watcher.watchedDirectories == [directory.file("flickd")])
        directory.write("flickd/config.toml", "[coast]\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)])
    }
}

extension ConfigWatcherTests {
    /// A `watch` seam with the kernel's limit on live watches (fs.inotify.max_user_watches, used
    /// up by editors' file watchers): a watch on an inode not watched yet is refused with ENOSPC
    /// once `limit` watches live. The watcher's removals do not pass through the seam: the live
    /// watches are read from /proc/self/fdinfo, where inotify lists each (`inotify wd:1 ino:…`).
    final class LimitedWatches {
        var limit = Int.max
        var refusals: [String] = []
        func add(_ fd: Int32, _ path: String, _ mask: UInt32) throws(SystemError) -> Int32 {
            let live = Self.liveInodes(fd)
            var status = stat()
            let inode = stat(path, &status) == 0 ? String(UInt64(status.st_ino), radix: 16) : ""
            if live.count >= limit && !live.contains(inode) {
                refusals.append(path)
                throw SystemError(errno: ENOSPC, call: "inotify_add_watch", path: path)
            }
            return try Syscall.inotifyAddWatch(fd, path: path, mask: mask)
        }

        /// The inode number (hexadecimal, as fdinfo writes it) of each live watch of `fd`.
        static func liveInodes(_ fd: Int32) -> [String] {
            let info = open("/proc/self/fdinfo/\(fd)", O_RDONLY | O_CLOEXEC)
            guard info >= 0 else { return [] }
            defer { close(info) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(info, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
                .filter { $0.hasPrefix("inotify wd:") }
                .compactMap { line in line.split(separator: " ").first { $0.hasPrefix("ino:") }.map { String($0.dropFirst(4)) } }
        }
    }

    /// Every watch the user may have in use, the parent (the scratch directory, for ~/.config)
    /// waiting for flickd/ among them: flickd/ is made, and its watch needs the slot the parent
    /// holds. The parent was kept until every wanted watch was in place, so flickd/ stayed
    /// unwatched, and every save to config.toml went unseen until SIGHUP. The parent goes first.
    @Test func atTheWatchLimitTheParentMakesRoomForTheDirectoryItWaitedFor() throws {
        let log = CollectedLog()
        let directory = ConfigScratchDirectory()
        let path = directory.file("flickd/config.toml")
        let seam = LimitedWatches()
        let watcher = try ConfigWatcher(paths: [path], logger: log.logger, purpose: .configuration, requireWatch: false, addWatch: seam.add)
        #expect(watcher.watchedDirectories == [directory.path])
        seam.limit = LimitedWatches.liveInodes(watcher.fileDescriptor).count
        #expect(seam.limit == 1)

        directory.makeDirectory("flickd")
        #expect(try watcher.receive() == [.init(path: path, kind: .directoryAppeared)])
        #expect(watcher.watchedDirectories == [directory.file("flickd")], "refused: \(seam.refusals)")
        directory.write("flickd/config.toml", "[coast]\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)])
        directory.write("flickd/config.toml", "[coast]\nboost = false\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)])
        #expect(log.lines.isEmpty, "\(log.lines)")
    }

    /// config.toml a hard link, replaced by another hard link (a restow), with every watch the
    /// user may have in use: the new file's watch was added before the old file's went, refused,
    /// and a save through the new file's other name before the next batch went unseen. The old
    /// file's watch goes first.
    @Test func atTheWatchLimitTheOldFileMakesRoomForTheNewOne() throws {
        let directory = ConfigScratchDirectory()
        directory.makeDirectory("conf")
        directory.makeDirectory("other")
        directory.write("other/old.toml", "[scroll]\nspeed = 30\n")
        let path = directory.file("conf/config.toml")
        #expect(link(directory.file("other/old.toml"), path) == 0)
        let seam = LimitedWatches()
        let watcher = try ConfigWatcher(paths: [path], logger: quiet, purpose: .configuration, requireWatch: false, addWatch: seam.add)
        #expect(watcher.watchedDirectories == [directory.file("conf")])
        #expect(watcher.watchedFiles == [path])
        seam.limit = LimitedWatches.liveInodes(watcher.fileDescriptor).count
        #expect(seam.limit == 2)

        // other/new.toml linked in as conf/.new and renamed over config.toml: the old file lives
        // on as other/old.toml, and its watch with it.
        directory.write("other/new.toml", "[scroll]\nspeed = 40\n")
        #expect(link(directory.file("other/new.toml"), directory.file("conf/.new")) == 0)
        directory.rename("conf/.new", "conf/config.toml")
        #expect(try watcher.receive() == [.init(path: path, kind: .replaced)])
        #expect(watcher.watchedFiles == [path], "refused: \(seam.refusals)")

        directory.write("other/new.toml", "[scroll]\nspeed = 50\n")
        #expect(try watcher.receive() == [.init(path: path, kind: .written)], "through its other name")
        directory.write("other/old.toml", "[scroll]\nspeed = 60\n")
        #expect(try watcher.receive() == [], "no longer config.toml")
    }
}
