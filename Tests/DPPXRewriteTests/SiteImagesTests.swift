import DPPXCore
import DPPXRewrite
import Testing

@Suite("A site's images, looked up by any of their files' paths")
struct SiteImagesTests {
    @Test("made from a reading of the site's manifests, they are those manifests' images at their folders, the first listed winning")
    func fromSiteManifests() throws {
        let site = SiteManifests([
            .init(path: "site/img/dppx-manifest.json", folder: "img", manifest: RewriteFixtures.manifest),
            .init(path: "site/other/dppx-manifest.json", folder: "img", manifest: Manifest(images: [])),
        ])
        let images = SiteImages(site)
        let hero = try #require(images.match("img/hero.jpg"))
        #expect(hero.isPlainPath && hero.entry.source == "hero@2x.jpg" && hero.entry.folder == "img")
        #expect(images.match("img/hero@2x.jpg")?.isPlainPath == false)
        #expect(images.match("hero.jpg") == nil)
        #expect(images.manifestPaths == ["img/dppx-manifest.json", "img/dppx-manifest.json"])
        #expect(images.pixelSizes == RewriteFixtures.images.pixelSizes)
        #expect(SiteImages(.empty).isEmpty)
    }
}
