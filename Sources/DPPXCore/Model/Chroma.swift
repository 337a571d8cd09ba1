/// How a JPEG or an AVIF stores colour: at a quarter of the resolution (4:2:0, what photos are
/// usually written with) or at full resolution (4:4:4).
///
/// libvips switches both from 4:2:0 to 4:4:4 at quality 90; a JPEG's bytes then about double
/// for a few points of score, an AVIF's much less. A quality search chooses the chroma itself
/// (`QualitySearch.scales`: JPEG, and AVIF from 2x, in 4:2:0 first; AVIF below 2x in 4:4:4) and
/// the manifest names the one written.
public enum Chroma: String, Codable, Hashable, Sendable {
    /// Colour at half the resolution each way.
    case subsampled = "4:2:0"
    /// Colour at full resolution.
    case full = "4:4:4"
}
