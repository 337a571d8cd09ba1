import DPPXCore

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
        guard let frame = JPEGSegmentReader.frameMarker(in: bytes), frame.isHuffmanCodedFrame else { return nil }
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        return blocks / 8
    }
}
