/// The SSIMULACRA2 scores `quality = "auto"` aims each variant at, by the density it is drawn at.
///
/// On a screen of density d each device pixel covers 1/d of a CSS pixel across, so an
/// encoding artifact appears 1/d the size it does at 1x: a variant drawn at 1.5x or more
/// passes for the original at a lower score. Both defaults come from the measurements in
/// BENCHMARKS.md ("Perceptual quality").
public struct QualityTargets: Hashable, Sendable, Codable {
    /// Variants drawn below 1.5x, and every width of a fluid image (its CSS width is the
    /// page's to decide, so any width may be shown at 1x). 80: "very high quality", no
    /// difference side by side at 1:1.
    public var standard: Double
    /// Variants drawn at 1.5x and above. 70: "high quality" at 1:1, where artifacts are
    /// 1.5 to 2 times larger than on the screens that get these files.
    public var hiDPI: Double

    public static let defaultStandard = 80.0
    public static let defaultHiDPI = 70.0
    /// The density from which `hiDPI` applies.
    public static let hiDPIDensity = Density(milli: 1500)
    /// What a target may be: SSIMULACRA2's useful range (100 is lossless).
    public static let range: ClosedRange<Double> = 0...100

    public init(standard: Double = QualityTargets.defaultStandard, hiDPI: Double = QualityTargets.defaultHiDPI) {
        self.standard = standard
        self.hiDPI = hiDPI
    }

    /// The target of a variant drawn at `density` (device pixels per CSS pixel).
    public func target(for density: Density) -> Double {
        density >= Self.hiDPIDensity ? hiDPI : standard
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
