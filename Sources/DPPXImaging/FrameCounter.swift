import DPPXCore

/// Counts the frames of an animation, or the pages of a TIFF, from the file's structure and
/// without decoding, before libvips reads its header: libvips's own count takes time that
/// grows faster than the count (a minute for a WebP of 200,000 1x1 frames), and its GIF decoder
/// stops at 4097 frames without an error. The containers are walked by DPPXCore's readers.
enum FrameCounter {
    /// A count, and what is counted.
    struct Count {
        var frames: Int
        /// A TIFF's frames are pages.
        var arePages: Bool
        var noun: String { arePages ? "pages" : "frames" }
    }

    /// The frames (or pages) of a GIF, WebP or TIFF, told apart by their signatures; nil for
    /// other formats. A damaged structure ends the count early: the decoder reports the damage.
    static func count(_ bytes: UnsafeRawBufferPointer) -> Count? {
        switch ImageFormat(signature: bytes) {
        case .gif: Count(frames: GIFBlocks.frameCount(in: bytes), arePages: false)
        case .webp: RIFFChunkReader.webpFrameCount(in: bytes).map { Count(frames: $0, arePages: false) }
        case .tiff: TIFFReader(bytes).map { Count(frames: $0.directoryChain().count, arePages: true) }
        default: nil
        }
    }
}
