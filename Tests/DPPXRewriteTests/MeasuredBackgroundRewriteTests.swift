import DPPXCore
@testable import DPPXRewrite
import Testing

/// A rule painting a fluid image that the layout measured gets, right after it, one `@media`
/// block a range of viewports with the files its painted width needs; the layer list is
/// written whole, gradients and other images in their places.
@Suite struct MeasuredBackgroundRewriteTests {
    /// The photo (fluid, 778 px) painted by `selector` in `sheet` at 100vw, at `viewports`.
    static func layout(sheet: String = "css/site.css", selector: String = ".hero", viewports: [Double] = [320, 400, 500, 778, 1280],
                       images: [String]? = nil, width: (Double) -> Double = { $0 }) -> LayoutFile {
        let background = LayoutFile.Background(
            element: "html > body:nth-child(2) > section:nth-child(1)", layer: 1, url: "/img/photo.jpg", size: "cover",
            samples: viewports.map { LayoutFile.BackgroundSample(viewport: $0, areaWidth: $0, areaHeight: 500, paintedWidth: width($0), paintedHeight: 500) },
            sheet: sheet, selector: selector, images: images)
        let page = LayoutFile.Page(hash: "", dependencies: ["index.html"], viewportHeight: 800, scrollbars: "hidden", images: [], backgrounds: [background])
        return LayoutFile(pages: ["index.html": page])
    }

    static func css(_ text: String, _ layout: LayoutFile? = layout(), at path: String = "css/site.css") -> (text: String, findings: [String]) {
        RewriteFixtures.css(text, at: path, RewriteOptions(layout: layout))
    }

    static let hero = """
        .hero {
          height: 70vh;
          background: linear-gradient(#0008, #0008), url(../img/photo.jpg) center / cover no-repeat;
        }
        p { color: red; }

        """

    @Test func theFixturesPhotoHasTheseFiles() {
        let photo = RewriteFixtures.manifest.images.first { $0.source == "photo.jpg" }
        #expect(photo?.widths == [322, 432, 580, 778])
    }

    @Test func aMeasuredHeroGetsABlockPerRangeKeepingItsGradient() {
        let result = Self.css(Self.hero)
        #expect(result.findings.isEmpty, "\(result.findings)")
        #expect(result.text == """
            .hero {
              height: 70vh;
              background: linear-gradient(#0008, #0008), url(../img/photo.jpg) center / cover no-repeat;
            }
            @media (max-width: 386.98px) {
              .hero {
                background-image: linear-gradient(#0008, #0008), image-set(url("../img/photo-432w.jpg") 1.11917x, url("../img/photo-580w.jpg") 1.5026x, url("../img/photo.jpg") 2.01554x);
              }
            }
            @media (min-width: 387px) and (max-width: 432.98px) {
              .hero {
                background-image: linear-gradient(#0008, #0008), image-set(url("../img/photo-432w.jpg") 1x, url("../img/photo.jpg") 1.80093x);
              }
            }
            @media (min-width: 433px) and (max-width: 580.98px) {
              .hero {
                background-image: linear-gradient(#0008, #0008), image-set(url("../img/photo-580w.jpg") 1x, url("../img/photo.jpg") 1.34138x);
              }
            }
            @media (min-width: 581px) {
              .hero {
                background-image: linear-gradient(#0008, #0008), image-set(url("../img/photo.jpg") 0.607813x);
              }
            }
            p { color: red; }

            """)
        #expect(Self.css(result.text).text == result.text, "a second run changes nothing")
    }

    @Test func anotherMeasurementReplacesTheBlocksAndNoMeasurementRemovesThem() {
        let first = Self.css(Self.hero).text
        // Painted at a fixed 300 px now: one range over every width.
        let fixed = Self.layout { _ in 300 }
        let second = Self.css(first, fixed)
        #expect(second.text == Self.css(Self.hero, fixed).text, "the same as from the untouched stylesheet: \(second.text)")
        #expect(second.text.components(separatedBy: "@media").count == 2, "\(second.text)")
        #expect(second.text.contains(#"@media all {"#) && second.text.contains(#"image-set(url("../img/photo-322w.jpg") 1.07333x, url("../img/photo-580w.jpg") 1.93333x, url("../img/photo.jpg") 2.5933x)"#), "\(second.text)")
        // Not measured any more: the blocks go, and the photo is reported as before.
        let unmeasured = Self.css(first, nil)
        #expect(unmeasured.text == Self.hero)
        #expect(unmeasured.findings == ["css/site.css:3: url(../img/photo.jpg) is fluid: its size comes from the page, so no image-set() is added; use dppx css's width media queries for it"])
    }

    @Test func twoImagesAndAGradientInOneListEachKeepTheirPlace() {
        let css = ".card {\n\tbackground-image: url(../img/hero.jpg), linear-gradient(red, blue), url(../img/photo.jpg) !important;\n}\n"
        let result = Self.css(css, Self.layout(selector: ".card", viewports: [320, 1280]) { _ in 200 })
        #expect(result.findings.isEmpty, "\(result.findings)")
        let hero = #"image-set(url("../img/hero.avif") type("image/avif") 1x, url("../img/hero@2x.avif") type("image/avif") 2x, url("../img/hero.webp") type("image/webp") 1x, url("../img/hero@2x.webp") type("image/webp") 2x, url("../img/hero.jpg") 1x, url("../img/hero@2x.jpg") 2x)"#
        #expect(result.text == """
            .card {
            \tbackground-image: url(../img/hero.jpg), linear-gradient(red, blue), url(../img/photo.jpg) !important;
            \tbackground-image: \(hero), linear-gradient(red, blue), url(../img/photo.jpg) !important;
            }
            @media all {
            \t.card {
            \t\tbackground-image: \(hero), linear-gradient(red, blue), image-set(url("../img/photo-322w.jpg") 1.61x, url("../img/photo-432w.jpg") 2.16x, url("../img/photo.jpg") 3.89x) !important;
            \t}
            }

            """)
        #expect(Self.css(result.text, Self.layout(selector: ".card", viewports: [320, 1280]) { _ in 200 }).text == result.text, "a second run changes nothing")
    }

    @Test func aOneLineRuleInAMediaBlockMatchesTheSelectorAsTheBrowserWritesIt() {
        let css = "@media (min-width: 600px) {\n  main>.card{background:url(../img/photo.jpg) 0 0 / 100% auto}\n}\n"
        let result = Self.css(css, Self.layout(selector: "main > .card", viewports: [600, 800]) { _ in 400 })
        #expect(result.text == """
            @media (min-width: 600px) {
              main>.card{background:url(../img/photo.jpg) 0 0 / 100% auto}
              @media all { main>.card { background-image: image-set(url("../img/photo-432w.jpg") 1.08x, url("../img/photo.jpg") 1.945x); } }
            }

            """)
        #expect(Self.css(result.text, Self.layout(selector: "main > .card", viewports: [600, 800]) { _ in 400 }).text == result.text)
    }

    @Test func aStyleElementIsMeasuredAsItsPageAndAStyleAttributeIsReported() {
        let page = "<style>\n.hero { background: url(img/photo.jpg) center / cover }\n</style>\n<p style=\"background: url(img/photo.jpg)\">\n"
        let options = RewriteOptions(layout: Self.layout(sheet: "index.html", viewports: [320, 1280]) { _ in 600 })
        let result = RewriteFixtures.html(page, options)
        #expect(result.text.contains(".hero { background: url(img/photo.jpg) center / cover }\n@media all { .hero { background-image: image-set(url(\"img/photo.jpg\") 1.29667x); } }\n</style>"), "\(result.text)")
        #expect(result.findings == ["index.html:4: url(img/photo.jpg) is fluid, in a style attribute: it cannot hold the @media blocks its measured sizes need, so it is left as it is; move the background into a stylesheet rule"])
    }

    @Test func aRuleNoMeasuredPagePaintsWithIsReported() {
        let result = Self.css(".other { background: url(../img/photo.jpg) }", Self.layout())
        #expect(result.text == ".other { background: url(../img/photo.jpg) }")
        #expect(result.findings == ["css/site.css:1: url(../img/photo.jpg) is fluid and no measured page paints it by this rule (dppx measure): no image-set() is added"])
    }

    @Test func selectorsCompareAsTheBrowserSerializesThem() {
        #expect(CSSStyleRule.normalized("main>.Card ,\n a /* x */ b") == "main>.card,a b")
        #expect(CSSStyleRule.normalized(#"input[type = "text"]:is(.a , .b)"#) == "input[type=text]:is(.a,.b)")
        #expect(CSSStyleRule.normalized(".a\\ b") == ".a\\ b")
    }

    @Test func styleRulesAreFoundInsideGroupingRulesAndSkippedInOthers() {
        let css = Array("@import url(x.css);\n.a { color: red }\n@media print { .b, .c { x: y } }\n@font-face { font-family: f }\n@keyframes k { from { x: y } }\n/* c */ .d{}".utf8)
        let rules = CSSStyleRule.all(in: css)
        #expect(rules.map(\.selector) == [".a", ".b, .c", ".d"])
        #expect(rules.map { String(decoding: css[$0.range], as: UTF8.self) } == [".a { color: red }", ".b, .c { x: y }", ".d{}"])
        #expect(rules.map(\.indentation) == ["", nil, nil])
    }

    /// The photo painted by `.hero` at a fixed 300 px from 700 px up by the rule's own
    /// declaration, and at 100vw up to 600 px by the one nested in its `@media (max-width: 600px)`.
    static let nestedLayout: LayoutFile = {
        func layer(_ viewports: [Double], width: (Double) -> Double, nested: [String]?) -> LayoutFile.Background {
            LayoutFile.Background(
                element: "html > body:nth-child(2) > section:nth-child(1)", layer: 0, url: "/img/photo.jpg", size: "cover",
                samples: viewports.map { LayoutFile.BackgroundSample(viewport: $0, areaWidth: $0, areaHeight: 500, paintedWidth: width($0), paintedHeight: 500) },
                sheet: "css/site.css", selector: ".hero", nested: nested)
        }
        let backgrounds = [layer([320, 600], width: { $0 }, nested: ["@media (max-width: 600px)"]), layer([700, 1280], width: { _ in 300 }, nested: nil)]
        let page = LayoutFile.Page(hash: "", dependencies: ["index.html"], viewportHeight: 800, scrollbars: "hidden", images: [], backgrounds: backgrounds)
        return LayoutFile(pages: ["index.html": page])
    }()

    @Test func aDeclarationNestedInTheRulesMediaBlockGetsItsBlocksInTheSameConditionAfterTheRulesOwn() {
        let css = """
            .hero {
              background: url(../img/photo.jpg) center / cover;
              @media (max-width:600px) {
                background-image: url(../img/photo.jpg);
              }
            }

            """
        let result = Self.css(css, Self.nestedLayout)
        #expect(result.findings.isEmpty, "\(result.findings)")
        #expect(result.text == """
            .hero {
              background: url(../img/photo.jpg) center / cover;
              @media (max-width:600px) {
                background-image: url(../img/photo.jpg);
              }
            }
            @media all {
              .hero {
                background-image: image-set(url("../img/photo-322w.jpg") 1.07333x, url("../img/photo-580w.jpg") 1.93333x, url("../img/photo.jpg") 2.5933x);
              }
            }
            @media (max-width:600px) {
              @media (max-width: 386.98px) {
                .hero {
                  background-image: image-set(url("../img/photo-432w.jpg") 1.11917x, url("../img/photo-580w.jpg") 1.5026x, url("../img/photo.jpg") 2.01554x);
                }
              }
              @media (min-width: 387px) and (max-width: 432.98px) {
                .hero {
                  background-image: image-set(url("../img/photo-432w.jpg") 1x, url("../img/photo.jpg") 1.80093x);
                }
              }
              @media (min-width: 433px) and (max-width: 580.98px) {
                .hero {
                  background-image: image-set(url("../img/photo-580w.jpg") 1x, url("../img/photo.jpg") 1.34138x);
                }
              }
              @media (min-width: 581px) {
                .hero {
                  background-image: image-set(url("../img/photo.jpg") 1.29667x);
                }
              }
            }

            """, "\(result.text)")
        #expect(Self.css(result.text, Self.nestedLayout).text == result.text, "a second run changes nothing")
        #expect(Self.css(result.text, nil).text == css, "not measured any more: every block goes, the nested one's too")
    }

    @Test func aNestedDeclarationIsFoundInItsConditionsAndNotInANestedRuleOrLayer() {
        let css = Array(".a { color: red; @supports (display: grid) { @media (width < 600px) { background: url(x.jpg) } } & .b { background: none } @layer l { background: none } }".utf8)
        let rule = CSSStyleRule.all(in: css)[0]
        func nesting(_ text: String, _ occurrence: Int = 0) -> [String]? {
            let bytes = String(decoding: css, as: UTF8.self)
            var from = bytes.startIndex
            var found = bytes.range(of: text)!
            for _ in 0..<occurrence { from = found.upperBound; found = bytes.range(of: text, range: from..<bytes.endIndex)! }
            return rule.nesting(of: bytes.utf8.distance(from: bytes.startIndex, to: found.lowerBound), in: css)
        }
        #expect(nesting("color") == [])
        #expect(nesting("background: url") == ["@supports (display: grid)", "@media (width < 600px)"])
        #expect(nesting("background: none") == nil, "a nested style rule")
        #expect(nesting("background: none", 1) == nil, "a nested @layer")
        #expect(CSSStyleRule.normalizedCondition("@media (max-width:600px)") == CSSStyleRule.normalizedCondition("@media (Max-Width: 600px)"))
    }

    @Test func ofAVendorStackTheBlocksCopyTheDeclarationTheBrowserKept() {
        // The unprefixed gradient with `top` is invalid: browsers keep the -webkit- declaration.
        let css = """
            .banner {
              background-image: -webkit-linear-gradient(top, #0008, #0008), url(../img/photo.jpg);
              background-image: linear-gradient(top, #0008, #0008), url(../img/photo.jpg);
              background-size: cover;
            }

            """
        let layout = Self.layout(selector: ".banner", viewports: [320, 1280], images: ["-webkit-linear-gradient", "url"]) { _ in 300 }
        let result = Self.css(css, layout)
        #expect(result.findings.isEmpty, "\(result.findings)")
        #expect(result.text == """
            .banner {
              background-image: -webkit-linear-gradient(top, #0008, #0008), url(../img/photo.jpg);
              background-image: linear-gradient(top, #0008, #0008), url(../img/photo.jpg);
              background-size: cover;
            }
            @media all {
              .banner {
                background-image: -webkit-linear-gradient(top, #0008, #0008), image-set(url("../img/photo-322w.jpg") 1.07333x, url("../img/photo-580w.jpg") 1.93333x, url("../img/photo.jpg") 2.5933x);
              }
            }

            """, "\(result.text)")
        #expect(Self.css(result.text, layout).text == result.text, "a second run changes nothing")
        // Measured before the browser's choice was recorded: the last declaration, as before.
        let unknown = Self.css(css, Self.layout(selector: ".banner", viewports: [320, 1280]) { _ in 300 }).text
        #expect(unknown.contains("background-image: linear-gradient(top, #0008, #0008), image-set("), "\(unknown)")
    }
}
