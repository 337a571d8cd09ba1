import ArgumentParser

/// `--templates DIR`: every command that writes text from templates takes it.
struct TemplatesOption: ParsableArguments {
    @Option(help: ArgumentHelp("A folder with your copies of dppx's templates; those it holds replace the defaults.", valueName: "DIR"))
    var templates: String?
}
