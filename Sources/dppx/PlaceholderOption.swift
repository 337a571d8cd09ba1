import ArgumentParser
import DPPXBuild
import DPPXCore

extension PlaceholderStyle: ExpressibleByArgument {}

/// `--placeholder color|blur`: what `dppx css` and `dppx html` paint in an image's box until it
/// arrives, from the placeholders `dppx build` records in the manifest.
struct PlaceholderOption: ParsableArguments {
    @Option(help: ArgumentHelp("Paint each image's placeholder in its box until the image arrives: its average colour, or blur (a tiny preview covering the box, over that colour). Needs a built folder. Transparent images show it through: leave those out, or use color on a matching page background.", valueName: "color|blur"))
    var placeholder: PlaceholderStyle?

    /// Stops with a usage error when placeholders are asked of a folder of masters: only a build
    /// makes them (it decodes every master).
    func check(_ input: RenderInput) throws {
        guard placeholder != nil, case .masters(let folder) = input.origin else { return }
        throw ValidationError("--placeholder reads the placeholders 'dppx build' records in the manifest, but \(folder) is a folder of masters; build it first (dppx build \(folder) -o OUT) and give OUT")
    }
}
