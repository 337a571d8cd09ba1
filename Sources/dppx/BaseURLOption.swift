import ArgumentParser
import DPPXCore

/// `--base-url URL`: image URLs under a CDN or site path instead of relative ones, for every
/// command that writes URLs (`css`, `html`, and `build`/`serve` with `--css`).
struct BaseURLOption: ParsableArguments {
    @Option(name: SettingRegistry.baseURL.name(), help: SettingRegistry.baseURL.argumentHelp)
    var baseURL: String?

    func validate() throws {
        if let baseURL, baseURL.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--base-url needs a URL, e.g. --base-url https://cdn.example.com/img/ or --base-url /img/")
        }
    }
}
