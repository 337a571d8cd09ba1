import DPPXBuild
import DPPXCore
import Mustache

/// The inspector page's template, `server/inspector.mustache`, found through `TemplateLibrary`
/// (a `--templates` folder first, then dppx's own `Templates/`).
struct InspectorTemplate: Sendable {
    static let name = "server/inspector"

    let template: MustacheTemplate
    /// The file it was read from.
    let file: String

    /// Reads and compiles the template; the error names the file and what to do.
    static func load(templatesFolder: String?) throws(TemplateError) -> InspectorTemplate {
        let library = try TemplateLibrary.locate(override: templatesFolder)
        let source = try library.source(named: name)
        do {
            return InspectorTemplate(template: try MustacheTemplate(string: source.text), file: source.file)
        } catch let error as MustacheTemplate.ParserError {
            throw TemplateError(file: source.file, line: error.context.lineNumber, column: error.context.columnNumber,
                                problem: "cannot be parsed: \(error.error)")
        } catch {
            throw TemplateError(file: source.file, problem: "cannot be parsed: \(error)")
        }
    }

    func render(_ view: InspectorView) -> String {
        template.render(view)
    }
}
