import Hummingbird

/// Serves ROOT: each file as it is, and for an image's 1x URL the variant the client needs
/// (`StaticResponder` decides; this middleware reads or streams the bytes).
///
/// Other methods and `/_dppx/` go on to the routes.
public struct StaticFileMiddleware<Context: RequestContext>: RouterMiddleware {
    let responder: StaticResponder

    public init(files: RootedFileSystem, manifests: ManifestStore, cachePolicy: CachePolicy) {
        self.init(responder: StaticResponder(files: files, manifests: manifests, cachePolicy: cachePolicy))
    }

    /// Shares `responder` (its memory of files and headers) with `DirectFileHandler`.
    init(responder: StaticResponder) {
        self.responder = responder
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        switch try responder.answer(to: FileRequest(request.head, uri: request.uri)) {
        case .notAFile:
            return try await next(request, context)
        case .redirect(let location):
            return .redirect(to: location, type: .permanent)
        case .file(let prepared):
            guard let body = prepared.body else {
                return Response(status: prepared.status, headers: prepared.headers, body: ResponseBody())
            }
            let fileBytes: ResponseBody
            switch body.file {
            case .whole: fileBytes = try await responder.files.body(of: prepared.path, identity: prepared.file, range: nil, context: context)
            case .range(let range): fileBytes = try await responder.files.body(of: prepared.path, identity: prepared.file, range: range, context: context)
            case .none: fileBytes = ResponseBody()
            }
            guard let prefix = body.prefix else { return Response(status: prepared.status, headers: prepared.headers, body: fileBytes) }
            return Response(status: prepared.status, headers: prepared.headers, body: ResponseBody { writer in
                try await writer.write(prefix)
                try await fileBytes.write(writer)
            })
        }
    }
}
