import DPPXCore
import Testing

@Suite("Device pixel ratio hints")
struct NegotiationDPRTests {
    @Test("a decimal in (0, 10] is read", arguments: [
        ("1", 1000), ("1.5", 1500), ("2", 2000), ("2.625", 2625), ("3", 3000), ("10", 10000),
        (" 2 ", 2000), ("0.5", 500), ("1.25", 1250), ("02", 2000),
    ])
    func validHints(text: String, milli: Int) {
        #expect(Density(hint: text)?.milli == milli)
    }

    @Test("anything else is absent, never an error", arguments: [
        "abc", "-1", "0", "0.0", "0.0001", "NaN", "nan", "inf", "Infinity", "1e400", "1e2", "",
        " ", "1,2", "1, 2", "2;q=1", "2x", "+2", ".5", "2.", "1..5", "1.5.2", "10.001", "11",
        "0x2", "２", "2\u{0}", "\"2\"", String(repeating: "1", count: 10_000),
        "1." + String(repeating: "0", count: 100),
    ])
    func malformedHints(text: String) {
        #expect(Density(hint: text) == nil)
    }

    @Test("sources are consulted in order: query, Sec-CH-DPR, DPR, cookie")
    func sourceOrder() {
        let cookie = CookieHeader(["dpr=3"])
        let all = ClientDPR(query: "1.5", secCHDPR: ["2"], dpr: ["2.5"], cookies: cookie)
        #expect(all.value == Density(1.5))
        #expect(all.source == .query)
        #expect(all.varyHeaders == [])

        let hint = ClientDPR(query: nil, secCHDPR: ["2"], dpr: ["2.5"], cookies: cookie)
        #expect(hint.source == .secCHDPR)
        #expect(hint.value == Density(2))
        #expect(hint.varyHeaders == ["Sec-CH-DPR"])

        let legacy = ClientDPR(query: nil, secCHDPR: [], dpr: ["2.5"], cookies: cookie)
        #expect(legacy.source == .dpr)
        #expect(legacy.varyHeaders == ["Sec-CH-DPR", "DPR"])

        let fromCookie = ClientDPR(query: nil, secCHDPR: [], dpr: [], cookies: cookie)
        #expect(fromCookie.source == .cookie)
        #expect(fromCookie.value == Density(3))
        #expect(fromCookie.varyHeaders == ["Sec-CH-DPR", "DPR", "Cookie"])
    }

    @Test("nothing valid means density 1, after looking at every header")
    func defaultIsOne() {
        let none = ClientDPR(query: nil, secCHDPR: [], dpr: [], cookies: CookieHeader([]))
        #expect(none.value == Density(1))
        #expect(none.source == .none)
        #expect(none.varyHeaders == ["Sec-CH-DPR", "DPR", "Cookie"])
    }

    @Test("a malformed source is skipped and the next one decides")
    func malformedSkipped() {
        let dpr = ClientDPR(query: "abc", secCHDPR: ["NaN"], dpr: ["-1"], cookies: CookieHeader(["dpr=2"]))
        #expect(dpr.source == .cookie)
        #expect(dpr.value == Density(2))
    }

    @Test("a hint header sent twice is a list, which is ignored")
    func repeatedHeaderIgnored() {
        let dpr = ClientDPR(query: nil, secCHDPR: ["2", "3"], dpr: ["1.5"], cookies: CookieHeader([]))
        #expect(dpr.source == .dpr)
        #expect(dpr.value == Density(1.5))
    }
}
