import ArgumentParser
import DPPXCore

extension Density: ExpressibleByArgument {
    /// `2`, `1.5`, `2x`: what `--source-density` takes.
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
