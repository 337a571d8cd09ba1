@testable import DPPXServer
import DPPXTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOConcurrencyHelpers
import NIOPosix
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Small files are answered from memory; these tests change files under a running server and
/// check that no request ever gets the old bytes (the first request for a file is sent from
/// disk, the next ones from memory).
@Suite("dppx serve's in-memory files")
struct ServeFileCacheTests {
    @Test("a file rewritten in place (same size) is served new at once")
    func rewrittenInPlace() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            #expect(try await client.get("/digits.txt").text == "0123456789")
            let first = try await client.get("/digits.txt")
            try fixture.write("digits.txt", "9876543210")
            let second = try await client.get("/digits.txt")
            #expect(second.text == "9876543210")
            #expect(second.headers[.eTag] != first.headers[.eTag])
            // The old tag no longer validates.
            let stale = try await client.get("/digits.txt", [(.ifNoneMatch, try #require(first.headers[.eTag]))])
            #expect(stale.status == .ok)
        }
    }

    @Test("a file replaced by rename (as dppx build does) is served new at once, ranges too")
    func replacedByRename() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            #expect(try await client.get("/style.css").text == "body { color: black; }\n")
            try "body { color: red; }\n".write(toFile: fixture.root + "/.tmp-style", atomically: false, encoding: .utf8)
            #expect(rename(fixture.root + "/.tmp-style", fixture.root + "/style.css") == 0)
            #expect(try await client.get("/style.css").text == "body { color: red; }\n")
            #expect(try await client.get("/style.css", [(.range, "bytes=14-16")]).text == "red")
        }
    }

    @Test("a link pointed out of ROOT after it was served is refused")
    func linkRetargeted() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            #expect(try await client.get("/inside.css").status == .ok)
            try FileManager.default.removeItem(atPath: fixture.root + "/inside.css")
            try FileManager.default.createSymbolicLink(atPath: fixture.root + "/inside.css", withDestinationPath: fixture.scratch("outside.txt"))
            let response = try await client.get("/inside.css")
            #expect(response.status == .notFound)
            #expect(!response.text.contains(ServerFixture.secretMarker))
        }
    }

    @Test("the cache holds at most its capacity, dropping the oldest contents")
    func capacity() throws {
        let fixture = try ServerFixture()
        let cache = FileCache(capacity: 10)
        let paths = ["digits.txt", "style.css", "app.js"].map { fixture.root + "/" + $0 }
        let identities = try paths.map { try #require(FileIdentity(path: $0)) }
        cache.store(ByteBuffer(string: "123456"), for: paths[0], identity: identities[0])
        cache.store(ByteBuffer(string: "abcd"), for: paths[1], identity: identities[1])
        #expect(cache.heldBytes == 10)
        cache.store(ByteBuffer(string: "xyz"), for: paths[2], identity: identities[2])
        #expect(cache.heldBytes == 7)
        #expect(cache.contents(of: paths[0], identity: identities[0]) == nil)
        #expect(cache.contents(of: paths[1], identity: identities[1]) == ByteBuffer(string: "abcd"))
        // Contents larger than the whole cache are not kept; a different identity never matches.
        cache.store(ByteBuffer(string: "far too long"), for: paths[0], identity: identities[0])
        #expect(cache.contents(of: paths[0], identity: identities[0]) == nil)
        #expect(cache.contents(of: paths[1], identity: identities[2]) == nil)
    }

    @Test("files above the in-memory limit are sent from disk, whole and in ranges")
    func overLimit() async throws {
        let fixture = try ServerFixture()
        let bytes = (0..<(2 * 1024 * 1024 + 5)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try fixture.writeBytes("big.bin", bytes)
        try await fixture.server().test { client in
            #expect(Array(try await client.get("/big.bin").body.readableBytesView) == bytes)
            // Across the pieces the body is written in.
            let part = try await client.get("/big.bin", [(.range, "bytes=262000-800000")])
            #expect(part.status == .partialContent)
            #expect(Array(part.body.readableBytesView) == Array(bytes[262_000...800_000]))
            let tail = try await client.get("/big.bin", [(.range, "bytes=-3")])
            #expect(Array(tail.body.readableBytesView) == Array(bytes.suffix(3)))
        }
    }

    @Test("requests arriving together for one version of a small file share one read of it")
    func sharedLoad() async throws {
        let fixture = try ServerFixture()
        let path = fixture.root + "/digits.txt"
        let identity = try #require(FileIdentity(path: path))
        let cache = FileCache(capacity: 1 << 20)
        let reads = NIOLockedValueBox(0)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let loaded = try await withThrowingTaskGroup(of: FileIdentity?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await cache.sharedLoad(of: path, identity: identity, on: eventLoop) {
                        reads.withLockedValue { $0 += 1 }
                        usleep(300_000)
                        return identity
                    }.get()
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(loaded.count == 50 && loaded.allSatisfy { $0 == identity })
        #expect(reads.withLockedValue({ $0 }) == 1, "\(reads.withLockedValue({ $0 })) reads for 50 requests at once")
        // Once done, a new version (or a later request for a dropped one) reads again.
        _ = try await cache.sharedLoad(of: path, identity: identity, on: eventLoop) { reads.withLockedValue { $0 += 1 }; return identity }.get()
        #expect(reads.withLockedValue({ $0 }) == 2)
    }

    @Test("an answer that needs a file read is served while blocking work holds every thread of Swift's cooperative pool")
    func servedWhileTaskThreadsAreBusy() async throws {
        // Holds the pool for seconds: not beside the tests that time their answers.
        try await ExclusiveTests.shared.run { try await self.servedWhileTaskThreadsAreBusyExclusive() }
    }

    private func servedWhileTaskThreadsAreBusyExclusive() async throws {
        // The 2x hero is a real JPEG the server writes EXIF density into: the first answer
        // needs its bytes read, and nothing is in memory yet.
        let fixture = try ServerFixture(jpegHero: true)
        let running = try await fixture.server().start()
        let port = running.port
        // Synchronous work on every thread of the pool, as a dev-mode build's would be.
        let blockers = (0..<(2 * ProcessInfo.processInfo.activeProcessorCount)).map { _ in
            Task.detached { usleep(3_000_000) }
        }
        // Timed on a thread of its own: this test's own awaiting needs the pool.
        let (status, location, elapsed) = try await offPool { () -> (Int, String?, Duration) in
            usleep(200_000)
            let started = ContinuousClock.now
            let answer = try RawHTTPConnection(port: port, timeout: .seconds(10))
                .requestBlocking("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"])
            return (answer.status, answer.header("Content-Location"), ContinuousClock.now - started)
        }
        for blocker in blockers { _ = await blocker.value }
        try await running.shutdown()
        #expect(status == 200 && location == "/images/hero@2x.jpg")
        #expect(elapsed < .milliseconds(1500), "the answer took \(elapsed) while the pool was busy for 3 s")
    }

    @Test("a bounded cache empties when full and fills again with what is asked for")
    func boundedCache() {
        let cache = BoundedCache<Int, String>(maxEntries: 3)
        for key in 0..<3 { cache.store("\(key)", for: key) }
        #expect(cache.count == 3 && cache[1] == "1")
        cache.store("1 again", for: 1)
        #expect(cache.count == 3, "replacing a key does not empty it")
        #expect(cache.value(for: 9) { "nine" } == "nine")
        #expect(cache.count == 1 && cache[0] == nil && cache[9] == "nine")
        #expect(cache.value(for: 9) { "made twice" } == "nine")
    }

    @Test("HTTP dates: IMF-fixdate out; IMF-fixdate, RFC 850 and asctime in")
    func dates() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT") == 1_835_481_599)
        for bad in ["", "yesterday", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT",
                    "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", String(repeating: "9", count: 100)] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }
}
