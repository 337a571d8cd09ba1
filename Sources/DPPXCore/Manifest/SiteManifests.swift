/// The manifests of one site as read: each `dppx-manifest.json` under the site's root, with the
/// folder it describes (a manifest in `assets/img/` answers `/assets/img/hero.jpg`).
///
/// The one model of a site's manifests: `dppx serve` negotiates on it (`ManifestIndex`) and
/// pages are rewritten with it (`SiteImages`), by `dppx rewrite` and by a server with
/// `[rewrite]` alike, so both see one reading. `SiteManifestReader` (DPPXFiles) reads it.
public struct SiteManifests: Sendable {
    /// One manifest read.
    public struct Entry: Sendable {
        /// The manifest file's path, as found (the root as given, then its folder).
        public let path: String
        /// Its folder relative to the site's root: `""` at the root, `assets/img` below it.
        public let folder: String
        /// The manifest as read, its paths relative to `folder`.
        public let manifest: Manifest

        public init(path: String, folder: String, manifest: Manifest) {
            self.path = path
            self.folder = folder
            self.manifest = manifest
        }

        /// Its images, every path made relative to the site's root (`Manifest.Image.relocated`).
        public var images: [Manifest.Image] {
            manifest.images.map { $0.relocated(under: folder) }
        }
    }

    /// The manifests in the order they were read: the root's own first, then by path. Where
    /// two describe one path, the first listed wins.
    public let entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// No manifest.
    public static let empty = SiteManifests([])

    /// Every image of every manifest, paths relative to the site's root, in the manifests' order.
    public var images: [Manifest.Image] {
        entries.flatMap(\.images)
    }

    /// The manifests' paths, as found.
    public var paths: [String] {
        entries.map(\.path)
    }
}
