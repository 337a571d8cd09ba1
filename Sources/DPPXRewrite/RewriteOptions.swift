import DPPXCore

/// How pages are rewritten. By default only what cannot change the layout is added: `srcset`
/// (and `sizes` where the layout is known) to `<img>`, `image-set()` after CSS backgrounds.
public struct RewriteOptions: Hashable, Sendable {
    /// URLs under this prefix stand for the site's root (`https://cdn.example.com/`).
    public var baseURL: String?
    /// `sizes` for fluid images that have none and get none from a rule (`--sizes`).
    public var sizes: String?
    /// The project file's rules: a rule's `sizes` says how wide a fluid image is shown.
    public var rules: [ImageRule]
    /// Add `width` and `height` to an `<img>` that has neither (`--dimensions`): reserves the
    /// box before the image arrives, but stretches an image whose CSS sets only its width.
    public var dimensions: Bool
    /// Wrap an `<img>` whose image has AVIF or WebP files in a `<picture>` with a `<source>`
    /// per format (`--picture`): the browser takes the smallest format it reads, but selectors
    /// such as `a > img` or `.card > img` no longer match the image. On measured pages, an
    /// occurrence the check found changed by its wrapper (`LayoutFile.Image.unwrapped`) gets
    /// its `srcset` only.
    public var picture: Bool
    /// Paint each rewritten `<img>`'s placeholder in an inline `style` it does not have yet
    /// (`--placeholder`): what `dppx html --placeholder` writes, which the page's CSS can override.
    public var placeholder: PlaceholderStyle?
    /// What measuring the site's pages found (`dppx-layout.json`): a measured fluid `<img>`
    /// gets the exact `sizes` of its occurrence, and a CSS rule painting a fluid image gets
    /// `@media` blocks with the files its measured painted widths need. Nil: nothing measured.
    public var layout: LayoutFile?

    public init(baseURL: String? = nil, sizes: String? = nil, rules: [ImageRule] = [], dimensions: Bool = false,
                picture: Bool = false, placeholder: PlaceholderStyle? = nil, layout: LayoutFile? = nil) {
        self.baseURL = baseURL
        self.sizes = sizes
        self.rules = rules
        self.dimensions = dimensions
        self.picture = picture
        self.placeholder = placeholder
        self.layout = layout
    }
}

extension RewriteOptions {
    /// How `settings` (`[rewrite]`, its flags) say pages are rewritten, with the defaults for
    /// what they do not say: as `dppx rewrite`, `dppx build` and `dppx serve` all rewrite them.
    public init(settings: ProjectSettings) {
        self.init(baseURL: settings.rewriteBaseURL, sizes: settings.rewriteSizes, rules: settings.rules,
                  dimensions: SettingRegistry.rewriteDimensions.resolved(in: settings),
                  picture: SettingRegistry.rewritePicture.resolved(in: settings), placeholder: settings.rewritePlaceholder)
    }
}
