import DPPXServer
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// Header names the tests send and read.
extension HTTPField.Name {
    static let secCHDPR = HTTPField.Name("Sec-CH-DPR")!
    static let dprHint = HTTPField.Name("DPR")!
    static let contentDPR = HTTPField.Name("Content-DPR")!
    static let acceptCH = HTTPField.Name("Accept-CH")!
}

/// An HTTP client of a server under test, over a real socket, on one keep-alive connection
/// (Hummingbird's test client).
struct LiveClient: Sendable {
    let client: TestClient

    /// A GET (or `method`) with headers given as name/value pairs.
    func get(_ uri: String, method: HTTPRequest.Method = .get, _ headers: [(HTTPField.Name, String)] = []) async throws -> LiveResponse {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: name, value: value)) }
        return try await execute(uri: uri, method: method, headers: fields)
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields) async throws -> LiveResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(TestClient.Request(uri, method: method, authority: "localhost", headers: headers))
        return LiveResponse(head: response.head, body: response.body ?? ByteBuffer())
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

extension ImageServer {
    /// Starts this server on a free port, runs `body` with a client connected to it, then
    /// stops both.
    func test<Value: Sendable>(_ body: @Sendable (LiveClient) async throws -> Value) async throws -> Value {
        let running = try await start()
        let client = TestClient(host: "127.0.0.1", port: running.port, configuration: .init(timeout: .seconds(20)))
        client.connect()
        do {
            let value = try await body(LiveClient(client: client))
            try await client.shutdown()
            try await running.shutdown()
            return value
        } catch {
            try? await client.shutdown()
            try? await running.shutdown()
            throw error
        }
    }
}
