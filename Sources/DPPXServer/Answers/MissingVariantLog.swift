import Logging
import NIOConcurrencyHelpers

/// Says once per file that a variant a manifest lists is missing on disk, so a deploy that
/// lost files is noticed without a line per request.
final class MissingVariantLog: Sendable {
    private let logger: Logger?
    private let reported = NIOLockedValueBox(Set<String>())

    init(logger: Logger?) {
        self.logger = logger
    }

    /// Logs `path` (relative to ROOT) unless it was logged before; `url` is what was answered instead.
    func report(_ path: String, answering url: Substring) {
        guard let logger, reported.withLockedValue({ $0.insert(path).inserted }) else { return }
        logger.warning("\(path) is listed in a manifest but missing on disk: /\(url) is answered with its own file, private to each browser, until it is back (run 'dppx build' again)")
    }
}
