import DPPXBuild
import Foundation

/// The outcome of dev mode's latest build: what the terminal printed, the overlay on open
/// pages shows, and the inspector lists.
public struct BuildStatus: Sendable, Equatable, Codable {
    /// Counts builds since the server started: 1 is the first.
    public var sequence: Int
    /// True when every master built and the stylesheet (if any) was written.
    public var succeeded: Bool
    /// `12 images: 3 built, 9 unchanged in 0.42 s`, or why the build could not run.
    public var summary: String
    /// Each master (or file) that failed, with the reason.
    public var failures: [FileProblem]

    public init(sequence: Int, succeeded: Bool, summary: String, failures: [FileProblem]) {
        self.sequence = sequence
        self.succeeded = succeeded
        self.summary = summary
        self.failures = failures
    }

    /// No build has finished yet.
    public static let pending = BuildStatus(sequence: 0, succeeded: true, summary: "building...", failures: [])

    /// The JSON the live-reload script reads.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
