/// Counts the frames of a GIF from its block structure, without decoding. libvips's GIF
/// decoder stops at 4097 frames and keeps the rest out of the image without an error: the
/// count tells a shortened animation from a whole one.
enum GIFFrameCounter {
    /// The number of image descriptors in `bytes`; a damaged block structure ends the count
    /// early (the decoder reports the damage).
    static func count(_ bytes: UnsafeRawBufferPointer) -> Int {
        let end = bytes.count
        guard end >= 13, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46 else { return 0 }  // "GIF"
        var index = 13
        if bytes[10] & 0x80 != 0 { index += 3 << (Int(bytes[10] & 7) + 1) }  // global colour table
        var frames = 0
        /// Skips data sub-blocks (a length byte, that many bytes) to the terminating 0.
        func skipSubBlocks() -> Bool {
            while index < end {
                let length = Int(bytes[index])
                index += 1 + length
                if length == 0 { return true }
            }
            return false
        }
        while index < end {
            switch bytes[index] {
            case 0x2C:  // image descriptor: position and size, flags, optional local colour table
                guard index + 10 <= end else { return frames }
                frames += 1
                let flags = bytes[index + 9]
                index += 10
                if flags & 0x80 != 0 { index += 3 << (Int(flags & 7) + 1) }
                index += 1  // LZW minimum code size
                guard skipSubBlocks() else { return frames }
            case 0x21:  // extension: label, then sub-blocks
                index += 2
                guard skipSubBlocks() else { return frames }
            default:    // 0x3B trailer, or damage
                return frames
            }
        }
        return frames
    }
}
