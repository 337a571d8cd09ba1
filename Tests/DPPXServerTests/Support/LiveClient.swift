import DPPXServer
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix

/// Header names the tests send and read.
extension HTTPField.Name {
    static let secCHDPR = HTTPField.Name("Sec-CH-DPR")!
    static let dprHint = HTTPField.Name("DPR")!
    static let contentDPR = HTTPField.Name("Content-DPR")!
    static let acceptCH = HTTPField.Name("Accept-CH")!
}

/// An HTTP client of a server under test, over a real socket, on one keep-alive connection:
/// NIO's HTTP/1.1 client codec, and answers handed back in the order the requests were sent.
/// (Ours rather than a test client from a package: that one brought TLS, HTTP/2 and an HTTP
/// client library into the test build, a third of its compile time.)
struct LiveClient: Sendable {
    let channel: any Channel
    /// How long one request may wait for its whole answer.
    let timeout: TimeAmount

    /// Connects to `host`:`port`.
    static func connect(host: String, port: Int, timeout: TimeAmount = .seconds(20)) async throws -> LiveClient {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.socket(SocketOptionLevel(IPPROTO_TCP), TCP_NODELAY), value: 1)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandlers([HTTP1ToHTTPClientCodec(), AnswerCollector()])
                }
            }
            .connect(host: host, port: port)
            .get()
        return LiveClient(channel: channel, timeout: timeout)
    }

    /// A GET (or `method`) with headers given as name/value pairs.
    func get(_ uri: String, method: HTTPRequest.Method = .get, _ headers: [(HTTPField.Name, String)] = []) async throws -> LiveResponse {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: name, value: value)) }
        return try await execute(uri: uri, method: method, headers: fields)
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields) async throws -> LiveResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = HTTPRequest(method: method, scheme: nil, authority: "localhost", path: uri, headerFields: headers)
        let answer = channel.eventLoop.makePromise(of: LiveResponse.self)
        let deadline = channel.eventLoop.scheduleTask(in: timeout) { answer.fail(LiveClientError.noAnswer("\(method) \(uri)", timeout)) }
        answer.futureResult.whenComplete { _ in deadline.cancel() }
        channel.writeAndFlush(AnswerCollector.Sent(request: request, answer: answer)).whenFailure { answer.fail($0) }
        return try await answer.futureResult.get()
    }

    /// Closes the connection (a connection already closed by the server is fine).
    func close() async {
        try? await channel.close()
    }
}

/// Why a request of `LiveClient` got no answer.
enum LiveClientError: Error, CustomStringConvertible {
    case noAnswer(String, TimeAmount)
    case connectionClosed
    case malformedAnswer

    var description: String {
        switch self {
        case .noAnswer(let request, let timeout): "no whole answer to \(request) within \(timeout.nanoseconds / 1_000_000_000) s"
        case .connectionClosed: "the server closed the connection before answering"
        case .malformedAnswer: "the answer's parts came out of order"
        }
    }
}

/// A response as `LiveClient` read it.
struct LiveResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
    var text: String { String(buffer: body) }
}

/// Sends each request and completes its promise with the answer read back: HTTP/1.1 answers
/// come in request order, so the promises wait in a queue.
private final class AnswerCollector: ChannelDuplexHandler {
    typealias InboundIn = HTTPResponsePart
    typealias OutboundIn = Sent
    typealias OutboundOut = HTTPRequestPart

    struct Sent {
        let request: HTTPRequest
        let answer: EventLoopPromise<LiveResponse>
    }

    private var waiting: [EventLoopPromise<LiveResponse>] = []
    private var head: HTTPResponse?
    private var body = ByteBuffer()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let sent = unwrapOutboundIn(data)
        waiting.append(sent.answer)
        context.write(wrapOutboundOut(.head(sent.request)), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response) where head == nil:
            head = response
            body.clear()
        case .body(var part) where head != nil:
            body.writeBuffer(&part)
        case .end where head != nil:
            let response = LiveResponse(head: head!, body: body)
            head = nil
            if !waiting.isEmpty { waiting.removeFirst().succeed(response) }
        default:
            failWaiting(LiveClientError.malformedAnswer)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failWaiting(LiveClientError.connectionClosed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failWaiting(error)
        context.close(promise: nil)
    }

    private func failWaiting(_ error: any Error) {
        let failed = waiting
        waiting = []
        for answer in failed { answer.fail(error) }
    }
}

extension ImageServer {
    /// Starts this server on a free port, runs `body` with a client connected to it, then
    /// stops both.
    func test<Value: Sendable>(_ body: @Sendable (LiveClient) async throws -> Value) async throws -> Value {
        let running = try await start()
        let client: LiveClient
        do {
            client = try await LiveClient.connect(host: "127.0.0.1", port: running.port)
        } catch {
            try? await running.shutdown()
            throw error
        }
        do {
            let value = try await body(client)
            await client.close()
            try await running.shutdown()
            return value
        } catch {
            await client.close()
            try? await running.shutdown()
            throw error
        }
    }
}
