/// A TIFF structure written from directories of fields: what EXIF is made of.
///
/// The layout is fixed, so the same fields always give the same bytes: the 8-byte header, then
/// each directory in turn (IFD0, then the directories its fields point to, in order, breadth
/// first), each with its fields in ascending tag order (as TIFF requires) and a next offset of
/// 0, then the values too large for a field's four bytes, in the order of their fields.
public enum TIFFWriter {
    /// One directory entry: a tag and its single value.
    public struct Field: Hashable, Sendable {
        public let tag: UInt16
        public let value: Value

        public init(tag: UInt16, value: Value) {
            self.tag = tag
            self.value = value
        }
    }

    /// A field's value, of count 1.
    public enum Value: Hashable, Sendable {
        case short(UInt16)
        case long(UInt32)
        case rational(numerator: UInt32, denominator: UInt32)
        /// A directory of its own, written as a LONG offset (the Exif IFD of tag 0x8769).
        case directory([Field])
    }

    /// The TIFF bytes of `directory` (IFD0) and the directories it points to.
    public static func bytes(_ directory: [Field], order: ByteOrder) -> [UInt8] {
        var directories = [directory.sorted { $0.tag < $1.tag }]
        var index = 0
        while index < directories.count {
            for field in directories[index] {
                if case .directory(let fields) = field.value { directories.append(fields.sorted { $0.tag < $1.tag }) }
            }
            index += 1
        }
        var offsets: [Int] = []
        var end = 8
        for fields in directories {
            offsets.append(end)
            end += 2 + 12 * fields.count + 4
        }

        var writer = ByteWriter(order: order, capacity: end + 64)
        writer.write(Array((order == .bigEndian ? "MM" : "II").utf8))
        writer.write(UInt16(42))
        writer.write(UInt32(8))
        var values = ByteWriter(order: order)
        var pointed = 1
        for fields in directories {
            writer.write(UInt16(fields.count))
            for field in fields {
                writer.write(field.tag)
                switch field.value {
                case .short(let value):
                    writer.write(UInt16(3))
                    writer.write(UInt32(1))
                    writer.write(value)  // left-aligned in the four bytes
                    writer.write(UInt16(0))
                case .long(let value):
                    writer.write(UInt16(4))
                    writer.write(UInt32(1))
                    writer.write(value)
                case .rational(let numerator, let denominator):
                    writer.write(UInt16(5))
                    writer.write(UInt32(1))
                    writer.write(UInt32(end + values.count))
                    values.write(numerator)
                    values.write(denominator)
                case .directory:
                    writer.write(UInt16(4))
                    writer.write(UInt32(1))
                    writer.write(UInt32(offsets[pointed]))
                    pointed += 1
                }
            }
            writer.write(UInt32(0))
        }
        writer.write(values.bytes)
        return writer.bytes
    }
}
