import HTTPTypes

extension HTTPField.Name {
    /// The client hint Chromium sends once a page opted in with `Accept-CH`.
    static let secCHDPR = HTTPField.Name("Sec-CH-DPR")!
    /// The legacy spelling of the same hint.
    static let dpr = HTTPField.Name("DPR")!
    /// The density of the variant sent, so `<img src>` without width/height lays out at CSS size.
    static let contentDPR = HTTPField.Name("Content-DPR")!
    /// The hints a page asks its subresource requests to carry.
    static let acceptCH = HTTPField.Name("Accept-CH")!
}
