import Dispatch
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PMKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `pm serve`'s server: listens, says where, answers until Ctrl-C or SIGTERM.
public enum WebServer {
    /// Serves the board `launch` names until the process is asked to stop.
    /// - Throws: ``ServeError/cannotListen(address:port:reason:)``.
    public static func serve(_ launch: ServeLaunch) throws {
        let tls = try launch.tls.map(tlsContext)
        OpenFiles.raiseLimit()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let app = WebApp(launch: launch)
        let channel: Channel
        do {
            channel = try bootstrap(group: group, responder: app, tls: tls).bind(host: launch.address, port: launch.port).wait()
        } catch {
            throw ServeError.cannotListen(address: launch.address, port: launch.port, reason: reason(error))
        }
        let port = channel.localAddress?.port ?? launch.port
        app.start(port: port)
        launch.listening(app.entryURL())
        let stop = StopSignals { channel.close(promise: nil) }
        defer { stop.cancel() }
        try? channel.closeFuture.wait()
        app.stop()
    }

    /// The TLS context of a certificate chain and its key (PEM files).
    private static func tlsContext(_ files: ServeLaunch.TLS) throws -> NIOSSLContext {
        func read<Value>(_ path: String, _ body: () throws -> Value) throws -> Value {
            do {
                return try body()
            } catch {
                throw ServeError.tls(path: path, reason: String(describing: error))
            }
        }
        let chain = try read(files.certificate) { try NIOSSLCertificate.fromPEMFile(files.certificate) }
        guard !chain.isEmpty else { throw ServeError.tls(path: files.certificate, reason: "no certificate") }
        let key = try read(files.key) { try NIOSSLPrivateKey(file: files.key, format: .pem) }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        return try read(files.key) { try NIOSSLContext(configuration: configuration) }
    }

    private static func bootstrap(group: EventLoopGroup, responder: WebResponder, tls: NIOSSLContext?) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // Beyond a number of open connections, a new one is closed at
                // once (a flood must not take the descriptors everyone needs).
                guard Connections.open.add(1, ordering: .relaxed).newValue <= Connections.limit else {
                    Connections.open.subtract(1, ordering: .relaxed)
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in Connections.open.subtract(1, ordering: .relaxed) }
                return channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    var limits = NIOHTTPDecoderLimitConfiguration()
                    limits.maxHeaderFieldCount = 64
                    limits.maxHeaderListSize = 16 * 1024
                    limits.maxHeaderFieldSize = 8 * 1024
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
                    try channel.pipeline.syncOperations.addHandler(HTTPHandler(responder: responder))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Not writable past 256 KiB waiting to be sent: the next request waits.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 256 * 1024))
    }

    /// The system's words for why listening failed (`Address already in use`).
    private static func reason(_ error: Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return String(describing: error)
    }
}

/// Connections open now, and how many may be.
enum Connections {
    static let open = Atomic<Int>(0)
    /// Half the descriptors the process may open, at most 1024.
    static let limit: Int = {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 256 }
        return max(16, min(1024, Int(limit.rlim_cur) / 2))
    }()
}

/// The process's limit on open files.
enum OpenFiles {
    /// Raises the soft limit to the hard one (the board's live pages each hold a connection).
    static func raiseLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, 65_536)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Ctrl-C and SIGTERM, turned into a call on a queue (a signal handler
/// may do almost nothing; a dispatch source may do anything).
final class StopSignals: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]

    init(_ stop: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
    }

    func cancel() { for source in sources { source.cancel() } }
}
