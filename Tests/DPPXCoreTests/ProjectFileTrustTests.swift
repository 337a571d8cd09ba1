@testable import DPPXCore
import Testing

/// What a project file, which comes with a repository, may say: no program to run, limits only
/// lowered, and an address beyond this machine is told.
@Suite("The project file's trust")
struct ProjectFileTrustTests {
    @Test("loopback addresses stay on this machine; any other is beyond it")
    func loopback() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"] { #expect(ListenAddress.isLoopback(host), "\(host)") }
        for host in ["0.0.0.0", "::", "192.168.1.2", "127.0.0.1.example.com", "127.0.0", "1270.0.0.1", "example.com", ""] {
            #expect(!ListenAddress.isLoopback(host), "\(host)")
        }
    }

    @Test("the project file refuses [rewrite] browser, naming the key and what to do, and raising a limit past its default")
    func projectFileTrust() {
        #expect(throws: ProjectFileError(line: 2, key: "rewrite.browser",
                                         problem: "is not read from the project file: a repository's file must not choose which program dppx runs. Pass --browser PATH, or set DPPX_BROWSER=PATH in your environment, and remove the key")) {
            try ProjectFile.settings(parsing: "[rewrite]\nbrowser = \"tools/chromium\"\n")
        }
        #expect(throws: ProjectFileError.self) { try ProjectFile.settings(parsing: "[build]\nmax-pixels = 100_000_001\n") }
        #expect(throws: ProjectFileError.self) { try ProjectFile.settings(parsing: "[serve]\nidle-timeout = 31\n") }
        #expect((try? ProjectFile.settings(parsing: "[build]\nmax-pixels = 1000\nmax-frames = 1000\n[serve]\nidle-timeout = 5\n"))?.maxPixels == 1000)
        var flags = ProjectSettings()
        flags.maxPixels = Int.max
        #expect(flags.outOfBounds == nil, "the command line may raise it")
    }
}
