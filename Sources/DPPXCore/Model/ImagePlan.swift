/// The settings that decide which files a master becomes.
public struct PlanSettings: Hashable, Codable, Sendable {
    /// Densities to write, e.g. 1, 1.5, 2.
    public var densities: [Density]
    /// The density of a master whose name has no `@Nx` suffix.
    public var defaultSourceDensity: Density
    /// Encodings written in addition to the master's own (`webp`, `avif`).
    public var extraFormats: [ImageFormat]
    /// Write densities above the master's own (blurry, but sometimes wanted).
    public var allowUpscale: Bool

    public init(densities: [Density] = Density.defaultSet, defaultSourceDensity: Density = Density(2),
                extraFormats: [ImageFormat] = [], allowUpscale: Bool = false) {
        self.densities = densities
        self.defaultSourceDensity = defaultSourceDensity
        self.extraFormats = extraFormats
        self.allowUpscale = allowUpscale
    }
}

/// Every file one master becomes: the single place that decides names, sizes and formats, so
/// `dppx build` and `dppx css` on a folder of masters always agree.
public struct ImagePlan: Hashable, Sendable {
    /// One file to write.
    public struct Output: Hashable, Sendable {
        public let path: String
        public let density: Density
        public let format: ImageFormat
        public let size: PixelSize
    }

    /// The master's path relative to the source folder.
    public let source: String
    public let name: MasterName
    /// The master's own density.
    public let masterDensity: Density
    /// The format the master's own variants are written in.
    public let primaryFormat: ImageFormat
    /// The CSS box.
    public let cssSize: PixelSize
    public let densityIndependent: Bool
    /// Densities skipped because they would upscale.
    public let skippedDensities: [Density]
    /// Extra formats not written, each with the reason (an animation AVIF cannot hold...).
    public let skippedFormats: [(format: ImageFormat, reason: String)]
    /// Ascending by density, then format preference.
    public let outputs: [Output]

    /// Plans `name`, a master of `masterSize` pixels (upright, one frame).
    public init(name: MasterName, source: String, masterSize: PixelSize, hasAlpha: Bool, animated: Bool,
                settings: PlanSettings) {
        self.source = source
        self.name = name
        let masterDensity = name.declaredDensity ?? settings.defaultSourceDensity
        self.masterDensity = masterDensity
        let primary = ImageFormat.primaryOutput(forMaster: name.format, hasAlpha: hasAlpha)
        self.primaryFormat = primary
        if name.format.isVector {
            // A vector is right at every density: one file, the document's own size as the box.
            densityIndependent = true
            cssSize = masterSize
            skippedDensities = []
            skippedFormats = []
            outputs = [Output(path: name.basePath(format: .svg), density: Density(1), format: .svg, size: masterSize)]
            return
        }
        densityIndependent = false
        let sizes = SizePlan(master: masterSize, masterDensity: masterDensity, densities: settings.densities,
                             allowUpscale: settings.allowUpscale)
        cssSize = sizes.cssSize
        skippedDensities = sizes.skipped
        var formats = [primary]
        var skippedFormats: [(ImageFormat, String)] = []
        for extra in settings.extraFormats where extra != primary {
            if animated && !(extra == .webp || extra == .gif) {
                skippedFormats.append((extra, "\(extra.rawValue) cannot hold the animation; the animation is kept in \(primary.rawValue)\(formats.contains(.webp) ? " and webp" : "")"))
            } else {
                formats.append(extra)
            }
        }
        self.skippedFormats = skippedFormats
        var outputs: [Output] = []
        for variant in sizes.variants {
            for format in formats.sorted() {
                outputs.append(Output(path: name.variantPath(density: variant.density, format: format),
                                      density: variant.density, format: format, size: variant.size))
            }
        }
        self.outputs = outputs
    }

    /// The 1x path in the primary format: the URL pages use.
    public var basePath: String { name.basePath(format: primaryFormat) }

    /// The manifest entry, given the master's hash and each output's byte size and hash.
    public func manifestImage(sourceHash: String, files: [String: (bytes: Int, hash: String)]) -> Manifest.Image {
        Manifest.Image(
            source: source, path: basePath, sourceHash: sourceHash, sourceDensity: masterDensity,
            cssSize: cssSize, densityIndependent: densityIndependent, skippedDensities: skippedDensities,
            variants: outputs.map { output in
                let file = files[output.path] ?? (0, "")
                return Manifest.Variant(path: output.path, density: output.density, format: output.format,
                                        size: output.size, bytes: file.bytes, hash: file.hash)
            })
    }

    public static func == (lhs: ImagePlan, rhs: ImagePlan) -> Bool {
        lhs.source == rhs.source && lhs.outputs == rhs.outputs && lhs.cssSize == rhs.cssSize
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(outputs)
    }
}
