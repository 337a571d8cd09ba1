/// Makes file paths and base URLs safe in every place dppx writes them: inside CSS
/// `url("...")`, in HTML attributes and in `srcset` lists (where a space or a comma would split
/// a URL in two).
public enum URLEncoding {
    /// Percent-encodes one path segment: everything but letters, digits, `-._~` and `@` (kept
    /// for readable `hero@2x.jpg`) becomes `%XX` of its UTF-8 bytes, so spaces, quotes,
    /// parentheses, commas and `&` cannot end a URL, a string or an attribute early.
    public static func encodeSegment(_ segment: some StringProtocol) -> String {
        var result = ""
        for byte in segment.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "@") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += percent(byte)
            }
        }
        return result
    }

    /// Percent-encodes each `/`-separated segment of a relative path; `.` and `..` stay.
    public static func encodePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0 == "." || $0 == ".." ? String($0) : encodeSegment($0) }
            .joined(separator: "/")
    }

    /// Makes a user's base URL safe without changing what it means: characters a URL may hold
    /// (`:/?#[]@!$&'*+,;=%` and unreserved ones) are kept, so existing `%XX` escapes and query
    /// strings survive; spaces, quotes, parentheses, `<>\^{|}` and backticks, control and
    /// non-ASCII characters are percent-encoded.
    public static func sanitizeBaseURL(_ url: String) -> String {
        var result = ""
        for byte in url.utf8 {
            if isUnreserved(byte) || keptInBase.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += percent(byte)
            }
        }
        return result
    }

    /// A CSS string literal in `quote` (`"` or `'`): the quote and `\` escaped, line breaks as
    /// `\a `, and `<` as `\3c `, so no text (a URL's query a page chose: `\3c/style\3e` decoded)
    /// can end the `<style>` element it is written into.
    public static func cssString(_ text: String, quote: Character = "\"") -> String {
        var result = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quote == "\"": result += "\\\""
            case "'" where quote == "'": result += "\\'"
            case "\\": result += "\\\\"
            case "\n": result += "\\a "
            case "\r": result += "\\d "
            case "\u{0C}": result += "\\c "
            case "<": result += "\\3c "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + String(quote)
    }

    /// `url("...")` for CSS (`url('...')` with `quote` `'`).
    public static func cssURL(_ url: String, quote: Character = "\"") -> String { "url(\(cssString(url, quote: quote)))" }

    private static let keptInBase: Set<UInt8> = Set(":/?#[]@!$&*+,;=%".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func percent(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}
