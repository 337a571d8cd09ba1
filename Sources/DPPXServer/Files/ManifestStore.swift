import DPPXCore
import DPPXFiles
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// Every `dppx-manifest.json` under ROOT, each re-read when it changes on disk.
///
/// A site keeps its built images where its pages use them: a manifest in `assets/img/` answers
/// `/assets/img/hero.jpg`. The manifests are found (`ManifestDiscovery`) when the store loads and again every
/// `discoveryEvery` checks, on a background queue so no request waits for the walk (a folder
/// built later is picked up); each known manifest is checked
/// every `recheckInterval` by its file's identity, size and modification time, so a
/// long-running server never negotiates on a stale list while `dppx build` replaces one
/// atomically. Dev mode reloads right after each build.
///
/// A manifest that cannot be used (unreadable, not JSON, a number no build writes) is skipped:
/// its images are served as plain files, the others still negotiated, and `logger` gets one
/// warning per version of that file, whether it was there at startup or appeared later.
public final class ManifestStore: Sendable {
    /// The folder served.
    public let root: String
    /// How long checked manifests are trusted before their files are looked at again.
    public let recheckInterval: Duration
    /// Checks between two searches of ROOT for manifests.
    static let discoveryEvery = 10
    /// Where skipped manifests are reported.
    let logger: Logger?

    private struct State: Sendable {
        var index = ManifestIndex.empty
        var status = ManifestStatus.missing(path: "")
        /// Each manifest's path relative to ROOT, with its identity when it was read.
        var fingerprints: [String: FileIdentity?] = [:]
        var checked: ContinuousClock.Instant?
        var checksSinceDiscovery = 0
        /// A search of ROOT is running (off the request path).
        var discovering = false
        /// Counts the searches that set `fingerprints`' paths: a timed check made with the
        /// paths of an earlier search must not undo a later one.
        var search = 0
        /// The manifests skipped and logged, with the identity they had: each version once.
        var reported: [String: FileIdentity?] = [:]
    }

    /// A timed check begun: the paths it looks at, and the search they came from.
    struct TimedCheck {
        let known: [String]
        let search: Int
        /// This check also starts a search of ROOT.
        let discovers: Bool
    }

    private let state = NIOLockedValueBox(State())

    public init(root: String, recheckInterval: Duration = .seconds(1), logger: Logger? = nil) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.recheckInterval = recheckInterval
        self.logger = logger
        reload()
    }

    /// The images to negotiate on now, from every manifest.
    public func index() -> ManifestIndex {
        refreshIfDue()
        return state.withLockedValue { $0.index }
    }

    /// Whether manifests are in use, and if not, why.
    public func status() -> ManifestStatus {
        refreshIfDue()
        return state.withLockedValue { $0.status }
    }

    /// Looks for manifests and reads them all again now (after a build). Returns the new status.
    @discardableResult
    public func reload() -> ManifestStatus {
        let fingerprints = fingerprints(of: discover())
        let (index, status, skipped) = load(fingerprints)
        report(skipped, fingerprints)
        state.withLockedValue {
            $0.index = index
            $0.status = status
            $0.fingerprints = fingerprints
            $0.checked = .now
            $0.checksSinceDiscovery = 0
            $0.search += 1
        }
        return status
    }

    private func refreshIfDue() {
        guard let check = beginTimedCheck() else { return }
        if check.discovers { startDiscovery() }
        finish(check)
    }

    /// The timed check due now, if one is.
    func beginTimedCheck(now: ContinuousClock.Instant = .now) -> TimedCheck? {
        state.withLockedValue { state -> TimedCheck? in
            if let checked = state.checked, now - checked < recheckInterval { return nil }
            state.checked = now
            state.checksSinceDiscovery += 1
            let discovers = state.checksSinceDiscovery >= Self.discoveryEvery
            if discovers { state.checksSinceDiscovery = 0 }
            return TimedCheck(known: Array(state.fingerprints.keys), search: state.search, discovers: discovers)
        }
    }

    /// Reads the manifests `check` knows again if one of them changed.
    func finish(_ check: TimedCheck) {
        update(to: fingerprints(of: check.known), madeBy: .check(search: check.search))
    }

    /// Searches ROOT now and reads what it finds (`startDiscovery` runs this off the request path).
    func search() {
        update(to: fingerprints(of: discover()), madeBy: .search)
    }

    private enum Update {
        /// A search: sets the paths.
        case search
        /// A timed check of the paths `search` set.
        case check(search: Int)
    }

    /// Reads the manifests again when `fingerprints` differ from those last read. A timed
    /// check's result is dropped once a search has set other paths since it began: it would
    /// forget a manifest just found until the next search (`discoveryEvery` checks later).
    private func update(to fingerprints: [String: FileIdentity?], madeBy update: Update) {
        guard fingerprints != state.withLockedValue({ $0.fingerprints }) else { return }
        let (index, status, skipped) = load(fingerprints)
        state.withLockedValue {
            switch update {
            case .search: $0.search += 1
            case .check(let search): guard search == $0.search else { return }
            }
            self.report(skipped, fingerprints, in: &$0)
            $0.index = index
            $0.status = status
            $0.fingerprints = fingerprints
        }
    }

    /// Searches ROOT for manifests on NIO's thread pool, one search at a time. Not on a
    /// Dispatch queue: the first use of libdispatch sets up its event loop, which needs three
    /// descriptors, and libdispatch traps (SIGILL, no message) when they are not there, as under
    /// a descriptor limit with every connection open; the server's tasks run on NIO's event
    /// loops, so a search could be that first use.
    private func startDiscovery() {
        let starts = state.withLockedValue { state -> Bool in
            guard !state.discovering else { return false }
            state.discovering = true
            return true
        }
        guard starts else { return }
        NIOThreadPool.singleton.submit { [self] _ in
            search()
            state.withLockedValue { $0.discovering = false }
        }
    }

    /// Each manifest's identity now; ROOT's own is always looked at, so a first build into
    /// ROOT is noticed at the next check.
    private func fingerprints(of manifests: [String]) -> [String: FileIdentity?] {
        let own = root + "/" + Manifest.fileName
        return Dictionary(uniqueKeysWithValues: (manifests.contains(own) ? manifests : [own] + manifests).map { ($0, FileIdentity(path: $0)) })
    }

    /// The manifests under ROOT, found as `dppx rewrite` finds them.
    private func discover() -> [String] { ManifestDiscovery.find(under: root) }

    /// Logs each skipped manifest (path, and why) unless this version of it was logged already.
    private func report(_ skipped: [(path: String, reason: String)], _ fingerprints: [String: FileIdentity?]) {
        state.withLockedValue { report(skipped, fingerprints, in: &$0) }
    }

    private func report(_ skipped: [(path: String, reason: String)], _ fingerprints: [String: FileIdentity?], in state: inout State) {
        for (path, reason) in skipped {
            let identity = fingerprints[path] ?? nil
            if let reported = state.reported[path], reported == identity { continue }
            state.reported[path] = identity
            logger?.warning("\(path) \(reason); skipped: its images are served as plain static files until it is fixed")
        }
    }

    /// Reads every manifest there is (`SiteManifestReader`, as `dppx rewrite` reads them); the
    /// images of those that cannot be read are not negotiated (they are returned as `skipped`,
    /// with why), and the status names the first such file.
    private func load(_ fingerprints: [String: FileIdentity?]) -> (ManifestIndex, ManifestStatus, [(path: String, reason: String)]) {
        let own = root + "/" + Manifest.fileName
        let paths = fingerprints.keys.sorted()
        let present = (paths.filter { $0 == own } + paths.filter { $0 != own }).filter { (fingerprints[$0] ?? nil) != nil }
        let reading = SiteManifestReader.read(present, root: root)
        let skipped = reading.problems.map { (path: $0.path, reason: Self.reason(for: $0)) }
        let images = reading.site.images
        if images.isEmpty, let first = skipped.first { return (.empty, .unreadable(path: first.path, reason: first.reason), skipped) }
        if images.isEmpty && fingerprints.values.allSatisfy({ $0 == nil }) { return (.empty, .missing(path: own), skipped) }
        var modified: [String: Int64] = [:]
        for entry in reading.site.entries {
            guard case .some(.some(let identity)) = fingerprints[entry.path] else { continue }
            for image in entry.images where modified[image.path] == nil { modified[image.path] = identity.modified }
        }
        return (ManifestIndex(reading.site, manifestModified: modified), .loaded(images: images.count, manifests: reading.site.paths), skipped)
    }

    /// Why a manifest is skipped, for the log and the status.
    private static func reason(for problem: SiteManifestReader.Problem) -> String {
        switch problem {
        case .unreadable(let error):
            error.detail.map { "cannot be read: \($0)" } ?? "cannot be read (\(error.code)); check its permissions"
        case .invalid(_, let error):
            error.description
        case .outsideRoot(_, let root):
            "is not inside ROOT \(root) (a folder on its way was replaced by a link out of it)"
        }
    }
}
