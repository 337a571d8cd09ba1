import ArgumentParser
import DPPXBuild
import DPPXMeasure

/// `dppx init`: a `dppx.toml` for the site in this folder, the first step of adopting dppx.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a dppx.toml for the site in this folder: its pages, its images built in place, AVIF and WebP in <picture>.",
        discussion: """
        Finds the folder the site publishes (the shallowest folder with an index.html, else the one holding every *.html page), the images its pages and stylesheets name, and the folder that holds them. Images the site keeps itself are built in place (each master keeps its name and bytes, its variants are written beside it); images a site generator copies from another folder of the project are built from there. The file asks for AVIF and WebP at quality auto in every format, <picture> in the rewritten pages, and measuring where Chromium is found. It prints what it chose, why, and the command to run next.

        An existing dppx.toml is never written over (exit 2). Hidden folders and node_modules are not looked in.

        Exit status: 0 written (or printed), 1 no pages or no images found, 2 wrong usage or a dppx.toml already there.

        Examples:
          dppx init                  # then: dppx build
          dppx init --dry-run        # print the file, write nothing
          dppx init my-site
        """
    )

    @Argument(help: ArgumentHelp("The site's folder, where dppx.toml is written.", valueName: "FOLDER"))
    var folder: String = "."

    @Flag(help: "Print the project file on stdout instead of writing it.")
    var dryRun = false

    @Option(help: ArgumentHelp("The Chromium executable to measure pages with (default: chromium, chromium-browser or google-chrome on PATH).", valueName: "PATH"))
    var browser: String?

    func run() throws {
        let chromium: String?
        do { chromium = try Browser.find(explicit: browser) } catch {
            // Named but not there: the user's mistake. Not on PATH: measuring is turned off.
            if browser != nil {
                Terminal.error(error.description)
                throw ExitCode(ExitStatus.usage)
            }
            chromium = nil
        }
        let draft: ProjectDraft
        do { draft = ProjectDraft(survey: try SiteSurvey.survey(folder), browser: chromium) } catch {
            throw Self.fail(error)
        }
        if dryRun {
            Terminal.out(String(draft.text.dropLast()))
            return
        }
        let path: String
        do { path = try draft.write() } catch { throw Self.fail(error) }
        Terminal.out("wrote \(path):")
        for choice in draft.choices { Terminal.out("  \(choice.topic): \(choice.reason)") }
        Terminal.out("next: \(draft.nextCommand)")
    }

    private static func fail(_ error: InitError) -> ExitCode {
        Terminal.error(error.description)
        return ExitCode(error.isUsageError ? ExitStatus.usage : ExitStatus.failure)
    }
}
