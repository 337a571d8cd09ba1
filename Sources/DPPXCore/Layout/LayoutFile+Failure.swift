extension LayoutFile {
    /// A page that could not be measured, kept like a measured one: under the hash of what it
    /// loaded, so that a page failing for a reason of its own (a frame-busting script, a load
    /// that outlasts the timeout) is not loaded again on every run while nothing it loads
    /// changes. A change to the page or to anything it loaded measures it again.
    ///
    /// Only dppx's own words are kept (`Reason`), never text the page chose (the URL it
    /// navigated to, a number it reported): the file is published with the site.
    public struct Failure: Codable, Hashable, Sendable {
        /// As `Page.hash`: of every dependency, the ladder and the schema version.
        public var hash: String
        /// Every file under the root the page was answered before it failed, the page first,
        /// then sorted, as `Page.dependencies`.
        public var dependencies: [String]
        /// Why it was not measured.
        public var reason: Reason
        /// For `timedOut`: the seconds it was allowed. A run that allows more measures it again.
        public var seconds: Int?
        /// The `sizes` dppx wrote on the page before it failed (`Page.sizesWritten`): a page
        /// that fails is left as it was, and they are still dppx's to update once it is
        /// measured again. Written only when there is one.
        public var sizesWritten: [String]

        public init(hash: String, dependencies: [String], reason: Reason, seconds: Int? = nil, sizesWritten: [String] = []) {
            self.hash = hash
            self.dependencies = dependencies
            self.reason = reason
            self.seconds = seconds
            self.sizesWritten = sizesWritten
        }

        private enum CodingKeys: String, CodingKey {
            case hash, dependencies, reason, seconds, sizesWritten
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hash = try container.decode(String.self, forKey: .hash)
            dependencies = try container.decode([String].self, forKey: .dependencies)
            reason = try container.decode(Reason.self, forKey: .reason)
            seconds = try container.decodeIfPresent(Int.self, forKey: .seconds)
            sizesWritten = try container.decodeIfPresent([String].self, forKey: .sizesWritten) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(hash, forKey: .hash)
            try container.encode(dependencies, forKey: .dependencies)
            try container.encode(reason, forKey: .reason)
            try container.encodeIfPresent(seconds, forKey: .seconds)
            if !sizesWritten.isEmpty { try container.encode(sizesWritten, forKey: .sizesWritten) }
        }

        /// Whether a run allowing `timeout` seconds a page fails it the same way again, its
        /// files unchanged: a page that timed out is given its chance with a longer timeout.
        public func holds(timeout: Int) -> Bool {
            reason != .timedOut || timeout <= (seconds ?? 0)
        }

        /// Why a page was not measured, among the reasons that are the page's own doing and
        /// come back on every load of the same files.
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            /// It did not load and measure within the time allowed (a script that never
            /// returns: a page whose load event only never comes is measured when it is quiet).
            case timedOut = "timed-out"
            /// It navigated its frame or dppx's host page, or took the window over.
            case navigated
            /// It reported a number no layout has (`LayoutLimits`).
            case unmeasurable
            /// It links stylesheets of the site and none of them loaded.
            case unstyled

            /// What is said of a page failed so, read back from the layout file.
            public var explanation: String {
                switch self {
                case .timedOut: return "it did not load and measure within the time allowed (a script that never returns)"
                case .navigated: return "it navigated away from the frame dppx measures it in (a redirect or frame-busting script)"
                case .unmeasurable: return "it reported a measurement no layout has (a transform or size far beyond any screen)"
                case .unstyled: return "none of the stylesheets it links on the site loaded (a missing file, or one dppx serve would not serve)"
                }
            }
        }
    }
}
