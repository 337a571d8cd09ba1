extension Density {
    /// The longest hint value read: `2.625` needs five characters; anything much longer is noise
    /// or an attack, and is ignored rather than parsed.
    static let maximumHintLength = 16

    /// Reads a device pixel ratio sent by a client (`Sec-CH-DPR: 2`, `DPR: 1.5`, `?dpr=3`, a
    /// `dpr=2.625` cookie): a plain decimal number in (0, 10].
    ///
    /// Clients and proxies send all sorts of things; a hint that is not exactly a number in range
    /// (`abc`, `-1`, `0`, `NaN`, `1e400`, ``, `1, 2`, `2x`, a kilobyte of digits) is treated as
    /// absent, never as an error, so a bad hint can only cost the client the default variant.
    public init?(hint text: some StringProtocol) {
        // Bytes, not characters: this runs for every negotiated request.
        let bytes = Substring(text).utf8
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
              let last = bytes.lastIndex(where: { !isBlank($0) }) else { return nil }
        let body = bytes[first...last]
        guard body.count <= Self.maximumHintLength else { return nil }
        // Digits with at most one dot between digits: no sign, exponent, `x`, comma or letters.
        var dots = 0
        for character in body {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "."): dots += 1
            default: return nil
            }
        }
        guard dots <= 1, body.first != UInt8(ascii: "."), body.last != UInt8(ascii: "."),
              let density = Density(checkedDecimal: Substring(body))
        else { return nil }
        self = density
    }
}
