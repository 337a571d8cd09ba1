import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// dppx's ThumbHash against an independent implementation: PyPI's `thumbhash`, in the test
/// environment `scripts/install-deps --test` makes.
@Suite("ThumbHash agrees with PyPI's thumbhash")
struct ThumbHashAgreementTests {
    /// Reads `[{"w", "h", "rgba"}]` from the JSON file its argument names; prints per image its
    /// hash (hex), the decoder's average colour and aspect ratio of dppx's hash (given as "ours"),
    /// one JSON line.
    ///
    /// thumbhash 0.1.2's encoder fails on images with alpha: a missing pair of parentheses makes
    /// its alpha channel a tuple (`a_dc, a_ac, a_scale = encode_channel(...) if has_alpha else
    /// 1.0, [], 1.0`). The script adds them to a copy of the source it runs, and nothing else.
    static let script = #"""
    import json, sys, inspect, thumbhash
    source = inspect.getsource(thumbhash)
    broken = "encode_channel(a, 5, 5) if has_alpha else 1.0, [], 1.0"
    if broken in source:
        namespace = {}
        exec(compile(source.replace(broken, "encode_channel(a, 5, 5) if has_alpha else (1.0, [], 1.0)"), "thumbhash", "exec"), namespace)
        encode = namespace["rgba_to_thumb_hash"]
    else:
        encode = thumbhash.rgba_to_thumb_hash
    out = []
    with open(sys.argv[1]) as file:
        images = json.load(file)
    for image in images:
        ours = list(bytes.fromhex(image["ours"]))
        out.append({
            "hash": bytes(encode(image["w"], image["h"], image["rgba"])).hex(),
            "average": list(thumbhash.thumb_hash_to_average_rgba(ours)),
            "ratio": thumbhash.thumb_hash_to_approximate_aspect_ratio(ours),
        })
    print(json.dumps(out))
    """#

    struct IndependentCheckFailed: Error, CustomStringConvertible {
        let description: String
    }

    struct Reading: Decodable {
        let hash: String
        let average: [Double]
        let ratio: Double
    }

    /// Runs the script on `images`.
    static func independent(_ images: [(width: Int, height: Int, rgba: [UInt8])]) throws -> [Reading] {
        let python = try TestVenv.python(importing: "thumbhash")
        let input = images.map { image -> [String: Any] in
            ["w": image.width, "h": image.height, "rgba": image.rgba.map(Int.init),
             "ours": hex(ThumbHash(width: image.width, height: image.height, rgba: image.rgba).bytes)]
        }
        let scratch = ScratchFolder("dppx-thumbhash")
        try JSONSerialization.data(withJSONObject: input).write(to: URL(fileURLWithPath: scratch("images.json")))
        let result = try ChildProcess.run(python, ["-c", script, scratch("images.json")])
        guard result.status == 0 else {
            throw IndependentCheckFailed(description: "python failed (\(result.termination)): \(result.stderr)")
        }
        // thumbhash's decoder prints the aspect ratio on its own: the JSON is the last line.
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode([Reading].self, from: Data(last.utf8))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Photo-like pixels (gradients and noise) in RGBA.
    static func photo(_ width: Int, _ height: Int, seed: UInt64, alpha: Bool = false) -> (width: Int, height: Int, rgba: [UInt8]) {
        let pixels = TestImages.photoPixels(width: width, height: height, bands: alpha ? 4 : 3, seed: seed)
        guard !alpha else { return (width, height, pixels) }
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 3) { rgba += [pixels[index], pixels[index + 1], pixels[index + 2], 255] }
        return (width, height, rgba)
    }

    @Test("opaque images of every shape encode to the same bytes")
    func opaque() throws {
        let images = [Self.photo(100, 75, seed: 1), Self.photo(48, 100, seed: 2), Self.photo(100, 100, seed: 3), Self.photo(100, 21, seed: 4),
                      Self.photo(7, 5, seed: 5), Self.photo(1, 1, seed: 6)]
        let readings = try Self.independent(images)
        for (image, reading) in zip(images, readings) {
            let ours = ThumbHash(width: image.width, height: image.height, rgba: image.rgba)
            #expect(Self.hex(ours.bytes) == reading.hash, "\(image.width)x\(image.height)")
        }
    }

    @Test("images with alpha encode to the same bytes")
    func transparent() throws {
        let images = [Self.photo(100, 60, seed: 7, alpha: true), Self.photo(30, 90, seed: 8, alpha: true)]
        let readings = try Self.independent(images)
        for (image, reading) in zip(images, readings) {
            let ours = ThumbHash(width: image.width, height: image.height, rgba: image.rgba)
            #expect(ours.hasAlpha)
            #expect(Self.hex(ours.bytes) == reading.hash, "\(image.width)x\(image.height)")
        }
    }

    @Test("its decoder reads dppx's hashes: the same aspect ratio, an average colour near the image's")
    func decoded() throws {
        let images = [Self.photo(100, 50, seed: 9), Self.photo(50, 100, seed: 10), Self.photo(80, 80, seed: 11, alpha: true)]
        let readings = try Self.independent(images)
        for (image, reading) in zip(images, readings) {
            let ours = ThumbHash(width: image.width, height: image.height, rgba: image.rgba)
            let ratio = Double(image.width) / Double(image.height)
            #expect(abs(reading.ratio - ours.approximateAspectRatio) < 1e-9)
            #expect(abs(reading.ratio - ratio) / ratio < 0.2)
            // The plain (sRGB) average of the pixels, by alpha, against the header's.
            var sums = [0.0, 0.0, 0.0], weight = 0.0
            for index in stride(from: 0, to: image.rgba.count, by: 4) {
                let alpha = Double(image.rgba[index + 3]) / 255
                for band in 0..<3 {
                    let value = Double(image.rgba[index + band]) / 255
                    sums[band] += alpha * value
                }
                weight += alpha
            }
            for band in 0..<3 {
                #expect(abs(reading.average[band] - sums[band] / weight) < 0.03, "band \(band) of \(image.width)x\(image.height)")
            }
        }
    }
}
