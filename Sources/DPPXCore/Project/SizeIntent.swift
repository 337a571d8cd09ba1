/// Where an image's density or display size came from. Only a size the user stated lets the
/// server answer the image's URL with another density than the file's own: a page that was
/// never told about dppx must lay out exactly as it did from a plain static server.
public enum SizeIntent: String, Hashable, Sendable, Codable {
    /// An `@Nx` suffix in the master's name.
    case name
    /// A `[[rule]]` of the project file (`density` or `width`).
    case rule
    /// `--source-density`, or `source-density` in the project file.
    case option
    /// Nothing said: the master keeps its own size under its plain name, with a width ladder
    /// below it (never made denser or smaller in place).
    case `default`

    /// True when the user stated the size.
    public var isGiven: Bool { self != .default }
}
