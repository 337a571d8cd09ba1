import Foundation
import Testing

/// The README, `docs/` and `bench/`'s Markdown point only at files and headings that exist, so a
/// page moved or a heading renamed breaks the suite rather than a reader's click. No network: links
/// to other sites are not followed.
@Suite("Documentation links")
struct DocumentationLinkTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL

    /// README.md and BENCHMARKS.md, then every Markdown file in docs/ and bench/, as paths relative to the repository.
    static var pages: [String] {
        let folders = ["docs", "bench"].flatMap { folder -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return ["README.md", "BENCHMARKS.md"] + folders
    }

    static func read(_ page: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(page), encoding: .utf8)
    }

    @Test("every relative link in README.md, BENCHMARKS.md, docs/ and bench/ names an existing file, and every #anchor a heading of it",
          arguments: pages)
    func linksResolve(page: String) throws {
        let links = MarkdownLinks(try Self.read(page)).links.filter { !MarkdownLinks.isExternal($0.target) }
        for link in links {
            let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let path = parts[0].removingPercentEncoding ?? parts[0]
            #expect(!path.hasPrefix("/"), "\(page):\(link.line): \(link.target) is absolute; write it relative to \(page)")
            let pageFolder = Self.repository.appendingPathComponent(page).deletingLastPathComponent()
            let target = path.isEmpty ? Self.repository.appendingPathComponent(page) : pageFolder.appendingPathComponent(path).standardizedFileURL
            #expect(target.path.hasPrefix(Self.repository.path + "/"), "\(page):\(link.line): \(link.target) leads out of the repository")
            guard FileManager.default.fileExists(atPath: target.path) else {
                Issue.record("\(page):\(link.line): \(link.target): no file \(target.path.dropFirst(Self.repository.path.count + 1))")
                continue
            }
            guard parts.count == 2, target.pathExtension == "md" else { continue }
            let anchors = MarkdownLinks(try String(contentsOf: target, encoding: .utf8)).anchors
            #expect(anchors.contains(parts[1]),
                    "\(page):\(link.line): \(link.target): no heading with that anchor; it has \(anchors.sorted().joined(separator: ", "))")
        }
    }

    @Test("every page in docs/ is listed in docs/README.md, and README.md links to docs/README.md")
    func everyPageIsReachable() throws {
        let index = Set(MarkdownLinks(try Self.read("docs/README.md")).links.map { $0.target.split(separator: "#")[0] })
        for page in Self.pages where page.hasPrefix("docs/") && page != "docs/README.md" {
            #expect(index.contains(Substring(page.dropFirst("docs/".count))), "docs/README.md does not list \(page)")
        }
        #expect(MarkdownLinks(try Self.read("README.md")).links.contains { $0.target == "docs/README.md" })
    }

    @Test("anchors are GitHub's slugs: lowercase, punctuation but - and _ dropped, spaces to -, repeats numbered")
    func slugs() {
        #expect(MarkdownLinks.slug("Serving past one machine") == "serving-past-one-machine")
        #expect(MarkdownLinks.slug("dppx build --shard") == "dppx-build---shard")
        #expect(MarkdownLinks.slug("Perceptual quality (`quality = \"auto\"`, bench/quality)") == "perceptual-quality-quality--auto-benchquality")
        #expect(MarkdownLinks.slug("libvips's vector code (ORC) off, 2026-11-25") == "libvipss-vector-code-orc-off-2026-11-25")
        #expect(MarkdownLinks("## Targets\ntext\n## Targets\n").anchors == ["targets", "targets-1"])
    }

    @Test("links and headings inside code are not links and headings; link text may run over a line break")
    func codeIsNotProse() {
        let page = MarkdownLinks("""
            # Title
            ```sh
            # not a heading [a](missing.md)
            ```
            `[b](also-missing.md)` and [c
            d](build.md#sizes) and ![e](picture.png)
            """)
        #expect(page.anchors == ["title"])
        #expect(page.links == [.init(target: "build.md#sizes", line: 6), .init(target: "picture.png", line: 6)])
    }
}
