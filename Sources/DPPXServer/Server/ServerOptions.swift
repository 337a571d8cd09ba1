import DPPXCore
import DPPXRewrite

/// Everything `dppx serve` needs to know.
public struct ServerOptions: Sendable {
    /// The folder served: variants, pages and `dppx-manifest.json`.
    public var root: String
    /// The address to listen on: `127.0.0.1` (this machine only) or `0.0.0.0` (every interface).
    public var host: String
    /// The TCP port; 0 picks a free one (printed at startup).
    public var port: Int
    /// `Cache-Control` for files.
    public var cachePolicy: CachePolicy
    /// The connection timeout (`--idle-timeout`): a connection is closed when it completes no
    /// request head for this long while nothing is in progress (idle keep-alive connections,
    /// headers dribbled byte by byte), when a request body has not ended this long after its
    /// head, or when its answers have not moved for this long (a client that stopped reading).
    public var idleTimeout: Duration
    /// The most connections open at once; nil: as many as the descriptor limit allows
    /// (`DescriptorLimit`). Further clients wait in the listen queue.
    public var maximumConnections: Int?
    /// How often ROOT's manifest is checked for a new build.
    public var manifestRecheckInterval: Duration
    /// Dev mode (`--watch SRC`): build, watch, rebuild and reload pages; nil in production.
    public var development: DevelopmentOptions?
    /// Folders under ROOT never served (`PrivateFiles`): the masters, the build cache and the
    /// templates, when they lie there.
    public var privateFolders: [String] = []
    /// Files under ROOT never served (`PrivateFiles`): the project file (`--config`, whatever
    /// its name) and the access log, when they lie there.
    public var privateFiles: [String] = []
    /// The inspector at `/_dppx/`: on in dev mode; in production only when asked for
    /// (`--inspector`), as it tells anyone what the server holds.
    public var inspector: Bool
    /// A folder with the user's copies of the server's templates (`--templates`).
    public var templatesFolder: String?
    /// How HTML pages and stylesheets are rewritten as they are served (`[rewrite]` in the
    /// project file): as `dppx rewrite` would write them. Nil serves them as they are.
    public var rewrite: RewriteOptions?

    // Declared in `SettingRegistry`, with the flags and project-file keys that change them.
    public static let defaultHost = SettingRegistry.host.fallback
    public static let defaultPort = SettingRegistry.port.fallback
    public static let defaultIdleTimeout: Duration = .seconds(SettingRegistry.idleTimeout.fallback)

    public init(root: String, host: String = ServerOptions.defaultHost, port: Int = ServerOptions.defaultPort,
                cachePolicy: CachePolicy = .revalidate, idleTimeout: Duration = ServerOptions.defaultIdleTimeout,
                manifestRecheckInterval: Duration = .seconds(1), development: DevelopmentOptions? = nil,
                templatesFolder: String? = nil, maximumConnections: Int? = nil, inspector: Bool? = nil) {
        self.root = root
        self.host = host
        self.port = port
        self.cachePolicy = cachePolicy
        self.idleTimeout = idleTimeout
        self.manifestRecheckInterval = manifestRecheckInterval
        self.development = development
        self.inspector = inspector ?? (development != nil)
        self.templatesFolder = templatesFolder
        self.maximumConnections = maximumConnections
    }
}

extension ServerOptions {
    /// The server `settings` describe (`[serve]`, `[rewrite]`, `[build] templates` and their
    /// flags), serving `root`, with the defaults for what they do not say: `dppx serve` maps its
    /// settings here as `dppx build` does with `BuildOptions(settings:)`. Pages are rewritten as
    /// they are served when `[rewrite] pages` is said.
    ///
    /// Throws when `cache-control` is not a list of directives (a flag's value is checked
    /// before, so this one came from the project file).
    public init(settings: ProjectSettings, root: String) throws(CachePolicyError) {
        self.init(root: root, host: SettingRegistry.host.resolved(in: settings), port: SettingRegistry.port.resolved(in: settings),
                  idleTimeout: .seconds(SettingRegistry.idleTimeout.resolved(in: settings)), templatesFolder: settings.templates)
        if let cacheControl = settings.cacheControl { cachePolicy = try CachePolicy(parsing: cacheControl) }
        if settings.rewritePages != nil { rewrite = RewriteOptions(settings: settings) }
    }
}
