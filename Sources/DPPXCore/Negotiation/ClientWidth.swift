/// How many device pixels wide a fluid image should be for a request, where that came from,
/// and every request header looked at to find it (what `Vary` must name).
///
/// Read in order, the first valid one deciding:
/// 1. `Sec-CH-Width`: the image's layout width in device pixels (Chromium sends it for an
///    `<img>` with `sizes` once the page opted in with `Accept-CH`);
/// 2. `Sec-CH-Viewport-Width` (CSS px) times the request's DPR (`ClientDPR`): a background
///    or an `<img>` without `sizes` is at most the viewport wide;
/// 3. the `vw` cookie `/_dppx/dpr.js` sets (the viewport in CSS px) times the DPR, for
///    browsers without client hints;
/// 4. nothing: `defaultDevicePixels`, a full-HD screen, so a client that says nothing gets a
///    sharp image without the largest file of a very large master.
public struct ClientWidth: Sendable, Equatable {
    /// Where the width came from.
    public enum Source: String, Sendable, CustomStringConvertible {
        case secCHWidth, viewportWidth, cookie, none

        public var description: String {
            switch self {
            case .secCHWidth: "Sec-CH-Width"
            case .viewportWidth: "Sec-CH-Viewport-Width x DPR"
            case .cookie: "\(ClientWidth.cookieName) cookie x DPR"
            case .none: "default"
            }
        }
    }

    /// Device pixels the image should have.
    public let devicePixels: Int
    public let source: Source
    /// The request headers consulted, in order: what `Vary` names.
    public let varyHeaders: [String]
    /// True when a cookie (the width's or the DPR's) decided: caches cannot key on it well.
    public let isPrivate: Bool

    /// The cookie `/_dppx/dpr.js` keeps the viewport width in, in CSS px.
    public static let cookieName = "vw"
    /// The width needed when the client said nothing: a 1920 px wide screen at DPR 1.
    public static let defaultDevicePixels = 1920
    /// The largest width read from a hint; anything above is noise and ignored.
    public static let maximumHint = 100_000

    /// Reads the hints of one request; `dpr` is its device pixel ratio, as read for density
    /// images. Malformed values (not a whole number in 1...`maximumHint`, or sent twice) are
    /// treated as absent.
    public init(secCHWidth: [String], viewportWidth: [String], dpr: ClientDPR, cookies: @autoclosure () -> CookieHeader) {
        let width = "Sec-CH-Width", viewport = "Sec-CH-Viewport-Width"
        func scaled(_ cssPixels: Int) -> Int { (cssPixels * dpr.value.milli + 999) / 1000 }
        func union(_ headers: [String]) -> [String] {
            var result: [String] = []
            for header in headers where !result.contains(header) { result.append(header) }
            return result
        }
        if secCHWidth.count == 1, let pixels = Self.pixels(secCHWidth[0]) {
            self.init(devicePixels: pixels, source: .secCHWidth, varyHeaders: [width], isPrivate: false)
        } else if viewportWidth.count == 1, let css = Self.pixels(viewportWidth[0]) {
            self.init(devicePixels: scaled(css), source: .viewportWidth, varyHeaders: union([width, viewport] + dpr.varyHeaders),
                      isPrivate: dpr.source == .cookie)
        } else if let css = cookies()[Self.cookieName].flatMap({ Self.pixels($0) }) {
            self.init(devicePixels: scaled(css), source: .cookie, varyHeaders: union([width, viewport, "Cookie"] + dpr.varyHeaders),
                      isPrivate: true)
        } else {
            self = .unknown
        }
    }

    public init(devicePixels: Int, source: Source, varyHeaders: [String], isPrivate: Bool) {
        self.devicePixels = devicePixels
        self.source = source
        self.varyHeaders = varyHeaders
        self.isPrivate = isPrivate
    }

    /// What a client that sent nothing gets; its answer still varies on every source read.
    public static let unknown = ClientWidth(devicePixels: defaultDevicePixels, source: .none,
                                            varyHeaders: ["Sec-CH-Width", "Sec-CH-Viewport-Width", "Cookie"], isPrivate: false)

    /// A width hint: ASCII digits only (blanks around allowed), 1...`maximumHint`; else nil.
    static func pixels(_ text: some StringProtocol) -> Int? {
        let body = text.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let trimmed = body.reversed().drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.reversed()
        guard !trimmed.isEmpty, trimmed.count <= 6 else { return nil }
        var value = 0
        for byte in trimmed {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return (1...maximumHint).contains(value) ? value : nil
    }
}
