/// The order a format stores its multi-byte integers in: JPEG and PNG big-endian, RIFF
/// little-endian, TIFF either (its first two bytes say which).
public enum ByteOrder: Sendable {
    case bigEndian
    case littleEndian
}
