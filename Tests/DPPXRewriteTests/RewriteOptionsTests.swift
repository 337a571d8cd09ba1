import DPPXCore
import DPPXRewrite
import Testing

/// `RewriteOptions(settings:)`: how `dppx rewrite`, `dppx build` and `dppx serve` all read
/// `[rewrite]` and its flags.
@Suite("RewriteOptions from settings")
struct RewriteOptionsTests {
    @Test("settings that say nothing rewrite what cannot change the layout only")
    func defaults() {
        #expect(RewriteOptions(settings: ProjectSettings()) == RewriteOptions())
    }

    @Test("every [rewrite] key that changes a page reaches its option, and the rules come along")
    func projectFile() throws {
        let settings = try ProjectFile.settings(parsing: """
            [rewrite]
            base-url = "https://cdn.example.com/"
            sizes = "50vw"
            dimensions = true
            picture = true
            placeholder = "blur"
            [[rule]]
            match = "heroes/**"
            sizes = "100vw"
            """)
        let options = RewriteOptions(settings: settings)
        #expect(options == RewriteOptions(baseURL: "https://cdn.example.com/", sizes: "50vw", rules: settings.rules,
                                          dimensions: true, picture: true, placeholder: .blur))
        #expect(options.rules.count == 1)
    }
}
