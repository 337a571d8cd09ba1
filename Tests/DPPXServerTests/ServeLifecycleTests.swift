import DPPXCore
@testable import DPPXServer
import DPPXTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("dppx serve starts, times out slow clients and stops cleanly")
struct ServeLifecycleTests {
    @Test("a port in use is a clear startup error")
    func portInUse() async throws {
        let fixture = try ServerFixture()
        let (socket, port) = try Self.listen()
        defer { close(socket) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let server = ImageServer(options: ServerOptions(root: fixture.root, host: "127.0.0.1", port: port),
                                 logger: logger, accessLog: nil)
        await #expect(throws: ServerError.portInUse(host: "127.0.0.1", port: port)) {
            _ = try await server.start()
        }
        #expect(ServerError.portInUse(host: "127.0.0.1", port: port).description.contains("choose another port, e.g. --port \(port + 1)"))
    }

    @Test("a missing ROOT, or a file as ROOT, is a clear startup error")
    func rootErrors() async throws {
        let fixture = try ServerFixture()
        let missing = ImageServer(options: ServerOptions(root: fixture.root + "/nope", port: 0), logger: Logger(label: "t"), accessLog: nil)
        await #expect(throws: ServerError.rootMissing(fixture.root + "/nope")) { _ = try await missing.start() }
        #expect(ServerError.rootMissing("Public").description.contains("dppx build SRC --out Public"))
        let file = ImageServer(options: ServerOptions(root: fixture.root + "/digits.txt", port: 0), logger: Logger(label: "t"), accessLog: nil)
        await #expect(throws: ServerError.rootNotFolder(fixture.root + "/digits.txt")) { _ = try await file.start() }
    }

    @Test("an unreadable manifest: static files are still served, and the log says why")
    func unreadableManifest() async throws {
        let fixture = try ServerFixture()
        try fixture.write(Manifest.fileName, "{ not json")
        let capture = LogCapture()
        let server = ImageServer(options: ServerOptions(root: fixture.root, port: 0), logger: capture.logger(), accessLog: nil)
        let running = try await server.start()
        let connection = try RawHTTPConnection(port: running.port)
        let image = try await connection.request("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"])
        #expect(image.status == 200)
        #expect(image.text == ServerFixture.heroBody(Density(1), .jpeg))
        #expect(image.header("Content-DPR") == nil)
        try await running.shutdown()
        let warning = capture.messages.first { $0.hasPrefix("warning:") } ?? ""
        #expect(warning.contains("dppx-manifest.json is not a valid dppx manifest"), "\(capture.messages)")
        #expect(warning.contains("served as plain static files until it is fixed"))
        #expect(capture.messages.filter { $0.contains(Manifest.fileName) }.count == 1, "one line: \(capture.messages)")
        #expect(capture.messages.contains { $0.contains("serving \(fixture.root) at http://127.0.0.1:\(running.port)/") })
    }

    @Test("graceful shutdown: a download in progress completes, then the server stops")
    func gracefulShutdown() async throws {
        let fixture = try ServerFixture()
        let bytes = [UInt8](repeating: 7, count: 16 * 1024 * 1024)
        try fixture.writeBytes("big.bin", bytes)
        let running = try await fixture.server().start()
        let connection = try RawHTTPConnection(port: running.port)
        try await connection.send("GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try await connection.receive(upTo: 1024)
        #expect(!first.isEmpty)
        async let stopped: Void = running.shutdown()
        // Read slowly at first so the shutdown begins mid-body.
        try await Task.sleep(for: .milliseconds(300))
        let response = try await connection.readRest(after: first)
        #expect(response.status == 200)
        // Every byte: once shutdown began, a connection is closed right after its answer is
        // written; CloseAfterWritesHandler holds that close until the bytes are sent.
        #expect(response.body.count == bytes.count)
        #expect(response.body.count > 1024, "the download went on after the shutdown began")
        try await stopped
        await #expect(throws: (any Error).self) { _ = try await RawHTTPConnection(port: running.port).request("/") }
    }

    @Test("a client that sends no complete request headers within the idle timeout is disconnected")
    func slowHeaders() async throws {
        // Timed to the second: not beside the tests that load the machine.
        try await ExclusiveTests.shared.run { try await self.slowHeadersExclusive() }
    }

    /// The rule, step by step: `ConnectionStateTests.idleDeadline` and `dribbledHeaders`. Here
    /// its wiring, with a short timeout.
    private func slowHeadersExclusive() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server(idleTimeout: .milliseconds(400)).start()
        // Closed before the client's own 3 s timeout, which `isClosedByServer` reports as open.
        let slow = try RawHTTPConnection(port: running.port, timeout: .seconds(3))
        try await slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        try await Task.sleep(for: .milliseconds(200))
        try await slow.send("a")
        #expect(await slow.isClosedByServer())

        let idle = try RawHTTPConnection(port: running.port, timeout: .seconds(3))
        #expect(try await idle.request("/digits.txt").status == 200)
        #expect(await idle.isClosedByServer())
        try await running.shutdown()
    }

    @Test("clients dribbling header bytes are cut off at the timeout even while sending, and never hold back other connections")
    func slowClientsDoNotBlockOthers() async throws {
        try await ExclusiveTests.shared.run { try await self.slowClientsDoNotBlockOthersExclusive() }
    }

    private func slowClientsDoNotBlockOthersExclusive() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server(idleTimeout: .seconds(3)).start()
        let port = running.port
        do {
            let slow = try await offPool { try (0..<16).map { _ in try RawHTTPConnection(port: port, timeout: .seconds(4)) } }
            // Each slow client sends a request line, then one header byte every 250 ms for 3.5 s:
            // past the 3 s timeout, so only a deadline that reads do not reset cuts them off (the
            // rule, step by step: `ConnectionStateTests.dribbledHeaders`).
            async let dribbled: Int = offPool {
                var started = 0
                for connection in slow where (try? connection.sendBlocking("GET /digits.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")) != nil {
                    started += 1
                }
                for _ in 0..<14 {
                    usleep(250_000)
                    for connection in slow { try? connection.sendBlocking("a") }
                }
                return started
            }
            var slowest: Duration = .zero
            for _ in 0..<4 {
                try await Task.sleep(for: .milliseconds(500))
                let started = ContinuousClock.now
                let response = try await offPool { try RawHTTPConnection(port: port, timeout: .seconds(5)).requestBlocking("/digits.txt") }
                slowest = max(slowest, ContinuousClock.now - started)
                #expect(response.status == 200)
                #expect(response.text == "0123456789")
            }
            #expect(try await dribbled == 16)
            // Held back would mean waiting for the slow clients to be cut off, 3 s in (2.5 s for
            // the first request); the margin below that absorbs a busy 2-core machine.
            #expect(slowest < .milliseconds(1500), "a normal request took \(slowest) while 16 clients dribbled")
            // Closed by the server: end of stream, or a reset because the client kept writing.
            let stillOpen = try await offPool {
                slow.filter { connection in
                    do { return try !connection.receiveBlocking().isEmpty } catch {
                        return !String(describing: error).contains("reset")
                    }
                }.count
            }
            #expect(stillOpen == 0, "\(stillOpen) of 16 dribbling clients were still connected after 3.5 s with a 3 s timeout")
        } catch {
            try? await running.shutdown()
            throw error
        }
        try await running.shutdown()
    }

    /// A listening socket on a free port of 127.0.0.1.
    static func listen() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && Glibc.listen(descriptor, 1) == 0
                    && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw RawHTTPConnection.Failure(description: "cannot listen: \(String(cString: strerror(errno)))") }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// The close-after-writes rule on its own, deterministic: `SlowSocket` stands for a socket
/// whose client reads slowly, completing writes only when the test says so.
@Suite("a connection closes only after its written bytes are sent")
struct CloseAfterWritesTests {
    final class SlowSocket: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = Any
        private var held: [EventLoopPromise<Void>?] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            // Like a socket: an empty write behind nothing is sent at once.
            if held.isEmpty, case .byteBuffer(let buffer) = unwrapOutboundIn(data) as? IOData, buffer.readableBytes == 0 {
                promise?.succeed()
                return
            }
            held.append(promise)
        }
        func flush(context: ChannelHandlerContext) {}
        /// The client finally read everything.
        func sendAll() {
            let promises = held
            held = []
            for promise in promises { promise?.succeed() }
        }
    }

    func connected(wait: TimeAmount) throws -> (EmbeddedChannel, SlowSocket) {
        let socket = SlowSocket()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(socket)
        try channel.pipeline.syncOperations.addHandler(CloseAfterWritesHandler(maximumWait: wait))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, socket)
    }

    @Test("a close waits until the written bytes are sent, then happens")
    func holdsClose() throws {
        let (channel, socket) = try connected(wait: .seconds(30))
        channel.write(IOData.byteBuffer(ByteBuffer(string: "HTTP/1.1 200 OK\r\n\r\n")), promise: nil)
        channel.writeAndFlush(IOData.byteBuffer(ByteBuffer(string: "last bytes of a download")), promise: nil)
        let closed = channel.close()
        channel.embeddedEventLoop.run()
        #expect(channel.isActive, "closed while bytes were still pending")
        socket.sendAll()
        channel.embeddedEventLoop.run()
        try closed.wait()
        #expect(!channel.isActive)
    }

    @Test("a client that stops reading holds the close for at most the wait")
    func boundedWait() throws {
        let (channel, _) = try connected(wait: .seconds(5))
        channel.writeAndFlush(IOData.byteBuffer(ByteBuffer(string: "never read")), promise: nil)
        let closed = channel.close()
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        try closed.wait()
        #expect(!channel.isActive)
    }

    @Test("with nothing pending, a close is immediate")
    func immediate() throws {
        let (channel, _) = try connected(wait: .seconds(30))
        try channel.close().wait()
        #expect(!channel.isActive)
    }
}
