import DPPXCore
import DPPXMeasure
import DPPXRewrite
import Foundation
import Testing

/// A site's stylesheet rewritten from its pages measured in Chromium, in process: the path the
/// measured-background tests take (`SiteMeasurement`, then `PageRewriter.rewriteCSS`), the
/// site's images in `img/` under its manifest.
struct MeasuredStylesheet {
    /// The stylesheet as rewritten, its findings, and the layout measured.
    let text: String
    let findings: [RewriteFinding]
    let layout: LayoutFile

    /// Measures `pages` under `site` (`height`: the viewport's, CSS px, when the test's window
    /// is not the ladder's) into the layout file `output` (under `site`) and rewrites
    /// `stylesheet`, found at `path` under `site`.
    init(site: String, pages: [String] = ["index.html"], stylesheet: String, at path: String = "css/site.css",
         height: Int? = nil, output: String = LayoutFile.fileName, chromium: Chromium) async throws {
        let manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: site + "/img/" + Manifest.fileName))))
        var sizes: [String: PixelSize] = [:]
        for image in manifest.images { sizes["img/" + image.path] = image.cssSize }
        let responder = SiteResponder(root: site, imageSizes: sizes, imageTagOffsets: { _ in [] })
        var measurement = SiteMeasurement(pages: pages, responder: responder, output: site + "/" + output)
        // Beside the other browser suites on 2 cores, a page can take over a minute.
        measurement.timeout = .seconds(240)
        if let height { measurement.ladder.height = height }
        let measured = try await measurement.run { () throws(MeasureError) in chromium.executable }
        #expect(measured.failures.isEmpty, "\(measured.failures)")
        let rewriter = PageRewriter(images: SiteImages(manifests: [("img", manifest)]), options: RewriteOptions(layout: measured.layout))
        let result = rewriter.rewriteCSS(Array(stylesheet.utf8), at: path)
        text = String(decoding: result.bytes, as: UTF8.self)
        findings = result.findings
        layout = measured.layout
    }
}
