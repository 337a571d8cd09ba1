/// Whether a JPEG is too small to hold the image its header claims: a Huffman-coded JPEG's
/// first scan codes every 8x8 block of luma with at least one bit (the shortest Huffman code),
/// so a file of fewer bytes than blocks / 8 was cut short or crafted. libjpeg would decode it
/// anyway below `--fail-on warning`, the missing part grey: a few hundred bytes claiming
/// 16000x16000 would cost a quarter of a gigapixel of decoding.
enum JPEGMinimumSize {
    /// The least bytes a Huffman-coded JPEG of `width` x `height` takes; nil when the file's
    /// frame is not Huffman-coded (arithmetic coding can spend less than a bit a block) or its
    /// markers cannot be read (the decoder reports that).
    static func minimumBytes(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int) -> Int? {
        guard let frame = frameMarker(bytes), isHuffmanCoded(frame) else { return nil }
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        return blocks / 8
    }

    /// SOF0-3 and SOF5-7: baseline, extended, progressive and lossless, plain or hierarchical.
    static func isHuffmanCoded(_ frame: UInt8) -> Bool {
        (0xC0...0xC3).contains(frame) || (0xC5...0xC7).contains(frame)
    }

    /// The first start-of-frame marker (0xC0-0xCF but DHT 0xC4, JPG 0xC8 and DAC 0xCC).
    static func frameMarker(_ bytes: UnsafeRawBufferPointer) -> UInt8? {
        let end = bytes.count
        guard end >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 3 < end {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return marker }
            if marker == 0xDA || marker == 0xD9 { return nil }  // a scan before any frame
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return nil
    }
}
