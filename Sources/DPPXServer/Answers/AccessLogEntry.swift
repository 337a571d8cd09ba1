import DPPXCore

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
        self.target = TerminalText.printable(target)
        self.status = status
        self.bytes = bytes
        self.variant = variant.map { TerminalText.printable($0) }
        self.duration = duration
        self.aborted = aborted
    }

    public var description: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line (without its timestamp or line break) to `bytes`: the one way it is
    /// written, byte by byte into the log's buffer with no string made on the way.
    public func append(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: target.utf8)
        bytes.append(UInt8(ascii: " "))
        Self.appendDecimal(status, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        if let size = self.bytes { Self.appendDecimal(size, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: " B ".utf8)
        let micro = Int(clamping: duration.components.seconds &* 1_000_000 &+ duration.components.attoseconds / 1_000_000_000_000)
        Self.appendDecimal(micro / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        Self.appendDecimal(micro % 1000 / 100, to: &bytes)
        bytes.append(contentsOf: " ms".utf8)
        if let variant {
            bytes.append(contentsOf: " -> ".utf8)
            bytes.append(contentsOf: variant.utf8)
        }
        if aborted { bytes.append(contentsOf: " (client went away)".utf8) }
    }

    /// `2026-11-28T10:00:00Z`: the time a line is logged at, UTC, to the second.
    static func timestamp(_ seconds: Int) -> String {
        let date = HTTPDate.civil(seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day))T\(two(date.hour)):\(two(date.minute)):\(two(date.second))Z"
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value != 0 else { bytes.append(UInt8(ascii: "0")); return }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }
}
