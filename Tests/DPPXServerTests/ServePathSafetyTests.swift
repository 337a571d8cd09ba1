@testable import DPPXServer
import DPPXFiles
import DPPXTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@Suite("dppx serve never serves anything outside ROOT")
struct ServePathSafetyTests {
    /// Paths that try to leave ROOT or reach hidden files, and the status each must get.
    static let attacks: [(String, Int)] = [
        ("/../outside.txt", 400),
        ("/images/../../outside.txt", 400),
        ("/%2e%2e/outside.txt", 400),
        ("/%2E%2E/outside.txt", 400),
        ("/images/%2e%2e/%2e%2e/outside.txt", 400),
        ("/..%2foutside.txt", 400),
        ("/%2e%2e%2foutside.txt", 400),
        ("/images%2fhero.jpg", 400),
        ("/images%2Fhero@2x.jpg", 400),
        ("/..%5coutside.txt", 400),
        ("/./index.html", 400),
        ("/style.css%00.jpg", 400),
        ("/%zz", 400),
        ("/.hidden", 404),
        ("/%2ehidden", 404),
        ("/.dppx-cache.json", 404),
        ("/escape/secret.txt", 404),
        ("/escape.txt", 404),
        ("/escape/", 404),
    ]

    @Test("through a client library: traversal, encoded separators, hidden files and escaping links fail")
    func clientLevel() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            for (path, status) in Self.attacks {
                let response = try await client.get(path)
                #expect(response.status.code == status, "\(path) gave \(response.status.code)")
                #expect(!response.text.contains(ServerFixture.secretMarker), "\(path) leaked: \(response.text)")
            }
        }
    }

    @Test("over a real socket, byte for byte as an attacker sends them")
    func liveLevel() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.server().start()
        do {
            for (path, status) in Self.attacks {
                let connection = try RawHTTPConnection(port: server.port)
                let response = try await connection.request(path)
                #expect(response.status == status, "\(path) gave \(response.status)")
                #expect(!response.text.contains(ServerFixture.secretMarker), "\(path) leaked")
            }
            let absolute = try await RawHTTPConnection(port: server.port).request("http://127.0.0.1/../outside.txt")
            #expect(absolute.status == 400)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test("links that stay inside ROOT still work")
    func insideLinks() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            let response = try await client.get("/inside.css")
            #expect(response.status == .ok)
            #expect(response.text.contains("color: black"))
        }
    }

    @Test("the rules as a function of the raw path")
    func verdicts() {
        #expect(PathGuard.check("/images/hero@2x.jpg").isAllowed)
        #expect(PathGuard.check("/.well-known/security.txt").isAllowed)
        #expect(PathGuard.check("/photos/caf%C3%A9%20au%20lait.jpg").isAllowed)
        #expect(PathGuard.check("/a/.git/config") == .hidden)
        #expect(!PathGuard.check("/a/%2e%2e/b").isAllowed)
    }

    @Test("RootedFileSystem resolves links before deciding")
    func rootedFileSystem() throws {
        let fixture = try ServerFixture()
        let files = RootedFileSystem(root: fixture.root)
        #expect(files.isInsideRoot(fixture.root + "/style.css"))
        #expect(files.isInsideRoot(fixture.root + "/inside.css"))
        #expect(!files.isInsideRoot(fixture.root + "/escape.txt"))
        #expect(!files.isInsideRoot(fixture.root + "/escape/secret.txt"))
        #expect(!files.isInsideRoot(fixture.root + "/missing.txt"))
        #expect(files.regularFileSize("digits.txt") == 10)
        #expect(files.regularFileSize("docs") == nil)
        #expect(files.regularFileSize("escape.txt") == nil)
    }
}
