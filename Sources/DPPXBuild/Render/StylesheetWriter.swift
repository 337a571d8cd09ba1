import DPPXCore

/// Writes the density stylesheet of a manifest to a file: what `dppx css -o` and
/// `StylesheetTarget` (`build --css`, `serve --watch --css`) share. URLs are relative to the stylesheet's folder unless a base URL is
/// given; the file is rewritten only when its content changes.
public struct StylesheetWriter: Sendable {
    public let renderer: StylesheetRenderer

    /// Loads the stylesheet templates from `library` (the user's `--templates` copies first).
    public init(library: TemplateLibrary) throws(RenderOutputError) {
        do { renderer = StylesheetRenderer(templates: try library.templates(.stylesheet)) } catch {
            throw .template(error)
        }
    }

    public init(renderer: StylesheetRenderer) {
        self.renderer = renderer
    }

    /// The stylesheet text for `manifest`, whose paths are relative to `imageRoot`, as it would
    /// be written to `destination` (nil: stdout, URLs relative to `imageRoot`).
    public func render(manifest: Manifest, imageRoot: String, destination: String?, baseURL: String? = nil,
                       options: StylesheetOptions = StylesheetOptions()) throws(RenderOutputError) -> String {
        let urls = URLBase.forOutput(at: destination, imageRoot: imageRoot, baseURL: baseURL)
        do { return try renderer.render(manifest: manifest, urls: urls, options: options) } catch {
            throw .render(error)
        }
    }

    /// Renders and writes the stylesheet to `path` when its content changed. Returns whether
    /// the file was written.
    @discardableResult
    public func write(manifest: Manifest, imageRoot: String, to path: String, baseURL: String? = nil,
                      options: StylesheetOptions = StylesheetOptions()) throws(RenderOutputError) -> Bool {
        let text = try render(manifest: manifest, imageRoot: imageRoot, destination: path, baseURL: baseURL, options: options)
        do { return try OutputFile.write(text, to: path) } catch { throw .file(error) }
    }
}
