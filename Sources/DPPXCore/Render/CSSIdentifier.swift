/// Turns any text into a CSS identifier that matches that text exactly, so an image named
/// `2019 (old).jpg` still gets a class selector browsers accept.
///
/// Follows CSSOM's "serialize an identifier": a leading digit, a digit after a leading `-`, a
/// lone `-` and every character outside letters, digits, `-`, `_` and non-ASCII are escaped.
public enum CSSIdentifier {
    /// The escaped identifier, without the leading `.` of a class selector.
    public static func escape(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            if value == 0 {
                result.unicodeScalars.append("\u{FFFD}")
            } else if (0x01...0x1F).contains(value) || value == 0x7F {
                result += hexEscape(value)
            } else if index == 0, isDigit(value) {
                result += hexEscape(value)
            } else if index == 1, isDigit(value), scalars[0] == "-" {
                result += hexEscape(value)
            } else if index == 0, value == 0x2D, scalars.count == 1 {
                result += "\\-"
            } else if value >= 0x80 || value == 0x2D || value == 0x5F || isDigit(value) || isLetter(value) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\"
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `\31 ` for `1`: the trailing space ends the escape, so a following hex digit stays literal.
    private static func hexEscape(_ value: UInt32) -> String {
        "\\" + String(value, radix: 16) + " "
    }

    private static func isDigit(_ value: UInt32) -> Bool { (0x30...0x39).contains(value) }

    private static func isLetter(_ value: UInt32) -> Bool {
        (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
    }
}
