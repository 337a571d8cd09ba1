/// What the responder changes in an HTML page before the browser gets it, found by whoever
/// reads HTML (the rewriter's parser, so measurements and rewrites agree on every offset).
public struct PageMarks: Sendable {
    /// The byte offset of each `<img` tag: each gets `SiteResponder.offsetAttribute` with it.
    public var imageTags: [Int]
    /// Attribute names to turn off (`srcset` and `sizes` that an earlier rewrite wrote): each
    /// is renamed `data-dppx-off-NAME`, so the page is measured as it was before any rewrite,
    /// its images at their natural size.
    public var disabledAttributes: [Range<Int>]

    public init(imageTags: [Int], disabledAttributes: [Range<Int>] = []) {
        self.imageTags = imageTags
        self.disabledAttributes = disabledAttributes
    }
}
