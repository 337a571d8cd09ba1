import DPPXCore
import HTTPTypes
import Hummingbird
import HummingbirdCore

/// What ROOT has for a request, worked out without waiting: the file (or the variant of an
/// image's 1x URL), its status and headers, and which bytes of it to send.
///
/// For a GET or HEAD outside `/_dppx/`, in one pass:
/// 1. `PathGuard`: no `..`, encoded separators or hidden files;
/// 2. a path ROOT's manifest lists as an image's 1x URL (`/images/hero.jpg`) is answered with
///    the variant `VariantChoice` picks from `?dpr=`, `Sec-CH-DPR`, `DPR`, the `dpr` cookie and
///    `Accept` (the file name comes from the manifest, never from the client), with `Vary`,
///    its density said the way `VariantChoice.signal` decided (EXIF density written into the
///    answer's bytes, else `Content-DPR`), `Content-Location`, `Cache-Control` (private when the
///    cookie decided) and a strong `ETag` from the variant's content hash;
/// 3. anything else is the file at that path (a folder: its `index.html`, or a redirect to
///    the path with its slash);
/// 4. `FileResponse` does the HTTP file work: `Content-Type`, `Last-Modified`, `ETag`,
///    conditional requests (304), single ranges (206, 416), HEAD, `--cache-control`.
///
/// Explicit variant URLs (`/images/hero@2x.jpg`) and vector images are plain files. It decides
/// without waiting; `StaticFileMiddleware` then reads or streams the bytes, or `DirectFileHandler`
/// sends them from memory.
struct StaticResponder: Sendable {
    let files: RootedFileSystem
    let manifests: ManifestStore
    let cachePolicy: CachePolicy
    private let headerCache = ResponseHeaderCache()
    private let densityPrefixes = DensityInsertionCache()

    init(files: RootedFileSystem, manifests: ManifestStore, cachePolicy: CachePolicy) {
        self.files = files
        self.manifests = manifests
        self.cachePolicy = cachePolicy
    }

    enum Answer {
        /// Not a file request (another method, or `/_dppx/`): the routes answer it.
        case notAFile
        /// A folder asked for without its trailing slash.
        case redirect(location: String)
        /// A file's answer; its body still to be read.
        case file(PreparedFile)
    }

    /// A file's status and headers, and the bytes of it the body is made of.
    struct PreparedFile {
        var status: HTTPResponse.Status
        /// The file's full-answer headers (`cached.fields`), with a range's changes for a 206.
        var headers: HTTPFields
        /// The file's full-answer headers as kept.
        let cached: ResponseHeaderCache.Headers
        /// The file answered with, relative to ROOT, without a leading slash.
        let path: Substring
        let file: FileIdentity
        /// Nil when there is no body (HEAD, 304).
        var body: Body?
        /// Set when the answer was decided from ROOT's manifest and `file` alone: the same
        /// request gets the same answer while the manifest is this same load and `path` still
        /// reaches `file` (`DirectFileHandler` reuses answers on that condition).
        var decidedWith: ManifestIndex?

        /// The bytes to send: `prefix`, then `file` of the file.
        struct Body {
            /// Sent before the file's bytes (a negotiated answer's EXIF density, with the file
            /// bytes before it), already cut to the request's range; nil for none.
            let prefix: ByteBuffer?
            let file: FilePart

            enum FilePart {
                case whole
                case range(ClosedRange<Int>)
                /// The range ends inside `prefix`.
                case none
            }

            /// The bytes `range` (nil: all) of a file of `fileSize` bytes sent as `prefix`
            /// followed by the file from `prefix.resumeOffset`.
            init(range: ClosedRange<Int>?, prefix: DensityInsertionCache.Prefix?, fileSize: Int) {
                guard let prefix else {
                    self.init(prefix: nil, file: range.map(FilePart.range) ?? .whole)
                    return
                }
                let count = prefix.bytes.readableBytes
                let wanted = range ?? 0...(count + fileSize - prefix.resumeOffset - 1)
                let prefixPart = min(wanted.lowerBound, count)..<min(wanted.upperBound + 1, count)
                let bytes = prefix.bytes.getSlice(at: prefix.bytes.readerIndex + prefixPart.lowerBound, length: prefixPart.count)
                guard wanted.upperBound >= count, prefix.resumeOffset < fileSize else {
                    self.init(prefix: bytes, file: .none)
                    return
                }
                let start = max(wanted.lowerBound, count) - count + prefix.resumeOffset
                self.init(prefix: bytes, file: .range(start...(wanted.upperBound - count + prefix.resumeOffset)))
            }

            private init(prefix: ByteBuffer?, file: FilePart) {
                self.prefix = prefix
                self.file = file
            }
        }
    }

    /// The answer to a GET or HEAD `request`. Throws the HTTP error to answer with (400, 404,
    /// 416) when the request cannot be served.
    func answer(to request: FileRequest) throws -> Answer {
        let uri = request.uri
        let rawPath = uri.path
        guard !ServerPages.owns(rawPath) else { return .notAFile }
        let path: String
        switch PathGuard.check(rawPath) {
        case .allowed(let decoded): path = decoded
        case .badRequest(let reason): throw HTTPError(.badRequest, message: reason)
        case .hidden: throw HTTPError(.notFound)
        }
        guard path.hasPrefix("/") else { throw HTTPError(.badRequest, message: "the path must start with '/'") }
        let relative = path.dropFirst()
        let manifest = manifests.index()
        var variantMissing = false
        if var variant = try variant(of: relative, in: manifest, request: request, variantMissing: &variantMissing) {
            variant.decidedWith = manifest
            return .file(variant)
        }

        guard let entry = files.entry(relative) else { throw HTTPError(.notFound) }
        if entry.isFolder {
            guard path.hasSuffix("/") else {
                return .redirect(location: rawPath + "/" + (uri.query.map { "?" + $0 } ?? ""))
            }
            let index = relative + "index.html"
            guard let indexEntry = files.entry(index), indexEntry.isRegularFile else { throw HTTPError(.notFound) }
            return .file(try plainFile(indexEntry, at: index).prepared(for: request))
        }
        guard entry.isRegularFile else { throw HTTPError(.notFound) }
        var plain = try plainFile(entry, at: relative).prepared(for: request)
        // A variant found missing could appear: then this answer would change.
        if !variantMissing { plain.decidedWith = manifest }
        return .file(plain)
    }

    private func plainFile(_ file: FileIdentity, at path: Substring) -> FileResponse {
        let headers = headerCache.headers(for: .init(path: path, file: file, variant: nil)) {
            FileResponse.headers(file: file, path: path, length: file.size, cachePolicy: cachePolicy)
        }
        return FileResponse(file: file, path: path, cached: headers, prefix: nil)
    }

    /// The negotiated answer for an image's 1x URL; nil when `relative` is not one (or its
    /// chosen variant is missing on disk, in which case the plain file is the answer).
    private func variant(of relative: Substring, in index: ManifestIndex, request: FileRequest,
                         variantMissing: inout Bool) throws -> PreparedFile? {
        guard let image = index.image(atBasePath: String(relative)), !image.densityIndependent,
              let choice = VariantChoice(image: image, dpr: ClientDPR(request), accept: AcceptHeader(request.accept))
        else { return nil }
        guard let file = files.entry(choice.variant.path), file.isRegularFile else {
            variantMissing = true
            return nil
        }
        let path = Substring(choice.variant.path)
        // EXIF density: bytes sent before the rest of the file. A file that cannot carry it
        // (not the JPEG or PNG the manifest says) gets the header instead.
        var signal = choice.signal
        var prefix: DensityInsertionCache.Prefix?
        if case .exif(let exif) = signal {
            if case .success(let made)? = densityPrefixes.prefix(writing: exif, into: choice.variant.format,
                                                                 path: files.root + "/" + path, file: file) {
                prefix = made
            } else {
                signal = .contentDPR(choice.variant.density)
            }
        }
        // A size other than the manifest's means a build is rewriting the file: the manifest's
        // hash cannot vouch for these bytes, so the file's own weak tag is used.
        let variant = VariantHeaders(choice: choice, cachePolicy: cachePolicy, hashTrusted: file.size == choice.variant.bytes, signal: signal)
        let length = file.size + (prefix.map { $0.bytes.readableBytes - $0.resumeOffset } ?? 0)
        let headers = headerCache.headers(for: .init(path: path, file: file, variant: variant.key)) {
            FileResponse.headers(file: file, path: path, length: length, cachePolicy: cachePolicy,
                                 entityTag: variant.hashTrusted ? variant.entityTag : nil, decorate: variant.apply)
        }
        // `If-Modified-Since` validates the variant these request headers choose: a cache that
        // keeps the answer per `Vary` sends it with the same headers.
        return try FileResponse(file: file, path: path, cached: headers, prefix: prefix).prepared(for: request)
    }
}

/// One file's HTTP response: validators, conditional requests, a single range, HEAD.
///
/// `cached` are the headers of the full answer, the same for every request for this version of
/// the file (`ResponseHeaderCache` keeps them); `prepared(for:)` adds what depends on the request.
struct FileResponse {
    let file: FileIdentity
    let path: Substring
    let cached: ResponseHeaderCache.Headers
    /// Sent before the file from `prefix.resumeOffset` on: the answer is that representation.
    let prefix: DensityInsertionCache.Prefix?

    /// The representation's length.
    var size: Int { file.size + (prefix.map { $0.bytes.readableBytes - $0.resumeOffset } ?? 0) }

    /// The headers of a full answer of `length` bytes: `Content-Type` from the extension,
    /// `Content-Length`, `Last-Modified`, `ETag` (`entityTag`, or a weak one from the size and
    /// modification time), `Accept-Ranges`, `Cache-Control`, then `decorate`'s.
    static func headers(file: FileIdentity, path: Substring, length: Int, cachePolicy: CachePolicy, entityTag: String? = nil,
                        decorate: (inout HTTPFields) -> Void = { _ in }) -> HTTPFields {
        var headers = HTTPFields()
        if let contentType = contentType(of: path) { headers[.contentType] = contentType }
        headers[.contentLength] = String(length)
        headers[.lastModified] = HTTPDate.format(file.modifiedSeconds)
        headers[.eTag] = entityTag
            ?? "W/\"\(String(file.size, radix: 16))-\(String(file.modifiedSeconds, radix: 16))\(String(file.modifiedNanoseconds, radix: 16))\""
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = cachePolicy.description
        decorate(&headers)
        return headers
    }

    /// The status, headers and body range that answer `request`; throws 416 for a range
    /// outside the file.
    func prepared(for request: FileRequest) throws -> StaticResponder.PreparedFile {
        var headers = cached.fields
        let entityTag = cached.entityTag
        let lastModified = cached.lastModified
        if !request.ifNoneMatch.isEmpty {
            if EntityTagList(request.ifNoneMatch).weaklyMatches(entityTag) { return answer(.notModified, headers) }
        } else if let since = request.ifModifiedSince.flatMap(HTTPDate.parse),
                  file.modifiedSeconds <= since {
            return answer(.notModified, headers)
        }

        var range: ClosedRange<Int>?
        if !request.isHead, let header = request.range {
            let ifRange = request.ifRange
            // A range applies only to the representation the client holds part of.
            let sameRepresentation = ifRange == nil || ifRange == entityTag || ifRange == lastModified
            switch ByteRange(header: header, size: size) {
            case .satisfiable(let bytes) where sameRepresentation:
                range = bytes
                headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
                headers[.contentLength] = String(bytes.count)
            case .unsatisfiable where ifRange == nil:
                throw HTTPError(.rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
            default:
                break  // the whole file
            }
        }
        if request.isHead { return answer(.ok, headers) }
        return answer(range == nil ? .ok : .partialContent, headers, body: .init(range: range, prefix: prefix, fileSize: file.size))
    }

    private func answer(_ status: HTTPResponse.Status, _ headers: HTTPFields,
                        body: StaticResponder.PreparedFile.Body? = nil) -> StaticResponder.PreparedFile {
        .init(status: status, headers: headers, cached: cached, path: path, file: file, body: body)
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
