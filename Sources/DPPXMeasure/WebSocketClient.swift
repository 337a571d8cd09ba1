import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket client (RFC 6455) on swift-nio, as much of it as the DevTools protocol needs:
/// the HTTP/1.1 upgrade, text messages of any size (fragments joined by NIO's aggregator),
/// pings answered, and a closing handshake. Every received text message goes to `onText`, on
/// the connection's event loop, in order; `onClose` is called once when the connection ends.
public final class WebSocketClient: Sendable {
    /// The largest single frame or joined message accepted: a DevTools answer holding a page's
    /// measurements is a few hundred KB; a screenshot would be megabytes.
    public static let maximumMessageSize = 1 << 27

    private let channel: any Channel

    private init(channel: any Channel) { self.channel = channel }

    /// Connects to `url` (`ws://HOST:PORT/PATH`) and completes the upgrade.
    public static func connect(to url: String, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                               onText: @escaping @Sendable (String) -> Void,
                               onClose: @escaping @Sendable ((any Error)?) -> Void) async throws(MeasureError) -> WebSocketClient {
        guard let target = Target(url) else { throw .browser("its DevTools address '\(url)' is not a ws:// URL") }
        do {
            let upgraded: EventLoopFuture<(any Channel)?> = try await ClientBootstrap(group: group)
                .connect(host: target.host, port: target.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let upgrader = NIOTypedWebSocketClientUpgrader<(any Channel)?>(
                            maxFrameSize: maximumMessageSize,
                            upgradePipelineHandler: { channel, _ in
                                channel.eventLoop.makeCompletedFuture {
                                    let sync = channel.pipeline.syncOperations
                                    try sync.addHandler(NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16,
                                        maxAccumulatedFrameSize: maximumMessageSize))
                                    try sync.addHandler(FrameHandler(onText: onText, onClose: onClose))
                                    return channel
                                }
                            })
                        var headers = HTTPHeaders()
                        headers.add(name: "Host", value: "\(target.host):\(target.port)")
                        headers.add(name: "Content-Length", value: "0")
                        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.path, headers: headers)
                        let configuration = NIOTypedHTTPClientUpgradeConfiguration(
                            upgradeRequestHead: head, upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { nil } })
                        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                            configuration: .init(upgradeConfiguration: configuration))
                    }
                }
            guard let channel = try await upgraded.get() else { throw MeasureError.browser("its DevTools endpoint \(url) refused the WebSocket upgrade") }
            return WebSocketClient(channel: channel)
        } catch let error as MeasureError {
            throw error
        } catch {
            throw .browser("could not connect to its DevTools endpoint \(url): \(error)")
        }
    }

    /// Sends one text message (a single masked frame, as clients must).
    public func send(_ text: String) async throws(MeasureError) {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
        do { try await channel.writeAndFlush(frame) } catch { throw .browser("the DevTools connection failed while sending: \(error)") }
    }

    /// Sends a close frame and closes the connection.
    public func close() async {
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: ByteBuffer())
        try? await channel.writeAndFlush(frame)
        try? await channel.close()
    }

    /// Host, port and path of a `ws://` URL.
    struct Target {
        var host: String
        var port: Int
        var path: String

        init?(_ url: String) {
            guard url.hasPrefix("ws://") else { return nil }
            let rest = url.dropFirst(5)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<slash]
            path = slash == rest.endIndex ? "/" : String(rest[slash...])
            guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
                  (1...65535).contains(port) else { return nil }
            host = String(authority[..<colon]).trimmingCharacters(in: ["[", "]"])
            self.port = port
            guard !host.isEmpty else { return nil }
        }
    }
}
