import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXRewrite
import HTTPTypes
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The one place that decides what every request is answered with: a complete `Answer`, which
/// `AnswerWriter` writes. It serves files, negotiates variants, rewrites pages, and hands the
/// server's own pages (`/_dppx/`) to `ServerPages`, without waiting.
///
/// For a GET or HEAD, in one pass:
/// 1. `PathGuard`: no `..`, encoded separators or hidden files;
/// 2. a path a manifest under ROOT lists as the 1x URL (`/images/hero.jpg`) of an image whose
///    size was given (an `@Nx` name, a rule, an option; `Manifest.Image.sizeIsGiven`) is answered with
///    the variant `VariantNegotiator` picks from `?dpr=`, `Sec-CH-DPR`, `DPR`, the `dpr` cookie and
///    `Accept` (the file name comes from the manifest, never from the client), with `Vary`,
///    its density said the way `VariantChoice.signal` decided (EXIF density written into the
///    answer's bytes, else `Content-DPR`), `Content-Location`, `Cache-Control` (private when the
///    cookie decided) and a strong `ETag` from the variant's content hash;
/// 3. anything else is the file at that path (a folder: its `index.html`, or a redirect to
///    the path with its slash); HTML pages carry `Accept-CH`, and in dev mode the reload script;
///    with `[rewrite]` configured, pages and stylesheets are answered as `dppx rewrite` writes
///    them (`PageRewriter`, with the images of the manifests in use);
/// 4. `FileAnswer` does the HTTP file work: `Content-Type`, `Last-Modified`, `ETag`,
///    conditional requests (304), single ranges (206, 416), HEAD, `--cache-control`;
/// 5. what cannot be served gets a readable error page (400, 404, 405).
///
/// A fluid image's URL (its widest file, `/images/card.jpg`) is answered the same way, by
/// width (`ClientWidth`: `Sec-CH-Width`, `Sec-CH-Viewport-Width` x DPR, the `vw` cookie) with
/// no `Content-DPR`. Explicit variant URLs (`/images/hero@2x.jpg`, `/images/card-480w.jpg`)
/// and vector images are plain files.
struct Responder: Sendable {
    let files: RootedFileSystem
    let manifests: ManifestStore
    /// The server's own pages under `/_dppx/`.
    let pages: ServerPages
    let cachePolicy: CachePolicy
    /// Dev mode: HTML pages get the live-reload script.
    let addsReloadScript: Bool
    /// `[rewrite]`: pages and stylesheets get their images' candidates as they are served.
    let rewrite: RewriteOptions?
    /// The rewriter of the last manifest load, made once per load, and its number (the pages
    /// it made are kept under it).
    private let rewriter = NIOLockedValueBox<(index: ManifestIndex, rewriter: PageRewriter, number: Int)?>(nil)
    private let madePages = MadePageCache()
    private let headerCache = AnswerHeaderCache()
    private let densityPrefixes = DensityInsertionCache()
    /// Variant files found missing, each logged once.
    private let missingVariants: MissingVariantLog

    /// The hints HTML pages ask for (`Accept-CH`), so Chromium sends its DPR with the page's
    /// image and CSS requests, and the widths fluid images are chosen by.
    static let acceptCH = "Sec-CH-DPR, DPR, Sec-CH-Width, Sec-CH-Viewport-Width"

    init(files: RootedFileSystem, manifests: ManifestStore, pages: ServerPages, cachePolicy: CachePolicy,
         addsReloadScript: Bool = false, rewrite: RewriteOptions? = nil, logger: Logger? = nil) {
        self.missingVariants = MissingVariantLog(logger: logger)
        self.files = files
        self.manifests = manifests
        self.pages = pages
        self.cachePolicy = cachePolicy
        self.addsReloadScript = addsReloadScript
        self.rewrite = rewrite
    }

    enum Decision {
        case answer(Answer)
        /// The answer is made from a file's bytes that are not in memory yet (a page that gets
        /// the reload script, the head of a variant that gets EXIF density): `read` starts the
        /// read on NIO's thread pool (never on Swift's cooperative pool, which a build may hold)
        /// and completes on the given event loop; then decide again.
        case needsRead(@Sendable (any EventLoop) -> EventLoopFuture<Void>)
        /// The answer is made on NIO's thread pool, as it takes more than a lookup (an
        /// inspector page negotiates each of its images against the disk); the event loop
        /// answers other requests meanwhile.
        case madeOffLoop(@Sendable () -> Answer)
    }

    /// The answer to `request`.
    func decide(_ request: ClientRequest) -> Decision {
        let uri = request.uri
        let rawPath = uri.path
        guard !ServerPages.owns(rawPath) else { return pages.decide(request) }
        let isHead = request.method == .head
        guard request.method != .other else { return .answer(.errorPage(.methodNotAllowed, path: rawPath, isHead: false)) }
        let path: String
        switch PathGuard.check(rawPath) {
        case .allowed(let decoded): path = decoded
        case .badRequest(let reason): return .answer(.errorPage(.badRequest, path: rawPath, message: reason, isHead: isHead))
        case .hidden: return .answer(.errorPage(.notFound, path: rawPath, isHead: isHead))
        }
        guard path.hasPrefix("/") else {
            return .answer(.errorPage(.badRequest, path: rawPath, message: "the path must start with '/'", isHead: isHead))
        }
        let relative = path.dropFirst()
        let manifest = manifests.index()
        var variantMissing = false
        if let variant = variant(of: relative, in: manifest, request: request, variantMissing: &variantMissing) {
            return variant
        }
        // A variant found missing could appear: then this answer would change.
        let decidedWith = variantMissing ? nil : manifest

        guard let entry = files.entry(relative) else { return .answer(.errorPage(.notFound, path: rawPath, isHead: isHead)) }
        if entry.isFolder {
            guard path.hasSuffix("/") else {
                let location = Self.folderLocation(rawPath) + (uri.query.map { "?" + $0 } ?? "")
                return .answer(Answer(status: .movedPermanently, headers: [.location: location], bytes: ByteBuffer(), isHead: isHead))
            }
            let index = relative + "index.html"
            guard let indexEntry = files.entry(index), indexEntry.isRegularFile else {
                return .answer(.errorPage(.notFound, path: rawPath, isHead: isHead))
            }
            return plainFile(indexEntry, at: index, request: request, decidedWith: decidedWith)
        }
        guard entry.isRegularFile else { return .answer(.errorPage(.notFound, path: rawPath, isHead: isHead)) }
        return plainFile(entry, at: relative, request: request, decidedWith: decidedWith)
    }

    /// Whether an answer decided from `source` is still the answer to the same request: the
    /// manifest is the same load and the file the same version (one `stat`), as nothing else
    /// went into it (`Answer.decidedFrom`).
    func stillHolds(_ source: Answer.Source) -> Bool {
        manifests.index().isSameLoad(as: source.manifest) && files.entry(source.path) == source.file
    }

    /// Where a folder's path without its slash redirects: the path with one leading `/` (and a
    /// `\\` encoded), so `//icons` gives `/icons/`, never `//icons/`, which a browser reads as
    /// another host.
    static func folderLocation(_ rawPath: String) -> String {
        "/" + rawPath.drop { $0 == "/" }.split(separator: "\\", omittingEmptySubsequences: false).joined(separator: "%5C") + "/"
    }

    /// `decidedWith`: the manifest the answer may be given again with (`Answer.decidedFrom`).
    private func plainFile(_ file: FileIdentity, at path: Substring, request: ClientRequest, decidedWith: ManifestIndex?) -> Decision {
        let headers = headerCache.headers(for: .init(path: path, file: file, variant: nil)) {
            FileAnswer.headers(file: file, path: path, length: file.size, cachePolicy: cachePolicy)
        }
        let slice = files.slice(path, file: file)
        let isStylesheet = headers.fields[.contentType]?.hasPrefix("text/css") == true
        if file.size <= files.cachedFileLimit,
           (addsReloadScript && headers.isHTMLPage) || (rewrite != nil && (headers.isHTMLPage || isStylesheet)) {
            return madePage(slice, at: path, stylesheet: isStylesheet, headers: headers, request: request)
        }
        var answer = FileAnswer(file: file, cached: headers)
            .answer(to: request, body: AnswerBody([.file(slice)]))
        answer.decidedFrom = decidedWith.map { Answer.Source(manifest: $0, path: path, file: file) }
        return .answer(answer)
    }

    /// A page made from its file: rewritten as `dppx rewrite` would (`[rewrite]`), and in dev
    /// mode with the live-reload script. Made off the event loop once per version of the file
    /// and of the rewriter, and shared by every answer (`MadePageCache`). Never cached or
    /// validated by clients (the next build may change it), always whole.
    private func madePage(_ slice: FileSlice, at path: Substring, stylesheet: Bool, headers: AnswerHeaderCache.Headers,
                          request: ClientRequest) -> Decision {
        var fields = headers.fields
        fields[.eTag] = nil
        fields[.lastModified] = nil
        fields[.acceptRanges] = nil
        fields[.cacheControl] = "no-store"
        if request.method == .head, rewrite == nil {
            fields[.contentLength] = String(slice.file.size + LiveReloadScript.tag.utf8.count)
            return .answer(Answer(status: .ok, fieldLines: HTTP1ResponseHead.fieldLines(fields)))
        }
        let rewriter = pageRewriter()
        let maker = rewriter?.number ?? 0
        guard let page = madePages.page(of: slice, maker: maker) else {
            let (madePages, limit, addsReloadScript) = (self.madePages, files.cachedFileLimit, self.addsReloadScript)
            let pagePath = String(path)
            return .needsRead { eventLoop in
                madePages.make(slice, maker: maker, limit: limit, on: eventLoop) { bytes in
                    var made = bytes
                    if let rewriter = rewriter?.rewriter {
                        made = stylesheet ? rewriter.rewriteCSS(made, at: pagePath).bytes : rewriter.rewriteHTML(made, at: pagePath).bytes
                    }
                    if addsReloadScript, !stylesheet { made = LiveReloadScript.inject(made) }
                    return made
                }
            }
        }
        if request.method == .head {
            fields[.contentLength] = String(page.readableBytes)
            return .answer(Answer(status: .ok, fieldLines: HTTP1ResponseHead.fieldLines(fields)))
        }
        return .answer(Answer(status: .ok, headers: fields, bytes: page, isHead: false))
    }

    /// The rewriter for the manifests in use now, and its number; nil without `[rewrite]`. Its
    /// images are the ones negotiated on, from the same reading (`ManifestIndex.site`, read as
    /// `dppx rewrite` reads them, so rules match the masters' own paths), made again each time
    /// the manifests change.
    private func pageRewriter() -> (rewriter: PageRewriter, number: Int)? {
        guard let rewrite else { return nil }
        let index = manifests.index()
        return rewriter.withLockedValue { cached in
            if let cached, cached.index.isSameLoad(as: index) { return (cached.rewriter, cached.number) }
            let made = PageRewriter(images: SiteImages(index.site), options: rewrite)
            let number = (cached?.number ?? 0) + 1
            cached = (index, made, number)
            return (made, number)
        }
    }

    /// The answer for an image's URL whose chosen variant is missing on disk (mid-deploy, an
    /// interrupted build): the URL's own file, with the `Vary` the choice has (every answer of
    /// the URL names the same headers) and the private form of the cache policy, so no shared
    /// cache keeps it for other clients; the missing file is logged once. Nil when the URL's own file is not a
    /// regular file either (then a 404).
    private func fallback(for relative: Substring, missing choice: VariantChoice, request: ClientRequest) -> Decision? {
        guard let file = files.entry(relative), file.isRegularFile else { return nil }
        missingVariants.report(choice.variant.path, answering: relative)
        let fields = FileAnswer.headers(file: file, path: relative, length: file.size, cachePolicy: cachePolicy.privateVariant) { fields in
            if !choice.vary.isEmpty { fields[.vary] = choice.vary.joined(separator: ", ") }
        }
        let body = AnswerBody([.file(files.slice(relative, file: file))])
        return .answer(FileAnswer(file: file, cached: AnswerHeaderCache.Headers(fields)).answer(to: request, body: body))
    }

    /// The negotiated answer for an image's 1x URL; nil when `relative` is not one (or its
    /// chosen variant is missing on disk, in which case the plain file is the answer). A read
    /// first when the EXIF density's bytes need the variant's head, not in memory yet.
    ///
    /// The body of a negotiated answer is made here, and only here: the variant's file, with
    /// EXIF density written in when that is the signal (`DensityInsertionCache`: the bytes up to
    /// the insertion point and the metadata, then the rest of the file). The headers' length
    /// follows from the body; ranges, HEAD and the writer need no change (`AnswerBody.slice`).
    private func variant(of relative: Substring, in index: ManifestIndex, request: ClientRequest,
                         variantMissing: inout Bool) -> Decision? {
        // `DiskNegotiation` decides, as it does for the inspector: the image's own file (a
        // vector, a size nobody stated, a variant not on disk) is the plain file's answer below.
        guard let image = index.image(atBasePath: String(relative)) else { return nil }
        let (negotiation, entry) = DiskNegotiation.negotiate(image, hints: ClientHints(request), files: files)
        if case .ownFile(.variantMissing(let missed)) = negotiation {
            variantMissing = true
            return fallback(for: relative, missing: missed, request: request)
        }
        guard case .variant(var choice) = negotiation, let file = entry else { return nil }
        let path = Substring(choice.variant.path)
        let whole = files.slice(path, file: file)
        var body = AnswerBody([.file(whole)])
        // A file that cannot carry EXIF density (not the JPEG or PNG the manifest says) gets
        // the header instead.
        if case .exif(let exif) = choice.signal {
            let format = choice.variant.format
            switch densityPrefixes.prefix(writing: exif, into: format, file: whole) {
            case .success(let prefix)?:
                body = AnswerBody([.bytes(prefix.bytes),
                                   .file(whole.part(prefix.resumeOffset..<file.size))])
            case .failure?:
                choice = choice.sayingDensityInHeader()
            case nil:
                let (prefixes, files) = (densityPrefixes, self.files)
                return .needsRead { eventLoop in prefixes.read(writing: exif, into: format, file: whole, files: files, on: eventLoop) }
            }
        }
        // A size other than the manifest's means a build is rewriting the file, and a file newer
        // than its manifest was changed since the build (corrupted in place at the same size):
        // the manifest's hash cannot vouch for these bytes, so the file's own weak tag is used.
        let hashTrusted = file.size == choice.variant.bytes
            && index.writtenBefore(manifestOf: String(relative), modified: file.modified)
        let variant = VariantHeaders(choice: choice, cachePolicy: cachePolicy, hashTrusted: hashTrusted)
        let headers = headerCache.headers(for: .init(path: path, file: file, variant: variant.key)) {
            FileAnswer.headers(file: file, path: path, length: body.count, cachePolicy: cachePolicy, decorate: variant.apply)
        }
        // `If-Modified-Since` validates the variant these request headers choose: a cache keeps
        // the answer per `Vary` and revalidates it with the same headers.
        var answer = FileAnswer(file: file, cached: headers).answer(to: request, body: body)
        answer.decidedFrom = Answer.Source(manifest: index, path: path, file: file)
        return .answer(answer)
    }
}
