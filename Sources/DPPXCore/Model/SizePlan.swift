/// The sizes of every variant of one master, and the CSS box they all fill.
///
/// Rounding rule: each dimension of the variant at density `d` of a master of size `m` and
/// density `dm` is `m * d / dm` rounded half up (never below 1); the variant at the master's own
/// density is the master's size exactly. The CSS size is the 1x size by the same rule, so a
/// 301x201 @2x master gives a 151x101 CSS box, a 226x151 1.5x and the 301x201 master as 2x.
public struct SizePlan: Hashable, Sendable {
    /// The 1x size: the box in CSS pixels.
    public let cssSize: PixelSize
    /// Densities to write, ascending, each with its pixel size.
    public let variants: [Variant]
    /// Densities asked for but above the master's own density (no upscaling), ascending.
    public let skipped: [Density]

    public struct Variant: Hashable, Sendable {
        public let density: Density
        public let size: PixelSize
    }

    /// Plans the variants of a `master`-sized image of `masterDensity` at `densities`.
    /// A density above the master's is skipped unless `allowUpscale`.
    public init(master: PixelSize, masterDensity: Density, densities: [Density], allowUpscale: Bool) {
        func scaled(_ pixels: Int, to density: Density) -> Int {
            if density == masterDensity { return pixels }
            // Integer arithmetic: round(pixels * d / dm), halves up.
            let numerator = 2 * pixels * density.milli + masterDensity.milli
            return max(1, numerator / (2 * masterDensity.milli))
        }
        func size(at density: Density) -> PixelSize {
            PixelSize(width: scaled(master.width, to: density), height: scaled(master.height, to: density))
        }
        cssSize = size(at: Density(1))
        var variants: [Variant] = []
        var skipped: [Density] = []
        for density in Set(densities).sorted() {
            if density > masterDensity && !allowUpscale {
                skipped.append(density)
            } else {
                variants.append(Variant(density: density, size: size(at: density)))
            }
        }
        self.variants = variants
        self.skipped = skipped
    }
}
