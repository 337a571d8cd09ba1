import Foundation

/// A ThumbHash: an image's blurred preview in about 25 bytes, with its aspect ratio and alpha
/// (Evan Wallace's format, https://evanw.github.io/thumbhash/).
///
/// The pixels become luminance, two colour differences (P, Q) and alpha; each keeps the lowest
/// few terms of its cosine transform, quantised to 4 bits after a header that holds the averages
/// and scales. Encoders and decoders of the format agree byte for byte, so a hash written here
/// is read by any page's ThumbHash decoder, and `rgba()` is the preview dppx renders itself.
public struct ThumbHash: Hashable, Sendable {
    /// The encoded bytes.
    public let bytes: [UInt8]

    /// The largest side the encoder takes: larger images are resized first.
    public static let maximumSide = 100

    /// Wraps bytes read back (from the manifest); nil when they are too short to be a hash.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 5, bytes[2] & 0x80 == 0 || bytes.count >= 6 else { return nil }
        self.bytes = bytes
    }

    /// Encodes `rgba` (8-bit, 4 bytes a pixel, not premultiplied, rows top to bottom) of an
    /// image of at most `maximumSide` pixels a side.
    public init(width w: Int, height h: Int, rgba: [UInt8]) {
        precondition(w > 0 && h > 0 && w <= Self.maximumSide && h <= Self.maximumSide, "\(w)x\(h) does not fit in 100x100")
        precondition(rgba.count == w * h * 4, "rgba holds \(rgba.count) bytes, not \(w * h * 4)")
        let count = w * h
        var averageR = 0.0, averageG = 0.0, averageB = 0.0, averageA = 0.0
        for i in 0..<count {
            let j = i * 4
            let alpha = Double(rgba[j + 3]) / 255
            averageR += alpha / 255 * Double(rgba[j])
            averageG += alpha / 255 * Double(rgba[j + 1])
            averageB += alpha / 255 * Double(rgba[j + 2])
            averageA += alpha
        }
        if averageA > 0 {
            averageR /= averageA
            averageG /= averageA
            averageB /= averageA
        }
        let hasAlpha = averageA < Double(count)
        let lLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, Self.round(lLimit * Double(w) / longest))
        let ly = max(1, Self.round(lLimit * Double(h) / longest))
        var l = [Double](repeating: 0, count: count), p = l, q = l, a = l
        for i in 0..<count {
            let j = i * 4
            let alpha = Double(rgba[j + 3]) / 255
            // Transparent pixels take the average colour, so edges do not bleed black.
            let r = averageR * (1 - alpha) + alpha / 255 * Double(rgba[j])
            let g = averageG * (1 - alpha) + alpha / 255 * Double(rgba[j + 1])
            let b = averageB * (1 - alpha) + alpha / 255 * Double(rgba[j + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }

        func encodeChannel(_ channel: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, ac: [Double] = [], scale = 0.0
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(count)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }

        let lChannel = encodeChannel(l, max(3, lx), max(3, ly))
        let pChannel = encodeChannel(p, 3, 3)
        let qChannel = encodeChannel(q, 3, 3)
        let aChannel = hasAlpha ? encodeChannel(a, 5, 5) : (dc: 1, ac: [], scale: 1)
        let isLandscape = w > h
        let header24 = Self.round(63 * lChannel.dc) | (Self.round(31.5 + 31.5 * pChannel.dc) << 6)
            | (Self.round(31.5 + 31.5 * qChannel.dc) << 12) | (Self.round(31 * lChannel.scale) << 18) | ((hasAlpha ? 1 : 0) << 23)
        let header16 = (isLandscape ? ly : lx) | (Self.round(63 * pChannel.scale) << 3)
            | (Self.round(63 * qChannel.scale) << 9) | ((isLandscape ? 1 : 0) << 15)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
                             UInt8(header16 & 255), UInt8(header16 >> 8)]
        if hasAlpha {
            hash.append(UInt8(Self.round(15 * aChannel.dc) | (Self.round(15 * aChannel.scale) << 4)))
        }
        let acStart = hasAlpha ? 6 : 5
        var acIndex = 0
        for ac in hasAlpha ? [lChannel.ac, pChannel.ac, qChannel.ac, aChannel.ac] : [lChannel.ac, pChannel.ac, qChannel.ac] {
            for f in ac {
                let byte = acStart + (acIndex >> 1)
                if byte == hash.count { hash.append(0) }
                hash[byte] |= UInt8(Self.round(15 * f)) << ((acIndex & 1) << 2)
                acIndex += 1
            }
        }
        self.bytes = hash
    }

    /// Standard base64, as ThumbHash decoders take it.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// Reads a base64 hash; nil when it is not one.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.init(bytes: Array(data))
    }

    /// Whether the image has transparent pixels.
    public var hasAlpha: Bool { bytes[2] & 0x80 != 0 }

    /// Width over height, as closely as the hash keeps it (the number of luminance terms on each axis).
    public var approximateAspectRatio: Double {
        let header = Int(bytes[3])
        let isLandscape = bytes[4] & 0x80 != 0
        let lx = isLandscape ? (hasAlpha ? 5 : 7) : header & 7
        let ly = isLandscape ? header & 7 : (hasAlpha ? 5 : 7)
        return Double(lx) / Double(ly)
    }

    /// The preview: at most 32 pixels a side, 8-bit RGBA (not premultiplied).
    public func rgba() -> (width: Int, height: Int, rgba: [UInt8]) {
        let header24 = Int(bytes[0]) | (Int(bytes[1]) << 8) | (Int(bytes[2]) << 16)
        let header16 = Int(bytes[3]) | (Int(bytes[4]) << 8)
        let lDC = Double(header24 & 63) / 63
        let pDC = Double((header24 >> 6) & 63) / 31.5 - 1
        let qDC = Double((header24 >> 12) & 63) / 31.5 - 1
        let lScale = Double((header24 >> 18) & 31) / 31
        let hasAlpha = header24 >> 23 != 0
        let pScale = Double((header16 >> 3) & 63) / 63
        let qScale = Double((header16 >> 9) & 63) / 63
        let isLandscape = header16 >> 15 != 0
        let lx = max(3, isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7)
        let ly = max(3, isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        let aDC = hasAlpha ? Double(bytes[5] & 15) / 15 : 1
        let aScale = hasAlpha ? Double(bytes[5] >> 4) / 15 : 0
        let acStart = hasAlpha ? 6 : 5
        var acIndex = 0

        func decodeChannel(_ nx: Int, _ ny: Int, _ scale: Double) -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let index = acStart + (acIndex >> 1)
                    // A truncated hash decodes its missing terms as zero.
                    let nibble = index < bytes.count ? (Int(bytes[index]) >> ((acIndex & 1) << 2)) & 15 : 7
                    ac.append((Double(nibble) / 7.5 - 1) * scale)
                    acIndex += 1
                    cx += 1
                }
            }
            return ac
        }

        let lAC = decodeChannel(lx, ly, lScale)
        let pAC = decodeChannel(3, 3, pScale * 1.25)
        let qAC = decodeChannel(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? decodeChannel(5, 5, aScale) : []
        let ratio = approximateAspectRatio
        let w = Self.round(ratio > 1 ? 32 : 32 * ratio)
        let h = Self.round(ratio > 1 ? 32 / ratio : 32)
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        var fx = [Double](repeating: 0, count: max(lx, hasAlpha ? 5 : 3))
        var fy = [Double](repeating: 0, count: max(ly, hasAlpha ? 5 : 3))
        var i = 0
        for y in 0..<h {
            for x in 0..<w {
                var l = lDC, p = pDC, q = qDC, a = aDC
                for cx in fx.indices { fx[cx] = cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) }
                for cy in fy.indices { fy[cy] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
                var j = 0
                for cy in 0..<ly {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx * ly < lx * (ly - cy) {
                        l += lAC[j] * fx[cx] * fy2
                        cx += 1
                        j += 1
                    }
                }
                j = 0
                for cy in 0..<3 {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx < 3 - cy {
                        let f = fx[cx] * fy2
                        p += pAC[j] * f
                        q += qAC[j] * f
                        cx += 1
                        j += 1
                    }
                }
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        var cx = cy > 0 ? 0 : 1
                        let fy2 = fy[cy] * 2
                        while cx < 5 - cy {
                            a += aAC[j] * fx[cx] * fy2
                            cx += 1
                            j += 1
                        }
                    }
                }
                let b = l - 2.0 / 3.0 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                rgba[i] = Self.byte(r)
                rgba[i + 1] = Self.byte(g)
                rgba[i + 2] = Self.byte(b)
                rgba[i + 3] = Self.byte(a)
                i += 4
            }
        }
        return (w, h, rgba)
    }

    /// A 0...1 value as a byte, truncated as the reference decoder's typed array stores it.
    private static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, 255 * min(1, value)).rounded(.towardZero))
    }

    /// Rounds half up, as the reference implementation's `Math.round` does.
    private static func round(_ value: Double) -> Int {
        Int((value + 0.5).rounded(.down))
    }
}
