import DPPXTestSupport
import Foundation

/// Where a browser-test page sends what it measured: a tiny HTTP server on 127.0.0.1 (python3)
/// that answers `GET /report?DATA` with a 1x1 GIF and records DATA, one line per report.
///
/// Pages load `COLLECTOR/report?...` as an image, which also works from another origin and in
/// a browser that cannot dump its DOM (Firefox). A page tags each report with the `run` value
/// the test put in its URL, so a report is never taken for another load's. `frameURL` gives a
/// page holding another in an `<iframe>`: headless Firefox draws a frame's classic scrollbars,
/// where its windowless top-level page takes none.
final class ReportCollector {
    private let folder = ScratchFolder("dppx-collector")
    private let server: PythonServer

    var port: Int { server.port }

    init() throws {
        let script = """
        import html, http.server, sys, urllib.parse
        GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
        class Handler(http.server.BaseHTTPRequestHandler):
            def reply(self, body, content_type):
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                target = urllib.parse.urlsplit(self.path)
                if target.path == "/frame":
                    query = urllib.parse.parse_qs(target.query)
                    width, height = int(query["width"][0]), int(query["height"][0])
                    body = ('<!doctype html><html><head><link rel="icon" href="data:,"><style>html, body { margin: 0; overflow: hidden }'
                            + ' iframe { display: block; border: 0; width: %dpx; height: %dpx }</style></head>' % (width, height)
                            + '<body><iframe src="%s"></iframe></body></html>' % html.escape(query["src"][0], quote=True)).encode()
                    return self.reply(body, "text/html; charset=utf-8")
                if target.path == "/report":
                    with open(sys.argv[1], "a") as reports:
                        reports.write(urllib.parse.unquote(target.query) + "\\n")
                self.reply(GIF, "image/gif")
            def log_message(self, *arguments):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print("Collecting reports on 127.0.0.1 port %d (into %s)" % (server.server_address[1], sys.argv[1]))
        server.serve_forever()
        """
        try script.write(toFile: folder("collector.py"), atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: folder("reports"), contents: nil)
        server = try PythonServer([folder("collector.py"), folder("reports")], name: "the report collector")
    }

    /// `http://127.0.0.1:PORT`, for pages to send reports to.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// A page holding `url` in an `<iframe>` of `width` x `height` CSS px, with no margin or border.
    func frameURL(of url: String, width: Int, height: Int) -> String {
        let source = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
        return origin + "/frame?width=\(width)&height=\(height)&src=" + source
    }

    /// Every report received so far, in order.
    func reports() -> [String] {
        ((try? String(contentsOfFile: folder("reports"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The reports that start with `prefix` (a page's run tag).
    func reports(startingWith prefix: String) -> [String] {
        reports().filter { $0.hasPrefix(prefix) }
    }

    /// The last report of `run`, decoded from the JSON after its `run=RUN ` tag; waits up to 20 s
    /// for the page to send it.
    func observation<Observation: Decodable>(of run: String, as type: Observation.Type = Observation.self) async throws -> Observation {
        let tag = "run=\(run) "
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let report = reports(startingWith: tag).last {
                return try JSONDecoder().decode(Observation.self, from: Data(report.dropFirst(tag.count).utf8))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(message: "the page of run \(run) sent no report; reports: \(reports())")
    }

    /// A page's report that did not come.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
