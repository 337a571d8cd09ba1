import DPPXTestSupport
import Foundation
import Testing

/// Runs the Makefile docs/css-and-html.md shows (Examples/Makefile) with the dppx under test.
@Suite("Examples/Makefile (end to end)", .serialized)
struct MakefileTests {
    static let makefile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path + "/Examples/Makefile"

    func make(_ scenario: RenderScenario, _ extra: [String] = []) async throws -> ExternalProcess.Result {
        guard let make = ExternalProcess.which("make") else { throw RenderScenario.ScenarioFailure(message: "make is not installed") }
        return try await ExternalProcess.run(make, ["-f", Self.makefile, "DPPX=\(DPPXBinary.path)", "SRC=src", "OUT=public/img",
                                              "CSS=public/css/images.css"] + extra, in: scenario.root)
    }

    /// The next `make` changes nothing and `make --question` says all is up to date.
    func expectSettled(_ scenario: RenderScenario, after step: String) async throws {
        let times = scenario.scratch.modificationTimes()
        let again = try await make(scenario)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("Nothing to be done"), "after \(step), a second make does nothing: \(again)")
        #expect(scenario.scratch.modificationTimes() == times, "after \(step), a second make rewrites no file")
        let question = try await make(scenario, ["--question"])
        #expect(question.status == 0, "after \(step), make --question says everything is up to date: \(question)")
    }

    @Test("make builds variants and CSS; a second make does nothing; a new master is picked up")
    func twice() async throws {
        let scenario = try RenderScenario()
        let first = try await make(scenario)
        #expect(first.status == 0, "\(first)")
        #expect(scenario.read("public/img/dppx-manifest.json") != nil)
        #expect(scenario.read("public/css/images.css")?.contains("url(\"../img/hero@2x.jpg\")") == true)
        try await expectSettled(scenario, after: "the first make")

        try TestImages.write(scenario.scratch("src/new@2x.jpg"), width: 60, height: 40)
        let third = try await make(scenario)
        #expect(third.status == 0, "\(third)")
        #expect(scenario.read("public/css/images.css")?.contains(".img-new {") == true)
        #expect(FileManager.default.fileExists(atPath: scenario.scratch("public/img/new@2x.jpg")), "the new master has its variants")
    }

    @Test("after a touch or a checkout of a master, make runs once and then settles")
    func touchAndCheckout() async throws {
        let scenario = try RenderScenario()
        _ = try await make(scenario)
        try scenario.age("public/img/.dppx-build.stamp")
        try scenario.age("public/img/.dppx-css.stamp")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: scenario.scratch("src/hero@2x.jpg"))
        let touched = try await make(scenario)
        #expect(touched.status == 0, "\(touched)")
        #expect(touched.stdout.contains("dppx"), "the touched master is looked at: \(touched)")
        try await expectSettled(scenario, after: "a touch")

        // A checkout replaces the file with the same bytes (a new file, a new time).
        let master = scenario.scratch("src/hero@2x.jpg")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: master))
        try FileManager.default.removeItem(atPath: master)
        try bytes.write(to: URL(fileURLWithPath: master))
        try scenario.age("public/img/.dppx-build.stamp")
        try scenario.age("public/img/.dppx-css.stamp")
        let checkedOut = try await make(scenario)
        #expect(checkedOut.status == 0, "\(checkedOut)")
        try await expectSettled(scenario, after: "a checkout")
    }

    @Test("a deleted master's variants and CSS rule go away on the next make, which then settles")
    func delete() async throws {
        let scenario = try RenderScenario()
        _ = try await make(scenario)
        #expect(FileManager.default.fileExists(atPath: scenario.scratch("public/img/icons/logo@2x.png")))
        try scenario.age("public/img/.dppx-build.stamp")
        try scenario.age("public/img/.dppx-css.stamp")
        try scenario.age("src/icons", seconds: 7200)
        try FileManager.default.removeItem(atPath: scenario.scratch("src/icons/logo@3x.png"))
        let after = try await make(scenario)
        #expect(after.status == 0, "\(after)")
        #expect(!FileManager.default.fileExists(atPath: scenario.scratch("public/img/icons/logo@2x.png")), "the deleted master's variants are gone")
        #expect(scenario.read("public/img/dppx-manifest.json")?.contains("logo") == false)
        #expect(scenario.read("public/css/images.css")?.contains(".img-icons-logo") == false, "its CSS rule is gone")
        try await expectSettled(scenario, after: "a delete")
    }
}
