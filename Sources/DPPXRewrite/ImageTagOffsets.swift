/// Where each `<img>` start tag of a page begins (the byte offset of its `<`), in document
/// order, as the rewriter reads the page: the name a measured layout gives an occurrence, so
/// measurements and rewrites agree on which `<img>` is which.
public enum ImageTagOffsets {
    public static func of(_ page: [UInt8]) -> [Int] {
        HTMLPage(parsing: page).images.map(\.start)
    }
}
