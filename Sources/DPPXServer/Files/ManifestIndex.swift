import DPPXCore

/// ROOT's manifest, indexed by the URL path the server negotiates on.
public struct ManifestIndex: Sendable {
    /// The manifest as read; empty when there is none.
    public let manifest: Manifest
    private let byBasePath: [String: Manifest.Image]
    /// Each image's manifest's modification time (nanoseconds since 1970), by the image's URL path.
    private let manifestModified: [String: Int64]
    /// One per load, so a reload is told apart without comparing contents.
    private let load = Load()
    private final class Load: Sendable {}

    /// `manifestModified`: when each image's manifest was written, by the image's URL path
    /// (`writtenBefore`); images without one are vouched for by their manifest's hashes.
    public init(_ manifest: Manifest, manifestModified: [String: Int64] = [:]) {
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
    public static let empty = ManifestIndex(Manifest(images: []))

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
