import HTTPTypes
import NIOCore

/// A complete HTTP answer, as `Responder` decides it and `AnswerWriter` writes it: the
/// status, the head's field lines, and the body as parts (bytes made here, or stretches of
/// files that the writer takes from memory or streams from disk). It is self-contained: each
/// file part carries what reads it (`FileSlice`), so writing it asks nothing of the responder.
///
/// Every answer is one of these: files and negotiated variants, HTML pages with `Accept-CH` (and
/// the reload script in dev mode), error pages, redirects, 304, 416, and the server's own pages
/// under `/_dppx/` (`ServerPages`), the live-reload event stream included.
struct Answer {
    var status: HTTPResponse.Status
    /// One `Name: value` CRLF line per field, without `Date` and `Connection` (the writer adds
    /// those per request).
    var fieldLines: ByteBuffer
    /// Empty for HEAD, 304 and bodiless answers (whose `Content-Length` may still say more).
    var body: AnswerBody
    /// An endless body: the live-reload events, each sent as it comes (chunked) after `body`,
    /// until the stream ends. The head then has no `Content-Length`. Nil for every other answer.
    var events: AsyncStream<String>?
    /// The negotiated variant's URL (`Content-Location`), for the access log.
    var variant: String?
    /// The request cannot be read further (it is malformed): the connection closes after this.
    var closesConnection = false
    /// Set when the answer follows from ROOT's manifest and one file alone, so the same request
    /// again may be given it again while both are unchanged (`LastAnswer`).
    var decidedFrom: Source?

    /// What an answer was decided from.
    struct Source {
        let manifest: ManifestIndex
        /// The file, relative to ROOT.
        let path: Substring
        let file: FileIdentity
    }

    init(status: HTTPResponse.Status, fieldLines: ByteBuffer, body: AnswerBody = .empty, variant: String? = nil) {
        self.status = status
        self.fieldLines = fieldLines
        self.body = body
        self.variant = variant
    }

    /// A small answer made in memory (error pages, redirects): `Content-Length` is set here.
    init(status: HTTPResponse.Status, headers: HTTPFields, bytes: ByteBuffer, isHead: Bool) {
        var fields = headers
        fields[.contentLength] = String(bytes.readableBytes)
        self.init(status: status, fieldLines: HTTP1ResponseHead.fieldLines(fields),
                  body: isHead || bytes.readableBytes == 0 ? .empty : AnswerBody([.bytes(bytes)]))
    }

    /// The readable HTML page of a 404 or 400 (`ErrorPage`); `detail` in place of the status's
    /// usual sentence; `closes` for a request that cannot be read any further.
    static func errorPage(_ status: HTTPResponse.Status, path: String, message: String? = nil, isHead: Bool,
                          closes: Bool = false, detail: String? = nil) -> Answer {
        let usual = switch status {
        case .notFound: "there is no file at this path."
        case .methodNotAllowed: "only GET and HEAD are answered here."
        default: "this request cannot be served\(message.map { ": \($0)" } ?? "")."
        }
        let page = ErrorPage(status: status.code, title: status.reasonPhrase, path: path, detail: detail ?? usual)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        if status == .methodNotAllowed { headers[.allow] = "GET, HEAD" }
        var answer = Answer(status: status, headers: headers, bytes: ByteBuffer(string: page.html), isHead: isHead)
        answer.closesConnection = closes
        return answer
    }
}

/// An answer's body: byte buffers and stretches of files, in order.
///
/// A transformation of a body (a page with a script inserted, bytes added in front of a file)
/// is a list of parts, and `slice` serves a range of any such body, so range requests need no
/// knowledge of how the body was made.
struct AnswerBody {
    enum Part {
        case bytes(ByteBuffer)
        case file(FileSlice)

        /// The bytes to write from memory: a buffer's, and a file's when it is kept there and
        /// smaller than `AnswerPieces.sentByTheKernelFrom`; larger ones go by `sendfile`.
        var bytesToWrite: ByteBuffer? {
            switch self {
            case .bytes(let bytes): bytes
            case .file(let slice): slice.range.count < AnswerPieces.sentByTheKernelFrom ? slice.bytesInMemory : nil
            }
        }

        var count: Int {
            switch self {
            case .bytes(let buffer): buffer.readableBytes
            case .file(let slice): slice.range.count
            }
        }
    }

    let parts: [Part]

    init(_ parts: [Part]) {
        self.parts = parts
    }

    static let empty = AnswerBody([])

    /// Bytes in all.
    var count: Int { parts.reduce(0) { $0 + $1.count } }

    /// `range` (in body offsets) of this body.
    func slice(_ range: ClosedRange<Int>) -> AnswerBody {
        var result: [Part] = []
        var offset = 0
        for part in parts {
            let partRange = offset..<(offset + part.count)
            offset += part.count
            let wanted = partRange.clamped(to: range.lowerBound..<(range.upperBound + 1))
            guard !wanted.isEmpty else { continue }
            let local = (wanted.lowerBound - partRange.lowerBound)..<(wanted.upperBound - partRange.lowerBound)
            switch part {
            case .bytes(let buffer):
                result.append(.bytes(buffer.getSlice(at: buffer.readerIndex + local.lowerBound, length: local.count) ?? ByteBuffer()))
            case .file(let slice):
                let start = slice.range.lowerBound + local.lowerBound
                result.append(.file(slice.part(start..<(start + local.count))))
            }
        }
        return AnswerBody(result)
    }
}
