/// Fixed-width integers read from bytes at offsets, every read checked against the bytes' end:
/// one that does not fit (a negative or huge offset from a hostile file included) is nil, never
/// a trap. The one set of endian readers every container parser here uses.
///
/// It borrows the bytes: use it only inside the `withUnsafeBytes` call that lent them.
public struct ByteReader {
    /// The bytes read, from offset 0.
    public let bytes: UnsafeRawBufferPointer
    /// How integers are stored.
    public let order: ByteOrder

    public init(_ bytes: UnsafeRawBufferPointer, order: ByteOrder) {
        self.bytes = bytes
        self.order = order
    }

    /// The same bytes, read in another order (a TIFF's order is known only after its first bytes).
    public func reading(_ order: ByteOrder) -> ByteReader {
        ByteReader(bytes, order: order)
    }

    public var count: Int { bytes.count }

    /// Whether the `length` bytes from `offset` are all inside the bytes.
    public func contains(_ offset: Int, length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count - length
    }

    public func uint8(at offset: Int) -> UInt8? {
        contains(offset, length: 1) ? bytes[offset] : nil
    }

    public func uint16(at offset: Int) -> UInt16? { integer(UInt16.self, at: offset) }
    public func uint32(at offset: Int) -> UInt32? { integer(UInt32.self, at: offset) }
    public func uint64(at offset: Int) -> UInt64? { integer(UInt64.self, at: offset) }

    /// The four bytes at `offset` as a chunk name.
    public func fourCC(at offset: Int) -> FourCC? {
        // A name is stored as it reads, whatever the format's integer order.
        reading(.bigEndian).uint32(at: offset).map(FourCC.init(rawValue:))
    }

    /// Whether the bytes at `offset` are `expected`; false where they would run past the end.
    public func matches(_ expected: some Collection<UInt8>, at offset: Int) -> Bool {
        guard contains(offset, length: expected.count) else { return false }
        return bytes[offset..<(offset + expected.count)].elementsEqual(expected)
    }

    private func integer<Value: FixedWidthInteger & UnsignedInteger>(_: Value.Type, at offset: Int) -> Value? {
        guard contains(offset, length: MemoryLayout<Value>.size) else { return nil }
        let stored = bytes.loadUnaligned(fromByteOffset: offset, as: Value.self)
        return order == .bigEndian ? Value(bigEndian: stored) : Value(littleEndian: stored)
    }
}
