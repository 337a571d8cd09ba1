import DPPXBuild
import DPPXCore
import HTTPTypes
import NIOCore

/// The server's own pages under `/_dppx/`: the DPR cookie script, the inspector, and in dev mode
/// the live-reload script and its event stream (`DevelopmentPages`). `Responder` hands it
/// every request for these paths; it answers with `Answer`s like any file, so one writer sends
/// them all.
///
/// The inspector is on in dev mode, and in production only when asked for (`--inspector`). It
/// shows `imagesPerPage` images a page (`?page=N`), made on NIO's thread pool: a page costs the
/// same, in time and bytes, whether ROOT has fifty images or a hundred thousand, and image
/// requests are answered meanwhile (one page of all 5000 images took 5.9 s of the event loop).
struct ServerPages: Sendable {
    static let inspectorPath = "/_dppx/"
    static let imagesPerPage = 50

    /// Whether a raw request path is the server's own (`/_dppx` and below), not ROOT's.
    static func owns(_ rawPath: String) -> Bool {
        rawPath.hasPrefix(inspectorPath) || rawPath == String(inspectorPath.dropLast())
    }

    let manifests: ManifestStore
    /// ROOT, for what is on disk: the inspector reports what the responder sends.
    let files: RootedFileSystem
    let session: DevelopmentSession?
    let templatesFolder: String?
    /// Compiled at startup; in dev mode the template is re-read on every request instead, so
    /// edits show on reload.
    let inspector: Result<InspectorTemplate, TemplateError>
    /// Whether `/_dppx/` shows the inspector (`ServerOptions.inspector`).
    let inspectorEnabled: Bool
    /// What a page view costs, for the inspector: counted with the pages' extra formats when
    /// they are rewritten with `<picture>` (`[rewrite] picture`).
    let pageViews: PageViewCache

    init(manifests: ManifestStore, files: RootedFileSystem, session: DevelopmentSession?, templatesFolder: String?, inspector: Bool,
         picture: Bool = false) {
        pageViews = PageViewCache(root: files.root, picture: picture)
        self.manifests = manifests
        self.files = files
        self.session = session
        self.templatesFolder = templatesFolder
        self.inspector = Result { () throws(TemplateError) in try InspectorTemplate.load(templatesFolder: templatesFolder) }
        inspectorEnabled = inspector
    }

    /// How `request` (whose path `owns`) is answered: an inspector page off the event loop,
    /// anything else at once.
    func decide(_ request: ClientRequest) -> Responder.Decision {
        if inspectorEnabled, request.method != .other, Self.isInspector(request.uri.path) {
            return .madeOffLoop { inspectorPage(request) }
        }
        return .answer(answer(to: request))
    }

    private static func isInspector(_ path: String) -> Bool {
        path == inspectorPath || path == String(inspectorPath.dropLast())
    }

    /// The answer to `request`, whose path `owns`.
    func answer(to request: ClientRequest) -> Answer {
        let path = request.uri.path
        guard request.method != .other else { return .errorPage(.methodNotAllowed, path: path, isHead: false) }
        let isHead = request.method == .head
        if let session, let page = DevelopmentPages(session: session).answer(to: path, isHead: isHead) {
            return page
        }
        switch path {
        case DPRScript.path:
            return Self.text(DPRScript.source, contentType: "text/javascript; charset=utf-8",
                             cacheControl: "public, max-age=86400", isHead: isHead)
        case Self.inspectorPath, String(Self.inspectorPath.dropLast()):
            guard inspectorEnabled else {
                return .errorPage(.notFound, path: path, isHead: isHead,
                                  detail: "the inspector is off: start dppx serve with --inspector to show it (it is on with --watch).")
            }
            return inspectorPage(request)
        default:
            // Any other path of the server's own gets the same readable 404 as ROOT's misses.
            return .errorPage(.notFound, path: path, isHead: isHead, detail: "the server has no page of its own at this path.")
        }
    }

    private func inspectorPage(_ request: ClientRequest) -> Answer {
        let isHead = request.method == .head
        let template = session == nil ? inspector : Result { () throws(TemplateError) in try InspectorTemplate.load(templatesFolder: templatesFolder) }
        switch template {
        case .failure(let error):
            return Self.text("The inspector page cannot be shown: \(error)\n", contentType: "text/plain; charset=utf-8",
                             cacheControl: "no-store", status: .serviceUnavailable, isHead: isHead)
        case .success(let template):
            let accept = request.accept
            let hints = ClientHints(request), files = self.files
            let index = manifests.index()
            let view = InspectorView(manifest: index.manifest, status: manifests.status(), hints: hints,
                                     negotiate: { DiskNegotiation.negotiate($0, hints: hints, files: files).negotiation },
                                     acceptText: accept.joined(separator: ", "), build: session?.latestStatus,
                                     page: Self.pageNumber(request.uri.query), perPage: Self.imagesPerPage,
                                     pageViews: pageViews.cost(index))
            return Self.text(template.render(view), contentType: "text/html; charset=utf-8", cacheControl: "no-store",
                             isHead: isHead, extra: [.acceptCH: Responder.acceptCH])
        }
    }

    /// `N` of `page=N` in `query`; 1 when absent or not a number.
    static func pageNumber(_ query: String?) -> Int {
        for pair in (query ?? "").split(separator: "&") where pair.hasPrefix("page=") {
            if let number = Int(pair.dropFirst(5)), number >= 1 { return number }
        }
        return 1
    }

    /// A small page made in memory.
    static func text(_ text: String, contentType: String, cacheControl: String, status: HTTPResponse.Status = .ok,
                     isHead: Bool, extra: HTTPFields = [:]) -> Answer {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = cacheControl
        headers.append(contentsOf: extra)
        return Answer(status: status, headers: headers, bytes: ByteBuffer(string: text), isHead: isHead)
    }
}
