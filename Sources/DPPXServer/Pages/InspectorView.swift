import DPPXCore

/// What `Templates/server/inspector.mustache` is rendered with: every image ROOT's manifest
/// lists, its variants, and what the requesting browser gets for its URL, as
/// `DiskNegotiation` decides it for the server (the page's own request hints standing for
/// the image request's).
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
        /// What `quality = "auto"` chose (`62, 4:2:0`, `74, sharp YUV`), else `fixed` or `lossless`.
        let quality: String
        /// The file's recorded SSIMULACRA2 score (`81.34`); empty when not searched.
        let score: String
        /// The score its search aimed at (`80`); empty when not searched or not recorded.
        let target: String
        /// True when no quality brought it to its target (it is the top quality's file).
        let missedTarget: Bool
        /// Bytes against the format's default fixed quality: `-31 % against q82 (35.2 KB)`.
        let againstFixed: String
    }

    struct Image {
        let url: String
        let path: String
        let source: String
        let cssWidth: Int
        let cssHeight: Int
        let vector: Bool
        let chosenPath: String
        /// The URL of the file sent (`Content-Location` of a negotiated answer).
        let chosenURL: String
        /// True when the hints chose the file; false when the URL's own file is sent as it is.
        let negotiated: Bool
        /// The hint that chose the file, with the value read: `DPR 2 from Sec-CH-DPR`, `700 device
        /// px wide from Sec-CH-Width`; empty for the URL's own file.
        let decidedBy: String
        /// Why the URL's own file is sent (not for vectors, which say so themselves); nil when negotiated.
        let ownFileReason: String?
        let vary: String
        let hasVary: Bool
        let isPrivate: Bool
        /// How the answer says the density (`DensitySignal`): "EXIF density", "Content-DPR: 2"; empty at 1x.
        let densitySignal: String
        let hasDensitySignal: Bool
        /// `none`, `exif` or `content-dpr`, and `shared` or `private`: the page's `data-`
        /// attributes, for scripts that read it.
        let signalKind: String
        let cacheKind: String
        let variants: [Variant]
        /// True when any variant's quality was searched: the table then shows what was chosen.
        let searched: Bool
        /// The placeholder the build recorded: its colour, its preview (a data URI), and what
        /// it leaves out; each nil when absent.
        let placeholderColor: String?
        let preview: String?
        let placeholderNote: String?
        let hasPlaceholder: Bool
    }

    let dpr: String
    let dprSource: String
    /// The width fluid images are chosen by, in device px, and where it came from.
    let width: Int
    let widthSource: String
    let hintsMissing: Bool
    let accept: String
    let manifestStatus: String
    let manifestLoaded: Bool
    let development: Bool
    let buildSucceeded: Bool
    let buildSummary: String
    let buildFailures: [Failure]
    /// The images of this page, of `imageCount` in all.
    let images: [Image]
    let imageCount: Int
    let hasImages: Bool
    /// This page (1-based, clamped to the last), how many there are, the neighbours' numbers,
    /// and the images shown (`firstShown`...`lastShown`, 1-based).
    let page: Int
    let pageCount: Int
    let hasPages: Bool
    let previousPage: Int?
    let nextPage: Int?
    let firstShown: Int
    let lastShown: Int
    /// With measured pages (a layout file under ROOT): what a page view costs, per page and for the site.
    let pageViews: [PageViewRow]
    let pageViewTotal: PageViewRow?
    let hasPageViews: Bool
    /// The screens, in the columns' order (`phone 375x812 @3x`).
    let pageViewProfiles: [String]

    /// `negotiate`: what the server sends for an image with these hints (`DiskNegotiation`);
    /// only the `perPage` images of page `page` are negotiated and shown.
    /// `pageViews`: what a page view costs, shown when given.
    init(manifest: Manifest, status: ManifestStatus, hints: ClientHints, negotiate: (Manifest.Image) -> Negotiation,
         acceptText: String, build: BuildStatus?, page: Int = 1, perPage: Int = .max, pageViews: PageViewCost? = nil) {
        self.pageViews = pageViews.map(PageViewRow.rows) ?? []
        self.pageViewTotal = pageViews.flatMap { $0.pages.count > 1 ? PageViewRow.total($0) : nil }
        self.hasPageViews = pageViews != nil
        self.pageViewProfiles = (pageViews?.profiles ?? []).map { "\($0.name) \(Int($0.width))x\(Int($0.height)) @\($0.dpr == $0.dpr.rounded() ? String(Int($0.dpr)) : String($0.dpr))x" }
        let dpr = hints.dpr, width = hints.width
        self.dpr = dpr.value.description
        self.dprSource = dpr.source.description
        self.width = width.devicePixels
        self.widthSource = width.source.description
        self.hintsMissing = dpr.source == .none
        self.accept = acceptText.isEmpty ? "(none)" : acceptText
        self.manifestStatus = status.description
        self.manifestLoaded = status.isLoaded
        self.development = build != nil
        self.buildSucceeded = build?.succeeded ?? true
        self.buildSummary = build?.summary ?? ""
        self.buildFailures = (build?.failures ?? []).map { Failure(file: $0.file, reason: $0.reason) }
        let total = manifest.images.count
        let pageCount = max(1, (total + perPage - 1) / perPage)
        let page = min(max(1, page), pageCount)
        let first = (page - 1) * perPage
        let shown = manifest.images[first..<min(total, first + perPage)]
        self.page = page
        self.pageCount = pageCount
        self.hasPages = pageCount > 1
        self.previousPage = page > 1 ? page - 1 : nil
        self.nextPage = page < pageCount ? page + 1 : nil
        self.firstShown = shown.isEmpty ? 0 : first + 1
        self.lastShown = first + shown.count
        self.images = shown.map { image in
            let negotiation = negotiate(image)
            let choice = negotiation.choice
            let chosen = choice?.variant.path ?? image.path
            var ownFileReason: String?
            if case .ownFile(let reason) = negotiation, reason != .vector { ownFileReason = reason.description }
            return Image(
                url: "/" + URLEncoding.encodePath(image.path), path: image.path, source: image.source,
                cssWidth: image.width, cssHeight: image.height, vector: image.densityIndependent,
                chosenPath: chosen, chosenURL: "/" + URLEncoding.encodePath(chosen), negotiated: choice != nil,
                decidedBy: choice.map(Self.decidedBy) ?? "", ownFileReason: ownFileReason,
                vary: negotiation.vary.joined(separator: ", "),
                hasVary: !negotiation.vary.isEmpty,
                isPrivate: choice?.isPrivate ?? false,
                densitySignal: choice.map { Self.describe($0.signal) } ?? "",
                hasDensitySignal: choice.map { $0.signal != .none } ?? false,
                signalKind: choice.map { Self.kind(of: $0.signal) } ?? "none",
                cacheKind: negotiation.isPrivate ? "private" : "shared",
                variants: image.variants.map { variant in
                    Variant(url: "/" + URLEncoding.encodePath(variant.path), path: variant.path,
                            density: variant.density.description, format: variant.format.rawValue,
                            width: variant.width, height: variant.height, bytes: variant.bytes,
                            size: Self.humanSize(variant.bytes), chosen: variant.path == chosen,
                            quality: Self.quality(of: variant),
                            score: variant.score.map { "\($0)" } ?? "",
                            target: variant.target.map { String(format: "%g", $0) } ?? "",
                            missedTarget: variant.missesTarget,
                            againstFixed: Self.againstFixed(variant))
                },
                searched: image.variants.contains { $0.quality != nil },
                placeholderColor: PlaceholderStyle.color(of: image.placeholder),
                preview: PlaceholderStyle.preview(of: image.placeholder),
                placeholderNote: image.placeholder?.limitation,
                hasPlaceholder: image.placeholder != nil)
        }
        self.imageCount = total
        self.hasImages = total > 0
    }

    /// `DPR 2 from Sec-CH-DPR`, `1920 device px wide from default`.
    static func decidedBy(_ choice: VariantChoice) -> String {
        if let width = choice.width { return "\(width.devicePixels) device px wide from \(width.source)" }
        return "DPR \(choice.dpr.value) from \(choice.dpr.source)"
    }

    static func kind(of signal: DensitySignal) -> String {
        switch signal {
        case .none: "none"
        case .exif: "exif"
        case .contentDPR: "content-dpr"
        }
    }

    /// What the answer carries to say its density.
    static func describe(_ signal: DensitySignal) -> String {
        switch signal {
        case .none: ""
        case .exif(let exif): "with EXIF density (\(exif.pixelSize) px laid out at \(exif.cssSize))"
        case .contentDPR(let density): "with Content-DPR: \(density)"
        }
    }

    /// `62, 4:2:0` or `74, sharp YUV`: the quality an `auto` search wrote and how (a manifest
    /// written before dppx recorded the WebP conversion gives the quality alone); `lossless`
    /// for PNG, GIF and a JPEG XL written losslessly, `fixed` for a variant encoded at
    /// a set quality.
    static func quality(of variant: Manifest.Variant) -> String {
        guard let quality = variant.quality else {
            return [.png, .gif].contains(variant.format) || variant.lossless == true ? "lossless" : "fixed"
        }
        if let chroma = variant.chroma { return "\(quality), \(chroma.rawValue)" }
        if let sharp = variant.sharpYUV { return "\(quality), \(sharp ? "sharp" : "plain") YUV" }
        return "\(quality)"
    }

    /// `-31 % against q82 (35.2 KB)`, `+12 % against q80 (...)` where the target asked for more
    /// than the default gives; empty when not searched.
    static func againstFixed(_ variant: Manifest.Variant) -> String {
        guard let fixed = variant.fixedQualityBytes, fixed > 0 else { return "" }
        let percent = Int((Double(variant.bytes - fixed) * 100 / Double(fixed)).rounded())
        let quality = SettingRegistry.defaultQuality(for: variant.format).map { " against q\($0)" } ?? ""
        return "\(percent > 0 ? "+" : "")\(percent) %\(quality) (\(humanSize(fixed)))"
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
