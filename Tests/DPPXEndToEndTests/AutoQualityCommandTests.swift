import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

@Suite("dppx build --quality auto on the command line")
struct AutoQualityCommandTests {
    @Test("--quality auto: the summary line and --json report what was written; with --compare-fixed also the bytes saved against the fixed defaults; the manifest records quality and score")
    func reportsSavings() async throws {
        let source = ScratchFolder("dppx-cli-auto")
        try TestImages.write(source("hero@2x.jpg"), width: 480, height: 320)
        let output = ScratchFolder("dppx-cli-auto-out")
        let human = try await DPPXBinary.run(["build", source.path, "--out", output.path, "--quality", "auto",
                                              "--quality-target", "75"], in: source.path)
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout.contains("quality auto: 3 variants,"), "\(human.stdout)")
        #expect(!human.stdout.contains("fixed qualities"), "no comparison unless asked for: \(human.stdout)")
        var manifest = try Manifest.decode(Array(Data(contentsOf: URL(fileURLWithPath: output(Manifest.fileName)))))
        // --quality-target alone moves the hidpi target with it: 75 at 1x, 60 at 2x, 65 at 1.5x.
        let targets = QualityTargets(standard: 75, hiDPI: nil, base: QualityTargets())
        #expect(targets.target(for: Density(2)) == 60)
        for variant in manifest.images[0].variants {
            #expect(variant.quality != nil && (variant.score ?? 0) >= targets.target(for: variant.density), "\(variant)")
            #expect(variant.fixedQualityBytes == nil, "\(variant)")
        }

        let compared = try await DPPXBinary.run(["build", source.path, "--out", output.path, "--quality", "auto",
                                                 "--quality-target", "75", "--compare-fixed"], in: source.path)
        #expect(compared.status == 0, "\(compared)")
        #expect(compared.stdout.contains("1 built"), "--compare-fixed searches again to measure: \(compared.stdout)")
        #expect(compared.stdout.contains("fixed qualities"), "\(compared.stdout)")
        manifest = try Manifest.decode(Array(Data(contentsOf: URL(fileURLWithPath: output(Manifest.fileName)))))
        #expect(manifest.images[0].variants.allSatisfy { $0.fixedQualityBytes != nil })

        let json = try await DPPXBinary.run(["build", source.path, "--out", output.path, "--quality", "auto",
                                             "--quality-target", "75", "--compare-fixed", "--json"], in: source.path)
        #expect(json.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(summary?["unchanged"] as? [String] == ["hero@2x.jpg"], "the same settings rebuild nothing")
        let auto = summary?["autoQuality"] as? [String: Any]
        let bytes = manifest.images[0].variants.reduce(0) { $0 + $1.bytes }
        #expect(auto?["variants"] as? Int == 3)
        #expect(auto?["bytes"] as? Int == bytes)
        #expect((auto?["fixedQualityBytes"] as? Int).map { $0 - bytes } == auto?["savedBytes"] as? Int)
    }

    @Test("variants no quality brings to their target are written at the top quality and named by the summary and --json")
    func missedTargets() async throws {
        let source = ScratchFolder("dppx-cli-auto-missed")
        try TestImages.write(source("hero@2x.jpg"), width: 480, height: 320)
        let output = ScratchFolder("dppx-cli-auto-missed-out")
        // JPEG at quality 100 scores in the 90s: a target of 99 at every density is out of its reach.
        let arguments = ["build", source.path, "--out", output.path, "--quality", "auto", "--quality-target", "99",
                         "--quality-target-hidpi", "99"]
        let human = try await DPPXBinary.run(arguments, in: source.path)
        #expect(human.status == 0, "\(human)")
        let manifest = try Manifest.decode(Array(Data(contentsOf: URL(fileURLWithPath: output(Manifest.fileName)))))
        // The master-size file is the master's own bytes: a re-encode under its target would be worse.
        #expect(manifest.images[0].variants.first { $0.path == "hero@2x.jpg" }?.masterBytes == true)
        let variants = manifest.images[0].variants.filter { $0.path != "hero@2x.jpg" }
        #expect(variants.count == 2 && variants.allSatisfy { $0.missesTarget && $0.quality == 100 && $0.target == 99 }, "\(variants)")
        let first = try #require(variants.first)
        let example = "such as \(first.path): \(String(format: "%.1f", first.score ?? 0)) for 99"
        #expect(human.stdout.contains("; 2 under their target at any quality (\(example))"), "\(human.stdout)")

        let json = try await DPPXBinary.run(arguments + ["--json"], in: source.path)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let missed = (summary?["autoQuality"] as? [String: Any])?["missedTarget"] as? [[String: Any]]
        #expect(missed?.compactMap { $0["path"] as? String } == variants.map(\.path))
        #expect(missed?.allSatisfy { $0["target"] as? Double == 99 && ($0["score"] as? Double ?? 100) < 99 } == true)

        // Within reach, the summary names none.
        let reachable = try await DPPXBinary.run(["build", source.path, "--out", output.path, "--quality", "auto"], in: source.path)
        #expect(reachable.stdout.contains("quality auto: 3 variants") && !reachable.stdout.contains("under"), "\(reachable.stdout)")
    }

    @Test("a quality that is neither a number nor auto, and a target out of range, are usage errors naming the flag", arguments: [
        (["--quality", "best"], "--quality"),
        (["--webp-quality", "0"], "--webp-quality must be between 1 and 100, or auto"),
        (["--quality-target", "101"], "--quality-target must be a score between 0 and 100"),
        (["--jxl-quality", "0"], "--jxl-quality must be between 1 and 100, or auto"),
        (["--jxl-quality", "best"], "--jxl-quality"),
    ])
    func usage(arguments: [String], hint: String) async throws {
        let folder = ScratchFolder("dppx-cli-auto-usage")
        let result = try await DPPXBinary.run(["build", "SRC", "--out", "OUT"] + arguments, in: folder.path)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(hint), "\(result)")
    }
}
