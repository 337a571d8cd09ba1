/// The tables of the project file: `[build]`, `[css]`, `[html]`, `[serve]`, `[rewrite]`, and
/// the `[[rule]]` elements.
public enum ProjectTable: String, CaseIterable, Sendable {
    case build, css, html, serve, rewrite, rule
}
