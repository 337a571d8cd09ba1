import ArgumentParser
import DPPXBuild
import DPPXCore
import DPPXFiles
import Foundation

/// The flags `dppx css` and `dppx html` share: where the text goes (stdout, `-o`, `--check`),
/// the depfile, where the variants are, the templates, the project file, and the variant
/// settings that apply when DIR is a folder of masters.
struct RenderOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write to FILE instead of stdout, only when its content changes; URLs become relative to FILE's folder.", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Also write a make depfile listing the files read (the masters, or the manifest); needs -o.", valueName: "FILE"))
    var depfile: String?

    @Flag(help: "Write nothing; exit 1 naming each file (-o, --depfile) that is not what would be written. For CI.")
    var check = false

    @Option(help: ArgumentHelp("The folder the variants are in when it is not DIR (DIR is a folder of masters that 'dppx build' writes into FOLDER); with -o, URLs lead there.", valueName: "FOLDER"))
    var imageDir: String?

    @OptionGroup var templates: TemplatesOption

    @OptionGroup var project: ProjectOption

    @OptionGroup(title: "When DIR is a folder of masters (a built folder's manifest already says what was built)")
    var variants: VariantOptions

    /// One run's resolved request: the folder to describe, where the variants are, where the
    /// text goes, and the settings (project file, then flags).
    struct Request {
        let dir: String
        let imageDir: String?
        let output: String?
        let settings: ProjectSettings
        /// The images asked for (PATHS); empty for all of them.
        let paths: [String]
    }

    /// Resolves DIR, PATHS, the output and the settings. Without DIR, the project file's built
    /// folder is described (its masters, written into it, while it is not built yet) and
    /// `defaultOutput` of the project file is the output. With a project file that names the
    /// folders, a first argument that is not a folder is an image path, not DIR
    /// (`dppx html team/client-1.jpg`).
    func request(dir: String?, paths: [String] = [], flags: ProjectSettings, defaultOutput: (ProjectSettings) -> String? = { _ in nil }) throws -> Request {
        var settings = try project.load().overlaid(by: flags).overlaid(by: ownSettings)
        settings.templates = templates.templates ?? settings.templates
        var dir = dir
        var paths = paths
        if let given = dir, settings.output != nil || settings.source != nil, !Self.isFolder(given) {
            paths.insert(given, at: 0)
            dir = nil
        }
        var folder = dir
        var variantsFolder = imageDir
        var target = output
        if dir == nil {
            if let built = settings.output, FileStatus.at(built + "/" + Manifest.fileName) != nil {
                folder = built
            } else if let masters = settings.source {
                folder = masters
                variantsFolder = variantsFolder ?? settings.output
            }
            // The project's file holds every image: a few named ones go to stdout instead.
            if paths.isEmpty { target = target ?? defaultOutput(settings) }
        }
        guard let folder else {
            throw ValidationError("Missing the folder to describe: give DIR (a folder built by 'dppx build', or of masters), e.g. dppx css public/img, or out under [build] in dppx.toml")
        }
        if check && target == nil {
            throw ValidationError("--check compares the file named by -o; add it, e.g. --check -o public/images.css")
        }
        if depfile != nil && target == nil {
            throw ValidationError("--depfile names the file it describes with -o; add it, e.g. -o public/images.css --depfile public/images.css.d")
        }
        if let depfile, depfile == target {
            throw ValidationError("--depfile and -o both name \(depfile); give the depfile its own name, e.g. \(depfile).d")
        }
        return Request(dir: folder, imageDir: variantsFolder, output: target, settings: settings, paths: paths)
    }

    private static func isFolder(_ path: String) -> Bool {
        FileStatus.at(path)?.isFolder == true
    }

    private var ownSettings: ProjectSettings { variants.settings }

    func validate() throws {
        if let output, output.isEmpty || output.hasSuffix("/") {
            throw ValidationError("-o takes a file name, e.g. -o public/images.css; got '\(output)'")
        }
    }

    /// The images the request describes; stops with exit 2 when DIR is missing or the wrong
    /// folder, with exit 1 when the folder or manifest cannot be read.
    func loadInput(_ request: Request) throws -> RenderInput {
        do {
            let input = try RenderInput.load(request.dir, plan: request.settings.planSettings,
                                             maxPixels: request.settings.maxPixels ?? BuildOptions.defaultMaxPixels)
            if case .masters(let folder) = input.origin, input.manifest.images.contains(where: { $0.formats.count > 1 }) {
                Terminal.note("\(folder) holds masters: this names every extra-format file, but a build leaves out those not smaller than their master-format file; once built, write from the built folder")
            }
            return input
        } catch {
            Terminal.error(error.description)
            throw ExitCode(error.isUsageError ? ExitStatus.usage : ExitStatus.failure)
        }
    }

    /// The compiled templates of `kind`; stops with exit 1 naming the template file.
    func loadTemplates(_ kind: TemplateKind, _ request: Request) throws -> RenderTemplates {
        do {
            return try TemplateLibrary.locate(override: request.settings.templates).templates(kind)
        } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
    }

    /// Where URLs point for `input`: under `baseURL`, or relative from the output's folder
    /// to the variants (`--image-dir`, else DIR).
    func urls(for input: RenderInput, _ request: Request, baseURL: String?) -> URLBase {
        URLBase.forOutput(at: request.output, imageRoot: request.imageDir ?? input.imageRoot, baseURL: baseURL)
    }

    /// The images of `input` that the request's paths name (master paths or any variant's path, relative to
    /// DIR or starting with it, in the order given); all of them when `paths` is empty.
    /// Unknown paths are said on stderr; `failed` is true when there were any.
    func select(in input: RenderInput, _ request: Request) -> (images: [Manifest.Image], failed: Bool) {
        let paths = request.paths
        guard !paths.isEmpty else { return (input.manifest.images, false) }
        var images: [Manifest.Image] = []
        var failed = false
        let folder = request.dir.hasSuffix("/") ? request.dir : request.dir + "/"
        for path in paths {
            var relative = Substring(path)
            while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
            if relative.hasPrefix(folder) { relative = relative.dropFirst(folder.count) }
            let name = String(relative)
            guard let image = input.manifest.images.first(where: { $0.source == name }) ?? input.manifest.image(containing: name) else {
                Terminal.error("\(path): no such image in \(request.dir); give a master path such as \(input.manifest.images.first?.source ?? "hero.jpg") or a variant's path")
                failed = true
                continue
            }
            if !images.contains(image) { images.append(image) }
        }
        return (images, failed)
    }

    /// Prints each master that could not be read; true when there were any (exit 1 at the end).
    func reportFailures(of input: RenderInput) -> Bool {
        for failure in input.failures { Terminal.error(failure.description) }
        if case .masters(let folder) = input.origin, input.manifest.images.isEmpty, input.failures.isEmpty {
            Terminal.warning("\(folder): no images found (dppx reads \(ImageFormat.allCases.map(\.fileExtension).joined(separator: ", ")))")
        }
        return !input.failures.isEmpty
    }

    /// Sends `text` where it belongs: stdout, the output file (when changed) with its depfile,
    /// or with `--check` nowhere, exiting 1 when a file is stale.
    func deliver(_ text: String, input: RenderInput, _ request: Request, command: String) throws {
        guard let output = request.output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        var files = [(path: output, text: text)]
        if let depfile { files.append((depfile, Depfile.text(target: output, prerequisites: input.inputs))) }
        if check {
            var stale = false
            for file in files {
                if let staleness = OutputFile.staleness(of: file.path, expected: file.text) {
                    Terminal.error("\(file.path) is stale: it \(staleness); run the same 'dppx \(command)' command without --check")
                    stale = true
                }
            }
            if stale { throw ExitCode(ExitStatus.failure) }
            return
        }
        for file in files {
            do { try OutputFile.write(file.text, to: file.path) } catch {
                Terminal.error(error.description)
                throw ExitCode(ExitStatus.failure)
            }
        }
    }
}
