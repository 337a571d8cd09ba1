import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

/// A build writes and removes files only inside OUT: not through a manifest that names other
/// places, not through symbolic links inside OUT, and never over a master.
@Suite("Writes and removals stay inside the output folder")
struct OutputSafetyTests {
    /// Rewrites the manifest on disk with `edit` applied to its first image.
    func editManifest(_ fixture: BuildFixture, _ edit: (inout Manifest.Image) -> Void) throws {
        var manifest = try fixture.manifestOnDisk()
        edit(&manifest.images[0])
        try AtomicFile.write(manifest.encoded(), to: fixture.output(Manifest.fileName))
    }

    @Test("a manifest variant path with '..' is refused with a warning, and the file it names is not removed")
    func manifestTraversal() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 100, height: 50)
        try fixture.build()
        let victim = fixture.output.path + "/../victim-\(UUID().uuidString.prefix(6)).txt"
        try TestImages.writeBytes(Array("keep me".utf8), to: victim)
        defer { try? FileManager.default.removeItem(atPath: victim) }
        try editManifest(fixture) { image in
            var extra = image.variants[0]
            extra.path = "../" + (victim as NSString).lastPathComponent
            image.variants.append(extra)
        }
        let (report, told) = try fixture.buildTellingWarnings()
        #expect(FileManager.default.fileExists(atPath: victim), "a file outside OUT was removed")
        let warning = try #require(report.warnings.first { $0.file.hasSuffix(Manifest.fileName) }?.reason, "\(report.warnings)")
        #expect(warning.contains("not a path inside the output folder"), "\(warning)")
        #expect(told.contains { $0.file.hasSuffix(Manifest.fileName) && $0.reason == warning }, "the warning is told, not only recorded: \(told)")
        #expect(report.removed.isEmpty)
    }

    @Test("a previous manifest with a width of 2^63-1 or a density of 1e308 is not used, with a warning naming the field; everything is rebuilt")
    func manifestHugeNumbers() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a@2x.jpg"), width: 100, height: 50)
        try fixture.build()
        let text = try String(contentsOfFile: fixture.output(Manifest.fileName), encoding: .utf8)
        for (old, new, field) in [("\"sourceDensity\" : 2", "\"sourceDensity\" : 1e308", "images.0.sourceDensity"),
                                  ("\"width\" : 50", "\"width\" : 9223372036854775807", "images.0.")] {
            try TestImages.writeBytes(Array(text.replacingOccurrences(of: old, with: new).utf8), to: fixture.output(Manifest.fileName))
            let (report, told) = try fixture.buildTellingWarnings()
            let warning = try #require(told.first { $0.file.hasSuffix(Manifest.fileName) }, "\(told)")
            #expect(warning.reason.contains(field) && warning.reason.contains("rebuilding everything"), "\(warning)")
            #expect(report.built == ["a@2x.jpg"])
        }
    }

    @Test("absolute manifest paths are refused too")
    func manifestAbsolutePath() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 100, height: 50)
        try fixture.build()
        let victim = ScratchFolder("dppx-victim")
        try TestImages.writeBytes(Array("keep me".utf8), to: victim("victim.txt"))
        try editManifest(fixture) { image in
            var extra = image.variants[0]
            extra.path = victim("victim.txt")
            image.variants.append(extra)
        }
        let report = try fixture.build()
        #expect(FileManager.default.fileExists(atPath: victim("victim.txt")))
        #expect(report.warnings.contains { $0.reason.contains("not a path inside the output folder") }, "\(report.warnings)")
    }

    @Test("an orphan the manifest lists is removed only if it is still the file dppx wrote")
    func orphanMustBeOurs() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 100, height: 50)
        try fixture.build()
        try TestImages.writeBytes(Array("<h1>mine</h1>".utf8), to: fixture.output("index.html"))
        try editManifest(fixture) { image in
            var extra = image.variants[0]
            extra.path = "index.html"
            image.variants.append(extra)
        }
        let report = try fixture.build()
        #expect(FileManager.default.fileExists(atPath: fixture.output("index.html")), "a file dppx did not write was removed")
        #expect(report.warnings.contains { $0.reason.contains("index.html") && $0.reason.contains("not removed") }, "\(report.warnings)")
    }

    @Test("an orphan the manifest lists behind a symbolic link in OUT is not removed; the warning names the link")
    func orphanBehindLink() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 100, height: 50)
        try fixture.build()
        // The file dppx wrote, byte for byte, but now reached through OUT/sub, a link elsewhere.
        let elsewhere = ScratchFolder("dppx-elsewhere")
        let variant = try fixture.manifestOnDisk().images[0].variants[0]
        try TestImages.writeBytes(try AtomicFile.read(fixture.output(variant.path)), to: elsewhere(variant.path))
        try FileManager.default.createSymbolicLink(atPath: fixture.output("sub"), withDestinationPath: elsewhere.path)
        try editManifest(fixture) { image in
            var extra = image.variants[0]
            extra.path = "sub/" + variant.path
            image.variants.append(extra)
        }
        let report = try fixture.build()
        #expect(FileManager.default.fileExists(atPath: elsewhere(variant.path)), "a file was removed through a link")
        #expect(report.warnings.contains { $0.reason.contains(fixture.output("sub")) && $0.reason.contains("symbolic link") }, "\(report.warnings)")
    }

    @Test("a folder in OUT that is a symbolic link to elsewhere is refused, naming the link; nothing is written there")
    func linkedSubfolder() throws {
        let fixture = BuildFixture()
        let elsewhere = ScratchFolder("dppx-elsewhere")
        try TestImages.write(fixture.source("sub/pic.jpg"), width: 100, height: 50)
        try TestImages.write(fixture.source("top.jpg"), width: 100, height: 50)
        try FileManager.default.createDirectory(atPath: fixture.output.path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.output("sub"), withDestinationPath: elsewhere.path)
        let report = try fixture.build()
        #expect(elsewhere.files(includingHidden: true).isEmpty, "variants were written through the link: \(elsewhere.files())")
        let reason = try #require(report.failures.first { $0.file == "sub/pic.jpg" }?.reason, "\(report.failures)")
        #expect(reason.contains(fixture.output("sub")) && reason.contains("symbolic link"), "\(reason)")
        #expect(report.built == ["top.jpg"])
    }

    @Test("a variant file that is a symbolic link is replaced by the variant; its target is untouched")
    func linkedVariantFile() throws {
        let fixture = BuildFixture()
        let elsewhere = ScratchFolder("dppx-elsewhere")
        try TestImages.writeBytes(Array("precious".utf8), to: elsewhere("precious.txt"))
        try TestImages.write(fixture.source("pic.jpg"), width: 100, height: 50)
        try FileManager.default.createDirectory(atPath: fixture.output.path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.output("pic@2x.jpg"), withDestinationPath: elsewhere("precious.txt"))
        let report = try fixture.build()
        #expect(report.succeeded, "\(report.failures)")
        #expect(try AtomicFile.read(elsewhere("precious.txt")) == Array("precious".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.output("pic@2x.jpg"))
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test("stale temporary files are removed only inside OUT, not in folders linked from it")
    func staleTemporariesStayInside() throws {
        let fixture = BuildFixture()
        let elsewhere = ScratchFolder("dppx-elsewhere")
        try TestImages.writeBytes([1], to: elsewhere(AtomicFile.temporaryPrefix + "theirs"))
        try TestImages.writeBytes([1], to: fixture.output(AtomicFile.temporaryPrefix + "ours"))
        try FileManager.default.createSymbolicLink(atPath: fixture.output("linked"), withDestinationPath: elsewhere.path)
        try TestImages.write(fixture.source("a.jpg"), width: 100, height: 50)
        try fixture.build()
        #expect(FileManager.default.fileExists(atPath: elsewhere(AtomicFile.temporaryPrefix + "theirs")))
        #expect(!FileManager.default.fileExists(atPath: fixture.output(AtomicFile.temporaryPrefix + "ours")))
    }

    @Test("a master that is a link to a file inside OUT is refused (a warning by default, a link out of SRC; a failure where such links are allowed); the file is not overwritten")
    func masterLinkedIntoOutput() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.output("kept/pic@2x.jpg"), width: 100, height: 50)
        let inOutput = try AtomicFile.read(fixture.output("kept/pic@2x.jpg"))
        try FileManager.default.createDirectory(atPath: fixture.source("kept"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: fixture.source("kept/pic@2x.jpg"), withDestinationPath: fixture.output("kept/pic@2x.jpg"))
        try TestImages.write(fixture.source("other.jpg"), width: 100, height: 50)
        let refused = try fixture.build()
        #expect(refused.failures.isEmpty && refused.warnings.map(\.file) == ["kept/pic@2x.jpg"], "\(refused.warnings)")
        #expect(try AtomicFile.read(fixture.output("kept/pic@2x.jpg")) == inOutput)
        var options = fixture.options()
        options.allowsLinksOutOfSource = true
        let report = try Builder(options: options).run()
        #expect(report.failures.map(\.file) == ["kept/pic@2x.jpg"], "\(report.failures)")
        #expect(report.failures.first?.reason.contains("inside the output folder") == true)
        #expect(try AtomicFile.read(fixture.output("kept/pic@2x.jpg")) == inOutput)
        #expect(refused.built == ["other.jpg"])
    }

    @Test("a source folder inside the output folder is refused before anything is written")
    func sourceInsideOutput() throws {
        let root = ScratchFolder("dppx-nested")
        try TestImages.write(root("o/a/a/pic@2x.jpg"), width: 100, height: 50)
        try TestImages.write(root("o/a/pic@2x.jpg"), width: 80, height: 40, seed: 9)
        let before = root.modificationTimes()
        let masters = try [root("o/a/a/pic@2x.jpg"), root("o/a/pic@2x.jpg")].map { try AtomicFile.read($0) }
        let options = BuildOptions(sourceRoot: root("o/a"), outputRoot: root("o"), jobs: 1)
        #expect(throws: BuildError.self) { try Builder(options: options).run() }
        do {
            _ = try Builder(options: options).run()
        } catch {
            #expect(error.description.contains("inside the output folder"), "\(error)")
        }
        #expect(try [root("o/a/a/pic@2x.jpg"), root("o/a/pic@2x.jpg")].map { try AtomicFile.read($0) } == masters)
        #expect(root.modificationTimes() == before)
    }
}
