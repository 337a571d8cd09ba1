@testable import DPPXServer
import NIOCore
import NIOHTTP1
import Testing

/// The answer kept for a client that sends the same request again.
@Suite("the last answer on a connection")
struct LastAnswerTests {
    static func request(_ headers: HTTPHeaders = ["Host": "x", "Sec-CH-DPR": "2"], version: HTTPVersion = .http1_1) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: .GET, uri: "/images/hero.jpg", headers: headers)
    }

    @Test("kept only for an answer decided from the manifest and one file, and given only to the very same request")
    func repeated() throws {
        let fixture = try ServerFixture()
        let files = RootedFileSystem(root: fixture.root)
        let file = try #require(files.entry("digits.txt"))
        let manifests = ManifestStore(root: fixture.root, recheckInterval: .seconds(3600))
        var answer = Answer(status: .ok, fieldLines: ByteBuffer(), body: AnswerBody([.file(files.slice("digits.txt", file: file))]))
        #expect(LastAnswer(answer, to: Self.request()) == nil, "not decided from a manifest and one file")
        answer.decidedFrom = Answer.Source(manifest: manifests.index(), path: "digits.txt", file: file)
        let last = try #require(LastAnswer(answer, to: Self.request()))
        #expect(last.isRepeated(by: Self.request()))
        #expect(!last.isRepeated(by: Self.request(["Host": "x", "Sec-CH-DPR": "1"])), "another header value")
        #expect(!last.isRepeated(by: Self.request(["Sec-CH-DPR": "2", "Host": "x"])), "headers in another order")
        #expect(!last.isRepeated(by: Self.request(version: .http1_0)))
    }
}
