import CVips
import DPPXCore

/// Finds, for one variant, the lowest encoder quality whose file scores at least a target on
/// SSIMULACRA2 against the variant's own resized pixels.
///
/// The pixels are resized once and kept in memory. Each search step encodes, decodes and
/// scores; steps aim by interpolating the scores found so far, and stop once the quality is
/// known to within `step`, or, for a variant over `wholeSearchPixels`, at a passing file within
/// `closeEnough` of the goal.
///
/// JPEG is searched whole, from its default quality (whose size `auto` reports its savings
/// against, so that first step costs only its score): 1 to 5 encodes and scores on ukui's
/// photos, and 2 to 4 more where 4:4:4 is searched too. A JPEG encode costs a fifth of a
/// score, and a sample of tiles on a grid scored up to 4.5 points off the whole image, so the
/// whole steps a sample saved cost more than the sample did (BENCHMARKS.md). It is searched
/// in 4:2:0 and, where that needs `fullChromaFrom` or more, in 4:4:4 too (`scales`).
///
/// WebP, AVIF and JPEG XL (encoded from pixels; a JPEG variant's JXL is its lossless
/// recompression, never searched), whose encodes cost more than a score, are searched first on
/// one square from the centre of a variant over `wholeSearchPixels` (about an eighth of it);
/// then the sample's answer is encoded and scored whole, for the whole file is what must reach
/// the target. When it passes within `closeEnough`, that is the answer; otherwise its score at
/// that level tells how far the sample's scores sit from the whole image's, the sample so
/// corrected says where to look next, and the whole image's own scores go on from there.
/// Their default quality is encoded whole too, for the savings. Smaller variants are searched
/// whole. AVIF is searched in 4:4:4 below 2x, and as JPEG is from 2x (`scales`). WebP's steps
/// encode one conversion to YUV, made once: libwebp's sharp one where the plain one alone
/// would leave the target little room (without it, two of ukui's five 1x photos reach no
/// target of 80 at any quality), else the plain one (`WebPSearchInput`).
///
/// A variant no quality brings to its target gets the highest quality, 100. Encoders and the
/// score are deterministic, so is the choice.
public enum QualitySearch {
    /// Raised whenever the search may choose another file for the same pixels and targets (a new
    /// scale, step or score): it is part of the settings fingerprint of builds with an `auto`
    /// quality, so they search again, and only they. 2: JPEG in 4:4:4 too, WebP and AVIF sampled in
    /// one square. 3: JPEG searched whole, and in 4:4:4 from 85. 4: WebP converted sharp where
    /// the plain conversion leaves little room. 5: AVIF searched in 4:4:4. 6: AVIF from 2x
    /// searched as JPEG is, 4:2:0 first. 7: SSIMULACRA2 scores images under 256 px a side on the
    /// scales libjxl's loop takes (a last scale of 4 to 7 px).
    public static let version = 7

    /// How close the search brings the quality: the answer is at most this much above the
    /// lowest passing quality. Two steps of JPEG's or WebP's quality are about 3 % of the bytes.
    public static let step = 2

    /// Score points per quality step, before two steps have measured it: about what JPEG and
    /// WebP gain between quality 60 and 90 on photos.
    static let typicalSlope = 0.5

    /// How far above its goal a large variant's whole file may score and end the search: a
    /// point of score is 2 to 3 % of the bytes, and each whole step of a large variant costs
    /// about what its fixed-quality encode does.
    static let closeEnough = 1.0

    /// Variants up to this many pixels, whose steps are cheap, are searched to within `step` of
    /// the lowest passing quality, and whole; larger ones stop within `closeEnough`, and are
    /// searched on a sample first in WebP, AVIF and JPEG XL.
    public static let wholeSearchPixels = 1 << 20

    /// The qualities searched per format: below these, files fall apart whatever the picture.
    public static func range(for format: ImageFormat) -> ClosedRange<Int>? {
        switch format {
        case .jpeg, .webp: 30...100
        case .avif: 20...100
        // libvips's JPEG XL quality 30 is libjxl's distance 6.4, 10 is 15.3: on ukui's photos
        // the 2x variants still scored 65 to 77 at 30, at or over their target of 65.
        case .jxl: 10...100
        default: nil
        }
    }

    /// The scales searched for `format` in a variant drawn at `density`, in order, as ranges of
    /// levels (see `rung`): one per format, and for JPEG (and AVIF from `subsampledAVIFFrom`) a
    /// second in 4:4:4.
    ///
    /// libvips writes JPEG 4:4:4 from quality 90, where a photo's bytes about double for a
    /// few points of score (on a ukui photo at 1920x1200: q85 101 KB scoring 80.8; q90 195 KB,
    /// 89.6 in 4:4:4, 126 KB, 84.0 in 4:2:0). So JPEG is searched in 4:2:0 first, all the way
    /// up; pictures whose colour edges 4:2:0 blurs (flat graphics, saturated lines) then need
    /// `fullChromaFrom` or more, or never pass, and are searched again in 4:4:4, where a lower
    /// quality may pass in fewer bytes. The smaller passing file wins.
    ///
    /// AV1 predicts colour from brightness, so full-resolution colour costs it far less than it
    /// costs JPEG: on ukui's 1x and 1.5x variants, the lowest AVIF passing each target was
    /// smaller in 4:4:4 for 7 of 10 (by up to 25 %; 5 % in all where both pass), and 4:2:0
    /// never reached 80 on one 1x photo (it stops at 77.9; 4:4:4 passes at 63). Encoders made
    /// for still AVIF, such as cavif, write 4:4:4 too. So below `subsampledAVIFFrom` AVIF is
    /// searched in 4:4:4 alone.
    /// From it, the two chromas cost about the same (4:4:4 2.7 % less over ukui's five 2x
    /// variants, smaller on three), while libaom's 4:4:4 encode takes half as much memory again
    /// and 30 % more time on the largest files a build writes: AVIF is searched there as JPEG
    /// is (BENCHMARKS.md, "AVIF searched in 4:4:4" and "AVIF at 2x searched in 4:2:0 first").
    static func scales(for format: ImageFormat, density: Density) -> [ClosedRange<Int>] {
        guard let range = range(for: format) else { return [] }
        let full = (range.lowerBound + fullChromaLevels)...(range.upperBound + fullChromaLevels)
        switch format {
        case .jpeg: return [range, full]
        case .avif: return density >= subsampledAVIFFrom ? [range, full] : [full]
        default: return [range]
        }
    }

    /// The density from which AVIF is searched in 4:2:0 first (`scales`): there 4:2:0's colour
    /// has a sample for every CSS pixel, as a 4:4:4 file has at 1x, and costs about the bytes
    /// 4:4:4 does.
    static let subsampledAVIFFrom = QualityTargets.hiDPIDensity

    /// JPEG and AVIF levels from this up are 4:4:4 at the level less this.
    static let fullChromaLevels = 1000

    /// The 4:2:0 quality from which the 4:4:4 scale is searched too: on ukui's JPEG photos,
    /// one that needed 85 in 4:2:0 at 1.5x passed at 55 in 4:4:4 in 13 % fewer bytes, and those
    /// that needed 90 or more passed in 4:4:4 in up to 44 % fewer; under 85, 4:4:4 was larger.
    /// AVIF from `subsampledAVIFFrom` follows the same rule.
    public static let fullChromaFrom = 85

    /// The encoder quality and chroma of `level`: a JPEG or AVIF level is its quality in 4:2:0,
    /// or `fullChromaLevels` more in 4:4:4; other formats' levels are their quality.
    public static func rung(_ level: Int, of format: ImageFormat) -> (quality: Int, chroma: Chroma?) {
        guard format == .jpeg || format == .avif else { return (level, nil) }
        return level < fullChromaLevels ? (level, .subsampled) : (level - fullChromaLevels, .full)
    }

    /// Whether `image` in `format` is searched rather than encoded at a fixed quality: the
    /// format's quality is `auto`, the encode is lossy, the image is one frame and at least
    /// `PerceptualScore.minimumSide` pixels across each way (smaller ones have nothing to score).
    public static func applies(to image: VipsImage, format: ImageFormat, settings: EncodeSettings, lossless: Bool) -> Bool {
        guard settings.quality(for: format) == .auto, range(for: format) != nil, !lossless else { return false }
        return image.pageHeight == image.fullHeight && image.width >= PerceptualScore.minimumSide
            && image.fullHeight >= PerceptualScore.minimumSide
    }

    /// The smallest file of `image` in `format` scoring at least its target, and what was
    /// chosen, for a variant drawn at `density`: the density sets the target (`settings`'
    /// `qualityTargets`) and AVIF's chroma (`scales`). Each score takes `scoreThreads()` threads
    /// (2 while a core is idle; the same scores).
    public static func encode(_ image: VipsImage, as format: ImageFormat, settings: EncodeSettings, density: Density,
                              losslessSource: Bool, scoreThreads: () -> Int = { 1 },
                              file: String) throws(ImagingError) -> (bytes: [UInt8], choice: Manifest.QualitySearchResult) {
        let target = settings.qualityTargets.target(for: density)
        let scales = scales(for: format, density: density)
        guard let top = scales.last?.upperBound, let fixed = EncodeSettings.defaultQuality(for: format) else {
            throw ImagingError(file: file, reason: "has no quality to search for \(format.rawValue)")
        }
        // The resize runs once, here; every step encodes these pixels.
        let pixels = try Vips.attributed { () throws(ImagingError) -> VipsImage in
            try VipsImage.make(file: file) { cvips_copy_memory(image.pointer, $0) }
        }
        // The score a file must reach to pass (`QualityTargets.reaches`).
        let goal = target + QualityTargets.margin
        // Each step's score asks how many threads it may take: `steps` keeps the question.
        return try withoutActuallyEscaping(scoreThreads) { (scoreThreads) throws(ImagingError) -> (bytes: [UInt8], choice: Manifest.QualitySearchResult) in
            // WebP steps encode one conversion of the pixels to YUV, made once here, sharp or plain
            // as the sample (or the pixels) says (see WebPSearchInput). Converted sharp, the fixed
            // quality's file, the savings' baseline, is not one of the steps: it is encoded on its
            // own, as a fixed build writes it.
            let sample = try self.sample(of: pixels, format: format, file: file)
            let webp = format == .webp ? try WebPSearchInput.inputs(for: pixels, sample: sample, goal: goal, file: file) : nil
            // What the manifest says of a WebP's conversion (pixels libwebp is not handed, such as
            // grey ones, go through libvips's plain one).
            let sharpYUV = format == .webp ? webp?.whole.sharp ?? false : nil
            let steps = QualitySearchSteps(format: format, settings: settings, losslessSource: losslessSource, file: file, pixels: pixels,
                                           sample: sample, goal: goal, fixed: fixed, top: top, wholeWebP: webp?.whole,
                                           sampleWebP: webp?.sample, scoreThreads: scoreThreads)
            // From the default quality, on the first scale (AVIF's below 2x: in 4:4:4).
            try steps.search(scales[0], from: scales[0].contains(fixed) ? fixed : fixed + fullChromaLevels)
            // The 4:4:4 scale of JPEG and 2x AVIF, where 4:2:0 needed `fullChromaFrom` or more or
            // never passed.
            if scales.count > 1, steps.best.map({ $0.score < goal || $0.quality >= fullChromaFrom }) ?? true {
                try steps.search(scales[1], from: fixed + fullChromaLevels)
            }
            // The search stops short of the top quality when the one below it fails: the top is the answer then.
            if steps.best == nil { _ = try steps.wholeStep(top) }
            guard let chosen = steps.best else {
                throw ImagingError(file: file, reason: "quality search for \(format.rawValue) lost its result (a dppx bug; please report it)")
            }
            // A plain input's file at the fixed quality is the fixed build's own (but for a WebP-only
            // build of lossy WebP masters, which resizes in YUV: BENCHMARKS.md); a sharp input (and
            // the sample's) goes before the baseline's plain one is made. AVIF's baseline, a step only
            // from 2x (its steps are 4:4:4 below), is level `fixed`: 4:2:0, as libvips writes quality 55.
            if steps.wholeWebP?.sharp == true { steps.wholeWebP = nil }
            steps.sampleWebP = nil
            // Only asked for (`compare-fixed`): a fixed quality not among the steps costs an encode.
            var baseline: Int?
            if settings.compareFixed == true {
                if let fixedBytes = steps.fixedBytes { baseline = fixedBytes } else { baseline = try steps.encoded(pixels, steps.wholeWebP, fixed).count }
            }
            let (quality, chroma) = rung(chosen.quality, of: format)
            return (chosen.bytes, Manifest.QualitySearchResult(quality: quality, chroma: chroma, sharpYUV: sharpYUV,
                                                               score: chosen.score, target: target, fixedQualityBytes: baseline))
        }
    }

    /// The lowest quality in `range` whose `probe` scores at least `goal`, to within `step`
    /// (or `range`'s top when none does), starting at `start`. `known` holds the scores
    /// probed so far, and gains those probed here. Each next quality is interpolated between
    /// the passing and the failing scores closest to the goal (extrapolated until both
    /// exist), kept an eighth of the way inside the bracket so the bracket always shrinks by
    /// that much. On JPEG- and WebP-like score curves: 2 to 5 steps. A passing level scoring
    /// under `goal + closeEnough` ends the search at once.
    static func lowestPassing(in range: ClosedRange<Int>, from start: Int, goal: Double, known: inout [Int: Double],
                              step: Int = QualitySearch.step, closeEnough: Double = 0,
                              probe: (Int) throws(ImagingError) -> Double) throws(ImagingError) -> Int {
        var quality = start
        while true {
            if known[quality] == nil { known[quality] = try probe(quality) }
            let passing = known.filter { $0.value >= goal }.min { $0.key < $1.key }
            let failing = known.filter { $0.value < goal }.max { $0.key < $1.key }
            if let passing, passing.value < goal + closeEnough { return passing.key }
            let low = failing?.key ?? range.lowerBound - 1
            let high = passing?.key ?? range.upperBound + 1
            // Nothing between them is worth a step (a failure above a pass: the score is not
            // monotonic there, and the pass stands).
            if high - low <= step || high < low { return min(high, range.upperBound) }
            let aim: Double
            if let passing, let failing, passing.value > failing.value {
                aim = Double(failing.key) + (goal - failing.value) * Double(passing.key - failing.key) / (passing.value - failing.value)
            } else if let end = passing ?? failing {
                // One side only: along the slope through the two nearest steps (or the
                // typical one), and one quality further, so the next step brackets the goal.
                let neighbour = known.filter { $0.key != end.key }.min { (abs($0.key - end.key), $0.key) < (abs($1.key - end.key), $1.key) }
                let measured = neighbour.map { (end.value - $0.value) / Double(end.key - $0.key) } ?? 0
                let slope = measured > 0 ? measured : typicalSlope
                aim = Double(end.key) - (end.value - goal) / slope + (passing == nil ? 1 : -1)
            } else {
                return range.upperBound
            }
            let inset = max(1, (high - low) / 8)
            let lowest = passing == nil || failing == nil ? low + 1 : low + inset
            let highest = passing == nil || failing == nil ? high - 1 : high - inset
            quality = min(highest, max(lowest, Int(aim.rounded(.up))))
        }
    }

    /// What a search of `pixels` in `format` starts on, or nil when it is searched whole (JPEG,
    /// and variants up to `wholeSearchPixels`): one square from the centre, about an eighth of
    /// the pixels, in whole macroblocks. WebP and AVIF predict each block from its neighbours
    /// and tune their quantizers to the whole picture, so a mosaic of tiles, whose seams they
    /// pay for, scored WebP 15 to 25 points under the whole image at 2x on a ukui photo (the
    /// offset drifting 10 points between q80 and q89), the centre square within 2.
    static func sample(of pixels: VipsImage, format: ImageFormat, file: String) throws(ImagingError) -> VipsImage? {
        let width = pixels.width, height = pixels.fullHeight
        guard format != .jpeg, width * height > wholeSearchPixels, width >= 256, height >= 256 else { return nil }
        let side = min(min(width, height), Int((Double(width * height) / 8).squareRoot())) / 16 * 16
        return try Vips.attributed { () throws(ImagingError) -> VipsImage in
            try VipsImage.make(file: file) { cvips_centre_square(pixels.pointer, Int32(side), $0) }
        }
    }
}
