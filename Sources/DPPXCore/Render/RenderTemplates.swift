import Mustache

/// A checked, compiled set of templates of one kind, ready to render.
///
/// Checking happens here, once, so a broken template fails before any output is written, with
/// the file and line: Mustache syntax errors, partials that do not exist, variables dppx does
/// not provide, and a stylesheet that would be HTML-escaped.
public struct RenderTemplates: Sendable {
    public let kind: TemplateKind
    private let library: MustacheLibrary

    /// Compiles `sources`, which must hold every template of `kind` (others are ignored).
    public init(kind: TemplateKind, sources: [TemplateSource]) throws(TemplateError) {
        self.kind = kind
        let byName = Dictionary(sources.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var library = MustacheLibrary()
        for name in kind.templateNames {
            guard let source = byName[name] else {
                throw TemplateError(file: "\(name).\(TemplateKind.fileExtension)",
                                    problem: "is missing; the \(kind.rawValue) templates are \(kind.fileNames.joined(separator: ", "))")
            }
            let template: MustacheTemplate
            do {
                template = try MustacheTemplate(string: source.text)
            } catch let error as MustacheTemplate.ParserError {
                throw TemplateError(file: source.file, line: error.context.lineNumber, column: error.context.columnNumber,
                                    problem: Self.explain(error.error) + " (in: \(error.context.line.trimmingCharacters()))")
            } catch {
                throw TemplateError(file: source.file, problem: "cannot be parsed: \(error)")
            }
            try Self.check(source, kind: kind, isEntry: name == kind.templateNames[0])
            library.register(template, named: name)
        }
        self.library = library
    }

    /// Renders template `name` of this kind with `view` (one of dppx's view models).
    func render(_ name: String, _ view: Any) -> String {
        library.render(view, withTemplate: name) ?? ""
    }

    private static func check(_ source: TemplateSource, kind: TemplateKind, isEntry: Bool) throws(TemplateError) {
        // A template that changes its delimiters cannot be scanned; Mustache has parsed it.
        guard let tags = TemplateScanner.tags(in: source.text) else { return }
        let known = Set(kind.knownNames)
        var textContentTypeSet = false
        for tag in tags {
            switch tag.kind {
            case .pragma:
                let setting = tag.name.filter { !$0.isWhitespace }.uppercased()
                if setting == "CONTENT_TYPE:TEXT" { textContentTypeSet = true }
            case .partial:
                guard kind.templateNames.contains(tag.name) else {
                    throw TemplateError(file: source.file, line: tag.line,
                                        problem: "includes the partial '\(tag.name)', which is not a \(kind.rawValue) template; use one of \(kind.templateNames.joined(separator: ", "))")
                }
            case .variable:
                if isEntry, kind.entryNeedsTextContentType, !textContentTypeSet {
                    throw TemplateError(file: source.file, line: tag.line,
                                        problem: "uses {{\(tag.text)}} before {{%CONTENT_TYPE: TEXT}}; start the template with that line, or Mustache HTML-escapes the CSS (url(\"a.jpg\") would become url(&quot;a.jpg&quot;))")
                }
                guard tag.name.isEmpty || known.contains(tag.name) else {
                    throw TemplateError(file: source.file, line: tag.line,
                                        problem: "uses '\(tag.name)', which dppx does not provide to \(kind.rawValue) templates; available: \(kind.knownNames.sorted().joined(separator: ", "))")
                }
            case .other:
                break
            }
        }
    }

    private static func explain(_ error: any Error) -> String {
        guard let error = error as? MustacheTemplate.Error else { return "cannot be parsed: \(error)" }
        switch error {
        case .sectionCloseNameIncorrect: return "closes a section that is not the one open; each {{#name}} needs its {{/name}}"
        case .unfinishedName: return "has an unfinished tag or a character a tag name cannot hold; tags look like {{name}}"
        case .expectedSectionEnd: return "has a section that is never closed; add its {{/name}}"
        case .invalidSetDelimiter: return "has a malformed delimiter change; it looks like {{=<% %>=}}"
        case .transformAppliedToInheritanceSection: return "applies a transform to a block ({{$name}}), which Mustache does not allow"
        case .illegalTokenInsideInheritSection: return "has a tag other than {{$block}} inside a {{<parent}} section"
        case .textInsideInheritSection: return "has text inside a {{<parent}} section; only {{$block}} sections may be there"
        case .invalidConfigVariableSyntax: return "has a malformed pragma; it looks like {{%CONTENT_TYPE: TEXT}}"
        case .unrecognisedConfigVariable: return "has an unknown pragma; dppx templates use {{%CONTENT_TYPE: TEXT}} or {{%CONTENT_TYPE: HTML}}"
        }
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
