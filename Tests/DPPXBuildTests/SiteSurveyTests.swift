import DPPXBuild
import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `dppx init`'s survey of a site's folder and the project file it drafts from it, on small
/// sites of the shapes sites come in. The images are a few bytes each: the survey reads names
/// and bytes, never pixels.
@Suite("dppx init: the site's survey and its project file")
struct SiteSurveyTests {
    static func site(_ files: [String: String]) throws -> ScratchFolder {
        let folder = ScratchFolder("dppx-init")
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: (folder(path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: folder(path), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// The draft's file read back by the reader every command uses, from the site's folder.
    static func load(_ draft: ProjectDraft, in folder: ScratchFolder) throws -> ProjectSettings {
        try draft.text.write(toFile: folder(ProjectFile.fileName), atomically: true, encoding: .utf8)
        return try ProjectLocator.load(folder(ProjectFile.fileName))
    }

    @Test("images beside the pages: the site's root is the folder, built in place there")
    func imagesBesideThePages() throws {
        let folder = try Self.site([
            "index.html": #"<!doctype html><img src="hero.jpg" alt=""><img src="logo.png" srcset="logo.png 1x"><img src="https://cdn.example.com/x.jpg">"#,
            "about.html": #"<img src="./hero.jpg"><img src="gone.jpg">"#,
            "hero.jpg": "jpeg", "logo.png": "png", "unused.jpg": "jpeg",
            "node_modules/pkg/icon.png": "png", "node_modules/pkg/readme.html": #"<img src="icon.png">"#,
        ])
        let survey = try SiteSurvey.survey(folder.path)
        #expect(survey.siteRoot == "" && survey.rootEvidence == .index)
        #expect(survey.pages == ["about.html", "index.html"])
        #expect(survey.images == ["hero.jpg", "logo.png"])
        #expect(survey.missingImages == ["gone.jpg"])
        #expect(survey.imageFolder == "" && survey.masterFolder == nil)
        let draft = ProjectDraft(survey: survey, browser: nil)
        #expect(draft.imagesSource == "." && draft.imagesOut == "." && draft.pagePatterns == ["**/*.html"])
        let settings = try Self.load(draft, in: folder)
        #expect(settings.source == folder.path + "/." || settings.source == folder.path)
        #expect(settings.source == settings.output)
        #expect(settings.rewriteMeasure == false, "no Chromium: measuring off, said in the file")
        #expect(survey.toolingFolders == ["node_modules"])
        #expect(settings.rules.map(\.match) == [[PathGlob("/node_modules/**")]] && settings.rules.first?.exclude == true,
                "a build in place of the whole folder leaves node_modules out")
    }

    @Test("images under assets/ of a published folder, one named only from a stylesheet: every format auto, picture on, measured")
    func imagesUnderAssets() throws {
        let folder = try Self.site([
            "README.md": "notes",
            "public/index.html": #"<!doctype html><link rel="stylesheet" href="/assets/css/site.css"><picture><source srcset="assets/img/a.webp" type="image/webp"><img src="assets/img/a.jpg"></picture>"#,
            "public/blog/post.html": #"<div style="background: url('../assets/img/photos/b.jpg')"></div>"#,
            "public/assets/css/site.css": "@import url(\"more.css\");\n.x { color: red }",
            "public/assets/css/more.css": ".hero { background: linear-gradient(#0008, #0008), url(../img/hero.png) center / cover }",
            "public/assets/img/a.jpg": "a", "public/assets/img/a.webp": "w", "public/assets/img/photos/b.jpg": "b",
            "public/assets/img/hero.png": "h",
            "node_modules/pkg/index.html": #"<img src="x.jpg">"#,
        ])
        let survey = try SiteSurvey.survey(folder.path)
        #expect(survey.siteRoot == "public")
        #expect(survey.pages == ["blog/post.html", "index.html"], "node_modules is not the site")
        #expect(survey.stylesheets == ["assets/css/more.css", "assets/css/site.css"])
        #expect(survey.images == ["assets/img/a.jpg", "assets/img/a.webp", "assets/img/hero.png", "assets/img/photos/b.jpg"])
        #expect(survey.stylesheetOnlyImages == ["assets/img/hero.png"])
        #expect(survey.imageFolder == "assets/img" && survey.masterFolder == nil)
        let draft = ProjectDraft(survey: survey, browser: "/usr/bin/chromium")
        #expect(draft.pagePatterns == ["public/**/*.html", "public/assets/css/*.css"])
        let settings = try Self.load(draft, in: folder)
        #expect(settings.source == folder.path + "/public/assets/img" && settings.output == settings.source)
        #expect(settings.formats == [.avif, .webp])
        #expect(settings.jpegQuality == .auto && settings.webpQuality == .auto && settings.avifQuality == .auto)
        #expect(settings.rewritePicture == true && settings.rewriteMeasure == true)
        #expect(settings.rewriteRoot == folder.path + "/public")
        #expect(settings.rewritePages?.count == 2)
        #expect(draft.choices.map(\.topic) == ["pages", "images", "formats", "picture", "measuring"])
        #expect(draft.choices[1].reason.contains("(1 only from stylesheets)") && draft.choices[1].reason.contains("in place"))
    }

    @Test("images a site generator copies from another folder: built from there into the published folder")
    func generatorCopies() throws {
        let folder = try Self.site([
            "src/index.njk": "{{ content }}",
            "src/img/a.jpg": "aaaa", "src/img/team/b.png": "bbbb",
            "_site/index.html": #"<img src="/img/a.jpg"><img src="/img/team/b.png">"#,
            "_site/img/a.jpg": "aaaa", "_site/img/team/b.png": "bbbb",
            "other/img/a.jpg": "AAAA",
        ])
        let survey = try SiteSurvey.survey(folder.path)
        #expect(survey.siteRoot == "_site" && survey.imageFolder == "img")
        #expect(survey.masterFolder == "src/img", "same paths below it, same bytes")
        let draft = ProjectDraft(survey: survey, browser: nil)
        #expect(draft.imagesSource == "src/img" && draft.imagesOut == "_site/img")
        let settings = try Self.load(draft, in: folder)
        #expect(settings.source == folder.path + "/src/img" && settings.output == folder.path + "/_site/img")
        #expect(settings.rewritePicture == false && settings.rewriteMeasure == false,
                "without Chromium no rewritten page is checked, so no <picture> wrapper is written unchecked")
        #expect(draft.choices.first { $0.topic == "picture" }?.reason.hasPrefix("off:") == true)
    }

    @Test("the published folder among several with an index.html: the shallowest, and of those a generator's output name")
    func siteRootChoice() {
        #expect(SiteSurvey.publishedFolder(of: ["src/index.html", "dist/index.html", "dist/a/index.html"]) == ("dist", .index))
        #expect(SiteSurvey.publishedFolder(of: ["a/b/index.html", "z/index.html"]) == ("z", .index))
        #expect(SiteSurvey.publishedFolder(of: ["pages/a.html", "pages/blog/b.html"]) == ("pages", .commonFolder))
        #expect(SiteSurvey.commonFolder(of: ["img/a.jpg", "img/x/b.jpg"]) == "img")
        #expect(SiteSurvey.commonFolder(of: ["a.jpg", "img/b.jpg"]) == "")
    }

    @Test("no pages, no images, or a project file already there: no file, and an error saying what to do")
    func refusals() throws {
        let empty = try Self.site(["notes.txt": "x"])
        #expect(throws: InitError.noPages(empty.path)) { try SiteSurvey.survey(empty.path) }
        let imageless = try Self.site(["index.html": #"<p>text <img src="missing.jpg">"#])
        #expect(throws: InitError.noImages(folder: imageless.path, siteRoot: "", pages: 1, missing: ["missing.jpg"])) {
            try SiteSurvey.survey(imageless.path)
        }
        let existing = try Self.site(["index.html": #"<img src="a.jpg">"#, "a.jpg": "a", "dppx.toml": "[build]\n"])
        let draft = ProjectDraft(survey: try SiteSurvey.survey(existing.path), browser: nil)
        #expect(throws: InitError.exists(existing(ProjectFile.fileName))) { try draft.write() }
        #expect(try String(contentsOfFile: existing(ProjectFile.fileName), encoding: .utf8) == "[build]\n", "left as it was")
        #expect(InitError.exists("dppx.toml").isUsageError)
    }

    @Test("paths with quotes and backslashes are written as TOML strings the reader reads back")
    func quoting() throws {
        #expect(ProjectDraft.string(#"a "b" \c"#) == #""a \"b\" \\c""#)
        let folder = try Self.site(["we\"ird/index.html": #"<img src="p.jpg">"#, "we\"ird/p.jpg": "p"])
        let settings = try Self.load(ProjectDraft(survey: try SiteSurvey.survey(folder.path), browser: nil), in: folder)
        #expect(settings.rewriteRoot == folder.path + "/we\"ird")
    }
}
