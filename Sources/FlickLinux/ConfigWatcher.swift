import Glibc

/// Tells when a configuration file may have changed, through inotify.
///
/// It watches the directory of each file, not the file alone: an editor that saves by writing a new
/// file and renaming it over the old one would leave a watch on the file looking at the old,
/// deleted inode. In the directory it follows the file's name being closed after writing
/// (IN_CLOSE_WRITE), renamed in (IN_MOVED_TO), made as a link (IN_CREATE of a symbolic or
/// hard link), deleted or renamed away (IN_DELETE, IN_MOVED_FROM), or its permissions, owner
/// or times changed (IN_ATTRIB: `chmod 644` on a file flickd could not read); events for other
/// names are dropped. Writes in progress (IN_MODIFY) are not followed: the close that ends
/// them is. A regular file created under the name (IN_CREATE) may be one still being written,
/// or one complete when made, whose close never comes under this name (a hard link whose first
/// name was removed since, as Python's atomicwrites makes a file; a file made with O_TMPFILE
/// and linked in): it is `createdUnclosed`, for `LiveConfiguration` to read once it is quiet.
///
/// A directory that does not exist yet (no ~/.config/flickd; no xfce4/xfconf/xfce-perchannel-xml
/// in a user's first Xfce session until xfconf's store first starts) is waited for from the nearest directory on
/// the way that exists; as each level appears the watch moves down to it, and when the file's
/// directory goes the watch moves back up. (A directory above the watched one being renamed
/// sends no event here: the watch stays on the directory under its new name until a reload,
/// which looks at the way again, `refresh()`.)
///
/// A file that is a symbolic link (config.toml linked into a dotfiles repository, as GNU stow
/// does) is followed through it: the directory of the link's target is watched too (and of
/// the next target, for a chain), and a change there is a change of the file. So is a
/// directory on the way that is a link (~/.config/flickd itself linked into the repository, as
/// stow folds a tree): the directory holding the link is watched, for the link being removed or
/// pointed elsewhere (a restow), and so is the way through the link's target, as for any path,
/// so that a target directory deleted and made again (`git checkout` of a branch without the
/// file, then back; `rm -r`, `mkdir`) is waited for where it is made, not behind the dangling
/// link. The links are read again after every batch of events, so that a link pointed
/// elsewhere is followed there, and a watched directory's name that leads to another directory
/// than the one watched (its identity, `FileIdentity`) is watched again.
///
/// The file itself is watched too (IN_CLOSE_WRITE, IN_ATTRIB on its inode): a file with other
/// names (`ln ~/dotfiles/flickd.toml ~/.config/flickd/config.toml`) written or `chmod`ed
/// through one of them changes it with no event in its directory, which only reports what is
/// done through the names in it. After every batch of events the name is looked at again,
/// and a file that is another one now (renamed over, deleted and made again) is watched in its
/// place; an event of a file that is no longer the one under the name is dropped (its
/// directory tells what became of the name). A change seen both ways is one change: the same
/// `Change`, merged in the batch, and by `LiveConfiguration`'s settle delay across batches.
///
/// A directory that cannot be watched (no permission: a directory root keeps to itself) is
/// waited out from its parent, as a missing one is: the parent shows it replaced, or its
/// permissions changed. The watches no longer wanted go only once the wanted ones are in place,
/// but where the user's watches are used up (fs.inotify.max_user_watches): then they go first,
/// to make room, and the wanted one is tried again.
///
/// An overflow of the kernel's event queue may have lost a directory's deletion: every watch
/// is dropped and set up again from the paths.
///
/// The watcher only tells; `LiveConfiguration` waits for the changes to settle and reloads.
public final class ConfigWatcher {
    /// Something that happened to a watched file.
    public struct Change: Hashable, Sendable, CustomStringConvertible {
        /// What happened.
        public enum Kind: String, Hashable, Sendable {
            /// Closed after being written.
            case written
            /// Another file was renamed over it (how many editors save).
            case replaced
            /// Made as a symbolic or hard link (a file created to be written is `written` when
            /// closed).
            case created
            /// Created as a regular file with one name, and not closed since as far as seen: being
            /// written, or linked in complete (a link whose first name is gone already).
            case createdUnclosed = "created (no close seen)"
            /// Deleted or renamed away, or its directory was.
            case removed
            /// Its permissions, owner or times changed (`chmod`, `chown`, `touch`): a file that
            /// could not be read may be readable now. Mostly nothing changed, and a reload finds
            /// the settings unchanged.
            case attributesChanged = "attributes changed"
            /// Its directory appeared: the file may be there already.
            case directoryAppeared = "directory appeared"
            /// The kernel's event queue overflowed: anything may have changed.
            case overflowed = "events lost"
        }

        /// The watched file, as given to the watcher.
        public var path: String
        /// What happened to it.
        public var kind: Kind

        /// A change of `kind` to `path`.
        public init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        /// `/home/u/.config/flickd/config.toml written`.
        public var description: String { "\(path) \(kind.rawValue)" }
    }

    /// The inotify descriptor, for the daemon's epoll set: readable when changes wait.
    public let fileDescriptor: Int32
    /// The files watched for, as given.
    public let paths: [String]

    /// Every event flickd cares about, for both a file's directory and its parent.
    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    /// The events of the file itself, for what is done to it through its other names: closed
    /// after writing, as in its directory (writes in progress are not followed), and its
    /// attributes (which include its count of links: a name made or removed elsewhere).
    static let fileMask = UInt32(IN_CLOSE_WRITE | IN_ATTRIB)

    /// A name followed in a directory, and the watched file a change to it is reported for:
    /// the file itself, or a symbolic link's target on the way from it.
    struct Followed: Hashable {
        /// The path as watched: the file, or a target (`../dotfiles/flickd.toml` joined to the
        /// link's directory).
        var name: String
        /// The file of `paths` it stands for.
        var file: String
    }

    private let logger: Logger
    /// The names followed now: each of `paths`, then the targets of the links among them.
    private var followed: [Followed]
    /// The directories watched, by watch descriptor (one inode may be reached by two paths).
    private var directoriesByWatch: [Int32: Set<String>] = [:]
    private var watchByDirectory: [String: Int32] = [:]
    /// The directory each name led to when its watch was added (nil: `stat` failed then): a
    /// name that leads elsewhere now is watched again.
    private var identityByDirectory: [String: FileIdentity?] = [:]
    /// The files of `paths` watched themselves, by watch descriptor (two of them may be names
    /// of one file).
    private var filesByWatch: [Int32: Set<String>] = [:]
    /// Each file's watch, and the file it was added on (`stat`, through symbolic links, as
    /// `inotify_add_watch` goes).
    private var watchByFile: [String: (watch: Int32, identity: FileIdentity)] = [:]
    /// Directories that exist and could not be watched at the last `rearm` (no permission): each
    /// file's way is watched from above them, and their attributes changing there (`chmod`)
    /// looks again.
    private var unwatchable: Set<String> = []
    /// Directories and files a watch failed on, so each failure is logged once.
    private var reportedFailures: Set<String> = []
    /// What the watch is for, in its warnings.
    private let purpose: Purpose
    /// Adds a watch (`Syscall.inotifyAddWatch`; tests pass one that fails).
    private let addWatch: AddWatch
    /// The first watch that failed while `init` armed, for `requireWatch`.
    private var failureAtStart: SystemError?

    /// `inotify_add_watch(fd, path, mask)`, its descriptor or its error.
    typealias AddWatch = (_ fd: Int32, _ path: String, _ mask: UInt32) throws(SystemError) -> Int32

    /// What a watcher follows, for the warning when a directory cannot be watched:
    /// `cannot watch DIR for WHAT (error); OTHERWISE`.
    public struct Purpose: Sendable {
        /// What the changes are: `"configuration changes"`.
        public var what: String
        /// How the change reaches flickd without the watch: `"SIGHUP still reloads"`.
        public var otherwise: String

        public init(what: String, otherwise: String) {
            self.what = what
            self.otherwise = otherwise
        }

        /// flickd's configuration file.
        public static let configuration = Purpose(what: "configuration changes", otherwise: "SIGHUP still reloads")
    }
    /// Room for a batch of events; allocated once.
    private let buffer = ReadBuffer(byteCount: 8192)

    /// Watches for changes to `paths`. A directory that cannot be watched (no permission, the
    /// user's fs.inotify.max_user_watches used up) is logged on `logger` as a warning naming
    /// `purpose`, and skipped; only a failing inotify itself throws.
    public convenience init(paths: [String], logger: Logger, purpose: Purpose = .configuration) throws(SystemError) {
        try self.init(paths: paths, logger: logger, purpose: purpose, requireWatch: false, addWatch: Syscall.inotifyAddWatch)
    }

    /// `init(paths:logger:purpose:)`; with `requireWatch`, a directory that cannot be watched
    /// at the start throws its error instead of a warning (the caller says what is lost).
    init(paths: [String], logger: Logger, purpose: Purpose, requireWatch: Bool,
         addWatch: @escaping AddWatch) throws(SystemError) {
        self.paths = paths
        self.logger = logger
        self.purpose = purpose
        self.addWatch = addWatch
        followed = Self.followedNames(of: paths)
        fileDescriptor = try Syscall.inotifyCreate()
        // With requireWatch the caller says what is lost, and a failure at the start is thrown.
        rearm(quiet: requireWatch)
        armFiles()
        // Thrown from a whole object, deinit runs and closes the descriptor (closing it here too
        // closed it twice: a number another thread may have been given meanwhile).
        if requireWatch, let failure = failureAtStart { throw failure }
    }

    deinit {
        Syscall.close(fileDescriptor)
    }

    /// The directories watched now, sorted (for tests and `flickd run --verbose`).
    public var watchedDirectories: [String] { watchByDirectory.keys.sorted() }
    /// The files of `paths` watched themselves now, sorted (for tests).
    var watchedFiles: [String] { watchByFile.keys.sorted() }

    /// Reads every pending event and returns the changes to the watched files, in order,
    /// without repeats. Empty when the events were about other files.
    public func receive() throws(SystemError) -> [Change] {
        try receive(injecting: [])
    }

    /// An event as inotify reports it: watch descriptor, mask, name.
    typealias Event = (watch: Int32, mask: UInt32, name: String)

    /// `receive()`, with `injected` handled first as if read (tests: a queue overflow, which
    /// the kernel makes only under load).
    func receive(injecting injected: [Event]) throws(SystemError) -> [Change] {
        var changes: [Change] = []
        var directoriesMoved = false
        var appearing: Set<String> = []
        for event in injected {
            if handle(watch: event.watch, mask: event.mask, name: event.name, into: &changes, appearing: &appearing) { directoriesMoved = true }
        }
        try Syscall.readInotifyEvents(fileDescriptor, buffer: buffer.bytes) { watch, mask, name in
            if handle(watch: watch, mask: mask, name: name, into: &changes, appearing: &appearing) { directoriesMoved = true }
        }
        // A link made, removed or pointed elsewhere changes the targets to follow.
        let now = Self.followedNames(of: paths)
        if now != followed {
            followed = now
            directoriesMoved = true
        }
        if directoriesMoved { rearm() }
        // Renamed over, deleted, made again: the file under the name may be another one now.
        armFiles()
        // A level on the way appeared: the file may be there once its own directory is.
        for entry in followed where appearing.contains(entry.name) && watchByDirectory[Self.split(entry.name).directory] != nil {
            changes.append(Change(path: entry.file, kind: .directoryAppeared))
        }
        return Self.closingCreations(Self.latest(changes))
    }

    /// Looks at the way to each file again, as after a batch of events: a link pointed
    /// elsewhere, or a watched directory's name that leads to another directory now (one above
    /// it renamed, which sends no event here), is watched where it leads. `LiveConfiguration`
    /// calls it at each reload, so SIGHUP sets the watches right whatever was missed.
    func refresh() {
        followed = Self.followedNames(of: paths)
        rearm()
        armFiles()
    }

    /// `changes` with each change kept at its last place only: the order says what a file's
    /// last change was (removed, then created again and not yet closed, is a creation).
    static func latest(_ changes: [Change]) -> [Change] {
        var seen: Set<Change> = []
        return changes.reversed().filter { seen.insert($0).inserted }.reversed()
    }

    /// `changes` without a creation with no close seen that a later change to the same file
    /// says more about (its close, mostly: a file created and written in one batch is `written`).
    /// A creation with no close seen that is left is the last word on its file. A change of
    /// attributes says nothing about the text: a file made, `fchmod`ed and still being written
    /// must still wait to be quiet.
    static func closingCreations(_ changes: [Change]) -> [Change] {
        changes.enumerated().filter { index, change in
            change.kind != .createdUnclosed || !changes[(index + 1)...].contains {
                $0.path == change.path && $0.kind != .createdUnclosed && $0.kind != .attributesChanged
            }
        }.map(\.element)
    }

    /// One event; returns whether the watches must be set up again. `appearing` gets the
    /// paths a directory on whose way was made.
    private func handle(watch: Int32, mask: UInt32, name: String, into changes: inout [Change],
                        appearing: inout Set<String>) -> Bool {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            changes += paths.map { Change(path: $0, kind: .overflowed) }
            // The events lost may have said a watched directory was deleted (IN_DELETE_SELF,
            // IN_IGNORED): its watch, kept, would look at nothing for good, even with a new
            // directory under the name (its inode number may be the old one's again). Every
            // watch is dropped (one the kernel dropped already fails with EINVAL: the same) and
            // set up again from the paths.
            for watch in Array(directoriesByWatch.keys) { forget(watch, remove: true) }
            for watch in Array(filesByWatch.keys) { forgetFile(watch, remove: true) }
            return true
        }
        if let files = filesByWatch[watch] {
            if mask & UInt32(IN_IGNORED) != 0 {
                // The file is gone (its last name removed): its directory said so, if watched.
                forgetFile(watch, remove: false)
                return false
            }
            // Only while the name still leads to the file watched: one renamed over or deleted
            // is no longer it (its count of links dropping sends IN_ATTRIB), and the directory's
            // events say what became of the name.
            for file in files where Syscall.fileIdentity(atPath: file) == watchByFile[file]?.identity {
                if mask & UInt32(IN_CLOSE_WRITE) != 0 { changes.append(Change(path: file, kind: .written)) }
                if mask & UInt32(IN_ATTRIB) != 0 { changes.append(Change(path: file, kind: .attributesChanged)) }
            }
            return false
        }
        guard let directories = directoriesByWatch[watch] else { return false }  // a watch given up
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
            // The directory itself went: its files with it.
            for directory in directories {
                changes += followed.filter { Self.isOnTheWay(directory, to: Self.split($0.name).directory) }
                    .map { Change(path: $0.file, kind: .removed) }
            }
            forget(watch, remove: mask & UInt32(IN_MOVE_SELF) != 0)
            return true
        }
        var rearm = false
        for directory in directories {
            let full = Self.join(directory, name)
            for entry in followed {
                let (fileDirectory, fileName) = Self.split(entry.name)
                if fileDirectory == directory && fileName == name {
                    if let kind = Self.fileKind(mask, at: full) { changes.append(Change(path: entry.file, kind: kind)) }
                } else if mask & UInt32(IN_ATTRIB) != 0 {
                    // Attributes changing move no watch, but for a directory on the way that could
                    // not be watched: `chmod` may have made it watchable, and the file readable.
                    if unwatchable.contains(full) && Self.isOnTheWay(full, to: fileDirectory) {
                        appearing.insert(entry.name)
                        rearm = true
                    }
                } else if Self.isOnTheWay(full, to: fileDirectory) {
                    // The file's directory or one above it, seen from the directory it is made in.
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        appearing.insert(entry.name)
                    } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                        changes.append(Change(path: entry.file, kind: .removed))
                    }
                    rearm = true
                }
            }
        }
        return rearm
    }

    /// What an event with `mask` on the watched file at `path` is, or nil when it is none yet.
    private static func fileKind(_ mask: UInt32, at path: String) -> Change.Kind? {
        if mask & UInt32(IN_CLOSE_WRITE) != 0 { return .written }
        if mask & UInt32(IN_MOVED_TO) != 0 { return .replaced }
        if mask & UInt32(IN_CREATE) != 0 {
            // A file created by open(O_CREAT) may be read half-written (`cat > config.toml`):
            // its close (IN_CLOSE_WRITE) is the change. A link is complete when made, and
            // nothing closes it; a regular file with one name may be either.
            if Syscall.isLink(path) { return .created }
            return Syscall.contentState(path) != nil ? .createdUnclosed : nil
        }
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { return .removed }
        // Only a file there can be read: a name with attributes but no regular file under it
        // (a directory in its place) is none yet.
        if mask & UInt32(IN_ATTRIB) != 0 { return Syscall.contentState(path) != nil ? .attributesChanged : nil }
        return nil
    }

    /// Watches, for each file, the nearest directory on its way that exists (`nearestDirectory`);
    /// stops watching directories no longer needed, and watches again a name that leads to
    /// another directory than the one watched. A directory made after it was looked for
    /// and before its parent's watch was in place sends no event, so it looks again after every
    /// watch added, until nothing changes (a bounded number of times: the file's depth).
    private func rearm(quiet: Bool = false) {
        // Tried again at every rearm: permissions change.
        unwatchable = []
        var passes = 0
        while passes < 64, arm(quiet: quiet) { passes += 1 }
    }

    /// One pass of `rearm`; whether it must look again: it added a watch, or one it wanted
    /// could not be added and a directory above is wanted instead. `quiet`: a failure is kept
    /// in `failureAtStart`, not logged.
    private func arm(quiet: Bool = false) -> Bool {
        var wanted: [String] = []
        for entry in followed {
            if let directory = Self.nearestDirectory(of: entry.name, avoiding: unwatchable), !wanted.contains(directory) {
                wanted.append(directory)
            }
        }
        var added = false
        var failed = false
        var again = false
        for directory in wanted {
            // Looked at before the watch is added: a directory swapped in between is watched
            // under an identity it does not have, and watched again at the next pass.
            let identity = Syscall.fileIdentity(atPath: directory)
            if let watch = watchByDirectory[directory] {
                // Not there for the moment (removed since `nearestDirectory` found it): the
                // watch stays, and its own IN_DELETE_SELF says so; dropped here, that event
                // would be discarded as a watch given up, and nothing would arm again.
                if identity == nil || identity == identityByDirectory[directory] { continue }
                // The name leads elsewhere now (a link on the way pointed at another directory,
                // a directory above renamed and another made in its place): the watch looks
                // at the old directory.
                detach(directory, from: watch)
            }
            do {
                let watch = try addDirectoryWatch(directory, wanted: wanted)
                watchByDirectory[directory] = watch
                identityByDirectory[directory] = identity
                directoriesByWatch[watch, default: []].insert(directory)
                reportedFailures.remove(directory)
                added = true
            } catch {
                failed = true
                // Gone again since the check (removed, or a file in its place): the next pass
                // finds the nearest directory above, whose events will say when it is back.
                if !Syscall.isDirectory(directory) {
                    again = true
                    continue
                }
                // There and not watchable: waited out from above, as a missing one is (the
                // parent sees it replaced or its permissions changed). Not when the user's
                // watches are used up: the parent's would fail the same.
                if error.errno != ENOSPC && error.errno != ENOMEM && unwatchable.insert(directory).inserted { again = true }
                if error.isMissing { continue }
                if quiet {
                    if failureAtStart == nil { failureAtStart = error }
                } else if reportedFailures.insert(directory).inserted {
                    logger.warning("cannot watch \(directory) for \(purpose.what) (\(error)); \(purpose.otherwise)")
                }
            }
        }
        // The watches no longer wanted go once every wanted one is in place: dropped before a
        // wanted one failed, nothing would watch the way to the file any more (the parent that
        // waited for a directory removed again between its `stat` and its watch).
        if !failed {
            for (directory, watch) in watchByDirectory where !wanted.contains(directory) {
                detach(directory, from: watch)
            }
        }
        return added || again
    }

    /// Adds the watch of `directory`, one of `wanted`. Where the user's watches are used up
    /// (ENOSPC: fs.inotify.max_user_watches, editors' file watchers; ENOMEM), the watches no
    /// longer wanted go first and it is tried once more: the parent that waited for ~/.config/flickd
    /// holds the slot its child needs, and kept it would keep the child unwatched for good (a
    /// missing or refused directory keeps them, `arm`). Should it fail again, nothing watches
    /// the way, as nothing could.
    private func addDirectoryWatch(_ directory: String, wanted: [String]) throws(SystemError) -> Int32 {
        do {
            return try addWatch(fileDescriptor, directory, Self.mask)
        } catch where error.errno == ENOSPC || error.errno == ENOMEM {
            let unwanted = watchByDirectory.filter { !wanted.contains($0.key) }
            guard !unwanted.isEmpty else { throw error }
            for (other, watch) in unwanted { detach(other, from: watch) }
            return try addWatch(fileDescriptor, directory, Self.mask)
        }
    }

    /// Watches each file of `paths` itself, for what is done to it through its other names
    /// (hard links), and watches again one that is another file now. A file that cannot be
    /// watched is logged when it has other names (something is missed then), once.
    private func armFiles() {
        for file in paths where watchByFile[file] == nil || watchByFile[file]?.identity != Syscall.fileIdentity(atPath: file) {
            let old = watchByFile.removeValue(forKey: file)
            // Looked at before the watch is added, as a directory is: a file swapped in between
            // is watched again after the next batch.
            if let status = Syscall.regularFileStatus(atPath: file) {
                do {
                    let watch: Int32
                    do {
                        watch = try addWatch(fileDescriptor, file, Self.fileMask)
                    } catch where (error.errno == ENOSPC || error.errno == ENOMEM) && old.map({ filesByWatch[$0.watch] == [file] }) == true {
                        // The user's watches used up: the old file's, which goes anyway, makes
                        // room for the new one's (kept until then, it kept the new file unwatched
                        // until the next batch).
                        if let old { forgetFile(old.watch, remove: true) }
                        watch = try addWatch(fileDescriptor, file, Self.fileMask)
                    }
                    watchByFile[file] = (watch, status.identity)
                    filesByWatch[watch, default: []].insert(file)
                    reportedFailures.remove(file)
                } catch {
                    if status.links > 1, !error.isMissing, reportedFailures.insert(file).inserted {
                        logger.warning("cannot watch \(file) itself for \(purpose.what) (\(error)): changes made through its other names (hard links) are missed; \(purpose.otherwise)")
                    }
                }
            }
            // The old file's watch goes, unless the new one is it (the same inode, the same
            // watch) or another of `paths` names it too.
            if let old, watchByFile[file]?.watch != old.watch {
                filesByWatch[old.watch]?.remove(file)
                if filesByWatch[old.watch]?.isEmpty == true { forgetFile(old.watch, remove: true) }
            }
        }
    }

    /// Drops the file watch `watch` (and asks the kernel to, when `remove`).
    private func forgetFile(_ watch: Int32, remove: Bool) {
        for file in filesByWatch.removeValue(forKey: watch) ?? [] where watchByFile[file]?.watch == watch {
            watchByFile[file] = nil
        }
        if remove { Syscall.inotifyRemoveWatch(fileDescriptor, watch) }
    }

    /// Each of `paths`, then the links the kernel passes through on the way to it (up to 40,
    /// the kernel's limit; a loop ends where it closes): for a file that is a symbolic link,
    /// its target; for a directory on the way that is one, the link itself (its directory
    /// shows it removed or pointed elsewhere) and the path through the link's target (whose
    /// directory, or the nearest one on its way, is watched); and so on along a chain.
    /// A relative target is joined to its link's directory as written: the kernel resolves
    /// `..` after the links on the way, as it does when it follows the link.
    static func followedNames(of paths: [String]) -> [Followed] {
        var result: [Followed] = []
        for path in paths {
            result.append(Followed(name: path, file: path))
            var seen: Set<String> = [path]
            // The names whose ways are still to be looked at; the links themselves are not
            // (the way to a link is the way to the name it was found on).
            var ways = [path]
            var next = 0
            var links = 0
            func follow(_ name: String, way: Bool) {
                guard seen.insert(name).inserted else { return }
                result.append(Followed(name: name, file: path))
                if way { ways.append(name) }
            }
            while next < ways.count, links < 40 {
                let current = ways[next]
                next += 1
                // The first directory on the way that is a link: the rest of the way, through
                // its target, is looked at in turn.
                if let (link, rest) = firstLinkedDirectory(on: current),
                   let target = linkTarget(of: link) {
                    links += 1
                    follow(link, way: false)
                    follow(target == "/" ? rest : target + rest, way: true)
                }
                if let target = linkTarget(of: current) {
                    links += 1
                    follow(target, way: true)
                }
            }
        }
        return result
    }

    /// Where the symbolic link `link` points, as a path from where `link` is (without a
    /// trailing slash); nil when `link` is none, or empty.
    private static func linkTarget(of link: String) -> String? {
        guard var target = Syscall.symbolicLinkTarget(link), !target.isEmpty else { return nil }
        while target.count > 1 && target.hasSuffix("/") { target.removeLast() }
        return target.hasPrefix("/") ? target : join(split(link).directory, target)
    }

    /// The first directory on the way to `path` that is a symbolic link, and the rest of the
    /// way after it (`/config.toml`); nil when none is.
    static func firstLinkedDirectory(on path: String) -> (link: String, rest: String)? {
        var index = path.startIndex
        while let slash = path[index...].firstIndex(of: "/") {
            if slash != path.startIndex {
                let directory = String(path[..<slash])
                if Syscall.isSymbolicLink(directory) { return (directory, String(path[slash...])) }
            }
            index = path.index(after: slash)
        }
        return nil
    }

    /// The deepest directory on the way to `path` that exists: the file's own directory, else
    /// the nearest one above it; nil when none is (a relative path's first level missing too).
    /// Directories in `avoiding` (that could not be watched) count as missing.
    static func nearestDirectory(of path: String, avoiding: Set<String> = []) -> String? {
        var directory = split(path).directory
        while !Syscall.isDirectory(directory) || avoiding.contains(directory) {
            let parent = split(directory).directory
            if parent == directory { return nil }
            directory = parent
        }
        return directory
    }

    /// Whether `directory` is `fileDirectory` or one of the directories above it.
    static func isOnTheWay(_ directory: String, to fileDirectory: String) -> Bool {
        // "." (the working directory of a relative path, `split`) is on the way to every
        // relative directory.
        if directory == "." { return !fileDirectory.hasPrefix("/") }
        return fileDirectory == directory || fileDirectory.hasPrefix(directory == "/" ? "/" : directory + "/")
    }

    /// Drops `watch` (and asks the kernel to, when `remove`: a moved directory keeps its watch).
    private func forget(_ watch: Int32, remove: Bool) {
        for directory in directoriesByWatch.removeValue(forKey: watch) ?? [] where watchByDirectory[directory] == watch {
            watchByDirectory[directory] = nil
            identityByDirectory[directory] = nil
        }
        if remove { Syscall.inotifyRemoveWatch(fileDescriptor, watch) }
    }

    /// Stops watching `directory` through `watch`; the watch goes when no other name uses it
    /// (one inode may be reached by two paths).
    private func detach(_ directory: String, from watch: Int32) {
        watchByDirectory[directory] = nil
        identityByDirectory[directory] = nil
        directoriesByWatch[watch]?.remove(directory)
        if directoriesByWatch[watch]?.isEmpty == true { forget(watch, remove: true) }
    }

    /// `/a/b/c.toml` → (`/a/b`, `c.toml`); `c.toml` → (`.`, `c.toml`); `/c.toml` → (`/`, `c.toml`).
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// `name` in `directory`, written as `split` writes directories: `(".", "sub")` is `sub`,
    /// the directory of `sub/config.toml`.
    static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory == "." ? name : directory + "/" + name
    }
}

// MARK: inotify and stat wrappers

extension Syscall {
    /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
    static func inotifyCreate() throws(SystemError) -> Int32 {
        try retrying("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    }

    /// `inotify_add_watch(fd, path, mask)`; returns the watch descriptor (the same one for a
    /// path already watched).
    static func inotifyAddWatch(_ fd: Int32, path: String, mask: UInt32) throws(SystemError) -> Int32 {
        try retrying("inotify_add_watch", path: path) { inotify_add_watch(fd, path, mask) }
    }

    /// Reads every event pending on the non-blocking inotify descriptor `fd`, through `buffer`
    /// (at least one event with a 255-byte name), and gives each to `body`: its watch
    /// descriptor, mask and name (empty for an event on the watched object itself).
    static func readInotifyEvents(_ fd: Int32, buffer: UnsafeMutableRawBufferPointer,
                                  _ body: (_ watch: Int32, _ mask: UInt32, _ name: String) -> Void) throws(SystemError) {
        while true {
            let count: Int
            do {
                count = try read(fd, into: buffer)
            } catch where error.wouldBlock {
                return
            }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of NUL-padded name.
            while offset + 16 <= count {
                let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
                offset += 16 + length
                body(watch, mask, String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self))
            }
        }
    }

    /// `inotify_rm_watch(fd, watch)`. A watch the kernel dropped already (its directory was
    /// deleted) fails with EINVAL, which means the same: it is gone.
    static func inotifyRemoveWatch(_ fd: Int32, _ watch: Int32) {
        _ = inotify_rm_watch(fd, watch)
    }

    /// Whether the entry at `path` is a symbolic link, or a hard link to a file that has
    /// another name (`lstat`); false when there is none.
    static func isLink(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFLNK || (status.st_mode & S_IFMT == S_IFREG && status.st_nlink > 1)
    }

    /// What a regular file at `path` holds as far as `stat` tells (size and modification time,
    /// following symbolic links), to see whether it is still being written; nil for no
    /// regular file.
    static func contentState(_ path: String) -> ContentState? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return ContentState(size: Int64(status.st_size), seconds: Int64(status.st_mtim.tv_sec),
                            nanoseconds: Int64(status.st_mtim.tv_nsec))
    }

    /// A regular file's size and modification time (`contentState`).
    struct ContentState: Hashable {
        var size: Int64
        var seconds: Int64
        var nanoseconds: Int64
    }

    /// The identity and number of names (`st_nlink`) of the regular file at `path` (`stat`,
    /// following symbolic links); nil for no regular file.
    static func regularFileStatus(atPath path: String) -> (identity: FileIdentity, links: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return (FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)), UInt64(status.st_nlink))
    }

    /// Whether `path` is a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether the entry at `path` is a symbolic link (`lstat`); false when there is none.
    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// The device and inode numbers of what `path` leads to (`stat`, following symbolic links,
    /// as `inotify_add_watch` does); nil when it leads nowhere.
    static func fileIdentity(atPath path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
