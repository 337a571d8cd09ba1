import CVips
import DPPXImaging
import Foundation

/// Images made at test time with libvips: photo-like (gradient + noise), alpha, EXIF-rotated,
/// CMYK, 16-bit, grey, animated. Nothing binary is committed.
public enum TestImages {
    /// Pixel depth of a generated image.
    public enum Depth { case eight, sixteen }

    /// A deterministic photo-like image: smooth gradients plus noise, so encoders behave as on
    /// photos. `bands` 1 (grey), 3 (RGB) or 4 (RGBA, alpha a radial fade).
    /// The top-left quadrant is bright and the rest dark: orientation tests look for it.
    public static func photoPixels(width: Int, height: Int, bands: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        var pixels = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int((state >> 59) & 15) - 8
                let bright = x < width / 2 && y < height / 2
                let base = bright ? 200 : 50
                let r = base + x * 40 / max(width, 1) + noise
                let g = base + y * 40 / max(height, 1) + noise
                let b = base + noise
                let index = (y * width + x) * bands
                let clamp = { (v: Int) in UInt8(max(0, min(255, v))) }
                if bands == 1 {
                    pixels[index] = clamp((r + g + b) / 3)
                } else {
                    pixels[index] = clamp(r)
                    pixels[index + 1] = clamp(g)
                    pixels[index + 2] = clamp(b)
                    if bands == 4 {
                        let dx = Double(x - width / 2), dy = Double(y - height / 2)
                        let d = (dx * dx + dy * dy).squareRoot() / Double(max(width, height) / 2)
                        pixels[index + 3] = clamp(Int(255 * (1.2 - d)))
                    }
                }
            }
        }
        return pixels
    }

    /// Writes a photo-like image to `path`; the format and saver options come from the name
    /// (`a.jpg`, `a.png[bitdepth=16]`). `orientation` tags the file with that EXIF orientation;
    /// `artist` puts an EXIF Artist tag in it (libvips writes EXIF to JPEG and WebP).
    public static func write(_ path: String, width: Int, height: Int, bands: Int = 3, depth: Depth = .eight,
                             orientation: Int? = nil, artist: String? = nil, seed: UInt64 = 1) throws {
        var image = try memoryImage(width: width, height: height, bands: bands, depth: depth, seed: seed)
        if orientation != nil || artist != nil {
            let tagged = try make { cvips_copy(image.pointer, $0) }
            if let orientation { cvips_set_int(tagged.pointer, "orientation", Int32(orientation)) }
            if let artist { cvips_set_string(tagged.pointer, "exif-ifd0-Artist", artist) }
            image = tagged
        }
        try save(image, to: path)
    }

    /// A CMYK JPEG made through libvips's built-in CMYK profile (embedded unless `stripProfile`).
    public static func writeCMYK(_ path: String, width: Int, height: Int, stripProfile: Bool = false) throws {
        let rgb = try memoryImage(width: width, height: height, bands: 3, depth: .eight, seed: 3)
        let cmyk = try make { cvips_icc_export(rgb.pointer, "cmyk", $0) }
        try save(cmyk, to: stripProfile ? path + "[strip]" : path)
    }

    /// An animated GIF (or WebP, by extension) of `frames` frames of `width` x `height`;
    /// `artist` as in `write`.
    public static func writeAnimation(_ path: String, width: Int, height: Int, frames: Int, artist: String? = nil) throws {
        var pixels: [UInt8] = []
        for frame in 0..<frames {
            pixels += photoPixels(width: width, height: height, bands: 3, seed: UInt64(frame + 7))
        }
        let strip = try fromMemory(pixels, width: width, height: height * frames, bands: 3, format: VIPS_FORMAT_UCHAR)
        let animated = try make { cvips_copy(strip.pointer, $0) }
        cvips_set_int(animated.pointer, "page-height", Int32(height))
        cvips_set_int(animated.pointer, "n-pages", Int32(frames))
        if let artist { cvips_set_string(animated.pointer, "exif-ifd0-Artist", artist) }
        try save(animated, to: path)
    }

    /// `photoPixels` in RGBA with the same `alpha` everywhere.
    public static func photoPixels(width: Int, height: Int, alpha: UInt8) -> [UInt8] {
        var pixels = photoPixels(width: width, height: height, bands: 4)
        for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = alpha }
        return pixels
    }

    /// Writes `pixels` (8-bit, `bands` interleaved) as an image file; the format comes from the name.
    public static func writePixels(_ pixels: [UInt8], width: Int, height: Int, bands: Int, to path: String) throws {
        try save(try fromMemory(pixels, width: width, height: height, bands: bands, format: VIPS_FORMAT_UCHAR), to: path)
    }

    /// The saturated colours of `writeColourBars`, left to right.
    public static let barColours: [[UInt8]] = [[230, 20, 20], [20, 200, 40], [30, 40, 220], [240, 220, 30], [30, 210, 220], [210, 40, 200]]

    /// Vertical bars of `barColours`, equal widths, darkening downwards: every colour channel
    /// differs from bar to bar, so misplaced or swapped chroma shows.
    public static func writeColourBars(_ path: String, width: Int, height: Int) throws {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour = barColours[x * barColours.count / width]
                for band in 0..<3 {
                    pixels[(y * width + x) * 3 + band] = UInt8(Int(colour[band]) * (height * 4 - y) / (height * 4))
                }
            }
        }
        try save(try fromMemory(pixels, width: width, height: height, bands: 3, format: VIPS_FORMAT_UCHAR), to: path)
    }

    /// Writes `bytes` as they are: for truncated, empty and fake images.
    public static func writeBytes(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ImagingError(file: path, reason: "could not be written")
        }
    }

    /// The first `fraction` of a valid image's bytes.
    public static func truncate(_ path: String, keeping fraction: Double) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try writeBytes(Array(data.prefix(Int(Double(data.count) * fraction))), to: path)
    }

    static func memoryImage(width: Int, height: Int, bands: Int, depth: Depth, seed: UInt64) throws -> DPPXImaging.VipsImage {
        let pixels = photoPixels(width: width, height: height, bands: bands, seed: seed)
        switch depth {
        case .eight:
            return try fromMemory(pixels, width: width, height: height, bands: bands, format: VIPS_FORMAT_UCHAR)
        case .sixteen:
            let wide = pixels.flatMap { value -> [UInt8] in
                let v = UInt16(value) * 257
                return [UInt8(v & 0xff), UInt8(v >> 8)]
            }
            let raw = try fromMemory(wide, width: width, height: height, bands: bands, format: VIPS_FORMAT_USHORT)
            return try make { cvips_copy_as(raw.pointer, bands >= 3 ? VIPS_INTERPRETATION_RGB16 : VIPS_INTERPRETATION_GREY16, $0) }
        }
    }

    static func fromMemory(_ bytes: [UInt8], width: Int, height: Int, bands: Int, format: VipsBandFormat) throws -> DPPXImaging.VipsImage {
        try Vips.start()
        return try make { out in
            bytes.withUnsafeBytes { raw in
                out.pointee = vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), Int32(bands), format)
                return out.pointee == nil ? -1 : 0
            }
        }
    }

    static func save(_ image: DPPXImaging.VipsImage, to path: String) throws {
        let file = path.split(separator: "[").first.map(String.init) ?? path
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard cvips_write_file(image.pointer, path) == 0 else {
            throw ImagingError(file: path, reason: Vips.lastError())
        }
    }

    static func make(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32) throws -> DPPXImaging.VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard body(&out) == 0, let out else { throw ImagingError(file: nil, reason: Vips.lastError()) }
        return DPPXImaging.VipsImage(adopting: out)
    }
}
