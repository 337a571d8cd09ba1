import CVips

/// A variant's pixels as libwebp encodes them in a quality search: converted to YUV 4:2:0 once,
/// plainly or by libwebp's sharp conversion, and encoded at each quality the search tries
/// (libwebp only reads a YUV input's planes).
///
/// libwebp's plain conversion averages each 2x2 block's colour, and the blur it leaves on colour
/// edges caps the score whatever the quality: at 1x, two of ukui's five photos never reached 80
/// (2004default scored 68.9 at q100, in 242 KB). Converted sharp, it scored 80.5 at q93 in 150
/// KB. But where the plain conversion leaves room above the target (hidpi variants, whose targets
/// are low; pictures with soft colour), sharp files are a few percent larger for the same score,
/// and the conversion costs about an encode (BENCHMARKS.md, "2026-11-27"). `inputs(for:sample:goal:file:)`
/// decides.
/// Fixed qualities always convert plainly: their numbers write the bytes they always did.
public final class WebPSearchInput {
    /// How far above the search's goal the plain conversion alone must score for the search to
    /// keep it. On ukui's photos (from JPEG masters in 4:4:4 and in 4:2:0), the smallest passing
    /// file was the sharp one wherever this room was under 10 points (every 1x file but one, 3.7 %
    /// larger, and the hardest picture at 1.5x and 2x: up to 52 % smaller), and above it the plain
    /// one, or a sharp one at most 5 % smaller. gnome's wallpapers, where sharp files ran 1 to
    /// 2 % larger, all had more room.
    public static let headroom = 10.0

    /// Whether it was converted sharp.
    public let sharp: Bool
    private let picture: UnsafeMutablePointer<WebPPicture>

    /// The input for `image`, or nil when libwebp does not take its pixels straight (anything
    /// but 8-bit with 3 or 4 bands: grey images, which have no colour to blur, go through
    /// libvips's writer instead).
    public init?(_ image: VipsImage, sharp: Bool, file: String) throws(ImagingError) {
        guard image.takenByLibWebP else { return nil }
        self.sharp = sharp
        picture = try image.webpPicture(sharp: sharp, file: file)
    }

    /// The inputs of a search of `pixels`, and of its `sample` where it has one, aiming at
    /// `goal`: converted sharp where the plain conversion alone, before any compression, scores
    /// under `goal + headroom` (asked of the sample where there is one: one conversion there
    /// and back and one score), else plainly. The plain conversion the choice was made on is
    /// the one kept when plain is chosen, so nothing is converted twice. Nil for pixels libwebp
    /// does not take.
    public static func inputs(for pixels: VipsImage, sample: VipsImage?, goal: Double,
                              file: String) throws(ImagingError) -> (whole: WebPSearchInput, sample: WebPSearchInput?)? {
        let judged = sample ?? pixels
        guard let plain = try WebPSearchInput(judged, sharp: false, file: file) else { return nil }
        let sharp = try plain.leavesLittleRoom(for: judged, goal: goal, file: file)
        func input(_ image: VipsImage) throws(ImagingError) -> WebPSearchInput? {
            image === judged && !sharp ? plain : try WebPSearchInput(image, sharp: sharp, file: file)
        }
        guard let whole = try input(pixels) else { return nil }
        if let sample { return (whole, try input(sample)) }
        return (whole, nil)
    }

    /// Whether this plain input of `pixels`, back to RGB as a decoder shows it, scores under
    /// `goal + headroom`: the most any plain WebP of them can score.
    private func leavesLittleRoom(for pixels: VipsImage, goal: Double, file: String) throws(ImagingError) -> Bool {
        let roundTrip = try Vips.attributed { () throws(ImagingError) -> VipsImage in
            try VipsImage.make(file: file) { cvips_webp_input_rgb(picture, Int32(pixels.bands), $0) }
        }
        return try PerceptualScore.ssimulacra2(reference: pixels, distorted: roundTrip, file: file) < goal + Self.headroom
    }

    /// The WebP at `quality`, with `settings`' effort.
    public func encode(quality: Int, settings: EncodeSettings, file: String) throws(ImagingError) -> [UInt8] {
        try Encoder.encodeWebP(picture, quality: Int32(quality), effort: settings.webpEffort, file: file)
    }

    deinit { cvips_webp_input_free(picture) }
}
