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
    /// Where the density came from: only a given one lets the server change the image's size.
    public let intent: SizeIntent
    /// What the project file's rules say about this master (qualities, formats...).
    public let rule: ImageRule
    /// The format the master's own variants are written in.
    public let primaryFormat: ImageFormat
    /// The CSS box.
    public let cssSize: PixelSize
    public let densityIndependent: Bool
    /// True for a fluid image: written at a ladder of widths for a page that sizes it (the
    /// outputs' densities are then each width over the master's), never at densities.
    public let fluid: Bool
    /// Listed widths skipped because they are above the master's (no upscaling).
    public let skippedWidths: [Int]
    /// Densities skipped because they would upscale.
    public let skippedDensities: [Density]
    /// Extra formats not written, each with the reason (an animation AVIF cannot hold...).
    public let skippedFormats: [(format: ImageFormat, reason: String)]
    /// Ascending by density, then format preference.
    public private(set) var outputs: [Output]
    /// Whether the variants go beside the master (SRC is OUT).
    public private(set) var inPlace = false

    /// Plans `name`, a master of `masterSize` pixels (upright, one frame).
    ///
    /// The master's density comes from, in order: a rule's display `width` (the density is
    /// the master's width over it), the name's `@Nx`, a rule's `density`, the source density;
    /// a master none of them describes is fluid at its own size (`PlanSettings.widthRequest`).
    ///
    /// `inPlace`: the variants go beside the master (SRC is OUT), whose own name stays its own
    /// file. The output at the master's name and density is then the master itself
    /// (`isMaster`: not written), and every other 1x file is spelled with `@1x` (`hero@1x.jpg`
    /// for `hero.jpg` stated 2x, `hero@1x.webp`): a plain name is always a master's.
    public init(name: MasterName, source: String, masterSize: PixelSize, hasAlpha: Bool, animated: Bool,
                settings: PlanSettings, inPlace: Bool = false) {
        self.init(planning: name, source: source, masterSize: masterSize, hasAlpha: hasAlpha, animated: animated, settings: settings)
        guard inPlace else { return }
        self.inPlace = true
        outputs = outputs.map { output in
            let plain = output.path == name.basePath(format: output.format)
            guard plain, !(output.path == source && output.density == masterDensity) else { return output }
            return Output(path: name.variantPath(density: output.density, format: output.format, spellingOneX: true),
                          density: output.density, format: output.format, size: output.size)
        }
    }

    /// Whether `output` is the master's own file: in an in-place build, the output at the
    /// master's own name (and so its density, format and size), which the build does not write.
    public func isMaster(_ output: Output) -> Bool { inPlace && output.path == source }

    private init(planning name: MasterName, source: String, masterSize: PixelSize, hasAlpha: Bool, animated: Bool,
                 settings: PlanSettings) {
        self.source = source
        self.name = name
        let rule = settings.rule(for: source)
        self.rule = rule
        let widthRequest = settings.widthRequest(for: name, at: source)
        let displayWidth = name.format.isVector || widthRequest != nil ? nil : rule.width
        let masterDensity: Density
        if widthRequest != nil {
            // Its pixels are its widths: the page decides the CSS size.
            masterDensity = Density(1)
            intent = rule.widths != nil ? .rule : settings.widths != nil ? .option : .default
        } else if let displayWidth {
            masterDensity = Density(milli: max(1, (masterSize.width * 1000 + displayWidth / 2) / displayWidth))
            intent = .rule
        } else if let declared = name.declaredDensity {
            masterDensity = declared
            intent = .name
        } else if let density = rule.density {
            masterDensity = density
            intent = .rule
        } else {
            masterDensity = settings.defaultSourceDensity
            intent = settings.sourceDensityGiven ? .option : .default
        }
        self.masterDensity = masterDensity
        let primary = ImageFormat.primaryOutput(forMaster: name.format, hasAlpha: hasAlpha)
        self.primaryFormat = primary
        if name.format.isVector {
            // A vector is right at every density: one file, the document's own size as the box.
            densityIndependent = true
            fluid = false
            skippedWidths = []
            cssSize = masterSize
            skippedDensities = []
            // Said for JPEG XL, which has no vector form: the SVG is the smallest file anyway.
            let extra = rule.formats ?? settings.extraFormats
            skippedFormats = extra.contains(.jxl) ? [(.jxl, "an SVG is served as it is at every density")] : []
            outputs = [Output(path: name.basePath(format: .svg), density: Density(1), format: .svg, size: masterSize)]
            return
        }
        densityIndependent = false
        fluid = widthRequest != nil
        let formats = Self.formats(primary: primary, extra: rule.formats ?? settings.extraFormats, animated: animated)
        self.skippedFormats = formats.skipped
        if let widthRequest {
            // The master's size is the largest box it fills well; pages scale it down.
            let ladder = WidthLadder(masterWidth: masterSize.width, request: widthRequest)
            cssSize = masterSize
            skippedDensities = []
            skippedWidths = ladder.skipped
            var outputs: [Output] = []
            for width in ladder.widths {
                let density = Density(milli: max(1, (width * 1000 + masterSize.width / 2) / max(1, masterSize.width)))
                for format in formats.written.sorted() {
                    let path = width == masterSize.width ? name.basePath(format: format) : name.widthPath(width: width, format: format)
                    outputs.append(Output(path: path, density: density, format: format,
                                          size: WidthLadder.size(ofWidth: width, master: masterSize)))
                }
            }
            self.outputs = outputs
            return
        }
        skippedWidths = []
        let sizes = displayWidth.map {
            SizePlan(master: masterSize, displayWidth: $0, densities: settings.densities, allowUpscale: settings.allowUpscale)
        } ?? SizePlan(master: masterSize, masterDensity: masterDensity, densities: settings.densities,
                      allowUpscale: settings.allowUpscale)
        cssSize = sizes.cssSize
        skippedDensities = sizes.skipped
        var outputs: [Output] = []
        for variant in sizes.variants {
            for format in formats.written.sorted() {
                outputs.append(Output(path: name.variantPath(density: variant.density, format: format),
                                      density: variant.density, format: format, size: variant.size))
            }
        }
        self.outputs = outputs
    }

    /// The master's own format and the extra ones it can hold, and the extras it cannot, each
    /// with the reason.
    private static func formats(primary: ImageFormat, extra: [ImageFormat], animated: Bool)
        -> (written: [ImageFormat], skipped: [(format: ImageFormat, reason: String)]) {
        var formats = [primary]
        var skipped: [(format: ImageFormat, reason: String)] = []
        for extra in extra where extra != primary {
            if animated && extra == .jxl {
                skipped.append((extra, "dppx writes no animated jxl; the animation is kept in \(primary.rawValue)\(formats.contains(.webp) ? " and webp" : "")"))
            } else if animated && !(extra == .webp || extra == .gif) {
                skipped.append((extra, "\(extra.rawValue) cannot hold the animation; the animation is kept in \(primary.rawValue)\(formats.contains(.webp) ? " and webp" : "")"))
            } else {
                formats.append(extra)
            }
        }
        return (formats, skipped)
    }

    /// The 1x path in the primary format (for a fluid image, its widest file): the URL pages use.
    /// In place, the master's own path: the URL the site's pages already use, which keeps the
    /// master's file (`logo@2x.png` for a 2x master, negotiated to `logo@1x.png` at 1x).
    public var basePath: String { inPlace ? source : name.basePath(format: primaryFormat) }

    /// The manifest entry, given the master's hash and each output's byte size and hash.
    /// `searched` holds what `auto` qualities chose, by path; `lossless` the JPEG XL outputs
    /// written losslessly.
    public func manifestImage(sourceHash: String, files: [String: (bytes: Int, hash: String)],
                              searched: [String: Manifest.QualitySearchResult] = [:],
                              lossless: Set<String> = [], masterBytes: Set<String> = []) -> Manifest.Image {
        Manifest.Image(
            source: source, path: basePath, sourceHash: sourceHash, sourceDensity: masterDensity,
            cssSize: cssSize, densityIndependent: densityIndependent, fluid: fluid, intent: intent, skippedDensities: skippedDensities,
            variants: outputs.map { output in
                let file = files[output.path] ?? (0, "")
                var variant = Manifest.Variant(path: output.path, density: output.density, format: output.format,
                                               size: output.size, bytes: file.bytes, hash: file.hash)
                if let search = searched[output.path] { variant.recordSearch(search) }
                if lossless.contains(output.path) { variant.lossless = true }
                if masterBytes.contains(output.path) { variant.masterBytes = true }
                return variant
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
