/// A `sizes` attribute of viewport-width conditions and linear lengths, as dppx writes it:
/// `(max-width: 575.98px) calc(100vw - 24px), (max-width: 991.98px) 50vw, 426.67px`.
///
/// Browsers take the first entry whose condition holds, and the last entry has none. dppx
/// evaluates the value it is about to write at every measured viewport before writing it (see
/// `SizesFitter`), and reads back a page's own `sizes` to compare it with the layout.
public struct SizesValue: Hashable, Sendable, CustomStringConvertible {
    /// One entry: a length, used at viewports no wider than `maximumViewport` (nil: any).
    public struct Entry: Hashable, Sendable {
        /// `(max-width: …px)`: the widest viewport (CSS px) this entry applies to.
        public var maximumViewport: Double?
        /// `(min-width: …px)`: the narrowest viewport this entry applies to.
        public var minimumViewport: Double?
        public var length: SizesLength
        /// The conditions are written in `em` (the viewports over `emPixels`), as the page's own
        /// media queries were: a browser whose default font is larger moves both alike.
        public var conditionsInEm: Bool

        public init(maximumViewport: Double? = nil, minimumViewport: Double? = nil, length: SizesLength, conditionsInEm: Bool = false) {
            self.maximumViewport = maximumViewport
            self.minimumViewport = minimumViewport
            self.length = length
            self.conditionsInEm = conditionsInEm
        }

        func applies(atViewport viewport: Double) -> Bool {
            (maximumViewport.map { viewport <= $0 } ?? true) && (minimumViewport.map { viewport >= $0 } ?? true)
        }

        var description: String {
            var conditions: [String] = []
            func bound(_ viewport: Double) -> String {
                conditionsInEm ? SizesLength.number(viewport / SizesValue.emPixels, decimals: 6) + "em" : SizesLength.number(viewport) + "px"
            }
            if let minimumViewport { conditions.append("(min-width: \(bound(minimumViewport)))") }
            if let maximumViewport { conditions.append("(max-width: \(bound(maximumViewport)))") }
            return (conditions.joined(separator: " and ") + " " + length.description).trimmingPrefix(" ")
        }
    }

    /// In the order the browser tries them.
    public var entries: [Entry]

    /// CSS px in an `em` of a media condition at the default font size browsers ship with
    /// (media conditions count `em` and `rem` against the browser's default font, not the
    /// page's).
    public static let emPixels = 16.0

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The width the browser takes at a viewport `viewport` CSS px wide: the first entry whose
    /// condition holds; nil when none does (a browser then uses 100vw).
    public func width(atViewport viewport: Double) -> Double? {
        entries.first { $0.applies(atViewport: viewport) }?.length.width(atViewport: viewport)
    }

    public var description: String { entries.map(\.description).joined(separator: ", ") }

    /// Reads a `sizes` attribute made of the parts dppx understands: `(max-width: N)` and
    /// `(min-width: N)` in px, em or rem (at the default 16 px), and both joined by `and`;
    /// lengths in px or vw, or `calc()` of one vw and one px term. A leading `auto` is skipped
    /// (browsers that know it use the layout, the rest the entries after it). Nil for anything
    /// else (em lengths, other features, `or`): dppx then does not claim to know what the
    /// attribute says.
    public init?(parsing text: String) {
        var entries: [Entry] = []
        let parts = SizesValue.splitTopLevel(text)
        for (index, rawPart) in parts.enumerated() {
            let part = rawPart.trimmed.lowercased()
            if index == 0, part == "auto", parts.count > 1 { continue }
            var entry = Entry(length: .pixels(0))
            var rest = Substring(part)
            while rest.hasPrefix("(") {
                guard let close = rest.firstIndex(of: ")") else { return nil }
                let feature = rest[rest.index(after: rest.startIndex)..<close].split(separator: ":", maxSplits: 1)
                guard feature.count == 2 else { return nil }
                let written = String(feature[1]).trimmed
                let value: Double
                if let pixels = SizesValue.pixels(written) {
                    value = pixels
                } else if let ems = SizesValue.ems(written) {
                    value = ems * SizesValue.emPixels
                    entry.conditionsInEm = true
                } else {
                    return nil
                }
                switch String(feature[0]).trimmed {
                case "max-width": entry.maximumViewport = value
                case "min-width": entry.minimumViewport = value
                default: return nil
                }
                rest = rest[rest.index(after: close)...].drop { $0 == " " }
                if rest.hasPrefix("and ") { rest = rest.dropFirst(4).drop { $0 == " " } }
            }
            guard let length = SizesValue.length(String(rest).trimmed) else { return nil }
            entry.length = length
            entries.append(entry)
        }
        guard !entries.isEmpty else { return nil }
        self.init(entries: entries)
    }

    private static func splitTopLevel(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case "," where depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    private static func pixels(_ text: String) -> Double? {
        guard text.hasSuffix("px"), let value = Double(text.dropLast(2)), value.isFinite else { return nil }
        return value
    }

    /// `48em` or `48rem` (in a media condition both count the browser's default font).
    private static func ems(_ text: String) -> Double? {
        let number = text.hasSuffix("rem") ? text.dropLast(3) : text.hasSuffix("em") ? text.dropLast(2) : nil
        guard let number, let value = Double(number), value.isFinite else { return nil }
        return value
    }

    private static func length(_ text: String) -> SizesLength? {
        if let value = pixels(text) { return .pixels(value) }
        if text.hasSuffix("vw"), let value = Double(text.dropLast(2)), value.isFinite { return .viewport(value) }
        guard text.hasPrefix("calc("), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(5).dropLast().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard inner.count == 3, inner[1] == "+" || inner[1] == "-" else { return nil }
        let sign = inner[1] == "-" ? -1.0 : 1.0
        if let vw = length(inner[0]), let px = length(inner[2]), vw.pixels == 0, px.perViewport == 0 {
            return SizesLength(perViewport: vw.perViewport, pixels: sign * px.pixels)
        }
        if let px = length(inner[0]), let vw = length(inner[2]), px.perViewport == 0, vw.pixels == 0 {
            return SizesLength(perViewport: sign * vw.perViewport, pixels: px.pixels)
        }
        return nil
    }
}

extension String {
    fileprivate var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed())
    }

    fileprivate func trimmingPrefix(_ prefix: Character) -> String {
        String(drop { $0 == prefix })
    }
}
