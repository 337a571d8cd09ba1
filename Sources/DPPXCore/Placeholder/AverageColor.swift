import Foundation

/// An image's average colour, taken in linear light: a black-and-white stripe averages to the
/// grey the eye sees from afar (`#bcbcbc`), not to the darker middle of the sRGB numbers
/// (`#808080`). Each pixel counts by its alpha, so transparent areas do not pull the colour
/// towards black; an image with no visible pixel has none.
public enum AverageColor {
    /// `#rrggbb` of `rgba` (8-bit sRGB, 4 bytes a pixel, not premultiplied), or nil when every
    /// pixel is fully transparent.
    public static func hex(rgba: [UInt8]) -> String? {
        var red = 0.0, green = 0.0, blue = 0.0, weight = 0.0
        var index = 0
        while index + 3 < rgba.count {
            let alpha = Double(rgba[index + 3]) / 255
            red += alpha * linear[Int(rgba[index])]
            green += alpha * linear[Int(rgba[index + 1])]
            blue += alpha * linear[Int(rgba[index + 2])]
            weight += alpha
            index += 4
        }
        guard weight > 0 else { return nil }
        return "#" + [red, green, blue].map { hexByte(encoded($0 / weight)) }.joined()
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
