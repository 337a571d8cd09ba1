/// The numbers a manifest may hold: ranges real images have, wide enough for anything a build
/// writes and narrow enough that no arithmetic on them (sizes times densities in thousandths,
/// byte totals) can overflow.
///
/// A manifest is data from the repository: a hand-edited or hostile one is refused when read,
/// with the field named (`images.3.variants.1.width`), rather than trapping later in the
/// variant choice or the renderers. Densities are checked as they are decoded
/// (`Density.decodedRange`).
public enum ManifestLimits {
    /// Pixels a side: PNG allows 2^31, but no image a page shows comes near a million.
    public static let sides = 1...1_000_000
    /// A CSS size may be 0 a side in no build, but an empty box breaks nothing either.
    public static let cssSides = 0...1_000_000
    /// Bytes of one file: up to a tebibyte.
    public static let bytes = 0...(1 << 40)
    /// An encoder quality.
    public static let quality = 0...100

    /// Throws `ManifestError.outOfRange` for the first number of `images` outside its range;
    /// `field` prefixes the names (`images`).
    static func check(_ images: [Manifest.Image], field: String) throws(ManifestError) {
        for (index, image) in images.enumerated() {
            let at = "\(field).\(index)"
            try check(image.width, in: cssSides, "\(at).width", "pixels")
            try check(image.height, in: cssSides, "\(at).height", "pixels")
            for (number, variant) in image.variants.enumerated() {
                let at = "\(at).variants.\(number)"
                try check(variant.width, in: sides, "\(at).width", "pixels")
                try check(variant.height, in: sides, "\(at).height", "pixels")
                try check(variant.bytes, in: bytes, "\(at).bytes", "bytes")
                if let fixed = variant.fixedQualityBytes { try check(fixed, in: bytes, "\(at).fixedQualityBytes", "bytes") }
                if let quality = variant.quality { try check(quality, in: Self.quality, "\(at).quality", "an encoder quality") }
            }
        }
    }

    private static func check(_ value: Int, in range: ClosedRange<Int>, _ field: String, _ unit: String) throws(ManifestError) {
        guard range.contains(value) else {
            throw .outOfRange(field: field, value: value, expected: "\(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
    }
}
