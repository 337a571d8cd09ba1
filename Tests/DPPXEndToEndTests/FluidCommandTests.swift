import Foundation
import Testing

@Suite("Fluid images from the command line (end to end)", .serialized)
struct FluidCommandTests {
    /// Masters `src/hero.jpg` (800x500) and `src/cards/a.jpg` (1000x500), with a project file
    /// that makes both fluid: the cards at listed widths with their own sizes, every master by
    /// `[build] widths`.
    static func project() throws -> RenderScenario {
        let scenario = try RenderScenario(masters: ["hero.jpg": (800, 500), "cards/a.jpg": (1000, 500)], svg: false)
        try scenario.write("""
            [build]
            source = "src"
            out = "public"
            widths = "auto"
            [[rule]]
            match = "cards/**"
            widths = [300, 600]
            sizes = "(min-width: 768px) 50vw, 100vw"
            """, to: "dppx.toml")
        return scenario
    }

    @Test("build, html and css read widths and sizes from dppx.toml; --sizes covers the images no rule gives sizes")
    func projectFile() async throws {
        let scenario = try Self.project()
        let build = try await scenario.dppx("build", "--quiet")
        #expect(build.status == 0, "\(build)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: scenario.root + "/public").filter { $0.hasSuffix(".jpg") }.sorted()
        #expect(files == ["cards/a-300w.jpg", "cards/a-600w.jpg", "cards/a.jpg", "hero-331w.jpg", "hero-444w.jpg", "hero-596w.jpg", "hero.jpg"])
        let html = try await scenario.dppx("html", "--sizes", "50vw")
        #expect(html.status == 0, "\(html)")
        #expect(html.stdout == """
        <img src="cards/a.jpg" srcset="cards/a-300w.jpg 300w, cards/a-600w.jpg 600w, cards/a.jpg 1000w" sizes="(min-width: 768px) 50vw, 100vw" width="1000" height="500" alt="" loading="lazy" decoding="async">
        <img src="hero.jpg" srcset="hero-331w.jpg 331w, hero-444w.jpg 444w, hero-596w.jpg 596w, hero.jpg 800w" sizes="50vw" width="800" height="500" alt="" loading="lazy" decoding="async">

        """)
        let built = try await scenario.dppx("css", "public")
        let predicted = try await scenario.dppx("css", "src")
        #expect(built.status == 0 && predicted.status == 0, "\(built)\n\(predicted)")
        #expect(built.stdout == predicted.stdout, "dppx css from the masters says what the build wrote")
        #expect(built.stdout.contains("@media (min-width: 332px), (min-width: 221px) and (-webkit-min-device-pixel-ratio: 1.5)"))
    }

    @Test("bad widths and sizes are usage errors that name the flag or the key")
    func errors() async throws {
        let scenario = try Self.project()
        let widths = try await scenario.dppx("build", "--widths", "0")
        #expect(widths.status == 2 && widths.stderr.contains("--widths"), "\(widths)")
        let sizes = try await scenario.dppx("html", "--sizes", "\" onload=\"x")
        #expect(sizes.status == 2 && sizes.stderr.contains("--sizes must be a sizes attribute"), "\(sizes)")
        try scenario.write("[[rule]]\nmatch = \"*\"\nwidths = \"some\"\n", to: "dppx.toml")
        let file = try await scenario.dppx("build", "src", "--out", "public")
        #expect(file.status == 2 && file.stderr.contains("dppx.toml:3: rule.widths expected 'auto' or widths in pixels"), "\(file)")
    }
}
