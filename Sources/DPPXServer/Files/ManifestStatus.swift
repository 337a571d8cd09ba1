/// Whether ROOT's manifest could be used, for the startup message and the inspector page.
public enum ManifestStatus: Sendable, Equatable, CustomStringConvertible {
    /// Read: `images` images from `manifests` (paths as found under ROOT, ROOT's own first) are
    /// negotiated.
    case loaded(images: Int, manifests: [String])
    /// ROOT has no `dppx-manifest.json`: static files only.
    case missing(path: String)
    /// The file exists but cannot be used; `reason` says why and what to do.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .loaded(let images, let manifests):
            "\(manifests.joined(separator: ", ")): picking variants for \(images) image\(images == 1 ? "" : "s")"
        case .missing(let path):
            "\(path) not found: serving static files only; run 'dppx build SRC --out ROOT' to get variants picked per screen"
        case .unreadable(let path, let reason):
            "\(path) \(reason); serving static files only until it is fixed"
        }
    }

    /// True when variants are being picked.
    public var isLoaded: Bool {
        if case .loaded = self { true } else { false }
    }
}
