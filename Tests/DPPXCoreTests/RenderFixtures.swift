import DPPXCore
import Foundation
import Testing

/// Manifests and templates the rendering tests share: the repository's default templates and
/// manifest entries made through `ImagePlan`, exactly as a build makes them.
enum RenderFixtures {
    /// The repository root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// `Tests/DPPXCoreTests/Golden`.
    static let goldenFolder = repository + "/Tests/DPPXCoreTests/Golden"

    /// The default template of `name`, as shipped in `Templates/`.
    static func defaultSource(_ name: String) -> TemplateSource {
        let file = "Templates/\(name).mustache"
        let text = (try? String(contentsOfFile: repository + "/" + file, encoding: .utf8)) ?? ""
        return TemplateSource(name: name, file: file, text: text)
    }

    static func templates(_ kind: TemplateKind, replacing replacements: [String: String] = [:]) throws(TemplateError) -> RenderTemplates {
        let sources = kind.templateNames.map { name in
            replacements[name].map { TemplateSource(name: name, file: "custom/\(name).mustache", text: $0) } ?? defaultSource(name)
        }
        return try RenderTemplates(kind: kind, sources: sources)
    }

    static func stylesheet() throws -> StylesheetRenderer { StylesheetRenderer(templates: try templates(.stylesheet)) }
    static func markup() throws -> MarkupRenderer { MarkupRenderer(templates: try templates(.markup)) }

    /// A manifest entry for master `path` of `size` pixels, as `dppx build` would write it.
    static func image(_ path: String, _ width: Int, _ height: Int, formats: [ImageFormat] = [],
                      densities: [Density] = Density.defaultSet, sourceDensity: Density = Density(2)) -> Manifest.Image {
        let plan = ImagePlan(name: MasterName(relativePath: path)!, source: path,
                             masterSize: PixelSize(width: width, height: height), hasAlpha: false, animated: false,
                             settings: PlanSettings(densities: densities, defaultSourceDensity: sourceDensity, sourceDensityGiven: true, extraFormats: formats))
        return plan.manifestImage(sourceHash: "", files: [:])
    }

    /// hero.jpg (800x500 at 2x: a 400x250 box), icons/logo@3x.png (96x96: 32x32) and an SVG.
    static let basic = Manifest(images: [
        image("hero.jpg", 800, 500),
        image("icons/logo@3x.png", 96, 96),
        image("vector.svg", 24, 24),
    ])

    /// hero.jpg with WebP and AVIF, a plain PNG, and an SVG.
    static let withFormats = Manifest(images: [
        image("hero.jpg", 800, 500, formats: [.webp, .avif]),
        image("icons/logo@3x.png", 96, 96),
        image("vector.svg", 24, 24),
    ])

    /// Fluid images: a 1920x1080 hero on the automatic ladder with WebP, a 1200x800 card at
    /// 480 and 960, and a density image beside them.
    static let fluidRules = [
        ImageRule(match: [PathGlob("hero.jpg")], widths: .auto, formats: [.webp]),
        ImageRule(match: [PathGlob("cards/**")], widths: .explicit([480, 960]), sizes: "(min-width: 768px) 50vw, 100vw"),
    ]
    static let fluid = Manifest(images: [
        ImagePlan(name: MasterName(relativePath: "hero.jpg")!, source: "hero.jpg", masterSize: PixelSize(width: 1920, height: 1080),
                  hasAlpha: false, animated: false, settings: PlanSettings(rules: fluidRules)).manifestImage(sourceHash: "", files: [:]),
        ImagePlan(name: MasterName(relativePath: "cards/a.jpg")!, source: "cards/a.jpg", masterSize: PixelSize(width: 1200, height: 800),
                  hasAlpha: false, animated: false, settings: PlanSettings(rules: fluidRules)).manifestImage(sourceHash: "", files: [:]),
        image("icons/logo@3x.png", 96, 96),
    ])

    /// A placeholder shaped as a build records it (short stand-in hash and data URI).
    static let placeholder = ImagePlaceholder(
        color: "#5a7d9a", thumbHash: "1QcSHQRnh493V4dIh4eXh1h4kJUI",
        preview: "data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAUAAEAcQERGIiP4HAA==")

    /// `withFormats` and a fluid image with placeholders: a colour and preview for the
    /// photos, a colour only for the PNG (as for an animation), nothing for the SVG.
    static let withPlaceholders: Manifest = {
        var images = withFormats.images + fluid.images.filter { $0.source == "cards/a.jpg" }
        for index in images.indices {
            switch images[index].source {
            case "vector.svg": images[index].placeholder = .vector
            case "icons/logo@3x.png": images[index].placeholder = ImagePlaceholder(color: "#102030", limitation: "animated master: a colour only")
            default: images[index].placeholder = placeholder
            }
        }
        return Manifest(images: images)
    }()

    /// Compares `actual` with golden file `name`; `DPPX_UPDATE_GOLDEN=1` rewrites the file.
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = goldenFolder + "/" + name
        if ProcessInfo.processInfo.environment["DPPX_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(atPath: goldenFolder, withIntermediateDirectories: true)
            try? actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("golden file \(path) is missing; run the tests with DPPX_UPDATE_GOLDEN=1 to write it", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "differs from \(path); if the change is intended, rerun with DPPX_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
    }
}
