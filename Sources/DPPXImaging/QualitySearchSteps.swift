import DPPXCore

/// One variant's quality search under way (`QualitySearch.encode`): the pixels and the sample
/// it encodes, the scores found so far, whole and sampled, and the best file. Its steps are
/// named: `encoded` (one file), `wholeStep` and `sampleStep` (one score), `search` (one scale).
final class QualitySearchSteps {
    let format: ImageFormat
    let settings: EncodeSettings
    let losslessSource: Bool
    let file: String
    /// The variant's resized pixels, kept in memory: every whole step encodes them.
    let pixels: VipsImage
    /// The centre square searched first, or nil when the search is whole (`QualitySearch.sample`).
    let sample: VipsImage?
    /// The score a file must reach to pass (`QualityTargets.reaches`).
    let goal: Double
    /// The format's default quality: the fixed build's file, whose size the savings are told against.
    let fixed: Int
    /// The highest level: the answer when nothing passes.
    let top: Int
    /// How many threads the next score may take.
    let scoreThreads: () -> Int
    /// WebP's conversions of the pixels and of the sample to YUV, made once (`WebPSearchInput`).
    var wholeWebP: WebPSearchInput?
    var sampleWebP: WebPSearchInput?

    /// Whole-image steps' scores by level: the best passing file is kept, the others dropped at once.
    private(set) var whole: [Int: Double] = [:]
    private(set) var best: (quality: Int, bytes: [UInt8], score: Double)?
    /// The size of the file at the default quality, when a whole step encoded it as a fixed build does.
    private(set) var fixedBytes: Int?
    /// The sample's scores by level.
    private var sampled: [Int: Double] = [:]

    init(format: ImageFormat, settings: EncodeSettings, losslessSource: Bool, file: String, pixels: VipsImage,
         sample: VipsImage?, goal: Double, fixed: Int, top: Int, wholeWebP: WebPSearchInput?, sampleWebP: WebPSearchInput?,
         scoreThreads: @escaping () -> Int) {
        self.format = format
        self.settings = settings
        self.losslessSource = losslessSource
        self.file = file
        self.pixels = pixels
        self.sample = sample
        self.goal = goal
        self.fixed = fixed
        self.top = top
        self.wholeWebP = wholeWebP
        self.sampleWebP = sampleWebP
        self.scoreThreads = scoreThreads
    }

    /// The file of `pixels` (or of `webp`, their YUV) at `level`.
    func encoded(_ pixels: VipsImage, _ webp: WebPSearchInput?, _ level: Int) throws(ImagingError) -> [UInt8] {
        let (quality, chroma) = QualitySearch.rung(level, of: format)
        if let webp { return try webp.encode(quality: quality, settings: settings, file: file) }
        var fixing = settings.fixing(format, at: quality)
        fixing.chroma = chroma
        return try Encoder.encode(pixels, as: format, settings: fixing, losslessSource: losslessSource, file: file)
    }

    /// The whole file's score at `quality`, keeping the file when it is the best so far.
    func wholeStep(_ quality: Int) throws(ImagingError) -> Double {
        if let known = whole[quality] { return known }
        let bytes = try encoded(pixels, wholeWebP, quality)
        if quality == fixed, wholeWebP?.sharp != true { fixedBytes = bytes.count }
        let score = try PerceptualScore.ssimulacra2(reference: pixels, encoded: bytes, threads: scoreThreads(), file: file)
        whole[quality] = score
        // The smallest passing file (of either JPEG chroma); the top level when nothing passes.
        let passes = score >= goal
        let better = best.map { passes && ($0.score < goal || bytes.count < $0.bytes.count) } ?? (passes || quality == top)
        if better { best = (quality, bytes, score) }
        return score
    }

    /// The sample's score at `level` (the whole file's when there is no sample).
    func sampleStep(_ level: Int) throws(ImagingError) -> Double {
        if let known = sampled[level] { return known }
        guard let sample else { return try wholeStep(level) }
        let score = try PerceptualScore.ssimulacra2(reference: sample, encoded: encoded(sample, sampleWebP, level),
                                                    threads: scoreThreads(), file: file)
        sampled[level] = score
        return score
    }

    /// One scale, from `start`: the lowest passing level's file ends up in `best`.
    func search(_ range: ClosedRange<Int>, from start: Int) throws(ImagingError) {
        guard sample != nil else {
            // This scale's scores only: the other JPEG chroma's would bracket it wrongly.
            var known = whole.filter { range.contains($0.key) }
            let large = pixels.width * pixels.fullHeight > QualitySearch.wholeSearchPixels
            _ = try QualitySearch.lowestPassing(in: range, from: start, goal: goal, known: &known,
                                                closeEnough: large ? QualitySearch.closeEnough : 0, probe: wholeStep)
            return
        }
        // The sample's answer, then the whole file there: passing by at most `closeEnough`,
        // it is the answer.
        let first = try sampleAnswer(in: range, from: start, offset: 0)
        let score = try wholeStep(first)
        if score >= goal, score - goal <= QualitySearch.closeEnough { return }
        // Off by more: the two scores at `first` tie the sample to the whole image, the
        // sample so corrected says where to look next, and the whole image's own scores
        // take it from there (the offset drifts with the quality, so the sample alone would
        // not be trusted with the last step).
        let aim = try sampleAnswer(in: range, from: first, offset: sampleStep(first) - score)
        let next = score >= goal ? min(first - 1, aim) : max(first + 1, aim)
        var known = whole.filter { range.contains($0.key) }
        _ = try QualitySearch.lowestPassing(in: range, from: min(range.upperBound, max(range.lowerBound, next)), goal: goal,
                                            known: &known, closeEnough: QualitySearch.closeEnough, probe: wholeStep)
    }

    /// Where the sample's search of `range` aims at `offset` above the goal (the sample scores
    /// off the whole image, by about as much at neighbouring qualities).
    private func sampleAnswer(in range: ClosedRange<Int>, from start: Int, offset: Double) throws(ImagingError) -> Int {
        var known = sampled.filter { range.contains($0.key) }
        return try QualitySearch.lowestPassing(in: range, from: start, goal: goal + offset, known: &known, probe: sampleStep)
    }
}
