import CVips
import DPPXCore

/// A master decoded into a libvips image in memory: RGB, RGBA or grey, 8-bit, upright, an
/// animation's frames stacked top to bottom. Every variant is resized from it.
public final class DecodedPixels: @unchecked Sendable {
    let path: String
    let image: VipsImage
    let frames: Int
    let frameSize: PixelSize

    init(path: String, image: VipsImage, frames: Int, frameSize: PixelSize) {
        self.path = path
        self.image = image
        self.frames = frames
        self.frameSize = frameSize
    }

    /// Bytes of pixels held.
    public var byteCount: Int {
        image.width * image.fullHeight * image.bands * (image.bandFormat == VIPS_FORMAT_UCHAR ? 1 : 2)
    }

    /// Whether the pixels have an alpha band (not when the master's was opaque everywhere).
    public var hasAlpha: Bool { image.hasAlpha }

    /// How many images read these pixels besides this handle: resizes not yet run or
    /// encoders still reading. At 0, dropping this handle frees the pixels.
    public var otherReaders: Int { Int(cvips_ref_count(image.pointer)) - 1 }

    /// The encoder inputs of `outputs` (see `Encoder.input`), in the same order.
    ///
    /// They are taken smallest first, so that each resize's full-size copy is freed before
    /// the next, larger one.
    public func encoderInputs(for outputs: [(size: PixelSize, format: ImageFormat)], settings: EncodeSettings,
                              losslessSource: Bool, file: String) throws(ImagingError) -> [EncoderInput] {
        let order = outputs.indices.sorted { outputs[$0].size.width * outputs[$0].size.height < outputs[$1].size.width * outputs[$1].size.height }
        var inputs = [EncoderInput?](repeating: nil, count: outputs.count)
        for index in order {
            inputs[index] = try Encoder.input(resized(to: outputs[index].size), for: outputs[index].format,
                                              settings: settings, losslessSource: losslessSource, file: file)
        }
        return inputs.compactMap { $0 }
    }

    /// The image at exactly `target` (per frame), alpha premultiplied during the resize. The
    /// resize is lazy: it runs when the result is encoded (or taken as an encoder input).
    public func resized(to target: PixelSize) throws(ImagingError) -> VipsImage {
        let path = self.path
        let image = self.image
        if frames > 1 { return try resizeAnimation(to: target) }
        if target == frameSize { return image }
        if image.hasAlpha {
            let hscale = Double(target.width) / Double(frameSize.width)
            let vscale = Double(target.height) / Double(frameSize.height)
            let resized = try VipsImage.make(file: path) { cvips_resize_premultiplied(image.pointer, hscale, vscale, $0) }
            if resized.width == target.width && resized.fullHeight == target.height { return resized }
            // libvips rounded to a neighbouring size: thumbnail forces the exact one.
        }
        return try VipsImage.make(file: path) {
            cvips_thumbnail_image(image.pointer, Int32(target.width), Int32(target.height), $0)
        }
    }

    /// Animations resize as one tall strip of frames, then get their frame height back.
    private func resizeAnimation(to target: PixelSize) throws(ImagingError) -> VipsImage {
        let path = self.path
        let image = self.image
        if target == frameSize { return image }
        let hscale = Double(target.width) / Double(frameSize.width)
        // Aim at the centre of the wanted pixel count so libvips's rounding lands on it.
        let vscale = (Double(target.height * frames) + 0.25) / Double(frameSize.height * frames)
        let out = image.hasAlpha
            ? try VipsImage.make(file: path) { cvips_resize_premultiplied(image.pointer, hscale, vscale, $0) }
            : try VipsImage.make(file: path) { cvips_resize(image.pointer, hscale, vscale, $0) }
        let copy = try VipsImage.make(file: path) { cvips_copy(out.pointer, $0) }
        cvips_set_int(copy.pointer, "page-height", Int32(target.height))
        return copy
    }
}
