/// Counts the scans of a JPEG from its markers, without decoding: a progressive JPEG of
/// thousands of scans makes libjpeg read its whole coefficient buffer once per scan.
enum JPEGScanCounter {
    /// The number of start-of-scan (SOS) segments in `bytes`, counting stopped just past
    /// `limit`. A damaged marker structure ends the count early: the decoder reports the damage.
    static func count(_ bytes: UnsafeRawBufferPointer, stoppingAfter limit: Int) -> Int {
        let end = bytes.count
        guard end >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return 0 }
        var scans = 0
        var index = 2
        while index + 1 < end, scans <= limit {
            guard bytes[index] == 0xFF else { return scans }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }           // fill byte
            if marker == 0xD9 { return scans }                   // end of image
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }
            guard index + 3 < end else { return scans }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            index += 2 + length
            guard marker == 0xDA else { continue }
            scans += 1
            // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
            while index + 1 < end {
                if bytes[index] == 0xFF, bytes[index + 1] != 0, !(0xD0...0xD7).contains(bytes[index + 1]) { break }
                index += 1
            }
        }
        return scans
    }
}
