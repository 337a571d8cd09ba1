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
        // Header (8), IFD0 (2 + 4 entries + next-IFD offset), Exif IFD (2 + 2 entries + next), two rationals.
        let exifIFDOffset = 8 + 2 + 4 * 12 + 4
        let valuesOffset = exifIFDOffset + 2 + 2 * 12 + 4
        var bytes: [UInt8] = Array("MM".utf8)
        bytes.reserveCapacity(valuesOffset + 16)
        Self.append(UInt16(42), to: &bytes)
        Self.append(UInt32(8), to: &bytes)

        Self.append(UInt16(4), to: &bytes)
        Self.entry(tag: 0x011A, type: .rational, value: UInt32(valuesOffset), to: &bytes)  // XResolution
        Self.entry(tag: 0x011B, type: .rational, value: UInt32(valuesOffset + 8), to: &bytes)  // YResolution
        Self.entry(tag: 0x0128, type: .short, value: 2 << 16, to: &bytes)  // ResolutionUnit: inch, left-aligned
        Self.entry(tag: 0x8769, type: .long, value: UInt32(exifIFDOffset), to: &bytes)  // Exif IFD
        Self.append(UInt32(0), to: &bytes)

        Self.append(UInt16(2), to: &bytes)
        Self.entry(tag: 0xA002, type: .long, value: UInt32(cssSize.width), to: &bytes)  // PixelXDimension
        Self.entry(tag: 0xA003, type: .long, value: UInt32(cssSize.height), to: &bytes)  // PixelYDimension
        Self.append(UInt32(0), to: &bytes)

        for rational in [xResolution, yResolution] {
            Self.append(rational.numerator, to: &bytes)
            Self.append(rational.denominator, to: &bytes)
        }
        return bytes
    }

    private enum FieldType: UInt16 {
        case short = 3, long = 4, rational = 5
    }

    /// One 12-byte IFD entry of count 1: `value` is the value itself (a SHORT in its first two
    /// bytes) or, for a rational, the offset of its eight bytes.
    private static func entry(tag: UInt16, type: FieldType, value: UInt32, to bytes: inout [UInt8]) {
        append(tag, to: &bytes)
        append(type.rawValue, to: &bytes)
        append(UInt32(1), to: &bytes)
        append(value, to: &bytes)
    }

    static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
