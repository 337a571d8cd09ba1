import DPPXCore

/// ROOT's manifest, indexed by the URL path the server negotiates on.
public struct ManifestIndex: Sendable {
    /// The manifest as read; empty when there is none.
    public let manifest: Manifest
    private let byBasePath: [String: Manifest.Image]
    /// One per load, so a reload is told apart without comparing contents.
    private let load = Load()
    private final class Load: Sendable {}

    public init(_ manifest: Manifest) {
        self.manifest = manifest
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
}
