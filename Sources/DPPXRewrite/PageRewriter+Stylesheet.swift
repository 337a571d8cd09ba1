import DPPXCore
import Foundation

extension PageRewriter {
    /// The stylesheet `bytes`, at `path` relative to the root, rewritten: after each
    /// `background-image` or `background` declaration whose one `url()` is a density image, a
    /// `background-image: image-set(...)` with its densities (extra formats first, with
    /// `type()`). The original stays before it as the fallback of browsers that reject the
    /// new one; `image-set()` divides each file by its density, so the painted size is the
    /// 1x file's. Fluid images are reported: their size comes from the page.
    public func rewriteCSS(_ bytes: [UInt8], at path: String) -> RewriteResult {
        var edits = ByteEdits()
        var findings: [RewriteFinding] = []
        var rewritten = 0
        let declarations = CSSDeclaration.all(in: bytes)
        for (index, declaration) in declarations.enumerated() {
            guard declaration.property == "background" || declaration.property == "background-image",
                  !declaration.value.lowercased().contains("image-set(") else { continue }
            let urls = declaration.urls
            let references = urls.compactMap { ImageReference($0, pagePath: path, images: images, baseURL: options.baseURL) }
            guard let reference = references.first else { continue }
            let report = { (message: String) in
                findings.append(RewriteFinding(file: path, line: RewriteFinding.line(of: declaration.range.lowerBound, in: bytes), message: message))
            }
            guard urls.count == 1 else {
                report("\(declaration.property) has \(urls.count) images; only a single image is given an image-set(), left as it is")
                continue
            }
            if reference.entry.image.isFluid {
                report("url(\(reference.written)) is fluid: its size comes from the page, so no image-set() is added; use dppx css's width media queries for it")
                continue
            }
            guard reference.primary.count > 1 else { continue }
            let important = declaration.value.lowercased().replacingOccurrences(of: " ", with: "").hasSuffix("!important")
            let text = "background-image: " + Self.imageSet(reference) + (important ? " !important" : "")
            rewritten += 1
            // A following image-set() of this image's files is the one an earlier run wrote.
            if index + 1 < declarations.count {
                let next = declarations[index + 1]
                if next.property == "background-image", next.value.lowercased().hasPrefix("image-set("),
                   reference.owns(next.urls, pagePath: path, images: images, baseURL: options.baseURL),
                   !bytes[declaration.end..<next.range.lowerBound].contains(UInt8(ascii: "}")) {
                    let current = String(decoding: bytes[next.range], as: UTF8.self)
                    if current != text { edits.replace(next.range, with: text) }
                    continue
                }
            }
            let separator = declaration.indentation.map { (Self.lineBreak(in: bytes)) + $0 } ?? " "
            if declaration.hasSemicolon {
                edits.replace(declaration.end..<declaration.end, with: separator + text + ";")
            } else {
                edits.replace(declaration.range.upperBound..<declaration.range.upperBound, with: ";" + separator + text)
            }
        }
        return RewriteResult(bytes: edits.isEmpty ? bytes : edits.applied(to: bytes), findings: findings, imagesRewritten: rewritten)
    }

    /// `image-set(url("hero.avif") type("image/avif") 1x, ..., url("hero.jpg") 1x, url("hero@2x.jpg") 2x)`.
    static func imageSet(_ reference: ImageReference) -> String {
        var options: [String] = []
        for (format, candidates) in reference.candidates.extra {
            for candidate in candidates {
                options.append("\(URLEncoding.cssURL(candidate.url)) type(\"\(format.mediaType)\") \(candidate.density)x")
            }
        }
        for candidate in reference.primary {
            options.append("\(URLEncoding.cssURL(reference.url(of: candidate))) \(candidate.density)x")
        }
        return "image-set(" + options.joined(separator: ", ") + ")"
    }

    /// The file's own line break (`\r\n` or `\n`).
    static func lineBreak(in bytes: [UInt8]) -> String {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return "\n" }
        return newline > 0 && bytes[newline - 1] == UInt8(ascii: "\r") ? "\r\n" : "\n"
    }
}
