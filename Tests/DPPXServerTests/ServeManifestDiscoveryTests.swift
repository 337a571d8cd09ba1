import DPPXCore
import DPPXRewrite
@testable import DPPXServer
import DPPXTestSupport
import Foundation
import Testing

/// The server's view of a site's manifests: every one under ROOT, at its folder's URLs.
@Suite("dppx serve finds every manifest under ROOT")
struct ServeManifestDiscoveryTests {
    static func manifest(_ path: String) -> [UInt8] {
        let image = Manifest.Image(source: path, path: path, sourceHash: "h", sourceDensity: Density(2),
                                   cssSize: PixelSize(width: 10, height: 10), densityIndependent: false, intent: .name,
                                   skippedDensities: [], variants: [
                                       Manifest.Variant(path: path, density: Density(1), format: .jpeg,
                                                        size: PixelSize(width: 10, height: 10), bytes: 1, hash: "a"),
                                   ])
        return Manifest(images: [image]).encoded()
    }

    @Test("nested manifests answer their folder's paths; one written later is found at the next search; hidden folders are skipped")
    func discovery() async throws {
        let scratch = ScratchFolder("dppx-discovery")
        try TestImages.writeBytes(Self.manifest("hero.jpg"), to: scratch("root/assets/img/\(Manifest.fileName)"))
        try TestImages.writeBytes(Self.manifest("secret.jpg"), to: scratch("root/.git/\(Manifest.fileName)"))
        let store = ManifestStore(root: scratch("root"), recheckInterval: .zero)
        #expect(store.index().image(atBasePath: "assets/img/hero.jpg")?.variants.first?.path == "assets/img/hero.jpg")
        #expect(store.index().image(atBasePath: "hero.jpg") == nil)
        #expect(store.index().manifest.images.count == 1, "the hidden folder's manifest is not used")

        try TestImages.writeBytes(Self.manifest("logo.png"), to: scratch("root/icons/\(Manifest.fileName)"))
        var found = false
        for _ in 0..<200 where !found {
            found = store.index().image(atBasePath: "icons/logo.png") != nil
            if !found { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(found, "a manifest written while serving is found within a few checks")
        let root = scratch("root")
        #expect(store.status() == .loaded(images: 2, manifests: ["\(root)/assets/img/\(Manifest.fileName)", "\(root)/icons/\(Manifest.fileName)"]))
        #expect(store.status().description == "\(root)/assets/img/\(Manifest.fileName), \(root)/icons/\(Manifest.fileName): picking variants for 2 images",
                "the status names the manifests read, not ROOT's own (which does not exist)")
    }

    @Test("a timed check begun before a search does not drop the manifest the search found")
    func checkRacingSearch() throws {
        let scratch = ScratchFolder("dppx-discovery-race")
        try TestImages.writeBytes(Self.manifest("hero.jpg"), to: scratch("root/\(Manifest.fileName)"))
        let store = ManifestStore(root: scratch("root"), recheckInterval: .seconds(3600))
        try TestImages.writeBytes(Self.manifest("logo.png"), to: scratch("root/icons/\(Manifest.fileName)"))
        // A request's timed check takes the known paths, then a background search finds the
        // new manifest before the check has read its files.
        let check = try #require(store.beginTimedCheck(now: .now + .seconds(7200)))
        store.search()
        #expect(store.index().image(atBasePath: "icons/logo.png") != nil)
        store.finish(check)
        #expect(store.index().image(atBasePath: "icons/logo.png") != nil, "the late check forgot the manifest just found")
        #expect(store.index().image(atBasePath: "hero.jpg") != nil)
        // A check begun after the search sees both, and still notices a change.
        try TestImages.writeBytes(Self.manifest("other.jpg"), to: scratch("root/\(Manifest.fileName)"))
        let later = try #require(store.beginTimedCheck(now: .now + .seconds(14400)))
        store.finish(later)
        #expect(store.index().image(atBasePath: "other.jpg") != nil && store.index().image(atBasePath: "icons/logo.png") != nil)
    }

    @Test("negotiation and a [rewrite] page rewriter read one reading: a manifest appears in both at once, at its folder")
    func oneReading() throws {
        let scratch = ScratchFolder("dppx-discovery-one")
        try TestImages.writeBytes(Self.manifest("hero.jpg"), to: scratch("root/\(Manifest.fileName)"))
        let store = ManifestStore(root: scratch("root"), recheckInterval: .seconds(3600))
        try TestImages.writeBytes(Self.manifest("logo.png"), to: scratch("root/icons/\(Manifest.fileName)"))
        let before = store.index()
        #expect(before.image(atBasePath: "icons/logo.png") == nil && SiteImages(before.site).match("icons/logo.png") == nil,
                "not found yet by either")
        store.reload()
        let after = store.index()
        #expect(after.site.entries.map(\.folder) == ["", "icons"])
        #expect(after.image(atBasePath: "icons/logo.png") != nil)
        let logo = try #require(SiteImages(after.site).match("icons/logo.png"))
        #expect(logo.isPlainPath && logo.entry.folder == "icons" && logo.entry.source == "logo.png")
        #expect(after.manifest.images.map(\.path) == after.site.images.map(\.path))
    }
}
