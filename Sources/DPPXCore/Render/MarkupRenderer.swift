import Foundation

/// Renders `<img srcset>` markup, or a `<picture>` with `<source type>` lines for AVIF and
/// WebP before the `<img>` when extra formats exist.
///
/// `width`/`height` carry the CSS size so the page does not jump when the image arrives
/// (unless `dimensions` is false: a page whose CSS sets an image's width without
/// `height: auto` would stretch it to that height);
/// `loading="lazy"` and `decoding="async"` keep offscreen images from delaying the page.
public struct MarkupRenderer: Sendable {
    public let templates: RenderTemplates

    /// `templates` must be of kind `.markup`.
    public init(templates: RenderTemplates) {
        precondition(templates.kind == .markup, "MarkupRenderer needs the markup templates")
        self.templates = templates
    }

    /// The markup of each image, in the order given; fluid images take their `sizes` from `sizes`.
    public func images(_ images: [Manifest.Image], urls: URLBase, sizes: MarkupSizes = MarkupSizes(), dimensions: Bool = true) -> [MarkupImage] {
        images.map { image in
            let candidates = ImageCandidates(image: image, urls: urls)
            let sources = candidates.extra.map {
                MarkupView.Source(type: $0.format.mediaType, srcset: ImageCandidates.srcset($0.candidates))
            }
            let view = MarkupView(
                source: image.source, src: candidates.fallback.url,
                srcset: image.densityIndependent ? nil : ImageCandidates.srcset(candidates.primary),
                sizes: sizes.value(for: image), width: image.width, height: image.height, dimensions: dimensions, alt: "",
                sources: sources, picture: !sources.isEmpty)
            var html = templates.render(view.picture ? "picture" : "img", view)
            while html.hasSuffix("\n") { html.removeLast() }
            return MarkupImage(source: image.source, src: view.src, srcset: view.srcset, sizes: view.sizes, width: view.width,
                               height: view.height, sources: sources.map { .init(type: $0.type, srcset: $0.srcset) },
                               html: html)
        }
    }

    /// The HTML text: each image's markup on its own line(s).
    public func html(_ images: [Manifest.Image], urls: URLBase, sizes: MarkupSizes = MarkupSizes(), dimensions: Bool = true) -> String {
        self.images(images, urls: urls, sizes: sizes, dimensions: dimensions).map { $0.html + "\n" }.joined()
    }

    /// The `--json` text: sorted keys, ending in a newline.
    public func json(_ images: [Manifest.Image], urls: URLBase, sizes: MarkupSizes = MarkupSizes(), dimensions: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        let data = (try? encoder.encode(MarkupDocument(images: self.images(images, urls: urls, sizes: sizes, dimensions: dimensions)))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
