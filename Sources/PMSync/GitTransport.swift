import PMCore
import PMProcess

#if canImport(Glibc)
    import Glibc
#endif

/// A git repository as a remote, driven through the `git` command (its own
/// authentication, its own protocols). The board lives on the `pm-board`
/// branch; pm keeps a clone of just that branch in its state directory, and
/// each sync commits only this replica's own file on top of the remote's tip,
/// so history stays linear and nobody's `git pull` ever conflicts.
public struct GitTransport: Transport {
    public let url: String
    /// The local clone pm works in.
    public let cache: String
    /// How long git may go without a sign of progress (connecting, a
    /// silent server) before the remote counts as offline: a large branch
    /// that keeps arriving is never cut off, an unreachable host is offline
    /// within five seconds.
    public var fetchTimeout = 4.0
    public var pushTimeout = 15.0
    /// The limit on a whole transfer that keeps making progress.
    public var transferLimit = 900.0
    let runner: ProcessRunner

    /// - Parameter author: who the commits name as their author (`PM_USER`), so the branch's history reads as the team's.
    public init(url: String, cache: String, environment: [String: String], author: String = "pm") {
        self.url = url
        self.cache = cache
        runner = ProcessRunner(environment: SealedGit.environment(from: environment, author: author))
    }

    /// git on pm's clone alone, hooks and links off (``SealedGit``).
    private func git(_ arguments: [String], timeout: Double = 30) throws -> ProcessRunner.Result {
        try runner.run(
            "git", ["--git-dir=" + cache + "/.git", "--work-tree=" + cache] + SealedGit.configuration + arguments,
            in: cache, timeout: timeout, inherited: SyncLock.held)
    }

    /// git talking to the remote, with no repository of its own (`ls-remote`).
    private func gitWithoutRepository(_ arguments: [String], timeout: Double) throws -> ProcessRunner.Result {
        try runner.run("git", SealedGit.configuration + arguments, in: "/", timeout: timeout, inherited: SyncLock.held)
    }

    /// A URL git could read as an option is never handed to it.
    private func checkURL() throws {
        if RemoteTarget.looksLikeOption(url) { throw SyncError.badRemote(target: url, detail: url) }
    }

    private func prepare() throws {
        try checkURL()
        let files = PosixFileSystem()
        if let found = try? files.linkStatus(cache + "/.git") {
            // pm's own clone: a real folder, never a link or a `gitdir:` file pointing elsewhere.
            guard found.kind == .directory else { throw SyncError.local(detail: cache + "/.git") }
            // A sync killed mid-way left git's locks: nothing else uses this clone.
            GitProcesses.clearStaleLocks(in: cache + "/.git")
        } else {
            do {
                try files.createDirectories(cache)
            } catch let error as SystemCallError {
                let detail = cache + ": " + error.call + " errno " + String(error.code)
                switch error.code {
                case ENOSPC, EDQUOT: throw SyncError.diskFull(target: cache, detail: detail)
                case EACCES, EPERM, EROFS: throw SyncError.permission(target: cache, detail: detail)
                default: throw SyncError.local(detail: detail)
                }
            }
            let result = try runner.run(
                "git", SealedGit.configuration + ["init", "-q", "--template=", "--", cache], in: "/", timeout: 30,
                inherited: SyncLock.held)
            guard result.status == 0 else {
                throw SyncError.classified(Self.firstLine(result.errors), target: cache)
                    ?? SyncError.local(detail: Self.firstLine(result.errors))
            }
        }
        let info = cache + "/.git/info"
        if ((try? files.linkStatus(info)) ?? nil) == nil { try files.createDirectories(info) }
        let attributes = Array(SealedGit.neutralAttributes.utf8)
        if (try? files.readFileNoFollow(info + "/attributes")) != attributes {
            try? files.remove(info + "/attributes")
            let descriptor = try files.createExclusive(info + "/attributes", mode: 0o644)
            defer { try? files.close(descriptor) }
            try files.write(descriptor, attributes[...])
        }
    }

    /// The first line of what git said that is not a progress report.
    static func firstLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
        let meaningful = lines.filter { line in
            line.contains { !$0.isWhitespace } && !line.hasPrefix("remote: ")
                && !["Counting", "Compressing", "Receiving", "Resolving", "Unpacking", "Enumerating", "Total", "Writing"]
                    .contains { line.hasPrefix($0) }
        }
        return String(meaningful.first ?? "")
    }

    /// The remote's repository folder when it is on this machine (a path or
    /// a `file://` URL), to clear what a killed push left there.
    func localRepository() -> String? {
        var path = url
        if path.hasPrefix("file://") { path.removeFirst("file://".count) }
        guard path.hasPrefix("/"), ((try? PosixFileSystem().status(path + "/refs")) ?? nil)?.kind == .directory else {
            return nil
        }
        return path
    }

    public func reachable() -> Bool {
        guard !RemoteTarget.looksLikeOption(url),
            let result = try? gitWithoutRepository(["ls-remote", "--heads", "--", url], timeout: fetchTimeout)
        else { return false }
        return result.status == 0 && !result.timedOut
    }

    /// True when the remote's branch is the very commit pm's clone made with
    /// `names` (a push that landed, its sync killed before it could say so);
    /// nil otherwise: the push did not land, or someone published after it,
    /// which only the next sync can tell.
    public func holds(_ names: [String], network: Bool) -> Bool? {
        guard network, !RemoteTarget.looksLikeOption(url),
            let head = try? git(["rev-parse", "--verify", "-q", "HEAD"]), head.status == 0,
            names.allSatisfy({ (try? git(["cat-file", "-e", "HEAD:" + $0]))?.status == 0 }),
            let remote = try? gitWithoutRepository(
                ["ls-remote", "--", url, "refs/heads/" + RemoteTarget.branch], timeout: fetchTimeout),
            remote.status == 0, !remote.timedOut
        else { return nil }
        let commit = String(head.output.prefix { !$0.isWhitespace })
        return String(remote.output.prefix { !$0.isWhitespace }) == commit ? true : nil
    }

    public func fetch() throws -> RemoteSnapshot {
        do {
            return try fetchOnce()
        } catch SyncError.local {
            // pm's clone is damaged or half-made (a full disk, a kill during
            // its first fetch): everything in it is on the remote or in the
            // board's log, so it is made again.
            try rebuildCache()
            return try fetchOnce()
        }
    }

    /// Moves the clone aside and removes it; the next step makes a new one.
    func rebuildCache() throws {
        let aside = cache + ".damaged-" + PMEnvironment.randomID().rawValue.prefix(8)
        do {
            try PosixFileSystem().rename(cache, to: aside)
        } catch {
            throw SyncError.local(detail: cache)
        }
        GitProcesses.removeTree(aside)
    }

    /// The bytes a fetch has written into the clone so far (the pack it
    /// receives, `tmp_pack_…`, grows as the data comes): a large object
    /// arrives for seconds without a word from git, and is no silence of
    /// the network (issue 43, item 12: a 300 MB object was "offline" at 4 s,
    /// every time).
    static func received(in cache: String) -> Int {
        var total = 0
        for folder in [cache + "/.git/objects/pack", cache + "/.git/objects"] {
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard !name.hasPrefix(".") else { continue }
                var info = stat()
                if lstat(folder + "/" + name, &info) == 0 {
                    total &+= (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : Int(info.st_mtim.tv_nsec & 0xFFFF)
                }
            }
        }
        return total
    }

    private func fetchOnce() throws -> RemoteSnapshot {
        try prepare()
        let remoteRef = "refs/remotes/pm/" + RemoteTarget.branch
        let fetched = try runner.run(
            "git",
            ["--git-dir=" + cache + "/.git", "--work-tree=" + cache] + SealedGit.configuration + [
                // A pack kept as it comes (never unpacked at the end): it
                // grows in the clone while it arrives, and stays packed.
                "-c", "fetch.unpackLimit=1", "-c", "transfer.unpackLimit=1",
                "fetch", "--progress", "--no-tags", "--no-recurse-submodules", "--", url,
                "+refs/heads/\(RemoteTarget.branch):\(remoteRef)",
            ], in: cache, timeout: transferLimit, idle: fetchTimeout, inherited: SyncLock.held,
            progress: { Self.received(in: cache) })
        if fetched.timedOut { throw SyncError.unreachable(target: url, detail: "") }
        if fetched.status != 0 {
            guard fetched.errors.contains("couldn't find remote ref") else {
                if let named = SyncError.classified(Self.firstLine(fetched.errors), target: url) { throw named }
                // The remote answers without the clone: the clone is at fault.
                if reachable() { throw SyncError.local(detail: Self.firstLine(fetched.errors)) }
                throw SyncError.unreachable(target: url, detail: Self.firstLine(fetched.errors))
            }
            // A repository without the board yet: start the branch from nothing.
            _ = try git(["update-ref", "-d", remoteRef])
            _ = try git(["checkout", "-q", "--orphan", "pm-new-\(PMEnvironment.randomID().rawValue.prefix(8))"])
            _ = try git(["rm", "-rfq", "--cached", "--ignore-unmatch", "--", "."])
            _ = try git(["clean", "-fdxq", "--", "."])
            _ = try git(["branch", "-D", RemoteTarget.branch])
            _ = try git(["checkout", "-q", "--orphan", RemoteTarget.branch])
            return RemoteSnapshot()
        }
        let checkout = try git(["checkout", "-q", "-f", "-B", RemoteTarget.branch, remoteRef])
        guard checkout.status == 0 else { throw SyncError.local(detail: Self.firstLine(checkout.errors)) }
        _ = try git(["clean", "-fdxq", "--", "."])
        return try FolderTransport(path: cache).fetch()
    }

    public func publish(_ files: [RemoteFile], aside: [String], message: String) throws {
        let folder = FolderTransport(path: cache)
        try folder.publish(files, aside: [], message: message)
        for name in aside {
            let target = "aside/" + Paths.lastComponent(of: name)
            try PosixFileSystem().createDirectories(cache + "/aside")
            _ = try git(["mv", "-f", "--", name, target])
        }
        _ = try git(["add", "-A", "--", "."])
        let commit = try git(["commit", "-q", "--no-verify", "--allow-empty", "-m", message])
        guard commit.status == 0 else {
            throw SyncError.classified(Self.firstLine(commit.errors), target: cache)
                ?? SyncError.local(detail: Self.firstLine(commit.errors))
        }
        let pushed = try git(
            ["push", "--quiet", "--no-verify", "--", url, "HEAD:refs/heads/\(RemoteTarget.branch)"], timeout: pushTimeout)
        if pushed.timedOut { throw SyncError.unreachable(target: url, detail: "") }
        guard pushed.status == 0 else {
            let text = pushed.errors
            if text.contains("rejected") || text.contains("fetch first") || text.contains("non-fast-forward")
                || text.contains("cannot lock ref") || text.contains("failed to update ref")
            {
                // A push killed mid-way into a repository on this machine
                // left its lock: broken once no git of this user works there.
                if let repository = localRepository() {
                    GitProcesses.clearStaleLocks(in: repository, olderThan: 2)
                }
                throw SyncError.rejected
            }
            throw SyncError.classified(Self.firstLine(text), target: url)
                ?? SyncError.unreachable(target: url, detail: Self.firstLine(text))
        }
    }
}
