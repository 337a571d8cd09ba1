import DPPXBuild
import DPPXCore
import DPPXFiles
import Foundation
import Logging
import NIOCore
import NIOConcurrencyHelpers
import NIOPosix
import ServiceLifecycle

/// `dppx serve`: a static file server over ROOT that answers an image's 1x URL with the variant
/// each screen needs.
///
/// One path answers every request: `Responder` decides the complete answer (files,
/// variants, HTML pages with `Accept-CH` and in dev mode the reload script, error pages,
/// redirects, and through `ServerPages` the server's own pages under `/_dppx/`: DPR script,
/// inspector, live reload) and `AnswerWriter` writes it, right where NIO parsed the request
/// (`ConnectionPipeline`): no conversion to Swift HTTP types, no Swift task, no middleware.
/// `HTTPListener` runs it as a ServiceLifecycle service.
public struct ImageServer: Sendable {
    public let options: ServerOptions
    /// ROOT's manifest, re-read when a build replaces it.
    public let manifests: ManifestStore
    /// Dev mode's state; nil without `--watch`.
    public let session: DevelopmentSession?
    let logger: Logger
    let accessLog: AccessLog?

    /// `logger` receives startup, build and shutdown messages; `accessLog` one line per
    /// request (nil: no access log, `--quiet`), and stays its caller's to close.
    public init(options: ServerOptions, logger: Logger, accessLog: AccessLog?) {
        self.options = options
        self.logger = logger
        self.accessLog = accessLog
        let manifests = ManifestStore(root: options.root, recheckInterval: options.manifestRecheckInterval, logger: logger)
        self.manifests = manifests
        self.session = options.development.map {
            DevelopmentSession(options: $0, manifests: manifests, logger: logger)
        }
    }

    /// Makes Swift concurrency run its tasks on NIO's event loops, the ones the server's sockets
    /// live on, instead of handing work from an event loop to Swift's global pool and back.
    /// Call it once, from the main thread, before any task starts; the process must then never
    /// block inside a task (builds run on their own queue).
    public static func runTasksOnEventLoops() {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Throws unless ROOT is an existing folder.
    public func checkRoot() throws(ServerError) {
        guard let status = FileStatus.at(options.root) else { throw .rootMissing(options.root) }
        guard status.isFolder else { throw .rootNotFolder(options.root) }
    }

    /// The listening server, a ServiceLifecycle service (`HTTPListener`): `onRunning` gets the
    /// port once it listens (useful with port 0). ROOT must exist. Raises the process's
    /// descriptor limit (`DescriptorLimit`).
    public func makeListener(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> HTTPListener {
        let timeout = options.idleTimeout.components
        let responder = makeResponder()
        let maximumConnections = options.maximumConnections ?? DescriptorLimit.maximumConnections(for: DescriptorLimit.raiseToHard())
        let pipeline = ConnectionPipeline(
            timeout: .nanoseconds(timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000),
            responder: responder, accessLog: accessLog)
        return HTTPListener(host: options.host, port: options.port, maximumConnections: maximumConnections,
                            pipeline: pipeline, onRunning: onRunning, logger: quietLogger())
    }

    /// What decides every answer of this server (`Responder`), from its options.
    func makeResponder() -> Responder {
        let files = RootedFileSystem(root: options.root, privateFolders: options.privateFolders, privateFiles: options.privateFiles)
        let pages = ServerPages(manifests: manifests, files: files, session: session, templatesFolder: options.templatesFolder,
                                inspector: options.inspector, picture: options.rewrite?.picture ?? false)
        return Responder(files: files, manifests: manifests, pages: pages, cachePolicy: options.cachePolicy,
                         addsReloadScript: session != nil, rewrite: options.rewrite, logger: logger)
    }

    /// The services `run` starts, in start order: the listener, then dev mode's watcher.
    /// Graceful shutdown goes in reverse, so live-reload streams end before the server waits
    /// for in-flight responses.
    public func makeServices(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> [any Service] {
        var services: [any Service] = [makeListener(onRunning: onRunning)]
        if let session { services.append(DevelopmentService(session: session)) }
        return services
    }

    /// Everything `dppx serve` does: the first build in dev mode, the checks, then serving until
    /// SIGINT or SIGTERM, after which in-flight requests finish (for up to `shutdownGrace`).
    public func run(shutdownGrace: Duration = .seconds(30),
                    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws(ServerError) {
        try await prepare()
        let started = NIOLockedValueBox(false)
        var configuration = ServiceGroupConfiguration(
            services: makeServices { port in
                started.withLockedValue { $0 = true }
                announce(port: port)
                await onRunning(port)
            },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: quietLogger())
        configuration.maximumGracefulShutdownDuration = shutdownGrace
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            if started.withLockedValue({ $0 }) { throw .stopped(String(describing: error)) }
            throw ServerError.binding(error, host: options.host, port: options.port)
        }
        logger.info("stopped")
    }

    /// Like `run`, but in the background and without signal handling: returns once the server
    /// listens. For embedding dppx's server in another program, and for tests.
    public func start() async throws(ServerError) -> RunningServer {
        try await prepare()
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: makeServices { port in
                announce(port: port)
                portContinuation.yield(port)
            },
            logger: quietLogger()))
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            do { try await task.value } catch { throw ServerError.binding(error, host: options.host, port: options.port) }
            throw ServerError.stopped("the server ended before it listened")
        }
        return RunningServer(port: port, group: group, task: task)
    }

    /// Dev mode's first build, then ROOT and the manifest; problems that still allow serving
    /// are logged.
    private func prepare() async throws(ServerError) {
        if let session {
            logger.info("building \(session.options.build.sourceRoot) into \(options.root)")
            do { try await session.build(fatal: true) } catch { throw .buildFailed(error) }
        }
        try checkRoot()
        // A manifest that cannot be used is logged by the store, once per version.
        switch manifests.reload() {
        case let status where status.isLoaded: logger.info("\(status)")
        case .unreadable: break
        case let status: logger.warning("\(status)")
        }
        if session == nil, case .failure(let error) = Result(catching: { () throws(TemplateError) in
            try InspectorTemplate.load(templatesFolder: options.templatesFolder)
        }) {
            logger.warning("the inspector page /_dppx/ is unavailable: \(error)")
        }
    }

    private func announce(port: Int) {
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        logger.info("serving \(options.root) at http://\(host):\(port)/ (Ctrl-C stops)")
    }

    private func quietLogger() -> Logger {
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        return quiet
    }
}
