/// What the responder changes in an HTML page before the browser gets it, found by whoever
/// reads HTML (the rewriter's parser, so measurements and rewrites agree on every offset).
public struct PageMarks: Sendable {
    /// The byte offset of each `<img` tag: each gets `SiteResponder.offsetAttribute` with it.
    public var imageTags: [Int]
    /// Attribute names to turn off (`srcset` and `sizes` that an earlier rewrite wrote): each
    /// is renamed `data-dppx-off-NAME`, so the page is measured as it was before any rewrite,
    /// its images at their natural size.
    public var disabledAttributes: [Range<Int>]
    /// The `src` each `<img` tag has in the page's source, by offset: what the layout file
    /// records as the occurrence's `src`, rather than anything the page's scripts put in the
    /// element (a page could write any text there, the contents of a file it read included).
    public var imageSources: [Int: String]

    public init(imageTags: [Int], disabledAttributes: [Range<Int>] = [], imageSources: [Int: String] = [:]) {
        self.imageTags = imageTags
        self.disabledAttributes = disabledAttributes
        self.imageSources = imageSources
    }
}
