import DPPXBuild
import DPPXCore
import DPPXRewrite

/// What a whole build writes besides the images, as the settings ask: the stylesheet (`--css`,
/// `[css] file`) and the `[rewrite]` pages. `dppx build` writes them after its images and
/// `dppx merge` after the shards' (a shard's manifest is partial, so a shard writes neither),
/// both through this one type: a sharded build and its merge leave what one build leaves.
struct SiteFiles: Sendable {
    /// The stylesheet to write, nil when the settings name none.
    let stylesheet: StylesheetTarget?
    /// The `[rewrite] pages` patterns, matched again on every run (pages come and go in --watch).
    let pagePatterns: [String]?
    let siteRoot: String
    let rewriteOptions: RewriteOptions

    init(settings: ProjectSettings) {
        stylesheet = StylesheetTarget(settings: settings)
        pagePatterns = settings.rewritePages
        siteRoot = settings.rewriteSiteRoot
        rewriteOptions = settings.rewriteOptions
    }

    /// Writes the stylesheet of `manifest`, whose files are under `imageRoot`, when it changed;
    /// false when it could not be written (said on stderr).
    func writeStylesheet(_ manifest: Manifest, imageRoot: String, quiet: Bool) -> Bool {
        guard let stylesheet else { return true }
        do {
            if try stylesheet.write(manifest: manifest, imageRoot: imageRoot), !quiet {
                Terminal.out("wrote \(stylesheet.path)")
            }
            return true
        } catch {
            Terminal.error("\(stylesheet.path): \(error)")
            return false
        }
    }

    /// Rewrites the `[rewrite]` pages with the manifests now on disk, as `dppx rewrite` does;
    /// false when a page or manifest failed (said on stderr).
    func rewritePages(quiet: Bool) -> Bool {
        guard let pagePatterns else { return true }
        let rewrite = SiteRewrite(root: siteRoot, pages: SiteRewrite.files(matching: pagePatterns), options: rewriteOptions)
        return RewriteCommand.run(rewrite, check: false, depfile: nil, quiet: quiet)
    }
}
