/// A request's device pixel ratio, where it came from, and every source looked at to find it:
/// the looked-at headers are the ones a response's `Vary` must name.
public struct ClientDPR: Sendable, Equatable {
    /// The ratio; 1 when nothing valid was sent.
    public let value: Density
    /// The source that decided.
    public let source: DPRSource
    /// Every source consulted, in order, ending with `source`.
    public let consulted: [DPRSource]

    public init(value: Density, source: DPRSource, consulted: [DPRSource]) {
        self.value = value
        self.source = source
        self.consulted = consulted
    }

    /// Reads the sources in order (`?dpr=`, `Sec-CH-DPR`, `DPR`, `dpr` cookie); the first valid
    /// one decides and anything malformed is skipped. A header sent more than once is a list,
    /// which is malformed too. `cookies` is read only when the earlier sources decide nothing.
    public init(query: String?, secCHDPR: [String], dpr: [String], cookies: @autoclosure () -> CookieHeader) {
        // Straight code rather than a list of sources to try: it runs for every negotiated request.
        if let value = query.flatMap({ Density(hint: $0) }) {
            self.init(value: value, source: .query, consulted: [.query])
        } else if secCHDPR.count == 1, let value = Density(hint: secCHDPR[0]) {
            self.init(value: value, source: .secCHDPR, consulted: [.query, .secCHDPR])
        } else if dpr.count == 1, let value = Density(hint: dpr[0]) {
            self.init(value: value, source: .dpr, consulted: [.query, .secCHDPR, .dpr])
        } else if let value = cookies()[DPRSource.cookieName].flatMap({ Density(hint: $0) }) {
            self.init(value: value, source: .cookie, consulted: [.query, .secCHDPR, .dpr, .cookie])
        } else {
            self.init(value: Density(1), source: .none, consulted: [.query, .secCHDPR, .dpr, .cookie])
        }
    }

    /// Header names a cache must key on for this reading, in the order consulted.
    public var varyHeaders: [String] { consulted.compactMap(\.headerName) }
}
