/// The `Cookie` request header, read for one value: the `dpr` cookie that `/_dppx/dpr.js` sets
/// in browsers that send no client hints (Firefox, Safari).
///
/// Parsing is deliberately forgiving (`a=1;b=2`, `a=1; b=2`, several `Cookie` lines, quoted
/// values) and bounded: a huge header is read only up to `maximumLength` characters.
public struct CookieHeader: Sendable {
    /// Characters of cookie text read at most; browsers cap a cookie header near 8 KB anyway.
    public static let maximumLength = 16 * 1024

    private let pairs: [(name: Substring, value: Substring)]

    /// Reads every `Cookie` header line of a request.
    public init(_ lines: [String]) {
        var pairs: [(Substring, Substring)] = []
        var budget = Self.maximumLength
        for line in lines {
            guard budget > 0 else { break }
            let text = Substring(line).prefix(budget)
            budget -= text.count
            for piece in text.split(separator: ";") {
                guard let equals = piece.firstIndex(of: "=") else { continue }
                let name = Self.trimmed(piece[..<equals])
                var value = Self.trimmed(piece[piece.index(after: equals)...])
                if value.count >= 2, value.first == "\"", value.last == "\"" {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty else { continue }
                pairs.append((name, value))
            }
        }
        self.pairs = pairs
    }

    /// The value of the first cookie called `name` (names are case-sensitive), nil when absent.
    public subscript(name: String) -> Substring? {
        pairs.first { $0.name == name }?.value
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
