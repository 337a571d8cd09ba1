/// Renders the density stylesheet of a manifest: per image a class rule with the 1x
/// background, its CSS size as `background-size` (and box), then one `@media` block per
/// density with the denser files, then `image-set()` rules for extra formats; fluid
/// backgrounds last, each with its own media queries over the viewport and resolution
/// (`FluidBackground`). Only the images the options include get rules.
///
/// The cascade is the point: every browser gets a working image from the plain rules and media
/// queries; browsers that accept `-webkit-image-set()` or `image-set()` with `type()` replace
/// them with the later rules (a declaration a browser rejects is dropped, so the previous one
/// stays). Output is deterministic: manifest order, densities ascending.
public struct StylesheetRenderer: Sendable {
    public let templates: RenderTemplates

    /// `templates` must be of kind `.stylesheet`.
    public init(templates: RenderTemplates) {
        precondition(templates.kind == .stylesheet, "StylesheetRenderer needs the stylesheet templates")
        self.templates = templates
    }

    /// The stylesheet text of the images `options` includes; throws when two of them would get
    /// one selector.
    public func render(manifest: Manifest, urls: URLBase, options: StylesheetOptions = StylesheetOptions()) throws(RenderError) -> String {
        let images = manifest.images.filter { options.includes($0.source) }
        let selectors = try SelectorNamer(prefix: options.classPrefix, strip: options.stripPath).selectors(for: images)
        var rules: [StylesheetView.Rule] = []
        var overridesByDensity: [Density: [StylesheetView.Override]] = [:]
        var imageSets: [StylesheetView.ImageSet] = []
        var fluidImages: [StylesheetView.FluidImage] = []
        for image in images {
            let selector = selectors[image.source] ?? ""
            let candidates = ImageCandidates(image: image, urls: urls)
            let color = options.placeholder.flatMap { _ in PlaceholderStyle.color(of: image.placeholder) }
            let layer = options.placeholder?.layer(for: image.placeholder)
            if image.isFluid {
                fluidImages.append(Self.fluidImage(selector: selector, candidates: candidates, legacy: options.legacy,
                                                   cover: options.cover(for: image.source),
                                                   placeholderColor: color, placeholderLayer: layer))
                continue
            }
            rules.append(StylesheetView.Rule(
                selector: selector, source: image.source, url: URLEncoding.cssURL(candidates.fallback.url),
                width: image.width, height: image.height, box: options.box,
                densityIndependent: image.densityIndependent, placeholderColor: color, placeholderLayer: layer))
            for candidate in candidates.overrides {
                overridesByDensity[candidate.density, default: []].append(
                    StylesheetView.Override(selector: selector, source: image.source, url: URLEncoding.cssURL(candidate.url),
                                            placeholderLayer: layer))
            }
            if !candidates.extra.isEmpty {
                imageSets.append(Self.imageSet(selector: selector, candidates: candidates, placeholderLayer: layer))
            }
        }
        let blocks = overridesByDensity.keys.sorted().map { density in
            StylesheetView.DensityBlock(density: density.description,
                                        query: DensityMediaQuery(density: density, legacy: options.legacy).text,
                                        overrides: overridesByDensity[density] ?? [])
        }
        let view = StylesheetView(rules: rules, densityBlocks: blocks, hasImageSets: !imageSets.isEmpty,
                                  imageSets: imageSets, imageCount: images.count, fluidImages: fluidImages)
        return templates.render("stylesheet", view)
    }

    /// A fluid background's rules: the narrowest file, then each wider one under the query
    /// that needs it, each with an `image-set()` of its extra formats by `type()`.
    private static func fluidImage(selector: String, candidates: ImageCandidates, legacy: Bool, cover: CoverBox?,
                                   placeholderColor: String?, placeholderLayer: String?) -> StylesheetView.FluidImage {
        func imageSet(width: Int) -> String? {
            guard !candidates.extra.isEmpty else { return nil }
            let typed = candidates.extra.compactMap { extra in
                extra.candidates.first { $0.width == width }.map {
                    "\(URLEncoding.cssURL($0.url)) type(\(URLEncoding.cssString($0.format.mediaType)))"
                }
            }
            let plain = candidates.primary.first { $0.width == width }.map { [URLEncoding.cssURL($0.url)] } ?? []
            return "image-set(\((typed + plain).joined(separator: ", ")))"
        }
        let rungs = candidates.primary
        let steps = FluidBackground(widths: rungs.map(\.width), legacy: legacy, cover: cover,
                                    aspect: PixelSize(width: candidates.image.width, height: candidates.image.height)).steps.compactMap { step in
            rungs.first { $0.width == step.width }.map {
                StylesheetView.FluidStep(selector: selector, query: step.query, url: URLEncoding.cssURL($0.url),
                                         imageSet: imageSet(width: step.width), placeholderLayer: placeholderLayer)
            }
        }
        return StylesheetView.FluidImage(selector: selector, source: candidates.image.source,
                                         url: URLEncoding.cssURL(rungs[0].url), imageSet: imageSet(width: rungs[0].width),
                                         steps: steps, placeholderColor: placeholderColor, placeholderLayer: placeholderLayer)
    }

    private static func imageSet(selector: String, candidates: ImageCandidates, placeholderLayer: String?) -> StylesheetView.ImageSet {
        func entry(_ candidate: ImageCandidates.Candidate, typed: Bool) -> String {
            let type = typed ? " type(\(URLEncoding.cssString(candidate.format.mediaType)))" : ""
            return "\(URLEncoding.cssURL(candidate.url))\(type) \(candidate.descriptor)"
        }
        let webkit = candidates.primary.map { entry($0, typed: false) }.joined(separator: ", ")
        // Fewest bytes first, each with type() so browsers skip what they cannot decode;
        // the master's format last, without type(): always usable.
        let typed = candidates.extra.flatMap { $0.candidates.map { entry($0, typed: true) } }
        let plain = candidates.primary.map { entry($0, typed: false) }
        return StylesheetView.ImageSet(selector: selector, source: candidates.image.source,
                                       webkitImageSet: "-webkit-image-set(\(webkit))",
                                       imageSet: "image-set(\((typed + plain).joined(separator: ", ")))",
                                       placeholderLayer: placeholderLayer)
    }
}
