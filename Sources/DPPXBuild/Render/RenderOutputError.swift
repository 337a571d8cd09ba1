import DPPXCore
import DPPXFiles

/// Why `dppx css`, `dppx html` or `dppx build --css` wrote nothing: the input, a template,
/// the images' names, or the output file. Each message names the file and what to do.
public enum RenderOutputError: Error, CustomStringConvertible, Sendable {
    /// The folder or manifest to describe is missing or unreadable.
    case input(path: String, problem: String)
    /// DIR names no file or folder, or the wrong folder: the command line must change (exit 2).
    case wrongInput(path: String, problem: String)
    case template(TemplateError)
    case render(RenderError)
    case file(FileError)

    public var description: String {
        switch self {
        case .input(let path, let problem), .wrongInput(let path, let problem): "\(path): \(problem)"
        case .template(let error): error.description
        case .render(let error): error.description
        case .file(let error): error.description
        }
    }

    /// Whether the command line was wrong (exit 2) rather than an input failing (exit 1).
    public var isUsageError: Bool {
        if case .wrongInput = self { return true }
        return false
    }
}
