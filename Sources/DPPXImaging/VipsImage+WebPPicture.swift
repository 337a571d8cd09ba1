import CVips

/// Pixels handed to libwebp's encoder directly, the one way dppx does it for plain encodes,
/// quality searches and placeholders alike.
extension VipsImage {
    /// Whether libwebp takes these pixels as they are: 8-bit with 3 or 4 bands. Anything else
    /// (grey, 16-bit) goes through libvips's writer, which converts it first.
    var takenByLibWebP: Bool {
        bandFormat == VIPS_FORMAT_UCHAR && (bands == 3 || bands == 4)
    }

    /// The pixels as a lossy libwebp input (`cvips_webp_input_new`): YUV 4:2:0, converted by
    /// libwebp's sharp conversion when `sharp`. The caller frees it with
    /// `cvips_webp_input_free`. `failure` begins the error's reason, after the file's name.
    func webpPicture(sharp: Bool, file: String,
                     failure: String = "could not be encoded as webp") throws(ImagingError) -> UnsafeMutablePointer<WebPPicture> {
        try Vips.attributed { () throws(ImagingError) -> UnsafeMutablePointer<WebPPicture> in
            var picture: UnsafeMutablePointer<WebPPicture>?
            guard cvips_webp_input_new(pointer, sharp ? 1 : 0, &picture) == 0, let picture else {
                throw ImagingError.libvips(file: file, failure + ": ")
            }
            return picture
        }
    }
}
