/// The blocks of a GIF after its header: image descriptors and extensions, each followed by
/// data sub-blocks, to the trailer. Walked to count an animation's frames without decoding.
public enum GIFBlocks {
    /// The image descriptors (frames) of the GIF in `bytes`, every block's data sub-blocks
    /// stepped over; 0 when the bytes are not a GIF. A damaged structure ends the count early
    /// (the decoder reports the damage).
    public static func frameCount(in bytes: UnsafeRawBufferPointer) -> Int {
        let reader = ByteReader(bytes, order: .littleEndian)
        guard reader.matches(Array("GIF8".utf8), at: 0), let screenFlags = reader.uint8(at: 10), reader.count >= 13 else { return 0 }
        var index = 13
        if screenFlags & 0x80 != 0 { index += 3 << (Int(screenFlags & 7) + 1) }  // global colour table
        var frames = 0
        /// Steps over data sub-blocks (a length byte, that many bytes) to the terminating 0.
        func skipSubBlocks() -> Bool {
            while let length = reader.uint8(at: index) {
                index += 1 + Int(length)
                if length == 0 { return true }
            }
            return false
        }
        while let introducer = reader.uint8(at: index) {
            switch introducer {
            case 0x2C:  // image descriptor: position and size, flags, optional local colour table
                guard let flags = reader.uint8(at: index + 9) else { return frames }
                frames += 1
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
