import DPPXTestSupport
import Foundation
import Testing

/// The real `dppx serve` as a user starts it: startup errors. (Browsers against it:
/// `NegotiatedLayoutTests`.)
@Suite("dppx serve as a process (end to end)")
struct ServeBrowserTests {
    @Test("serve: a missing ROOT (exit 2, wrong usage) and a port in use (exit 1) are clear startup errors")
    func startupErrors() async throws {
        let site = try RenderScenario(masters: [:], svg: false)
        let missing = try await site.dppx("serve", "nowhere", "--port", "0")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere: no such folder"), "\(missing)")

        try site.write("<p>hi</p>", to: "site/index.html")
        let server = try await ServeProcess(["site"], in: site.root)
        let clash = try await site.dppx("serve", "site", "--port", "\(server.port)")
        #expect(clash.status == 1)
        #expect(clash.stderr.contains("port \(server.port) on 127.0.0.1 is already in use"), "\(clash)")

        let usage = try await site.dppx("serve", "site", "--css", "x.css")
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--watch"), "\(usage)")
    }
}
