import DPPXCore

/// What `Templates/server/inspector.mustache` is rendered with: every image ROOT's manifest
/// lists, its variants, and the one the requesting browser gets.
struct InspectorView {
    struct Failure {
        let file: String
        let reason: String
    }

    struct Variant {
        let url: String
        let path: String
        let density: String
        let format: String
        let width: Int
        let height: Int
        let bytes: Int
        let size: String
        let chosen: Bool
    }

    struct Image {
        let url: String
        let path: String
        let source: String
        let cssWidth: Int
        let cssHeight: Int
        let vector: Bool
        let chosenPath: String
        let vary: String
        let hasVary: Bool
        let isPrivate: Bool
        /// How the answer says the density (`DensitySignal`): "EXIF density", "Content-DPR: 2"; empty at 1x.
        let densitySignal: String
        let hasDensitySignal: Bool
        let variants: [Variant]
        /// The placeholder the build recorded: its colour, its preview (a data URI), and what
        /// it leaves out; each nil when absent.
        let placeholderColor: String?
        let preview: String?
        let placeholderNote: String?
        let hasPlaceholder: Bool
    }

    let dpr: String
    let dprSource: String
    let hintsMissing: Bool
    let accept: String
    let manifestStatus: String
    let manifestLoaded: Bool
    let development: Bool
    let buildSucceeded: Bool
    let buildSummary: String
    let buildFailures: [Failure]
    let images: [Image]
    let imageCount: Int
    let hasImages: Bool

    init(manifest: Manifest, status: ManifestStatus, dpr: ClientDPR, accept: AcceptHeader, acceptText: String,
         build: BuildStatus?) {
        self.dpr = dpr.value.description
        self.dprSource = dpr.source.description
        self.hintsMissing = dpr.source == .none
        self.accept = acceptText.isEmpty ? "(none)" : acceptText
        self.manifestStatus = status.description
        self.manifestLoaded = status.isLoaded
        self.development = build != nil
        self.buildSucceeded = build?.succeeded ?? true
        self.buildSummary = build?.summary ?? ""
        self.buildFailures = (build?.failures ?? []).map { Failure(file: $0.file, reason: $0.reason) }
        self.images = manifest.images.map { image in
            let choice = image.densityIndependent ? nil : VariantChoice(image: image, dpr: dpr, accept: accept)
            let chosen = choice?.variant.path ?? image.path
            return Image(
                url: "/" + URLEncoding.encodePath(image.path), path: image.path, source: image.source,
                cssWidth: image.width, cssHeight: image.height, vector: image.densityIndependent,
                chosenPath: chosen, vary: choice?.vary.joined(separator: ", ") ?? "",
                hasVary: !(choice?.vary.isEmpty ?? true),
                isPrivate: choice?.isPrivate ?? false,
                densitySignal: choice.map { Self.describe($0.signal) } ?? "",
                hasDensitySignal: choice.map { $0.signal != .none } ?? false,
                variants: image.variants.map { variant in
                    Variant(url: "/" + URLEncoding.encodePath(variant.path), path: variant.path,
                            density: variant.density.description, format: variant.format.rawValue,
                            width: variant.width, height: variant.height, bytes: variant.bytes,
                            size: Self.humanSize(variant.bytes), chosen: variant.path == chosen)
                },
                placeholderColor: PlaceholderStyle.color(of: image.placeholder),
                preview: PlaceholderStyle.preview(of: image.placeholder),
                placeholderNote: image.placeholder?.limitation,
                hasPlaceholder: image.placeholder != nil)
        }
        self.imageCount = images.count
        self.hasImages = !images.isEmpty
    }

    /// What the answer carries to say its density.
    static func describe(_ signal: DensitySignal) -> String {
        switch signal {
        case .none: ""
        case .exif(let exif): "with EXIF density (\(exif.pixelSize) px laid out at \(exif.cssSize))"
        case .contentDPR(let density): "with Content-DPR: \(density)"
        }
    }

    /// `812 B`, `48.2 KB`, `1.3 MB`.
    static func humanSize(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
