/// A four-character code naming a PNG chunk (`IHDR`) or a RIFF chunk (`VP8X`): four bytes,
/// compared as bytes, whatever they hold in a damaged file.
public struct FourCC: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The four bytes, the first one highest.
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A name written in the code, such as `"VP8 "`: exactly four ASCII characters.
    public init(stringLiteral name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4 && name.isASCII, "a four-character code has four ASCII characters")
        let bytes = UnsafeBufferPointer(start: name.utf8Start, count: 4)
        self.init(rawValue: bytes.reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// The four bytes in file order.
    public var bytes: [UInt8] {
        [UInt8(rawValue >> 24), UInt8(rawValue >> 16 & 0xFF), UInt8(rawValue >> 8 & 0xFF), UInt8(rawValue & 0xFF)]
    }

    /// Every byte a printable ASCII character, as RIFF names are.
    public var isPrintableASCII: Bool { bytes.allSatisfy { (0x20...0x7E).contains($0) } }

    /// Every byte an ASCII letter, as PNG chunk types are.
    public var isASCIILetters: Bool { bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) } }

    /// The code as text; bytes that are not printable ASCII as `\xNN`.
    public var description: String {
        bytes.map { (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
    }
}
