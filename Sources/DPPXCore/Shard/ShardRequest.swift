/// What `--shard` asks for: a fixed shard (`2/4`), or `auto/4`, whose index comes from the
/// job's environment when the build starts (Kubernetes Indexed Jobs set `JOB_COMPLETION_INDEX`,
/// 0-based, in each pod).
public enum ShardRequest: Hashable, Sendable {
    case fixed(Shard)
    case automatic(count: Int)

    /// The variable Kubernetes Indexed Jobs set in each pod: 0 to completions - 1.
    public static let indexVariable = "JOB_COMPLETION_INDEX"

    /// Parses `K/N` (1 <= K <= N) or `auto/N`; the error says what to type.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]), String(count) == parts[1] else { throw .malformed(text) }
        guard count >= 1, count <= Shard.maximumCount else { throw .badCount(text) }
        if parts[0] == "auto" {
            self = .automatic(count: count)
            return
        }
        guard let index = Int(parts[0]), String(index) == parts[0] else { throw .malformed(text) }
        guard let shard = Shard(index: index, of: count) else { throw .outOfRange(index: index, count: count) }
        self = .fixed(shard)
    }

    /// The shard this job builds; `environment` is the process's (read only for `auto/N`).
    public func resolve(environment: [String: String]) throws(ShardError) -> Shard {
        switch self {
        case .fixed(let shard):
            return shard
        case .automatic(let count):
            guard let value = environment[Self.indexVariable], !value.isEmpty else { throw .noIndex(count: count) }
            guard let index = Int(value), String(index) == value, let shard = Shard(index: index + 1, of: count) else {
                throw .badIndex(value: value, count: count)
            }
            return shard
        }
    }
}

/// Why a `--shard` value cannot be used.
public enum ShardError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case badCount(String)
    case outOfRange(index: Int, count: Int)
    case noIndex(count: Int)
    case badIndex(value: String, count: Int)

    public var description: String {
        switch self {
        case .malformed(let text):
            "'\(text)' is not a shard: give K/N, shard K (from 1) of N jobs, e.g. --shard 2/4, or auto/N in a Kubernetes Indexed Job"
        case .badCount(let text):
            "'\(text)' has no usable number of shards: N must be between 1 and \(Shard.maximumCount), e.g. --shard 2/4"
        case .outOfRange(let index, let count):
            "shard \(index) of \(count) does not exist: shards are numbered from 1 to \(count), e.g. --shard 1/\(count) to --shard \(count)/\(count) (a 0-based job index I is shard I+1; or use --shard auto/\(count) with \(ShardRequest.indexVariable))"
        case .noIndex(let count):
            "--shard auto/\(count) takes the job's index from \(ShardRequest.indexVariable), which Kubernetes Indexed Jobs set, but it is not set here; pass the shard itself, e.g. --shard 1/\(count) (GitLab: --shard $CI_NODE_INDEX/$CI_NODE_TOTAL)"
        case .badIndex(let value, let count):
            "\(ShardRequest.indexVariable) is '\(value)', but --shard auto/\(count) needs a 0-based index from 0 to \(count - 1); set the Job's completions to \(count)"
        }
    }
}
