import DPPXCore
@testable import DPPXServer
import Foundation
import Testing

@Suite("dppx serve's inspector shows what a page view costs")
struct ServeInspectorPageViewTests {
    /// `index.html` measured showing the hero in its 400 px box at every width.
    static func layout() -> LayoutFile {
        let samples = stride(from: 320.0, through: 2560, by: 40).map { LayoutFile.Sample(viewport: $0, width: 400, height: 250) }
        let page = LayoutFile.Page(hash: "h", dependencies: ["index.html"], viewportHeight: 800, scrollbars: "hidden",
                                   images: [LayoutFile.Image(offset: 40, src: "images/hero.jpg", samples: samples)], backgrounds: [])
        return LayoutFile(pages: ["index.html": page])
    }

    @Test("a measured site: one row per page with each screen's bytes before and after, and a bar chart in inline SVG")
    func pageViews() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp])
        try await fixture.server().test { client in
            let unmeasured = try await client.get("/_dppx/").text
            #expect(!unmeasured.contains("What a page view costs"), "nothing measured: no table")
        }
        try fixture.writeBytes(LayoutFile.fileName, Array(try JSONEncoder().encode(Self.layout())))
        try await fixture.server().test { client in
            let html = try await client.get("/_dppx/").text
            #expect(html.contains("<h2>What a page view costs</h2>"))
            #expect(html.contains(#"<th class="number">phone 375x812 @3x</th><th class="number">laptop 1280x800 @1x</th>"#), "\(html)")
            #expect(html.contains(#"<tr data-page="index.html"><td><a href="/index.html"><code>index.html</code></a></td>"#))
            // Without <picture> the hero's JPEGs are what each screen fetches: the plain 1x file
            // before, its 2x file after on the phone.
            let before = ServerFixture.heroBody(Density(1), .jpeg).utf8.count
            let after = ServerFixture.heroBody(Density(2), .jpeg).utf8.count
            #expect(html.contains(#"<td class="number" data-profile="phone">\#(InspectorView.humanSize(before)) &rarr; <strong>\#(InspectorView.humanSize(after))</strong>"#),
                    "\(html)")
            #expect(html.contains(#"<svg xmlns="http://www.w3.org/2000/svg""#) && html.contains("<title>phone after: "))
        }
    }

    @Test("the chart: a bar pair per screen on one scale, each bar titled with its bytes")
    func chart() {
        var phone = PageViewCost.Total(profile: "phone")
        phone.before = 2000
        phone.after = 500
        let svg = PageViewRow.chart([phone], largest: 2000)
        #expect(svg.contains(##"<rect x="0" y="0" width="10" height="32" fill="#b9b9c3"><title>phone before: 2.0 KB</title></rect>"##), "\(svg)")
        #expect(svg.contains(##"<rect x="10" y="24" width="10" height="8" fill="#2e9e4f"><title>phone after: 500 B</title></rect>"##), "\(svg)")
        #expect(PageViewRow.cell(phone).change == "-75 %")
    }
}
