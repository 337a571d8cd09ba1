/// An `<img>` whose image a lazy-loading script sets: lazysizes, lozad and vanilla-lazyload
/// read `data-src` / `data-srcset` / `data-sizes`, WordPress's lazy-load plugins
/// `data-lazy-src` / `data-lazy-srcset`, jQuery Lazy Load `data-original`, and copy them into
/// `src`, `srcset` and `sizes` when the image nears the viewport.
///
/// Its `src` is a stand-in until then (a blurred preview, a 1x1 GIF, or the real file). A
/// `srcset` dppx added beside that `src` would win over the `src` the script sets, so the real
/// image would never show; and a `srcset` the script sets from `data-srcset` replaces one dppx
/// wrote. Such an image is left as the page wrote it, and reported with the attribute found.
enum ScriptLoadedImage {
    /// The attributes the usual lazy-loading scripts take an image's real source from.
    static let sourceAttributes = [
        "data-src", "data-srcset", "data-sizes", "data-lazy-src", "data-lazy-srcset", "data-lazy-sizes", "data-original",
    ]

    /// The first of `sourceAttributes` `tag` has, if any.
    static func sourceAttribute(of tag: HTMLTag) -> String? {
        sourceAttributes.first { tag.attribute($0) != nil }
    }

    /// Why `tag` is left as it is, naming `attribute`.
    static func reason(attribute: String) -> String {
        "a lazy-loading script sets its image from \(attribute), so a srcset beside its src would keep that src's image instead of the one the script loads; left as it is (give it loading=\"lazy\" instead of the script's attributes to have dppx write one, or write the script's data-srcset and data-sizes from dppx html)"
    }
}
