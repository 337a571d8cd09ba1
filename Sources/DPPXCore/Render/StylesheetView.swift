/// What the stylesheet templates see: plain values with every URL, selector and query already
/// escaped, so a template only arranges text.
///
/// Mustache reads stored properties by name; `variableNames` lists them all so a template's
/// unknown name is reported (a test keeps the list in step with the properties).
struct StylesheetView {
    /// The base rule of each image, in manifest order.
    let rules: [Rule]
    /// One `@media` block per density above 1x, ascending, so the highest matching wins.
    let densityBlocks: [DensityBlock]
    /// True when any image has extra formats (for a comment before `imageSets`).
    let hasImageSets: Bool
    /// `image-set()` rules of the images with extra formats; they come after the media blocks
    /// so that, where accepted, they win over them.
    let imageSets: [ImageSet]
    let imageCount: Int
    /// Fluid backgrounds, in manifest order, after everything else: their own rules only.
    let fluidImages: [FluidImage]

    /// `.hero { background-image: url("hero.jpg"); background-size: ...; width; height }`.
    struct Rule {
        let selector: String
        let source: String
        /// `url("hero.jpg")`.
        let url: String
        let width: Int
        let height: Int
        /// Whether to write `width` and `height` (`--no-box` turns it off).
        let box: Bool
        /// SVG: one file, no density overrides.
        let densityIndependent: Bool
        /// `#rrggbb` painted beneath the image (`--placeholder`); nil without one.
        var placeholderColor: String? = nil
        /// `url(data:...)`, the preview layer beneath the image's in every `background-image`
        /// of its selector (`--placeholder blur`); nil without one.
        var placeholderLayer: String? = nil
    }

    struct DensityBlock {
        /// `1.5`.
        let density: String
        /// `(-webkit-min-device-pixel-ratio: 1.5), (min-resolution: 1.5dppx)`.
        let query: String
        let overrides: [Override]
    }

    struct Override {
        let selector: String
        let source: String
        /// `url("hero@1.5x.jpg")`.
        let url: String
        var placeholderLayer: String? = nil
    }

    struct ImageSet {
        let selector: String
        let source: String
        /// `-webkit-image-set(url("hero.jpg") 1x, url("hero@2x.jpg") 2x)`: master format only,
        /// no `type()`, for WebKit versions that know only the prefixed form.
        let webkitImageSet: String
        /// `image-set(url("hero.avif") type("image/avif") 1x, ..., url("hero.jpg") 1x, ...)`.
        let imageSet: String
        var placeholderLayer: String? = nil
    }

    /// A fluid background: the narrowest file, then one `@media` block per wider file.
    struct FluidImage {
        let selector: String
        let source: String
        /// `url("hero-329w.jpg")`.
        let url: String
        /// `image-set(url("hero-329w.avif") type("image/avif"), ..., url("hero-329w.jpg"))`
        /// when there are extra formats; nil otherwise.
        let imageSet: String?
        let steps: [FluidStep]
        var placeholderColor: String? = nil
        var placeholderLayer: String? = nil
    }

    /// One wider file of a fluid background and the query that picks it.
    struct FluidStep {
        let selector: String
        /// `(min-width: 442px), (min-width: 221px) and (-webkit-min-device-pixel-ratio: 2), ...`.
        let query: String
        let url: String
        let imageSet: String?
        var placeholderLayer: String? = nil
    }

    static let variableNames = [
        "rules", "densityBlocks", "hasImageSets", "imageSets", "imageCount",
        "selector", "source", "url", "width", "height", "box", "densityIndependent",
        "density", "query", "overrides",
        "webkitImageSet", "imageSet",
        "fluidImages", "steps",
        "placeholderColor", "placeholderLayer",
    ]
}
