import CVips
import DPPXImaging
import Foundation

/// An output file read back with libvips: what it is and what its pixels are.
public struct DecodedFile {
    public let width: Int
    public let height: Int
    public let bands: Int
    /// `jpegload`, `pngload`, `webpload`, `heifload`, `gifload`, `svgload`... (the loader's
    /// name without its `_buffer`: the file is read, then opened from memory, as dppx does).
    public let loader: String
    /// EXIF orientation tag, nil when the file has none.
    public let orientation: Int?
    public let interpretation: String
    public let pages: Int
    public let hasICCProfile: Bool
    /// 8 or 16.
    public let bitsPerSample: Int
    /// Pixels of the first page, 8-bit, `bands` per pixel.
    public let pixels: [UInt8]

    /// Reads and decodes `path`.
    public init(_ path: String) throws {
        try Vips.start()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Kept until the last image made from it is released (defers run last to first).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        defer { buffer.deallocate() }
        bytes.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: bytes.count)
        var header: UnsafeMutablePointer<CVips.VipsImage>?
        guard cvips_open_buffer(buffer.baseAddress, bytes.count, &header) == 0, let header else {
            throw ImagingError(file: path, reason: Vips.lastError())
        }
        defer { cvips_unref(header) }
        width = Int(vips_image_get_width(header))
        height = Int(vips_image_get_page_height(header))
        bands = Int(vips_image_get_bands(header))
        loader = cvips_get_string(header, "vips-loader").map { String(String(cString: $0).prefix { $0 != "_" }) } ?? ""
        orientation = cvips_has_field(header, "orientation") != 0 ? Int(cvips_get_int(header, "orientation", 1)) : nil
        interpretation = String(cString: vips_enum_nick(vips_interpretation_get_type(), Int32(vips_image_get_interpretation(header).rawValue)))
        pages = max(1, Int(cvips_get_int(header, "n-pages", 1)))
        hasICCProfile = cvips_has_field(header, "icc-profile-data") != 0
        let format = vips_image_get_format(header)
        bitsPerSample = format == VIPS_FORMAT_USHORT ? 16 : 8
        var eight = header
        var cast: UnsafeMutablePointer<CVips.VipsImage>?
        if format != VIPS_FORMAT_UCHAR {
            // Scale 16-bit down rather than clip.
            var shifted: UnsafeMutablePointer<CVips.VipsImage>?
            guard cvips_colourspace(header, bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, &shifted) == 0, let shifted else {
                throw ImagingError(file: path, reason: Vips.lastError())
            }
            guard cvips_cast(shifted, VIPS_FORMAT_UCHAR, &cast) == 0, let cast else {
                cvips_unref(shifted)
                throw ImagingError(file: path, reason: Vips.lastError())
            }
            cvips_unref(shifted)
            eight = cast
        }
        defer { if let cast { cvips_unref(cast) } }
        var size = 0
        guard let memory = vips_image_write_to_memory(eight, &size) else {
            throw ImagingError(file: path, reason: Vips.lastError())
        }
        defer { g_free(memory) }
        let pageBytes = width * height * Int(vips_image_get_bands(eight))
        pixels = Array(UnsafeRawBufferPointer(start: memory, count: min(size, pageBytes)))
    }

    /// The mean of band `band` over a rectangle given in fractions of the image.
    public func mean(band: Int = 0, x: ClosedRange<Double>, y: ClosedRange<Double>) -> Double {
        let x0 = Int(x.lowerBound * Double(width)), x1 = max(x0 + 1, Int(x.upperBound * Double(width)))
        let y0 = Int(y.lowerBound * Double(height)), y1 = max(y0 + 1, Int(y.upperBound * Double(height)))
        var total = 0, count = 0
        for row in y0..<min(y1, height) {
            for column in x0..<min(x1, width) {
                total += Int(pixels[(row * width + column) * bands + band])
                count += 1
            }
        }
        return count == 0 ? 0 : Double(total) / Double(count)
    }

    public enum Quadrant: Equatable, Sendable { case topLeft, topRight, bottomLeft, bottomRight }

    /// Where the bright quadrant `TestImages` draws (top-left in the stored master) ended up;
    /// nil when no quadrant stands out.
    public var brightQuadrant: Quadrant? {
        let means: [(Quadrant, Double)] = [
            (.topLeft, mean(x: 0.05...0.45, y: 0.05...0.45)), (.topRight, mean(x: 0.55...0.95, y: 0.05...0.45)),
            (.bottomLeft, mean(x: 0.05...0.45, y: 0.55...0.95)), (.bottomRight, mean(x: 0.55...0.95, y: 0.55...0.95)),
        ]
        let sorted = means.sorted { $0.1 > $1.1 }
        return sorted[0].1 > sorted[1].1 + 60 ? sorted[0].0 : nil
    }
}
