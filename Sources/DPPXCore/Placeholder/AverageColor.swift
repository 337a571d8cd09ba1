import Foundation

/// An image's average colour, taken in linear light: a black-and-white stripe averages to the
/// grey the eye sees from afar (`#bcbcbc`), not to the darker middle of the sRGB numbers
/// (`#808080`). Each pixel counts by its alpha, so transparent areas do not pull the colour
/// towards black; an image with no visible pixel has none.
public enum AverageColor {
    /// `#rrggbb` of `rgba` (8-bit sRGB, 4 bytes a pixel, not premultiplied), or nil when every
    /// pixel is fully transparent.
    public static func hex(rgba: [UInt8]) -> String? {
        var histogram = [UInt64](repeating: 0, count: 3 * 256)
        var index = 0
        while index + 3 < rgba.count {
            let alpha = UInt64(rgba[index + 3])
            for band in 0..<3 { histogram[band * 256 + Int(rgba[index + band])] += alpha }
            index += 4
        }
        return hex(histogram: histogram)
    }

    /// `#rrggbb` of an image given as its levels' counts: `histogram[band * 256 + level]` is how
    /// many pixels have `level` in colour band `band` (red, green, blue), each counted by its
    /// alpha (0 to 255). Nil when nothing is counted (every pixel transparent). This is how the
    /// build takes the colour of every pixel of a large master in one pass over it.
    public static func hex(histogram: [UInt64]) -> String? {
        guard histogram.count == 3 * 256 else { return nil }
        var sums = [0.0, 0.0, 0.0], weight = 0.0
        for band in 0..<3 {
            for level in 0..<256 {
                let count = Double(histogram[band * 256 + level])
                sums[band] += count * linear[level]
                if band == 0 { weight += count }
            }
        }
        guard weight > 0 else { return nil }
        return "#" + sums.map { hexByte(encoded($0 / weight)) }.joined()
    }

    /// The linear-light value of each 8-bit sRGB level.
    private static let linear: [Double] = (0...255).map { level in
        let value = Double(level) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// A linear-light value back to its nearest 8-bit sRGB level.
    private static func encoded(_ value: Double) -> Int {
        let clamped = min(1, max(0, value))
        let gamma = clamped <= 0.0031308 ? clamped * 12.92 : 1.055 * pow(clamped, 1 / 2.4) - 0.055
        return Int((gamma * 255).rounded())
    }

    private static func hexByte(_ value: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[value >> 4], digits[value & 15]])
    }
}
