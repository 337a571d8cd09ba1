import DPPXTestSupport
import Foundation

/// A scratch folder with masters in `src/` made by libvips, for the `dppx css` and `dppx html`
/// tests: hero@2x.jpg (800x500: a 400x250 box), icons/logo@3x.png (96x96: 32x32) and an SVG.
struct RenderScenario {
    let scratch = ScratchFolder("dppx-render")

    var root: String { scratch.path }

    /// Set in every `dppx` this scenario runs (a test's `DPPX_BROWSER`), under what a call
    /// passes itself.
    var environment: [String: String?] = [:]

    init(masters: [String: (width: Int, height: Int)] = RenderScenario.defaultMasters, svg: Bool = true) throws {
        for (path, size) in masters {
            try TestImages.write(scratch("src/" + path), width: size.width, height: size.height, bands: path.hasSuffix(".png") ? 4 : 3)
        }
        if svg {
            try TestImages.writeBytes(Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24" fill="red"/></svg>"#.utf8),
                                      to: scratch("src/vector.svg"))
        }
    }

    static let defaultMasters: [String: (width: Int, height: Int)] = [
        "hero@2x.jpg": (800, 500),
        "icons/logo@3x.png": (96, 96),
    ]

    /// Runs `dppx` in the scratch folder.
    func dppx(_ arguments: String...) async throws -> ExternalProcess.Result {
        try await DPPXBinary.run(arguments, in: root, environment: environment)
    }

    func dppx(arguments: [String], environment: [String: String?] = [:]) async throws -> ExternalProcess.Result {
        try await DPPXBinary.run(arguments, in: root, environment: self.environment.merging(environment) { _, given in given })
    }

    /// Builds `src` into `out` (with `extra` build flags); throws when the build fails.
    @discardableResult
    func build(into out: String = "public", _ extra: [String] = []) async throws -> ExternalProcess.Result {
        let result = try await dppx(arguments: ["build", "src", "--out", out, "--quiet"] + extra)
        guard result.status == 0 else { throw ScenarioFailure(message: "dppx build failed: \(result)") }
        return result
    }

    func read(_ relative: String) -> String? {
        try? String(contentsOfFile: scratch(relative), encoding: .utf8)
    }

    func write(_ text: String, to relative: String) throws {
        try FileManager.default.createDirectory(atPath: (scratch(relative) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: scratch(relative), atomically: true, encoding: .utf8)
    }

    func modificationDate(_ relative: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: scratch(relative)))?[.modificationDate] as? Date
    }

    /// Sets a file's modification time into the past, so a rewrite would show.
    func age(_ relative: String, seconds: Double = 3600) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: scratch(relative))
    }

    struct ScenarioFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
