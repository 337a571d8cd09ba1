import ArgumentParser
import DPPXBuild
import DPPXCore

/// `--config FILE`: the project file every command reads (default: the first `dppx.toml` in
/// the working folder or a parent). Flags override it for one run.
struct ProjectOption: ParsableArguments {
    @Option(help: ArgumentHelp("The project file (default: dppx.toml in this folder or the nearest parent that has one).", valueName: "FILE"))
    var config: String?

    @Flag(help: "Allow paths in the project file that lead outside its folder, and masters in SRC that are links to files outside SRC (refused by default: a repository's file must not make dppx write or publish elsewhere).")
    var allowOutsideProject = false

    /// The project file read: `--config`, else the nearest `dppx.toml`; nil without one.
    var path: String? { config ?? ProjectLocator.find() }

    /// The project file's settings (empty without one); a bad file stops with exit 2, naming
    /// the file, the line, the key and what is allowed.
    func load() throws -> ProjectSettings {
        guard let path else { return ProjectSettings() }
        do { return try ProjectLocator.load(path, allowingOutside: allowOutsideProject) } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.usage)
        }
    }
}
