import ArgumentParser
import DPPXCore

extension FailOn: ExpressibleByArgument {
    /// `none`, `truncated`, `error`, `warning`: what `--fail-on` takes.
    public init?(argument: String) {
        self.init(parsing: argument)
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
