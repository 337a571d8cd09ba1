import DPPXTestSupport
import Foundation
import Testing

/// A background whose photo sits under a gradient overlay keeps its overlay once rewritten: the
/// `image-set()` replaces only the photo's layer, so Chromium and Firefox paint the same
/// overlaid colour in the same box as before the rewrite.
@Suite("A layered background keeps its overlay after dppx rewrite (end to end)", .serialized)
struct LayeredBackgroundBrowserTests {
    /// `orig/` before the rewrite, `site/` after: two 400x200 boxes of a red photo (hero@2x.jpg,
    /// one solid colour) under a half-transparent gradient, one written as a `background`
    /// shorthand (blue overlay), one as `background-image` with `background-size` (green).
    static func makeSite() async throws -> RenderScenario {
        let scenario = try RenderScenario(masters: [:], svg: false)
        try TestImages.writePixels([UInt8](repeating: 0, count: 800 * 400 * 3).enumerated().map { $0.offset % 3 == 0 ? 220 : 20 },
                                   width: 800, height: 400, bands: 3, to: scenario.scratch("src/hero@2x.jpg"))
        try await scenario.build(into: "site/img", ["--densities", "1,2"])
        try scenario.write(#"<!doctype html><html><head><link rel="stylesheet" href="/css/site.css"></head><body><div class="hero"></div><div class="card"></div></body></html>"#,
                           to: "site/index.html")
        try scenario.write("""
        body { margin: 0 }
        .hero { width: 400px; height: 200px; background: linear-gradient(rgba(0, 0, 255, .5), rgba(0, 0, 255, .5)), url(../img/hero.jpg) center / cover; }
        .card { width: 400px; height: 200px; background-image: linear-gradient(rgba(0, 255, 0, .5), rgba(0, 255, 0, .5)), url("../img/hero.jpg"); background-size: cover; }
        """, to: "site/css/site.css")
        try FileManager.default.copyItem(atPath: scenario.scratch("site"), toPath: scenario.scratch("orig"))
        let rewrite = try await scenario.dppx("rewrite", "site/css/site.css", "--root", "site")
        guard rewrite.status == 0, rewrite.stdout.contains("rewrote 1 page") else {
            throw RenderScenario.ScenarioFailure(message: "dppx rewrite failed: \(rewrite)")
        }
        return scenario
    }

    /// The device-pixel box of the pixels `matches` accepts, and the colour at the box's centre.
    static func region(in path: String, _ matches: (UInt8, UInt8, UInt8) -> Bool) throws -> (box: [Int], centre: [UInt8]) {
        let image = try DecodedFile(path)
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let offset = (y * image.width + x) * image.bands
            return Array(image.pixels[offset..<(offset + 3)])
        }
        for y in 0..<image.height {
            for x in 0..<image.width {
                let rgb = pixel(x, y)
                guard matches(rgb[0], rgb[1], rgb[2]) else { continue }
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return ([], []) }
        return ([minX, minY, maxX - minX + 1, maxY - minY + 1], pixel((minX + maxX) / 2, (minY + maxY) / 2))
    }

    /// Red under half blue (about 110, 10, 137), and red under half green (110, 137, 10).
    static func overlaidBlue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { (80...150).contains(r) && g < 50 && (100...175).contains(b) }
    static func overlaidGreen(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { (80...150).contains(r) && (100...175).contains(g) && b < 50 }

    @Test("the rewritten stylesheet writes the whole layer list, and Chromium and Firefox at DPR 1 and 2 paint the overlay in the same boxes as before")
    func overlayKept() async throws {
        let scenario = try await Self.makeSite()
        let css = try #require(scenario.read("site/css/site.css"))
        #expect(css.contains(#"center / cover; background-image: linear-gradient(rgba(0, 0, 255, .5), rgba(0, 0, 255, .5)), image-set(url("../img/hero.jpg") 1x, url("../img/hero@2x.jpg") 2x); }"#), "\(css)")
        #expect(css.contains(#"url("../img/hero.jpg"); background-image: linear-gradient(rgba(0, 255, 0, .5), rgba(0, 255, 0, .5)), image-set(url("../img/hero.jpg") 1x, url("../img/hero@2x.jpg") 2x); background-size"#), "\(css)")
        let original = try StaticServer(root: scenario.scratch("orig"))
        let rewritten = try StaticServer(root: scenario.scratch("site"))
        var engines = 0
        for dpr in [1.0, 2.0] {
            var shots: [(engine: String, shoot: (String, String) async throws -> Void)] = []
            if let chromium = Chromium.installed {
                shots.append(("chromium", { url, path in try await chromium.screenshot(of: url, to: path, deviceScaleFactor: dpr, windowSize: (800, 600)) }))
            }
            if let firefox = Firefox.installed {
                shots.append(("firefox", { url, path in
                    let profile = try Firefox.Profile(devicePixelRatio: dpr)
                    try await firefox.load(url, in: profile, windowSize: (800, 600))
                    try FileManager.default.copyItem(atPath: profile.folder("screenshot.png"), toPath: path)
                }))
            }
            engines = max(engines, shots.count)
            for shot in shots {
                var regions: [[(box: [Int], centre: [UInt8])]] = []
                for (name, server) in [("before", original), ("after", rewritten)] {
                    let path = scenario.scratch("\(shot.engine)-\(dpr)-\(name).png")
                    try await shot.shoot(server.url("index.html"), path)
                    regions.append([try Self.region(in: path, Self.overlaidBlue), try Self.region(in: path, Self.overlaidGreen)])
                }
                let context = "\(shot.engine) at DPR \(dpr): before \(regions[0]), after \(regions[1])"
                // Firefox's headless screenshot is in CSS px whatever its device pixel ratio.
                let scale = regions[0][0].box.count == 4 && regions[0][0].box[2] == 400 ? 1 : dpr
                let side = Int(400 * scale), height = Int(200 * scale)
                #expect(regions[0][0].box == [0, 0, side, height], "the overlaid hero before: \(context)")
                #expect(regions[0][1].box == [0, height, side, height], "the overlaid card before: \(context)")
                #expect(regions[1][0].box == regions[0][0].box && regions[1][1].box == regions[0][1].box, "\(context)")
                for index in 0..<2 {
                    let (before, after) = (regions[0][index].centre, regions[1][index].centre)
                    #expect(before.count == 3 && after.count == 3 && zip(before, after).allSatisfy { abs(Int($0) - Int($1)) <= 8 }, "\(context)")
                }
            }
        }
        #expect(engines == 2 || Chromium.installed == nil || Firefox.installed == nil)
    }
}
