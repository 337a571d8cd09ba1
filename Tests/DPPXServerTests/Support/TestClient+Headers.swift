import HTTPTypes
import HummingbirdTesting

/// Header names the tests send and read.
extension HTTPField.Name {
    static let secCHDPR = HTTPField.Name("Sec-CH-DPR")!
    static let dprHint = HTTPField.Name("DPR")!
    static let contentDPR = HTTPField.Name("Content-DPR")!
    static let acceptCH = HTTPField.Name("Accept-CH")!
}

extension TestClientProtocol {
    /// A GET (or `method`) with headers given as name/value pairs.
    func get(_ uri: String, method: HTTPRequest.Method = .get, _ headers: [(HTTPField.Name, String)] = []) async throws -> TestResponse {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: name, value: value)) }
        return try await execute(uri: uri, method: method, headers: fields)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
