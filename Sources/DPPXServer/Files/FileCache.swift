import NIOCore
import NIOConcurrencyHelpers
import NIOPosix

/// What `RootedFileSystem` remembers between requests, per absolute path: that the path was
/// found inside ROOT (for the file it reached then), and the bytes of small files.
///
/// Everything is keyed by `FileIdentity`, so a replaced or edited file is never answered from
/// memory. Contents are bounded by `capacity` bytes; the oldest entries go first. The list of
/// confirmed paths is bounded too (it is cleared when it grows past `maxPaths`), so a client
/// asking for endless distinct URLs cannot grow the server.
final class FileCache: Sendable {
    private struct Entry {
        var identity: FileIdentity
        var contents: ByteBuffer?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Paths with contents, oldest first.
        var order: [String] = []
        var bytes = 0
    }

    let capacity: Int
    let maxPaths: Int
    private let state = NIOLockedValueBox(State())
    /// Reads in progress, by path and the version being read.
    private let loads = NIOLockedValueBox([LoadKey: EventLoopFuture<FileIdentity?>]())

    private struct LoadKey: Hashable {
        let path: String
        let identity: FileIdentity
    }

    init(capacity: Int, maxPaths: Int = 10_000) {
        self.capacity = capacity
        self.maxPaths = maxPaths
    }

    /// Whether `path` was confirmed inside ROOT while it reached the file `identity` names.
    func isConfirmedInside(_ path: String, _ identity: FileIdentity) -> Bool {
        state.withLockedValue { $0.entries[path]?.identity == identity }
    }

    /// Records that `path`, reaching `identity`, is inside ROOT.
    func confirmInside(_ path: String, _ identity: FileIdentity) {
        state.withLockedValue { state in
            if state.entries[path]?.identity == identity { return }
            if state.entries.count >= maxPaths { state = State() }
            Self.dropContents(of: path, from: &state)
            state.entries[path] = Entry(identity: identity, contents: nil)
        }
    }

    /// The bytes of `path` when they were read from the same version of the file.
    func contents(of path: String, identity: FileIdentity) -> ByteBuffer? {
        state.withLockedValue { state in
            guard let entry = state.entries[path], entry.identity == identity else { return nil }
            return entry.contents
        }
    }

    /// Keeps `contents`, read from the file `identity` names, unless they alone exceed the
    /// capacity; older contents make room.
    func store(_ contents: ByteBuffer, for path: String, identity: FileIdentity) {
        let size = contents.readableBytes
        guard size <= capacity else { return }
        state.withLockedValue { state in
            Self.dropContents(of: path, from: &state)
            while state.bytes + size > capacity, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.bytes -= state.entries[oldest]?.contents?.readableBytes ?? 0
                state.entries[oldest]?.contents = nil
            }
            if state.entries.count >= maxPaths { state = State() }
            state.entries[path] = Entry(identity: identity, contents: contents)
            state.order.append(path)
            state.bytes += size
        }
    }

    /// The identity of what `read` stored for `path` (nil: nothing), read once for any number
    /// of callers asking for the same version at the same time. `read` blocks: it runs on NIO's
    /// thread pool, never on Swift's cooperative pool (which synchronous build work may hold),
    /// and each caller's future completes on its own `eventLoop`.
    func sharedLoad(of path: String, identity: FileIdentity, on eventLoop: any EventLoop,
                    read: @escaping @Sendable () -> FileIdentity?) -> EventLoopFuture<FileIdentity?> {
        let key = LoadKey(path: path, identity: identity)
        let (future, started) = loads.withLockedValue { loads -> (EventLoopFuture<FileIdentity?>, EventLoopPromise<FileIdentity?>?) in
            if let running = loads[key] { return (running, nil) }
            let promise = eventLoop.makePromise(of: FileIdentity?.self)
            loads[key] = promise.futureResult
            return (promise.futureResult, promise)
        }
        if let started {
            NIOThreadPool.singleton.submit { state in
                let loaded = state == .active ? read() : nil
                // Forgotten before anyone hears of it: a later request reads the file again.
                self.loads.withLockedValue { loads in
                    if loads[key] == started.futureResult { loads[key] = nil }
                }
                started.succeed(loaded)
            }
        }
        return future.hop(to: eventLoop)
    }

    /// Bytes of contents held now.
    var heldBytes: Int { state.withLockedValue { $0.bytes } }

    private static func dropContents(of path: String, from state: inout State) {
        guard let held = state.entries[path]?.contents else { return }
        state.bytes -= held.readableBytes
        state.entries[path]?.contents = nil
        state.order.removeAll { $0 == path }
    }
}
