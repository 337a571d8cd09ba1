import DPPXMeasure
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Testing

/// The DevTools WebSocket client against a NIO WebSocket server in this process, over a real
/// socket: a message in fragments, a message far larger than one default frame, a ping, text
/// both ways and a close the server starts.
@Suite("WebSocket client")
struct WebSocketClientTests {
    /// The server's side: what it sends on upgrade, what it saw.
    final class ScriptedPeer: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame
        static let large = String(repeating: "x", count: 300_000)
        let pongs = NIOLockedValueBox<[String]>([])
        let received = NIOLockedValueBox<[String]>([])

        func handlerAdded(context: ChannelHandlerContext) {
            func send(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) {
                context.write(wrapOutboundOut(WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(string: text))), promise: nil)
            }
            send(.text, "hel", fin: false)
            send(.continuation, "lo")
            send(.ping, "are you there")
            send(.text, Self.large)
            context.flush()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            let text = String(buffer: frame.unmaskedData)
            switch frame.opcode {
            case .pong:
                pongs.withLockedValue { $0.append(text) }
            case .text:
                received.withLockedValue { $0.append(text) }
                context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "echo: " + text))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer())), promise: nil)
            default:
                break
            }
        }
    }

    @Test("fragments are joined, large messages arrive whole, pings are answered, and a close the server starts ends the connection")
    func talksToAServer() async throws {
        let peer = ScriptedPeer()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 20,
                        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(peer) }
                        })
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)

        let texts = NIOLockedValueBox<[String]>([])
        let (closed, closing) = AsyncStream<String>.makeStream()
        let client = try await WebSocketClient.connect(
            to: "ws://127.0.0.1:\(port)/devtools/browser/1",
            onText: { text in texts.withLockedValue { $0.append(text) } },
            onClose: { error in closing.yield(error.map { "\($0)" } ?? "closed"); closing.finish() })
        // Wait for the two messages the server sends first.
        for _ in 0..<200 where texts.withLockedValue({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        try await client.send("{\"id\":1}")
        var reason: String?
        for await value in closed { reason = value }

        #expect(reason == "closed")
        let got = texts.withLockedValue { $0 }
        #expect(got.count == 3)
        #expect(got.first == "hello")
        #expect(got.dropFirst().first == ScriptedPeer.large)
        #expect(got.last == "echo: {\"id\":1}")
        #expect(peer.pongs.withLockedValue { $0 } == ["are you there"])
        #expect(peer.received.withLockedValue { $0 } == ["{\"id\":1}"])
        try await server.close()
    }

    @Test("a URL that is not ws:// is refused with the URL named")
    func refusesAnotherScheme() async {
        await #expect(throws: MeasureError.browser("its DevTools address 'http://127.0.0.1:9/' is not a ws:// URL")) {
            _ = try await WebSocketClient.connect(to: "http://127.0.0.1:9/", onText: { _ in }, onClose: { _ in })
        }
    }
}
