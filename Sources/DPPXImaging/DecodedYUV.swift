import CVips
import DPPXCore
import Foundation

/// libwebp's YUV 4:2:0 picture of a lossy WebP master: read by the resizes of its smaller
/// variants, then handed over as the master-size variant's encoder input, without a copy.
public final class DecodedYUV: @unchecked Sendable {
    let path: String
    let size: PixelSize
    private let lock = NSLock()
    private var picture: UnsafeMutablePointer<WebPPicture>?

    init(path: String, picture: UnsafeMutablePointer<WebPPicture>, size: PixelSize) {
        self.path = path
        self.picture = picture
        self.size = size
    }

    var byteCount: Int { size.width * size.height * 3 / 2 }

    /// WebP encoder inputs at `sizes`, in order: each smaller one resized plane by plane from
    /// the picture, the master-size one the picture itself, which this then no longer holds.
    func webpInputs(at sizes: [PixelSize], file: String) throws(ImagingError) -> [EncoderInput] {
        lock.lock()
        defer { lock.unlock() }
        guard let source = picture else {
            throw ImagingError(file: file, reason: "has no pixels left: its WebP inputs were already taken")
        }
        // The master-size input is the picture itself, so it is taken last.
        let whole = sizes.firstIndex(of: size)
        var inputs = [EncoderInput?](repeating: nil, count: sizes.count)
        for (index, target) in sizes.enumerated() where index != whole {
            let resized = try Vips.attributed { () throws(ImagingError) -> UnsafeMutablePointer<WebPPicture> in
                var resized: UnsafeMutablePointer<WebPPicture>?
                guard cvips_webp_input_resized(source, Int32(target.width), Int32(target.height), &resized) == 0, let resized else {
                    throw ImagingError.libvips(file: file, "could not be resized to \(target.width)x\(target.height): ")
                }
                return resized
            }
            inputs[index] = EncoderInput(format: .webp, lossless: false, pixels: .webp(resized), ownBytes: target.width * target.height * 3 / 2)
        }
        if let whole {
            picture = nil
            inputs[whole] = EncoderInput(format: .webp, lossless: false, pixels: .webp(source), ownBytes: byteCount)
        }
        return inputs.compactMap { $0 }
    }

    /// The picture at `target` as 8-bit RGBA (a placeholder's small copy), while it is still held.
    func rgba(at target: PixelSize, file: String) throws(ImagingError) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        guard let source = picture else {
            throw ImagingError(file: file, reason: "has no pixels left: its WebP inputs were already taken")
        }
        return try Vips.attributed { () throws(ImagingError) -> [UInt8] in
            var rgba = [UInt8](repeating: 0, count: target.width * target.height * 4)
            let status = rgba.withUnsafeMutableBufferPointer {
                cvips_webp_input_rgba(source, Int32(target.width), Int32(target.height), $0.baseAddress)
            }
            guard status == 0 else { throw ImagingError.libvips(file: file, "could not be resized to \(target.width)x\(target.height): ") }
            return rgba
        }
    }

    /// Each level's count per colour band of the whole picture, as RGB (a placeholder's
    /// colour), while it is still held.
    func histogram(file: String) throws(ImagingError) -> [UInt64] {
        lock.lock()
        defer { lock.unlock() }
        guard let source = picture else {
            throw ImagingError(file: file, reason: "has no pixels left: its WebP inputs were already taken")
        }
        return try Vips.attributed { () throws(ImagingError) -> [UInt64] in
            var histogram = [UInt64](repeating: 0, count: 3 * 256)
            let status = histogram.withUnsafeMutableBufferPointer { cvips_webp_input_histogram(source, $0.baseAddress) }
            guard status == 0 else { throw ImagingError.libvips(file: file, "could not be read for its placeholder's colour: ") }
            return histogram
        }
    }

    deinit { if let picture { cvips_webp_input_free(picture) } }
}
