/// The SSIMULACRA2 scores `quality = "auto"` aims each variant at, by the density it is drawn at.
///
/// On a screen of density d each device pixel covers 1/d of a CSS pixel across, so an
/// encoding artifact appears 1/d the size it does at 1x: a variant drawn above 1x passes for
/// the original at a lower score. The target falls linearly with that size, from `standard` at
/// 1x to `hiDPI` at 2x (70 at 1.5x with the defaults), and stays at `hiDPI` above 2x. Measured
/// (BENCHMARKS.md, "Perceptual quality"): the score at which a 1.5x or 2x file, seen as its
/// screen shows it (averaged down to CSS pixels), scores what a 1x file must (80) was 67-71 at
/// 1.5x (median 69) and 60-69 at 2x (median 65) on three ukui photos in JPEG and WebP.
public struct QualityTargets: Hashable, Sendable, Codable {
    /// Variants drawn at 1x and below, and every width of a fluid image (its CSS width is the
    /// page's to decide, so any width may be shown at 1x). 80: "very high quality", no
    /// difference side by side at 1:1.
    public var standard: Double
    /// Variants drawn at 2x and above; between 1x and 2x the target is interpolated. 65: a 2x
    /// file at 65 looks, at the size a 2x screen shows it, like a 1x file at 80.
    public var hiDPI: Double

    public static let defaultStandard = 80.0
    public static let defaultHiDPI = 65.0
    /// The density from which `hiDPI` applies whole.
    public static let hiDPIDensity = Density(2)
    /// What a target may be: SSIMULACRA2's useful range (100 is lossless).
    public static let range: ClosedRange<Double> = 0...100

    /// How far above its target a file must score to reach it: dppx's scores agree with PyPI's
    /// `ssimulacra2` to within a few thousandths (it works in single precision), so a file that
    /// reaches its target here reaches it there too.
    public static let margin = 0.05

    /// Whether a file scoring `score` reaches `target`: the search's test for a passing file,
    /// the build's for keeping an extra format, and the summary's for a variant no quality
    /// brought to its target.
    public static func reaches(_ score: Double, _ target: Double) -> Bool {
        score >= target + margin
    }

    public init(standard: Double = QualityTargets.defaultStandard, hiDPI: Double = QualityTargets.defaultHiDPI) {
        self.standard = standard
        self.hiDPI = hiDPI
    }

    /// The target of a variant drawn at `density` (device pixels per CSS pixel): `standard` up
    /// to 1x, `hiDPI` from 2x, and between them linear in 1/density, the size on screen of one
    /// of the file's pixels (so 1.5x is two thirds of the way from 1x to 2x).
    public func target(for density: Density) -> Double {
        let d = density.value
        if d <= 1 { return standard }
        if d >= Self.hiDPIDensity.value { return hiDPI }
        let toward2x = (1 / d - 1) / (1 / Self.hiDPIDensity.value - 1)
        return standard + (hiDPI - standard) * toward2x
    }
}

extension QualityTargets {
    /// `base` with the targets said (nil: not said). A standard target said without a hidpi
    /// one moves the hidpi target with it, keeping the default gap between them.
    public init(standard: Double?, hiDPI: Double?, base: QualityTargets) {
        let standardTarget = standard ?? base.standard
        let gap = QualityTargets.defaultStandard - QualityTargets.defaultHiDPI
        self.init(standard: standardTarget,
                  hiDPI: hiDPI ?? (standard == nil ? base.hiDPI : max(QualityTargets.range.lowerBound, standardTarget - gap)))
    }
}
