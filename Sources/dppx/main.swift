import ArgumentParser
import DPPXCore
import DPPXServer
import Foundation

/// `dppx`: density variants of images, the CSS and HTML that use them, and a server that picks
/// them by device pixel ratio.
struct DPPX: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dppx",
        abstract: "Sharp images on every screen, and no more bytes than each screen needs.",
        discussion: """
        Typical use:
          dppx init                             # dppx.toml for the site here
          dppx build Examples --out Public      # hero.jpg, hero@1.5x.jpg...
          dppx css Public -o Public/images.css  # density CSS for the built images
          dppx html Public                      # <img srcset> markup to paste
          dppx rewrite site/*.html --root site  # or add srcset to the pages themselves
          dppx serve Public                     # the variant each screen needs

        With a dppx.toml project file (in this folder or a parent), every command reads its settings: 'dppx build', 'dppx css', 'dppx html' and 'dppx serve --watch' then need no arguments.
        """,
        version: """
        \(DPPXVersion.current)
        Licensed under the Apache License, Version 2.0: https://www.apache.org/licenses/LICENSE-2.0
        """,
        subcommands: [InitCommand.self, BuildCommand.self, MergeCommand.self, CSSCommand.self, HTMLCommand.self, RewriteCommand.self, MeasureCommand.self, ServeCommand.self]
    )
}

// `dppx serve` handles requests on the server's own event loops (see ImageServer).
if CommandLine.arguments.dropFirst().first == ServeCommand.configuration.commandName {
    ImageServer.runTasksOnEventLoops()
}

await DPPX.mainWithUsageExitCode(arguments: ServeCommand.rewritingBareWatch(Array(CommandLine.arguments.dropFirst())))
