import DPPXCore

/// A stylesheet file rewritten after each build (`dppx build --css`, `dppx serve --watch --css`),
/// with the options `dppx css` takes, so every command writes what `dppx css OUT -o FILE` would.
public struct StylesheetTarget: Hashable, Sendable {
    /// The file to write.
    public var path: String
    /// Class prefix, boxes, legacy media queries.
    public var options: StylesheetOptions
    /// URLs under this base instead of relative to the file's folder.
    public var baseURL: String?
    /// The user's copies of the templates (`--templates`).
    public var templatesFolder: String?

    public init(path: String, options: StylesheetOptions = StylesheetOptions(), baseURL: String? = nil,
                templatesFolder: String? = nil) {
        self.path = path
        self.options = options
        self.baseURL = baseURL
        self.templatesFolder = templatesFolder
    }

    /// Writes `manifest`'s stylesheet (paths relative to `imageRoot`) when its content changed.
    /// Returns whether the file was written.
    @discardableResult
    public func write(manifest: Manifest, imageRoot: String) throws(RenderOutputError) -> Bool {
        let library: TemplateLibrary
        do { library = try TemplateLibrary.locate(override: templatesFolder) } catch { throw .template(error) }
        return try StylesheetWriter(library: library).write(manifest: manifest, imageRoot: imageRoot, to: path,
                                                            baseURL: baseURL, options: options)
    }
}

extension StylesheetTarget {
    /// The stylesheet `settings` ask for after each build, or nil when they name no file.
    public init?(settings: ProjectSettings) {
        guard let path = settings.stylesheet else { return nil }
        self.init(path: path, options: settings.stylesheetOptions, baseURL: settings.baseURL,
                  templatesFolder: settings.templates)
    }
}
