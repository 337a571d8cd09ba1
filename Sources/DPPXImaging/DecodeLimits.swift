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

    /// The defaults, declared with their reasons in `SettingRegistry`.
    public static let defaultMaxPixels = SettingRegistry.maxPixels.fallback
    public static let defaultMaxFrames = SettingRegistry.maxFrames.fallback
    public static let defaultMaxScans = SettingRegistry.maxScans.fallback

    public init(maxPixels: Int = DecodeLimits.defaultMaxPixels, maxFrames: Int = DecodeLimits.defaultMaxFrames,
                maxScans: Int = DecodeLimits.defaultMaxScans) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxScans = maxScans
    }
}

extension DecodeLimits {
    /// The fields the settings fill (`SettingRegistry`): a new limit is its registry line, its
    /// field and its line here.
    public static let settingFields: [SettingField<DecodeLimits>] = [
        SettingField(SettingRegistry.maxPixels, \.maxPixels),
        SettingField(SettingRegistry.maxFrames, \.maxFrames),
        SettingField(SettingRegistry.maxScans, \.maxScans),
        SettingField(SettingRegistry.failOn, \.failOn),
    ]

    /// The limits `settings` give, the defaults for the rest.
    public init(settings: ProjectSettings) {
        self = Self.settingFields.filling(DecodeLimits(), from: settings)
    }
}
