import DPPXCore

extension PageRewriter {
    /// `--placeholder`: the image's placeholder as the `<img>`'s inline style, so its box is
    /// painted until the image arrives. A style dppx wrote (the exact form `declarations(for:)`
    /// gives) follows a rebuild or another `--placeholder`; any other style is the author's and
    /// is left alone and reported. Images without a placeholder (SVG, transparent) get nothing.
    func placeholderEdit(_ placeholder: PlaceholderStyle, image: Manifest.Image, tag: HTMLTag,
                         added: inout [(name: String, value: String)], edits: inout ByteEdits, report: (String) -> Void) {
        guard let wanted = placeholder.declarations(for: image.placeholder) else { return }
        guard let style = tag.attribute("style") else {
            added.append(("style", wanted))
            return
        }
        guard style.value != wanted else { return }
        guard Self.isPlaceholderStyle(style.value), let range = style.writtenValue else {
            report("has a style of its own; left as it is, without its placeholder (remove the style to have dppx write one, or paint the placeholder in your CSS)")
            return
        }
        edits.replace(range, with: "\"" + Self.escapeAttribute(wanted) + "\"")
    }

    /// Whether `style` is exactly what `PlaceholderStyle.declarations(for:)` writes for some
    /// placeholder (`background-color: #rrggbb`, or the blur's `background: url(data:...) ...`):
    /// an inline style an earlier run wrote, never one an author would spell this way by chance.
    static func isPlaceholderStyle(_ style: String) -> Bool {
        let colorPrefix = "background-color: "
        if style.hasPrefix(colorPrefix) {
            return PlaceholderStyle.color.declarations(for: ImagePlaceholder(color: String(style.dropFirst(colorPrefix.count)))) == style
        }
        let open = "background: url(", tail = " 50% 50% / cover no-repeat"
        guard style.hasPrefix(open), style.hasSuffix(tail), let close = style.firstIndex(of: ")") else { return false }
        let preview = String(style[style.index(style.startIndex, offsetBy: open.count)..<close])
        let between = style[style.index(after: close)...].dropLast(tail.count)
        let color = between.isEmpty ? nil : String(between.dropFirst())
        return PlaceholderStyle.blur.declarations(for: ImagePlaceholder(color: color, preview: preview)) == style
    }
}
