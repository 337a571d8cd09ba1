import DPPXCore

/// The manifests under ROOT as one reading (`SiteManifests`), indexed by the URL path the server
/// negotiates on. A server with `[rewrite]` rewrites pages with the same reading (`site`).
public struct ManifestIndex: Sendable {
    /// The manifests as read; empty when there are none.
    public let site: SiteManifests
    /// Every image of them, paths relative to ROOT, in the manifests' order; empty when there is none.
    public let manifest: Manifest
    private let byBasePath: [String: Manifest.Image]
    /// Each image's manifest's modification time (nanoseconds since 1970), by the image's URL path.
    private let manifestModified: [String: Int64]
    /// One per load, so a reload is told apart without comparing contents.
    private let load = Load()
    private final class Load: Sendable {}

    /// `manifestModified`: when each image's manifest was written, by the image's URL path
    /// (`writtenBefore`); images without one are vouched for by their manifest's hashes.
    public init(_ site: SiteManifests, manifestModified: [String: Int64] = [:]) {
        self.site = site
        let manifest = Manifest(images: site.images)
        self.manifest = manifest
        self.manifestModified = manifestModified
        var index: [String: Manifest.Image] = [:]
        for image in manifest.images where index[image.path] == nil {
            index[image.path] = image
        }
        self.byBasePath = index
    }

    /// True when both come from the same reading of the manifest file.
    public func isSameLoad(as other: ManifestIndex) -> Bool {
        load === other.load
    }

    /// No images: every request is a plain static file.
    public static let empty = ManifestIndex(.empty)

    /// The image whose 1x URL is `path` (relative to ROOT, no leading slash, not percent-encoded).
    /// Explicit variant paths (`hero@2x.jpg`) are not negotiated and give nil.
    public func image(atBasePath path: String) -> Manifest.Image? {
        byBasePath[path]
    }

    /// Whether a file of the image at `path` modified at `modified` (nanoseconds since 1970)
    /// existed when its manifest was written. A build writes the manifest after every file it
    /// lists, so a file newer than its manifest was changed since (in place, by hand, by a
    /// half-done copy), and the manifest's hash cannot vouch for its bytes even at the same size.
    public func writtenBefore(manifestOf path: String, modified: Int64) -> Bool {
        manifestModified[path].map { modified <= $0 } ?? true
    }
}
