import DPPXCore
@testable import DPPXRewrite

/// Manifests as `dppx build` writes them, made from plans (no files): a density logo, a
/// density hero with WebP and AVIF, a fluid photo, an SVG.
enum RewriteFixtures {
    static func image(_ path: String, _ size: PixelSize, _ settings: PlanSettings, _ placeholder: ImagePlaceholder? = nil) -> Manifest.Image {
        var image = ImagePlan(name: MasterName(relativePath: path)!, source: path, masterSize: size, hasAlpha: false, animated: false,
                              settings: settings).manifestImage(sourceHash: "", files: [:])
        image.placeholder = placeholder
        return image
    }

    /// `img/` holds logo@2x.png (120x40 1x), hero@2x.jpg (400x300 1x, with webp and avif) and
    /// photo.jpg (778x519, fluid: 329w...778w), and icon.svg.
    /// The logo's placeholder is a colour only, the hero's and the photo's have a preview, the
    /// SVG has none.
    static let manifest = Manifest(images: [
        image("logo@2x.png", PixelSize(width: 240, height: 80), PlanSettings(densities: [Density(1), Density(2)]), ImagePlaceholder(color: "#336699")),
        image("hero@2x.jpg", PixelSize(width: 800, height: 600), PlanSettings(densities: [Density(1), Density(2)], extraFormats: [.webp, .avif]),
              ImagePlaceholder(color: "#aabbcc", preview: "data:image/webp;base64,UklGRg==")),
        image("photo.jpg", PixelSize(width: 778, height: 519), PlanSettings(), ImagePlaceholder(color: "#102030", preview: "data:image/webp;base64,UklGRh==")),
        image("icon.svg", PixelSize(width: 24, height: 24), PlanSettings(), .vector),
    ])

    static let images = SiteImages(manifests: [(folder: "img", manifest: manifest)])

    static func rewriter(_ options: RewriteOptions = RewriteOptions()) -> PageRewriter {
        PageRewriter(images: images, options: options)
    }

    static func html(_ text: String, at page: String = "index.html", _ options: RewriteOptions = RewriteOptions()) -> (text: String, findings: [String]) {
        let result = rewriter(options).rewriteHTML(Array(text.utf8), at: page)
        return (String(decoding: result.bytes, as: UTF8.self), result.findings.map(\.description))
    }

    static func css(_ text: String, at path: String = "style.css", _ options: RewriteOptions = RewriteOptions()) -> (text: String, findings: [String]) {
        let result = rewriter(options).rewriteCSS(Array(text.utf8), at: path)
        return (String(decoding: result.bytes, as: UTF8.self), result.findings.map(\.description))
    }
}
