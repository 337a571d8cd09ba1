/// A family of templates rendered together: the stylesheet (with its rule partials) or the
/// `<img>` / `<picture>` markup.
///
/// Each kind knows its template names (the files are `NAME.mustache`) and every variable its
/// templates may use, so a typo in a user's copy is reported instead of rendering as nothing.
public enum TemplateKind: String, Sendable, CaseIterable {
    case stylesheet
    case markup

    /// The extension of template files.
    public static let fileExtension = "mustache"

    /// Every template of the kind, the entry template first.
    public var templateNames: [String] {
        switch self {
        case .stylesheet: ["stylesheet", "rule", "image-set", "fluid"]
        case .markup: ["img", "picture", "preload"]
        }
    }

    /// `stylesheet.mustache`...
    public var fileNames: [String] { templateNames.map { "\($0).\(Self.fileExtension)" } }

    /// CSS must not be HTML-escaped (`url("a.jpg")` would become `url(&quot;a.jpg&quot;)`):
    /// the entry template has to switch Mustache to plain text first.
    var entryNeedsTextContentType: Bool { self == .stylesheet }

    /// The variables the templates of this kind can use.
    var knownNames: [String] {
        switch self {
        case .stylesheet: StylesheetView.variableNames
        case .markup: MarkupView.variableNames
        }
    }
}
