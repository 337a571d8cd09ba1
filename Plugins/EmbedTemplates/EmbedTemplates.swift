import Foundation
import PackagePlugin

/// Compiles the repository's `Templates/` into the target as Swift string constants, so a
/// `dppx` binary copied anywhere renders with its default templates. `Templates/` stays the
/// one source: the generated file is rebuilt whenever a template changes, and never committed.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInTemplates.swift")
        let files = templateFiles(in: folder)
        return [
            .buildCommand(
                displayName: "Embedding Templates/ into \(target.name)",
                executable: try context.tool(named: "EmbedTemplatesTool").url,
                arguments: [output.path(percentEncoded: false), folder.path(percentEncoded: false)] + files,
                inputFiles: files.map { folder.appending(path: $0) },
                outputFiles: [output]
            ),
        ]
    }

    /// Every `.mustache` file under `folder`, relative to it, sorted.
    private func templateFiles(in folder: URL) -> [String] {
        let root = folder.path(percentEncoded: false)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".mustache") { files.append(path) }
        }
        return files.sorted()
    }
}
