import DPPXTestSupport
import Foundation
import Testing

/// Runs the Makefile the README shows (Examples/Makefile) with the dppx under test.
@Suite("Examples/Makefile (end to end)", .serialized)
struct MakefileTests {
    static let makefile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path + "/Examples/Makefile"

    func make(_ scenario: RenderScenario, _ extra: [String] = []) async throws -> ExternalProcess.Result {
        guard let make = ExternalProcess.which("make") else { throw RenderScenario.ScenarioFailure(message: "make is not installed") }
        return try await ExternalProcess.run(make, ["-f", Self.makefile, "DPPX=\(DPPXBinary.path)", "SRC=src", "OUT=public/img",
                                              "CSS=public/css/images.css"] + extra, in: scenario.root)
    }

    @Test("make builds variants and CSS; a second make does nothing; a new master is picked up")
    func twice() async throws {
        let scenario = try RenderScenario()
        let first = try await make(scenario)
        #expect(first.status == 0, "\(first)")
        #expect(scenario.read("public/img/dppx-manifest.json") != nil)
        #expect(scenario.read("public/css/images.css")?.contains("url(\"../img/hero@2x.jpg\")") == true)
        #expect(scenario.read("public/css/images.css.d")?.contains("src/hero.jpg") == true)
        let times = scenario.scratch.modificationTimes()

        let second = try await make(scenario)
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("Nothing to be done"), "\(second)")
        #expect(scenario.scratch.modificationTimes() == times, "a second make must not rewrite any file")
        let question = try await make(scenario, ["--question"])
        #expect(question.status == 0, "make --question says everything is up to date: \(question)")

        try TestImages.write(scenario.scratch("src/new.jpg"), width: 60, height: 40)
        let third = try await make(scenario)
        #expect(third.status == 0, "\(third)")
        #expect(scenario.read("public/css/images.css")?.contains(".new {") == true)
        #expect(FileManager.default.fileExists(atPath: scenario.scratch("public/img/new@2x.jpg")), "the new master has its variants")
    }
}
