import Foundation
import Hummingbird

/// Refuses request paths that could reach outside ROOT or into hidden files, before any
/// middleware turns the path into a file name.
///
/// - 400: invalid percent-encoding, an encoded `/` or `\` (`%2f`, `%5c`), a NUL byte, a `.`
///   segment, or `..` anywhere (as `FileMiddleware`), written plainly or encoded (`%2e%2e`).
/// - 404: a hidden segment (`.git`, `.dppx-cache.json`, a build's temporary files), except
///   `/.well-known/`.
/// Symbolic links that leave ROOT are refused by `RootedFileSystem`.
public struct PathGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch Self.check(request.uri.path) {
        case .allowed: return try await next(request, context)
        case .badRequest(let reason): throw HTTPError(.badRequest, message: reason)
        case .hidden: throw HTTPError(.notFound)
        }
    }

    /// What to do with a raw (still percent-encoded) URL path.
    public enum Verdict: Equatable, Sendable {
        case allowed
        case badRequest(String)
        case hidden
    }

    /// The rules, as a pure function of the raw path.
    public static func check(_ rawPath: String) -> Verdict {
        let lowered = rawPath.lowercased()
        if lowered.contains("%2f") || lowered.contains("%5c") {
            return .badRequest("encoded path separators are not allowed")
        }
        guard let path = rawPath.removingPercentEncoding else {
            return .badRequest("invalid percent-encoding in the path")
        }
        if path.unicodeScalars.contains(where: { $0.value == 0 }) {
            return .badRequest("NUL bytes are not allowed in the path")
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == "." || $0 == ".." }) || path.contains("..") {
            return .badRequest("'.' and '..' are not allowed in the path")
        }
        if segments.contains(where: { $0.hasPrefix(".") && $0 != ".well-known" }) {
            return .hidden
        }
        return .allowed
    }
}
