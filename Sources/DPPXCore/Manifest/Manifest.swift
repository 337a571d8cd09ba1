import Foundation

/// `dppx-manifest.json`: every image a build wrote, its CSS size and every variant file.
///
/// The CSS/HTML generator and the server read it; identical inputs give a byte-identical file
/// (images sorted by source path, variants by density then format, keys sorted).
public struct Manifest: Codable, Hashable, Sendable {
    /// The file name inside the output folder.
    public static let fileName = "dppx-manifest.json"
    /// Bumped when the layout changes incompatibly.
    public static let currentVersion = 1

    public var version: Int
    public var images: [Image]

    public init(images: [Image]) {
        self.version = Self.currentVersion
        self.images = images.sorted { $0.source < $1.source }
    }

    /// One master and what was made from it.
    public struct Image: Codable, Hashable, Sendable {
        /// The master's path relative to the source folder, with `/`.
        public var source: String
        /// The URL path (relative to the output folder) of the 1x file in the master's output
        /// format: the name pages use and the server negotiates on.
        public var path: String
        /// SHA-256 of the master's bytes, hex.
        public var sourceHash: String
        /// The master's own density (from `@Nx`, a rule or `--source-density`; 1 for a fluid
        /// image, including a master that stated nothing).
        public var sourceDensity: Density
        /// Where that density came from. Only an image whose size was given (`isGiven`) may be
        /// answered with another density than the requested file's own by the server. Nil in
        /// manifests written before dppx recorded it, which are taken as given (as they were
        /// served then).
        public var intent: SizeIntent?
        /// The CSS box: the 1x size.
        public var width: Int
        public var height: Int
        /// True for vector masters (SVG): one file, right at every density.
        public var densityIndependent: Bool
        /// True for a fluid image: its variants are a ladder of widths for a page that sizes
        /// it (`srcset` with `w` descriptors), not densities of one CSS size; `width` and
        /// `height` are then the widest file's, for the aspect ratio. Absent for other images.
        public var fluid: Bool?
        /// Densities asked for but skipped because they would upscale.
        public var skippedDensities: [Density]
        /// Every file written, ascending by density, then by format preference.
        public var variants: [Variant]
        /// What pages paint in the box until the image arrives (colour, ThumbHash, preview).
        /// Absent in manifests written before dppx made placeholders, and for masters read only
        /// for their headers (`dppx css` of a folder of masters).
        public var placeholder: ImagePlaceholder?

        public init(source: String, path: String, sourceHash: String, sourceDensity: Density,
                    cssSize: PixelSize, densityIndependent: Bool, fluid: Bool = false, intent: SizeIntent? = nil,
                    skippedDensities: [Density], variants: [Variant]) {
            self.source = source
            self.path = path
            self.sourceHash = sourceHash
            self.sourceDensity = sourceDensity
            self.width = cssSize.width
            self.height = cssSize.height
            self.densityIndependent = densityIndependent
            self.fluid = fluid ? true : nil
            self.intent = intent
            self.skippedDensities = skippedDensities
            self.variants = variants.sorted {
                ($0.density, $0.width, $0.format) < ($1.density, $1.width, $1.format)
            }
        }

        public var cssSize: PixelSize { PixelSize(width: width, height: height) }

        /// Whether this is a fluid image (variants by width).
        public var isFluid: Bool { fluid == true }

        /// A fluid image's widths, ascending (every format has the same).
        public var widths: [Int] { Array(Set(variants.map(\.width))).sorted() }

        /// Whether the user stated this image's size (a name, a rule, an option): the server
        /// then may answer its URL with a denser file that lays out at the same CSS size.
        public var sizeIsGiven: Bool { intent?.isGiven ?? true }

        /// Densities present, ascending.
        public var densities: [Density] { Array(Set(variants.map(\.density))).sorted() }

        /// Formats present, most preferred (smallest) first.
        public var formats: [ImageFormat] {
            // A few variants: a scan beats hashing (this runs for every negotiated request).
            var found: [ImageFormat] = []
            for variant in variants where !found.contains(variant.format) { found.append(variant.format) }
            return found.sorted()
        }

        /// Formats present, fewest bytes first by the sizes recorded (summed over densities or
        /// widths): the order a page lists them in, since a browser takes the first it decodes.
        /// `ImageFormat` order when sizes are equal or not known (a manifest predicted from masters).
        public var formatsBySize: [ImageFormat] {
            let formats = self.formats
            let totals = formats.map { format in variants(in: format).reduce(0) { $0 + $1.bytes } }
            guard !totals.contains(0) else { return formats }
            return zip(formats, totals).sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
        }

        /// The master's output format: the format of `path` (in an in-place build, where `path`
        /// may be the master's own file and no variant, its extension's).
        public var primaryFormat: ImageFormat {
            if let format = variants.first(where: { $0.path == path })?.format { return format }
            let dot = path.lastIndex(of: ".").map { path.index(after: $0) } ?? path.endIndex
            return ImageFormat(fileExtension: path[dot...]) ?? variants.first?.format ?? .png
        }

        /// The variants in one format, ascending by density.
        public func variants(in format: ImageFormat) -> [Variant] {
            variants.filter { $0.format == format }
        }
    }

    /// One written file.
    public struct Variant: Codable, Hashable, Sendable {
        /// Relative to the output folder, with `/`.
        public var path: String
        public var density: Density
        public var format: ImageFormat
        /// Pixel size of the file.
        public var width: Int
        public var height: Int
        /// File size in bytes.
        public var bytes: Int
        /// SHA-256 of the file's bytes, hex: a strong validator and cache-busting key.
        public var hash: String
        /// With `quality = "auto"`: the encoder quality chosen, the file's SSIMULACRA2 score
        /// against the variant's pixels, and (with `compare-fixed`) its size at the format's
        /// default fixed quality.
        public var quality: Int?
        /// A searched JPEG's or AVIF's chroma: `4:2:0` or `4:4:4`.
        public var chroma: Chroma?
        /// A searched WebP's colour conversion: true where it was libwebp's sharp one (not
        /// recorded for files searched before dppx recorded it).
        public var sharpYUV: Bool?
        public var score: Double?
        /// The score the search aimed at: the density's target (not recorded for files searched
        /// before dppx recorded it).
        public var target: Double?
        public var fixedQualityBytes: Int?
        /// True for a JPEG XL written losslessly (a JPEG variant's JPEG XL, its recompression; a
        /// PNG master's JPEG XL without `jxl-quality`), as the format may be either. Not
        /// recorded otherwise, nor for PNG and GIF, which always are, nor for files written
        /// before dppx recorded it. (dppx's WebP is always lossy.)
        public var lossless: Bool?
        /// True where the file is the master's own bytes with its metadata removed (a lossless
        /// edit, `JPEGSegments` and `PNGChunks`), not a re-encode: a JPEG master at this size that
        /// a re-encode would not make 10 % smaller (or, under `auto`, would leave under its
        /// target), a PNG master whose own data is no larger than a re-encode's. Not recorded
        /// otherwise.
        public var masterBytes: Bool?

        public init(path: String, density: Density, format: ImageFormat, size: PixelSize, bytes: Int, hash: String) {
            self.path = path
            self.density = density
            self.format = format
            self.width = size.width
            self.height = size.height
            self.bytes = bytes
            self.hash = hash
        }

        public var size: PixelSize { PixelSize(width: width, height: height) }

        /// True for a searched variant that no quality brought to its target: it was written
        /// at the top quality, under the target still.
        public var missesTarget: Bool {
            guard let score, let target else { return false }
            return !QualityTargets.reaches(score, target)
        }

        /// Records what an `auto` quality chose (the score rounded to hundredths).
        public mutating func recordSearch(_ search: QualitySearchResult) {
            quality = search.quality
            chroma = search.chroma
            sharpYUV = search.sharpYUV
            score = (search.score * 100).rounded() / 100
            target = search.target
            fixedQualityBytes = search.fixedQualityBytes
        }
    }

    /// What an `auto` quality chose for one variant.
    public struct QualitySearchResult: Hashable, Sendable {
        /// The encoder quality written.
        public var quality: Int
        /// JPEG and AVIF: the chroma written (JPEG, and AVIF from 2x, are searched in 4:2:0 first,
        /// and in 4:4:4 where 4:2:0 needs a high quality or never reaches the target; AVIF below
        /// 2x in 4:4:4).
        public var chroma: Chroma?
        /// WebP only: whether the RGB to YUV conversion was libwebp's sharp one (`cwebp
        /// -sharp_yuv`), chosen where the plain one alone would leave the target little room.
        public var sharpYUV: Bool?
        /// The file's SSIMULACRA2 score against the variant's own pixels before encoding.
        public var score: Double
        /// The score it aimed at (its density's target); `score` is under it only where no
        /// quality reached it.
        public var target: Double
        /// The size of the same variant at the format's default fixed quality (82 for JPEG, 80
        /// for WebP, 55 for AVIF): what `auto` saves is measured against it. Only with
        /// `compare-fixed` (that encode is about a tenth of the search's time).
        public var fixedQualityBytes: Int?

        /// Whether the file reaches its target (else no quality did, and it is the top one).
        public var reachesTarget: Bool { QualityTargets.reaches(score, target) }

        public init(quality: Int, chroma: Chroma? = nil, sharpYUV: Bool? = nil, score: Double, target: Double,
                    fixedQualityBytes: Int? = nil) {
            self.quality = quality
            self.chroma = chroma
            self.sharpYUV = sharpYUV
            self.score = score
            self.target = target
            self.fixedQualityBytes = fixedQualityBytes
        }
    }

    /// The deterministic JSON text, ending in a newline.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain value types cannot fail.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Reads a manifest; the error says what is wrong in terms a user can act on.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ManifestError) -> Manifest {
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        } catch {
            throw ManifestError.malformed(detail: Self.describe(error))
        }
        guard manifest.version == currentVersion else {
            throw .unsupportedVersion(manifest.version)
        }
        try ManifestLimits.check(manifest.images, field: "images")
        return manifest
    }

    /// The image whose 1x path (or any variant path) is `path`.
    public func image(containing path: String) -> Image? {
        images.first { $0.path == path } ?? images.first { $0.variants.contains { $0.path == path } }
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        }
        switch error {
        case .dataCorrupted(let context): return at(context)
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' at \(at(context))"
        case .typeMismatch(_, let context): return at(context)
        case .valueNotFound(_, let context): return at(context)
        @unknown default: return String(describing: error)
        }
    }
}

/// Why a manifest could not be read.
public enum ManifestError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(detail: String)
    case unsupportedVersion(Int)
    /// A number no build writes (`ManifestLimits`): `field` is its path (`images.3.width`).
    case outOfRange(field: String, value: Int, expected: String)

    public var description: String {
        switch self {
        case .malformed(let detail):
            "is not a valid dppx manifest (\(detail)); rebuild it with 'dppx build'"
        case .unsupportedVersion(let version):
            "has version \(version), but this dppx reads version \(Manifest.currentVersion); rebuild it with this 'dppx build'"
        case .outOfRange(let field, let value, let expected):
            "is not a valid dppx manifest (\(field) is \(value), but a build writes \(expected)); rebuild it with 'dppx build'"
        }
    }
}

extension Manifest.Image {
    /// This image as seen from a folder above its manifest's: every path (source, 1x URL,
    /// variants) under `folder` (`assets/img`), so a manifest in `assets/img/` answers
    /// `/assets/img/hero.jpg`.
    public func relocated(under folder: String) -> Manifest.Image {
        guard !folder.isEmpty else { return self }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var image = self
        image.source = prefix + source
        image.path = prefix + path
        image.variants = variants.map { variant in
            var moved = variant
            moved.path = prefix + variant.path
            return moved
        }
        return image
    }
}
