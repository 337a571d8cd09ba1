import DPPXCore
import Foundation
import Testing

@Suite("The project file (dppx.toml)")
struct ProjectFileTests {
    static let complete = """
    # The whole site's images.
    [build]
    source = "masters"
    out = "public/img"
    densities = [1, 1.5, 2]
    source-density = "2x"
    formats = ["webp", "avif"]
    upscale = false
    quality = 78
    webp-quality = 75
    avif-quality = 50
    webp-effort = 6
    avif-effort = 3
    png-compression = 9
    max-pixels = 100_000_000
    fail-on = "warning"
    jobs = 2
    templates = 'my templates'

    [css]
    file = "public/css/images.css"
    prefix = "img-"
    strip = "assets/img/"
    box = false
    legacy = true
    base-url = "/img/"

    [html]
    base-url = "https://cdn.example.com/img/"

    [serve]
    root = "public"
    host = "0.0.0.0"
    port = 3000
    cache-control = "public, max-age=60"
    idle-timeout = 10

    [[rule]]
    match = "photos/**"   # exported at the size they are shown
    density = 1

    [[rule]]
    match = ["hero.jpg", "banners/*.jpg"]
    width = 300
    formats = ["webp"]
    quality = 60

    [[rule]]
    match = "drafts/**"
    exclude = true
    """

    @Test("a complete file sets every setting; folders are relative to the file's folder")
    func complete() throws {
        let settings = try ProjectFile.settings(parsing: Self.complete, folder: "site")
        #expect(settings.source == "site/masters")
        #expect(settings.output == "site/public/img")
        #expect(settings.densities == [Density(1), Density(1.5), Density(2)])
        #expect(settings.sourceDensity == Density(2))
        #expect(settings.formats == [.webp, .avif])
        #expect(settings.upscale == false)
        #expect(settings.jpegQuality == 78 && settings.webpQuality == 75 && settings.avifQuality == 50)
        #expect(settings.webpEffort == 6 && settings.avifEffort == 3 && settings.pngCompression == 9)
        #expect(settings.maxPixels == 100_000_000 && settings.jobs == 2)
        #expect(settings.failOn == .warning)
        #expect(settings.templates == "site/my templates")
        #expect(settings.stylesheet == "site/public/css/images.css")
        #expect(settings.stylesheetOptions == StylesheetOptions(classPrefix: "img-", box: false, legacy: true, stripPath: "assets/img/",
                                                                rules: settings.rules))
        #expect(settings.baseURL == "/img/")
        #expect(settings.markupBaseURL == "https://cdn.example.com/img/")
        #expect(settings.serveRoot == "site/public" && settings.host == "0.0.0.0" && settings.port == 3000)
        #expect(settings.cacheControl == "public, max-age=60" && settings.idleTimeout == 10)
        #expect(settings.rules.count == 3)
        #expect(settings.rules[1].match.map(\.pattern) == ["hero.jpg", "banners/*.jpg"])
        #expect(settings.rules[1].width == 300 && settings.rules[1].jpegQuality == 60 && settings.rules[1].formats == [.webp])
        #expect(settings.rules[2].exclude == true)
        #expect(settings.planSettings.sourceDensityGiven)
    }

    @Test("flags override the file for one run; what neither says takes the default")
    func overlay() throws {
        let file = try ProjectFile.settings(parsing: "[build]\nquality = 70\ndensities = \"1,2\"\n")
        var flags = ProjectSettings()
        flags.jpegQuality = 40
        let merged = file.overlaid(by: flags)
        #expect(merged.jpegQuality == 40)
        #expect(merged.densities == [Density(1), Density(2)])
        #expect(merged.planSettings.defaultSourceDensity == PlanSettings.defaultSourceDensity)
        #expect(!merged.planSettings.sourceDensityGiven, "the default source density is not intent")
    }

    @Test("fluid images: widths in [build] and in rules, as a list or auto; a rule's sizes")
    func fluid() throws {
        let settings = try ProjectFile.settings(parsing: """
            [build]
            widths = "auto"
            [[rule]]
            match = "cards/**"
            widths = [960, 480]
            sizes = "(min-width: 768px) 50vw, 100vw"
            """)
        #expect(settings.widths == .auto)
        #expect(settings.planSettings.widths == .auto)
        let rule = settings.planSettings.rule(for: "cards/a.jpg")
        #expect(rule.widths == .explicit([480, 960]))
        #expect(rule.sizes == "(min-width: 768px) 50vw, 100vw")
    }

    @Test("stylesheet selection, cover boxes and dimensions: [css] match, a rule's css and cover, [html] dimensions; none of them rebuilds")
    func stylesheetAndMarkupKeys() throws {
        let settings = try ProjectFile.settings(parsing: """
            [css]
            match = ["backgrounds/**", "hero.jpg"]
            [html]
            dimensions = false
            [[rule]]
            match = "team/*"
            css = false
            [[rule]]
            match = "hero.jpg"
            widths = "auto"
            cover = "100vw 100vh"
            """)
        #expect(settings.cssMatch?.map(\.pattern) == ["backgrounds/**", "hero.jpg"])
        #expect(settings.dimensions == false)
        let options = settings.stylesheetOptions
        #expect(options.includes("hero.jpg") && options.includes("backgrounds/sea.jpg"))
        #expect(!options.includes("team/ann.jpg") && !options.includes("logo.png"))
        #expect(options.cover(for: "hero.jpg") == CoverBox(width: .viewport(percent: 100), height: .viewport(percent: 100)))
        #expect(options.cover(for: "backgrounds/sea.jpg") == nil)
        // Stylesheet keys are not what a build writes: the rules' fingerprint ignores them.
        let plain = try ProjectFile.settings(parsing: "[[rule]]\nmatch = \"team/*\"\n[[rule]]\nmatch = \"hero.jpg\"\nwidths = \"auto\"\n")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let ruled = String(decoding: try encoder.encode(settings.planSettings), as: UTF8.self)
        #expect(ruled == String(decoding: try encoder.encode(plain.planSettings), as: UTF8.self))
    }

    @Test("[rewrite] placeholder: the style dppx rewrite, build and serve paint in rewritten pages; a flag overrides it")
    func rewritePlaceholder() throws {
        let settings = try ProjectFile.settings(parsing: "[rewrite]\npages = \"site/*.html\"\nplaceholder = \"blur\"\n")
        #expect(settings.rewritePlaceholder == .blur)
        var flags = ProjectSettings()
        flags.rewritePlaceholder = .color
        #expect(settings.overlaid(by: flags).rewritePlaceholder == .color)
        #expect(settings.overlaid(by: ProjectSettings()).rewritePlaceholder == .blur)
        #expect(try ProjectFile.settings(parsing: "[rewrite]\npicture = true\n").rewritePlaceholder == nil)
    }

    @Test("errors name the line, the key and what is allowed", arguments: [
        ("[build]\nquality = 101\n", 2, "build.quality must be between 1 and 100, e.g. quality = 80; got 101"),
        ("[build]\n\nqualty = 80\n", 3, "build.qualty is not a key of [build]; known keys: source, out"),
        ("[build]\ndensities = [1, \"two\"]\n", 2, "build.densities expected densities as numbers between 0 and 10"),
        ("[build]\nformats = [\"bmp\"]\n", 2, "build.formats expected extra formats among avif, webp, jxl, jpeg, png"),
        ("[build]\nupscale = \"yes\"\n", 2, "build.upscale must be true or false; got a string"),
        ("[build]\nfail-on = \"warnings\"\n", 2, "build.fail-on must be none, truncated, error or warning, e.g. fail-on = \"error\"; got"),
        ("[build]\nsource = 3\n", 2, "build.source must be a string in quotes"),
        ("[[rule]]\nmatch = \"a/**\"\ndensity = 0\n", 3, "rule.density must be a density between 0 and 10"),
        ("[[rule]]\nmatch = \"a/**\"\nwidth = -3\n", 3, "rule.width must be between 1 and 100000"),
        ("[[rule]]\ndensity = 1\n", 1, "rule needs a match"),
        ("[rule]\nmatch = \"x\"\n", 1, "rule is written [[rule]], with double brackets"),
        ("[images]\n", 1, "images is not a table dppx knows"),
        ("quality = 80\n", 1, "quality is outside any table"),
        ("[build]\nquality = 80\nquality = 81\n", 3, "quality is set twice"),
        ("[build]\nsource = \"masters\n", 2, "a string is not closed on its line"),
        ("[build]\nsource = masters\n", 2, "source has a value that is not a string, number, true/false or array: 'masters'"),
        ("[build]\nbuild.quality = 80\n", 2, "dotted keys are not supported"),
        ("[serve]\nport = 70000\n", 2, "serve.port must be between 0 and 65535"),
        ("[css]\nprefix = \".img\"\n", 2, "css.prefix goes before the class name, without the dot"),
        ("[css]\nmatch = 3\n", 2, "css.match must be a pattern in quotes"),
        ("[html]\ndimensions = \"no\"\n", 2, "html.dimensions must be true or false"),
        ("[[rule]]\nmatch = \"a/**\"\ncss = 0\n", 3, "rule.css must be true or false"),
        ("[[rule]]\nmatch = \"a/**\"\ncover = \"tall\"\n", 3, "rule.cover must be a box as \"WIDTH HEIGHT\" in vw, vh or px"),
        ("[build]\njobs = 2 3\n", 2, "unexpected '3' after the value"),
        ("[build]\nwidths = \"some\"\n", 2, "build.widths expected 'auto' or widths in pixels"),
        ("[[rule]]\nmatch = \"a/**\"\nwidths = [480, \"960\"]\n", 3, "rule.widths must list widths in pixels"),
        ("[[rule]]\nmatch = \"a/**\"\nwidths = [0]\n", 3, "rule.widths expected 'auto' or widths in pixels"),
        ("[[rule]]\nmatch = \"a/**\"\nsizes = \"\"\n", 3, "rule.sizes must be a sizes attribute"),
        ("[rewrite]\nplaceholder = \"thumbhash\"\n", 2, "rewrite.placeholder must be \"color\" or \"blur\", e.g. placeholder = \"color\"; got \"thumbhash\""),
        ("[rewrite]\nplaceholder = true\n", 2, "rewrite.placeholder must be \"color\" or \"blur\""),
    ])
    func errors(text: String, line: Int, message: String) {
        #expect(throws: ProjectFileError.self) { try ProjectFile.settings(parsing: text) }
        do {
            _ = try ProjectFile.settings(parsing: text)
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("TOML pieces: comments, literal and escaped strings, multi-line arrays, empty file")
    func syntax() throws {
        let document = try TOMLDocument(parsing: """
        # comment
        [build] # trailing
        "source" = "a \\"quoted\\" name"
        templates = 'C:\\literal'
        densities = [
          1,   # one
          2,
        ]
        """)
        let build = try #require(document.tables.first { $0.name == "build" })
        #expect(build.line == 2)
        #expect(build.entries.map(\.key) == ["source", "templates", "densities"])
        #expect(build.entries[0].value == .string("a \"quoted\" name"))
        #expect(build.entries[1].value == .string("C:\\literal"))
        #expect(build.entries[2].value == .array([.integer(1), .integer(2)]))
        #expect(build.entries[2].line == 5)
        #expect(try ProjectFile.settings(parsing: "") == ProjectSettings())
    }

    @Test("arrays nested deeper than a value needs are refused at their line, even 50 000 deep (a 100 KB file that overflowed the stack)")
    func deepNesting() {
        let deep = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        errors(text: "[build]\n\ndensities = \(deep)\n", line: 3, message: "arrays nested deeper than")
        let deepOverLines = String(repeating: "[\n", count: 50_000)
        errors(text: "[build]\ndensities = \(deepOverLines)", line: TOMLDocument.maximumArrayDepth + 2, message: "arrays nested deeper than")
        #expect(throws: Never.self) { try TOMLDocument(parsing: "a = [[[1, 2], [3]], [[4]]]\n") }
    }

    @Test("with a confinement, every path key and the pages' folders must lead inside the project, naming the key and line")
    func confinement() throws {
        let confinement = PathConfinement(folder: "/project") { $0.hasPrefix("/project/") && !$0.contains("..") }
        let inside = try ProjectFile.settings(parsing: "[build]\nout = \"public\"\n[rewrite]\npages = [\"site/**/*.html\"]\n",
                                              folder: "/project", confinement: confinement)
        #expect(inside.output == "/project/public" && inside.rewritePages == ["/project/site/**/*.html"])
        for (text, line, key) in [("[build]\nsource = \"/etc\"\n", 2, "build.source"), ("[css]\n\nfile = \"../x.css\"\n", 3, "css.file"),
                                  ("[build]\ntemplates = \"/t\"\n", 2, "build.templates"), ("[serve]\nroot = \"/\"\n", 2, "serve.root"),
                                  ("[rewrite]\npages = \"/srv/**/*.html\"\n", 2, "rewrite.pages"),
                                  ("[rewrite]\npages = \"site/**/../../../x.html\"\n", 2, "rewrite.pages")] {
            #expect(throws: ProjectFileError.self) { try ProjectFile.settings(parsing: text, folder: "/project", confinement: confinement) }
            do { _ = try ProjectFile.settings(parsing: text, folder: "/project", confinement: confinement) } catch {
                #expect(error.line == line && error.key == key, "\(error)")
            }
        }
        #expect(PathConfinement.literalFolder(of: "site/**/*.html") == "site/" && PathConfinement.literalFolder(of: "*.html") == ".")
        #expect(try ProjectFile.settings(parsing: "[build]\nout = \"/etc\"\n").output == "/etc", "without a confinement, as before")
    }
}
