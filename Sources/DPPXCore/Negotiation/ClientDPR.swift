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
    /// which is malformed too.
    public init(query: String?, secCHDPR: [String], dpr: [String], cookies: CookieHeader) {
        var consulted: [DPRSource] = []
        func single(_ lines: [String]) -> Density? {
            lines.count == 1 ? Density(hint: lines[0]) : nil
        }
        let candidates: [(DPRSource, () -> Density?)] = [
            (.query, { query.flatMap { Density(hint: $0) } }),
            (.secCHDPR, { single(secCHDPR) }),
            (.dpr, { single(dpr) }),
            (.cookie, { cookies[DPRSource.cookieName].flatMap { Density(hint: $0) } }),
        ]
        for (source, read) in candidates {
            consulted.append(source)
            if let value = read() {
                self.init(value: value, source: source, consulted: consulted)
                return
            }
        }
        self.init(value: Density(1), source: .none, consulted: consulted)
    }

    /// Header names a cache must key on for this reading, in the order consulted.
    public var varyHeaders: [String] { consulted.compactMap(\.headerName) }
}
