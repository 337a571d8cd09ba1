/// The text of one template and the file it came from (named in error messages). DPPXCore
/// never reads files: the caller loads the text.
public struct TemplateSource: Hashable, Sendable {
    /// The name partials refer to it by: `rule` for `{{>rule}}`.
    public let name: String
    /// Where it was read from, as the user should see it: `Templates/rule.mustache`.
    public let file: String
    public let text: String

    public init(name: String, file: String, text: String) {
        self.name = name
        self.file = file
        self.text = text
    }
}
