import DPPXBuild
import DPPXCore
import DPPXRewrite
import Testing

/// The widths a fluid master is built at follow the widths its measured images are painted at.
@Suite("Ladders from the measured layout")
struct LayoutLaddersTests {
    /// A fluid 3:2 photo, `img/photo.jpg` on the site.
    static let images = SiteImages(manifests: [(folder: "img", manifest: Manifest(images: [
        ImagePlan(name: MasterName(relativePath: "photo.jpg")!, source: "photo.jpg", masterSize: PixelSize(width: 2400, height: 1600),
                  hasAlpha: false, animated: false, settings: PlanSettings()).manifestImage(sourceHash: "", files: [:]),
    ]))])

    @Test("an object-fit: cover card painted 1.5 times as wide as its box is built at the widths of its painted width, not its box's")
    func paintedWidths() throws {
        let viewports = stride(from: 320.0, through: 1280, by: 40)
        let cards = viewports.map { viewport -> LayoutFile.Sample in
            let box = viewport < 768 ? viewport - 24 : (viewport - 48) / 3
            return LayoutFile.Sample(viewport: viewport, width: box, height: box, painted: box * 1.5)
        }
        let page = LayoutFile.Page(hash: "h", dependencies: ["index.html"], viewportHeight: 800, scrollbars: "hidden",
                                   images: [LayoutFile.Image(offset: 10, src: "img/photo.jpg", samples: cards)], backgrounds: [])
        let widths = LayoutLadders.widths(layout: LayoutFile(pages: ["index.html": page]), images: Self.images,
                                          rewriter: PageRewriter(images: Self.images, options: RewriteOptions()))
        let painted = MeasuredLadder(masterWidth: 2400, boxWidths: cards.map(\.paintedWidth)).widths
        #expect(widths["photo.jpg"] == painted)
        #expect(painted != MeasuredLadder(masterWidth: 2400, boxWidths: cards.map(\.width)).widths, "the boxes alone ask for other widths")
    }
}
