/// A device pixel ratio a variant is made for: 1, 1.5, 2, 3...
///
/// Stored as thousandths so that `1.5` parsed from a flag, a file name and a manifest compare
/// equal and sort without floating-point surprises; printed in the shortest form (`1.5`, `2`).
public struct Density: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The density in thousandths: 1500 for 1.5x.
    public let milli: Int

    /// Densities a build writes when none are given.
    public static let defaultSet: [Density] = [Density(1), Density(1.5), Density(2)]

    /// The largest density accepted anywhere; no screen comes close.
    public static let maximum = Density(milli: 10_000)

    public init(milli: Int) { self.milli = milli }

    /// Rounds to the nearest thousandth. Saturates rather than traps: a number that is not
    /// finite, or whose thousandths do not fit `decodedRange`'s bounds, gives the nearest bound
    /// (0 for NaN), so no input can stop the process.
    public init(_ value: Double) {
        let scaled = (value * 1000).rounded()
        self.milli = scaled.isNaN ? 0 : Int(min(max(scaled, -Self.saturation), Self.saturation))
    }

    /// Where `init(_:)` stops: far past any density, well inside `Int`.
    private static let saturation = 1e15

    /// The densities a manifest may hold: from 0.001 to a million (an image's own density is
    /// its width over a `[[rule]]`'s display width, so it can pass `maximum`). Anything else is
    /// not from a build, and is refused when read (`init(from:)`).
    public static let decodedRange = Density(milli: 1)...Density(milli: 1_000_000_000)

    /// The density as a number, for arithmetic on pixel sizes.
    public var value: Double { Double(milli) / 1000 }

    /// Parses `2`, `1.5`, `2x`, `1.5X`; nil for anything that is not a density in (0, 10].
    public init?(parsing text: some StringProtocol) {
        var body = Substring(text)
        if let last = body.last, last == "x" || last == "X" { body = body.dropLast() }
        guard body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              body.filter({ $0 == "." }).count <= 1, body.first != ".", body.last != ".",
              let density = Density(checkedDecimal: body)
        else { return nil }
        self = density
    }

    /// The density `text` spells: ASCII digits with at most one dot between digits, as the
    /// callers checked. Nil when empty, longer than 12 characters, or not in (0, maximum].
    init?(checkedDecimal text: Substring) {
        guard !text.isEmpty, text.utf8.count <= 12, let value = Double(text), value.isFinite else { return nil }
        let density = Density(value)
        guard density.milli > 0, density <= .maximum else { return nil }
        self = density
    }

    /// `1`, `1.5`, `2.625`: the form used in file names, CSS and srcset.
    public var description: String {
        let whole = milli / 1000, fraction = milli % 1000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// `@1.5x` for file names; empty for 1x, whose file carries the plain name.
    public var fileSuffix: String { milli == 1000 ? "" : "@\(description)x" }

    public static func < (lhs: Density, rhs: Density) -> Bool { lhs.milli < rhs.milli }

    /// Refuses a density outside `decodedRange`, naming the field through the decoder's path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        let density = Density(value)
        guard value.isFinite, Self.decodedRange.contains(density) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a density from 0.001 to 1000000, but got \(value)")
        }
        self = density
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if milli % 1000 == 0 { try container.encode(milli / 1000) } else { try container.encode(value) }
    }

    /// Parses a comma-separated list such as `1,1.5,2` into a sorted, de-duplicated set.
    /// Throws a message naming the bad entry.
    public static func parseList(_ text: String) throws(DensityListError) -> [Density] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: " ") }
        guard !parts.isEmpty, parts != [""] else { throw DensityListError(entry: text) }
        var result = Set<Density>()
        for part in parts {
            guard let density = Density(parsing: part) else { throw DensityListError(entry: String(part)) }
            result.insert(density)
        }
        return result.sorted()
    }
}

/// A density list entry that is not a number in (0, 10].
public struct DensityListError: Error, CustomStringConvertible, Equatable {
    public let entry: String
    public init(entry: String) { self.entry = entry }
    public var description: String {
        "expected densities as numbers between 0 and 10 separated by commas (e.g. 1,1.5,2), but got '\(entry)'"
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return s
    }
}
