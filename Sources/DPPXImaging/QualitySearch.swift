import CVips
import DPPXCore

/// Finds, for one variant, the lowest encoder quality whose file scores at least a target on
/// SSIMULACRA2 against the variant's own resized pixels, by bisection over the quality range.
///
/// The pixels are resized once and kept in memory; each step encodes them, decodes the file
/// and scores it (no second decode of the master). The first step is the format's default
/// fixed quality, whose size is the baseline `auto` reports against; bisection then halves
/// the range below it (when it passes) or above it (when it does not): 6 or 7 encodes for
/// JPEG and WebP, at most 7 for AVIF. A variant no quality brings to its target gets the
/// highest quality, 100. Encoders and the score are deterministic, so is the choice.
public enum QualitySearch {
    /// How far above its target a file must score to pass: dppx's scores agree with PyPI's
    /// `ssimulacra2` to within a few thousandths (it works in single precision), so a file that
    /// passes here passes there too.
    public static let margin = 0.05

    /// The qualities searched per format: below these, files fall apart whatever the picture.
    public static func range(for format: ImageFormat) -> ClosedRange<Int>? {
        switch format {
        case .jpeg, .webp: 30...100
        case .avif: 20...100
        default: nil
        }
    }

    /// Whether `image` in `format` is searched rather than encoded at a fixed quality: the
    /// format's quality is `auto`, the encode is lossy, the image is one frame and at least
    /// `PerceptualScore.minimumSide` pixels across each way (smaller ones have nothing to score).
    public static func applies(to image: VipsImage, format: ImageFormat, settings: EncodeSettings, lossless: Bool) -> Bool {
        guard settings.quality(for: format) == .auto, range(for: format) != nil, !lossless else { return false }
        return image.pageHeight == image.fullHeight && image.width >= PerceptualScore.minimumSide
            && image.fullHeight >= PerceptualScore.minimumSide
    }

    /// The smallest file of `image` in `format` scoring at least `target`, and what was chosen.
    public static func encode(_ image: VipsImage, as format: ImageFormat, settings: EncodeSettings, target: Double,
                              losslessSource: Bool, file: String) throws(ImagingError) -> (bytes: [UInt8], choice: Manifest.QualitySearchResult) {
        guard let range = range(for: format), let fixed = EncodeSettings.defaultQuality(for: format) else {
            throw ImagingError(file: file, reason: "has no quality to search for \(format.rawValue)")
        }
        // The resize runs once, here; every step encodes these pixels.
        let pixels = try Vips.attributed { () throws(ImagingError) -> VipsImage in
            try VipsImage.make(file: file) { cvips_copy_memory(image.pointer, $0) }
        }
        var tried: [Int: (bytes: [UInt8], score: Double)] = [:]
        func attempt(_ quality: Int) throws(ImagingError) -> Double {
            if let known = tried[quality] { return known.score }
            let bytes = try Encoder.encode(pixels, as: format, settings: settings.fixing(format, at: quality),
                                           losslessSource: losslessSource, file: file)
            let score = try PerceptualScore.ssimulacra2(reference: pixels, encoded: bytes, file: file)
            tried[quality] = (bytes, score)
            return score
        }

        var low = range.lowerBound, high = range.upperBound
        var best: Int?
        if try attempt(fixed) >= target + margin {
            best = fixed
            high = fixed - 1
        } else {
            low = fixed + 1
        }
        while low <= high {
            let middle = (low + high) / 2
            if try attempt(middle) >= target + margin {
                best = middle
                high = middle - 1
            } else {
                low = middle + 1
            }
        }
        let chosen = best ?? range.upperBound
        _ = try attempt(chosen)
        guard let result = tried[chosen], let baseline = tried[fixed] else {
            throw ImagingError(file: file, reason: "quality search for \(format.rawValue) lost its result (a dppx bug; please report it)")
        }
        return (result.bytes, Manifest.QualitySearchResult(quality: chosen, score: result.score,
                                                           fixedQualityBytes: baseline.bytes.count))
    }
}
