import DPPXBuild
import DPPXCore
import DPPXRewrite

/// What a whole build writes besides the images, as the settings ask: the stylesheet (`--css`,
/// `[css] file`) and the `[rewrite]` pages. `dppx build` writes them after its images (in its
/// `SiteBuild`) and `dppx merge` after the shards' (a shard's manifest is partial, so a
/// shard writes neither), both from this one reading of the settings and through
/// `SiteBuild.writeSiteFiles`: a sharded build and its merge leave what one build leaves.
struct SiteFiles: Sendable {
    /// The stylesheet to write, nil when the settings name none.
    let stylesheet: StylesheetTarget?
    /// The `[rewrite]` pages, matched again on every run (pages come and go in --watch).
    let pages: (@Sendable () -> SiteRewrite)?
    /// How `dppx build` measures them (`[rewrite] measure`, `browser`); nil: it does not.
    /// `dppx merge` never does: it writes what the shards built, at the widths they chose.
    let measuring: SiteBuild.Measuring?

    init(settings: ProjectSettings) {
        stylesheet = StylesheetTarget(settings: settings)
        let site = (root: settings.rewriteSiteRoot, options: RewriteOptions(settings: settings))
        pages = settings.rewritePages.map { patterns -> @Sendable () -> SiteRewrite in
            { SiteRewrite(root: site.root, pages: SiteRewrite.files(matching: patterns), options: site.options) }
        }
        measuring = pages != nil && SettingRegistry.rewriteMeasure.resolved(in: settings)
            ? SiteBuild.Measuring(browser: settings.rewriteBrowser) : nil
    }

    /// Writes the stylesheet of `manifest`, whose files are under `imageRoot`, and rewrites the
    /// pages, saying what was done as `dppx build` does; false when any failed (said on stderr).
    func write(manifest: Manifest, imageRoot: String, quiet: Bool) -> Bool {
        let outcome = SiteBuild.writeSiteFiles(stylesheet: stylesheet, pages: pages, manifest: manifest, imageRoot: imageRoot)
        switch outcome.stylesheet {
        case .success(let written): if written, !quiet, let path = stylesheet?.path { Terminal.out("wrote \(path)") }
        case .failure(let error): Terminal.error("\(stylesheet?.path ?? "the stylesheet"): \(error)")
        case nil: break
        }
        if let pages = outcome.pages { _ = RewriteCommand.report(pages, check: false, quiet: quiet) }
        return outcome.problems.isEmpty
    }
}
