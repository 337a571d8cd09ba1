import DPPXCore
import DPPXServer
import DPPXTestSupport
import Foundation
import Testing

/// The real server on a socket under many concurrent keep-alive connections, each sending a mix
/// of good and hostile requests; every answer is checked (status, and which variant), socket
/// errors are failures, and resident memory must not keep growing from one round to the next.
///
/// `DPPX_SOAK_SECONDS` sets the total run time (two rounds, default 3 s; `bench/soak` runs 30 s),
/// `DPPX_LOAD_CONNECTIONS` the number of connections (default 256).
@Suite("dppx serve under load", .serialized)
struct ServeLoadTests {
    static let seconds = Double(ProcessInfo.processInfo.environment["DPPX_SOAK_SECONDS"] ?? "") ?? 3
    static let connections = Int(ProcessInfo.processInfo.environment["DPPX_LOAD_CONNECTIONS"] ?? "") ?? 256
    /// How much resident memory may grow between the end of the first round and of the second.
    static let allowedGrowthKilobytes = 48 * 1024

    @Test("256 connections of mixed good and hostile requests: every answer right, no socket error, memory flat")
    func load() async throws {
        try await ExclusiveTests.shared.run { try await self.loadExclusive() }
    }

    private func loadExclusive() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp])
        let running = try await fixture.server().start()
        let port = running.port
        var rounds: [RoundResult] = []
        var resident: [Int] = []
        do {
            for round in 0..<2 {
                rounds.append(try await Self.round(port: port, seconds: Self.seconds / 2, seed: UInt64(round + 1)))
                resident.append(Self.residentKilobytes())
            }
        } catch {
            try? await running.shutdown()
            throw error
        }
        try await running.shutdown()
        for (index, result) in rounds.enumerated() {
            #expect(result.errors.isEmpty, "round \(index + 1): \(result.errors.count) failures, first: \(result.errors.prefix(5))")
            #expect(result.idleConnections == 0, "round \(index + 1): \(result.idleConnections) connections got no answer")
            #expect(result.requests >= Self.connections, "round \(index + 1): only \(result.requests) requests")
        }
        let growth = resident[1] - resident[0]
        #expect(growth < Self.allowedGrowthKilobytes, "VmRSS grew by \(growth) kB between rounds (\(resident) kB)")
        print("ServeLoadTests: \(rounds.map(\.requests)) requests in two rounds of \(Self.seconds / 2) s over \(Self.connections) connections; VmRSS \(resident) kB")
    }

    struct RoundResult: Sendable {
        var requests = 0
        var errors: [String] = []
        var idleConnections = 0
    }

    /// Opens every connection, then has each send requests until `seconds` have passed.
    static func round(port: Int, seconds: Double, seed: UInt64) async throws -> RoundResult {
        let sockets = try await offPool {
            try (0..<connections).map { _ in try RawHTTPConnection(port: port, timeout: .seconds(15)) }
        }
        let deadline = Date().addingTimeInterval(seconds)
        return try await withThrowingTaskGroup(of: RoundResult.self) { group in
            for (index, connection) in sockets.enumerated() {
                group.addTask {
                    try await offPool {
                        worker(connection, port: port, until: deadline, seed: seed &* 1000 &+ UInt64(index))
                    }
                }
            }
            var total = RoundResult()
            for try await result in group {
                total.requests += result.requests
                total.errors += result.errors.prefix(3)
                total.idleConnections += result.idleConnections
            }
            return total
        }
    }

    /// One connection's loop: a request, its check, the next; a new connection only when the
    /// server asked to close one (`Connection: close`).
    static func worker(_ first: RawHTTPConnection, port: Int, until deadline: Date, seed: UInt64) -> RoundResult {
        var result = RoundResult()
        var random = SeededGenerator(seed: seed)
        var connection = first
        repeat {
            let probe = LoadProbe.random(using: &random)
            do {
                let response = try connection.requestBlocking(probe.target, method: probe.method, headers: probe.headers)
                result.requests += 1
                if let problem = probe.check(response) { result.errors.append("\(probe.method) \(probe.target) \(probe.headers): \(problem)") }
                if response.header("Connection")?.lowercased() == "close" {
                    connection = try RawHTTPConnection(port: port, timeout: .seconds(15))
                }
            } catch {
                result.errors.append("\(probe.method) \(probe.target) \(probe.headers): socket error \(error)")
                guard let fresh = try? RawHTTPConnection(port: port, timeout: .seconds(15)) else { break }
                connection = fresh
            }
        } while Date() < deadline && result.errors.count < 20
        if result.requests == 0 { result.idleConnections = 1 }
        return result
    }

    /// VmRSS of this process (the server runs in it), in kB.
    static func residentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// One request of the load mix and what its answer must be.
struct LoadProbe {
    enum Expectation {
        /// 200 (or 206 with the first `prefix` bytes) of the hero variant, or headers only for HEAD.
        case variant(Density, ImageFormat, prefix: Int?)
        case notModified(Density, ImageFormat)
        case file(String)
        case status(Int)
    }

    let method: String
    let target: String
    let headers: [String: String]
    let expectation: Expectation

    static let hints: [(String, Density)] = [("1", Density(1)), ("1.2", Density(1.5)), ("1.5", Density(1.5)),
                                             ("2", Density(2)), ("3", Density(2)), ("0.5", Density(1))]
    static let badHints = ["abc", "NaN", "1e400", "-1", "0", "1, 2", "Infinity", String(repeating: "9", count: 3000)]

    static func random(using random: inout SeededGenerator) -> LoadProbe {
        let hero = "/images/hero.jpg"
        let (hint, density) = hints.randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
            return LoadProbe(method: "GET", target: hero, headers: ["Sec-CH-DPR": hint], expectation: .variant(density, .jpeg, prefix: nil))
        case 2:
            return LoadProbe(method: "GET", target: hero, headers: ["Sec-CH-DPR": badHints.randomElement(using: &random)!, "Cookie": "dpr=zz"],
                             expectation: .variant(Density(1), .jpeg, prefix: nil))
        case 3:
            return LoadProbe(method: "GET", target: ["/../outside.txt", "/%2e%2e/outside.txt", "/images/..%2foutside.txt"].randomElement(using: &random)!,
                             headers: [:], expectation: .status(400))
        case 4:
            return LoadProbe(method: "HEAD", target: hero, headers: ["DPR": hint], expectation: .variant(density, .jpeg, prefix: nil))
        case 5:
            return LoadProbe(method: "GET", target: hero, headers: ["Sec-CH-DPR": hint, "Range": "bytes=0-5"], expectation: .variant(density, .jpeg, prefix: 6))
        case 6:
            return LoadProbe(method: "GET", target: hero, headers: ["Sec-CH-DPR": hint, "If-None-Match": ServerFixture.heroETag(density, .jpeg)],
                             expectation: .notModified(density, .jpeg))
        case 7:
            // Without hints, above 1x, the JPEG (which can carry EXIF density) replaces WebP.
            return LoadProbe(method: "GET", target: "\(hero)?dpr=\(hint)", headers: ["Accept": "image/webp,*/*"],
                             expectation: .variant(density, density == Density(1) ? .webp : .jpeg, prefix: nil))
        case 8:
            return LoadProbe(method: "GET", target: "/digits.txt", headers: [:], expectation: .file("0123456789"))
        default:
            return LoadProbe(method: "GET", target: ["/missing.png", "/.hidden", "/escape/secret.txt"].randomElement(using: &random)!,
                             headers: [:], expectation: .status(404))
        }
    }

    /// nil when the answer is right, else what is wrong.
    func check(_ response: RawHTTPConnection.Response) -> String? {
        if response.text.contains(ServerFixture.secretMarker) { return "leaked a file outside ROOT" }
        switch expectation {
        case .variant(let density, let format, let prefix):
            let body = ServerFixture.heroBody(density, format)
            let location = "/" + ServerFixture.heroPath(density, format)
            guard response.status == (prefix == nil ? 200 : 206) else { return "status \(response.status)" }
            guard response.header("Content-Location") == location else { return "Content-Location \(response.header("Content-Location") ?? "none"), expected \(location)" }
            // The fixture's variants are text, which cannot carry EXIF density: Content-DPR says it above 1x.
            let contentDPR = density == Density(1) ? nil : density.description
            guard response.header("Content-DPR") == contentDPR else { return "Content-DPR \(response.header("Content-DPR") ?? "none")" }
            guard response.header("ETag") == ServerFixture.heroETag(density, format) else { return "ETag \(response.header("ETag") ?? "none")" }
            if method == "HEAD" {
                guard response.header("Content-Length") == String(body.utf8.count) else { return "HEAD Content-Length \(response.header("Content-Length") ?? "none")" }
            } else {
                let expected = prefix.map { String(body.prefix($0)) } ?? body
                guard response.text == expected else { return "body \(response.text.prefix(80).debugDescription)" }
            }
        case .notModified(let density, let format):
            guard response.status == 304 else { return "status \(response.status)" }
            guard response.header("ETag") == ServerFixture.heroETag(density, format) else { return "ETag \(response.header("ETag") ?? "none")" }
        case .file(let text):
            guard response.status == 200, response.text == text else { return "status \(response.status), body \(response.text.prefix(80).debugDescription)" }
        case .status(let status):
            guard response.status == status else { return "status \(response.status), expected \(status)" }
        }
        return nil
    }
}
