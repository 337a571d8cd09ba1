@testable import DPPXServer
import NIOCore
import NIOEmbedded
import Testing

/// A connection's pipeline as `ConnectionPipeline` sets it up, driven without a socket: request bytes
/// in, answer bytes out, in order.
@Suite("a connection's pipeline")
struct ConnectionPipelineTests {
    /// A connected channel with `ConnectionPipeline`'s handlers over ROOT of a `ServerFixture`.
    static func connected(_ fixture: ServerFixture) throws -> EmbeddedChannel {
        let files = RootedFileSystem(root: fixture.root)
        let manifests = ManifestStore(root: fixture.root, recheckInterval: .seconds(3600))
        let pages = ServerPages(manifests: manifests, files: files, session: nil, templatesFolder: nil, inspector: false)
        let responder = Responder(files: files, manifests: manifests, pages: pages, cachePolicy: .revalidate)
        let channel = EmbeddedChannel()
        try ConnectionPipeline(timeout: .seconds(30), responder: responder, accessLog: nil).configure(channel).wait()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// Everything written to the socket so far, as text.
    static func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let data = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let buffer) = data else {
                Issue.record("a file region where bytes from memory were expected")
                continue
            }
            text += String(buffer: buffer)
        }
        return text
    }

    /// The status lines of `text`, in order (a body's last line has no CRLF of its own).
    static func statusLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("HTTP/1.1 ") }.map(String.init)
    }

    @Test("pipelined requests, one with a body and one asking for an upgrade, are answered in order, as bytes")
    func pipelinedRequests() throws {
        let fixture = try ServerFixture()
        let channel = try Self.connected(fixture)
        defer { _ = try? channel.finish() }
        try channel.writeInbound(ByteBuffer(string:
            "POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            + "GET /docs HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /missing HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n"))
        let text = try Self.written(channel)
        #expect(Self.statusLines(text) == ["HTTP/1.1 405 Method Not Allowed", "HTTP/1.1 301 Moved Permanently", "HTTP/1.1 404 Not Found"])
        #expect(text.contains("Location: /docs/\r\n"))
        #expect(channel.isActive, "kept open: no request asked to close")
    }

    @Test("a request that cannot be parsed is answered 400 and the connection closes")
    func malformedRequest() throws {
        let fixture = try ServerFixture()
        let channel = try Self.connected(fixture)
        defer { _ = try? channel.finish() }
        _ = try? channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost x\r\n\r\n"))
        channel.embeddedEventLoop.run()
        let text = try Self.written(channel)
        #expect(Self.statusLines(text) == ["HTTP/1.1 400 Bad Request"])
        #expect(text.contains("Connection: close\r\n"))
        #expect(!channel.isActive)
    }
}
