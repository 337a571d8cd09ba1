import Foundation

/// A plain static file server for browser tests (`python3 -m http.server` on 127.0.0.1 and a
/// free port), so what the browser fetches is decided by the page alone.
final class StaticServer {
    let root: String
    private let server: PythonServer

    var port: Int { server.port }

    /// Serves `root`; throws when python3 is missing or the server does not come up.
    init(root: String) throws {
        self.root = root
        server = try PythonServer(["-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root], name: "python3 -m http.server")
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }
}
