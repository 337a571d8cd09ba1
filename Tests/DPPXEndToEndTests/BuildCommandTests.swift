import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

@Suite("dppx build on the command line")
struct BuildCommandTests {
    func sources() throws -> ScratchFolder {
        let source = ScratchFolder("dppx-cli-src")
        try TestImages.write(source("hero@2x.jpg"), width: 400, height: 250)
        try TestImages.write(source("icons/logo@3x.png"), width: 90, height: 90, bands: 4)
        return source
    }

    @Test("builds, prints a line per image and a summary, then does nothing the second time")
    func buildsAndRebuilds() async throws {
        let source = try sources()
        let output = ScratchFolder("dppx-cli-out")
        let first = try await DPPXBinary.run(["build", source.path, "--out", output.path], in: source.path)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("built hero@2x.jpg (3 files)"))
        #expect(first.stdout.contains("2 images: 2 built, 0 unchanged"))
        #expect(first.stderr.isEmpty, "\(first)")
        #expect(output.files() == ["dppx-manifest.json", "hero.jpg", "hero@1.5x.jpg", "hero@2x.jpg",
                                   "icons/logo.png", "icons/logo@1.5x.png", "icons/logo@2x.png"])
        let second = try await DPPXBinary.run(["build", source.path, "--out", output.path], in: source.path)
        #expect(second.status == 0)
        #expect(second.stdout.contains("2 images: 0 built, 2 unchanged"))
    }

    @Test("DPPX_VIPS_VECTOR=0 turns libvips's ORC code off: its slightly other pixels are another build's, so everything is rebuilt, and again without it")
    func vectorCodeIsPartOfTheSettings() async throws {
        let source = try sources()
        let output = ScratchFolder("dppx-cli-out")
        let arguments = ["build", source.path, "--out", output.path]
        let plain = try await DPPXBinary.run(arguments, in: source.path, environment: ["VIPS_NOVECTOR": nil, "DPPX_VIPS_VECTOR": nil])
        #expect(plain.status == 0 && plain.stdout.contains("2 images: 2 built, 0 unchanged"), "\(plain)")
        let scalar = try await DPPXBinary.run(arguments, in: source.path, environment: ["VIPS_NOVECTOR": nil, "DPPX_VIPS_VECTOR": "0"])
        #expect(scalar.status == 0 && scalar.stdout.contains("2 images: 2 built, 0 unchanged"), "\(scalar)")
        let again = try await DPPXBinary.run(arguments, in: source.path, environment: ["VIPS_NOVECTOR": nil, "DPPX_VIPS_VECTOR": nil])
        #expect(again.status == 0 && again.stdout.contains("2 images: 2 built, 0 unchanged"), "\(again)")
        let unchanged = try await DPPXBinary.run(arguments, in: source.path, environment: ["VIPS_NOVECTOR": nil, "DPPX_VIPS_VECTOR": nil])
        #expect(unchanged.stdout.contains("2 images: 0 built, 2 unchanged"), "\(unchanged)")
    }

    @Test("OUT holds only the variants and the manifest; the cache goes to .dppx-cache in the working folder, or to --cache-dir")
    func buildStateOutsideOutput() async throws {
        let project = ScratchFolder("dppx-cli-project")
        try TestImages.write(project("src/hero@2x.jpg"), width: 400, height: 250)
        let first = try await DPPXBinary.run(["build", "src", "--out", "public/img"], in: project.path)
        #expect(first.status == 0, "\(first)")
        #expect(project.files(includingHidden: true).filter { $0.hasPrefix("public/") }
                == ["public/img/dppx-manifest.json", "public/img/hero.jpg", "public/img/hero@1.5x.jpg", "public/img/hero@2x.jpg"])
        #expect(project.files(includingHidden: true).contains(".dppx-cache/.gitignore"))
        #expect(project.files(includingHidden: true).contains { $0.hasPrefix(".dppx-cache/img-") && $0.hasSuffix(".json") })
        let elsewhere = try await DPPXBinary.run(["build", "src", "--out", "public/img", "--cache-dir", "state"], in: project.path)
        #expect(elsewhere.stdout.contains("1 image: 1 built, 0 unchanged"), "a new cache folder knows no settings: everything is rebuilt once: \(elsewhere)")
        #expect(project.files(includingHidden: true).contains { $0.hasPrefix("state/img-") })
    }

    @Test("bad masters: one line each on stderr naming the file, the rest built, exit 1")
    func badInput() async throws {
        let source = try sources()
        try TestImages.writeBytes(Array("not an image".utf8), to: source("broken.png"))
        try TestImages.writeBytes([], to: source("sub/empty.jpg"))
        // libvips warns ("not enough data") about a PNG cut after its signature.
        try TestImages.writeBytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], to: source("cut.png"))
        // Two masters that would write the same files: found before any is built.
        try TestImages.write(source("logo.png"), width: 40, height: 40)
        try TestImages.write(source("logo@2x.png"), width: 80, height: 80)
        let output = ScratchFolder("dppx-cli-out")
        let result = try await DPPXBinary.run(["build", source.path, "--out", output.path], in: source.path)
        #expect(result.status == 1, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        let errors = lines.filter { $0.hasPrefix("dppx: error: ") }
        #expect(errors.contains { $0.contains("broken.png: is not an image") })
        #expect(errors.contains { $0.contains("sub/empty.jpg: is empty") })
        #expect(errors.contains { $0.contains("cut.png: could not be read") && $0.contains("not enough data") })
        #expect(errors.contains { $0.contains("logo.png: would write the same files as logo@2x.png (such as logo.png)") }, "\(result.stderr)")
        #expect(errors.contains { $0.contains("logo@2x.png: would write the same files as logo.png (such as logo.png)") }, "\(result.stderr)")
        #expect(result.stderr.contains("5 images failed; the rest were built"))
        // Nothing but dppx's own lines: libvips's warnings are part of the error they explain.
        #expect(lines.allSatisfy { $0.hasPrefix("dppx: ") }, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output("hero@2x.jpg")))
    }

    @Test("a stated 1x for many masters is one note in the summary, not a warning per master")
    func statedDensityNote() async throws {
        let scenario = try RenderScenario(masters: ["icons/a.png": (40, 40), "icons/b.png": (40, 40), "icons/c.png": (40, 40)], svg: false)
        try scenario.write("[build]\nsource = \"src\"\nout = \"public\"\n[[rule]]\nmatch = \"icons/**\"\ndensity = 1\n", to: "dppx.toml")
        let result = try await scenario.dppx("build")
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let notes = result.stdout.split(separator: "\n").filter { $0.contains("does not upscale") }
        #expect(notes == ["note: 3 masters stated at their density (such as icons/a.png, 1x) get no denser files (1.5x, 2x): dppx does not upscale; --upscale writes them"], "\(result.stdout)")
        #expect(result.stdout.contains("\npublic holds ") && result.stdout.contains(" of masters ("), "what OUT holds against the masters: \(result.stdout)")
        let json = try await scenario.dppx("build", "--json")
        #expect(json.stdout.contains("\"notUpscaled\" : [\n    \"icons/a.png\",\n    \"icons/b.png\",\n    \"icons/c.png\""), "\(json.stdout)")
        #expect(json.stdout.contains("\"masterBytes\" : ") && json.stdout.contains("\"outputBytes\" : ") && json.stdout.contains("\"notSmaller\" : ["), "\(json.stdout)")
    }

    @Test("--recompress-png, or recompress-png = true in dppx.toml, re-encodes a PNG master's own-size file; without it, the summary names those it would shrink")
    func recompressPNG() async throws {
        let project = ScratchFolder("dppx-cli-recompress")
        let pixels = TestImages.photoPixels(width: 240, height: 160, alpha: 255)
        try TestImages.writePixels(pixels, width: 240, height: 160, bands: 4, to: project("src/shot@2x.png"))
        let plain = try await DPPXBinary.run(["build", "src", "--out", "out"], in: project.path)
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.contains("\nnote: 1 own-size PNG file is its master's bytes (such as shot@2x.png), with an alpha band that is opaque everywhere: --recompress-png re-encodes it without it, usually smaller"), "\(plain.stdout)")
        let kept = try Data(contentsOf: URL(fileURLWithPath: project("out/shot@2x.png")))

        let flagged = try await DPPXBinary.run(["build", "src", "--out", "out", "--recompress-png", "--json"], in: project.path)
        #expect(flagged.status == 0, "\(flagged)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(flagged.stdout.utf8)) as? [String: Any])
        #expect(summary["built"] as? [String] == ["shot@2x.png"] && summary["recompressible"] as? [String] == [], "\(flagged.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: project("out/shot@2x.png"))).count < kept.count)

        try TestImages.writeBytes(Array("[build]\nsource = \"src\"\nout = \"out\"\nrecompress-png = true\n".utf8), to: project("dppx.toml"))
        let fromFile = try await DPPXBinary.run(["build"], in: project.path)
        #expect(fromFile.stdout.contains("1 image: 0 built, 1 unchanged"), "the project file's key is the flag: \(fromFile)")
        let overridden = try await DPPXBinary.run(["build", "--no-recompress-png"], in: project.path)
        #expect(overridden.stdout.contains("1 image: 1 built, 0 unchanged") && overridden.stdout.contains("--recompress-png re-encodes it"), "\(overridden)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: project("out/shot@2x.png"))) == kept)
    }

    @Test("usage errors exit 2 with a hint, before any work", arguments: [
        (["build", "SRC"], "--out"),
        (["build", "SRC", "--out", "OUT", "--densities", "1,two"], "'1,two'"),
        (["build", "SRC", "--out", "OUT", "--formats", "bmp"], "'bmp'"),
        (["build", "SRC", "--out", "OUT", "--jobs", "0"], "--jobs"),
        (["build", "SRC", "--out", "OUT", "--quality", "101"], "--quality"),
        (["build", "SRC", "--out", "OUT", "--source-density", "-2"], "--source-density"),
        (["frobnicate"], "frobnicate"),
        (["css", "DIR", "--prefix", ".img-"], "--prefix img-"),
        (["build", "SRC", "--out", "OUT", "--frobnicate"], "'--frobnicate'"),
    ])
    func usage(arguments: [String], hint: String) async throws {
        let folder = ScratchFolder("dppx-cli-usage")
        let result = try await DPPXBinary.run(arguments, in: folder.path)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(hint), "\(result)")
        #expect(result.stderr.hasPrefix("dppx: error: "), "a usage error starts like every other error: \(result.stderr)")
        #expect(!result.stderr.contains("Error:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(folder.files(includingHidden: true).isEmpty, "nothing was written")
    }

    @Test("a missing source folder is wrong usage, exit 2, with its name")
    func missingSource() async throws {
        let folder = ScratchFolder("dppx-cli-missing")
        let result = try await DPPXBinary.run(["build", "no-such-folder", "--out", "out"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no-such-folder: no such file or folder"))
    }

    @Test("--json prints only a JSON summary on stdout; --quiet prints nothing when all is well")
    func machineOutput() async throws {
        let source = try sources()
        let output = ScratchFolder("dppx-cli-out")
        let json = try await DPPXBinary.run(["build", source.path, "--out", output.path, "--json", "--formats", "webp"], in: source.path)
        #expect(json.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(summary?["built"] as? [String] == ["hero@2x.jpg", "icons/logo@3x.png"])
        #expect(summary?["variants"] as? Int == 12)
        #expect((summary?["failures"] as? [Any])?.isEmpty == true)
        let quiet = try await DPPXBinary.run(["build", source.path, "--out", output.path, "--quiet"], in: source.path)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    @Test("help explains every flag with an example")
    func help() async throws {
        let folder = ScratchFolder("dppx-cli-help")
        let root = try await DPPXBinary.run(["--help"], in: folder.path)
        #expect(root.status == 0)
        for command in ["build", "css", "html", "serve"] { #expect(root.stdout.contains(command)) }
        let version = try await DPPXBinary.run(["--version"], in: folder.path)
        let lines = version.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].split(separator: ".").count == 3, "the version alone on the first line: \(version.stdout)")
        #expect(lines.last?.contains("Apache License, Version 2.0") == true, "the licence on the second: \(version.stdout)")
        let build = try await DPPXBinary.run(["build", "--help"], in: folder.path)
        for flag in ["--out", "--densities", "--source-density", "--formats", "--upscale", "--max-pixels", "--fail-on", "--jobs",
                     "--quality", "--webp-quality", "--avif-quality", "--png-compression", "--quiet", "--json"] {
            #expect(build.stdout.contains(flag), "\(flag) is documented")
        }
        #expect(build.stdout.contains("dppx build Examples --out Public"))
        let jobs = try #require(build.stdout.range(of: "--jobs")).upperBound
        let jobsHelp = String(build.stdout[jobs...]).components(separatedBy: "--quality")[0]
        #expect(jobsHelp.components(separatedBy: "default").count == 2, "--jobs states its default once: \(jobsHelp)")
        // Each default is the one the build uses, declared once with the setting.
        let flat = build.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in [SettingRegistry.jpegQuality, SettingRegistry.webpQuality, SettingRegistry.avifQuality] {
            #expect(flat.contains("(default: \(setting.fallback))"), "--\(setting.key) states its default")
        }
        #expect(flat.contains("--png-compression <N> PNG compression level, 0 (fast) to 9 (small) (default: 6)."))
    }

    @Test("--help paragraphs are wrapped by the terminal's width, never broken mid-sentence; examples fit on their lines",
          arguments: [[], ["init"], ["build"], ["merge"], ["css"], ["html"], ["serve"]])
    func helpParagraphs(command: [String]) async throws {
        let folder = ScratchFolder("dppx-cli-help")
        let help = try await DPPXBinary.run(command + ["--help"], in: folder.path, environment: ["COLUMNS": "80"])
        let overview = help.stdout.components(separatedBy: "USAGE:")[0]
        for paragraph in overview.components(separatedBy: "\n\n") {
            let lines = paragraph.split(separator: "\n")
            if let heading = lines.first, heading == "Examples:" || heading == "Typical use:" {
                for line in lines.dropFirst() { #expect(line.hasPrefix("  dppx"), "'\(line)' is an example cut in two") }
                continue
            }
            for (line, next) in zip(lines, lines.dropFirst()) {
                // A line cut short is followed by a word that would have fitted on it
                // (ArgumentParser fills lines up to 79 columns).
                let firstWord = next.split(separator: " ").first ?? ""
                #expect(line.count + 1 + firstWord.count > 79, "'\(line)' breaks before '\(firstWord)' in dppx \(command) --help")
            }
        }
    }

    @Test("killed with SIGKILL at random moments, the next run completes: every output decodes, no temporary files")
    func killed() async throws {
        let source = ScratchFolder("dppx-kill-src")
        for index in 0..<6 {
            try TestImages.write(source("photo\(index).png"), width: 1200, height: 800, seed: UInt64(index))
        }
        let output = ScratchFolder("dppx-kill-out")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4 {
            let process = try ChildProcess(DPPXBinary.path, ["build", source.path, "--out", output.path, "--quiet", "--formats", "webp"])
            let pause = UInt32.random(in: 50_000...600_000, using: &generator)
            try await offPool {
                usleep(pause)
                process.stop()
            }
        }
        let final = try await DPPXBinary.run(["build", source.path, "--out", output.path, "--formats", "webp"], in: source.path)
        #expect(final.status == 0, "\(final)")
        #expect(!output.files(includingHidden: true).contains { $0.contains(".dppx-tmp-") })
        let manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output("dppx-manifest.json")))))
        #expect(manifest.images.count == 6)
        for variant in manifest.images.flatMap(\.variants) {
            let file = try DecodedFile(output(variant.path))
            #expect(file.width == variant.width && file.height == variant.height)
        }
        #expect(Set(output.files()) == Set(manifest.images.flatMap { $0.variants.map(\.path) } + ["dppx-manifest.json"]))
    }
}
