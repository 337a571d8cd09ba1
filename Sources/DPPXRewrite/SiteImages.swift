import DPPXCore

/// Every image the manifests under a site's root describe (`SiteManifests`), found by any of its
/// files' paths relative to that root: what a page's `src` or a stylesheet's `url()` is looked up in.
public struct SiteImages: Sendable {
    /// One image, its paths made relative to the site's root.
    public struct Entry: Sendable {
        /// The manifest entry with root-relative paths.
        public let image: Manifest.Image
        /// The master's path as the build saw it (relative to its SRC): what rules match.
        public let source: String
        /// The image's folder relative to the root, `""` at the root.
        public let folder: String
    }

    /// A file of an image: its 1x (plain) path, or one of its other variants.
    public struct Match: Sendable {
        public let entry: Entry
        /// True for the plain URL pages use (`hero.jpg`), false for an explicit variant.
        public let isPlainPath: Bool
    }

    private let byPath: [String: Match]
    /// The manifests' paths relative to the root, for depfiles.
    public let manifestPaths: [String]
    /// Every file's pixel size, by its path relative to the root: what measuring answers an
    /// image's URL with (the plain path at the image's CSS size: the master's own for a fluid
    /// image, the 1x box for a density image).
    public let pixelSizes: [String: PixelSize]

    /// The images of `site`'s manifests, as read (`SiteManifestReader`).
    public init(_ site: SiteManifests) {
        self.init(manifests: site.entries.map { (folder: $0.folder, manifest: $0.manifest) })
    }

    /// `manifests` are each manifest and its folder relative to the root (`""`, `assets/img`);
    /// when two describe one path, the first listed wins.
    public init(manifests: [(folder: String, manifest: Manifest)]) {
        var byPath: [String: Match] = [:]
        var pixelSizes: [String: PixelSize] = [:]
        for (folder, manifest) in manifests {
            for image in manifest.images {
                let moved = image.relocated(under: folder)
                let slash = moved.path.lastIndex(of: "/")
                let entry = Entry(image: moved, source: image.source, folder: slash.map { String(moved.path[..<$0]) } ?? "")
                if byPath[moved.path] == nil { byPath[moved.path] = Match(entry: entry, isPlainPath: true) }
                for variant in moved.variants where byPath[variant.path] == nil {
                    byPath[variant.path] = Match(entry: entry, isPlainPath: variant.path == moved.path)
                }
                // The plain URL at the image's CSS size: a fluid image's is its master's, a
                // density image's its 1x box (in a site built in place, the plain file is the
                // master itself, which the page means to show at its stated density).
                if pixelSizes[moved.path] == nil { pixelSizes[moved.path] = moved.cssSize }
                for variant in moved.variants where pixelSizes[variant.path] == nil { pixelSizes[variant.path] = variant.size }
            }
        }
        self.byPath = byPath
        self.pixelSizes = pixelSizes
        self.manifestPaths = manifests.map { $0.folder.isEmpty ? Manifest.fileName : $0.folder + "/" + Manifest.fileName }
    }

    /// The manifest whose folder holds `path` (relative to the root), the deepest when several
    /// do; nil when no manifest's folder holds it.
    public func manifestPath(containing path: String) -> String? {
        manifestPaths.filter { manifest in
            let folder = manifest.dropLast(Manifest.fileName.count)
            return folder.isEmpty || path.hasPrefix(folder)
        }.max { $0.count < $1.count }
    }

    /// No images: pages are left as they are.
    public static let empty = SiteImages(manifests: [])

    /// The image one of whose files is at `path` (relative to the root, decoded, no `..`).
    public func match(_ path: String) -> Match? { byPath[path] }

    /// Whether no manifest describes any image.
    public var isEmpty: Bool { byPath.isEmpty }
}
