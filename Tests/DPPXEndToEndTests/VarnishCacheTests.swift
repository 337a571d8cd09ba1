import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `dppx serve` behind a real shared cache, Varnish, which honours `Vary`: each DPR gets its own
/// cached variant, and a repeat is served from the cache. Runs only where `varnishd` is
/// installed (`scripts/install-deps --test` installs it).
@Suite("dppx serve behind Varnish (end to end)", .serialized,
       .enabled(if: Varnish.executable != nil, "varnishd is not installed (apt-get install varnish): Varnish test skipped"))
struct VarnishCacheTests {
    @Test("Sec-CH-DPR 1 and 2 each get their own variant through the cache, and a repeat is a cache hit")
    func varyThroughVarnish() async throws {
        let site = try RenderScenario(masters: ["photo@2x.jpg": (800, 500)], svg: false)
        try await site.build(into: "public")
        let oneX = try #require(FileManager.default.contents(atPath: site.scratch("public/photo.jpg")))
        let twoX = try #require(FileManager.default.contents(atPath: site.scratch("public/photo@2x.jpg")))
        #expect(oneX != twoX)
        let server = try await ServeProcess(["public", "--cache-control", "public, max-age=600"], in: site.root)
        let varnish = try await Varnish(backendPort: server.port)
        do {
            try await Self.checks(varnish: varnish, server: server, oneX: oneX, twoX: twoX)
        } catch {
            await varnish.stop()
            throw error
        }
        await varnish.stop()
        #expect(try await server.interrupt() == 0)
    }

    @Test("the normalising VCL of docs/serving-and-caching.md: DPRs 1.25, 1.4 and 1.5 share the 1.5x copy, 2.5 and 3 the 2x one; 3 of 6 requests reach dppx")
    func normalisedThroughVarnish() async throws {
        let vcl = try Self.documentedVCL()
        let site = try RenderScenario(masters: ["photo@2x.jpg": (800, 500)], svg: false)
        try await site.build(into: "public")
        let server = try await ServeProcess(["public", "--cache-control", "public, max-age=600"], in: site.root)
        let varnish = try await Varnish(backendPort: server.port, vcl: vcl.replacingOccurrences(of: "\"8080\"", with: "\"PORT\""))
        let requests: [(dpr: String, file: String, hit: Bool)] = [
            ("1.25", "/photo@1.5x.jpg", false), ("1.4", "/photo@1.5x.jpg", true), ("1.5", "/photo@1.5x.jpg", true),
            ("3", "/photo@2x.jpg", false), ("2.5", "/photo@2x.jpg", true), ("abc", "/photo.jpg", false),
        ]
        do {
            for request in requests {
                let answer = try await varnish.get("/photo.jpg", ["Sec-CH-DPR": request.dpr])
                #expect(answer.status == 200)
                #expect(answer.header("Content-Location") == request.file, "DPR \(request.dpr)")
                #expect(answer.isCacheHit == request.hit, "DPR \(request.dpr): X-Varnish \(answer.header("X-Varnish") ?? "none")")
            }
        } catch {
            await varnish.stop()
            throw error
        }
        await varnish.stop()
        #expect(try await server.interrupt() == 0)
        #expect(server.log().split(separator: "\n").filter { $0.contains("/photo.jpg") }.count == 3, "\(server.log())")
    }

    /// The VCL with `sub vcl_recv` from "Serving past one machine" in docs/serving-and-caching.md, as printed there.
    static func documentedVCL() throws -> String {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/serving-and-caching.md").path
        let text = try String(contentsOfFile: page, encoding: .utf8)
        let blocks = text.components(separatedBy: "```vcl\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let block = try #require(blocks.first { $0.contains("sub vcl_recv") }, "docs/serving-and-caching.md has a VCL block with sub vcl_recv")
        let indent = block.prefix { $0 == " " }.count
        return block.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let spaces = line.prefix(while: { $0 == " " }).count
            return String(line.dropFirst(min(indent, spaces)))
        }.joined(separator: "\n")
    }

    /// A negotiated JPEG answer without the APP1 EXIF segment the server wrote in after SOI.
    static func withoutDensity(_ body: Data) -> Data {
        let bytes = [UInt8](body)
        guard bytes.count > 6, bytes[2] == 0xFF, bytes[3] == 0xE1 else { return body }
        let length = Int(bytes[4]) << 8 | Int(bytes[5])
        return Data(bytes[..<2] + bytes[(4 + length)...])
    }

    @Test("a variant missing on disk: its fallback is not cached for anyone, so DPR 2 gets the 2x file once it is back; logged once")
    func missingVariantThroughVarnish() async throws {
        let site = try RenderScenario(masters: ["photo@2x.jpg": (800, 500)], svg: false)
        try await site.build(into: "public")
        let twoXPath = site.scratch("public/photo@2x.jpg")
        try FileManager.default.moveItem(atPath: twoXPath, toPath: site.scratch("aside.jpg"))
        let server = try await ServeProcess(["public", "--cache-control", "public, max-age=600"], in: site.root)
        let varnish = try await Varnish(backendPort: server.port)
        do {
            for _ in 0..<2 {
                let fallback = try await varnish.get("/photo.jpg", ["Sec-CH-DPR": "2"])
                #expect(fallback.status == 200 && !fallback.isCacheHit)
                #expect(fallback.header("Cache-Control") == "private, max-age=600")
                #expect(fallback.header("Vary") == "Sec-CH-DPR", "the same Vary as the variant's answer")
            }
            try FileManager.default.moveItem(atPath: site.scratch("aside.jpg"), toPath: twoXPath)
            let back = try await varnish.get("/photo.jpg", ["Sec-CH-DPR": "2"])
            #expect(back.header("Content-Location") == "/photo@2x.jpg", "the cache held the 1x fallback for a DPR 2 screen")
            #expect(back.header("Cache-Control") == "public, max-age=600")
            let lines = server.log().split(separator: "\n").filter { $0.contains("photo@2x.jpg is listed in a manifest but missing on disk") }
            #expect(lines.count == 1, "\(server.log())")
        } catch {
            await varnish.stop()
            throw error
        }
        await varnish.stop()
        #expect(try await server.interrupt() == 0)
    }

    static func checks(varnish: Varnish, server: ServeProcess, oneX: Data, twoX: Data) async throws {

        let first = try await varnish.get("/photo.jpg", ["Sec-CH-DPR": "1"])
        #expect(first.status == 200)
        #expect(first.header("Content-Location") == "/photo.jpg")
        #expect(Data(first.body) == oneX, "1x needs no density: the file as it is")
        #expect(first.header("Vary")?.contains("Sec-CH-DPR") == true)
        #expect(!first.isCacheHit, "X-Varnish \(first.header("X-Varnish") ?? "none")")

        let second = try await varnish.get("/photo.jpg", ["Sec-CH-DPR": "2"])
        #expect(second.status == 200)
        #expect(second.header("Content-Location") == "/photo@2x.jpg", "the cache must not answer a DPR 2 screen with the DPR 1 copy")
        #expect(Self.withoutDensity(Data(second.body)) == twoX, "the 2x file with its EXIF density written in")
        #expect(!second.isCacheHit, "X-Varnish \(second.header("X-Varnish") ?? "none")")

        let repeated = try await varnish.get("/photo.jpg", ["Sec-CH-DPR": "2"])
        #expect(repeated.status == 200)
        #expect(repeated.isCacheHit, "X-Varnish \(repeated.header("X-Varnish") ?? "none"), Age \(repeated.header("Age") ?? "none")")
        #expect(repeated.header("Content-Location") == "/photo@2x.jpg")
        #expect(repeated.body == second.body)

        let again = try await varnish.get("/photo.jpg", ["Sec-CH-DPR": "1"])
        #expect(again.isCacheHit)
        #expect(again.header("Content-Location") == "/photo.jpg")
        #expect(Data(again.body) == oneX)

        // The backend saw exactly the two misses for the image. Its access-log line is written
        // once the body is sent, so give the second one a moment to reach the file.
        func backendRequests() -> Int { server.log().split(separator: "\n").filter { $0.contains("/photo.jpg") }.count }
        var backendHits = backendRequests()
        for _ in 0..<40 where backendHits < 2 {
            try await Task.sleep(for: .milliseconds(50))
            backendHits = backendRequests()
        }
        #expect(backendHits == 2, "\(server.log())")
    }
}

/// `varnishd` in the foreground on a free port of 127.0.0.1, with a minimal VCL whose only
/// backend is `dppx serve`; the built-in VCL does the rest (it honours `Vary` and `Cache-Control`).
final class Varnish: @unchecked Sendable {
    static let executable: String? = ExternalProcess.which("varnishd")
        ?? ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The VCL, with `PORT` for the backend's port.
    static let vcl = """
    vcl 4.1;

    backend dppx {
        .host = "127.0.0.1";
        .port = "PORT";
    }
    """

    let port: Int
    private let process: ChildProcess
    private let folder = ScratchFolder("dppx-varnish")

    init(backendPort: Int, vcl: String = Varnish.vcl) async throws {
        let executable = try #require(Self.executable)
        try vcl.replacingOccurrences(of: "PORT", with: String(backendPort))
            .write(toFile: folder("dppx.vcl"), atomically: true, encoding: .utf8)
        port = try Self.freePort()
        let log = folder("varnishd.log")
        let process = try ExternalProcess.launch(executable, ["-F", "-a", "127.0.0.1:\(port)", "-f", folder("dppx.vcl"), "-n", folder("work"), "-s", "malloc,32m"], logFile: log)
        self.process = process
        let port = self.port
        let ready = try await offPool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && process.isRunning {
                if (try? RawHTTPConnection.get(port: port, path: "/dppx-manifest.json", headers: [:]))?.status == 200 { return true }
                usleep(100_000)
            }
            return false
        }
        guard ready else {
            stopBlocking()
            throw RawHTTPConnection.Failure(description: "varnishd did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }

    func get(_ path: String, _ headers: [String: String]) async throws -> RawHTTPConnection.Response {
        let port = self.port
        return try await offPool { try RawHTTPConnection.get(port: port, path: path, headers: headers) }
    }

    /// SIGKILL for the cache process (the manager's child) and then the manager, so neither
    /// outlives the test.
    func stop() async {
        _ = try? await offPool { self.stopBlocking() }
    }

    func stopBlocking() {
        if process.isRunning {
            for child in Self.children(of: process.pid) { kill(child, SIGKILL) }
        }
        process.stop()
    }

    deinit { stopBlocking() }

    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }

    /// A port of 127.0.0.1 free a moment ago.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw RawHTTPConnection.Failure(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}


extension RawHTTPConnection.Response {
    /// Varnish's `X-Varnish` holds two transaction ids on a hit (this request's and the one
    /// that stored the object), one on a miss or pass.
    var isCacheHit: Bool { (header("X-Varnish")?.split(separator: " ").count ?? 0) == 2 }
}
