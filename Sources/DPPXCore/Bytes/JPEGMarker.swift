/// A JPEG marker: the byte after `0xFF` that says what a segment is.
public struct JPEGMarker: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// SOI, the file's first two bytes with `0xFF`.
    public static let startOfImage = JPEGMarker(rawValue: 0xD8)
    /// EOI.
    public static let endOfImage = JPEGMarker(rawValue: 0xD9)
    /// SOS: the scan's header, followed by its entropy-coded data.
    public static let startOfScan = JPEGMarker(rawValue: 0xDA)
    /// APP0, where JFIF puts its header.
    public static let app0 = JPEGMarker(rawValue: 0xE0)
    /// APP1, where EXIF goes (after `Exif\0\0`).
    public static let app1 = JPEGMarker(rawValue: 0xE1)

    /// A marker with no length and no payload: TEM, the restarts RST0-7, SOI and EOI.
    public var standsAlone: Bool { rawValue == 0x01 || (0xD0...0xD9).contains(rawValue) }

    /// RST0-7, which may appear inside a scan's entropy-coded data.
    public var isRestart: Bool { (0xD0...0xD7).contains(rawValue) }

    /// A start of frame (SOF0-15: 0xC0-0xCF but DHT 0xC4, JPG 0xC8 and DAC 0xCC), whose
    /// segment holds the image's size.
    public var isStartOfFrame: Bool {
        (0xC0...0xCF).contains(rawValue) && ![0xC4, 0xC8, 0xCC].contains(rawValue)
    }

    /// SOF0-3 and SOF5-7: baseline, extended, progressive and lossless, plain or hierarchical,
    /// all Huffman-coded (the others are arithmetic-coded).
    public var isHuffmanCodedFrame: Bool {
        (0xC0...0xC3).contains(rawValue) || (0xC5...0xC7).contains(rawValue)
    }
}
