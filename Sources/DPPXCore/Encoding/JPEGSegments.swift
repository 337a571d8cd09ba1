/// A JPEG's segments, for writing a master's own bytes without its metadata: a lossless edit of
/// the file, where a re-encode would be a second generation of JPEG artefacts.
///
/// `strippingMetadata` keeps what defines the pixels and how they are shown (the tables, the
/// frame, the scans, the JFIF and Adobe headers that say how to read the colour, the ICC
/// profile) and drops the rest: EXIF, XMP, IPTC, comments, other applications' segments, and
/// anything after the end of the image (thumbnails and second pictures some cameras append).
public enum JPEGSegments {
    /// What the application segments kept start with: JFIF's header in APP0, the ICC profile's
    /// chunks in APP2, Adobe's colour transform in APP14.
    static let keptApplicationSegments: [(JPEGMarker, [UInt8])] = [
        (.app0, Array("JFIF".utf8) + [0]),
        (JPEGMarker(rawValue: 0xE2), Array("ICC_PROFILE".utf8) + [0]),
        (JPEGMarker(rawValue: 0xEE), Array("Adobe".utf8)),
    ]

    /// COM, a comment.
    static let comment = JPEGMarker(rawValue: 0xFE)

    /// `jpeg` without its metadata, every other segment unchanged. Nil when it is not a
    /// well-formed JPEG that browsers show: its markers unreadable, no frame, scan or end of
    /// image, or a frame other than baseline, extended or progressive Huffman-coded (SOF0-2;
    /// browsers decode no arithmetic-coded, lossless or hierarchical JPEG).
    public static func strippingMetadata(_ jpeg: [UInt8]) -> [UInt8]? {
        jpeg.withUnsafeBytes { bytes -> [UInt8]? in
            guard var segments = JPEGSegmentReader(bytes) else { return nil }
            let reader = ByteReader(bytes, order: .bigEndian)
            var output: [UInt8] = [0xFF, JPEGMarker.startOfImage.rawValue]
            output.reserveCapacity(bytes.count)
            var sawFrame = false, sawScan = false
            do {
                while let segment = try segments.next() {
                    guard segment.end <= bytes.count else { return nil }
                    let marker = segment.marker
                    if marker.isStartOfFrame {
                        guard (0xC0...0xC2).contains(marker.rawValue), !sawFrame else { return nil }
                        sawFrame = true
                    }
                    if marker == .startOfScan {
                        guard sawFrame else { return nil }
                        sawScan = true
                    }
                    let isApplication = (0xE0...0xEF).contains(marker.rawValue)
                    let kept = marker == comment ? false : !isApplication || keptApplicationSegments.contains { kept in
                        kept.0 == marker && reader.matches(kept.1, at: segment.payload.lowerBound)
                    }
                    if kept { output += bytes[segment.start..<segment.end] }
                    if marker == .endOfImage { return sawScan ? output : nil }
                }
            } catch {
                return nil
            }
            return nil
        }
    }
}
