import Foundation
import PMTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// git runs in a room of pm's own (RELIABILITY.md, "sealed subprocesses"):
/// whatever the user's shell exports, whatever their git configuration
/// turns on, and whatever a remote's name says, pm's git touches only pm's
/// clone and runs nothing but git.
@Suite struct SealedGitTests {
    /// Runs git with `environment` exactly (no inherited variables).
    @discardableResult
    static func git(_ arguments: [String], _ environment: [String: String], in directory: String? = nil) throws -> (
        status: Int32, output: String
    ) {
        let (status, output) = try runCapturing("/usr/bin/env", ["git"] + arguments, environment: environment, in: directory)
        return (status, output)
    }

    /// Every file under `root` (links not followed) with its bytes, `.git`-like folders left out.
    static func snapshot(_ root: String, skipping: Set<String> = []) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        while let name = walker.nextObject() as? String {
            if skipping.contains(where: { name == $0 || name.hasPrefix($0 + "/") }) { continue }
            let path = root + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = FileManager.default.contents(atPath: path) ?? Data()
            }
        }
        return files
    }

    /// vcsh, yadm and bare-repository dotfiles export `GIT_DIR` and
    /// `GIT_WORK_TREE` (a git hook exports `GIT_INDEX_FILE`); a user may have
    /// global hooks and `GIT_CONFIG_*` injections. `pm sync` must send its
    /// change to the remote and leave the dotfiles' work tree, index, branch
    /// and history exactly as they were, and run none of the hooks.
    @Test func exportedGitVariablesAndGlobalHooksNeverReachTheUsersRepository() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let home = pm.home.path
        let dotfiles = home + "/.dotfiles"
        let tree = home + "/dots"
        let marker = home + "/hook-ran"
        try FileManager.default.createDirectory(atPath: tree + "/.config", withIntermediateDirectories: true)
        let base = [
            "HOME": home, "PATH": "/usr/bin:/bin", "GIT_AUTHOR_NAME": "me", "GIT_AUTHOR_EMAIL": "me@localhost",
            "GIT_COMMITTER_NAME": "me", "GIT_COMMITTER_EMAIL": "me@localhost",
        ]
        let dots = base.merging(["GIT_DIR": dotfiles, "GIT_WORK_TREE": tree]) { _, new in new }
        #expect(try Self.git(["init", "-q", "--bare", dotfiles], base).status == 0)
        try Data("export EDITOR=vi\n".utf8).write(to: URL(fileURLWithPath: tree + "/.bashrc"))
        try Data("[ui]\n".utf8).write(to: URL(fileURLWithPath: tree + "/.config/tool.ini"))
        #expect(try Self.git(["add", ".bashrc", ".config/tool.ini"], dots, in: tree).status == 0)
        #expect(try Self.git(["commit", "-q", "-m", "dotfiles"], dots, in: tree).status == 0)
        // Uncommitted and untracked work: the first thing a stray clean or checkout destroys.
        try Data("export EDITOR=vi\nexport PAGER=less\n".utf8).write(to: URL(fileURLWithPath: tree + "/.bashrc"))
        try Data("a draft nobody committed\n".utf8).write(to: URL(fileURLWithPath: tree + "/notes.txt"))
        let head = try Self.git(["rev-parse", "HEAD"], dots).output
        let refs = try Self.git(["for-each-ref"], dots).output
        let index = FileManager.default.contents(atPath: dotfiles + "/index")
        let before = Self.snapshot(tree)

        // Global hooks, and hooks injected through GIT_CONFIG_*: none may run.
        let hooks = home + "/hooks"
        try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        for hook in ["pre-commit", "commit-msg", "post-commit", "pre-push", "reference-transaction", "post-checkout"] {
            try writeExecutable(Data("#!/bin/sh\necho \(hook) $(pwd) >> \(marker)\n".utf8), to: hooks + "/" + hook)
        }
        try Data("[core]\n\thooksPath = \(hooks)\n".utf8).write(to: URL(fileURLWithPath: home + "/.gitconfig"))

        let remote = home + "/remote.git"
        #expect(try Self.git(["init", "-q", "--bare", remote], base).status == 0)
        let board = home + "/me/board.json"
        let exported = [
            "GIT_DIR": dotfiles, "GIT_WORK_TREE": tree, "GIT_INDEX_FILE": home + "/stray-index",
            "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": hooks,
            "GIT_TEMPLATE_DIR": hooks, "GIT_OBJECT_DIRECTORY": dotfiles + "/objects",
        ]
        #expect(try pm.run(["remote", "add", remote, "--board", board], exported).status == 0)
        #expect(try pm.run(["add", "Sent for real", "--board", board], exported).status == 0)
        let first = try pm.run(["sync", "--board", board], exported)
        #expect(first.status == 0 && first.stdout.contains("sent: 1"), "\(first.stdout)\(first.stderr)")
        #expect(try pm.run(["add", "Second", "--board", board], exported).status == 0)
        let second = try pm.run(["sync", "--board", board], exported)
        #expect(second.status == 0 && second.stdout.contains("sent: 1"), "\(second.stdout)\(second.stderr)")
        #expect(try pm.run(["status", "--board", board], exported).stdout.contains("reachable now"))

        // "sent" is true: the remote has both, as a plain git reads it.
        let plain = home + "/plain"
        #expect(
            try Self.git(["-c", "core.hooksPath=/dev/null", "clone", "-q", "-b", "pm-board", remote, plain], base).status == 0)
        let events = RemoteEvents(folder: plain + "/events")
        let published = events.replicas.map(events.text(of:)).joined()
        #expect(published.contains("Sent for real") && published.contains("Second"), "\(events.replicas)")

        // The user's repository is exactly as it was.
        #expect(Self.snapshot(tree) == before, "the dotfiles' work tree changed")
        #expect(try Self.git(["rev-parse", "HEAD"], dots).output == head)
        #expect(try Self.git(["for-each-ref"], dots).output == refs)
        #expect(FileManager.default.contents(atPath: dotfiles + "/index") == index)
        #expect(!FileManager.default.fileExists(atPath: home + "/stray-index"))
        // The remote's own receiving hooks are the remote's business (a
        // shared repository's notification hook); none runs on the user's side.
        let ran = String(decoding: FileManager.default.contents(atPath: marker) ?? Data(), as: UTF8.self)
        let onTheUsersSide = ran.split(separator: "\n").filter { !$0.hasSuffix(" " + remote) }
        #expect(onTheUsersSide.isEmpty, "hooks ran in pm's clone or the user's repository: \(onTheUsersSide)")
    }

    /// A target git would read as an option (`--upload-pack=CMD`) is refused
    /// by `pm remote add` in every language; one already in the settings (an
    /// older pm took it) is never handed to git by sync, status or the board.
    @Test func aTargetThatLooksLikeAnOptionRunsNothing() throws {
        let pm = PMBinary()
        let home = pm.home.path
        let marker = home + "/PWNED"
        let target = "--upload-pack=touch \(marker) .git"
        for (language, words) in [
            ("en_US.UTF-8", "would read as an option"), ("fr_FR.UTF-8", "comme une option"), ("ko_KR.UTF-8", "옵션으로"),
        ] {
            let refused = try pm.run(["remote", "add", "--", target], ["LANG": language])
            #expect(refused.status == 64 && refused.stderr.contains(words), "\(language): \(refused.stderr)")
        }
        #expect(try pm.run(["remote", "show"]).stdout.contains("no remote"), "nothing was saved")
        // Planted in the settings as an older pm would have saved it.
        #expect(try pm.run(["remote", "add", home + "/harmless.git"]).status == 0)
        let stateDirectory = home + "/.local/state/pm"
        let state = try #require(
            try FileManager.default.contentsOfDirectory(atPath: stateDirectory).first { $0.hasPrefix("sync-") })
        let path = stateDirectory + "/" + state
        let settings = try String(contentsOfFile: path, encoding: .utf8)
        let planted = settings.replacingOccurrences(of: home + "/harmless.git", with: target)
        #expect(planted != settings, "\(settings)")
        try Data(planted.utf8).write(to: URL(fileURLWithPath: path))
        try pm.run(["add", "Waiting"])
        let sync = try pm.run(["sync"])
        #expect(sync.status != 0 && sync.status < 128, "\(sync.stderr)")
        let status = try pm.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("not reachable"), "\(status.stdout)\(status.stderr)")
        #expect(try pm.run(["list"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: marker), "git ran the remote's command")
    }
}
