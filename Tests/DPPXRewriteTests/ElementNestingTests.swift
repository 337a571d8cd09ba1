import CGumbo
import CGumboGuard
import DPPXCore
@testable import DPPXRewrite
import Foundation
import Testing

/// A page nested deeper than browsers nest (512) is named and left as it is, read in linear
/// time; the count read ahead of the parser is never below the depth gumbo builds, so no page
/// slips past it into the parser's quadratic time.
@Suite("Deeply nested pages")
struct ElementNestingTests {
    @Test("20 000 nested <div>s around an image: named at the line where it goes too deep, left byte for byte, in well under a second")
    func deepPageLeftAsItIs() {
        let page = "<!doctype html>\n<title>deep</title>\n" + String(repeating: "<div>", count: 20_000) + #"<img src="img/logo.png">"#
        let bytes = Array(page.utf8)
        let started = ContinuousClock.now
        let result = RewriteFixtures.rewriter().rewriteHTML(bytes, at: "deep.html")
        let elapsed = ContinuousClock.now - started
        #expect(result.bytes == bytes && result.imagesRewritten == 0)
        #expect(result.findings.map(\.description) == [
            "deep.html:3: the page nests elements more than 512 deep here (browsers stop nesting there), so it is not read; left as it is",
        ])
        #expect(elapsed < .milliseconds(500), "\(elapsed)")
    }

    @Test("a page 500 deep, and one of 20 000 sibling <div>s, are rewritten as any other")
    func deepButNotTooDeep() {
        let image = #"<img src="img/logo.png">"#
        for page in [String(repeating: "<div>", count: 500) + image,
                     String(repeating: "<div></div>", count: 20_000) + image,
                     "<ul>" + String(repeating: "<li>a<p>b", count: 2000) + "</ul>" + image,
                     "<table>" + String(repeating: "<tr><td>a<td>b", count: 2000) + "</table>" + image,
                     "<select>" + String(repeating: "<option>a", count: 2000) + "</select><dl>" + String(repeating: "<dt>a<dd>b", count: 2000) + "</dl>" + image,
                     String(repeating: "<br/><svg><g/><path/></svg><p/>", count: 2000) + image] {
            let result = RewriteFixtures.rewriter().rewriteHTML(Array(page.utf8), at: "index.html")
            #expect(result.imagesRewritten == 1 && result.findings.isEmpty, "\(page.prefix(60)): \(result.findings), depth \(ElementNesting.depth(of: Array(page.utf8)))")
        }
    }

    @Test("ways of nesting the parser follows and a naive count would miss are counted", arguments: [
        "<li><ul></li>", "<span><div></span>", "<b><div></b>", "<form><div></form>", "<svg/><div/>", "<svg><div/>",
        "<div></body>", "<p><button></p>", "<svg><g><font>",
    ])
    func evasions(_ unit: String) {
        let page = Array(String(repeating: unit, count: 1500).utf8)
        #expect(ElementNesting.firstTooDeep(in: page) != nil, "\(unit)")
        // Compared with gumbo below the cap, as dppx parses pages: gumbo itself aborts on an
        // assertion in some markup thousands of elements deep (`<svg><g><font>` 1500 times),
        // which is what the cap keeps from it.
        let parsed = Array(String(repeating: unit, count: 150).utf8)
        #expect(ElementNesting.depth(of: parsed) + 3 >= Self.gumboDepth(parsed), "\(unit)")
    }

    @Test("on random markup the count is never below the depth gumbo builds")
    func neverBelowTheParser() {
        let pieces = ["<div>", "</div>", "<span>", "</span>", "<p>", "</p>", "<li>", "</li>", "<ul>", "</ul>", "<b>", "</b>", "<i>", "</i>",
                      "<a>", "</a>", "<form>", "</form>", "<table>", "</table>", "<tr>", "<td>", "</td>", "</tr>", "<svg>", "</svg>", "<g>",
                      "<g/>", "<div/>", "<foreignObject>", "<math>", "<mi>", "</math>", "<button>", "</button>", "<select>", "<option>",
                      "</select>", "<template>", "</template>", "</body>", "<body>", "<script>x<div></script>", "<style><div></style>",
                      "<!-- <div> -->", "<font>", "</font>", "<dd>", "<dt>", "<h1>", "</h2>", "<caption>", "<colgroup>", "<tbody>", "text"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let page = Array((0..<400).map { _ in pieces.randomElement(using: &generator)! }.joined().utf8)
            let counted = ElementNesting.depth(of: page)
            let built = Self.gumboDepth(page)
            #expect(counted + 3 >= built, "counted \(counted), gumbo built \(built): \(String(decoding: page, as: UTF8.self))")
        }
    }

    @Test("markup that fails one of gumbo's assertions is named and left as it is: the process goes on", arguments: [
        "<table><math><select><mi><template></template></table>",
        "<table><svg><select><foreignObject><template></template></table>",
    ])
    func abortingMarkup(_ markup: String) {
        let page = Array(("<p>intro</p>\n" + markup + #"<img src="img/photo.jpg">"#).utf8)
        let result = RewriteFixtures.rewriter().rewriteHTML(page, at: "index.html")
        #expect(result.bytes == page)
        #expect(result.findings.map(\.description) == [
            "index.html:1: its markup fails an assertion of the HTML parser dppx reads pages with (gumbo 0.10: misnested tables, forms or SVG and MathML such as <table><math><select><mi><template>), so it is not read; left as it is",
        ])
        // The next page is read as usual, on this thread and another.
        #expect(HTMLPage(parsing: Array(#"<p><img src="a.jpg"></p>"#.utf8)).images.count == 1)
        let other = Thread { _ = HTMLPage(parsing: page) }
        other.start()
        #expect(HTMLPage(parsing: Array(#"<table><tr><td><img src="b.jpg"></table>"#.utf8)).images.count == 1)
    }

    @Test("random markup of tables, selects, templates, SVG and MathML never aborts the rewrite")
    func randomMarkupNeverAborts() {
        let pieces = ["<table>", "</table>", "<tr>", "<td>", "<select>", "</select>", "<option>", "<template>", "</template>", "<math>",
                      "</math>", "<mi>", "</mi>", "<svg>", "</svg>", "<foreignObject>", "<g>", "<div>", "</div>", "<p>", "<b>", "</b>",
                      "<form>", "</form>", "<li>", "<font>", "</body>", "text", #"<img src="img/photo.jpg">"#]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let page = Array((0..<300).map { _ in pieces.randomElement(using: &generator)! }.joined().utf8)
            // A miss here ends the test process with gumbo's assertion.
            _ = RewriteFixtures.rewriter().rewriteHTML(page, at: "index.html")
        }
    }

    /// The depth of the deepest element gumbo builds from `bytes` (the document itself not
    /// counted); 0 where the markup fails one of gumbo's assertions (parsed as dppx parses, guarded).
    static func gumboDepth(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
                var options = kGumboDefaultOptions
                options.max_errors = 0
                var aborted: Int32 = 0
                let parsed = cgumbo_parse_guarded(&options, text, buffer.count, &aborted)
                defer { cgumbo_destroy_guarded(&options, parsed) }
                guard let output = parsed else { return 0 }
                var deepest = 0
                var pending: [(UnsafeMutablePointer<GumboNode>, Int)] = [(output.pointee.document, 0)]
                while let (node, depth) = pending.popLast() {
                    deepest = max(deepest, depth)
                    let children: GumboVector
                    switch node.pointee.type {
                    case GUMBO_NODE_DOCUMENT: children = node.pointee.v.document.children
                    case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE: children = node.pointee.v.element.children
                    default: continue
                    }
                    for index in 0..<Int(children.length) {
                        guard let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self) else { continue }
                        if child.pointee.type == GUMBO_NODE_ELEMENT || child.pointee.type == GUMBO_NODE_TEMPLATE { pending.append((child, depth + 1)) }
                    }
                }
                return deepest
            }
        }
    }
}
