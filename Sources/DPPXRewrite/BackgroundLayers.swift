/// The layers of a `background` or `background-image` value (`linear-gradient(...), url(hero.jpg)
/// center / cover`), split at the commas between them (not those inside a function or a string),
/// each with its image as written: what lets one layer's `url()` become an `image-set()` while
/// every other layer is written again as it was.
struct BackgroundLayers: Sendable {
    /// One layer: its image (`url(hero.jpg)`, `linear-gradient(#0008, #0008)`, `none`), nil when
    /// the layer names none (a shorthand layer of only a colour or a position).
    struct Layer: Sendable {
        let image: String?
        /// For a `url()` image, its URL with CSS escapes decoded.
        let url: String?
    }

    let layers: [Layer]

    /// The functions that are images (`url()`, gradients, `image()`, `cross-fade()`...).
    private static let imageFunctions: Set<String> = ["url", "image", "image-set", "-webkit-image-set", "cross-fade", "element", "paint"]

    /// The layers of `value`; nil when it cannot be read as a list of layers without a browser's
    /// help (a `var()`, `env()` or `attr()` may stand for any number of them).
    init?(_ value: String) {
        let bytes = Array(value.utf8)
        var layers: [Layer] = []
        var image: Range<Int>?
        var depth = 0
        var functionStart: Int?
        var index = 0
        var tokenStart: Int?
        func endToken(at end: Int) {
            guard let start = tokenStart else { return }
            tokenStart = nil
            if image == nil, depth == 0, String(decoding: bytes[start..<end], as: UTF8.self).lowercased() == "none" { image = start..<end }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                endToken(at: index)
                index += 1
                while index < bytes.count, bytes[index] != byte { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                endToken(at: index)
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index += 1
            case UInt8(ascii: "\\"):
                if tokenStart == nil { tokenStart = index }
                index += 1
            case UInt8(ascii: "("):
                let name = tokenStart.map { String(decoding: bytes[$0..<index], as: UTF8.self).lowercased() } ?? ""
                if ["var", "env", "attr"].contains(name) { return nil }
                if depth == 0 {
                    functionStart = (Self.imageFunctions.contains(name) || name.hasSuffix("gradient")) && image == nil ? (tokenStart ?? index) : nil
                }
                tokenStart = nil
                depth += 1
                if name == "url" {
                    // An unquoted URL is one token up to its `)`.
                    var end = index + 1
                    while end < bytes.count, CSSDeclaration.isSpace(bytes[end]) { end += 1 }
                    if end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "'") {
                        while end < bytes.count, bytes[end] != UInt8(ascii: ")") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                        index = end - 1
                    }
                }
            case UInt8(ascii: ")"):
                endToken(at: index)
                depth = max(0, depth - 1)
                if depth == 0, let start = functionStart {
                    image = start..<min(index + 1, bytes.count)
                    functionStart = nil
                }
            case UInt8(ascii: ",") where depth == 0:
                endToken(at: index)
                layers.append(Self.layer(bytes, image))
                image = nil
            default:
                if CSSDeclaration.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") {
                    endToken(at: index)
                } else if tokenStart == nil {
                    tokenStart = index
                }
            }
            index += 1
        }
        endToken(at: bytes.count)
        if depth > 0, let start = functionStart { image = start..<bytes.count }
        layers.append(Self.layer(bytes, image))
        self.layers = layers
    }

    private static func layer(_ bytes: [UInt8], _ image: Range<Int>?) -> Layer {
        guard let image else { return Layer(image: nil, url: nil) }
        let text = String(decoding: bytes[image], as: UTF8.self)
        return Layer(image: text, url: text.lowercased().hasPrefix("url(") ? CSSDeclaration.urls(in: text).first : nil)
    }

    /// Each layer's image function, lowercased (`url`, `-webkit-linear-gradient`), `none` for a
    /// layer without an image: what the measuring script reports of the declaration a browser
    /// kept (`LayoutFile.Background.images`).
    var imageFunctions: [String] {
        layers.map { layer in
            guard let image = layer.image, let open = image.firstIndex(of: "(") else { return "none" }
            return image[..<open].lowercased()
        }
    }

    /// The `background-image` value of these layers with `replacement(i)` for the image of the
    /// layers it gives one for, every other image as written, `none` for a layer without one.
    func backgroundImage(replacing replacement: (Int) -> String?) -> String {
        layers.indices.map { replacement($0) ?? layers[$0].image ?? "none" }.joined(separator: ", ")
    }
}
