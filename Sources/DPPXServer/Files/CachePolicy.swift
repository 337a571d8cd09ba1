/// The `Cache-Control` the server sends with files (`--cache-control`), and its private form
/// for variants chosen from the `dpr` cookie and for an image's own file sent in place of a
/// missing variant.
///
/// Shared caches can key a response on `Sec-CH-DPR` through `Vary`, but not on one cookie among
/// many: a choice made from the cookie must only be stored by the browser that sent it.
public struct CachePolicy: Sendable, Equatable, CustomStringConvertible {
    /// The directives, as given: `no-cache`, `public, max-age=3600`.
    public let directives: [String]

    /// Revalidate every time (cheap: unchanged files answer 304). Safe while files change.
    public static let revalidate = CachePolicy(validated: ["no-cache"])

    private init(validated directives: [String]) {
        self.directives = directives
    }

    /// Parses `--cache-control`: comma-separated directives such as `public, max-age=3600`.
    public init(parsing text: String) throws(CachePolicyError) {
        let directives = text.split(separator: ",").map { piece in
            String(piece.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        guard !directives.isEmpty, !directives.contains(where: \.isEmpty) else { throw CachePolicyError(value: text) }
        for directive in directives {
            let allowed = directive.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F && scalar != ";"
            }
            guard allowed else { throw CachePolicyError(value: text) }
        }
        self.directives = directives
    }

    /// The header value.
    public var description: String { directives.joined(separator: ", ") }

    /// The same policy for one browser only: `public` becomes `private`, and `private` is added
    /// when neither is there (`no-store` stays as it is: nothing is stored anyway).
    public var privateVariant: CachePolicy {
        var result = directives.filter { $0.lowercased() != "public" }
        let lowered = result.map { $0.lowercased() }
        if !lowered.contains("private") && !lowered.contains("no-store") {
            result.insert("private", at: 0)
        }
        return CachePolicy(validated: result)
    }
}

/// A `--cache-control` value that is not a list of directives.
public struct CachePolicyError: Error, Equatable, CustomStringConvertible {
    public let value: String
    public var description: String {
        "expected Cache-Control directives separated by commas (e.g. 'public, max-age=3600' or 'no-cache'), but got '\(value)'"
    }
}
