import HTTPTypes
import HummingbirdCore
import NIOHTTP1

/// Every request as the responders read it (`Responder`, `ServerPages`): the method, the
/// target, and the few headers an answer depends on, gathered in one pass over the header lines
/// of NIO's parsed head (no conversion to Swift HTTP types, no lookup per header).
struct ClientRequest {
    enum Method {
        case get, head
        /// Anything else: 405.
        case other
    }

    let method: Method
    let uri: URI
    /// Every line of each header, in order.
    private(set) var secCHDPR: [String] = []
    private(set) var dpr: [String] = []
    private(set) var secCHWidth: [String] = []
    private(set) var secCHViewportWidth: [String] = []
    private(set) var cookie: [String] = []
    private(set) var accept: [String] = []
    private(set) var ifNoneMatch: [String] = []
    private var ifModifiedSinceLines: [String] = []
    private var rangeLines: [String] = []
    private var ifRangeLines: [String] = []
    /// How many `Host` lines the request has (RFC 9112: exactly one in HTTP/1.1).
    private(set) var hostCount = 0

    /// `headers`: name and value of each line, names in any case.
    init(method: Method, uri: URI, headers: some Sequence<(name: String, value: String)>) {
        self.method = method
        self.uri = uri
        for (name, value) in headers {
            switch name.utf8.count {
            case 3 where Self.named(name, "dpr"): dpr.append(Self.trimmed(value))
            case 4 where Self.named(name, "host"): hostCount += 1
            case 5 where Self.named(name, "range"): rangeLines.append(Self.trimmed(value))
            case 6 where Self.named(name, "accept"): accept.append(Self.trimmed(value))
            case 6 where Self.named(name, "cookie"): cookie.append(Self.trimmed(value))
            case 8 where Self.named(name, "if-range"): ifRangeLines.append(Self.trimmed(value))
            case 10 where Self.named(name, "sec-ch-dpr"): secCHDPR.append(Self.trimmed(value))
            case 12 where Self.named(name, "sec-ch-width"): secCHWidth.append(Self.trimmed(value))
            case 21 where Self.named(name, "sec-ch-viewport-width"): secCHViewportWidth.append(Self.trimmed(value))
            case 13 where Self.named(name, "if-none-match"): ifNoneMatch.append(Self.trimmed(value))
            case 17 where Self.named(name, "if-modified-since"): ifModifiedSinceLines.append(Self.trimmed(value))
            default: continue
            }
        }
    }

    /// The request NIO parsed.
    init(_ head: HTTPRequestHead) {
        let method: Method = switch head.method {
        case .GET: .get
        case .HEAD: .head
        default: .other
        }
        self.init(method: method, uri: URI(head.uri), headers: head.headers)
    }

    /// A field value without the spaces and tabs around it (RFC 9110 5.5): a no-op, without
    /// copying, for the usual value.
    private static func trimmed(_ value: String) -> String {
        let bytes = value.utf8
        guard let first = bytes.first, let last = bytes.last,
              first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t")
        else { return value }
        return String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
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
