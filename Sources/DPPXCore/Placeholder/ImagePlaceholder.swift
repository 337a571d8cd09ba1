/// What a page paints in an image's box before the image arrives, as `dppx build` records it
/// in the manifest: a colour, a ThumbHash, and that hash rendered as a tiny image data URI.
///
/// Every field is optional: vector masters get none of them and animated masters a colour only,
/// and `limitation` then says so, so a reader of the manifest knows nothing is missing by mistake.
public struct ImagePlaceholder: Codable, Hashable, Sendable {
    /// `#rrggbb`: the average colour in linear light, weighted by alpha (`AverageColor`); nil
    /// when no pixel is visible.
    public var color: String?
    /// The ThumbHash in base64: for pages that decode it themselves.
    public var thumbHash: String?
    /// The ThumbHash rendered (at most 32 px a side, smooth when scaled up) as a
    /// `data:image/webp;base64,...` URI, for pages without a decoder.
    public var preview: String?
    /// What is left out and why (vector or animated master, no visible pixel); nil when nothing is.
    public var limitation: String?

    public init(color: String? = nil, thumbHash: String? = nil, preview: String? = nil, limitation: String? = nil) {
        self.color = color
        self.thumbHash = thumbHash
        self.preview = preview
        self.limitation = limitation
    }

    /// A vector master's: nothing (it is small and paints as soon as it arrives).
    public static let vector = ImagePlaceholder(
        limitation: "vector master: no placeholder (its one small file paints as soon as it arrives)")
}
