import DPPXCore
import Testing

@Suite("A site's manifests: one reading, each manifest at its folder")
struct SiteManifestsTests {
    static func manifest(_ paths: String...) -> Manifest {
        Manifest(images: paths.map { path in
            Manifest.Image(source: path, path: path, sourceHash: "h", sourceDensity: Density(2),
                           cssSize: PixelSize(width: 10, height: 10), densityIndependent: false, intent: .name,
                           skippedDensities: [], variants: [
                               Manifest.Variant(path: path, density: Density(1), format: .jpeg,
                                                size: PixelSize(width: 10, height: 10), bytes: 1, hash: "a"),
                           ])
        })
    }

    @Test("every image's paths are made relative to the site's root, in the manifests' order")
    func images() {
        let site = SiteManifests([
            .init(path: "site/dppx-manifest.json", folder: "", manifest: Self.manifest("hero.jpg")),
            .init(path: "site/assets/img/dppx-manifest.json", folder: "assets/img", manifest: Self.manifest("logo.png", "hero.jpg")),
        ])
        #expect(site.images.map(\.path) == ["hero.jpg", "assets/img/hero.jpg", "assets/img/logo.png"])
        #expect(site.images.map(\.source) == ["hero.jpg", "assets/img/hero.jpg", "assets/img/logo.png"])
        #expect(site.images.flatMap(\.variants).map(\.path) == ["hero.jpg", "assets/img/hero.jpg", "assets/img/logo.png"])
        #expect(site.entries[1].manifest.images.map(\.path) == ["hero.jpg", "logo.png"], "the manifest itself is kept as read")
        #expect(site.paths == ["site/dppx-manifest.json", "site/assets/img/dppx-manifest.json"])
        #expect(SiteManifests.empty.images.isEmpty && SiteManifests.empty.paths.isEmpty)
    }
}
