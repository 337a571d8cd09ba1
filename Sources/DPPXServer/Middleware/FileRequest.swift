import HTTPTypes
import HummingbirdCore

/// What `StaticResponder` reads from a request: the method, the target, and the few headers a
/// file answer depends on, gathered in one pass over the header lines. Built from Hummingbird's
/// request by the middleware, and straight from NIO's parsed head by `DirectFileHandler`, which so
/// skips the conversion to Swift HTTP types (a URL parse and a copy of every header) and a
/// lookup per header.
struct FileRequest {
    let isHead: Bool
    let uri: URI
    /// Every line of each header, in order.
    private(set) var secCHDPR: [String] = []
    private(set) var dpr: [String] = []
    private(set) var cookie: [String] = []
    private(set) var accept: [String] = []
    private(set) var ifNoneMatch: [String] = []
    private var ifModifiedSinceLines: [String] = []
    private var rangeLines: [String] = []
    private var ifRangeLines: [String] = []
    /// One of the headers read has a value Swift HTTP types would clean (control characters,
    /// bytes past ASCII, whitespace at either end): `DirectFileHandler` leaves such a request to
    /// Hummingbird, so both paths always read the same values.
    private(set) var hasUncleanValue = false

    /// `isHead`: a HEAD request (else a GET). `headers`: name and value of each line, names in
    /// any case.
    init(isHead: Bool, uri: URI, headers: some Sequence<(name: String, value: String)>) {
        self.isHead = isHead
        self.uri = uri
        for (name, value) in headers {
            switch name.utf8.count {
            case 3 where Self.named(name, "dpr"): dpr.append(value)
            case 5 where Self.named(name, "range"): rangeLines.append(value)
            case 6 where Self.named(name, "accept"): accept.append(value)
            case 6 where Self.named(name, "cookie"): cookie.append(value)
            case 8 where Self.named(name, "if-range"): ifRangeLines.append(value)
            case 10 where Self.named(name, "sec-ch-dpr"): secCHDPR.append(value)
            case 13 where Self.named(name, "if-none-match"): ifNoneMatch.append(value)
            case 17 where Self.named(name, "if-modified-since"): ifModifiedSinceLines.append(value)
            default: continue
            }
            if !hasUncleanValue, !Self.isClean(value) { hasUncleanValue = true }
        }
    }

    private static func isClean(_ value: String) -> Bool {
        let bytes = value.utf8
        guard let first = bytes.first, let last = bytes.last else { return true }
        return first != UInt8(ascii: " ") && first != UInt8(ascii: "\t") && last != UInt8(ascii: " ") && last != UInt8(ascii: "\t")
            && bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == UInt8(ascii: "\t") }
    }

    /// From Hummingbird's request (GET or HEAD).
    init(_ head: HTTPRequest, uri: URI) {
        self.init(isHead: head.method == .head, uri: uri,
                  headers: head.headerFields.lazy.map { (name: $0.name.canonicalName, value: $0.value) })
    }

    /// A header sent on several lines reads as one, joined with ", " (as Swift HTTP types do).
    var ifModifiedSince: String? { Self.single(ifModifiedSinceLines) }
    var range: String? { Self.single(rangeLines) }
    var ifRange: String? { Self.single(ifRangeLines) }

    private static func single(_ lines: [String]) -> String? {
        lines.count <= 1 ? lines.first : lines.joined(separator: ", ")
    }

    /// `name` equals `lowercase` (a lowercase ASCII name), ignoring ASCII case.
    private static func named(_ name: String, _ lowercase: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return name.utf8.elementsEqual(expected) { byte, lower in
            byte == lower || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == lower)
        }
    }
}
