import DPPXCore
import DPPXRewrite
import DPPXServer
import Testing

/// `ServerOptions(settings:root:)`: what `dppx serve` is told (`[serve]`, `[rewrite]`, their
/// flags) becomes the server's options in one place, as `BuildOptions(settings:)` does for a build.
@Suite("ServerOptions from settings")
struct ServerOptionsTests {
    @Test("settings that say nothing give the registry's defaults, no rewriting and no inspector")
    func defaults() throws {
        let options = try ServerOptions(settings: ProjectSettings(), root: "site")
        #expect(options.root == "site")
        #expect(options.host == "127.0.0.1" && options.host == SettingRegistry.host.fallback)
        #expect(options.port == 8080 && options.port == SettingRegistry.port.fallback)
        #expect(options.idleTimeout == .seconds(30))
        #expect(options.cachePolicy == .revalidate)
        #expect(options.templatesFolder == nil && options.rewrite == nil && options.development == nil)
        #expect(!options.inspector && options.privateFolders.isEmpty && options.maximumConnections == nil)
    }

    @Test("every [serve] key, [build] templates and [rewrite] reach their option")
    func projectFile() throws {
        let settings = try ProjectFile.settings(parsing: """
            [build]
            templates = "my-templates"
            [serve]
            host = "0.0.0.0"
            port = 3000
            cache-control = "public,  max-age=60"
            idle-timeout = 5
            [rewrite]
            pages = ["site/*.html"]
            picture = true
            sizes = "50vw"
            """)
        let options = try ServerOptions(settings: settings, root: "site")
        #expect(options.host == "0.0.0.0" && options.port == 3000 && options.idleTimeout == .seconds(5))
        #expect(options.cachePolicy.description == "public, max-age=60")
        #expect(options.templatesFolder == "my-templates")
        #expect(options.rewrite == RewriteOptions(sizes: "50vw", picture: true))
    }

    @Test("flags win over the project file")
    func flagsOverFile() throws {
        let file = try ProjectFile.settings(parsing: "[serve]\nport = 3000\ncache-control = \"no-store\"\n")
        var flags = ProjectSettings()
        flags.port = 0
        flags.cacheControl = "public, max-age=5"
        let options = try ServerOptions(settings: file.overlaid(by: flags), root: ".")
        #expect(options.port == 0 && options.cachePolicy.description == "public, max-age=5")
    }

    @Test("[rewrite] without pages serves pages as they are")
    func rewriteNeedsPages() throws {
        let settings = try ProjectFile.settings(parsing: "[rewrite]\npicture = true\n")
        #expect(try ServerOptions(settings: settings, root: ".").rewrite == nil)
    }

    @Test("a cache-control that is not a list of directives is thrown, naming the value")
    func badCacheControl() {
        var settings = ProjectSettings()
        settings.cacheControl = "max-age=5; public"
        #expect {
            try ServerOptions(settings: settings, root: ".")
        } throws: { error in
            (error as? CachePolicyError)?.value == "max-age=5; public"
        }
    }
}
