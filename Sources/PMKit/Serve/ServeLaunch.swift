/// What the command line hands the web board's server (`pm serve`,
/// DESIGN.md §16): the board and the person who started it, the options,
/// and how to say at the terminal where the board is. The server is a
/// front end like the others: it makes its sessions from ``session``.
public struct ServeLaunch {
    /// The board and the person who started the server.
    public let session: BoardSession
    /// The port asked for (0: one the system chooses).
    public let port: Int
    /// The address to listen on (an IP literal).
    public let address: String
    /// Nobody can change the board through the server.
    public let readOnly: Bool
    /// HTTPS: the certificate chain and its private key, PEM files.
    public struct TLS: Sendable {
        public var certificate: String
        public var key: String
        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }
    /// Served over HTTPS with these files (nil: HTTP).
    public let tls: TLS?
    /// Between the server's own syncs when the board has a remote (`PM_SYNC_INTERVAL`).
    public let syncIntervalMilliseconds: Int
    /// Says, at the terminal, the one URL to open (with its one-time token).
    public let listening: (String) -> Void

    public init(
        session: BoardSession, port: Int, address: String, readOnly: Bool, tls: TLS? = nil, syncIntervalMilliseconds: Int,
        listening: @escaping (String) -> Void
    ) {
        self.session = session
        self.port = port
        self.address = address
        self.readOnly = readOnly
        self.tls = tls
        self.syncIntervalMilliseconds = syncIntervalMilliseconds
        self.listening = listening
    }
}

/// Why the web board's server could not serve.
public enum ServeError: Error, Equatable {
    /// The address and port could not be listened on; `reason` is the system's.
    case cannotListen(address: String, port: Int, reason: String)
    /// The TLS certificate or key at `path` could not be used; `reason` is the TLS library's.
    case tls(path: String, reason: String)
}
