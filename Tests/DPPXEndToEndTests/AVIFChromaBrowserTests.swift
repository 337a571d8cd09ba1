import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `auto`'s AVIF files are 4:4:4 (AV1's High profile), where fixed-quality ones are 4:2:0:
/// Chromium and Firefox must show their full-resolution colour. A master whose left part is
/// one-pixel red and blue columns (colour detail 4:2:0 averages to purple) is built with
/// `--avif-quality auto`; each browser's screenshot of the AVIF, drawn four times its size
/// pixelated, shows the columns as libvips decodes them.
@Suite("4:4:4 AVIF in Chromium and Firefox (end to end)", .serialized,
       .enabled(if: Chromium.installed != nil || Firefox.installed != nil,
                "neither chromium nor firefox-esr is installed (scripts/install-deps --test): browser tests skipped"))
struct AVIFChromaBrowserTests {
    static let width = 160, height = 80, scale = 4

    /// Red and blue columns, then noise (so the PNG master is larger than its AVIF, which is
    /// written only when smaller).
    static func stripes() -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                if x < 32 {
                    pixels += x % 2 == 0 ? [230, 20, 20] : [20, 20, 230]
                } else {
                    pixels += (0..<3).map { _ in UInt8.random(in: 60...190, using: &random) }
                }
            }
        }
        return pixels
    }

    @Test("Chromium and Firefox show a 4:4:4 AVIF's colour columns as libvips decodes them")
    func fullChroma() async throws {
        let folder = ScratchFolder("dppx-avif-chroma")
        try TestImages.writePixels(Self.stripes(), width: Self.width, height: Self.height, bands: 3, to: folder("src/stripes.png"))
        let build = try await DPPXBinary.run(["build", "src", "--out", "public", "--densities", "1", "--source-density", "1",
                                              "--formats", "avif", "--avif-quality", "auto"], in: folder.path)
        #expect(build.status == 0, "\(build)")
        let manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder("public/" + Manifest.fileName)))))
        let avif = try #require(manifest.images.first?.variants.first { $0.format == .avif }, "the AVIF was written")
        #expect(avif.chroma == .full)
        let expected = try DecodedFile(folder("public/stripes.avif"))
        // The columns survive in the file itself: 4:2:0 would have made them one purple.
        #expect(Self.columnsAlternate(expected) { x, y in Self.colour(expected, x: x, y: y) })

        try """
        <!doctype html><html><head><style>
        body { margin: 0; background: #fff } img { display: block; image-rendering: pixelated;
        width: \(Self.width * Self.scale)px; height: \(Self.height * Self.scale)px }
        </style></head><body><img src="public/stripes.avif"></body></html>
        """.write(toFile: folder("page.html"), atomically: true, encoding: .utf8)
        let server = try StaticServer(root: folder.path)
        let window = (width: Self.width * Self.scale + 40, height: Self.height * Self.scale + 40)
        var shots: [(String, String)] = []
        if let chromium = Chromium.installed {
            try await chromium.screenshot(of: server.url("page.html"), to: folder("chromium.png"), windowSize: window)
            shots.append(("Chromium", folder("chromium.png")))
        }
        // Kept to the end: the profile's folder, which holds the screenshot, goes with it.
        let profile = try Firefox.Profile(devicePixelRatio: 1)
        if let firefox = Firefox.installed {
            try await firefox.load(server.url("page.html"), in: profile, windowSize: window)
            shots.append(("Firefox", profile.folder("screenshot.png")))
        }
        for (browser, path) in shots {
            let shot = try DecodedFile(path)
            // The centre of each file pixel's 4x4 block on screen.
            let shown = { (x: Int, y: Int) in Self.colour(shot, x: x * Self.scale + Self.scale / 2, y: y * Self.scale + Self.scale / 2) }
            #expect(Self.columnsAlternate(expected, shown), "\(browser) shows the columns")
            var largest = 0
            for y in stride(from: 2, to: Self.height, by: 10) {
                for x in 0..<32 {
                    let difference = zip(shown(x, y), Self.colour(expected, x: x, y: y)).map { abs($0 - $1) }.max() ?? 0
                    largest = max(largest, difference)
                }
            }
            #expect(largest <= 8, "\(browser) differs from libvips's decode by up to \(largest) in the columns")
        }
    }

    /// Whether the first 32 columns alternate red and blue, as `colour` gives them.
    static func columnsAlternate(_ image: DecodedFile, _ colour: (Int, Int) -> [Int]) -> Bool {
        (0..<32).allSatisfy { x in
            let pixel = colour(x, Self.height / 2)
            return x % 2 == 0 ? pixel[0] > 150 && pixel[2] < 100 : pixel[2] > 150 && pixel[0] < 100
        }
    }

    /// The RGB of one pixel.
    static func colour(_ image: DecodedFile, x: Int, y: Int) -> [Int] {
        let at = (y * image.width + x) * image.bands
        return (0..<3).map { Int(image.pixels[at + $0]) }
    }
}
