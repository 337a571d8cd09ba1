import ArgumentParser
import DPPXBuild
import DPPXCore

/// Everything that decides what a build writes: `dppx build` and `dppx serve --watch` take this
/// one group, so a development build is the production build.
struct BuildFlags: ParsableArguments {
    @OptionGroup(title: "Variants")
    var variants: VariantOptions

    @OptionGroup(title: "Encoding")
    var encoder: EncoderOptions

    @Option(name: SettingRegistry.stylesheet.name(), help: SettingRegistry.stylesheet.argumentHelp)
    var css: String?

    @OptionGroup(title: "Stylesheet (with --css)")
    var stylesheet: StylesheetFlags

    @OptionGroup var templates: TemplatesOption

    @Option(help: ArgumentHelp("Where the incremental cache goes (default: .dppx-cache in the project's folder, or in ~/.cache/dppx when that folder is published: never inside OUT or the site's root).", valueName: "DIR"))
    var cacheDir: String?

    /// What these flags say.
    var settings: ProjectSettings {
        var settings = ProjectSettings()
            .overlaid(by: variants.settings)
            .overlaid(by: encoder.settings)
            .overlaid(by: stylesheet.settings)
        settings.stylesheet = css
        settings.templates = templates.templates
        return settings
    }

    /// The build of SRC into OUT these flags and `settings` (the flags over dppx.toml) describe;
    /// of one `shard` of the masters, or all of them; `project` says whether links out of SRC
    /// are built (`--allow-outside-project`).
    func buildOptions(settings: ProjectSettings, source: String, output: String, shard: Shard? = nil,
                      project: ProjectOption) -> BuildOptions {
        var options = BuildOptions(settings: settings, sourceRoot: source, outputRoot: output)
        options.allowsLinksOutOfSource = project.allowOutsideProject
        options.cacheDirectory = cacheDir
        options.shard = shard
        // The site's root (pages rewritten there) and the served folder are published: the
        // default cache goes elsewhere when the project's folder is one of them.
        if settings.rewritePages != nil { options.publishedRoots.append(settings.rewriteSiteRoot) }
        if let served = settings.servedRoot { options.publishedRoots.append(served) }
        return options
    }
}
