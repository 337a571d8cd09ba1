import HTTPTypes
import NIOCore

/// The headers of a file's full answer, built once per version of the file (and, for a
/// variant, per way it was negotiated) instead of on every request: the content type, dates,
/// validators and `Content-Location` are the same each time, and formatting them cost about 6 %
/// of the server's CPU for a small file.
///
/// Keys include the file's identity, so a replaced file gets new headers. Bounded
/// (`BoundedCache`), so endless distinct URLs cannot grow the server.
final class AnswerHeaderCache: Sendable {
    struct Key: Hashable {
        let path: Substring
        let file: FileIdentity
        let variant: VariantHeaders.Key?
    }

    /// A full answer's headers, the same as HTTP/1.1 field lines (`HTTP1ResponseHead`), and the
    /// few of them each request looks at, read once (a lookup in `HTTPFields` is not free).
    struct Headers {
        let fields: HTTPFields
        let fieldLines: ByteBuffer
        /// The field lines of a 304: all but `Content-Length`.
        let notModifiedFieldLines: ByteBuffer
        let entityTag: String
        let lastModified: String?
        let contentLocation: String?
        let isHTMLPage: Bool

        init(_ fields: HTTPFields) {
            self.fields = fields
            fieldLines = HTTP1ResponseHead.fieldLines(fields)
            notModifiedFieldLines = HTTP1ResponseHead.fieldLines(fields, omittingContentLength: true)
            entityTag = fields[.eTag] ?? ""
            lastModified = fields[.lastModified]
            contentLocation = fields[.contentLocation]
            isHTMLPage = fields.isHTMLPage
        }
    }

    private let entries: BoundedCache<Key, Headers>

    init(maxEntries: Int = 4096) {
        entries = BoundedCache(maxEntries: maxEntries)
    }

    /// The headers for `key`, made with `make` the first time.
    func headers(for key: Key, make: () -> HTTPFields) -> Headers {
        entries.value(for: key) { Headers(make()) }
    }
}
