import DPPXBuild
import DPPXCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ROOT's `dppx-manifest.json`, re-read when it changes on disk.
///
/// `dppx build` may run while the server does (it replaces the manifest atomically); the store
/// notices within `recheckInterval` by comparing the file's identity, size and modification
/// time, so a long-running server never negotiates on a stale list. Dev mode reloads right
/// after each build.
public final class ManifestStore: Sendable {
    /// The manifest file.
    public let path: String
    /// How long a checked manifest is trusted before its file is looked at again.
    public let recheckInterval: Duration

    private struct State: Sendable {
        var index = ManifestIndex.empty
        var status = ManifestStatus.missing(path: "")
        var fingerprint: FileIdentity?
        var checked: ContinuousClock.Instant?
    }

    private let state = LockedValue(State())

    public init(root: String, recheckInterval: Duration = .seconds(1)) {
        self.path = (root.hasSuffix("/") ? root : root + "/") + Manifest.fileName
        self.recheckInterval = recheckInterval
        reload()
    }

    /// The manifest to negotiate on now.
    public func index() -> ManifestIndex {
        refreshIfDue()
        return state.withLock { $0.index }
    }

    /// Whether the manifest is in use, and if not, why.
    public func status() -> ManifestStatus {
        refreshIfDue()
        return state.withLock { $0.status }
    }

    /// Reads the file again now (after a build). Returns the new status.
    @discardableResult
    public func reload() -> ManifestStatus {
        let fingerprint = FileIdentity(path: path)
        let (index, status) = load(fingerprint: fingerprint)
        state.withLock {
            $0.index = index
            $0.status = status
            $0.fingerprint = fingerprint
            $0.checked = .now
        }
        return status
    }

    private func refreshIfDue() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> Bool in
            guard let checked = state.checked, now - checked < recheckInterval else {
                state.checked = now
                return true
            }
            return false
        }
        guard due else { return }
        let fingerprint = FileIdentity(path: path)
        guard fingerprint != state.withLock({ $0.fingerprint }) else { return }
        let (index, status) = load(fingerprint: fingerprint)
        state.withLock {
            $0.index = index
            $0.status = status
            $0.fingerprint = fingerprint
        }
    }

    private func load(fingerprint: FileIdentity?) -> (ManifestIndex, ManifestStatus) {
        guard fingerprint != nil else { return (.empty, .missing(path: path)) }
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.read(path)
        } catch {
            return (.empty, .unreadable(path: path, reason: "cannot be read (\(String(cString: strerror(error.errno)))); check its permissions"))
        }
        do {
            let manifest = try Manifest.decode(bytes)
            return (ManifestIndex(manifest), .loaded(images: manifest.images.count))
        } catch {
            return (.empty, .unreadable(path: path, reason: error.description))
        }
    }
}
