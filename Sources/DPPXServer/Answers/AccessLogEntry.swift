/// One access-log line: `GET /images/hero.jpg 200 48213 B 2.1 ms -> /images/hero@2x.jpg`.
public struct AccessLogEntry: Sendable, Equatable, CustomStringConvertible {
    public var method: String
    /// The request target as sent (path and query), control characters escaped.
    public var target: String
    public var status: Int
    /// Body bytes sent; nil when the response failed before its body.
    public var bytes: Int?
    /// The negotiated variant's URL (`Content-Location`), nil when nothing was negotiated.
    public var variant: String?
    public var duration: Duration
    /// True when the client went away before the body was complete.
    public var aborted: Bool = false

    public init(method: String, target: String, status: Int, bytes: Int?, variant: String?, duration: Duration, aborted: Bool = false) {
        self.method = method
        self.target = Self.printable(target)
        self.status = status
        self.bytes = bytes
        self.variant = variant.map(Self.printable)
        self.duration = duration
        self.aborted = aborted
    }

    public var description: String {
        let size = bytes.map { "\($0) B" } ?? "- B"
        var line = "\(method) \(target) \(status) \(size) \(Self.milliseconds(duration)) ms"
        if let variant { line += " -> \(variant)" }
        if aborted { line += " (client went away)" }
        return line
    }

    static func milliseconds(_ duration: Duration) -> String {
        let micro = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return "\(micro / 1000).\(micro % 1000 / 100)"
    }

    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
