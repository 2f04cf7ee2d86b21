/// How git runs for pm (RELIABILITY.md, "sealed subprocesses"): in a room of
/// pm's own, whatever the caller's shell exported and whatever the user's
/// git configuration turns on.
///
/// - The environment keeps what reaching a remote needs (PATH, HOME, ssh's
///   agent, proxies, TLS settings, `GIT_SSH_COMMAND`) and drops every other
///   `GIT_*` variable: `GIT_DIR`, `GIT_WORK_TREE` or `GIT_INDEX_FILE`
///   exported by vcsh, yadm or a git hook would otherwise point pm's
///   checkout, clean and commit at the user's own repository; `GIT_CONFIG_*`
///   would inject configuration; `GIT_TEMPLATE_DIR` would install hooks.
/// - Every call names its repository and work tree (`--git-dir`,
///   `--work-tree`), turns hooks and the file-system monitor off, never
///   makes links in the work tree, forbids the `ext` and `fd` transports
///   (which run commands), and puts `--` before every URL and path.
enum SealedGit {
    /// `GIT_*` variables kept: how to reach and authenticate to a remote.
    static let keptGitVariables: Set<String> = [
        "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH",
        "GIT_SSL_NO_VERIFY", "GIT_SSL_CERT", "GIT_SSL_KEY", "GIT_SSL_CERT_PASSWORD_PROTECTED", "GIT_SSL_CAINFO",
        "GIT_SSL_CAPATH", "GIT_SSL_CIPHER_LIST", "GIT_SSL_VERSION", "GIT_PROXY_SSL_CERT", "GIT_PROXY_SSL_KEY",
        "GIT_PROXY_SSL_CERT_PASSWORD_PROTECTED", "GIT_PROXY_SSL_CAINFO", "GIT_HTTP_PROXY_AUTHMETHOD",
        "GIT_HTTP_USER_AGENT", "GIT_HTTP_LOW_SPEED_LIMIT", "GIT_HTTP_LOW_SPEED_TIME", "GIT_HTTP_MAX_REQUESTS",
    ]

    /// The environment git gets, from the caller's.
    static func environment(from caller: [String: String], author: String = "pm") -> [String: String] {
        var sealed = caller.filter { name, _ in !name.hasPrefix("GIT_") || keptGitVariables.contains(name) }
        sealed["GIT_TERMINAL_PROMPT"] = "0"
        sealed["GIT_ASKPASS"] = "/bin/true"
        sealed["LC_ALL"] = "C"
        sealed["LANGUAGE"] = nil
        sealed["GIT_SSH_COMMAND"] = sealed["GIT_SSH_COMMAND"] ?? "ssh -o BatchMode=yes -o ConnectTimeout=4"
        sealed["GIT_AUTHOR_NAME"] = authorName(author)
        sealed["GIT_AUTHOR_EMAIL"] = "pm@localhost"
        sealed["GIT_COMMITTER_NAME"] = "pm"
        sealed["GIT_COMMITTER_EMAIL"] = "pm@localhost"
        return sealed
    }

    /// A user name as git accepts it: no control characters, no `<` or `>`
    /// (git's own delimiters), trimmed; "pm" when nothing is left.
    static func authorName(_ user: String) -> String {
        let kept = String(
            String.UnicodeScalarView(
                user.unicodeScalars.filter { $0.value >= 0x20 && $0 != "<" && $0 != ">" && $0.value != 0x7F }))
        let trimmed = kept.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        // git refuses a name made only of its "crud" characters.
        return trimmed.allSatisfy({ ".,:;\"'".contains($0) }) ? "pm" : String(trimmed)
    }

    /// Configuration set on every call, above the user's and the system's.
    static let configuration: [String] = [
        "core.hooksPath=/dev/null", "core.fsmonitor=false", "core.symlinks=false", "core.autocrlf=false",
        "core.attributesFile=/dev/null", "commit.gpgsign=false", "tag.gpgsign=false", "gc.auto=0",
        "maintenance.auto=false", "protocol.ext.allow=never", "protocol.fd.allow=never", "submodule.recurse=false",
        "fetch.recurseSubmodules=false", "push.recurseSubmodules=no", "credential.interactive=never",
    ].flatMap { ["-c", $0] }

    /// What the cache's `info/attributes` says: no filter, conversion or
    /// driver that a `.gitattributes` on the remote could name applies here,
    /// so the files pm reads are the bytes the remote holds.
    static let neutralAttributes = "* -text -eol -filter -ident -working-tree-encoding -diff -merge\n"
}
