/// One image's markup and the data it was made from: what `dppx html --json` prints for
/// tools that write their own markup.
public struct MarkupImage: Codable, Hashable, Sendable {
    /// One `<source>` of a `<picture>`.
    public struct Source: Codable, Hashable, Sendable {
        public let type: String
        public let srcset: String

        public init(type: String, srcset: String) {
            self.type = type
            self.srcset = srcset
        }
    }

    /// The master, relative to its folder.
    public let source: String
    public let src: String
    /// Absent for density-independent (SVG) images.
    public let srcset: String?
    /// A fluid image's `sizes`; absent for the others.
    public let sizes: String?
    public let width: Int
    public let height: Int
    /// Extra formats, fewest bytes first; empty when there are none.
    public let sources: [Source]
    /// The rendered `<img>` or `<picture>`, without the final newline.
    public let html: String
    /// The placeholder's inline declarations (`--placeholder`); absent without one.
    public let style: String?
    /// The `<link rel="preload">` of the image `--preload` names; absent for the others.
    public let preload: String?

    public init(source: String, src: String, srcset: String?, sizes: String? = nil, width: Int, height: Int, sources: [Source], html: String,
                style: String? = nil, preload: String? = nil) {
        self.source = source
        self.src = src
        self.srcset = srcset
        self.sizes = sizes
        self.width = width
        self.height = height
        self.sources = sources
        self.html = html
        self.style = style
        self.preload = preload
    }
}

/// The `--json` document: `{"images": [...]}`.
public struct MarkupDocument: Codable, Hashable, Sendable {
    public let images: [MarkupImage]

    public init(images: [MarkupImage]) {
        self.images = images
    }
}
