/// The `Accept` request header, read to pick an image encoding (AVIF, WebP or the master's own).
///
/// Browsers list what they decode: Chromium sends `image/avif,image/webp,image/apng,...,image/*,
/// */*;q=0.8` on image requests; curl sends `*/*`. Only a range that names a type explicitly
/// proves the client decodes it: `image/*` is sent by browsers that cannot show AVIF.
/// Malformed ranges are skipped, and an absurdly long header is read only in part.
public struct AcceptHeader: Sendable, Equatable {
    /// Characters read at most.
    public static let maximumLength = 4096
    /// Media ranges read at most.
    public static let maximumRanges = 64

    /// One entry of the list: `image/webp;q=0.9`.
    public struct MediaRange: Sendable, Equatable {
        /// Lowercased, `*` for any.
        public let type: String
        /// Lowercased, `*` for any.
        public let subtype: String
        /// The `q` weight in thousandths: 1000 for `q=1` (the default), 0 for "not acceptable".
        public let quality: Int

        public init(type: String, subtype: String, quality: Int = 1000) {
            self.type = type
            self.subtype = subtype
            self.quality = quality
        }

        /// 2 for `image/webp`, 1 for `image/*`, 0 for `*/*`: the most specific match wins.
        var specificity: Int { type == "*" ? 0 : subtype == "*" ? 1 : 2 }

        func matches(type: Substring, subtype: Substring) -> Bool {
            (self.type == "*" || self.type == type) && (self.subtype == "*" || self.subtype == subtype)
        }
    }

    /// The ranges, in the order the client sent them.
    public let ranges: [MediaRange]
    /// False when the request had no `Accept` header at all (which means "anything").
    public let isPresent: Bool

    /// Reads every `Accept` header line of a request.
    public init(_ lines: [String]) {
        isPresent = !lines.isEmpty
        var ranges: [MediaRange] = []
        var budget = Self.maximumLength
        outer: for line in lines {
            guard budget > 0 else { break }
            let text = Substring(line).prefix(budget)
            budget -= text.count
            for entry in text.split(separator: ",") {
                guard ranges.count < Self.maximumRanges else { break outer }
                if let range = Self.parseRange(entry) { ranges.append(range) }
            }
        }
        self.ranges = ranges
    }

    /// The weight (thousandths) the client gives `mediaType` (`image/avif`) through the most
    /// specific range that covers it, wildcards included; nil when no range covers it.
    public func quality(of mediaType: String) -> Int? {
        guard let (type, subtype) = Self.split(mediaType) else { return nil }
        var best: MediaRange?
        for range in ranges where range.matches(type: type, subtype: subtype) {
            if best == nil || range.specificity > best!.specificity { best = range }
        }
        return best?.quality
    }

    /// The weight of a range naming `mediaType` exactly (no wildcard); nil when it is not named.
    public func explicitQuality(of mediaType: String) -> Int? {
        guard let (type, subtype) = Self.split(mediaType) else { return nil }
        return ranges.first { $0.specificity == 2 && $0.type == type && $0.subtype == subtype }?.quality
    }

    private static func split(_ mediaType: String) -> (Substring, Substring)? {
        let lower = mediaType.lowercased()
        guard let slash = lower.firstIndex(of: "/") else { return nil }
        return (Substring(lower[..<slash]), Substring(lower[lower.index(after: slash)...]))
    }

    /// `type/subtype *( OWS ";" OWS parameter )`; nil when malformed.
    private static func parseRange(_ entry: Substring) -> MediaRange? {
        let parts = entry.split(separator: ";", omittingEmptySubsequences: false)
        let name = trimmed(parts[0]).lowercased()
        let pieces = name.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty,
              pieces.allSatisfy({ $0.allSatisfy(isTokenCharacter) }),
              !(pieces[0] == "*" && pieces[1] != "*")
        else { return nil }
        var quality = 1000
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, trimmed(pair[0]).lowercased() == "q" else { continue }
            guard let weight = parseQuality(trimmed(pair[1])) else { return nil }
            quality = weight
        }
        return MediaRange(type: String(pieces[0]), subtype: String(pieces[1]), quality: quality)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    private static func parseQuality(_ text: Substring) -> Int? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, whole == "0" || whole == "1" else { return nil }
        var fraction = pieces.count == 2 ? pieces[1] : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        while fraction.count < 3 { fraction += "0" }
        guard let thousandths = Int(fraction) else { return nil }
        let value = (whole == "1" ? 1000 : 0) + thousandths
        return value <= 1000 ? value : nil
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let ascii = character.asciiValue else { return false }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(ascii)
        }
    }

    private static func trimmed(_ text: some StringProtocol) -> Substring {
        var text = Substring(text)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
