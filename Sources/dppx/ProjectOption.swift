import ArgumentParser
import DPPXBuild
import DPPXCore

/// `--config FILE`: the project file every command reads (default: the first `dppx.toml` in
/// the working folder or a parent). Flags override it for one run.
struct ProjectOption: ParsableArguments {
    @Option(help: ArgumentHelp("The project file (default: dppx.toml in this folder or the nearest parent that has one).", valueName: "FILE"))
    var config: String?

    /// The project file's settings (empty without one); a bad file stops with exit 2, naming
    /// the file, the line, the key and what is allowed.
    func load() throws -> ProjectSettings {
        guard let path = config ?? ProjectLocator.find() else { return ProjectSettings() }
        do { return try ProjectLocator.load(path) } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.usage)
        }
    }
}
