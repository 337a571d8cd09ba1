/// The sizes of every variant of one master, and the CSS box they all fill.
///
/// Rounding rule: the CSS size is `m / dm` of a master of size `m` and density `dm`, each side
/// rounded half up (never below 1); the variant at density `d` is the CSS size times `d`, each
/// side rounded up (and no larger than the master below its density), so its pixels over `d`
/// are never less than the CSS box: its exact density (`srcset`'s) is never below `d`, and a
/// browser at DPR `d` still takes it. The variant at the master's own density is the master's
/// size exactly. So a 301x201 @2x master gives a 151x101 CSS box, a 227x152 1.5x and the
/// 301x201 master as 2x.
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
        // Sizes at density d: round(pixels * d / dm), halves up, in integers.
        self.init(master: master, ratio: (masterDensity.milli, 1000), densities: densities, allowUpscale: allowUpscale)
    }

    /// Plans the variants of a `master`-sized image shown `displayWidth` CSS px wide: the 1x
    /// width is exactly `displayWidth`, the height follows the aspect ratio, and the master's
    /// density is its width over `displayWidth`.
    public init(master: PixelSize, displayWidth: Int, densities: [Density], allowUpscale: Bool) {
        self.init(master: master, ratio: (master.width, max(1, displayWidth)), densities: densities, allowUpscale: allowUpscale)
    }

    /// `ratio` is the master's density as a fraction: master pixels per CSS px.
    private init(master: PixelSize, ratio: (numerator: Int, denominator: Int), densities: [Density], allowUpscale: Bool) {
        // A density d gives pixels * d / ratio = pixels * d.milli * den / (1000 * num).
        func scaled(_ pixels: Int, to density: Density) -> Int {
            let top = pixels * density.milli * ratio.denominator, bottom = 1000 * ratio.numerator
            if top == pixels * bottom { return pixels }
            return max(1, (2 * top + bottom) / (2 * bottom))
        }
        func size(at density: Density) -> PixelSize {
            PixelSize(width: scaled(master.width, to: density), height: scaled(master.height, to: density))
        }
        let cssSize = size(at: Density(1))
        self.cssSize = cssSize
        let ownDensity = { (density: Density) in density.milli * ratio.denominator == 1000 * ratio.numerator }
        func variantSize(at density: Density) -> PixelSize {
            if ownDensity(density) { return master }
            let below = density.milli * ratio.denominator < 1000 * ratio.numerator
            func side(_ css: Int, _ pixels: Int) -> Int {
                let up = max(1, (css * density.milli + 999) / 1000)
                return below ? min(up, pixels) : up
            }
            return PixelSize(width: side(cssSize.width, master.width), height: side(cssSize.height, master.height))
        }
        var variants: [Variant] = []
        var skipped: [Density] = []
        for density in Set(densities).sorted() {
            // Above the master's density: density.milli / 1000 > num / den.
            if density.milli * ratio.denominator > 1000 * ratio.numerator && !allowUpscale {
                skipped.append(density)
            } else {
                variants.append(Variant(density: density, size: density == Density(1) ? cssSize : variantSize(at: density)))
            }
        }
        self.variants = variants
        self.skipped = skipped
    }
}
