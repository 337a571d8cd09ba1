import DPPXCore

/// The most one master may cost to decode. Each is checked from the header (or a scan of the
/// file's bytes) before any pixel is decoded, and a master over one is refused with the limit
/// and the flag that raises it: a crafted file of a few kilobytes can otherwise ask for
/// gigabytes of memory or hours of decoding.
///
/// `failOn` is checked as the pixels are decoded.
public struct DecodeLimits: Sendable, Hashable {
    /// Pixels of every frame together (width x height x frames): `--max-pixels`. Bounds the
    /// decoded master's memory: at most 4 bytes a pixel (RGBA, 8-bit: 16-bit masters stream
    /// through the conversion), so 400 MB at the default, and the resize work.
    public var maxPixels: Int
    /// Frames of an animation, or pages of a TIFF: `--max-frames`. libvips pays for each
    /// frame apart from its pixels (a TIFF's pages take quadratic time), so thousands of 1x1
    /// frames are slow even under `maxPixels`.
    public var maxFrames: Int
    /// Scans of a progressive JPEG: `--max-scans`. libjpeg reads every scan over the whole
    /// image, so the time grows with scans x pixels; encoders write about 10.
    public var maxScans: Int
    /// How damaged pixel data may be: `--fail-on`. Damage past it refuses the master when it
    /// is decoded; below it the decoder's grey fill is kept, as browsers show it.
    public var failOn: FailOn = .default

    /// 100 megapixels (10000 x 10000): four times an 8K screen, so a 4x variant of a
    /// full-width image fits, and the decoded master stays under 400 MB. (libvips's and sharp's
    /// 16384 x 16384 lets a 1 MB PNG of zeros claim a gigabyte.)
    public static let defaultMaxPixels = 100_000_000
    /// Over 40 s of animation at 25 frames a second.
    public static let defaultMaxFrames = 1000
    /// Ten times what encoders write (libjpeg's and mozjpeg's progressive scripts: 10 scans).
    public static let defaultMaxScans = 100

    public init(maxPixels: Int = DecodeLimits.defaultMaxPixels, maxFrames: Int = DecodeLimits.defaultMaxFrames,
                maxScans: Int = DecodeLimits.defaultMaxScans) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxScans = maxScans
    }
}
