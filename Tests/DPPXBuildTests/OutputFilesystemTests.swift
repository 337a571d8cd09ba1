import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An OUT folder that cannot be written: a read-only filesystem, a full one, or (for a normal
/// user) a folder without write permission. The build must stop with the folder and the system's
/// reason, leave what it built before intact, and leave no temporary files.
///
/// As root, `chmod 555` does not stop writes, so those cases use a tiny tmpfs mounted (and
/// remounted read-only) for the test; they are skipped where mounting is not allowed.
@Suite("An OUT folder that cannot be written", .serialized)
struct OutputFilesystemTests {
    @Test("a read-only OUT (chmod 555, as a normal user): a clear error, earlier outputs intact",
          .enabled(if: getuid() != 0, "running as root, where chmod 555 does not stop writes; the tmpfs test covers it"))
    func readOnlyByPermissions() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try fixture.build()
        let before = try AtomicFile.read(fixture.output("a@2x.jpg"))
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100, seed: 9)
        chmod(fixture.output.path, 0o555)
        defer { chmod(fixture.output.path, 0o755) }
        let failure = Self.failureText { try fixture.build() }
        #expect(failure.contains(fixture.output.path), "\(failure)")
        #expect(failure.contains("Permission denied"), "\(failure)")
        #expect(try AtomicFile.read(fixture.output("a@2x.jpg")) == before)
    }

    @Test("a read-only filesystem as OUT: a clear error naming it, earlier outputs intact",
          .enabled(if: TinyFilesystem.available, TinyFilesystem.skipReason))
    func readOnlyFilesystem() async throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try await TinyFilesystem.with(at: fixture.output.path, kilobytes: 4096) { mount in
            #expect(try fixture.build().succeeded)
            let before = try AtomicFile.read(fixture.output("a@2x.jpg"))
            try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100, seed: 9)
            try await mount.remountReadOnly()
            let failure = Self.failureText { try fixture.build() }
            #expect(failure.contains(fixture.output.path), "\(failure)")
            #expect(failure.contains("Read-only file system"), "\(failure)")
            #expect(failure.contains("choose another"), "\(failure)")
            #expect(try AtomicFile.read(fixture.output("a@2x.jpg")) == before)
        }
    }

    @Test("a full filesystem as OUT: the master fails with the reason, no temporary files, other outputs intact",
          .enabled(if: TinyFilesystem.available, TinyFilesystem.skipReason))
    func fullFilesystem() async throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("small.jpg"), width: 60, height: 40)
        try TestImages.write(fixture.source("large.png"), width: 1600, height: 1200)
        try await TinyFilesystem.with(at: fixture.output.path, kilobytes: 256) { _ in
            let report = try fixture.build()
            let reason = try #require(report.failures.first { $0.file == "large.png" }?.reason, "\(report.failures)")
            #expect(reason.contains("No space left on device"), "\(reason)")
            #expect(reason.contains("free some disk space"), "\(reason)")
            #expect(report.built == ["small.jpg"])
            #expect(!fixture.output.files(includingHidden: true).contains { $0.contains(".dppx-tmp-") })
            #expect(try DecodedFile(fixture.output("small@2x.jpg")).width == 60)
            #expect(try fixture.manifestOnDisk().images.map(\.source) == ["small.jpg"])
        }
    }

    /// The text of the error `body` throws, or of its report's failures.
    static func failureText(_ body: () throws -> BuildReport) -> String {
        do {
            let report = try body()
            return report.failures.map(\.description).joined(separator: "\n")
        } catch {
            return String(describing: error)
        }
    }
}

/// A tmpfs of a few kilobytes mounted over a scratch folder (needs root and mount rights).
final class TinyFilesystem: Sendable {
    let path: String

    private init(path: String) { self.path = path }

    /// Whether mounting a tmpfs works here: probed once with a real mount.
    static let available: Bool = {
        guard getuid() == 0, let mount = ExternalTool.path("mount"), ExternalTool.path("umount") != nil else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-mount-probe-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard ExternalTool.runBlocking(mount, ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]) == 0 else { return false }
        return ExternalTool.runBlocking(ExternalTool.path("umount")!, [probe]) == 0
    }()

    static let skipReason: Comment = "cannot mount a tmpfs here (needs root and mount rights): full and read-only OUT are not testable"

    /// Mounts a tmpfs of `kilobytes` over `path` for the duration of `body`, then unmounts it.
    static func with(at path: String, kilobytes: Int, _ body: (TinyFilesystem) async throws -> Void) async throws {
        try await run("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
        let mount = TinyFilesystem(path: path)
        do { try await body(mount) } catch {
            try? await mount.unmount()
            throw error
        }
        try await mount.unmount()
    }

    func remountReadOnly() async throws { try await Self.run("mount", ["-o", "remount,ro", path]) }

    func unmount() async throws {
        // Lazy: a file handle the test still holds must not leave the mount behind.
        try await Self.run("umount", ["-l", path])
    }

    private static func run(_ tool: String, _ arguments: [String]) async throws {
        let status = try await offPool { ExternalTool.runBlocking(ExternalTool.path(tool) ?? tool, arguments) }
        guard status == 0 else { throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(status)") }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }
}

enum ExternalTool {
    static func path(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a short command to completion (call off the cooperative pool).
    static func runBlocking(_ executable: String, _ arguments: [String]) -> Int32 {
        (try? ChildProcess.run(executable, arguments))?.status ?? -1
    }
}
