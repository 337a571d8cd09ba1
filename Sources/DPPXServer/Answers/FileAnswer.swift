import DPPXCore
import HTTPTypes
import Hummingbird
import NIOCore

/// One file's HTTP answer: validators, conditional requests, a single range, HEAD.
///
/// `cached` are the headers of the full answer, the same for every request for this version of
/// the file (`AnswerHeaderCache` keeps them); `answer(to:body:)` adds what depends on the
/// request.
struct FileAnswer {
    let file: FileIdentity
    let cached: AnswerHeaderCache.Headers

    /// The headers of a full answer of `length` bytes: `Content-Type` from the extension,
    /// `Content-Length`, `Last-Modified`, `ETag` (a weak one from the size and modification
    /// time; a variant's `decorate` puts its strong tag in its place), `Accept-Ranges`,
    /// `Cache-Control`, `Accept-CH` on HTML pages, `SVGPolicy`'s on SVGs, then `decorate`'s.
    static func headers(file: FileIdentity, path: Substring, length: Int, cachePolicy: CachePolicy,
                        decorate: (inout HTTPFields) -> Void = { _ in }) -> HTTPFields {
        var headers = HTTPFields()
        if let contentType = contentType(of: path) { headers[.contentType] = contentType }
        headers[.contentLength] = String(length)
        headers[.lastModified] = HTTPDate.format(file.modifiedSeconds)
        headers[.eTag] = "W/\"\(String(file.size, radix: 16))-\(String(file.modifiedSeconds, radix: 16))\(String(file.modifiedNanoseconds, radix: 16))\""
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = cachePolicy.description
        if headers.isHTMLPage { headers[.acceptCH] = Responder.acceptCH }
        SVGPolicy.apply(to: &headers)
        decorate(&headers)
        return headers
    }

    /// The answer to `request` whose full body is `body`: 304, 206, 416, HEAD or 200.
    func answer(to request: ClientRequest, body: AnswerBody) -> Answer {
        let entityTag = cached.entityTag
        let variant = cached.contentLocation
        if !request.ifNoneMatch.isEmpty {
            if EntityTagList(request.ifNoneMatch).weaklyMatches(entityTag) { return notModified() }
        } else if let since = request.ifModifiedSince.flatMap(HTTPDate.parse),
                  file.modifiedSeconds <= since {
            return notModified()
        }
        if request.method != .head, let header = request.range {
            let ifRange = request.ifRange
            // A range applies only to the representation the client holds part of, compared
            // strongly (RFC 9110 13.1.5): a weak tag never matches, so its client gets it whole.
            let sameRepresentation = ifRange == nil || (ifRange == entityTag && !entityTag.hasPrefix("W/"))
                || ifRange == cached.lastModified
            let size = body.count
            switch ByteRange(header: header, size: size) {
            case .satisfiable(let bytes) where sameRepresentation:
                var headers = cached.fields
                headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
                headers[.contentLength] = String(bytes.count)
                return Answer(status: .partialContent, fieldLines: HTTP1ResponseHead.fieldLines(headers),
                              body: body.slice(bytes), variant: variant)
            case .unsatisfiable where ifRange == nil:
                return Answer(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"], bytes: ByteBuffer(),
                              isHead: false)
            default:
                break  // the whole body
            }
        }
        return Answer(status: .ok, fieldLines: cached.fieldLines, body: request.method == .head ? .empty : body, variant: variant)
    }

    /// 304: the full answer's headers but `Content-Length`, no body.
    private func notModified() -> Answer {
        Answer(status: .notModified, fieldLines: cached.notModifiedFieldLines, variant: cached.contentLocation)
    }

    /// From the extension: Hummingbird's table, then the image formats it lacks (AVIF, HEIC),
    /// without which a browser sniffs, and some refuse an AVIF.
    static func contentType(of path: Substring) -> String? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let fileExtension = String(path[path.index(after: dot)...])
        if let known = MediaType.getMediaType(forExtension: fileExtension) { return known.description }
        return ImageFormat(fileExtension: Substring(fileExtension))?.mediaType
    }
}
