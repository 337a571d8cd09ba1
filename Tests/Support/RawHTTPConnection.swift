import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP connection to the server under test: the request goes out byte for byte (no
/// client library normalising `..` or `%2e`), and the response is read as it arrives.
public final class RawHTTPConnection: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A parsed response.
    public struct Response {
        public let status: Int
        public let headers: [(name: String, value: String)]
        public let body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let descriptor: Int32

    /// `receiveBuffer`: the socket's receive buffer in bytes (`SO_RCVBUF`, set before connecting,
    /// so the window the server sees is that small), or the system's default.
    public init(port: Int, timeout: Duration = .seconds(10), receiveBuffer: Int? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var seconds = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // No close here on failure: `deinit` runs for an initializer that throws once every
        // property is set, and a second close would close whatever another thread opened since.
        guard result == 0 else {
            throw Failure(description: "connect to port \(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    public func sendBlocking(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Sends as much of `bytes` as the socket takes without waiting; how many it took.
    public func sendWithoutWaiting(_ bytes: [UInt8]) -> Int {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return max(0, sent)
    }

    /// Bytes read until the server ends the stream (or resets it, or `timeout` passes with
    /// nothing), and whether it was ended.
    public func drainBlocking() -> (bytes: Int, ended: Bool) {
        var total = 0
        while true {
            guard let chunk = try? receiveBlocking() else { return (total, false) }
            if chunk.isEmpty { return (total, true) }
            total += chunk.count
        }
    }

    /// Up to `count` bytes; empty at end of stream. Throws on timeout.
    public func receiveBlocking(upTo count: Int = 65536) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, 0) }
        guard received >= 0 else { throw Failure(description: "receive: \(String(cString: strerror(errno)))") }
        return Array(buffer.prefix(received))
    }

    /// Sends a GET (or `method`) for `target` with `headers`, and reads one response.
    public func requestBlocking(_ target: String, method: String = "GET", headers: [String: String] = [:]) throws -> Response {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        try sendBlocking(text + "\r\n")
        return try readResponseBlocking(bodyExpected: method != "HEAD")
    }

    /// Reads one response: head, then a `Content-Length` or chunked body.
    public func readResponseBlocking(bodyExpected: Bool = true) throws -> Response {
        try readRestBlocking(after: [], bodyExpected: bodyExpected)
    }

    /// Reads the rest of a response whose first bytes were already received.
    public func readRestBlocking(after received: [UInt8], bodyExpected: Bool = true) throws -> Response {
        var data = received
        let separator = Array("\r\n\r\n".utf8)
        var headEnd = Self.find(separator, in: data)
        while headEnd == nil {
            let chunk = try receiveBlocking()
            guard !chunk.isEmpty else { throw Failure(description: "connection closed before the response head") }
            data += chunk
            headEnd = Self.find(separator, in: data)
        }
        let head = String(decoding: data[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        var rest = Array(data[(headEnd! + 4)...])
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head[0])") }
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = { (body: [UInt8]) in Response(status: status, headers: headers, body: body) }
        guard bodyExpected, status != 304, status != 204 else { return response([]) }
        if let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }) {
            while rest.count < length {
                let chunk = try receiveBlocking()
                guard !chunk.isEmpty else { break }
                rest += chunk
            }
            return response(Array(rest.prefix(length)))
        }
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            var body: [UInt8] = []
            while true {
                while Self.find(Array("\r\n".utf8), in: rest) == nil {
                    let chunk = try receiveBlocking()
                    guard !chunk.isEmpty else { return response(body) }
                    rest += chunk
                }
                let lineEnd = Self.find(Array("\r\n".utf8), in: rest)!
                let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                rest.removeFirst(lineEnd + 2)
                if size == 0 { return response(body) }
                while rest.count < size + 2 {
                    let chunk = try receiveBlocking()
                    guard !chunk.isEmpty else { return response(body + rest) }
                    rest += chunk
                }
                body += rest[..<size]
                rest.removeFirst(size + 2)
            }
        }
        return response(rest)
    }

    /// Reads until `text` has arrived (for event streams); returns everything read.
    public func readBlocking(until text: String, limit: Int = 1 << 20) throws -> String {
        var data: [UInt8] = []
        let needle = Array(text.utf8)
        while Self.find(needle, in: data) == nil {
            let chunk = try receiveBlocking()
            guard !chunk.isEmpty else { throw Failure(description: "stream ended before '\(text)'; got: \(String(decoding: data, as: UTF8.self))") }
            data += chunk
            guard data.count < limit else { throw Failure(description: "no '\(text)' in \(limit) bytes") }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// True when the server closed the connection (a read returns end of stream).
    public func isClosedByServerBlocking() -> Bool {
        (try? receiveBlocking()) == []
    }

    // Async faces of the blocking calls above: each runs on its own thread (see `offPool`).

    public func send(_ text: String) async throws { try await offPool { try self.sendBlocking(text) } }

    public func receive(upTo count: Int = 65536) async throws -> [UInt8] { try await offPool { try self.receiveBlocking(upTo: count) } }

    public func request(_ target: String, method: String = "GET", headers: [String: String] = [:]) async throws -> Response {
        try await offPool { try self.requestBlocking(target, method: method, headers: headers) }
    }

    public func readResponse(bodyExpected: Bool = true) async throws -> Response {
        try await offPool { try self.readResponseBlocking(bodyExpected: bodyExpected) }
    }

    public func readRest(after received: [UInt8], bodyExpected: Bool = true) async throws -> Response {
        try await offPool { try self.readRestBlocking(after: received, bodyExpected: bodyExpected) }
    }

    public func read(until text: String, limit: Int = 1 << 20) async throws -> String {
        try await offPool { try self.readBlocking(until: text, limit: limit) }
    }

    public func isClosedByServer() async -> Bool {
        (try? await offPool { self.isClosedByServerBlocking() }) ?? false
    }

    /// One GET of `path` with `headers` and `Connection: close` on a connection of its own,
    /// read whole (for servers under test that are other processes: Varnish, `dppx serve`).
    public static func get(port: Int, path: String, headers: [String: String], timeout: Duration = .seconds(15)) throws -> Response {
        try RawHTTPConnection(port: port, timeout: timeout)
            .requestBlocking(path, headers: headers.merging(["Connection": "close"]) { mine, _ in mine })
    }

    public static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
