import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

/// `pm serve [--port N] [--listen ADDR] [--read-only]`: the board in a
/// browser (DESIGN.md §16). The server is its own executable, `pm-serve`,
/// installed beside pm (pm's other commands carry no HTTP server): `pm
/// serve` checks what it was given, then becomes `pm-serve`, which is pm
/// with the server linked in and parses the same command line again.
struct Serve: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "serve", abstract: help(.helpCommandServe))
    }

    @Option(name: .long, help: ArgumentHelp(help(.helpServePort), valueName: "port"))
    var port: Int = 0
    @Option(name: .long, help: ArgumentHelp(help(.helpServeListen), valueName: "address"))
    var listen: String = "127.0.0.1"
    @Flag(name: .customLong("read-only"), help: ArgumentHelp(help(.helpServeReadOnly)))
    var readOnly = false
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        guard (0...65_535).contains(port) else { throw CLIError.servePort(port) }
        let address = try ServeAddress(listen)
        // A LAN address serves people who are not the one at this terminal:
        // only with personal links (DESIGN.md §16), which come next.
        guard address.isLoopback else { throw CLIError.serveNeedsInvites(listen) }
        guard let server = PMMain.webServer else { return try ServeExecutable.become() }
        let launch = ServeLaunch(
            session: context.session, port: port, address: address.text, readOnly: readOnly,
            listening: { url in
                context.output.line(context.localizer.string(.serveListening, .text(url)))
                context.output.line(context.localizer.string(.serveHowToStop))
                try? context.output.flush()
            })
        try server(launch)
        context.output.line(context.localizer.string(.serveStopped))
    }
}

/// An address `--listen` names: an IPv4 or IPv6 literal (a name would need
/// a lookup, and `localhost` may resolve to several).
struct ServeAddress {
    let text: String
    let isLoopback: Bool

    init(_ given: String) throws {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, given, &v4) == 1 {
            text = given
            // 127.0.0.0/8, in network order.
            isLoopback = UInt32(bigEndian: v4.s_addr) >> 24 == 127
        } else if inet_pton(AF_INET6, given, &v6) == 1 {
            text = given
            isLoopback = withUnsafeBytes(of: v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
        } else {
            throw CLIError.serveAddress(given)
        }
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

    /// `pm-serve` in the folder of the running executable (symlinks resolved:
    /// `/usr/bin/pm` may point into `/opt/pm/bin`).
    static func besideSelf() -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink("/proc/self/exe", &buffer, 4096)
        guard count > 0 else { return name }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return name }
        return String(path[...slash]) + name
    }
}
