import DPPXCore
import Foundation
import HTTPTypes
import Hummingbird

/// Serves ROOT: each file as it is, and for an image's 1x URL the variant the client needs.
///
/// For a GET or HEAD outside `/_dppx/`, in one pass:
/// 1. `PathGuard`: no `..`, encoded separators or hidden files;
/// 2. a path ROOT's manifest lists as an image's 1x URL (`/images/hero.jpg`) is answered with
///    the variant `VariantChoice` picks from `?dpr=`, `Sec-CH-DPR`, `DPR`, the `dpr` cookie and
///    `Accept` (the file name comes from the manifest, never from the client), with `Vary`,
///    `Content-DPR`, `Content-Location`, `Cache-Control` (private when the cookie decided)
///    and a strong `ETag` from the variant's content hash;
/// 3. anything else is the file at that path (a folder: its `index.html`, or a redirect to
///    the path with its slash);
/// 4. `FileResponse` does the HTTP file work: `Content-Type`, `Last-Modified`, `ETag`,
///    conditional requests (304), single ranges (206, 416), HEAD, `--cache-control`.
///
/// Explicit variant URLs (`/images/hero@2x.jpg`) and vector images are plain files. Other
/// methods and `/_dppx/` go on to the routes.
public struct StaticFileMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: RootedFileSystem
    let manifests: ManifestStore
    let cachePolicy: CachePolicy

    public init(files: RootedFileSystem, manifests: ManifestStore, cachePolicy: CachePolicy) {
        self.files = files
        self.manifests = manifests
        self.cachePolicy = cachePolicy
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let rawPath = request.uri.path
        guard request.method == .get || request.method == .head, !ServerPages.owns(rawPath) else {
            return try await next(request, context)
        }
        let path: String
        switch PathGuard.check(rawPath) {
        case .allowed(let decoded): path = decoded
        case .badRequest(let reason): throw HTTPError(.badRequest, message: reason)
        case .hidden: throw HTTPError(.notFound)
        }
        guard path.hasPrefix("/") else { throw HTTPError(.badRequest, message: "the path must start with '/'") }
        let relative = path.dropFirst()
        if let response = try await variant(of: relative, request: request, context: context) { return response }

        guard let entry = files.entry(relative) else { throw HTTPError(.notFound) }
        if entry.isFolder {
            guard path.hasSuffix("/") else {
                let query = request.uri.query.map { "?" + $0 } ?? ""
                return .redirect(to: rawPath + "/" + query, type: .permanent)
            }
            let index = relative + "index.html"
            guard let indexEntry = files.entry(index), indexEntry.isRegularFile else { throw HTTPError(.notFound) }
            return try await FileResponse(file: indexEntry, path: index, cachePolicy: cachePolicy)
                .response(to: request, files: files, context: context)
        }
        guard entry.isRegularFile else { throw HTTPError(.notFound) }
        return try await FileResponse(file: entry, path: relative, cachePolicy: cachePolicy)
            .response(to: request, files: files, context: context)
    }

    /// The negotiated answer for an image's 1x URL; nil when `relative` is not one (or its
    /// chosen variant is missing on disk, in which case the plain file is the answer).
    private func variant(of relative: Substring, request: Request, context: Context) async throws -> Response? {
        guard let image = manifests.index().image(atBasePath: String(relative)), !image.densityIndependent,
              let choice = VariantChoice(image: image, dpr: request.clientDPR, accept: AcceptHeader(request.headers[values: .accept])),
              let file = files.entry(choice.variant.path), file.isRegularFile
        else { return nil }
        // A size other than the manifest's means a build is rewriting the file: the manifest's
        // hash cannot vouch for these bytes, so the file's own weak tag is used.
        let headers = VariantHeaders(choice: choice, cachePolicy: cachePolicy, hashTrusted: file.size == choice.variant.bytes)
        var response = FileResponse(file: file, path: Substring(choice.variant.path), cachePolicy: cachePolicy)
        if headers.hashTrusted { response.entityTag = headers.entityTag }
        // Every variant is written by the same build within the same second: a date cannot
        // tell them apart, only the tag can.
        response.honoursModifiedSince = false
        response.decorate = headers.apply
        return try await response.response(to: request, files: files, context: context)
    }
}

/// One file's HTTP response: validators, conditional requests, a single range, HEAD.
struct FileResponse {
    let file: FileIdentity
    let path: Substring
    let cachePolicy: CachePolicy
    /// Weak by default (size and modification time); a negotiated variant sets its strong one.
    var entityTag: String
    /// `If-Modified-Since` is evaluated (when there is no `If-None-Match`).
    var honoursModifiedSince = true
    /// Extra headers, set on every answer (200, 206, 304).
    var decorate: (inout HTTPFields) -> Void = { _ in }

    init(file: FileIdentity, path: Substring, cachePolicy: CachePolicy) {
        self.file = file
        self.path = path
        self.cachePolicy = cachePolicy
        self.entityTag = "W/\"\(String(file.size, radix: 16))-\(String(file.modifiedSeconds, radix: 16))\(String(file.modifiedNanoseconds, radix: 16))\""
    }

    func response(to request: Request, files: RootedFileSystem, context: some RequestContext) async throws -> Response {
        let lastModified = HTTPDate.format(file.modifiedSeconds)
        var headers = HTTPFields()
        if let contentType = Self.contentType(of: path) { headers[.contentType] = contentType }
        headers[.contentLength] = String(file.size)
        headers[.lastModified] = lastModified
        headers[.eTag] = entityTag
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = cachePolicy.description
        decorate(&headers)

        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty {
            if EntityTagList(ifNoneMatch).weaklyMatches(entityTag) { return Response(status: .notModified, headers: headers) }
        } else if honoursModifiedSince, let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse),
                  file.modifiedSeconds <= since {
            return Response(status: .notModified, headers: headers)
        }

        var range: ClosedRange<Int>?
        if request.method == .get, let header = request.headers[.range] {
            let ifRange = request.headers[.ifRange]
            // A range applies only to the representation the client holds part of.
            let sameRepresentation = ifRange == nil || ifRange == entityTag || (honoursModifiedSince && ifRange == lastModified)
            switch ByteRange(header: header, size: file.size) {
            case .satisfiable(let bytes) where sameRepresentation:
                range = bytes
                headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(file.size)"
                headers[.contentLength] = String(bytes.count)
            case .unsatisfiable where ifRange == nil:
                throw HTTPError(.rangeNotSatisfiable, headers: [.contentRange: "bytes */\(file.size)"])
            default:
                break  // the whole file
            }
        }
        if request.method == .head { return Response(status: .ok, headers: headers, body: ResponseBody()) }
        let body = try await files.body(of: path, identity: file, range: range, context: context)
        return Response(status: range == nil ? .ok : .partialContent, headers: headers, body: body)
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
