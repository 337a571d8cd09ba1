import DPPXCore
import DPPXRewrite
import DPPXServer
import DPPXTestSupport
import Foundation
import Logging

/// A ROOT written by hand for router tests: pages, a hidden file, symbolic links in and out of
/// ROOT, and `images/hero.*` in three densities and three formats with a manifest describing
/// them. File contents are short distinct texts, so a test knows from the body which file came.
final class ServerFixture: Sendable {
    /// Text in every file outside ROOT or hidden: a response holding it leaked one.
    static let secretMarker = "dppx-test-secret-7f3a"

    let scratch: ScratchFolder
    /// ROOT: `scratch/root`.
    let root: String

    /// The hero's variants, ascending by density then format preference.
    static let heroDensities: [Density] = [Density(1), Density(1.5), Density(2)]

    /// `jpegHero`: the hero's JPEG variants are real JPEGs of their pixel size (photo-like, so
    /// the 2x one is some 100 KB), which the server writes EXIF density into; otherwise texts.
    init(formats: [ImageFormat] = [.jpeg], writeManifest: Bool = true, jpegHero: Bool = false) throws {
        scratch = ScratchFolder("dppx-serve")
        root = scratch("root")
        try write("index.html", "<!doctype html><html><body><h1>home</h1></body></html>\n")
        try write("docs/index.html", "<!doctype html><html><body>docs</body></html>\n")
        try write("style.css", "body { color: black; }\n")
        try write("app.js", "console.log('hi');\n")
        try write(".hidden", "\(Self.secretMarker) hidden\n")
        try write("icons/arrow.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"48\" height=\"48\"/>\n")
        try write("digits.txt", "0123456789")
        // Outside ROOT: must never be served.
        try FileManager.default.createDirectory(atPath: scratch("outside"), withIntermediateDirectories: true)
        try "\(Self.secretMarker) outside\n".write(toFile: scratch("outside.txt"), atomically: true, encoding: .utf8)
        try "\(Self.secretMarker) outside folder\n".write(toFile: scratch("outside/secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/escape", withDestinationPath: scratch("outside"))
        try FileManager.default.createSymbolicLink(atPath: root + "/escape.txt", withDestinationPath: scratch("outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: root + "/inside.css", withDestinationPath: "style.css")
        var variants: [Manifest.Variant] = []
        for density in Self.heroDensities {
            for format in formats.sorted() {
                let path = Self.heroPath(density, format)
                let size = PixelSize(width: Int(400 * density.value), height: Int(250 * density.value))
                let bytes: Int
                if jpegHero, format == .jpeg {
                    try FileManager.default.createDirectory(atPath: root + "/images", withIntermediateDirectories: true)
                    // Stripped, as dppx writes variants: no EXIF of libvips's own to collide with.
                    try TestImages.write(root + "/" + path + "[strip]", width: size.width, height: size.height)
                    bytes = Int(try FileManager.default.attributesOfItem(atPath: root + "/" + path)[.size] as? UInt64 ?? 0)
                } else {
                    let body = Self.heroBody(density, format)
                    try write(path, body)
                    bytes = body.utf8.count
                }
                variants.append(Manifest.Variant(
                    path: path, density: density, format: format, size: size,
                    bytes: bytes, hash: Self.heroHash(density, format)))
            }
        }
        if writeManifest {
            let hero = Manifest.Image(source: "images/hero.jpg", path: "images/hero.jpg", sourceHash: "source",
                                      sourceDensity: Density(2), cssSize: PixelSize(width: 400, height: 250),
                                      densityIndependent: false, skippedDensities: [], variants: variants)
            let arrow = Manifest.Image(
                source: "icons/arrow.svg", path: "icons/arrow.svg", sourceHash: "svg", sourceDensity: Density(1),
                cssSize: PixelSize(width: 48, height: 48), densityIndependent: true, skippedDensities: [],
                variants: [Manifest.Variant(path: "icons/arrow.svg", density: Density(1), format: .svg,
                                            size: PixelSize(width: 48, height: 48), bytes: 0, hash: "svg")])
            try writeBytes(Manifest.fileName, Manifest(images: [hero, arrow]).encoded())
        }
    }

    static func heroPath(_ density: Density, _ format: ImageFormat) -> String {
        "images/hero\(density.fileSuffix).\(format.fileExtension)"
    }

    /// The body of a hero variant: its path, padded to a length unique to the variant, shorter
    /// for the formats usually smaller (AVIF, WebP, JPEG XL, JPEG), as real files are.
    static func heroBody(_ density: Density, _ format: ImageFormat) -> String {
        let name = heroPath(density, format)
        let length = 40 + density.milli / 100 + (ImageFormat.allCases.sorted().firstIndex(of: format) ?? 0)
        return name + String(repeating: ".", count: max(0, length - name.utf8.count))
    }

    /// A fake but distinct content hash per variant.
    static func heroHash(_ density: Density, _ format: ImageFormat) -> String {
        "\(format.rawValue)\(density.milli)" + String(repeating: "0", count: 20)
    }

    /// The strong ETag the server must send for a hero variant.
    static func heroETag(_ density: Density, _ format: ImageFormat) -> String {
        "\"\(heroHash(density, format))\""
    }

    func write(_ relative: String, _ text: String) throws {
        try writeBytes(relative, Array(text.utf8))
    }

    func writeBytes(_ relative: String, _ bytes: [UInt8]) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A server over this ROOT with test-friendly settings.
    func server(cachePolicy: CachePolicy = .revalidate, accessLog: AccessLog? = nil,
                idleTimeout: Duration = .seconds(30), development: DevelopmentOptions? = nil,
                rewrite: RewriteOptions? = nil, inspector: Bool = true, logger: Logger? = nil) -> ImageServer {
        var quiet = Logger(label: "dppx.test")
        quiet.logLevel = .critical
        let logger = logger ?? quiet
        var options = ServerOptions(root: root, host: "127.0.0.1", port: 0, cachePolicy: cachePolicy,
                                    idleTimeout: idleTimeout, manifestRecheckInterval: .zero, development: development)
        options.rewrite = rewrite
        options.inspector = inspector
        return ImageServer(options: options, logger: logger, accessLog: accessLog)
    }
}
