import DPPXCore
import Testing

@Suite("Cookie header")
struct NegotiationCookieTests {
    @Test("finds a cookie among others, with or without spaces")
    func findsCookie() {
        #expect(CookieHeader(["a=1; dpr=2; b=3"])["dpr"] == "2")
        #expect(CookieHeader(["a=1;dpr=1.5;b=3"])["dpr"] == "1.5")
        #expect(CookieHeader(["a=1", "dpr=3"])["dpr"] == "3")
        #expect(CookieHeader(["dpr=\"2\""])["dpr"] == "2")
    }

    @Test("names are exact: a longer or differently cased name does not count")
    func exactNames() {
        #expect(CookieHeader(["xdpr=2; dprx=3; DPR=4"])["dpr"] == nil)
    }

    @Test("the first of two cookies with the same name wins")
    func firstWins() {
        #expect(CookieHeader(["dpr=2; dpr=3"])["dpr"] == "2")
    }

    @Test("garbage never crashes and yields nothing useful", arguments: [
        "", ";;;", "=", "=2", "dpr", "dpr=", ";dpr", String(repeating: "a=b;", count: 20_000),
    ])
    func garbage(line: String) {
        let value = CookieHeader([line])["dpr"]
        #expect(value == nil || value == "")
    }

    @Test("a huge header is read only up to the limit")
    func bounded() {
        let padding = String(repeating: "x", count: CookieHeader.maximumLength)
        #expect(CookieHeader(["pad=\(padding); dpr=2"])["dpr"] == nil)
    }
}
