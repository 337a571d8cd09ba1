import DPPXTestSupport
import Foundation

/// How a test page tells what it laid out, the same way in both browsers: it writes its
/// observation (JSON) into `<pre id="observation">`, which Chromium's DOM dump returns, and sends
/// it to the `ReportCollector` named in its query (`?run=...&collector=...`), as Firefox cannot
/// dump its DOM.
enum PageReport {
    /// Script lines that report the JSON string in the JavaScript variable `variable`.
    static func script(sending variable: String) -> String {
        """
        document.getElementById("observation").textContent = \(variable);
        const reportParams = new URLSearchParams(location.search);
        if (reportParams.get("collector")) {
          const beacon = new Image();
          beacon.src = reportParams.get("collector") + "/report?" + encodeURIComponent("run=" + reportParams.get("run") + " " + \(variable));
          document.body.appendChild(beacon);
        }
        """
    }

    /// What `page` (served by `server`) reported in Chromium at `dpr` in a `window`.
    static func chromium<Observation: Decodable>(_ chromium: Chromium, _ page: String, on server: StaticServer, dpr: Double,
                                                 window: (width: Int, height: Int) = (1000, 800),
                                                 as type: Observation.Type = Observation.self) async throws -> Observation {
        let dom = try await chromium.dumpDOM(of: server.url(page), deviceScaleFactor: dpr, windowSize: window)
        guard let json = Chromium.text(ofElementWithID: "observation", in: dom) else {
            throw ReportCollector.Failure(message: "the page wrote no observation: \(dom)")
        }
        return try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
    }

    /// What `page` (served by `server`) reported in Firefox at `dpr` in a `window`, as run `run`.
    static func firefox<Observation: Decodable>(_ firefox: Firefox, _ page: String, on server: StaticServer, collector: ReportCollector,
                                                run: String, dpr: Double, window: (width: Int, height: Int) = (1000, 800),
                                                as type: Observation.Type = Observation.self) async throws -> Observation {
        let profile = try Firefox.Profile(devicePixelRatio: dpr)
        try await firefox.load(server.url("\(page)?run=\(run)&collector=\(collector.origin)"), in: profile, windowSize: window)
        return try await collector.observation(of: run, as: Observation.self)
    }
}
