import Foundation

/// Renders `<img srcset>` markup, or a `<picture>` with `<source type>` lines for AVIF, WebP
/// and JPEG XL (fewest bytes first) before the `<img>` when extra formats exist.
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
    /// `placeholder` paints each image's placeholder in an inline style; the image whose master
    /// is `preload` is fetched at once and gets its `<link rel="preload">` (`MarkupImage.preload`).
    public func images(_ images: [Manifest.Image], urls: URLBase, sizes: MarkupSizes = MarkupSizes(), dimensions: Bool = true,
                       placeholder: PlaceholderStyle? = nil, preload: String? = nil) -> [MarkupImage] {
        images.map { image in
            let candidates = ImageCandidates(image: image, urls: urls)
            let sources = candidates.extra.map {
                MarkupView.Source(type: $0.format.mediaType, srcset: ImageCandidates.srcset($0.candidates))
            }
            let preloaded = image.source == preload
            let srcset = image.densityIndependent ? nil : ImageCandidates.srcset(candidates.primary)
            let imageSizes = preloaded ? sizes.eagerValue(for: image) : sizes.value(for: image)
            let shown = placeholder == nil ? nil : image.placeholder
            let view = MarkupView(
                source: image.source, src: candidates.fallback.url, srcset: srcset,
                sizes: imageSizes, width: image.width, height: image.height, dimensions: dimensions, alt: "",
                sources: sources, picture: !sources.isEmpty,
                style: placeholder?.declarations(for: image.placeholder),
                placeholderColor: PlaceholderStyle.color(of: shown), thumbHash: shown?.thumbHash,
                preview: PlaceholderStyle.preview(of: shown),
                preloaded: preloaded,
                preload: preloaded ? Self.preload(src: candidates.fallback.url, srcset: srcset, sizes: imageSizes, sources: sources) : nil)
            var html = templates.render(view.picture ? "picture" : "img", view)
            while html.hasSuffix("\n") { html.removeLast() }
            var link = view.preload.map { _ in templates.render("preload", view) }
            while link?.hasSuffix("\n") == true { link?.removeLast() }
            return MarkupImage(source: image.source, src: view.src, srcset: view.srcset, sizes: view.sizes, width: view.width,
                               height: view.height, sources: sources.map { .init(type: $0.type, srcset: $0.srcset) },
                               html: html, style: view.style, preload: link)
        }
    }

    /// What the preloaded image's `<img>` will fetch first: the `<picture>`'s first (most
    /// preferred) source, by type; else the `<img>`'s candidates; an SVG's one file.
    private static func preload(src: String, srcset: String?, sizes: String?, sources: [MarkupView.Source]) -> MarkupView.Preload {
        if let first = sources.first {
            return MarkupView.Preload(href: nil, srcset: first.srcset, sizes: sizes, type: first.type)
        }
        guard let srcset else { return MarkupView.Preload(href: src, srcset: nil, sizes: nil, type: nil) }
        return MarkupView.Preload(href: nil, srcset: srcset, sizes: sizes, type: nil)
    }

    /// The HTML text: the preload link first (when asked for), then each image's markup on its own line(s).
    public func html(_ images: [Manifest.Image], urls: URLBase, sizes: MarkupSizes = MarkupSizes(), dimensions: Bool = true,
                     placeholder: PlaceholderStyle? = nil, preload: String? = nil) -> String {
        let rendered = self.images(images, urls: urls, sizes: sizes, dimensions: dimensions, placeholder: placeholder, preload: preload)
        return rendered.compactMap { $0.preload.map { $0 + "\n" } }.joined() + rendered.map { $0.html + "\n" }.joined()
    }

    /// The `--json` text: sorted keys, ending in a newline.
    public func json(_ images: [Manifest.Image], urls: URLBase, sizes: MarkupSizes = MarkupSizes(), dimensions: Bool = true,
                     placeholder: PlaceholderStyle? = nil, preload: String? = nil) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let rendered = self.images(images, urls: urls, sizes: sizes, dimensions: dimensions, placeholder: placeholder, preload: preload)
        // Encoding plain strings and numbers cannot fail.
        let data = (try? encoder.encode(MarkupDocument(images: rendered))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
