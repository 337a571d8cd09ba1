import DPPXFiles

/// How many connections the process can hold open: every connection costs a descriptor, and
/// one more while a file is sent from disk, and the rest of the process (event loops, the
/// thread pool, reads into the file cache, a build in dev mode) needs descriptors too. A process
/// out of descriptors fails in places that cannot recover (libdispatch aborts), so the server
/// stops accepting before that: at `maximumConnections`, and accepts again as connections close.
enum DescriptorLimit {
    /// Raises the soft `RLIMIT_NOFILE` to the hard one (`OpenFileLimit`) and returns the
    /// soft limit in force.
    @discardableResult
    static func raiseToHard() -> Int {
        OpenFileLimit.raiseToHard()
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
}
