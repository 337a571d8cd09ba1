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
        /// The variant chosen for the request is not on disk: the server found it missing, as
        /// while a build rewrites OUT. The answer still varies as that choice does, and is
        /// private (a shared cache would keep it after the variant is back).
        case variantMissing(VariantChoice)

        public var description: String {
            switch self {
            case .vector: "a vector image: one file, sharp at every density"
            case .sizeNotStated: "its size was not stated (no @Nx name, rule or --source-density): served as it is, as a plain static server would"
            case .noVariants: "the manifest lists no variant of it"
            case .variantMissing(let choice): "\(choice.variant.path), its file for this browser, is not on disk (a build may be writing it): the URL's own file is sent, private to this browser"
            }
        }
    }

    /// The variant chosen; nil for the URL's own file.
    public var choice: VariantChoice? {
        if case .variant(let choice) = self { choice } else { nil }
    }

    /// The request headers the answer depends on: its `Vary`, empty for the own file (but the
    /// missing variant's when that is why).
    public var vary: [String] {
        switch self {
        case .variant(let choice), .ownFile(.variantMissing(let choice)): choice.vary
        case .ownFile: []
        }
    }

    /// Whether only the browser may keep the answer: a choice made from the cookie, or the own
    /// file sent in place of a missing variant.
    public var isPrivate: Bool {
        switch self {
        case .variant(let choice): choice.isPrivate
        case .ownFile(.variantMissing): true
        case .ownFile: false
        }
    }
}
