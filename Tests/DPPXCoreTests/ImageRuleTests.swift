import DPPXCore
import Testing

@Suite("Per-glob rules and the intent they give")
struct ImageRuleTests {
    @Test("globs: * within a name, ** over folders, a pattern without / matches the name anywhere", arguments: [
        ("photos/**", "photos/a.jpg", true), ("photos/**", "photos/2024/a.jpg", true), ("photos/**", "photo.jpg", false),
        ("photos/*.jpg", "photos/a.jpg", true), ("photos/*.jpg", "photos/x/a.jpg", false),
        ("*.png", "icons/logo@3x.png", true), ("*.png", "hero.jpg", false), ("hero.jpg", "hero.jpg", true),
        ("hero.jpg", "other/hero.jpg", true), ("/hero.jpg", "other/hero.jpg", false), ("**/b/*.jpg", "a/b/c.jpg", true),
        ("a/**/c.jpg", "a/c.jpg", true), ("a/**/c.jpg", "a/x/y/c.jpg", true), ("h?ro.*", "hero.jpg", true),
    ])
    func globs(pattern: String, path: String, matches: Bool) {
        #expect(PathGlob(pattern).matches(path) == matches, "\(pattern) vs \(path)")
    }

    func plan(_ path: String, _ size: PixelSize, _ settings: PlanSettings) throws -> ImagePlan {
        ImagePlan(name: try #require(MasterName(relativePath: path)), source: path, masterSize: size, hasAlpha: false,
                  animated: false, settings: settings)
    }

    @Test("the last matching rule wins, field by field")
    func lastMatchWins() throws {
        let settings = PlanSettings(rules: [
            ImageRule(match: [PathGlob("**")], density: Density(1), jpegQuality: 70),
            ImageRule(match: [PathGlob("photos/**")], density: Density(3)),
            ImageRule(match: [PathGlob("photos/old/**")], exclude: true),
        ])
        #expect(settings.rule(for: "photos/a.jpg").density == Density(3))
        #expect(settings.rule(for: "photos/a.jpg").jpegQuality == 70, "an earlier rule's other fields still apply")
        #expect(settings.rule(for: "b.jpg").density == Density(1))
        #expect(settings.excludes("photos/old/x.jpg") && !settings.excludes("photos/x.jpg"))
    }

    @Test("intent: a name's @Nx, a rule and an explicit source density are given; the default is not")
    func intent() throws {
        let size = PixelSize(width: 800, height: 400)
        let rules = [ImageRule(match: [PathGlob("photos/**")], density: Density(1))]
        #expect(try plan("hero.jpg", size, PlanSettings()).intent == .default)
        #expect(try plan("hero@3x.jpg", size, PlanSettings()).intent == .name)
        #expect(try plan("hero.jpg", size, PlanSettings(defaultSourceDensity: Density(2), sourceDensityGiven: true)).intent == .option)
        let photo = try plan("photos/a.jpg", size, PlanSettings(rules: rules))
        #expect(photo.intent == .rule && photo.masterDensity == Density(1))
        #expect(photo.cssSize == size && photo.outputs.map(\.density) == [Density(1)])
        #expect(try plan("photos/a@2x.jpg", size, PlanSettings(rules: rules)).masterDensity == Density(2), "the name wins over a density rule")
        let manifest = try plan("hero.jpg", size, PlanSettings()).manifestImage(sourceHash: "", files: [:])
        #expect(manifest.intent == .default && !manifest.sizeIsGiven)
    }

    @Test("a master nothing describes keeps its own size under its plain name, with the automatic ladder below it")
    func unstatedMasterKeepsItsSize() throws {
        let size = PixelSize(width: 800, height: 400)
        let unstated = try plan("hero.jpg", size, PlanSettings(extraFormats: [.webp]))
        #expect(unstated.intent == .default && unstated.fluid && unstated.masterDensity == Density(1))
        #expect(unstated.cssSize == size)
        #expect(unstated.outputs.filter { $0.format == .jpeg }.map(\.path) == ["hero-331w.jpg", "hero-444w.jpg", "hero-596w.jpg", "hero.jpg"])
        #expect(unstated.outputs.first { $0.path == "hero.jpg" }?.size == size, "the plain file is the master's size")
        #expect(unstated.outputs.contains { $0.path == "hero.webp" && $0.size == size })
        let small = try plan("small.png", PixelSize(width: 400, height: 300), PlanSettings())
        #expect(small.outputs.map(\.path) == ["small.png"], "a master up to 428 px wide gets no smaller copies")
        // Anything that states the size makes density variants, as before.
        #expect(try !plan("hero@2x.jpg", size, PlanSettings()).fluid)
        #expect(try !plan("hero.jpg", size, PlanSettings(sourceDensityGiven: true)).fluid)
        #expect(try !plan("hero.jpg", size, PlanSettings(rules: [ImageRule(match: [PathGlob("*.jpg")], density: Density(2))])).fluid)
        #expect(try !plan("hero.jpg", size, PlanSettings(rules: [ImageRule(match: [PathGlob("*.jpg")], width: 400)])).fluid)
        #expect(try plan("hero.jpg", size, PlanSettings(sourceDensityGiven: true)).outputs.map(\.path) == ["hero.jpg", "hero@1.5x.jpg", "hero@2x.jpg"])
        #expect(try plan("icon.svg", PixelSize(width: 24, height: 24), PlanSettings()).outputs.map(\.path) == ["icon.svg"])
    }

    @Test("a display width sets the CSS box exactly; variants and the density follow from it")
    func width() throws {
        let settings = PlanSettings(rules: [ImageRule(match: [PathGlob("blog/*.jpg")], width: 589)])
        let photo = try plan("blog/photo.jpg", PixelSize(width: 778, height: 519), settings)
        #expect(photo.intent == .rule)
        #expect(photo.cssSize == PixelSize(width: 589, height: 393))
        #expect(photo.masterDensity == Density(milli: 1321))
        #expect(photo.outputs.map(\.density) == [Density(1)], "1.5x and 2x would upscale a 1.32x master")
        #expect(photo.skippedDensities == [Density(1.5), Density(2)])
        let hero = try plan("blog/hero@2x.jpg", PixelSize(width: 1200, height: 600),
                            PlanSettings(rules: [ImageRule(match: [PathGlob("blog/*.jpg")], width: 300)]))
        #expect(hero.cssSize == PixelSize(width: 300, height: 150), "a width rule wins over the name")
        #expect(hero.outputs.map(\.size.width) == [300, 450, 600])
    }

    @Test("a rule's formats replace the build's for its masters")
    func formats() throws {
        let settings = PlanSettings(extraFormats: [.webp, .avif], rules: [ImageRule(match: [PathGlob("*.png")], formats: [])])
        #expect(Set(try plan("logo@2x.png", PixelSize(width: 64, height: 64), settings).outputs.map(\.format)) == [.png])
        #expect(Set(try plan("hero.jpg", PixelSize(width: 64, height: 64), settings).outputs.map(\.format)) == [.jpeg, .webp, .avif])
    }
}
