/// Bytes appended in a format's integer order: the one writer for every header, table and
/// chunk dppx writes into an image file.
public struct ByteWriter {
    /// What has been written.
    public private(set) var bytes: [UInt8] = []
    /// How integers are stored.
    public let order: ByteOrder

    public init(order: ByteOrder, capacity: Int = 0) {
        self.order = order
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func write<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) {
        let stored = order == .bigEndian ? value.bigEndian : value.littleEndian
        withUnsafeBytes(of: stored) { bytes += $0 }
    }

    public mutating func write(_ name: FourCC) {
        bytes += name.bytes
    }

    public mutating func write(_ other: some Sequence<UInt8>) {
        bytes += other
    }
}
