@testable import DPPXBuild
import DPPXCore
import Testing

/// Which files of a folder built in place are masters, and how a master's outputs are named
/// there: a plain name is always a master's.
@Suite("Building in place: masters and their variants' names")
struct InPlaceSiteTests {
    func files(_ paths: [String]) throws -> [SourceFile] {
        try paths.map { path in
            SourceFile(relativePath: path, absolutePath: "/site/" + path, name: try #require(MasterName(relativePath: path)),
                       byteCount: 1, modified: 0, inode: 0)
        }
    }

    func plan(_ path: String, _ size: PixelSize, _ settings: PlanSettings = PlanSettings()) throws -> ImagePlan {
        ImagePlan(name: try #require(MasterName(relativePath: path)), source: path, masterSize: size, hasAlpha: false,
                  animated: false, settings: settings, inPlace: true)
    }

    @Test("without a manifest, the names tell: a plain name, else the densest @Nx, is the family's master")
    func byName() throws {
        let site = InPlaceSite(previous: Manifest(images: []))
        let found = try files(["hero.jpg", "hero@1x.jpg", "hero@2x.webp", "hero-480w.jpg", "logo@2x.png", "logo@1x.png",
                               "logo@1.5x.png", "icons/hero@2x.jpg", "card-480w.jpg", "a.png", "a.jpg"])
        #expect(site.masters(among: found).map(\.relativePath) == ["hero.jpg", "logo@2x.png", "icons/hero@2x.jpg", "card-480w.jpg", "a.png", "a.jpg"])
    }

    @Test("the variants the last manifest lists are never masters, except a master's own file")
    func byManifest() throws {
        let own = Manifest.Variant(path: "logo@2x.png", density: Density(2), format: .png, size: PixelSize(width: 2, height: 2), bytes: 1, hash: "a")
        let lower = Manifest.Variant(path: "logo@1x.png", density: Density(1), format: .png, size: PixelSize(width: 1, height: 1), bytes: 1, hash: "b")
        let image = Manifest.Image(source: "logo@2x.png", path: "logo@2x.png", sourceHash: "a", sourceDensity: Density(2),
                                   cssSize: PixelSize(width: 1, height: 1), densityIndependent: false, skippedDensities: [], variants: [own, lower])
        let site = InPlaceSite(previous: Manifest(images: [image]))
        #expect(site.owned == ["logo@1x.png"])
        #expect(site.masters(among: try files(["logo@2x.png", "logo@1x.png"])).map(\.relativePath) == ["logo@2x.png"])
    }

    @Test("in place the 1x files are spelled @1x, the output at the master's own name is the master, and the URL is the master's")
    func names() throws {
        var stated = PlanSettings(extraFormats: [.webp])
        stated.rules = [ImageRule(match: [PathGlob("banner.jpg")], density: Density(2))]
        let banner = try plan("banner.jpg", PixelSize(width: 800, height: 400), stated)
        #expect(Set(banner.outputs.map(\.path)) == ["banner@1x.webp", "banner@1x.jpg", "banner@1.5x.webp", "banner@1.5x.jpg", "banner@2x.webp", "banner@2x.jpg"])
        #expect(banner.basePath == "banner.jpg" && !banner.outputs.contains(where: banner.isMaster))

        let logo = try plan("logo@2x.png", PixelSize(width: 240, height: 80))
        #expect(logo.outputs.map(\.path) == ["logo@1x.png", "logo@1.5x.png", "logo@2x.png"] && logo.basePath == "logo@2x.png")
        #expect(logo.outputs.filter(logo.isMaster).map(\.size) == [PixelSize(width: 240, height: 80)])

        let hero = try plan("hero.jpg", PixelSize(width: 801, height: 501), PlanSettings(extraFormats: [.webp]))
        #expect(hero.outputs.filter(hero.isMaster).map(\.path) == ["hero.jpg"])
        #expect(hero.outputs.contains { $0.path == "hero@1x.webp" } && !hero.outputs.contains { $0.path == "hero.webp" })

        let elsewhere = ImagePlan(name: try #require(MasterName(relativePath: "hero.jpg")), source: "hero.jpg", masterSize: PixelSize(width: 801, height: 501),
                                  hasAlpha: false, animated: false, settings: PlanSettings())
        #expect(!elsewhere.outputs.contains(where: elsewhere.isMaster), "built into another folder, every output is written")
    }
}
