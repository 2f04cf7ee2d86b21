import NIOCore
import NIOHTTP1

/// What the web board answers a request with: one response, or a stream
/// of server-sent events that stays open (the page's live updates).
enum WebAnswer: Sendable {
    case response(WebResponse)
    /// The stream's first response (its head only), and what to call with
    /// the sink that writes to it once the head is sent.
    case stream(WebResponse, @Sendable (EventSink) -> Void)
}

/// Answers requests; may call `reply` from any thread, exactly once.
protocol WebResponder: Sendable {
    func respond(to request: WebRequest, reply: @escaping @Sendable (WebAnswer) -> Void)
}

/// Writes server-sent events to one open connection, from any thread.
struct EventSink: Sendable {
    let channel: Channel

    /// Sends `text` (already in the event-stream format) to the page.
    func send(_ text: String) {
        let buffer = channel.allocator.buffer(string: text)
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
    }

    /// Calls `body` once the connection is closed (by the page or the server).
    func whenClosed(_ body: @escaping @Sendable () -> Void) {
        channel.closeFuture.whenComplete { _ in body() }
    }

    func close() { channel.close(promise: nil) }
}

/// One connection's requests: bounded in size and time, handed to the
/// responder whole. A request over the bounds is answered 408, 413 or 431
/// and its connection closed; nothing of it reaches the board.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Bounds on what a request may be.
    struct Limits: Sendable {
        var body = 64 * 1024
        var headers = 64
        /// From a connection's start (or its last answer) to a request's end.
        var requestTime = TimeAmount.seconds(10)
    }

    private let responder: WebResponder
    private let limits: Limits
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var refused = false
    private var busy = false
    private var deadline: Scheduled<Void>?
    /// A request read whole while the answers before it still wait to be
    /// sent: handled once they are (a client that pipelines thousands of
    /// requests and reads nothing must not fill the server's memory).
    private var waiting: HTTPRequestHead?

    /// Headers a request may carry once.
    static let single: Set<String> = ["host", "origin", "cookie", "x-pm-csrf", "sec-fetch-site", "content-length"]

    init(responder: WebResponder, limits: Limits = Limits()) {
        self.responder = responder
        self.limits = limits
    }

    func channelActive(context: ChannelHandlerContext) {
        armDeadline(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let received):
            if received.headers.count > limits.headers { return refuse(431, context: context) }
            head = received
            body = []
        case .body(var buffer):
            guard body.count + buffer.readableBytes <= limits.body else { return refuse(413, context: context) }
            if let bytes = buffer.readBytes(length: buffer.readableBytes) { body += bytes }
        case .end:
            guard let received = head else { return }
            head = nil
            deadline?.cancel()
            busy = true
            if context.channel.isWritable { dispatch(received, context: context) } else { waiting = received }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let received = waiting {
            waiting = nil
            dispatch(received, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func dispatch(_ received: HTTPRequestHead, context: ChannelHandlerContext) {
        let (path, query) = WebRequest.split(received.uri)
        var headers: [String: String] = [:]
        for (name, value) in received.headers {
            let key = name.lowercased()
            // Two of a header that decides who may do what: which to believe? Neither.
            if headers[key] != nil, Self.single.contains(key) { return refuse(400, context: context) }
            if headers[key] == nil { headers[key] = value }
        }
        let request = WebRequest(
            method: received.method.rawValue, path: path, query: query, headers: headers, body: body)
        body = []
        let keepAlive = received.isKeepAlive
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        responder.respond(to: request) { answer in
            loop.execute {
                let (handler, context) = bound.value
                handler.send(answer, keepAlive: keepAlive, context: context)
            }
        }
    }

    private func send(_ answer: WebAnswer, keepAlive: Bool, context: ChannelHandlerContext) {
        busy = false
        switch answer {
        case .response(let response):
            write(response, keepAlive: keepAlive, context: context)
            if keepAlive { armDeadline(context: context) }
        case .stream(let response, let start):
            var head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status))
            for (name, value) in response.headers { head.headers.add(name: name, value: value) }
            context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
            start(EventSink(channel: context.channel))
        }
    }

    private func write(_ response: WebResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        var head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status))
        for (name, value) in response.headers { head.headers.add(name: name, value: value) }
        head.headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        head.headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !response.body.isEmpty {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) } }
    }

    /// Answers `status` with no body and closes: what was sent is dropped.
    private func refuse(_ status: Int, context: ChannelHandlerContext) {
        refused = true
        head = nil
        body = []
        deadline?.cancel()
        write(WebResponse(status: status), keepAlive: false, context: context)
    }

    /// A client that does not finish its request in time is cut off (a
    /// slow client must not hold a connection for ever).
    private func armDeadline(context: ChannelHandlerContext) {
        deadline?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: limits.requestTime) {
            let (handler, context) = bound.value
            guard !handler.busy, !handler.refused else { return }
            // A request begun and not finished is told why; an idle
            // connection between requests is simply closed.
            if handler.head != nil { handler.refuse(408, context: context) } else { context.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
