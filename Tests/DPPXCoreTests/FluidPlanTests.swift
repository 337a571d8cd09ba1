import Foundation
import DPPXCore
import Testing

@Suite("Plans of fluid images")
struct FluidPlanTests {
    func plan(_ path: String, _ size: PixelSize, _ settings: PlanSettings) throws -> ImagePlan {
        ImagePlan(name: try #require(MasterName(relativePath: path)), source: path, masterSize: size, hasAlpha: false,
                  animated: false, settings: settings)
    }

    @Test("a rule's widths make a master fluid: -480w files in every format, the widest under the plain name")
    func ruleWidths() throws {
        let settings = PlanSettings(extraFormats: [.webp], rules: [ImageRule(match: [PathGlob("cards/**")], widths: .explicit([480, 960, 2000]))])
        let card = try plan("cards/a.jpg", PixelSize(width: 1200, height: 800), settings)
        #expect(card.fluid)
        #expect(card.intent == .rule)
        #expect(card.outputs.map(\.path) == ["cards/a-480w.webp", "cards/a-480w.jpg", "cards/a-960w.webp", "cards/a-960w.jpg",
                                             "cards/a.webp", "cards/a.jpg"])
        #expect(card.outputs.map(\.size.width) == [480, 480, 960, 960, 1200, 1200])
        #expect(card.outputs[0].size.height == 320)
        #expect(card.skippedWidths == [2000])
        #expect(card.skippedDensities.isEmpty)
        #expect(card.cssSize == PixelSize(width: 1200, height: 800), "the box is the widest file's, for the aspect ratio")
        #expect(card.basePath == "cards/a.jpg")
        #expect(try !plan("hero@2x.jpg", PixelSize(width: 1200, height: 800), settings).fluid, "other masters keep densities")
    }

    @Test("--widths makes every raster master fluid, a rule's widths win, and an SVG stays one file")
    func optionWidths() throws {
        let settings = PlanSettings(widths: .auto, rules: [ImageRule(match: [PathGlob("a.jpg")], widths: .explicit([400]))])
        let auto = try plan("b@2x.jpg", PixelSize(width: 500, height: 250), settings)
        #expect(auto.fluid && auto.intent == .option)
        #expect(auto.outputs.map(\.path) == ["b-373w.jpg", "b.jpg"], "a fluid image's names carry no @Nx")
        #expect(try plan("a.jpg", PixelSize(width: 1000, height: 500), settings).outputs.map(\.size.width) == [400, 1000])
        let logo = try plan("logo.svg", PixelSize(width: 100, height: 50), settings)
        #expect(!logo.fluid && logo.densityIndependent)
    }

    @Test("measured widths replace the automatic ladder of a master nothing states, and only of it; they are not part of the settings' identity")
    func measuredWidths() throws {
        var settings = PlanSettings(rules: [ImageRule(match: [PathGlob("ruled.jpg")], widths: .explicit([400]))])
        settings.measuredWidths = ["a.jpg": [296, 444, 592, 1600], "logo@2x.png": [200, 400], "ruled.jpg": [300]]
        let photo = try plan("a.jpg", PixelSize(width: 1600, height: 1067), settings)
        #expect(photo.fluid && photo.intent == .default)
        #expect(photo.outputs.map(\.path) == ["a-296w.jpg", "a-444w.jpg", "a-592w.jpg", "a.jpg"])
        #expect(!(try plan("logo@2x.png", PixelSize(width: 400, height: 100), settings)).fluid, "a stated density keeps its densities")
        #expect(try plan("ruled.jpg", PixelSize(width: 1000, height: 500), settings).outputs.map(\.size.width) == [400, 1000], "a rule's widths win")
        #expect(try plan("b.jpg", PixelSize(width: 1000, height: 500), settings).outputs.map(\.size.width) == WidthLadder(masterWidth: 1000, request: .auto).widths)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var unmeasured = settings
        unmeasured.measuredWidths = [:]
        #expect(try encoder.encode(settings) == encoder.encode(unmeasured))
    }

    @Test("the manifest says a fluid image is fluid and lists its widths; other entries do not change")
    func manifest() throws {
        let card = try plan("a.png", PixelSize(width: 1000, height: 500), PlanSettings(widths: .explicit([500])))
        let image = card.manifestImage(sourceHash: "h", files: [:])
        #expect(image.isFluid && image.widths == [500, 1000])
        #expect(image.variants.map(\.path) == ["a-500w.png", "a.png"])
        let dense = try plan("a@2x.png", PixelSize(width: 1000, height: 500), PlanSettings()).manifestImage(sourceHash: "h", files: [:])
        #expect(!dense.isFluid)
        #expect(!String(decoding: Manifest(images: [dense]).encoded(), as: UTF8.self).contains("fluid"))
        #expect(String(decoding: Manifest(images: [image]).encoded(), as: UTF8.self).contains("\"fluid\" : true"))
    }

    @Test("width names cannot be read back as densities")
    func names() throws {
        let name = try #require(MasterName(relativePath: "a/hero.jpg"))
        let path = name.widthPath(width: 480, format: .webp)
        #expect(path == "a/hero-480w.webp")
        #expect(MasterName(relativePath: path)?.declaredDensity == nil)
    }
}
