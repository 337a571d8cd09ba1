/// How a negotiated answer tells the browser its variant's density, so that a plain `<img src>`
/// without width and height lays out at the image's CSS size.
///
/// Measured in Chromium 156 and Firefox 153 ESR: EXIF density in a JPEG works in both; in a PNG
/// (`eXIf`) only in Firefox; in WebP and AVIF in neither. JPEG XL is answered as AVIF and WebP
/// are (dppx writes no EXIF into it; Firefox does not decode it). `Content-DPR` works only in
/// Chromium, only on requests that carried client hints, and Chromium applies it on top of EXIF
/// density (drawn at half the size): an answer carries one signal, never both.
public enum DensitySignal: Sendable, Hashable {
    /// Nothing to say: the variant's pixels are the CSS size (1x).
    case none
    /// The density written into the answer's own bytes (`DensityInsertion`).
    case exif(ExifDensity)
    /// The `Content-DPR` header: for Chromium (a request with client hints) when the format
    /// carries no density it reads, or when nothing else can work.
    case contentDPR(Density)

    /// Whether a browser reads EXIF density from `format`. `hinted`: the request carried client
    /// hints, so it comes from Chromium, which ignores a PNG's `eXIf` (Firefox and, by the
    /// same spec, Safari read it; they send no hints).
    public static func exifIsRead(in format: ImageFormat, hinted: Bool) -> Bool {
        switch format {
        case .jpeg: true
        case .png: !hinted
        default: false
        }
    }
}
