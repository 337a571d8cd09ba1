import ArgumentParser

/// `--base-url URL`: image URLs under a CDN or site path instead of relative ones, for every
/// command that writes URLs (`css`, `html`, and `build`/`serve` with `--css`).
struct BaseURLOption: ParsableArguments {
    @Option(name: .customLong("base-url"),
            help: ArgumentHelp("Put image URLs under URL instead of making them relative, e.g. https://cdn.example.com/img/.", valueName: "URL"))
    var baseURL: String?

    func validate() throws {
        if let baseURL, baseURL.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--base-url needs a URL, e.g. --base-url https://cdn.example.com/img/ or --base-url /img/")
        }
    }
}
