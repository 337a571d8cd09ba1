import CVips
import DPPXCore

/// A master's pixels in memory, from which each variant is made.
public enum DecodedImage: Sendable {
    /// A libvips image (RGB, RGBA or grey; an animation's frames stacked), resized per variant.
    case pixels(DecodedPixels)

    /// Whether the pixels have an alpha band (not when the master's was opaque everywhere).
    public var hasAlpha: Bool {
        switch self {
        case .pixels(let pixels): pixels.image.hasAlpha
        }
    }

    /// Bytes of pixels held.
    public var byteCount: Int {
        switch self {
        case .pixels(let pixels): pixels.byteCount
        }
    }

    /// How many images read these pixels besides this handle: resizes not yet run or
    /// encoders still reading. At 0, dropping this handle frees the pixels.
    public var otherReaders: Int {
        switch self {
        case .pixels(let pixels): Int(cvips_ref_count(pixels.image.pointer)) - 1
        }
    }

    /// The encoder inputs of `outputs` (see `Encoder.input`), in the same order.
    ///
    /// They are taken smallest first, so that each resize's full-size copy is freed before
    /// the next, larger one.
    public func encoderInputs(for outputs: [(size: PixelSize, format: ImageFormat)], settings: EncodeSettings,
                              losslessSource: Bool, file: String) throws(ImagingError) -> [EncoderInput] {
        let order = outputs.indices.sorted { outputs[$0].size.width * outputs[$0].size.height < outputs[$1].size.width * outputs[$1].size.height }
        var inputs = [EncoderInput?](repeating: nil, count: outputs.count)
        switch self {
        case .pixels(let pixels):
            for index in order {
                inputs[index] = try Encoder.input(pixels.resized(to: outputs[index].size), for: outputs[index].format,
                                                  settings: settings, losslessSource: losslessSource, file: file)
            }
        }
        return inputs.compactMap { $0 }
    }
}
