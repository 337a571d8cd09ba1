import HTTPTypes

/// The headers that keep an SVG a picture. An SVG is a document: opened directly (a link, a
/// new tab) its `<script>` would run in the site's origin, with its cookies and storage. In an
/// `<img>` or CSS no script runs anyway, so these headers change nothing there.
///
/// `default-src 'none'` loads nothing (no script, no external image or font, no fetch);
/// `style-src 'unsafe-inline'` keeps the `style` attributes and `<style>` elements drawing
/// tools write; `sandbox` (with no `allow-*`) gives the document an opaque origin and runs no
/// script even where a browser skipped the other directives. Every answer also says `nosniff`
/// (`HTTP1ResponseHead`), so no other file is taken for an SVG or a page.
enum SVGPolicy {
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    /// Adds the policy to the headers of an `image/svg+xml` answer.
    static func apply(to headers: inout HTTPFields) {
        guard headers[.contentType]?.hasPrefix("image/svg+xml") == true else { return }
        headers[.contentSecurityPolicy] = contentSecurityPolicy
    }
}
