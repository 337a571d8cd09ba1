/// What `VariantNegotiator` decided for one image and one request.
public enum Negotiation: Sendable, Equatable {
    /// The URL's own file, unchanged: no `Vary`, no density said, nothing private.
    case ownFile(OwnFileReason)
    /// A file chosen by the request's hints, and what the answer must say about it.
    case variant(VariantChoice)

    /// Why an image's URL is answered with its own file.
    public enum OwnFileReason: Sendable, Equatable, CustomStringConvertible {
        /// A vector image (SVG): one file for every density.
        case vector
        /// Its master stated no density or size (`"intent": "default"`).
        case sizeNotStated
        /// The manifest lists no variant of it.
        case noVariants
        /// The variant chosen for the request (its path) is not on disk: the server found it
        /// missing, as while a build rewrites OUT.
        case variantMissing(String)

        public var description: String {
            switch self {
            case .vector: "a vector image: one file, sharp at every density"
            case .sizeNotStated: "its size was not stated (no @Nx name, rule or --source-density): served as it is, as a plain static server would"
            case .noVariants: "the manifest lists no variant of it"
            case .variantMissing(let path): "\(path), its file for this browser, is not on disk (a build may be writing it): the URL's own file is sent"
            }
        }
    }

    /// The variant chosen; nil for the URL's own file.
    public var choice: VariantChoice? {
        if case .variant(let choice) = self { choice } else { nil }
    }

    /// The request headers the answer depends on: its `Vary`, empty for the own file.
    public var vary: [String] { choice?.vary ?? [] }
}
