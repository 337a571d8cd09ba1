/// The EXIF that makes a browser lay an image out at its CSS size: HTML's *density-corrected
/// natural size*, honoured by Chromium and Firefox for JPEG, by Firefox for PNG.
///
/// Exactly five tags, nothing else: XResolution and YResolution (72 dpi times the density),
/// ResolutionUnit 2 (inch), and PixelXDimension / PixelYDimension, which must be the CSS size.
/// The spec applies the correction only when pixel width x 72 / XResolution equals
/// PixelXDimension exactly (the same for the height): the resolutions are written as exact
/// rationals, `72 x pixels / CSS pixels` reduced, so odd sizes work too (a 301x201 file shown at
/// 151x101 gets XResolution 21672/151). libvips's savers write 143999/1000 and the pixel size
/// instead, which browsers reject: that is why dppx writes the tags itself.
public struct ExifDensity: Hashable, Sendable {
    /// The image's size in pixels.
    public let pixelSize: PixelSize
    /// The size it must lay out at, in CSS pixels.
    public let cssSize: PixelSize

    /// Nil when a size is not positive, or so large that `72 x pixels` does not fit the 32 bits
    /// an EXIF rational holds.
    public init?(pixelSize: PixelSize, cssSize: PixelSize) {
        let sizes = [pixelSize.width, pixelSize.height, cssSize.width, cssSize.height]
        guard sizes.allSatisfy({ $0 > 0 && $0 <= Int(UInt32.max) }),
              72 * pixelSize.width <= Int(UInt32.max), 72 * pixelSize.height <= Int(UInt32.max)
        else { return nil }
        self.pixelSize = pixelSize
        self.cssSize = cssSize
    }

    /// An exact rational, reduced.
    public struct Rational: Hashable, Sendable {
        public let numerator: UInt32
        public let denominator: UInt32

        public init(numerator: UInt32, denominator: UInt32) {
            self.numerator = numerator
            self.denominator = denominator
        }

        /// `numerator / denominator` in lowest terms (both positive and within 32 bits).
        static func reduced(_ numerator: Int, _ denominator: Int) -> Rational {
            var a = numerator, b = denominator
            while b != 0 { (a, b) = (b, a % b) }
            return Rational(numerator: UInt32(numerator / a), denominator: UInt32(denominator / a))
        }
    }

    /// Dots per inch across: `72 x pixel width / CSS width`.
    public var xResolution: Rational { .reduced(72 * pixelSize.width, cssSize.width) }
    /// Dots per inch down: `72 x pixel height / CSS height`.
    public var yResolution: Rational { .reduced(72 * pixelSize.height, cssSize.height) }

    /// The TIFF structure EXIF is made of (big-endian): IFD0 with the resolutions, the unit and
    /// the pointer to the Exif IFD, which holds the two dimensions. What a PNG `eXIf` chunk
    /// holds as it is, and a JPEG APP1 segment after `Exif\0\0`.
    public var tiff: [UInt8] {
        TIFFWriter.bytes([
            .init(tag: 0x011A, value: .rational(numerator: xResolution.numerator, denominator: xResolution.denominator)),  // XResolution
            .init(tag: 0x011B, value: .rational(numerator: yResolution.numerator, denominator: yResolution.denominator)),  // YResolution
            .init(tag: 0x0128, value: .short(2)),  // ResolutionUnit: inch
            .init(tag: 0x8769, value: .directory([  // Exif IFD
                .init(tag: 0xA002, value: .long(UInt32(cssSize.width))),  // PixelXDimension
                .init(tag: 0xA003, value: .long(UInt32(cssSize.height))),  // PixelYDimension
            ])),
        ], order: .bigEndian)
    }
}
