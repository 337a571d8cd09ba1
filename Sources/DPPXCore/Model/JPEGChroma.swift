/// How a JPEG stores colour: at a quarter of the resolution (4:2:0, what photos are usually
/// written with) or at full resolution (4:4:4).
///
/// libvips switches from 4:2:0 to 4:4:4 at quality 90, where a file's bytes about double for a
/// few points of score. A quality search names the one it wrote, so it can go on in 4:2:0 above
/// 90 (a point of score for a tenth of the bytes) and take 4:4:4 only where 4:2:0 falls short.
public enum JPEGChroma: String, Codable, Hashable, Sendable {
    /// Colour at half the resolution each way.
    case subsampled = "4:2:0"
    /// Colour at full resolution.
    case full = "4:4:4"
}
