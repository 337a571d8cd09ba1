@testable import DPPXCore
import Testing

@Suite("Render: templates")
struct RenderTemplateTests {
    func error(_ kind: TemplateKind, _ replacements: [String: String]) -> TemplateError? {
        do {
            _ = try RenderFixtures.templates(kind, replacing: replacements)
            return nil
        } catch {
            return error
        }
    }

    @Test("the shipped templates compile")
    func defaults() throws {
        _ = try RenderFixtures.templates(.stylesheet)
        _ = try RenderFixtures.templates(.markup)
    }

    @Test("a syntax error names the file, line and column")
    func syntax() throws {
        let found = try #require(error(.stylesheet, ["rule": "{{%CONTENT_TYPE: TEXT}}\n{{#box}}\nwidth\n{{/bx}}\n"]))
        #expect(found.file == "custom/rule.mustache")
        #expect(found.line == 4)
        #expect(found.description.hasPrefix("custom/rule.mustache:4:"))
        #expect(found.problem.contains("{{/name}}"))
        let unclosed = try #require(error(.markup, ["img": "<img src=\"{{src}}\">\n{{#srcset}}\n"]))
        #expect(unclosed.problem.contains("never closed"))
    }

    @Test("an unknown variable is reported with its line and the names available")
    func unknownVariable() throws {
        let found = try #require(error(.markup, ["img": "<img\n src=\"{{scr}}\">\n"]))
        #expect(found.file == "custom/img.mustache")
        #expect(found.line == 2)
        #expect(found.problem.contains("'scr'"))
        #expect(found.problem.contains("src"))
    }

    @Test("a partial that is not a template of the kind is reported")
    func unknownPartial() throws {
        let found = try #require(error(.stylesheet, ["stylesheet": "{{%CONTENT_TYPE: TEXT}}\n{{#rules}}{{>rules}}{{/rules}}\n"]))
        #expect(found.problem.contains("'rules'"))
        #expect(found.problem.contains("rule, image-set"))
    }

    @Test("a stylesheet template without the TEXT content type is refused before it HTML-escapes CSS")
    func textContentType() throws {
        let found = try #require(error(.stylesheet, ["stylesheet": "{{#rules}}{{>rule}}{{/rules}}\n"]))
        #expect(found.problem.contains("{{%CONTENT_TYPE: TEXT}}"))
        #expect(found.line == 1)
    }

    @Test("a missing template is named")
    func missing() {
        #expect(throws: TemplateError.self) {
            try RenderTemplates(kind: .markup, sources: [RenderFixtures.defaultSource("img")])
        }
    }

    @Test("a user's template replaces the default one")
    func custom() throws {
        let templates = try RenderFixtures.templates(.stylesheet, replacing: [
            "rule": "{{%CONTENT_TYPE: TEXT}}\n{{selector}} { background: {{url}} 0 0 / {{width}}px {{height}}px no-repeat; }\n",
        ])
        let text = try StylesheetRenderer(templates: templates).render(manifest: RenderFixtures.basic, urls: .relative(""))
        #expect(text.contains(".img-hero { background: url(\"hero.jpg\") 0 0 / 400px 250px no-repeat; }"))
        let markup = try RenderFixtures.templates(.markup, replacing: ["img": "<img src=\"{{src}}\" alt=\"{{source}}\">\n"])
        #expect(MarkupRenderer(templates: markup).html([RenderFixtures.basic.images[0]], urls: .relative("")) == "<img src=\"hero.jpg\" alt=\"hero.jpg\">\n")
    }

    @Test("sequence transforms, dotted names, comments and triple braces are accepted")
    func scannerForms() throws {
        _ = try RenderFixtures.templates(.stylesheet, replacing: [
            "stylesheet": "{{%CONTENT_TYPE: TEXT}}\n{{! a comment with {{braces}} }}\n{{#rules}}{{{selector}}}{{^last()}},{{/last()}}{{/rules}}{{rules.count}}{{.}}\n",
        ])
        // A template that changes delimiters is left to Mustache.
        _ = try RenderFixtures.templates(.markup, replacing: ["img": "{{=<% %>=}}<img src=\"<%src%>\">\n"])
    }

    @Test("the names templates may use are exactly the view models' properties")
    func variableNames() throws {
        let rule = StylesheetView.Rule(selector: "", source: "", url: "", width: 0, height: 0, box: true, densityIndependent: false)
        let override = StylesheetView.Override(selector: "", source: "", url: "")
        let block = StylesheetView.DensityBlock(density: "", query: "", overrides: [override])
        let set = StylesheetView.ImageSet(selector: "", source: "", webkitImageSet: "", imageSet: "")
        let step = StylesheetView.FluidStep(selector: "", query: "", url: "", imageSet: nil)
        let fluid = StylesheetView.FluidImage(selector: "", source: "", url: "", imageSet: nil, steps: [step])
        let sheet = StylesheetView(rules: [rule], densityBlocks: [block], hasImageSets: true, imageSets: [set], imageCount: 1,
                                   fluidImages: [fluid])
        #expect(Set(TemplateKind.stylesheet.knownNames) == Self.labels(of: [sheet, rule, override, block, set, fluid, step]))
        let source = MarkupView.Source(type: "", srcset: "")
        let view = MarkupView(source: "", src: "", srcset: nil, sizes: nil, width: 0, height: 0, dimensions: true, alt: "", sources: [source], picture: true)
        let preload = MarkupView.Preload(href: nil, srcset: nil, sizes: nil, type: nil)
        #expect(Set(TemplateKind.markup.knownNames) == Self.labels(of: [view, source, preload]))
    }

    static func labels(of values: [Any]) -> Set<String> {
        Set(values.flatMap { Mirror(reflecting: $0).children.compactMap(\.label) })
    }
}
