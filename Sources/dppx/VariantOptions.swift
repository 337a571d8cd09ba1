import ArgumentParser
import DPPXCore

/// The flags that decide which files a master becomes; `build`, `css`, `html` and `serve --watch`
/// share them so that all agree on names and sizes.
struct VariantOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Densities to write, comma-separated.", valueName: "LIST"))
    var densities: String = "1,1.5,2"

    @Option(help: ArgumentHelp("Density of masters whose name has no @Nx suffix.", valueName: "D"))
    var sourceDensity: String = "2"

    @Option(help: ArgumentHelp("Extra encodings of every variant: webp, avif (comma-separated).", valueName: "LIST"))
    var formats: String?

    @Flag(help: "Also write densities above a master's own (upscaled, so blurry).")
    var upscale = false

    func validate() throws {
        _ = try planSettings()
    }

    /// The parsed settings; throws a `ValidationError` naming the flag and the bad value.
    func planSettings() throws -> PlanSettings {
        let densityList: [Density]
        do { densityList = try Density.parseList(densities) } catch {
            throw ValidationError("--densities: \(error)")
        }
        guard let master = Density(parsing: sourceDensity) else {
            throw ValidationError("--source-density: expected a number between 0 and 10 (e.g. 2), but got '\(sourceDensity)'")
        }
        var extra: [ImageFormat] = []
        if let formats {
            do { extra = try ImageFormat.parseList(formats) } catch {
                throw ValidationError("--formats: \(error)")
            }
        }
        return PlanSettings(densities: densityList, defaultSourceDensity: master, extraFormats: extra, allowUpscale: upscale)
    }
}
