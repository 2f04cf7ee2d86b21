import Dispatch
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PMKit

#if canImport(Glibc)
    import Glibc
#endif

/// `pm serve`'s server: listens, says where, answers until Ctrl-C or SIGTERM.
public enum WebServer {
    /// Serves the board `launch` names until the process is asked to stop.
    /// - Throws: ``ServeError/cannotListen(address:port:reason:)``.
    public static func serve(_ launch: ServeLaunch) throws {
        let tls = try launch.tls.map(tlsContext)
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
                channel.eventLoop.makeCompletedFuture {
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
    }

    /// The system's words for why listening failed (`Address already in use`).
    private static func reason(_ error: Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return String(describing: error)
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
