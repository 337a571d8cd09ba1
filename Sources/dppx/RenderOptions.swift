import ArgumentParser
import DPPXBuild
import DPPXCore
import Foundation

/// The flags `dppx css` and `dppx html` share: where the text goes (stdout, `-o`, `--check`),
/// the depfile, how URLs are written, the templates, and the variant settings that apply when
/// DIR is a folder of masters.
struct RenderOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write to FILE instead of stdout, only when its content changes; URLs become relative to FILE's folder.", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Also write a make depfile listing the files read (the masters, or the manifest); needs -o.", valueName: "FILE"))
    var depfile: String?

    @Flag(help: "Write nothing; exit 1 naming each file (-o, --depfile) that is not what would be written. For CI.")
    var check = false

    @Option(name: .customLong("base-url"),
            help: ArgumentHelp("Put image URLs under URL instead of making them relative, e.g. https://cdn.example.com/img/.", valueName: "URL"))
    var baseURL: String?

    @Option(help: ArgumentHelp("The folder the variants are in when it is not DIR (DIR is a folder of masters that 'dppx build' writes into FOLDER); with -o, URLs lead there.", valueName: "FOLDER"))
    var imageDir: String?

    @Option(help: ArgumentHelp("A folder with your copies of dppx's templates; those it holds replace the defaults.", valueName: "DIR"))
    var templates: String?

    @OptionGroup(title: "When DIR is a folder of masters (a built folder's manifest already says what was built)")
    var variants: VariantOptions

    func validate() throws {
        if check && output == nil {
            throw ValidationError("--check compares the file named by -o; add it, e.g. --check -o public/images.css")
        }
        if depfile != nil && output == nil {
            throw ValidationError("--depfile names the file it describes with -o; add it, e.g. -o public/images.css --depfile public/images.css.d")
        }
        if let depfile, depfile == output {
            throw ValidationError("--depfile and -o both name \(depfile); give the depfile its own name, e.g. \(depfile).d")
        }
        if let output, output.isEmpty || output.hasSuffix("/") {
            throw ValidationError("-o takes a file name, e.g. -o public/images.css; got '\(output)'")
        }
        if let baseURL, baseURL.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--base-url needs a URL, e.g. --base-url https://cdn.example.com/img/ or --base-url /img/")
        }
    }

    /// The images in `dir`; stops with exit 1 when the folder or manifest cannot be read.
    func loadInput(_ dir: String) throws -> RenderInput {
        do {
            return try RenderInput.load(dir, plan: try variants.planSettings())
        } catch let error as RenderOutputError {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
    }

    /// The compiled templates of `kind`; stops with exit 1 naming the template file.
    func loadTemplates(_ kind: TemplateKind) throws -> RenderTemplates {
        do {
            return try TemplateLibrary.locate(override: templates).templates(kind)
        } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
    }

    /// Where URLs point for `input`: under `--base-url`, or relative from the output's folder
    /// to the variants (`--image-dir`, else DIR).
    func urls(for input: RenderInput) -> URLBase {
        URLBase.forOutput(at: output, imageRoot: imageDir ?? input.imageRoot, baseURL: baseURL)
    }

    /// Prints each master that could not be read; true when there were any (exit 1 at the end).
    func reportFailures(of input: RenderInput) -> Bool {
        for failure in input.failures { Terminal.error(failure.description) }
        if case .masters(let folder) = input.origin, input.manifest.images.isEmpty, input.failures.isEmpty {
            Terminal.warning("\(folder): no images found (dppx reads \(ImageFormat.allCases.map(\.fileExtension).joined(separator: ", ")))")
        }
        return !input.failures.isEmpty
    }

    /// Sends `text` where it belongs: stdout, `-o` (when changed) with its depfile, or with
    /// `--check` nowhere, exiting 1 when a file is stale.
    func deliver(_ text: String, input: RenderInput, command: String) throws {
        guard let output else {
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
