import Foundation

/// An encoder quality as the user gives it: a number (1-100, the encoder's own scale), or
/// `auto`: per variant, the lowest quality whose file still looks right at the density it is
/// shown at (SSIMULACRA2 score at or above the quality target; see `QualityTargets`).
public enum EncoderQuality: Hashable, Sendable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    case fixed(Int)
    case auto

    /// What a fixed quality may be: the encoders' own scale.
    public static let range = 1...100

    public init(integerLiteral value: Int) { self = .fixed(value) }

    /// `auto`, or a whole number (range checked by the caller); nil for anything else.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "auto" {
            self = .auto
        } else if let value = Int(trimmed) {
            self = .fixed(value)
        } else {
            return nil
        }
    }

    /// The number, for a fixed quality.
    public var fixedValue: Int? {
        if case .fixed(let value) = self { return value }
        return nil
    }

    public var isAuto: Bool { self == .auto }

    public var description: String {
        switch self {
        case .fixed(let value): String(value)
        case .auto: "auto"
        }
    }

    // A number is written as a number, so settings written before `auto` existed read the same.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            self = .fixed(value)
        } else if try container.decode(String.self) == "auto" {
            self = .auto
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a quality is a number or \"auto\"")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .fixed(let value): try container.encode(value)
        case .auto: try container.encode("auto")
        }
    }
}
