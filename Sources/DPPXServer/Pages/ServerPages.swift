import DPPXCore
import HTTPTypes
import Hummingbird

/// The server's own pages under `/_dppx/`: the DPR cookie script and the inspector.
struct ServerPages {
    static let inspectorPath = "/_dppx/"

    /// Whether a raw request path is the server's own (`/_dppx` and below), not ROOT's.
    static func owns(_ rawPath: String) -> Bool {
        rawPath.hasPrefix(inspectorPath) || rawPath == String(inspectorPath.dropLast())
    }

    let manifests: ManifestStore
    let session: DevelopmentSession?
    let templatesFolder: String?
    /// Compiled at startup; in dev mode the template is re-read on every request instead, so
    /// edits show on reload.
    let inspector: Result<InspectorTemplate, TemplateError>

    init(manifests: ManifestStore, session: DevelopmentSession?, templatesFolder: String?) {
        self.manifests = manifests
        self.session = session
        self.templatesFolder = templatesFolder
        self.inspector = Result { () throws(TemplateError) in try InspectorTemplate.load(templatesFolder: templatesFolder) }
    }

    func register<Context: RequestContext>(on router: Router<Context>) {
        for method in [HTTPRequest.Method.get, .head] {
            router.on(RouterPath(DPRScript.path), method: method) { request, _ in
                Self.text(DPRScript.source, contentType: "text/javascript; charset=utf-8",
                          cacheControl: "public, max-age=86400", head: request.method == .head)
            }
            router.on(RouterPath(Self.inspectorPath), method: method) { request, _ in
                inspectorPage(request)
            }
            // Any other path of the server's own gets the same readable 404 as ROOT's misses.
            router.on(RouterPath(Self.inspectorPath + "**"), method: method) { request, _ in
                let page = ErrorPage(status: 404, title: "Not Found", path: request.uri.path,
                                     detail: "the server has no page of its own at this path.")
                return Self.text(page.html, contentType: "text/html; charset=utf-8", cacheControl: "no-store",
                                 status: .notFound, head: request.method == .head)
            }
        }
    }

    private func inspectorPage(_ request: Request) -> Response {
        let template = session == nil ? inspector : Result { () throws(TemplateError) in try InspectorTemplate.load(templatesFolder: templatesFolder) }
        switch template {
        case .failure(let error):
            return Self.text("The inspector page cannot be shown: \(error)\n", contentType: "text/plain; charset=utf-8",
                             cacheControl: "no-store", status: .serviceUnavailable, head: request.method == .head)
        case .success(let template):
            let accept = request.headers[values: .accept]
            let view = InspectorView(manifest: manifests.index().manifest, status: manifests.status(),
                                     hints: ClientHints(uri: request.uri, headers: request.headers),
                                     acceptText: accept.joined(separator: ", "), build: session?.latestStatus)
            var page = Self.text(template.render(view), contentType: "text/html; charset=utf-8", cacheControl: "no-store",
                                 head: request.method == .head)
            page.headers[.acceptCH] = StaticResponder.acceptCH
            return page
        }
    }

    /// A small in-memory response.
    static func text(_ text: String, contentType: String, cacheControl: String, status: HTTPResponse.Status = .ok,
                     head: Bool = false) -> Response {
        let bytes = ByteBuffer(string: text)
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = cacheControl
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: status, headers: headers, body: head ? ResponseBody() : ResponseBody(byteBuffer: bytes))
    }
}
