import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

/// `pm serve [start] [--port N] [--listen ADDR] [--read-only]`, `pm serve
/// invite NAME`, `pm serve revoke NAME`, `pm serve invites`: the board in a
/// browser (DESIGN.md §16). The server is its own executable, `pm-serve`,
/// installed beside pm (pm's other commands carry no HTTP server): `pm
/// serve` checks what it was given, then becomes `pm-serve`, which is pm
/// with the server linked in and parses the same command line again.
struct Serve: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "serve", abstract: help(.helpCommandServe),
            subcommands: [ServeStart.self, ServeInvite.self, ServeRevoke.self, ServeInvites.self],
            defaultSubcommand: ServeStart.self)
    }
}

struct ServeStart: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "start", abstract: help(.helpCommandServeStart))
    }

    @Option(name: .long, help: ArgumentHelp(help(.helpServePort), valueName: "port"))
    var port: Int = 0
    @Option(name: .long, help: ArgumentHelp(help(.helpServeListen), valueName: "address"))
    var listen: String = "127.0.0.1"
    @Flag(name: .customLong("read-only"), help: ArgumentHelp(help(.helpServeReadOnly)))
    var readOnly = false
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp(help(.helpServeTLSCert), valueName: "file"))
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp(help(.helpServeTLSKey), valueName: "file"))
    var tlsKey: String?
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        guard (0...65_535).contains(port) else { throw CLIError.servePort(port) }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw CLIError.serveTLSPair }
        let address = try ServeAddress(listen)
        // Every address at once: no one Host names it, and links could not say where.
        guard !address.isUnspecified else { throw CLIError.serveAnyAddress(listen) }
        // Other machines only get in with a personal link (DESIGN.md §16).
        if !address.isLoopback, try context.session.inviteStore().load().invites.isEmpty {
            throw CLIError.serveNeedsInvites(listen)
        }
        guard let server = PMMain.webServer else { return try ServeExecutable.become() }
        let l = context.localizer
        let launch = ServeLaunch(
            session: context.session, port: port, address: address.text, readOnly: readOnly,
            tls: tlsCert.flatMap { cert in tlsKey.map { ServeLaunch.TLS(certificate: cert, key: $0) } },
            syncIntervalMilliseconds: try context.syncInterval(),
            listening: { url in
                context.output.line(l.string(.serveListening, .text(url)))
                context.output.line(l.string(.serveHowToStop))
                // Beyond this machine, without TLS: said, every time.
                if !address.isLoopback, tlsCert == nil { context.output.line(l.string(.serveClearText)) }
                try? context.output.flush()
            })
        try server(launch)
        context.output.line(l.string(.serveStopped))
    }
}

/// `pm serve invite NAME`: a personal link for one person.
struct ServeInvite: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "invite", abstract: help(.helpCommandServeInvite))
    }

    @Argument(help: ArgumentHelp(help(.helpServeName), valueName: "name")) var name: String
    @Option(name: .long, help: ArgumentHelp(help(.helpServeInviteListen), valueName: "address"))
    var listen: String?
    @Option(name: .long, help: ArgumentHelp(help(.helpServeInvitePort), valueName: "port"))
    var port: Int?
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        // Where the server last listened beyond this machine, and how (http or https).
        let known = try context.session.inviteStore().load().address
        let origin: String
        if let listen, let port {
            guard (1...65_535).contains(port) else { throw CLIError.servePort(port) }
            let scheme = known?.hasPrefix("https://") == true ? "https://" : "http://"
            origin = scheme + ServeAddress.host(try ServeAddress(listen).text, port: port)
        } else if let known {
            origin = known
        } else {
            throw CLIError.serveInviteAddress
        }
        // The person serving acts as themselves already: a link in their name would share their undo and key.
        if (try? Assignees.validName(name)) == context.environment.user { throw CLIError.serveInviteSelf(name) }
        let (person, token) = try context.session.invite(name)
        let l = context.localizer
        context.output.line(l.string(.serveInvited, context.shown(person)))
        context.output.line(origin + "/?invite=" + token)
    }
}

/// `pm serve revoke NAME`: that person's link stops working, at once.
struct ServeRevoke: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "revoke", abstract: help(.helpCommandServeRevoke))
    }

    @Argument(help: ArgumentHelp(help(.helpServeName), valueName: "name")) var name: String
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        guard try context.session.revokeInvite(name) else { throw CLIError.serveNotInvited(name) }
        context.output.line(context.localizer.string(.serveRevoked, context.shown(name)))
    }
}

/// `pm serve invites`: who has a link.
struct ServeInvites: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "invites", abstract: help(.helpCommandServeInvites))
    }

    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let list = try context.session.inviteStore().load()
        let l = context.localizer
        guard !list.invites.isEmpty else { return context.output.line(l.string(.serveNoInvites)) }
        let style = context.style(color: false)
        for invite in list.invites.sorted(by: { $0.name < $1.name }) {
            context.output.line(l.string(.serveInviteLine, context.shown(invite.name), .text(style.dateTime(invite.created))))
        }
    }
}

/// An address `--listen` names: an IPv4 or IPv6 literal (a name would need
/// a lookup, and `localhost` may resolve to several).
struct ServeAddress {
    let text: String
    let isLoopback: Bool
    /// `0.0.0.0` or `::`: every address of the machine.
    let isUnspecified: Bool

    init(_ given: String) throws {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, given, &v4) == 1 {
            text = given
            // 127.0.0.0/8, in network order.
            isLoopback = UInt32(bigEndian: v4.s_addr) >> 24 == 127
            isUnspecified = v4.s_addr == 0
        } else if inet_pton(AF_INET6, given, &v6) == 1 {
            text = given
            isLoopback = withUnsafeBytes(of: v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
            isUnspecified = withUnsafeBytes(of: v6) { bytes in bytes.allSatisfy { $0 == 0 } }
        } else {
            throw CLIError.serveAddress(given)
        }
    }

    /// `host:port` as a URL names it (an IPv6 address in brackets).
    static func host(_ address: String, port: Int) -> String {
        (address.contains(":") ? "[" + address + "]" : address) + ":" + String(port)
    }
}

/// Finding and starting `pm-serve`.
enum ServeExecutable {
    /// The file name of the server beside pm.
    static let name = "pm-serve"

    /// Replaces this process with `pm-serve` beside this executable, given
    /// the same command line and environment. Returns only by throwing.
    static func become() throws {
        let path = besideSelf()
        let invocation = CurrentRun.now.invocation
        // A run inside a test process must not replace the process.
        guard invocation.ownsProcess, access(path, X_OK) == 0 else { throw CLIError.serveMissing(path) }
        // The process's own command line (the process run's invocation holds none).
        let arguments = PMMain.commandLine().dropFirst()
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(path)]
        for argument in arguments {
            argv.append(
                argument.withUnsafeBufferPointer { bytes in
                    let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                    for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
                    copy[bytes.count] = 0
                    return copy
                })
        }
        argv.append(nil)
        execv(path, argv)
        throw CLIError.serveMissing(path)
    }

    /// `pm-serve` in the folder of the running executable, symlinks resolved
    /// (`/usr/bin/pm` may point into `/opt/pm/bin`): as the kernel names it,
    /// else (no /proc, as in a chroot) as it was started, a path or a name
    /// found on `PATH`.
    static func besideSelf() -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink("/proc/self/exe", &buffer, 4096)
        var path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        if path == nil, let first = PMMain.commandLine().first {
            let started = String(decoding: first, as: UTF8.self)
            path = started.contains("/") ? started : onPath(started)
        }
        guard let found = path, let real = realPath(found), let slash = real.lastIndex(of: "/") else { return name }
        return String(real[...slash]) + name
    }

    /// The first executable `name` in the folders of `PATH`.
    private static func onPath(_ name: String) -> String? {
        let folders = (ProcessContext.variables["PATH"] ?? "").split(separator: ":")
        return folders.map { String($0) + "/" + name }.first { access($0, X_OK) == 0 }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
