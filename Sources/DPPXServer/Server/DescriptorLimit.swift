#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections the process can hold open: every connection costs a descriptor, and
/// one more while a file is sent from disk, and the rest of the process (event loops, the
/// thread pool, reads into the file cache, a build in dev mode) needs descriptors too. A process
/// out of descriptors fails in places that cannot recover (libdispatch aborts), so the server
/// stops accepting before that: at `maximumConnections`, and accepts again as connections close.
enum DescriptorLimit {
    /// Raises the soft `RLIMIT_NOFILE` to the hard one (1024 is a common soft default, far below
    /// what a server needs; the hard limit is what the administrator allows), and returns the
    /// soft limit in force.
    @discardableResult
    static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return 1024 }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
        // macOS refuses more than OPEN_MAX for the soft limit, whatever the hard one says.
        wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Self.resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// Descriptors kept for everything but connections.
    static func reserve(for limit: Int) -> Int {
        max(32, limit / 10)
    }

    /// The most connections open at once with `limit` descriptors: two each (the socket and
    /// a file being sent), after the reserve; at least one.
    static func maximumConnections(for limit: Int) -> Int {
        max(1, (limit - reserve(for: limit)) / 2)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
