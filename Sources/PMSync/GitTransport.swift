import PMCore

/// A git repository as a remote, driven through the `git` command (its own
/// authentication, its own protocols). The board lives on the `pm-board`
/// branch; pm keeps a clone of just that branch in its state directory, and
/// each sync commits only this replica's own file on top of the remote's tip,
/// so history stays linear and nobody's `git pull` ever conflicts.
public struct GitTransport: Transport {
    public let url: String
    /// The local clone pm works in.
    public let cache: String
    /// How long fetching may take before the remote counts as offline.
    public var fetchTimeout = 4.0
    public var pushTimeout = 15.0
    let runner: ProcessRunner

    public init(url: String, cache: String, environment: [String: String]) {
        self.url = url
        self.cache = cache
        var env = environment
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GIT_ASKPASS"] = "/bin/true"
        env["LC_ALL"] = "C"
        env["GIT_SSH_COMMAND"] = env["GIT_SSH_COMMAND"] ?? "ssh -o BatchMode=yes -o ConnectTimeout=4"
        env["GIT_AUTHOR_NAME"] = "pm"
        env["GIT_AUTHOR_EMAIL"] = "pm@localhost"
        env["GIT_COMMITTER_NAME"] = "pm"
        env["GIT_COMMITTER_EMAIL"] = "pm@localhost"
        runner = ProcessRunner(environment: env)
    }

    private func git(_ arguments: [String], timeout: Double = 30) throws -> ProcessRunner.Result {
        try runner.run(
            "git", ["-C", cache, "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"] + arguments, timeout: timeout)
    }

    private func prepare() throws {
        let files = PosixFileSystem()
        guard (try? files.linkStatus(cache + "/.git")) ?? nil == nil else { return }
        try files.createDirectories(cache)
        let result = try runner.run("git", ["init", "-q", cache], timeout: 30)
        guard result.status == 0 else { throw SyncError.badRemote(target: url, detail: Self.firstLine(result.errors)) }
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n").first { $0.contains { !$0.isWhitespace } } ?? "")
    }

    public func reachable() -> Bool {
        guard let result = try? runner.run("git", ["ls-remote", "--heads", url], timeout: fetchTimeout) else { return false }
        return result.status == 0 && !result.timedOut
    }

    public func fetch() throws -> RemoteSnapshot {
        try prepare()
        let remoteRef = "refs/remotes/pm/" + RemoteTarget.branch
        let fetched = try git(
            ["fetch", "--quiet", "--no-tags", url, "+refs/heads/\(RemoteTarget.branch):\(remoteRef)"], timeout: fetchTimeout)
        if fetched.timedOut { throw SyncError.unreachable(target: url, detail: "") }
        if fetched.status != 0 {
            guard fetched.errors.contains("couldn't find remote ref") else {
                throw SyncError.unreachable(target: url, detail: Self.firstLine(fetched.errors))
            }
            // A repository without the board yet: start the branch from nothing.
            _ = try git(["update-ref", "-d", remoteRef])
            _ = try git(["checkout", "-q", "--orphan", "pm-new-\(PMEnvironment.randomID().rawValue.prefix(8))"])
            _ = try git(["rm", "-rfq", "--cached", "--ignore-unmatch", "."])
            _ = try git(["clean", "-fdxq"])
            _ = try git(["branch", "-D", RemoteTarget.branch])
            _ = try git(["checkout", "-q", "--orphan", RemoteTarget.branch])
            return RemoteSnapshot()
        }
        let checkout = try git(["checkout", "-q", "-f", "-B", RemoteTarget.branch, remoteRef])
        guard checkout.status == 0 else { throw SyncError.badRemote(target: url, detail: Self.firstLine(checkout.errors)) }
        _ = try git(["clean", "-fdxq"])
        return try FolderTransport(path: cache).fetch()
    }

    public func publish(_ files: [RemoteFile], aside: [String], message: String) throws {
        let folder = FolderTransport(path: cache)
        try folder.publish(files, aside: [], message: message)
        for name in aside {
            let target = "aside/" + Paths.lastComponent(of: name)
            try PosixFileSystem().createDirectories(cache + "/aside")
            _ = try git(["mv", "-f", name, target])
        }
        _ = try git(["add", "-A", "."])
        let commit = try git(["commit", "-q", "--allow-empty", "-m", message])
        guard commit.status == 0 else { throw SyncError.badRemote(target: url, detail: Self.firstLine(commit.errors)) }
        let pushed = try git(["push", "--quiet", url, "HEAD:refs/heads/\(RemoteTarget.branch)"], timeout: pushTimeout)
        if pushed.timedOut { throw SyncError.unreachable(target: url, detail: "") }
        guard pushed.status == 0 else {
            let text = pushed.errors
            if text.contains("rejected") || text.contains("fetch first") || text.contains("non-fast-forward")
                || text.contains("cannot lock ref") || text.contains("failed to update ref")
            {
                throw SyncError.rejected
            }
            throw SyncError.unreachable(target: url, detail: Self.firstLine(text))
        }
    }
}
