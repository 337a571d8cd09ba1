import HTTPTypes

extension HTTPField.Name {
    /// The client hint Chromium sends once a page opted in with `Accept-CH`.
    static let secCHDPR = HTTPField.Name("Sec-CH-DPR")!
    /// The legacy spelling of the same hint.
    static let dpr = HTTPField.Name("DPR")!
    /// An `<img sizes>`'s layout width in device pixels, and the viewport's in CSS pixels.
    static let secCHWidth = HTTPField.Name("Sec-CH-Width")!
    static let secCHViewportWidth = HTTPField.Name("Sec-CH-Viewport-Width")!
    /// The density of the variant sent, so `<img src>` without width/height lays out at CSS size.
    static let contentDPR = HTTPField.Name("Content-DPR")!
    /// The hints a page asks its subresource requests to carry.
    static let acceptCH = HTTPField.Name("Accept-CH")!
}

extension HTTPFields {
    /// Whether these response headers describe an HTML page (the responses that get
    /// `Accept-CH`, and in dev mode the reload script).
    var isHTMLPage: Bool {
        guard let contentType = self[.contentType] else { return false }
        // Compared byte by byte, ASCII case folded: this runs on every response.
        let prefix = "text/html".utf8
        let bytes = contentType.utf8
        guard bytes.count >= prefix.count else { return false }
        return zip(bytes, prefix).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }
}
