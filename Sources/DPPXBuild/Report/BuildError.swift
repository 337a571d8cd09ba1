import DPPXCore
import DPPXFiles

/// Why a build could not run at all (as opposed to one master failing, which is a
/// `FileProblem` and does not stop the others).
public enum BuildError: Error, CustomStringConvertible, Equatable, Sendable {
    case sourceMissing(String)
    case sourceInsideOutput(source: String, output: String)
    case locked(output: String, holder: String)
    case file(FileError)

    public var description: String {
        switch self {
        case .sourceMissing(let path):
            "\(path): no such file or folder; give the folder of master images to build"
        case .sourceInsideOutput(let source, let output):
            "\(source): the source is inside the output folder \(output), so variants could be written over masters; keep masters outside --out (for example src/img and public/img)"
        case .locked(let output, let holder):
            "\(output): another dppx build (\(holder)) is writing this folder; wait for it to finish or build into another --out"
        case .file(let error):
            error.description
        }
    }

    /// Whether the command line was wrong (SRC missing, or inside OUT): exit 2, as `--help`
    /// says, rather than 1 for a build that ran into trouble.
    public var isUsageError: Bool {
        switch self {
        case .sourceMissing, .sourceInsideOutput: true
        case .locked, .file: false
        }
    }
}
