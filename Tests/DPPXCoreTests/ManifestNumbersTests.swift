import DPPXCore
import Foundation
import Testing

/// A manifest is data from the repository: numbers no build writes are refused when it is read,
/// with the field named, and nothing a manifest holds can make the variant choice trap.
@Suite struct ManifestNumbersTests {
    /// A hero in two formats and three densities, and a fluid card, every optional field set.
    static func sample() -> Manifest {
        var variants: [Manifest.Variant] = []
        for density in [Density(1), Density(1.5), Density(2)] {
            for format in [ImageFormat.jpeg, .webp] {
                let size = PixelSize(width: 400 * density.milli / 1000, height: 250 * density.milli / 1000)
                var variant = Manifest.Variant(path: "hero\(density.fileSuffix).\(format.fileExtension)", density: density,
                                               format: format, size: size, bytes: 1000 * density.milli / 1000, hash: "h")
                variant.recordSearch(.init(quality: 80, chroma: .subsampled, sharpYUV: true, score: 80.5, target: 80,
                                           fixedQualityBytes: 2000))
                variant.lossless = false
                variants.append(variant)
            }
        }
        var hero = Manifest.Image(source: "hero@2x.jpg", path: "hero.jpg", sourceHash: "s", sourceDensity: Density(2),
                                  cssSize: PixelSize(width: 400, height: 250), densityIndependent: false, intent: .name,
                                  skippedDensities: [Density(3)], variants: variants)
        hero.placeholder = ImagePlaceholder(color: "#123456", thumbHash: "abc", preview: "data:,", limitation: nil)
        let card = Manifest.Image(source: "card.jpg", path: "card.jpg", sourceHash: "c", sourceDensity: Density(1),
                                  cssSize: PixelSize(width: 960, height: 540), densityIndependent: false, fluid: true,
                                  intent: .rule, skippedDensities: [], variants: [480, 960].map { width in
                                      Manifest.Variant(path: "card-\(width)w.jpg", density: Density(milli: width * 1000 / 960),
                                                       format: .jpeg, size: PixelSize(width: width, height: width * 9 / 16),
                                                       bytes: width, hash: "c\(width)")
                                  })
        return Manifest(images: [hero, card])
    }

    static func decode(_ text: String) -> ManifestError? {
        do { _ = try Manifest.decode(Array(text.utf8)); return nil } catch { return error }
    }

    /// The sample's JSON with the first `old` (the last with `last`) replaced by `new`.
    static func sampleText(replacing old: String, with new: String, last: Bool = false) -> String {
        let text = String(decoding: sample().encoded(), as: UTF8.self)
        guard let range = text.range(of: old, options: last ? .backwards : []) else { return text }
        return text.replacingCharacters(in: range, with: new)
    }

    @Test("a width, height or byte count no image has is refused, naming the field and the range")
    func hugeSizes() throws {
        let width = try #require(Self.decode(Self.sampleText(replacing: "\"width\" : 400", with: "\"width\" : 9223372036854775807",
                                                             last: true)))
        #expect(width == .outOfRange(field: "images.1.width", value: Int.max, expected: "pixels from 0 to 1000000"))
        #expect(width.description.contains("images.1.width is 9223372036854775807"))
        #expect(width.description.contains("rebuild it with 'dppx build'"))
        let variantWidth = try #require(Self.decode(Self.sampleText(replacing: "\"width\" : 400", with: "\"width\" : 9223372036854775807")))
        #expect(variantWidth == .outOfRange(field: "images.1.variants.0.width", value: Int.max, expected: "pixels from 1 to 1000000"))
        let variant = try #require(Self.decode(Self.sampleText(replacing: "\"height\" : 375", with: "\"height\" : -1")))
        #expect(variant == .outOfRange(field: "images.1.variants.2.height", value: -1, expected: "pixels from 1 to 1000000"))
        let bytes = try #require(Self.decode(Self.sampleText(replacing: "\"bytes\" : 480", with: "\"bytes\" : 4611686018427387904")))
        #expect(bytes.description.contains("images.0.variants.0.bytes"))
        let quality = try #require(Self.decode(Self.sampleText(replacing: "\"quality\" : 80", with: "\"quality\" : 1000")))
        #expect(quality.description.contains("images.1.variants.0.quality is 1000"))
        #expect(Self.decode(String(decoding: Self.sample().encoded(), as: UTF8.self)) == nil, "the sample itself reads")
    }

    @Test("a density of 1e308, 0 or below is refused where it is read, naming the field")
    func hugeDensities() throws {
        let source = try #require(Self.decode(Self.sampleText(replacing: "\"sourceDensity\" : 2", with: "\"sourceDensity\" : 1e308")))
        #expect(source.description.contains("images.1.sourceDensity: expected a density from 0.001 to 1000000, but got 1e+308"), "\(source)")
        let variant = try #require(Self.decode(Self.sampleText(replacing: "\"density\" : 1.5", with: "\"density\" : -3")))
        #expect(variant.description.contains("images.1.variants.2.density"), "\(variant)")
        let zero = try #require(Self.decode(Self.sampleText(replacing: "\"density\" : 1.5", with: "\"density\" : 0.0001")))
        #expect(zero.description.contains("density"))
        let skipped = try #require(Self.decode(Self.sampleText(replacing: "3\n", with: "1e300\n")))
        #expect(skipped.description.contains("images.1.skippedDensities.0"), "\(skipped)")
    }

    @Test("a partial manifest's numbers are checked the same way")
    func partialManifest() throws {
        let partial = PartialManifest(shard: Shard(index: 1, of: 2)!, settings: "s", sources: "x", sourceCount: 2,
                                      masters: ["card.jpg"], images: Self.sample().images)
        let text = String(decoding: partial.encoded(), as: UTF8.self)
            .replacingOccurrences(of: "\"width\" : 960", with: "\"width\" : 92233720368547758")
        #expect(throws: ManifestError.outOfRange(field: "images.0.width", value: 92_233_720_368_547_758, expected: "pixels from 0 to 1000000")) {
            _ = try PartialManifest.decode(Array(text.utf8))
        }
    }

    @Test("a density made from any number saturates instead of trapping")
    func saturatingDensity() {
        #expect(Density(1e308).milli == 1_000_000_000_000_000)
        #expect(Density(-.infinity).milli == -1_000_000_000_000_000)
        #expect(Density(.nan).milli == 0)
        #expect(Density(1.5).milli == 1500)
    }

    @Test("the variant choice cannot trap on an image built in code with sizes no manifest may hold")
    func choiceOnHugeSizes() {
        let huge = Manifest.Variant(path: "a@2x.jpg", density: Density(milli: Int.max), format: .jpeg,
                                    size: PixelSize(width: Int.max, height: Int.max), bytes: Int.max, hash: "a")
        let one = Manifest.Variant(path: "a.jpg", density: Density(1), format: .jpeg, size: PixelSize(width: 3, height: 2),
                                   bytes: 1, hash: "b")
        let image = Manifest.Image(source: "a@2x.jpg", path: "a.jpg", sourceHash: "s", sourceDensity: Density(milli: Int.max),
                                   cssSize: PixelSize(width: Int.max, height: Int.max), densityIndependent: false, intent: .name,
                                   skippedDensities: [], variants: [one, huge])
        for dpr in ["1", "2", "3"] {
            let hints = ClientHints(query: nil, secCHDPR: [dpr], accept: ["image/webp,*/*"])
            #expect(VariantNegotiator.negotiate(image, hints: hints).choice != nil)
        }
    }

    /// A JSON value written as text, so numbers no encoder would write (`1e400`, `-0`, 2^64) can be.
    indirect enum JSON {
        case literal(String)
        case array([JSON])
        case object([(String, JSON)])

        var text: String {
            switch self {
            case .literal(let text): text
            case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
            case .object(let members): "{" + members.map { "\"\($0.0)\":\($0.1.text)" }.joined(separator: ",") + "}"
            }
        }

        init(_ value: Any) {
            switch value {
            case let dictionary as [String: Any]: self = .object(dictionary.keys.sorted().map { ($0, JSON(dictionary[$0]!)) })
            case let array as [Any]: self = .array(array.map(JSON.init))
            case let string as String: self = .literal("\"\(string)\"")
            case let number as NSNumber:
                self = .literal(String(cString: number.objCType) == "c" ? (number.boolValue ? "true" : "false") : number.stringValue)
            default: self = .literal("null")
            }
        }

        /// Paths to every leaf (index into arrays and objects alike).
        func leaves(_ prefix: [Int] = []) -> [[Int]] {
            switch self {
            case .literal: [prefix]
            case .array(let items): items.indices.flatMap { items[$0].leaves(prefix + [$0]) }
            case .object(let members): members.indices.flatMap { members[$0].1.leaves(prefix + [$0]) }
            }
        }

        func replacing(_ path: ArraySlice<Int>, with value: JSON) -> JSON {
            guard let first = path.first else { return value }
            switch self {
            case .literal: return value
            case .array(var items):
                items[first] = items[first].replacing(path.dropFirst(), with: value)
                return .array(items)
            case .object(var members):
                members[first].1 = members[first].1.replacing(path.dropFirst(), with: value)
                return .object(members)
            }
        }
    }

    static let hostileValues: [JSON] = [
        "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e308", "-1e308", "1e400", "5e-324",
        "0", "-0", "-1", "1", "2", "0.0005", "999999999999", "1000000", "1000001", "4.5", "true", "false", "null",
        "\"\"", "\"jpeg\"", "\"webp\"", "\"avif\"", "\"4:4:4\"", "\"name\"", "\"../x.jpg\"", "\"\\u0000\"", "[]", "{}", "[1e308]",
    ].map { .literal($0) } + [.array([.literal("9223372036854775807")]), .object([("width", .literal("-5"))])]

    @Test("fuzz: random JSON values in every field of a manifest never crash the decoder or the variant choice")
    func fuzz() throws {
        let object = try JSONSerialization.jsonObject(with: Data(Self.sample().encoded()))
        let template = JSON(object)
        let leaves = template.leaves()
        var generator = SeededNumbers(state: 0x5eed_0041)
        let hints = ["1", "1.5", "2", "3", "0.5"].flatMap { dpr in
            [ClientHints(query: nil, secCHDPR: [dpr], secCHWidth: ["700"], accept: ["image/avif,image/webp,*/*"]),
             ClientHints(query: nil, cookie: ["dpr=\(dpr); vw=300"], accept: ["image/jpeg"])]
        }
        let deadline = ContinuousClock.now + .seconds(20)
        var decoded = 0, iterations = 0
        while iterations < 4000, ContinuousClock.now < deadline {
            iterations += 1
            var json = template
            for _ in 0...generator.next(3) {
                let leaf = leaves[generator.next(leaves.count)]
                json = json.replacing(leaf[...], with: Self.hostileValues[generator.next(Self.hostileValues.count)])
            }
            guard let manifest = try? Manifest.decode(Array(json.text.utf8)) else { continue }
            decoded += 1
            for image in manifest.images {
                _ = image.formatsBySize
                _ = image.relocated(under: "assets")
                for hint in hints { _ = VariantNegotiator.negotiate(image, hints: hint) }
            }
        }
        #expect(iterations > 500, "the fuzz ran")
        #expect(decoded > 50, "some mutations are valid manifests, so the choice runs on them")
    }
}

/// A linear congruential generator: the same values on every run.
struct SeededNumbers {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
