/// What the `img` and `picture` templates see for one image: URLs already percent-encoded;
/// Mustache HTML-escapes every value into the attributes.
///
/// `variableNames` lists every property so a template's unknown name is reported (a test keeps
/// the list in step with the properties).
struct MarkupView {
    let source: String
    /// 1x in the master's format.
    let src: String
    /// `hero.jpg 1x, hero@1.5x.jpg 1.5x`; nil for SVG, which needs none.
    let srcset: String?
    /// A fluid image's `sizes` (`auto, 100vw`); nil for the others.
    let sizes: String?
    /// The CSS size (a fluid image's widest file, for the aspect ratio): reserves the box before the image loads.
    let width: Int
    let height: Int
    /// Whether `width` and `height` are written (`--no-dimensions` turns it off, for pages whose
    /// CSS sets an image's width without `height: auto`).
    let dimensions: Bool
    let alt: String
    /// Extra formats, fewest bytes first: the `<source>` elements of a `<picture>`.
    let sources: [Source]
    /// True when there are `sources`: dppx renders `picture`, else `img`.
    let picture: Bool
    /// The placeholder's inline declarations (`--placeholder`, `PlaceholderStyle`); nil without one.
    var style: String? = nil
    /// The placeholder's parts, for templates that paint it their own way; nil when absent
    /// or not asked for.
    var placeholderColor: String? = nil
    var thumbHash: String? = nil
    var preview: String? = nil
    /// True for the image `--preload` names: fetched at once (`fetchpriority="high"`), not lazily.
    var preloaded = false
    /// What the `preload` template's `<link>` fetches; nil for the other images.
    var preload: Preload? = nil

    struct Source {
        /// `image/avif`.
        let type: String
        let srcset: String
    }

    /// A `<link rel="preload" as="image">` that asks for the file the `<img>` will pick: the
    /// `<picture>`'s first source (with its `type`, so browsers without that format skip the
    /// preload rather than fetch a file they cannot use), else the `<img>`'s own candidates.
    struct Preload {
        /// Only for SVG, which has no `srcset`.
        let href: String?
        let srcset: String?
        let sizes: String?
        let type: String?
    }

    static let variableNames = ["source", "src", "srcset", "sizes", "width", "height", "dimensions", "alt", "sources", "picture", "type",
                                "style", "placeholderColor", "thumbHash", "preview", "preloaded", "preload", "href"]
}
