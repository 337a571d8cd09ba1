import DPPXCore
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

@Suite("dppx build --webp-effort")
struct WebPEffortCommandTests {
    @Test("--webp-effort reaches libwebp: the file is the encoder's at that effort, smaller at 6 than at the default; changing it rebuilds")
    func effort() async throws {
        let source = ScratchFolder("dppx-webp-effort-src")
        try TestImages.write(source("photo@2x.png"), width: 640, height: 400)
        let output = ScratchFolder("dppx-webp-effort-out")
        let arguments = ["build", source.path, "--out", output.path, "--formats", "webp"]
        let webp = output("photo@2x.webp")

        let byDefault = try await DPPXBinary.run(arguments, in: source.path)
        #expect(byDefault.status == 0 && byDefault.stdout.contains("1 image: 1 built"), "\(byDefault)")
        let defaultBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: webp)))
        let six = try await DPPXBinary.run(arguments + ["--webp-effort", "6"], in: source.path)
        #expect(six.status == 0 && six.stdout.contains("1 image: 1 built"), "another effort is another build: \(six)")
        let sixBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: webp)))
        #expect(sixBytes.count < defaultBytes.count, "effort 6: \(sixBytes.count) bytes, 4: \(defaultBytes.count)")

        // The 2x file holds the master's own pixels: it is libwebp's encode of them at effort 6.
        let master = try MasterImage(path: source("photo@2x.png"), limits: DecodeLimits(maxPixels: 1_000_000))
        let decoded = try master.decode()
        let pixels = try decoded.resized(to: PixelSize(width: 640, height: 400))
        var settings = EncodeSettings()
        settings.webpEffort = 6
        #expect(try Encoder.encode(pixels, as: .webp, settings: settings, losslessSource: true, file: "photo") == sixBytes)
        settings.webpEffort = SettingRegistry.webpEffort.fallback
        #expect(try Encoder.encode(pixels, as: .webp, settings: settings, losslessSource: true, file: "photo") == defaultBytes)

        let again = try await DPPXBinary.run(arguments + ["--webp-effort", "6"], in: source.path)
        #expect(again.stdout.contains("1 image: 0 built, 1 unchanged"), "\(again)")
    }

    @Test("an effort out of 0 to 6, on the command line or in dppx.toml, is a usage error naming it")
    func outOfRange() async throws {
        let folder = ScratchFolder("dppx-webp-effort-usage")
        let flag = try await DPPXBinary.run(["build", "SRC", "--out", "OUT", "--webp-effort", "7"], in: folder.path)
        #expect(flag.status == 2, "\(flag)")
        #expect(flag.stderr.contains("--webp-effort must be between 0 and 6"), "\(flag)")
        try "[build]\nsource = \"SRC\"\nout = \"OUT\"\nwebp-effort = -1\n".write(toFile: folder("dppx.toml"), atomically: true, encoding: .utf8)
        let file = try await DPPXBinary.run(["build"], in: folder.path)
        #expect(file.status != 0, "\(file)")
        #expect(file.stderr.contains("webp-effort must be between 0 and 6"), "\(file)")
    }
}
