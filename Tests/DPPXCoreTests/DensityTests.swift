import DPPXCore
import Testing

@Suite("Densities")
struct DensityTests {
    @Test("parses numbers and x-suffixed numbers", arguments: [
        ("1", 1000), ("1.5", 1500), ("2x", 2000), ("2.625", 2625), ("3X", 3000), ("10", 10000), ("0.5", 500),
    ])
    func parses(text: String, milli: Int) {
        #expect(Density(parsing: text)?.milli == milli)
    }

    @Test("rejects what is not a density in (0, 10]", arguments: [
        "", "x", "abc", "-1", "0", "0.0", "NaN", "inf", "1e400", "1e2", "11", "1,5", "1.5.2", ".5", "2.", "1 ", " 1",
        String(repeating: "1", count: 40),
    ])
    func rejects(text: String) {
        #expect(Density(parsing: text) == nil)
    }

    @Test("prints the shortest form and the file suffix")
    func prints() {
        #expect(Density(1).description == "1")
        #expect(Density(1.5).description == "1.5")
        #expect(Density(2.625).description == "2.625")
        #expect(Density(1).fileSuffix == "")
        #expect(Density(1.5).fileSuffix == "@1.5x")
        #expect(Density(3).fileSuffix == "@3x")
    }

    @Test("lists are sorted, de-duplicated, and errors name the bad entry")
    func lists() throws {
        #expect(try Density.parseList("2,1, 1.5,2") == [Density(1), Density(1.5), Density(2)])
        #expect(throws: DensityListError(entry: "abc")) { try Density.parseList("1,abc") }
        #expect(throws: DensityListError(entry: "")) { try Density.parseList("1,,2") }
        #expect(DensityListError(entry: "0").description.contains("but got '0'"))
    }

    @Test("JSON keeps whole densities as integers")
    func json() throws {
        let manifest = Manifest(images: [])
        #expect(String(decoding: manifest.encoded(), as: UTF8.self).contains("\"version\" : 1"))
    }
}
