import DPPXCore
import DPPXTestSupport
@testable import DPPXServer
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Manifests are data from the repository: one holding numbers no build writes is skipped with
/// one log line, at startup or when it appears under a running server, and never stops it.
@Suite("dppx serve skips manifests with numbers no build writes")
struct ServeHostileManifestTests {
    /// The hero of `ServerFixture` with every size and density set to `value` (a JSON number).
    static func hostileManifest(sizes: String, density: String) -> [UInt8] {
        let variant = #"{"path":"x.jpg","density":\#(density),"format":"jpeg","width":\#(sizes),"height":\#(sizes),"bytes":1,"hash":"a"}"#
        let image = #"{"source":"x.jpg","path":"x.jpg","sourceHash":"s","sourceDensity":\#(density),"intent":"name","width":\#(sizes),"height":\#(sizes),"densityIndependent":false,"skippedDensities":[],"variants":[\#(variant)]}"#
        return Array(#"{"version":1,"images":[\#(image)]}"#.utf8)
    }

    @Test("a root manifest with a width of 2^63-1 or a density of 1e308: requests with DPR 2 get the plain file, one warning names the field")
    func hostileRootManifest() async throws {
        for (sizes, density, field) in [("9223372036854775807", "2", "images.0.width is 9223372036854775807"),
                                        ("10", "1e308", "images.0.sourceDensity")] {
            let fixture = try ServerFixture()
            try fixture.writeBytes(Manifest.fileName, Self.hostileManifest(sizes: sizes, density: density))
            try fixture.write("x.jpg", "plain")
            let capture = LogCapture()
            let running = try await fixture.server(logger: capture.logger()).start()
            let connection = try RawHTTPConnection(port: running.port)
            for _ in 0..<3 {
                let answer = try await connection.request("/x.jpg", headers: ["Sec-CH-DPR": "2"])
                #expect(answer.status == 200 && answer.text == "plain")
            }
            #expect(try await connection.request("/digits.txt").status == 200)
            try await running.shutdown()
            let lines = capture.messages.filter { $0.contains(Manifest.fileName) }
            #expect(lines.count == 1, "\(capture.messages)")
            #expect(lines.first?.hasPrefix("warning: \(fixture.root)/\(Manifest.fileName) is not a valid dppx manifest (\(field)") == true,
                    "\(lines)")
        }
    }

    @Test("a nested manifest with huge numbers written under a running server is skipped with one line; the others still negotiate")
    func hostileManifestFoundByDiscovery() async throws {
        let fixture = try ServerFixture()
        let capture = LogCapture()
        let running = try await fixture.server(logger: capture.logger()).start()
        let connection = try RawHTTPConnection(port: running.port)
        try fixture.writeBytes("assets/\(Manifest.fileName)", Self.hostileManifest(sizes: "9223372036854775807", density: "1e308"))
        try fixture.write("assets/x.jpg", "plain")
        // Discovery runs every `ManifestStore.discoveryEvery` checks, a check per request here.
        var logged = false
        for _ in 0..<300 where !logged {
            let hero = try await connection.request("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"])
            #expect(hero.text == ServerFixture.heroBody(Density(2), .jpeg), "ROOT's manifest still picks variants")
            let nested = try await connection.request("/assets/x.jpg", headers: ["Sec-CH-DPR": "2"])
            #expect(nested.status == 200 && nested.text == "plain")
            logged = capture.messages.contains { $0.contains("assets/\(Manifest.fileName)") }
            if !logged { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(logged, "the skipped manifest is logged once discovery finds it")
        for _ in 0..<40 { _ = try await connection.request("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"]) }
        try await running.shutdown()
        let lines = capture.messages.filter { $0.contains("assets/\(Manifest.fileName)") }
        #expect(lines.count == 1, "one line per version of the file: \(lines)")
        #expect(lines.first?.contains("skipped: its images are served as plain static files until it is fixed") == true)
    }

    @Test("a root manifest that is a FIFO or a link to /dev/zero is named for what it is, not 'Permission denied'")
    func manifestThatIsNoFile() throws {
        for (make, spelled) in [({ (path: String) in _ = mkfifo(path, 0o644) }, "a named pipe (FIFO)"),
                                ({ (path: String) in try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero") },
                                 "a character device (such as /dev/zero)")] {
            let scratch = ScratchFolder("dppx-manifest-kind")
            try FileManager.default.createDirectory(atPath: scratch("root"), withIntermediateDirectories: true)
            make(scratch("root/\(Manifest.fileName)"))
            let capture = LogCapture()
            let store = ManifestStore(root: scratch("root"), recheckInterval: .zero, logger: capture.logger())
            let reason = "cannot be read: it is \(spelled), not a regular file; replace it with the file itself"
            #expect(store.status() == .unreadable(path: scratch("root/\(Manifest.fileName)"), reason: reason))
            #expect(capture.messages.count == 1 && capture.messages[0].contains(reason), "\(capture.messages)")
            #expect(!store.status().description.contains("Permission denied"))
        }
    }
}
