/// The URLs of one image's variants, arranged the way CSS and HTML use them: the fallback
/// (1x in the master's format), the master-format variants by density, and the same for each
/// extra format, fewest bytes first.
public struct ImageCandidates: Sendable {
    /// One variant's URL, density and width.
    public struct Candidate: Hashable, Sendable {
        public let url: String
        public let density: Density
        public let format: ImageFormat
        /// The file's width in pixels.
        public let width: Int
        /// `2x`, or `480w` for a fluid image: its `srcset` and `image-set()` descriptor. Where
        /// the file's width over the density is not the CSS width (226 px at 1.5x of a 151 px
        /// image), the exact ratio instead (`1.4967x`), so the browser lays it out at the CSS width.
        public let descriptor: String

        init(url: String, density: Density, format: ImageFormat, width: Int, cssWidth: Int, fluid: Bool) {
            self.url = url
            self.density = density
            self.format = format
            self.width = width
            self.descriptor = fluid ? "\(width)w" : "\(Self.exactDensity(width: width, cssWidth: cssWidth, nominal: density))x"
        }

        /// `nominal` when `width` is `cssWidth` times it, else `width / cssWidth` with the fewest
        /// decimals (3 to 8) that give the CSS width within 1/200 px.
        static func exactDensity(width: Int, cssWidth: Int, nominal: Density) -> String {
            guard cssWidth > 0, width * 1000 != cssWidth * nominal.milli else { return nominal.description }
            var scale = 1000
            var scaled = 0
            for _ in 3...8 {
                scaled = (width * scale * 2 + cssWidth) / (2 * cssWidth)
                if scaled > 0, abs(width * scale - cssWidth * scaled) * 200 < scaled { break }
                scale *= 10
            }
            if scale > 100_000_000 { scale = 100_000_000 }
            var fraction = String(scaled % scale)
            fraction = String(repeating: "0", count: String(scale).count - 1 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return fraction.isEmpty ? "\(scaled / scale)" : "\(scaled / scale).\(fraction)"
        }
    }

    public let image: Manifest.Image
    /// The URL plain `src` and `background-image` use: 1x in the master's format, or the
    /// lowest density built when 1x was not asked for; a fluid image's widest file.
    public let fallback: Candidate
    /// Master-format variants, ascending by density (the fallback first).
    public let primary: [Candidate]
    /// Extra formats (AVIF, WebP, JPEG XL...), fewest bytes first by the manifest
    /// (`Manifest.Image.formatsBySize`), each ascending by density.
    public let extra: [(format: ImageFormat, candidates: [Candidate])]

    public init(image: Manifest.Image, urls: URLBase) {
        self.image = image
        func candidates(_ format: ImageFormat) -> [Candidate] {
            image.variants(in: format).map {
                Candidate(url: urls.url(for: $0.path), density: $0.density, format: format, width: $0.width, cssWidth: image.width,
                          fluid: image.isFluid)
            }
        }
        let primaryFormat = image.primaryFormat
        var primary = candidates(primaryFormat)
        if primary.isEmpty {
            // A manifest entry without variants still names its 1x path.
            primary = [Candidate(url: urls.url(for: image.path), density: Density(1), format: primaryFormat, width: image.width,
                                 cssWidth: image.width, fluid: image.isFluid)]
        }
        if image.densityIndependent { primary = Array(primary.prefix(1)) }
        self.primary = primary
        self.fallback = primary.first { $0.density == Density(1) } ?? primary[0]
        // An extra format lacks a density (or width) whose file was not smaller than the
        // master-format one: that file stands in, so no screen gets a less dense one. Extra
        // formats come fewest bytes first: a browser takes the first type it decodes.
        self.extra = image.densityIndependent ? [] : image.formatsBySize.filter { $0 != primaryFormat }.map { format in
            let own = candidates(format)
            return (format, primary.map { candidate in own.first { $0.density == candidate.density } ?? candidate })
        }
    }

    /// Master-format variants denser than the fallback: the media-query overrides.
    public var overrides: [Candidate] { primary.filter { $0.density > fallback.density } }

    /// `hero.jpg 1x, hero@2x.jpg 2x` (`hero-480w.jpg 480w, hero.jpg 1200w` for a fluid
    /// image): a `srcset` value.
    public static func srcset(_ candidates: [Candidate]) -> String {
        candidates.map { "\($0.url) \($0.descriptor)" }.joined(separator: ", ")
    }
}
