/// Counts the frames of an animation, or the pages of a TIFF, from the file's structure and
/// without decoding, before libvips reads its header: libvips's own count takes time that
/// grows faster than the count (a minute for a WebP of 200,000 1x1 frames), and its GIF decoder
/// stops at 4097 frames without an error.
enum FrameCounter {
    /// A count, and what is counted.
    struct Count {
        var frames: Int
        /// A TIFF's frames are pages.
        var arePages: Bool
        var noun: String { arePages ? "pages" : "frames" }
    }

    /// The frames (or pages) of a GIF, WebP or TIFF; nil for other formats. A damaged
    /// structure ends the count early: the decoder reports the damage.
    static func count(_ bytes: UnsafeRawBufferPointer) -> Count? {
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && magic.indices.allSatisfy { bytes[offset + $0] == magic[$0] }
        }
        if starts(with: Array("GIF8".utf8)) { return Count(frames: gifFrames(bytes), arePages: false) }
        if starts(with: Array("RIFF".utf8)), starts(with: Array("WEBP".utf8), at: 8) { return Count(frames: webpFrames(bytes), arePages: false) }
        if starts(with: [0x49, 0x49]) || starts(with: [0x4D, 0x4D]) { return Count(frames: tiffPages(bytes), arePages: true) }
        return nil
    }

    /// Image descriptors, skipping every block's data sub-blocks.
    static func gifFrames(_ bytes: UnsafeRawBufferPointer) -> Int {
        let end = bytes.count
        guard end >= 13 else { return 0 }
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

    /// ANMF chunks of the RIFF container (1 for a still WebP).
    static func webpFrames(_ bytes: UnsafeRawBufferPointer) -> Int {
        var frames = 0
        var index = 12
        while index + 8 <= bytes.count {
            let size = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16 | Int(bytes[index + 7]) << 24
            if bytes[index] == 0x41, bytes[index + 1] == 0x4E, bytes[index + 2] == 0x4D, bytes[index + 3] == 0x46 { frames += 1 }  // "ANMF"
            index += 8 + size + (size & 1)
        }
        return max(frames, 1)
    }

    /// Image file directories in the chain (classic TIFF and BigTIFF), a loop ending it.
    static func tiffPages(_ bytes: UnsafeRawBufferPointer) -> Int {
        let little = bytes[0] == 0x49
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            var value = 0
            for byte in 0..<size {
                value |= Int(bytes[offset + (little ? byte : size - 1 - byte)]) << (8 * byte)
            }
            return value
        }
        guard let version = integer(at: 2, size: 2) else { return 0 }
        let big = version == 43
        guard version == 42 || big else { return 0 }
        let offsetSize = big ? 8 : 4
        let countSize = big ? 8 : 2
        let entrySize = big ? 20 : 12
        var next = integer(at: big ? 8 : 4, size: offsetSize) ?? 0
        var seen = Set<Int>()
        while next != 0, seen.insert(next).inserted, let entries = integer(at: next, size: countSize) {
            guard let following = integer(at: next + countSize + entries * entrySize, size: offsetSize) else { return seen.count }
            next = following
        }
        return seen.count
    }
}
