/// How a page paints an image's placeholder in its box: its colour, or its preview stretched to
/// cover the box (`cover`, so a box of another shape is filled) over that colour. The image
/// covers it as soon as it paints. A transparent image shows it through its transparent parts:
/// for those, ask for none, or use `.color` on a page whose background is that colour.
///
/// `dppx html` puts `declarations(for:)` in an inline style and `dppx css` the same values
/// beneath each class's variant backgrounds; a page rewriter can put the inline style on the
/// `<img>` tags it rewrites. An inline style is a style *attribute*: the page's own CSS can
/// override it with `!important`, or by not asking for one.
public enum PlaceholderStyle: String, CaseIterable, Codable, Sendable {
    /// `background-color: #rrggbb`.
    case color
    /// The preview data URI as a covering background, on the colour.
    case blur

    /// The inline declarations for `placeholder` (no trailing semicolon), or nil when it has
    /// nothing of this kind. `.blur` of an image with a colour only (an animation) is its colour.
    public func declarations(for placeholder: ImagePlaceholder?) -> String? {
        let color = Self.color(of: placeholder)
        guard self == .blur, let layer = Self.previewLayer(of: placeholder) else {
            return color.map { "background-color: \($0)" }
        }
        return "background: \(layer)\(color.map { " \($0)" } ?? "") 50% 50% / cover no-repeat"
    }

    /// The background layer this style adds beneath an image's own (`url(data:...)`), or nil
    /// (`.color`, or no preview).
    public func layer(for placeholder: ImagePlaceholder?) -> String? {
        self == .blur ? Self.previewLayer(of: placeholder) : nil
    }

    /// The colour as written in CSS, or nil when there is none (or it is not `#rrggbb`, as a
    /// hand-edited manifest's might not be: it is not written into a page).
    public static func color(of placeholder: ImagePlaceholder?) -> String? {
        guard let color = placeholder?.color, color.utf8.count == 7, color.hasPrefix("#"),
              color.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return color
    }

    /// The preview's data URI, or nil when there is none. A data URI of base64 characters only
    /// needs no quoting in `url()` and no escaping in an attribute; anything else (a
    /// hand-edited manifest) is not used.
    public static func preview(of placeholder: ImagePlaceholder?) -> String? {
        guard let uri = placeholder?.preview, uri.hasPrefix("data:image/"),
              uri.utf8.allSatisfy({ byte in
                  (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                      || ":;,+/=-".utf8.contains(byte)
              }) else { return nil }
        return uri
    }

    /// `url(data:image/webp;base64,...)`.
    private static func previewLayer(of placeholder: ImagePlaceholder?) -> String? {
        preview(of: placeholder).map { "url(\($0))" }
    }
}
