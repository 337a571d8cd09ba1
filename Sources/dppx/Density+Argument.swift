import ArgumentParser
import DPPXCore

/// `--densities 1,1.5,2`: a sorted set of densities, typed at the command line.
struct DensityList: ExpressibleByArgument, Hashable {
    let densities: [Density]

    init?(argument: String) {
        guard let densities = try? Density.parseList(argument) else { return nil }
        self.densities = densities
    }

    var defaultValueDescription: String { densities.map(\.description).joined(separator: ",") }
}

extension Density: ExpressibleByArgument {
    /// `2`, `1.5`, `2x`: what `--source-density` takes.
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}

extension WidthRequest: ExpressibleByArgument {
    /// `auto` or `480,960,1440`: what `--widths` takes.
    public init?(argument: String) {
        guard let request = try? WidthRequest(parsing: argument) else { return nil }
        self = request
    }
}
