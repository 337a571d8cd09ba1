import Foundation

/// Why librsvg could not read an SVG's header, in words that name the real cause.
enum SVGHeaderFailure {
    /// libxml2, which librsvg parses with, refuses any attribute value or text longer than
    /// this (its XML_MAX_TEXT_LENGTH), and then reports an unrelated syntax error.
    static let parserValueLimit = 10_000_000

    static func explain(_ path: String, bytes: [UInt8], libvipsReason: String) -> ImagingError {
        let longest = bytes.withUnsafeBytes { longestValue(in: $0) }
        if longest > parserValueLimit {
            return ImagingError(file: path, reason: "has an attribute value or text of \(longest) bytes, and the SVG parser (libxml2, through librsvg) takes none over \(parserValueLimit), so its size cannot be read; keep large data, such as an embedded image, in a file of its own")
        }
        return ImagingError(file: path, reason: "is not an SVG librsvg can read (\(libvipsReason)); check that it is well-formed XML with an <svg> root")
    }

    /// The longest run of bytes between markup delimiters (`<`, `>`, quotes): the longest
    /// attribute value or text the parser would have to hold.
    static func longestValue(in bytes: UnsafeRawBufferPointer) -> Int {
        var longest = 0
        var run = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                longest = max(longest, run)
                run = 0
            default:
                run += 1
            }
        }
        return max(longest, run)
    }
}
