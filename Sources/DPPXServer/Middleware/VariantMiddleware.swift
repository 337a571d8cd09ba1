import DPPXCore
import Foundation
import HTTPTypes
import Hummingbird

/// Serves the best variant of an image in place of its 1x URL.
///
/// A GET or HEAD for a path ROOT's manifest lists as an image's 1x URL (`/images/hero.jpg`) is
/// answered with the variant `VariantChoice` picks from `?dpr=`, `Sec-CH-DPR`, `DPR`, the `dpr`
/// cookie and `Accept`. The request is rebuilt with the variant's path, taken from the
/// manifest and never from the client, and handed to `FileMiddleware`, which does the file
/// work (Content-Type, Last-Modified, Range, HEAD, streaming). This middleware adds `Vary`,
/// `Content-DPR`, `Content-Location`, `Cache-Control` (private when the cookie decided), and an
/// `ETag` from the variant's content hash, and evaluates `If-None-Match` and `If-Range` against
/// that tag itself. `If-Modified-Since` is ignored for negotiated URLs: every variant of an
/// image is written by the same build within the same second, so a date cannot tell them apart.
///
/// Explicit variant URLs (`/images/hero@2x.jpg`), vector images and everything else pass through.
public struct VariantMiddleware<Context: RequestContext>: RouterMiddleware {
    let manifests: ManifestStore
    let files: RootedFileSystem
    let cachePolicy: CachePolicy

    public init(manifests: ManifestStore, files: RootedFileSystem, cachePolicy: CachePolicy) {
        self.manifests = manifests
        self.files = files
        self.cachePolicy = cachePolicy
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head,
              let path = request.uri.path.removingPercentEncoding, path.hasPrefix("/"),
              let image = manifests.index().image(atBasePath: String(path.dropFirst())),
              !image.densityIndependent,
              let choice = VariantChoice(image: image, dpr: request.clientDPR, accept: AcceptHeader(request.headers[values: .accept])),
              let size = files.regularFileSize(choice.variant.path)
        else {
            return try await next(request, context)
        }
        let headers = VariantHeaders(choice: choice, cachePolicy: cachePolicy, hashTrusted: size == choice.variant.bytes)

        if headers.hashTrusted, EntityTagList(request.headers[values: .ifNoneMatch]).weaklyMatches(headers.entityTag) {
            var fields = HTTPFields()
            headers.apply(to: &fields)
            return Response(status: .notModified, headers: fields)
        }

        var head = request.head
        head.path = headers.contentLocation
        head.headerFields[.ifNoneMatch] = nil
        head.headerFields[.ifModifiedSince] = nil
        if let ifRange = head.headerFields[.ifRange] {
            // The range applies only to the exact representation the client holds part of.
            head.headerFields[.ifRange] = nil
            if !(headers.hashTrusted && ifRange == headers.entityTag) { head.headerFields[.range] = nil }
        }
        var response = try await next(Request(head: head, body: request.body), context)
        if response.status == .ok || response.status == .partialContent {
            headers.apply(to: &response.headers)
        }
        return response
    }
}
