import DPPXBuild
import Foundation
import Testing

/// The templates compiled into dppx are exactly the repository's `Templates/`.
@Suite("Built-in templates")
struct BuiltInTemplatesTests {
    static let templatesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path + "/Templates"

    @Test("every file of Templates/ is built in, byte for byte, and nothing else")
    func sameAsTemplatesFolder() throws {
        var files: [String] = []
        let walker = try #require(FileManager.default.enumerator(atPath: Self.templatesFolder))
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".mustache") { files.append(path) }
        }
        #expect(TemplateLibrary.builtInFiles == files.sorted())
        for file in files {
            let text = try String(contentsOfFile: Self.templatesFolder + "/" + file, encoding: .utf8)
            #expect(TemplateLibrary.builtIn(file) == text, "\(file)")
        }
    }
}
