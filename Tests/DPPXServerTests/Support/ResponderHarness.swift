import DPPXRewrite
@testable import DPPXServer
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix

/// Drives a server's `Responder` without a socket: a request in, its `Answer` out, by the path
/// a connection takes (`Responder.answer(to:on:)`: the request from its head, the decision, the
/// read or the making off the loop it waits for), on one of NIO's event loops. For the
/// negotiation and header matrices; what the wire adds (`Date`, `Connection`, `nosniff`,
/// keep-alive, pipelining, timeouts) stays with the socket tests (`LiveClient`).
struct ResponderHarness: Sendable {
    let responder: Responder
    private let eventLoop: any EventLoop
    /// Kept while the harness is: its ROOT goes with it.
    private let fixture: ServerFixture?

    /// The responder `server` would answer with, its manifest read as `start` reads it;
    /// `fixture`, the ROOT it serves, is kept alive with the harness.
    init(_ server: ImageServer, of fixture: ServerFixture? = nil) {
        self.fixture = fixture
        _ = server.manifests.reload()
        responder = server.makeResponder()
        eventLoop = MultiThreadedEventLoopGroup.singleton.next()
    }

    /// The answer to a GET (or `method`) of `path` with `headers` given as name/value pairs (as
    /// `LiveClient.get` takes them) and `Host: localhost`, as a browser sends; its body read whole.
    func answer(_ path: String, method: HTTPRequest.Method = .get, _ headers: [(HTTPField.Name, String)] = [],
                version: HTTPVersion = .http1_1, host: Bool = true) async throws -> Answered {
        var fields = HTTPHeaders()
        if host { fields.add(name: "Host", value: "localhost") }
        for (name, value) in headers { fields.add(name: name.rawName, value: value) }
        let head = HTTPRequestHead(version: version, method: HTTPMethod(rawValue: method.rawValue), uri: path, headers: fields)
        let (responder, eventLoop) = (self.responder, self.eventLoop)
        return try await eventLoop.flatSubmit { () -> EventLoopFuture<Answered> in
            switch responder.answer(to: head, on: eventLoop) {
            case .now(let answer):
                return eventLoop.makeCompletedFuture { try Answered(answer) }
            case .later(let answer):
                return answer.assumeIsolated().flatMapThrowing { try Answered($0) }.nonisolated()
            }
        }.get()
    }

    /// An `Answer` as a client would read it, less what the writer adds.
    struct Answered: Sendable {
        let status: HTTPResponse.Status
        /// The head's fields, in order, less those the writer adds to every answer (`Date`,
        /// `Connection`, `X-Content-Type-Options`: `HTTP1ResponseHead`).
        let headers: HTTPFields
        /// The body's bytes: the answer's own, and its file slices' (from memory, else from disk).
        let body: ByteBuffer
        /// The connection closes after this answer.
        let closesConnection: Bool
        /// The negotiated variant's URL, as the access log has it.
        let variant: String?

        var text: String { String(buffer: body) }
        var bytes: [UInt8] { Array(body.readableBytesView) }

        /// A header's value by name, any case (for tests written against `RawHTTPConnection`).
        func header(_ name: String) -> String? {
            HTTPField.Name(name).flatMap { headers[$0] }
        }

        init(_ answer: Answer) throws {
            status = answer.status
            var fields = HTTPFields()
            for line in String(buffer: answer.fieldLines).split(separator: "\r\n") {
                guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                    throw HarnessError.malformedFieldLine(String(line))
                }
                fields.append(HTTPField(name: name, value: String(line[line.index(after: colon)...].drop { $0 == " " })))
            }
            headers = fields
            var body = ByteBuffer()
            for part in answer.body.parts {
                switch part {
                case .bytes(var bytes): body.writeBuffer(&bytes)
                case .file(let slice): var bytes = try Self.bytes(of: slice); body.writeBuffer(&bytes)
                }
            }
            self.body = body
            closesConnection = answer.closesConnection
            variant = answer.variant
        }

        /// A slice's bytes from memory, else read from its file while it is the version the slice
        /// names (as the writer sends it).
        private static func bytes(of slice: FileSlice) throws -> ByteBuffer {
            if let bytes = slice.bytesInMemory { return bytes }
            guard let handle = slice.open() else { throw HarnessError.fileChanged(slice.path) }
            defer { try? handle.close() }
            var buffer = ByteBuffer()
            try handle.withUnsafeFileDescriptor { descriptor in
                var offset = slice.range.lowerBound
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                while offset < slice.range.upperBound {
                    let wanted = min(chunk.count, slice.range.upperBound - offset)
                    let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
                    guard read > 0 else { throw HarnessError.fileChanged(slice.path) }
                    buffer.writeBytes(chunk[..<read])
                    offset += read
                }
            }
            return buffer
        }
    }

    enum HarnessError: Error {
        case malformedFieldLine(String)
        /// A file part's file is no longer the version the answer was decided from.
        case fileChanged(String)
    }
}

extension ServerFixture {
    /// The responder of `server(...)` with the same settings, driven without a socket.
    func responder(cachePolicy: CachePolicy = .revalidate, rewrite: RewriteOptions? = nil,
                   inspector: Bool = true) -> ResponderHarness {
        ResponderHarness(server(cachePolicy: cachePolicy, rewrite: rewrite, inspector: inspector), of: self)
    }
}
